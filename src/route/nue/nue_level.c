/*
 * nue_level.c - a shortcut for nue's per-destination search (nue_search.c)
 * that gives the same tree, the same CDG and so the same tables with less
 * heap work, where it can tell that it does (tested: byte-identical tables).
 *
 * The search pops switches by distance d (each channel weighs w0 plus its
 * routes, w0 = P^2 large), ties to the lower channel number; a popped switch
 * takes its best channel into a routed switch if the dependency onto that
 * switch's channel keeps the CDG acyclic (channels whose dependency is
 * already blocked are never offered). Levels: t is at 0, and a switch is at
 * h + 1 when h is the lowest level of a neighbour it can enter (a channel
 * not blocked). Say a switch at h + 1 is "short" when its best channel into
 * level h leaves d < (h + 2) * w0: its channels' routes sum to less than w0.
 * If every switch up to level h is short, each one pops before any at a
 * higher level (a path of h + 2 hops weighs at least (h + 2) * w0) and with
 * that best channel, as long as the CDG takes every dependency. So a BFS
 * over the enterable channels finds the search's tree, level by level
 * (levels()), and each level's dependencies go in in the heap's pop order,
 * sorted by (d, channel), up to the first refusal, which then is the
 * search's own (the same dependencies in before it; it stays blocked).
 * Whether the CDG takes a level's dependencies does not depend on their
 * order (a set is acyclic or not), so a level goes in BFS order first and
 * is sorted only when one is refused (its adds taken back, the refused one
 * unblocked: it was refused against another set). If all go in, the BFS
 * goes on to the next level. At a refusal, or at a level with a switch that
 * is not short, the switches before it in pop order are routed, the heap
 * gets the offers their settling would have made (hand_over()), and the
 * search goes on from there; a level's dependencies are only added once
 * the levels before it are in, so no work past that level is lost.
 * (A level sorted after a refusal: nue_level_add.c.) A level whose
 * dependencies are all used already needs no adds, so the BFS takes the
 * next at once (take_levels()).
 * Parallel cables: a switch that has some offers one channel per neighbour,
 * its bundle's best open one (nue_bundle.c), the one the entries' minimum
 * would pick; a fabric without any never looks at bundles.
 * Layout, for fewer instructions per entry and per switch: a switch's
 * level, best channel, the state of the dependency that channel needs and
 * its entry range share one node (struct nue_lnode); the entries carry
 * their switch's node offset and each channel its dependency column.
 */
#include <string.h>

#include "route/nue/nue_search.h"

int lanes_nue_level_init(struct nue_level *v, const struct lanes_fabric *f, const struct nue_cdg *g,
		   struct route_arena *a)
{
	uint32_t ns = f->num_switches;

	memset(v, 0, sizeof(*v));
	v->node = route_alloc(a, sizeof(*v->node) * ((size_t)ns + 1));
	v->keys = route_alloc(a, sizeof(*v->keys) * ((size_t)ns + 1));
	v->packed = route_alloc(a, sizeof(*v->packed) * 2 * ((size_t)ns + 1));
	v->nb = route_alloc(a, sizeof(*v->nb) * ((size_t)f->adj_off[ns] + 1));
	v->ccol = route_alloc(a, sizeof(*v->ccol) * ((size_t)f->adj_off[ns] + 1));
	if (!v->node || !v->keys || !v->packed || !v->nb || !v->ccol)
		return -1;
	for (uint32_t x = 0; x < ns; x++) {
		uint32_t e0 = f->adj_off[x], deg = f->adj_off[x + 1] - e0;

		v->node[x].nb = v->nb + e0;
		v->node[x].deg = deg;
		for (uint32_t e = e0; e < e0 + deg; e++) {
			v->nb[e] = (struct nue_nb){ f->adj[e].sw, g->ch.rev[e], (e - e0) * deg,
						    f->adj[e].sw * (uint32_t)sizeof(*v->node) };
			/* as nue_cdg_dep(), mod 2^32 */
			v->ccol[e] = g->dep + (uint32_t)(g->ch.dense_off[x] + (e - e0));
		}
	}
	return lanes_nue_bundles_init(v, f, g->ch.rev, a);
}

static uint32_t level_of(const struct nue_level *v, uint32_t y)
{
	return v->node[y].lv - v->base;
}

/*
 * A fresh base below every level of the searches before (the bases go
 * down): a switch is done when its lv is below the level being discovered,
 * and not yet discovered when above it (one comparison in scan()). At the
 * bottom every lv goes back to the top (the first search starts there).
 */
