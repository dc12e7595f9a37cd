/*
 * ibnetdiscover.c - the ibnetdiscover topology file: reader, sniffing, descriptor.
 *
 * Follows the "TOPOLOGY FILE FORMAT" section of ibnetdiscover(8) and what
 * infiniband-diags' ibnetdiscover prints (out_switch, out_ca and their port
 * lines, including the -g grouping and -f extras), plus the dialect that
 * ibdiagnet writes to ibdiagnet2.ibnetdiscover. docs/formats-ibnetdiscover.md
 * lists what is accepted and the LID repair rule.
 *
 * The reader works in three steps so that a port line may name a node whose
 * record comes later: (1) parse every line into records and port lines,
 * (2) give every peer that has no record of its own a record built from the
 * port lines that name it, (3) gather per-port facts (peer, GUID, LID) in a
 * slot table, where contradictory cabling is caught with both line numbers,
 * then hand nodes to the builder in file order. Steps 2 and 3 are in
 * ibnetdiscover_build.c, the writer in ibnetdiscover_write.c.
 *
 * Invariants: all scanning goes through text.h on (pointer, end) ranges, so
 * the buffer need not be NUL-terminated; a node is identified by its quoted
 * id ("S-<guid>", "H-<guid>", "R-<guid>"); no two nodes of one type share a
 * GUID (the writer names nodes by GUID, so the reader refuses that too).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "formats.h"
#include "ibnetdiscover_internal.h"
#include "stream.h"
#include "text.h"

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int is_hexdigit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The type an id's prefix names: S-, H- or R-; 0 when it has none. */
int lanes_ibnd_id_type(struct span id)
{
	if (id.len < 2 || id.s[1] != '-')
		return 0;
	return id.s[0] == 'S' ? LANES_NODE_SWITCH
	       : id.s[0] == 'H' ? LANES_NODE_CA
	       : id.s[0] == 'R' ? LANES_NODE_ROUTER : 0;
}

/* The GUID in an id "X-<1..16 hex digits>", else 0. */
uint64_t lanes_ibnd_id_guid(struct span id)
{
	uint64_t v = 0;

	if (!lanes_ibnd_id_type(id) || id.len < 3 || id.len > 18)
		return 0;
	for (size_t i = 2; i < id.len; i++) {
		if (!is_hexdigit(id.s[i]))
			return 0;
		v = v << 4 | (uint64_t)(id.s[i] <= '9' ? id.s[i] - '0' : (id.s[i] | 0x20) - 'a' + 10);
	}
	return v;
}

/*
 * An id "X-<hex>" whose hex part is longer than a GUID's 16 digits: a
 * mistyped GUID, refused rather than read as an id without one.
 */
static int id_guid_too_long(struct reader *r, struct span id)
{
	size_t digits = id.len > 2 ? id.len - 2 : 0;

	if (!lanes_ibnd_id_type(id) || digits <= 16)
		return 0;
	for (size_t i = 2; i < id.len; i++)
		if (!is_hexdigit(id.s[i]))
			return 0;
	return PERR(r, "the id \"%.*s\" holds %zu hex digits; a GUID has at most 16", SHOW(id),
		    digits);
}

/* A quoted string that must be there; ids may not hold control bytes. */
static int quoted(struct reader *r, struct lanes_scan *sc, struct span *out, const char *what,
		  int is_id)
{
	if (!lanes_scan_quoted(sc, &out->s, &out->len))
		return PERR(r, "expected %s in double quotes%s", what,
			    lanes_scan_peek(sc, "\"") ? " (the quote is not closed)" : "");
	for (size_t i = 0; i < out->len; i++)
		if ((unsigned char)out->s[i] < 0x20 && (is_id || out->s[i] != '\t'))
			return PERR(r, "control character in %s", what);
	if (is_id && !out->len)
		return PERR(r, "empty node id \"\"");
	return 0;
}

