/*
 * test_d3r.c - the d3r engine (Maglione-Mathey et al., "Scalable
 * deadlock-free deterministic minimal-path routing engine for InfiniBand-
 * based Dragonfly networks", IEEE TPDS 2018; as seed 000, JPDC 2021,
 * describes it), judged by the verifier and by what the papers state:
 * - Table 2 of the JPDC paper: 2 SLs and 2 VLs on the balanced fully
 *   connected dragonflies of 72, 342, 1056 and 2550 endpoints, free of
 *   credit loops, every LID reached, switch traffic included;
 * - one VL per route by destination group order: every hop of a CA-to-CA
 *   path on the VL of its SL, 0 toward a higher-numbered group and inside
 *   a group, 1 toward a lower one (groups by the generator's numbering,
 *   switch s in group s / a), and minimal in global hops: one global cable
 *   between two groups, none inside one; on complete groups the local-
 *   global-local shortest path (counted from the cables);
 * - any intra-group pattern with a fully connected inter-group network
 *   (JPDC Sec. 2.3): a group without one local cable, and groups that are
 *   octahedra (K_{2,2,2}) whose shortest paths make no credit loop, are
 *   routed and verified; an octahedron whose shortest paths are chosen so
 *   that they go round its equator (v_i -> v_{i+1} -> v_{i+2} for the four
 *   equator switches: a cycle of dependencies by construction) is refused
 *   naming the group, and so is a missing global cable;
 * - oversubscribed, palm-tree and g < a*h + 1 dragonflies, and cables
 *   removed by fault injection: routed and verified, or refused with a
 *   reason; fewer than 2 VLs or SLs refused naming 2 VLs; threads 1, 2, 3
 *   give the same bytes.
 */
#include <stdint.h>

#include "lanes/route.h"
#include "lanes/routing.h"
#include "lanes/verify.h"
#include "dragonfly_testutil.h"

extern const struct lanes_engine lanes_engine_d3r;
extern const struct lanes_engine lanes_engine_dla;

/* ---------------------------------------------------------------- helpers */

static struct lanes_routing *route(const struct lanes_fabric *f)
{
	return route_engine(&lanes_engine_d3r, f, 8, 16, 1);
}

/* Is port `port` of switch sw cabled to a switch of another group (groups by s / a)? */
static int is_global(const struct lanes_fabric *f, unsigned a, uint32_t sw, uint8_t port)
{
	const struct lanes_port *pp = lanes_fabric_port(f, f->switches[sw], port);

	return f->nodes[pp->peer_node].type == LANES_NODE_SWITCH &&
	       f->nodes[pp->peer_node].switch_index / a != sw / a;
}

/*
 * Every CA pair: path SL by group order, every hop on the VL of that SL
 * (injection too), one global hop between groups and none inside one; with
 * complete groups, the local-global-local shortest path.
 */
static void check_paths(const struct lanes_fabric *f, const struct lanes_routing *r, unsigned a,
			int complete)
{
	struct hop hops[MAX_HOPS];

	for (uint32_t src = 0; src < f->num_nodes; src++)
		for (uint32_t dst = 0; f->nodes[src].type == LANES_NODE_CA && dst < f->num_nodes;
		     dst++) {
			uint32_t lid = lanes_fabric_lid(f, dst, 1), gs, gd;
			uint8_t sl;
			int n, global = 0;

			if (dst == src || f->nodes[dst].type != LANES_NODE_CA)
				continue;
			n = walk(f, r, src, lid, hops);
			gs = hops[0].sw / a;
			gd = hops[n - 1].sw / a;
			sl = lanes_routing_sl(r, f, lanes_fabric_lid(f, src, 1), lid);
			assert_int_equal(sl, gd < gs ? 1 : 0);
			assert_int_equal(lanes_routing_port_map(r, f, src, 1)[sl], sl);
			for (int i = 0; i < n; i++) {
				const uint8_t *map = lanes_routing_switch_map(
					r, f, hops[i].sw, hops[i].in, hops[i].out);

				assert_int_equal(map[sl], sl);
				global += i + 1 < n && is_global(f, a, hops[i].sw, hops[i].out);
			}
			assert_int_equal(global, gs != gd);
			if (complete)
				assert_int_equal(n - 1,
						 lgl_distance(f, a, hops[0].sw, hops[n - 1].sw));
		}
}

/* Every path, switch LIDs included: reached, no credit loop, 2 VLs and 2 SLs. */
static void check_verified(const struct lanes_fabric *f, const struct lanes_routing *r)
{
	struct lanes_verify_result *res = verify_quick(f, r, 8, 1, 0);

	assert_true(res->reachable);
	assert_true(res->deadlock_free);
	assert_int_equal(res->vls_used, 2);
	assert_int_equal(res->sls_used, 2);
	assert_int_equal(res->vls_over_budget, 0);
	lanes_verify_result_free(res);
}

