/*
 * bench_sim.c - the simulator's speed (issue 20): a uniform sweep of load
 * points on a generated fabric, timed.
 *
 * usage: bench_sim "GENERATOR key=value..." ENGINE [POINTS] [THREADS] [MEASURE_NS] [PATTERN]
 *                  [PLACEMENT]
 * Routes the fabric with ENGINE, then simulates POINTS (default 10) loads
 * 1/POINTS .. 1 of PATTERN traffic (default uniform; lanes_sim_pattern_find
 * names), seed 000's defaults (1 ms warm-up, then MEASURE_NS, default 5 ms,
 * measured), on THREADS workers (default 1), with the pattern's ranks placed
 * linear (default) or random (lanes/sim.h, enum lanes_sim_placement).
 * Prints one line per point and then the packet-hops (link traversals) per
 * CPU second and the wall time of the sweep. The target: at least 2
 * million packet-hops per CPU second, and the 10-point sweep of the 72-node
 * dragonfly (a=4 p=2 h=2) under 10 s wall on 2 cores.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanes/route.h"
#include "lanes/sim.h"
#include "lanes/topo.h"
#include "sim/sim_internal.h"

#include "bench_time.h"

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int generate(const char *spec, struct lanes_fabric **f, struct lanes_error *err)
{
	char buf[512], *w[32];
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *tok = strtok(buf, " "); tok && n < 32; tok = strtok(NULL, " "))
		w[n++] = tok;
	if (!n)
		return lanes_error_set(err, LANES_EINVAL, "empty generator");
	return lanes_topo_generate(w[0], n - 1, (const char *const *)(w + 1), f, err);
}

int main(int argc, char **argv)
{
	struct lanes_fabric *f = NULL;
	struct lanes_routing *r = NULL;
	struct lanes_route_opts ro;
	struct lanes_sim_opts o;
	struct lanes_sim_traffic t;
	struct lanes_error err;
	const struct lanes_engine *e;
	long points = argc > 3 ? strtol(argv[3], NULL, 10) : 10;
	double loads[100], wall, cpu, hops_sum = 0;
	struct lanes_sim_point out[100];
	uint64_t hops[100];

	if (argc < 3 || !(e = lanes_engine_find(argv[2])) || points < 1 || points > 100)
		return fprintf(stderr, "usage: bench_sim GENERATOR ENGINE [POINTS] [THREADS] "
				       "[MEASURE_NS] [PATTERN] [linear|random]\n"), 2;
	lanes_route_opts_init(&ro);
	lanes_sim_opts_init(&o);
	lanes_sim_traffic_init(&t);
	o.threads = argc > 4 ? (unsigned)strtoul(argv[4], NULL, 10) : 1;
	if (argc > 5)
		o.measure_ns = strtod(argv[5], NULL);
	if (argc > 6 && lanes_sim_pattern_find(argv[6], &t.pattern))
		return fprintf(stderr, "bench_sim: no pattern named '%s'\n", argv[6]), 2;
	if (argc > 7 && strcmp(argv[7], "linear") && strcmp(argv[7], "random"))
		return fprintf(stderr, "bench_sim: placement is linear or random, not '%s'\n", argv[7]), 2;
	if (argc > 7 && !strcmp(argv[7], "random"))
		t.placement = LANES_SIM_PLACE_RANDOM;
	if (generate(argv[1], &f, &err) || lanes_route(e, f, &ro, &r, &err))
		return fprintf(stderr, "bench_sim: %s\n", err.message), 1;
	for (long i = 0; i < points; i++)
		loads[i] = (double)(i + 1) / (double)points;
	wall = now();
	cpu = cpu_now();
	if (lanes_sim_sweep_counted(f, r, &o, &t, loads, (size_t)points, out, hops, &err))
		return fprintf(stderr, "bench_sim: %s\n", err.message), 1;
	cpu = cpu_now() - cpu;
	wall = now() - wall;
	printf("load  accepted  latency_avg_ns  latency_p99_ns  packets  events  packet_hops  deadlock\n");
	for (long i = 0; i < points; i++) {
		printf("%.2f  %.4f  %.1f  %.1f  %llu  %llu  %llu  %d\n", out[i].load, out[i].accepted,
		       out[i].latency_avg_ns, out[i].latency_p99_ns, (unsigned long long)out[i].packets,
		       (unsigned long long)out[i].events, (unsigned long long)hops[i], out[i].deadlock);
		hops_sum += (double)hops[i];
		lanes_sim_point_clear(&out[i]);
	}
	printf("packet-hops %.0f, CPU %.3f s, wall %.3f s, %.2f M packet-hops per CPU second\n",
	       hops_sum, cpu, wall, hops_sum / cpu / 1e6);
	lanes_routing_free(r);
	lanes_fabric_free(f);
	return 0;
}
