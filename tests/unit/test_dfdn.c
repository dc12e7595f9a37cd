/*
 * test_dfdn.c - the DF-DN engines dfdn, sssp-df and minhop-df (VL hopping,
 * Schneider, Bibartiu and Hoefler, HOTI 2016), against what holds
 * independently of their output:
 *  - the invariant itself: walking every CA-to-CA path through the LFTs,
 *    path SLs and SL2VL maps, the VL on its i-th switch-to-switch hop is i
 *    (a map entry that two paths needed with different VLs would break it
 *    for one of them); the verifier finds no credit loop;
 *  - the slides' claim: VLs = the diameter, 2 on slim flies and on the
 *    two-level OFT (1 SL: at diameter two every packet entering a switch
 *    from a switch is on its second hop), 3 on dragonflies;
 *  - Table 2 of Maglione-Mathey et al. (JPDC): SSSP-DF and MINHOP-DF on the
 *    four balanced dragonflies need 3 VLs; their SLs (the paper: 3/4/5/6 and
 *    4/5/6/6) depend on the first-fit order, so only the budget and the
 *    verifier are asserted, and the counts are printed (docs/dfdn.md);
 *  - the LFTs are the base engine's; refusals name the counts; faulty
 *    fabrics are routed or refused with the count; threads do not matter.
 */
#include "testutil.h"

#include "lanes/route.h"
#include "lanes/verify.h"

static const struct lanes_engine *eng(const char *name)
{
	const struct lanes_engine *e = lanes_engine_find(name);

	assert_non_null(e);
	return e;
}

/* The switch a CA port is cabled to, with the switch's port; LANES_NONE if none. */
static uint32_t ca_switch(const struct lanes_fabric *f, uint32_t node, uint8_t port,
			  uint8_t *in)
{
	const struct lanes_port *pt = &f->ports[f->nodes[node].port_base + port];

	if (pt->peer_node == LANES_NONE)
		return LANES_NONE;
	*in = pt->peer_port;
	return f->nodes[pt->peer_node].switch_index;
}

/*
 * Walk the path from CA port (node, port) to dst_lid, asserting VL i on
 * switch-to-switch hop i; returns its hops, or -1 when it does not arrive.
 */
static int walk_path(const struct lanes_fabric *f, const struct lanes_routing *r, uint32_t node,
		     uint8_t port, uint32_t dst_lid)
{
	uint32_t src_lid = f->ports[f->nodes[node].port_base + port].lid;
	uint8_t sl = lanes_routing_sl(r, f, src_lid, dst_lid), in;
	uint32_t s = ca_switch(f, node, port, &in), t = lanes_fabric_lid_switch(f, dst_lid);
	int hops = 0;

	assert_int_equal(lanes_routing_port_map(r, f, node, port)[sl], 0);
	while (s != LANES_NONE && s != t && hops <= 16) {
		uint8_t out = lanes_routing_port(r, s, dst_lid);
		const struct lanes_node *nd = &f->nodes[f->switches[s]];
		const struct lanes_port *pt;

		if (out == 0 || out > nd->nports)
			return -1;
		pt = &f->ports[nd->port_base + out];
		if (pt->peer_node == LANES_NONE || f->nodes[pt->peer_node].type != LANES_NODE_SWITCH)
			return -1;
		if (lanes_routing_switch_map(r, f, s, in, out)[sl] != hops)
			fail_msg("LID %u to %u: hop %d leaves switch %u on VL %u", src_lid, dst_lid,
				 hops, s, lanes_routing_switch_map(r, f, s, in, out)[sl]);
		in = pt->peer_port;
		s = f->nodes[pt->peer_node].switch_index;
		hops++;
	}
	return s == t ? hops : -1;
}

/* Every CA port to every CA LID: VL i on hop i. Returns the longest path's hops. */
static int check_hopping(const struct lanes_fabric *f, const struct lanes_routing *r)
{
	int longest = 0;

	for (uint32_t n = 0; n < f->num_nodes; n++) {
		if (f->nodes[n].type != LANES_NODE_CA)
			continue;
		for (uint8_t p = 1; p <= f->nodes[n].nports; p++) {
			if (f->ports[f->nodes[n].port_base + p].peer_node == LANES_NONE)
				continue;
			for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
				uint32_t owner = f->lid_owner[lid].node;
				int h;

				if (owner == LANES_NONE || f->nodes[owner].type != LANES_NODE_CA)
					continue;
				h = walk_path(f, r, n, p, lid);
				longest = h > longest ? h : longest;
			}
		}
	}
	return longest;
}

