/*
 * dfsssp_estimate.c - the memory dfsssp needs beside the routing's tables,
 * estimated before it routes (lanes_engine.scratch_bytes), so that the
 * command line can refuse a fabric that would not fit rather than fail,
 * or be killed, an hour into it.
 *
 * Most of it is the units of paths (dfsssp_units.c): for a source switch
 * with end ports and a destination switch two links or more away, one unit
 * per distinct path that the destination's LIDs take, each with its record
 * and layer (9 bytes) and, per channel dependency on the path (its switch
 * hops less one), an entry in unit_deps and one in dep_units (8 bytes).
 * sssp spreads the LIDs of a switch over its shortest paths, so a pair has
 * about min(LIDs behind the destination, shortest paths to it) units. Both
 * are counted by a breadth-first search that counts shortest paths, from a
 * sample of the source switches (every stride-th of those with end ports,
 * about 256 of them), and scaled to all. Add a byte per switch pair for the
 * all-pairs hops.
 *
 * Measured peaks (gcc -O2, tables and fabric included) against the
 * estimate with the tables, as `lanes route` prints it: torus k=16x16x8
 * p=1 482 MB for 361 MB; torus k=12x12x8 p=4 449 MB for 356 MB; fattree
 * k=16 n=3 69 MB for 42 MB; dragonfly a=26 p=13 h=13 4.68 GB for 5.7 GB
 * (some of its pairs have more shortest paths than sssp uses). Within
 * 40% either way: the rest is sssp's and the dependency lists'.
 */
#include <stdlib.h>
#include <string.h>

#include "route/dfsssp/dfsssp_internal.h"

#define SAMPLED_SOURCES 256
#define PATHS_ENOUGH (1u << 30) /* more paths than LIDs behind any switch */

struct census {
	const struct lanes_fabric *f;
	uint32_t *lids;  /* per switch: the end-port LIDs behind it */
	uint32_t *hops;  /* per switch: hops from the source (UINT32_MAX: not reached) */
	uint32_t *paths; /* per switch: shortest paths from the source, up to PATHS_ENOUGH */
	uint32_t *queue;
	uint64_t units, deps;
};

/* End-port LIDs behind each switch: CA and router ports, 2^LMC each. */
static void count_lids(struct census *c)
{
	const struct lanes_fabric *f = c->f;

	for (uint32_t i = 0; i < f->num_nodes; i++)
		for (uint8_t p = 1; f->nodes[i].type != LANES_NODE_SWITCH && p <= f->nodes[i].nports;
		     p++) {
			const struct lanes_port *pt = lanes_fabric_port(f, i, p);

			if (pt->lid && pt->peer_node != LANES_NONE &&
			    f->nodes[pt->peer_node].type == LANES_NODE_SWITCH)
				c->lids[f->nodes[pt->peer_node].switch_index] += 1u << pt->lmc;
		}
}

/* Breadth-first from s, counting shortest paths; then the units s makes. */
static void units_from(struct census *c, uint32_t s)
{
	const struct lanes_fabric *f = c->f;
	uint32_t head = 0, tail = 0;

	for (uint32_t v = 0; v < f->num_switches; v++)
		c->hops[v] = UINT32_MAX;
	c->hops[s] = 0;
	c->paths[s] = 1;
	c->queue[tail++] = s;
	while (head < tail) {
		uint32_t u = c->queue[head++];

		for (uint32_t e = f->adj_off[u]; e < f->adj_off[u + 1]; e++) {
			uint32_t v = f->adj[e].sw;

			if (c->hops[v] == UINT32_MAX) {
				c->hops[v] = c->hops[u] + 1;
				c->paths[v] = c->paths[u];
				c->queue[tail++] = v;
			} else if (c->hops[v] == c->hops[u] + 1) {
				c->paths[v] = c->paths[v] + c->paths[u] < PATHS_ENOUGH
						      ? c->paths[v] + c->paths[u] : PATHS_ENOUGH;
			}
		}
	}
	for (uint32_t i = 0; i < tail; i++) {
		uint32_t t = c->queue[i];
		uint64_t units = c->lids[t] < c->paths[t] ? c->lids[t] : c->paths[t];

		if (c->hops[t] >= 2) {
			c->units += units;
			c->deps += units * (c->hops[t] - 1);
		}
	}
}

uint64_t lanes_dfsssp_scratch_bytes(const struct lanes_fabric *f,
				    const struct lanes_route_opts *opts)
{
	struct census c = { f, NULL, NULL, NULL, NULL, 0, 0 };
	uint64_t ns = f->num_switches, sources = 0, sampled = 0, stride, bytes = ns * ns;

	(void)opts;
	c.lids = calloc(ns + 1, sizeof(*c.lids));
	c.hops = malloc((ns + 1) * sizeof(*c.hops));
	c.paths = malloc((ns + 1) * sizeof(*c.paths));
	c.queue = malloc((ns + 1) * sizeof(*c.queue));
	if (c.lids && c.hops && c.paths && c.queue) {
		count_lids(&c);
		for (uint32_t s = 0; s < ns; s++)
			sources += c.lids[s] > 0;
		stride = sources > SAMPLED_SOURCES ? sources / SAMPLED_SOURCES : 1;
		for (uint32_t s = 0, k = 0; s < ns; s++)
			if (c.lids[s] && k++ % stride == 0) {
				units_from(&c, s);
				sampled++;
			}
		if (sampled)
			bytes += (uint64_t)((double)(c.units * 9 + c.deps * 8) * (double)sources /
					    (double)sampled);
	}
	free(c.lids);
	free(c.hops);
	free(c.paths);
	free(c.queue);
	return bytes;
}
