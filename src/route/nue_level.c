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
 * If every switch is short, each one pops before any at a higher level (a
 * path of h + 2 hops weighs at least (h + 2) * w0) and with that best
 * channel, as long as the CDG takes every dependency. So a BFS over the
 * enterable channels finds the search's tree (tree()), and hand_over() adds
 * its dependencies in the heap's pop order, level by level sorted by (d,
 * channel), up to the first refusal, which then is the search's own (the
 * same dependencies in before it; it stays blocked). Whether the CDG takes
 * a level's dependencies does not depend on their order (a set is acyclic
 * or not), so a level goes in BFS order first and is sorted only when one
 * is refused (its adds taken back, the refused one unblocked: it was
 * refused against another set). If all go in, that is the search's result;
 * else the switches before the refusal are routed, the heap gets the offers
 * their settling would have made, and the search goes on from there. A
 * switch that is not short sends the whole destination to the heap.
 */
#include <stdlib.h>
#include <string.h>

#include "nue_search.h"

int nue_level_init(struct nue_level *v, const struct lanes_fabric *f, const struct nue_cdg *g)
{
	uint32_t ns = f->num_switches, E = f->adj_off[ns];

	memset(v, 0, sizeof(*v));
	v->node = calloc((size_t)ns + 1, sizeof(*v->node));
	v->nb = malloc(sizeof(*v->nb) * ((size_t)E + 1));
	v->keys = malloc(sizeof(*v->keys) * ((size_t)ns + 1));
	v->packed = malloc(sizeof(*v->packed) * 2 * ((size_t)ns + 1));
	v->need = malloc(sizeof(*v->need) * ((size_t)ns + 1));
	if (!v->node || !v->nb || !v->keys || !v->packed || !v->need)
		return -1;
	for (uint32_t e = 0; e < E; e++) {
		v->nb[e].y = f->adj[e].sw;
		v->nb[e].in = g->ch.rev[e];
	}
	return 0;
}

void nue_level_free(struct nue_level *v)
{
	free(v->node);
	free(v->nb);
	free(v->keys);
	free(v->packed);
	free(v->need);
	memset(v, 0, sizeof(*v));
}

static uint32_t level_of(const struct nue_level *v, uint32_t y)
{
	return v->node[y].lv - v->base;
}

/* A fresh base above every level of the last search. */
static uint32_t next_base(struct nue_search *s, struct nue_level *v)
{
	if (v->base > UINT32_MAX - 2 * (s->ns + 1)) {
		for (uint32_t y = 0; y < s->ns; y++)
			v->node[y].lv = 0;
		v->base = 0;
	}
	v->base += s->ns + 1;
	return v->base;
}

/* The arrays of tree() as locals: its stores could alias the structs' fields, forcing reloads. */
struct bfs {
	const uint32_t *off;          /* the fabric's adjacency offsets */
	const struct nue_nb *nb;
	const uint8_t *dep;
	const uint32_t *drow;         /* per channel: nue_cdg_dep() less the out channel */
	const size_t *dense;          /* per switch: its first dependency number */
	const uint64_t *load;
	uint64_t w0;
	struct nue_lnode *node;
	uint32_t *order, *via, base;
	uint64_t *dd, *sub;
	const uint64_t *hca;
	uint32_t *need;               /* the indices in order of the switches whose dependency is not used */
};

/*
 * Offer the entries j0..j1 - 1 of a switch (nb, col: their neighbour and
 * dependency onto the switch's channel, every stride bytes) at distance dw
 * - w0, level next - 1: a neighbour not yet discovered takes the channel
 * (and level next), one already at level next keeps the better of the two.
 * @return n, plus the switches discovered (appended to order)
 */
static inline __attribute__((always_inline)) uint32_t scan(const struct bfs *b, const struct nue_nb *nb,
							   const uint8_t *col, size_t stride,
							   uint64_t dw, uint32_t next, uint32_t n,
							   uint32_t j0, uint32_t j1)
{
	const uint64_t *load = b->load;
	const uint32_t base = b->base;
	uint32_t *order = b->order;
	struct nue_lnode *node = b->node;

	for (uint32_t j = j0; j < j1; j++) {
		uint32_t y = nb[j].y, in = nb[j].in, ly = node[y].lv;
		struct nue_lnode *p = &node[y];
		uint64_t d = dw + load[in];
		int better;

		if (col[j * stride] == NUE_DEP_BLOCKED)
			continue;
		if (ly < base) {
			p->lv = next;
			p->bd = d;
			p->bc = in;
			order[n++] = y;
			continue;
		}
		if (ly != next)
			continue;
		better = (d < p->bd) | ((d == p->bd) & (in < p->bc));
		p->bd = better ? d : p->bd;
		p->bc = better ? in : p->bc;
	}
	return n;
}

