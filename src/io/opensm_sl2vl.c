/*
 * opensm_sl2vl.c - SL-to-VL maps as OpenSM's opensm-sl2vl.dump, reader and
 * writer. docs/formats-routing.md has an example.
 *
 * The writer prints what dump_sl2vl_tbl() in OpenSM 3.3.23
 * (opensm/osm_dump.c) prints for each port of its port table:
 *
 *   Switch 0x%016x, base LID %d, "desc"                 (switch: port-0 GUID)
 *   #in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15
 *   #--------------------------------------------------------
 *   %-3d %-3d : then " %-2d" for each of the 16 VLs
 *   #--------------------------------------------------------
 *   (empty line)
 *
 * For a switch the rows are: for each out port 1..N that is cabled (OpenSM
 * skips out ports without a remote port, and port 0 never has one), for
 * each in port 0..N (all of them, cabled or not), the map of (in, out).
 * For a CA or router, OpenSM has one port-table entry per active port, so
 * one block per cabled port, headed "Channel Adapter 0x<port GUID>, base LID
 * <that port's LID>" ("Router" for routers), with a single row "0   0   :"
 * that is the port's own SL2VL table: the map of packets it injects. A
 * dual-port CA therefore has two blocks, told apart by the port GUID.
 * Descriptions are print_desc (63 bytes at most, non-printable bytes as
 * spaces). OpenSM orders blocks by its GUID map; we write node order, then
 * port order. Maps of uncabled out ports and uncabled CA ports are not
 * written, so they read back as map 0 (all VL 0).
 *
 * The reader finds a switch by node (or port-0) GUID and a CA or router
 * port by port GUID, and refuses rows for ports the node does not have,
 * VLs above 15, and CA rows other than "0 0". What a cut or emptied file
 * would slip through is refused too: a file without blocks (every SL would
 * map to VL 0), a block without rows or without its closing separator (the
 * file is truncated there), a block given twice, and a dump that leaves out
 * a switch with cables (OpenSM writes one for each), a row given twice in
 * one block (an edited file: which map would be meant?), and a header whose
 * "base LID" is not the fabric's LID of that switch or port (maps of another
 * fabric or LID assignment whose GUIDs happen to match).
 */
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "fmt.h"
#include "lanes/dump.h"
#include "osm_common.h"
#include "stream.h"
#include "text.h"

static const char header_line[] = "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15";
static const char separator[] = "#--------------------------------------------------------";

struct sl2vl_parse {
	struct lanes_lines *lines;
	const struct lanes_fabric *f;
	struct lanes_routing *r;
	struct lanes_strmap sw;    /* 8-byte switch node / port-0 GUID -> node */
	struct lanes_strmap ports; /* 8-byte CA / router port GUID -> node */
	uint32_t node;             /* node of the current block, or LANES_NONE */
	uint8_t port;              /* its port (CA, router), 0 for a switch */
	unsigned long block_line;  /* where the current block began */
	uint32_t block_rows;       /* its rows so far */
	int block_closed;          /* its closing separator came after its rows */
	uint32_t blocks;
	struct lanes_strmap seen;  /* node index + port of each block -> its line */
	uint32_t *row_line;        /* [in * (nports + 1) + out]: the line of that row, or 0 */
	struct lanes_error *err;
};

static int perr(struct sl2vl_parse *ps, const char *msg)
{
	return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno, "%s", msg);
}

static int map_guids(struct sl2vl_parse *ps)
{
	const struct lanes_fabric *f = ps->f;

	for (uint32_t i = 0; i < f->num_nodes; i++) {
		const struct lanes_node *n = &f->nodes[i];
		int bad = 0;

		if (n->type == LANES_NODE_SWITCH)
			bad = osm_put_guid(&ps->sw, n->guid, i) || osm_put_guid(&ps->sw, f->ports[n->port_base].guid, i);
		else
			for (unsigned p = 1; p <= n->nports && !bad; p++)
				bad = osm_put_guid(&ps->ports, f->ports[n->port_base + p].guid, i);
		if (bad)
			return lanes_error_oom(ps->err);
	}
	return 0;
}

