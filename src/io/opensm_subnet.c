/*
 * opensm_subnet.c - OpenSM's opensm-subnet.lst read as a fabric (read only).
 *
 * OpenSM 3.3.23 writes it in dump_topology_node() (opensm/osm_dump.c): one
 * line per cabled port of every node, so each cable appears from both ends:
 *
 *   { SW Ports:08 SystemGUID:%016x NodeGUID:%016x PortGUID:%016x VenID:%06X
 *     DevID:%04X Rev:%08X {desc} LID:%04X PN:%02X } { ...the peer, VenID %08X... }
 *     PHY=4x LOG=ACT SPD=10
 *
 * The type is SW, CA or Rt ("**" for anything else, refused here), with
 * "-SM" appended when that port's LID is the master SM's. Ports, LID and PN
 * are hex. LID is the switch's port-0 LID for a switch, else the port's own.
 * PHY is the active width (1x, 4x, 8x, 12x, ??) and SPD the active speed:
 * 2.5, 5, 10, FDR10, 14, 25 from OpenSM, 50, 100 and 200 accepted for later
 * speeds, ?? unknown. LOG (the port state) is ignored: a listed cable is
 * kept whatever its state. The description is OpenSM's print_desc and may
 * hold braces; it ends at the first "} LID:".
 *
 * Nodes are built in first-seen order (OpenSM writes its GUID map order),
 * identified by node GUID; every sighting must agree on type and port
 * count. The file has no LMC, so every LMC is 0, and no uncabled port, so
 * nodes that OpenSM saw without cables are missing.
 */
#include <stdlib.h>
#include <string.h>

#include "../fabric/builder_internal.h"
#include "../core/util.h"
#include "formats.h"
#include "stream.h"
#include "text.h"

/* One end of a link line. */
struct end {
	uint64_t sysguid, nodeguid, portguid, rev;
	uint64_t vendid, devid, lid, nports, port;
	const char *desc;
	size_t desclen;
	uint8_t type;
};

struct subnet_parse {
	struct lanes_lines lines;
	struct lanes_builder *b;
	struct lanes_strmap nodes; /* 8-byte node GUID -> node index */
	uint8_t *types;            /* node index -> type, to check later sightings */
	size_t cap_types, cap_node_line;
	unsigned long *node_line;  /* node index -> the line that first listed it */
	struct lanes_strmap lid_keys; /* node GUID + port + what -> index in lid_seen */
	struct lid_sighting { uint64_t value; unsigned long line; } *lid_seen;
	size_t n_lid_seen, cap_lid_seen;
	struct lanes_error *err;
};

static int perr(struct subnet_parse *ps, const char *msg)
{
	return lanes_error_parse(ps->err, ps->lines.file, ps->lines.lineno, "%s", msg);
}

/* "Key:" immediately followed by hex digits. */
static int hex_field(struct lanes_scan *sc, const char *key, uint64_t max, uint64_t *v)
{
	const char *before = sc->p;
	size_t n = strlen(key);

	if (!lanes_scan_peek(sc, key))
		return 0;
	sc->p += n;
	if (sc->p >= sc->end || *sc->p == ' ' || !lanes_scan_hex(sc, v) || *v > max) {
		sc->p = before;
		return 0;
	}
	return 1;
}

static int node_type(struct lanes_scan *sc, uint8_t *type)
{
	const char *t;
	size_t n;

	if (!lanes_scan_token(sc, &t, &n))
		return 0;
	if (n > 3 && !memcmp(t + n - 3, "-SM", 3))
		n -= 3;
	if (n != 2)
		return 0;
	*type = !memcmp(t, "SW", 2) ? LANES_NODE_SWITCH
		: !memcmp(t, "CA", 2) ? LANES_NODE_CA
		: !memcmp(t, "Rt", 2) ? LANES_NODE_ROUTER
				      : 0;
	return *type != 0;
}

