/*
 * test_dor.c - the dor engine against what OpenSM's doc/current-routing.txt
 * ("DOR Routing Algorithm") promises, worked out here from coordinates:
 * on meshes and hypercubes cabled as the generators document it (grid.h:
 * switch index = coordinates with dimension 0 fastest; hosts on ports
 * 1..p; then per dimension a block of L ports towards +1 and, in a mesh, L
 * towards -1; a hypercube cable uses one port number on both ends), every
 * route from every switch to every CA moves in the lowest dimension in
 * which it differs from the destination, one hop nearer each time, so the
 * routes are shortest and in dimension order; each switch spreads the CA
 * LIDs over the parallel cables of a dimension evenly (its port counters
 * differ by at most one); the verifier finds no credit loop on one VL. A
 * torus, a mesh with one switch's ports swapped and a mesh with a cable
 * missing are refused with the switch and port named. OpenSM's dor rule
 * for LMC > 0 over parallel cables, by hand. Agreement with the
 * real OpenSM is tests/interop/dor_vs_opensm.sh.
 */
#include <stdint.h>

#include "lanes/route.h"
#include "lanes/routing.h"
#include "lanes/verify.h"
#include "testutil.h"

#define DIMS_MAX 4

/* A generated grid and its parameters, as the spec says them. */
struct grid_case {
	const char *spec;
	int hypercube;
	size_t n;
	uint32_t k[DIMS_MAX], L[DIMS_MAX], p;
};

static const struct grid_case cases[] = {
	{ "mesh k=4x4 p=1", 0, 2, { 4, 4 }, { 1, 1 }, 1 },
	{ "mesh k=3x3x3 p=1", 0, 3, { 3, 3, 3 }, { 1, 1, 1 }, 1 },
	{ "hypercube n=4 p=1", 1, 4, { 2, 2, 2, 2 }, { 1, 1, 1, 1 }, 1 },
	{ "mesh k=4x4 p=1 L=2", 0, 2, { 4, 4 }, { 2, 2 }, 1 },
	{ "mesh k=3x3x3 p=2 L=2", 0, 3, { 3, 3, 3 }, { 2, 2, 2 }, 2 },
	{ "hypercube n=4 p=1 L=2", 1, 4, { 2, 2, 2, 2 }, { 2, 2, 2, 2 }, 1 },
	{ "mesh k=4x3 p=2 L=1,3", 0, 2, { 4, 3 }, { 1, 3 }, 2 },
};

#define NUM_CASES (sizeof(cases) / sizeof(cases[0]))

static const struct lanes_engine *dor(void)
{
	const struct lanes_engine *e = lanes_engine_find("dor");

	assert_non_null(e);
	return e;
}

/* The first port of dimension i's block (grid.h). */
static uint32_t block_base(const struct grid_case *g, size_t i)
{
	uint32_t base = g->p + 1;

	for (size_t j = 0; j < i; j++)
		base += g->k[j] < 2 ? 0 : g->hypercube ? g->L[j] : 2 * g->L[j];
	return base;
}

/* The first of the L ports that go from a switch along dimension i, up (+1) or down. */
static uint32_t first_port(const struct grid_case *g, size_t i, int up)
{
	return block_base(g, i) + (up || g->hypercube ? 0 : g->L[i]);
}

static void coords(const struct grid_case *g, uint32_t s, uint32_t *c)
{
	for (size_t i = 0; i < g->n; i++) {
		c[i] = s % g->k[i];
		s /= g->k[i];
	}
}

static uint32_t stride(const struct grid_case *g, size_t i)
{
	uint32_t st = 1;

	for (size_t j = 0; j < i; j++)
		st *= g->k[j];
	return st;
}

/* The switch index behind switch s's port (LANES_NONE: not a switch). */
static uint32_t behind(const struct lanes_fabric *f, uint32_t s, uint8_t port)
{
	const struct lanes_port *pt = lanes_fabric_port(f, f->switches[s], port);

	if (port == 0 || port == LANES_PORT_DROP || pt->peer_node == LANES_NONE)
		return LANES_NONE;
	return f->nodes[pt->peer_node].switch_index;
}

/*
 * One hop of the route to a CA on switch dst from switch s: the lowest
 * dimension where s and dst differ, towards dst, by one of that direction's
 * L ports, to the switch one step nearer.
 */
