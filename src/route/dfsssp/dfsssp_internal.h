/*
 * dfsssp_internal.h - the state the dfsssp engine (dfsssp/dfsssp.c) shares
 * with its helpers: dfsssp_units.c (the path units), dfsssp_overlap.c (made
 * while sssp routes), dfsssp_cdg.c (their channel dependency graph),
 * dfsssp_layers.c (cycle breaking and first fit), dfsssp_one_fast.c (one layer
 * without units), dfsssp_split.c (destinations on two threads),
 * arena.c (the per-call arrays).
 * Not public API. Follows OpenSM 3.3.23
 * osm_ucast_dfsssp.c and Domke, Hoefler, Nagel, "Deadlock-Free Oblivious
 * Routing for Arbitrary Topologies", IPDPS 2011;
 * dfsssp/dfsssp.c says how.
 *
 * Invariants: unit u's dependencies are unit_deps[unit[u].off .. unit[u + 1].off),
 * in path order, and weigh unit[u].w LID pairs; layer[u] is its layer;
 * layer_pairs[l][k] is the LID pairs of layer l that make dependency k (rebuilt for
 * a layer when its turn comes; once the layers are assigned nothing reads
 * it, and it may be first fit's when OpenSM's layering was restored).
 * Everything iterates in index order.
 */
#ifndef LANES_DFSSSP_INTERNAL_H
#define LANES_DFSSSP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/route.h"
#include "lanes/routing.h"
#include "route/common/arena.h"
#include "route/common/endports.h"
#include "route/sssp/sssp.h"
#include "route/cdg/channels.h"
#include "route/cdg/cycles.h"
#include "core/parallel.h"

#define DFSSSP_MAX_LAYERS LANES_NUM_SLS
#define DFSSSP_SPLIT_MIN 256      /* switches from which dfsssp takes a second thread */
#define DFSSSP_FF_ABOVE 8         /* OpenSM's layering needs more: first fit tries too */
#define DFSSSP_ROOM 2048          /* bytes of the arena's first room, on the stack */

/* A unit's dependencies are unit_deps[off .. next unit's off); w: its LID pairs. */
struct dfsssp_unit {
	uint32_t off, w;
};

struct dfsssp {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	struct lanes_routing *r;
	struct route_arena arena; /* the arrays below unless they say otherwise */
	uint32_t ns;              /* switches */
	struct route_channels ch; /* channels and dependency numbers */
	/* destinations and path grouping */
	struct route_endports eps;
	uint32_t *dst_off, *dst;  /* per switch: the end-port LIDs behind it */
	uint32_t maxk;            /* most end-port LIDs behind one switch */
	uint8_t *dist;            /* all-pairs switch hops (malloc) */
	uint32_t *order, norder;  /* switches by hops from the current destination switch */
	uint32_t *same_path_as;   /* per (switch, i): the first i' whose path is LID i's */
	uint8_t *varies;          /* per switch: the LIDs of t do not all share its path */
	uint32_t *scratch_first, *scratch_group, *unit_id; /* per LID of t: scratch */
	uint32_t *path_unit;      /* per (switch, i): the unit of LID i's path, or LANES_NONE */
	int grouping_in_sl_cells;           /* the grouping waits in the SL cells */
	int reference;            /* no *_fast.c shortcut (lanes_dfsssp_route) */
	int one_layer;            /* the paths' CDG is acyclic: no units (dfsssp_one_fast.c) */
	uint32_t longer;          /* a switch whose path is not a shortest one, or LANES_NONE */
	uint32_t *t_order, nt;    /* destination switches in routing order; nt routed so far
				     (with the units thread, the queue counts them) */
	struct dfsssp_queue *q;   /* the units thread, on large fabrics (dfsssp_overlap.c) */
	/* units: (source switch, one distinct path to a destination switch) */
	uint32_t nunits;
	struct dfsssp_unit *unit; /* nunits + 1 (malloc, grows) */
	uint32_t *t_unit;         /* per destination switch: its first unit */
	uint32_t *unit_deps;      /* each unit's dependencies, in path order (malloc, grows) */
	uint8_t *layer;
	size_t u_cap, dep_cap, ndep_refs;
	/* dependencies */
	struct route_deps deps;   /* the dependencies some unit makes, listed (cdg/cycles.h):
				     numbered 0 .. deps.n - 1 in dependency-number order */
	size_t *dep_units_off;    /* per dependency: its units in dep_units */
	uint32_t *dep_units;
	uint64_t *layer_pairs[DFSSSP_MAX_LAYERS]; /* per layer and dependency: LID pairs */
	uint64_t *spare;          /* a second thread's counts (dfsssp_layers.c), or NULL */
	uint64_t paths[DFSSSP_MAX_LAYERS];
	uint32_t nlayers;
	uint32_t greedy;          /* layers OpenSM's way (DFSSSP_MAX_LAYERS + 1: too many) */
	/* searches */
	uint32_t *chan;           /* one path's channels */
	uint8_t split[DFSSSP_MAX_LAYERS], start[DFSSSP_MAX_LAYERS];
};

/** @return the end-port LIDs behind switch s */
static inline uint32_t dfsssp_lids_at(const struct dfsssp *d, uint32_t s)
{
	return d->dst_off[s + 1] - d->dst_off[s];
}

