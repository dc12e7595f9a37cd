/*
 * testutil.h - helpers shared by the cmocka unit tests.
 *
 * gen() builds a fabric from a generator spec written as on the command line
 * ("dragonfly a=4 p=2 h=2") and fails the test with the library's message
 * when that does not work; gen_error() expects failure and returns the error.
 */
#ifndef LANES_TESTUTIL_H
#define LANES_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lanes/fabric.h"
#include "lanes/io.h"
#include "lanes/topo.h"

/* Split spec at blanks into argv-style words (in place). */
static inline size_t split_words(char *s, char **words, size_t max)
{
	size_t n = 0;

	for (char *tok = strtok(s, " "); tok && n < max; tok = strtok(NULL, " "))
		words[n++] = tok;
	return n;
}

static inline int gen_try(const char *spec, struct lanes_fabric **out, struct lanes_error *err)
{
	char buf[512], *w[32];
	size_t n;

	snprintf(buf, sizeof(buf), "%s", spec);
	n = split_words(buf, w, 32);
	return lanes_topo_generate(w[0], n - 1, (const char *const *)(w + 1), out, err);
}

static inline struct lanes_fabric *gen(const char *spec)
{
	struct lanes_fabric *f = NULL;
	struct lanes_error err;

	if (gen_try(spec, &f, &err))
		fail_msg("%s: %s", spec, err.message);
	return f;
}

static inline struct lanes_error gen_error(const char *spec)
{
	struct lanes_fabric *f = NULL;
	struct lanes_error err;

	memset(&err, 0, sizeof(err));
	if (!gen_try(spec, &f, &err)) {
		lanes_fabric_free(f);
		fail_msg("%s: expected an error", spec);
	}
	return err;
}

static inline struct lanes_fabric_stats stats_of(const struct lanes_fabric *f)
{
	struct lanes_fabric_stats st;
	struct lanes_error err;

	if (lanes_fabric_stats(f, &st, &err))
		fail_msg("stats: %s", err.message);
	return st;
}

/* Read a file from ../shared/data (LANES_DATA_DIR) or tests/data. */
static inline struct lanes_fabric *read_fabric(const char *dir, const char *name,
					       const char *format)
{
	char path[1024];
	struct lanes_fabric *f = NULL;
	struct lanes_error err;
	char msg[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (lanes_io_read_file(path, format, &f, &err))
		fail_msg("%s", lanes_error_format(&err, msg, sizeof(msg)));
	return f;
}

#endif
