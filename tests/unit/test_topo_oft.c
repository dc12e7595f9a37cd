/*
 * test_topo_oft.c - the two-level orthogonal fat tree generator (oft.c),
 * against the sizes Kathareios et al. (SC15) give it and the projective
 * plane's properties: for k - 1 = q a prime power and n = k^2 - k + 1,
 * 2n leaves with k hosts and k spines each, n spines of radix 2k,
 * 2k(k^2 - k + 1) hosts, 2 cables and 3 switch ports per host; two leaves of
 * one half share exactly one spine, two of different halves at least one
 * (k for exactly one partner of each leaf); hosts are two switch hops apart
 * at most, and a leaf is three hops from the spines it does not touch.
 */
#include "testutil.h"

#include "lanes/topo.h"

/* Spines (switch indices) that leaves a and b share. */
static unsigned common_spines(const struct lanes_fabric *f, uint32_t a, uint32_t b)
{
	unsigned c = 0;

	for (uint32_t i = f->adj_off[a]; i < f->adj_off[a + 1]; i++)
		for (uint32_t j = f->adj_off[b]; j < f->adj_off[b + 1]; j++)
			c += f->adj[i].sw == f->adj[j].sw;
	return c;
}

static void check_counts(unsigned k, unsigned p, int p_given)
{
	unsigned n = k * k - k + 1, hosts = p_given ? p : k;
	char spec[64];
	struct lanes_fabric *f;
	struct lanes_fabric_stats st;

	if (p_given)
		snprintf(spec, sizeof(spec), "oft k=%u p=%u", k, p);
	else
		snprintf(spec, sizeof(spec), "oft k=%u", k);
	f = gen(spec);
	st = stats_of(f);
	assert_int_equal(st.switches, 3 * n);
	assert_int_equal(st.cas, 2 * n * hosts);
	assert_int_equal(st.links_switch_switch, 2 * n * k);
	assert_int_equal(st.net_radix_min, k);
	assert_int_equal(st.net_radix_max, 2 * k);
	assert_int_equal(st.hosts_min, 0);
	assert_int_equal(st.hosts_max, hosts);
	assert_int_equal(st.diameter, 3);
	assert_int_equal(st.components, 1);
	assert_int_equal(st.parallel_links, 0);
	if (!p_given) /* Kathareios et al.: 2 cables and 3 switch ports per host */
		assert_int_equal(st.links_switch_switch + st.cas, 2 * st.cas);
	lanes_fabric_free(f);
}

static void test_counts(void **state)
{
	static const unsigned ks[] = { 3, 4, 5, 6, 8, 9 }; /* q = 2, 3, 4, 5, 7, 8 */

	(void)state;
	for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++)
		check_counts(ks[i], 0, 0);
	check_counts(4, 1, 1);
	check_counts(5, 7, 1);
}

/* Leaves of one half share exactly one spine; of two halves one, or k for one partner. */
static void check_pairs(unsigned k)
{
	unsigned n = k * k - k + 1;
	char spec[32];
	struct lanes_fabric *f;

	snprintf(spec, sizeof(spec), "oft k=%u p=1", k);
	f = gen(spec);
	for (uint32_t a = 0; a < 2 * n; a++) {
		unsigned partners = 0;

		for (uint32_t b = 0; b < 2 * n; b++) {
			unsigned c;

			if (a == b)
				continue;
			c = common_spines(f, a, b);
			if ((a < n) == (b < n))
				assert_int_equal(c, 1);
			else if (c == k)
				partners++;
			else
				assert_int_equal(c, 1);
		}
		assert_int_equal(partners, 1);
	}
	lanes_fabric_free(f);
}

static void test_leaf_pairs(void **state)
{
	(void)state;
	check_pairs(3);
	check_pairs(4);
	check_pairs(5); /* GF(4) */
	check_pairs(6);
}

/* Leaf ports p+1..p+k go to spines, spine ports 1..k to point leaves, k+1..2k to line leaves. */
static void test_ports(void **state)
{
	unsigned k = 4, p = 2, n = k * k - k + 1;
	struct lanes_fabric *f = gen("oft k=4 p=2");

	(void)state;
	for (uint32_t s = 0; s < 3 * n; s++) {
		const struct lanes_node *nd = &f->nodes[f->switches[s]];

		assert_int_equal(nd->nports, s < 2 * n ? p + k : 2 * k);
		for (unsigned port = 1; port <= nd->nports; port++) {
			const struct lanes_port *pt = &f->ports[nd->port_base + port];
			uint32_t peer = f->nodes[pt->peer_node].switch_index;

			if (s < 2 * n && port <= p)
				assert_int_equal(f->nodes[pt->peer_node].type, LANES_NODE_CA);
			else if (s < 2 * n)
				assert_true(peer >= 2 * n);
			else
				assert_true(port <= k ? peer < n : peer >= n && peer < 2 * n);
		}
	}
	assert_non_null(strstr(f->nodes[f->switches[0]].desc, "P0"));
	assert_non_null(strstr(f->nodes[f->switches[n]].desc, "L0"));
	assert_non_null(strstr(f->nodes[f->switches[2 * n]].desc, "S0"));
	lanes_fabric_free(f);
}

static void test_errors(void **state)
{
	static const char *const bad_k[] = { "7", "11", "2", "0", "128", "x" };
	struct lanes_error err;
	char spec[64];

	(void)state;
	for (size_t i = 0; i < sizeof(bad_k) / sizeof(bad_k[0]); i++) {
		snprintf(spec, sizeof(spec), "oft k=%s", bad_k[i]);
		err = gen_error(spec);
		assert_non_null(strstr(err.message, "'k'"));
	}
	err = gen_error("oft p=2");
	assert_non_null(strstr(err.message, "'k'"));
	err = gen_error("oft k=126 p=200");
	assert_non_null(strstr(err.message, "'p'"));
	err = gen_error("oft k=4 q=3");
	assert_non_null(strstr(err.message, "q"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_leaf_pairs),
		cmocka_unit_test(test_ports),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
