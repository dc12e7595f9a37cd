/*
 * cdg.h - channel dependency graphs while a routing is built: the
 * incremental graph with layers that stays acyclic (cdg.c, its reordering
 * step in cdg_order.c; lash and nue) and the credit-loop check of finished
 * tables (cdg_check.c; minhop and dnup). The other half of src/route/cdg/ is
 * cycles.h: a dependency set filled without checks and its one cycle
 * search (cdg_cycles.c; cdg_check.c and dfsssp's layering). Channels and
 * dependencies are numbered as channels.h says.
 */
#ifndef LANES_ROUTE_CDG_H
#define LANES_ROUTE_CDG_H

#include <stdint.h>
#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/routing.h"
#include "route/cdg/channels.h"

/* ------------------------------------ the incremental graph (cdg.c) */

/*
 * struct lanes_cdg: the channel dependency graphs of up to max_layers
 * virtual layers over the channels of a route_channels (channels.h), kept
 * acyclic while paths are added. A path is a list of channels, each leaving
 * the switch where the one before it ends; it uses the dependencies of its
 * consecutive channels. Per layer and dependency the graph counts the paths
 * that use it; a dependency is in the graph while its count is not 0.
 *
 * Adding paths is a transaction: lanes_cdg_add_path() adds a path's
 * dependencies unless one of them would close a cycle (then it returns 0,
 * and lanes_cdg_witness() gives that cycle); lanes_cdg_undo() takes back
 * everything added since the last lanes_cdg_keep() or lanes_cdg_undo(),
 * lanes_cdg_keep() makes it permanent. lanes_cdg_remove_path() takes out a
 * path added earlier. cdg.c says how (a dynamic topological order per
 * layer, after Pearce and Kelly, JEA 2006).
 *
 * A caller may also add and remove single dependencies outside any
 * transaction (lanes_cdg_add_dep, lanes_cdg_remove_dep: Nue's way, a
 * dependency at a time); a refusal they find stays remembered until it is
 * forgotten or the layer opened again.
 */
struct lanes_cdg;

/**
 * A graph over ch's channels (borrowed; it must outlive the graph) with
 * room for max_layers layers, none open yet.
 * @return 0, or LANES_ENOMEM
 */
int lanes_cdg_new(struct lanes_cdg **out, const struct route_channels *ch, uint32_t max_layers,
		  struct lanes_error *err);

/** Free g and its layers (NULL is fine). */
void lanes_cdg_free(struct lanes_cdg *g);

/**
 * Empty layer k (k < max_layers), making room for it on first use; the
 * transaction must be closed (lanes_cdg_keep or lanes_cdg_undo).
 * @return 0, or LANES_ENOMEM
 */
int lanes_cdg_open_layer(struct lanes_cdg *g, uint32_t layer, struct lanes_error *err);

/**
 * Add the dependencies of the path chan[0..n) to an open layer, as part of
 * the current transaction. @return 1 added, the layer still acyclic; 0 one
 * dependency would close a cycle: those before it stay added (in the
 * transaction), it and those after it do not; LANES_ENOMEM
 */
int lanes_cdg_add_path(struct lanes_cdg *g, uint32_t layer, const uint32_t *chan, uint32_t n,
		       struct lanes_error *err);

/**
 * @return 1 when a dependency of the path chan[0..n) is one the kept graph
 * of layer is known to refuse (a cycle found before, cdg.c), so that
 * lanes_cdg_add_path would refuse the path; else 0 (it may still refuse it)
 */
int lanes_cdg_known_refused(const struct lanes_cdg *g, uint32_t layer, const uint32_t *chan, uint32_t n);

/** Make the current transaction's additions permanent. */
void lanes_cdg_keep(struct lanes_cdg *g);

/** Take back everything the current transaction added. */
void lanes_cdg_undo(struct lanes_cdg *g);

/** Take out a path kept in layer earlier (the transaction must be closed). */
void lanes_cdg_remove_path(struct lanes_cdg *g, uint32_t layer, const uint32_t *chan, uint32_t n);

/**
 * The cycle the last refused dependency "u, then v" would have closed, as
 * its channels u, v, ..., each depending on the next and the last on u;
 * valid until the graph changes (ask before lanes_cdg_undo). Fills up to
 * max channels. @return the cycle's length (0 when nothing was refused)
 */
uint32_t lanes_cdg_witness(struct lanes_cdg *g, uint32_t *out, uint32_t max);

