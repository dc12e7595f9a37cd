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
 * Invariants: switches are visited in order position (or by dn, from the
 * BFS queue), ports in port order; the candidates of a switch read only
 * switches already final.
 */
#include <stdint.h>
#include <string.h>

#include "lanes/fabric.h"
#include "lanes/routing.h"
#include "updown_internal.h"

/* Phase A: dn[s], the hops of a shortest all-down path from s to t (BFS from t backwards). */
static void all_down_paths(struct updown *u, uint32_t t)
{
	uint32_t head = 0, tail = 0;

	memset(u->dn, 0xff, sizeof(*u->dn) * u->f->num_switches); /* INF */
	u->dn[t] = 0;
	u->queue[tail++] = t;
	while (head < tail) {
		uint32_t x = u->queue[head++];

		/* s -> x is a down move exactly when x -> s is an up move */
		for (uint32_t e = u->off[x]; e < u->mid[x]; e++) {
			uint32_t s = u->nb[e];

			if (u->dn[s] == INF) {
				u->dn[s] = u->dn[x] + 1;
				u->queue[tail++] = s;
			}
		}
	}
	u->ndown = tail;
}

/*
 * Phase B1, in order: best[s] = min(dn[s], 1 + best of an up neighbour), for
 * the switches with an all-down path only: the up neighbours of such a switch
 * step down into it, so they have one too, and only those switches can be
 * FREE. The others get ST_NONE.
 */
static void shortest_legal(struct updown *u)
{
	const uint32_t *off = u->off, *mid = u->mid, *nb = u->nb, *dn = u->dn;
	uint32_t *best = u->best;
	uint8_t *state = u->state;

	const uint32_t *perm = u->perm, ns = u->f->num_switches;

	memset(state, ST_NONE, ns);
	for (uint32_t i = 0; i < ns; i++) {
		uint32_t s = perm[i], b = dn[s];

		if (b == INF)
			continue;
		for (uint32_t e = off[s]; e < mid[s]; e++) {
			uint32_t l = best[nb[e]];

			if (l != INF && l + 1 < b)
				b = l + 1;
		}
		best[s] = b;
		state[s] = b != INF && b == dn[s] ? ST_FREE : ST_NONE;
	}
	u->state[u->queue[0]] = ST_DOWN; /* the destination: its up neighbours step down into it */
}

/*
 * Phase B2: the switches that packets enter by a down move, which must go on
 * down. A switch whose all-down path is a shortest legal path (FREE) steps
 * down to its neighbours one hop closer on an all-down path, so those are
 * DOWN, and so are theirs. Taken in decreasing dn, each switch is final
 * before its own down steps are marked.
 */
static void down_closure(struct updown *u)
{
	const uint32_t *off = u->off, *mid = u->mid, *nb = u->nb, *dn = u->dn;
	uint8_t *state = u->state;

	for (uint32_t q = u->ndown; q-- > 1;) { /* queue[0] is the destination */
		uint32_t s = u->queue[q];

		if (state[s] != ST_DOWN && state[s] != ST_FREE)
			continue;
		for (uint32_t e = mid[s]; e < off[s + 1]; e++)
			if (dn[nb[e]] == dn[s] - 1)
				state[nb[e]] = ST_DOWN;
	}
}

/* A DOWN switch: its down neighbours one hop closer on an all-down path (all DOWN). */
static uint32_t down_candidates(const struct updown *u, uint32_t s, uint8_t *out)
{
	const uint32_t *dn = u->dn, *nb = u->nb;
	const uint8_t *port = u->port;
	uint32_t k = 0, want = dn[s] - 1, e1 = u->off[s + 1];

	for (uint32_t e = u->mid[s]; e < e1; e++)
		if (dn[nb[e]] == want)
			out[k++] = port[e];
	return k;
}

/*
 * A switch without an all-down path (no down neighbour has one either, so
 * none is DOWN): up moves only, to the routed up neighbours with the least
 * len, in port order as in the adjacency. Sets len[s]. @return the count.
 */
