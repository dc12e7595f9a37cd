/*
 * cmd_trace.c - `lanes trace`: the path of one source and destination pair,
 * hop by hop, as a routing sends it, in the manner of infiniband-diags'
 * ibtracert: at each node the port the packet came in on, the port it
 * leaves by, and the VL it leaves on (the path SL through the node's SL2VL
 * map; a CA's own map at the source).
 *
 * SRC and DST name ports as an administrator has them at hand: a LID
 * (decimal, or 0x and at most 4 hex digits), a GUID (0x and more digits: a
 * port GUID, or a node GUID, which means its first port with a LID), or a
 * node description (exactly; it must name one node). The walk follows the
 * LFTs from the source's switch until the destination's port, and says
 * where and why it stops otherwise: a drop (no route), a loop, an uncabled
 * out port, or another port than the destination's.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"
#include "progress.h"
#include "lanes/route.h"

static const char trace_usage[] =
	"usage: lanes trace FABRIC DIR SRC DST [--json]\n"
	"       lanes trace FABRIC SRC DST (-e ENGINE | --lfts FILE [--sl2vl FILE] [--path-sl FILE])\n"
	"\n"
	"  The path from SRC to DST hop by hop, as ibtracert prints it: each node, the port\n"
	"  the packet comes in on and the one it leaves by, and the VL it leaves on (the\n"
	"  path SL through the node's SL2VL map). SRC and DST are a LID (12, 0x000c), a\n"
	"  port or node GUID (0x0002c90301000001), or a node description (\"node00001 HCA-1\").\n"
	"  DIR is a routing written by `lanes route`; -e routes first, as in `lanes verify`.\n"
	"  --json           one object: src, dst, sl, end, hops [{node, guid, lid, in_port,\n"
	"                   out_port, vl}]\n"
	"  Exit 0 the packet arrives; 1 it does not (dropped, a loop, an uncabled port, the\n"
	"  wrong port); 2 bad input.\n"
	"\n" CLI_FABRIC_HELP;

struct targs {
	struct cli_fabric_opts fo;
	struct lanes_route_opts ro;
	const char *engine, *lfts, *sl2vl, *path_sl, *dir, *src, *dst;
	char params[256];
	int json;
	char **words;
	int nwords;
};

/* One node the packet crosses. */
struct hop {
	uint32_t node;
	int in_port, out_port; /* -1: none (the source's in, the destination's out) */
	int vl;                /* on the link it leaves by; -1 at the destination */
};

struct trace {
	struct hop *hops;
	uint32_t n;
	uint8_t sl;
	const char *end; /* "delivered", or why not */
};

static int parse_args(struct targs *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_FABRIC_LONGOPTS, CLI_ROUTE_LONGOPTS,
		{ "lfts", required_argument, NULL, 'l' },
		{ "sl2vl", required_argument, NULL, 'm' },
		{ "path-sl", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 } };
	struct cli_seen seen = { { 0 }, 0 };
	int c, rc, n;

	while ((c = cli_getopt(argc, argv, "e:h", longopts, &seen)) != -1) {
		if (c == CLI_OPT_TWICE)
			return EXIT_USAGE;
		if ((rc = cli_fabric_option(c, optarg, &a->fo)) ||
		    (rc = cli_route_option(c, optarg, &a->ro, &a->engine))) {
			if (rc < 0)
				return EXIT_USAGE;
			continue;
		}
		switch (c) {
		case 'l': a->lfts = optarg; break;
		case 'm': a->sl2vl = optarg; break;
		case 'p': a->path_sl = optarg; break;
		case 'j': a->json = 1; break;
		case 'h': fputs(trace_usage, stdout); return -1;
		default: fputs(trace_usage, stderr); return EXIT_USAGE;
		}
	}
	n = argc - optind;
	if (n < 3)
		return cli_usage_error("trace: expected FABRIC [DIR] SRC DST (see lanes trace --help)");
	a->src = argv[argc - 2];
	a->dst = argv[argc - 1];
	return cli_split_fabric_dir("trace", n - 2, argv + optind, &a->words, &a->nwords, &a->dir);
}