static uint32_t next_base(struct nue_search *s, struct nue_level *v)
{
	if (v->base < 2 * (s->ns + 1)) {
		for (uint32_t y = 0; y < s->ns; y++)
			v->node[y].lv = UINT32_MAX;
		v->base = UINT32_MAX;
	}
	v->base -= s->ns + 1;
	return v->base;
}

/* The arrays of the BFS as locals: its stores could alias the structs' fields, forcing reloads. */
struct bfs {
	const uint32_t *off;          /* the fabric's adjacency offsets */
	const struct nue_nb *nb;
	const struct nue_bundle *bun; /* the bundles of parallel cables (nue_bundle.c) */
	const struct nue_bmem *bm;
	const uint32_t *boff, *mem, *mjd;
	uint8_t *const *ccol;         /* per channel c: its dependency column (struct nue_level) */
	const uint64_t *load;
	uint64_t w0;
	struct nue_lnode *node;       /* lv: set by next_base() */
	uint32_t *order, *via, base;
};

/*
 * The best open channel of bundle k whose best one is blocked: least (load,
 * number) among its channels whose dependency (col[jd]) is not blocked.
 * @return it (*cs: its dependency's state), or LANES_NONE
 */
static __attribute__((noinline)) uint32_t open_best(const struct bfs *b, uint32_t k, const uint8_t *col,
						     uint8_t *cs)
{
	const struct nue_bmem q = b->bm[k];
	uint32_t best = LANES_NONE;

	for (uint32_t i = q.m; i < q.m + q.n; i++) {
		uint32_t in = b->mem[i];

		if (col[b->mjd[i]] == NUE_DEP_BLOCKED)
			continue;
		if (best == LANES_NONE || b->load[in] < b->load[best] ||
		    (b->load[in] == b->load[best] && in < best))
			best = in, *cs = col[b->mjd[i]];
	}
	return best;
}

/*
 * Offer the deg entries of a switch (nb, and col: the dependencies onto
 * the switch's channel, each at its jd; all open at t) at distance dw
 * - w0, level next - 1: a neighbour not yet discovered takes the channel
 * (and level next), one already at level next keeps the better of the two;
 * the others (the switch's own next hop among them) are at levels next - 2
 * and next - 1. A neighbour's st follows its channel: the state of the
 * dependency it needs (col's, read for the blocked test anyway; USED at t,
 * which has no channel), so take_level() need not look it up again: the
 * CDG changes between the two only by the adds of this switch's level,
 * which are other dependencies. @return n, plus the switches discovered
 * (appended to order)
 */
static inline __attribute__((always_inline)) uint32_t scan(const struct bfs *b, const struct nue_nb *nb,
							   const struct nue_nb *end, const uint8_t *col,
							   int open, uint64_t dw, uint32_t next, uint32_t n)
{
	const uint64_t *load = b->load;
	uint32_t *order = b->order;
	struct nue_lnode *node = b->node;

	for (const struct nue_nb *q = nb; q < end; q++) {
		struct nue_lnode *p = (struct nue_lnode *)((char *)node + q->yo); /* node[q->y] */
		uint32_t ly = p->lv, in;
		uint8_t cs = NUE_DEP_USED;
		uint64_t d;
		int better;

		/* below next: done; above: not discovered (an older base) */
		if (ly < next || (!open && (cs = col[q->jd]) == NUE_DEP_BLOCKED))
			continue;
		in = q->in;
		d = dw + load[in];
		if (ly != next) {
			p->bd = d; /* not nb, deg */
			p->bc = in;
			p->lv = next;
			p->st = cs;
			order[n++] = q->y;
			continue;
		}
		better = ((nue_u128)d << 64 | in) < ((nue_u128)p->bd << 64 | p->bc); /* nue_heap.h */
		p->bd = better ? d : p->bd;
		p->bc = better ? in : p->bc;
		p->st = better ? cs : p->st;
	}
	return n;
}

/*
 * The same for a switch with parallel cables, by its bundles [k, kend):
 * each neighbour by its bundle's best open channel (col NULL at t: all
 * open), st as in scan(). Inlined into take_multi() only (fabrics with
 * parallel cables, where most switches have some); take_plain()'s loop
 * stays lean.
 */
