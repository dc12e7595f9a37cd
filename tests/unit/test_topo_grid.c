/*
 * test_topo_grid.c - the hyperx, torus, mesh, hypercube, fattree and xgft
 * generators.
 *
 * Expected values come from the closed formulas of the constructions (and
 * the reference setups of seed 001 section 1), computed here from the
 * parameters, never from the generators' code. The port checks re-derive
 * every switch port's peer from the conventions written in
 * docs/topologies-grid-tree.md.
 */
#include <stdint.h>

#include "testutil.h"
#include "topo/gen.h"

#define MAXD 16

/* ---------------------------------------------------------------- helpers */

static uint64_t prod(const uint32_t *v, size_t n)
{
	uint64_t r = 1;

	for (size_t i = 0; i < n; i++)
		r *= v[i];
	return r;
}

static uint64_t ipow(uint64_t b, unsigned e)
{
	uint64_t r = 1;

	while (e--)
		r *= b;
	return r;
}

static uint32_t peer_node(const struct lanes_fabric *f, uint32_t node, unsigned port)
{
	return lanes_fabric_port(f, node, (uint8_t)port)->peer_node;
}

static unsigned peer_port(const struct lanes_fabric *f, uint32_t node, unsigned port)
{
	return lanes_fabric_port(f, node, (uint8_t)port)->peer_port;
}

/* Switch s has coordinates c (dimension 0 fastest). */
static uint32_t index_of(const uint32_t *k, size_t n, const uint32_t *c)
{
	uint32_t s = 0;

	for (size_t i = n; i-- > 0;)
		s = s * k[i] + c[i];
	return s;
}

static void coords_of(const uint32_t *k, size_t n, uint32_t s, uint32_t *c)
{
	for (size_t i = 0; i < n; i++) {
		c[i] = s % k[i];
		s /= k[i];
	}
}

/* Every pair of nodes and ports agrees: same nodes, descriptions, GUIDs, cables, LIDs. */
static void assert_same_fabric(const struct lanes_fabric *a, const struct lanes_fabric *b)
{
	assert_int_equal(a->num_nodes, b->num_nodes);
	assert_int_equal(a->num_links, b->num_links);
	for (uint32_t v = 0; v < a->num_nodes; v++) {
		assert_int_equal(a->nodes[v].type, b->nodes[v].type);
		assert_int_equal(a->nodes[v].nports, b->nodes[v].nports);
		assert_true(a->nodes[v].guid == b->nodes[v].guid);
		assert_string_equal(a->nodes[v].desc, b->nodes[v].desc);
		for (unsigned q = 0; q <= a->nodes[v].nports; q++) {
			const struct lanes_port *x = lanes_fabric_port(a, v, (uint8_t)q);
			const struct lanes_port *y = lanes_fabric_port(b, v, (uint8_t)q);

			assert_int_equal(x->peer_node, y->peer_node);
			assert_int_equal(x->peer_port, y->peer_port);
			assert_int_equal(x->lid, y->lid);
			assert_true(x->guid == y->guid);
		}
	}
}

/* Hosts of a coordinate generator: host h on switch h / p, port h % p + 1. */
static void assert_grid_hosts(const struct lanes_fabric *f, uint32_t switches, unsigned p)
{
	assert_int_equal(f->num_cas, switches * p);
	for (uint32_t s = 0; s < switches; s++) {
		assert_int_equal(f->nodes[s].type, LANES_NODE_SWITCH);
		for (unsigned q = 1; q <= p; q++) {
			uint32_t h = switches + s * p + (q - 1);

			assert_int_equal(peer_node(f, s, q), h);
			assert_int_equal(peer_port(f, s, q), 1);
			assert_int_equal(f->nodes[h].type, LANES_NODE_CA);
		}
	}
}

/* ------------------------------------------------ coordinate generators */

enum grid_kind { TORUS, MESH, HYPERX };

struct grid_case {
	const char *spec;
	enum grid_kind kind;
	size_t n;
	uint32_t k[MAXD], L[MAXD];
	unsigned p;
};

/* Ports of dimension i's block on every switch (the documented widths). */
static unsigned block_width(const struct grid_case *c, size_t i)
{
	if (c->kind == HYPERX)
		return c->L[i] * (c->k[i] - 1);
	if (c->k[i] == 1)
		return 0;
	if (c->kind == TORUS && c->k[i] == 2)
		return c->L[i];
	return 2 * c->L[i];
}

/*
 * The documented peer of port q of the switch at coordinates c: *t gets the
 * peer's coordinates and the function its port, or 0 when q is uncabled.
 */
static unsigned expected_peer(const struct grid_case *c, const uint32_t *x, unsigned q,
			      uint32_t *t)
{
	unsigned base = c->p + 1;
	size_t i = 0;

	while (q >= base + block_width(c, i))
		base += block_width(c, i++);
	memcpy(t, x, sizeof(*t) * c->n);
	unsigned off = q - base, L = c->L[i], k = c->k[i];

	if (c->kind == HYPERX) {
		unsigned slot = off / L, lane = off % L;
		uint32_t j = slot < x[i] ? slot : slot + 1;

		t[i] = j;
		return base + (x[i] < j ? x[i] : x[i] - 1) * L + lane;
	}
	if (c->kind == TORUS && k == 2) {
		t[i] = 1 - x[i];
		return q;
	}
	if (off < L) { /* towards +1 */
		if (c->kind == MESH && x[i] == k - 1)
			return 0;
		t[i] = (x[i] + 1) % k;
		return base + L + off;
	}
	if (c->kind == MESH && x[i] == 0)
		return 0;
	t[i] = (x[i] + k - 1) % k;
	return base + off - L;
}

