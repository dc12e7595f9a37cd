/*
 * lid.c - validating input LIDs and assigning the missing ones.
 *
 * The rule (docs/fabric.md), close to what OpenSM does on a fresh subnet:
 *  - LID-bearing ports are a switch's port 0 and every cabled port of a CA
 *    or router. A port answers 2^LMC consecutive LIDs from its base LID.
 *  - Pass 1, in node order then port order: an input LID is kept when its
 *    whole range lies in 1..0xBFFF, is aligned to 2^LMC and overlaps no range
 *    already kept. Otherwise it is dropped with a warning that says why
 *    (0 means "none given" and is dropped silently).
 *  - Pass 2, in the same order: each port without a LID gets the lowest free
 *    aligned range. The result depends only on the input, never on chance.
 *  - A fabric that needs more LIDs than one subnet has (a generated
 *    100k-endpoint dragonfly) goes on past 0xBFFF, up to LANES_LID_MAX, with
 *    one warning: those LIDs serve analysis only and are written as 0.
 */
#include "builder_internal.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>


static int bears_lid(const struct lanes_builder *b, const struct lanes_node *n, unsigned p)
{
	if (n->type == LANES_NODE_SWITCH)
		return p == 0;
	return p > 0 && b->ports[n->port_base + p].peer_node != LANES_NONE;
}

static int range_free(const unsigned char *used, uint32_t lid, uint32_t count)
{
	for (uint32_t k = 0; k < count; k++)
		if (used[lid + k])
			return 0;
	return 1;
}

static void claim(unsigned char *used, uint32_t lid, uint32_t count)
{
	memset(used + lid, 1, count);
}

/* Pass 1: keep the valid input LID of one port, or drop it with a warning. */
static void keep_or_drop(struct lanes_builder *b, uint32_t node, unsigned p, unsigned char *used)
{
	struct lanes_port *port = &b->ports[b->nodes[node].port_base + p];
	uint32_t lid = port->lid, count = 1u << port->lmc;
	const char *why = NULL;
	char label[160];

	if (!lid)
		return;
	if (lid + count - 1 > LANES_LID_UNICAST_MAX)
		why = "is outside the unicast range 1..0xBFFF";
	else if (lid % count)
		why = "is not aligned to its LMC";
	else if (!range_free(used, lid, count))
		why = "is already in use";
	if (!why) {
		claim(used, lid, count);
		return;
	}
	lanes_builder_warn(b, "LID %u of %s port %u %s; a new LID is assigned", lid,
			   lanes_builder_node_label(b, node, label, sizeof(label)), p, why);
	port->lid = 0;
}

/* Pass 2: the lowest free aligned range for one port, below `space`. */
static int assign(struct lanes_port *port, unsigned char *used, uint32_t space,
		  uint32_t *hint, struct lanes_error *err)
{
	uint32_t count = 1u << port->lmc;
	uint32_t lid = hint[port->lmc];

	lid = (lid + count - 1) / count * count;
	if (!lid)
		lid = count;
	while (lid + count <= space && !range_free(used, lid, count))
		lid += count;
	if (lid + count > space)
		return lanes_error_set(err, LANES_ERANGE, "the fabric needs more than %u LIDs",
				       LANES_LID_MAX);
	claim(used, lid, count);
	port->lid = lid;
	hint[port->lmc] = lid + count;
	return 0;
}

/* LIDs the fabric asks for, counting every range as if it needed a new one. */
static uint64_t lid_demand(const struct lanes_builder *b)
{
	uint64_t total = 0;

	for (uint32_t i = 0; i < b->num_nodes; i++)
		for (unsigned p = 0; p <= b->nodes[i].nports; p++)
			if (bears_lid(b, &b->nodes[i], p))
				total += 2u << b->ports[b->nodes[i].port_base + p].lmc;
	return total;
}

static void warn_if_beyond_unicast(struct lanes_builder *b)
{
	uint64_t beyond = 0;

	for (size_t i = 0; i < b->num_ports; i++)
		beyond += b->ports[i].lid > LANES_LID_UNICAST_MAX;
	if (beyond)
		lanes_builder_warn(b,
				   "the fabric needs more LIDs than the %u of one InfiniBand subnet: "
				   "%llu ports got LIDs above 0xBFFF, for analysis only (files show them as 0)",
				   LANES_LID_UNICAST_MAX, (unsigned long long)beyond);
}

int lanes_builder_assign_lids(struct lanes_builder *b, struct lanes_error *err)
{
	uint64_t demand = lid_demand(b) + LANES_LID_UNICAST_MAX + 2;
	uint32_t space = demand > LANES_LID_MAX + 1ULL ? LANES_LID_MAX + 1 : (uint32_t)demand;
	unsigned char *used = calloc(space, 1);
	uint32_t hint[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	int rc = 0;

	if (!used)
		return lanes_error_oom(err);
	for (uint32_t i = 0; i < b->num_nodes; i++)
		for (unsigned p = 0; p <= b->nodes[i].nports; p++) {
			if (bears_lid(b, &b->nodes[i], p))
				keep_or_drop(b, i, p, used);
			else
				b->ports[b->nodes[i].port_base + p].lid = 0;
		}
	for (uint32_t i = 0; i < b->num_nodes && !rc; i++)
		for (unsigned p = 0; p <= b->nodes[i].nports && !rc; p++) {
			struct lanes_port *port = &b->ports[b->nodes[i].port_base + p];

			if (bears_lid(b, &b->nodes[i], p) && !port->lid)
				rc = assign(port, used, space, hint, err);
		}
	free(used);
	if (!rc)
		warn_if_beyond_unicast(b);
	return rc;
}
