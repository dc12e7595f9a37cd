/*
 * updown.c - up* / down* routing on a total order of the switches, shared by
 * the updn, dnup and ud-dfs engines (route_internal.h).
 *
 * The rule is Autonet's, as seed 004 section 3 states it: every link gets a
 * direction from the order ("up" towards the switch that comes first), and a
 * legal route is zero or more up links followed by zero or more down links.
 * Up links never form a cycle (they follow a total order), and a down link
 * is never followed by an up link, so the channel dependencies of legal
 * routes are acyclic: one VL suffices.
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
 *  - COMPLETED: no legal path at all. It gets a shortest path in the plain
 *    graph to the switches that have one, so that its own traffic (and
 *    switch LIDs) still arrive. Legal routes never lead into it, so CA
 *    traffic never meets it unless CAs hang off it; route_updown_lfts
 *    reports that case as a gap instead of routing it. Completed routes do
 *    not count in the port loads.
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
 * Balancing is minhop's (route_internal.h): destinations in OpenSM's port
 * order, the least-loaded candidate per switch, CA LIDs counted, switch LIDs
 * routed after all CA LIDs and not counted, LMC passes with the search
 * starting after the previous LID's port. Candidates depend only on the
 * destination switch, so they are computed once per switch for all the CAs
 * behind it, and kept (within a memory budget: 4 MB plus a quarter of the
 * LFTs) for its switch LID after every CA LID and for later LMC passes.
 * A group's LIDs are filled switch by switch: a switch's choices read only
 * its own counters, so the order across switches does not matter.
 *
 * Invariants: iteration in index or order position, no global state; a
 * gap is reported only for a destination switch with CAs.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/route.h"
#include "lanes/routing.h"
#include "route_internal.h"

#define INF UINT32_MAX

enum { ST_NONE = 0, ST_DOWN, ST_FREE, ST_UP, ST_COMPLETED };

struct updown {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	struct lanes_routing *r;
	/* adjacency split by direction: per switch s, entries off[s]..mid[s] go
	 * up and mid[s]..off[s+1] go down, each part in port order */
	uint32_t *off, *mid;
	uint32_t *nb;          /* neighbour switch */
	uint8_t *port;         /* our port */
	uint8_t *isup;         /* per fabric adjacency entry: the move goes up */
	uint32_t *perm;        /* switches in order */
	uint32_t *comp;        /* component per switch */
	uint8_t *has_ca;       /* per switch: end ports hang off it */
	uint32_t *dn;          /* hops of a shortest all-down path to the destination */
	uint32_t *best;        /* hops of a shortest legal path to the destination */
	uint32_t *len;         /* hops of the route the switch takes */
	uint8_t *state;        /* ST_* */
	uint32_t *queue;       /* BFS queue; after phase A, the all-down switches by dn */
	uint32_t ndown;        /* switches with an all-down path */
	uint32_t *sorted;      /* phase C: routed switches by len */
	uint32_t *bucket;      /* phase C: counting sort */
	uint32_t nports;       /* candidate ports filled into hops so far */
	struct route_endports eps;
	struct route_load load;
	struct route_hop_ports hops;
	struct route_updown_gap *gap;
	/* the candidates LIDs are routed with: hops and state, or a saved copy */
	const struct route_hop_ports *cur;
	const uint8_t *cur_state;
	uint32_t cur_nlegal;       /* cur->multi[0..cur_nlegal) have legal routes */
	uint32_t nlegal;           /* the same for hops */
	uint32_t *lids;            /* route_group: the LIDs of a group */
	struct route_saved_hops **saved; /* per destination switch, for a later LID, or NULL;
					 extra: the states, tag: nlegal */
	size_t save_left;          /* bytes the saved copies may still take */
	int save_next;             /* want_hops: save what it computes */
	uint32_t *unrouted;        /* phase C: switches without a legal path */
	uint32_t nunrouted;        /* of t's component */
	uint8_t unrouted_ca;       /* one of them has CAs */
};

/* ------------------------------------------------------------ per destination */

