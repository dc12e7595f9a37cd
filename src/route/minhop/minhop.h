/*
 * minhop.h - OpenSM's Min Hop tables, which dnup falls back on (minhop.c).
 */
#ifndef LANES_ROUTE_MINHOP_H
#define LANES_ROUTE_MINHOP_H

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/route.h"
#include "lanes/routing.h"
#include "route/cdg/cdg.h"
#include "route/common/load.h"

/**
 * OpenSM's Min Hop tables (minhop/minhop.c). With check, every CA LID's
 * routes go through it as they are made, and the first cycle ends the work:
 * then 0 and *out NULL.
 */
int lanes_route_minhop(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct route_cdg_check *check, struct lanes_routing **out, struct lanes_error *err);

/**
 * lanes_route_minhop is fast 1: the switch LIDs by minhop_fast.c where it
 * pays (minhop.c want_fast); fast 0: one destination switch at a time, the
 * reference that minhop_fast.c shadows; fast 2: minhop_fast.c wherever it
 * applies (the unit tests compare them: the tables must be the same).
 */
int lanes_minhop_route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		       struct route_cdg_check *check, int fast, struct lanes_routing **out,
		       struct lanes_error *err);

/**
 * A change to the min-hop ports toward one destination switch, made before
 * minhop chooses among them: it may only drop ports (a switch left with one
 * moves to h->one). dor/dor.c keeps each switch's first dimension only.
 */
typedef void (*lanes_minhop_narrow_fn)(struct route_hop_ports *h, const struct lanes_fabric *f);

/**
 * lanes_route_minhop (no check) with narrow applied to the min-hop ports of
 * every destination switch; switch LIDs by the reference path (fast 0), as
 * minhop_fast.c knows nothing of narrow; LIDs base + i, i > 0, by OpenSM's
 * dor variant of the LMC preference (load.c, route_peers.dor), the one
 * caller being dor.
 */
int lanes_minhop_route_narrowed(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
				lanes_minhop_narrow_fn narrow, struct lanes_routing **out,
				struct lanes_error *err);

#endif
