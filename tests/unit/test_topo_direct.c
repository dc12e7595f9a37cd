/*
 * test_topo_direct.c - the dragonfly, slimfly, sfxff and jellyfish
 * generators.
 *
 * Expected values are the closed formulas of the constructions and the
 * numbers printed in seeds 000 and 001, computed here from the parameters,
 * never from the generators' code. Structural checks (which group a global
 * cable reaches, the MMS edge equations) re-derive each cable from the
 * conventions written in docs/topologies-direct.md.
 */
#include <stdint.h>

#include "testutil.h"

/* ---------------------------------------------------------------- helpers */

static int has(const char *msg, const char *what)
{
	if (!strstr(msg, what))
		fail_msg("message '%s' does not name %s", msg, what);
	return 1;
}

/* Expect an invalid-parameter error naming what (e.g. "'g'"). */
static void expect_einval(const char *spec, const char *what)
{
	struct lanes_error err = gen_error(spec);

	if (err.code != LANES_EINVAL)
		fail_msg("%s: code %d (%s), expected LANES_EINVAL", spec, err.code, err.message);
	has(err.message, what);
}

static uint32_t sw_of(const struct lanes_fabric *f, uint32_t node)
{
	return f->nodes[node].switch_index;
}

static int is_switch(const struct lanes_fabric *f, uint32_t node)
{
	return f->nodes[node].type == LANES_NODE_SWITCH;
}

/* Same cables in the same order (field by field: struct padding is not compared). */
static int same_links(const struct lanes_fabric *a, const struct lanes_fabric *b)
{
	if (a->num_links != b->num_links)
		return 0;
	for (uint32_t i = 0; i < a->num_links; i++) {
		const struct lanes_link *x = &a->links[i], *y = &b->links[i];

		if (x->a != y->a || x->b != y->b || x->pa != y->pa || x->pb != y->pb)
			return 0;
	}
	return 1;
}

/* ------------------------------------------------------------- dragonfly */

struct df {
	unsigned a, p, h, g;
};

/* Global cables between each pair of groups, and global ports used per group. */
static void group_counts(const struct lanes_fabric *f, struct df d, unsigned *pair,
			 unsigned *used)
{
	memset(pair, 0, sizeof(unsigned) * d.g * d.g);
	memset(used, 0, sizeof(unsigned) * d.g);
	for (uint32_t i = 0; i < f->num_links; i++) {
		const struct lanes_link *l = &f->links[i];
		unsigned ga, gb;

		if (!is_switch(f, l->a) || !is_switch(f, l->b))
			continue;
		ga = sw_of(f, l->a) / d.a;
		gb = sw_of(f, l->b) / d.a;
		if (ga == gb)
			continue;
		pair[ga * d.g + gb]++;
		pair[gb * d.g + ga]++;
		used[ga]++;
		used[gb]++;
	}
}

/*
 * Diameter from the cable list alone: 1 between cabled switches, 2 with a
 * common neighbour, and at most 3 otherwise (local, global, local), which
 * check_dragonfly asserts separately.
 */
static unsigned df_diameter(const struct lanes_fabric *f, struct df d)
{
	unsigned n = d.a * d.g, diam = 0;
	unsigned char *adj = calloc((size_t)n * n, 1);

	assert_non_null(adj);
	for (uint32_t i = 0; i < f->num_links; i++) {
		const struct lanes_link *l = &f->links[i];

		if (is_switch(f, l->a) && is_switch(f, l->b))
			adj[sw_of(f, l->a) * n + sw_of(f, l->b)] = adj[sw_of(f, l->b) * n + sw_of(f, l->a)] = 1;
	}
	for (unsigned x = 0; x < n; x++)
		for (unsigned y = x + 1; y < n; y++) {
			unsigned dist = adj[x * n + y] ? 1 : 3;

			for (unsigned z = 0; dist == 3 && z < n; z++)
				if (adj[x * n + z] && adj[z * n + y])
					dist = 2;
			diam = dist > diam ? dist : diam;
		}
	free(adj);
	return diam;
}

static struct lanes_fabric *gen_df(struct df d, const char *wiring)
{
	char spec[160];

	snprintf(spec, sizeof(spec), "dragonfly a=%u p=%u h=%u g=%u wiring=%s", d.a, d.p, d.h,
		 d.g, wiring);
	return gen(spec);
}