static void check_hop(const struct grid_case *g, const struct lanes_fabric *f, uint32_t s,
		      uint32_t dst, uint8_t port)
{
	uint32_t cs[DIMS_MAX], cd[DIMS_MAX];
	size_t i = 0;
	int up;
	uint32_t first, next;

	coords(g, s, cs);
	coords(g, dst, cd);
	while (cs[i] == cd[i])
		i++;
	up = cd[i] > cs[i];
	first = first_port(g, i, up);
	next = up ? s + stride(g, i) : s - stride(g, i);
	if (port < first || port >= first + g->L[i] || behind(f, s, port) != next)
		fail_msg("%s: switch %u towards switch %u: port %u, not one of %u..%u to switch %u",
			 g->spec, s, dst, port, first, first + g->L[i] - 1, next);
}

/* Every switch's route to the CA port at (dst, ca_port), walked: dimension order, shortest. */
static void check_routes_to(const struct grid_case *g, const struct lanes_fabric *f,
			    const struct lanes_routing *r, uint32_t lid, uint32_t dst,
			    uint8_t ca_port)
{
	uint32_t cd[DIMS_MAX];

	coords(g, dst, cd);
	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t x = s, hops = 0, shortest = 0, cs[DIMS_MAX];

		coords(g, s, cs);
		for (size_t i = 0; i < g->n; i++)
			shortest += cs[i] > cd[i] ? cs[i] - cd[i] : cd[i] - cs[i];
		while (x != dst && hops <= shortest) {
			uint8_t port = lanes_routing_port(r, x, lid);

			check_hop(g, f, x, dst, port);
			x = behind(f, x, port);
			hops++;
		}
		assert_int_equal(hops, shortest);
		assert_int_equal(lanes_routing_port(r, dst, lid), ca_port);
	}
}

static void test_routes_in_dimension_order(void **state)
{
	(void)state;
	for (size_t c = 0; c < NUM_CASES; c++) {
		const struct grid_case *g = &cases[c];
		struct lanes_fabric *f = gen(g->spec);
		struct lanes_routing *r = route_engine(dor(), f, 1, 1, 1);
		uint32_t cas = 0;

		for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
			uint32_t node = f->lid_owner[lid].node;
			const struct lanes_port *p;

			if (node == LANES_NONE || f->nodes[node].type == LANES_NODE_SWITCH)
				continue;
			p = lanes_fabric_port(f, node, f->lid_owner[lid].port);
			check_routes_to(g, f, r, lid, f->nodes[p->peer_node].switch_index,
					p->peer_port);
			cas++;
		}
		assert_int_equal(cas, f->num_switches * g->p);
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
}

/* At switch s, the CA LIDs leaving by each of the L ports first .. first + L - 1 differ by <= 1. */
static void check_balanced(const struct grid_case *g, const struct lanes_fabric *f,
			   const struct lanes_routing *r, uint32_t s, uint32_t first, uint32_t L)
{
	uint32_t count[16] = { 0 }, lo = UINT32_MAX, hi = 0;

	for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
		uint32_t node = f->lid_owner[lid].node;
		uint8_t port = lanes_routing_port(r, s, lid);

		if (node != LANES_NONE && f->nodes[node].type != LANES_NODE_SWITCH &&
		    port >= first && port < first + L)
			count[port - first]++;
	}
	for (uint32_t l = 0; l < L; l++) {
		lo = count[l] < lo ? count[l] : lo;
		hi = count[l] > hi ? count[l] : hi;
	}
	if (hi > lo + 1)
		fail_msg("%s: switch %u ports %u..%u carry %u to %u CA LIDs", g->spec, s, first,
			 first + L - 1, lo, hi);
}

