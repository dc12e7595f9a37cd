/*
 * lash_internal.h - the state the lash engine (lash/lash.c) shares with
 * lash_layers.c, which puts the switch pairs in virtual layers with acyclic
 * channel dependencies and balances them. Not public API. Skeie, Lysne,
 * Theiss, IPDPS 2002, as OpenSM 3.3.23 osm_ucast_lash.c does it;
 * lash/lash.c says how.
 *
 * Invariants: port is fixed once the paths are made; lay is symmetric (the
 * paths s->t and t->s share a layer); the layer of a pair holds both its
 * paths in cdg, whose layers stay acyclic.
 */
#ifndef LANES_LASH_INTERNAL_H
#define LANES_LASH_INTERNAL_H

#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/route.h"
#include "lanes/routing.h"
#include "route/cdg/channels.h"
#include "route/cdg/cdg.h"

#define LASH_MAX_LAYERS LANES_NUM_SLS
#define LASH_NO_LAYER 0xff /* pair_layer of a pair without paths */

struct lash {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	struct lanes_routing *r;
	uint32_t ns;         /* switches */
	struct route_channels ch; /* channels and dependency numbers */
	struct lanes_cdg *cdg;    /* the layers' dependency graphs (cdg/cdg.c) */
	uint64_t pairs[LASH_MAX_LAYERS]; /* per layer: the switch pairs in it */
	uint32_t nlayers;    /* layers open */
	uint32_t *osm;       /* OpenSM's ids: osm[id] = switch index */
	uint8_t *port;       /* port[t * ns + x]: x's port toward switch t, 0 at t */
	uint8_t *lay;        /* lay[t * ns + s]: the layer of the pair {s, t} */
	uint32_t *id;        /* per switch: its OpenSM id (osm's inverse) */
	uint8_t *pair_layer; /* [a * ns + b], ids a < b: the pair's layer, or LASH_NO_LAYER */
	void *block;         /* osm, port, lay and the scratch below, one malloc (lash/lash.c) */
	/* scratch */
	uint32_t *queue, *parent;
	uint8_t *pport;
	uint32_t *there, *back; /* the channels of a pair's two paths (load_pair) */
	uint32_t n_there, n_back;
};

/** Open layer k: empty, its channels in index order; nlayers covers it. */
int lanes_lash_open_layer(struct lash *l, uint32_t k, struct lanes_error *err);

/**
 * Layer the joined pairs in OpenSM's order, (0,1), (0,2), ... in id order;
 * *needed: the layers, or LASH_MAX_LAYERS + 1 when they do not suffice.
 */
int lanes_lash_layer_osm_order(struct lash *l, uint32_t *needed, struct lanes_error *err);

/** Layer them again by first fit, longest paths first, then OpenSM's order; *needed as above. */
int lanes_lash_layer_longest_first(struct lash *l, uint32_t *needed, struct lanes_error *err);

/** OpenSM's balance_virtual_lanes over the layers needed (lash_layers.c says how). */
int lanes_lash_balance(struct lash *l, struct lanes_error *err);

#endif