static inline uint32_t up_candidates(const uint32_t *len, const uint32_t *nb, const uint8_t *port,
				     uint32_t e0, uint32_t e1, uint8_t *out, uint32_t *len_s)
{
	uint32_t best = INF, k = 0;

	for (uint32_t e = e0; e < e1; e++) {
		uint32_t l = len[nb[e]];

		if (l < best) {
			best = l;
			k = 0;
		}
		if (l == best) /* INF too: dropped below */
			out[k++] = port[e];
	}
	*len_s = best == INF ? INF : best + 1;
	return best == INF ? 0 : k;
}

/*
 * A FREE or UP switch with an all-down path, in port order: up moves to
 * switches routed earlier in the order, and down moves into DOWN switches,
 * with the fewest hops; a FREE switch's fewest is dn[s] - 1 already. Sets
 * len[s]. (Locals, because the byte stores to out may alias anything the
 * struct points to.)
 */
static uint32_t any_candidates(struct updown *u, uint32_t s, uint8_t *out)
{
	const struct lanes_adj *adj = u->f->adj;
	const uint8_t *isup = u->isup, *state = u->state;
	const uint32_t *len = u->len, *dn = u->dn;
	uint32_t k = 0, best = state[s] == ST_FREE ? dn[s] - 1 : INF;

	for (uint32_t e = u->f->adj_off[s], e1 = u->f->adj_off[s + 1]; e < e1; e++) {
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

/* A switch with a route of k candidate ports, at port[*np]: its hops entry. */
static inline void take(struct route_hop_ports *h, uint32_t s, uint32_t k, uint32_t *np,
			uint32_t *nmulti)
{
	if (k == 1) {
		h->one[s] = h->port[*np];
	} else if (k > 1) {
		h->one[s] = 0;
		h->multi[(*nmulti)++] = s;
		*np += k;
		h->moff[*nmulti] = *np;
	} else {
		h->one[s] = LANES_PORT_DROP;
	}
}

/*
 * Phase B3, in order: route length and candidates. DOWN switches go down
 * along all-down paths, FREE ones down or up as short, the others (UP) up
 * first or down into a DOWN switch, whichever is shorter. The switches of
 * t's component left without a route go to u->unrouted (u->nunrouted, in
 * order; u->unrouted_ca: one of them has CAs).
 */
static void legal_paths(struct updown *u, uint32_t t)
{
	const uint32_t *perm = u->perm, *dn = u->dn, *comp = u->comp, c = u->comp[t];
	const uint32_t *off = u->off, *mid = u->mid, *nb = u->nb, ns = u->f->num_switches;
	const uint8_t *uport = u->port;
	uint32_t *len = u->len, *unrouted = u->unrouted, nun = 0, np = 0, nmulti = 0;
	uint8_t *state = u->state, *port = u->hops.port, gap = 0;
	struct route_hop_ports *h = &u->hops;

	shortest_legal(u);
	down_closure(u);
	h->moff[0] = 0;
	for (uint32_t i = 0; i < ns; i++) {
		uint32_t s = perm[i], k = 0;

		if (dn[s] == INF) {
			k = up_candidates(len, nb, uport, off[s], mid[s], port + np, &len[s]);
			if (k)
				state[s] = ST_UP;
		} else if (s == t) {
			len[s] = 0;
		} else if (state[s] == ST_DOWN) {
			len[s] = dn[s];
			k = down_candidates(u, s, port + np);
		} else {
			k = any_candidates(u, s, port + np);
			if (k && state[s] == ST_NONE)
				state[s] = ST_UP;
		}
		if (!k && s != t && comp[s] == c) {
			unrouted[nun++] = s;
			gap |= u->has_ca[s];
		}
		take(h, s, k, &np, &nmulti);
	}
	h->nmulti = nmulti;
	u->nports = np;
	u->nlegal = nmulti; /* completed switches come after */
	u->nunrouted = nun;
	u->unrouted_ca = gap;
}

void updown_legal_paths(struct updown *u, uint32_t t)
{
	all_down_paths(u, t);
	legal_paths(u, t);
}