/* Counts, radix and the spread of global cables for any g <= a*h+1. */
static void check_dragonfly(struct df d, const char *wiring)
{
	struct lanes_fabric *f = gen_df(d, wiring);
	struct lanes_fabric_stats st = stats_of(f);
	unsigned t = d.a * d.h, c = t / (d.g - 1), odd = (d.g * t) % 2, short_groups = 0;
	unsigned *pair = calloc((size_t)d.g * d.g, sizeof(unsigned)), *used = calloc(d.g, sizeof(unsigned));

	assert_int_equal(st.switches, d.a * d.g);
	assert_int_equal(st.cas, d.a * d.p * d.g);
	assert_int_equal(st.links_switch_switch, d.g * d.a * (d.a - 1) / 2 + d.g * t / 2);
	assert_int_equal(st.links_switch_ca, d.a * d.p * d.g);
	assert_int_equal(st.radix_max, d.p + d.a - 1 + d.h);
	assert_int_equal(st.radix_min, d.p + d.a - 1 + d.h - odd);
	assert_int_equal(st.ports_max, d.p + d.a - 1 + d.h);
	assert_int_equal(st.hosts_min, d.p);
	assert_int_equal(st.hosts_max, d.p);
	assert_int_equal(st.self_loops, 0);
	assert_true(st.connected);
	assert_int_equal(st.diameter, df_diameter(f, d));
	assert_true(st.diameter <= 3);
	group_counts(f, d, pair, used);
	for (unsigned i = 0; i < d.g; i++) {
		for (unsigned m = 0; m < d.g; m++)
			if (m != i)
				assert_true(pair[i * d.g + m] == c || pair[i * d.g + m] == c + 1);
		assert_true(used[i] == t || (odd && used[i] == t - 1));
		short_groups += used[i] != t;
	}
	assert_int_equal(short_groups, odd);
	free(pair);
	free(used);
	lanes_fabric_free(f);
}

static void test_dragonfly_seed000_sizes(void **state)
{
	static const struct {
		unsigned a, p, h, nodes;
	} sizes[] = { { 4, 2, 2, 72 }, { 6, 3, 3, 342 }, { 8, 4, 4, 1056 }, { 10, 5, 5, 2550 } };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned a = sizes[i].a, p = sizes[i].p, h = sizes[i].h, g = a * h + 1;
		char spec[96];
		struct lanes_fabric *f;
		struct lanes_fabric_stats st;

		snprintf(spec, sizeof(spec), "dragonfly a=%u p=%u h=%u", a, p, h);
		f = gen(spec);
		st = stats_of(f);
		assert_int_equal(f->num_cas, sizes[i].nodes);
		assert_int_equal(f->num_cas, a * p * g);
		assert_int_equal(st.switches, a * g);
		/* complete groups plus one global cable per pair of groups */
		assert_int_equal(st.links_switch_switch, g * a * (a - 1) / 2 + g * (g - 1) / 2);
		assert_int_equal(st.diameter, 3);
		assert_int_equal(st.net_radix_min, a - 1 + h);
		assert_int_equal(st.net_radix_max, a - 1 + h);
		assert_int_equal(st.parallel_links, 0);
		lanes_fabric_free(f);
	}
}

/*
 * Seed 000, Sec. 5 (Figs. 17-19): the oversubscribed dragonflies a = 2h = p
 * have twice the endnodes of Table 2's balanced ones, on the same switches.
 */
static void test_dragonfly_seed000_oversubscribed(void **state)
{
	static const struct {
		unsigned a, h, balanced_nodes;
	} sizes[] = { { 4, 2, 72 }, { 6, 3, 342 }, { 8, 4, 1056 }, { 10, 5, 2550 } };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned a = sizes[i].a, h = sizes[i].h, g = a * h + 1;
		char spec[96];
		struct lanes_fabric *f;
		struct lanes_fabric_stats st;

		snprintf(spec, sizeof(spec), "dragonfly a=%u p=%u h=%u", a, a, h);
		f = gen(spec);
		st = stats_of(f);
		assert_int_equal(f->num_cas, 2 * sizes[i].balanced_nodes);
		assert_int_equal(st.switches, a * g);
		assert_int_equal(st.diameter, 3);
		lanes_fabric_free(f);
	}
}

static void test_dragonfly_one_cable_per_pair(void **state)
{
	static const struct df cases[] = {
		{ 4, 2, 2, 9 }, { 6, 3, 3, 19 }, { 2, 1, 1, 3 }, { 3, 2, 3, 10 }, { 1, 1, 4, 5 },
	};
	static const char *const wirings[] = { "consecutive", "palmtree" };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (size_t w = 0; w < 2; w++) {
			struct df d = cases[i];
			struct lanes_fabric *f = gen_df(d, wirings[w]);
			unsigned *pair = calloc((size_t)d.g * d.g, sizeof(unsigned));
			unsigned *used = calloc(d.g, sizeof(unsigned));

			group_counts(f, d, pair, used);
			for (unsigned x = 0; x < d.g; x++) {
				for (unsigned y = 0; y < d.g; y++)
					assert_int_equal(pair[x * d.g + y], x != y);
				assert_int_equal(used[x], d.a * d.h);
			}
			assert_int_equal(stats_of(f).diameter, d.a > 1 ? 3 : 1);
			free(pair);
			free(used);
			lanes_fabric_free(f);
			check_dragonfly(d, wirings[w]);
		}
}

