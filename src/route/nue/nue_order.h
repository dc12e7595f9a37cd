/*
 * nue_order.h - the order a fresh nue layer's CDG starts from (nue_order.c):
 * a list of the channels that the layer's first dependencies agree with,
 * for lanes_cdg_set_order (cdg/cdg.h).
 */
#ifndef LANES_NUE_ORDER_H
#define LANES_NUE_ORDER_H

#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "route/common/arena.h"
#include "route/cdg/channels.h"

struct nue_order {
	const struct lanes_fabric *f;
	const struct route_channels *ch;
	uint32_t *hops;   /* per switch: from the nearest destination switch; then from the nearest root */
	uint32_t *queue;  /* per switch: the BFS's */
	uint32_t *bucket; /* per channel: by the destinations; then by the roots */
	uint32_t *count;  /* the counting sort's counters */
	uint32_t *list, *tmp; /* per channel: the order, and the sort's scratch */
};

/** Make the arrays (from a). @return 0, or LANES_ENOMEM */
int lanes_nue_order_init(struct nue_order *o, const struct lanes_fabric *f, const struct route_channels *ch,
			 struct route_arena *a, struct lanes_error *err);

/**
 * The start of a fresh layer's order (nothing used): the channels away from
 * the destination switches (want[s]) first, the nearest first, then those
 * between switches as near, then those toward them, the farthest first;
 * within each, up*-down* from the roots (toward a root first, the deepest
 * first, across, away, the shallowest first). Routes up then down agree
 * with it, so their dependencies go in without a search; only the time
 * changes. @return the list of all channels, in o's arrays
 */
const uint32_t *lanes_nue_order_from(struct nue_order *o, const uint32_t *roots, uint32_t nroots,
				     const uint8_t *want);

#endif
