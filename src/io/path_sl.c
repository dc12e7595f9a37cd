/*
 * path_sl.c - path SLs as lanes' own table (docs/formats-routing.md), and
 * OpenSM's SA path records as `saquery -p` prints them (read only).
 *
 * The table is line based; '#' starts a comment line, blank lines are
 * ignored, LIDs are 0x%04x or decimal, SLs 0..15:
 *
 *   # lanes path SLs                  (the first line, always)
 *   mode uniform|per-dst|per-src-switch|per-pair
 *   sl N                              (uniform)
 *   DSTLID SL                         (per-dst)
 *   DSTLID SRC_SWITCH_GUID SL         (per-src-switch)
 *   DSTLID SRCLID SL                  (per-pair)
 *
 * The writer omits nothing: every LID that has an owner, every (owned LID,
 * switch) and every (owned LID, owned LID) pair, SL 0 included, in
 * ascending destination then source order, so a file fully determines the
 * SLs. The reader replaces the routing's SLs. It refuses unknown or unowned
 * LIDs, GUIDs that are not switches, SLs above 15, an entry given twice,
 * entries that do not fit the mode, and a table that leaves entries out (a
 * file cut short would otherwise read as SL 0 where it stops; a LID to
 * itself, no path, may be left out), naming the first one missing.
 *
 * saquery (infiniband-diags) prints each path record as "PathRecord dump:"
 * followed by "\t\tname.....value" lines; the reader takes slid, dlid
 * (decimal or 0x hex) and sl from each record into per-pair SLs. Several
 * records for one pair must agree. Collect them with
 * `saquery -p --slid S --dlid D` per pair, or `saquery -p` for all.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "fmt.h"
#include "lanes/dump.h"
#include "osm_common.h"
#include "stream.h"
#include "text.h"

static const char *const mode_names[] = { "uniform", "per-dst", "per-src-switch", "per-pair" };

/*
 * What the reader is asked, and a second entry for one path: the file is read
 * once more up to that path's first entry, to name its line (the cells have
 * no room for line numbers: a per-pair table has num_lids^2 of them).
 */
struct psl_target {
	const struct lanes_fabric *f;
	struct lanes_routing *r;
	int dup;                  /* the read stopped at a second entry for dup_cell */
	int finding;              /* this read stops at the first entry for dup_cell */
	size_t dup_cell;
	unsigned long first_line; /* where finding found it */
};

struct psl_parse {
	struct psl_target *t;
	struct lanes_lines *lines;
	const struct lanes_fabric *f;
	struct lanes_routing *r;
	struct lanes_strmap sw; /* 8-byte switch node / port-0 GUID -> switch index */
	uint8_t *seen;          /* one bit per SL cell of the mode */
	int mode;               /* -1 until the mode line */
	int have_uniform;
	struct lanes_error *err;
};

static int perr(struct psl_parse *ps, const char *msg)
{
	return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno, "%s", msg);
}

/* Every SL 0 at the given granularity: the file then sets each one. */
static int reset_sls(struct psl_parse *ps, int mode)
{
	struct lanes_routing *r = ps->r;

	lanes_routing_reset_sls(r);
	if (!(ps->seen = calloc(lanes_routing_sl_cells(r, mode) / 8 + 1, 1)))
		return lanes_error_oom(ps->err);
	ps->mode = mode;
	return lanes_routing_set_sl_mode(r, mode, ps->err);
}

/* A LID that some port owns, "0x..." or decimal. */
static int scan_lid(struct psl_parse *ps, struct lanes_scan *sc, const char *what, uint32_t *lid)
{
	uint64_t v;
	int ok = lanes_scan_peek(sc, "0x") || lanes_scan_peek(sc, "0X") ? lanes_scan_hex(sc, &v)
								       : lanes_scan_uint(sc, UINT64_MAX, &v);

	if (!ok)
		return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
					 "expected a %s LID (0x hex or decimal)", what);
	if (v == 0 || v > ps->f->max_lid || ps->f->lid_owner[v].node == LANES_NONE)
		return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
					 "%s LID 0x%04llx is not a LID of the fabric", what,
					 (unsigned long long)v);
	*lid = (uint32_t)v;
	return 0;
}

static int scan_sl(struct psl_parse *ps, struct lanes_scan *sc, uint8_t *sl)
{
	uint64_t v;
	int ok = lanes_scan_peek(sc, "0x") ? lanes_scan_hex(sc, &v) : lanes_scan_uint(sc, 255, &v);

	if (!ok || v > 15)
		return perr(ps, "expected an SL 0..15");
	*sl = (uint8_t)v;
	return 0;
}

