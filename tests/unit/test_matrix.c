/*
 * test_matrix.c - every registered engine on a small instance of every
 * registered generator and on every real fabric of ../shared/data, judged by
 * the verifier: every destination must be reached from every source, and an
 * engine that claims deadlock freedom must produce an acyclic channel
 * dependency graph within its VL budget (or refuse with a reason). A new
 * engine or generator is tested the day it is registered: the lists below
 * must name every one (checked against the registries).
 */
#include "testutil.h"

#include "lanes/route.h"
#include "lanes/verify.h"

static unsigned judged; /* routings the verifier looked at */

/* Route f with e and let the verifier judge; name says which case failed. */
static void judge(const struct lanes_engine *e, const struct lanes_fabric *f, const char *name)
{
	struct lanes_route_opts ro;
	struct lanes_verify_opts vo;
	struct lanes_routing *r;
	struct lanes_verify_result *res;
	struct lanes_error err;
	int rc;

	lanes_route_opts_init(&ro);
	rc = lanes_route(e, f, &ro, &r, &err);
	if (rc) {
		/* refusing is allowed, with a reason, never a crash or a silent wrong answer;
		 * an engine for any topology must route every connected fabric */
		if (!err.message[0] ||
		    ((e->flags & LANES_ENGINE_ANY_TOPOLOGY) && stats_of(f).connected))
			fail_msg("%s on %s: refused: %s", e->name, name, err.message);
		return;
	}
	judged++;
	lanes_verify_opts_init(&vo);
	vo.ebb_patterns = 2;
	if (lanes_verify(f, r, &vo, &res, &err))
		fail_msg("%s on %s: verify: %s", e->name, name, err.message);
	if (!res->reachable)
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

static void test_generators(void **state)
{
	size_t k;

	(void)state;
	for (k = 0; small_fabric(k); k++) {
		struct lanes_fabric *f = gen(small_fabric(k));

		for (size_t i = 0; lanes_engine_at(i); i++)
			judge(lanes_engine_at(i), f, small_fabric(k));
		lanes_fabric_free(f);
	}
	assert_true(judged >= k); /* minhop alone routes them all */
}

static void test_real_fabrics(void **state)
{
	(void)state;
	for (size_t k = 0; real_fabric_file(k); k++) {
		struct lanes_fabric *f = read_fabric(LANES_DATA_DIR, real_fabric_file(k), NULL);

		for (size_t i = 0; lanes_engine_at(i); i++)
			judge(lanes_engine_at(i), f, real_fabric_file(k));
		lanes_fabric_free(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_generator_is_listed),
		cmocka_unit_test(test_generators),
		cmocka_unit_test(test_real_fabrics),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
