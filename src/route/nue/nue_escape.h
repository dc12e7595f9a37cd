/*
 * nue_escape.h - the escape paths of one nue layer (nue/nue.c): the
 * convex subgraph of the layer's destination switches, its most central
 * switch, a spanning tree from that switch over the current channel weights,
 * and the up*-down* dependencies of the tree paths, used up front in the
 * layer's CDG so that a destination the CDG search cannot complete can
 * always fall back on the tree (Domke's thesis, sections 6.2.3 and 6.2.5;
 * OpenSM 3.3.23 osm_ucast_nue.c: calculate_convex_subnetwork,
 * get_central_node_wrt_subnetwork, calculate_spanning_tree_in_network,
 * mark_escape_paths). See nue_escape.c for the rules and bounds.
 */
#ifndef LANES_NUE_ESCAPE_H
#define LANES_NUE_ESCAPE_H

#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "route/cdg/cdg.h"
#include "route/cdg/channels.h"
#include "route/common/arena.h"
#include "core/heap.h"

struct nue_escape {
	const struct lanes_fabric *f;
	uint32_t ns;
	uint32_t *down;     /* per switch: the entry parent -> it, or LANES_NONE (a root) */
	uint8_t *onchain;   /* per switch: an ancestor-or-self of a switch given down paths */
	/* scratch */
	uint32_t *q, *dist, *seen, stamp;
	uint32_t *nb;       /* per adjacency entry: its switch (a compact copy) */
	uint8_t *hull;
	double *sigma, *delta, *bc;
	struct lanes_heap heap; /* lazy, binary: the tree's Dijkstra */
};

/** Make the arrays (from a). */
int lanes_nue_escape_init(struct nue_escape *x, const struct lanes_fabric *f, struct route_arena *a,
		    struct lanes_error *err);

/** Forget the trees: every switch its own root. */
void lanes_nue_escape_clear(struct nue_escape *x);

/**
 * The root of component c's tree: the most central switch of the convex
 * subgraph of the switches with tw[s] > 0 (tw: destination LIDs behind s).
 * nds: how many such switches; edges: adjacency entries of the component.
 */
uint32_t lanes_nue_escape_root(struct nue_escape *x, const uint32_t *comp, uint32_t c,
			 const double *tw, uint32_t nds, uint64_t edges);

/** The spanning tree of root's component, Dijkstra over weight w0 + load[entry]. */
void lanes_nue_escape_tree(struct nue_escape *x, uint32_t root, const uint64_t *load, uint64_t w0);

/**
 * Use in layer of cdg (channels ch) the dependencies of the tree paths from
 * every switch up to its root, and down from the root to every switch s
 * with want[s] (with the turns between them), each even where the layer
 * refused it before. @return 0 all used; 1 one would close a cycle (the
 * layer keeps what was added)
 */
int lanes_nue_escape_mark(struct nue_escape *x, struct lanes_cdg *cdg, uint32_t layer,
			  const struct route_channels *ch, const uint8_t *want);

#endif
