/*
 * test_progress.c - the engines that count their work for the progress line
 * (lanes/progress.h, issue 22 item 4). Each routes a small fabric it
 * accepts with a struct lanes_progress and, at return, its last phase must
 * be the one the engine's header names, with a total > 0 and done == total;
 * the total must be that phase's unit of work on the fabric, computed here
 * from the fabric (switches, switch pairs, CA ports, LIDs), never taken
 * from a run. Each engine also routes with 1 and 3 threads: the counts are
 * the same (they are made from the workers, atomically).
 *
 * The counts by engine (the last phase in capitals):
 *   lash       paths (switches), VL layers (switch pairs), BALANCING (switch
 *              pairs: failed tries out of that bound, the rest at the end)
 *   slimfly, hyperx, ecube, torus-2qos (switch pairs), nue (CA LIDs),
 *              dla (LIDs 0 .. max LID): ROUTING
 *   ecube, ud-dfs balance=N   routing, BALANCING (switches x (N - 1)), ecube
 *              then PATH SLS on a torus (switches)
 *   dor        routing (minhop's), DIMENSION ORDER (LIDs 1 .. max LID)
 *   dfdn, sssp-df, minhop-df   routing (the base's), PATH SLS (CA LIDs)
 *   ftree      ROUTING (compute-node slots of the leaves, other CA ports,
 *              switch LIDs)
 *   flexible   paths (switch pairs x trials), ROUTING (switches, balance.c)
 *   minhop, updn  ROUTING (CA ports)
 *   sssp       ROUTING (switches with CAs, then every switch: its own LIDs)
 *   dfsssp     routing (as sssp), VL LAYERS (its units of paths)
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "lanes/progress.h"
#include "lanes/route.h"

/* The total a case expects, from the fabric alone. */
typedef uint64_t (*unit_count)(const struct lanes_fabric *f);

static uint64_t switches(const struct lanes_fabric *f)
{
	return f->num_switches;
}

/*
 * sssp's destinations (OpenSM's order): each switch with CAs for their LIDs,
 * then every switch for its own.
 */
static uint64_t sssp_destinations(const struct lanes_fabric *f)
{
	uint64_t n = f->num_switches;

	for (uint32_t s = 0; s < f->num_switches; s++) {
		const struct lanes_node *sw = &f->nodes[f->switches[s]];
		int with_cas = 0;

		for (uint8_t p = 1; p <= sw->nports; p++) {
			const struct lanes_port *pt = lanes_fabric_port(f, f->switches[s], p);

			with_cas |= pt->peer_node != LANES_NONE &&
				    f->nodes[pt->peer_node].type != LANES_NODE_SWITCH;
		}
		n += with_cas;
	}
	return n;
}

/* Unordered pairs of distinct switches (the fabrics here are connected). */
static uint64_t switch_pairs(const struct lanes_fabric *f)
{
	return (uint64_t)f->num_switches * (f->num_switches - 1) / 2;
}

static uint64_t ordered_switch_pairs(const struct lanes_fabric *f)
{
	return (uint64_t)f->num_switches * f->num_switches;
}

/* The LIDs of CA ports cabled to a switch (2^LMC each). */
static uint64_t ca_lids(const struct lanes_fabric *f)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < f->num_nodes; i++) {
		const struct lanes_node *nd = &f->nodes[i];

		for (uint8_t p = 1; nd->type == LANES_NODE_CA && p <= nd->nports; p++) {
			const struct lanes_port *pt = lanes_fabric_port(f, i, p);

			if (pt->lid && pt->peer_node != LANES_NONE &&
			    f->nodes[pt->peer_node].type == LANES_NODE_SWITCH)
				n += 1u << pt->lmc;
		}
	}
	return n;
}

