/*
 * seed000_voq.c - seed 000's buffer and VOQ study on the 72-node dragonfly
 * (Maglione-Mathey et al., "Leveraging InfiniBand controller to configure
 * deadlock-free routing engines for Dragonflies", JPDC 2021, Sec. 5.1,
 * Figures 10 to 12 and Table 1).
 *
 * usage: seed000_voq [ENGINES] [THREADS]
 *   ENGINES: comma separated (default dla,d3r,lash,updn,dfsssp,sssp-df,minhop-df)
 *
 * For every engine, buffer size (1, 2, 4, 8, 16, 32 packets per VL) and
 * switch architecture (VOQ off, on): a uniform sweep of offered load 0.1 ..
 * 1.0 in steps of 0.1, 1 ms warm-up then 5 ms measured, the paper's other
 * settings (8 data VLs, QDR 4x, MTU 4 KB). The throughput of a sweep is its
 * largest accepted load (the saturation throughput the figures show); the
 * VOQ improvement factor for a buffer size is VOQ on over VOQ off, and
 * Table 1 is the minimum, median and maximum of it over the six sizes.
 * Prints the throughput grid and the Table 1 rows, seed 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanes/route.h"
#include "lanes/sim.h"
#include "lanes/topo.h"

#define POINTS 10
#define SIZES 6

static const unsigned buffer_sizes[SIZES] = { 1, 2, 4, 8, 16, 32 };

/* The largest accepted load of a uniform sweep. */
static int saturation(const struct lanes_fabric *f, const struct lanes_routing *r,
		      unsigned buffer, int voq, unsigned threads, double *best,
		      struct lanes_error *err)
{
	struct lanes_sim_opts o;
	struct lanes_sim_traffic t;
	struct lanes_sim_point out[POINTS];
	double loads[POINTS];

	lanes_sim_opts_init(&o);
	lanes_sim_traffic_init(&t);
	o.buffer_packets = buffer;
	o.voq = voq;
	o.threads = threads;
	for (int i = 0; i < POINTS; i++)
		loads[i] = (i + 1) / (double)POINTS;
	if (lanes_sim_sweep(f, r, &o, &t, loads, POINTS, out, err))
		return -1;
	*best = 0;
	for (int i = 0; i < POINTS; i++) {
		if (out[i].accepted > *best)
			*best = out[i].accepted;
		lanes_sim_point_clear(&out[i]);
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int one_engine(const struct lanes_fabric *f, const char *name, unsigned threads)
{
	const struct lanes_engine *e = lanes_engine_find(name);
	struct lanes_route_opts ro;
	struct lanes_routing *r;
	struct lanes_error err;
	double thr[2][SIZES], factor[SIZES];

	lanes_route_opts_init(&ro);
	if (!e || lanes_route(e, f, &ro, &r, &err))
		return fprintf(stderr, "%s: %s\n", name, e ? err.message : "no such engine"), 1;
	for (int voq = 0; voq < 2; voq++)
		for (int s = 0; s < SIZES; s++)
			if (saturation(f, r, buffer_sizes[s], voq, threads, &thr[voq][s], &err))
				return fprintf(stderr, "%s: %s\n", name, err.message), 1;
	for (int voq = 0; voq < 2; voq++) {
		printf("%-10s %-7s", name, voq ? "VOQ" : "no VOQ");
		for (int s = 0; s < SIZES; s++)
			printf(" %6.3f", thr[voq][s]);
		putchar('\n');
	}
	for (int s = 0; s < SIZES; s++)
		factor[s] = thr[1][s] / thr[0][s];
	qsort(factor, SIZES, sizeof(factor[0]), cmp_double);
	printf("%-10s factor  min %.3f  median %.3f  max %.3f\n", name, factor[0],
	       (factor[SIZES / 2 - 1] + factor[SIZES / 2]) / 2, factor[SIZES - 1]);
	lanes_routing_free(r);
	return 0;
}

int main(int argc, char **argv)
{
	const char *const args[] = { "a=4", "p=2", "h=2" };
	char list[512];
	unsigned threads = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 0;
	struct lanes_fabric *f;
	struct lanes_error err;
	int rc = 0;

	snprintf(list, sizeof(list), "%s",
		 argc > 1 ? argv[1] : "dla,d3r,lash,updn,dfsssp,sssp-df,minhop-df");
	if (lanes_topo_generate("dragonfly", 3, args, &f, &err))
		return fprintf(stderr, "%s\n", err.message), 1;
	printf("saturation throughput, uniform, dragonfly a=4 p=2 h=2; buffers per VL:");
	for (int s = 0; s < SIZES; s++)
		printf(" %u", buffer_sizes[s]);
	putchar('\n');
	for (char *name = strtok(list, ","); name && !rc; name = strtok(NULL, ","))
		rc = one_engine(f, name, threads);
	lanes_fabric_free(f);
	return rc;
}