static void check_grid_ports(const struct lanes_fabric *f, const struct grid_case *c)
{
	uint32_t S = (uint32_t)prod(c->k, c->n), x[MAXD], t[MAXD];
	unsigned nports = c->p;

	for (size_t i = 0; i < c->n; i++)
		nports += block_width(c, i);
	for (uint32_t s = 0; s < S; s++) {
		assert_int_equal(f->nodes[s].nports, nports);
		coords_of(c->k, c->n, s, x);
		for (unsigned q = c->p + 1; q <= nports; q++) {
			unsigned pq = expected_peer(c, x, q, t);

			if (!pq) {
				assert_int_equal(peer_node(f, s, q), LANES_NONE);
				continue;
			}
			assert_int_equal(peer_node(f, s, q), index_of(c->k, c->n, t));
			assert_int_equal(peer_port(f, s, q), pq);
		}
	}
	assert_grid_hosts(f, S, c->p);
}

/* The closed formulas of each construction. */
static void check_grid_formulas(const struct lanes_fabric *f, const struct grid_case *c)
{
	struct lanes_fabric_stats st = stats_of(f);
	uint64_t S = prod(c->k, c->n), cables = 0, parallel = 0, diameter = 0;
	unsigned rmin = c->p, rmax = c->p;

	for (size_t i = 0; i < c->n; i++) {
		uint64_t k = c->k[i], L = c->L[i];

		if (c->kind == HYPERX) {
			cables += S * L * (k - 1) / 2;
			parallel += S * (L - 1) * (k - 1) / 2;
			diameter += k > 1;
			rmin += (unsigned)(L * (k - 1));
			rmax += (unsigned)(L * (k - 1));
		} else if (c->kind == TORUS) {
			cables += k >= 3 ? S * L : k == 2 ? S / 2 * L : 0;
			parallel += k >= 3 ? S * (L - 1) : k == 2 ? S / 2 * (L - 1) : 0;
			diameter += k / 2;
			rmin += block_width(c, i);
			rmax += block_width(c, i);
		} else {
			cables += S / k * (k - 1) * L;
			parallel += S / k * (k - 1) * (L - 1);
			diameter += k - 1;
			rmin += k >= 2 ? (unsigned)L : 0;
			rmax += k >= 3 ? (unsigned)(2 * L) : k == 2 ? (unsigned)L : 0;
		}
	}
	assert_int_equal(st.switches, S);
	assert_int_equal(st.cas, S * c->p);
	assert_int_equal(st.links_switch_switch, cables);
	assert_int_equal(st.links_switch_ca, S * c->p);
	assert_int_equal(st.parallel_links, parallel);
	assert_int_equal(st.diameter, diameter);
	assert_int_equal(st.radix_min, rmin);
	assert_int_equal(st.radix_max, rmax);
	assert_int_equal(st.hosts_max, c->p);
	assert_int_equal(st.components, 1);
	assert_int_equal(st.self_loops, 0);
}

static const struct grid_case grid_cases[] = {
	{ "hyperx K=4 p=2", HYPERX, 1, { 4 }, { 1 }, 2 },
	{ "hyperx K=3x5 L=2 p=1", HYPERX, 2, { 3, 5 }, { 2, 2 }, 1 },
	{ "hyperx K=4x8 L=2,1 p=3", HYPERX, 2, { 4, 8 }, { 2, 1 }, 3 },
	{ "hyperx K=2x3x4 L=1,2,3 p=0", HYPERX, 3, { 2, 3, 4 }, { 1, 2, 3 }, 0 },
	{ "hyperx K=5x1x3 p=2", HYPERX, 3, { 5, 1, 3 }, { 1, 1, 1 }, 2 },
	{ "torus k=4x4x4 p=2", TORUS, 3, { 4, 4, 4 }, { 1, 1, 1 }, 2 },
	{ "torus k=5 p=1", TORUS, 1, { 5 }, { 1 }, 1 },
	{ "torus k=3 p=1 L=2", TORUS, 1, { 3 }, { 2 }, 1 },
	{ "torus k=2x3 L=2 p=1", TORUS, 2, { 2, 3 }, { 2, 2 }, 1 },
	{ "torus k=3x2x4 L=1,3,2 p=2", TORUS, 3, { 3, 2, 4 }, { 1, 3, 2 }, 2 },
	{ "torus k=6x5x1 p=2", TORUS, 3, { 6, 5, 1 }, { 1, 1, 1 }, 2 },
	{ "torus k=2x2 p=0", TORUS, 2, { 2, 2 }, { 1, 1 }, 0 },
	{ "mesh k=4x4 p=1", MESH, 2, { 4, 4 }, { 1, 1 }, 1 },
	{ "mesh k=2x3x4 L=2 p=1", MESH, 3, { 2, 3, 4 }, { 2, 2, 2 }, 1 },
	{ "mesh k=5 p=0", MESH, 1, { 5 }, { 1 }, 0 },
	{ "mesh k=3x1x2 L=1,4,3 p=2", MESH, 3, { 3, 1, 2 }, { 1, 4, 3 }, 2 },
};

