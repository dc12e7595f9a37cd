/*
 * updn_roots.c - the root file of the updn engine (updown/updn.c): the
 * roots named by GUID, as OpenSM 3.3.23's updn takes them from its root
 * GUID file (osm_ucast_updn.c, updn_lid_matrices; OpenSM's
 * doc/current-routing.txt, "UPDN Routing Algorithm").
 *
 * The file: one GUID per line, 0x-prefixed hex, then optionally blanks and
 * anything; blank lines and '#' lines are skipped; any other line is a
 * file:line error. A switch GUID names that switch; a CA node or port GUID
 * names the switch the CA is cabled to (current-routing.txt, note 2); GUIDs not in the
 * fabric are skipped, as OpenSM skips them, and counted (the engine's notes
 * say how many).
 *
 * Invariants: the roots come out ascending by switch index, whatever the
 * order of the file; a GUID is looked up in a map sorted by GUID, then
 * switch index, so a GUID that several entries share names the lowest of
 * their switches.
 */
#include <stdlib.h>
#include <string.h>

#include "io/text.h"
#include "lanes/fabric.h"
#include "lanes/io.h"
#include "route/updown/updown.h"
#include "core/util.h"

struct guid_map {
	uint64_t guid;
	uint32_t sw; /* the switch it stands for */
};

static int by_guid(const void *pa, const void *pb)
{
	const struct guid_map *a = pa, *b = pb;

	if (a->guid != b->guid)
		return a->guid < b->guid ? -1 : 1;
	return a->sw < b->sw ? -1 : a->sw > b->sw;
}

/* The switch a CA port is cabled to, or LANES_NONE. */
static uint32_t ca_port_switch(const struct lanes_fabric *f, uint32_t node, uint8_t port)
{
	uint32_t peer = lanes_fabric_port(f, node, port)->peer_node;

	return peer != LANES_NONE && f->nodes[peer].type == LANES_NODE_SWITCH
		       ? f->nodes[peer].switch_index
		       : LANES_NONE;
}

/* Switch node GUIDs, CA node GUIDs (first cabled port) and CA port GUIDs, sorted. */
static struct guid_map *guid_index(const struct lanes_fabric *f, size_t *count)
{
	struct guid_map *m = malloc(sizeof(*m) * ((size_t)f->num_port_slots + f->num_nodes + 1));
	size_t n = 0;

	if (!m)
		return NULL;
	for (uint32_t node = 0; node < f->num_nodes; node++) {
		const struct lanes_node *nd = &f->nodes[node];
		uint32_t first = LANES_NONE;

		if (nd->type == LANES_NODE_SWITCH) {
			m[n++] = (struct guid_map){ nd->guid, nd->switch_index };
			continue;
		}
		for (uint8_t p = 1; p <= nd->nports; p++) {
			uint32_t sw = ca_port_switch(f, node, p);

			if (sw == LANES_NONE)
				continue;
			m[n++] = (struct guid_map){ lanes_fabric_port(f, node, p)->guid, sw };
			first = first == LANES_NONE ? sw : first;
		}
		if (first != LANES_NONE)
			m[n++] = (struct guid_map){ nd->guid, first };
	}
	qsort(m, n, sizeof(*m), by_guid);
	*count = n;
	return m;
}

/* One line: 1 and *guid, 0 for a blank or comment line, or a parse error. */
static int parse_line(const char *s, size_t len, const char *file, unsigned long lineno,
		      uint64_t *guid, struct lanes_error *err)
{
	struct lanes_scan sc = lanes_scan_of(s, len);

	lanes_scan_ws(&sc);
	if (lanes_scan_at_end(&sc) || *sc.p == '#')
		return 0;
	if (!lanes_scan_peek(&sc, "0x") && !lanes_scan_peek(&sc, "0X"))
		return lanes_error_parse(err, file, lineno,
					 "expected a 0x-prefixed hexadecimal GUID, not \"%.*s\"",
					 (int)(sc.end - sc.p > 40 ? 40 : sc.end - sc.p), sc.p);
	if (!lanes_scan_hex(&sc, guid) ||
	    (sc.p < sc.end && *sc.p != ' ' && *sc.p != '\t' && *sc.p != '#'))
		return lanes_error_parse(err, file, lineno,
					 "bad GUID \"%.*s\" (0x and 1 to 16 hex digits)",
					 (int)(len > 40 ? 40 : len), s);
	if (!*guid)
		return lanes_error_parse(err, file, lineno, "GUID 0 names no node");
	return 1;
}

/* Look guid up (lower bound in the sorted map); mark its switch. @return 1 if found. */
static int add_root(const struct guid_map *m, size_t n, uint64_t guid, uint8_t *mark)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n || m[lo].guid != guid)
		return 0;
	mark[m[lo].sw] = 1;
	return 1;
}

int lanes_route_read_roots(const struct lanes_fabric *f, const char *path, uint32_t *roots,
			   uint32_t *nroots, struct roots_unknown *unknown, struct lanes_error *err)
{
	uint8_t *mark = calloc((size_t)f->num_switches + 1, 1);
	struct guid_map *m = NULL;
	struct lanes_lines lines;
	char *data = NULL;
	size_t dlen = 0, nm = 0, len;
	const char *s;
	uint64_t guid;
	int rc;

	memset(unknown, 0, sizeof(*unknown));
	if (!mark || !(m = guid_index(f, &nm))) {
		rc = lanes_error_oom(err);
		goto out;
	}
	if ((rc = lanes_io_slurp(path, &data, &dlen, err)))
		goto out;
	lanes_lines_init(&lines, data, dlen, path);
	while (lanes_lines_next(&lines, &s, &len)) {
		if ((rc = parse_line(s, len, path, lines.lineno, &guid, err)) < 0)
			goto out;
		if (rc && !add_root(m, nm, guid, mark) && !unknown->count++) {
			unknown->first_guid = guid;
			unknown->first_line = lines.lineno;
		}
	}
	rc = 0;
	*nroots = 0;
	for (uint32_t sw = 0; sw < f->num_switches; sw++)
		if (mark[sw])
			roots[(*nroots)++] = sw;
	if (!*nroots)
		rc = lanes_error_set(err, LANES_EINVAL,
				     "updn: no GUID in %s names a switch or a cabled CA of the fabric",
				     path);
out:
	free(mark);
	free(m);
	free(data);
	return rc;
}
