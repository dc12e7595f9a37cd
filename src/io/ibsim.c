/*
 * ibsim.c - the ibsim "net" file format, reader and writer.
 *
 * Follows ibsim 0.10's parser (linux-rdma/ibsim, ibsim/sim_net.c) and the
 * format notes in its net-examples/net:
 *
 *   switchguid=0x200000            (optional; GUID counters, '=' or '+')
 *   Switch 8 "Switch1" # "desc" enhanced port 0 lid 1 lmc 0
 *   [1] "Hca1"[1]  w=2 s=4         (w= enabled width mask 1=1x 2=4x 4=8x 8=12x,
 *   [3] "Switch2"[3]                s= enabled speed mask 1=SDR 2=DDR 4=QDR)
 *                                  (a blank or other line ends the record)
 *   Hca 2 "Hca1"                   (also "Ca"; "Rt" for routers)
 *   [1] "Switch1"[1] lid 5 lmc 0   (a missing [q] means remote port 1)
 *
 * GUIDs are not written per node: ibsim hands them out from counters that
 * start at 0x200000 for switches and 0x100000 for CAs (a CA reserves
 * nports + 1 GUIDs; port p has node GUID + p), and `switchguid=` /
 * `caguid=` lines reset them. The reader uses the same rule, so a fabric read
 * here has the GUIDs that ibsim shows to OpenSM. Like ibsim, the reader
 * requires every cable to be listed from both ends.
 *
 * The writer sets each node's GUID with a `switchguid=`/`caguid=` line in
 * front of it, keeps lines under ibsim's 256-character limit, and adds the
 * exact width and speed as a trailing comment ("# 4xEDR"), which ibsim
 * ignores and this reader prefers, because ibsim's speed mask stops at QDR.
 * Port GUIDs other than node GUID + port cannot be expressed in the format.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "formats.h"
#include "text.h"

#define GUID_SW 0x200000ULL
#define GUID_CA 0x100000ULL
#define GUID_RT 0x300000ULL

/* One port line, kept until every node is known. */
struct pport {
	uint32_t node;
	uint8_t port, rport, width, speed;
	uint16_t lid;
	uint8_t lmc;
	char *rid;
	unsigned long line;
};

struct ibsim_parse {
	struct lanes_lines lines;
	struct lanes_builder *b;
	struct lanes_strmap ids;
	struct lanes_strmap guids; /* 8-byte GUID -> node, to refuse duplicates as ibsim does */
	struct pport *ports;
	size_t nports, cap;
	uint64_t guid[4];          /* next GUID per node type */
	uint8_t width_mask, speed_mask; /* defaults from width= / speed= */
	struct lanes_error *err;
};

static int perr(struct ibsim_parse *ps, const char *msg, const char *detail, size_t dlen)
{
	return lanes_error_parse(ps->err, ps->lines.file, ps->lines.lineno, "%s%s%.*s%s", msg,
				 dlen ? " '" : "", (int)dlen, detail ? detail : "", dlen ? "'" : "");
}

static uint8_t width_of_mask(uint64_t m)
{
	return m & 8 ? 12 : m & 4 ? 8 : m & 2 ? 4 : m & 1 ? 1 : 0;
}

static uint8_t speed_of_mask(uint64_t m)
{
	return m & 4 ? LANES_SPEED_QDR : m & 2 ? LANES_SPEED_DDR : m & 1 ? LANES_SPEED_SDR : 0;
}

/* "lid N" and "lmc M" anywhere in the rest of a line. */
static int scan_lid_lmc(struct ibsim_parse *ps, struct lanes_scan sc, uint16_t *lid, uint8_t *lmc)
{
	uint64_t v;

	while (!lanes_scan_at_end(&sc)) {
		if (lanes_scan_peek(&sc, "#"))
			break;
		if (lanes_scan_word(&sc, "lid")) {
			if (!lanes_scan_uint(&sc, 0xFFFF, &v))
				return perr(ps, "expected a LID after 'lid'", NULL, 0);
			*lid = (uint16_t)(v > LANES_LID_UNICAST_MAX ? 0 : v);
		} else if (lanes_scan_word(&sc, "lmc")) {
			if (!lanes_scan_uint(&sc, 7, &v))
				return perr(ps, "expected an LMC 0..7 after 'lmc'", NULL, 0);
			*lmc = (uint8_t)v;
		} else {
			const char *t;
			size_t n;

			lanes_scan_token(&sc, &t, &n);
		}
	}
	return 0;
}