/*
 * The BFS tree: order[0..*nq) the switches it reaches, level by level.
 * Each switch takes its best channel when its turn comes and offers the
 * others its entries, but for the one of its own channel (one level up).
 * @return 1 when every one is short
 */
static int tree(struct nue_search *s, struct nue_level *v, uint32_t t, uint32_t *nq)
{
	static const uint8_t none = NUE_DEP_UNUSED; /* t: no dependency to block */
	const struct bfs b = { .off = s->f->adj_off, .nb = v->nb, .dep = s->g->dep,
			       .drow = s->g->drow, .dense = s->g->ch.dense_off, .load = s->load,
			       .w0 = s->w0, .node = v->node, .order = s->order,
			       .via = s->via, .base = next_base(s, v), .dd = s->dd,
			       .sub = s->sub, .hca = s->hca, .need = v->need };
	uint32_t a = b.off[t], n, nneed = 0;

	b.node[t].lv = b.base;
	b.order[0] = t;
	b.via[t] = LANES_NONE;
	b.dd[t] = 0;
	b.sub[t] = b.hca[t];
	n = scan(&b, b.nb + a, &none, 0, b.w0, b.base + 1, 1, 0, b.off[t + 1] - a);
	for (uint32_t i = 1; i < n; i++) {
		const struct nue_lnode *p = &b.node[b.order[i]];
		uint32_t x = b.order[i], lx = p->lv, c = p->bc, par = b.via[b.nb[c].y], deg, up;
		uint64_t d = p->bd;
		const uint8_t *col;

		if (d - (uint64_t)(lx - b.base) * b.w0 >= b.w0)
			return 0;
		b.via[x] = c;
		b.dd[x] = d;
		b.sub[x] = b.hca[x]; /* for place() */
		b.need[nneed] = i; /* its dependency (c, par): not blocked (else not offered) */
		nneed += par != LANES_NONE && b.dep[(uint32_t)(b.drow[c] + par)] != NUE_DEP_USED;
		a = b.off[x];
		deg = b.off[x + 1] - a;
		up = c - a;
		col = b.dep + b.dense[x] + up;
		n = scan(&b, b.nb + a, col, deg, d + b.w0, lx + 1, n, 0, up);
		n = scan(&b, b.nb + a, col, deg, d + b.w0, lx + 1, n, up + 1, deg);
	}
	*nq = n;
	v->nneed = nneed;
	return 1;
}

/*
 * Add the dependencies of order[i..n) in turn up to the first the CDG
 * refuses (left blocked). @return its index, or n
 */
static uint32_t add_upto(struct nue_search *s, uint32_t i, uint32_t n, struct lanes_error *err,
			 int *rc)
{
	const struct lanes_adj *adj = s->f->adj;

	for (; i < n; i++) {
		uint32_t c = s->via[s->order[i]], par = s->via[adj[c].sw];

		if (par == LANES_NONE || nue_cdg_used(s->g, c, par))
			continue;
		if (nue_cdg_add(s->g, c, par))
			break;
		if ((*rc = nue_search_remember(s, c, par, err)))
			break;
	}
	return i;
}

/* Take back what the search added since mark, and unblock the refused dependency of order[i]. */
static void take_back(struct nue_search *s, uint32_t i, uint32_t mark)
{
	uint32_t c = s->via[s->order[i]];

	nue_cdg_unblock(s->g, c, s->via[s->f->adj[c].sw]);
	while (s->nadded > mark) {
		s->nadded -= 2;
		nue_cdg_remove(s->g, s->added[s->nadded], s->added[s->nadded + 1]);
	}
}

static int by_key(const void *pa, const void *pb)
{
	const struct nue_lkey *a = pa, *b = pb;

	if (a->d != b->d)
		return a->d < b->d ? -1 : 1;
	return a->c < b->c ? -1 : a->c > b->c;
}

static unsigned bit_length(uint64_t x)
{
	return x ? 64u - (unsigned)__builtin_clzll(x) : 0u;
}

/*
 * One level order[i..j) by (distance, channel). A short switch at level h
 * has h w0 <= d < (h + 1) w0, so (d - h w0, channel) packs into one number
 * when w0 and the channel numbers leave room; else qsort.
 */
