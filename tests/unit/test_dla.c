/*
 * test_dla.c - the dla engine (Maglione-Mathey et al., "Leveraging
 * InfiniBand controller to configure deadlock-free routing engines for
 * Dragonflies", JPDC 2021: Fig. 4 routing, Fig. 8 SL2VL), judged by the
 * verifier and by what the paper states:
 * - Table 2: 1 SL and 2 VLs on the balanced fully connected dragonflies of
 *   72, 342, 1056 and 2550 endpoints, free of credit loops, every LID
 *   reached, switch traffic included;
 * - Fig. 8: VL 1 exactly on (global in port, local out port) pairs, for
 *   every SL; injection on VL 0;
 * - Fig. 4: every CA-to-CA path is local-global-local (at most one hop of
 *   each, in that order; one local hop inside a group), as short as the
 *   shortest path with at most one global cable (counted from the cables,
 *   not from the routing), never shorter than the switch distance, at most
 *   one hop longer. (Not always the switch distance itself: a path through
 *   a third group, two global cables, can be shorter; Bunde and Curtsinger,
 *   "Shortest paths in Dragonfly systems", HiPINEB 2019. Fig. 4 is minimal
 *   in global hops, as Kim and Dally define it.)
 * - Sec. 2.1.1, formulas (1)-(3): flows (ordered CA pairs) per channel,
 *   counted by walking the tables, on balanced dragonflies: N - 1 per
 *   terminal channel, (ap)^2 per global channel, p^2 + 2ahp^2 per local
 *   channel, split p^2 + ahp^2 on VL 0 and ahp^2 on VL 1;
 * - refusals naming what is missing: a group without one local cable, two
 *   groups without a global cable (hand-built), cables removed by fault
 *   injection, a torus, a fat tree; fewer than 2 VLs;
 * - oversubscribed (p = a), palm-tree wiring and fewer groups than a*h + 1
 *   (several cables between two groups): routed, verified, Fig. 4's shape;
 * - the same bytes with 1, 2 and 3 threads; switch LIDs left out on
 *   request; LMC 1 routed and verified.
 * Switch s of a generated or hand-built dragonfly here is in group s / a
 * (the generator's numbering, src/topo/dragonfly.c), independent of the
 * recogniser the engine uses.
 */
#include <stdint.h>

#include "lanes/route.h"
#include "lanes/routing.h"
#include "lanes/verify.h"
#include "dragonfly_testutil.h"

extern const struct lanes_engine lanes_engine_dla;

/* ---------------------------------------------------------------- helpers */

static struct lanes_routing *route(const struct lanes_fabric *f)
{
	return route_engine(&lanes_engine_dla, f, 8, 16, 1);
}

enum { TERMINAL, LOCAL, GLOBAL };

/* The kind of port `port` of switch sw, groups by s / a. */
static int kind(const struct lanes_fabric *f, unsigned a, uint32_t sw, uint8_t port)
{
	const struct lanes_port *pp = lanes_fabric_port(f, f->switches[sw], port);

	if (f->nodes[pp->peer_node].type != LANES_NODE_SWITCH)
		return TERMINAL;
	return f->nodes[pp->peer_node].switch_index / a == sw / a ? LOCAL : GLOBAL;
}

/* Local, global, local hops of a path, each at most once and in that order: its switch hops. */
static int check_lgl_shape(const struct lanes_fabric *f, unsigned a, const struct hop *hops,
			   int n)
{
	int local_before = 0, global = 0, local_after = 0;

	for (int i = 0; i + 1 < n; i++) {
		int k = kind(f, a, hops[i].sw, hops[i].out);

		assert_int_not_equal(k, TERMINAL);
		if (k == GLOBAL)
			global++;
		else if (global)
			local_after++;
		else
			local_before++;
	}
	assert_true(global <= 1 && local_before <= 1 && local_after <= 1);
	if (hops[0].sw / a == hops[n - 1].sw / a)
		assert_true(global == 0 &&
			    local_before + local_after == (hops[0].sw != hops[n - 1].sw));
	else
		assert_int_equal(global, 1);
	return local_before + global + local_after;
}

