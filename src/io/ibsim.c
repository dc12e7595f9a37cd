/*
 * ibsim.c - the ibsim "net" file format: the reader.
 *
 * Follows ibsim 0.10's parser (linux-rdma/ibsim, ibsim/sim_net.c) and the
 * format notes in its net-examples/net:
 *
 *   switchguid=0x200000            (optional; GUID counters, '=' or '+')
 *   vendid=0x2c9 sysimgguid=0x...  (one line each; for the next node only)
 *   devid=0xd2f0                   (for this and every later node)
 *   Switch 8 "Switch1" # "desc" enhanced port 0 lid 1 lmc 0
 *   [1] "Hca1"[1]  w=2 s=4 e=2     (w= enabled width mask 1=1x 2=4x 4=8x 8=12x
 *   [3] "Switch2"[3]                16=2x, s= speed mask 1=SDR 2=DDR 4=QDR,
 *                                   e= extended speed mask 1=FDR 2=EDR 4=HDR)
 *                                  (a blank or other line ends the record)
 *   Hca 2 "Hca1"                   (also "Ca"; "Rt" for routers)
 *   [1] "Switch1"[1] lid 5 lmc 0   (a missing [q] means remote port 1)
 *
 * A cable's width and speed are what ibsim makes active: the highest width
 * both ends enable, and the highest extended speed both enable, else the
 * highest speed both enable (width=, speed= and extspeed= lines set the
 * masks of later ports; ibsim 0.10's defaults are 4x, SDR and none). Ends
 * with no width or no speed in common are refused, as ibsim refuses them.
 *
 * GUIDs are not written per node: ibsim hands them out from counters that
 * start at 0x200000 for switches and 0x100000 for CAs (a CA reserves
 * nports + 1 GUIDs; port p has node GUID + p), and `switchguid=` /
 * `caguid=` lines reset them. The reader uses the same rule, so a fabric read
 * here has the GUIDs that ibsim shows to OpenSM. Like ibsim, the reader
 * requires every cable to be listed from both ends.
 *
 * The cabling step is in ibsim_cables.c, the writer in ibsim_write.c.
 */
#include <stdlib.h>
#include <string.h>

#include "../fabric/builder_internal.h"
#include "../core/util.h"
#include "formats.h"
#include "ibsim_internal.h"
#include "stream.h"
#include "text.h"

#define GUID_SW 0x200000ULL
#define GUID_CA 0x100000ULL
#define GUID_RT 0x300000ULL

/* Mask limits of ibsim 0.10 (is_linkwidth_valid() and friends). */
#define WIDTH_MASK_MAX 31
#define SPEED_MASK_MAX 7
#define EXT_MASK_MAX 7

static int perr(struct ibsim_parse *ps, const char *msg, const char *detail, size_t dlen)
{
	return lanes_error_parse(ps->err, ps->lines.file, ps->lines.lineno, "%s%s%.*s%s", msg,
				 dlen ? " '" : "", (int)dlen, detail ? detail : "", dlen ? "'" : "");
}