/* Global link j = s*h + k of group i, for a switch port that is global. */
static unsigned global_link(struct df d, uint32_t sw, unsigned port)
{
	return (sw % d.a) * d.h + (port - d.p - d.a);
}

/* The arrangements' defining formulas (Camarero et al.), cable by cable. */
static void test_dragonfly_wiring_formulas(void **state)
{
	static const struct df cases[] = { { 4, 2, 2, 9 }, { 3, 1, 2, 7 }, { 4, 1, 2, 5 },
					   { 2, 1, 2, 3 } };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (int palm = 0; palm < 2; palm++) {
			struct df d = cases[i];
			struct lanes_fabric *f = gen_df(d, palm ? "palmtree" : "consecutive");
			unsigned t = d.a * d.h, n = d.g - 1, globals = 0;

			for (uint32_t s = 0; s < f->num_switches; s++)
				for (unsigned port = d.p + d.a; port < d.p + d.a + d.h; port++) {
					uint32_t node = f->switches[s];
					const struct lanes_port *pp = lanes_fabric_port(f, node, (uint8_t)port);
					unsigned gi = s / d.a, j = global_link(d, s, port);
					uint32_t ps = sw_of(f, pp->peer_node);
					unsigned gm = ps / d.a, jm = global_link(d, ps, pp->peer_port);

					globals++;
					if (palm) { /* extended palm tree, g-1 divides a*h */
						assert_int_equal(t % n, 0);
						assert_int_equal(gm, (gi + 1 + (t - 1 - j) % n) % d.g);
						assert_int_equal(jm, t - 1 - j);
					} else if (t == n) { /* absolute / consecutive */
						assert_int_equal(gm, j < gi ? j : j + 1);
					} else { /* round robin: link j goes to partner j mod n */
						unsigned r = j % n;

						assert_int_equal(gm, r < gi ? r : r + 1);
						assert_int_equal(jm / n, j / n);
					}
				}
			assert_int_equal(globals, d.g * t);
			lanes_fabric_free(f);
		}
}

static void test_dragonfly_fewer_groups(void **state)
{
	static const struct df cases[] = {
		{ 4, 2, 2, 5 }, /* c = 2, r = 0 */
		{ 4, 2, 2, 2 }, /* two groups, 8 cables between them */
		{ 4, 1, 2, 6 }, /* r = 3, g even */
		{ 4, 1, 3, 8 }, /* r = 5, g even */
		{ 3, 1, 3, 6 }, /* r = 4 */
		{ 3, 1, 3, 7 }, /* g and r odd: one port left free */
		{ 5, 1, 3, 9 }, /* g and r odd, r = 7 */
		{ 1, 1, 5, 5 }, /* g and r odd, r = 1 */
		{ 3, 0, 1, 3 }, /* r = 1, g odd, t odd */
		{ 6, 2, 3, 11 },
	};
	static const char *const wirings[] = { "consecutive", "palmtree" };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (size_t w = 0; w < 2; w++)
			check_dragonfly(cases[i], wirings[w]);
}

static void test_dragonfly_small_g_diameter(void **state)
{
	struct lanes_fabric *f;

	(void)state;
	/* two groups: every switch has h cables into the other group */
	f = gen("dragonfly a=4 p=2 h=2 g=2");
	assert_int_equal(stats_of(f).diameter, 2);
	assert_int_equal(f->num_switches, 8);
	lanes_fabric_free(f);
	/* five groups, 2 cables per pair: switch s reaches only 2 of the 4 others */
	f = gen("dragonfly a=4 p=2 h=2 g=5");
	assert_int_equal(stats_of(f).diameter, 3);
	assert_int_equal(stats_of(f).parallel_links, 0);
	assert_int_equal(f->num_cas, 4 * 2 * 5);
	lanes_fabric_free(f);
}

static void test_dragonfly_ports(void **state)
{
	struct df d = { 4, 2, 2, 9 };
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");

	(void)state;
	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t node = f->switches[s];

		assert_int_equal(f->nodes[node].nports, d.p + d.a - 1 + d.h);
		for (unsigned port = 1; port <= d.p; port++)
			assert_int_equal(f->nodes[lanes_fabric_port(f, node, (uint8_t)port)->peer_node].type,
					 LANES_NODE_CA);
		for (unsigned k = 0; k + 1 < d.a; k++) { /* locals, ascending, self skipped */
			uint32_t peer = lanes_fabric_port(f, node, (uint8_t)(d.p + 1 + k))->peer_node;
			unsigned other = k < s % d.a ? k : k + 1;

			assert_int_equal(sw_of(f, peer), s / d.a * d.a + other);
		}
		for (unsigned k = 0; k < d.h; k++) {
			uint32_t peer = lanes_fabric_port(f, node, (uint8_t)(d.p + d.a + k))->peer_node;

			assert_true(is_switch(f, peer));
			assert_int_not_equal(sw_of(f, peer) / d.a, s / d.a);
		}
	}
	assert_non_null(strstr(f->nodes[f->switches[5]].desc, "dragonfly-g1-s1"));
	lanes_fabric_free(f);
}