static int scan_switch(struct psl_parse *ps, struct lanes_scan *sc, uint32_t *sw)
{
	uint64_t guid;

	if (!lanes_scan_hex(sc, &guid))
		return perr(ps, "expected a source switch GUID (0x...)");
	*sw = osm_get_guid(&ps->sw, guid);
	if (*sw == LANES_NONE)
		return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
					 "0x%016llx is not the GUID of a switch in the fabric",
					 (unsigned long long)guid);
	return 0;
}

#define PSL_FOUND 1 /* finding: the first entry for dup_cell is found (not an error) */

/* Mark a cell; refuse a second entry (with another SL, for saquery records). */
static int set_once(struct psl_parse *ps, uint32_t src, uint32_t dst, uint8_t sl, int same_ok)
{
	size_t cell = ps->mode == LANES_SL_PER_DST	   ? dst
		      : ps->mode == LANES_SL_PER_SRC_SWITCH ? (size_t)dst * ps->r->num_switches + src
							    : (size_t)dst * ps->r->num_lids + src;

	if (ps->t->finding && cell == ps->t->dup_cell) {
		ps->t->first_line = ps->lines->lineno;
		return PSL_FOUND;
	}
	if (ps->seen[cell / 8] & (1u << cell % 8)) {
		if (same_ok && ps->r->sl[cell] == sl)
			return 0;
		ps->t->dup = 1;
		ps->t->dup_cell = cell;
		return perr(ps, same_ok ? "another path record for this pair has another SL"
					: "a second entry for the same path");
	}
	ps->seen[cell / 8] |= (uint8_t)(1u << cell % 8);
	lanes_routing_set_sl(ps->r, src, dst, sl);
	return 0;
}

static int mode_line(struct psl_parse *ps, struct lanes_scan sc)
{
	const char *t;
	size_t n;

	if (ps->mode >= 0)
		return perr(ps, "a second 'mode' line");
	if (!lanes_scan_token(&sc, &t, &n) || !lanes_scan_at_end(&sc))
		return perr(ps, "expected 'mode uniform|per-dst|per-src-switch|per-pair'");
	for (int m = 0; m < 4; m++)
		if (strlen(mode_names[m]) == n && !memcmp(t, mode_names[m], n))
			return reset_sls(ps, m);
	return perr(ps, "unknown mode (expected uniform, per-dst, per-src-switch or per-pair)");
}

static int uniform_line(struct psl_parse *ps, struct lanes_scan sc)
{
	uint8_t sl = 0;
	int rc;

	if (ps->mode != LANES_SL_UNIFORM)
		return perr(ps, "'sl N' belongs to mode uniform");
	if (ps->have_uniform++)
		return perr(ps, "a second 'sl' line");
	if ((rc = scan_sl(ps, &sc, &sl)))
		return rc;
	if (!lanes_scan_at_end(&sc))
		return perr(ps, "unexpected text after the SL");
	ps->r->sl_uniform = sl;
	return 0;
}

static int entry_line(struct psl_parse *ps, struct lanes_scan sc)
{
	uint32_t dst, src = 0;
	uint8_t sl = 0;
	int rc;

	if (ps->mode <= LANES_SL_UNIFORM)
		return perr(ps, ps->mode < 0 ? "an entry before the 'mode' line"
					     : "mode uniform takes one 'sl N' line, not entries");
	if ((rc = scan_lid(ps, &sc, "destination", &dst)))
		return rc;
	if (ps->mode == LANES_SL_PER_SRC_SWITCH && (rc = scan_switch(ps, &sc, &src)))
		return rc;
	if (ps->mode == LANES_SL_PER_PAIR && (rc = scan_lid(ps, &sc, "source", &src)))
		return rc;
	if ((rc = scan_sl(ps, &sc, &sl)))
		return rc;
	if (!lanes_scan_at_end(&sc))
		return perr(ps, "unexpected text after the SL (too many fields for this mode?)");
	return set_once(ps, src, dst, sl, 0);
}

static int table_line(struct psl_parse *ps, struct lanes_scan sc)
{
	if (lanes_scan_at_end(&sc) || *sc.p == '#')
		return 0;
	if (lanes_scan_word(&sc, "mode"))
		return mode_line(ps, sc);
	if (lanes_scan_word(&sc, "sl"))
		return uniform_line(ps, sc);
	return entry_line(ps, sc);
}

/* ---- saquery path records ---- */

struct record {
	unsigned long line;
	uint32_t slid, dlid;
	uint8_t sl, have; /* have: bit 0 slid, 1 dlid, 2 sl */
};