#define NUM_GRID_CASES (sizeof(grid_cases) / sizeof(grid_cases[0]))

static void test_grid_formulas(void **state)
{
	(void)state;
	for (size_t i = 0; i < NUM_GRID_CASES; i++) {
		struct lanes_fabric *f = gen(grid_cases[i].spec);

		check_grid_formulas(f, &grid_cases[i]);
		lanes_fabric_free(f);
	}
}

static void test_grid_ports(void **state)
{
	(void)state;
	for (size_t i = 0; i < NUM_GRID_CASES; i++) {
		struct lanes_fabric *f = gen(grid_cases[i].spec);

		check_grid_ports(f, &grid_cases[i]);
		lanes_fabric_free(f);
	}
}

/* A few ports worked out by hand from the documented conventions. */
static void test_torus_ports_by_hand(void **state)
{
	struct lanes_fabric *f = gen("torus k=4x4x4 p=2");

	(void)state;
	/* (1,2,3) = 1 + 4*2 + 16*3 = 57: x+ is port 3, x- 4, y+ 5, y- 6, z+ 7, z- 8 */
	assert_non_null(strstr(f->nodes[57].desc, "torus-x1-y2-z3:"));
	assert_int_equal(peer_node(f, 57, 3), 58);
	assert_int_equal(peer_port(f, 57, 3), 4);
	assert_int_equal(peer_node(f, 57, 6), 53);
	assert_int_equal(peer_port(f, 57, 6), 5);
	assert_int_equal(peer_node(f, 57, 7), 9); /* z wraps: (1,2,0) */
	assert_int_equal(peer_port(f, 57, 7), 8);
	assert_int_equal(peer_node(f, 3, 3), 0); /* (3,0,0) x+ -> (0,0,0) */
	lanes_fabric_free(f);

	/* radix-2 dimension: one set of L cables, same port on both ends */
	f = gen("torus k=2x3 L=2 p=1");
	assert_int_equal(f->nodes[0].nports, 1 + 2 + 4);
	assert_int_equal(peer_node(f, 0, 2), 1);
	assert_int_equal(peer_port(f, 0, 2), 2);
	assert_int_equal(peer_port(f, 0, 3), 3);
	lanes_fabric_free(f);
}

static void test_mesh_hypercube_ports_by_hand(void **state)
{
	struct lanes_fabric *f;

	(void)state;
	/* mesh: the +1 ports of the last switch and -1 ports of the first are open */
	f = gen("mesh k=3x2 p=1");
	assert_int_equal(f->nodes[0].nports, 1 + 2 + 2);
	assert_int_equal(peer_node(f, 0, 3), LANES_NONE);
	assert_int_equal(peer_node(f, 2, 2), LANES_NONE);
	assert_int_equal(peer_node(f, 0, 2), 1);
	assert_int_equal(peer_port(f, 0, 2), 3);
	assert_int_equal(peer_node(f, 0, 4), 3); /* y+ of (0,0) is (0,1), its y- port 5 */
	assert_int_equal(peer_port(f, 0, 4), 5);
	lanes_fabric_free(f);

	/* hypercube: switch 5 = 101b, dimension 1 owns ports 4,5 (p=1, L=2) -> 7 = 111b */
	f = gen("hypercube n=3 L=2 p=1");
	assert_int_equal(peer_node(f, 5, 4), 7);
	assert_int_equal(peer_port(f, 5, 4), 4);
	assert_int_equal(peer_port(f, 5, 5), 5);
	assert_int_equal(peer_node(f, 5, 2), 4); /* dimension 0, ports 2,3 */
	assert_int_equal(peer_node(f, 5, 6), 1); /* dimension 2, ports 6,7 */
	lanes_fabric_free(f);
}

static void test_hyperx_ports_by_hand(void **state)
{
	/* K=4x8 L=2,1 p=1: (2,5) = 22; x block 2..7, y block 8..14 */
	struct lanes_fabric *f = gen("hyperx K=4x8 L=2,1 p=1");

	(void)state;
	assert_non_null(strstr(f->nodes[22].desc, "hyperx-x2-y5:"));
	assert_int_equal(peer_node(f, 22, 2), 20); /* x=0, lane 0 */
	assert_int_equal(peer_port(f, 22, 2), 2 + 1 * 2);
	assert_int_equal(peer_node(f, 22, 5), 21); /* x=1, lane 1 */
	assert_int_equal(peer_port(f, 22, 5), 2 + 1 * 2 + 1);
	assert_int_equal(peer_node(f, 22, 6), 23); /* x=3 */
	assert_int_equal(peer_port(f, 22, 6), 2 + 2 * 2);
	assert_int_equal(peer_node(f, 22, 14), 30); /* y=7: slot 6 */
	assert_int_equal(peer_port(f, 22, 14), 8 + 5);
	assert_int_equal(peer_node(f, 22, 8), 2); /* y=0: slot 0 */
	assert_int_equal(peer_port(f, 22, 8), 8 + 4);
	lanes_fabric_free(f);
}

