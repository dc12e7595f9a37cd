/*
 * test_topo_measure.c - lanes_topo_measure() (topo/registry.c): the sizes a
 * spec would build, read without building it, so that the command line can
 * refuse a fabric too large for memory before allocating it (issue 22).
 * For specs of every generator the measure must equal the fabric actually
 * built (its switches, and its CA ports cabled to a switch); on a spec too
 * large to build here it must give the formula's counts at once; bad
 * parameters and specs over the LID space are refused as the generator
 * refuses them.
 */
#include "testutil.h"

#include "lanes/topo.h"

static int measure(const char *spec, struct lanes_topo_size *size, struct lanes_error *err)
{
	char buf[512], *w[32];
	size_t n;

	snprintf(buf, sizeof(buf), "%s", spec);
	n = split_words(buf, w, 32);
	return lanes_topo_measure(w[0], n - 1, (const char *const *)(w + 1), size, err);
}

/* CA ports with a cable to a switch, counted in the built fabric. */
static uint64_t host_ports(const struct lanes_fabric *f)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < f->num_nodes; i++)
		for (uint8_t p = 1; f->nodes[i].type != LANES_NODE_SWITCH && p <= f->nodes[i].nports;
		     p++) {
			const struct lanes_port *pt = lanes_fabric_port(f, i, p);

			n += pt->peer_node != LANES_NONE &&
			     f->nodes[pt->peer_node].type == LANES_NODE_SWITCH;
		}
	return n;
}

static const char *const specs[] = {
	"dragonfly a=4 p=2 h=2",         "dragonfly a=4 p=3 h=2 g=5 wiring=palmtree",
	"slimfly q=5",                   "slimfly q=4 p=2",
	"hyperx k=3x4 p=2 L=2",          "torus k=4x3x2 p=2",
	"mesh k=5x5 p=1 L=2",            "hypercube n=4 p=3",
	"fattree k=4 n=3",               "xgft h=2 m=4,4 w=2,3",
	"sfxff q=3 k=3 p=2",             "sfxff preset=sfxff-1",
	"jellyfish switches=20 degree=4 p=3 seed=7", "oft k=4 p=2",
	"torus k=6 p=0",
};

#define NUM_SPECS (sizeof(specs) / sizeof(specs[0]))

/* Every generator's measure is the fabric it builds. */
static void test_measure_is_built(void **state)
{
	(void)state;
	for (size_t i = 0; i < NUM_SPECS; i++) {
		struct lanes_topo_size size;
		struct lanes_error err;
		struct lanes_fabric *f = gen(specs[i]);

		if (measure(specs[i], &size, &err))
			fail_msg("%s: %s", specs[i], err.message);
		if (size.switches != f->num_switches || size.host_ports != host_ports(f))
			fail_msg("%s: measured %llu switches %llu host ports, built %u and %llu",
				 specs[i], (unsigned long long)size.switches,
				 (unsigned long long)size.host_ports, f->num_switches,
				 (unsigned long long)host_ports(f));
		lanes_fabric_free(f);
	}
}

/* The specs above name every registered generator. */
static void test_every_generator(void **state)
{
	(void)state;
	for (size_t g = 0; lanes_generator_at(g); g++) {
		const char *name = lanes_generator_at(g)->name;
		size_t len = strlen(name), found = 0;

		for (size_t i = 0; i < NUM_SPECS; i++)
			found += !strncmp(specs[i], name, len) && specs[i][len] == ' ';
		if (!found)
			fail_msg("no spec of generator %s here", name);
	}
}

/* hypercube n=16 p=200: 2^16 switches, 200 hosts each, measured without building. */
static void test_too_large_to_build(void **state)
{
	struct lanes_topo_size size;
	struct lanes_error err;

	(void)state;
	assert_int_equal(measure("hypercube n=16 p=200", &size, &err), 0);
	assert_int_equal(size.switches, 65536);
	assert_int_equal(size.host_ports, 65536ull * 200);
	/* a k-ary n-tree: n levels of k^(n-1) switches, k^n hosts (Petrini and Vanneschi) */
	assert_int_equal(measure("fattree k=48 n=3", &size, &err), 0);
	assert_int_equal(size.switches, 3ull * 48 * 48);
	assert_int_equal(size.host_ports, 48ull * 48 * 48);
}

static void test_refusals(void **state)
{
	struct lanes_topo_size size;
	struct lanes_error err;

	(void)state;
	assert_int_equal(measure("dragonfly a=0 p=1 h=1", &size, &err), LANES_EINVAL);
	assert_non_null(strstr(err.message, "'a'"));
	assert_int_equal(measure("torus k=4x4 p=2 hh=1", &size, &err), LANES_EINVAL);
	assert_non_null(strstr(err.message, "hh"));
	assert_int_equal(measure("torus k=5000x5000 p=1", &size, &err), LANES_EINVAL);
	assert_non_null(strstr(err.message, "LIDs"));
	assert_int_equal(measure("nosuch k=1", &size, &err), LANES_ENOTFOUND);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_measure_is_built),
		cmocka_unit_test(test_every_generator),
		cmocka_unit_test(test_too_large_to_build),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
