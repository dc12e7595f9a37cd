/*
 * test_matrix.c - every registered engine on a small instance of every
 * registered generator and on every real fabric of ../shared/data, judged by
 * the verifier: every destination must be reached from every source, and an
 * engine that claims deadlock freedom must produce an acyclic channel
 * dependency graph within its VL budget (or refuse with a reason). A new
 * engine or generator is tested the day it is registered: the lists below
 * must name every one (checked against the registries and the data folder).
 * Every case is also judged with 5% of its switch-to-switch links failed (at
 * least one) at several seeds: engines meet broken fabrics in real life.
 * A fabric the failures split is still judged for credit loops and VLs, but
 * not for reachability across the split.
 * Every case is routed with threads 1 and threads 3 (which forces every
 * threaded path, even on small fabrics): the routings must be the same data,
 * and the verifier's findings the same with 1 and 3 threads.
 */
#include <dirent.h>
#include <math.h>

#include "testutil.h"

#include "lanes/route.h"
#include "lanes/verify.h"

static unsigned judged; /* routings the verifier looked at */

#define FAIL_FRACTION 0.05
#define FAIL_SEEDS 3 /* seeds 1..FAIL_SEEDS */

/* e routes f with 3 threads exactly as with 1 (one). */
static void same_with_threads(const struct lanes_engine *e, const struct lanes_fabric *f,
			      const struct lanes_routing *one, const char *name)
{
	struct lanes_route_opts ro;
	struct lanes_routing *r;
	struct lanes_error err;

	lanes_route_opts_init(&ro);
	ro.threads = 3;
	if (lanes_route(e, f, &ro, &r, &err))
		fail_msg("%s on %s: refused with 3 threads: %s", e->name, name, err.message);
	if (!routings_equal(one, r))
		fail_msg("%s on %s: 3 threads route differently from 1", e->name, name);
	lanes_routing_free(r);
}

/* The verifier with 3 threads finds what it found with 1 (res). */
static void same_verdict_with_threads(const struct lanes_fabric *f, const struct lanes_routing *r,
				      const struct lanes_verify_result *res, const char *name)
{
	struct lanes_verify_opts vo;
	struct lanes_verify_result *res3;
	struct lanes_error err;

	lanes_verify_opts_init(&vo);
	vo.ebb_patterns = 2;
	vo.threads = 3;
	if (lanes_verify(f, r, &vo, &res3, &err))
		fail_msg("%s: verify with 3 threads: %s", name, err.message);
	if (res3->deadlock_free != res->deadlock_free || res3->reachable != res->reachable ||
	    res3->unreachable_pairs != res->unreachable_pairs || res3->vls_used != res->vls_used ||
	    res3->routes != res->routes || res3->cdg_dependencies != res->cdg_dependencies ||
	    res3->rpc_max != res->rpc_max || res3->ebb != res->ebb ||
	    memcmp(res3->hops_hist, res->hops_hist, sizeof(res->hops_hist)))
		fail_msg("%s: the verifier finds otherwise with 3 threads", name);
	lanes_verify_result_free(res3);
}