static void test_dragonfly_wirings_differ(void **state)
{
	struct lanes_fabric *a = gen("dragonfly a=4 p=2 h=2 wiring=consecutive");
	struct lanes_fabric *b = gen("dragonfly a=4 p=2 h=2 wiring=palmtree");
	struct lanes_fabric *c = gen("dragonfly a=4 p=2 h=2");

	(void)state;
	assert_false(same_links(a, b));
	assert_true(same_links(a, c)); /* consecutive is the default */
	lanes_fabric_free(a);
	lanes_fabric_free(b);
	lanes_fabric_free(c);
}

static void test_dragonfly_errors(void **state)
{
	struct lanes_error err;

	(void)state;
	err = gen_error("dragonfly a=4 p=2 h=2 g=12");
	assert_int_equal(err.code, LANES_EINVAL);
	has(err.message, "'g'");
	has(err.message, "2..9");
	has(err.message, "12");
	expect_einval("dragonfly a=4 p=2 h=2 g=1", "'g'");
	expect_einval("dragonfly a=4 p=2 h=2 g=0", "'g'");
	expect_einval("dragonfly p=2 h=2", "'a'");
	expect_einval("dragonfly a=4 h=2", "'p'");
	expect_einval("dragonfly a=4 p=2", "'h'");
	expect_einval("dragonfly a=0 p=2 h=2", "'a'");
	expect_einval("dragonfly a=4 p=2 h=0", "'h'");
	expect_einval("dragonfly a=4 p=2 h=x", "'h'");
	expect_einval("dragonfly a=4 p=250 h=2", "'p'");
	expect_einval("dragonfly a=4 p=2 h=2 wiring=random", "'wiring'");
	expect_einval("dragonfly a=4 p=2 h=2 hh=2", "'hh'");
	expect_einval("dragonfly a=100 p=50 h=100", "'g'"); /* 1M switches, 50M hosts: > 2^24 LIDs */
}

/* --------------------------------------------------------------- slimfly */

static int sf_delta(unsigned q)
{
	return q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : 0;
}

static unsigned sf_radix(unsigned q)
{
	return (unsigned)(3 * (int)q - sf_delta(q)) / 2;
}

static void check_slimfly(unsigned q, unsigned p, int p_given)
{
	char spec[64];
	struct lanes_fabric *f;
	struct lanes_fabric_stats st;
	unsigned k = sf_radix(q), hosts = p_given ? p : (k + 1) / 2;

	if (p_given)
		snprintf(spec, sizeof(spec), "slimfly q=%u p=%u", q, p);
	else
		snprintf(spec, sizeof(spec), "slimfly q=%u", q);
	f = gen(spec);
	st = stats_of(f);
	assert_int_equal(st.switches, 2 * q * q);
	assert_int_equal(st.cas, 2 * q * q * hosts);
	assert_int_equal(st.diameter, 2);
	assert_int_equal(st.net_radix_min, k);
	assert_int_equal(st.net_radix_max, k);
	assert_int_equal(st.hosts_min, hosts);
	assert_int_equal(st.hosts_max, hosts);
	assert_int_equal(st.links_switch_switch, q * q * k);
	assert_int_equal(st.parallel_links, 0);
	assert_int_equal(st.self_loops, 0);
	assert_int_equal(st.components, 1);
	lanes_fabric_free(f);
}

static void test_slimfly_counts(void **state)
{
	static const struct {
		unsigned q, k; /* k' as Besta and Hoefler tabulate it */
	} cases[] = { { 3, 5 }, { 4, 6 }, { 5, 7 }, { 7, 11 }, { 8, 12 }, { 9, 13 }, { 11, 17 }, { 13, 19 } };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(sf_radix(cases[i].q), cases[i].k);
		check_slimfly(cases[i].q, 0, 0);
	}
}

static void test_slimfly_larger_fields(void **state)
{
	static const unsigned qs[] = { 16, 17, 19, 23, 25, 27, 32, 49 };

	(void)state;
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		check_slimfly(qs[i], 1, 1);
	check_slimfly(5, 0, 1);
	check_slimfly(7, 3, 1);
}

/* q = 5: the Hoffman-Singleton graph, a Moore graph: 7 at distance 1, 42 at 2. */
static void test_slimfly_hoffman_singleton(void **state)
{
	struct lanes_fabric *f = gen("slimfly q=5 p=4");
	struct lanes_fabric_stats st = stats_of(f);

	(void)state;
	assert_int_equal(st.switches, 50);
	assert_int_equal(st.cas, 200);
	assert_float_equal(st.avg_distance, (7.0 + 2 * 42.0) / 49.0, 1e-9);
	lanes_fabric_free(f);
}

