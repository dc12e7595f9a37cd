/*
 * opensm_lfts.c - linear forwarding tables as files: OpenSM's
 * opensm-lfts.dump (read and write), and the output of infiniband-diags'
 * ibroute and dump_lfts.sh (read). docs/formats-routing.md has examples.
 *
 * The writer prints what dump_ucast_lfts() in OpenSM 3.3.23
 * (opensm/osm_dump.c) prints, byte for byte, per switch:
 *
 *   Unicast lids [0-M] of switch Lid L guid 0x%016x ('desc'):
 *   0x%04x %03u # Switch portguid 0x%016x: 'desc'        (one line per LID)
 *   0x%04x %03u # Channel Adapter portguid 0x%016x: 'desc'
 *   0x%04x %03u # unknown node and type                  (a LID no port owns)
 *   M lids dumped
 *
 * M is the subnet's highest LID (not a count). LIDs 0..M are walked and a
 * LID is left out when its entry is not a port of the switch (port >=
 * NumPorts + 1), which is how OpenSM leaves out 255 (OSM_NO_PATH, our drop).
 * Descriptions are OpenSM's print_desc: the NodeDescription cut to 63
 * bytes, non-printable bytes shown as spaces (clean_nodedesc()). OpenSM
 * walks switches in its GUID map order; we write them in node order, which
 * its loader does not care about.
 *
 * The reader follows OpenSM's loader (opensm/osm_ucast_file.c, what
 * `opensm -R file -U FILE` runs): a line starting "Unicast lids" opens a
 * switch, found by the hex number after " guid 0x"; a line starting "0x" is
 * an entry "LID PORT" and the rest of it (OpenSM's "# ..." or ibroute's
 * ": (...)") is a comment. Unlike OpenSM it refuses what it cannot place:
 * an unknown switch GUID, a LID above the fabric's highest, a port the
 * switch does not have (255 is accepted as drop). It also accepts what
 * ibroute and dump_lfts.sh (dump_fts) print around the entries: the
 * "Lid Out Destination" / "Port Info" column header, "N valid lids dumped",
 * "DR path ..." in the header, and the script's "*** WARNING ***" lines.
 * A block replaces that switch's table, as in OpenSM; switches and LIDs the
 * file does not name stay "drop".
 *
 * What an edited or cut file would otherwise slip through is refused, with
 * the lines involved: a LID twice in one switch's table, a switch's table
 * twice, a table without its closing "N lids dumped" line (the file is
 * truncated there), an ibroute table whose "N valid lids dumped" does not
 * count its entries, and an OpenSM dump that leaves switches of the fabric
 * out (OpenSM dumps every switch; ibroute's output may hold one). Where a
 * line names who owns a LID (the header's "switch Lid L", an entry's
 * "portguid 0x..."), the fabric must agree: tables of another fabric, or of
 * an older LID assignment, whose switch GUIDs happen to match, are refused
 * at the first LID that differs.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "fmt.h"
#include "formats.h"
#include "osm_common.h"
#include "stream.h"
#include "lanes/dump.h"
#include "text.h"

struct lft_parse {
	struct lanes_lines *lines;
	const struct lanes_fabric *f;
	struct lanes_routing *r;
	struct lanes_strmap guids; /* 8-byte node or port-0 GUID -> node index */
	uint32_t sw;               /* switch of the current block, or LANES_NONE */
	uint32_t blocks;
	int block_open;            /* the current block has not seen its "lids dumped" line */
	uint64_t block_entries;    /* entry lines in the current block */
	uint64_t range_lo, range_hi; /* the header's "[lo-hi]" LIDs ... */
	int range_given;           /* ... when it gives them */
	int opensm_dump;           /* a "M lids dumped" trailer: OpenSM's own file */
	unsigned long *block_line; /* per switch: the line its block began on, 0 for none */
	unsigned long *lid_line;   /* per LID: the line of its entry in the current block */
	uint32_t *lid_block;       /* per LID: the block (1-based) that line belongs to */
	struct lanes_error *err;
};

static int perr(struct lft_parse *ps, const char *msg)
{
	return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno, "%s", msg);
}

