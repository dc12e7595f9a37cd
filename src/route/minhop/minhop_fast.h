/*
 * minhop_fast.h - minhop's switch LIDs with one pass, every destination
 * switch at once (minhop_fast.c), beside the reference per-destination
 * route_switch of minhop.c. Not public API.
 */
#ifndef LANES_ROUTE_MINHOP_FAST_H
#define LANES_ROUTE_MINHOP_FAST_H

#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/routing.h"
#include "route/common/load.h"

/** A worker's scratch. */
struct minhop_fast {
	uint8_t *answer;             /* per destination switch: the port of the switch at hand */
	uint32_t *open_destinations; /* the destination switches not answered yet */
	uint32_t *entries_by_load;   /* the switch's adjacency entries, by its ports' loads */
	uint32_t *lid_switches;      /* the switches with a LID */
	uint32_t *lid_of;            /* their LIDs */
	uint32_t num_lid_switches;
};

int lanes_minhop_fast_init(struct minhop_fast *fast, const struct lanes_fabric *f,
			   struct lanes_error *err);
void lanes_minhop_fast_free(struct minhop_fast *fast);

/*
 * Every switch's own LID (LID base, uncounted) at the switches
 * first..end - 1, into r, as minhop routes it after all end ports when
 * there is one pass: at each switch, the first least-loaded min-hop port
 * (load: the counters the end ports left); port 0 at the switch itself;
 * LANES_PORT_DROP where unreachable.
 */
void lanes_minhop_fast_switch_lids(struct minhop_fast *fast, const struct lanes_fabric *f,
				   const uint8_t *dist, const struct route_load *load,
				   struct lanes_routing *r, uint32_t first, uint32_t end);

#endif
