/*
 * test_ecube.c - e-cube on tori and meshes (Sancho, Robles, Lopez, Flich,
 * Duato, "Routing in InfiniBand torus network topologies", ICPP 2003,
 * Sec. 2). Truths from the paper and from the coordinates the generator
 * writes into the switch names ("torus-x3-y5"), never from the engine:
 *  - every route takes the highest differing dimension first, one step at a
 *    time, the shorter way round a ring (shortest paths);
 *  - the path SL is the paper's Table 1: a bit per wrapping dimension whose
 *    wraparound channel the path crosses, dimension 1 the low bit;
 *  - the verifier finds no credit loop with 2 VLs and 2^n SLs (1 VL and
 *    1 SL on a mesh); smaller budgets are refused naming what is needed;
 *  - the paper's Table 2: average distance of its five tori (switch pairs),
 *    and e-cube's crossing path on 3x3x3 (9, deviation 0).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "lanes/route.h"
#include "lanes/verify.h"

/* Coordinates from the generator's name "...-x1-y2-z0:...": how many. */
static uint32_t name_coords(const struct lanes_fabric *f, uint32_t sw, uint32_t c[3])
{
	const char *p = strstr(f->nodes[f->switches[sw]].desc, "-x");
	uint32_t n = 0;

	while (p && n < 3 && p[0] == '-' && p[1] >= 'x' && p[1] <= 'z') {
		char *end;

		c[n++] = (uint32_t)strtoul(p + 2, &end, 10);
		p = end;
	}
	return n;
}

/* Walk switch x to switch t's LID: each hop one step, dimensions never rising, shortest. */
static void check_route(const struct lanes_fabric *f, const struct lanes_routing *r,
			const uint32_t *k, int wrap, uint32_t x, uint32_t t)
{
	uint32_t lid = lanes_fabric_lid(f, f->switches[t], 0), a[3], b[3], n, hops = 0, want = 0;
	uint32_t last_dim = 3;

	n = name_coords(f, x, a);
	name_coords(f, t, b);
	for (uint32_t d = 0; d < n; d++) {
		uint32_t up = (b[d] + k[d] - a[d]) % k[d];

		want += wrap ? (up < k[d] - up ? up : k[d] - up) : (a[d] > b[d] ? a[d] - b[d] : b[d] - a[d]);
	}
	while (x != t) {
		uint8_t port = lanes_routing_port(r, x, lid);
		uint32_t y = f->nodes[lanes_fabric_port(f, f->switches[x], port)->peer_node].switch_index;
		uint32_t c[3], moved = 0, dim = 0;

		name_coords(f, y, c);
		name_coords(f, x, a);
		for (uint32_t d = 0; d < n; d++)
			if (c[d] != a[d]) {
				moved++;
				dim = d;
			}
		assert_int_equal(moved, 1);
		assert_true(dim <= last_dim); /* decreasing dimension order */
		for (uint32_t d = dim + 1; d < n; d++)
			assert_int_equal(c[d], b[d]); /* higher dimensions already done */
		last_dim = dim;
		x = y;
		assert_true(++hops <= want);
	}
	assert_int_equal(hops, want);
}

