/*
 * nue_search.h - one destination of the nue engine (nue/nue.c): the
 * Dijkstra-like search on the layer's CDG, local backtracking, the escape
 * paths at an impasse, and placing the resulting tree (LFT column and
 * channel weights). See nue_search.c for the rules.
 */
#ifndef LANES_NUE_SEARCH_H
#define LANES_NUE_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/routing.h"
#include "route/nue/nue_cdg.h"
#include "route/nue/nue_escape.h"
#include "route/nue/nue_heap.h"

/* A switch and its pop key (distance, channel), for sorting. */
struct nue_lkey {
	uint64_t d;
	uint32_t c, y;
};

/*
 * A bundle (nue_bundle.c): a switch's entries to one neighbour y (parallel
 * cables), in the order of their first entry, with the least loaded of the
 * channels back from y (the one the search would take, when open).
 */
struct nue_bundle {
	uint32_t y;                   /* the neighbour */
	uint32_t in;                  /* its best channel into the switch: least (load, number) */
	uint32_t jd;                  /* (in's entry - the switch's first) * the switch's degree */
};

/* Where a bundle's channels back are: mem[m .. m + n) (and their mjd[]). */
struct nue_bmem {
	uint32_t m, n;
};

/*
 * An adjacency entry e of switch x for the BFS: its switch, the channel
 * back (rev[e]), and (e - x's first) * x's degree: the dependency from it
 * onto x's channel c is at that offset from c's (nue_level.c); and y's
 * byte offset in the BFS's node[] (x86 scales an index by 8 at most).
 */
struct nue_nb {
	uint32_t y, in, jd, yo;
};

/*
 * A switch in the BFS shortcut: its level, and once discovered its best
 * channel so far and the state of the dependency that channel needs; and
 * where its entries are (together: one place for the BFS's test, updates
 * and the taking of a switch, one base register). 32 bytes; the fields a
 * discovery stores lie apart, which keeps GCC from joining two of them
 * into a vector store.
 */
struct nue_lnode {
	uint64_t bd;                  /* best distance so far */
	uint32_t bc;                  /* its channel */
	uint32_t deg;                 /* its entries, nb[0 .. deg) (fixed; struct nue_level's nb) */
	const struct nue_nb *nb;
	uint32_t lv;                  /* base + hops from t once discovered, else above (nue_level.c) */
	uint32_t st;                  /* NUE_DEP_* of the dependency bc needs (USED: none) */
};

/* The BFS shortcut of the search (nue_level.c). */
struct nue_level {
	struct nue_lnode *node;       /* per switch */
	uint32_t base;
	struct nue_nb *nb;            /* per adjacency entry */
	uint8_t **ccol;               /* per channel c: the CDG's dep + the dependency (in, c) of in's
				       * jd 0, the column nue_nb.jd indexes (nue_level.c) */
	struct nue_bundle *bun;       /* per switch x: bun[boff[x] .. boff[x + 1]) */
	struct nue_bmem *bm;          /* per bundle */
	uint32_t *boff;
	uint32_t nbun;
	uint32_t *mem;                /* the bundles' channels back (rev[] of the entries) */
	uint32_t *mjd;                /* per mem[]: its entry's jd (struct nue_bundle) */
	const uint64_t *load;         /* the loads the best channels follow */
	uint32_t *cbun;               /* per channel c (x -> y): y's bundle toward x if of 2+ entries */
	int multi;                    /* some bundle has 2+ entries */
	struct nue_lkey *keys;        /* hand-over scratch: a level's switches */
	uint64_t *packed;             /* the same as one number each, and radix scratch: 2 (ns + 1) */
};

struct nue_search {
	const struct lanes_fabric *f;
	struct nue_cdg *g;            /* the layer's CDG */
	const struct nue_escape *x;   /* the layer's escape trees */
	uint32_t ns;
	const uint32_t *comp, *csize; /* per switch: component; per component: switches */
	const uint64_t *hca;          /* per switch: source LIDs there */
	uint64_t *load, w0;           /* per channel: routes placed; base weight */
	/* one destination */
	struct nue_iheap heap;
	uint32_t *via;                /* per routed switch: its channel toward t */
	uint32_t *seen, stamp;        /* seen[s] == stamp: s is routed */
	uint32_t *order, norder;      /* routed switches, in settle order */
	uint64_t *sub, *dd;           /* per switch: sources behind it (hca from the start); distance */
	uint32_t *added, nadded;      /* dependencies this search used: (in, out) pairs */
	size_t added_cap;
	int walked;                   /* order is no settle order (backtracking, escape) */
	uint32_t *anc, *esc, *toward, *q, nq; /* impasse scratch (q: also place's queue) */
	uint32_t *pend;               /* place: per switch, children not yet summed */
	struct nue_level level;
	/* statistics */
	uint64_t backtracks, fallbacks, escaped;
};

/** Make the arrays (from a), the shortcut's and the bundles' too. */
int lanes_nue_search_init(struct nue_search *s, const struct lanes_fabric *f, struct nue_cdg *g,
		    const struct nue_escape *x, struct route_arena *a, struct lanes_error *err);
/** Free what is not the arena's (added[]). */
void lanes_nue_search_free(struct nue_search *s);