/* Is a a nonzero square mod prime q? */
static int is_square(unsigned a, unsigned q)
{
	for (unsigned x = 1; x < q; x++)
		if (x * x % q == a % q)
			return 1;
	return 0;
}

/*
 * The MMS equations for a prime q, from the documented numbering
 * (t*q^2 + x*q + y): t-edges (0,x,y)-(1,m,c) with y = m*x + c; y-edges keep
 * x, and for delta = 1 join y, y' whose difference is a square (t = 0) or a
 * non-square (t = 1), whatever primitive element is used.
 */
static void check_mms_equations(unsigned q)
{
	char spec[48];
	struct lanes_fabric *f;
	unsigned tedges = 0, yedges = 0;

	snprintf(spec, sizeof(spec), "slimfly q=%u p=1", q);
	f = gen(spec);
	for (uint32_t i = 0; i < f->num_links; i++) {
		const struct lanes_link *l = &f->links[i];
		unsigned u, v, tu, tv, xu, xv, yu, yv;

		if (!is_switch(f, l->a) || !is_switch(f, l->b))
			continue;
		u = sw_of(f, l->a) < sw_of(f, l->b) ? sw_of(f, l->a) : sw_of(f, l->b);
		v = sw_of(f, l->a) ^ sw_of(f, l->b) ^ u;
		tu = u / (q * q), xu = u / q % q, yu = u % q;
		tv = v / (q * q), xv = v / q % q, yv = v % q;
		if (tu != tv) {
			assert_int_equal(yu, (xv * xu + yv) % q);
			tedges++;
			continue;
		}
		assert_int_equal(xu, xv);
		if (sf_delta(q) == 1)
			assert_int_equal(is_square((yv + q - yu) % q, q), tu == 0);
		yedges++;
	}
	assert_int_equal(tedges, q * q * q);
	assert_int_equal(yedges, 2 * q * q * (sf_radix(q) - q) / 2);
	lanes_fabric_free(f);
}

static void test_slimfly_structure(void **state)
{
	static const unsigned qs[] = { 3, 5, 7, 11, 13, 17 };

	(void)state;
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		check_mms_equations(qs[i]);
}

static void test_slimfly_ports(void **state)
{
	struct lanes_fabric *f = gen("slimfly q=5 p=2");

	(void)state;
	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t node = f->switches[s], prev = 0;

		assert_int_equal(f->nodes[node].nports, 2 + 7);
		for (unsigned port = 1; port <= 2; port++)
			assert_int_equal(f->nodes[lanes_fabric_port(f, node, (uint8_t)port)->peer_node].type,
					 LANES_NODE_CA);
		for (unsigned port = 3; port <= 9; port++) { /* neighbours ascending */
			uint32_t peer = sw_of(f, lanes_fabric_port(f, node, (uint8_t)port)->peer_node);

			assert_true(port == 3 || peer > prev);
			prev = peer;
		}
	}
	assert_non_null(strstr(f->nodes[f->switches[2 * 25 - 1]].desc, "slimfly-t1-x4-y4"));
	lanes_fabric_free(f);
}

static void test_slimfly_errors(void **state)
{
	static const char *const bad_q[] = { "0", "1", "2", "6", "10", "12", "15", "18", "257", "x" };
	char spec[64];

	(void)state;
	for (size_t i = 0; i < sizeof(bad_q) / sizeof(bad_q[0]); i++) {
		snprintf(spec, sizeof(spec), "slimfly q=%s", bad_q[i]);
		expect_einval(spec, "'q'");
	}
	expect_einval("slimfly", "'q'");
	expect_einval("slimfly p=3", "'q'");
	expect_einval("slimfly q=5 p=250", "'p'");
	expect_einval("slimfly q=5 p=300", "'p'");
	expect_einval("slimfly q=5 k=3", "'k'");
}

/* ----------------------------------------------------------------- sfxff */

struct sfx_case {
	const char *spec;
	unsigned q, l, p;
	unsigned ndims, k[4], w[4];
};

