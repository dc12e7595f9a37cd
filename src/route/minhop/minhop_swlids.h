/*
 * minhop_swlids.h - minhop's switch LIDs, every destination switch at once
 * (minhop_swlids.c). Not public API.
 */
#ifndef LANES_MINHOP_SWLIDS_H
#define LANES_MINHOP_SWLIDS_H

#include <stdint.h>

#include "lanes/fabric.h"
#include "lanes/routing.h"
#include "route/common/load.h"

/* Scratch, allocated once per routing. */
struct minhop_swlids {
	uint8_t *ans;   /* per destination switch: the port of the switch at hand */
	uint64_t *open; /* per 8 destinations: the bytes not answered yet (high bits) */
	uint32_t *idx;  /* the switch's adjacency entries, by load */
	uint8_t **col;  /* the LFT columns of the switch LIDs */
	uint32_t *to;   /* their switches */
};

int lanes_minhop_swlids_init(struct minhop_swlids *w, const struct lanes_fabric *f,
		       struct lanes_error *err);
void lanes_minhop_swlids_free(struct minhop_swlids *w);

/*
 * Every switch's own LID (LID base, uncounted) into r, as minhop routes
 * it after all end ports when there is one pass: at every switch, the
 * first least-loaded min-hop port (load: the counters the end ports left);
 * port 0 at the switch itself; LANES_PORT_DROP where unreachable.
 */
void lanes_minhop_swlids_route(struct minhop_swlids *w, const struct lanes_fabric *f,
			 const uint8_t *dist, const struct route_load *load,
			 struct lanes_routing *r);

#endif