/* "[n]" with n in 1..LANES_PORTS_MAX. */
static int port_number(struct reader *r, struct lanes_scan *sc, uint8_t *out, const char *what)
{
	uint64_t v;

	if (!lanes_scan_char(sc, '['))
		return PERR(r, "expected the %s number in [...]", what);
	if (!lanes_scan_uint(sc, 100000, &v) || !lanes_scan_char(sc, ']'))
		return PERR(r, "bad %s number in [...]", what);
	if (v < 1 || v > LANES_PORTS_MAX)
		return PERR(r, "%s %" PRIu64 " is not in 1..%d", what, v, LANES_PORTS_MAX);
	*out = (uint8_t)v;
	return 0;
}

/* Skip "[ext N]"-style groups (ibnetdiscover -g) after a port number. */
static int skip_brackets(struct reader *r, struct lanes_scan *sc)
{
	while (sc->p < sc->end && *sc->p == '[') {
		const char *q = memchr(sc->p, ']', (size_t)(sc->end - sc->p));

		if (!q)
			return PERR(r, "'[' without ']'");
		sc->p = q + 1;
	}
	return 0;
}

/* An optional "(...)" right after a port: a port GUID in hex, or (ibdiagnet,
 * on switch ports) a port label. *hex: -1 none, 0 not a GUID, 1 a GUID. */
static int paren(struct reader *r, struct lanes_scan *sc, uint64_t *guid, int *hex)
{
	struct lanes_scan in;
	const char *q;

	*guid = 0;
	*hex = -1;
	lanes_scan_ws(sc);
	if (sc->p >= sc->end || *sc->p != '(')
		return 0;
	if (!(q = memchr(sc->p, ')', (size_t)(sc->end - sc->p))))
		return PERR(r, "'(' without ')'");
	in.p = sc->p + 1;
	in.end = q;
	*hex = lanes_scan_hex(&in, guid) && lanes_scan_at_end(&in);
	if (!*hex)
		*guid = 0;
	sc->p = q + 1;
	return 0;
}

/* A width-and-speed token as ibnetdiscover prints it: "4xEDR", "12xQDR",
 * "??" for an unknown width and "???" for an unknown speed. 1 if it is one. */
static int width_speed(const char *t, size_t n, uint8_t *width, uint8_t *speed)
{
	size_t i = 0;
	unsigned w = 0;

	while (i < n && i < 3 && t[i] >= '0' && t[i] <= '9')
		w = w * 10 + (unsigned)(t[i++] - '0');
	if (i && i < n && t[i] == 'x' && (w == 1 || w == 2 || w == 4 || w == 8 || w == 12))
		i++;
	else if (n >= 2 && t[0] == '?' && t[1] == '?')
		i = 2, w = 0;
	else
		return 0;
	*width = (uint8_t)w;
	*speed = (uint8_t)lanes_speed_parse(t + i, n - i);
	return 1;
}

/*
 * Does the file end with a whole port line, its newline missing? Some real
 * files were saved so ("... lid 4 4xEDR" and no newline, with CRLF lines):
 * a last line ending in a width-and-speed token of a known speed is whole,
 * and is spared the "may be cut" warning. (A cut inside "4xFDR10" that
 * leaves "4xFDR" passes unnoticed; every other cut of that token is seen.)
 */
static int ends_whole(const char *data, size_t len)
{
	size_t end = len, start;
	uint8_t width, speed = 0;

	while (end && (data[end - 1] == '\r' || data[end - 1] == ' ' || data[end - 1] == '\t'))
		end--;
	start = end;
	while (start && data[start - 1] != ' ' && data[start - 1] != '\t' && data[start - 1] != '\n')
		start--;
	return end > start && width_speed(data + start, end - start, &width, &speed) && speed;
}

/* The value after "lid": 1..0xBFFF is kept, 0 means "none given"; an empty,
 * negative or too large one warns (file:line) and reads as 0. */
static uint16_t lid_value(struct reader *r, struct lanes_scan *sc, const char *who,
			  struct span id, const char *then)
{
	struct lanes_scan save;
	struct span t = { "", 0 };
	uint8_t w, s;
	uint64_t v;