/* Fig. 4 on every CA pair: l-g-l shape, lgl-minimal, within a hop of the switch distance. */
static void check_minimal(const char *spec, unsigned a)
{
	struct lanes_fabric *f = gen(spec);
	struct lanes_routing *r = route(f);
	struct hop hops[MAX_HOPS];
	struct lanes_error err;
	uint8_t *dist = NULL;

	assert_int_equal(lanes_fabric_switch_distances(f, &dist, &err), 0);
	for (uint32_t src = 0; src < f->num_nodes; src++) {
		if (f->nodes[src].type != LANES_NODE_CA)
			continue;
		for (uint32_t dst = 0; dst < f->num_nodes; dst++) {
			uint32_t lid = lanes_fabric_lid(f, dst, 1), s, t;
			int n, len;

			if (dst == src || f->nodes[dst].type != LANES_NODE_CA)
				continue;
			n = walk(f, r, src, lid, hops);
			len = check_lgl_shape(f, a, hops, n);
			s = hops[0].sw;
			t = hops[n - 1].sw;
			assert_int_equal(len, n - 1);
			assert_int_equal(len, lgl_distance(f, a, s, t));
			assert_true(len >= dist[(size_t)s * f->num_switches + t]);
			assert_true(len <= dist[(size_t)s * f->num_switches + t] + 1);
		}
	}
	free(dist);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* Route and verify, every path, switch LIDs included: reached, no credit loop, 2 VLs, 1 SL. */
static void check_verified(const struct lanes_fabric *f, const struct lanes_routing *r)
{
	struct lanes_verify_result *res = verify_quick(f, r, 8, 1, 0);

	assert_true(res->reachable);
	assert_true(res->deadlock_free);
	assert_int_equal(res->vls_used, 2);
	assert_int_equal(res->sls_used, 1);
	assert_int_equal(res->vls_over_budget, 0);
	lanes_verify_result_free(res);
}

/* ---------------------------------------------------------------- a hand-built dragonfly */

/*
 * A fully connected dragonfly with g = a*h + 1 groups, built cable by cable:
 * switch s of group x is node x*a + s, described "g<x>-s<s>"; ports 1..p
 * hosts, p+1.. local cables in ascending order of the other switch, then
 * the h global ports; global link j = s*h + k of group x goes to group j if
 * j < x, else j + 1 (consecutive). Optionally without the local cable
 * between switches 0 and 1 of group no_local, or without the global cable
 * between groups no_global_x and no_global_y (-1: none), and with an LMC.
 */
struct df_spec {
	unsigned a, p, h;
	int no_local;
	int no_global_x, no_global_y;
	uint8_t lmc;
};

static void add_switches(struct lanes_builder *b, const struct df_spec *d, unsigned g)
{
	struct lanes_error err;
	char desc[32];

	for (unsigned x = 0; x < g; x++)
		for (unsigned s = 0; s < d->a; s++) {
			uint8_t nports = (uint8_t)(d->p + d->a - 1 + d->h);
			uint64_t guid = 0x1000 + x * d->a + s;
			struct lanes_node_spec sp = { LANES_NODE_SWITCH, nports, guid, 0, 0, 0,
						      desc };

			snprintf(desc, sizeof(desc), "g%u-s%u", x, s);
			assert_int_equal(lanes_builder_add_node(b, &sp, NULL, &err), 0);
		}
}

static void add_local_cables(struct lanes_builder *b, const struct df_spec *d, unsigned g)
{
	for (unsigned x = 0; x < g; x++)
		for (unsigned i = 0; i < d->a; i++)
			for (unsigned j = i + 1; j < d->a; j++)
				if (!((int)x == d->no_local && i == 0 && j == 1))
					tb_cable(b, x * d->a + i, (uint8_t)(d->p + j), x * d->a + j,
						 (uint8_t)(d->p + 1 + i));
}

static void add_global_cables(struct lanes_builder *b, const struct df_spec *d, unsigned g)
{
	unsigned base = d->p + d->a;

	for (unsigned x = 0; x < g; x++)
		for (unsigned y = x + 1; y < g; y++) {
			unsigned jx = y - 1, jy = x; /* the link index at x for y, at y for x */

			if ((int)x == d->no_global_x && (int)y == d->no_global_y)
				continue;
			tb_cable(b, x * d->a + jx / d->h, (uint8_t)(base + jx % d->h),
				 y * d->a + jy / d->h, (uint8_t)(base + jy % d->h));
		}
}

static void add_hosts(struct lanes_builder *b, const struct df_spec *d, unsigned g)
{
	struct lanes_error err;

	for (unsigned s = 0; s < g * d->a; s++)
		for (unsigned k = 0; k < d->p; k++) {
			uint32_t ca = tb_add(b, LANES_NODE_CA, 1, 0x100000 + s * d->p + k);

			tb_cable(b, s, (uint8_t)(1 + k), ca, 1);
			assert_int_equal(lanes_builder_set_port(b, ca, 1, 0, 0, d->lmc, &err), 0);
		}
}

static struct lanes_fabric *build_dragonfly(const struct df_spec *d)
{
	struct lanes_builder *b = tb_new();
	unsigned g = d->a * d->h + 1;

	add_switches(b, d, g);
	add_local_cables(b, d, g);
	add_global_cables(b, d, g);
	add_hosts(b, d, g);
	return tb_finish(b);
}

/* ---------------------------------------------------------------- tests */

static void test_descriptor(void **state)
{
	(void)state;
	assert_non_null(lanes_engine_find("dla"));
	assert_int_equal(lanes_engine_dla.flags,
			 LANES_ENGINE_DEADLOCK_FREE | LANES_ENGINE_USES_VLS);
}

/* Seed 000 Table 2: DLA needs 1 SL and 2 VLs on all four balanced dragonflies. */
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
		assert_int_equal(r->num_sls, 1);
		assert_int_equal(r->num_vls, 2);
		assert_int_equal(r->sl_mode, LANES_SL_UNIFORM);
		check_verified(f, r);
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
}