/* The highest LID any port answers. */
static uint64_t max_lid(const struct lanes_fabric *f)
{
	uint64_t most = 0;

	for (uint32_t i = 0; i < f->num_nodes; i++)
		for (uint8_t p = 0; p <= f->nodes[i].nports; p++) {
			const struct lanes_port *pt = lanes_fabric_port(f, i, p);
			uint64_t last = pt->lid ? pt->lid + (1u << pt->lmc) - 1 : 0;

			most = last > most ? last : most;
		}
	return most;
}

static uint64_t lids_from_0(const struct lanes_fabric *f)
{
	return max_lid(f) + 1;
}

/* A fat tree with the same compute nodes under every leaf: every CA port and switch LID. */
static uint64_t cas_and_switches(const struct lanes_fabric *f)
{
	return ca_lids(f) + f->num_switches;
}

static uint64_t two_switch_rounds(const struct lanes_fabric *f)
{
	return 2 * (uint64_t)f->num_switches;
}

struct progress_case {
	const char *engine; /* name[:params] */
	const char *fabric;
	const char *phase;  /* the last phase */
	unit_count units;   /* its total */
};

/* Route c with `threads` threads; the progress at return. */
static struct lanes_progress route_counted(const struct progress_case *c,
					   const struct lanes_fabric *f, unsigned threads)
{
	char name[64], *params;
	struct lanes_progress p = { NULL, 0, 0 };
	struct lanes_route_opts o;
	struct lanes_routing *r = NULL;
	struct lanes_error err;
	const struct lanes_engine *e;

	snprintf(name, sizeof(name), "%s", c->engine);
	params = strchr(name, ':');
	if (params)
		*params++ = 0;
	e = lanes_engine_find(name);
	assert_non_null(e);
	lanes_route_opts_init(&o);
	o.params = params;
	o.threads = threads;
	o.progress = &p;
	if (lanes_route(e, f, &o, &r, &err))
		fail_msg("%s on %s: %s", c->engine, c->fabric, err.message);
	lanes_routing_free(r);
	return p;
}

static void check_case(const struct progress_case *c)
{
	struct lanes_fabric *f = gen(c->fabric);
	uint64_t want = c->units(f);

	for (unsigned threads = 1; threads <= 3; threads += 2) {
		struct lanes_progress p = route_counted(c, f, threads);
		const char *phase = atomic_load(&p.phase);
		uint64_t done = atomic_load(&p.done), total = atomic_load(&p.total);

		if (!phase || strcmp(phase, c->phase))
			fail_msg("%s on %s: last phase '%s', not '%s'", c->engine, c->fabric,
				 phase ? phase : "(none)", c->phase);
		if (!want || total != want || done != total)
			fail_msg("%s on %s, %u threads: %s %llu of %llu, want %llu of %llu", c->engine,
				 c->fabric, threads, phase, (unsigned long long)done,
				 (unsigned long long)total, (unsigned long long)want,
				 (unsigned long long)want);
	}
	lanes_fabric_free(f);
}

static void check_cases(const struct progress_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		check_case(&c[i]);
}

#define CHECK(...)                                                                          \
	do {                                                                                \
		const struct progress_case cases[] = { __VA_ARGS__ };                       \
		check_cases(cases, sizeof(cases) / sizeof(cases[0]));                       \
	} while (0)

/* ------------------------------------------------------------ newly counted */

static void test_lash(void **state)
{
	(void)state;
	CHECK({ "lash", "dragonfly a=4 p=2 h=2", "balancing", switch_pairs },
	      { "lash", "hyperx K=3x3 p=1", "balancing", switch_pairs },
	      { "lash", "jellyfish switches=16 degree=4 p=2 seed=7", "balancing", switch_pairs });
}

