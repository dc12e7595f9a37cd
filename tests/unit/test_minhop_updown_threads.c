/*
 * test_minhop_updown_threads.c - minhop, updn, dnup and ud-dfs split their
 * per-destination work among opts->threads workers (src/route/minhop/minhop.c,
 * src/route/updown/updown.c); the tables must not depend on how many. Each
 * engine routes with threads 1, 2 and 3 (2 and 3 force the threaded paths
 * even on small fabrics) and the LFTs are compared byte for byte: every
 * small generated fabric, every real file, fabrics with failed cables (some
 * in pieces), LMC 1 and 2 copies, medium fabrics, and CA LIDs only.
 * lanes_route_updown_lfts is also run on random orders (many switch pairs
 * without a legal path: phase C, and gaps that must be named the same).
 */
#include <stdint.h>
#include <string.h>

#include "lanes/route.h"
#include "lanes/routing.h"
#include "route/updown/updown.h"
#include "testutil.h"

static const char *const engines[] = { "minhop", "updn", "dnup", "ud-dfs" };

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* e's routing of f with threads workers; NULL where the engine refuses f. */
static struct lanes_routing *route_with(const char *engine, const struct lanes_fabric *f,
					unsigned threads, int switch_lids)
{
	struct lanes_route_opts o;
	struct lanes_routing *r = NULL;
	struct lanes_error err;

	lanes_route_opts_init(&o);
	o.threads = threads;
	o.switch_lids = switch_lids;
	if (lanes_route(lanes_engine_find(engine), f, &o, &r, &err))
		return NULL;
	return r;
}

static void assert_same_tables(const struct lanes_routing *a, const struct lanes_routing *b,
			       const char *what, const char *name, unsigned threads)
{
	size_t n;

	if (!a || !b) {
		if (a || b)
			fail_msg("%s on %s: refused with one thread count only (%u)", what, name,
				 threads);
		return;
	}
	assert_int_equal(a->num_lids, b->num_lids);
	assert_int_equal(a->num_switches, b->num_switches);
	n = (size_t)a->num_lids * a->num_switches;
	for (size_t i = 0; i < n; i++)
		if (a->lft[i] != b->lft[i])
			fail_msg("%s on %s: LID %zu at switch %zu: port %u with 1 thread, %u with %u",
				 what, name, i / a->num_switches, i % a->num_switches, a->lft[i],
				 b->lft[i], threads);
	assert_string_equal(a->notes ? a->notes : "", b->notes ? b->notes : "");
}

/* Every engine, threads 1 against 2 and 3; with switch LIDs and without. */
static void compare_engines(const struct lanes_fabric *f, const char *name, void *ctx)
{
	(void)ctx;
	for (size_t e = 0; e < N(engines); e++)
		for (int switch_lids = 1; switch_lids >= 0; switch_lids--) {
			struct lanes_routing *one = route_with(engines[e], f, 1, switch_lids);

			for (unsigned threads = 2; threads <= 3; threads++) {
				struct lanes_routing *more =
					route_with(engines[e], f, threads, switch_lids);

				assert_same_tables(one, more, engines[e], name, threads);
				lanes_routing_free(more);
			}
			lanes_routing_free(one);
		}
}

static void test_small_fabrics(void **state)
{
	(void)state;
	each_small_fabric(compare_engines, NULL);
}

static void test_real_fabrics(void **state)
{
	(void)state;
	each_real_fabric(LANES_DATA_DIR, compare_engines, NULL);
}

static void test_medium_fabrics(void **state)
{
	static const char *const specs[] = { "fattree k=8 n=3", "torus k=6x6 p=2",
					     "dragonfly a=8 p=4 h=4", "hyperx K=6x6 p=3 L=2",
					     "jellyfish switches=120 degree=8 p=4 seed=3" };

	(void)state;
	for (size_t k = 0; k < N(specs); k++) {
		struct lanes_fabric *f = gen(specs[k]);

		compare_engines(f, specs[k], NULL);
		lanes_fabric_free(f);
	}
}

/* Failed cables: irregular trees, and some fabrics in pieces. */
static void test_failed_cables(void **state)
{
	static const char *const specs[] = { "fattree k=4 n=3", "xgft h=3 m=2,3,2 w=1,2,3",
					     "torus k=4x4 p=1", "dragonfly a=4 p=2 h=2" };

	(void)state;
	for (size_t k = 0; k < N(specs); k++)
		for (uint64_t seed = 1; seed <= 3; seed++) {
			struct lanes_fault_spec fs = { 0.05 * (double)seed, 0, seed };
			struct lanes_fabric *f = gen(specs[k]), *g;
			struct lanes_error err;

			assert_int_equal(lanes_fabric_inject_faults(f, &fs, &g, NULL, &err), 0);
			compare_engines(g, specs[k], NULL);
			lanes_fabric_free(g);
			lanes_fabric_free(f);
		}
}

