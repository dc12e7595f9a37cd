/*
 * dfdn.h - the VL-hopping pass of the dfdn engines (dfdn_hops.c), which
 * dfdn.c runs on the LFTs of its base engine.
 */
#ifndef LANES_ROUTE_DFDN_H
#define LANES_ROUTE_DFDN_H

#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/route.h"
#include "lanes/routing.h"

/* Longest path the pass handles: VL i on hop i must stay below VL 15. */
#define DFDN_MAX_HOPS 15

/** What the pass found. */
struct dfdn_result {
	uint32_t longest_path; /**< switch-to-switch hops of the longest endport path */
	uint32_t sls_needed;   /**< 1 + the highest SL first fit gave; 17 = more than 16 */
	int too_long;          /**< a path is longer than DFDN_MAX_HOPS hops */
};

/**
 * Give every endport-to-endport path of r (its LFTs) an SL per (source
 * switch, destination LID) and fill the SL2VL maps so that the VL on the
 * path's i-th switch-to-switch hop is i (dfdn.c explains the rules).
 * On 0, res says what it needed; r's SLs and maps are set only when the
 * paths fit in 16 SLs and DFDN_MAX_HOPS hops (res->sls_needed <= 16 and
 * !res->too_long). Of opts, threads (the result does not depend on it)
 * and progress (phase "path SLs", a unit per endport LID) are read. Fails
 * only for out of memory.
 */
int lanes_dfdn_assign(const struct lanes_fabric *f, struct lanes_routing *r,
		      const struct lanes_route_opts *opts, struct dfdn_result *res,
		      struct lanes_error *err);

#endif
