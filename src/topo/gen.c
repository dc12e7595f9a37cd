/*
 * gen.c - naming, GUIDs and cabling shared by the generators.
 */
#include "gen.h"

#include <stdio.h>

#define SWITCH_GUID_BASE 0x0002c90300a00000ULL
#define HOST_GUID_BASE 0x0002c90301000000ULL

void gen_init(struct gen *g, struct lanes_builder *b, const char *kind)
{
	g->b = b;
	g->kind = kind;
	g->switches = 0;
	g->hosts = 0;
	g->width = 4;
	g->speed = LANES_SPEED_QDR;
}

int gen_check_radix(const char *kind, uint64_t radix, const char *what, struct lanes_error *err)
{
	if (radix < 1 || radix > LANES_PORTS_MAX)
		return lanes_error_set(err, LANES_EINVAL,
				       "%s: switches would need %llu ports (%s); at most %d fit",
				       kind, (unsigned long long)radix, what, LANES_PORTS_MAX);
	return 0;
}

int gen_switch(struct gen *g, unsigned nports, const char *label, uint32_t *out,
	       struct lanes_error *err)
{
	char desc[128];
	uint64_t guid = SWITCH_GUID_BASE + g->switches;
	struct lanes_node_spec spec = { LANES_NODE_SWITCH, 0, guid, guid, 0x02c9, 0xd2f0, desc };
	int rc;

	if ((rc = gen_check_radix(g->kind, nports, "port count", err)))
		return rc;
	spec.nports = (uint8_t)nports;
	snprintf(desc, sizeof(desc), "MF0;%s-%s:MQM8700/U1", g->kind, label);
	if ((rc = lanes_builder_add_node(g->b, &spec, out, err)))
		return rc;
	g->switches++;
	return 0;
}

int gen_hosts(struct gen *g, uint32_t sw, unsigned first, unsigned count,
	      struct lanes_error *err)
{
	char desc[64];

	for (unsigned i = 0; i < count; i++) {
		uint64_t guid = HOST_GUID_BASE + (uint64_t)g->hosts * 4;
		struct lanes_node_spec spec = { LANES_NODE_CA, 1, guid, guid, 0x02c9, 0x101b, desc };
		uint32_t node;
		int rc;

		snprintf(desc, sizeof(desc), "node%05u HCA-1", g->hosts);
		if ((rc = lanes_builder_add_node(g->b, &spec, &node, err)) ||
		    (rc = gen_cable(g, sw, first + i, node, 1, err)))
			return rc;
		g->hosts++;
	}
	return 0;
}

int gen_cable(struct gen *g, uint32_t a, unsigned pa, uint32_t b, unsigned pb,
	      struct lanes_error *err)
{
	return lanes_builder_connect(g->b, a, (uint8_t)pa, b, (uint8_t)pb, g->width, g->speed, err);
}
