/*
 * updown_legal.c - phases A and B of up* / down* routing toward one
 * destination switch t (updown.c runs them): the shortest legal routes under
 * the rule of the order, and each switch's candidate ports. The rule is
 * Autonet's, as Sancho, Robles, Lopez, Flich, Duato, "Routing in InfiniBand
 * Torus Network Topologies" (ICPP 2003), section 3, states it; compared
 * below with OpenSM 3.3.23's osm_ucast_updn.c (doc/current-routing.txt).
 *
 * An LFT has one entry per (switch, destination), whatever way a packet came
 * in, so per destination switch t every switch gets a state:
 *  - FREE: its shortest all-down path to t is a shortest legal path. It may
 *    step down (to a DOWN switch one hop closer on an all-down path) or up,
 *    whichever is as short.
 *  - DOWN: a FREE or DOWN switch may step down into it, so a packet may
 *    arrive here after a down move: it only steps down, along a shortest
 *    all-down path, even where going up first would be shorter. The DOWN
 *    switches are the closure of the FREE ones' down steps (t is DOWN).
 *  - UP: any other switch with a legal path. It goes up, or down into a DOWN
 *    switch, whichever is shorter (shortest over the routes chosen so far:
 *    a DOWN neighbour may be longer than its best).
 *  - COMPLETED: no legal path at all (updown_complete.c, phase C).
 * Only DOWN switches are entered by a down move, and they only move down, so
 * every route that CA traffic takes is up* then down*. Every switch with a
 * legal path gets one, and every FREE switch a shortest one.
 *
 * OpenSM's updn BFS (osm_ucast_updn.c updn_bfs_by_node) keeps one direction
 * per switch, the one it was first reached with; that can cost a switch its
 * shortest legal path (a 4-hop route where an all-down 3-hop one exists, on
 * a jellyfish) or its route altogether, and a switch's candidate ports can
 * mix a down move into it with an up move out. On fat trees with top-level
 * roots, and on every fabric of tests/interop/updn_vs_opensm.sh with one
 * root, the tables are the same entry for entry.
 *
 * In the comments, dn, best and len stand for the arrays down_hops,
 * best_hops and route_hops of struct updown (updown_internal.h).
 *
 * Invariants: switches are visited in order position (phase A: by dn, from
 * the BFS queue; B1 and B2: just the down set, from a bitmap of positions),
 * ports in port order; the candidates of a switch read only switches
 * already final.
 */
#include <stdint.h>
#include <string.h>

#include "lanes/fabric.h"
#include "lanes/routing.h"
#include "route/updown/updown_internal.h"
#include "route/common/load.h"

/*
 * Phase A: dn[s], the hops of a shortest all-down path from s to t (BFS from
 * t backwards), for the down set (u->queue[0..ndown), t first); their state
 * NONE (t: DOWN) and len INF (not yet routed), their order positions marked
 * in u->down_set_bits. dn is INF elsewhere (on entry everywhere: legal_paths puts it
 * back).
 */
static void all_down_paths(struct updown *u, uint32_t t)
{
	const uint32_t *off = u->g->first_up, *mid = u->g->first_down, *nb = u->g->neighbour;
	const uint32_t *pos = u->g->position;
	uint32_t *dn = u->down_hops, *len = u->route_hops, *queue = u->queue, head = 0, tail = 0;
	uint64_t *bits = u->down_set_bits;
	uint8_t *state = u->state;

	dn[t] = 0;
	queue[tail++] = t;
	state[t] = ST_DOWN; /* the destination: its up neighbours step down into it */
	bits[pos[t] >> 6] |= (uint64_t)1 << (pos[t] & 63);
	while (head < tail) {
		uint32_t x = queue[head++], d = dn[x] + 1;

		/* s -> x is a down move exactly when x -> s is an up move */
		for (uint32_t e = off[x], e1 = mid[x]; e < e1; e++) {
			uint32_t s = nb[e];

			if (dn[s] == INF) {
				dn[s] = d;
				len[s] = INF;
				state[s] = ST_NONE;
				queue[tail++] = s;
				bits[pos[s] >> 6] |= (uint64_t)1 << (pos[s] & 63);
			}
		}
	}
	u->num_down = tail;
}

/*
 * B1: the fewest hops of a legal path from s of the down set (its up
 * neighbours are final). The helpers of the phases read the arrays through
 * locals: their byte stores could alias the struct's pointers otherwise.
 */