static uint8_t port_of_guid(const struct lanes_fabric *f, uint32_t node, uint64_t guid)
{
	const struct lanes_node *n = &f->nodes[node];

	for (unsigned p = 1; p <= n->nports; p++)
		if (f->ports[n->port_base + p].guid == guid)
			return (uint8_t)p;
	return 0;
}

/* Before the next header or at the end: the block had rows and its separator. */
static int close_block(struct sl2vl_parse *ps)
{
	if (ps->node == LANES_NONE || (ps->block_rows && ps->block_closed))
		return 0;
	return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
				 "truncated: the block of line %lu ends %s", ps->block_line,
				 ps->block_rows ? "without its closing '#---' line" : "without rows");
}

/* Each (node, port) has one block: a second is an edited or concatenated file. */
static int first_block(struct sl2vl_parse *ps)
{
	char key[5];
	uint32_t line;

	memcpy(key, &ps->node, 4);
	key[4] = (char)ps->port;
	if ((line = lanes_strmap_get(&ps->seen, key, 5)) != LANES_NONE)
		return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
					 "a second block for this %s (the first is on line %u)",
					 ps->port ? "port" : "switch", line);
	if (lanes_strmap_put(&ps->seen, key, 5, (uint32_t)ps->lines->lineno))
		return lanes_error_oom(ps->err);
	return 0;
}

/* OpenSM writes a block for every switch with a cabled port. */
static int every_switch(struct sl2vl_parse *ps)
{
	const struct lanes_fabric *f = ps->f;
	char key[5] = { 0 };

	if (!ps->blocks)
		return lanes_error_parse(ps->err, ps->lines->file, 0, "no 'Switch' or 'Channel "
					 "Adapter' block: not an SL2VL dump (empty?)");
	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t node = f->switches[s];

		memcpy(key, &node, 4);
		if (f->adj_off[s] == f->adj_off[s + 1] || lanes_strmap_get(&ps->seen, key, 5) != LANES_NONE)
			continue;
		return lanes_error_parse(ps->err, ps->lines->file, 0,
					 "truncated or of another fabric: no block for switch 0x%016llx "
					 "'%s'; OpenSM dumps every switch", (unsigned long long)f->nodes[node].guid,
					 f->nodes[node].desc ? f->nodes[node].desc : "");
	}
	return 0;
}

/* ", base LID L": the LID the fabric gives this switch or port. */
static int same_lid(struct sl2vl_parse *ps, struct lanes_scan sc)
{
	uint32_t lid = lanes_fabric_lid(ps->f, ps->node, ps->port);
	uint64_t v;

	if (!lanes_scan_word(&sc, "base") || !lanes_scan_word(&sc, "LID") ||
	    !lanes_scan_uint(&sc, UINT64_MAX, &v) || v == lid)
		return 0;
	return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
				 "%s 0x%016llx has LID %llu here and LID %u in the fabric: the maps "
				 "are of another fabric or LID assignment",
				 ps->port ? "port" : "switch",
				 (unsigned long long)ps->f->ports[ps->f->nodes[ps->node].port_base +
								  ps->port].guid,
				 (unsigned long long)v, lid);
}

/* "Switch 0x..., base LID L, "desc"" or "Channel Adapter 0x..." / "Router 0x..." */
static int block_header(struct sl2vl_parse *ps, struct lanes_scan sc, int is_switch)
{
	uint64_t guid;
	uint32_t node;
	int rc;

	if ((rc = close_block(ps)))
		return rc;
	if (!lanes_scan_hex(&sc, &guid) || !lanes_scan_char(&sc, ','))
		return perr(ps, "expected a GUID and ',' after the node type");
	node = osm_get_guid(is_switch ? &ps->sw : &ps->ports, guid);
	if (node == LANES_NONE)
		return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
					 "%s GUID 0x%016llx is not in the fabric",
					 is_switch ? "switch" : "port", (unsigned long long)guid);
	ps->node = node;
	ps->port = is_switch ? 0 : port_of_guid(ps->f, node, guid);
	if ((rc = same_lid(ps, sc)))
		return rc;
	ps->block_line = ps->lines->lineno;
	ps->block_rows = 0;
	if (ps->row_line) /* the new block's (in, out) cells, as first_row() indexes them */
		memset(ps->row_line, 0, sizeof(*ps->row_line) *
		       ((size_t)ps->f->nodes[node].nports + 1) * (ps->f->nodes[node].nports + 1u));
	ps->block_closed = 0;
	ps->blocks++;
	return first_block(ps);
}