/* The "# desc" part of a node line; sc is left after it. */
static void scan_desc(struct lanes_scan *sc, const char **d, size_t *dlen)
{
	static const char *const stops[] = { " enhanced port ", " base port ", " lid ", " lmc " };
	const char *end = sc->end;

	*d = NULL;
	*dlen = 0;
	if (!lanes_scan_char(sc, '#'))
		return;
	if (lanes_scan_quoted(sc, d, dlen))
		return;
	lanes_scan_ws(sc);
	for (size_t i = 0; i < 4; i++) {
		size_t n = strlen(stops[i]);

		for (const char *p = sc->p; p + n <= sc->end; p++)
			if (p < end && !memcmp(p, stops[i], n))
				end = p;
	}
	*d = sc->p;
	*dlen = (size_t)(end - sc->p);
	sc->p = end;
}

static int add_node(struct ibsim_parse *ps, int type, struct lanes_scan sc)
{
	struct lanes_node_spec spec = { (uint8_t)type, 0, 0, 0, 0, 0, NULL };
	const char *id, *d;
	size_t idlen, dlen;
	uint64_t nports;
	uint16_t lid = 0;
	uint8_t lmc = 0;
	uint32_t node;
	char *desc;
	int rc;

	if (!lanes_scan_uint(&sc, LANES_PORTS_MAX, &nports) || nports == 0)
		return perr(ps, "expected a port count 1..254 after the node type", NULL, 0);
	if (!lanes_scan_quoted(&sc, &id, &idlen) || !idlen)
		return perr(ps, "expected a quoted node id", NULL, 0);
	if (memchr(id, '#', idlen) || memchr(id, '@', idlen))
		return perr(ps, "node ids may not contain '#' or '@' (ibsim reserves them):", id, idlen);
	if (lanes_strmap_get(&ps->ids, id, idlen) != UINT32_MAX)
		return perr(ps, "duplicate node id", id, idlen);
	scan_desc(&sc, &d, &dlen);
	if (type == LANES_NODE_SWITCH && (rc = scan_lid_lmc(ps, sc, &lid, &lmc)))
		return rc;
	desc = d && dlen ? lanes_strndup(d, dlen) : lanes_strndup(id, idlen);
	if (!desc)
		return lanes_error_set(ps->err, LANES_ENOMEM, "out of memory");
	spec.nports = (uint8_t)nports;
	spec.guid = spec.sysimage_guid = ps->guid[type];
	if (lanes_strmap_get(&ps->guids, (const char *)&spec.guid, 8) != UINT32_MAX) {
		free(desc);
		return lanes_error_parse(ps->err, ps->lines.file, ps->lines.lineno,
					 "node GUID 0x%llx is already taken (ibsim refuses duplicate GUIDs)",
					 (unsigned long long)spec.guid);
	}
	spec.desc = desc;
	ps->guid[type] += type == LANES_NODE_SWITCH ? 1 : nports + 1;
	rc = lanes_builder_add_node(ps->b, &spec, &node, ps->err);
	free(desc);
	if (!rc && type == LANES_NODE_SWITCH)
		rc = lanes_builder_set_port(ps->b, node, 0, 0, lid, lmc, ps->err);
	if (!rc && (lanes_strmap_put(&ps->ids, id, idlen, node) ||
		    lanes_strmap_put(&ps->guids, (const char *)&spec.guid, 8, node)))
		rc = lanes_error_set(ps->err, LANES_ENOMEM, "out of memory");
	return rc;
}

/* "4xEDR": the exact width and speed our writer leaves in a comment. */
static void comment_speed(const char *t, size_t n, struct pport *pp)
{
	const char *x = memchr(t, 'x', n);
	struct lanes_scan ws = lanes_scan_of(t, x ? (size_t)(x - t) : 0);
	uint64_t w;
	int speed;

	if (!x || !lanes_scan_uint(&ws, 12, &w) || !lanes_scan_at_end(&ws))
		return;
	speed = lanes_speed_parse(x + 1, n - (size_t)(x - t) - 1);
	if (speed) {
		pp->width = (uint8_t)w;
		pp->speed = (uint8_t)speed;
	}
}