/* Phase A: dn[s], the hops of a shortest all-down path from s to t (BFS from t backwards). */
static void all_down_paths(struct updown *u, uint32_t t)
{
	uint32_t head = 0, tail = 0;

	for (uint32_t s = 0; s < u->f->num_switches; s++)
		u->dn[s] = INF;
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

/* The k candidate ports of s, just put at hops.port[nports], become its entry. */
static inline void take(struct updown *u, uint32_t s, uint32_t k)
{
	struct route_hop_ports *h = &u->hops;

	if (k == 1) {
		h->one[s] = h->port[u->nports];
	} else if (k > 1) {
		h->one[s] = 0;
		h->multi[h->nmulti++] = s;
		u->nports += k;
		h->moff[h->nmulti] = u->nports;
	} else {
		h->one[s] = LANES_PORT_DROP;
	}
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

	for (uint32_t i = 0; i < u->f->num_switches; i++) {
		uint32_t s = u->perm[i], b = dn[s];

		if (b == INF) {
			state[s] = ST_NONE;
			continue;
		}
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
 * A FREE or UP switch, in port order: up moves to switches routed earlier in
 * the order, and down moves into DOWN switches, with the fewest hops; a FREE
 * switch's fewest is dn[s] - 1 already. Sets len[s]. (Locals, because the
 * byte stores to out may alias anything the struct points to.)
 */
static uint32_t any_candidates(struct updown *u, uint32_t s, uint8_t *out)
{
	const struct lanes_adj *adj = u->f->adj;
	const uint8_t *isup = u->isup, *state = u->state;
	const uint32_t *len = u->len, *dn = u->dn;
	uint32_t k = 0, best = state[s] == ST_FREE ? dn[s] - 1 : INF;

	if (dn[s] == INF) {
		/* no all-down path: no down neighbour has one either (none is DOWN),
		 * so only the up moves count, in port order as in the adjacency */
		const uint32_t *nb = u->nb;
		const uint8_t *port = u->port;
		uint32_t e1 = u->mid[s];

		for (uint32_t e = u->off[s]; e < e1; e++) {
			uint32_t l = len[nb[e]];

			if (l < best) {
				best = l;
				k = 0;
			}
			if (l == best && l != INF)
				out[k++] = port[e];
		}
		u->len[s] = best == INF ? INF : best + 1;
		return k;
	}

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
	uint32_t *len = u->len, *unrouted = u->unrouted, nun = 0, ns = u->f->num_switches;
	uint8_t *state = u->state, *port = u->hops.port, gap = 0;

	shortest_legal(u);
	down_closure(u);
	u->hops.nmulti = 0;
	u->hops.moff[0] = 0;
	u->nports = 0;
	for (uint32_t i = 0; i < ns; i++) {
		uint32_t s = perm[i], k = 0;

		if (s == t) {
			len[s] = 0;
		} else if (state[s] == ST_DOWN) {
			len[s] = dn[s];
			k = down_candidates(u, s, port + u->nports);
		} else {
			k = any_candidates(u, s, port + u->nports);
			if (k && state[s] == ST_NONE)
				state[s] = ST_UP;
			if (len[s] == INF && comp[s] == c) {
				unrouted[nun++] = s;
				gap |= u->has_ca[s];
			}
		}
		take(u, s, k);
	}
	u->nlegal = u->hops.nmulti; /* completed switches come after */
	u->nunrouted = nun;
	u->unrouted_ca = gap;
}

/* Routed switches of the component, by len (counting sort) into u->sorted. */
static uint32_t sort_by_len(struct updown *u, uint32_t c)
{
	const struct lanes_fabric *f = u->f;
	uint32_t maxlen = 0, n = 0;

	for (uint32_t s = 0; s < f->num_switches; s++)
		if (u->comp[s] == c && u->len[s] != INF && u->len[s] > maxlen)
			maxlen = u->len[s];
	memset(u->bucket, 0, sizeof(*u->bucket) * ((size_t)maxlen + 2));
	for (uint32_t s = 0; s < f->num_switches; s++)
		if (u->comp[s] == c && u->len[s] != INF)
			u->bucket[u->len[s] + 1]++;
	for (uint32_t l = 1; l <= maxlen + 1; l++)
		u->bucket[l] += u->bucket[l - 1];
	for (uint32_t s = 0; s < f->num_switches; s++)
		if (u->comp[s] == c && u->len[s] != INF) {
			u->sorted[u->bucket[u->len[s]]++] = s;
			n++;
		}
	return n;
}

/* A completed switch: any neighbour one hop closer, in port order. */
static void completed_candidates(struct updown *u, uint32_t s)
{
	const struct lanes_adj *adj = u->f->adj;
	const uint32_t *len = u->len, want = u->len[s] - 1, e1 = u->f->adj_off[s + 1];
	uint8_t *out = u->hops.port + u->nports;
	uint32_t k = 0;

	for (uint32_t e = u->f->adj_off[s]; e < e1; e++)
		if (len[adj[e].sw] == want)
			out[k++] = adj[e].port;
	take(u, s, k);
}

/*
 * Phase C: the rest of t's component, by BFS that starts from every routed
 * switch at its own distance (a merge of the sorted routed switches and the
 * FIFO of completed ones keeps the order by distance). check: t is a CA
 * destination, so a completed switch with CAs is a gap.
 */
static void complete(struct updown *u, uint32_t t, int check)
{
	const struct lanes_fabric *f = u->f;
	uint32_t n = sort_by_len(u, u->comp[t]), i = 0, head = 0, tail = 0;

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
			if (check && u->has_ca[s] && u->gap->from_sw == LANES_NONE) {
				u->gap->from_sw = s;
				u->gap->to_sw = t;
			}
		}
	}
	for (uint32_t q = 0; q < tail; q++)
		completed_candidates(u, u->queue[q]);
}