/** Does CA traffic from s to t cross two switch-to-switch links or more? */
static inline int dfsssp_has_dependency(const struct dfsssp *d, uint32_t s, uint32_t t)
{
	uint8_t h = d->dist[(size_t)t * d->ns + s];

	return h != 255 && h >= 2 && dfsssp_lids_at(d, s);
}

/* dfsssp.c */

/**
 * The dfsssp engine's routing. reference: none of the shortcuts kept for
 * speed (dfsssp_one_fast.c, the fast Dijkstra step of sssp_osm_dijkstra.c):
 * the same tables, slower; the tests compare the two.
 */
int lanes_dfsssp_route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		       int reference, struct lanes_routing **out, struct lanes_error *err);

/* dfsssp_units.c */

/** A thread's scratch: order, same_path_as, path_unit, varies, scratch_first, scratch_group, unit_id, chan. */
int lanes_dfsssp_alloc_scratch(struct dfsssp *d, struct lanes_error *err);

/** What every destination's units need: destinations, distances, scratch, t_unit. */
int lanes_dfsssp_units_setup(struct dfsssp *d, struct lanes_error *err);

/** The units toward t (its end-port LIDs routed), appended to d's; t_unit[t] their first. */
int lanes_dfsssp_units_to(struct dfsssp *d, uint32_t t, struct lanes_error *err);

/** The switches that reach t, by hops, into order and norder. */
void lanes_dfsssp_sort_by_hops(struct dfsssp *d, uint32_t t);

/** Group the LIDs behind t by path (same_path_as, varies), for every switch that reaches t. */
void lanes_dfsssp_group_paths(struct dfsssp *d, uint32_t t);

/** Room for more references in unit_deps. */
int lanes_dfsssp_grow_deps(struct dfsssp *d, size_t more, struct lanes_error *err);

/* dfsssp_cdg.c */

/** Dependencies by number in the units; each dependency's units; layer 0's counts. */
int lanes_dfsssp_build_cdg(struct dfsssp *d, struct lanes_error *err);

/* dfsssp_split.c */

/** Work toward destination switch t, on d or on a view of it. */
typedef int (*dfsssp_dest_fn)(struct dfsssp *v, uint32_t t, void *arg, struct lanes_error *err);

/** Does d take a second thread (DFSSSP_SPLIT_MIN switches or more, or as the caller asks)? */
static inline int dfsssp_two_threads(const struct dfsssp *d)
{
	return lanes_threads_wanted(d->opts->threads, d->ns, DFSSSP_SPLIT_MIN);
}

/** The workers for d's destinations (and its distances): 1, or as many as opts->threads allows. */
static inline unsigned dfsssp_workers(const struct dfsssp *d)
{
	return dfsssp_two_threads(d) ? lanes_threads_for(d->opts->threads, d->ns) : 1;
}

/**
 * fn for every destination switch with end ports, in ranges: the first on
 * d, each other one on a thread of its own on a view of d (its own
 * scratch), as many as opts->threads allows on large fabrics.
 */
int lanes_dfsssp_split(struct dfsssp *d, dfsssp_dest_fn fn, void *arg, struct lanes_error *err);

/** w: a view of d, with its own scratch and no units. */
int lanes_dfsssp_view_init(struct dfsssp *w, const struct dfsssp *d, struct lanes_error *err);

/** Free a view's own scratch and units. */
void lanes_dfsssp_view_free(struct dfsssp *w);

/* dfsssp_overlap.c */

/** Before lanes_route_sssp: the units thread on large fabrics; prog gets lanes_route_sssp's progress. */
int lanes_dfsssp_units_begin(struct dfsssp *d, struct sssp_progress *prog, struct lanes_error *err);

/** The threads for lanes_route_sssp beside the units thread (opts->threads in all). */
unsigned lanes_dfsssp_sssp_threads(const struct dfsssp *d);

/** After lanes_route_sssp (it returned sssp_rc): every unit, numbered in routing order. */
int lanes_dfsssp_units_end(struct dfsssp *d, int sssp_rc, struct lanes_error *err);

/** The queue and the units thread (stopped if it still runs). */
void lanes_dfsssp_units_free(struct dfsssp *d);

/* dfsssp_one_fast.c */

/**
 * d->one_layer = 1 when the CDG of every CA-to-CA path toward t_order[0 ..
 * nt) is acyclic and those paths are shortest (after lanes_dfsssp_units_setup).
 */
int lanes_dfsssp_one_layer(struct dfsssp *d, struct lanes_error *err);

/* dfsssp_estimate.c */

/** Bytes dfsssp needs beside the tables, estimated before routing (the engine's scratch_bytes). */
uint64_t lanes_dfsssp_scratch_bytes(const struct lanes_fabric *f,
				    const struct lanes_route_opts *opts);

/* dfsssp_layers.c */

/** OpenSM's layering; d->nlayers = DFSSSP_MAX_LAYERS + 1 when the SLs do not suffice. */
int lanes_dfsssp_make_layers(struct dfsssp *d, struct lanes_error *err);

/**
 * LASH's first fit, longest paths first; *needed receives the layers used,
 * DFSSSP_MAX_LAYERS + 1 when they do not suffice.
 */
int lanes_dfsssp_first_fit(struct dfsssp *d, uint32_t *needed, struct lanes_error *err);

#endif
