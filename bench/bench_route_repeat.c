/*
 * bench_route_repeat.c - route one fabric file N times in one process (issue 4).
 *
 * usage: bench_route_repeat ENGINE FILE N [VLS]
 * Prints the wall seconds of each lanes_route() call, one per line, the first
 * call first. The first call pays the cold costs of a fresh process (code and
 * data not yet in the caches, pages not yet mapped); the later ones are the
 * steady state, as in OpenSM's later heavy sweeps, which route again in the
 * same process (bench/opensm_compare.sh compares those with each other). VLS
 * is the VL budget (default 8; the script gives nue 1, as OpenSM's default).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "lanes/io.h"
#include "lanes/route.h"

#include "bench_time.h"

int main(int argc, char **argv)
{
	struct lanes_fabric *f;
	struct lanes_routing *r;
	struct lanes_route_opts ro;
	struct lanes_error err;
	const struct lanes_engine *e;
	long n = argc > 3 ? strtol(argv[3], NULL, 10) : 0;

	if (argc < 4 || argc > 5 || !(e = lanes_engine_find(argv[1])) || n < 1 || n > 100000)
		return fprintf(stderr, "usage: bench_route_repeat ENGINE FILE N [VLS]\n"), 2;
	lanes_route_opts_init(&ro);
	if (argc == 5) {
		long v = strtol(argv[4], NULL, 10);

		if (v < 1 || v > 15)
			return fprintf(stderr, "bench_route_repeat: VLS must be 1..15\n"), 2;
		ro.max_vls = (unsigned char)v;
	}
	if (lanes_io_read_file(argv[2], NULL, &f, &err))
		return fprintf(stderr, "bench_route_repeat: %s\n", err.message), 2;
	for (long i = 0; i < n; i++) {
		double t = now();

		if (lanes_route(e, f, &ro, &r, &err)) {
			fprintf(stderr, "bench_route_repeat: %s: %s\n", e->name, err.message);
			lanes_fabric_free(f);
			return 1;
		}
		t = now() - t;
		lanes_routing_free(r);
		printf("%.9f\n", t);
	}
	lanes_fabric_free(f);
	return 0;
}
