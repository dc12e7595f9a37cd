/*
 * test_scratch.c - the engines' estimates of the memory they need beside
 * the tables (lanes_engine.scratch_bytes), which `lanes route`, `verify`
 * and `compare` add to the tables' before routing (issue 22 item 4),
 * against counts made by hand from the formulas in the engines' files:
 *   lash: 4 bytes per switch pair (lash.c);
 *   dfsssp: a byte per switch pair, and per source switch with end ports
 *   and destination switch two hops or more away, min(LIDs behind the
 *   destination, shortest paths) units of 9 bytes with 8 bytes per channel
 *   dependency, a path's hops less one (dfsssp_estimate.c).
 * Every engine without an estimate needs under a byte per table entry
 * beside the tables (measured; lanes_engine in lanes/route.h).
 */
#include "testutil.h"

#include "lanes/route.h"

static uint64_t scratch(const char *engine, const char *spec)
{
	const struct lanes_engine *e = lanes_engine_find(engine);
	struct lanes_fabric *f = gen(spec);
	struct lanes_route_opts o;
	uint64_t bytes;

	lanes_route_opts_init(&o);
	assert_non_null(e->scratch_bytes);
	bytes = e->scratch_bytes(f, &o);
	lanes_fabric_free(f);
	return bytes;
}

static void test_lash(void **state)
{
	(void)state;
	assert_int_equal(scratch("lash", "torus k=4x3 p=1"), 4 * 12 * 12);
	assert_int_equal(scratch("lash", "hypercube n=5 p=2"), 4 * 32 * 32);
}

/*
 * A ring of six switches, from each source: two switches two hops away
 * (one path each), the opposite one three hops away (two paths). With one
 * CA per switch: 3 units, 1 + 1 + 2 dependencies; six sources: 18 units, 24
 * dependencies, 18 x 9 + 24 x 8 + 6^2 = 390 bytes. With two CAs: the
 * opposite switch's two LIDs take its two paths: 4 units, 1 + 1 + 2 x 2
 * dependencies; 24 x 9 + 36 x 8 + 36 = 540.
 */
static void test_dfsssp_ring(void **state)
{
	(void)state;
	assert_int_equal(scratch("dfsssp", "torus k=6 p=1"), 390);
	assert_int_equal(scratch("dfsssp", "torus k=6 p=2"), 540);
}

/*
 * A 2-ary 2-tree (fattree k=2 n=2): two leaves with two hosts each under
 * two spines. Only the leaves are sources (the spines have no end ports),
 * and from a leaf only the other leaf is two hops away, by two paths, with
 * two LIDs: 2 units of 1 dependency. Two sources: 4 units, 4 dependencies,
 * 4 x 9 + 4 x 8 + 4^2 = 84 bytes.
 */
static void test_dfsssp_tree(void **state)
{
	(void)state;
	assert_int_equal(scratch("dfsssp", "fattree k=2 n=2"), 84);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lash),
		cmocka_unit_test(test_dfsssp_ring),
		cmocka_unit_test(test_dfsssp_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