/* "{desc}" up to the first "} LID:". */
static int desc_field(struct lanes_scan *sc, struct end *e)
{
	if (!lanes_scan_char(sc, '{'))
		return 0;
	for (const char *p = sc->p; p + 6 <= sc->end; p++)
		if (!memcmp(p, "} LID:", 6)) {
			e->desc = sc->p;
			e->desclen = (size_t)(p - sc->p);
			sc->p = p + 1;
			return 1;
		}
	return 0;
}

static int parse_end(struct subnet_parse *ps, struct lanes_scan *sc, struct end *e)
{
	memset(e, 0, sizeof(*e));
	if (!lanes_scan_char(sc, '{'))
		return perr(ps, "expected '{' to open a port record");
	if (!node_type(sc, &e->type))
		return perr(ps, "expected a node type SW, CA or Rt (with an optional -SM)");
	if (!hex_field(sc, "Ports:", LANES_PORTS_MAX, &e->nports) || !e->nports ||
	    !hex_field(sc, "SystemGUID:", UINT64_MAX, &e->sysguid) ||
	    !hex_field(sc, "NodeGUID:", UINT64_MAX, &e->nodeguid) ||
	    !hex_field(sc, "PortGUID:", UINT64_MAX, &e->portguid) ||
	    !hex_field(sc, "VenID:", UINT32_MAX, &e->vendid) ||
	    !hex_field(sc, "DevID:", UINT32_MAX, &e->devid) ||
	    !hex_field(sc, "Rev:", UINT32_MAX, &e->rev))
		return perr(ps, "expected Ports:NN (1..FE) SystemGUID: NodeGUID: PortGUID: VenID: "
				"DevID: Rev: with hex values");
	if (!desc_field(sc, e))
		return perr(ps, "expected '{description}' followed by '} LID:'");
	if (!hex_field(sc, "LID:", 0xFFFF, &e->lid) || !hex_field(sc, "PN:", 0xFF, &e->port) ||
	    !lanes_scan_char(sc, '}'))
		return perr(ps, "expected LID:XXXX PN:XX } after the description");
	if (!e->nodeguid)
		return perr(ps, "node GUID 0 is not a GUID");
	if (e->port < 1 || e->port > e->nports)
		return lanes_error_parse(ps->err, ps->lines.file, ps->lines.lineno,
					 "port %llu is outside 1..%llu of this node",
					 (unsigned long long)e->port, (unsigned long long)e->nports);
	return 0;
}

static uint8_t width_of(const char *t, size_t n)
{
	static const struct { const char *s; uint8_t w; } widths[] = {
		{ "1x", 1 }, { "2x", 2 }, { "4x", 4 }, { "8x", 8 }, { "12x", 12 },
	};

	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		if (strlen(widths[i].s) == n && !memcmp(widths[i].s, t, n))
			return widths[i].w;
	return 0;
}

