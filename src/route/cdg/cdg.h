/*
 * cdg.h - channel dependency graphs while a routing is built: the dynamic
 * topological order (cdg_order.c) and the credit-loop check (cdg_check.c).
 */
#ifndef LANES_ROUTE_CDG_H
#define LANES_ROUTE_CDG_H

#include <stdint.h>
#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/routing.h"

/* --------------------------------------- dynamic topological order */

/*
 * Engines that keep a CDG acyclic while adding dependencies (lash per layer,
 * nue in nue_cdg.c) give every channel a place ord[c] that all used
 * dependencies respect (Pearce and Kelly, JEA 2006; cdg_order.c). Adding
 * u -> v against the order, the engine searches its own dependencies: F,
 * what v reaches through places below ord[u] (reaching u is a cycle), and
 * B, what reaches u through places above ord[v]; lanes_route_pk_reorder() then
 * hands their places out again. The searches stay with the engines because
 * each reads its own per-dependency state (lash: path counts per layer; nue:
 * one byte, used or blocked) in its innermost loop.
 */

/** Scratch for lanes_route_pk_reorder(): E + 1 entries each. */
struct route_pk_scratch {
	uint64_t *tmp;
	uint32_t *slots;
};

/**
 * Hand the places of B (bwd) and F (fwd), given as (place << 32 | channel)
 * keys in any order, out again in ascending order, B first, each set in its
 * old order; both arrays are left sorted. ord: per channel, its place; E:
 * the number of channels (every place is below it).
 */
void lanes_route_pk_reorder(uint32_t *ord, uint32_t E, uint64_t *bwd, uint32_t nb, uint64_t *fwd,
		      uint32_t nf, struct route_pk_scratch *s);

/**
 * Sort a[0..n) ascending by bits lo..hi of each key, where the keys are
 * distinct (cdg_order.c): insertion sort when short, else an LSD radix sort
 * a byte at a time (stable), tmp holding n entries.
 */
void lanes_route_sort_u64(uint64_t *a, uint32_t n, uint64_t *tmp, unsigned lo, unsigned hi);

/* ------------------------------------------------- credit-loop check */

/*
 * An incremental check that the routes to CA LIDs use an acyclic set of
 * channel dependencies on one VL (cdg_check.c). Every switch counts as a
 * source, so it may report a cycle the CA traffic does not close, never
 * miss one. New dependencies are tested in batches: a cycle shows up at a
 * later LID than the one that closed it, at the latest in
 * lanes_route_cdg_check_finish.
 */
struct route_cdg_check;

int lanes_route_cdg_check_new(const struct lanes_fabric *f, struct route_cdg_check **out,
			struct lanes_error *err);
void lanes_route_cdg_check_free(struct route_cdg_check *k);

/** Add the dependencies of r's routes to lid. @return 1 no cycle found yet, 0 a cycle (for good) */
int lanes_route_cdg_check_lid(struct route_cdg_check *k, const struct lanes_routing *r, uint32_t lid);

/** Test the dependencies not tested yet: the verdict on all of them. @return 1 a cycle, else 0 */
int lanes_route_cdg_check_finish(struct route_cdg_check *k);

/** @return 1 once a cycle was found */
int lanes_route_cdg_check_cyclic(const struct route_cdg_check *k);

#endif
