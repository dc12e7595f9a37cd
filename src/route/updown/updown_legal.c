/*
 * updown_legal.c - phases A and B of up* / down* routing toward one
 * destination switch t (updown.c runs them): the shortest legal routes under
 * the rule of the order, and each switch's candidate ports. Seed 004 section
 * 3 (Autonet's rule); compared below with OpenSM 3.3.23's osm_ucast_updn.c
 * (seed 002).
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
 * in u->bits. dn is INF elsewhere (on entry everywhere: legal_paths puts it
 * back).
 */
static void all_down_paths(struct updown *u, uint32_t t)
{
	const uint32_t *off = u->g->off, *mid = u->g->mid, *nb = u->g->nb, *pos = u->g->pos;
	uint32_t *dn = u->dn, *len = u->len, *queue = u->queue, head = 0, tail = 0;
	uint64_t *bits = u->bits;
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
	u->ndown = tail;
}

/*
 * Phases B1 and B2 over the down set, in order (u->bits, cleared here), and
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
 * The routes go to u->hops from the start (or to u->col: updown_emit).
 */
static void down_states(struct updown *u, uint32_t t)
{
	const struct lanes_adj *adj = u->g->f->adj;
	const uint32_t *off = u->g->off, *mid = u->g->mid, *nb = u->g->nb, *dn = u->dn, *perm = u->g->perm;
	const uint32_t *aoff = u->g->f->adj_off;
	const uint8_t *uport = u->g->port, *isup = u->g->isup;
	uint32_t *best = u->best, *len = u->len, nw = (u->g->f->num_switches + 63) >> 6;
	uint64_t *bits = u->bits;
	uint8_t *state = u->state, *port = u->hops.port;

	u->nports = u->hops.nmulti = 0;
	u->hops.moff[0] = 0;
	for (uint32_t w = 0; w < nw; w++) {
		uint64_t m = bits[w];

		bits[w] = 0;
		while (m) {
			uint32_t s = perm[(w << 6) | (uint32_t)__builtin_ctzll(m)], d = dn[s], b = d;
			uint32_t k = 0, late = 0;
			uint8_t *out = port + u->nports;

			m &= m - 1;
			for (uint32_t e = off[s], e1 = mid[s]; e < e1; e++) {
				uint32_t l = best[nb[e]] + 1;

				b = l < b ? l : b;
			}
			best[s] = b;
			if (s == t) {
				len[s] = 0;
				updown_emit(u, s, 0);
				continue;
			}
			if (state[s] == ST_DOWN) {
				for (uint32_t e = mid[s], e1 = off[s + 1]; e < e1; e++)
					if (dn[nb[e]] == d - 1) {
						state[nb[e]] = ST_DOWN;
						out[k++] = uport[e];
					}
			} else if (b == d) {
				state[s] = ST_FREE;
				for (uint32_t e = aoff[s], e1 = aoff[s + 1]; e < e1; e++) {
					uint32_t v = adj[e].sw;

					if (isup[e]) {
						late |= len[v] == INF;
						if (len[v] == d - 1)
							out[k++] = adj[e].port;
					} else if (dn[v] == d - 1) {
						state[v] = ST_DOWN;
						out[k++] = adj[e].port;
					}
				}
				if (late)
					continue;
			} else {
				continue; /* UP: phase B3 */
			}
			len[s] = d;
			updown_emit(u, s, k);
		}
	}
}

/*
 * A FREE or UP switch with an all-down path that down_states left, in port
 * order: up moves to switches routed earlier in the order, and down moves
 * into DOWN switches, with the fewest hops; a FREE switch's fewest is dn[s]
 * - 1 already. Sets len[s]. (Locals, because the byte stores to out may
 * alias anything the struct points to.)
 */
static uint32_t any_candidates(struct updown *u, uint32_t s, uint8_t *out)
{
	const struct lanes_adj *adj = u->g->f->adj;
	const uint8_t *isup = u->g->isup, *state = u->state;
	const uint32_t *len = u->len, *dn = u->dn;
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
	u->len[s] = best == INF ? INF : best + 1;
	return k;
}

/*
 * Phase B3, in order: route length and candidates of the rest. A switch
 * without an all-down path (no down neighbour has one either, so none is
 * DOWN) goes up only, to the routed up neighbours with the least len, in
 * port order: the scan starts at INF - 1, which no len equals, so unrouted
 * neighbours (INF) are passed over. One with an all-down path that
 * down_states left (UP, or FREE next to one) goes up first or down into a
 * DOWN switch, whichever is shorter. The switches of t's component left
 * without a route go to u->unrouted (u->nunrouted, in order;
 * u->unrouted_ca: one of them has CAs). Puts dn back to INF.
 */
