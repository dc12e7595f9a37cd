/*
 * gen.c - naming, GUIDs, cabling and size checks shared by the generators
 * (the GUID layout is explained in gen.h).
 */
#include "gen.h"

#include <stdio.h>

void lanes_gen_init(struct gen *g, struct lanes_builder *b, const char *kind)
{
	g->b = b;
	g->kind = kind;
	g->switches = 0;
	g->hosts = 0;
	g->host_guid = 0;
	g->width = 4;
	g->speed = LANES_SPEED_QDR;
}

uint64_t lanes_gen_sat_mul(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

uint64_t lanes_gen_sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

int lanes_gen_check_radix(const char *kind, uint64_t radix, const char *what, struct lanes_error *err)
{
	if (radix < 1 || radix > LANES_PORTS_MAX)
		return lanes_error_set(err, LANES_EINVAL,
				       "%s: switches would need %llu ports (%s); at most %d fit",
				       kind, (unsigned long long)radix, what, LANES_PORTS_MAX);
	return 0;
}

static void format_count(uint64_t v, char *buf, size_t size)
{
	if (v == UINT64_MAX)
		snprintf(buf, size, "more than 2^64");
	else
		snprintf(buf, size, "%llu", (unsigned long long)v);
}

int lanes_gen_check_lids(struct lanes_params *prm, const char *kind, const char *what,
			 uint64_t switches, uint64_t host_ports, struct lanes_error *err)
{
	char s[32], h[32];

	if (lanes_gen_sat_add(switches, host_ports) <= LANES_LID_MAX && prm->measure) {
		prm->measure->switches = switches;
		prm->measure->host_ports = host_ports;
		return GEN_MEASURED;
	}
	if (lanes_gen_sat_add(switches, host_ports) <= LANES_LID_MAX)
		return 0;
	format_count(switches, s, sizeof(s));
	format_count(host_ports, h, sizeof(h));
	return lanes_error_set(err, LANES_EINVAL,
			       "%s: %s give %s switches and %s host ports, more than the %d LIDs "
			       "lanes can hold",
			       kind, what, s, h, LANES_LID_MAX);
}

/* Switch i's GUID: counting up from the base, jumping over the host block. */
static uint64_t switch_guid(uint32_t i)
{
	uint64_t guid = GEN_SWITCH_GUID_BASE + i;

	return guid < GEN_HOST_GUID_BASE ? guid : guid + GEN_HOST_GUID_SPAN;
}

int lanes_gen_switch(struct gen *g, unsigned nports, const char *label, uint32_t *out,
	       struct lanes_error *err)
{
	char desc[128];
	uint64_t guid = switch_guid(g->switches);
	struct lanes_node_spec spec = { LANES_NODE_SWITCH, 0, guid, guid, 0x02c9, 0xd2f0, desc };
	int rc;

	if ((rc = lanes_gen_check_radix(g->kind, nports, "port count", err)))
		return rc;
	spec.nports = (uint8_t)nports;
	snprintf(desc, sizeof(desc), "MF0;%s-%s:MQM8700/U1", g->kind, label);
	if ((rc = lanes_builder_add_node(g->b, &spec, out, err)))
		return rc;
	g->switches++;
	return 0;
}

int lanes_gen_host(struct gen *g, unsigned nports, uint32_t *out, struct lanes_error *err)
{
	struct lanes_node_spec spec = { LANES_NODE_CA, (uint8_t)nports, 0, 0, 0x02c9, 0x101b, NULL };
	uint64_t slot = 4;
	char desc[64];
	int rc;

	while (slot <= nports)
		slot *= 2;
	g->host_guid = (g->host_guid + slot - 1) / slot * slot;
	if (g->host_guid + slot > GEN_HOST_GUID_SPAN) /* cannot happen within LANES_LID_MAX */
		return lanes_error_set(err, LANES_EINVAL, "%s: too many hosts for distinct GUIDs",
				       g->kind);
	spec.guid = spec.sysimage_guid = GEN_HOST_GUID_BASE + g->host_guid;
	snprintf(desc, sizeof(desc), "node%05u HCA-1", g->hosts);
	spec.desc = desc;
	if ((rc = lanes_builder_add_node(g->b, &spec, out, err)))
		return rc;
	g->host_guid += slot;
	g->hosts++;
	return 0;
}

int lanes_gen_hosts(struct gen *g, uint32_t sw, unsigned first, unsigned count,
	      struct lanes_error *err)
{
	for (unsigned i = 0; i < count; i++) {
		uint32_t node;
		int rc;

		if ((rc = lanes_gen_host(g, 1, &node, err)) ||
		    (rc = lanes_gen_cable(g, sw, first + i, node, 1, err)))
			return rc;
	}
	return 0;
}

int lanes_gen_cable(struct gen *g, uint32_t a, unsigned pa, uint32_t b, unsigned pb,
	      struct lanes_error *err)
{
	return lanes_builder_connect(g->b, a, (uint8_t)pa, b, (uint8_t)pb, g->width, g->speed, err);
}