/* Route f with e and let the verifier judge; name says which case failed. */
static void judge(const struct lanes_engine *e, const struct lanes_fabric *f, const char *name)
{
	int connected = stats_of(f).connected;
	struct lanes_route_opts ro;
	struct lanes_verify_opts vo;
	struct lanes_routing *r;
	struct lanes_verify_result *res;
	struct lanes_error err;
	int rc;

	lanes_route_opts_init(&ro);
	ro.threads = 1;
	rc = lanes_route(e, f, &ro, &r, &err);
	if (rc) {
		/* refusing is allowed, with a reason, never a crash or a silent wrong answer;
		 * an engine for any topology must route every connected fabric */
		if (!err.message[0] ||
		    ((e->flags & LANES_ENGINE_ANY_TOPOLOGY) && connected))
			fail_msg("%s on %s: refused: %s", e->name, name, err.message);
		return;
	}
	judged++;
	same_with_threads(e, f, r, name);
	lanes_verify_opts_init(&vo);
	vo.ebb_patterns = 2;
	vo.threads = 1;
	if (lanes_verify(f, r, &vo, &res, &err))
		fail_msg("%s on %s: verify: %s", e->name, name, err.message);
	same_verdict_with_threads(f, r, res, name);
	if (connected && !res->reachable)
		fail_msg("%s on %s: %llu unreachable pairs", e->name, name,
			 (unsigned long long)res->unreachable_pairs);
	if ((e->flags & LANES_ENGINE_DEADLOCK_FREE) &&
	    (!res->deadlock_free || res->vls_over_budget || res->vl15_used))
		fail_msg("%s on %s: claims deadlock freedom, verifier disagrees", e->name, name);
	if (r->num_vls < res->vls_used)
		fail_msg("%s on %s: reports %u VLs, uses %u", e->name, name, r->num_vls,
			 res->vls_used);
	lanes_verify_result_free(res);
	lanes_routing_free(r);
}

static void test_every_generator_is_listed(void **state)
{
	(void)state;
	for (size_t i = 0; lanes_generator_at(i); i++) {
		const char *g = lanes_generator_at(i)->name;
		int found = 0;

		for (size_t k = 0; small_fabric(k) && !found; k++)
			found = !strncmp(small_fabric(k), g, strlen(g)) && small_fabric(k)[strlen(g)] == ' ';
		if (!found)
			fail_msg("generator %s has no small instance in test_matrix.c", g);
	}
}

/* Every engine on f, then on f with 5% of its links failed at each seed. */
static void judge_all(const struct lanes_fabric *f, const char *name, void *ctx)
{
	uint32_t links = stats_of(f).links_switch_switch;
	char label[256];

	(void)ctx;
	for (size_t i = 0; lanes_engine_at(i); i++)
		judge(lanes_engine_at(i), f, name);
	if (links < 2)
		return;
	for (uint64_t seed = 1; seed <= FAIL_SEEDS; seed++) {
		struct lanes_fault_spec spec = { fmax(1.0, round(FAIL_FRACTION * links)), 0, seed };
		struct lanes_fault_report rep;
		struct lanes_fabric *g;
		struct lanes_error err;

		if (lanes_fabric_inject_faults(f, &spec, &g, &rep, &err))
			fail_msg("%s: fault injection: %s", name, err.message);
		assert_int_equal(rep.links_removed, (uint32_t)spec.fail_links);
		snprintf(label, sizeof(label), "%s with %u links failed, seed %llu", name,
			 rep.links_removed, (unsigned long long)seed);
		for (size_t i = 0; lanes_engine_at(i); i++)
			judge(lanes_engine_at(i), g, label);
		lanes_fabric_free(g);
	}
}

static void test_generators(void **state)
{
	size_t k = 0;

	(void)state;
	each_small_fabric(judge_all, NULL);
	while (small_fabric(k))
		k++;
	assert_true(judged >= k * (1 + FAIL_SEEDS)); /* minhop alone routes them all */
}

static void test_real_fabrics(void **state)
{
	(void)state;
	each_real_fabric(LANES_DATA_DIR, judge_all, NULL);
}

/* The real-file list names every fabric file of the data folder. */
static void test_every_data_file_is_listed(void **state)
{
	DIR *d = opendir(LANES_DATA_DIR);
	struct dirent *de;
	unsigned files = 0;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d))) {
		int found = 0;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "README.md"))
			continue;
		files++;
		for (size_t k = 0; real_fabric_file(k) && !found; k++)
			found = !strcmp(real_fabric_file(k), de->d_name);
		if (!found)
			fail_msg("%s in the data folder is not in real_fabric_file()", de->d_name);
	}
	closedir(d);
	assert_true(files > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_generator_is_listed),
		cmocka_unit_test(test_every_data_file_is_listed),
		cmocka_unit_test(test_generators),
		cmocka_unit_test(test_real_fabrics),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