/* Each (in, out) has one row in its block: a second names both lines. */
static int first_row(struct sl2vl_parse *ps, uint32_t in, uint32_t out)
{
	size_t k = (size_t)in * (ps->f->nodes[ps->node].nports + 1u) + out;

	if (!ps->row_line && !(ps->row_line = calloc((size_t)(LANES_PORTS_MAX + 1) *
						     (LANES_PORTS_MAX + 1), sizeof(*ps->row_line))))
		return lanes_error_oom(ps->err);
	if (ps->row_line[k])
		return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
					 "the row for in port %u, out port %u is given twice (first "
					 "on line %u)", in, out, ps->row_line[k]);
	ps->row_line[k] = (uint32_t)ps->lines->lineno;
	return 0;
}

/* "in out : v0 .. v15" */
static int row(struct sl2vl_parse *ps, struct lanes_scan sc)
{
	const struct lanes_node *n;
	uint64_t in, out, vl;
	uint8_t map[LANES_NUM_SLS];
	uint16_t idx;
	int rc;

	if (ps->node == LANES_NONE)
		return perr(ps, "an SL2VL row before any 'Switch' or 'Channel Adapter' header");
	n = &ps->f->nodes[ps->node];
	if (!lanes_scan_uint(&sc, 255, &in) || !lanes_scan_uint(&sc, 255, &out) ||
	    !lanes_scan_char(&sc, ':'))
		return perr(ps, "expected 'IN OUT :' at the start of an SL2VL row");
	for (int s = 0; s < LANES_NUM_SLS; s++) {
		if (!lanes_scan_uint(&sc, 15, &vl))
			return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
						 "expected 16 VLs 0..15; SL %d has none or a bad one", s);
		map[s] = (uint8_t)vl;
	}
	if (!lanes_scan_at_end(&sc))
		return perr(ps, "more than 16 VLs in an SL2VL row");
	if (n->type != LANES_NODE_SWITCH && (in || out))
		return perr(ps, "a CA or router block has only the row '0 0' (its port's own map)");
	if (in > n->nports || out > n->nports)
		return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
					 "port %llu is not a port of this switch (0..%u)",
					 (unsigned long long)(in > n->nports ? in : out), n->nports);
	if (ps->block_closed)
		return perr(ps, "an SL2VL row after its block's closing '#---' line");
	if ((rc = first_row(ps, (uint32_t)in, (uint32_t)out)) ||
	    (rc = lanes_routing_add_map(ps->r, map, &idx, ps->err)))
		return rc;
	ps->block_rows++;
	if (n->type == LANES_NODE_SWITCH)
		lanes_routing_set_switch_map(ps->r, ps->f, n->switch_index, (uint8_t)in,
					     (uint8_t)out, idx);
	else
		lanes_routing_set_port_map(ps->r, ps->f, ps->node, ps->port, idx);
	return 0;
}