/**
 * Add one use of the dependency "in, then out" (out leaves the switch where
 * in ends) to layer at once, kept; no transaction may be open. A
 * dependency known to be refused (lanes_cdg_refused) is refused without a
 * search. @return 1 added, 0 refused: it would close a cycle, or was
 * refused before (it is then known to be refused, until
 * lanes_cdg_forget_refusal or lanes_cdg_open_layer)
 */
int lanes_cdg_add_dep(struct lanes_cdg *g, uint32_t layer, uint32_t in, uint32_t out);

/**
 * Take back one use of "in, then out" added to layer earlier; unlike
 * lanes_cdg_remove_path, the refusals remembered stay (they may no longer
 * close a cycle: Nue's "blocked").
 */
void lanes_cdg_remove_dep(struct lanes_cdg *g, uint32_t layer, uint32_t in, uint32_t out);

/** @return 1 when "in, then out" is in layer's graph (used by a path), else 0 */
int lanes_cdg_used(const struct lanes_cdg *g, uint32_t layer, uint32_t in, uint32_t out);

/** @return 1 when layer is known to refuse "in, then out" (a refusal remembered), else 0 */
int lanes_cdg_refused(const struct lanes_cdg *g, uint32_t layer, uint32_t in, uint32_t out);

/** Forget a refusal of "in, then out" in layer: the next add searches again. */
void lanes_cdg_forget_refusal(struct lanes_cdg *g, uint32_t layer, uint32_t in, uint32_t out);

/*
 * The dependencies of a layer onto one channel out, for a caller that asks
 * about every channel into the switch x that out leaves in turn (Nue's
 * searches): with e = adj_off[x] + i, x's i-th adjacency entry, the
 * dependency "rev[e], then out" is used when lanes_cdg_onto_used(&o, i) and
 * known refused when lanes_cdg_onto_refused(&o, i). It reads the layer as
 * it is; valid until the layer is opened again or lanes_cdg_remove_path
 * takes a dependency out (the refusals' epoch changes).
 */
struct lanes_cdg_onto {
	const uint64_t *used;   /* bit i */
	const uint8_t *refused; /* byte i: the epoch of its refusal */
	uint8_t epoch;          /* the layer's */
};

/** Fill o for channel out of layer. */
void lanes_cdg_onto(const struct lanes_cdg *g, uint32_t layer, uint32_t out, struct lanes_cdg_onto *o);

/** @return bit i of the words at bits */
static inline int lanes_cdg_onto_bit(const uint64_t *bits, uint32_t i)
{
	return (int)(bits[i / 64] >> (i % 64) & 1);
}

/** @return 1 when the dependency of x's i-th entry onto the channel is used */
static inline int lanes_cdg_onto_used(const struct lanes_cdg_onto *o, uint32_t i)
{
	return lanes_cdg_onto_bit(o->used, i);
}

/** @return 1 when the dependency of x's i-th entry onto the channel is known refused */
static inline int lanes_cdg_onto_refused(const struct lanes_cdg_onto *o, uint32_t i)
{
	return o->refused[i] == o->epoch;
}

/**
 * Put layer's channels in the order chan[0..num_channels) (each channel
 * once), a start that makes later adds cheap where their dependencies agree
 * with it. The layer must hold no dependency (just opened).
 */
void lanes_cdg_set_order(struct lanes_cdg *g, uint32_t layer, const uint32_t *chan);

/** @return the number of paths of layer that use dependency dep */
uint32_t lanes_cdg_count(const struct lanes_cdg *g, uint32_t layer, uint32_t dep);

/** @return 1 when layer's order is a topological order of its dependencies (for tests) */
int lanes_cdg_order_holds(const struct lanes_cdg *g, uint32_t layer);

/* ------------------------------- a layer's order (cdg_order.c, for cdg.c) */

/*
 * The channels 0 .. n-1 in one list, in a topological order of a layer;
 * label[c] grows along the list. Index n is the list's head (and tail).
 * The caller provides the arrays: n + 1 entries each.
 */
struct cdg_order {
	uint64_t *label;
	uint32_t *next, *prev;
	uint32_t n;
};

/** All channels in index order. */
void lanes_cdg_order_init(struct cdg_order *o, uint32_t n);

/** All channels in the order chan[0..o->n) (each once), labelled evenly. */
void lanes_cdg_order_set(struct cdg_order *o, const uint32_t *chan);

/** Move nodes[0..k) (not anchor) right after anchor, in that order. */
void lanes_cdg_order_move_after(struct cdg_order *o, uint32_t anchor, const uint32_t *nodes, uint32_t k);

/** Move nodes[0..k) (not anchor) right before anchor, in that order. */
void lanes_cdg_order_move_before(struct cdg_order *o, uint32_t anchor, const uint32_t *nodes, uint32_t k);

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
