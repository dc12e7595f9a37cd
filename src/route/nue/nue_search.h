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
#include "route/cdg/cdg.h"
#include "route/cdg/channels.h"
#include "route/nue/nue_escape.h"
#include "core/heap.h"
#include "route/nue/nue_fast.h"

/* nue routes one layer at a time, in this layer of its lanes_cdg (opened again for each). */
#define NUE_LAYER 0

/*
 * An adjacency entry e of switch x (x -> y) as the searches read it when x
 * offers its neighbours: y and the channel back (y -> x, rev[e]) that y
 * would take. One record per entry instead of two arrays read together.
 */
struct nue_link {
	uint32_t sw;
	uint32_t back;
};

struct nue_search {
	const struct lanes_fabric *f;
	struct lanes_cdg *cdg;        /* the layer's CDG (its layer NUE_LAYER) */
	const struct route_channels *ch; /* its channels */
	uint32_t *tail;               /* per channel: the switch it leaves */
	const struct nue_escape *x;   /* the layer's escape trees */
	uint32_t ns;
	const uint32_t *comp, *csize; /* per switch: component; per component: switches */
	const uint64_t *hca;          /* per switch: source LIDs there */
	uint64_t *load, w0;           /* per channel: routes placed; base weight */
	struct nue_link *link;        /* per adjacency entry */
	/* one destination */
	struct lanes_heap heap;       /* indexed by switch: (distance, channel), 4-ary */
	uint32_t *via;                /* per routed switch: its channel toward t */
	uint32_t *seen, stamp;        /* seen[s] == stamp: s is routed */
	uint32_t *order, norder;      /* routed switches, in settle order */
	uint64_t *sub;                /* per switch: source LIDs behind it (hca[] at the start) */
	uint64_t *dist;               /* per routed switch: its distance to t */
	uint32_t *added, nadded;      /* dependencies this search used: (in, out) pairs */
	size_t added_cap;
	int walked;                   /* order is no settle order (backtracking, escape) */
	uint32_t *anc, *esc, *toward, *q, nq; /* impasse scratch (q: also place's queue) */
	uint32_t *pend;               /* place: per switch, children not yet summed */
	int use_fast;                 /* take the BFS shortcut where it gives the same (nue_fast.c) */
	struct nue_fast fast;
	/* statistics */
	uint64_t backtracks, fallbacks, escaped;
};

/** Make the arrays (from a), the shortcut's and the bundles' too; use_fast: take the shortcut. */
int lanes_nue_search_init(struct nue_search *s, const struct lanes_fabric *f, struct lanes_cdg *cdg,
			  const struct route_channels *ch, const struct nue_escape *x, int use_fast, struct route_arena *a,
			  struct lanes_error *err);
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
void lanes_nue_search_offer(struct nue_search *s, uint32_t x);

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

/** Write the tree as the LFT column of lid (port at t) and add its routes to the weights. */
void lanes_nue_search_place(struct nue_search *s, struct lanes_routing *r, uint32_t t, uint32_t lid,
		      uint8_t port);

#endif