static int end_record(struct psl_parse *ps, struct record *rec)
{
	unsigned long line = ps->lines->lineno;
	int rc;

	if (!rec->line)
		return 0;
	if (rec->have != 7)
		return lanes_error_parse(ps->err, ps->lines->file, rec->line,
					 "this path record lacks slid, dlid or sl");
	ps->lines->lineno = rec->line;
	rc = set_once(ps, rec->slid, rec->dlid, rec->sl, 1);
	ps->lines->lineno = line;
	memset(rec, 0, sizeof(*rec));
	return rc;
}

/* "name.....value": the name and the scanner left at the value. */
static int field(struct lanes_scan *sc, const char **name, size_t *len)
{
	lanes_scan_ws(sc);
	*name = sc->p;
	while (sc->p < sc->end && *sc->p != '.' && *sc->p != ' ' && *sc->p != '\t')
		sc->p++;
	*len = (size_t)(sc->p - *name);
	if (sc->p >= sc->end || *sc->p != '.' || !*len)
		return 0;
	while (sc->p < sc->end && *sc->p == '.')
		sc->p++;
	return 1;
}

static int record_line(struct psl_parse *ps, struct lanes_scan sc, struct record *rec)
{
	const char *name;
	size_t n;
	int rc = 0;

	if (lanes_scan_at_end(&sc))
		return 0;
	if (lanes_scan_peek(&sc, "PathRecord dump:")) {
		rc = end_record(ps, rec);
		rec->line = ps->lines->lineno;
		return rc;
	}
	if (!rec->line || !field(&sc, &name, &n))
		return perr(ps, "expected 'PathRecord dump:' or a 'name.....value' field line");
	if (n == 4 && !memcmp(name, "slid", 4)) {
		rc = scan_lid(ps, &sc, "source", &rec->slid);
		rec->have |= 1;
	} else if (n == 4 && !memcmp(name, "dlid", 4)) {
		rc = scan_lid(ps, &sc, "destination", &rec->dlid);
		rec->have |= 2;
	} else if (n == 2 && !memcmp(name, "sl", 2)) {
		rc = scan_sl(ps, &sc, &rec->sl);
		rec->have |= 4;
	}
	return rc;
}

static int read_saquery(struct psl_parse *ps)
{
	struct record rec;
	const char *s;
	size_t n;
	int rc = reset_sls(ps, LANES_SL_PER_PAIR);

	memset(&rec, 0, sizeof(rec));
	while (!rc && lanes_lines_next(ps->lines, &s, &n))
		rc = record_line(ps, lanes_scan_of(s, n), &rec);
	return rc ? rc : end_record(ps, &rec);
}

/* Is the cell of (src, dst) given? src: a switch index or LID, as the mode says. */
static int given(const struct psl_parse *ps, uint32_t src, uint32_t dst)
{
	size_t cell = ps->mode == LANES_SL_PER_DST	   ? dst
		      : ps->mode == LANES_SL_PER_SRC_SWITCH ? (size_t)dst * ps->r->num_switches + src
							    : (size_t)dst * ps->r->num_lids + src;

	return ps->seen[cell / 8] >> cell % 8 & 1;
}

/* Every owned destination (and source, by the mode) has its entry, as the writer writes. */
static int every_entry(struct psl_parse *ps)
{
	const struct lanes_fabric *f = ps->f;
	uint32_t sources = ps->mode == LANES_SL_PER_DST ? 1
			   : ps->mode == LANES_SL_PER_SRC_SWITCH ? f->num_switches : f->max_lid + 1;

	for (uint32_t d = 1; d <= f->max_lid; d++) {
		if (f->lid_owner[d].node == LANES_NONE)
			continue;
		for (uint32_t s = ps->mode == LANES_SL_PER_PAIR; s < sources; s++) {
			if ((ps->mode == LANES_SL_PER_PAIR && (f->lid_owner[s].node == LANES_NONE ||
							      s == d)) ||
			    given(ps, s, d))
				continue; /* a LID to itself is no path: saquery has no record of it */
			char src[48] = "";

			if (ps->mode == LANES_SL_PER_SRC_SWITCH)
				snprintf(src, sizeof(src), " from switch 0x%016llx",
					 (unsigned long long)f->nodes[f->switches[s]].guid);
			else if (ps->mode == LANES_SL_PER_PAIR)
				snprintf(src, sizeof(src), " from LID 0x%04x", s);
			return lanes_error_parse(ps->err, ps->lines->file, ps->lines->lineno,
						 "truncated or incomplete: no entry for LID 0x%04x%s "
						 "(a path-SL table lists every one)", d, src);
		}
	}
	return 0;
}