/* A copy of f whose CA ports have LMC lmc (LIDs assigned afresh). */
static struct lanes_fabric *with_lmc(const struct lanes_fabric *f, uint8_t lmc)
{
	struct lanes_builder *b = tb_new();
	struct lanes_error err;

	for (uint32_t i = 0; i < f->num_nodes; i++) {
		const struct lanes_node *n = &f->nodes[i];
		struct lanes_node_spec s = { n->type, n->nports, n->guid, n->sysimage_guid, 0, 0,
					     "n" };
		uint32_t k;

		assert_int_equal(lanes_builder_add_node(b, &s, &k, &err), 0);
		for (uint8_t p = 1; n->type != LANES_NODE_SWITCH && p <= n->nports; p++)
			assert_int_equal(lanes_builder_set_port(b, k, p, 0, 0, lmc, &err), 0);
	}
	for (uint32_t l = 0; l < f->num_links; l++)
		tb_cable(b, f->links[l].a, f->links[l].pa, f->links[l].b, f->links[l].pb);
	return tb_finish(b);
}

static void test_lmc(void **state)
{
	static const char *const specs[] = { "fattree k=4 n=3", "torus k=4x4 p=2",
					     "dragonfly a=4 p=2 h=2",
					     "jellyfish switches=16 degree=4 p=2 seed=7" };

	(void)state;
	for (size_t k = 0; k < N(specs); k++)
		for (uint8_t lmc = 1; lmc <= 2; lmc++) {
			struct lanes_fabric *f = gen(specs[k]), *g = with_lmc(f, lmc);

			compare_engines(g, specs[k], NULL);
			lanes_fabric_free(g);
			lanes_fabric_free(f);
		}
}

/* ------------------------------------------------------------ random orders */

static uint32_t next_rand(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*x >> 33);
}

/* lanes_route_updown_lfts on pos with threads; NULL on a gap (then gap says which). */
static struct lanes_routing *updown_on(const struct lanes_fabric *f, const uint32_t *pos,
				       unsigned threads, struct route_updown_gap *gap)
{
	struct lanes_route_opts o;
	struct lanes_routing *r = NULL;
	struct lanes_error err;
	int rc;

	lanes_route_opts_init(&o);
	o.threads = threads;
	assert_int_equal(lanes_routing_new(f, &r, &err), 0);
	rc = lanes_route_updown_lfts(f, &o, pos, r, gap, &err);
	assert_true(rc == 0 || rc == 1);
	if (rc == 1) {
		lanes_routing_free(r);
		return NULL;
	}
	return r;
}

/* A random order with its ranks from one random seed switch per component, ties at random. */
static void random_order(const struct lanes_fabric *f, uint64_t *x, int far_first, uint32_t *pos)
{
	uint32_t ns = f->num_switches, *rank = malloc(sizeof(uint32_t) * (ns + 1));
	uint32_t *key = malloc(sizeof(uint32_t) * (ns + 1)), seed = next_rand(x) % ns;
	struct lanes_error err;

	assert_int_equal(lanes_route_bfs_ranks(f, &seed, 1, rank, &err), 0);
	for (uint32_t s = 0; s < ns; s++) {
		uint32_t k = rank[s] == UINT32_MAX ? 0xffff : rank[s];

		key[s] = (far_first ? 0xffff - k : k) << 16 | (next_rand(x) & 0xffff);
	}
	assert_int_equal(lanes_route_order_by_key(f, key, pos, &err), 0);
	free(rank);
	free(key);
}

static void compare_orders(const struct lanes_fabric *f, const char *name, void *ctx)
{
	uint64_t *x = ctx;
	uint32_t *pos = malloc(sizeof(uint32_t) * (f->num_switches + 1));

	for (int round = 0; round < 4; round++) {
		struct route_updown_gap g1, g2;
		struct lanes_routing *one, *two;

		random_order(f, x, round & 1, pos);
		one = updown_on(f, pos, 1, &g1);
		two = updown_on(f, pos, 2, &g2);
		if (!one || !two) {
			if (one || two)
				fail_msg("%s: a gap with one thread count only", name);
			assert_int_equal(g1.from_sw, g2.from_sw);
			assert_int_equal(g1.to_sw, g2.to_sw);
		}
		assert_same_tables(one, two, "random order", name, 2);
		lanes_routing_free(one);
		lanes_routing_free(two);
	}
	free(pos);
}

static void test_random_orders(void **state)
{
	uint64_t x = 1;

	(void)state;
	each_small_fabric(compare_orders, &x);
	each_real_fabric(LANES_DATA_DIR, compare_orders, &x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_fabrics),   cmocka_unit_test(test_real_fabrics),
		cmocka_unit_test(test_medium_fabrics),  cmocka_unit_test(test_failed_cables),
		cmocka_unit_test(test_lmc),             cmocka_unit_test(test_random_orders),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
