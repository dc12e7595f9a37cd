/*
 * layers.h - path SLs and SL2VL maps of the engines that put paths in
 * virtual layers (layers.c), and their budget messages.
 */
#ifndef LANES_ROUTE_COMMON_LAYERS_H
#define LANES_ROUTE_COMMON_LAYERS_H

#include <stddef.h>
#include <stdint.h>
#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/route.h"
#include "lanes/routing.h"

/* ------------------------------------------------ SLs of layered engines */

/*
 * Engines that put paths in virtual layers (dfsssp, lash, nue) use SL =
 * layer = VL (common/layers.c).
 */

/**
 * Give r path SLs per (source switch, destination LID), all 0, without
 * lanes_routing_set_sl_mode()'s 2^30-cell limit (meant for per-pair SLs).
 */
int lanes_route_sls_per_src_switch(struct lanes_routing *r, struct lanes_error *err);

/**
 * One SL2VL map on every switch port pair and every CA or router port:
 * SL i -> VL i for i < nvls, VL 0 beyond.
 */
int lanes_route_sl2vl_identity(struct lanes_routing *r, const struct lanes_fabric *f, uint32_t nvls,
			 struct lanes_error *err);

/**
 * lanes_routing_enable_sl2vl() without clearing the switch pairs' indices
 * (routing.c), for a caller that sets every one of them.
 */
int lanes_route_sl2vl_alloc(struct lanes_routing *r, const struct lanes_fabric *f,
		      struct lanes_error *err);

/** The layers an SL = VL engine may use: the least of opts->max_vls and opts->max_sls. */
uint32_t lanes_route_layer_budget(const struct lanes_route_opts *o);

/** "9", or "more than 16" when n > max; in buf. */
const char *lanes_route_count_text(uint32_t n, uint32_t max, char *buf, size_t size);

/**
 * LANES_ERANGE "ENGINE: needs N VLs, the budget is B (vls B)" (or "sls B",
 * or "vls and sls B": the limit that binds); N above max_layers is written
 * "more than max_layers".
 */
int lanes_route_over_budget(struct lanes_error *err, const char *engine, uint32_t needed,
		      uint32_t max_layers, const struct lanes_route_opts *o);

#endif
