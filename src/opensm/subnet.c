/*
 * subnet.c - a lanes fabric from OpenSM's subnet, as it stands when OpenSM
 * asks its routing engine for tables (after discovery and LID assignment):
 * every node of the node GUID table, in that order; each node's ports with
 * the GUID, base LID and LMC OpenSM assigned (a switch's LID on port 0);
 * every port with a remote port as a cable, with its width and speed. A
 * link that went down is not in the subnet, so a re-sweep sees the fabric
 * without it. The builder keeps the LIDs it is given.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes_opensm.h"

static int node_type(const osm_node_t *n)
{
	switch (osm_node_get_type(n)) {
	case IB_NODE_TYPE_SWITCH: return LANES_NODE_SWITCH;
	case IB_NODE_TYPE_ROUTER: return LANES_NODE_ROUTER;
	default: return LANES_NODE_CA;
	}
}

/* Node n and its ports' GUIDs and LIDs into the builder, as lanes node i. */
static int add_node(struct lanes_builder *b, osm_node_t *n, struct lanes_error *err)
{
	uint8_t nports = (uint8_t)(osm_node_get_num_physp(n) - 1);
	struct lanes_node_spec spec = {
		.type = (uint8_t)node_type(n),
		.nports = nports ? nports : 1,
		.guid = cl_ntoh64(osm_node_get_node_guid(n)),
		.sysimage_guid = cl_ntoh64(n->node_info.sys_guid),
		.vendor_id = cl_ntoh32(ib_node_info_get_vendor_id(&n->node_info)),
		.device_id = cl_ntoh16(n->node_info.device_id),
		.desc = n->print_desc,
	};
	uint32_t i;
	int rc;

	if ((rc = lanes_builder_add_node(b, &spec, &i, err)))
		return rc;
	for (uint8_t p = spec.type == LANES_NODE_SWITCH ? 0 : 1; p <= nports; p++) {
		osm_physp_t *ph = osm_node_get_physp_ptr(n, p);

		if (!ph || !osm_physp_is_valid(ph))
			continue;
		if (spec.type == LANES_NODE_SWITCH && p > 0)
			continue; /* a switch's LID and LMC are port 0's */
		if ((rc = lanes_builder_set_port(b, i, p, cl_ntoh64(osm_physp_get_port_guid(ph)),
						 cl_ntoh16(osm_physp_get_base_lid(ph)),
						 osm_physp_get_lmc(ph), err)))
			return rc;
	}
	return 0;
}

/* The cables of node n (lanes node i): each port with a remote port. */
static int add_cables(struct lanes_builder *b, const struct sweep *s, uint32_t i,
		      struct lanes_error *err)
{
	osm_node_t *n = s->node[i];

	for (uint8_t p = 1; p < osm_node_get_num_physp(n); p++) {
		osm_physp_t *ph = osm_node_get_physp_ptr(n, p), *rp;
		uint32_t peer;
		int rc;

		if (!ph || !(rp = osm_physp_get_remote(ph)))
			continue;
		peer = lanes_osm_sweep_find(s, osm_physp_get_node_ptr(rp));
		if (peer == LANES_NONE)
			continue;
		if ((rc = lanes_builder_connect(b, i, p, peer, osm_physp_get_port_num(rp), 0, 0, err)))
			return rc;
	}
	return 0;
}

static int by_address(const void *pa, const void *pb)
{
	const struct osm_node_ref *a = pa, *b = pb;

	return (a->node > b->node) - (a->node < b->node);
}

/* s->node and s->by_node for the nodes of node_guid_tbl. @return their count */
static uint32_t list_nodes(osm_subn_t *subn, struct sweep *s)
{
	uint32_t n = 0;

	for (cl_map_item_t *it = cl_qmap_head(&subn->node_guid_tbl);
	     it != cl_qmap_end(&subn->node_guid_tbl); it = cl_qmap_next(it), n++) {
		s->node[n] = (osm_node_t *)it;
		s->by_node[n] = (struct osm_node_ref){ s->node[n], n };
	}
	qsort(s->by_node, n, sizeof(*s->by_node), by_address);
	s->num_nodes = n;
	return n;
}

int lanes_osm_sweep_build(osm_subn_t *subn, struct sweep *s, struct lanes_error *err)
{
	size_t count = cl_qmap_count(&subn->node_guid_tbl);
	struct lanes_builder *b = NULL;
	uint32_t n;
	int rc;

	s->node = malloc(sizeof(*s->node) * (count + 1));
	s->by_node = malloc(sizeof(*s->by_node) * (count + 1));
	if (!s->node || !s->by_node)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory for %zu nodes", count);
	n = list_nodes(subn, s);
	if ((rc = lanes_builder_new(&b, err)))
		return rc;
	for (uint32_t i = 0; i < n; i++)
		if ((rc = add_node(b, s->node[i], err))) {
			lanes_builder_free(b);
			return rc;
		}
	for (uint32_t i = 0; i < n; i++)
		if ((rc = add_cables(b, s, i, err))) {
			lanes_builder_free(b);
			return rc;
		}
	return lanes_builder_finish(b, &s->f, err);
}

uint32_t lanes_osm_sweep_find(const struct sweep *s, const osm_node_t *node)
{
	size_t lo = 0, hi = s->num_nodes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->by_node[mid].node == node)
			return s->by_node[mid].index;
		if (s->by_node[mid].node < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	return LANES_NONE;
}

void lanes_osm_sweep_free(struct sweep *s)
{
	lanes_routing_free(s->r);
	lanes_fabric_free(s->f);
	free(s->node);
	free(s->by_node);
	memset(s, 0, sizeof(*s));
}