	lanes_scan_ws(sc);
	save = *sc;
	if (lanes_scan_uint(sc, UINT64_MAX, &v) && (sc->p == sc->end || is_blank(*sc->p)) &&
	    v <= LANES_LID_UNICAST_MAX)
		return (uint16_t)v;
	*sc = save;
	if (lanes_scan_token(sc, &t.s, &t.len) &&
	    ((t.len == 3 && !memcmp(t.s, "lmc", 3)) || width_speed(t.s, t.len, &w, &s))) {
		*sc = save;
		t.len = 0;
	}
	lanes_builder_warn(r->b, "%s:%lu: %s\"%.*s\" has no valid LID ('%.*s' is %s); %s", r->file,
			   r->line, who, SHOW(id), SHOW(t),
			   t.len ? "not a number in 1..0xBFFF" : "empty", then);
	return 0;
}

static int lmc_value(struct reader *r, struct lanes_scan *sc, uint8_t *lmc)
{
	uint64_t v;

	if (!lanes_scan_word(sc, "lmc") || !lanes_scan_uint(sc, 1000, &v))
		return PERR(r, "expected 'lmc N' after the LID");
	if (v > 7)
		return PERR(r, "LMC %" PRIu64 " is not in 0..7", v);
	*lmc = (uint8_t)v;
	return 0;
}

int lanes_ibnd_grow_recs(struct reader *r)
{
	if (lanes_grow((void **)&r->recs, &r->cap_recs, r->nrecs + 1, sizeof(*r->recs)))
		return lanes_error_oom(r->err);
	memset(&r->recs[r->nrecs], 0, sizeof(*r->recs));
	return 0;
}

/* "... # "desc" enhanced port 0 lid L lmc M" on a Switch line. */
static int switch_tail(struct reader *r, struct lanes_scan *sc, struct rec *n)
{
	uint64_t v;

	if (!lanes_scan_word(sc, "enhanced") && !lanes_scan_word(sc, "base"))
		return 0;
	if (!lanes_scan_word(sc, "port") || !lanes_scan_uint(sc, 255, &v) || v != 0 ||
	    !lanes_scan_word(sc, "lid"))
		return PERR(r, "expected 'port 0 lid N lmc M' after 'enhanced' or 'base'");
	n->lid = lid_value(r, sc, "switch ", n->id, "a new one is assigned");
	return lmc_value(r, sc, &n->lmc);
}

/* A repeated record (ibnetdiscover -g lists chassis spines twice) continues
 * the first one when it agrees with it. */
static int repeat_record(struct reader *r, uint32_t idx, uint8_t type, uint64_t nports)
{
	struct rec *n = &r->recs[idx];

	if (n->type != type || n->nports != nports)
		return PERR(r, "node \"%.*s\" was already listed on line %lu as another node",
			    SHOW(n->id), n->line);
	if (r->hdr.port0 && r->hdr.guid == n->guid && n->port0_guid &&
	    r->hdr.port0 != n->port0_guid) {
		r->line = r->hdr.line;
		return PERR(r, "switch \"%.*s\" has the port GUID 0x%016" PRIx64 " here and "
			    "0x%016" PRIx64 " on line %lu", SHOW(n->id), r->hdr.port0,
			    n->port0_guid, n->port0_line);
	}
	memset(&r->hdr, 0, sizeof(r->hdr));
	r->cur = idx;
	return 0;
}

/*
 * A CA's or router's "H-<guid>" id names its GUID, and so does the caguid=
 * or rtguid= (or switchguid=) line before it: the two must agree. (A switch's may not: a
 * chassis prints one shared switchguid= for all its ASICs.)
 */
static int id_agrees(struct reader *r, struct span id, uint8_t type)
{
	uint64_t g = lanes_ibnd_id_guid(id);

	if (type == LANES_NODE_SWITCH || !g || !r->hdr.guid || g == r->hdr.guid)
		return 0;
	return PERR(r, "the id \"%.*s\" names the GUID 0x%016" PRIx64 ", but the %s on line %lu "
		    "gives 0x%016" PRIx64, SHOW(id), g, r->hdr.key, r->hdr.line, r->hdr.guid);
}

