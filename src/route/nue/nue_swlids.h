/*
 * nue_swlids.h - the switch LIDs of the nue engine (nue/nue.c), outside
 * the CDG: shortest paths, per switch the least-loaded min-hop port by
 * minhop's rule (common/load.h), the loads being the CA LIDs routed per
 * port; SL 0. See nue_swlids.c.
 */
#ifndef LANES_NUE_SWLIDS_H
#define LANES_NUE_SWLIDS_H

#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/routing.h"
#include "route/common/arena.h"

/**
 * Route every switch LID of f into r's LFT, the loads counted from the
 * columns of the nd CA LIDs lids[]; scratch from a. @return 0, or LANES_ENOMEM
 */
int lanes_nue_switch_lids(const struct lanes_fabric *f, struct lanes_routing *r, const uint32_t *lids,
		    uint32_t nd, struct route_arena *a, struct lanes_error *err);

#endif