/* ------------------------------------------------ seed 001 section 1 */

static void expect_reference(const char *spec, unsigned radix, unsigned diameter)
{
	struct lanes_fabric *f = gen(spec);
	struct lanes_fabric_stats st = stats_of(f);

	assert_int_equal(st.switches, 2048);
	assert_int_equal(st.cas, 16384);
	assert_int_equal(st.hosts_min, 8);
	assert_int_equal(st.hosts_max, 8);
	assert_int_equal(st.radix_min, radix);
	assert_int_equal(st.radix_max, radix);
	assert_int_equal(st.diameter, diameter);
	assert_true(st.connected);
	lanes_fabric_free(f);
}

static void test_seed001_reference_setups(void **state)
{
	(void)state;
	/* 1.2 FlatFly 4x8x8x8, widths 2,1,1,1: radix 35, diameter 4 */
	expect_reference("hyperx K=4x8x8x8 L=2,1,1,1 p=8", 35, 4);
	/* 1.1 tori: 8x16x16 widths 3,5,5 (degree 34, diameter 20) and
	 * 4x8x8x8 widths 2,4,4,4 (degree 36, diameter 14) */
	expect_reference("torus k=8x16x16 L=3,5,5 p=8", 34, 20);
	expect_reference("torus k=4x8x8x8 L=2,4,4,4 p=8", 36, 14);
	/* 1.3 hypercube: 11D with double links, radix 30, diameter 11 */
	expect_reference("hypercube n=11 L=2 p=8", 30, 11);
}

/* ------------------------------------------------ hypercube */

static void test_hypercube(void **state)
{
	static const struct {
		unsigned n, p, L;
	} cases[] = { { 1, 1, 1 }, { 2, 0, 1 }, { 3, 2, 2 }, { 4, 1, 1 }, { 6, 3, 3 } };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char spec[64];
		struct lanes_fabric *f;
		struct lanes_fabric_stats st;
		unsigned n = cases[i].n, L = cases[i].L, p = cases[i].p;

		snprintf(spec, sizeof(spec), "hypercube n=%u p=%u L=%u", n, p, L);
		f = gen(spec);
		st = stats_of(f);
		assert_int_equal(st.switches, 1u << n);
		assert_int_equal(st.cas, (1u << n) * p);
		assert_int_equal(st.links_switch_switch, n * (1u << (n - 1)) * L);
		assert_int_equal(st.diameter, n);
		assert_int_equal(st.radix_min, p + n * L);
		assert_int_equal(st.radix_max, p + n * L);
		assert_int_equal(st.ports_max, p + n * L);
		lanes_fabric_free(f);
	}
}

/* The hypercube is the radix-2 torus, port for port (labels aside). */
static void test_hypercube_is_torus(void **state)
{
	struct lanes_fabric *h = gen("hypercube n=3 p=2 L=2");
	struct lanes_fabric *t = gen("torus k=2x2x2 p=2 L=2");

	(void)state;
	assert_int_equal(h->num_nodes, t->num_nodes);
	for (uint32_t v = 0; v < h->num_nodes; v++) {
		assert_int_equal(h->nodes[v].nports, t->nodes[v].nports);
		for (unsigned q = 1; q <= h->nodes[v].nports; q++) {
			assert_int_equal(peer_node(h, v, q), peer_node(t, v, q));
			assert_int_equal(peer_port(h, v, q), peer_port(t, v, q));
		}
	}
	assert_non_null(strstr(h->nodes[5].desc, "hypercube-x1-y0-z1:"));
	lanes_fabric_free(h);
	lanes_fabric_free(t);
}

/* ------------------------------------------------ fat trees */

/* Switches whose description carries "<kind>-l<level>-". */
static unsigned switches_at_level(const struct lanes_fabric *f, const char *kind, unsigned level)
{
	char needle[64];
	unsigned count = 0;

	snprintf(needle, sizeof(needle), ";%s-l%u-", kind, level);
	for (uint32_t s = 0; s < f->num_switches; s++)
		count += strstr(f->nodes[f->switches[s]].desc, needle) != NULL;
	return count;
}

static void test_fattree(void **state)
{
	static const struct {
		unsigned k, n;
	} cases[] = { { 2, 1 }, { 2, 3 }, { 4, 2 }, { 4, 3 }, { 3, 4 }, { 2, 5 } };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned k = cases[i].k, n = cases[i].n;
		uint64_t per = ipow(k, n - 1);
		char spec[64];
		struct lanes_fabric *f;
		struct lanes_fabric_stats st;

		snprintf(spec, sizeof(spec), "fattree k=%u n=%u", k, n);
		f = gen(spec);
		st = stats_of(f);
		assert_int_equal(st.switches, n * per);
		assert_int_equal(st.cas, ipow(k, n));
		assert_int_equal(st.links_switch_switch, (n - 1) * ipow(k, n));
		assert_int_equal(st.links_switch_ca, ipow(k, n));
		assert_int_equal(st.diameter, 2 * (n - 1));
		assert_int_equal(st.ports_max, 2 * k);
		assert_int_equal(st.radix_max, n > 1 ? 2 * k : k);
		assert_int_equal(st.hosts_max, k);
		assert_int_equal(st.parallel_links, 0);
		assert_true(st.connected);
		for (unsigned l = 1; l <= n; l++)
			assert_int_equal(switches_at_level(f, "fattree", l), per);
		/* leaves are the first switches, k hosts each on ports 1..k */
		for (uint32_t s = 0; s < per; s++)
			for (unsigned q = 1; q <= k; q++)
				assert_int_equal(f->nodes[peer_node(f, s, q)].type, LANES_NODE_CA);
		lanes_fabric_free(f);
	}
}