/*
 * Phase C without the full BFS, when no gap can arise (check unset, or no
 * unrouted switch with CAs): the n unrouted switches take their shortest
 * distance to the routed ones by a BFS among themselves, seeded with 1 +
 * their least routed neighbour (the BFS of complete() scans every routed
 * switch instead). Same lengths, so the same candidates; only the order of
 * u->hops.multi differs, which no LID reads.
 */
static void complete_few(struct updown *u, uint32_t n)
{
	const struct lanes_adj *adj = u->f->adj;
	const uint32_t *un = u->unrouted, *aoff = u->f->adj_off;
	uint32_t *len = u->len, *d0 = u->best, *seed = u->sorted, *queue = u->queue;
	uint8_t *state = u->state;
	uint32_t maxd = 0, nseed = 0, i = 0, head = 0, tail = 0;

	for (uint32_t q = 0; q < n; q++)
		state[un[q]] = ST_COMPLETED;
	/* an up neighbour with a route would have given s one (any_candidates),
	 * so the routed neighbours of s are all down moves */
	for (uint32_t q = 0; q < n; q++) {
		uint32_t s = un[q], b = INF;

		for (uint32_t e = u->mid[s]; e < u->off[s + 1]; e++) {
			uint32_t l = len[u->nb[e]];

			if (l != INF && l + 1 < b)
				b = l + 1;
		}
		d0[s] = b;
		if (b != INF && b > maxd)
			maxd = b;
	}
	/* the seeds by d0 (counting sort), each at its d0 */
	memset(u->bucket, 0, sizeof(*u->bucket) * ((size_t)maxd + 2));
	for (uint32_t q = 0; q < n; q++)
		if (d0[un[q]] != INF)
			u->bucket[d0[un[q]] + 1]++;
	for (uint32_t l = 1; l <= maxd + 1; l++)
		u->bucket[l] += u->bucket[l - 1];
	for (uint32_t q = 0; q < n; q++)
		if ((len[un[q]] = d0[un[q]]) != INF) {
			seed[u->bucket[d0[un[q]]]++] = un[q];
			nseed++;
		}
	/* Dijkstra with unit steps: seeds and FIFO merged by length */
	while (i < nseed || head < tail) {
		uint32_t x;

		if (head < tail && (i == nseed || len[queue[head]] < d0[seed[i]]))
			x = queue[head++];
		else if (x = seed[i++], len[x] != d0[x])
			continue; /* lowered since: queued again */
		/* every switch closer than x is final: x's candidates, with the relaxation */
		uint8_t *out = u->hops.port + u->nports;
		uint32_t k = 0, lx = len[x], e1 = aoff[x + 1];

		for (uint32_t e = aoff[x]; e < e1; e++) {
			uint32_t s = adj[e].sw, l = len[s];

			if (l == lx - 1)
				out[k++] = adj[e].port;
			else if (l > lx + 1 && state[s] == ST_COMPLETED) {
				len[s] = lx + 1;
				queue[tail++] = s;
			}
		}
		take(u, x, k);
	}
}

/* Phase C: the fast way when it gives the same tables and report, else complete(). */
static void complete_any(struct updown *u, uint32_t t, int check)
{
	if (check && u->unrouted_ca)
		complete(u, t, check);
	else
		complete_few(u, u->nunrouted);
}

/* Save u->hops and u->state for t's next LIDs, within the budget. */
static void save_hops(struct updown *u, uint32_t t)
{
	struct route_saved_hops *sv =
		route_hop_ports_save(&u->hops, u->f->num_switches, u->state, &u->save_left);

	if (!sv)
		return;
	sv->tag = u->nlegal;
	u->saved[t] = sv;
	u->cur = &sv->h;
	u->cur_state = sv->extra;
	u->cur_nlegal = sv->tag;
}

/*
 * Candidates toward switch t into u->hops. check: t is a CA destination.
 * @return 1 on a gap, else 0.
 */
