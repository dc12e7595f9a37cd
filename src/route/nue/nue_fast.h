/*
 * nue_fast.h - the BFS shortcut of nue's per-destination search
 * (nue_fast.c, nue_bundles_fast.c): it finds the same tree, adds the same
 * dependencies and so gives the same tables as the heap search of
 * nue_search.c, with less heap work, where it can tell that it does
 * (test_nue.c compares the two byte for byte). Kept for its figure:
 * dragonfly a=16 p=8 h=8 (16,512 endpoints), the whole lanes_route call,
 * 3.46 s of user CPU with it against 5.48 s without (1.58x; medians of 7,
 * Release, gcc, a shared 2-core machine, 2026-11-27; the commands:
 * bench/bench_route_verify nue none dragonfly a=16 p=8 h=8, the engine
 * against lanes_nue_route(..., 0, ...)). On torus k=14x14x14 p=4 it gains
 * only 1.07x (2.46 s against 2.63 s, before the clean-up): there few
 * switches are "short" (nue_fast.c) and the heap does most of the work.
 */
#ifndef LANES_NUE_FAST_H
#define LANES_NUE_FAST_H

#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "route/common/arena.h"

struct nue_search;

/* What the CDG knows of a dependency: used, refused (known to close a cycle), or neither. */
enum { NUE_DEP_UNUSED = 0, NUE_DEP_USED = 1, NUE_DEP_BLOCKED = 2 };

/* A switch discovered by the BFS (its level: struct nue_fast). */
struct nue_fast_node {
	uint64_t dist;     /* its best distance so far (final once its level is taken) */
	uint32_t channel;  /* the channel that gives it */
	uint8_t dep_state; /* NUE_DEP_* of the dependency that channel needs (USED: none) */
};

/*
 * A bundle (nue_bundles_fast.c): the adjacency entries of a switch x to one
 * neighbour y (parallel cables, or a single cable), listed in the order of
 * their first entry; the BFS offers y one channel y -> x per bundle, the
 * reverse of one of the entries.
 */
struct nue_bundle {
	uint32_t neighbour; /* y */
	uint32_t best;      /* the entry whose channel back, y -> x, is least by (load, number) */
	uint32_t first;     /* the entries: entry[first .. first + count) */
	uint32_t count;
};

/* A level's switch by the heap's pop key (distance, channel), for sorting. */
struct nue_sort_key {
	uint64_t dist;
	uint32_t channel, sw;
};

/* The shortcut's state: the BFS's nodes and the bundles. */
struct nue_fast {
	struct nue_fast_node *node;  /* per switch */
	uint32_t *level;             /* per switch: base + hops from t once discovered, else above */
	uint32_t base;               /* of the current search's levels (nue_fast.c) */
	struct nue_bundle *bundle;   /* per switch x: bundle[bundle_off[x] .. bundle_off[x + 1]) */
	uint32_t *bundle_off;
	uint32_t nbundles;
	uint32_t *entry;             /* the bundles' entries, bundle by bundle */
	uint32_t *bundle_of;         /* per entry: its bundle, if of 2+ entries; else LANES_NONE */
	const uint32_t *rev;         /* per channel: the same cable from the other end (cdg/channels.h) */
	int parallel;                /* some bundle has 2+ channels */
	const uint64_t *load;        /* per channel: the loads the bundles' best channels follow */
	struct nue_sort_key *keys;   /* sort scratch: a level's switches */
	uint64_t *packed;            /* the same, one number each, and radix scratch: 2 (ns + 1) */
};

/** Make the arrays of the shortcut and the bundles (from a). @return 0, or -1 out of memory */
int lanes_nue_fast_init(struct nue_fast *v, const struct lanes_fabric *f, const uint32_t *rev,
			struct route_arena *a);

/**
 * Group each switch's entries into bundles (nue_bundles_fast.c), their best
 * channels as for zero loads. @return 0, or -1 out of memory
 */
int lanes_nue_bundles_init(struct nue_fast *v, const struct lanes_fabric *f, const uint32_t *rev,
			   struct route_arena *a);

/** Let the bundles follow load (per channel), and pick every best channel from it. */
void lanes_nue_bundles_sync(struct nue_fast *v, const uint64_t *load);

/** Bundle k picks its best entry again: the least (load, number) of the channels back. */
static inline void nue_bundle_pick(struct nue_fast *v, uint32_t k)
{
	struct nue_bundle *b = &v->bundle[k];
	uint32_t best = v->rev[v->entry[b->first]];

	for (uint32_t i = 1; i < b->count; i++) {
		uint32_t c = v->rev[v->entry[b->first + i]];

		if (v->load[c] < v->load[best] || (v->load[c] == v->load[best] && c < best))
			best = c;
	}
	b->best = v->rev[best];
}

/**
 * The load of channel c grew: the bundle of c's reverse picks again if c
 * was its best (any other channel only fell further behind).
 */
static inline void nue_bundle_loaded(struct nue_fast *v, uint32_t c)
{
	uint32_t k = v->bundle_of[v->rev[c]];

	if (k != LANES_NONE && v->bundle[k].best == v->rev[c])
		nue_bundle_pick(v, k);
}

/**
 * The search's tree by a BFS from t, where that provably gives the same
 * (nue_fast.c). @return 1 done (the tree in via[] and order[], the
 * dependencies added and remembered), 0 not done: the switches order[0..
 * norder) are routed and seen, the heap holds what their settling offered,
 * as the heap search would have it at that point (*rc set on an error)
 */
int lanes_nue_fast_search(struct nue_search *s, uint32_t t, struct lanes_error *err, int *rc);

#endif
