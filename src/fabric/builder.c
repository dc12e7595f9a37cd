/*
 * builder.c - building a fabric node by node, then freezing it.
 *
 * Readers and generators add nodes in discovery order and cable ports; the
 * builder checks that each port has at most one peer and that cables are
 * symmetric. lanes_builder_finish() validates and assigns LIDs (lid.c),
 * numbers the switches, lists each cable once and builds the CSR switch
 * adjacency that every later stage walks.
 */
#include "builder_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"

int lanes_builder_new(struct lanes_builder **out, struct lanes_error *err)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return lanes_error_oom(err);
	return 0;
}

static void free_warnings(char **w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(w[i]);
	free(w);
}

void lanes_builder_free(struct lanes_builder *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->num_nodes; i++)
		free(b->nodes[i].desc);
	free(b->nodes);
	free(b->ports);
	free(b->lid_line);
	free_warnings(b->warnings, b->num_warnings);
	free(b);
}

uint32_t lanes_builder_num_nodes(const struct lanes_builder *b)
{
	return (uint32_t)b->num_nodes;
}

uint8_t lanes_builder_nports(const struct lanes_builder *b, uint32_t node)
{
	return node < b->num_nodes ? b->nodes[node].nports : 0;
}

const char *lanes_builder_node_label(const struct lanes_builder *b, uint32_t node, char *buf,
				     size_t size)
{
	const struct lanes_node *n = &b->nodes[node];

	if (n->desc[0])
		snprintf(buf, size, "\"%s\"", n->desc);
	else
		snprintf(buf, size, "node 0x%016llx", (unsigned long long)n->guid);
	return buf;
}

int lanes_builder_add_node(struct lanes_builder *b, const struct lanes_node_spec *spec,
			   uint32_t *out_index, struct lanes_error *err)
{
	struct lanes_node *n;
	size_t slots = (size_t)spec->nports + 1;

	if (spec->type < LANES_NODE_CA || spec->type > LANES_NODE_ROUTER)
		return lanes_error_set(err, LANES_EINVAL, "node type %d is not CA, switch or router",
				       spec->type);
	if (spec->nports < 1 || spec->nports > LANES_PORTS_MAX)
		return lanes_error_set(err, LANES_EINVAL, "a node has 1..%d ports, not %d",
				       LANES_PORTS_MAX, spec->nports);
	if (b->num_nodes >= LANES_NONE - 1)
		return lanes_error_set(err, LANES_ERANGE, "too many nodes");
	if (lanes_grow((void **)&b->nodes, &b->cap_nodes, b->num_nodes + 1, sizeof(*b->nodes)) ||
	    lanes_grow((void **)&b->ports, &b->cap_ports, b->num_ports + slots, sizeof(*b->ports)))
		return lanes_error_oom(err);
	n = &b->nodes[b->num_nodes];
	memset(n, 0, sizeof(*n));
	n->desc = lanes_strndup(spec->desc ? spec->desc : "", spec->desc ? strlen(spec->desc) : 0);
	if (!n->desc)
		return lanes_error_oom(err);
	n->type = spec->type;
	n->nports = spec->nports;
	n->guid = spec->guid ? spec->guid : 0x0002c90000000000ULL + b->num_nodes * 0x100ULL;
	n->sysimage_guid = spec->sysimage_guid;
	n->vendor_id = spec->vendor_id;
	n->device_id = spec->device_id;
	n->port_base = (uint32_t)b->num_ports;
	n->switch_index = LANES_NONE;
	for (size_t p = 0; p < slots; p++) {
		struct lanes_port *port = &b->ports[b->num_ports + p];

		memset(port, 0, sizeof(*port));
		port->peer_node = LANES_NONE;
		port->guid = n->type == LANES_NODE_SWITCH ? n->guid : n->guid + p;
	}
	b->num_ports += slots;
	if (out_index)
		*out_index = (uint32_t)b->num_nodes;
	b->num_nodes++;
	return 0;
}

static struct lanes_port *port_at(struct lanes_builder *b, uint32_t node, unsigned port)
{
	return &b->ports[b->nodes[node].port_base + port];
}

static int check_port(struct lanes_builder *b, uint32_t node, unsigned port, int allow0,
		      struct lanes_error *err)
{
	char label[160];

	if (node >= b->num_nodes)
		return lanes_error_set(err, LANES_EINVAL, "no node %u", node);
	if (port > b->nodes[node].nports || (!allow0 && port == 0))
		return lanes_error_set(err, LANES_EINVAL, "%s has ports 1..%u, not port %u",
				       lanes_builder_node_label(b, node, label, sizeof(label)),
				       b->nodes[node].nports, port);
	return 0;
}