static int mask_option(struct ibsim_parse *ps, const char *t, size_t n, uint64_t *mask)
{
	struct lanes_scan sc = lanes_scan_of(t + 2, n - 2);

	if (!lanes_scan_uint(&sc, 15, mask) || !lanes_scan_at_end(&sc) || !*mask)
		return perr(ps, "bad port option (w= and s= take a mask 1..15):", t, n);
	return 0;
}

/* Options after the remote end: w=, s=, lid, lmc, and our "# 4xEDR" comment. */
static int port_options(struct ibsim_parse *ps, struct lanes_scan sc, struct pport *pp)
{
	uint64_t w = ps->width_mask, s = ps->speed_mask;
	const char *t;
	size_t n;
	int rc = scan_lid_lmc(ps, sc, &pp->lid, &pp->lmc);

	int comment = 0;

	while (!rc && !comment && lanes_scan_token(&sc, &t, &n)) {
		comment = t[0] == '#';
		if (n >= 2 && t[1] == '=' && (t[0] == 'w' || t[0] == 's'))
			rc = mask_option(ps, t, n, t[0] == 'w' ? &w : &s);
	}
	pp->width = width_of_mask(w);
	pp->speed = speed_of_mask(s);
	if (!rc && comment && n > 1)
		comment_speed(t + 1, n - 1, pp);
	else if (!rc && comment && lanes_scan_token(&sc, &t, &n))
		comment_speed(t, n, pp);
	return rc;
}

static int add_port(struct ibsim_parse *ps, uint32_t node, struct lanes_scan sc)
{
	struct pport pp = { node, 0, 1, 0, 0, 0, 0, NULL, ps->lines.lineno };
	uint64_t v;
	const char *rid;
	size_t rlen;
	int rc;

	if (!lanes_scan_char(&sc, '[') || !lanes_scan_uint(&sc, 255, &v) || !lanes_scan_char(&sc, ']'))
		return perr(ps, "expected [port] at the start of a port line", NULL, 0);
	if (v < 1 || v > lanes_builder_nports(ps->b, node))
		return lanes_error_parse(ps->err, ps->lines.file, ps->lines.lineno,
					 "port %llu is outside 1..%u of this node",
					 (unsigned long long)v, lanes_builder_nports(ps->b, node));
	pp.port = (uint8_t)v;
	if (!lanes_scan_quoted(&sc, &rid, &rlen) || !rlen)
		return perr(ps, "expected a quoted remote node id", NULL, 0);
	if (sc.p < sc.end && *sc.p == '[') {
		sc.p++;
		if (!lanes_scan_uint(&sc, 255, &v) || !v || !lanes_scan_char(&sc, ']'))
			return perr(ps, "expected [remote port] after the remote id", NULL, 0);
		pp.rport = (uint8_t)v;
	}
	if ((rc = port_options(ps, sc, &pp)))
		return rc;
	if (lanes_grow((void **)&ps->ports, &ps->cap, ps->nports + 1, sizeof(*ps->ports)) ||
	    !(pp.rid = lanes_strndup(rid, rlen)))
		return lanes_error_set(ps->err, LANES_ENOMEM, "out of memory");
	ps->ports[ps->nports++] = pp;
	return 0;
}

/* "switchguid=0x..." (absolute) or "switchguid+N" (relative to the last base). */
static int guid_line(struct ibsim_parse *ps, int type, struct lanes_scan sc, uint64_t *base)
{
	uint64_t v;
	int rel = 0;

	while (sc.p < sc.end && *sc.p != '=' && *sc.p != '+')
		sc.p++;
	if (sc.p >= sc.end)
		return perr(ps, "expected '=' or '+' in a GUID line", NULL, 0);
	rel = *sc.p++ == '+';
	if (!lanes_scan_hex(&sc, &v))
		return perr(ps, "expected a GUID", NULL, 0);
	if (!rel)
		base[type] = v;
	ps->guid[type] = base[type] + (rel ? v : 0);
	return 0;
}

