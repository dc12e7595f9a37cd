/*
 * updown_complete.c - phase C of up* / down* routing toward one destination
 * switch t (updown.c runs it after updown_legal.c): the switches of t's
 * component that have no legal path at all under the rule of seed 004
 * section 3.
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

/* Routed switches of the component, by len (counting sort) into u->sorted. */
static uint32_t sort_by_len(struct updown *u, uint32_t c)
{
	const struct lanes_fabric *f = u->g->f;
	uint32_t maxlen = 0, n = 0;

	for (uint32_t s = 0; s < f->num_switches; s++)
		if (u->g->comp[s] == c && u->len[s] != INF && u->len[s] > maxlen)
			maxlen = u->len[s];
	memset(u->bucket, 0, sizeof(*u->bucket) * ((size_t)maxlen + 2));
	for (uint32_t s = 0; s < f->num_switches; s++)
		if (u->g->comp[s] == c && u->len[s] != INF)
			u->bucket[u->len[s] + 1]++;
	for (uint32_t l = 1; l <= maxlen + 1; l++)
		u->bucket[l] += u->bucket[l - 1];
	for (uint32_t s = 0; s < f->num_switches; s++)
		if (u->g->comp[s] == c && u->len[s] != INF) {
			u->sorted[u->bucket[u->len[s]]++] = s;
			n++;
		}
	memset(u->bucket, 0, sizeof(*u->bucket) * ((size_t)maxlen + 2)); /* complete_few's heads */
	return n;
}

/* A completed switch: any neighbour one hop closer, in port order. */
static void completed_candidates(struct updown *u, uint32_t s)
{
	const struct lanes_adj *adj = u->g->f->adj;
	const uint32_t *len = u->len, want = u->len[s] - 1, e1 = u->g->f->adj_off[s + 1];
	uint8_t *out = u->hops.port + u->nports;
	uint32_t k = 0;

	for (uint32_t e = u->g->f->adj_off[s]; e < e1; e++)
		if (len[adj[e].sw] == want)
			out[k++] = adj[e].port;
	updown_take(u, s, k);
}

/*
 * Phase C: the rest of t's component, by BFS that starts from every routed
 * switch at its own distance (a merge of the sorted routed switches and the
 * FIFO of completed ones keeps the order by distance). check: t is a CA
 * destination, so a completed switch with CAs is a gap.
 */
static void complete(struct updown *u, uint32_t t, int check)
{
	const struct lanes_fabric *f = u->g->f;
	uint32_t n = sort_by_len(u, u->g->comp[t]), i = 0, head = 0, tail = 0;

	while (i < n || head < tail) {
		uint32_t x;

		if (head < tail && (i == n || u->len[u->queue[head]] < u->len[u->sorted[i]]))
			x = u->queue[head++];
		else
			x = u->sorted[i++];
		for (uint32_t e = f->adj_off[x]; e < f->adj_off[x + 1]; e++) {
			uint32_t s = f->adj[e].sw;

			if (u->len[s] != INF)
				continue;
			u->len[s] = u->len[x] + 1;
			u->state[s] = ST_COMPLETED;
			u->queue[tail++] = s;
			if (check && u->g->has_ca[s] && u->gap->from_sw == LANES_NONE) {
				u->gap->from_sw = s;
				u->gap->to_sw = t;
			}
		}
	}
	for (uint32_t q = 0; q < tail; q++)
		completed_candidates(u, u->queue[q]);
}

/*
 * complete_few's scan of a completed switch at len lx, its neighbours
 * a..a1: the candidates into out (the neighbours at lx - 1, all final),
 * the completed neighbours it lowers to lx + 1 onto queue[*tail]. Not
 * inlined: alone, the loop keeps its values in registers. @return the
 * candidate count
 */
__attribute__((noinline)) static uint32_t
scan_completed(const struct lanes_adj *a, const struct lanes_adj *a1, uint32_t *len,
	       const uint8_t *state, uint32_t lx, uint8_t *out, uint32_t *queue, uint32_t *tail)
{
	uint32_t k = 0, want = lx - 1, t = *tail;

	for (; a < a1; a++) {
		uint32_t s = a->sw, l = len[s];

		if (l == want)
			out[k++] = a->port;
		else if (l > lx + 1 && state[s] == ST_COMPLETED) {
			len[s] = lx + 1;
			queue[t++] = s;
		}
	}
	*tail = t;
	return k;
}

