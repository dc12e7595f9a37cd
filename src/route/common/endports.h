/*
 * endports.h - the CA and router ports cabled to a switch, i.e. the LIDs an
 * engine routes besides switch LIDs, listed in the order OpenSM 3.3.23
 * routes them (osm_ucast_mgr.c, ucast_mgr_build_lfts with no
 * guid_routing_order file: sort_ports_by_switch_load, then the port GUID
 * table). The order matters because port load counters make each choice
 * depend on the ones before it. Implemented in endports.c.
 */
#ifndef LANES_ROUTE_COMMON_ENDPORTS_H
#define LANES_ROUTE_COMMON_ENDPORTS_H

#include <stdint.h>
#include "lanes/error.h"
#include "lanes/fabric.h"

/** A CA or router port cabled to a switch: one routing destination. */
struct route_endport {
	uint32_t node;   /**< the CA or router node */
	uint32_t sw;     /**< switch index it is cabled to */
	uint32_t lid;    /**< its base LID */
	uint8_t port;    /**< its port number */
	uint8_t sw_port; /**< the switch port it is cabled to */
	uint8_t lmc;     /**< it answers 2^lmc LIDs from lid */
};

/** The end ports of a fabric, in OpenSM's routing order. */
struct route_endports {
	struct route_endport *ep;
	uint32_t n;
	uint8_t max_lmc; /**< largest LMC of an end port or a switch port 0 */
};

/**
 * List the switch-attached CA and router ports in the order OpenSM's
 * ucast_mgr_build_lfts puts them: switches by decreasing number of end-port
 * cables (a stable sort of OpenSM's switch GUID map, whose key is the GUID
 * in network byte order; see lanes_route_osm_guid_key), and behind each switch its
 * end ports in switch port order. Ports with LID 0 are left out, as OpenSM
 * ignores them. CA ports cabled to no switch are not destinations.
 */
int lanes_route_endports_osm_order(const struct lanes_fabric *f, struct route_endports *out,
			     struct lanes_error *err);

/** Free the list (the struct itself is the caller's). */
void lanes_route_endports_free(struct route_endports *eps);

/**
 * One destination switch of a batch: the end ports behind it, which are
 * consecutive in OpenSM's order, and their LIDs at one LMC offset. Engines
 * that find each destination's candidate ports on several workers (minhop,
 * the up* / down* engines) take destinations so, a batch at a time, and
 * then choose ports in OpenSM's order.
 */
struct route_dest {
	uint32_t dst_switch;
	uint32_t first_endport, end_endport; /**< its end ports: eps->ep[first..end) */
	uint32_t first_lid, num_lids;        /**< their LIDs: the batch's lids[first_lid..) */
};

/**
 * Take the end ports from eps->ep[*next] on that sit behind the same switch
 * as destination d: their LIDs base + offset (those whose LMC has that
 * offset) go to lids[first_lid..), and *next moves past them.
 */
void lanes_route_take_dest(const struct route_endports *eps, uint32_t *next, int offset,
			   uint32_t *lids, uint32_t first_lid, struct route_dest *d);

/**
 * The key by which OpenSM's GUID maps (cl_qmap) order nodes and ports: the
 * GUID as stored, in network byte order, read as a host integer. On the
 * little-endian hosts OpenSM runs on, that is the byte-swapped GUID.
 */
uint64_t lanes_route_osm_guid_key(uint64_t guid);

#endif