__attribute__((noinline)) static void legal_paths(struct updown *u, uint32_t t)
{
	const uint32_t *perm = u->g->perm, *comp = u->g->comp, c = u->g->comp[t], *queue = u->queue;
	const uint32_t *off = u->g->off, *mid = u->g->mid, *nb = u->g->nb, ns = u->g->f->num_switches;
	const uint8_t *uport = u->g->port, *has_ca = u->g->has_ca;
	uint32_t *len = u->len, *dn = u->dn, *unrouted = u->unrouted, nun = 0;
	uint32_t *multi = u->hops.multi, *moff = u->hops.moff, np = u->nports;
	uint32_t nmulti = u->hops.nmulti;
	uint8_t *state = u->state, *port = u->hops.port, *one = u->hops.one, gap = 0;

	for (uint32_t i = 0; i < ns; i++) {
		uint32_t s = perm[i], k = 0;
		uint8_t *out = port + np;

		if (dn[s] == INF) {
			uint32_t m = INF - 1, e0 = off[s], n = mid[s] - e0;
			const uint32_t *v = nb + e0;
			const uint8_t *p = uport + e0;
			uint8_t *o = out;

			for (uint32_t j = 0; j < n; j++) {
				uint32_t l = len[v[j]];

				if (l <= m) {
					if (l < m) {
						m = l;
						o = out;
					}
					*o++ = p[j];
				}
			}
			k = (uint32_t)(o - out);
			len[s] = k ? m + 1 : INF;
			state[s] = k ? ST_UP : ST_NONE;
		} else if (len[s] != INF) {
			continue; /* routed by down_states */
		} else {
			k = any_candidates(u, s, out);
			if (k && state[s] == ST_NONE)
				state[s] = ST_UP;
		}
		if (updown_store(one, multi, moff, &nmulti, &np, out, s, k)) {
			if (comp[s] == c) {
				unrouted[nun++] = s;
				gap |= has_ca[s];
			}
		}
	}
	for (uint32_t q = 0; q < u->ndown; q++)
		dn[queue[q]] = INF;
	u->hops.nmulti = nmulti;
	u->nports = np;
	u->nlegal = nmulti; /* completed switches come after */
	u->nunrouted = nun;
	u->unrouted_ca = gap;
}

/*
 * Phase B3 in column mode (u->col): as legal_paths, but each switch's
 * least-loaded candidate goes straight into the column. An up-only switch
 * keeps the first port with the fewest LIDs among its up moves with the
 * least len (the ports ascend), as route_least_loaded from port 1 picks
 * among the candidates legal_paths would list.
 */
__attribute__((noinline)) static void column_paths(struct updown *u, uint32_t t)
{
	const uint32_t *perm = u->g->perm, *comp = u->g->comp, c = u->g->comp[t], *queue = u->queue;
	const uint32_t *off = u->g->off, *mid = u->g->mid, *nb = u->g->nb, ns = u->g->f->num_switches;
	const uint32_t *loff = u->g->load->off, *count = u->g->load->count;
	const uint8_t *uport = u->g->port, *has_ca = u->g->has_ca;
	uint32_t *len = u->len, *dn = u->dn, *unrouted = u->unrouted, nun = 0;
	uint8_t *state = u->state, *col = u->col, gap = 0;

	for (uint32_t i = 0; i < ns; i++) {
		uint32_t s = perm[i], k;

		if (dn[s] == INF) {
			uint32_t m = INF - 1, least = INF, e0 = off[s], n = mid[s] - e0;
			const uint32_t *v = nb + e0, *load = count + loff[s];
			const uint8_t *p = uport + e0;
			uint8_t pick = LANES_PORT_DROP;

			for (uint32_t j = 0; j < n; j++) {
				uint32_t l = len[v[j]];

				if (l <= m) {
					uint32_t x = load[p[j]];

					if (l < m || x < least) {
						m = l;
						least = x;
						pick = p[j];
					}
				}
			}
			k = m != INF - 1;
			col[s] = pick;
			len[s] = k ? m + 1 : INF;
			state[s] = k ? ST_UP : ST_NONE;
		} else if (len[s] != INF) {
			continue; /* routed by down_states */
		} else {
			k = any_candidates(u, s, u->hops.port);
			if (k && state[s] == ST_NONE)
				state[s] = ST_UP;
			updown_emit(u, s, k);
		}
		if (!k && comp[s] == c) {
			unrouted[nun++] = s;
			gap |= has_ca[s];
		}
	}
	for (uint32_t q = 0; q < u->ndown; q++)
		dn[queue[q]] = INF;
	u->nlegal = 0;
	u->nunrouted = nun;
	u->unrouted_ca = gap;
}

void lanes_updown_legal_paths(struct updown *u, uint32_t t)
{
	all_down_paths(u, t);
	down_states(u, t);
	if (u->col)
		column_paths(u, t);
	else
		legal_paths(u, t);
}
