/*
 * fabric.c - freeing a frozen fabric, lookups, and the names of node types
 * and link speeds as ibnetdiscover prints them.
 */
#include "lanes/fabric.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

void lanes_fabric_free(struct lanes_fabric *f)
{
	if (!f)
		return;
	for (uint32_t i = 0; i < f->num_nodes; i++)
		free(f->nodes[i].desc);
	for (uint32_t i = 0; i < f->num_warnings; i++)
		free(f->warnings[i]);
	free(f->warnings);
	free(f->nodes);
	free(f->ports);
	free(f->switches);
	free(f->adj_off);
	free(f->adj);
	free(f->links);
	free(f->lid_owner);
	free(f);
}

uint32_t lanes_fabric_lid(const struct lanes_fabric *f, uint32_t node, uint8_t port)
{
	if (f->nodes[node].type == LANES_NODE_SWITCH)
		port = 0;
	return lanes_fabric_port(f, node, port)->lid;
}

uint32_t lanes_fabric_lid_node(const struct lanes_fabric *f, uint32_t lid)
{
	return lid <= f->max_lid ? f->lid_owner[lid].node : LANES_NONE;
}

uint32_t lanes_fabric_find_guid(const struct lanes_fabric *f, uint64_t guid)
{
	for (uint32_t i = 0; i < f->num_nodes; i++)
		if (f->nodes[i].guid == guid)
			return i;
	return LANES_NONE;
}

const char *lanes_node_type_name(int type)
{
	switch (type) {
	case LANES_NODE_CA: return "ca";
	case LANES_NODE_SWITCH: return "switch";
	case LANES_NODE_ROUTER: return "router";
	default: return "unknown";
	}
}

static const char *const speed_names[LANES_SPEED_COUNT] = {
	"", "SDR", "DDR", "QDR", "FDR10", "FDR", "EDR", "HDR", "NDR", "XDR"
};

/* Data rate per lane after line encoding (8b/10b up to QDR, 64b/66b after). */
static const double speed_gbps[LANES_SPEED_COUNT] = {
	0.0, 2.0, 4.0, 8.0, 10.0, 13.64, 25.0, 50.0, 100.0, 200.0
};

const char *lanes_speed_name(int speed)
{
	return speed > 0 && speed < LANES_SPEED_COUNT ? speed_names[speed] : "";
}

int lanes_speed_parse(const char *name, size_t len)
{
	for (int s = 1; s < LANES_SPEED_COUNT; s++)
		if (strlen(speed_names[s]) == len && !strncasecmp(name, speed_names[s], len))
			return s;
	return LANES_SPEED_UNKNOWN;
}

double lanes_speed_gbps(int speed)
{
	return speed > 0 && speed < LANES_SPEED_COUNT ? speed_gbps[speed] : 0.0;
}