/* The verifier on CA-to-CA traffic: complete (when connected) and free of credit loops. */
static void check_verifier(const struct lanes_fabric *f, const struct lanes_routing *r,
			   int connected)
{
	struct lanes_verify_result *res = verify_quick(f, r, 15, 0, 0);

	assert_true(res->deadlock_free);
	assert_false(res->vl15_used);
	if (connected)
		assert_true(res->reachable);
	assert_true(res->vls_used <= r->num_vls);
	lanes_verify_result_free(res);
}

/* Route spec with engine name; VLs must be vls and, when sls, SLs sls; returns the SLs. */
static unsigned check_fabric(const char *name, const char *spec, unsigned vls, unsigned sls)
{
	struct lanes_fabric *f = gen(spec);
	struct lanes_routing *r = route_engine(eng(name), f, 15, 16, 1);

	assert_int_equal(check_hopping(f, r), vls);
	assert_int_equal(r->num_vls, vls);
	if (sls)
		assert_int_equal(r->num_sls, sls);
	check_verifier(f, r, 1);
	sls = r->num_sls;
	lanes_routing_free(r);
	lanes_fabric_free(f);
	return sls;
}

/* Seed 003: VL hopping needs diameter VLs; at diameter two one SL. */
static void test_diameter_two(void **state)
{
	static const char *const specs[] = { "slimfly q=5", "slimfly q=7", "slimfly q=4",
					     "oft k=4", "oft k=5 p=2" };
	static const char *const engines[] = { "dfdn", "sssp-df", "minhop-df" };

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		for (size_t e = 0; e < 3; e++) {
			struct lanes_fabric *f = gen(specs[i]);
			struct lanes_routing *r = route_engine(eng(engines[e]), f, 8, 16, 1);

			assert_int_equal(r->sl_mode, LANES_SL_UNIFORM);
			lanes_routing_free(r);
			lanes_fabric_free(f);
			check_fabric(engines[e], specs[i], 2, 1);
		}
}

/* The slim fly's and dragonfly's diameters, independently of the engine. */
static void test_diameters_are_the_generators(void **state)
{
	struct lanes_fabric *f = gen("slimfly q=7");

	(void)state;
	assert_int_equal(stats_of(f).diameter, 2);
	lanes_fabric_free(f);
	f = gen("dragonfly a=6 p=3 h=3");
	assert_int_equal(stats_of(f).diameter, 3);
	lanes_fabric_free(f);
}

/* Table 2: 72, 342, 1056 and 2550 nodes; 3 VLs each, SLs within the budget. */
static void test_table2_dragonflies(void **state)
{
	static const char *const specs[] = { "dragonfly a=4 p=2 h=2", "dragonfly a=6 p=3 h=3",
					     "dragonfly a=8 p=4 h=4", "dragonfly a=10 p=5 h=5" };
	static const unsigned paper_sssp[] = { 3, 4, 5, 6 }, paper_minhop[] = { 4, 5, 6, 6 };

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		struct lanes_fabric *f = gen(specs[i]);
		unsigned diameter = stats_of(f).diameter, s, m;

		lanes_fabric_free(f);
		assert_int_equal(diameter, 3); /* a fully connected dragonfly: local, global, local */
		s = check_fabric("sssp-df", specs[i], diameter, 0);
		m = check_fabric("minhop-df", specs[i], diameter, 0);

		print_message("%s: SSSP-DF %u SLs (paper %u), MINHOP-DF %u SLs (paper %u), 3 VLs\n",
			      specs[i], s, paper_sssp[i], m, paper_minhop[i]);
		assert_true(s >= 2 && s <= 16 && m >= 2 && m <= 16);
	}
}

