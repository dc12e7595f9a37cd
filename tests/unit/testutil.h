/*
 * testutil.h - helpers shared by the cmocka unit tests.
 *
 * gen() builds a fabric from a generator spec written as on the command line
 * ("dragonfly a=4 p=2 h=2") and fails the test with the library's message
 * when that does not work; gen_error() expects failure and returns the error.
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
#include "lanes/topo.h"

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

#endif