/* Switch|Ca|Rt N "id" # "desc" [switch tail] */
static int node_line(struct reader *r, struct lanes_scan *sc, struct lanes_scan *cm, uint8_t type)
{
	struct rec *n;
	struct span id;
	uint64_t np;
	uint32_t idx;
	int rc;

	if (!lanes_scan_uint(sc, 100000, &np) || np < 1 || np > LANES_PORTS_MAX)
		return PERR(r, "expected a port count in 1..%d after the node type", LANES_PORTS_MAX);
	if ((rc = quoted(r, sc, &id, "the node id", 1)) || (rc = id_guid_too_long(r, id)))
		return rc;
	if (!lanes_scan_at_end(sc))
		return PERR(r, "unexpected text after the node id");
	if (lanes_ibnd_id_type(id) && lanes_ibnd_id_type(id) != type)
		return PERR(r, "the id \"%.*s\" does not name a %s", SHOW(id), lanes_node_type_name(type));
	if ((rc = id_agrees(r, id, type)))
		return rc;
	if ((idx = lanes_strmap_get(&r->ids, id.s, id.len)) != LANES_NONE)
		return repeat_record(r, idx, type, np);
	if ((rc = lanes_ibnd_grow_recs(r)))
		return rc;
	n = &r->recs[r->nrecs];
	n->id = id;
	n->type = type;
	n->nports = (uint8_t)np;
	n->line = r->line;
	n->guid = lanes_ibnd_id_guid(id) ? lanes_ibnd_id_guid(id) : r->hdr.guid;
	n->port0_guid = r->hdr.guid == n->guid ? r->hdr.port0 : 0;
	n->port0_line = r->hdr.line;
	n->sysimg = r->hdr.sysimg;
	n->vendid = r->hdr.vendid;
	n->devid = r->hdr.devid;
	if (!lanes_scan_at_end(cm) && (rc = quoted(r, cm, &n->desc, "the node description", 0)))
		return rc;
	if (type == LANES_NODE_SWITCH && (rc = switch_tail(r, cm, n)))
		return rc;
	if (lanes_strmap_put(&r->ids, id.s, id.len, (uint32_t)r->nrecs))
		return lanes_error_oom(r->err);
	memset(&r->hdr, 0, sizeof(r->hdr));
	r->cur = (uint32_t)r->nrecs++;
	return 0;
}

/* The "(...)" after a <type>guid= value (just read) is not a port GUID. */
static int bad_port0(struct reader *r, const struct lanes_scan *sc, const char *key)
{
	const char *open = sc->p - 1, *inside;
	size_t digits = 0;

	while (*open != '(')
		open--;
	inside = open + 1;
	while (inside + digits < sc->p - 1 && is_hexdigit(inside[digits]))
		digits++;
	if (inside + digits == sc->p - 1 && digits > 16)
		return PERR(r, "the port GUID after %s holds %zu hex digits; a GUID has at most 16",
			    key, digits);
	return PERR(r, "'(%.*s)' after %s is not a port GUID (1 to 16 hex digits, not 0)",
		    (int)(sc->p - 1 - inside > 40 ? 40 : sc->p - 1 - inside), inside, key);
}

/* vendid=, devid=, sysimgguid=, switchguid=G(P), caguid=, rtguid= */
static int header_line(struct reader *r, struct lanes_scan *sc, const char *key)
{
	uint64_t v;
	int hex;

	if (!lanes_scan_hex(sc, &v))
		return PERR(r, "%s needs a hexadecimal value", key);
	if (!strcmp(key, "vendid=") || !strcmp(key, "devid=")) {
		if (v > UINT32_MAX)
			return PERR(r, "%s value is too large", key);
		*(key[0] == 'v' ? &r->hdr.vendid : &r->hdr.devid) = (uint32_t)v;
	} else if (!strcmp(key, "sysimgguid=")) {
		r->hdr.sysimg = v;
	} else {
		r->hdr.guid = v;
		r->hdr.line = r->line;
		r->hdr.key = key;
		if (paren(r, sc, &r->hdr.port0, &hex))
			return LANES_EPARSE;
		if (!hex || (hex > 0 && !r->hdr.port0))
			return bad_port0(r, sc, key);
	}
	if (!lanes_scan_at_end(sc))
		return PERR(r, "unexpected text after %s", key);
	r->cur = LANES_NONE;
	return 0;
}