static int want_hops(struct updown *u, uint32_t t, int check)
{
	if (u->saved[t]) {
		u->cur = &u->saved[t]->h;
		u->cur_state = u->saved[t]->extra;
		u->cur_nlegal = u->saved[t]->tag;
		return 0;
	}
	u->cur = &u->hops;
	u->cur_state = u->state;
	if (u->hops.dst == t) {
		u->cur_nlegal = u->nlegal;
		return 0;
	}
	u->hops.dst = LANES_NONE;
	all_down_paths(u, t);
	legal_paths(u, t);
	if (u->nunrouted)
		complete_any(u, t, check);
	if (u->gap->from_sw != LANES_NONE)
		return 1;
	u->hops.dst = t;
	u->cur_nlegal = u->nlegal;
	if (u->save_next)
		save_hops(u, t);
	return 0;
}

/* ------------------------------------------------------------ LFT columns */

/*
 * minhop's column fill for the m LIDs lids[] toward the current destination
 * switch (route_fill_lids). Completed routes are never counted: OpenSM has
 * no route there, and management traffic should not move CA routes.
 */
static void route_lids(struct updown *u, const uint32_t *lids, uint32_t m, int offset, int count)
{
	route_fill_lids(u->r->lft, u->f->num_switches, u->cur, &u->load, lids, m, offset,
			count ? u->cur_nlegal : 0);
}

/* Count k paths on every switch with a single candidate (exact: they make no choice). */
static void count_single(struct updown *u, uint32_t k)
{
	const uint8_t *one = u->cur->one, *state = u->cur_state;

	for (uint32_t s = 0; s < u->f->num_switches; s++)
		if (one[s] != 0 && one[s] != LANES_PORT_DROP && state[s] != ST_COMPLETED)
			route_load_of(&u->load, s)[one[s]] += k;
}

/* The end ports eps[i..j) behind one switch. @return 1 on a gap. */
static int route_group(struct updown *u, uint32_t i, uint32_t j, int offset)
{
	uint32_t t = u->eps.ep[i].sw, k = 0, i0 = i;
	const struct lanes_port *p0 = lanes_fabric_port(u->f, u->f->switches[t], 0);

	u->save_next = offset + 1 < (1 << u->eps.max_lmc) ||
		       (u->opts->switch_lids && p0->lid && offset < (1 << p0->lmc));
	if (want_hops(u, t, 1))
		return 1;
	for (; i < j; i++) {
		const struct route_endport *ep = &u->eps.ep[i];
		uint32_t lid = ep->lid + (uint32_t)offset;

		if (offset >= (1 << ep->lmc))
			continue;
		u->lids[k++] = lid;
	}
	route_lids(u, u->lids, k, offset, 1);
	for (k = 0; i0 < j; i0++) {
		const struct route_endport *ep = &u->eps.ep[i0];
		uint32_t lid = ep->lid + (uint32_t)offset;

		if (offset >= (1 << ep->lmc))
			continue;
		lanes_routing_set_port(u->r, t, lid, ep->sw_port);
		route_load_of(&u->load, t)[ep->sw_port]++;
		k++;
	}
	count_single(u, k);
	return 0;
}

static void route_switch(struct updown *u, uint32_t t, int offset)
{
	const struct lanes_port *p0 = lanes_fabric_port(u->f, u->f->switches[t], 0);
	uint32_t lid = p0->lid + (uint32_t)offset;

	if (!p0->lid || offset >= (1 << p0->lmc))
		return;
	if (u->opts->switch_lids) {
		u->save_next = offset + 1 < (1 << u->eps.max_lmc);
		want_hops(u, t, 0);
		route_lids(u, &lid, 1, offset, 0);
	}
	lanes_routing_set_port(u->r, t, lid, 0);
}

/* One LMC pass: every CA LID base + offset, then every switch LID. @return 1 on a gap. */
static int route_pass(struct updown *u, int offset)
{
	const struct route_endport *ep = u->eps.ep;
	uint32_t i = 0, j;

	while (i < u->eps.n) {
		for (j = i + 1; j < u->eps.n && ep[j].sw == ep[i].sw; j++)
			;
		if (route_group(u, i, j, offset))
			return 1;
		i = j;
	}
	for (uint32_t t = 0; t < u->f->num_switches; t++)
		route_switch(u, t, offset);
	return 0;
}

/* ------------------------------------------------------------ setup */