/* lash over its budget in OpenSM's order: layered again, longest first, then balanced. */
static void test_lash_longest_first(void **state)
{
	struct lanes_fabric *f = gen("torus k=10x10 p=1");
	struct lanes_progress p = { NULL, 0, 0 };
	struct lanes_route_opts o;
	struct lanes_routing *r = NULL;
	struct lanes_error err;

	(void)state;
	lanes_route_opts_init(&o);
	o.max_vls = 7; /* OpenSM's order needs 8, longest first 7 (docs/routing.md) */
	o.progress = &p;
	if (lanes_route(lanes_engine_find("lash"), f, &o, &r, &err))
		fail_msg("lash, 7 VLs: %s", err.message);
	if (!strstr(r->notes, "longest paths first"))
		fail_msg("lash on torus k=10x10 with 7 VLs did not layer longest first: %s", r->notes);
	assert_string_equal(atomic_load(&p.phase), "balancing");
	assert_int_equal(atomic_load(&p.total), switch_pairs(f));
	assert_int_equal(atomic_load(&p.done), switch_pairs(f));
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

static void test_slimfly(void **state)
{
	(void)state;
	CHECK({ "slimfly", "slimfly q=5 p=1", "routing", switches },
	      { "slimfly", "slimfly q=3", "routing", switches });
}

static void test_hyperx(void **state)
{
	(void)state;
	CHECK({ "hyperx", "hyperx K=3x3 p=1", "routing", switches },
	      { "hyperx:order=mixed", "hyperx K=2x3x2 L=2,1,1 p=1", "routing", switches },
	      { "hyperx:order=twisted", "sfxff q=3 K=2 p=1", "routing", switches });
}

static void test_ecube(void **state)
{
	(void)state;
	CHECK({ "ecube", "torus k=4x2x3 p=1", "routing", switches },
	      { "ecube", "mesh k=3x3 p=1", "routing", switches },
	      { "ecube:balance=1", "mesh k=3x3 p=1", "routing", switches },
	      { "ecube:balance=3", "mesh k=2x4 p=2", "balancing", two_switch_rounds },
	      { "ecube:balance=3", "torus k=5x3 p=1", "path SLs", switches });
}

/* balance.c's driver, under ud-dfs too. */
static void test_ud_dfs_balanced(void **state)
{
	(void)state;
	CHECK({ "ud-dfs:balance=1", "torus k=4x2x3 p=1", "routing", switches },
	      { "ud-dfs:balance=3", "jellyfish switches=10 degree=3 p=1", "balancing",
		two_switch_rounds });
}

static void test_dor(void **state)
{
	(void)state;
	CHECK({ "dor", "mesh k=3x3 p=1", "dimension order", max_lid },
	      { "dor", "hypercube n=3 p=1", "dimension order", max_lid });
}

static void test_dfdn(void **state)
{
	(void)state;
	CHECK({ "dfdn", "dragonfly a=4 p=2 h=2", "path SLs", ca_lids },
	      { "sssp-df", "slimfly q=5 p=1", "path SLs", ca_lids },
	      { "minhop-df", "dragonfly a=3 p=1 h=2 g=5 wiring=palmtree", "path SLs", ca_lids });
}

static void test_ftree(void **state)
{
	(void)state;
	CHECK({ "ftree", "fattree k=4 n=2", "routing", cas_and_switches },
	      { "ftree", "fattree k=2 n=3", "routing", cas_and_switches },
	      { "ftree", "xgft h=3 m=2,2,2 w=1,2,2", "routing", cas_and_switches });
}

static void test_flexible(void **state)
{
	(void)state;
	CHECK({ "flexible", "torus k=3x3 p=1", "routing", switches },
	      { "flexible:trials=2", "jellyfish switches=10 degree=3 p=1", "routing", switches });
}

/* ------------------------------------------------------------ counted before */

/*
 * minhop and updn count end ports against a total of CA ports; with two CA
 * ports per switch a count of destination switches (batches) would end at
 * half the total, as it once did.
 */
static void test_minhop_updn(void **state)
{
	(void)state;
	CHECK({ "minhop", "torus k=3x3 p=1", "routing", ca_lids },
	      { "updn", "torus k=3x3 p=1", "routing", ca_lids });
	CHECK({ "minhop", "torus k=4x4 p=2", "routing", ca_lids },
	      { "updn", "torus k=4x4 p=2", "routing", ca_lids },
	      { "dnup", "fattree k=4 n=3", "routing", ca_lids },
	      { "ud-dfs", "torus k=4x4 p=2", "routing", ca_lids });
}

static void test_sssp(void **state)
{
	(void)state;
	CHECK({ "sssp", "torus k=4x4 p=2", "routing", sssp_destinations },
	      { "sssp", "fattree k=4 n=3", "routing", sssp_destinations },
	      { "sssp", "mesh k=3x3 p=0", "routing", sssp_destinations });
}

static void test_nue_dla_torus2qos(void **state)
{
	(void)state;
	CHECK({ "nue", "torus k=4x4 p=2", "routing", ca_lids },
	      { "dla", "dragonfly a=4 p=2 h=2", "routing", lids_from_0 },
	      { "d3r", "dragonfly a=4 p=2 h=2", "routing", lids_from_0 },
	      { "torus-2qos", "torus k=5x4x3 p=1", "routing", ordered_switch_pairs });
}

/*
 * dfsssp's last phase, "VL layers" (dfsssp_layers.c), counts its units of
 * paths (an internal grouping, so only done == total > 0 is checked), on a
 * torus whose SSSP paths need layering and on a tree whose do not.
 */
static void test_dfsssp(void **state)
{
	struct lanes_fabric *f = gen("torus k=4x4 p=1");
	struct lanes_progress p = { NULL, 0, 0 };
	struct lanes_route_opts o;
	struct lanes_routing *r = NULL;
	struct lanes_error err;

	(void)state;
	lanes_route_opts_init(&o);
	o.progress = &p;
	if (lanes_route(lanes_engine_find("dfsssp"), f, &o, &r, &err))
		fail_msg("dfsssp: %s", err.message);
	assert_string_equal(atomic_load(&p.phase), "VL layers");
	assert_true(atomic_load(&p.total) > 0);
	assert_int_equal(atomic_load(&p.done), atomic_load(&p.total));
	lanes_routing_free(r);
	lanes_fabric_free(f);
	f = gen("fattree k=4 n=2");
	memset(&p, 0, sizeof(p));
	if (lanes_route(lanes_engine_find("dfsssp"), f, &o, &r, &err))
		fail_msg("dfsssp: %s", err.message);
	assert_string_equal(atomic_load(&p.phase), "VL layers");
	assert_int_equal(atomic_load(&p.done), 1);
	assert_int_equal(atomic_load(&p.total), 1);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* Every registered engine is among the cases above (by name, in this file). */
static void test_every_engine(void **state)
{
	FILE *fp = fopen(__FILE__, "r");
	char *text = calloc(1, 1 << 17);
	size_t n;

	(void)state;
	assert_non_null(fp);
	assert_non_null(text);
	n = fread(text, 1, (1 << 17) - 1, fp);
	fclose(fp);
	for (size_t i = 0; lanes_engine_at(i); i++) {
		char quoted[64];

		snprintf(quoted, sizeof(quoted), "\"%s\"", lanes_engine_at(i)->name);
		if (!strstr(text, quoted))
			fail_msg("engine %s has no progress case", lanes_engine_at(i)->name);
	}
	assert_true(n > 0);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lash),     cmocka_unit_test(test_lash_longest_first),
		cmocka_unit_test(test_slimfly),  cmocka_unit_test(test_hyperx),
		cmocka_unit_test(test_ecube),    cmocka_unit_test(test_ud_dfs_balanced),
		cmocka_unit_test(test_dor),
		cmocka_unit_test(test_dfdn),     cmocka_unit_test(test_ftree),
		cmocka_unit_test(test_flexible), cmocka_unit_test(test_minhop_updn),
		cmocka_unit_test(test_sssp),     cmocka_unit_test(test_every_engine),
		cmocka_unit_test(test_nue_dla_torus2qos), cmocka_unit_test(test_dfsssp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