/* The LID of a port, its first LID-holding port for a node GUID, or 0. */
static uint32_t lid_of_node(const struct lanes_fabric *f, uint32_t node)
{
	const struct lanes_node *n = &f->nodes[node];

	if (n->type == LANES_NODE_SWITCH)
		return lanes_fabric_lid(f, node, 0);
	for (unsigned p = 1; p <= n->nports; p++)
		if (f->ports[n->port_base + p].lid)
			return f->ports[n->port_base + p].lid;
	return 0;
}

static int is_hex(const char *s)
{
	return *s && strspn(s, "0123456789abcdefABCDEF") == strlen(s);
}

/* A port GUID, else a node GUID: its LID, or 0. */
static uint32_t lid_of_guid(const struct lanes_fabric *f, uint64_t guid)
{
	for (uint32_t i = 0; i < f->num_nodes; i++) {
		const struct lanes_node *n = &f->nodes[i];

		for (unsigned p = n->type == LANES_NODE_SWITCH ? 0 : 1; p <= n->nports; p++)
			if (f->ports[n->port_base + p].guid == guid)
				return n->type == LANES_NODE_SWITCH ? lanes_fabric_lid(f, i, 0)
								    : f->ports[n->port_base + p].lid;
	}
	for (uint32_t i = 0; i < f->num_nodes; i++)
		if (f->nodes[i].guid == guid)
			return lid_of_node(f, i);
	return 0;
}

/* The one node with this description, its LID; 0 with the error printed. */
static uint32_t lid_of_desc(const struct lanes_fabric *f, const char *what, const char *desc)
{
	uint32_t found = LANES_NONE, count = 0;

	for (uint32_t i = 0; i < f->num_nodes; i++)
		if (!strcmp(f->nodes[i].desc, desc) && !count++)
			found = i;
	if (count == 1 && lid_of_node(f, found))
		return lid_of_node(f, found);
	cli_usage_error("trace: %s '%s': %s", what, desc,
			count > 1   ? "more than one node has this description; give a GUID or LID"
			: count == 1 ? "the node has no LID"
				     : "no LID, GUID or node description of the fabric");
	return 0;
}

/* A LID some port owns, or 0 with the error printed. */
static uint32_t known_lid(const struct lanes_fabric *f, const char *what, const char *s,
			  uint64_t v)
{
	if (v >= 1 && v <= f->max_lid && f->lid_owner[v].node != LANES_NONE)
		return (uint32_t)v;
	cli_usage_error("trace: %s LID %s is not a LID of the fabric", what, s);
	return 0;
}

/* SRC or DST to a LID some port owns; 0 with the error printed. */
static uint32_t resolve(const struct lanes_fabric *f, const char *what, const char *s)
{
	uint64_t v;
	char *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && is_hex(s + 2)) {
		size_t digits = strlen(s + 2);

		v = strtoull(s + 2, NULL, 16);
		if (digits <= 4)
			return known_lid(f, what, s, v);
		if (digits <= 16 && (v = lid_of_guid(f, v)))
			return (uint32_t)v;
		cli_usage_error("trace: %s GUID %s is not a port or node of the fabric with a LID",
				what, s);
		return 0;
	}
	if (s[0] >= '0' && s[0] <= '9') {
		errno = 0;
		v = strtoull(s, &end, 10);
		if (!*end && !errno)
			return known_lid(f, what, s, v);
	}
	return lid_of_desc(f, what, s);
}

static void add_hop(struct trace *t, uint32_t node, int in, int out, int vl)
{
	t->hops[t->n++] = (struct hop){ node, in, out, vl };
}

/*
 * Follow the LFTs from src_lid's port to dst_lid's. t->hops has room for
 * every switch and two CAs; a switch met twice is a loop.
 */
