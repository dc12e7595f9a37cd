/*
 * test_nue.c - the nue engine (Domke et al. HPDC 2016; OpenSM 3.3.23 Nue),
 * judged by the verifier. Nue keeps CA-to-CA traffic free of credit loops
 * (the verifier's default, OpenSM's nue_include_switches FALSE); switch LIDs
 * are routed outside the CDG. So:
 * - tori, rings, meshes, dragonflies, random graphs, every small generator
 *   instance and every real fabric file, with 1, 2 and 8 VLs, and with 5% of
 *   the switch-to-switch cables failed: every LID (switch LIDs included)
 *   reached, no credit loop on CA-to-CA paths, never more VLs than the
 *   budget, exactly one VL when the budget is one; and without switch LIDs
 *   (--ca-only) no credit loop on any path (--all-traffic: switch
 *   sources too), since every routed destination is then a CA;
 * - SL = layer of the destination LID, SL i on VL i;
 * - LMC > 0: every LID of a port routed;
 * - switch LIDs left out when asked, each switch still answering its own;
 * - switch LIDs on shortest paths;
 * - the same bytes on every call (METIS has a fixed seed);
 * - balance on a fat tree with one VL: CA-to-CA paths on a k-ary n-tree
 *   need no turn that closes a cycle, so nothing forces nue off balanced
 *   shortest paths there; its max routes per channel stays within 5% of
 *   minhop's (OpenSM's baseline engine on the same fabric), and on the
 *   4-ary 3-tree file within 5% of sssp's and no more than the real OpenSM
 *   nue's 192.
 */
#include <stdint.h>

#include "lanes/route.h"
#include "lanes/routing.h"
#include "lanes/verify.h"
#include "testutil.h"
#include "route/nue/nue.h"

extern const struct lanes_engine lanes_engine_nue;

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------------- helpers */

static struct lanes_routing *route_opts(const struct lanes_fabric *f, uint8_t vls, uint8_t sls,
					int switch_lids)
{
	return route_engine(&lanes_engine_nue, f, vls, sls, switch_lids);
}

static struct lanes_verify_result *verify(const struct lanes_fabric *f,
					  const struct lanes_routing *r, uint8_t vls, int all)
{
	return verify_quick(f, r, vls, all, 0);
}

/* Verify with a VL budget: CA-to-CA (all = 0) or every path (all = 1). */
static void judge_routing(const struct lanes_fabric *f, const char *name, uint8_t vls,
			  int switch_lids)
{
	struct lanes_routing *r = route_opts(f, vls, 16, switch_lids);
	/* without switch LIDs, every destination a CA: switch sources too */
	struct lanes_verify_result *res = verify_quick(f, r, vls, !switch_lids, !switch_lids);
	struct lanes_fabric_stats st = stats_of(f);
	if (st.components == 1 && !res->reachable)
		fail_msg("nue on %s, %u VLs: %llu unreachable pairs", name, vls,
			 (unsigned long long)res->unreachable_pairs);
	if (!res->deadlock_free)
		fail_msg("nue on %s, %u VLs%s: a credit loop", name, vls,
			 switch_lids ? "" : ", CA LIDs only, all traffic");
	if (res->vls_over_budget || res->vl15_used || r->num_vls > vls || res->vls_used > vls)
		fail_msg("nue on %s: %u VLs used, the budget is %u", name, r->num_vls, vls);
	if (vls == 1 && (r->num_vls != 1 || res->vls_used != 1))
		fail_msg("nue on %s: %u VLs with a budget of one", name, r->num_vls);
	if (r->num_sls != r->num_vls)
		fail_msg("nue on %s: %u SLs for %u VLs", name, r->num_sls, r->num_vls);
	lanes_verify_result_free(res);
	lanes_routing_free(r);
}

static void judge_vls(const struct lanes_fabric *f, const char *name, uint8_t vls)
{
	judge_routing(f, name, vls, 1);
	judge_routing(f, name, vls, 0);
}

static void judge(const struct lanes_fabric *f, const char *name, void *ctx)
{
	static const uint8_t budgets[] = { 1, 2, 8 };

	(void)ctx;
	for (size_t i = 0; i < N(budgets); i++)
		judge_vls(f, name, budgets[i]);
}

static void judge_spec(const char *spec)
{
	struct lanes_fabric *f = gen(spec);

	judge(f, spec, NULL);
	lanes_fabric_free(f);
}

