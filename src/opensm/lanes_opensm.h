/*
 * lanes_opensm.h - the OpenSM event plugin liblanes_opensm.so (plugin.c)
 * and the lanes fabric it builds from OpenSM's subnet at each sweep
 * (subnet.c). Uses liblanes' public API only.
 *
 * OpenSM's headers: <opensm/osm_config.h> must come before every other one
 * (osm_subnet.h tests ENABLE_OSM_PERF_MGR, which only osm_config.h defines,
 * and the layout of osm_subn_opt_t depends on it).
 */
#ifndef LANES_OPENSM_H
#define LANES_OPENSM_H

#include <opensm/osm_config.h>
#include <complib/cl_qmap.h>
#include <opensm/osm_event_plugin.h>
#include <opensm/osm_node.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_port.h>
#include <opensm/osm_switch.h>
#include <opensm/osm_version.h>

#include "lanes/fabric.h"
#include "lanes/route.h"
#include "lanes/routing.h"

/* OpenSM's node behind each lanes node, sorted by address for update_sl2vl. */
struct osm_node_ref {
	const osm_node_t *node;
	uint32_t index; /* lanes node index */
};

/* One sweep's fabric and routing, and where each lanes node is in OpenSM. */
struct sweep {
	struct lanes_fabric *f;
	struct lanes_routing *r;
	osm_node_t **node;          /* per lanes node index */
	struct osm_node_ref *by_node; /* the same, sorted by OpenSM's node address */
	uint32_t num_nodes;
};

/**
 * The fabric as OpenSM sees it now: every node of node_guid_tbl (in its
 * GUID order), the LIDs and LMC OpenSM assigned, and every cabled port
 * pair (down or missing links are simply not there). @return 0, or a
 * negative LANES_E* code with the message in err
 */
int lanes_osm_sweep_build(osm_subn_t *subn, struct sweep *s, struct lanes_error *err);

/** Free a sweep's fabric, routing and maps; it can then be built again. */
void lanes_osm_sweep_free(struct sweep *s);

/** @return the lanes node index of an OpenSM node, or LANES_NONE */
uint32_t lanes_osm_sweep_find(const struct sweep *s, const osm_node_t *node);

#endif
