/*
 * nue_heap.h - the binary min-heaps of the nue engine, entries ordered by
 * key d, then c, so that ties break the same way on every run:
 * - nue_heap (escape-path trees, nue_escape.c): entries (d, item c, parent
 *   par), lazy deletion: a caller skips items it has already settled;
 * - nue_iheap (the per-destination search, nue_search.c): at most one entry
 *   per switch y (d, channel c), with decrease-key, so the heap holds at
 *   most one entry per switch instead of one per channel; 4-ary.
 */
#ifndef LANES_NUE_HEAP_H
#define LANES_NUE_HEAP_H

#include <stdint.h>

struct nue_hent {
	uint64_t d;
	uint32_t c, par;
};

struct nue_heap {
	struct nue_hent *h; /* room for every push of one search */
	uint32_t n;
};

__extension__ typedef unsigned __int128 nue_u128;

/* (d, c) as one 128-bit number: a compare and a subtract with borrow, no branch on equal d. */
static inline int nue_hent_less(const struct nue_hent *a, const struct nue_hent *b)
{
	return ((nue_u128)a->d << 64 | a->c) < ((nue_u128)b->d << 64 | b->c);
}

static inline void nue_heap_push(struct nue_heap *hp, uint64_t d, uint32_t c, uint32_t par)
{
	struct nue_hent e = { d, c, par };
	uint32_t i = hp->n++;

	while (i) {
		uint32_t p = (i - 1) / 2;

		if (!nue_hent_less(&e, &hp->h[p]))
			break;
		hp->h[i] = hp->h[p];
		i = p;
	}
	hp->h[i] = e;
}

static inline int nue_heap_pop(struct nue_heap *hp, struct nue_hent *out)
{
	struct nue_hent last;
	uint32_t i = 0;

	if (!hp->n)
		return 0;
	*out = hp->h[0];
	last = hp->h[--hp->n];
	for (;;) {
		uint32_t l = 2 * i + 1, m = l;

		if (l >= hp->n)
			break;
		if (l + 1 < hp->n && nue_hent_less(&hp->h[l + 1], &hp->h[l]))
			m = l + 1;
		if (!nue_hent_less(&hp->h[m], &last))
			break;
		hp->h[i] = hp->h[m];
		i = m;
	}
	hp->h[i] = last;
	return 1;
}

struct nue_ient {
	uint64_t d;
	uint32_t c, y;
};

struct nue_iheap {
	struct nue_ient *h; /* room for one entry per switch */
	uint32_t *pos;      /* per switch: its index in h, or UINT32_MAX */
	uint32_t n;
};

/* The same for the search's entries (equal d is common there, and a branch on it mispredicts). */
static inline int nue_ient_less(const struct nue_ient *a, const struct nue_ient *b)
{
	return ((nue_u128)a->d << 64 | a->c) < ((nue_u128)b->d << 64 | b->c);
}

/* 4-ary: half the depth of a binary heap; sift with the arrays in locals. */
#define NUE_IHEAP_ARITY 4u
_Static_assert(NUE_IHEAP_ARITY == 4, "nue_iheap_pop() compares four children at once");

static inline void nue_iheap_up(struct nue_iheap *hp, uint32_t i, struct nue_ient e)
{
	struct nue_ient *h = hp->h;
	uint32_t *pos = hp->pos;

	while (i) {
		uint32_t p = (i - 1) / NUE_IHEAP_ARITY;

		if (!nue_ient_less(&e, &h[p]))
			break;
		pos[h[p].y] = i; /* from h[p], not from the copy: no store-to-load wait */
		h[i] = h[p];
		i = p;
	}
	h[i] = e;
	pos[e.y] = i;
}

/** Offer (d, c) for switch y: inserted, or kept only if better than y's entry. */
static inline void nue_iheap_offer(struct nue_iheap *hp, uint64_t d, uint32_t c, uint32_t y)
{
	struct nue_ient e = { d, c, y };
	uint32_t i = hp->pos[y];

	if (i == UINT32_MAX)
		nue_iheap_up(hp, hp->n++, e);
	else if (nue_ient_less(&e, &hp->h[i]))
		nue_iheap_up(hp, i, e);
}

static inline int nue_iheap_pop(struct nue_iheap *hp, struct nue_ient *out)
{
	struct nue_ient *h = hp->h, last;
	uint32_t *pos = hp->pos, i = 0, n = hp->n;

	if (!n)
		return 0;
	*out = h[0];
	pos[out->y] = UINT32_MAX;
	hp->n = --n;
	if (!n)
		return 1;
	last = h[n];
	for (;;) {
		uint32_t l = NUE_IHEAP_ARITY * i + 1, m = l;

		if (l >= n)
			break;
		if (l + NUE_IHEAP_ARITY <= n) { /* all four children: no loop */
			uint32_t m2 = nue_ient_less(&h[l + 3], &h[l + 2]) ? l + 3 : l + 2;

			m = nue_ient_less(&h[l + 1], &h[l]) ? l + 1 : l;
			m = nue_ient_less(&h[m2], &h[m]) ? m2 : m;
		} else {
			for (uint32_t k = l + 1; k < n; k++)
				m = nue_ient_less(&h[k], &h[m]) ? k : m;
		}
		if (!nue_ient_less(&h[m], &last))
			break;
		pos[h[m].y] = i;
		h[i] = h[m];
		i = m;
	}
	h[i] = last;
	pos[last.y] = i;
	return 1;
}

#endif