static int mask_line(struct ibsim_parse *ps, struct lanes_scan sc, uint8_t *mask)
{
	uint64_t v;

	if (!lanes_scan_char(&sc, '=') || !lanes_scan_uint(&sc, 15, &v) || !v)
		return perr(ps, "expected '= 1..15' (an ibsim width or speed mask)", NULL, 0);
	*mask = (uint8_t)v;
	return 0;
}

static int node_type_of(struct lanes_scan *sc)
{
	if (lanes_scan_peek(sc, "Switch"))
		return sc->p += 6, LANES_NODE_SWITCH;
	if (lanes_scan_peek(sc, "Hca"))
		return sc->p += 3, LANES_NODE_CA;
	if (lanes_scan_peek(sc, "Ca"))
		return sc->p += 2, LANES_NODE_CA;
	if (lanes_scan_peek(sc, "Rt"))
		return sc->p += 2, LANES_NODE_ROUTER;
	return 0;
}

/* One line outside a node's port list. */
static int top_line(struct ibsim_parse *ps, struct lanes_scan sc, uint64_t *base, int *in_node)
{
	static const struct { const char *word; int type; } guids[] = {
		{ "switchguid", LANES_NODE_SWITCH }, { "hcaguids", LANES_NODE_CA },
		{ "caguid", LANES_NODE_CA },         { "rtguid", LANES_NODE_ROUTER },
	};
	int type = node_type_of(&sc);

	if (type) {
		*in_node = 1;
		return add_node(ps, type, sc);
	}
	for (size_t i = 0; i < 4; i++)
		if (lanes_scan_peek(&sc, guids[i].word))
			return guid_line(ps, guids[i].type, sc, base);
	if (lanes_scan_peek(&sc, "width"))
		return sc.p += 5, mask_line(ps, sc, &ps->width_mask);
	if (lanes_scan_peek(&sc, "speed"))
		return sc.p += 5, mask_line(ps, sc, &ps->speed_mask);
	if (lanes_scan_peek(&sc, "devid") || lanes_scan_peek(&sc, "vendid") ||
	    lanes_scan_peek(&sc, "sysimgguid") || lanes_scan_peek(&sc, "pdebug") ||
	    lanes_scan_peek(&sc, "do"))
		return 0; /* settings that do not change the fabric, as ibsim ignores them */
	if (lanes_scan_peek(&sc, "include") || lanes_scan_peek(&sc, "module"))
		return perr(ps, "include and module lines are not supported; expand them first",
			    NULL, 0);
	if (lanes_scan_peek(&sc, "["))
		return perr(ps, "port line outside a node record", NULL, 0);
	return perr(ps, "expected Switch, Hca, Ca, Rt or a GUID line", NULL, 0);
}

static int parse_lines(struct ibsim_parse *ps)
{
	uint64_t base[4] = { 0, GUID_CA, GUID_SW, GUID_RT };
	const char *s;
	size_t len;
	int in_node = 0, rc = 0;

	while (!rc && lanes_lines_next(&ps->lines, &s, &len)) {
		struct lanes_scan sc = lanes_scan_of(s, len);

		if (lanes_scan_at_end(&sc)) {
			in_node = 0;
			continue;
		}
		if (*sc.p == '#')
			continue;
		if (in_node && *sc.p == '[')
			rc = add_port(ps, lanes_builder_num_nodes(ps->b) - 1, sc);
		else
			rc = top_line(ps, sc, base, &in_node);
	}
	return rc;
}

static int cable_error(struct ibsim_parse *ps, const struct pport *pp, const char *what)
{
	return lanes_error_parse(ps->err, ps->lines.file, pp->line,
				 "port %u: remote \"%s\" port %u %s", pp->port, pp->rid, pp->rport,
				 what);
}