/* Fig. 8: VL 1 for every SL exactly where a global in port meets a local out port. */
static void test_sl2vl_figure8(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=6 p=3 h=3");
	struct lanes_routing *r = route(f);

	(void)state;
	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint8_t nports = f->nodes[f->switches[s]].nports;

		for (uint8_t in = 1; in <= nports; in++)
			for (uint8_t out = 1; out <= nports; out++) {
				const uint8_t *map = lanes_routing_switch_map(r, f, s, in, out);
				int vl1 = kind(f, 6, s, in) == GLOBAL &&
					  kind(f, 6, s, out) == LOCAL;

				for (int sl = 0; sl < LANES_NUM_SLS; sl++)
					assert_int_equal(map[sl], vl1);
			}
	}
	for (uint32_t n = 0; n < f->num_nodes; n++)
		if (f->nodes[n].type == LANES_NODE_CA)
			for (int sl = 0; sl < LANES_NUM_SLS; sl++)
				assert_int_equal(lanes_routing_port_map(r, f, n, 1)[sl], 0);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* Fig. 4 on balanced, oversubscribed and palm-tree dragonflies, one cable per group pair. */
static void test_minimal(void **state)
{
	(void)state;
	check_minimal("dragonfly a=4 p=2 h=2", 4);
	check_minimal("dragonfly a=6 p=3 h=3", 6);
	check_minimal("dragonfly a=4 p=4 h=2", 4);
	check_minimal("dragonfly a=6 p=3 h=3 wiring=palmtree", 6);
}

/* Fewer groups than a*h + 1: several cables join two groups; still Fig. 4 and lgl-minimal. */
static void test_fewer_groups(void **state)
{
	static const char *const specs[] = { "dragonfly a=4 p=2 h=2 g=5",
					     "dragonfly a=4 p=2 h=2 g=3",
					     "dragonfly a=6 p=3 h=3 g=8 wiring=palmtree",
					     "dragonfly a=3 p=1 h=2 g=5 wiring=palmtree" };
	static const unsigned a[] = { 4, 4, 6, 3 };

	(void)state;
	for (int i = 0; i < 4; i++) {
		struct lanes_fabric *f = gen(specs[i]);
		struct lanes_routing *r = route(f);

		check_verified(f, r);
		lanes_routing_free(r);
		lanes_fabric_free(f);
		check_minimal(specs[i], a[i]);
	}
}

/* Oversubscribed (p = a, seed 000 Figs. 17-19) and palm-tree: routed and verified. */
static void test_oversubscribed_palmtree(void **state)
{
	static const char *const specs[] = { "dragonfly a=4 p=4 h=2", "dragonfly a=8 p=8 h=4",
					     "dragonfly a=8 p=4 h=4 wiring=palmtree" };

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct lanes_fabric *f = gen(specs[i]);
		struct lanes_routing *r = route(f);

		check_verified(f, r);
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
}

/* Flows (ordered CA pairs) counted per channel, for formulas (1)-(3). */
struct flow_counts {
	uint64_t *out_total, *out_vl1; /* per switch port slot: flows leaving by it */
	uint64_t *ca_out, *ca_in;      /* per CA node: flows it sends, flows it receives */
};

/* Count the flows of the CA pair (src, dst) on each channel of its path. */
static void count_path(const struct lanes_fabric *f, const struct lanes_routing *r, uint32_t src,
		       uint32_t dst, struct flow_counts *c)
{
	struct hop hops[MAX_HOPS];
	uint32_t lid = lanes_fabric_lid(f, dst, 1);
	int n = walk(f, r, src, lid, hops);
	uint8_t sl = lanes_routing_sl(r, f, lanes_fabric_lid(f, src, 1), lid);

	c->ca_out[src]++;
	c->ca_in[dst]++;
	for (int i = 0; i + 1 < n; i++) {
		size_t slot = f->nodes[f->switches[hops[i].sw]].port_base + hops[i].out;

		c->out_total[slot]++;
		c->out_vl1[slot] += lanes_routing_switch_map(r, f, hops[i].sw, hops[i].in,
							     hops[i].out)[sl] == 1;
	}
}

