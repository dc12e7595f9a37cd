/*
 * ibnetdiscover_write.c - writing a fabric as ibnetdiscover prints it.
 *
 * Follows the output routines of infiniband-diags' ibnetdiscover.c (out_switch,
 * out_ca, out_switch_port, out_ca_port) without grouping: a header comment,
 * then every switch in node order, then the CAs, then the routers, each as
 * vendid=/devid=/sysimgguid=/<type>guid= lines, its node line and one line per
 * cabled port. ibnetdiscover.c reads all of it back unchanged (docs/formats-
 * ibnetdiscover.md). What the format cannot hold: the GUIDs of unconnected CA
 * ports and of switch ports 1..n, "base" port 0 (always written "enhanced"),
 * and '"' or control characters other than tab in descriptions (written as '
 * and blanks).
 * Nodes are named "S-<guid>", so two nodes of one type may not share a GUID.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "formats.h"
#include "core/util.h"

static const char *id_letter(int type)
{
	return type == LANES_NODE_SWITCH ? "S" : type == LANES_NODE_CA ? "H" : "R";
}

/* A description, with the characters the format cannot hold replaced. */
static void put_desc(FILE *out, const char *d)
{
	fputc('"', out);
	for (; *d; d++)
		fputc(*d == '"' ? '\'' : (unsigned char)*d < 0x20 && *d != '\t' ? ' ' : *d, out);
	fputc('"', out);
}

static void put_width_speed(FILE *out, const struct lanes_port *p)
{
	const char *s = lanes_speed_name(p->speed);

	if (p->width)
		fprintf(out, "%ux", p->width);
	else
		fputs("??", out);
	fputs(*s ? s : "???", out);
}

/* [p](guid) "peer"[q](peer guid) # [lid L lmc M] "peer desc" lid L WxS */
static void put_port(FILE *out, const struct lanes_fabric *f, uint32_t i, unsigned p)
{
	const struct lanes_node *n = &f->nodes[i];
	const struct lanes_port *port = lanes_fabric_port(f, i, (uint8_t)p);
	const struct lanes_node *pn = &f->nodes[port->peer_node];
	const struct lanes_port *pp = lanes_fabric_port(f, port->peer_node, port->peer_port);

	fprintf(out, "[%u]", p);
	if (n->type != LANES_NODE_SWITCH)
		fprintf(out, "(%" PRIx64 ") ", port->guid);
	fprintf(out, "\t\"%s-%016" PRIx64 "\"[%u]", id_letter(pn->type), pn->guid, port->peer_port);
	if (pn->type != LANES_NODE_SWITCH)
		fprintf(out, "(%" PRIx64 ") ", pp->guid);
	fputs("\t\t# ", out);
	if (n->type != LANES_NODE_SWITCH)
		fprintf(out, "lid %u lmc %u ", lanes_lid_in_file(port->lid), port->lmc);
	put_desc(out, pn->desc);
	fprintf(out, " lid %u ", lanes_lid_in_file(lanes_fabric_lid(f, port->peer_node, port->peer_port)));
	put_width_speed(out, port);
	fputc('\n', out);
}

static void put_node(FILE *out, const struct lanes_fabric *f, uint32_t i)
{
	const struct lanes_node *n = &f->nodes[i];
	const struct lanes_port *p0 = lanes_fabric_port(f, i, 0);
	const char *kind = n->type == LANES_NODE_SWITCH ? "switch" : n->type == LANES_NODE_CA
			   ? "ca" : "rt";

	fprintf(out, "\nvendid=0x%x\ndevid=0x%x\n", n->vendor_id, n->device_id);
	if (n->sysimage_guid)
		fprintf(out, "sysimgguid=0x%" PRIx64 "\n", n->sysimage_guid);
	fprintf(out, "%sguid=0x%" PRIx64, kind, n->guid);
	if (n->type == LANES_NODE_SWITCH)
		fprintf(out, "(%" PRIx64 ")", p0->guid);
	fprintf(out, "\n%s\t%u \"%s-%016" PRIx64 "\"\t\t# ", n->type == LANES_NODE_SWITCH ? "Switch"
		: n->type == LANES_NODE_CA ? "Ca" : "Rt", n->nports, id_letter(n->type), n->guid);
	put_desc(out, n->desc);
	if (n->type == LANES_NODE_SWITCH)
		fprintf(out, " enhanced port 0 lid %u lmc %u", lanes_lid_in_file(p0->lid), p0->lmc);
	fputc('\n', out);
	for (unsigned p = 1; p <= n->nports; p++)
		if (lanes_fabric_port(f, i, (uint8_t)p)->peer_node != LANES_NONE)
			put_port(out, f, i, p);
}

/* ibnetdiscover names the port it ran from; say the first CA (or the first
 * node written), which a read-back fabric keeps. */
static void put_initiated(FILE *out, const struct lanes_fabric *f)
{
	uint32_t from = f->num_cas ? 0 : f->num_switches ? f->switches[0] : 0;

	while (f->num_cas && f->nodes[from].type != LANES_NODE_CA)
		from++;
	if (f->num_nodes)
		fprintf(out, "# Initiated from node %016" PRIx64 " port %016" PRIx64 "\n",
			f->nodes[from].guid,
			lanes_fabric_port(f, from, f->nodes[from].type != LANES_NODE_SWITCH)->guid);
}

struct guid_key {
	uint64_t guid;
	uint32_t node;
	uint8_t type;
};

static int cmp_key(const void *a, const void *b)
{
	const struct guid_key *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

/* The file names nodes "S-<guid>", and its reader refuses two nodes of one GUID. */
static int unique_guids(const struct lanes_fabric *f, struct lanes_error *err)
{
	struct guid_key *k = malloc(sizeof(*k) * ((size_t)f->num_nodes + 1));
	int rc = 0;

	if (!k)
		return lanes_error_oom(err);
	for (uint32_t i = 0; i < f->num_nodes; i++)
		k[i] = (struct guid_key){ f->nodes[i].guid, i, f->nodes[i].type };
	qsort(k, f->num_nodes, sizeof(*k), cmp_key);
	for (uint32_t i = 1; i < f->num_nodes && !rc; i++)
		if (!cmp_key(&k[i - 1], &k[i]))
			rc = lanes_error_set(err, LANES_EINVAL,
					     "nodes %u and %u share the GUID 0x%016" PRIx64
					     "; ibnetdiscover names nodes by GUID",
					     k[i - 1].node, k[i].node, k[i].guid);
	free(k);
	return rc;
}

int lanes_ibnetdiscover_write(const struct lanes_fabric *f, FILE *out, struct lanes_error *err)
{
	static const uint8_t order[] = { LANES_NODE_SWITCH, LANES_NODE_CA, LANES_NODE_ROUTER };
	int rc;

	if ((rc = unique_guids(f, err)))
		return rc;
	fputs("#\n# Topology file: written by lanes\n#\n", out);
	put_initiated(out, f);
	for (size_t t = 0; t < sizeof(order); t++)
		for (uint32_t i = 0; i < f->num_nodes; i++)
			if (f->nodes[i].type == order[t])
				put_node(out, f, i);
	if (fflush(out) || ferror(out))
		return lanes_error_set(err, LANES_EIO, "writing the ibnetdiscover file failed");
	return 0;
}