/* Counts, radix, parallel cables and diameter of SF(q) x K_k1 x ... from the formulas. */
static void check_sfxff(const struct sfx_case *c, unsigned expect_switches, unsigned expect_degree)
{
	struct lanes_fabric *f = gen(c->spec);
	struct lanes_fabric_stats st = stats_of(f);
	unsigned planes = 1, net = c->l * sf_radix(c->q), bundles_par = 0;
	unsigned sw;

	for (unsigned d = 0; d < c->ndims; d++) {
		planes *= c->k[d];
		net += c->w[d] * (c->k[d] - 1);
	}
	sw = 2 * c->q * c->q * planes;
	/* every bundle of width w has w-1 cables beyond the first */
	bundles_par = (c->l - 1) * c->q * c->q * sf_radix(c->q) * planes;
	for (unsigned d = 0; d < c->ndims; d++)
		bundles_par += (c->w[d] - 1) * sw * (c->k[d] - 1) / 2;
	if (expect_switches)
		assert_int_equal(sw, expect_switches);
	if (expect_degree)
		assert_int_equal(c->p + net, expect_degree);
	assert_int_equal(st.switches, sw);
	assert_int_equal(st.cas, sw * c->p);
	assert_int_equal(st.radix_min, c->p + net);
	assert_int_equal(st.radix_max, c->p + net);
	assert_int_equal(st.net_radix_min, net);
	assert_int_equal(st.net_radix_max, net);
	assert_int_equal(st.links_switch_switch, sw * net / 2);
	assert_int_equal(st.parallel_links, bundles_par);
	assert_int_equal(st.diameter, 2 + c->ndims);
	assert_true(st.connected);
	lanes_fabric_free(f);
}

/* Seed 001 Sec. 1.5: 2048 switches, C = 8, degree 34 / 35, diameter 4 / 3. */
static void test_sfxff_presets(void **state)
{
	static const struct sfx_case one = { "sfxff preset=sfxff-1", 4, 2, 8, 2, { 8, 8 }, { 1, 1 } };
	static const struct sfx_case two = { "sfxff preset=sfxff-2", 8, 1, 8, 1, { 16 }, { 1 } };
	static const struct sfx_case one_explicit = {
		"sfxff q=4 Lsf=2 K=8x8 L=1,1 p=8", 4, 2, 8, 2, { 8, 8 }, { 1, 1 }
	};
	struct lanes_fabric *a, *b;

	(void)state;
	check_sfxff(&one, 2048, 34);
	check_sfxff(&two, 2048, 35);
	a = gen(one.spec);
	b = gen(one_explicit.spec);
	assert_int_equal(a->num_cas, 16384);
	assert_true(same_links(a, b));
	lanes_fabric_free(a);
	lanes_fabric_free(b);
}