/*
 * Petrini-Vanneschi adjacency, checked from the labels: <w,s> and <w',s+1>
 * are cabled iff w and w' agree on every digit but digit s; here with
 * level = n - s and w_0 the most significant base-k digit of the index.
 */
static void test_fattree_ports(void **state)
{
	const unsigned k = 3, n = 3;
	const uint32_t per = 9;
	struct lanes_fabric *f = gen("fattree k=3 n=3");

	(void)state;
	for (unsigned level = 1; level < n; level++) {
		unsigned s = n - level, d = s - 1; /* the digit that differs going up */
		uint32_t wt = (uint32_t)ipow(k, n - 2 - d);

		for (uint32_t w = 0; w < per; w++) {
			uint32_t node = (level - 1) * per + w, digit = w / wt % k;

			for (unsigned j = 0; j < k; j++) {
				uint32_t parent = w - digit * wt + j * wt;

				uint32_t up = k + 1 + j;

				assert_int_equal(peer_node(f, node, up), level * per + parent);
				assert_int_equal(peer_port(f, node, up), digit + 1);
			}
		}
	}
	/* roots: up ports unused */
	for (uint32_t w = 0; w < per; w++)
		for (unsigned q = k + 1; q <= 2 * k; q++)
			assert_int_equal(peer_node(f, 2 * per + w, q), LANES_NONE);
	assert_non_null(strstr(f->nodes[per + 4].desc, "fattree-l2-i4:"));
	lanes_fabric_free(f);
}

struct xgft_case {
	const char *spec;
	unsigned h;
	uint32_t m[MAXD + 2], w[MAXD + 2]; /* 1-based */
};

/* Nodes at level i: prod_{j>i} m_j * prod_{j<=i} w_j. */
static uint64_t xgft_count(const struct xgft_case *c, unsigned i)
{
	uint64_t r = 1;

	for (unsigned j = 1; j <= c->h; j++)
		r *= j > i ? c->m[j] : c->w[j];
	return r;
}

/* Radix of digit j at level i. */
static uint32_t xgft_radix(const struct xgft_case *c, unsigned i, unsigned j)
{
	return j > i ? c->m[j] : c->w[j];
}

/* Parent of level-i node x whose digit i+1 is b (by digit tuples). */
static uint64_t xgft_parent(const struct xgft_case *c, unsigned i, uint64_t x, uint32_t b,
			    uint32_t *a)
{
	uint32_t d[MAXD + 2] = { 0 };
	uint64_t r = 0;

	for (unsigned j = 1; j <= c->h; j++) {
		d[j] = (uint32_t)(x % xgft_radix(c, i, j));
		x /= xgft_radix(c, i, j);
	}
	*a = d[i + 1];
	d[i + 1] = b;
	for (unsigned j = c->h; j >= 1; j--)
		r = r * xgft_radix(c, i + 1, j) + d[j];
	return r;
}

static const struct xgft_case xgft_cases[] = {
	{ "xgft h=1 m=5 w=1", 1, { 0, 5 }, { 0, 1 } },
	{ "xgft h=2 m=4,4 w=1,4", 2, { 0, 4, 4 }, { 0, 1, 4 } },
	{ "xgft h=3 m=2,3,4 w=1,2,3", 3, { 0, 2, 3, 4 }, { 0, 1, 2, 3 } },
	{ "xgft h=3 m=4,4,4 w=1,4,4", 3, { 0, 4, 4, 4 }, { 0, 1, 4, 4 } },
	{ "xgft h=2 m=3,2 w=2,2", 2, { 0, 3, 2 }, { 0, 2, 2 } },
	{ "xgft h=3 m=2,2,3 w=3,1,2", 3, { 0, 2, 2, 3 }, { 0, 3, 1, 2 } },
};

static void check_xgft_counts(const struct lanes_fabric *f, const struct xgft_case *c)
{
	struct lanes_fabric_stats st = stats_of(f);
	uint64_t switches = 0, cables = 0;
	uint32_t node = 0;

	for (unsigned i = 1; i <= c->h; i++) {
		uint64_t n = xgft_count(c, i);

		switches += n;
		cables += i < c->h ? n * c->w[i + 1] : 0;
		assert_int_equal(switches_at_level(f, "xgft", i), n);
		for (uint64_t s = 0; s < n; s++, node++) { /* level by level, in index order */
			char label[64];
			unsigned up = i < c->h ? c->w[i + 1] : 0;

			snprintf(label, sizeof(label), ";xgft-l%u-i%u:", i, (unsigned)s);
			assert_non_null(strstr(f->nodes[node].desc, label));
			assert_int_equal(f->nodes[node].nports, c->m[i] + up);
		}
	}
	assert_int_equal(st.switches, switches);
	assert_int_equal(st.cas, xgft_count(c, 0));
	assert_int_equal(st.links_switch_switch, cables);
	assert_int_equal(st.links_switch_ca, xgft_count(c, 0) * c->w[1]);
	assert_int_equal(st.components, c->w[1]); /* digit 1 never changes between switches */
	assert_int_equal(st.diameter, 2 * (c->h - 1));
}