static void walk(const struct lanes_fabric *f, const struct lanes_routing *r, uint32_t src_lid,
		 uint32_t dst_lid, struct trace *t, uint8_t *visited)
{
	const struct lanes_lid_owner *s = &f->lid_owner[src_lid], *d = &f->lid_owner[dst_lid];
	uint32_t node = s->node;
	int in = -1;

	t->sl = lanes_routing_sl(r, f, src_lid, dst_lid);
	if (f->nodes[node].type != LANES_NODE_SWITCH) { /* a CA injects through its port */
		const struct lanes_port *p = &f->ports[f->nodes[node].port_base + s->port];

		add_hop(t, node, -1, s->port, lanes_routing_port_map(r, f, node, s->port)[t->sl]);
		if (p->peer_node == LANES_NONE) {
			t->end = "the source port is not cabled";
			return;
		}
		node = p->peer_node;
		in = p->peer_port;
	}
	while (f->nodes[node].type == LANES_NODE_SWITCH) {
		uint32_t sw = f->nodes[node].switch_index;
		uint8_t out = lanes_routing_port(r, sw, dst_lid);
		const struct lanes_port *p = &f->ports[f->nodes[node].port_base + out];

		if (visited[sw]) {
			add_hop(t, node, in, -1, -1);
			t->end = "a loop: this switch was crossed before";
			return;
		}
		visited[sw] = 1;
		if (out == 0 || out == LANES_PORT_DROP || out > f->nodes[node].nports) {
			add_hop(t, node, in, -1, -1);
			t->end = out == 0 && node == d->node ? "delivered"
				 : out == 0 ? "port 0 here, but the LID is not this switch's"
					    : "dropped: no route here (port 255)";
			return;
		}
		add_hop(t, node, in, out,
			lanes_routing_switch_map(r, f, sw, (uint8_t)(in < 0 ? 0 : in), out)[t->sl]);
		if (p->peer_node == LANES_NONE) {
			t->end = "the out port is not cabled";
			return;
		}
		node = p->peer_node;
		in = p->peer_port;
	}
	add_hop(t, node, in, -1, -1);
	t->end = node == d->node && in == d->port ? "delivered"
		 : "arrived at another port than the destination's";
}

static void print_text(const struct lanes_fabric *f, const struct trace *t, uint32_t src,
		       uint32_t dst)
{
	uint32_t links = t->n ? t->n - 1 : 0;

	printf("from LID %u to LID %u, SL %u: %s after %u link%s\n", src, dst, t->sl, t->end,
	       links, links == 1 ? "" : "s");
	printf("%-4s %-18s %-6s %-3s %-3s %-3s %s\n", "HOP", "GUID", "LID", "IN", "OUT", "VL",
	       "NODE");
	for (uint32_t i = 0; i < t->n; i++) {
		const struct hop *h = &t->hops[i];
		const struct lanes_node *n = &f->nodes[h->node];
		char in[16] = "-", out[16] = "-", vl[16] = "-";

		if (h->in_port >= 0)
			snprintf(in, sizeof(in), "%d", h->in_port);
		if (h->out_port >= 0)
			snprintf(out, sizeof(out), "%d", h->out_port);
		if (h->vl >= 0)
			snprintf(vl, sizeof(vl), "%d", h->vl);
		printf("%-4u 0x%016llx %-6u %-3s %-3s %-3s %s (%s)\n", i, (unsigned long long)n->guid,
		       lid_of_node(f, h->node), in, out, vl, n->desc, lanes_node_type_name(n->type));
	}
}

static struct json_object *json_int_or_null(int v)
{
	return v < 0 ? NULL : json_object_new_int(v);
}