/* Node GUIDs of every node, and port-0 GUIDs of switches where they differ. */
static int map_guids(struct lft_parse *ps)
{
	const struct lanes_fabric *f = ps->f;

	for (uint32_t i = 0; i < f->num_nodes; i++) {
		uint64_t g = f->nodes[i].guid, g0 = f->ports[f->nodes[i].port_base].guid;

		if (osm_put_guid(&ps->guids, g, i) ||
		    (f->nodes[i].type == LANES_NODE_SWITCH && g0 != g &&
		     osm_put_guid(&ps->guids, g0, i)))
			return lanes_error_oom(ps->err);
	}
	return 0;
}

/* The first occurrence of needle in the scanner's range, or NULL. */
static const char *find(const struct lanes_scan *sc, const char *needle)
{
	size_t n = strlen(needle);

	for (const char *p = sc->p; p + n <= sc->end; p++)
		if (!memcmp(p, needle, n))
			return p;
	return NULL;
}

static int at_blank(const struct lanes_scan *sc)
{
	return sc->p >= sc->end || *sc->p == ' ' || *sc->p == '\t';
}

/* Before the next header or at the end: the current block must be closed. */
static int close_block(struct lft_parse *ps)
{
	const struct lanes_node *n;

	if (!ps->block_open)
		return 0;
	n = &ps->f->nodes[ps->f->switches[ps->sw]];
	return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
				 "truncated: the table of switch 0x%016llx ('%s', line %lu) ends "
				 "without its 'lids dumped' line", (unsigned long long)n->guid,
				 n->desc ? n->desc : "", ps->block_line[ps->sw]);
}

/* OpenSM's header says "of switch Lid L" (decimal): the fabric's LID of that switch. */
static int same_switch_lid(struct lft_parse *ps, struct lanes_scan sc, uint32_t node)
{
	const char *l = find(&sc, "of switch Lid ");
	uint32_t lid = lanes_fabric_lid(ps->f, node, 0);
	uint64_t v;

	if (!l)
		return 0;
	sc.p = l + 14;
	if (!lanes_scan_uint(&sc, UINT64_MAX, &v) || v == lid)
		return 0;
	return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
				 "switch 0x%016llx has LID %llu here and LID %u in the fabric: the "
				 "tables are of another fabric or LID assignment",
				 (unsigned long long)ps->f->nodes[node].guid, (unsigned long long)v, lid);
}

/* A number of the header's range: hex after 0x (ibroute), else decimal (OpenSM). */
static int range_number(struct lanes_scan *sc, uint64_t *v)
{
	if (lanes_scan_peek(sc, "0x") || lanes_scan_peek(sc, "0X"))
		return lanes_scan_hex(sc, v);
	return lanes_scan_uint(sc, UINT64_MAX, v);
}

/* "Unicast lids [lo-hi]": the LIDs the table covers (OpenSM: [0-M], M as its trailer). */
static int header_range(struct lft_parse *ps, struct lanes_scan sc)
{
	ps->range_given = 0;
	if (!lanes_scan_word(&sc, "Unicast") || !lanes_scan_word(&sc, "lids") ||
	    !lanes_scan_char(&sc, '['))
		return 0;
	if (!range_number(&sc, &ps->range_lo) || !lanes_scan_char(&sc, '-') ||
	    !range_number(&sc, &ps->range_hi) || !lanes_scan_char(&sc, ']') ||
	    ps->range_lo > ps->range_hi)
		return perr(ps, "cannot read the header's LID range (expected '[LO-HI]')");
	ps->range_given = 1;
	return 0;
}