static uint8_t speed_of(const char *t, size_t n)
{
	static const struct { const char *s; uint8_t speed; } speeds[] = {
		{ "2.5", LANES_SPEED_SDR },  { "5", LANES_SPEED_DDR },    { "10", LANES_SPEED_QDR },
		{ "FDR10", LANES_SPEED_FDR10 }, { "14", LANES_SPEED_FDR }, { "25", LANES_SPEED_EDR },
		{ "50", LANES_SPEED_HDR },   { "100", LANES_SPEED_NDR },  { "200", LANES_SPEED_XDR },
	};

	for (size_t i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
		if (strlen(speeds[i].s) == n && !memcmp(speeds[i].s, t, n))
			return speeds[i].speed;
	return 0;
}

/* "PHY=4x LOG=ACT SPD=10", each optional; unknown values are "unknown". */
static int link_tail(struct subnet_parse *ps, struct lanes_scan sc, uint8_t *width, uint8_t *speed)
{
	const char *t;
	size_t n;

	*width = *speed = 0;
	while (lanes_scan_token(&sc, &t, &n)) {
		if (n >= 4 && !memcmp(t, "PHY=", 4))
			*width = width_of(t + 4, n - 4);
		else if (n >= 4 && !memcmp(t, "SPD=", 4))
			*speed = speed_of(t + 4, n - 4);
		else if (n < 4 || memcmp(t, "LOG=", 4))
			return perr(ps, "expected PHY=, LOG= and SPD= after the two port records");
	}
	return 0;
}

/* A sighting whose node GUID is another node's (another type or port count). */
static int other_node(struct subnet_parse *ps, const struct end *e, uint32_t node)
{
	return lanes_error_parse(ps->err, ps->lines.file, ps->lines.lineno,
				 "node GUID 0x%016llx is a %s of %llu ports here and a %s of %u "
				 "ports on line %lu: two nodes share it",
				 (unsigned long long)e->nodeguid, lanes_node_type_name(e->type),
				 (unsigned long long)e->nports, lanes_node_type_name(ps->types[node]),
				 lanes_builder_nports(ps->b, node), ps->node_line[node]);
}

/* The node of an end: found by node GUID, or added now. */
static int node_of(struct subnet_parse *ps, const struct end *e, uint32_t *node)
{
	struct lanes_node_spec spec = { e->type, (uint8_t)e->nports, e->nodeguid, e->sysguid,
					(uint32_t)e->vendid, (uint32_t)e->devid, NULL };
	char *desc;
	int rc;

	*node = lanes_strmap_get(&ps->nodes, (const char *)&e->nodeguid, 8);
	if (*node != LANES_NONE) {
		if (ps->types[*node] != e->type || lanes_builder_nports(ps->b, *node) != e->nports)
			return other_node(ps, e, *node);
		return 0;
	}
	if (!(desc = lanes_strndup(e->desc, e->desclen)))
		return lanes_error_oom(ps->err);
	spec.desc = desc;
	rc = lanes_builder_add_node(ps->b, &spec, node, ps->err);
	free(desc);
	if (rc)
		return rc;
	if (lanes_strmap_put(&ps->nodes, (const char *)&e->nodeguid, 8, *node) ||
	    lanes_grow((void **)&ps->types, &ps->cap_types, (size_t)*node + 1, 1) ||
	    lanes_grow((void **)&ps->node_line, &ps->cap_node_line, (size_t)*node + 1,
		       sizeof(*ps->node_line)))
		return lanes_error_oom(ps->err);
	ps->types[*node] = e->type;
	ps->node_line[*node] = ps->lines.lineno;
	return 0;
}

/*
 * Every sighting of a port must give the LID and the port GUID the first
 * gave (a switch's LID lives on its port 0): OpenSM writes one of each per
 * port, so two are an edited or corrupted file, never something to pick from.
 */
static int same_value(struct subnet_parse *ps, const struct end *e, char what, uint64_t value)
{
	int lid = what == 'L', sw = e->type == LANES_NODE_SWITCH;
	char key[10], who[32];
	uint32_t i;

	memcpy(key, &e->nodeguid, 8);
	key[8] = (char)(lid && sw ? 0 : e->port);
	key[9] = what;
	if ((i = lanes_strmap_get(&ps->lid_keys, key, 10)) != LANES_NONE) {
		if (ps->lid_seen[i].value == value)
			return 0;
		snprintf(who, sizeof(who), lid && sw ? "switch" : "port %u of", (unsigned)e->port);
		return lanes_error_parse(ps->err, ps->lines.file, ps->lines.lineno,
					 lid ? "%s {%.*s} has LID %llu here and LID %llu on line %lu"
					     : "%s {%.*s} has the port GUID 0x%016llx here and "
					       "0x%016llx on line %lu",
					 who, (int)e->desclen, e->desc, (unsigned long long)value,
					 (unsigned long long)ps->lid_seen[i].value,
					 ps->lid_seen[i].line);
	}
	if (lanes_grow((void **)&ps->lid_seen, &ps->cap_lid_seen, ps->n_lid_seen + 1,
		       sizeof(*ps->lid_seen)) ||
	    lanes_strmap_put(&ps->lid_keys, key, 10, (uint32_t)ps->n_lid_seen))
		return lanes_error_oom(ps->err);
	ps->lid_seen[ps->n_lid_seen++] = (struct lid_sighting){ value, ps->lines.lineno };
	return 0;
}

/* Find or add the node; set the port's GUID, and the LID where it lives. */
static int place_end(struct subnet_parse *ps, const struct end *e, uint32_t *node)
{
	int rc = node_of(ps, e, node);

	if (rc || (rc = same_value(ps, e, 'L', e->lid)) ||
	    (rc = same_value(ps, e, 'G', e->portguid)))
		return rc;
	if (lanes_builder_lid_line(ps->b, ps->lines.file, *node,
				   e->type == LANES_NODE_SWITCH ? 0 : (uint8_t)e->port, ps->lines.lineno))
		return lanes_error_oom(ps->err);
	if (e->type != LANES_NODE_SWITCH)
		return lanes_builder_set_port(ps->b, *node, (uint8_t)e->port, e->portguid,
					      (uint32_t)e->lid, 0, ps->err);
	if ((rc = lanes_builder_set_port(ps->b, *node, (uint8_t)e->port, e->portguid, 0, 0,
					 ps->err)))
		return rc;
	return lanes_builder_set_port(ps->b, *node, 0, 0, (uint32_t)e->lid, 0, ps->err);
}

/* The sighting of e's port's cable rate: its index, added with this line's rate
 * (width << 8 | speed) when it is the first; LANES_NONE when out of memory. */
static uint32_t rate_seen(struct subnet_parse *ps, const struct end *e, uint64_t rate, int *first)
{
	char key[10];
	uint32_t i;

	memcpy(key, &e->nodeguid, 8);
	key[8] = (char)e->port;
	key[9] = 'R';
	*first = (i = lanes_strmap_get(&ps->lid_keys, key, 10)) == LANES_NONE;
	if (!*first)
		return i;
	if (lanes_grow((void **)&ps->lid_seen, &ps->cap_lid_seen, ps->n_lid_seen + 1,
		       sizeof(*ps->lid_seen)) ||
	    lanes_strmap_put(&ps->lid_keys, key, 10, (uint32_t)ps->n_lid_seen))
		return LANES_NONE;
	ps->lid_seen[ps->n_lid_seen] = (struct lid_sighting){ rate, ps->lines.lineno };
	return (uint32_t)ps->n_lid_seen++;
}

/*
 * A cable's two lines (one from each end) must give one width and speed; the
 * first is kept and the other named in a warning, as the ibnetdiscover reader
 * does (nothing taken silently). An unknown width or speed (??) is filled in.
 */
static int same_rate(struct subnet_parse *ps, const struct end *a, const struct end *b,
		     uint8_t width, uint8_t speed)
{
	uint64_t rate = (uint64_t)width << 8 | speed;
	int first_a, first_b;
	uint32_t i = rate_seen(ps, a, rate, &first_a);
	uint8_t w, sp;

	if (i == LANES_NONE || rate_seen(ps, b, rate, &first_b) == LANES_NONE)
		return lanes_error_oom(ps->err);
	w = (uint8_t)(ps->lid_seen[i].value >> 8);
	sp = (uint8_t)ps->lid_seen[i].value;
	if (first_a || ((!w || !width || w == width) && (!sp || !speed || sp == speed)))
		return 0;
	lanes_builder_warn(ps->b, "%s:%lu: the cable of port %u of {%.*s} runs %ux%s here and "
			   "%ux%s on line %lu; %ux%s kept", ps->lines.file, ps->lines.lineno,
			   (unsigned)a->port, (int)a->desclen, a->desc, width,
			   lanes_speed_name(speed), w, lanes_speed_name(sp), ps->lid_seen[i].line,
			   w ? w : width, lanes_speed_name(sp ? sp : speed));
	return 0;
}

/* A builder refusal (a port cabled twice, ...) becomes file:line. */
static int at_line(struct subnet_parse *ps, int rc)
{
	char msg[sizeof(ps->err->message)];

	if (rc != LANES_EINVAL || !ps->err)
		return rc;
	memcpy(msg, ps->err->message, sizeof(msg));
	return lanes_error_parse(ps->err, ps->lines.file, ps->lines.lineno, "%s", msg);
}

static int link_line(struct subnet_parse *ps, struct lanes_scan sc)
{
	struct end a, b;
	uint32_t na, nb;
	uint8_t width, speed;
	int rc;

	if ((rc = parse_end(ps, &sc, &a)) || (rc = parse_end(ps, &sc, &b)) ||
	    (rc = link_tail(ps, sc, &width, &speed)))
		return rc;
	if ((rc = place_end(ps, &a, &na)) || (rc = place_end(ps, &b, &nb)))
		return at_line(ps, rc);
	if ((rc = same_rate(ps, &a, &b, width, speed)))
		return rc;
	return at_line(ps, lanes_builder_connect(ps->b, na, (uint8_t)a.port, nb, (uint8_t)b.port,
						 width, speed, ps->err));
}

static int subnet_read_lines(const char *data, size_t len, const char *file,
			     struct lanes_fabric **out, struct lanes_error *err)
{
	struct subnet_parse ps;
	const char *s;
	size_t n;
	int rc;

	*out = NULL;
	memset(&ps, 0, sizeof(ps));
	lanes_lines_init(&ps.lines, data, len, file);
	lanes_strmap_init(&ps.nodes);
	lanes_strmap_init(&ps.lid_keys);
	ps.err = err;
	if ((rc = lanes_builder_new(&ps.b, err)))
		return rc;
	while (!rc && lanes_lines_next(&ps.lines, &s, &n)) {
		struct lanes_scan sc = lanes_scan_of(s, n);

		if (!lanes_scan_at_end(&sc) && *sc.p != '#')
			rc = link_line(&ps, sc);
	}
	if (!rc && !lanes_builder_num_nodes(ps.b))
		rc = perr(&ps, "no '{ SW ... } { ... }' link line found");
	if (!rc) {
		lanes_text_warn_cut(ps.b, data, len, file);
		rc = lanes_builder_finish(ps.b, out, err);
		ps.b = NULL;
	}
	lanes_builder_free(ps.b);
	lanes_strmap_clear(&ps.nodes);
	lanes_strmap_clear(&ps.lid_keys);
	free(ps.types);
	free(ps.node_line);
	free(ps.lid_seen);
	return rc;
}

/* The fabric, or the error; a bad last line without its \n is truncation, and
 * xz, bzip2 or lz4 bytes are named as such (as lanes_io_read_file does). */
static int subnet_read(const char *data, size_t len, const char *file, struct lanes_fabric **out,
		     struct lanes_error *err)
{
	*out = NULL;
	if (lanes_text_compressed(data, len, file ? file : "<input>", err))
		return LANES_EPARSE;
	return lanes_text_truncated(data, len, subnet_read_lines(data, len, file, out, err), err);
}

/* Link lines start "{ SW", "{ CA" or "{ Rt"; nothing else does. */
static int subnet_sniff(const char *data, size_t len)
{
	struct lanes_lines lines;
	const char *s;
	size_t n;

	lanes_lines_init(&lines, data, len < 65536 ? len : 65536, "");
	while (lanes_lines_next(&lines, &s, &n)) {
		struct lanes_scan sc = lanes_scan_of(s, n);

		if (lanes_scan_at_end(&sc))
			continue;
		return lanes_scan_peek(&sc, "{ SW") || lanes_scan_peek(&sc, "{ CA") ||
				       lanes_scan_peek(&sc, "{ Rt")
			       ? 95
			       : 0;
	}
	return 0;
}

const struct lanes_format lanes_format_opensm_subnet = {
	.name = "opensm-subnet",
	.summary = "OpenSM's opensm-subnet.lst (one line per cabled port): read only",
	.read = subnet_read,
	.sniff = subnet_sniff,
};