/* The comment of a port line: [lid L lmc M] ["peer desc"] [lid R] [WxS] [...]. */
static int port_comment(struct reader *r, struct lanes_scan *cm, struct pline *pl)
{
	struct rec *own = &r->recs[pl->rec];
	const char *t;
	size_t n;
	char who[32];
	int rc;

	if (lanes_scan_word(cm, "lid")) {
		snprintf(who, sizeof(who), "port %u of ", pl->port);
		pl->lid = lid_value(r, cm, who, own->id, "a new one is assigned");
		if ((rc = lmc_value(r, cm, &pl->lmc)))
			return rc;
		pl->has_lid = own->type != LANES_NODE_SWITCH;
	}
	if (lanes_scan_peek(cm, "\"") && (rc = quoted(r, cm, &pl->rdesc, "the peer description", 0)))
		return rc;
	if (lanes_scan_word(cm, "lid"))
		pl->rlid = lid_value(r, cm, "peer ", pl->rid, "ignored");
	if (lanes_scan_token(cm, &t, &n))
		width_speed(t, n, &pl->width, &pl->speed);
	return 0;
}

/* [p][ext N](guid)  "rid"[q][ext N](rguid)  # comment */
static int port_line(struct reader *r, struct lanes_scan *sc, struct lanes_scan *cm)
{
	struct pline pl;
	int rc, hex;

	if (r->cur == LANES_NONE)
		return PERR(r, "port line outside a Switch, Ca or Rt record");
	memset(&pl, 0, sizeof(pl));
	pl.rec = r->cur;
	pl.line = r->line;
	if ((rc = port_number(r, sc, &pl.port, "local port")) || (rc = skip_brackets(r, sc)) ||
	    (rc = paren(r, sc, &pl.guid, &hex)))
		return rc;
	if (pl.port > r->recs[pl.rec].nports)
		return PERR(r, "port %u is beyond the %u ports declared on line %lu", pl.port,
			    r->recs[pl.rec].nports, r->recs[pl.rec].line);
	if (r->recs[pl.rec].type != LANES_NODE_SWITCH && !hex)
		return PERR(r, "bad port GUID in (...)");
	if ((rc = quoted(r, sc, &pl.rid, "the peer id", 1)) || (rc = id_guid_too_long(r, pl.rid)) ||
	    (rc = port_number(r, sc, &pl.rport, "peer port")) || (rc = skip_brackets(r, sc)) ||
	    (rc = paren(r, sc, &pl.rguid, &hex)))
		return rc;
	if (!lanes_scan_at_end(sc))
		return PERR(r, "unexpected text after the peer port");
	if ((rc = port_comment(r, cm, &pl)))
		return rc;
	if (lanes_grow((void **)&r->pl, &r->cap_pl, r->npl + 1, sizeof(*r->pl)))
		return lanes_error_oom(r->err);
	r->pl[r->npl++] = pl;
	return 0;
}

/* Split a line at the first '#' outside double quotes. */
static void split_comment(const char *s, size_t len, struct lanes_scan *body, struct lanes_scan *cm)
{
	int inq = 0;
	size_t i;

	for (i = 0; i < len && (inq || s[i] != '#'); i++)
		inq ^= s[i] == '"';
	*body = lanes_scan_of(s, i);
	*cm = lanes_scan_of(s + (i < len ? i + 1 : len), i < len ? len - i - 1 : 0);
}

static const char *const header_keys[] = { "vendid=", "devid=", "sysimgguid=", "switchguid=",
					   "caguid=", "rtguid=" };

/* Classify and parse one line. Before the first record, other lines are junk. */
static int one_line(struct reader *r, const char *s, size_t len)
{
	struct lanes_scan sc, cm;
	static const char *const types[] = { "Ca", "Switch", "Rt" };

	split_comment(s, len, &sc, &cm);
	if (lanes_scan_at_end(&sc))
		return 0;
	for (size_t i = 0; i < sizeof(header_keys) / sizeof(header_keys[0]); i++)
		if (lanes_scan_peek(&sc, header_keys[i])) {
			r->started = 1;
			sc.p += strlen(header_keys[i]);
			return header_line(r, &sc, header_keys[i]);
		}
	for (int t = 0; t < 3; t++)
		if (lanes_scan_word(&sc, types[t])) {
			r->started = 1;
			return node_line(r, &sc, &cm, (uint8_t)(t + 1));
		}
	if (!r->started || lanes_scan_word(&sc, "Chassis") || lanes_scan_word(&sc, "Non-Chassis") ||
	    lanes_scan_peek(&sc, "Hostname:"))
		return 0;
	if (memchr(s, '\0', len))
		return PERR(r, "NUL byte in the line");
	if (lanes_scan_peek(&sc, "["))
		return port_line(r, &sc, &cm);
	return PERR(r, "not an ibnetdiscover line: '%.*s'", (int)(len > 60 ? 60 : len), s);
}

