/*
 * bench_route_verify.c - time routing and verification separately (issue 3).
 *
 * usage: bench_route_verify ENGINE EBB_PATTERNS KIND k=v...
 * Prints wall seconds for generate, route and verify, the verifier's main
 * findings, and the peak resident memory. EBB_PATTERNS "none" skips the
 * verifier (bench/engine_scaling.sh: routing alone). bench/run.sh takes
 * medians. THREADS=N in the environment sets the routing's and the
 * verifier's thread count (default 0, one per core).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "lanes/route.h"
#include "lanes/topo.h"
#include "lanes/verify.h"

#include "bench_time.h"

static int fail(const char *what, const struct lanes_error *err)
{
	fprintf(stderr, "bench_route_verify: %s: %s\n", what, err->message);
	return 2;
}

int main(int argc, char **argv)
{
	struct lanes_fabric *f;
	struct lanes_routing *r;
	struct lanes_verify_result *res;
	struct lanes_route_opts ro;
	struct lanes_verify_opts vo;
	struct lanes_error err;
	const struct lanes_engine *e;
	struct rusage ru;
	double t;

	if (argc < 4 || !(e = lanes_engine_find(argv[1])))
		return fprintf(stderr, "usage: bench_route_verify ENGINE EBB_PATTERNS KIND k=v...\n"), 2;
	t = now();
	if (lanes_topo_generate(argv[3], (size_t)argc - 4, (const char *const *)argv + 4, &f, &err))
		return fail("generate", &err);
	printf("generate %.3f\nswitches %u\nendpoints %u\n", now() - t, f->num_switches, f->num_cas);
	lanes_route_opts_init(&ro);
	if (getenv("THREADS"))
		ro.threads = (unsigned)atoi(getenv("THREADS"));
	t = now();
	if (lanes_route(e, f, &ro, &r, &err))
		return fail("route", &err);
	printf("route %.3f\nvls %u\n", now() - t, r->num_vls);
	if (!strcmp(argv[2], "none"))
		goto done;
	lanes_verify_opts_init(&vo);
	vo.ebb_patterns = (uint32_t)atoi(argv[2]);
	vo.threads = ro.threads;
	t = now();
	if (lanes_verify(f, r, &vo, &res, &err))
		return fail("verify", &err);
	printf("verify %.3f\n", now() - t);
	printf("deadlock_free %d\nreachable %d\nrpc_max %llu\nebb %.4f\n", res->deadlock_free,
	       res->reachable, (unsigned long long)res->rpc_max, res->ebb);
	lanes_verify_result_free(res);
done:
	lanes_routing_free(r);
	lanes_fabric_free(f);
	getrusage(RUSAGE_SELF, &ru);
	printf("peak_rss_mb %.1f\n", (double)ru.ru_maxrss / 1024.0);
	return 0;
}