static int read_table(struct psl_parse *ps)
{
	const char *s;
	size_t n;
	int rc = 0;

	while (!rc && lanes_lines_next(ps->lines, &s, &n))
		rc = table_line(ps, lanes_scan_of(s, n));
	if (!rc && ps->mode < 0)
		rc = perr(ps, "no 'mode' line");
	if (!rc && ps->mode == LANES_SL_UNIFORM && !ps->have_uniform)
		rc = perr(ps, "mode uniform needs an 'sl N' line");
	if (!rc && ps->mode > LANES_SL_UNIFORM)
		rc = every_entry(ps);
	return rc;
}

/* The first line that is not blank: the table's title or a path record. */
static int which_format(struct psl_parse *ps)
{
	const char *s;
	size_t n;

	while (lanes_lines_next(ps->lines, &s, &n)) {
		struct lanes_scan sc = lanes_scan_of(s, n);
		int kind = lanes_scan_peek(&sc, "# lanes path SLs")	? 1
			   : lanes_scan_peek(&sc, "PathRecord dump:") ? 2 : 0;

		if (lanes_scan_at_end(&sc))
			continue;
		if (kind)
			lanes_lines_unget(ps->lines); /* the first line is the format's own */
		return kind;
	}
	return 0;
}

static int map_switches(struct psl_parse *ps)
{
	const struct lanes_fabric *f = ps->f;

	for (uint32_t s = 0; s < f->num_switches; s++) {
		const struct lanes_node *n = &f->nodes[f->switches[s]];
		uint64_t g = n->guid, g0 = f->ports[n->port_base].guid;

		if (osm_put_guid(&ps->sw, g, s) ||
		    osm_put_guid(&ps->sw, g0, s))
			return lanes_error_oom(ps->err);
	}
	return 0;
}

/* lanes_lines_parser: a path-SL table's or saquery's lines into the routing's SLs. */
static int path_sl_parse(struct lanes_lines *lines, void *ctx, struct lanes_error *err)
{
	struct psl_target *t = ctx;
	struct psl_parse ps;
	int rc, kind;

	if ((rc = lanes_routing_check(t->f, t->r, err)))
		return rc;
	memset(&ps, 0, sizeof(ps));
	ps.t = t;
	ps.lines = lines;
	lanes_strmap_init(&ps.sw);
	ps.f = t->f;
	ps.r = t->r;
	ps.mode = -1;
	ps.err = err;
	if (!(kind = which_format(&ps)))
		rc = perr(&ps, "not a path-SL table ('# lanes path SLs') or saquery path records "
			       "('PathRecord dump:')");
	else if (!(rc = map_switches(&ps)))
		rc = kind == 1 ? read_table(&ps) : read_saquery(&ps);
	lanes_strmap_clear(&ps.sw);
	free(ps.seen);
	if (!rc)
		lanes_routing_count_resources(t->r);
	return rc;
}

/* The error of a second entry, with the line of the first. */
static int name_first(const struct psl_target *t, struct lanes_error *err)
{
	char msg[sizeof(err->message)], file[sizeof(err->file)];

	if (!err)
		return LANES_EPARSE;
	memcpy(msg, err->message, sizeof(msg));
	memcpy(file, err->file, sizeof(file));
	return lanes_error_parse(err, file, err->line, "%s (first on line %lu)", msg,
				 t->first_line);
}

int lanes_path_sl_read(const char *data, size_t len, const char *file,
		       const struct lanes_fabric *f, struct lanes_routing *r,
		       struct lanes_error *err)
{
	struct psl_target t = { f, r, 0, 0, 0, 0 };
	struct lanes_lines lines;
	struct lanes_error again;
	int rc;

	if (lanes_text_compressed(data, len, file, err))
		return LANES_EPARSE;
	lanes_lines_init(&lines, data, len, file);
	rc = lanes_lines_truncated(&lines, path_sl_parse(&lines, &t, err), err);
	if (rc == LANES_EPARSE && t.dup) {
		t.finding = 1;
		lanes_lines_init(&lines, data, len, file);
		if (path_sl_parse(&lines, &t, &again) == PSL_FOUND)
			rc = name_first(&t, err);
	}
	return rc;
}

int lanes_path_sl_read_file(const char *path, const struct lanes_fabric *f,
			    struct lanes_routing *r, struct lanes_progress *progress,
			    struct lanes_error *err)
{
	struct psl_target t = { f, r, 0, 0, 0, 0 };
	struct lanes_error again;
	int rc = lanes_io_read_lines(path, path_sl_parse, &t, progress, err);