/* A LID as read: above 0xBFFF it is no unicast LID, read as none with a warning (file:line). */
static uint16_t unicast_lid(struct ibsim_parse *ps, uint64_t v)
{
	if (v <= LANES_LID_UNICAST_MAX)
		return (uint16_t)v;
	lanes_builder_warn(ps->b, "%s:%lu: LID %llu (0x%llx) is above the unicast range 1..0xBFFF: "
			   "read as none (a LID is assigned)", ps->lines.file, ps->lines.lineno,
			   (unsigned long long)v, (unsigned long long)v);
	return 0;
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
			*lid = unicast_lid(ps, v);
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
	uint32_t node, taken;
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
		return lanes_error_oom(ps->err);
	spec.nports = (uint8_t)nports;
	spec.guid = ps->guid[type];
	spec.sysimage_guid = ps->sysimg ? ps->sysimg : spec.guid;
	spec.vendor_id = ps->vendid;
	spec.device_id = ps->devid;
	ps->vendid = 0; /* as ibsim's new_node(): these two apply to one node */
	ps->sysimg = 0;
	if ((taken = lanes_strmap_get(&ps->guids, (const char *)&spec.guid, 8)) != UINT32_MAX) {
		free(desc);
		return lanes_error_parse(ps->err, ps->lines.file, ps->lines.lineno,
					 "node GUID 0x%llx is already taken (first on line %u; "
					 "ibsim refuses duplicate GUIDs)",
					 (unsigned long long)spec.guid, taken);
	}
	spec.desc = desc;
	ps->guid[type] += type == LANES_NODE_SWITCH ? 1 : nports + 1;
	rc = lanes_builder_add_node(ps->b, &spec, &node, ps->err);
	free(desc);
	if (!rc && type == LANES_NODE_SWITCH)
		rc = lanes_builder_set_port(ps->b, node, 0, 0, lid, lmc, ps->err);
	if (!rc && lid && lanes_builder_lid_line(ps->b, ps->lines.file, node, 0, ps->lines.lineno))
		rc = lanes_error_oom(ps->err);
	if (!rc && (lanes_strmap_put(&ps->ids, id, idlen, node) ||
		    lanes_strmap_put(&ps->guids, (const char *)&spec.guid, 8,
				     (uint32_t)ps->lines.lineno)))
		rc = lanes_error_oom(ps->err);
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

/* w=1..31, s=1..7, e=0..7: what ibsim 0.10 accepts. */
static int mask_option(struct ibsim_parse *ps, const char *t, size_t n, uint8_t *mask)
{
	struct lanes_scan sc = lanes_scan_of(t + 2, n - 2);
	uint64_t max = t[0] == 'w' ? WIDTH_MASK_MAX : t[0] == 's' ? SPEED_MASK_MAX : EXT_MASK_MAX;
	uint64_t v;

	if (!lanes_scan_uint(&sc, max, &v) || !lanes_scan_at_end(&sc) || (!v && t[0] != 'e'))
		return perr(ps, "bad port option (w= takes a mask 1..31, s= 1..7, e= 0..7):", t,
			    n);
	*mask = (uint8_t)v;
	return 0;
}

/*
 * "lid N" (a LID above 0xBFFF reads as none, with a warning) or "lmc N"
 * after a port line's remote end.
 */
static int port_lid_lmc(struct ibsim_parse *ps, struct lanes_scan *sc, int is_lid,
			struct pport *pp)
{
	uint64_t v;

	if (!lanes_scan_uint(sc, is_lid ? 0xFFFF : 7, &v))
		return perr(ps, is_lid ? "expected a LID after 'lid'" : "expected an LMC 0..7 after 'lmc'",
			    NULL, 0);
	if (is_lid)
		pp->lid = unicast_lid(ps, v);
	else
		pp->lmc = (uint8_t)v;
	return 0;
}

/*
 * Options after the remote end: w=, s=, e=, lid N, lmc N, then an optional
 * comment (ours holds "# 4xEDR"). ibsim 0.10 skips words it does not know
 * there; they are refused here, because a cut or mistyped line ("lid 18 l")
 * would otherwise read as something it does not say.
 */
static int port_options(struct ibsim_parse *ps, struct lanes_scan sc, struct pport *pp)
{
	const char *t = NULL;
	size_t n = 0;
	int rc = 0, comment = 0;

	pp->wmask = ps->width_mask;
	pp->smask = ps->speed_mask;
	pp->emask = ps->ext_mask;
	while (!rc && !comment && lanes_scan_token(&sc, &t, &n)) {
		if ((comment = t[0] == '#'))
			break;
		if (n == 3 && (!memcmp(t, "lid", 3) || !memcmp(t, "lmc", 3)))
			rc = port_lid_lmc(ps, &sc, t[1] == 'i', pp);
		else if (n >= 2 && t[1] == '=' && (t[0] == 'w' || t[0] == 's' || t[0] == 'e'))
			rc = mask_option(ps, t, n,
					 t[0] == 'w' ? &pp->wmask : t[0] == 's' ? &pp->smask : &pp->emask);
		else
			rc = perr(ps, "unexpected text on a port line (after the remote end: w=, s=, e=, "
				      "lid N, lmc N, a # comment):", t, n > 40 ? 40 : n);
	}
	if (!rc && comment && n > 1)
		comment_speed(t + 1, n - 1, pp);
	else if (!rc && comment && lanes_scan_token(&sc, &t, &n))
		comment_speed(t, n, pp);
	return rc;
}

static int add_port(struct ibsim_parse *ps, uint32_t node, struct lanes_scan sc)
{
	struct pport pp = { node, 0, 1, 0, 0, 0, 0, 0, 0, 0, NULL, ps->lines.lineno };
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
		return lanes_error_oom(ps->err);
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

/* width=1..31, speed=1..7, extspeed=0..7: default masks of later ports. */
static int mask_line(struct ibsim_parse *ps, struct lanes_scan sc, uint64_t min, uint64_t max,
		     uint8_t *mask)
{
	uint64_t v;

	if (!lanes_scan_char(&sc, '=') || !lanes_scan_uint(&sc, max, &v) || v < min ||
	    !lanes_scan_at_end(&sc))
		return lanes_error_parse(ps->err, ps->lines.file, ps->lines.lineno,
					 "expected '= %llu..%llu' (an ibsim mask)",
					 (unsigned long long)min, (unsigned long long)max);
	*mask = (uint8_t)v;
	return 0;
}

/* A number as ibsim's strtol(s, 0, 0) reads it: 0x hex, 0 octal, else decimal. */
static int scan_c_number(struct lanes_scan *sc, uint64_t *v)
{
	lanes_scan_ws(sc);
	if (sc->end - sc->p >= 2 && sc->p[0] == '0' && (sc->p[1] == 'x' || sc->p[1] == 'X'))
		return lanes_scan_hex(sc, v);
	if (sc->end - sc->p >= 2 && sc->p[0] == '0' && sc->p[1] >= '0' && sc->p[1] <= '7') {
		const char *p = sc->p;

		for (*v = 0; p < sc->end && *p >= '0' && *p <= '7'; p++) {
			if (*v >> 61)
				return 0;
			*v = *v << 3 | (uint64_t)(*p - '0');
		}
		sc->p = p;
		return 1;
	}
	return lanes_scan_uint(sc, UINT64_MAX, v);
}

/* vendid=, devid=, sysimgguid=: "= number", at most max, then the end or a comment. */
static int value_line(struct ibsim_parse *ps, struct lanes_scan sc, const char *key,
		      uint64_t max, uint64_t *out)
{
	sc.p += strlen(key);
	if (!lanes_scan_char(&sc, '=') || !scan_c_number(&sc, out) || *out > max ||
	    (!lanes_scan_at_end(&sc) && !lanes_scan_peek(&sc, "#")))
		return lanes_error_parse(ps->err, ps->lines.file, ps->lines.lineno,
					 "expected '%s=' and a number up to 0x%llx", key,
					 (unsigned long long)max);
	return 0;
}

/* The node attribute lines; 1 if sc was one, else 0. */
static int attribute_line(struct ibsim_parse *ps, struct lanes_scan sc, int *rc)
{
	uint64_t v;

	if (lanes_scan_peek(&sc, "vendid")) {
		if (!(*rc = value_line(ps, sc, "vendid", 0xFFFFFF, &v)))
			ps->vendid = (uint32_t)v;
	} else if (lanes_scan_peek(&sc, "devid")) {
		if (!(*rc = value_line(ps, sc, "devid", 0xFFFF, &v)))
			ps->devid = (uint32_t)v;
	} else if (lanes_scan_peek(&sc, "sysimgguid")) {
		if (!(*rc = value_line(ps, sc, "sysimgguid", UINT64_MAX, &v)))
			ps->sysimg = v;
	} else if (lanes_scan_peek(&sc, "width")) {
		*rc = mask_line(ps, lanes_scan_of(sc.p + 5, (size_t)(sc.end - sc.p - 5)), 1,
				WIDTH_MASK_MAX, &ps->width_mask);
	} else if (lanes_scan_peek(&sc, "speed")) {
		*rc = mask_line(ps, lanes_scan_of(sc.p + 5, (size_t)(sc.end - sc.p - 5)), 1,
				SPEED_MASK_MAX, &ps->speed_mask);
	} else if (lanes_scan_peek(&sc, "extspeed")) {
		*rc = mask_line(ps, lanes_scan_of(sc.p + 8, (size_t)(sc.end - sc.p - 8)), 0,
				EXT_MASK_MAX, &ps->ext_mask);
	} else {
		return 0;
	}
	return 1;
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
	int type = node_type_of(&sc), rc = 0;

	if (type) {
		*in_node = 1;
		return add_node(ps, type, sc);
	}
	for (size_t i = 0; i < 4; i++)
		if (lanes_scan_peek(&sc, guids[i].word))
			return guid_line(ps, guids[i].type, sc, base);
	if (attribute_line(ps, sc, &rc))
		return rc;
	if (lanes_scan_peek(&sc, "pdebug") || lanes_scan_peek(&sc, "do"))
		return 0; /* settings that do not change the fabric */
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

static int ibsim_read_lines(const char *data, size_t len, const char *file,
			    struct lanes_fabric **out, struct lanes_error *err)
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
	ps.width_mask = 2; /* ibsim 0.10's defaults: 4x, SDR, no extended speed */
	ps.speed_mask = 1;
	ps.ext_mask = 0;
	if ((rc = lanes_builder_new(&ps.b, err)))
		return rc;
	if (!(rc = parse_lines(&ps))) {
		if (!lanes_builder_num_nodes(ps.b))
			rc = lanes_error_parse(err, file, ps.lines.lineno,
					       "no Switch, Hca or Rt record found");
		else if (!(rc = lanes_ibsim_connect_all(&ps))) {
			lanes_text_warn_cut(ps.b, data, len, file);
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

/* The fabric, or the error; a bad last line without its \n is truncation, and
 * xz, bzip2 or lz4 bytes are named as such (as lanes_io_read_file does). */
static int ibsim_read(const char *data, size_t len, const char *file, struct lanes_fabric **out,
		     struct lanes_error *err)
{
	*out = NULL;
	if (lanes_text_compressed(data, len, file ? file : "<input>", err))
		return LANES_EPARSE;
	return lanes_text_truncated(data, len, ibsim_read_lines(data, len, file, out, err), err);
}

/*
 * ibsim files call CAs "Hca" (ibnetdiscover says "Ca") and rarely carry the
 * vendid= lines that every ibnetdiscover record has; our own files say what
 * they are on their first line. Both formats share switchguid=, vendid= and
 * "Switch", so those decide little.
 */
static int ibsim_sniff(const char *data, size_t len)
{
	if (lanes_text_contains(data, len, 128, "# ibsim net file"))
		return 100;
	if (lanes_text_contains(data, len, 1 << 20, "\nHca"))
		return 95;
	if (lanes_text_contains(data, len, 1 << 20, "vendid="))
		return 10;
	if (lanes_text_contains(data, len, 1 << 20, "\nSwitch") ||
	    (len >= 6 && !strncmp(data, "Switch", 6)))
		return 60;
	return 0;
}

const struct lanes_format lanes_format_ibsim = {
	.name = "ibsim",
	.summary = "ibsim net file (linux-rdma/ibsim), as `ibsim -s FILE` loads it",
	.read = ibsim_read,
	.write = lanes_ibsim_write,
	.sniff = ibsim_sniff,
};