/* Cable every port line; each cable must be listed from both ends. */
static int connect_all(struct ibsim_parse *ps)
{
	uint32_t n = lanes_builder_num_nodes(ps->b);
	uint32_t *listed = calloc((size_t)n * 256 / 32 + 1, sizeof(uint32_t));
	int rc = 0;

	if (!listed)
		return lanes_error_set(ps->err, LANES_ENOMEM, "out of memory");
	for (size_t i = 0; i < ps->nports && !rc; i++) {
		struct pport *pp = &ps->ports[i];
		uint32_t r = lanes_strmap_get(&ps->ids, pp->rid, strlen(pp->rid));
		size_t bit = (size_t)pp->node * 256 + pp->port;

		if (listed[bit / 32] & (1u << bit % 32))
			rc = lanes_error_parse(ps->err, ps->lines.file, pp->line,
					       "port %u is listed twice", pp->port);
		else if (r == UINT32_MAX)
			rc = cable_error(ps, pp, "does not exist");
		else if (pp->rport > lanes_builder_nports(ps->b, r))
			rc = cable_error(ps, pp, "is beyond that node's port count");
		else if (lanes_builder_connect(ps->b, pp->node, pp->port, r, pp->rport, pp->width,
					       pp->speed, ps->err))
			rc = cable_error(ps, pp, "is cabled elsewhere (the two ends disagree)");
		else if (pp->lid || pp->lmc)
			rc = lanes_builder_set_port(ps->b, pp->node, pp->port, 0, pp->lid, pp->lmc,
						    ps->err);
		listed[bit / 32] |= 1u << bit % 32;
	}
	for (size_t i = 0; i < ps->nports && !rc; i++) {
		struct pport *pp = &ps->ports[i];
		uint32_t r = lanes_builder_peer(ps->b, pp->node, pp->port);
		size_t bit = (size_t)r * 256 + pp->rport;

		if (!(listed[bit / 32] & (1u << bit % 32)))
			rc = cable_error(ps, pp, "does not list this cable back (ibsim needs both ends)");
	}
	free(listed);
	return rc;
}

static int ibsim_read(const char *data, size_t len, const char *file, struct lanes_fabric **out,
		      struct lanes_error *err)
{
	struct ibsim_parse ps;
	int rc;

	memset(&ps, 0, sizeof(ps));
	*out = NULL;
	lanes_lines_init(&ps.lines, data, len, file);
	lanes_strmap_init(&ps.ids);
	lanes_strmap_init(&ps.guids);
	ps.err = err;
	ps.guid[LANES_NODE_SWITCH] = GUID_SW;
	ps.guid[LANES_NODE_CA] = GUID_CA;
	ps.guid[LANES_NODE_ROUTER] = GUID_RT;
	ps.width_mask = 3; /* ibsim's default: 1x or 4x enabled, so 4x */
	ps.speed_mask = 1; /* SDR */
	if ((rc = lanes_builder_new(&ps.b, err)))
		return rc;
	if (!(rc = parse_lines(&ps))) {
		if (!lanes_builder_num_nodes(ps.b))
			rc = lanes_error_parse(err, file, ps.lines.lineno,
					       "no Switch, Hca or Rt record found");
		else if (!(rc = connect_all(&ps))) {
			rc = lanes_builder_finish(ps.b, out, err);
			ps.b = NULL;
		}
	}
	lanes_builder_free(ps.b);
	for (size_t i = 0; i < ps.nports; i++)
		free(ps.ports[i].rid);
	free(ps.ports);
	lanes_strmap_clear(&ps.ids);
	lanes_strmap_clear(&ps.guids);
	return rc;
}

/* ---- writer ---- */

static const char *type_word(int type)
{
	return type == LANES_NODE_SWITCH ? "Switch" : type == LANES_NODE_CA ? "Hca" : "Rt";
}

static char type_letter(int type)
{
	return type == LANES_NODE_SWITCH ? 'S' : type == LANES_NODE_CA ? 'H' : 'R';
}

/* NodeDescription is 64 bytes; quotes would end the field early. */
static void clean_desc(const char *in, char *out)
{
	size_t i = 0;

	for (; in[i] && i < 64; i++)
		out[i] = in[i] == '"' ? '\'' : (in[i] == '\n' || in[i] == '\r') ? ' ' : in[i];
	out[i] = '\0';
}

static unsigned width_mask(unsigned width)
{
	return width == 12 ? 8 : width == 8 ? 4 : width == 1 ? 1 : 2;
}

static unsigned speed_mask(unsigned speed)
{
	return speed == LANES_SPEED_SDR ? 1 : speed == LANES_SPEED_DDR ? 2 : 4;
}