static void test_parallel_cables_balanced(void **state)
{
	(void)state;
	for (size_t c = 0; c < NUM_CASES; c++) {
		const struct grid_case *g = &cases[c];
		struct lanes_fabric *f;
		struct lanes_routing *r;

		if (g->L[0] < 2 && g->L[g->n - 1] < 2)
			continue;
		f = gen(g->spec);
		r = route_engine(dor(), f, 1, 1, 1);
		for (uint32_t s = 0; s < f->num_switches; s++)
			for (size_t i = 0; i < g->n; i++) {
				check_balanced(g, f, r, s, first_port(g, i, 1), g->L[i]);
				check_balanced(g, f, r, s, first_port(g, i, 0), g->L[i]);
			}
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
}

static void test_verified_on_one_vl(void **state)
{
	(void)state;
	for (size_t c = 0; c < NUM_CASES; c++) {
		struct lanes_fabric *f = gen(cases[c].spec);
		struct lanes_routing *r = route_engine(dor(), f, 1, 1, 1);
		struct lanes_verify_result *res = verify_quick(f, r, 1, 0, 0);

		if (!res->deadlock_free || !res->reachable || res->vls_used != 1)
			fail_msg("%s: deadlock free %d, reachable %d, %u VLs", cases[c].spec,
				 res->deadlock_free, res->reachable, res->vls_used);
		lanes_verify_result_free(res);
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
}

static void assert_has(const char *message, const char *what)
{
	if (!strstr(message, what))
		fail_msg("\"%s\" not in: %s", what, message);
}

/* A 4x4 torus: port 2 (dimension 0, +1, p = 1) runs around a ring of 4 from x0-y0. */
static void test_torus_refused(void **state)
{
	struct lanes_fabric *f = gen("torus k=4x4 p=1");
	struct lanes_error err = route_engine_error(dor(), f, 8, 16);

	(void)state;
	assert_int_equal(err.code, LANES_EREFUSED);
	assert_has(err.message, "port 2 ");
	assert_has(err.message, "torus-x0-y0");
	assert_has(err.message, "ring of 4 switches");
	lanes_fabric_free(f);
}

/*
 * A kx x ky mesh by hand, as grid.h cables it (p = 1: CA on port 1; port 2
 * towards +x, 3 towards -x, 4 towards +y, 5 towards -y), switch s with GUID
 * 0x100 + s; switch swapped (or none) has its ports 2 and 3 exchanged, and
 * the cable between switches cut_a and cut_a + 1 (along x) is left out.
 */
static struct lanes_fabric *hand_mesh(uint32_t kx, uint32_t ky, uint32_t swapped, uint32_t cut_a)
{
	struct lanes_builder *b = tb_new();
	uint32_t n = kx * ky;
	uint8_t plus_x[64], minus_x[64];

	for (uint32_t s = 0; s < n; s++) {
		tb_add(b, LANES_NODE_SWITCH, 5, 0x100 + s);
		plus_x[s] = s == swapped ? 3 : 2;
		minus_x[s] = s == swapped ? 2 : 3;
	}
	for (uint32_t s = 0; s < n; s++) {
		if (s % kx + 1 < kx && s != cut_a)
			tb_cable(b, s, plus_x[s], s + 1, minus_x[s + 1]);
		if (s / kx + 1 < ky)
			tb_cable(b, s, 4, s + kx, 5);
	}
	for (uint32_t s = 0; s < n; s++)
		tb_cable(b, tb_add(b, LANES_NODE_CA, 1, 0x1000 + s), 1, s, 1);
	return tb_finish(b);
}

static void test_hand_mesh_routes(void **state)
{
	struct lanes_fabric *f = hand_mesh(3, 3, UINT32_MAX, UINT32_MAX);
	struct lanes_routing *r = route_engine(dor(), f, 1, 1, 1);
	struct lanes_verify_result *res = verify_quick(f, r, 1, 0, 0);

	(void)state;
	assert_true(res->deadlock_free && res->reachable);
	lanes_verify_result_free(res);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* The middle switch (4, GUID 0x104) of a 3x3 mesh with its x ports swapped. */
static void test_swapped_ports_refused(void **state)
{
	struct lanes_fabric *f = hand_mesh(3, 3, 4, UINT32_MAX);
	struct lanes_error err = route_engine_error(dor(), f, 8, 16);

	(void)state;
	assert_int_equal(err.code, LANES_EREFUSED);
	assert_has(err.message, "inconsistent cabling");
	assert_has(err.message, "0x0000000000000104");
	lanes_fabric_free(f);
}

/*
 * A 4x4 mesh without the x cable between switches 5 and 6 (x1-y1, x2-y1).
 * The first CA LID (17, after the 16 switch LIDs) is switch 0's CA. Its
 * routes from switches 0..5 are in dimension order (5 goes -x by port 3 to
 * 4, then -y by port 5); switch 6 (x2-y1) can no longer start along x, its
 * only shortest path leaves by port 5 (-y) to 2 (x2-y0), which then goes
 * -x by port 3: dimension port 3 after 5. Refused, naming 6 and port 5.
 */
static void test_missing_cable_refused(void **state)
{
	struct lanes_fabric *f = hand_mesh(4, 4, UINT32_MAX, 5);
	struct lanes_error err = route_engine_error(dor(), f, 8, 16);

	(void)state;
	assert_int_equal(err.code, LANES_EREFUSED);
	assert_has(err.message, "not in dimension order");
	assert_has(err.message, "LID 17 leaves switch 0x0000000000000106");
	assert_has(err.message, "by port 5");
	assert_has(err.message, "0x0000000000000102 (\"n\") by port 3");
	lanes_fabric_free(f);
}

/* With links failed at random: refused with a reason, or free of credit loops. */
static void test_faults_refused_or_verified(void **state)
{
	static const char *const specs[] = { "mesh k=4x4 p=1", "hypercube n=4 p=1 L=2" };

	(void)state;
	for (size_t i = 0; i < 2; i++)
		for (uint64_t seed = 1; seed <= 6; seed++) {
			struct lanes_fabric *f = gen(specs[i]), *g;
			struct lanes_fault_spec spec = { 2, 0, seed };
			struct lanes_fault_report rep;
			struct lanes_route_opts o;
			struct lanes_routing *r = NULL;
			struct lanes_error err;

			assert_int_equal(lanes_fabric_inject_faults(f, &spec, &g, &rep, &err), 0);
			lanes_route_opts_init(&o);
			if (lanes_route(dor(), g, &o, &r, &err)) {
				assert_int_equal(err.code, LANES_EREFUSED);
				assert_has(err.message, "dor: ");
			} else {
				struct lanes_verify_result *res = verify_quick(g, r, 1, 0, 0);

				assert_true(res->deadlock_free);
				lanes_verify_result_free(res);
			}
			lanes_routing_free(r);
			lanes_fabric_free(g);
			lanes_fabric_free(f);
		}
}

/*
 * LMC 2 over three parallel cables, by OpenSM's dor rule (osm_ucast_mgr.c,
 * osm_switch.c with dor): switch X (ports 1-3) is cabled to T (ports 1-3),
 * T has CAs t0 (port 4) and t1 (port 5), 4 LIDs each. OpenSM routes t0
 * base, t1 base, t0 + 1, t1 + 1, ... At X every LID's scan starts at port
 * 1; the least loaded cable wins, and on equal loads a later port replaces
 * the pick only if fewer of the CA's earlier LIDs took it than the least
 * seen so far (which a smaller load lowers but never resets). Loads after
 * each LID: t0 -> 1 (1,0,0), t1 -> 2 (1,1,0), t0+1 -> 3 (1,1,1), t1+1 -> 1
 * (tie: port 1 was not taken by t1 before; Min Hop's rule, starting after
 * t1's port 2, would take 3), t0+2 -> 2 (2,1,1 then 2,2,1), t1+2 -> 3,
 * t0+3 -> 1 (all tied, each taken once by t0), t1+3 -> 2 (port 2 at load
 * 2 beats port 1 at 3; port 3 ties but t1 took it as often as port 2).
 */
static void test_lmc_ties_by_earlier_lids(void **state)
{
	static const uint8_t want_t0[4] = { 1, 3, 2, 1 }, want_t1[4] = { 2, 1, 3, 2 };
	struct lanes_builder *b = tb_new();
	struct lanes_error err;
	uint32_t X = tb_add(b, LANES_NODE_SWITCH, 3, 0x10), T = tb_add(b, LANES_NODE_SWITCH, 5, 0x11);
	uint32_t t0 = tb_add(b, LANES_NODE_CA, 1, 0x100), t1 = tb_add(b, LANES_NODE_CA, 1, 0x200);
	struct lanes_fabric *f;
	struct lanes_routing *r;
	uint32_t x, t, lid0, lid1;

	(void)state;
	for (uint8_t p = 1; p <= 3; p++)
		tb_cable(b, X, p, T, p);
	tb_cable(b, T, 4, t0, 1);
	tb_cable(b, T, 5, t1, 1);
	assert_int_equal(lanes_builder_set_port(b, t0, 1, 0, 0, 2, &err), 0);
	assert_int_equal(lanes_builder_set_port(b, t1, 1, 0, 0, 2, &err), 0);
	f = tb_finish(b);
	r = route_engine(dor(), f, 1, 1, 1);
	x = f->nodes[X].switch_index;
	t = f->nodes[T].switch_index;
	lid0 = lanes_fabric_port(f, t0, 1)->lid;
	lid1 = lanes_fabric_port(f, t1, 1)->lid;
	for (uint32_t i = 0; i < 4; i++) {
		assert_int_equal(lanes_routing_port(r, x, lid0 + i), want_t0[i]);
		assert_int_equal(lanes_routing_port(r, x, lid1 + i), want_t1[i]);
		assert_int_equal(lanes_routing_port(r, t, lid0 + i), 4);
		assert_int_equal(lanes_routing_port(r, t, lid1 + i), 5);
	}
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

static void test_same_with_threads(void **state)
{
	(void)state;
	check_threads_identical(dor(), "mesh k=5x4 p=2 L=2", 3);
	check_threads_identical(dor(), "hypercube n=5 p=1", 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_routes_in_dimension_order),
		cmocka_unit_test(test_parallel_cables_balanced),
		cmocka_unit_test(test_verified_on_one_vl),
		cmocka_unit_test(test_torus_refused),
		cmocka_unit_test(test_hand_mesh_routes),
		cmocka_unit_test(test_swapped_ports_refused),
		cmocka_unit_test(test_missing_cable_refused),
		cmocka_unit_test(test_faults_refused_or_verified),
		cmocka_unit_test(test_lmc_ties_by_earlier_lids),
		cmocka_unit_test(test_same_with_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