/* Every channel's flows against formulas (1)-(3) of Sec. 2.1.1. */
static void check_formulas(const struct lanes_fabric *f, unsigned a, unsigned p, unsigned h,
			   const struct flow_counts *c)
{
	uint64_t N = (uint64_t)a * p * (a * h + 1), ap = (uint64_t)a * p;
	uint64_t from_others = (uint64_t)a * h * p * p;
	uint64_t local = (uint64_t)p * p + 2 * from_others;

	for (uint32_t n = 0; n < f->num_nodes; n++)
		if (f->nodes[n].type == LANES_NODE_CA) {
			assert_int_equal(c->ca_out[n], N - 1); /* (1), CA to switch */
			assert_int_equal(c->ca_in[n], N - 1);  /* (1), switch to CA */
		}
	for (uint32_t s = 0; s < f->num_switches; s++)
		for (uint8_t q = 1; q <= f->nodes[f->switches[s]].nports; q++) {
			size_t slot = f->nodes[f->switches[s]].port_base + q;
			int k = kind(f, a, s, q);

			if (k == GLOBAL) { /* (2) */
				assert_int_equal(c->out_total[slot], ap * ap);
				assert_int_equal(c->out_vl1[slot], 0);
			} else if (k == LOCAL) { /* (3), and the VL split */
				assert_int_equal(c->out_total[slot], local);
				assert_int_equal(c->out_vl1[slot], from_others);
				assert_int_equal(c->out_total[slot] - c->out_vl1[slot],
						 (uint64_t)p * p + from_others);
			}
		}
}