static void test_dimension_order(void **state)
{
	static const struct {
		const char *spec;
		uint32_t k[3];
		int wrap;
	} cases[] = {
		{ "torus k=6x6 p=1", { 6, 6, 0 }, 1 }, { "torus k=5x6x7 p=1", { 5, 6, 7 }, 1 },
		{ "torus k=8x8 p=1 L=2", { 8, 8, 0 }, 1 }, { "mesh k=4x5 p=1", { 4, 5, 0 }, 0 },
		{ "mesh k=3x4x5 p=1", { 3, 4, 5 }, 0 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lanes_fabric *f = gen(cases[i].spec);
		struct lanes_routing *r = route_engine(lanes_engine_find("ecube"), f, 2, 16, 1);

		for (uint32_t x = 0; x < f->num_switches; x++)
			for (uint32_t t = 0; t < f->num_switches; t++)
				check_route(f, r, cases[i].k, cases[i].wrap, x, t);
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
}

/* Table 1 on the 6x6 torus: SL bit 0 for dimension 1's wraparound, bit 1 for dimension 0's. */
static void test_table1_sls(void **state)
{
	struct lanes_fabric *f = gen("torus k=6x6 p=1");
	struct lanes_routing *r = route_engine(lanes_engine_find("ecube"), f, 2, 16, 1);
	static const struct {
		uint32_t from[2], to[2];
		uint8_t sl;
	} cases[] = {
		{ { 1, 1 }, { 2, 3 }, 0 }, /* no wraparound */
		{ { 0, 5 }, { 0, 0 }, 1 }, /* dimension 1 wraps: 5 -> 0 going up */
		{ { 5, 0 }, { 0, 0 }, 2 }, /* dimension 0 wraps */
		{ { 5, 5 }, { 1, 0 }, 3 }, /* both */
		{ { 0, 1 }, { 0, 5 }, 1 }, /* dimension 1 wraps going down: 1 -> 0 -> 5 */
		{ { 2, 0 }, { 4, 0 }, 0 }, /* two up, no wraparound */
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t src = cases[i].from[0] + 6 * cases[i].from[1];
		uint32_t dst = cases[i].to[0] + 6 * cases[i].to[1], c[3];
		uint32_t src_lid = lanes_fabric_lid(f, f->switches[src], 0);
		uint32_t dst_lid = lanes_fabric_lid(f, f->switches[dst], 0);

		/* the generator numbers switches x fastest: check that assumption by name */
		name_coords(f, src, c);
		assert_int_equal(c[0] * 10 + c[1], cases[i].from[0] * 10 + cases[i].from[1]);
		assert_int_equal(lanes_routing_sl(r, f, src_lid, dst_lid), cases[i].sl);
	}
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* Verified free of credit loops; VLs and SLs as the paper counts them; budgets named. */
static void test_verified_and_budgets(void **state)
{
	static const struct {
		const char *spec;
		unsigned vls, sls;
	} cases[] = {
		{ "torus k=6x6 p=2", 2, 4 }, { "torus k=5x6x7 p=1", 2, 8 }, { "torus k=6x6 p=1 L=2", 2, 4 },
		{ "torus k=6x4 p=1", 2, 2 }, /* the ring of 4 is two links: one wrapping dimension */
		{ "mesh k=4x4 p=2", 1, 1 }, { "hypercube n=4 p=1", 1, 1 }, { "torus k=7 p=3", 2, 2 },
	};
	const struct lanes_engine *e = lanes_engine_find("ecube");

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lanes_fabric *f = gen(cases[i].spec);
		struct lanes_routing *r = route_engine(e, f, 8, 16, 1);
		struct lanes_verify_result *res = verify_quick(f, r, 8, 0, 0);
		struct lanes_error err;

		assert_true(res->deadlock_free);
		assert_true(res->reachable);
		assert_float_equal(res->stretch_max, 1.0, 1e-12);
		assert_int_equal(res->vls_used, cases[i].vls);
		assert_int_equal(res->sls_used, cases[i].sls);
		lanes_verify_result_free(res);
		lanes_routing_free(r);
		if (cases[i].sls > 1) {
			err = route_engine_error(e, f, 8, (uint8_t)(cases[i].sls / 2));
			assert_int_equal(err.code, LANES_ERANGE);
			assert_non_null(strstr(err.message, "SLs"));
			err = route_engine_error(e, f, 1, 16);
			assert_int_equal(err.code, LANES_ERANGE);
		}
		lanes_fabric_free(f);
	}
}

/* The paper's Table 2, switch pairs: average distances, and e-cube on 3x3x3. */
static void test_table2(void **state)
{
	static const char *const specs[] = { "torus k=4x4 p=1", "torus k=6x6 p=1", "torus k=8x8 p=1",
					     "torus k=3x3x3 p=1", "torus k=4x4x4 p=1" };
	static const double distance[] = { 2.13, 3.08, 4.06, 2.07, 3.04 };
	struct lanes_route_opts ro;
	struct lanes_verify_opts vo;

	(void)state;
	lanes_route_opts_init(&ro);
	ro.params = "rings4=1";
	ro.threads = 1;
	lanes_verify_opts_init(&vo);
	vo.metric_traffic = LANES_VERIFY_SWITCH_PAIRS;
	vo.ebb_patterns = 0;
	vo.threads = 1;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct lanes_fabric *f = gen(specs[i]);
		struct lanes_routing *r;
		struct lanes_verify_result *res;
		struct lanes_error err;

		if (lanes_route(lanes_engine_find("ecube"), f, &ro, &r, &err))
			fail_msg("%s: %s", specs[i], err.message);
		assert_int_equal(lanes_verify(f, r, &vo, &res, &err), 0);
		assert_true(res->deadlock_free);
		/* rings of 4: two SLs per dimension, as the paper's tori need */
		assert_int_equal(res->sls_used, i < 3 ? 4 : 8);
		assert_float_equal(floor(res->hops_avg * 100) / 100, distance[i], 1e-9);
		if (i == 3) {
			assert_int_equal(res->rpc_max, 9);
			assert_float_equal(res->rpc_stddev, 0.0, 1e-12);
		}
		lanes_verify_result_free(res);
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
}

static void test_refusals(void **state)
{
	static const char *const specs[] = { "dragonfly a=4 p=2 h=2", "fattree k=4 n=3",
					     "hyperx K=4x4 p=1", "slimfly q=5 p=1" };
	const struct lanes_engine *e = lanes_engine_find("ecube");
	struct lanes_route_opts ro;
	struct lanes_routing *r;
	struct lanes_error err;
	struct lanes_fabric *f;

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		f = gen(specs[i]);
		err = route_engine_error(e, f, 8, 16);
		assert_int_equal(err.code, LANES_EREFUSED);
		assert_non_null(strstr(err.message, "ecube: not a torus or mesh"));
		lanes_fabric_free(f);
	}
	f = gen("torus k=6x6 p=1");
	lanes_route_opts_init(&ro);
	ro.params = "rings=4";
	assert_int_equal(lanes_route(e, f, &ro, &r, &err), LANES_EINVAL);
	assert_non_null(strstr(err.message, "unknown parameter 'rings=4'"));
	lanes_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dimension_order),
		cmocka_unit_test(test_table1_sls),
		cmocka_unit_test(test_verified_and_budgets),
		cmocka_unit_test(test_table2),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