static void check_xgft_ports(const struct lanes_fabric *f, const struct xgft_case *c)
{
	uint32_t first = 0, hosts = (uint32_t)f->num_switches;

	for (unsigned i = 1; i < c->h; i++) {
		uint32_t next = first + (uint32_t)xgft_count(c, i);

		for (uint32_t s = 0; s < xgft_count(c, i); s++)
			for (uint32_t b = 0; b < c->w[i + 1]; b++) {
				uint32_t a;
				uint64_t parent = xgft_parent(c, i, s, b, &a);

				unsigned q = c->m[i] + 1 + b;

				assert_int_equal(peer_node(f, first + s, q), next + parent);
				assert_int_equal(peer_port(f, first + s, q), a + 1);
			}
		first = next;
	}
	for (uint32_t t = 0; t < xgft_count(c, 0); t++) {
		assert_int_equal(f->nodes[hosts + t].nports, c->w[1]);
		for (uint32_t b = 0; b < c->w[1]; b++) {
			uint32_t a;
			uint64_t leaf = xgft_parent(c, 0, t, b, &a);

			assert_int_equal(peer_node(f, hosts + t, b + 1), leaf);
			assert_int_equal(peer_port(f, hosts + t, b + 1), a + 1);
		}
	}
}

static void test_xgft(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(xgft_cases) / sizeof(xgft_cases[0]); i++) {
		struct lanes_fabric *f = gen(xgft_cases[i].spec);

		check_xgft_counts(f, &xgft_cases[i]);
		check_xgft_ports(f, &xgft_cases[i]);
		lanes_fabric_free(f);
	}
}

/* Multi-port hosts: every node and CA port GUID distinct, one LID per cabled port. */
static void test_xgft_multiport_hosts(void **state)
{
	struct lanes_fabric *f = gen("xgft h=2 m=3,2 w=4,2");
	uint32_t S = f->num_switches;
	uint64_t guids[64];
	size_t n = 0;

	(void)state;
	assert_int_equal(S, 16);
	assert_int_equal(f->num_cas, 6);
	for (uint32_t v = 0; v < f->num_nodes; v++) {
		guids[n++] = f->nodes[v].guid;
		for (unsigned q = 1; v >= S && q <= 4; q++) {
			assert_true(lanes_fabric_lid(f, v, (uint8_t)q) != 0);
			guids[n++] = lanes_fabric_port(f, v, (uint8_t)q)->guid;
		}
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			assert_true(guids[i] != guids[j]);
	assert_int_equal(f->max_lid, S + 6 * 4);
	lanes_fabric_free(f);
}

/* "xgft h=n m=k,..,k w=1,k,..,k" */
static void xgft_spec_of_tree(unsigned k, unsigned n, char *spec, size_t size)
{
	char m[64] = "", w[64] = "";

	for (unsigned l = 1; l <= n; l++) {
		snprintf(m + strlen(m), sizeof(m) - strlen(m), "%s%u", l > 1 ? "," : "", k);
		snprintf(w + strlen(w), sizeof(w) - strlen(w), "%s%u", l > 1 ? "," : "",
			 l == 1 ? 1 : k);
	}
	snprintf(spec, size, "xgft h=%u m=%s w=%s", n, m, w);
}

/* k-ary n-tree == XGFT(n; k,..,k; 1,k,..,k): counts, and node for node. */
static void test_fattree_is_xgft(void **state)
{
	static const struct {
		unsigned k, n;
	} cases[] = { { 2, 3 }, { 3, 3 }, { 4, 2 }, { 2, 4 } };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned k = cases[i].k, n = cases[i].n;
		char spec[128];
		struct lanes_fabric *a, *b;
		struct lanes_fabric_stats sa, sb;

		snprintf(spec, sizeof(spec), "fattree k=%u n=%u", k, n);
		a = gen(spec);
		xgft_spec_of_tree(k, n, spec, sizeof(spec));
		b = gen(spec);
		sa = stats_of(a);
		sb = stats_of(b);
		assert_int_equal(sa.switches, sb.switches);
		assert_int_equal(sa.cas, sb.cas);
		assert_int_equal(sa.links_switch_switch, sb.links_switch_switch);
		assert_int_equal(sa.links_switch_ca, sb.links_switch_ca);
		assert_int_equal(sa.diameter, sb.diameter);
		for (unsigned l = 1; l <= n; l++)
			assert_int_equal(switches_at_level(a, "fattree", l),
					 switches_at_level(b, "xgft", l));
		assert_int_equal(a->num_nodes, b->num_nodes);
		for (uint32_t v = 0; v < b->num_nodes; v++)
			for (unsigned q = 1; q <= b->nodes[v].nports; q++) {
				assert_int_equal(peer_node(a, v, q), peer_node(b, v, q));
				assert_int_equal(peer_port(a, v, q), peer_port(b, v, q));
			}
		lanes_fabric_free(a);
		lanes_fabric_free(b);
	}
}

