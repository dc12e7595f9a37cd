/*
 * fuzz_lfts.c - fuzz target for the routing-file readers of lanes/dump.h:
 * opensm-lfts.dump / ibroute / dump_lfts output, opensm-sl2vl.dump, and the
 * path-SL table (with saquery path records).
 *
 * They need a fabric: a torus k=4x4 p=1 (the fabric of the seed corpus,
 * tests/fuzz/corpus/fuzz_lfts), generated once and kept for the process.
 * Every input goes to each reader. An input must either fail with an error
 * or fill a routing that the matching writer writes and the reader reads
 * back to the same LFTs, path SLs or SL2VL maps.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanes/dump.h"
#include "fuzz_fabric.h"
#include "lanes/topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef int (*read_fn)(const char *, size_t, const char *, const struct lanes_fabric *,
		       struct lanes_routing *, struct lanes_error *);
typedef int (*write_fn)(const struct lanes_fabric *, const struct lanes_routing *, FILE *,
			struct lanes_error *);

static size_t sl_cells(const struct lanes_routing *r)
{
	return r->sl_mode == LANES_SL_PER_DST	       ? r->num_lids
	       : r->sl_mode == LANES_SL_PER_SRC_SWITCH ? (size_t)r->num_lids * r->num_switches
	       : r->sl_mode == LANES_SL_PER_PAIR       ? (size_t)r->num_lids * r->num_lids
						       : 0;
}

static int same_map(const uint8_t *a, const uint8_t *b)
{
	return !memcmp(a, b, 16);
}

/* The maps the writer writes: switch (in 0..n, cabled out), cabled CA ports. */
static int same_maps(const struct lanes_fabric *f, const struct lanes_routing *a,
		     const struct lanes_routing *b)
{
	for (uint32_t i = 0; i < f->num_nodes; i++) {
		const struct lanes_node *n = &f->nodes[i];
		uint32_t s = n->switch_index;

		for (uint8_t o = 1; o <= n->nports; o++) {
			if (lanes_fabric_port(f, i, o)->peer_node == LANES_NONE)
				continue;
			if (n->type != LANES_NODE_SWITCH &&
			    !same_map(lanes_routing_port_map(a, f, i, o),
				      lanes_routing_port_map(b, f, i, o)))
				return 0;
			for (uint8_t in = 0; n->type == LANES_NODE_SWITCH && in <= n->nports; in++)
				if (!same_map(lanes_routing_switch_map(a, f, s, in, o),
					      lanes_routing_switch_map(b, f, s, in, o)))
					return 0;
		}
	}
	return 1;
}

/* What a round trip must keep. */
static int same(const struct lanes_fabric *f, const struct lanes_routing *a,
		const struct lanes_routing *b, int kind)
{
	if (kind == 0)
		return !memcmp(a->lft, b->lft, (size_t)a->num_lids * a->num_switches);
	if (kind == 2)
		return a->sl_mode == b->sl_mode && a->sl_uniform == b->sl_uniform &&
		       (!sl_cells(a) || !memcmp(a->sl, b->sl, sl_cells(a)));
	return same_maps(f, a, b);
}

static void one(const char *data, size_t size, read_fn rd, write_fn wr, int kind)
{
	const struct lanes_fabric *f = fuzz_fabric();
	struct lanes_routing *r, *back;
	struct lanes_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	if (lanes_routing_new(f, &r, &err))
		abort();
	if (rd(data, size, "fuzz", f, r, &err)) {
		lanes_routing_free(r);
		return;
	}
	mem = open_memstream(&buf, &len);
	if (!mem || wr(f, r, mem, &err))
		abort();
	fclose(mem);
	if (lanes_routing_new(f, &back, &err) || rd(buf, len, "rewritten", f, back, &err) ||
	    !same(f, r, back, kind))
		abort();
	lanes_routing_free(back);
	lanes_routing_free(r);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one((const char *)data, size, lanes_lfts_read, lanes_lfts_write, 0);
	one((const char *)data, size, lanes_sl2vl_read, lanes_sl2vl_write, 1);
	one((const char *)data, size, lanes_path_sl_read, lanes_path_sl_write, 2);
	return 0;
}
