/*
 * nue.h - the nue engine's entry for its tests (nue/nue.c; the engine
 * itself is lanes_engine_nue in route/engines.h). Not public API.
 */
#ifndef LANES_NUE_H
#define LANES_NUE_H

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/route.h"
#include "lanes/routing.h"

/**
 * Route f with nue as lanes_engine_nue does, with (use_fast 1, the
 * engine's way) or without the BFS shortcut of the search (nue_fast.c),
 * which gives the same tables. @return 0, or a negative LANES_E* code
 */
int lanes_nue_route(const struct lanes_fabric *f, const struct lanes_route_opts *opts, int use_fast,
		    struct lanes_routing **out, struct lanes_error *err);

#endif
