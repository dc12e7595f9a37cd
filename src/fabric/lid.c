/*
 * lid.c - validating input LIDs and assigning the missing ones.
 *
 * The rule (docs/fabric.md), close to what OpenSM does on a fresh subnet:
 *  - LID-bearing ports are a switch's port 0 and every cabled port of a CA
 *    or router. A port answers 2^LMC consecutive LIDs from its base LID.
 *  - Pass 1, in node order then port order: an input LID is kept when its
 *    whole range lies in 1..0xBFFF, is aligned to 2^LMC and overlaps no range
 *    already kept. Otherwise it is dropped (0 means "none given" and is
 *    dropped silently), and once pass 2 gave it another, a warning says why,
 *    which port keeps a LID it asked for (with file:line where a reader
 *    gave them: lanes_builder_lid_line) and which LID it gets instead.
 *  - Pass 2, in the same order: each port without a LID gets the lowest free
 *    aligned range. The result depends only on the input, never on chance.
 *  - A fabric that needs more LIDs than one subnet has (a generated
 *    100k-endpoint dragonfly) goes on past 0xBFFF, up to LANES_LID_MAX, with
 *    one warning: those LIDs serve analysis only and are written as 0.
 */
#include "builder_internal.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A port whose input LID pass 1 dropped: warned about once pass 2 gave it another. */
struct dropped {
	uint32_t node, lid, owner; /* owner: the slot holding the LID, or LANES_NONE */
	uint32_t taken;            /* the LID of the port's range that owner holds */
	uint8_t port;
	const char *why;           /* when the LID is not taken but invalid */
};

struct lids {
	uint32_t *owner; /* per LID: 1 + the port slot that holds it, or 0 */
	uint32_t space;  /* LIDs 0..space - 1 */
	uint32_t hint[8];
	struct dropped *dropped;
	size_t ndropped, cap_dropped;
};

static int bears_lid(const struct lanes_builder *b, const struct lanes_node *n, unsigned p)
{
	if (n->type == LANES_NODE_SWITCH)
		return p == 0;
	return p > 0 && b->ports[n->port_base + p].peer_node != LANES_NONE;
}

/* The first LID of the range held by another port, or 0 when all are free. */
static uint32_t range_taken(const struct lids *st, uint32_t lid, uint32_t count)
{
	for (uint32_t k = 0; k < count; k++)
		if (st->owner[lid + k])
			return lid + k;
	return 0;
}

static void claim(struct lids *st, uint32_t lid, uint32_t count, uint32_t slot)
{
	for (uint32_t k = 0; k < count; k++)
		st->owner[lid + k] = slot + 1;
}

/* Pass 1: keep the valid input LID of one port, or drop it (warned about later). */
static int keep_or_drop(struct lanes_builder *b, struct lids *st, uint32_t node, unsigned p)
{
	uint32_t slot = b->nodes[node].port_base + p;
	struct lanes_port *port = &b->ports[slot];
	uint32_t lid = port->lid, count = 1u << port->lmc, taken = 0;
	const char *why = NULL;

	if (!lid)
		return 0;
	if (lid + count - 1 > LANES_LID_UNICAST_MAX)
		why = "is outside the unicast range 1..0xBFFF";
	else if (lid % count)
		why = "is not aligned to its LMC";
	else if (!(taken = range_taken(st, lid, count))) {
		claim(st, lid, count, slot);
		return 0;
	}
	if (lanes_grow((void **)&st->dropped, &st->cap_dropped, st->ndropped + 1,
		       sizeof(*st->dropped)))
		return LANES_ENOMEM;
	st->dropped[st->ndropped++] = (struct dropped){ node, lid,
							 taken ? st->owner[taken] - 1 : LANES_NONE,
							 taken, (uint8_t)p, why };
	port->lid = 0;
	return 0;
}

/* Pass 2: the lowest free aligned range for one port, below `space`. */
static int assign(struct lids *st, uint32_t slot, struct lanes_port *port, struct lanes_error *err)
{
	uint32_t count = 1u << port->lmc;
	uint32_t lid = st->hint[port->lmc];

	lid = (lid + count - 1) / count * count;
	if (!lid)
		lid = count;
	while (lid + count <= st->space && range_taken(st, lid, count))
		lid += count;
	if (lid + count > st->space)
		return lanes_error_set(err, LANES_ERANGE, "the fabric needs more than %u LIDs",
				       LANES_LID_MAX);
	claim(st, lid, count, slot);
	port->lid = lid;
	st->hint[port->lmc] = lid + count;
	return 0;
}