/**
 * Route every switch of t's component toward switch t inside the CDG (the
 * tree is left in via[] for the switches in order[]), with backtracking and
 * escape paths where needed; the CDG keeps the dependencies the tree uses.
 * @return 0, or a negative LANES_E* code
 */
int lanes_nue_search_route(struct nue_search *s, uint32_t t, struct lanes_error *err);

/*
 * Offer each unrouted neighbour y of the routed switch x its channel into x
 * (weight: x's distance, w0 and the routes on it), unless the dependency
 * onto x's channel is known to close a cycle; checked when popped.
 */
static inline __attribute__((always_inline)) void nue_search_offer(struct nue_search *s, uint32_t x)
{
	uint32_t c = s->via[x], deg = s->level.node[x].deg;
	/* dependency (rev[e], c) for the entries e of x: column c of x's square */
	const uint8_t *col = c == LANES_NONE ? NULL : s->level.ccol[c];

	/* locals: the heap's stores could alias the fields, forcing reloads */
	const struct nue_nb *nb = s->level.node[x].nb; /* switch, channel back, dependency offset */
	const uint32_t *seen = s->seen, stamp = s->stamp;
	const uint64_t *load = s->load, dw = s->dd[x] + s->w0;
	struct nue_iheap *hp = &s->heap;

	for (const struct nue_nb *q = nb; q < nb + deg; q++) {
		if (seen[q->y] == stamp || (col && col[q->jd] == NUE_DEP_BLOCKED))
			continue;
		nue_iheap_offer(hp, dw + load[q->in], q->in, q->y);
	}
}

/* Room for one more pair in added[]. @return 0, or a negative LANES_E* code */
int lanes_nue_search_grow_added(struct nue_search *s, struct lanes_error *err);

/** Note that the search added "in, then out" (given back at the end if unused). */
static inline int nue_search_remember(struct nue_search *s, uint32_t in, uint32_t out,
				      struct lanes_error *err)
{
	int rc;

	if (s->nadded + 2 > s->added_cap && (rc = lanes_nue_search_grow_added(s, err)))
		return rc;
	s->added[s->nadded++] = in;
	s->added[s->nadded++] = out;
	return 0;
}

/** Make the arrays of the BFS shortcut and the bundles (from a). @return 0, or -1 out of memory */
int lanes_nue_level_init(struct nue_level *v, const struct lanes_fabric *f, const struct nue_cdg *g,
		   struct route_arena *a);

/**
 * Group each switch's entries into bundles (nue_bundle.c), their best
 * channels as for zero loads. @return 0, or -1 out of memory
 */
int lanes_nue_bundles_init(struct nue_level *v, const struct lanes_fabric *f, const uint32_t *rev,
		     struct route_arena *a);

/** Let the bundles follow load (per channel), and pick every best channel from it. */
void lanes_nue_bundles_sync(struct nue_level *v, const uint64_t *load);

/** Bundle k picks its best channel again (inline: placing a tree calls it for many channels). */
static inline void nue_bundle_pick(struct nue_level *v, uint32_t k)
{
	const uint32_t *ch = v->mem + v->bm[k].m, n = v->bm[k].n;
	const uint64_t *load = v->load;
	uint32_t best = 0;
	uint64_t lb = load[ch[0]];

	for (uint32_t i = 1; i < n; i++) {
		uint64_t lc = load[ch[i]];

		if (lc < lb || (lc == lb && ch[i] < ch[best]))
			best = i, lb = lc;
	}
	v->bun[k].in = ch[best];
	v->bun[k].jd = v->mjd[v->bm[k].m + best];
}

/**
 * The load of channel c (x -> y) grew: y's bundle toward x picks again if
 * c was its best (any other channel only fell further behind).
 */
static inline void nue_bundle_loaded(struct nue_level *v, uint32_t c)
{
	uint32_t k = v->cbun[c];

	if (k != UINT32_MAX && v->bun[k].in == c)
		nue_bundle_pick(v, k);
}

/**
 * The search's tree by a BFS from t, where that provably gives the same
 * (nue_level.c). @return 1 done (the tree in via[] and order[], the
 * dependencies added and remembered), 0 not done: the switches order[0..
 * norder) are routed and seen, the heap holds what their settling offered,
 * as the heap search would have it at that point (*rc set on an error)
 */
int lanes_nue_level_search(struct nue_search *s, uint32_t t, struct lanes_error *err, int *rc);

/**
 * The CDG refused the dependency of order[k] in the BFS's level lvl,
 * order[i..j), after the adds made since mark: they go back, and the
 * level's go in again in the heap's pop order up to the first refusal
 * (nue_level_add.c). @return the index of that refusal (left blocked), or
 * j; *rc set on an error
 */
uint32_t lanes_nue_level_resort(struct nue_search *s, uint32_t i, uint32_t j, uint32_t k, uint32_t mark,
			  uint32_t lvl, struct lanes_error *err, int *rc);

/** Nonzero: never take the shortcut (tests compare the two ways). */
extern int lanes_nue_level_off;

/** Write the tree as the LFT column of lid (port at t) and add its routes to the weights. */
void lanes_nue_search_place(struct nue_search *s, struct lanes_routing *r, uint32_t t, uint32_t lid,
		      uint8_t port);

#endif
