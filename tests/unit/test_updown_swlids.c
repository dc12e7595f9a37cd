/*
 * test_updown_swlids.c - the switch LIDs of up* / down* routing all at once
 * (src/route/updown_swlids.c) against the same LIDs one destination switch
 * at a time (updown_legal.c, updown_complete.c): lanes_updown_lfts with batch 2
 * and batch 0 must write the same tables, byte for byte.
 *
 * The orders: DNUP's (ranks by hops from the switches with CAs, farthest
 * first), which leaves many switch pairs without a legal path (phase C),
 * and BFS ranks from one random root per component (every pair legal); ties
 * broken at random, several seeds. The fabrics: every small generated one,
 * every real file, and fat trees, tori and dragonflies with failed cables
 * (some disconnected). An order that leaves CA traffic a gap must give the
 * gap either way.
 */
#include <stdint.h>

#include "lanes/route.h"
#include "lanes/routing.h"
#include "route/updown/updown.h"
#include "route/updown/updown_internal.h"
#include "testutil.h"

struct ctx {
	uint64_t seed;
	unsigned compared; /* orders routed without a gap */
};

static uint32_t next_rand(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*x >> 33);
}

/* Switches with a CA or router cabled to them into seeds; @return their count. */
static uint32_t ca_switches(const struct lanes_fabric *f, uint32_t *seeds)
{
	uint32_t n = 0;

	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t node = f->switches[s];
		int ca = 0;

		for (uint8_t p = 1; p <= f->nodes[node].nports; p++) {
			uint32_t peer = lanes_fabric_port(f, node, p)->peer_node;

			ca |= peer != LANES_NONE && f->nodes[peer].type != LANES_NODE_SWITCH;
		}
		if (ca)
			seeds[n++] = s;
	}
	return n;
}

/* One random root per component into seeds; @return their count. */
static uint32_t random_roots(const struct lanes_fabric *f, uint32_t *seeds, uint64_t *x)
{
	uint32_t *comp = malloc(sizeof(uint32_t) * (f->num_switches + 1)), ncomp = 0;
	struct lanes_error err;

	assert_int_equal(lanes_route_components(f, comp, &ncomp, &err), 0);
	for (uint32_t c = 0; c < ncomp; c++) {
		uint32_t pick = next_rand(x) % f->num_switches;

		while (comp[pick] != c) /* the next switch of c, cyclically */
			pick = (pick + 1) % f->num_switches;
		seeds[c] = pick;
	}
	free(comp);
	return ncomp;
}

/* Route f on pos with batch; @return the routing, or NULL on a gap. */
static struct lanes_routing *route_on(const struct lanes_fabric *f, const uint32_t *pos,
				      int batch, struct route_updown_gap *gap)
{
	struct lanes_route_opts o;
	struct lanes_routing *r = NULL;
	struct lanes_error err;
	int rc;

	lanes_route_opts_init(&o);
	assert_int_equal(lanes_routing_new(f, &r, &err), 0);
	rc = lanes_updown_lfts(f, &o, pos, r, gap, batch, &err);
	assert_true(rc == 0 || rc == 1);
	if (rc == 1) {
		lanes_routing_free(r);
		return NULL;
	}
	return r;
}

/* The order of ranks from seeds (dnup: farthest first), ties at random; both ways agree. */
static void compare_order(const struct lanes_fabric *f, const char *name, struct ctx *c,
			  const uint32_t *seeds, uint32_t nseeds, int far_first)
{
	uint32_t ns = f->num_switches, *rank = malloc(sizeof(uint32_t) * (ns + 1));
	uint32_t *key = malloc(sizeof(uint32_t) * (ns + 1)), *pos = malloc(sizeof(uint32_t) * (ns + 1));
	struct route_updown_gap g0, g2;
	struct lanes_routing *r0, *r2;
	struct lanes_error err;

	assert_int_equal(lanes_route_bfs_ranks(f, seeds, nseeds, rank, &err), 0);
	for (uint32_t s = 0; s < ns; s++) {
		uint32_t k = rank[s] == UINT32_MAX ? 0xffff : rank[s];

		key[s] = (far_first ? 0xffff - k : k) << 16 | (next_rand(&c->seed) & 0xffff);
	}
	assert_int_equal(lanes_route_order_by_key(f, key, pos, &err), 0);
	r0 = route_on(f, pos, 0, &g0);
	r2 = route_on(f, pos, 2, &g2);
	if (!r0 || !r2) {
		if (r0 || r2)
			fail_msg("%s: a gap one way only", name);
		assert_int_equal(g0.from_sw, g2.from_sw);
		assert_int_equal(g0.to_sw, g2.to_sw);
	} else {
		size_t n = (size_t)r0->num_lids * ns;

		for (size_t i = 0; i < n; i++)
			if (r0->lft[i] != r2->lft[i])
				fail_msg("%s: LID %zu at switch %zu: port %u one at a time, %u at once",
					 name, i / ns, i % ns, r0->lft[i], r2->lft[i]);
		c->compared++;
	}
	lanes_routing_free(r0);
	lanes_routing_free(r2);
	free(rank);
	free(key);
	free(pos);
}

static void compare(const struct lanes_fabric *f, const char *name, void *ctx)
{
	struct ctx *c = ctx;
	uint32_t *seeds = malloc(sizeof(uint32_t) * (f->num_switches + 1)), n;

	for (int round = 0; round < 3; round++) {
		if ((n = ca_switches(f, seeds)))
			compare_order(f, name, c, seeds, n, 1);
		n = random_roots(f, seeds, &c->seed);
		compare_order(f, name, c, seeds, n, 0);
	}
	free(seeds);
}

static void test_generated(void **state)
{
	struct ctx c = { 1, 0 };

	(void)state;
	each_small_fabric(compare, &c);
	assert_true(c.compared > 50);
}

static void test_real(void **state)
{
	struct ctx c = { 2, 0 };

	(void)state;
	each_real_fabric(LANES_DATA_DIR, compare, &c);
	assert_true(c.compared > 20);
}

/* Failed cables: irregular trees, and some fabrics in pieces. */
static void test_failed(void **state)
{
	static const char *const specs[] = { "fattree k=4 n=3", "xgft h=3 m=2,3,2 w=1,2,3",
					     "torus k=4x4 p=1", "dragonfly a=4 p=2 h=2" };
	struct ctx c = { 3, 0 };

	(void)state;
	for (size_t k = 0; k < sizeof(specs) / sizeof(specs[0]); k++)
		for (uint64_t seed = 1; seed <= 4; seed++) {
			struct lanes_fault_spec fs = { 0.05 * (double)seed, 0, seed };
			struct lanes_fabric *f = gen(specs[k]), *g;
			struct lanes_error err;

			assert_int_equal(lanes_fabric_inject_faults(f, &fs, &g, NULL, &err), 0);
			compare(g, specs[k], &c);
			lanes_fabric_free(g);
			lanes_fabric_free(f);
		}
	assert_true(c.compared > 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generated),
		cmocka_unit_test(test_real),
		cmocka_unit_test(test_failed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
