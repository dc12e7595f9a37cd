/*
 * nue_heap.h - the binary min-heap of the nue engine (engines/nue.c) and its
 * escape-path tree (nue_escape.c): entries (key d, item c, parent par),
 * ordered by d, then c, so that ties break the same way on every run.
 * Lazy deletion: a caller skips items it has already settled when popped.
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

static inline int nue_hent_less(const struct nue_hent *a, const struct nue_hent *b)
{
	return a->d < b->d || (a->d == b->d && a->c < b->c);
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

#endif
