/*
 * common.c - error printing, option values and fabric loading for `lanes`.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "lanes/io.h"
#include "lanes/topo.h"
#include "lanes/verify.h"

#define MAX_WARNINGS_SHOWN 20

int cli_fail(const struct lanes_error *err)
{
	char buf[1024];

	fprintf(stderr, "lanes: %s\n", lanes_error_format(err, buf, sizeof(buf)));
	return EXIT_USAGE;
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("lanes: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

int cli_parse_amount(const char *opt, const char *value, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(value, &end);
	if (errno || end == value || *end || !(*out >= 0) || isinf(*out) ||
	    (*out >= 1 && *out != floor(*out)))
		return cli_usage_error("--%s: expected a count or a fraction in [0, 1), not '%s'",
				       opt, value);
	return 0;
}

/*
 * Decimal only: base 0 would read "010" as 8 and refuse "08", which no one
 * typing a seed means. strtoull() would also take blanks, a sign and a
 * negated value, so the first character must be a digit.
 */
int cli_parse_u64(const char *opt, const char *value, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(value, &end, 10);
	if (errno || end == value || *end || value[0] < '0' || value[0] > '9')
		return cli_usage_error("--%s: expected a non-negative integer, not '%s'", opt,
				       value);
	return 0;
}

int cli_fabric_option(int opt, const char *arg, struct cli_fabric_opts *opts)
{
	switch (opt) {
	case 'F':
		opts->format = arg;
		return 1;
	case 'L':
		opts->faults = 1;
		return cli_parse_amount("fail-links", arg, &opts->fail_links) ? -1 : 1;
	case 'S':
		opts->faults = 1;
		return cli_parse_amount("fail-switches", arg, &opts->fail_switches) ? -1 : 1;
	case 's':
		return cli_parse_u64("seed", arg, &opts->seed) ? -1 : 1;
	default:
		return 0;
	}
}

static void print_warnings(const char *what, const struct lanes_fabric *f)
{
	for (uint32_t i = 0; i < f->num_warnings && i < MAX_WARNINGS_SHOWN; i++)
		fprintf(stderr, "lanes: warning: %s\n", f->warnings[i]);
	if (f->num_warnings > MAX_WARNINGS_SHOWN)
		fprintf(stderr, "lanes: warning: %s: %u more warnings not shown\n", what,
			f->num_warnings - MAX_WARNINGS_SHOWN);
}

static int exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

static int is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && !S_ISDIR(st.st_mode);
}

static int apply_faults(struct cli_fabric_opts *opts, struct lanes_fabric **f)
{
	struct lanes_fault_spec spec = { opts->fail_links, opts->fail_switches, opts->seed };
	struct lanes_fabric *faulty;
	struct lanes_error err;

	if (lanes_fabric_inject_faults(*f, &spec, &faulty, &opts->report, &err))
		return cli_fail(&err);
	lanes_fabric_free(*f);
	*f = faulty;
	return 0;
}

#define SPEC_WORDS 64

/* A generator spec given as one quoted word ("torus k=4x4 p=2"): its words. */
static int load_quoted_spec(const char *spec, struct cli_fabric_opts *opts,
			    struct lanes_fabric **out)
{
	char *copy = strdup(spec), *words[SPEC_WORDS], *save = NULL;
	int n = 0, rc;

	if (!copy)
		return cli_usage_error("out of memory");
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (n == SPEC_WORDS) {
			free(copy);
			return cli_usage_error("'%s': more than %d words", spec, SPEC_WORDS);
		}
		words[n++] = w;
	}
	rc = cli_load_fabric(n, words, opts, out);
	free(copy);
	return rc;
}

int cli_load_fabric(int nwords, char **words, struct cli_fabric_opts *opts,
		    struct lanes_fabric **out)
{
	struct lanes_error err;
	int rc;

	*out = NULL;
	if (nwords == 1 && !exists(words[0]) && strpbrk(words[0], " \t"))
		return load_quoted_spec(words[0], opts, out);
	if (nwords < 1)
		return cli_usage_error("missing FABRIC (a file, or a generator spec)");
	/* a directory is read (and refused as one) unless it is named like a generator */
	if (!exists(words[0]) && !lanes_generator_find(words[0]) && !strchr(words[0], '/'))
		return cli_usage_error("'%s' is neither a file nor a topology generator "
				       "(see `lanes topo list`)", words[0]);
	if (is_file(words[0]) || !lanes_generator_find(words[0])) {
		if (nwords > 1)
			return cli_usage_error("unexpected argument '%s' after the fabric file",
					       words[1]);
		rc = lanes_io_read_file(words[0], opts->format, out, &err);
	} else if (opts->format) {
		return cli_usage_error("--format %s names the format of a fabric file, and '%s' "
				       "is a generator spec (for the output format, see --to)",
				       opts->format, words[0]);
	} else {
		rc = lanes_topo_generate(words[0], (size_t)nwords - 1,
					 (const char *const *)(words + 1), out, &err);
	}
	if (rc)
		return cli_fail(&err);
	print_warnings(words[0], *out);
	if (opts->faults && (rc = apply_faults(opts, out))) {
		lanes_fabric_free(*out);
		*out = NULL;
	}
	return rc;
}

int cli_verify_option(int c, const char *arg, struct lanes_verify_opts *o)
{
	uint64_t v;

	switch (c) {
	case 'a':
		o->all_traffic = 1;
		return 1;
	case 'b':
		if (cli_parse_u64("ebb-patterns", arg, &v) || v > 100000) {
			cli_usage_error("--ebb-patterns must be 0..100000");
			return -1;
		}
		o->ebb_patterns = (uint32_t)v;
		return 1;
	default:
		return 0;
	}
}

int cli_fabric_route_verify_option(int c, const char *arg, struct cli_fabric_opts *fo,
				   struct lanes_route_opts *ro, const char **engine,
				   struct lanes_verify_opts *vo)
{
	int rc;

	if ((rc = cli_fabric_option(c, arg, fo)) || (rc = cli_route_option(c, arg, ro, engine)))
		return rc;
	return cli_verify_option(c, arg, vo);
}
