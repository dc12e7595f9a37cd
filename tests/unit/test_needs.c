/*
 * test_needs.c - what an engine needs (vls_needed, sls_needed) against what
 * it uses (num_vls, num_sls).
 *
 * The needs are defined as the budget the engine would still route within,
 * deadlock-free: so for every engine that claims deadlock freedom, on
 * fabrics with cycles, a second routing with exactly the needs as its
 * budget must succeed and pass the verifier within that budget. Seed 000
 * Table 2 (Maglione-Mathey et al., JPDC 2021) counts needs this way, and
 * says that DFSSSP spreads its paths over all 8 VLs of the budget.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"

static const char *const fabrics[] = {
	"dragonfly a=4 p=2 h=2",
	"torus k=4x4 p=2",
	"hyperx K=3x3 p=2",
	"jellyfish switches=24 degree=6 p=2 seed=3",
};

static void needs_fit_one(const struct lanes_engine *e, const char *spec)
{
	struct lanes_fabric *f = gen(spec);
	struct lanes_routing *r, *again;
	struct lanes_route_opts o;
	struct lanes_verify_result *res;
	struct lanes_error err;

	lanes_route_opts_init(&o);
	if (lanes_route(e, f, &o, &r, &err)) {
		/* engines for one structure refuse others; that is test_matrix's business */
		lanes_fabric_free(f);
		return;
	}
	if (r->vls_needed < 1 || r->vls_needed > r->num_vls || r->sls_needed < 1 ||
	    r->sls_needed > r->num_sls)
		fail_msg("%s on %s: needs %u VLs and %u SLs but uses %u and %u", e->name, spec,
			 r->vls_needed, r->sls_needed, r->num_vls, r->num_sls);
	o.max_vls = r->vls_needed;
	o.max_sls = r->sls_needed;
	if (lanes_route(e, f, &o, &again, &err))
		fail_msg("%s on %s: needs %u VLs and %u SLs, yet refuses that budget: %s", e->name,
			 spec, r->vls_needed, r->sls_needed, err.message);
	assert_true(again->num_vls <= r->vls_needed);
	assert_true(again->num_sls <= r->sls_needed);
	res = verify_quick(f, again, r->vls_needed, 0, 0);
	if (!res->deadlock_free || res->vls_over_budget)
		fail_msg("%s on %s: within its needs (%u VLs) the verifier rejects it", e->name, spec,
			 r->vls_needed);
	lanes_verify_result_free(res);
	lanes_routing_free(again);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

static void needs_fit(void **state)
{
	(void)state;
	for (size_t i = 0; lanes_engine_at(i); i++) {
		const struct lanes_engine *e = lanes_engine_at(i);

		if (!(e->flags & LANES_ENGINE_DEADLOCK_FREE))
			continue;
		for (size_t k = 0; k < sizeof(fabrics) / sizeof(fabrics[0]); k++)
			needs_fit_one(e, fabrics[k]);
	}
}

/* Seed 000 Table 2, 72 nodes: DFSSSP 8 SLs and 8 VLs used; it needs fewer. */
static void dfsssp_spreads(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	struct lanes_routing *r = route_engine(lanes_engine_find("dfsssp"), f, 8, 16, 1);

	(void)state;
	assert_int_equal(r->num_vls, 8);
	assert_int_equal(r->num_sls, 8);
	assert_true(r->vls_needed < 8);
	assert_int_equal(r->sls_needed, r->vls_needed); /* SL = VL */
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* Single-VL engines need what they use: 1 and 1. */
static void one_vl_engines(void **state)
{
	static const char *const names[] = { "minhop", "updn", "dnup", "ud-dfs", "sssp" };
	struct lanes_fabric *f = gen("torus k=4x4 p=2");

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct lanes_routing *r = route_engine(lanes_engine_find(names[i]), f, 8, 16, 1);

		assert_int_equal(r->vls_needed, 1);
		assert_int_equal(r->sls_needed, 1);
		lanes_routing_free(r);
	}
	lanes_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(needs_fit),
		cmocka_unit_test(dfsssp_spreads),
		cmocka_unit_test(one_vl_engines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
