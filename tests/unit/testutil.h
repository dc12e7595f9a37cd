/*
 * testutil.h - helpers shared by the cmocka unit tests.
 *
 * gen() builds a fabric from a generator spec written as on the command line
 * ("dragonfly a=4 p=2 h=2") and fails the test with the library's message
 * when that does not work; gen_error() expects failure and returns the error.
 * The engine tests share: route_engine() / route_engine_error() (a routing
 * that must work / must fail with given budgets), verify_quick() (the
 * verifier without the EBB patterns, which these tests do not check),
 * each_small_fabric() / each_real_fabric() (a check on every small generated
 * fabric / every real fabric file), tb_new() / tb_finish() with tb_add() and
 * tb_cable() for hand-built fabrics, test_random_below() for random models.
 */
#ifndef LANES_TESTUTIL_H
#define LANES_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lanes/fabric.h"
#include "lanes/io.h"
#include "lanes/route.h"
#include "lanes/routing.h"
#include "lanes/topo.h"
#include "lanes/verify.h"

/* Split spec at blanks into argv-style words (in place). */
static inline size_t split_words(char *s, char **words, size_t max)
{
	size_t n = 0;

	for (char *tok = strtok(s, " "); tok && n < max; tok = strtok(NULL, " "))
		words[n++] = tok;
	return n;
}

static inline int gen_try(const char *spec, struct lanes_fabric **out, struct lanes_error *err)
{
	char buf[512], *w[32];
	size_t n;

	snprintf(buf, sizeof(buf), "%s", spec);
	n = split_words(buf, w, 32);
	return lanes_topo_generate(w[0], n - 1, (const char *const *)(w + 1), out, err);
}

static inline struct lanes_fabric *gen(const char *spec)
{
	struct lanes_fabric *f = NULL;
	struct lanes_error err;

	if (gen_try(spec, &f, &err))
		fail_msg("%s: %s", spec, err.message);
	return f;
}

static inline struct lanes_error gen_error(const char *spec)
{
	struct lanes_fabric *f = NULL;
	struct lanes_error err;

	memset(&err, 0, sizeof(err));
	if (!gen_try(spec, &f, &err)) {
		lanes_fabric_free(f);
		fail_msg("%s: expected an error", spec);
	}
	return err;
}

static inline struct lanes_fabric_stats stats_of(const struct lanes_fabric *f)
{
	struct lanes_fabric_stats st;
	struct lanes_error err;

	if (lanes_fabric_stats(f, &st, &err))
		fail_msg("stats: %s", err.message);
	return st;
}