/* The node whose port slots hold `slot` (nodes lie in port_base order). */
static uint32_t node_of_slot(const struct lanes_builder *b, uint32_t slot)
{
	uint32_t lo = 0, hi = (uint32_t)b->num_nodes - 1;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo + 1) / 2;

		if (b->nodes[mid].port_base <= slot)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* "switch "desc"" or "port P of "desc"". */
static const char *port_label(const struct lanes_builder *b, uint32_t node, unsigned p,
			      char *buf, size_t size)
{
	char label[160];

	lanes_builder_node_label(b, node, label, sizeof(label));
	if (b->nodes[node].type == LANES_NODE_SWITCH)
		snprintf(buf, size, "switch %s", label);
	else
		snprintf(buf, size, "port %u of %s", p, label);
	return buf;
}

/* The line that gave a port slot's LID (lanes_builder_lid_line), or 0. */
static unsigned long lid_line(const struct lanes_builder *b, uint32_t slot)
{
	return b->file && slot < b->num_lid_line ? b->lid_line[slot] : 0;
}

/* One dropped LID: where, why (the port that keeps it, and its line), and the new LID. */
static void warn_dropped(struct lanes_builder *b, const struct dropped *d)
{
	uint32_t slot = b->nodes[d->node].port_base + d->port;
	const struct lanes_port *port = &b->ports[slot];
	char where[300] = "", who[200], why[300], other[200];

	if (lid_line(b, slot))
		snprintf(where, sizeof(where), "%s:%lu: ", b->file, lid_line(b, slot));
	if (d->owner == LANES_NONE) {
		snprintf(why, sizeof(why), "%s", d->why);
	} else {
		uint32_t on = node_of_slot(b, d->owner);
		unsigned long line = lid_line(b, d->owner);
		char at[32] = "", lmc[64] = "";

		if (line)
			snprintf(at, sizeof(at), " (line %lu)", line);
		if (d->taken != d->lid)
			snprintf(lmc, sizeof(lmc), "(LMC %u) covers LID %u, which ", port->lmc,
				 d->taken);
		snprintf(why, sizeof(why), "%sis already taken by %s%s", lmc,
			 port_label(b, on, d->owner - b->nodes[on].port_base, other, sizeof(other)),
			 at);
	}
	lanes_builder_warn(b, "%sLID %u of %s %s; it gets LID %u instead", where, d->lid,
			   port_label(b, d->node, d->port, who, sizeof(who)), why, port->lid);
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

/* Pass 1 over every port: keep or drop input LIDs; ports that bear none lose theirs. */
static int keep_valid(struct lanes_builder *b, struct lids *st)
{
	int rc = 0;

	for (uint32_t i = 0; i < b->num_nodes && !rc; i++)
		for (unsigned p = 0; p <= b->nodes[i].nports && !rc; p++) {
			if (bears_lid(b, &b->nodes[i], p))
				rc = keep_or_drop(b, st, i, p);
			else
				b->ports[b->nodes[i].port_base + p].lid = 0;
		}
	return rc;
}

int lanes_builder_assign_lids(struct lanes_builder *b, struct lanes_error *err)
{
	uint64_t demand = lid_demand(b) + LANES_LID_UNICAST_MAX + 2;
	struct lids st = { NULL, 0, { 1, 1, 1, 1, 1, 1, 1, 1 }, NULL, 0, 0 };
	int rc = 0;

	st.space = demand > LANES_LID_MAX + 1ULL ? LANES_LID_MAX + 1 : (uint32_t)demand;
	if (!(st.owner = calloc(st.space, sizeof(*st.owner))) || (rc = keep_valid(b, &st))) {
		rc = lanes_error_oom(err);
		goto out;
	}
	for (uint32_t i = 0; i < b->num_nodes && !rc; i++)
		for (unsigned p = 0; p <= b->nodes[i].nports && !rc; p++) {
			uint32_t slot = b->nodes[i].port_base + p;

			if (bears_lid(b, &b->nodes[i], p) && !b->ports[slot].lid)
				rc = assign(&st, slot, &b->ports[slot], err);
		}
	for (size_t k = 0; k < st.ndropped && !rc; k++)
		warn_dropped(b, &st.dropped[k]);
	if (!rc)
		warn_if_beyond_unicast(b);
out:
	free(st.owner);
	free(st.dropped);
	return rc;
}