static int parse_lines(struct reader *r, const char *data, size_t len)
{
	struct lanes_lines lines;
	const char *s;
	size_t n;
	int rc;

	lanes_lines_init(&lines, data, len, r->file);
	while (lanes_lines_next(&lines, &s, &n)) {
		r->line = lines.lineno;
		if ((rc = one_line(r, s, n)))
			return rc;
	}
	r->line = 0;
	if (!r->nrecs)
		return PERR(r, "no Switch, Ca or Rt record found");
	return 0;
}

static int ibnd_read_lines(const char *data, size_t len, const char *file,
			   struct lanes_fabric **out, struct lanes_error *err)
{
	struct reader r;
	int rc;

	*out = NULL;
	memset(&r, 0, sizeof(r));
	r.err = err;
	r.file = file ? file : "<input>";
	r.cur = LANES_NONE;
	lanes_strmap_init(&r.ids);
	if ((rc = lanes_builder_new(&r.b, err)))
		goto out;
	if ((rc = parse_lines(&r, data, len)) || (rc = lanes_ibnd_add_peers(&r)) ||
	    (rc = lanes_ibnd_check_guids(&r)) || (rc = lanes_ibnd_gather(&r)) ||
	    (rc = lanes_ibnd_check_sightings(&r)) ||
	    (rc = lanes_ibnd_check_port_guids(&r)) || (rc = lanes_ibnd_build(&r)))
		goto out;
	if (!ends_whole(data, len))
		lanes_text_warn_cut(r.b, data, len, r.file);
	rc = lanes_builder_finish(r.b, out, err);
	r.b = NULL;
out:
	lanes_builder_free(r.b);
	lanes_strmap_clear(&r.ids);
	free(r.recs);
	free(r.pl);
	free(r.slots);
	return rc;
}

/* The fabric, or the error; a bad last line without its \n is truncation, and
 * xz, bzip2 or lz4 bytes are named as such (as lanes_io_read_file does). */
static int ibnd_read(const char *data, size_t len, const char *file, struct lanes_fabric **out,
		     struct lanes_error *err)
{
	*out = NULL;
	if (lanes_text_compressed(data, len, file ? file : "<input>", err))
		return LANES_EPARSE;
	return lanes_text_truncated(data, len, ibnd_read_lines(data, len, file, out, err), err);
}

/* ---- recognising the format ---- */

static int ibnd_sniff(const char *data, size_t len)
{
	struct lanes_lines lines;
	const char *s;
	size_t n;
	int headers = 0, ids = 0;

	lanes_lines_init(&lines, data, len < 65536 ? len : 65536, "");
	while (lanes_lines_next(&lines, &s, &n)) {
		struct lanes_scan sc = lanes_scan_of(s, n);

		for (size_t i = 2; i < sizeof(header_keys) / sizeof(header_keys[0]); i++)
			headers += lanes_scan_peek(&sc, header_keys[i]);
		if (lanes_scan_word(&sc, "Hca"))
			return 0; /* ibsim's node keyword; ibnetdiscover says "Ca" */
		if ((lanes_scan_word(&sc, "Switch") || lanes_scan_word(&sc, "Ca")) &&
		    lanes_scan_uint(&sc, 1000, &(uint64_t){ 0 }))
			ids += lanes_scan_peek(&sc, "\"S-") || lanes_scan_peek(&sc, "\"H-");
	}
	return headers ? 90 : ids ? 70 : 0;
}

const struct lanes_format lanes_format_ibnetdiscover = {
	.name = "ibnetdiscover",
	.summary = "ibnetdiscover topology (also ibdiagnet's dialect): read and write",
	.read = ibnd_read,
	.write = lanes_ibnetdiscover_write,
	.sniff = ibnd_sniff,
};
