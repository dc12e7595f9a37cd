/*
 * node_name_map.c - infiniband-diags' node-name map (ibnetdiscover,
 * ibtracert, ... --node-name-map FILE): the names an administrator gives
 * nodes, used instead of their NodeDescription wherever lanes prints one.
 *
 * The file is line based, as infiniband-diags reads it: '#' starts a
 * comment, blank lines are ignored, and each other line is a node GUID
 * (hex, 0x optional) and a name in double quotes:
 *
 *   0x0002c90300a00000 "spine-01"
 *
 * GUIDs the fabric does not have are ignored (one map serves a whole site);
 * a GUID given twice, a line that is not GUID and quoted name, or a name
 * with control characters is an error with file:line. The fabric is copied
 * with the new descriptions (fabric/copy.h): every later output, the dumps
 * included, shows them.
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "fabric/copy.h"
#include "lanes/io.h"
#include "text.h"

struct name_map {
	struct lanes_lines lines;
	const struct lanes_fabric *f;
	char **desc;              /* per node: the new name, or NULL */
	unsigned long *line;      /* per node: the line that named it */
	struct lanes_error *err;
};

static int perr(struct name_map *m, const char *msg)
{
	return lanes_error_parse(m->err, m->lines.file, m->lines.lineno, "%s", msg);
}

static int map_line(struct name_map *m, struct lanes_scan sc)
{
	const char *name;
	size_t len;
	uint64_t guid;
	uint32_t node;

	if (lanes_scan_at_end(&sc) || *sc.p == '#')
		return 0;
	if (!lanes_scan_hex(&sc, &guid) || !lanes_scan_quoted(&sc, &name, &len))
		return perr(m, "expected a node GUID and a \"name\" in double quotes");
	if (!lanes_scan_at_end(&sc) && *sc.p != '#')
		return perr(m, "unexpected text after the name");
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)name[i] < 0x20)
			return perr(m, "a control character in the name");
	if ((node = lanes_fabric_find_guid(m->f, guid)) == LANES_NONE)
		return 0;
	if (m->line[node])
		return lanes_error_parse(m->err, m->lines.file, m->lines.lineno,
					 "GUID 0x%016llx is named again (first on line %lu)",
					 (unsigned long long)guid, m->line[node]);
	m->line[node] = m->lines.lineno;
	if (!(m->desc[node] = lanes_strndup(name, len)))
		return lanes_error_oom(m->err);
	return 0;
}

int lanes_io_apply_name_map(const struct lanes_fabric *f, const char *path,
			    struct lanes_fabric **out, struct lanes_error *err)
{
	struct name_map m;
	const char *s;
	char *data = NULL;
	size_t len, n;
	int rc;

	*out = NULL;
	memset(&m, 0, sizeof(m));
	m.f = f;
	m.err = err;
	m.desc = calloc((size_t)f->num_nodes + 1, sizeof(*m.desc));
	m.line = calloc((size_t)f->num_nodes + 1, sizeof(*m.line));
	if (!m.desc || !m.line)
		rc = lanes_error_oom(err);
	else if (!(rc = lanes_io_slurp(path, &data, &len, err))) {
		lanes_lines_init(&m.lines, data, len, lanes_io_shown_name(path));
		while (!rc && lanes_lines_next(&m.lines, &s, &n))
			rc = map_line(&m, lanes_scan_of(s, n));
		rc = lanes_lines_truncated(&m.lines, rc, err);
	}
	if (!rc)
		rc = lanes_fabric_copy(f, NULL, NULL, (const char *const *)m.desc, out, err);
	for (uint32_t i = 0; m.desc && i < f->num_nodes; i++)
		free(m.desc[i]);
	free(m.desc);
	free(m.line);
	free(data);
	return rc;
}