static int sl2vl_line(struct sl2vl_parse *ps, struct lanes_scan sc)
{
	if (lanes_scan_peek(&sc, "#---") && ps->block_rows)
		ps->block_closed = 1;
	if (lanes_scan_at_end(&sc) || *sc.p == '#')
		return 0;
	if (lanes_scan_word(&sc, "Switch"))
		return block_header(ps, sc, 1);
	if (lanes_scan_word(&sc, "Channel")) {
		if (!lanes_scan_word(&sc, "Adapter"))
			return perr(ps, "expected 'Channel Adapter'");
		return block_header(ps, sc, 0);
	}
	if (lanes_scan_word(&sc, "Router"))
		return block_header(ps, sc, 0);
	if (*sc.p >= '0' && *sc.p <= '9')
		return row(ps, sc);
	return perr(ps, "unrecognised line (expected a 'Switch', 'Channel Adapter' or 'Router' "
			"header, or an 'IN OUT : VLs' row)");
}

struct sl2vl_target {
	const struct lanes_fabric *f;
	struct lanes_routing *r;
};

/* lanes_lines_parser: an SL2VL dump's lines into the routing's maps. */
static int sl2vl_parse(struct lanes_lines *lines, void *ctx, struct lanes_error *err)
{
	const struct sl2vl_target *t = ctx;
	struct sl2vl_parse ps;
	const char *s;
	size_t n;
	int rc;

	if ((rc = lanes_routing_check(t->f, t->r, err)) ||
	    (rc = lanes_routing_enable_sl2vl(t->r, t->f, err)))
		return rc;
	memset(&ps, 0, sizeof(ps));
	ps.lines = lines;
	lanes_strmap_init(&ps.sw);
	lanes_strmap_init(&ps.ports);
	lanes_strmap_init(&ps.seen);
	ps.f = t->f;
	ps.r = t->r;
	ps.node = LANES_NONE;
	ps.err = err;
	rc = map_guids(&ps);
	while (!rc && lanes_lines_next(lines, &s, &n))
		rc = sl2vl_line(&ps, lanes_scan_of(s, n));
	if (!rc && !(rc = close_block(&ps)))
		rc = every_switch(&ps);
	lanes_strmap_clear(&ps.sw);
	lanes_strmap_clear(&ps.ports);
	lanes_strmap_clear(&ps.seen);
	free(ps.row_line);
	if (!rc)
		lanes_routing_count_resources(t->r);
	return rc;
}

int lanes_sl2vl_read(const char *data, size_t len, const char *file, const struct lanes_fabric *f,
		     struct lanes_routing *r, struct lanes_error *err)
{
	struct sl2vl_target t = { f, r };
	struct lanes_lines lines;

	if (lanes_text_compressed(data, len, file, err))
		return LANES_EPARSE;
	lanes_lines_init(&lines, data, len, file);
	return lanes_lines_truncated(&lines, sl2vl_parse(&lines, &t, err), err);
}

int lanes_sl2vl_read_file(const char *path, const struct lanes_fabric *f, struct lanes_routing *r,
			  struct lanes_progress *progress, struct lanes_error *err)
{
	struct sl2vl_target t = { f, r };

	return lanes_io_read_lines(path, sl2vl_parse, &t, progress, err);
}

/* ---- writer ---- */

/*
 * " %-2u" for each SL's VL and the end of line, for the last map seen:
 * neighbouring rows mostly have the same map, so its text is reused.
 */
struct vl_text {
	uint8_t map[LANES_NUM_SLS];
	int valid;
	size_t len;
	char s[LANES_NUM_SLS * (LANES_FMT_U64 + 1) + 1];
};

static const struct vl_text *vl_text(struct vl_text *t, const uint8_t *map)
{
	char *p = t->s;

	if (t->valid && !memcmp(t->map, map, LANES_NUM_SLS))
		return t;
	for (int s = 0; s < LANES_NUM_SLS; s++) {
		*p++ = ' ';
		p = lanes_fmt_dec_left(p, map[s], 2);
	}
	*p++ = '\n';
	memcpy(t->map, map, LANES_NUM_SLS);
	t->len = (size_t)(p - t->s);
	t->valid = 1;
	return t;
}