/* ------------------------------------------------ errors, determinism */

/* A bad spec and what its message must name. */
static const struct {
	const char *spec, *needle;
} bad_cases[] = {
	{ "hyperx p=1", "'k'" },
	{ "hyperx K=4x0 p=1", "'k'" },
	{ "hyperx K=4x4 L=1,2,3 p=1", "'L'" },
	{ "hyperx K=4x4 L=0 p=1", "'L'" },
	{ "hyperx K=4x4", "'p'" },
	{ "hyperx K=4x4 p=1 q=2", "'q'" },
	{ "hyperx K=128x128 p=1", "L_i * (K_i - 1)" },
	{ "hyperx K=16x16x16x16x16x16 p=0", "k=16x16x16x16x16x16" },
	{ "torus k=4x4", "'p'" },
	{ "torus p=1", "'k'" },
	{ "torus k=0 p=1", "'k'" },
	{ "torus k=4x4 p=1 L=2,2,2", "'L'" },
	{ "torus k=4 p=300", "'p'" },
	{ "torus k=4 p=250 L=3", "256 ports" },
	{ "torus k=1 p=0", "0 ports" },
	{ "torus k=5000x5000 p=0", "k=5000x5000 p=0" },
	{ "torus k=4 p=1 x=1", "'x'" },
	{ "mesh k=4x4 p=1 L=0", "'L'" },
	{ "mesh k=4xx4 p=1", "'k'" },
	{ "mesh k=4x4 p=1 n=2", "'n'" },
	{ "hypercube n=0 p=1", "'n'" },
	{ "hypercube n=17 p=1", "'n'" },
	{ "hypercube n=3 p=1 L=1,2", "'L'" },
	{ "hypercube n=3", "'p'" },
	{ "hypercube n=3 p=1 k=2", "'k'" },
	{ "fattree k=1 n=2", "'k'" },
	{ "fattree k=4 n=0", "'n'" },
	{ "fattree k=4", "'n'" },
	{ "fattree k=128 n=2", "k=128" },
	{ "fattree k=64 n=5", "k=64 n=5" },
	{ "fattree k=4 n=2 p=2", "'p'" },
	{ "xgft m=4,4 w=1,4", "'h'" },
	{ "xgft h=0 m=4 w=1", "'h'" },
	{ "xgft h=2 m=4 w=1,4", "'m'" },
	{ "xgft h=2 m=4,4 w=1", "'w'" },
	{ "xgft h=2 m=4,0 w=1,4", "'m'" },
	{ "xgft h=2 m=4,4", "'w'" },
	{ "xgft h=2 m=200,4 w=1,100", "m_1 + w_2" },
	{ "xgft h=4 m=70,70,70,70 w=1,70,70,70", "LIDs" },
	{ "xgft h=2 m=4,4 w=1,4 k=2", "'k'" },
};

static void test_bad_parameters(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		struct lanes_error err = gen_error(bad_cases[i].spec);

		assert_int_equal(err.code, LANES_EINVAL);
		if (!strstr(err.message, bad_cases[i].needle))
			fail_msg("%s: '%s' does not name %s", bad_cases[i].spec, err.message,
				 bad_cases[i].needle);
	}
}

/*
 * Keys are read whatever their case (docs/topologies-grid-tree.md): one
 * spelling per idea across generators, k= for dimension sizes, with the
 * other case still read; the same key in both cases is given twice.
 */