/* "Unicast lids [..] of switch Lid L guid 0x... (desc):" */
static int header(struct lft_parse *ps, struct lanes_scan sc)
{
	const struct lanes_scan line = sc;
	const char *g = find(&sc, " guid 0x");
	uint64_t guid;
	uint32_t node, lid;
	int rc;

	if (!g)
		return perr(ps, "cannot find the switch GUID (' guid 0x...') in this header");
	sc.p = g + 6;
	if (!lanes_scan_hex(&sc, &guid) || !at_blank(&sc))
		return perr(ps, "cannot read the switch GUID in this header");
	node = osm_get_guid(&ps->guids, guid);
	if (node == LANES_NONE)
		return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
					 "switch GUID 0x%016llx is not in the fabric",
					 (unsigned long long)guid);
	if (ps->f->nodes[node].type != LANES_NODE_SWITCH)
		return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
					 "GUID 0x%016llx is a %s, not a switch",
					 (unsigned long long)guid,
					 lanes_node_type_name(ps->f->nodes[node].type));
	if ((rc = close_block(ps)))
		return rc;
	ps->sw = ps->f->nodes[node].switch_index;
	if ((rc = same_switch_lid(ps, line, node)) || (rc = header_range(ps, line)))
		return rc;
	if (ps->block_line[ps->sw])
		return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
					 "a second table for switch 0x%016llx (the first began on "
					 "line %lu)", (unsigned long long)guid, ps->block_line[ps->sw]);
	ps->block_line[ps->sw] = ps->lines->lineno;
	ps->block_open = 1;
	ps->block_entries = 0;
	ps->blocks++;
	for (lid = 0; lid < ps->r->num_lids; lid++)
		lanes_routing_set_port(ps->r, ps->sw, lid, LANES_PORT_DROP);
	return 0;
}

/* The port GUID the fabric gives a LID's owner (a switch: its node or port-0 GUID). */
static int owner_has_guid(const struct lanes_fabric *f, uint32_t lid, uint64_t guid)
{
	const struct lanes_lid_owner *o = &f->lid_owner[lid];
	const struct lanes_node *n;

	if (o->node == LANES_NONE)
		return 0;
	n = &f->nodes[o->node];
	return f->ports[n->port_base + o->port].guid == guid ||
	       (n->type == LANES_NODE_SWITCH && n->guid == guid);
}

/* An entry's comment "... portguid 0x...": the LID's owner as the file saw it. */
static int same_owner(struct lft_parse *ps, struct lanes_scan sc, uint32_t lid)
{
	const char *g = find(&sc, "portguid 0x");
	const struct lanes_lid_owner *o = &ps->f->lid_owner[lid];
	uint64_t guid;

	if (!g)
		return 0;
	sc.p = g + 9;
	if (!lanes_scan_hex(&sc, &guid) || owner_has_guid(ps->f, lid, guid))
		return 0;
	if (o->node == LANES_NONE)
		return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
					 "LID 0x%04x is port GUID 0x%016llx here and no port's in the "
					 "fabric: the tables are of another fabric or LID assignment",
					 lid, (unsigned long long)guid);
	return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
				 "LID 0x%04x is port GUID 0x%016llx here and port %u of '%s' in the "
				 "fabric: the tables are of another fabric or LID assignment", lid,
				 (unsigned long long)guid, o->port,
				 ps->f->nodes[o->node].desc ? ps->f->nodes[o->node].desc : "");
}

/* "0xLLLL PPP ..." */
static int entry(struct lft_parse *ps, struct lanes_scan sc)
{
	const struct lanes_node *n;
	uint64_t lid, port;
	int rc;

	if (ps->sw == LANES_NONE)
		return perr(ps, "an LFT entry before any 'Unicast lids ... guid 0x...' header");
	n = &ps->f->nodes[ps->f->switches[ps->sw]];
	if (!lanes_scan_hex(&sc, &lid) || !at_blank(&sc))
		return perr(ps, "cannot read the LID (expected 0x followed by hex digits)");
	if (!lanes_scan_uint(&sc, 255, &port) || !at_blank(&sc))
		return perr(ps, "cannot read the out port (expected a number 0..255 after the LID)");
	if (lid > ps->f->max_lid)
		return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
					 "LID 0x%04llx is above the fabric's highest LID 0x%04x",
					 (unsigned long long)lid, ps->f->max_lid);
	if (port > n->nports && port != LANES_PORT_DROP)
		return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
					 "port %llu is not a port of switch 0x%016llx (0..%u, or 255 for drop)",
					 (unsigned long long)port, (unsigned long long)n->guid,
					 n->nports);
	if (!lanes_scan_at_end(&sc) && *sc.p != '#' && *sc.p != ':')
		return perr(ps, "unexpected text after the out port (expected '#' or ':')");
	if ((rc = same_owner(ps, sc, (uint32_t)lid)))
		return rc;
	if (ps->range_given && (lid < ps->range_lo || lid > ps->range_hi))
		return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
					 "LID 0x%04llx is outside the LIDs [%llu-%llu] that the "
					 "header (line %lu) gives this table",
					 (unsigned long long)lid, (unsigned long long)ps->range_lo,
					 (unsigned long long)ps->range_hi, ps->block_line[ps->sw]);
	if (!ps->block_open)
		return perr(ps, "an LFT entry after its table's 'lids dumped' line");
	if (ps->lid_block[lid] == ps->blocks)
		return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
					 "LID 0x%04llx is given twice in the table of switch 0x%016llx "
					 "(first on line %lu)", (unsigned long long)lid,
					 (unsigned long long)n->guid, ps->lid_line[lid]);
	ps->lid_block[lid] = ps->blocks;
	ps->lid_line[lid] = ps->lines->lineno;
	ps->block_entries++;
	lanes_routing_set_port(ps->r, ps->sw, (uint32_t)lid, (uint8_t)port);
	return 0;
}