/* ---------------------------------------------------------------- hand-built dragonflies */

/*
 * g = a*h + 1 groups; switch s of group x is node x*a + s ("g<x>-s<s>"), its
 * ports 1..p hosts, p+1.. local cables in the switch's order of preference
 * (the engine takes the lowest port among equally short first hops), then
 * h global ports; global link j = s*h + k of group x goes to group j if
 * j < x, else j + 1. Groups are complete (optionally without the cable
 * between switches 0 and 1 of group no_local), or, with a = 6, octahedra:
 * equator switches 0-1-2-3-0, poles 4 and 5, each switch cabled to all but
 * its opposite (0-2, 1-3, 4-5). An octahedron's shortest paths between
 * opposite equator switches go over a pole, except in group cyclic_group,
 * where switch i prefers i + 1: the paths i -> i+1 -> i+2 go round the
 * equator and make a cycle of channel dependencies.
 */
enum { COMPLETE, OCTAHEDRA };

struct df_spec {
	unsigned a, p, h;
	int layout;
	int cyclic_group, no_local, no_global_x, no_global_y;
};

/* Switch i of group x: its local neighbours in order of preference; how many. */
static unsigned preference(const struct df_spec *d, unsigned x, unsigned i, unsigned *list)
{
	unsigned n = 0;

	if (d->layout == COMPLETE) {
		for (unsigned j = 0; j < d->a; j++)
			if (j != i && !((int)x == d->no_local && i + j == 1))
				list[n++] = j;
		return n;
	}
	if (i >= 4) { /* a pole: the equator */
		for (unsigned j = 0; j < 4; j++)
			list[n++] = j;
		return n;
	}
	if ((int)x == d->cyclic_group) {
		unsigned order[4] = { (i + 1) % 4, (i + 3) % 4, 4, 5 };

		memcpy(list, order, sizeof(order));
	} else {
		unsigned order[4] = { 4, 5, (i + 1) % 4, (i + 3) % 4 };

		memcpy(list, order, sizeof(order));
	}
	return 4;
}

/* The local port of switch i of group x toward switch j (in its preference list). */
static uint8_t local_port(const struct df_spec *d, unsigned x, unsigned i, unsigned j)
{
	unsigned list[64], n = preference(d, x, i, list);

	for (unsigned k = 0; k < n; k++)
		if (list[k] == j)
			return (uint8_t)(d->p + 1 + k);
	fail_msg("no cable %u-%u in group %u", i, j, x);
	return 0;
}

static void add_group(struct lanes_builder *b, const struct df_spec *d, unsigned x)
{
	struct lanes_error err;
	char desc[32];

	for (unsigned s = 0; s < d->a; s++) {
		uint8_t nports = (uint8_t)(d->p + d->a - 1 + d->h);
		uint64_t guid = 0x1000 + x * d->a + s;
		struct lanes_node_spec sp = { LANES_NODE_SWITCH, nports, guid, 0, 0, 0, desc };

		snprintf(desc, sizeof(desc), "g%u-s%u", x, s);
		assert_int_equal(lanes_builder_add_node(b, &sp, NULL, &err), 0);
	}
}

static void add_local_cables(struct lanes_builder *b, const struct df_spec *d, unsigned x)
{
	for (unsigned i = 0; i < d->a; i++) {
		unsigned list[64], n = preference(d, x, i, list);

		for (unsigned k = 0; k < n; k++)
			if (list[k] > i)
				tb_cable(b, x * d->a + i, local_port(d, x, i, list[k]),
					 x * d->a + list[k], local_port(d, x, list[k], i));
	}
}

static struct lanes_fabric *build_dragonfly(const struct df_spec *d)
{
	struct lanes_builder *b = tb_new();
	unsigned g = d->a * d->h + 1, base = d->p + d->a;

	for (unsigned x = 0; x < g; x++)
		add_group(b, d, x);
	for (unsigned x = 0; x < g; x++)
		add_local_cables(b, d, x);
	for (unsigned x = 0; x < g; x++)
		for (unsigned y = x + 1; y < g; y++)
			if (!((int)x == d->no_global_x && (int)y == d->no_global_y))
				tb_cable(b, x * d->a + (y - 1) / d->h,
					 (uint8_t)(base + (y - 1) % d->h), y * d->a + x / d->h,
					 (uint8_t)(base + x % d->h));
	for (unsigned s = 0; s < g * d->a; s++)
		for (unsigned k = 0; k < d->p; k++)
			tb_cable(b, s, (uint8_t)(1 + k),
				 tb_add(b, LANES_NODE_CA, 1, 0x100000 + s * d->p + k), 1);
	return tb_finish(b);
}

