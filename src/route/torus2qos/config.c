/*
 * config.c - reading OpenSM's torus-2QoS.conf for torus-2qos (see OpenSM's
 * torus-2QoS.conf(5) man page and parse_config in osm_torus.c).
 *
 * One keyword per line, words separated by blanks, '#' starts a comment:
 *   torus X Y Z      the radix of each dimension; a radix may end in 'm'
 *   mesh X Y Z       (mesh) or 't' (torus); "mesh" makes all three meshes;
 *                    a radix of 2 is always a mesh (OpenSM does the same)
 *   xp_link G0 G1    the seed: switch G0 and its neighbour G1 one step in +x
 *   xm_link G0 G1    ... in -x (needed with xp_link for a torus radix of 4)
 *   yp_link, ym_link, zp_link, zm_link   likewise
 *   x_dateline N     the seed switch sits at coordinate -N (default 0), so
 *   y_dateline N     that the dateline (between radix-1 and 0) stays put
 *   z_dateline N     when a backup seed is used
 *   next_seed        start a backup seed (used when a switch of an earlier
 *                    seed is missing from the fabric)
 *   portgroup_max_ports N   accepted, not needed here
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/stream.h"
#include "route/torus2qos/torus2qos.h"

#define WORDS 4

/* Split line into blank-separated words; how many (at most WORDS + 1 counted). */
static int split(char *line, char *word[WORDS])
{
	int n = 0;

	for (char *w = strtok(line, " \t\r\n"); w && n <= WORDS; w = strtok(NULL, " \t\r\n")) {
		if (w[0] == '#')
			break;
		if (n < WORDS)
			word[n] = w;
		n++;
	}
	return n;
}

static int parse_size(struct t2q_config *c, int all_mesh, char *word[WORDS], int n)
{
	if (n != 4)
		return 0;
	for (unsigned d = 0; d < T2Q_DIMS; d++) {
		char *end;
		unsigned long v = strtoul(word[d + 1], &end, 0);

		if (!v || v > 4096 || (*end && strchr("mMtT", *end) == NULL) || (*end && end[1]))
			return 0;
		c->extent[d] = (uint32_t)v;
		c->mesh[d] = (uint8_t)(all_mesh || *end == 'm' || *end == 'M' || v <= 2);
		if (*end == 't' || *end == 'T')
			c->mesh[d] = v <= 2;
	}
	return 1;
}

static int parse_link(struct t2q_seed *s, const char *key, char *word[WORDS], int n)
{
	unsigned d = (unsigned)(key[0] - 'x');
	uint64_t *l = key[1] == 'p' ? s->plus[d] : s->minus[d];
	char *end0, *end1;

	if (n != 3)
		return 0;
	l[0] = strtoull(word[1], &end0, 0);
	l[1] = strtoull(word[2], &end1, 0);
	return !*end0 && !*end1 && l[0] && l[1];
}

/* One line's keyword; 0 when it is malformed. */
static int parse_line(struct t2q_config *c, char *word[WORDS], int n)
{
	const char *key = word[0];
	struct t2q_seed *s = &c->seed[c->num_seeds ? c->num_seeds - 1 : 0];
	char *end;

	if (!strcmp(key, "torus") || !strcmp(key, "mesh"))
		return parse_size(c, !strcmp(key, "mesh"), word, n);
	if (!strcmp(key, "next_seed")) {
		if (c->num_seeds == T2Q_MAX_SEEDS)
			return 0;
		c->num_seeds++;
		return n == 1;
	}
	if (!strcmp(key, "portgroup_max_ports"))
		return n == 2;
	if (!c->num_seeds)
		c->num_seeds = 1;
	if (strlen(key) == 7 && strchr("xyz", key[0]) && strchr("pm", key[1]) && !strcmp(key + 2, "_link"))
		return parse_link(s, key, word, n);
	if (strlen(key) == 10 && strchr("xyz", key[0]) && !strcmp(key + 1, "_dateline") && n == 2) {
		s->dateline[key[0] - 'x'] = (int)strtol(word[1], &end, 0);
		return !*end;
	}
	return 0;
}

int lanes_t2q_config_read(const char *path, struct t2q_config *c, struct lanes_error *err)
{
	FILE *fp = lanes_stream_open_read(path, path, NULL, err); /* gzip, zstd too */
	char line[1024], *word[WORDS];
	unsigned number = 0;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	if (!fp)
		return LANES_EIO;
	while (!rc && fgets(line, sizeof(line), fp)) {
		int n;

		number++;
		if (!strchr(line, '\n') && !feof(fp))
			rc = lanes_error_parse(err, path, number, "a line longer than %zu "
					       "bytes", sizeof(line) - 2);
		else if ((n = split(line, word)) && !parse_line(c, word, n))
			rc = lanes_error_parse(err, path, number, "cannot read '%s' "
					       "(torus-2QoS.conf syntax)", word[0]);
	}
	if (!rc && ferror(fp))
		rc = lanes_error_set(err, LANES_EIO, T2Q_ENGINE ": %s: read failed after line %u",
				     path, number);
	fclose(fp);
	if (!rc && !c->extent[0])
		rc = lanes_error_set(err, LANES_EPARSE, T2Q_ENGINE ": %s gives no torus or mesh size",
				     path);
	return rc;
}