static void write_port(const struct lanes_fabric *f, const struct lanes_node *n, unsigned p,
		       FILE *out)
{
	const struct lanes_port *port = &f->ports[n->port_base + p];
	const struct lanes_node *peer = &f->nodes[port->peer_node];

	fprintf(out, "[%u]\t\"%c-%016llx\"[%u]\tw=%u s=%u", p, type_letter(peer->type),
		(unsigned long long)peer->guid, port->peer_port, width_mask(port->width),
		speed_mask(port->speed));
	if (n->type != LANES_NODE_SWITCH)
		fprintf(out, " lid %u lmc %u", lanes_lid_in_file(port->lid), port->lmc);
	if (port->width && port->speed)
		fprintf(out, "\t# %ux%s", port->width, lanes_speed_name(port->speed));
	fputc('\n', out);
}

static void write_node(const struct lanes_fabric *f, const struct lanes_node *n, FILE *out)
{
	char desc[65];
	const char *guidkey = n->type == LANES_NODE_SWITCH ? "switchguid"
			      : n->type == LANES_NODE_CA   ? "caguid"
							   : "rtguid";

	clean_desc(n->desc, desc);
	fprintf(out, "%s=0x%016llx\n%s\t%u \"%c-%016llx\"\t# \"%s\"", guidkey,
		(unsigned long long)n->guid, type_word(n->type), n->nports, type_letter(n->type),
		(unsigned long long)n->guid, desc);
	if (n->type == LANES_NODE_SWITCH)
		fprintf(out, " enhanced port 0 lid %u lmc %u", lanes_lid_in_file(f->ports[n->port_base].lid),
			f->ports[n->port_base].lmc);
	fputc('\n', out);
	for (unsigned p = 1; p <= n->nports; p++) {
		const struct lanes_port *port = &f->ports[n->port_base + p];

		if (port->peer_node != LANES_NONE)
			write_port(f, n, p, out);
	}
	fputc('\n', out);
}

/* ibsim names nodes by GUID and refuses duplicates: so must we. */
static int check_unique_guids(const struct lanes_fabric *f, struct lanes_error *err)
{
	uint64_t *g = malloc(sizeof(*g) * ((size_t)f->num_nodes + 1));
	int rc = 0;

	if (!g)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < f->num_nodes; i++)
		g[i] = f->nodes[i].guid;
	qsort(g, f->num_nodes, sizeof(*g), lanes_cmp_u64);
	for (uint32_t i = 1; i < f->num_nodes && !rc; i++)
		if (g[i] == g[i - 1])
			rc = lanes_error_set(err, LANES_EINVAL,
					     "node GUID 0x%016llx is used twice; ibsim needs unique GUIDs",
					     (unsigned long long)g[i]);
	free(g);
	return rc;
}

static int ibsim_write(const struct lanes_fabric *f, FILE *out, struct lanes_error *err)
{
	int rc = check_unique_guids(f, err);

	if (rc)
		return rc;
	fprintf(out, "# ibsim net file written by lanes: %u switches, %u CAs, %u routers\n"
		     "# run it with: ibsim -s -n FILE\n\n",
		f->num_switches, f->num_cas, f->num_routers);
	for (uint32_t i = 0; i < f->num_nodes; i++)
		write_node(f, &f->nodes[i], out);
	if (ferror(out))
		return lanes_error_set(err, LANES_EIO, "write error");
	return 0;
}

/*
 * ibsim files call CAs "Hca" and never carry the vendid= lines that every
 * ibnetdiscover record has; our own files also say so on their first line.
 * Both formats share switchguid= and "Switch", so those decide nothing.
 */
static int ibsim_sniff(const char *data, size_t len)
{
	if (lanes_text_contains(data, len, 128, "# ibsim net file"))
		return 100;
	if (lanes_text_contains(data, len, 1 << 20, "vendid="))
		return 10;
	if (lanes_text_contains(data, len, 1 << 20, "\nHca"))
		return 95;
	if (lanes_text_contains(data, len, 1 << 20, "\nSwitch") ||
	    (len >= 6 && !strncmp(data, "Switch", 6)))
		return 60;
	return 0;
}

const struct lanes_format lanes_format_ibsim = {
	.name = "ibsim",
	.summary = "ibsim net file (linux-rdma/ibsim), as `ibsim -s FILE` loads it",
	.read = ibsim_read,
	.write = ibsim_write,
	.sniff = ibsim_sniff,
};