/* ---------------------------------------------------------------- tests */

static void test_descriptor(void **state)
{
	(void)state;
	assert_non_null(lanes_engine_find("d3r"));
	assert_int_equal(lanes_engine_d3r.flags, LANES_ENGINE_DEADLOCK_FREE |
							 LANES_ENGINE_USES_SLS |
							 LANES_ENGINE_USES_VLS);
}

/* JPDC Table 2: D3R needs 2 SLs and 2 VLs on all four balanced dragonflies. */
static void test_table2(void **state)
{
	static const char *const specs[] = { "dragonfly a=4 p=2 h=2", "dragonfly a=6 p=3 h=3",
					     "dragonfly a=8 p=4 h=4", "dragonfly a=10 p=5 h=5" };
	static const uint32_t endpoints[] = { 72, 342, 1056, 2550 };

	(void)state;
	for (int i = 0; i < 4; i++) {
		struct lanes_fabric *f = gen(specs[i]);
		struct lanes_routing *r = route(f);

		assert_int_equal(f->num_cas, endpoints[i]);
		assert_int_equal(r->num_sls, 2);
		assert_int_equal(r->num_vls, 2);
		assert_int_equal(r->sl_mode, LANES_SL_PER_SRC_SWITCH);
		check_verified(f, r);
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
}

/* Group order on balanced, oversubscribed, palm-tree and g < a*h + 1 dragonflies. */
static void test_group_order(void **state)
{
	static const char *const specs[] = {
		"dragonfly a=4 p=2 h=2",	 "dragonfly a=6 p=3 h=3",
		"dragonfly a=4 p=4 h=2",	 "dragonfly a=8 p=8 h=4",
		"dragonfly a=6 p=3 h=3 wiring=palmtree", "dragonfly a=4 p=2 h=2 g=5",
		"dragonfly a=4 p=2 h=2 g=3",	 "dragonfly a=6 p=3 h=3 g=8 wiring=palmtree",
	};
	static const unsigned a[] = { 4, 6, 4, 8, 6, 4, 4, 6 };

	(void)state;
	for (int i = 0; i < 8; i++) {
		struct lanes_fabric *f = gen(specs[i]);
		struct lanes_routing *r = route(f);

		check_verified(f, r);
		check_paths(f, r, a[i], 1);
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
}

/* A group without one local cable: d3r routes it (dla would not), two local hops there. */
static void test_group_missing_local(void **state)
{
	struct df_spec d = { 6, 1, 1, COMPLETE, -1, 3, -1, -1 };
	struct lanes_fabric *f = build_dragonfly(&d);
	struct lanes_routing *r = route(f);
	struct hop hops[MAX_HOPS];
	uint32_t ca0 = 0, ca1 = 0;

	(void)state;
	check_verified(f, r);
	check_paths(f, r, 6, 0);
	for (uint32_t n = 0; n < f->num_nodes; n++) { /* the CAs of switches 0 and 1 of group 3 */
		const struct lanes_port *pp = lanes_fabric_port(f, n, 1);

		if (f->nodes[n].type == LANES_NODE_CA && pp->peer_node == 18)
			ca0 = n;
		if (f->nodes[n].type == LANES_NODE_CA && pp->peer_node == 19)
			ca1 = n;
	}
	assert_int_equal(walk(f, r, ca0, lanes_fabric_lid(f, ca1, 1), hops), 3);
	assert_int_equal(route_engine_error(&lanes_engine_dla, f, 8, 16).code, LANES_EREFUSED);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* Octahedral groups whose shortest paths go over the poles: routed, verified. */
static void test_octahedra(void **state)
{
	struct df_spec d = { 6, 1, 1, OCTAHEDRA, -1, -1, -1, -1 };
	struct lanes_fabric *f = build_dragonfly(&d);
	struct lanes_routing *r = route(f);
	struct lanes_error err;

	(void)state;
	check_verified(f, r);
	check_paths(f, r, 6, 0);
	err = route_engine_error(&lanes_engine_dla, f, 8, 16);
	assert_string_equal(err.message, "dla: group 0 is not fully connected: switches \"g0-s0\" "
					 "and \"g0-s2\" have no cable");
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* An octahedron whose shortest paths go round its equator: a credit loop, refused by name. */
static void test_octahedron_cycle_refused(void **state)
{
	static const char expected[] = "d3r: the shortest paths inside group 4 make a credit loop";
	struct df_spec d = { 6, 1, 1, OCTAHEDRA, 4, -1, -1, -1 };
	struct lanes_fabric *f = build_dragonfly(&d);
	struct lanes_error err = route_engine_error(&lanes_engine_d3r, f, 8, 16);

	(void)state;
	assert_int_equal(err.code, LANES_EREFUSED);
	assert_memory_equal(err.message, expected, sizeof(expected) - 1);
	assert_non_null(strstr(err.message, "\"g4-s"));
	lanes_fabric_free(f);
}

/* Two groups without a global cable: named. */
static void test_refuse_missing_global(void **state)
{
	struct df_spec d = { 6, 1, 1, COMPLETE, -1, -1, 2, 5 };
	struct lanes_fabric *f = build_dragonfly(&d);
	struct lanes_error err = route_engine_error(&lanes_engine_d3r, f, 8, 16);

	(void)state;
	assert_int_equal(err.code, LANES_EREFUSED);
	assert_string_equal(err.message, "d3r: groups 2 and 5 have no global cable");
	lanes_fabric_free(f);
}

/* No dragonfly: the recogniser's reason after "d3r: ". */
static void test_refuse_not_dragonfly(void **state)
{
	static const char *const specs[] = { "torus k=4x4 p=1", "fattree k=4 n=2" };

	(void)state;
	for (int i = 0; i < 2; i++) {
		struct lanes_fabric *f = gen(specs[i]);
		struct lanes_error err = route_engine_error(&lanes_engine_d3r, f, 8, 16);

		assert_int_equal(err.code, LANES_EREFUSED);
		assert_memory_equal(err.message, "d3r: ", 5);
		lanes_fabric_free(f);
	}
}

/* Links failed at random: routed and verified, or refused with a reason. */
static void test_faults(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=6 p=3 h=3");
	(void)state;
	for (uint64_t seed = 1; seed <= 8; seed++) {
		struct lanes_fault_spec spec = { 0.05, 0, seed };
		struct lanes_fabric *faulty = NULL;
		struct lanes_routing *r = NULL;
		struct lanes_route_opts o;
		struct lanes_error err;

		assert_int_equal(lanes_fabric_inject_faults(f, &spec, &faulty, NULL, &err), 0);
		lanes_route_opts_init(&o);
		if (lanes_route(&lanes_engine_d3r, faulty, &o, &r, &err) == 0) {
			struct lanes_verify_result *res = verify_quick(faulty, r, 8, 1, 0);

			assert_true(res->reachable && res->deadlock_free);
			lanes_verify_result_free(res);
		} else {
			assert_memory_equal(err.message, "d3r: ", 5);
		}
		lanes_routing_free(r);
		lanes_fabric_free(faulty);
	}
	lanes_fabric_free(f);
}

/* Fewer than 2 VLs or 2 SLs: over budget, naming 2 VLs and the limit that binds. */
static void test_budget(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	struct lanes_error err = route_engine_error(&lanes_engine_d3r, f, 1, 16);

	(void)state;
	assert_int_equal(err.code, LANES_ERANGE);
	assert_string_equal(err.message, "d3r: needs 2 VLs, the budget is 1 (vls 1)");
	err = route_engine_error(&lanes_engine_d3r, f, 8, 1);
	assert_string_equal(err.message, "d3r: needs 2 VLs, the budget is 1 (sls 1)");
	lanes_routing_free(route_engine(&lanes_engine_d3r, f, 2, 2, 1));
	lanes_fabric_free(f);
}

/* The same bytes for 1, 2 and 3 threads. */
static void test_threads(void **state)
{
	static const char *const specs[] = { "dragonfly a=6 p=3 h=3",
					     "dragonfly a=6 p=3 h=3 g=8 wiring=palmtree" };

	(void)state;
	for (int i = 0; i < 2; i++)
		check_threads_identical(&lanes_engine_d3r, specs[i], 3);
}

/* Without switch LIDs: CA traffic still verified. */
static void test_ca_lids_only(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	struct lanes_routing *r = route_engine(&lanes_engine_d3r, f, 8, 16, 0);
	struct lanes_verify_result *res = verify_quick(f, r, 8, 0, 1);

	(void)state;
	assert_true(res->reachable && res->deadlock_free);
	lanes_verify_result_free(res);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptor),
		cmocka_unit_test(test_table2),
		cmocka_unit_test(test_group_order),
		cmocka_unit_test(test_group_missing_local),
		cmocka_unit_test(test_octahedra),
		cmocka_unit_test(test_octahedron_cycle_refused),
		cmocka_unit_test(test_refuse_missing_global),
		cmocka_unit_test(test_refuse_not_dragonfly),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_ca_lids_only),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
