/*
 * nue_dests.h - the destination LIDs of the nue engine (nue/nue.c): the
 * CA and router LIDs, in routing order, with their switch, port, virtual
 * layer and the source LIDs behind every switch. See nue_dests.c for the order and the layers.
 */
#ifndef LANES_NUE_DESTS_H
#define LANES_NUE_DESTS_H

#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "route/common/arena.h"
#include "route/common/endports.h"

struct nue_dests {
	const struct lanes_fabric *f;
	uint32_t k;        /* layers, at most the k asked for */
	uint32_t nd;       /* destination LIDs */
	uint32_t *lid, *sw; /* per destination: LID, switch it is at or behind */
	uint8_t *port;     /* per destination: that switch's port to it */
	uint8_t *layer;    /* per destination: layer, 0..k-1 */
	uint64_t *hca;     /* per switch: source LIDs there (its end ports') */
};

/** List, order and layer the destinations of f (eps: its end ports); the arrays from a. */
int lanes_nue_dests_build(struct nue_dests *d, const struct lanes_fabric *f,
		    const struct route_endports *eps, uint32_t k, struct route_arena *a,
		    struct lanes_error *err);

#endif