/* Lines that ibroute and dump_lfts.sh print around the entries. */
static int ignorable(struct lanes_scan sc)
{
	if (lanes_scan_peek(&sc, "***") || lanes_scan_peek(&sc, "ibwarn:"))
		return 1;
	if (lanes_scan_word(&sc, "Lid"))
		return lanes_scan_word(&sc, "Out");
	if (lanes_scan_word(&sc, "Port"))
		return lanes_scan_word(&sc, "Info") && lanes_scan_at_end(&sc);
	return 0;
}

/*
 * "M lids dumped" (OpenSM: M is the highest LID) or "N valid lids dumped"
 * (ibroute, dump_lfts.sh: N counts the entries) closes a block. 1 if the
 * line is one (*rc set), 0 if not.
 */
static int trailer(struct lft_parse *ps, struct lanes_scan sc, int *rc)
{
	uint64_t n;
	int valid;

	if (!lanes_scan_uint(&sc, UINT64_MAX, &n))
		return 0;
	valid = lanes_scan_word(&sc, "valid");
	if (!lanes_scan_word(&sc, "lids") || !lanes_scan_word(&sc, "dumped") ||
	    !lanes_scan_at_end(&sc))
		return 0;
	if (!ps->block_open)
		*rc = perr(ps, "a 'lids dumped' line that closes no table");
	else if (valid && n != ps->block_entries)
		*rc = lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
					"%llu valid lids dumped, but the table (line %lu) has %llu "
					"entries: lines are missing or added", (unsigned long long)n,
					ps->block_line[ps->sw], (unsigned long long)ps->block_entries);
	else if (!valid && ps->range_given && n != ps->range_hi)
		*rc = lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
					"%llu lids dumped, but the header (line %lu) gives LIDs "
					"[%llu-%llu]: OpenSM prints the highest LID of the table "
					"on both",
					(unsigned long long)n, ps->block_line[ps->sw],
					(unsigned long long)ps->range_lo,
					(unsigned long long)ps->range_hi);
	ps->opensm_dump |= !valid;
	ps->block_open = 0;
	return 1;
}

/*
 * An OpenSM dump holds every switch, and so does dump_lfts.sh's (ibroute's
 * tables of every switch, one after another): a switch left out means a cut
 * file. A file of one ibroute table may hold one switch.
 */
static int every_switch(struct lft_parse *ps)
{
	uint32_t missing = 0, first = LANES_NONE;

	if (!ps->opensm_dump && ps->blocks < 2)
		return 0;
	for (uint32_t s = 0; s < ps->f->num_switches; s++)
		if (!ps->block_line[s] && !missing++)
			first = s;
	if (!missing)
		return 0;
	const struct lanes_node *n = &ps->f->nodes[ps->f->switches[first]];

	return lanes_error_parse(ps->err, ps->lines->file, 0,
				 "truncated or of another fabric: no table for %u of the fabric's %u "
				 "switches (the first: 0x%016llx '%s'); %s every switch",
				 missing, ps->f->num_switches, (unsigned long long)n->guid,
				 n->desc ? n->desc : "",
				 ps->opensm_dump ? "OpenSM dumps"
						 : "dump_lfts.sh prints the table of");
}