static void check_flows(const char *spec, unsigned a, unsigned p, unsigned h)
{
	struct lanes_fabric *f = gen(spec);
	struct lanes_routing *r = route(f);
	struct flow_counts c;

	c.out_total = calloc(f->num_port_slots, sizeof(uint64_t));
	c.out_vl1 = calloc(f->num_port_slots, sizeof(uint64_t));
	c.ca_out = calloc(f->num_nodes, sizeof(uint64_t));
	c.ca_in = calloc(f->num_nodes, sizeof(uint64_t));
	assert_true(c.out_total && c.out_vl1 && c.ca_out && c.ca_in);
	for (uint32_t src = 0; src < f->num_nodes; src++)
		for (uint32_t dst = 0; f->nodes[src].type == LANES_NODE_CA && dst < f->num_nodes;
		     dst++)
			if (dst != src && f->nodes[dst].type == LANES_NODE_CA)
				count_path(f, r, src, dst, &c);
	check_formulas(f, a, p, h, &c);
	free(c.out_total);
	free(c.out_vl1);
	free(c.ca_out);
	free(c.ca_in);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* Seed 000 Sec. 2.1.1, formulas (1)-(3), on the balanced dragonflies of Table 2. */
static void test_flow_formulas(void **state)
{
	(void)state;
	check_flows("dragonfly a=4 p=2 h=2", 4, 2, 2);
	check_flows("dragonfly a=6 p=3 h=3", 6, 3, 3);
	check_flows("dragonfly a=8 p=4 h=4", 8, 4, 4);
	check_flows("dragonfly a=10 p=5 h=5", 10, 5, 5);
}

/* The reason dla gives for f. */
static struct lanes_error refusal(const struct lanes_fabric *f)
{
	return route_engine_error(&lanes_engine_dla, f, 8, 16);
}

/* A group without one local cable: "group 3 is not fully connected", the two switches named. */
static void test_refuse_missing_local(void **state)
{
	struct df_spec d = { 6, 1, 1, 3, -1, -1, 0 };
	struct lanes_fabric *f = build_dragonfly(&d);
	struct lanes_error err = refusal(f);

	(void)state;
	assert_int_equal(err.code, LANES_EREFUSED);
	assert_string_equal(err.message, "dla: group 3 is not fully connected: switches \"g3-s0\" "
					 "and \"g3-s1\" have no cable");
	lanes_fabric_free(f);
}

/* Two groups without a global cable: named. */
static void test_refuse_missing_global(void **state)
{
	struct df_spec d = { 6, 1, 1, -1, 2, 5, 0 };
	struct lanes_fabric *f = build_dragonfly(&d);
	struct lanes_error err = refusal(f);

	(void)state;
	assert_int_equal(err.code, LANES_EREFUSED);
	assert_string_equal(err.message, "dla: groups 2 and 5 have no global cable");
	lanes_fabric_free(f);
}

/* The intact hand-built dragonfly routes and verifies (the refusals above are the cable's). */
static void test_hand_built_intact(void **state)
{
	struct df_spec d = { 6, 1, 1, -1, -1, -1, 0 };
	struct lanes_fabric *f = build_dragonfly(&d);
	struct lanes_routing *r = route(f);

	(void)state;
	check_verified(f, r);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/*
 * Cables removed by fault injection: a group is no longer complete or two
 * groups lose their only cable, so dla must refuse, naming why.
 */
static void test_refuse_faults(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=6 p=3 h=3");

	(void)state;
	for (uint64_t seed = 1; seed <= 5; seed++) {
		struct lanes_fault_spec spec = { 3, 0, seed };
		struct lanes_fabric *faulty = NULL;
		struct lanes_error err;

		assert_int_equal(lanes_fabric_inject_faults(f, &spec, &faulty, NULL, &err), 0);
		err = refusal(faulty);
		assert_int_equal(err.code, LANES_EREFUSED);
		assert_memory_equal(err.message, "dla: ", 5);
		lanes_fabric_free(faulty);
	}
	lanes_fabric_free(f);
}

/* No dragonfly: the recogniser's reason after "dla: ". */
static void test_refuse_not_dragonfly(void **state)
{
	static const char *const specs[] = { "torus k=4x4 p=1", "fattree k=4 n=2",
					     "hypercube n=3 p=1" };

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct lanes_fabric *f = gen(specs[i]);
		struct lanes_error err = refusal(f);

		assert_int_equal(err.code, LANES_EREFUSED);
		assert_memory_equal(err.message, "dla: ", 5);
		lanes_fabric_free(f);
	}
}

/* One VL: over budget, naming the 2 VLs; one SL is enough. */
static void test_budget(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	struct lanes_error err = route_engine_error(&lanes_engine_dla, f, 1, 16);
	struct lanes_routing *r;

	(void)state;
	assert_int_equal(err.code, LANES_ERANGE);
	assert_string_equal(err.message, "dla: needs 2 VLs, the budget is 1 (vls 1)");
	r = route_engine(&lanes_engine_dla, f, 2, 1, 1);
	check_verified(f, r);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* The same bytes for 1, 2 and 3 threads. */
static void test_threads(void **state)
{
	static const char *const specs[] = { "dragonfly a=6 p=3 h=3",
					     "dragonfly a=6 p=3 h=3 g=8 wiring=palmtree" };

	(void)state;
	for (int i = 0; i < 2; i++)
		check_threads_identical(&lanes_engine_dla, specs[i], 3);
}

/* Without switch LIDs: each switch keeps its own LIDs on port 0, no other switch routes them. */
static void test_ca_lids_only(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	struct lanes_routing *r = route_engine(&lanes_engine_dla, f, 8, 16, 0);
	struct lanes_verify_result *res = verify_quick(f, r, 8, 0, 1);

	(void)state;
	assert_true(res->reachable && res->deadlock_free);
	for (uint32_t t = 0; t < f->num_switches; t++) {
		uint32_t lid = lanes_fabric_port(f, f->switches[t], 0)->lid;

		for (uint32_t s = 0; s < f->num_switches; s++)
			assert_int_equal(lanes_routing_port(r, s, lid),
					 s == t ? 0 : LANES_PORT_DROP);
	}
	lanes_verify_result_free(res);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* LMC 1: both LIDs of every CA port reached, free of credit loops. */
static void test_lmc(void **state)
{
	struct df_spec d = { 6, 2, 1, -1, -1, -1, 1 };
	struct lanes_fabric *f = build_dragonfly(&d);
	struct lanes_routing *r = route(f);

	(void)state;
	check_verified(f, r);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptor),
		cmocka_unit_test(test_table2),
		cmocka_unit_test(test_sl2vl_figure8),
		cmocka_unit_test(test_minimal),
		cmocka_unit_test(test_fewer_groups),
		cmocka_unit_test(test_oversubscribed_palmtree),
		cmocka_unit_test(test_flow_formulas),
		cmocka_unit_test(test_refuse_missing_local),
		cmocka_unit_test(test_refuse_missing_global),
		cmocka_unit_test(test_hand_built_intact),
		cmocka_unit_test(test_refuse_faults),
		cmocka_unit_test(test_refuse_not_dragonfly),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_ca_lids_only),
		cmocka_unit_test(test_lmc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