int lanes_builder_set_port(struct lanes_builder *b, uint32_t node, uint8_t port, uint64_t guid,
			   uint32_t lid, uint8_t lmc, struct lanes_error *err)
{
	struct lanes_port *p;
	int rc = check_port(b, node, port, 1, err);

	if (rc)
		return rc;
	if (lmc > 7)
		return lanes_error_set(err, LANES_EINVAL, "LMC is 0..7, not %u", lmc);
	p = port_at(b, node, port);
	if (guid)
		p->guid = guid;
	p->lid = lid;
	p->lmc = lmc;
	return 0;
}

int lanes_builder_lid_line(struct lanes_builder *b, const char *file, uint32_t node,
			   uint8_t port, unsigned long line)
{
	size_t slot;

	if (node >= b->num_nodes || port > b->nodes[node].nports)
		return 0;
	slot = b->nodes[node].port_base + port;
	if (slot >= b->num_lid_line) {
		if (lanes_grow((void **)&b->lid_line, &b->cap_lid_line, b->num_ports,
			       sizeof(*b->lid_line)))
			return LANES_ENOMEM;
		memset(b->lid_line + b->num_lid_line, 0,
		       sizeof(*b->lid_line) * (b->num_ports - b->num_lid_line));
		b->num_lid_line = b->num_ports;
	}
	b->file = file;
	if (!b->lid_line[slot])
		b->lid_line[slot] = line;
	return 0;
}

uint32_t lanes_builder_peer(const struct lanes_builder *b, uint32_t node, uint8_t port)
{
	if (node >= b->num_nodes || port > b->nodes[node].nports)
		return LANES_NONE;
	return b->ports[b->nodes[node].port_base + port].peer_node;
}

static int already_cabled(struct lanes_builder *b, uint32_t node, unsigned port,
			  struct lanes_error *err)
{
	char l1[160], l2[160];
	struct lanes_port *p = port_at(b, node, port);

	return lanes_error_set(err, LANES_EINVAL, "port %u of %s is already cabled to port %u of %s",
			       port, lanes_builder_node_label(b, node, l1, sizeof(l1)), p->peer_port,
			       lanes_builder_node_label(b, p->peer_node, l2, sizeof(l2)));
}

static void fill_unknown(struct lanes_port *p, uint8_t width, uint8_t speed)
{
	if (!p->width)
		p->width = width;
	if (!p->speed)
		p->speed = speed;
}

int lanes_builder_connect(struct lanes_builder *b, uint32_t a, uint8_t pa, uint32_t bn,
			  uint8_t pb, uint8_t width, uint8_t speed, struct lanes_error *err)
{
	struct lanes_port *x, *y;
	int rc;

	if ((rc = check_port(b, a, pa, 0, err)) || (rc = check_port(b, bn, pb, 0, err)))
		return rc;
	if (a == bn && pa == pb)
		return lanes_error_set(err, LANES_EINVAL, "port %u is cabled to itself", pa);
	x = port_at(b, a, pa);
	y = port_at(b, bn, pb);
	if (x->peer_node == bn && x->peer_port == pb && y->peer_node == a && y->peer_port == pa) {
		fill_unknown(x, width, speed);
		fill_unknown(y, width, speed);
		return 0;
	}
	if (x->peer_node != LANES_NONE)
		return already_cabled(b, a, pa, err);
	if (y->peer_node != LANES_NONE)
		return already_cabled(b, bn, pb, err);
	x->peer_node = bn;
	x->peer_port = pb;
	y->peer_node = a;
	y->peer_port = pa;
	x->width = y->width = width;
	x->speed = y->speed = speed;
	return 0;
}

void lanes_builder_warn(struct lanes_builder *b, const char *fmt, ...)
{
	va_list ap;
	char buf[512];
	char *copy;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (lanes_grow((void **)&b->warnings, &b->cap_warnings, b->num_warnings + 1,
		       sizeof(*b->warnings)))
		return; /* a lost warning is better than a failed build */
	copy = lanes_strndup(buf, strlen(buf));
	if (copy)
		b->warnings[b->num_warnings++] = copy;
}