static void print_json(const struct lanes_fabric *f, const struct trace *t, uint32_t src,
		       uint32_t dst)
{
	struct json_object *o = json_object_new_object(), *hops = json_object_new_array();
	char guid[24];

	json_object_object_add(o, "src", json_object_new_int64(src));
	json_object_object_add(o, "dst", json_object_new_int64(dst));
	json_object_object_add(o, "sl", json_object_new_int(t->sl));
	json_object_object_add(o, "end", json_object_new_string(t->end));
	json_object_object_add(o, "delivered", json_object_new_boolean(!strcmp(t->end, "delivered")));
	for (uint32_t i = 0; i < t->n; i++) {
		const struct hop *h = &t->hops[i];
		struct json_object *j = json_object_new_object();

		snprintf(guid, sizeof(guid), "0x%016llx", (unsigned long long)f->nodes[h->node].guid);
		json_object_object_add(j, "node", json_object_new_string(f->nodes[h->node].desc));
		json_object_object_add(j, "type", json_object_new_string(
					       lanes_node_type_name(f->nodes[h->node].type)));
		json_object_object_add(j, "guid", json_object_new_string(guid));
		json_object_object_add(j, "lid", json_object_new_int64(lid_of_node(f, h->node)));
		json_object_object_add(j, "in_port", json_int_or_null(h->in_port));
		json_object_object_add(j, "out_port", json_int_or_null(h->out_port));
		json_object_object_add(j, "vl", json_int_or_null(h->vl));
		json_object_array_add(hops, j);
	}
	json_object_object_add(o, "hops", hops);
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

/* The routing: from -e, or the tables named. */
static int get_routing(struct targs *a, const struct lanes_fabric *f, struct lanes_routing **r)
{
	const struct lanes_engine *e;
	double t;
	int rc;

	if (!a->engine)
		return cli_load_tables("trace", a->dir, a->lfts, a->sl2vl, a->path_sl, f, &a->fo,
				       a->ro.progress, r);
	if (a->dir || a->lfts)
		return cli_usage_error("trace: -e ENGINE routes itself; drop DIR and --lfts");
	if ((rc = cli_engine_spec("trace", a->engine, strlen(a->engine), &e, a->params,
				  sizeof(a->params))))
		return rc;
	a->ro.params = a->params[0] ? a->params : NULL;
	if ((rc = cli_check_roots("trace", e, &a->ro)))
		return rc;
	return cli_route_fabric(e, f, &a->ro, r, &t);
}

int cmd_trace(int argc, char **argv)
{
	struct targs a;
	struct cli_progress pr;
	struct lanes_fabric *f = NULL;
	struct lanes_routing *r = NULL;
	struct trace t = { NULL, 0, 0, "" };
	uint8_t *visited = NULL;
	uint32_t src, dst;
	int rc;

	memset(&a, 0, sizeof(a));
	cli_fabric_opts_init(&a.fo);
	lanes_route_opts_init(&a.ro);
	if ((rc = parse_args(&a, argc, argv)))
		return rc < 0 ? EXIT_OK : rc;
	a.fo.cmd = "trace";
	a.fo.table_copies = 2; /* the LFTs and the path SLs */
	cli_progress_start(&pr, "trace", a.fo.quiet);
	lanes_progress_phase(&pr.p, "reading the fabric", 0);
	if ((rc = cli_load_fabric(a.nwords, a.words, &a.fo, &f)))
		goto out;
	if (!(src = resolve(f, "SRC", a.src)) || !(dst = resolve(f, "DST", a.dst))) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (src == dst) {
		rc = cli_usage_error("trace: SRC and DST are the same port (LID %u): no path to trace",
				     src);
		goto out;
	}
	lanes_progress_phase(&pr.p, a.engine ? "routing" : "reading the tables", 0);
	a.ro.progress = &pr.p;
	rc = cli_check_memory("trace", f, &a.fo, 2, cli_engine_named(a.engine), &a.ro);
	if (!rc)
		rc = get_routing(&a, f, &r);
	cli_progress_stop(&pr);
	if (rc)
		goto out;
	t.hops = malloc(sizeof(*t.hops) * ((size_t)f->num_switches + 2));
	visited = calloc((size_t)f->num_switches + 1, 1);
	if (!t.hops || !visited) {
		rc = cli_out_of_memory();
		goto out;
	}
	walk(f, r, src, dst, &t, visited);
	if (a.json)
		print_json(f, &t, src, dst);
	else
		print_text(f, &t, src, dst);
	rc = strcmp(t.end, "delivered") ? EXIT_FINDING : EXIT_OK;
out:
	cli_progress_stop(&pr); /* again is harmless */
	free(t.hops);
	free(visited);
	lanes_routing_free(r);
	lanes_fabric_free(f);
	return rc;
}