/*
 * By hand: a line of four switches A-B-C-D, one CA each. A->D and B->D both
 * leave C from B towards D, A->D on its third hop (VL 2), B->D on its second
 * (VL 1): two SLs at least, and two paths to one LID with different SLs, so
 * not one SL per destination. Those two and their mirrors D->A, C->A are the
 * only pairs that clash, so first fit needs no third SL.
 */
static void test_line_by_hand(void **state)
{
	static const char *const engines[] = { "dfdn", "sssp-df", "minhop-df" };

	(void)state;
	for (size_t e = 0; e < 3; e++) {
		struct lanes_fabric *f = gen("mesh k=4 p=1");
		struct lanes_routing *r = route_engine(eng(engines[e]), f, 8, 16, 1);

		assert_int_equal(r->num_sls, 2);
		assert_int_equal(r->sl_mode, LANES_SL_PER_SRC_SWITCH);
		lanes_routing_free(r);
		lanes_fabric_free(f);
		check_fabric(engines[e], "mesh k=4 p=1", 3, 2);
	}
}

/* Longer diameters: a torus of diameter 4, a mesh of diameter 4. */
static void test_larger_diameters(void **state)
{
	(void)state;
	check_fabric("dfdn", "torus k=4x2x3 p=1", 4, 0);
	check_fabric("minhop-df", "mesh k=3x3 p=1", 4, 0);
	check_fabric("dfdn", "hypercube n=3 p=1", 3, 0);
}

/* The LFTs are the base engine's; dfdn's base parameter picks it. */
static void test_lfts_are_the_base(void **state)
{
	static const char *const pairs[][3] = { { "sssp-df", NULL, "sssp" },
						{ "minhop-df", NULL, "minhop" },
						{ "dfdn", "base=minhop", "minhop" },
						{ "dfdn", "base=sssp", "sssp" },
						{ "dfdn", NULL, "sssp" } };
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	struct lanes_error err;

	(void)state;
	for (size_t i = 0; i < 5; i++) {
		struct lanes_route_opts o;
		struct lanes_routing *a, *b;

		lanes_route_opts_init(&o);
		o.params = pairs[i][1];
		assert_int_equal(lanes_route(eng(pairs[i][0]), f, &o, &a, &err), 0);
		o.params = NULL;
		assert_int_equal(lanes_route(eng(pairs[i][2]), f, &o, &b, &err), 0);
		assert_memory_equal(a->lft, b->lft, (size_t)a->num_lids * a->num_switches);
		lanes_routing_free(a);
		lanes_routing_free(b);
	}
	lanes_fabric_free(f);
}

static struct lanes_error route_params_error(const char *engine, const char *params)
{
	struct lanes_fabric *f = gen("dragonfly a=2 p=1 h=1");
	struct lanes_route_opts o;
	struct lanes_routing *r = NULL;
	struct lanes_error err;

	lanes_route_opts_init(&o);
	o.params = params;
	assert_int_not_equal(lanes_route(eng(engine), f, &o, &r, &err), 0);
	assert_null(r);
	lanes_fabric_free(f);
	return err;
}

static void test_params(void **state)
{
	struct lanes_error err;

	(void)state;
	assert_string_equal(eng("dfdn")->params_usage, "base=sssp|minhop");
	err = route_params_error("dfdn", "foo=1");
	assert_non_null(strstr(err.message, "'foo'"));
	err = route_params_error("dfdn", "base=updn");
	assert_non_null(strstr(err.message, "'updn'"));
	err = route_params_error("dfdn", "base=sssp,colour=red");
	assert_non_null(strstr(err.message, "'colour'"));
	err = route_params_error("sssp-df", "base=minhop");
	assert_non_null(strstr(err.message, "no parameters"));
	err = route_params_error("minhop-df", "base=sssp");
	assert_non_null(strstr(err.message, "no parameters"));
}

