/*
 * updown_complete.c - phase C of up* / down* routing toward one destination
 * switch t (updown.c runs it after updown_legal.c): the switches of t's
 * component that have no legal path at all under the up* / down* rule of
 * Sancho, Robles, Lopez, Flich, Duato, "Routing in InfiniBand Torus Network
 * Topologies" (ICPP 2003), section 3.
 *
 * COMPLETED: a switch with no legal path at all. It gets a shortest path in
 * the plain graph to the switches that have one, so that its own traffic
 * (and switch LIDs) still arrive. Legal routes never lead into it, so CA
 * traffic never meets it unless CAs hang off it; lanes_route_updown_lfts reports
 * that case as a gap instead of routing it. Completed routes do not count in
 * the port loads.
 *
 * Invariants: a gap is reported only for a destination switch with CAs
 * (check), naming the first completed switch with CAs that the BFS reaches;
 * candidates are in port order, and the completed switches' entries come
 * after the legal ones in u->hops.multi.
 */
#include <stdint.h>
#include <string.h>

#include "lanes/fabric.h"
#include "lanes/routing.h"
#include "route/updown/updown_internal.h"
#include "route/common/load.h"
#include "route/updown/updown.h"

/* Routed switches of the component, by len (counting sort) into u->routed_by_hops. */
static uint32_t sort_by_len(struct updown *u, uint32_t c)
{
	const uint32_t *comp = u->g->component, *len = u->route_hops, ns = u->g->f->num_switches;
	uint32_t *bucket = u->hops_bucket, *sorted = u->routed_by_hops, maxlen = 0, n = 0;

	for (uint32_t s = 0; s < ns; s++)
		if (comp[s] == c && len[s] != INF && len[s] > maxlen)
			maxlen = len[s];
	memset(bucket, 0, sizeof(*bucket) * ((size_t)maxlen + 2));
	for (uint32_t s = 0; s < ns; s++)
		if (comp[s] == c && len[s] != INF)
			bucket[len[s] + 1]++;
	for (uint32_t l = 1; l <= maxlen + 1; l++)
		bucket[l] += bucket[l - 1];
	for (uint32_t s = 0; s < ns; s++)
		if (comp[s] == c && len[s] != INF) {
			sorted[bucket[len[s]]++] = s;
			n++;
		}
	return n;
}

/* A completed switch: any neighbour one hop closer, in port order (column mode: least loaded). */
static void completed_candidates(struct updown *u, uint32_t s)
{
	const struct lanes_adj *adj = u->g->f->adj;
	const uint32_t *len = u->route_hops, want = u->route_hops[s] - 1, e1 = u->g->f->adj_off[s + 1];
	uint8_t *out = u->hops.port + u->num_ports;
	uint32_t k = 0;

	for (uint32_t e = u->g->f->adj_off[s]; e < e1; e++)
		if (len[adj[e].sw] == want)
			out[k++] = adj[e].port;
	updown_emit(u, s, k);
}

/*
 * Phase C: the rest of t's component, by BFS that starts from every routed
 * switch at its own distance (a merge of the sorted routed switches and the
 * FIFO of completed ones keeps the order by distance). check: t is a CA
 * destination, so a completed switch with CAs is a gap.
 */
void lanes_updown_complete(struct updown *u, uint32_t t, int check)
{
	const struct lanes_fabric *f = u->g->f;
	const uint32_t *sorted = u->routed_by_hops;
	uint32_t n = sort_by_len(u, u->g->component[t]), i = 0, head = 0, tail = 0;
	uint32_t *len = u->route_hops, *queue = u->queue;

	while (i < n || head < tail) {
		uint32_t x;

		if (head < tail && (i == n || len[queue[head]] < len[sorted[i]]))
			x = queue[head++];
		else
			x = sorted[i++];
		for (uint32_t e = f->adj_off[x]; e < f->adj_off[x + 1]; e++) {
			uint32_t s = f->adj[e].sw;

			if (len[s] != INF)
				continue;
			len[s] = len[x] + 1;
			queue[tail++] = s;
			if (check && u->g->has_ca[s] && u->gap->from_sw == LANES_NONE) {
				u->gap->from_sw = s;
				u->gap->to_sw = t;
			}
		}
	}
	for (uint32_t q = 0; q < tail; q++) {
		u->state[queue[q]] = ST_COMPLETED;
		completed_candidates(u, queue[q]);
	}
}