static uint32_t best_legal_hops(const struct updown *u, uint32_t s)
{
	const uint32_t *best = u->best_hops, *neighbour = u->g->neighbour, end = u->g->first_down[s];
	uint32_t fewest = u->down_hops[s];

	for (uint32_t e = u->g->first_up[s]; e < end; e++)
		if (best[neighbour[e]] + 1 < fewest)
			fewest = best[neighbour[e]] + 1;
	return fewest;
}

/* B2, a DOWN switch s: down to its neighbours one hop closer on an all-down path, now DOWN. */
static uint32_t down_candidates(struct updown *u, uint32_t s, uint8_t *out)
{
	const uint32_t *dn = u->down_hops, *neighbour = u->g->neighbour, end = u->g->first_up[s + 1];
	const uint8_t *port = u->g->entry_port;
	uint32_t k = 0, closer = dn[s] - 1;
	uint8_t *state = u->state;

	for (uint32_t e = u->g->first_down[s]; e < end; e++)
		if (dn[neighbour[e]] == closer) {
			state[neighbour[e]] = ST_DOWN;
			out[k++] = port[e];
		}
	return k;
}

/* free_candidates: an up neighbour's route is not known yet. */
#define ROUTED_LATER UINT32_MAX

/*
 * B2, a FREE switch s, in port order: up to a neighbour routed in dn[s] - 1
 * hops, or down as a DOWN switch does (those neighbours become DOWN).
 * @return how many candidates, or ROUTED_LATER (phase B3 routes s)
 */
static uint32_t free_candidates(struct updown *u, uint32_t s, uint8_t *out)
{
	const struct lanes_adj *adj = u->g->f->adj;
	const uint32_t *len = u->route_hops, *dn = u->down_hops, end = u->g->f->adj_off[s + 1];
	const uint8_t *isup = u->g->goes_up;
	uint32_t k = 0, closer = dn[s] - 1, late = 0;
	uint8_t *state = u->state;

	for (uint32_t e = u->g->f->adj_off[s]; e < end; e++) {
		uint32_t v = adj[e].sw;

		if (isup[e]) {
			late |= len[v] == INF;
			if (len[v] == closer)
				out[k++] = adj[e].port;
		} else if (dn[v] == closer) {
			state[v] = ST_DOWN;
			out[k++] = adj[e].port;
		}
	}
	return late ? ROUTED_LATER : k;
}

/* B1 and B2 for switch s of the down set; its route when it needs nothing more. */
static void route_down_set_switch(struct updown *u, uint32_t s, uint32_t t)
{
	uint32_t hops = u->down_hops[s], k;
	uint8_t *out = u->hops.port + u->num_ports;

	u->best_hops[s] = best_legal_hops(u, s);
	if (s == t) {
		u->route_hops[s] = 0;
		updown_emit(u, s, 0);
		return;
	}
	if (u->state[s] == ST_DOWN) {
		k = down_candidates(u, s, out);
	} else if (u->best_hops[s] == hops) {
		u->state[s] = ST_FREE;
		if ((k = free_candidates(u, s, out)) == ROUTED_LATER)
			return;
	} else {
		return; /* UP: phase B3 */
	}
	u->route_hops[s] = hops;
	updown_emit(u, s, k);
}

/*
 * Phases B1 and B2 over the down set, in order (u->down_set_bits, cleared here), and
 * the routes that need nothing more.
 * B1: best[s] = min(dn[s], 1 + best of an up neighbour); the up neighbours
 * of a switch with an all-down path step down into it, so they have one too,
 * and only those switches can be FREE (best[s] == dn[s]).
 * B2: the switches that packets enter by a down move, which must go on
 * down: a FREE or DOWN switch steps down to its neighbours one hop closer on
 * an all-down path, so those are DOWN.
 * Every up neighbour of s comes before it, so s is final when taken, and so
 * is the route of a DOWN switch: down to those same neighbours, dn[s] hops.
 * A FREE switch goes down to them or up to a neighbour routed in dn[s] - 1
 * hops (never fewer: best), in port order; if an up neighbour's route is
 * not known yet (an UP switch, phase B3), B3 routes it too. t: none, 0 hops.
 * The routes go to u->hops from the start (or to u->column: updown_emit).
 */
static void down_states(struct updown *u, uint32_t t)
{
	uint32_t nw = (u->g->f->num_switches + 63) >> 6;

	u->num_ports = u->hops.nmulti = 0;
	u->hops.moff[0] = 0;
	for (uint32_t w = 0; w < nw; w++) {
		uint64_t m = u->down_set_bits[w];

		u->down_set_bits[w] = 0;
		for (uint32_t b = 0; m; b++, m >>= 1)
			if (m & 1)
				route_down_set_switch(u, u->g->by_position[(w << 6) | b], t);
	}
}