/* Over the budget: the refusal names the count that the fabric needs. */
static void test_refusals(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	struct lanes_routing *r = route_engine(eng("sssp-df"), f, 8, 16, 1);
	unsigned sls = r->num_sls;
	char want[64];
	struct lanes_error err;

	(void)state;
	lanes_routing_free(r);
	err = route_engine_error(eng("sssp-df"), f, 2, 16);
	assert_int_equal(err.code, LANES_ERANGE);
	assert_non_null(strstr(err.message, "needs 3 VLs"));
	assert_non_null(strstr(err.message, "vls 2"));
	err = route_engine_error(eng("sssp-df"), f, 8, (uint8_t)(sls - 1));
	snprintf(want, sizeof(want), "needs %u SLs", sls);
	assert_non_null(strstr(err.message, want));
	r = route_engine(eng("sssp-df"), f, 3, (uint8_t)sls, 1); /* exactly the budget */
	lanes_routing_free(r);
	lanes_fabric_free(f);
	f = gen("torus k=4x2x3 p=1");
	err = route_engine_error(eng("dfdn"), f, 3, 16);
	assert_non_null(strstr(err.message, "needs 4 VLs"));
	lanes_fabric_free(f);
}

/* Links removed: routed with VL i on hop i, or refused naming the VLs the longest path needs. */
static void check_faulty(const char *spec, double fraction, uint64_t seed)
{
	struct lanes_fabric *f = gen(spec), *g;
	struct lanes_fault_spec fs = { fraction, 0, seed };
	struct lanes_fault_report rep;
	struct lanes_routing *r;
	struct lanes_route_opts o;
	struct lanes_error err;
	char want[64];
	int longest, connected;

	assert_int_equal(lanes_fabric_inject_faults(f, &fs, &g, &rep, &err), 0);
	connected = stats_of(g).connected;
	r = route_engine(eng("dfdn"), g, 15, 16, 1);
	longest = check_hopping(g, r);
	assert_int_equal(r->num_vls, longest < 1 ? 1 : longest);
	check_verifier(g, r, connected);
	lanes_routing_free(r);
	if (longest > 1) { /* one VL fewer: refused, naming the count */
		lanes_route_opts_init(&o);
		o.max_vls = (uint8_t)(longest - 1);
		assert_int_equal(lanes_route(eng("dfdn"), g, &o, &r, &err), LANES_ERANGE);
		snprintf(want, sizeof(want), "needs %d VLs", longest);
		assert_non_null(strstr(err.message, want));
	}
	lanes_fabric_free(g);
	lanes_fabric_free(f);
}

static void test_faulty(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 4; seed++) {
		check_faulty("dragonfly a=4 p=2 h=2", 0.1, seed);
		check_faulty("dragonfly a=6 p=3 h=3", 0.05, seed);
		check_faulty("slimfly q=5", 0.1, seed);
		check_faulty("oft k=4", 0.1, seed);
	}
}

static void test_threads(void **state)
{
	static const char *const specs[] = { "dragonfly a=6 p=3 h=3", "slimfly q=5",
					     "torus k=4x2x3 p=1" };
	static const char *const engines[] = { "sssp-df", "minhop-df" };

	(void)state;
	for (size_t i = 0; i < 3; i++)
		for (size_t e = 0; e < 2; e++) {
			struct lanes_fabric *f = gen(specs[i]);
			struct lanes_routing *a = route_engine_threads(eng(engines[e]), f, 1);
			struct lanes_routing *b = route_engine_threads(eng(engines[e]), f, 2);
			struct lanes_routing *c = route_engine_threads(eng(engines[e]), f, 3);

			assert_true(routings_equal(a, b));
			assert_true(routings_equal(a, c));
			lanes_routing_free(a);
			lanes_routing_free(b);
			lanes_routing_free(c);
			lanes_fabric_free(f);
		}
}

/* Without switch LIDs as destinations the CA paths are the same: the invariant holds. */
static void test_ca_lids_only(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	struct lanes_routing *r = route_engine(eng("minhop-df"), f, 8, 16, 0);
	struct lanes_verify_result *res = verify_quick(f, r, 8, 0, 1);

	(void)state;
	assert_int_equal(check_hopping(f, r), 3);
	assert_true(res->deadlock_free && res->reachable);
	lanes_verify_result_free(res);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diameter_two),
		cmocka_unit_test(test_diameters_are_the_generators),
		cmocka_unit_test(test_table2_dragonflies),
		cmocka_unit_test(test_line_by_hand),
		cmocka_unit_test(test_larger_diameters),
		cmocka_unit_test(test_lfts_are_the_base),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_faulty),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_ca_lids_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