static inline __attribute__((always_inline)) uint32_t scan_bundles(const struct bfs *b, uint32_t k, uint32_t kend,
							const uint8_t *col, uint64_t dw, uint32_t next,
							uint32_t n)
{
	const uint64_t *load = b->load;
	struct nue_lnode *node = b->node;

	for (; k < kend; k++) {
		const struct nue_bundle *q = &b->bun[k];
		uint32_t y = q->y, in = q->in;
		struct nue_lnode *p = &node[y];
		uint32_t ly = p->lv;
		uint8_t cs = NUE_DEP_USED;
		uint64_t d;

		if (ly < next ||
		    (col && (cs = col[q->jd]) == NUE_DEP_BLOCKED &&
		     (in = open_best(b, k, col, &cs)) == LANES_NONE))
			continue;
		d = dw + load[in];
		if (ly != next) {
			p->bd = d; /* not nb, deg */
			p->bc = in;
			p->lv = next;
			p->st = cs;
			b->order[n++] = y;
		} else if (((nue_u128)d << 64 | in) < ((nue_u128)p->bd << 64 | p->bc)) {
			p->bd = d;
			p->bc = in;
			p->st = cs;
		}
	}
	return n;
}

/*
 * The level lvl, order[i..j): each switch takes its best channel (final:
 * every switch of the level above has offered its entries) and offers its
 * own entries, which discovers the next level (appended to order, *n
 * counts them). @return 1 when some of its switches need a dependency
 * not used yet (st, from the scans of the level above: unused, as none is
 * blocked, else it would not have been offered), 0 when none does, or
 * LANES_NONE when a switch is not short
 */
static inline __attribute__((always_inline)) uint32_t take_level(const struct bfs *b, uint32_t i, uint32_t j,
								 uint32_t lvl, uint32_t *n, int multi)
{
	/* d >= lvl w0 at level lvl (a hop weighs w0 at least): short is d < hi */
	const uint64_t w0 = b->w0, hi = (uint64_t)(lvl + 1) * w0;
	const uint32_t next = b->base + lvl + 1;
	uint32_t nneed = 0, m = *n;

	for (uint32_t k = i; k < j; k++) {
		const struct nue_lnode *p = &b->node[b->order[k]];
		uint32_t x = b->order[k], c = p->bc, deg = p->deg;
		uint64_t d = p->bd;
		const uint8_t *col = b->ccol[c];

		if (d >= hi)
			return LANES_NONE;
		b->via[x] = c; /* dd[x] only at a hand-over: routed() */
		nneed |= p->st != NUE_DEP_USED;
		if (!multi || b->boff[x + 1] - b->boff[x] == deg)
			m = scan(b, p->nb, p->nb + deg, col, 0, d + w0, next, m);
		else
			m = scan_bundles(b, b->boff[x], b->boff[x + 1], col, d + w0, next, m);
	}
	*n = m;
	return nneed;
}

/*
 * take_level() for the levels from *lvl on, order[*i..*n), in one call:
 * on while a level's dependencies are all used already (nothing to add).
 * @return 0 when none is left; else what take_level() returned for level
 * *lvl, order[*i..*j)
 */
static inline __attribute__((always_inline)) uint32_t take_levels(const struct bfs *b, uint32_t *i,
								  uint32_t *j, uint32_t *lvl,
								  uint32_t *n, int multi)
{
	uint32_t a = *i, e = a, m = *n, l = *lvl, nneed = 0;

	for (; a < m; a = e, l++) {
		e = m;
		nneed = take_level(b, a, e, l, &m, multi);
		if (nneed)
			break;
	}
	*i = a;
	*j = e;
	*lvl = l;
	*n = m;
	return nneed;
}

/* take_levels() on a fabric without parallel cables: the entries' loop alone. */
static __attribute__((noinline)) uint32_t take_plain(const struct bfs *b, uint32_t *i, uint32_t *j,
						      uint32_t *lvl, uint32_t *n)
{
	const struct bfs c = *b; /* a copy the compiler can keep in registers: no store aliases it */

	return take_levels(&c, i, j, lvl, n, 0);
}

/* take_levels() on a fabric with parallel cables: by bundles where a switch has some. */
static __attribute__((noinline)) uint32_t take_multi(const struct bfs *b, uint32_t *i, uint32_t *j,
						      uint32_t *lvl, uint32_t *n)
{
	const struct bfs c = *b; /* as in take_plain() */

	return take_levels(&c, i, j, lvl, n, 1);
}

/*
 * The heap's adds for level lvl, order[i..j), in its pop order (by
 * (distance, channel)), up to the first refusal. The CDG takes a set of
 * dependencies in any order or in none, so the level goes in BFS order
 * (only the switches whose st is not used) and is sorted only when one is
 * refused: then its adds are taken back and made again in pop order
 * (lanes_nue_level_resort()). @return the index of the first refusal (left
 * blocked), or j
 */
