/*
 * lids.h - the LIDs that end at each switch, for the engines that route per
 * destination switch from structure (slimfly, ecube, hyperx): a switch's own
 * LIDs and those of the CA ports cabled to it, in LID order.
 */
#ifndef LANES_ROUTE_COMMON_LIDS_H
#define LANES_ROUTE_COMMON_LIDS_H

#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"

/** lid[first[s] .. first[s + 1]): the LIDs of switch s, ascending. */
struct route_switch_lids {
	uint32_t *first; /**< per switch + 1 */
	uint32_t *lid;
};

int lanes_route_switch_lids_init(struct route_switch_lids *l, const struct lanes_fabric *f,
				 struct lanes_error *err);
void lanes_route_switch_lids_free(struct route_switch_lids *l);

#endif
