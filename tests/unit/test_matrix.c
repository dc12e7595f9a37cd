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

static const char *const small[] = {
	"dragonfly a=2 p=1 h=1", "dragonfly a=4 p=2 h=2", "dragonfly a=3 p=1 h=2 g=5 wiring=palmtree",
	"slimfly q=3",           "slimfly q=5 p=1",       "hyperx K=3x3 p=1",
	"hyperx K=2x3x2 L=2,1,1 p=1", "torus k=3x3 p=1", "torus k=4x2x3 p=1",
	"mesh k=3x3 p=1",        "mesh k=2x4 p=2",         "hypercube n=3 p=1",
	"fattree k=2 n=3",       "fattree k=4 n=2",        "xgft h=2 m=2,2 w=1,2",
	"xgft h=3 m=2,2,2 w=1,2,2", "sfxff q=3 K=2 p=1",   "jellyfish switches=10 degree=3 p=1",
	"jellyfish switches=16 degree=4 p=2 seed=7",
};

static const char *const real_files[] = {
	"anon_4sw_edr_ibnetdiscover.txt",
	"anon_4sw_edr_INVALID_lids_ibnetdiscover.txt",
	"dgxa100_superpod_qm8790_hdr_ibnetdiscover.txt",
	"gen_4ary3tree_k-4-n-3-Full_ibnetdiscover.topo",
	"ibsim_4ary3tree_k-4-n-3-Full.topology",
	"ibsim_net.2sw2path4hca2port",
	"ibsim_net.basic",
	"nvidia_lab_2sw_mixed_ibnetdiscover.txt",
	"psmn_x5_qdr_ibnetdiscover.txt",
	"ut_stage_sx6036_fdr10_ibnetdiscover.txt",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

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

		for (size_t k = 0; k < N(small) && !found; k++)
			found = !strncmp(small[k], g, strlen(g)) && small[k][strlen(g)] == ' ';
		if (!found)
			fail_msg("generator %s has no small instance in test_matrix.c", g);
	}
}

static void test_generators(void **state)
{
	(void)state;
	for (size_t k = 0; k < N(small); k++) {
		struct lanes_fabric *f = gen(small[k]);

		for (size_t i = 0; lanes_engine_at(i); i++)
			judge(lanes_engine_at(i), f, small[k]);
		lanes_fabric_free(f);
	}
	assert_true(judged >= N(small)); /* minhop alone routes them all */
}

static void test_real_fabrics(void **state)
{
	(void)state;
	for (size_t k = 0; k < N(real_files); k++) {
		struct lanes_fabric *f = read_fabric(LANES_DATA_DIR, real_files[k], NULL);

		for (size_t i = 0; lanes_engine_at(i); i++)
			judge(lanes_engine_at(i), f, real_files[k]);
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