/* Number the switches and list the cables, each once, from its first end. */
static int index_nodes(struct lanes_fabric *f)
{
	uint32_t nlinks = 0, nsw = 0;

	for (uint32_t i = 0; i < f->num_nodes; i++) {
		struct lanes_node *n = &f->nodes[i];

		f->num_switches += n->type == LANES_NODE_SWITCH;
		f->num_cas += n->type == LANES_NODE_CA;
		f->num_routers += n->type == LANES_NODE_ROUTER;
		for (unsigned p = 1; p <= n->nports; p++) {
			const struct lanes_port *port = &f->ports[n->port_base + p];

			if (port->peer_node != LANES_NONE &&
			    (port->peer_node > i || (port->peer_node == i && port->peer_port > p)))
				nlinks++;
		}
	}
	f->switches = malloc(sizeof(*f->switches) * (f->num_switches + 1));
	f->links = malloc(sizeof(*f->links) * (nlinks + 1));
	if (!f->switches || !f->links)
		return LANES_ENOMEM;
	for (uint32_t i = 0; i < f->num_nodes; i++) {
		struct lanes_node *n = &f->nodes[i];

		if (n->type == LANES_NODE_SWITCH) {
			n->switch_index = nsw;
			f->switches[nsw++] = i;
		}
		for (unsigned p = 1; p <= n->nports; p++) {
			const struct lanes_port *port = &f->ports[n->port_base + p];

			if (port->peer_node == LANES_NONE ||
			    !(port->peer_node > i || (port->peer_node == i && port->peer_port > p)))
				continue;
			f->links[f->num_links++] = (struct lanes_link){ i, port->peer_node, (uint8_t)p,
									port->peer_port };
			f->num_self_loops += port->peer_node == i;
		}
	}
	return 0;
}

/* The CSR adjacency over switches: cables to other switches, in port order. */
static int build_adjacency(struct lanes_fabric *f)
{
	uint32_t total = 0;

	f->adj_off = calloc((size_t)f->num_switches + 1, sizeof(*f->adj_off));
	if (!f->adj_off)
		return LANES_ENOMEM;
	for (int pass = 0; pass < 2; pass++) {
		total = 0;
		for (uint32_t s = 0; s < f->num_switches; s++) {
			uint32_t node = f->switches[s];
			const struct lanes_node *n = &f->nodes[node];

			f->adj_off[s] = total;
			for (unsigned p = 1; p <= n->nports; p++) {
				const struct lanes_port *port = &f->ports[n->port_base + p];

				if (port->peer_node == LANES_NONE || port->peer_node == node ||
				    f->nodes[port->peer_node].type != LANES_NODE_SWITCH)
					continue;
				if (pass)
					f->adj[total] = (struct lanes_adj){
						f->nodes[port->peer_node].switch_index, (uint8_t)p,
						port->peer_port
					};
				total++;
			}
		}
		f->adj_off[f->num_switches] = total;
		if (!pass && !(f->adj = malloc(sizeof(*f->adj) * (total + 1))))
			return LANES_ENOMEM;
	}
	return 0;
}

static int build_lid_table(struct lanes_fabric *f)
{
	for (uint32_t i = 0; i < f->num_port_slots; i++) {
		uint32_t top = f->ports[i].lid ? f->ports[i].lid + (1u << f->ports[i].lmc) - 1 : 0;

		if (top > f->max_lid)
			f->max_lid = top;
	}
	f->lid_owner = malloc(sizeof(*f->lid_owner) * ((size_t)f->max_lid + 1));
	if (!f->lid_owner)
		return LANES_ENOMEM;
	for (uint32_t l = 0; l <= f->max_lid; l++)
		f->lid_owner[l] = (struct lanes_lid_owner){ LANES_NONE, 0 };
	for (uint32_t i = 0; i < f->num_nodes; i++) {
		const struct lanes_node *n = &f->nodes[i];

		for (unsigned p = 0; p <= n->nports; p++) {
			const struct lanes_port *port = &f->ports[n->port_base + p];

			for (uint32_t k = 0; port->lid && k < (1u << port->lmc); k++)
				f->lid_owner[port->lid + k] = (struct lanes_lid_owner){ i, (uint8_t)p };
		}
	}
	return 0;
}

int lanes_builder_finish(struct lanes_builder *b, struct lanes_fabric **out,
			 struct lanes_error *err)
{
	struct lanes_fabric *f = NULL;
	int rc;

	*out = NULL;
	if ((rc = lanes_builder_assign_lids(b, err)))
		goto out;
	rc = LANES_ENOMEM;
	if (!(f = calloc(1, sizeof(*f))))
		goto out;
	f->num_nodes = (uint32_t)b->num_nodes;
	f->nodes = b->nodes;
	f->ports = b->ports;
	f->num_port_slots = (uint32_t)b->num_ports;
	f->warnings = b->warnings;
	f->num_warnings = (uint32_t)b->num_warnings;
	b->nodes = NULL;
	b->ports = NULL;
	b->warnings = NULL;
	b->num_nodes = b->num_warnings = 0;
	if (index_nodes(f) || build_adjacency(f) || build_lid_table(f))
		goto out;
	*out = f;
	f = NULL;
	rc = 0;
out:
	if (rc == LANES_ENOMEM)
		lanes_error_set(err, rc, "out of memory");
	lanes_fabric_free(f);
	lanes_builder_free(b);
	return rc;
}