/* "%-3u %-3u :" and the map's VLs. */
static void write_row(struct lanes_fmt *o, struct vl_text *t, unsigned in, unsigned out_port,
		      const uint8_t *map)
{
	const struct vl_text *vl = vl_text(t, map);
	char *p = lanes_fmt_room(o, 2 * LANES_FMT_U64 + 4 + sizeof(vl->s));

	p = lanes_fmt_dec_left(p, in, 3);
	*p++ = ' ';
	p = lanes_fmt_dec_left(p, out_port, 3);
	*p++ = ' ';
	*p++ = ':';
	memcpy(p, vl->s, vl->len);
	lanes_fmt_done(o, p + vl->len);
}

/* The separator, and an empty line after a block when last. */
static void write_separator(struct lanes_fmt *o, int last)
{
	char *p = lanes_fmt_room(o, sizeof(separator) + 1);

	p = lanes_fmt_str(p, separator);
	*p++ = '\n';
	if (last)
		*p++ = '\n';
	lanes_fmt_done(o, p);
}

/* "%s 0x%016llx, base LID %u, \"%s\"\n", the column header and the separator. */
static void write_header(struct lanes_fmt *o, const char *type, uint64_t guid, uint32_t lid,
			 const char *desc)
{
	char d[64], *p = lanes_fmt_room(o, 64 + 2 * LANES_FMT_U64 + 64 + sizeof(header_line));

	lanes_osm_print_desc(desc, d);
	p = lanes_fmt_str(p, type);
	p = lanes_fmt_str(p, " 0x");
	p = lanes_fmt_hex0(p, guid, 16);
	p = lanes_fmt_str(p, ", base LID ");
	p = lanes_fmt_dec(p, lid);
	p = lanes_fmt_str(p, ", \"");
	p = lanes_fmt_str(p, d);
	p = lanes_fmt_str(p, "\"\n");
	p = lanes_fmt_str(p, header_line);
	*p++ = '\n';
	lanes_fmt_done(o, p);
	write_separator(o, 0);
}

static void write_switch(struct lanes_fmt *o, struct vl_text *t, const struct lanes_fabric *f,
			 const struct lanes_routing *r, uint32_t node)
{
	const struct lanes_node *n = &f->nodes[node];

	write_header(o, "Switch", f->ports[n->port_base].guid, lanes_fabric_lid(f, node, 0),
		     n->desc);
	for (unsigned op = 1; op <= n->nports; op++) {
		if (f->ports[n->port_base + op].peer_node == LANES_NONE)
			continue;
		for (unsigned i = 0; i <= n->nports; i++)
			write_row(o, t, i, op,
				  lanes_routing_switch_map(r, f, n->switch_index, (uint8_t)i,
							   (uint8_t)op));
	}
	write_separator(o, 1);
}

static void write_endport(struct lanes_fmt *o, struct vl_text *t, const struct lanes_fabric *f,
			  const struct lanes_routing *r, uint32_t node)
{
	const struct lanes_node *n = &f->nodes[node];
	const char *type = n->type == LANES_NODE_ROUTER ? "Router" : "Channel Adapter";

	for (unsigned p = 1; p <= n->nports; p++) {
		const struct lanes_port *port = &f->ports[n->port_base + p];

		if (port->peer_node == LANES_NONE)
			continue;
		write_header(o, type, port->guid, port->lid, n->desc);
		write_row(o, t, 0, 0, lanes_routing_port_map(r, f, node, (uint8_t)p));
		write_separator(o, 1);
	}
}

int lanes_sl2vl_write(const struct lanes_fabric *f, const struct lanes_routing *r, FILE *out,
		      struct lanes_error *err)
{
	struct vl_text t = { .valid = 0 };
	struct lanes_fmt o;
	int rc = lanes_routing_check(f, r, err);

	if (rc)
		return rc;
	lanes_fmt_init(&o, out);
	for (uint32_t i = 0; i < f->num_nodes; i++) {
		if (f->nodes[i].type == LANES_NODE_SWITCH)
			write_switch(&o, &t, f, r, i);
		else
			write_endport(&o, &t, f, r, i);
	}
	lanes_fmt_flush(&o);
	if (ferror(out))
		return lanes_error_set(err, LANES_EIO, "write error");
	return 0;
}