/* Read a file from ../shared/data (LANES_DATA_DIR) or tests/data. */
static inline struct lanes_fabric *read_fabric(const char *dir, const char *name,
					       const char *format)
{
	char path[1024];
	struct lanes_fabric *f = NULL;
	struct lanes_error err;
	char msg[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (lanes_io_read_file(path, format, &f, &err))
		fail_msg("%s", lanes_error_format(&err, msg, sizeof(msg)));
	return f;
}

/* The small instance of every generator that engine tests run on (one per
 * generator at least: test_matrix.c checks it), or NULL past the end. */
static inline const char *small_fabric(size_t i)
{
	static const char *const list[] = {
		"dragonfly a=2 p=1 h=1", "dragonfly a=4 p=2 h=2",
		"dragonfly a=3 p=1 h=2 g=5 wiring=palmtree", "slimfly q=3", "slimfly q=5 p=1",
		"hyperx K=3x3 p=1", "hyperx K=2x3x2 L=2,1,1 p=1", "torus k=3x3 p=1",
		"torus k=4x2x3 p=1", "mesh k=3x3 p=1", "mesh k=2x4 p=2", "hypercube n=3 p=1",
		"fattree k=2 n=3", "fattree k=4 n=2", "xgft h=2 m=2,2 w=1,2",
		"xgft h=3 m=2,2,2 w=1,2,2", "sfxff q=3 K=2 p=1",
		"jellyfish switches=10 degree=3 p=1", "jellyfish switches=16 degree=4 p=2 seed=7",
		"oft k=3", "dragonfly a=4 p=4 h=2",
	};

	return i < sizeof(list) / sizeof(list[0]) ? list[i] : NULL;
}

/* Every fabric file of ../shared/data (LANES_DATA_DIR), or NULL past the end. */
static inline const char *real_fabric_file(size_t i)
{
	static const char *const list[] = {
		"anon_4sw_edr_ibnetdiscover.txt",
		"anon_4sw_edr_INVALID_lids_ibnetdiscover.txt",
		"dgxa100_superpod_qm8790_hdr_ibnetdiscover.txt",
		"gen_4ary3tree_k-4-n-3-Full_ibnetdiscover.topo",
		"ibsim_4ary3tree_k-4-n-3-Full.topology",
		"ibsim_net.2sw2path4hca2port",
		"ibsim_net.basic",
		"nvidia_lab_2sw_mixed_ibnetdiscover.txt",
		"psmn_x5_qdr_ibnetdiscover.txt",
		"ut_stage_sx6036_fdr10_ibnetdiscover.txt",
	};

	return i < sizeof(list) / sizeof(list[0]) ? list[i] : NULL;
}

/* A check of one fabric, named as the test reports it. */
typedef void (*fabric_check)(const struct lanes_fabric *f, const char *name, void *ctx);

/* Run check on every small_fabric() instance. */
static inline void each_small_fabric(fabric_check check, void *ctx)
{
	for (size_t k = 0; small_fabric(k); k++) {
		struct lanes_fabric *f = gen(small_fabric(k));

		check(f, small_fabric(k), ctx);
		lanes_fabric_free(f);
	}
}

/* Run check on every real_fabric_file() of dir. */
static inline void each_real_fabric(const char *dir, fabric_check check, void *ctx)
{
	for (size_t k = 0; real_fabric_file(k); k++) {
		struct lanes_fabric *f = read_fabric(dir, real_fabric_file(k), NULL);

		check(f, real_fabric_file(k), ctx);
		lanes_fabric_free(f);
	}
}

/* Are two routings the same data: LFTs, SL mode and SLs, VL and SL counts, SL2VL maps? */
static inline int routings_equal(const struct lanes_routing *a, const struct lanes_routing *b)
{
	if (a->sl_mode != b->sl_mode || a->num_vls != b->num_vls || a->num_sls != b->num_sls ||
	    a->num_lids != b->num_lids || a->num_switches != b->num_switches ||
	    a->num_sl2vl_maps != b->num_sl2vl_maps || !a->sl != !b->sl)
		return 0;
	if (memcmp(a->lft, b->lft, (size_t)a->num_lids * a->num_switches))
		return 0;
	if (a->sl && memcmp(a->sl, b->sl, lanes_routing_sl_cells(a, a->sl_mode)))
		return 0;
	return !a->num_sl2vl_maps ||
	       !memcmp(a->sl2vl_maps, b->sl2vl_maps, (size_t)a->num_sl2vl_maps * LANES_NUM_SLS);
}

/* e's routing of f with the default options but `threads` worker threads (1: none). */
static inline struct lanes_routing *route_engine_threads(const struct lanes_engine *e,
							 const struct lanes_fabric *f,
							 unsigned threads)
{
	struct lanes_route_opts o;
	struct lanes_routing *r = NULL;
	struct lanes_error err;

	lanes_route_opts_init(&o);
	o.threads = threads;
	if (lanes_route(e, f, &o, &r, &err))
		fail_msg("%s: %s", e->name, err.message);
	return r;
}

/* e routes spec to the same bytes with 1 thread and with 2 .. max_threads. */
static inline void check_threads_identical(const struct lanes_engine *e, const char *spec,
					   unsigned max_threads)
{
	struct lanes_fabric *f = gen(spec);
	struct lanes_routing *one = route_engine_threads(e, f, 1);

	for (unsigned t = 2; t <= max_threads; t++) {
		struct lanes_routing *more = route_engine_threads(e, f, t);

		if (!routings_equal(one, more))
			fail_msg("%s on %s: %u threads differ from 1", e->name, spec, t);
		lanes_routing_free(more);
	}
	lanes_routing_free(one);
	lanes_fabric_free(f);
}

/* Route f with e and these budgets; switch_lids: switch LIDs are destinations too. */
static inline struct lanes_routing *route_engine(const struct lanes_engine *e,
						 const struct lanes_fabric *f, uint8_t vls,
						 uint8_t sls, int switch_lids)
{
	struct lanes_route_opts o;
	struct lanes_routing *r = NULL;
	struct lanes_error err;

	lanes_route_opts_init(&o);
	o.max_vls = vls;
	o.max_sls = sls;
	o.switch_lids = switch_lids;
	if (lanes_route(e, f, &o, &r, &err))
		fail_msg("%s: %s", e->name, err.message);
	return r;
}

/* The error of a routing that must fail with these budgets. */
static inline struct lanes_error route_engine_error(const struct lanes_engine *e,
						    const struct lanes_fabric *f, uint8_t vls,
						    uint8_t sls)
{
	struct lanes_route_opts o;
	struct lanes_routing *r = NULL;
	struct lanes_error err;

	memset(&err, 0, sizeof(err));
	lanes_route_opts_init(&o);
	o.max_vls = vls;
	o.max_sls = sls;
	if (!lanes_route(e, f, &o, &r, &err)) {
		lanes_routing_free(r);
		fail_msg("%s: expected a failure with %u VLs and %u SLs", e->name, vls, sls);
	}
	assert_null(r);
	return err;
}

/*
 * The verifier with a VL budget, on CA-to-CA traffic (all_traffic 0) or
 * every path, every LID or CA LIDs only as destinations; no EBB patterns.
 */
static inline struct lanes_verify_result *verify_quick(const struct lanes_fabric *f,
						       const struct lanes_routing *r, uint8_t vls,
						       int all_traffic, int ca_only)
{
	struct lanes_verify_opts o;
	struct lanes_verify_result *res;
	struct lanes_error err;

	lanes_verify_opts_init(&o);
	o.max_vls = vls;
	o.all_traffic = all_traffic;
	o.ca_only = ca_only;
	o.ebb_patterns = 0;
	if (lanes_verify(f, r, &o, &res, &err))
		fail_msg("verify: %s", err.message);
	return res;
}

static inline struct lanes_builder *tb_new(void)
{
	struct lanes_builder *b;
	struct lanes_error err;

	assert_int_equal(lanes_builder_new(&b, &err), 0);
	return b;
}

static inline struct lanes_fabric *tb_finish(struct lanes_builder *b)
{
	struct lanes_fabric *f;
	struct lanes_error err;

	assert_int_equal(lanes_builder_finish(b, &f, &err), 0);
	return f;
}

/* A node for hand-built fabrics (description "n"); fails the test on error. */
static inline uint32_t tb_add(struct lanes_builder *b, int type, uint8_t nports, uint64_t guid)
{
	struct lanes_node_spec s = { (uint8_t)type, nports, guid, 0, 0, 0, "n" };
	struct lanes_error err;
	uint32_t i;

	assert_int_equal(lanes_builder_add_node(b, &s, &i, &err), 0);
	return i;
}

/* A 4x QDR cable for hand-built fabrics. */
static inline void tb_cable(struct lanes_builder *b, uint32_t x, uint8_t px, uint32_t y, uint8_t py)
{
	struct lanes_error err;

	assert_int_equal(lanes_builder_connect(b, x, px, y, py, 4, 3, &err), 0);
}

/*
 * OpenSM's LMC preference, by hand: switch X (GUID 0x10) reaches switch T
 * (0x14, one CA t0 at LMC lmc) in two hops by port 1 through A (0x11),
 * port 2 through B (0x12) and port 3 through C (0x13); A and B are one
 * chassis (system image GUID 0x999), C and the others have none (0: their
 * own GUID, as ibsim gives them). *x and *t0 are X and t0's node indices.
 */
static inline struct lanes_fabric *tb_lmc_chassis(uint8_t lmc, uint32_t *x, uint32_t *t0)
{
	struct lanes_builder *b = tb_new();
	struct lanes_node_spec chassis = { LANES_NODE_SWITCH, 4, 0x11, 0x999, 0, 0, "n" };
	struct lanes_error err;
	uint32_t X = tb_add(b, LANES_NODE_SWITCH, 4, 0x10), A, B, C, T;

	assert_int_equal(lanes_builder_add_node(b, &chassis, &A, &err), 0);
	chassis.guid = 0x12;
	assert_int_equal(lanes_builder_add_node(b, &chassis, &B, &err), 0);
	C = tb_add(b, LANES_NODE_SWITCH, 4, 0x13);
	T = tb_add(b, LANES_NODE_SWITCH, 4, 0x14);
	*t0 = tb_add(b, LANES_NODE_CA, 1, 0x100);
	tb_cable(b, X, 1, A, 1);
	tb_cable(b, X, 2, B, 1);
	tb_cable(b, X, 3, C, 1);
	tb_cable(b, A, 2, T, 1);
	tb_cable(b, B, 2, T, 2);
	tb_cable(b, C, 2, T, 3);
	tb_cable(b, T, 4, *t0, 1);
	assert_int_equal(lanes_builder_set_port(b, *t0, 1, 0, 0, lmc, &err), 0);
	*x = X;
	return tb_finish(b);
}

/** A number below n from the xorshift64 state *state (Marsaglia), for the tests' random models. */
static inline uint32_t test_random_below(uint64_t *state, uint32_t n)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return (uint32_t)(*state % n);
}

#endif