static void sort_level(struct nue_search *s, struct nue_level *v, uint32_t i, uint32_t j)
{
	unsigned cb = bit_length(s->g->ch.E), bits = bit_length(s->w0 - 1) + cb;
	uint64_t base = (uint64_t)level_of(v, s->order[i]) * s->w0, *a = v->packed;

	if (bits > 64) {
		for (uint32_t k = i; k < j; k++)
			v->keys[k] = (struct nue_lkey){ s->dd[s->order[k]], s->via[s->order[k]], s->order[k] };
		qsort(v->keys + i, j - i, sizeof(*v->keys), by_key);
		for (uint32_t k = i; k < j; k++)
			s->order[k] = v->keys[k].y;
		return;
	}
	for (uint32_t k = i; k < j; k++)
		a[k - i] = (s->dd[s->order[k]] - base) << cb | s->via[s->order[k]];
	route_sort_u64(a, j - i, v->packed + (j - i), 0, bits);
	for (uint32_t k = i; k < j; k++)
		s->order[k] = s->g->tail[(uint32_t)(a[k - i] & ((1ull << cb) - 1))];
}

/* The switches order[*i..*j) at the level of order[k] (order is by level). */
static void level_around(const struct nue_search *s, const struct nue_level *v, uint32_t k,
			 uint32_t nq, uint32_t *i, uint32_t *j)
{
	uint32_t l = v->node[s->order[k]].lv;

	for (*i = k; *i > 1 && v->node[s->order[*i - 1]].lv == l; --*i)
		;
	for (*j = k + 1; *j < nq && v->node[s->order[*j]].lv == l; ++*j)
		;
}

/*
 * The heap's adds in its pop order, level by level (by (distance, channel)
 * within a level), up to the first refusal. A level whose dependencies the
 * CDG takes in BFS order takes them in any order, so it is sorted only when
 * one is refused: then its adds are taken back and made again in pop order.
 * Only the dependencies not used at tree() (need) are tried in BFS order.
 * @return the index of the first refusal (left blocked), or nq
 */
static uint32_t add_levels(struct nue_search *s, struct nue_level *v, uint32_t nq,
			   struct lanes_error *err, int *rc)
{
	const struct lanes_adj *adj = s->f->adj;
	uint32_t mark = s->nadded, lvl = LANES_NONE, i, j;

	for (uint32_t q = 0; q < v->nneed; q++) {
		uint32_t k = v->need[q], c = s->via[s->order[k]], par = s->via[adj[c].sw];

		if (v->node[s->order[k]].lv != lvl) { /* a new level: its adds start here */
			lvl = v->node[s->order[k]].lv;
			mark = s->nadded;
		}
		if (!nue_cdg_add(s->g, c, par)) {
			if ((*rc = nue_search_remember(s, c, par, err)))
				return k;
			continue;
		}
		level_around(s, v, k, nq, &i, &j);
		if (j - i < 2)
			return k;
		take_back(s, k, mark);
		sort_level(s, v, i, j);
		return add_upto(s, i, j, err, rc);
	}
	return nq;
}

/*
 * The heap's own course: the tree's switches in pop order, each adding its
 * dependency, up to the first the CDG refuses (it stays blocked: the search
 * would refuse it at the same point, with the same dependencies in). The
 * switches before it are routed; the heap gets what their settling would
 * have offered. @return 1 when all got in and they are t's whole component
 */
static int hand_over(struct nue_search *s, struct nue_level *v, uint32_t nq,
		     struct lanes_error *err, int *rc)
{
	uint32_t i = add_levels(s, v, nq, err, rc);

	if (*rc)
		return 0;
	s->norder = i;
	if (i == nq && nq == s->csize[s->comp[s->order[0]]])
		return 1; /* done: nothing reads seen[] any more */
	for (uint32_t j = 0; j < i; j++)
		s->seen[s->order[j]] = s->stamp;
	if (i == nq)
		return 0;
	/*
	 * The heap's offers: only levels h - 1 and h (h: the refused switch's)
	 * can have a neighbour left that may enter them (it would be at level
	 * h or h + 1); the other routed switches' neighbours are all routed.
	 */
	for (uint32_t h = v->node[s->order[i]].lv, j = i; j-- > 0;) {
		if (v->node[s->order[j]].lv + 1 < h)
			break;
		nue_search_offer(s, s->order[j]);
	}
	return 0;
}

int nue_level_off;

int nue_level_search(struct nue_search *s, uint32_t t, struct lanes_error *err, int *rc)
{
	struct nue_level *v = &s->level;
	uint32_t nq;

	*rc = 0;
	s->norder = 0;
	if (nue_level_off || !tree(s, v, t, &nq))
		return 0;
	return hand_over(s, v, nq, err, rc);
}