/*
 * A FREE or UP switch with an all-down path that down_states left, in port
 * order: up moves to switches routed earlier in the order, and down moves
 * into DOWN switches, with the fewest hops; a FREE switch's fewest is dn[s]
 * - 1 already. Sets len[s].
 */
static uint32_t any_candidates(struct updown *u, uint32_t s, uint8_t *out)
{
	const struct lanes_adj *adj = u->g->f->adj;
	const uint8_t *isup = u->g->goes_up, *state = u->state;
	const uint32_t *len = u->route_hops, *dn = u->down_hops;
	uint32_t k = 0, best = state[s] == ST_FREE ? dn[s] - 1 : INF;

	for (uint32_t e = u->g->f->adj_off[s], e1 = u->g->f->adj_off[s + 1]; e < e1; e++) {
		uint32_t v = adj[e].sw;
		uint32_t l = isup[e] ? len[v] : state[v] == ST_DOWN ? dn[v] : INF;

		if (l < best) {
			best = l;
			k = 0;
		}
		if (l == best && l != INF)
			out[k++] = adj[e].port;
	}
	u->route_hops[s] = best == INF ? INF : best + 1;
	return k;
}

/*
 * B3, a switch without an all-down path (no down neighbour has one either,
 * so none is DOWN): up only, to the routed up neighbours with the least
 * len, in port order. The scan starts at INF - 1, which no len equals, so
 * unrouted neighbours (INF) are passed over. Sets len[s] and state[s].
 * @return how many candidates
 */
static uint32_t up_only_candidates(struct updown *u, uint32_t s, uint8_t *out)
{
	const uint32_t *len = u->route_hops, *neighbour = u->g->neighbour, end = u->g->first_down[s];
	const uint8_t *port = u->g->entry_port;
	uint32_t least = INF - 1, k = 0;

	for (uint32_t e = u->g->first_up[s]; e < end; e++) {
		uint32_t l = len[neighbour[e]];

		if (l > least)
			continue;
		if (l < least) {
			least = l;
			k = 0;
		}
		out[k++] = port[e];
	}
	u->route_hops[s] = k ? least + 1 : INF;
	u->state[s] = k ? ST_UP : ST_NONE;
	return k;
}

/* B3 for a switch that down_states did not route. @return its candidate count (0: none) */
static uint32_t route_rest_switch(struct updown *u, uint32_t s)
{
	uint8_t *out = u->hops.port + u->num_ports;
	uint32_t k;

	if (u->down_hops[s] == INF) {
		k = up_only_candidates(u, s, out);
	} else {
		k = any_candidates(u, s, out);
		if (k && u->state[s] == ST_NONE)
			u->state[s] = ST_UP;
	}
	updown_emit(u, s, k);
	return k;
}

/*
 * Phase B3, in order: route length and candidates of the rest. A switch
 * without an all-down path goes up only (up_only_candidates). One with an
 * all-down path that down_states left (UP, or FREE next to one) goes up
 * first or down into a DOWN switch, whichever is shorter (any_candidates).
 * In column mode each switch's least-loaded candidate goes straight into
 * the column (updown_emit). The switches of t's component left without a
 * route go to u->unrouted (u->num_unrouted, in order; u->unrouted_has_ca: one of
 * them has CAs). Puts dn back to INF.
 */
static void legal_paths(struct updown *u, uint32_t t)
{
	const struct updown_graph *g = u->g;
	const uint32_t *perm = g->by_position, *comp = g->component;
	const uint32_t *dn = u->down_hops, *len = u->route_hops;
	uint32_t component = comp[t], nunrouted = 0, ns = g->f->num_switches;
	uint8_t unrouted_ca = 0;

	for (uint32_t i = 0; i < ns; i++) {
		uint32_t s = perm[i];

		if (dn[s] != INF && len[s] != INF)
			continue; /* routed by down_states */
		if (!route_rest_switch(u, s) && comp[s] == component) {
			u->unrouted[nunrouted++] = s;
			unrouted_ca |= g->has_ca[s];
		}
	}
	for (uint32_t q = 0; q < u->num_down; q++)
		u->down_hops[u->queue[q]] = INF;
	u->num_legal = u->column ? 0 : u->hops.nmulti; /* completed switches come after */
	u->num_unrouted = nunrouted;
	u->unrouted_has_ca = unrouted_ca;
}

void lanes_updown_legal_paths(struct updown *u, uint32_t t)
{
	all_down_paths(u, t);
	down_states(u, t);
	legal_paths(u, t);
}