static void test_sfxff_custom(void **state)
{
	static const struct sfx_case cases[] = {
		{ "sfxff q=3 K=3 p=1", 3, 1, 1, 1, { 3 }, { 1 } },
		{ "sfxff q=5 Lsf=2 K=2x3 L=1,2 p=2", 5, 2, 2, 2, { 2, 3 }, { 1, 2 } },
		{ "sfxff q=4 K=2x2x2 p=0", 4, 1, 0, 3, { 2, 2, 2 }, { 1, 1, 1 } },
		{ "sfxff preset=sfxff-1 p=2", 4, 2, 2, 2, { 8, 8 }, { 1, 1 } },
		{ "sfxff preset=sfxff-2 K=4 q=3", 3, 1, 8, 1, { 4 }, { 1 } },
		{ "sfxff q=3 K=3x2 L=2 p=1", 3, 1, 1, 2, { 3, 2 }, { 2, 2 } },
		{ "sfxff preset=sfxff-1 L=2", 4, 2, 8, 2, { 8, 8 }, { 2, 2 } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_sfxff(&cases[i], 0, 0);
}

/* A switch's ports: hosts, Slim Fly bundles, then each FlatFly dimension. */
static void test_sfxff_ports(void **state)
{
	struct lanes_fabric *f = gen("sfxff q=3 Lsf=2 K=3x2 L=1,2 p=1");
	unsigned planes = 6, kq = 5;

	(void)state;
	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t node = f->switches[s], v = s / planes, ff = s % planes;
		unsigned c0 = ff % 3, c1 = ff / 3, port = 2;

		for (unsigned i = 0; i < kq; i++, port += 2) { /* Slim Fly: pairs, same plane */
			uint32_t p0 = sw_of(f, lanes_fabric_port(f, node, (uint8_t)port)->peer_node);
			uint32_t p1 = sw_of(f, lanes_fabric_port(f, node, (uint8_t)(port + 1))->peer_node);

			assert_int_equal(p0, p1);
			assert_int_equal(p0 % planes, ff);
			assert_int_not_equal(p0 / planes, v);
		}
		for (unsigned o = 0; o < 3; o++) { /* dimension 1: the other coordinates, ascending */
			uint32_t peer;

			if (o == c0)
				continue;
			peer = sw_of(f, lanes_fabric_port(f, node, (uint8_t)port++)->peer_node);
			assert_int_equal(peer, v * planes + c1 * 3 + o);
		}
		for (unsigned j = 0; j < 2; j++) { /* dimension 2: one bundle of 2 */
			uint32_t peer = sw_of(f, lanes_fabric_port(f, node, (uint8_t)port++)->peer_node);

			assert_int_equal(peer, v * planes + (1 - c1) * 3 + c0);
		}
		assert_int_equal(port - 1, f->nodes[node].nports);
	}
	assert_non_null(strstr(f->nodes[f->switches[planes + 4]].desc, "sfxff-sf0.0.1-ff1.1"));
	lanes_fabric_free(f);
}

static void test_sfxff_errors(void **state)
{
	(void)state;
	expect_einval("sfxff q=6 K=4 p=1", "'q'");
	expect_einval("sfxff q=2 K=4 p=1", "'q'");
	expect_einval("sfxff K=4 p=1", "'q'");
	expect_einval("sfxff q=5 p=1", "'k'");
	expect_einval("sfxff q=5 K=4", "'p'");
	expect_einval("sfxff q=5 K=1 p=1", "'k'");
	expect_einval("sfxff q=5 K=4x4x4 L=1,2 p=1", "'L'");
	expect_einval("sfxff q=5 K=4 L=0 p=1", "'L'");
	expect_einval("sfxff q=5 K=4 Lsf=0 p=1", "'Lsf'");
	expect_einval("sfxff preset=sfxff-3", "'preset'");
	expect_einval("sfxff q=3 K=200 L=2 p=0", "'L'");     /* 403 ports */
	expect_einval("sfxff q=8 K=50x50x50 p=1", "'k'");   /* 16M switches + 16M hosts */
	expect_einval("sfxff q=3 K=2 p=1 k=2", "'k'");       /* keys are case-sensitive */
}

/* ------------------------------------------------------------- jellyfish */

static void check_jellyfish(unsigned n, unsigned r, unsigned p, unsigned seed)
{
	char spec[96];
	struct lanes_fabric *f;
	struct lanes_fabric_stats st;

	snprintf(spec, sizeof(spec), "jellyfish switches=%u degree=%u p=%u seed=%u", n, r, p, seed);
	f = gen(spec);
	st = stats_of(f);
	assert_int_equal(st.switches, n);
	assert_int_equal(st.cas, n * p);
	assert_int_equal(st.net_radix_min, r);
	assert_int_equal(st.net_radix_max, r);
	assert_int_equal(st.radix_max, r + p);
	assert_int_equal(st.links_switch_switch, n * r / 2);
	assert_int_equal(st.parallel_links, 0);
	assert_int_equal(st.self_loops, 0);
	assert_int_equal(st.components, 1);
	assert_true(st.connected);
	lanes_fabric_free(f);
}

static void test_jellyfish_regular(void **state)
{
	static const unsigned cases[][4] = {
		{ 20, 3, 2, 1 }, { 50, 4, 1, 7 },  { 100, 7, 3, 42 }, { 9, 2, 1, 3 },
		{ 5, 4, 1, 0 },  { 2, 1, 1, 0 },   { 64, 10, 0, 5 },  { 12, 11, 1, 9 },
		{ 30, 2, 1, 11 }, { 500, 5, 1, 2 }, { 7, 4, 2, 123 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (unsigned s = 0; s < 4; s++)
			check_jellyfish(cases[i][0], cases[i][1], cases[i][2], cases[i][3] + s);
}

static void test_jellyfish_seed(void **state)
{
	struct lanes_fabric *a = gen("jellyfish switches=40 degree=5 p=2 seed=17");
	struct lanes_fabric *b = gen("jellyfish switches=40 degree=5 p=2 seed=17");
	struct lanes_fabric *c = gen("jellyfish switches=40 degree=5 p=2 seed=18");
	struct lanes_fabric *d = gen("jellyfish switches=40 degree=5 p=2");
	struct lanes_fabric *e = gen("jellyfish switches=40 degree=5 p=2 seed=0");

	(void)state;
	assert_true(same_links(a, b));
	assert_false(same_links(a, c));
	assert_true(same_links(d, e)); /* the default seed is 0 */
	assert_false(same_links(a, d));
	lanes_fabric_free(a);
	lanes_fabric_free(b);
	lanes_fabric_free(c);
	lanes_fabric_free(d);
	lanes_fabric_free(e);
}

static void test_jellyfish_errors(void **state)
{
	(void)state;
	expect_einval("jellyfish switches=5 degree=3 p=1", "'degree'");
	expect_einval("jellyfish switches=5 degree=3 p=1", "'switches'");
	expect_einval("jellyfish switches=5 degree=5 p=1", "'degree'");
	expect_einval("jellyfish switches=5 degree=6 p=1", "'degree'");
	expect_einval("jellyfish switches=6 degree=0 p=1", "'degree'");
	expect_einval("jellyfish switches=1 degree=1 p=1", "'switches'");
	expect_einval("jellyfish switches=4 degree=1 p=1", "'degree'");
	expect_einval("jellyfish degree=3 p=1", "'switches'");
	expect_einval("jellyfish switches=6 p=1", "'degree'");
	expect_einval("jellyfish switches=6 degree=3", "'p'");
	expect_einval("jellyfish switches=6 degree=3 p=1 seed=-1", "'seed'");
	expect_einval("jellyfish switches=300 degree=200 p=100", "'p'");
	expect_einval("jellyfish switches=5000000 degree=4 p=3", "'switches'");
	expect_einval("jellyfish switches=6 degree=3 p=1 k=3", "'k'");
}

/* ---------------------------------------------------------------- common */

static void assert_same_fabric(const struct lanes_fabric *a, const struct lanes_fabric *b)
{
	assert_int_equal(a->num_nodes, b->num_nodes);
	assert_int_equal(a->num_switches, b->num_switches);
	assert_int_equal(a->num_port_slots, b->num_port_slots);
	for (uint32_t i = 0; i < a->num_nodes; i++) {
		assert_true(a->nodes[i].guid == b->nodes[i].guid);
		assert_int_equal(a->nodes[i].type, b->nodes[i].type);
		assert_int_equal(a->nodes[i].nports, b->nodes[i].nports);
		assert_string_equal(a->nodes[i].desc, b->nodes[i].desc);
	}
	for (uint32_t i = 0; i < a->num_port_slots; i++) {
		assert_true(a->ports[i].guid == b->ports[i].guid);
		assert_int_equal(a->ports[i].lid, b->ports[i].lid);
		assert_int_equal(a->ports[i].peer_node, b->ports[i].peer_node);
		assert_int_equal(a->ports[i].peer_port, b->ports[i].peer_port);
	}
	assert_true(same_links(a, b));
}

static const char *const specs[] = {
	"dragonfly a=4 p=2 h=2",
	"dragonfly a=4 p=2 h=2 g=6 wiring=palmtree",
	"slimfly q=7",
	"slimfly q=9 p=2",
	"sfxff q=3 K=3x2 Lsf=2 p=1",
	"jellyfish switches=30 degree=4 p=2 seed=99",
};

static void test_deterministic(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct lanes_fabric *a = gen(specs[i]), *b = gen(specs[i]);

		assert_same_fabric(a, b);
		lanes_fabric_free(a);
		lanes_fabric_free(b);
	}
}

/* Switches are added first, so they come first in node order and take the low LIDs. */
static void test_switch_lids_first(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct lanes_fabric *f = gen(specs[i]);
		uint16_t max_sw = 0, min_ca = UINT16_MAX;

		for (uint32_t n = 0; n < f->num_nodes; n++) {
			uint16_t lid = lanes_fabric_lid(f, n, is_switch(f, n) ? 0 : 1);

			assert_int_equal(is_switch(f, n), n < f->num_switches);
			if (is_switch(f, n))
				max_sw = lid > max_sw ? lid : max_sw;
			else
				min_ca = lid < min_ca ? lid : min_ca;
		}
		assert_true(max_sw < min_ca);
		lanes_fabric_free(f);
	}
}

static void test_descriptors(void **state)
{
	static const char *const names[] = { "dragonfly", "slimfly", "sfxff", "jellyfish" };

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		const struct lanes_generator *g = lanes_generator_find(names[i]);

		assert_non_null(g);
		assert_string_equal(g->name, names[i]);
		assert_true(g->summary[0] && g->usage[0] && g->source[0]);
	}
	assert_non_null(strstr(lanes_generator_find("dragonfly")->usage, "wiring=consecutive|palmtree"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dragonfly_seed000_sizes),
		cmocka_unit_test(test_dragonfly_seed000_oversubscribed),
		cmocka_unit_test(test_dragonfly_one_cable_per_pair),
		cmocka_unit_test(test_dragonfly_wiring_formulas),
		cmocka_unit_test(test_dragonfly_fewer_groups),
		cmocka_unit_test(test_dragonfly_small_g_diameter),
		cmocka_unit_test(test_dragonfly_ports),
		cmocka_unit_test(test_dragonfly_wirings_differ),
		cmocka_unit_test(test_dragonfly_errors),
		cmocka_unit_test(test_slimfly_counts),
		cmocka_unit_test(test_slimfly_larger_fields),
		cmocka_unit_test(test_slimfly_hoffman_singleton),
		cmocka_unit_test(test_slimfly_structure),
		cmocka_unit_test(test_slimfly_ports),
		cmocka_unit_test(test_slimfly_errors),
		cmocka_unit_test(test_sfxff_presets),
		cmocka_unit_test(test_sfxff_custom),
		cmocka_unit_test(test_sfxff_ports),
		cmocka_unit_test(test_sfxff_errors),
		cmocka_unit_test(test_jellyfish_regular),
		cmocka_unit_test(test_jellyfish_seed),
		cmocka_unit_test(test_jellyfish_errors),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_switch_lids_first),
		cmocka_unit_test(test_descriptors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