static int lft_line(struct lft_parse *ps, struct lanes_scan sc)
{
	int rc = 0;

	if (lanes_scan_at_end(&sc) || *sc.p == '#')
		return 0;
	if (lanes_scan_peek(&sc, "Unicast lids"))
		return header(ps, sc);
	if (lanes_scan_peek(&sc, "0x") || lanes_scan_peek(&sc, "0X"))
		return entry(ps, sc);
	if (lanes_scan_peek(&sc, "Multicast mlids"))
		return perr(ps, "this is a multicast forwarding table; expected unicast LFTs");
	if (ignorable(sc))
		return 0;
	if (trailer(ps, sc, &rc))
		return rc;
	return perr(ps, "unrecognised line (expected 'Unicast lids ...', '0xLID PORT ...' or "
			"'N lids dumped')");
}

struct lft_target {
	const struct lanes_fabric *f;
	struct lanes_routing *r;
};

/* lanes_lines_parser: an LFT file's lines into the routing's tables. */
static int lfts_parse(struct lanes_lines *lines, void *ctx, struct lanes_error *err)
{
	const struct lft_target *t = ctx;
	struct lft_parse ps;
	const char *s;
	size_t n;
	int rc;

	if ((rc = lanes_routing_check(t->f, t->r, err)))
		return rc;
	memset(&ps, 0, sizeof(ps));
	ps.lines = lines;
	lanes_strmap_init(&ps.guids);
	ps.f = t->f;
	ps.r = t->r;
	ps.sw = LANES_NONE;
	ps.err = err;
	ps.block_line = calloc(t->f->num_switches + 1, sizeof(*ps.block_line));
	ps.lid_line = calloc(t->r->num_lids + 1, sizeof(*ps.lid_line));
	ps.lid_block = calloc(t->r->num_lids + 1, sizeof(*ps.lid_block));
	rc = ps.block_line && ps.lid_line && ps.lid_block ? map_guids(&ps) : lanes_error_oom(err);
	while (!rc && lanes_lines_next(lines, &s, &n))
		rc = lft_line(&ps, lanes_scan_of(s, n));
	if (!rc && !ps.blocks)
		rc = perr(&ps, "no 'Unicast lids ... guid 0x...' header: not an LFT dump");
	if (!rc && !(rc = close_block(&ps)))
		rc = every_switch(&ps);
	lanes_strmap_clear(&ps.guids);
	free(ps.block_line);
	free(ps.lid_line);
	free(ps.lid_block);
	return rc;
}

int lanes_lfts_read(const char *data, size_t len, const char *file, const struct lanes_fabric *f,
		    struct lanes_routing *r, struct lanes_error *err)
{
	struct lft_target t = { f, r };
	struct lanes_lines lines;

	if (lanes_text_compressed(data, len, file, err))
		return LANES_EPARSE;
	lanes_lines_init(&lines, data, len, file);
	return lanes_lines_truncated(&lines, lfts_parse(&lines, &t, err), err);
}

int lanes_lfts_read_file(const char *path, const struct lanes_fabric *f, struct lanes_routing *r,
			 struct lanes_progress *progress, struct lanes_error *err)
{
	struct lft_target t = { f, r };

	return lanes_io_read_lines(path, lfts_parse, &t, progress, err);
}

/* ---- writer ---- */

/*
 * Each LID's line ends with the same text on every switch ("Switch portguid
 * 0x...: 'desc'\n"), so it is formatted once per LID into a slot of this
 * size: "Channel Adapter portguid 0x" + 16 + ": '" + 63 + "'\n" fits.
 */
#define LID_TEXT 120

struct lid_text {
	uint8_t len;
	char s[LID_TEXT];
};

static const char *type_str(int type)
{
	return type == LANES_NODE_SWITCH ? "Switch"
	       : type == LANES_NODE_CA	 ? "Channel Adapter"
	       : type == LANES_NODE_ROUTER ? "Router"
					   : "UNKNOWN";
}

