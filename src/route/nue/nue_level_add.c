/*
 * nue_level_add.c - a level of nue's BFS shortcut (nue_level.c) whose
 * dependencies the CDG refused in BFS order: they go in again as the heap
 * search (nue_search.c) would add them, in its pop order, by (distance,
 * channel), up to its first refusal. No paper: a speed-up that keeps the
 * same tables; nue_level.c's header explains why a level may go in BFS
 * order first and is sorted only when the CDG refuses one of its
 * dependencies.
 */
#include <stdlib.h>

#include "route/nue/nue_search.h"
#include "route/cdg/cdg.h"

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
		if (lanes_nue_cdg_add(s->g, c, par))
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
 * Level lvl, order[i..j), by (distance, channel). A short switch at level
 * h has h w0 <= d < (h + 1) w0, so (d - h w0, channel) packs into one
 * number when w0 and the channel numbers leave room; else qsort.
 */
static void sort_level(struct nue_search *s, struct nue_level *v, uint32_t i, uint32_t j, uint32_t lvl)
{
	unsigned cb = bit_length(s->g->ch.E), bits = bit_length(s->w0 - 1) + cb;
	uint64_t base = (uint64_t)lvl * s->w0, *a = v->packed;

	if (bits > 64) {
		for (uint32_t k = i; k < j; k++)
			v->keys[k] = (struct nue_lkey){ v->node[s->order[k]].bd, s->via[s->order[k]], s->order[k] };
		qsort(v->keys + i, j - i, sizeof(*v->keys), by_key);
		for (uint32_t k = i; k < j; k++)
			s->order[k] = v->keys[k].y;
		return;
	}
	for (uint32_t k = i; k < j; k++)
		a[k - i] = (v->node[s->order[k]].bd - base) << cb | s->via[s->order[k]];
	lanes_route_sort_u64(a, j - i, v->packed + (j - i), 0, bits);
	for (uint32_t k = i; k < j; k++)
		s->order[k] = s->g->tail[(uint32_t)(a[k - i] & ((1ull << cb) - 1))];
}

uint32_t lanes_nue_level_resort(struct nue_search *s, uint32_t i, uint32_t j, uint32_t k, uint32_t mark,
			  uint32_t lvl, struct lanes_error *err, int *rc)
{
	take_back(s, k, mark);
	sort_level(s, &s->level, i, j, lvl);
	return add_upto(s, i, j, err, rc);
}