static void test_keys_any_case(void **state)
{
	static const char *const pairs[][2] = {
		{ "hyperx k=4x3 p=2 L=2,1", "hyperx K=4x3 P=2 l=2,1" },
		{ "torus k=4x4 p=1", "torus K=4x4 p=1" },
		{ "sfxff q=3 k=2 p=1", "sfxff Q=3 K=2 p=1" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		struct lanes_fabric *a = gen(pairs[i][0]), *b = gen(pairs[i][1]);

		assert_same_fabric(a, b);
		lanes_fabric_free(a);
		lanes_fabric_free(b);
	}
	struct lanes_error err = gen_error("torus k=4 K=4 p=1");

	assert_non_null(strstr(err.message, "given twice"));
}

/*
 * Unknown keys are refused before anything is generated: the spec's other
 * parameters are refused by the generator (or would build a 16M-switch
 * torus), so only an early check can report the typo.
 */
static void test_unknown_keys_before_generating(void **state)
{
	static const struct {
		const char *spec, *key;
	} cases[] = {
		{ "torus k=4 p=0 L=0 hh=1", "'hh'" },
		{ "torus k=4000x4000 p=0 hh=1", "'hh'" },
		{ "hyperx K=4x4 p=1 L0=2", "'L0'" }, /* usage shows "L=N|L0,L1,..." */
		{ "hypercube n=0 p=1 nn=1", "'nn'" },
		{ "xgft h=0 m=4 w=1 M1=2", "'M1'" },
		{ "fattree k=1 n=2 k2=1", "'k2'" },
		{ "mesh k=0 p=1 wrap=1", "'wrap'" },
		{ "dragonfly a=4 p=2 h=0 hh=1", "'hh'" },
		{ "slimfly q=6 qq=5", "'qq'" },
		{ "sfxff preset=sfxff-9 t=1", "'t'" }, /* "preset=" ends in t= */
		{ "jellyfish switches=1 degree=2 p=1 Seeds=1", "'Seeds'" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lanes_error err = gen_error(cases[i].spec);

		if (!strstr(err.message, "unknown parameter") || !strstr(err.message, cases[i].key))
			fail_msg("%s: '%s' does not refuse %s", cases[i].spec, err.message,
				 cases[i].key);
	}
}

/*
 * Generated switch and host GUIDs never meet, however large the fabric: the
 * 6,291,456th switch used to get the first host's GUID. Counters are set
 * directly to reach those sizes without building millions of nodes.
 */
static void test_guid_blocks_never_meet(void **state)
{
	struct lanes_builder *b;
	struct lanes_fabric *f;
	struct lanes_error err;
	struct gen g;
	uint32_t node[6];

	(void)state;
	assert_int_equal(lanes_builder_new(&b, &err), 0);
	lanes_gen_init(&g, b, "t");
	g.switches = (uint32_t)(GEN_HOST_GUID_BASE - GEN_SWITCH_GUID_BASE) - 1;
	assert_int_equal(lanes_gen_switch(&g, 4, "a", &node[0], &err), 0);
	assert_int_equal(lanes_gen_switch(&g, 4, "b", &node[1], &err), 0);
	assert_int_equal(lanes_gen_host(&g, 1, &node[2], &err), 0);
	g.host_guid = GEN_HOST_GUID_SPAN - 8; /* the last slots of the host block */
	assert_int_equal(lanes_gen_host(&g, 2, &node[3], &err), 0);
	assert_int_equal(lanes_gen_host(&g, 3, &node[4], &err), 0);
	assert_int_equal(lanes_gen_host(&g, 1, &node[5], &err), LANES_EINVAL);
	g.switches = LANES_LID_MAX - 1; /* the last switch a fabric can hold */
	assert_int_equal(lanes_gen_switch(&g, 4, "c", &node[5], &err), 0);
	assert_int_equal(lanes_builder_finish(b, &f, &err), 0);
	assert_true(f->nodes[node[0]].guid == 0x0002c90300ffffffULL);
	assert_true(f->nodes[node[1]].guid == 0x0002c90305000000ULL);
	assert_true(f->nodes[node[2]].guid == 0x0002c90301000000ULL);
	assert_true(f->nodes[node[3]].guid == 0x0002c90304fffff8ULL);
	assert_true(f->nodes[node[4]].guid == 0x0002c90304fffffcULL);
	assert_true(f->nodes[node[5]].guid == 0x0002c903059ffffeULL);
	/* every host port stays inside the host block, below the next switch */
	assert_true(lanes_fabric_port(f, node[4], 3)->guid == 0x0002c90304ffffffULL);
	lanes_fabric_free(f);
}

static void test_deterministic(void **state)
{
	static const char *const specs[] = {
		"hyperx K=3x4 L=2,1 p=2", "torus k=3x2x4 L=1,3,2 p=2", "mesh k=3x4 p=1",
		"hypercube n=4 p=1 L=2",  "fattree k=3 n=3",           "xgft h=2 m=3,2 w=2,2",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct lanes_fabric *a = gen(specs[i]), *b = gen(specs[i]);

		assert_same_fabric(a, b);
		assert_int_equal(a->num_warnings, 0);
		lanes_fabric_free(a);
		lanes_fabric_free(b);
	}
}

/* Switch LIDs come first: switch s has LID s + 1. */
static void test_switch_lids_first(void **state)
{
	static const char *const specs[] = { "hyperx K=3x3 p=2", "torus k=3x3 p=2",
					     "fattree k=2 n=3", "xgft h=2 m=3,2 w=2,2" };

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct lanes_fabric *f = gen(specs[i]);

		for (uint32_t s = 0; s < f->num_switches; s++) {
			assert_int_equal(f->switches[s], s);
			assert_int_equal(lanes_fabric_lid(f, s, 0), s + 1);
		}
		lanes_fabric_free(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grid_formulas),
		cmocka_unit_test(test_grid_ports),
		cmocka_unit_test(test_torus_ports_by_hand),
		cmocka_unit_test(test_mesh_hypercube_ports_by_hand),
		cmocka_unit_test(test_hyperx_ports_by_hand),
		cmocka_unit_test(test_seed001_reference_setups),
		cmocka_unit_test(test_hypercube),
		cmocka_unit_test(test_hypercube_is_torus),
		cmocka_unit_test(test_fattree),
		cmocka_unit_test(test_fattree_ports),
		cmocka_unit_test(test_xgft),
		cmocka_unit_test(test_xgft_multiport_hosts),
		cmocka_unit_test(test_fattree_is_xgft),
		cmocka_unit_test(test_bad_parameters),
		cmocka_unit_test(test_unknown_keys_before_generating),
		cmocka_unit_test(test_keys_any_case),
		cmocka_unit_test(test_guid_blocks_never_meet),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_switch_lids_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