/* "<type> portguid 0x%016llx: '<desc>'\n", or "unknown node and type\n". */
static void lid_text(const struct lanes_fabric *f, uint32_t lid, struct lid_text *t)
{
	const struct lanes_lid_owner *o = &f->lid_owner[lid];
	char desc[64], *p = t->s;

	if (o->node == LANES_NONE) {
		p = lanes_fmt_str(p, "unknown node and type\n");
	} else {
		lanes_osm_print_desc(f->nodes[o->node].desc, desc);
		p = lanes_fmt_str(p, type_str(f->nodes[o->node].type));
		p = lanes_fmt_str(p, " portguid 0x");
		p = lanes_fmt_hex0(p, lanes_fabric_port(f, o->node, o->port)->guid, 16);
		p = lanes_fmt_str(p, ": '");
		p = lanes_fmt_str(p, desc);
		p = lanes_fmt_str(p, "'\n");
	}
	t->len = (uint8_t)(p - t->s);
}

/* "0x%04x %03u # " and the LID's text. */
static void write_entry(struct lanes_fmt *o, uint32_t lid, unsigned port,
			const struct lid_text *t)
{
	char *p = lanes_fmt_room(o, 2 * LANES_FMT_U64 + 6 + LID_TEXT);

	*p++ = '0';
	*p++ = 'x';
	p = lanes_fmt_hex0(p, lid, 4);
	*p++ = ' ';
	p = lanes_fmt_dec0(p, port, 3);
	p = lanes_fmt_str(p, " # ");
	memcpy(p, t->s, t->len);
	lanes_fmt_done(o, p + t->len);
}

/* "Unicast lids [0-%u] of switch Lid %u guid 0x%016llx ('%s'):\n" */
static void write_header(struct lanes_fmt *o, const struct lanes_fabric *f, uint32_t node)
{
	char desc[64], *p = lanes_fmt_room(o, 3 * LANES_FMT_U64 + 64 + 64);

	lanes_osm_print_desc(f->nodes[node].desc, desc);
	p = lanes_fmt_str(p, "Unicast lids [0-");
	p = lanes_fmt_dec(p, f->max_lid);
	p = lanes_fmt_str(p, "] of switch Lid ");
	p = lanes_fmt_dec(p, lanes_fabric_lid(f, node, 0));
	p = lanes_fmt_str(p, " guid 0x");
	p = lanes_fmt_hex0(p, f->nodes[node].guid, 16);
	p = lanes_fmt_str(p, " ('");
	p = lanes_fmt_str(p, desc);
	p = lanes_fmt_str(p, "'):\n");
	lanes_fmt_done(o, p);
}

static void write_switch(struct lanes_fmt *o, const struct lanes_fabric *f,
			 const struct lanes_routing *r, const struct lid_text *text, uint32_t sw)
{
	const struct lanes_node *n = &f->nodes[f->switches[sw]];
	char *p;

	write_header(o, f, f->switches[sw]);
	for (uint32_t lid = 0; lid <= f->max_lid; lid++) {
		uint8_t port = lanes_routing_port(r, sw, lid);

		if (port <= n->nports)
			write_entry(o, lid, port, &text[lid]);
	}
	p = lanes_fmt_room(o, LANES_FMT_U64 + 16);
	p = lanes_fmt_dec(p, f->max_lid);
	p = lanes_fmt_str(p, " lids dumped\n");
	lanes_fmt_done(o, p);
}

int lanes_lfts_write(const struct lanes_fabric *f, const struct lanes_routing *r, FILE *out,
		     struct lanes_error *err)
{
	struct lid_text *text;
	struct lanes_fmt o;
	int rc = lanes_routing_check(f, r, err);

	if (rc)
		return rc;
	if (!(text = malloc(sizeof(*text) * ((size_t)f->max_lid + 1))))
		return lanes_error_oom(err);
	for (uint32_t lid = 0; lid <= f->max_lid; lid++)
		lid_text(f, lid, &text[lid]);
	lanes_fmt_init(&o, out);
	for (uint32_t s = 0; s < f->num_switches; s++)
		write_switch(&o, f, r, text, s);
	lanes_fmt_flush(&o);
	free(text);
	if (ferror(out))
		return lanes_error_set(err, LANES_EIO, "write error");
	return 0;
}