static uint32_t add_level(struct nue_search *s, struct nue_level *v, uint32_t i, uint32_t j,
			  uint32_t lvl, struct lanes_error *err, int *rc)
{
	const struct lanes_adj *adj = s->f->adj;
	uint32_t mark = s->nadded;

	for (uint32_t k = i; k < j; k++) {
		uint32_t c = s->via[s->order[k]], par = s->via[adj[c].sw];

		if (v->node[s->order[k]].st == NUE_DEP_USED)
			continue;
		if (!lanes_nue_cdg_add(s->g, c, par)) {
			if ((*rc = nue_search_remember(s, c, par, err)))
				return k;
			continue;
		}
		if (j - i < 2)
			return k;
		return lanes_nue_level_resort(s, i, j, k, mark, lvl, err, rc);
	}
	return j;
}

/* order[0..i) are routed: seen, and at their distances for the heap (t's node at 0). */
static void routed(struct nue_search *s, const struct nue_level *v, uint32_t i)
{
	const uint32_t *order = s->order, stamp = s->stamp;
	const struct nue_lnode *node = v->node;
	uint32_t *seen = s->seen;
	uint64_t *dd = s->dd;

	s->norder = i;
	for (uint32_t j = 0; j < i; j++) {
		seen[order[j]] = stamp;
		dd[order[j]] = node[order[j]].bd;
	}
}

/*
 * The heap's own course from here: order[0..i) are routed, the rest of
 * level h (order[i] on, if any) and beyond are not; the heap gets what
 * their settling would have offered. Only levels h - 1 and h can have a
 * neighbour left that may enter them (it would be at level h or h + 1);
 * the other routed switches' neighbours are all routed. @return 0
 */
static int hand_over(struct nue_search *s, struct nue_level *v, uint32_t i, uint32_t h)
{
	routed(s, v, i);
	for (uint32_t j = i; j-- > 0;) {
		if (level_of(v, s->order[j]) + 1 < h)
			break;
		nue_search_offer(s, s->order[j]);
	}
	return 0;
}

/*
 * The BFS from t, level by level: a level's switches take their best
 * channels and offer their entries to the next level, then their
 * dependencies go in. A switch that is not short, or a refusal, hands the rest over
 * to the heap (the switches before it in pop order routed): up to there the
 * heap would have done the same.
 */
static int levels(struct nue_search *s, struct nue_level *v, uint32_t t, struct lanes_error *err,
		  int *rc)
{
	const struct bfs b = { .off = s->f->adj_off, .nb = v->nb, .bun = v->bun, .bm = v->bm,
			       .boff = v->boff, .mem = v->mem, .mjd = v->mjd,
			       .ccol = v->ccol, .load = s->load,
			       .w0 = s->w0, .node = v->node, .order = s->order,
			       .via = s->via, .base = next_base(s, v),
			       };
	uint32_t a = b.off[t], n, i = 1;

	b.node[t].lv = b.base;
	b.node[t].bd = 0; /* for routed() */
	b.order[0] = t;
	b.via[t] = LANES_NONE;
	s->dd[t] = 0;
	if (v->multi)
		n = scan_bundles(&b, b.boff[t], b.boff[t + 1], NULL, b.w0, b.base + 1, 1);
	else
		n = scan(&b, b.nb + a, b.nb + b.off[t + 1], NULL, 1, b.w0, b.base + 1, 1);
	for (uint32_t lvl = 1; i < n; lvl++) {
		uint32_t j, k, nneed = v->multi ? take_multi(&b, &i, &j, &lvl, &n)
						 : take_plain(&b, &i, &j, &lvl, &n);

		if (nneed == LANES_NONE)
			return hand_over(s, v, i, lvl);
		if (!nneed)
			break; /* every level taken */
		k = add_level(s, v, i, j, lvl, err, rc);
		if (*rc)
			return 0;
		if (k < j)
			return hand_over(s, v, k, lvl);
		i = j;
	}
	s->norder = n;
	if (n == s->csize[s->comp[t]])
		return 1; /* done: nothing reads seen[] or dd[] any more */
	routed(s, v, n); /* the others cannot enter: nothing to offer */
	return 0;
}

int lanes_nue_level_off;

int lanes_nue_level_search(struct nue_search *s, uint32_t t, struct lanes_error *err, int *rc)
{
	*rc = 0;
	s->norder = 0;
	if (lanes_nue_level_off)
		return 0;
	return levels(s, &s->level, t, err, rc);
}