/* ------------------------------------------------------------------ tests */

static void test_descriptor(void **state)
{
	const struct lanes_engine *e = lanes_engine_find("nue");
	unsigned want = LANES_ENGINE_ANY_TOPOLOGY | LANES_ENGINE_DEADLOCK_FREE |
			LANES_ENGINE_USES_SLS | LANES_ENGINE_USES_VLS;

	(void)state;
	assert_ptr_equal(e, &lanes_engine_nue);
	assert_int_equal(e->flags, want);
}

static void test_topologies(void **state)
{
	static const char *const specs[] = {
		"torus k=4x4 p=2",
		"torus k=6x6 p=1",
		"torus k=5x4x3 p=1",
		"torus k=8 p=2", /* a ring */
		"mesh k=4x4 p=2",
		"dragonfly a=4 p=2 h=2",
		"dragonfly a=3 p=1 h=2 g=5 wiring=palmtree",
		"jellyfish switches=30 degree=4 p=2 seed=3",
		"jellyfish switches=16 degree=3 p=1 seed=11",
		"hypercube n=4 p=1",
		"slimfly q=5 p=1",
	};

	(void)state;
	for (size_t i = 0; i < N(specs); i++)
		judge_spec(specs[i]);
}

static void test_generators(void **state)
{
	(void)state;
	for (size_t i = 0; small_fabric(i); i++)
		judge_spec(small_fabric(i));
}

static void test_real_fabrics(void **state)
{
	(void)state;
	each_real_fabric(LANES_DATA_DIR, judge, NULL);
}

/* 5% of the switch-to-switch cables gone: still every pair, still no loop. */
static void test_failed_links(void **state)
{
	static const char *const specs[] = { "torus k=8x8 p=1", "dragonfly a=4 p=2 h=2",
					     "jellyfish switches=40 degree=5 p=1 seed=5" };

	(void)state;
	for (size_t i = 0; i < N(specs); i++)
		for (uint64_t seed = 1; seed <= 3; seed++) {
			struct lanes_fabric *f = gen(specs[i]), *g = NULL;
			struct lanes_fault_spec fs = { 0.05, 0.0, seed };
			struct lanes_fault_report rep;
			struct lanes_error err;

			if (lanes_fabric_inject_faults(f, &fs, &g, &rep, &err))
				fail_msg("%s: %s", specs[i], err.message);
			assert_true(rep.links_removed > 0);
			judge(g, specs[i], NULL);
			lanes_fabric_free(g);
			lanes_fabric_free(f);
		}
}