static int alloc_arrays(struct updown *u, struct lanes_error *err)
{
	size_t ns = u->f->num_switches, ne = u->f->adj_off[ns];

	u->off = malloc(sizeof(uint32_t) * (ns + 1));
	u->mid = malloc(sizeof(uint32_t) * (ns + 1));
	u->nb = malloc(sizeof(uint32_t) * (ne + 1));
	u->port = malloc(ne + 1);
	u->isup = malloc(ne + 1);
	u->perm = malloc(sizeof(uint32_t) * (ns + 1));
	u->comp = malloc(sizeof(uint32_t) * (ns + 1));
	u->has_ca = calloc(ns + 1, 1);
	u->dn = malloc(sizeof(uint32_t) * (ns + 1));
	u->len = malloc(sizeof(uint32_t) * (ns + 1));
	u->best = malloc(sizeof(uint32_t) * (ns + 1));
	u->state = malloc(ns + 1);
	u->queue = malloc(sizeof(uint32_t) * (ns + 1));
	u->sorted = malloc(sizeof(uint32_t) * (ns + 1));
	u->bucket = malloc(sizeof(uint32_t) * (ns + 2));
	u->unrouted = malloc(sizeof(uint32_t) * (ns + 1));
	u->lids = NULL;
	u->saved = calloc(ns + 1, sizeof(*u->saved));
	u->save_left = route_hop_ports_save_budget(u->f);
	if (!u->unrouted || !u->saved || !u->off || !u->mid || !u->nb || !u->port || !u->isup || !u->perm || !u->comp ||
	    !u->has_ca || !u->dn || !u->len || !u->best || !u->state || !u->queue || !u->sorted || !u->bucket)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	return 0;
}

/* The adjacency of each switch, up moves first, each part in port order. */
static void split_adjacency(struct updown *u, const uint32_t *pos)
{
	const struct lanes_fabric *f = u->f;

	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t k = f->adj_off[s];

		u->off[s] = k;
		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++)
			u->isup[e] = pos[f->adj[e].sw] < pos[s];
		for (int up = 1; up >= 0; up--) {
			if (!up)
				u->mid[s] = k;
			for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++)
				if ((pos[f->adj[e].sw] < pos[s]) == up) {
					u->nb[k] = f->adj[e].sw;
					u->port[k++] = f->adj[e].port;
				}
		}
	}
	u->off[f->num_switches] = f->adj_off[f->num_switches];
}

static int prepare(struct updown *u, const uint32_t *pos, struct lanes_error *err)
{
	const struct lanes_fabric *f = u->f;
	uint32_t ncomp = 0;
	int rc;

	if ((rc = alloc_arrays(u, err)) || (rc = route_components(f, u->comp, &ncomp, err)) ||
	    (rc = route_endports_osm_order(f, &u->eps, err)) ||
	    (rc = route_load_init(&u->load, f, err)) ||
	    (rc = route_hop_ports_init(&u->hops, f, err)))
		return rc;
	split_adjacency(u, pos);
	for (uint32_t s = 0; s < f->num_switches; s++)
		u->perm[pos[s]] = s;
	for (uint32_t i = 0; i < u->eps.n; i++)
		u->has_ca[u->eps.ep[i].sw] = 1;
	if (!(u->lids = malloc(sizeof(uint32_t) * ((size_t)u->eps.n + 1))))
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	return 0;
}

static void release(struct updown *u)
{
	route_hop_ports_free(&u->hops);
	route_load_free(&u->load);
	route_endports_free(&u->eps);
	free(u->off);
	free(u->mid);
	free(u->nb);
	free(u->port);
	free(u->isup);
	free(u->perm);
	free(u->comp);
	free(u->has_ca);
	free(u->dn);
	free(u->len);
	free(u->best);
	free(u->state);
	free(u->queue);
	free(u->sorted);
	free(u->bucket);
	free(u->unrouted);
	free(u->lids);
	for (uint32_t s = 0; u->saved && s < u->f->num_switches; s++)
		free(u->saved[s]);
	free(u->saved);
}

int route_updown_lfts(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		      const uint32_t *pos, struct lanes_routing *r, struct route_updown_gap *gap,
		      struct lanes_error *err)
{
	struct updown u;
	int rc;

	memset(&u, 0, sizeof(u));
	u.f = f;
	u.opts = opts;
	u.r = r;
	u.gap = gap;
	u.hops.dst = LANES_NONE;
	gap->from_sw = gap->to_sw = LANES_NONE;
	if (!(rc = prepare(&u, pos, err)))
		for (int offset = 0; offset < (1 << u.eps.max_lmc) && !rc; offset++)
			rc = route_pass(&u, offset);
	release(&u);
	return rc;
}