/*
 * scan_completed in column mode: no candidate list, but the first of them
 * with the fewest LIDs (load, by port), as route_least_loaded from port 1
 * picks among them. @return it, or LANES_PORT_DROP
 */
__attribute__((noinline)) static uint8_t
pick_completed(const struct lanes_adj *a, const struct lanes_adj *a1, uint32_t *len,
	       const uint8_t *state, uint32_t lx, const uint32_t *load, uint32_t *queue,
	       uint32_t *tail)
{
	uint32_t want = lx - 1, t = *tail, least = UINT32_MAX;
	uint8_t pick = LANES_PORT_DROP;

	for (; a < a1; a++) {
		uint32_t s = a->sw, l = len[s];

		if (l == want) {
			if (load[a->port] < least) {
				least = load[a->port];
				pick = a->port;
			}
		} else if (l > lx + 1 && state[s] == ST_COMPLETED) {
			len[s] = lx + 1;
			queue[t++] = s;
		}
	}
	*tail = t;
	return pick;
}

/*
 * Phase C without the full BFS, when no gap can arise (check unset, or no
 * unrouted switch with CAs): the n unrouted switches take their shortest
 * distance to the routed ones by a BFS among themselves, seeded with 1 +
 * their least routed neighbour (the BFS of complete() scans every routed
 * switch instead). An up neighbour with a route would have given a switch
 * one (updown_legal.c), so the routed neighbours of an unrouted switch are
 * all down moves. Same lengths, so the same candidates; only the order of
 * u->hops.multi differs, which no LID reads.
 *
 * Dial's buckets: the seeds of each length in a list (head[l], next[s],
 * both switch + 1, 0 ends; u->bucket is all 0 outside). The queue holds
 * one length after the other: when length l comes, it holds the switches
 * that the BFS put at l, and l's seeds go after them (not a seed lowered
 * since, which is among the former); the switches they lower go after
 * those, at l + 1. A completed switch's scan finds its candidates (the
 * neighbours at l - 1, all final) and lowers its completed neighbours.
 */
static void complete_few(struct updown *u, uint32_t n)
{
	const struct lanes_adj *adj = u->g->f->adj;
	const uint32_t *un = u->unrouted, *aoff = u->g->f->adj_off, *off = u->g->off, *mid = u->g->mid;
	const uint32_t *nb = u->g->nb;
	uint32_t *len = u->len, *next = u->best, *head = u->bucket, *queue = u->queue;
	uint32_t *multi = u->hops.multi, *moff = u->hops.moff;
	uint32_t lo = INF, hi = 0, qh = 0, qt = 0, np = u->nports, nmulti = u->hops.nmulti;
	const uint32_t *loff = u->g->load->off, *count = u->g->load->count;
	uint8_t *state = u->state, *port = u->hops.port, *one = u->hops.one, *col = u->col;

	for (uint32_t q = 0; q < n; q++) {
		uint32_t s = un[q], b = INF, e0 = mid[s], nd = off[s + 1] - e0;
		const uint32_t *v = nb + e0;

		state[s] = ST_COMPLETED;
		for (uint32_t j = 0; j < nd; j++) {
			uint32_t l = len[v[j]];

			b = l < b ? l : b;
		}
		if (b == INF)
			continue;
		len[s] = ++b;
		next[s] = head[b];
		head[b] = s + 1;
		lo = b < lo ? b : lo;
		hi = b > hi ? b : hi;
	}
	for (uint32_t l = lo; l <= hi || qh < qt; l++) {
		uint32_t end;

		if (l <= hi) {
			for (uint32_t x1 = head[l]; x1; x1 = next[x1 - 1])
				if (len[x1 - 1] == l)
					queue[qt++] = x1 - 1;
			head[l] = 0;
		}
		for (end = qt; qh < end; qh++) {
			uint32_t x = queue[qh], k;
			uint8_t *out = port + np;

			if (col) {
				col[x] = pick_completed(adj + aoff[x], adj + aoff[x + 1], len, state, l,
							count + loff[x], queue, &qt);
				continue;
			}
			k = scan_completed(adj + aoff[x], adj + aoff[x + 1], len, state, l, out, queue,
					   &qt);
			updown_store(one, multi, moff, &nmulti, &np, out, x, k);
		}
	}
	u->nports = np;
	u->hops.nmulti = nmulti;
}

/* Phase C: the fast way when it gives the same tables and report, else complete(). */
void lanes_updown_complete(struct updown *u, uint32_t t, int check)
{
	if (check && u->unrouted_ca)
		complete(u, t, check);
	else
		complete_few(u, u->nunrouted);
}