/* SL = the destination's layer, one SL per destination LID, SL i on VL i. */
static void test_sl_is_layer(void **state)
{
	struct lanes_fabric *f = gen("torus k=6x6 p=2");
	struct lanes_routing *r = route_opts(f, 4, 16, 1);
	uint32_t seen[16] = { 0 };

	(void)state;
	assert_int_equal(r->sl_mode, LANES_SL_PER_DST);
	assert_int_equal(r->num_vls, 4);
	for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
		uint32_t a = lanes_fabric_lid_switch(f, lid);
		uint8_t sl = lanes_routing_sl(r, f, lid, lid);

		assert_true(sl < 4);
		seen[sl]++;
		for (uint32_t src = 1; src <= f->max_lid; src += 7)
			assert_int_equal(lanes_routing_sl(r, f, src, lid), sl);
		(void)a;
	}
	for (int l = 0; l < 4; l++)
		assert_true(seen[l] > 0); /* METIS used every layer */
	for (uint32_t s = 0; s < f->num_switches; s++) {
		const uint8_t *m = lanes_routing_switch_map(r, f, s, 1, 2);

		for (uint8_t sl = 0; sl < 4; sl++)
			assert_int_equal(m[sl], sl);
	}
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* The SL budget caps the layers too. */
static void test_sl_budget(void **state)
{
	struct lanes_fabric *f = gen("torus k=4x4 p=2");
	struct lanes_routing *r = route_opts(f, 8, 3, 1);
	struct lanes_verify_result *res = verify(f, r, 8, 0);

	(void)state;
	assert_true(r->num_vls <= 3 && r->num_sls <= 3);
	assert_true(res->deadlock_free && res->reachable);
	lanes_verify_result_free(res);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* A ring of 6 switches, CAs with LMC 2: each of their 4 LIDs reached. */
static void test_lmc(void **state)
{
	struct lanes_builder *b = tb_new();
	struct lanes_error err;
	struct lanes_fabric *f;
	uint32_t sw[6], ca[12];

	(void)state;
	for (int i = 0; i < 6; i++)
		sw[i] = tb_add(b, LANES_NODE_SWITCH, 8, 0x10 + (uint64_t)i);
	for (int i = 0; i < 6; i++) {
		tb_cable(b, sw[i], 1, sw[(i + 1) % 6], 2);
		for (int c = 0; c < 2; c++) {
			ca[2 * i + c] = tb_add(b, LANES_NODE_CA, 1, 0x1000 + 16 * (uint64_t)i + (uint64_t)c);
			tb_cable(b, sw[i], (uint8_t)(3 + c), ca[2 * i + c], 1);
			assert_int_equal(lanes_builder_set_port(b, ca[2 * i + c], 1, 0, 0, 2, &err), 0);
		}
	}
	f = tb_finish(b);
	judge(f, "lmc ring", NULL);
	for (uint8_t vls = 1; vls <= 8; vls *= 8) {
		struct lanes_routing *r = route_opts(f, vls, 16, 1);

		for (int i = 0; i < 12; i++) {
			uint32_t base = lanes_fabric_lid(f, ca[i], 1);

			assert_int_equal(lanes_fabric_port(f, ca[i], 1)->lmc, 2);
			for (uint32_t l = 0; l < 4; l++)
				for (uint32_t s = 0; s < f->num_switches; s++)
					assert_int_not_equal(lanes_routing_port(r, s, base + l),
							     LANES_PORT_DROP);
		}
		lanes_routing_free(r);
	}
	lanes_fabric_free(f);
}

/*
 * Without switch LIDs: every path to a CA verified, from switches too (all
 * traffic), and each switch answers its own LID.
 */
static void test_ca_lids_only(void **state)
{
	struct lanes_fabric *f = gen("torus k=4x4 p=2");
	struct lanes_routing *r = route_opts(f, 2, 16, 0);
	struct lanes_verify_opts o;
	struct lanes_verify_result *res;
	struct lanes_error err;

	(void)state;
	lanes_verify_opts_init(&o);
	o.ca_only = 1;
	o.all_traffic = 1;
	o.ebb_patterns = 0;
	assert_int_equal(lanes_verify(f, r, &o, &res, &err), 0);
	assert_true(res->reachable && res->deadlock_free);
	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t own = lanes_fabric_lid(f, f->switches[s], 0);

		assert_int_equal(lanes_routing_port(r, s, own), 0);
		assert_int_equal(lanes_routing_port(r, (s + 1) % f->num_switches, own),
				 LANES_PORT_DROP);
	}
	lanes_verify_result_free(res);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

static int same(const struct lanes_routing *a, const struct lanes_routing *b)
{
	size_t cells = (size_t)a->num_lids * a->num_switches;

	return a->num_vls == b->num_vls && a->num_sls == b->num_sls &&
	       !memcmp(a->lft, b->lft, cells) && a->sl_mode == b->sl_mode &&
	       (!a->sl || !memcmp(a->sl, b->sl, lanes_routing_sl_cells(a, a->sl_mode))) &&
	       !strcmp(a->notes, b->notes);
}

/* The same fabric gives the same bytes, METIS included. */
static void test_deterministic(void **state)
{
	static const char *const specs[] = { "dragonfly a=4 p=2 h=2", "torus k=6x6 p=2",
					     "jellyfish switches=30 degree=4 p=2 seed=3" };

	(void)state;
	for (size_t i = 0; i < N(specs); i++) {
		struct lanes_fabric *f = gen(specs[i]);
		struct lanes_routing *a = route_opts(f, 8, 16, 1), *b = route_opts(f, 8, 16, 1);
		struct lanes_routing *c = route_opts(f, 8, 16, 1);

		assert_true(same(a, b));
		assert_true(same(a, c));
		lanes_routing_free(a);
		lanes_routing_free(b);
		lanes_routing_free(c);
		lanes_fabric_free(f);
	}
}

/* Route f with nue's internal entry: with or without the search's BFS shortcut. */
static struct lanes_routing *route_fast(const struct lanes_fabric *f, uint8_t vls, int use_fast)
{
	struct lanes_route_opts o;
	struct lanes_routing *r = NULL;
	struct lanes_error err;

	lanes_route_opts_init(&o);
	o.max_vls = vls;
	o.max_sls = 16;
	if (lanes_nue_route(f, &o, use_fast, &r, &err))
		fail_msg("nue: %s", err.message);
	return r;
}

/*
 * The BFS shortcut of the search (nue_fast.c) gives the heap search's
 * tables byte for byte: every small generated fabric and every real file,
 * 1 and 4 VLs, with and without it.
 */
static void same_without_shortcut(const struct lanes_fabric *f, const char *name, void *ctx)
{
	static const uint8_t budgets[] = { 1, 4 };

	(void)ctx;
	for (size_t i = 0; i < N(budgets); i++) {
		struct lanes_routing *a = route_fast(f, budgets[i], 1), *b = route_fast(f, budgets[i], 0);

		if (!same(a, b))
			fail_msg("nue on %s, %u VLs: the shortcut changes the tables", name, budgets[i]);
		lanes_routing_free(a);
		lanes_routing_free(b);
	}
}

/* Threads 1 and 2 (the escape roots of the layers found in parallel) give the same bytes. */
static void same_threads(const struct lanes_fabric *f, const char *name, void *ctx)
{
	struct lanes_routing *a = route_engine_threads(&lanes_engine_nue, f, 1);
	struct lanes_routing *b = route_engine_threads(&lanes_engine_nue, f, 2);

	(void)ctx;
	if (!same(a, b))
		fail_msg("nue on %s: threads 1 and 2 give different tables", name);
	lanes_routing_free(a);
	lanes_routing_free(b);
}

static void test_threads_identical(void **state)
{
	(void)state;
	each_small_fabric(same_threads, NULL);
	each_real_fabric(LANES_DATA_DIR, same_threads, NULL);
}

static void test_shortcut_exact(void **state)
{
	(void)state;
	each_small_fabric(same_without_shortcut, NULL);
	each_real_fabric(LANES_DATA_DIR, same_without_shortcut, NULL);
}

/* Two islands: each routed within itself, the other's LIDs dropped. */
static void test_disconnected(void **state)
{
	struct lanes_builder *b = tb_new();
	uint32_t A = tb_add(b, LANES_NODE_SWITCH, 4, 0x10), B = tb_add(b, LANES_NODE_SWITCH, 4, 0x11);
	uint32_t C = tb_add(b, LANES_NODE_SWITCH, 4, 0x12);
	uint32_t a0 = tb_add(b, LANES_NODE_CA, 1, 0x500), c0 = tb_add(b, LANES_NODE_CA, 1, 0x600);
	struct lanes_fabric *f;

	(void)state;
	tb_cable(b, A, 1, B, 1);
	tb_cable(b, A, 2, a0, 1);
	tb_cable(b, C, 2, c0, 1);
	f = tb_finish(b);
	for (uint8_t vls = 1; vls <= 2; vls++) {
		struct lanes_routing *r = route_opts(f, vls, 16, 1);

		assert_int_equal(lanes_routing_port(r, f->nodes[B].switch_index,
						    lanes_fabric_lid(f, a0, 1)),
				 1);
		assert_int_equal(lanes_routing_port(r, f->nodes[C].switch_index,
						    lanes_fabric_lid(f, a0, 1)),
				 LANES_PORT_DROP);
		assert_int_equal(lanes_routing_port(r, f->nodes[C].switch_index,
						    lanes_fabric_lid(f, c0, 1)),
				 2);
		lanes_routing_free(r);
	}
	lanes_fabric_free(f);
}

/*
 * Two rings, of 12 and 6 switches, one CA on each switch: every LID reached
 * round its own ring (switch LIDs the shortest way), dropped by the other
 * ring. The
 * switch-LID pass counts its port loads eight switches at a time where none
 * of them drops the LID (nue_swlids.c); here the rings' switches fill whole
 * blocks of eight, of one ring and of both, so both ways are taken (under
 * ASan in `make test`: a drop counted as a port would write past the loads).
 */
static uint32_t ring_dist(uint32_t i, uint32_t j, uint32_t n)
{
	uint32_t d = i > j ? i - j : j - i;

	return d < n - d ? d : n - d;
}

/* Port 1 or 2 of switch i of a ring of n takes one hop nearer to switch j. */
static int ring_step(uint8_t port, uint32_t i, uint32_t j, uint32_t n)
{
	if (port != 1 && port != 2)
		return 0;
	return ring_dist(port == 1 ? (i + 1) % n : (i + n - 1) % n, j, n) + 1 == ring_dist(i, j, n);
}

/*
 * Follow the LFTs from switch i of a ring (its switches' nodes in sw)
 * towards lid: @return the switch whose CA port it leaves at, or LANES_NONE
 */
static uint32_t ring_walk(const struct lanes_routing *r, const struct lanes_fabric *f,
			  const uint32_t *sw, uint32_t n, uint32_t i, uint32_t lid)
{
	for (uint32_t hops = 0; hops <= n; hops++) {
		uint8_t p = lanes_routing_port(r, f->nodes[sw[i]].switch_index, lid);

		if (p != 1 && p != 2)
			return p == 3 ? i : LANES_NONE;
		i = p == 1 ? (i + 1) % n : (i + n - 1) % n;
	}
	return LANES_NONE; /* a loop */
}

static void test_disconnected_rings(void **state)
{
	enum { NA = 12, NB = 6, NS = NA + NB };
	struct lanes_builder *b = tb_new();
	uint32_t sw[NS], ca[NS], base[2] = { 0, NA }, len[2] = { NA, NB };
	struct lanes_fabric *f;

	(void)state;
	for (uint32_t i = 0; i < NS; i++)
		sw[i] = tb_add(b, LANES_NODE_SWITCH, 4, 0x10 + i);
	for (uint32_t i = 0; i < NS; i++)
		ca[i] = tb_add(b, LANES_NODE_CA, 1, 0x1000 + i);
	for (uint32_t k = 0; k < 2; k++)
		for (uint32_t i = 0; i < len[k]; i++) { /* port 1 to the next, port 2 to the one before */
			tb_cable(b, sw[base[k] + i], 1, sw[base[k] + (i + 1) % len[k]], 2);
			tb_cable(b, sw[base[k] + i], 3, ca[base[k] + i], 1);
		}
	f = tb_finish(b);
	judge_vls(f, "two rings", 1);
	for (uint8_t vls = 1; vls <= 2; vls++) {
		struct lanes_routing *r = route_opts(f, vls, 16, 1);

		for (uint32_t s = 0; s < NS; s++)
			for (uint32_t t = 0; t < NS; t++) {
				uint32_t ks = s >= NA, kt = t >= NA, n = len[ks], i = s - base[ks];
				uint32_t j = t - base[kt], si = f->nodes[sw[s]].switch_index;
				uint8_t pc = lanes_routing_port(r, si, lanes_fabric_lid(f, ca[t], 1));
				uint8_t ps = lanes_routing_port(r, si, lanes_fabric_lid(f, sw[t], 0));

				if (ks != kt) {
					assert_int_equal(pc, LANES_PORT_DROP);
					assert_int_equal(ps, LANES_PORT_DROP);
					continue;
				}
				if (s == t) {
					assert_int_equal(pc, 3);
					assert_int_equal(ps, 0);
					continue;
				}
				assert_true(ring_step(ps, i, j, n)); /* switch LIDs: shortest */
				assert_true(pc == 1 || pc == 2);     /* CA LIDs: reached */
				assert_true(ring_walk(r, f, sw + base[ks], n, i, lanes_fabric_lid(f, ca[t], 1)) == j);
			}
		lanes_routing_free(r);
	}
	lanes_fabric_free(f);
}

/* Max routes per channel of CA-to-CA paths, judged by the verifier. */
static uint64_t rpc_max(const struct lanes_fabric *f, const struct lanes_routing *r)
{
	struct lanes_verify_result *res = verify(f, r, 1, 0);
	uint64_t m = res->rpc_max;

	assert_true(res->deadlock_free && res->reachable);
	lanes_verify_result_free(res);
	return m;
}

/*
 * fattree k=4 n=3 with one VL: nue's max routes per channel within 5% of
 * minhop's. Before the switch LIDs were routed after the CA LIDs and the
 * escape paths toward switch-only destinations were deferred, switch paths
 * and escape turns took early dependencies that closed the CDG to many CA
 * paths on fat trees (the 4-ary 3-tree files: 2.3x OpenSM nue's 192).
 */
static void test_fat_tree_balance(void **state)
{
	struct lanes_fabric *f = gen("fattree k=4 n=3");
	struct lanes_route_opts o;
	struct lanes_routing *mh = NULL, *r = route_opts(f, 1, 16, 1);
	struct lanes_error err;
	uint64_t ours, base;

	(void)state;
	lanes_route_opts_init(&o);
	o.max_vls = 1;
	if (lanes_route(lanes_engine_find("minhop"), f, &o, &mh, &err))
		fail_msg("minhop: %s", err.message);
	ours = rpc_max(f, r);
	base = rpc_max(f, mh);
	if (ours * 100 > base * 105)
		fail_msg("nue max routes per channel %llu, minhop %llu", (unsigned long long)ours,
			 (unsigned long long)base);
	lanes_routing_free(mh);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* Switch LIDs: every switch reaches every switch LID on a shortest path, with SL 0. */
static void test_switch_lids_shortest(void **state)
{
	static const char *const specs[] = { "torus k=6x6 p=2", "dragonfly a=4 p=2 h=2" };

	(void)state;
	for (size_t i = 0; i < N(specs); i++) {
		struct lanes_fabric *f = gen(specs[i]);
		struct lanes_routing *r = route_opts(f, 4, 16, 1);
		uint8_t *dist = NULL;
		struct lanes_error err;
		uint32_t ns = f->num_switches;

		assert_int_equal(lanes_fabric_switch_distances(f, &dist, &err), 0);
		for (uint32_t t = 0; t < ns; t++) {
			uint32_t lid = lanes_fabric_lid(f, f->switches[t], 0);

			assert_int_equal(lanes_routing_sl(r, f, 1, lid), 0);
			for (uint32_t s = 0; s < ns; s++) {
				uint32_t x = s, hops = 0;

				while (x != t && hops <= ns) {
					uint8_t p = lanes_routing_port(r, x, lid);
					uint32_t e = f->adj_off[x];

					assert_int_not_equal(p, LANES_PORT_DROP);
					while (e < f->adj_off[x + 1] && f->adj[e].port != p)
						e++;
					assert_true(e < f->adj_off[x + 1]);
					x = f->adj[e].sw;
					hops++;
				}
				assert_int_equal(hops, dist[(size_t)t * ns + s]);
			}
		}
		free(dist);
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
}

/*
 * The 4-ary 3-tree file (gen_4ary3tree_k-4-n-3-Full_ibnetdiscover.topo), one
 * VL: max routes per channel of CA-to-CA paths at most the real OpenSM
 * 3.3.23 nue's 192 on the same file (bench/opensm_compare.sh: OpenSM in
 * ibsim with nue at its default 1 VL; docs/routing.md), and within 5% of our
 * sssp's (OpenSM's SSSP balancing on shortest paths, no deadlock
 * constraint). Routing CA LIDs in LID order gave 124 here but 2x OpenSM's
 * count on the dragonfly; the rounds of nue_dests.c must keep this too.
 */
static void test_fat_tree_file_balance(void **state)
{
	struct lanes_fabric *f =
		read_fabric(LANES_DATA_DIR, "gen_4ary3tree_k-4-n-3-Full_ibnetdiscover.topo", NULL);
	struct lanes_route_opts o;
	struct lanes_routing *ss = NULL, *r = route_opts(f, 1, 16, 1);
	struct lanes_error err;
	uint64_t ours, base;

	(void)state;
	lanes_route_opts_init(&o);
	o.max_vls = 1;
	if (lanes_route(lanes_engine_find("sssp"), f, &o, &ss, &err))
		fail_msg("sssp: %s", err.message);
	ours = rpc_max(f, r);
	base = rpc_max(f, ss);
	if (ours > 192 || ours * 100 > base * 105)
		fail_msg("nue max routes per channel %llu, sssp %llu, OpenSM nue 192",
			 (unsigned long long)ours, (unsigned long long)base);
	lanes_routing_free(ss);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptor),   cmocka_unit_test(test_topologies),
		cmocka_unit_test(test_generators),   cmocka_unit_test(test_real_fabrics),
		cmocka_unit_test(test_failed_links), cmocka_unit_test(test_sl_is_layer),
		cmocka_unit_test(test_sl_budget),    cmocka_unit_test(test_lmc),
		cmocka_unit_test(test_ca_lids_only), cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_shortcut_exact),
		cmocka_unit_test(test_threads_identical),
		cmocka_unit_test(test_disconnected), cmocka_unit_test(test_disconnected_rings),
		cmocka_unit_test(test_fat_tree_balance),
		cmocka_unit_test(test_switch_lids_shortest),
		cmocka_unit_test(test_fat_tree_file_balance),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