	if (rc == LANES_EPARSE && t.dup && strcmp(path, "-")) { /* standard input: read once */
		t.finding = 1;
		if (lanes_io_read_lines(path, path_sl_parse, &t, NULL, &again) == PSL_FOUND)
			rc = name_first(&t, err);
	}
	return rc;
}

/* ---- writer ---- */

/*
 * "0x%0*llx " of a LID (width 4) or a switch GUID (width 16): formatted once
 * and copied into every line that names it. The copy is of the whole array
 * (zeroed first), which the compiler does in a few moves; len says how much
 * of it counts.
 */
struct word {
	uint8_t len;
	char s[LANES_FMT_U64 + 3];
};

static void make_word(struct word *w, uint64_t v, unsigned width)
{
	char *p = w->s;

	memset(w->s, 0, sizeof(w->s));
	*p++ = '0';
	*p++ = 'x';
	p = lanes_fmt_hex0(p, v, width);
	*p++ = ' ';
	w->len = (uint8_t)(p - w->s);
}

static char *put_word(char *p, const struct word *w)
{
	memcpy(p, w->s, sizeof(w->s));
	return p + w->len;
}

/* "DST SL" or, when src is not NULL, "DST SRC SL". */
static void write_entry(struct lanes_fmt *o, const struct word *dst, const struct word *src,
			uint8_t sl)
{
	char *p = lanes_fmt_room(o, 2 * sizeof(dst->s) + LANES_FMT_U64 + 1);

	p = put_word(p, dst);
	if (src)
		p = put_word(p, src);
	p = lanes_fmt_dec(p, sl);
	*p++ = '\n';
	lanes_fmt_done(o, p);
}

/* The lines of destination d, whose word is dw; src holds the sources' words. */
static void write_dst(struct lanes_fmt *o, const struct lanes_fabric *f,
		      const struct lanes_routing *r, uint32_t d, const struct word *src)
{
	struct word dw;

	make_word(&dw, d, 4);
	if (r->sl_mode == LANES_SL_PER_DST)
		write_entry(o, &dw, NULL, r->sl[d]);
	for (uint32_t s = 0; r->sl_mode == LANES_SL_PER_SRC_SWITCH && s < f->num_switches; s++)
		write_entry(o, &dw, &src[s], r->sl[(size_t)d * r->num_switches + s]);
	for (uint32_t s = 1; r->sl_mode == LANES_SL_PER_PAIR && s <= f->max_lid; s++)
		if (f->lid_owner[s].node != LANES_NONE)
			write_entry(o, &dw, &src[s], r->sl[(size_t)d * r->num_lids + s]);
}

/* Every owned destination LID's lines; the sources' words made first. */
static int write_entries(struct lanes_fmt *o, const struct lanes_fabric *f,
			 const struct lanes_routing *r, struct lanes_error *err)
{
	int by_switch = r->sl_mode == LANES_SL_PER_SRC_SWITCH;
	size_t n = by_switch ? f->num_switches : r->sl_mode == LANES_SL_PER_PAIR ? r->num_lids : 0;
	struct word *src = malloc(sizeof(*src) * (n + 1));

	if (!src)
		return lanes_error_oom(err);
	for (size_t i = 0; i < n; i++)
		make_word(&src[i], by_switch ? f->nodes[f->switches[i]].guid : i, by_switch ? 16 : 4);
	for (uint32_t d = 1; d <= f->max_lid; d++)
		if (f->lid_owner[d].node != LANES_NONE)
			write_dst(o, f, r, d, src);
	free(src);
	return 0;
}

int lanes_path_sl_write(const struct lanes_fabric *f, const struct lanes_routing *r, FILE *out,
			struct lanes_error *err)
{
	struct lanes_fmt o;
	int rc = lanes_routing_check(f, r, err);

	if (rc)
		return rc;
	if (r->sl_mode < LANES_SL_UNIFORM || r->sl_mode > LANES_SL_PER_PAIR)
		return lanes_error_set(err, LANES_EINVAL, "unknown SL mode %d", r->sl_mode);
	fprintf(out, "# lanes path SLs\nmode %s\n", mode_names[r->sl_mode]);
	if (r->sl_mode == LANES_SL_UNIFORM)
		fprintf(out, "sl %u\n", r->sl_uniform);
	lanes_fmt_init(&o, out);
	if (r->sl_mode != LANES_SL_UNIFORM && (rc = write_entries(&o, f, r, err)))
		return rc;
	lanes_fmt_flush(&o);
	if (ferror(out))
		return lanes_error_set(err, LANES_EIO, "write error");
	return 0;
}
