/*
 * bench_fabric.c - time the fabric pipeline of issue 2 phase by phase.
 *
 * usage: bench_fabric SPEC_WORDS... -- OUTFILE [REALFILE]
 * Generates the fabric from a generator spec, writes it as ibnetdiscover to
 * OUTFILE, reads it back, computes the `topo info` statistics, and parses
 * REALFILE (e.g. the DGX SuperPOD ibnetdiscover file). Prints one line per
 * phase with wall seconds, then the peak resident memory of the process.
 * bench/run.sh runs it several times and reports medians.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "lanes/io.h"
#include "lanes/topo.h"

#include "bench_time.h"

static int fail(const struct lanes_error *err)
{
	char buf[1024];

	fprintf(stderr, "bench_fabric: %s\n", lanes_error_format(err, buf, sizeof(buf)));
	return 2;
}

int main(int argc, char **argv)
{
	struct lanes_fabric *f, *g, *real;
	struct lanes_fabric_stats st;
	struct lanes_error err;
	struct rusage ru;
	int sep = 1;
	double t;

	while (sep < argc && strcmp(argv[sep], "--"))
		sep++;
	if (sep < 2 || sep + 1 >= argc)
		return fprintf(stderr, "usage: bench_fabric KIND k=v... -- OUT [REAL]\n"), 2;
	t = now();
	if (lanes_topo_generate(argv[1], (size_t)(sep - 2), (const char *const *)argv + 2, &f, &err))
		return fail(&err);
	printf("generate %.3f\n", now() - t);
	t = now();
	if (lanes_io_write_file(argv[sep + 1], "ibnetdiscover", f, &err))
		return fail(&err);
	printf("write %.3f\n", now() - t);
	t = now();
	if (lanes_io_read_file(argv[sep + 1], NULL, &g, &err))
		return fail(&err);
	printf("read %.3f\n", now() - t);
	t = now();
	if (lanes_fabric_stats(g, &st, &err))
		return fail(&err);
	printf("stats %.3f\n", now() - t);
	printf("endpoints %u\nswitches %u\ndiameter %u\n", g->num_cas, g->num_switches, st.diameter);
	if (sep + 2 < argc) {
		t = now();
		if (lanes_io_read_file(argv[sep + 2], NULL, &real, &err))
			return fail(&err);
		printf("read_real %.3f\n", now() - t);
		lanes_fabric_free(real);
	}
	lanes_fabric_free(f);
	lanes_fabric_free(g);
	getrusage(RUSAGE_SELF, &ru);
	printf("peak_rss_mb %.1f\n", (double)ru.ru_maxrss / 1024.0);
	return 0;
}
