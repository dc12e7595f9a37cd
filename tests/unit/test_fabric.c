/*
 * test_fabric.c - the builder, LID assignment, adjacency, statistics and
 * fault injection, on fabrics small enough to check by hand or by formula.
 */
#include "testutil.h"
#include "fabric/builder_internal.h"
#include "fabric/distance.h"

/* A ring of n switches (ports 1 = clockwise, 2 = counter-clockwise), each with h hosts. */
static struct lanes_fabric *ring(unsigned n, unsigned h, unsigned chords)
{
	struct lanes_builder *b;
	struct lanes_fabric *f;
	struct lanes_error err;
	uint32_t *sw = malloc(sizeof(*sw) * n);

	assert_non_null(sw);
	assert_int_equal(lanes_builder_new(&b, &err), 0);
	for (unsigned i = 0; i < n; i++) {
		struct lanes_node_spec s = { LANES_NODE_SWITCH, 8, 0x1000 + i, 0, 0, 0, "sw" };

		assert_int_equal(lanes_builder_add_node(b, &s, &sw[i], &err), 0);
	}
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(lanes_builder_connect(b, sw[i], 1, sw[(i + 1) % n], 2, 4, 3, &err), 0);
	for (unsigned i = 0; i < chords; i++) /* port 3 to the switch n/2 away */
		assert_int_equal(lanes_builder_connect(b, sw[i], 3, sw[i + n / 2], 4, 4, 3, &err), 0);
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = 0; k < h; k++) {
			struct lanes_node_spec s = { LANES_NODE_CA, 1, 0x900000 + i * 16 + k, 0, 0, 0, "h" };
			uint32_t ca;

			assert_int_equal(lanes_builder_add_node(b, &s, &ca, &err), 0);
			assert_int_equal(lanes_builder_connect(b, sw[i], (uint8_t)(5 + k), ca, 1, 4, 3, &err), 0);
		}
	assert_int_equal(lanes_builder_finish(b, &f, &err), 0);
	free(sw);
	return f;
}

static void test_lids_assigned_in_node_order(void **state)
{
	struct lanes_fabric *f = ring(4, 2, 0);

	(void)state;
	/* switches first (LIDs 1..4), then CAs in the order they were added */
	for (uint32_t s = 0; s < 4; s++)
		assert_int_equal(lanes_fabric_lid(f, f->switches[s], 0), s + 1);
	assert_int_equal(lanes_fabric_lid(f, 4, 1), 5);
	assert_int_equal(lanes_fabric_lid(f, 11, 1), 12);
	assert_int_equal(f->max_lid, 12);
	assert_int_equal(lanes_fabric_lid_node(f, 7), 6);
	assert_int_equal(f->num_warnings, 0);
	lanes_fabric_free(f);
}

/* Two switches and two CAs with given input LIDs and LMCs. */
static struct lanes_fabric *with_lids(uint16_t l0, uint16_t l1, uint16_t l2, uint8_t lmc2,
				      uint16_t l3)
{
	struct lanes_builder *b;
	struct lanes_fabric *f;
	struct lanes_error err;
	struct lanes_node_spec sw = { LANES_NODE_SWITCH, 4, 0, 0, 0, 0, "s" };
	struct lanes_node_spec ca = { LANES_NODE_CA, 1, 0, 0, 0, 0, "c" };
	uint32_t n[4];

	assert_int_equal(lanes_builder_new(&b, &err), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(lanes_builder_add_node(b, i < 2 ? &sw : &ca, &n[i], &err), 0);
	assert_int_equal(lanes_builder_connect(b, n[0], 1, n[1], 1, 0, 0, &err), 0);
	assert_int_equal(lanes_builder_connect(b, n[0], 2, n[2], 1, 0, 0, &err), 0);
	assert_int_equal(lanes_builder_connect(b, n[1], 2, n[3], 1, 0, 0, &err), 0);
	assert_int_equal(lanes_builder_set_port(b, n[0], 0, 0, l0, 0, &err), 0);
	assert_int_equal(lanes_builder_set_port(b, n[1], 0, 0, l1, 0, &err), 0);
	assert_int_equal(lanes_builder_set_port(b, n[2], 1, 0, l2, lmc2, &err), 0);
	assert_int_equal(lanes_builder_set_port(b, n[3], 1, 0, l3, 0, &err), 0);
	assert_int_equal(lanes_builder_finish(b, &f, &err), 0);
	return f;
}

static void test_valid_lids_kept_and_bad_ones_repaired(void **state)
{
	struct lanes_fabric *f = with_lids(7, 3, 8, 2, 0);

	(void)state;
	assert_int_equal(lanes_fabric_lid(f, 0, 0), 7);
	assert_int_equal(lanes_fabric_lid(f, 1, 0), 3);
	assert_int_equal(lanes_fabric_lid(f, 2, 1), 8); /* 8..11, aligned to LMC 2 */
	assert_int_equal(lanes_fabric_lid_node(f, 11), 2);
	assert_int_equal(lanes_fabric_lid(f, 3, 1), 1); /* lowest free */
	assert_int_equal(f->num_warnings, 0);
	lanes_fabric_free(f);

	/* duplicate, misaligned for its LMC, and beyond the unicast range */
	f = with_lids(5, 5, 6, 2, 0xC000);
	assert_int_equal(lanes_fabric_lid(f, 0, 0), 5);
	assert_int_equal(lanes_fabric_lid(f, 1, 0), 1);
	assert_int_equal(lanes_fabric_lid(f, 2, 1), 8); /* 4..7 would overlap LID 5 */
	assert_int_equal(lanes_fabric_lid(f, 3, 1), 2);
	assert_int_equal(f->num_warnings, 3);
	/* which port keeps the LID, and which LID the other gets (no file: no lines) */
	assert_string_equal(f->warnings[0], "LID 5 of switch \"s\" is already taken by switch "
			    "\"s\"; it gets LID 1 instead");
	assert_string_equal(f->warnings[1], "LID 6 of port 1 of \"c\" is not aligned to its LMC; "
			    "it gets LID 8 instead");
	assert_string_equal(f->warnings[2], "LID 49152 of port 1 of \"c\" is outside the unicast "
			    "range 1..0xBFFF; it gets LID 2 instead");
	lanes_fabric_free(f);
}

/* A reader that says where each LID came from gets file:line for both ports (issue 22). */
static void test_lid_warning_names_lines(void **state)
{
	struct lanes_builder *b;
	struct lanes_fabric *f;
	struct lanes_error err;
	struct lanes_node_spec sw = { LANES_NODE_SWITCH, 2, 0, 0, 0, 0, "sw" };
	struct lanes_node_spec ca = { LANES_NODE_CA, 1, 0, 0, 0, 0, "h" };
	uint32_t s, h;

	(void)state;
	assert_int_equal(lanes_builder_new(&b, &err), 0);
	assert_int_equal(lanes_builder_add_node(b, &sw, &s, &err), 0);
	assert_int_equal(lanes_builder_add_node(b, &ca, &h, &err), 0);
	assert_int_equal(lanes_builder_connect(b, s, 1, h, 1, 0, 0, &err), 0);
	assert_int_equal(lanes_builder_set_port(b, s, 0, 0, 3, 0, &err), 0);
	assert_int_equal(lanes_builder_set_port(b, h, 1, 0, 3, 0, &err), 0);
	assert_int_equal(lanes_builder_lid_line(b, "f.txt", s, 0, 12), 0);
	assert_int_equal(lanes_builder_lid_line(b, "f.txt", h, 1, 40), 0);
	assert_int_equal(lanes_builder_lid_line(b, "f.txt", h, 1, 41), 0); /* the first stays */
	assert_int_equal(lanes_builder_finish(b, &f, &err), 0);
	assert_int_equal(f->num_warnings, 1);
	assert_string_equal(f->warnings[0], "f.txt:40: LID 3 of port 1 of \"h\" is already taken by "
			    "switch \"sw\" (line 12); it gets LID 1 instead");
	assert_int_equal(lanes_fabric_lid(f, h, 1), 1);
	lanes_fabric_free(f);
}

static void test_cabling_rules(void **state)
{
	struct lanes_builder *b;
	struct lanes_fabric *f;
	struct lanes_error err;
	struct lanes_node_spec sw = { LANES_NODE_SWITCH, 4, 0, 0, 0, 0, "s" };
	uint32_t a, c;

	(void)state;
	assert_int_equal(lanes_builder_new(&b, &err), 0);
	assert_int_equal(lanes_builder_add_node(b, &sw, &a, &err), 0);
	assert_int_equal(lanes_builder_add_node(b, &sw, &c, &err), 0);
	assert_int_equal(lanes_builder_connect(b, a, 1, c, 1, 4, 0, &err), 0);
	/* listed again from the other end: fine, and fills in the speed */
	assert_int_equal(lanes_builder_connect(b, c, 1, a, 1, 0, LANES_SPEED_EDR, &err), 0);
	assert_int_equal(lanes_builder_connect(b, a, 1, c, 2, 4, 0, &err), LANES_EINVAL);
	assert_non_null(strstr(err.message, "already cabled"));
	assert_int_equal(lanes_builder_connect(b, a, 0, c, 3, 4, 0, &err), LANES_EINVAL);
	assert_int_equal(lanes_builder_connect(b, a, 5, c, 3, 4, 0, &err), LANES_EINVAL);
	assert_int_equal(lanes_builder_connect(b, a, 2, a, 2, 4, 0, &err), LANES_EINVAL);
	/* a self-loop cable between two ports of one switch is kept, never routed */
	assert_int_equal(lanes_builder_connect(b, a, 3, a, 4, 4, 0, &err), 0);
	assert_int_equal(lanes_builder_finish(b, &f, &err), 0);
	assert_int_equal(f->num_links, 2);
	assert_int_equal(f->num_self_loops, 1);
	assert_int_equal(f->adj_off[1] - f->adj_off[0], 1);
	assert_int_equal(f->adj[0].sw, 1);
	assert_int_equal(lanes_fabric_port(f, c, 1)->speed, LANES_SPEED_EDR);
	assert_int_equal(stats_of(f).self_loops, 1);
	lanes_fabric_free(f);
}

/* Mean distance of a cycle C_n over ordered pairs: (n+1)/4 odd, n^2/(4(n-1)) even. */
static void test_ring_distances(void **state)
{
	(void)state;
	for (unsigned n = 3; n <= 150; n += 13) {
		struct lanes_fabric *f = ring(n, 1, 0);
		struct lanes_fabric_stats st = stats_of(f);
		double expect = n % 2 ? (n + 1) / 4.0 : (double)n * n / (4.0 * (n - 1));

		assert_int_equal(st.diameter, n / 2);
		assert_true(st.avg_distance > expect - 1e-9 && st.avg_distance < expect + 1e-9);
		assert_int_equal(st.links_switch_switch, n);
		assert_int_equal(st.links_switch_ca, n);
		assert_true(st.connected);
		lanes_fabric_free(f);
	}
}

/* Plain breadth-first search from switch s: dist[] (UINT32_MAX unreachable), q is scratch. */
static void plain_bfs(const struct lanes_fabric *f, uint32_t s, uint32_t *dist, uint32_t *q)
{
	uint32_t head = 0, tail = 0;

	for (uint32_t v = 0; v < f->num_switches; v++)
		dist[v] = UINT32_MAX;
	dist[s] = 0;
	q[tail++] = s;
	while (head < tail) {
		uint32_t u = q[head++];

		for (uint32_t e = f->adj_off[u]; e < f->adj_off[u + 1]; e++)
			if (dist[f->adj[e].sw] == UINT32_MAX) {
				dist[f->adj[e].sw] = dist[u] + 1;
				q[tail++] = f->adj[e].sw;
			}
	}
}

/* One source at a time, to check the bit-parallel sweep across blocks of 64. */
static void naive(const struct lanes_fabric *f, uint32_t *diam, double *avg)
{
	uint32_t n = f->num_switches, *dist = malloc(n * sizeof(*dist)), *q = malloc(n * sizeof(*q));
	uint64_t sum = 0, pairs = 0;

	*diam = 0;
	for (uint32_t s = 0; s < n; s++) {
		plain_bfs(f, s, dist, q);
		for (uint32_t v = 0; v < n; v++)
			if (v != s && dist[v] != UINT32_MAX) {
				sum += dist[v];
				pairs++;
				if (dist[v] > *diam)
					*diam = dist[v];
			}
	}
	*avg = (double)sum / (double)pairs;
	free(dist);
	free(q);
}

/*
 * The distance matrix against one plain BFS per source (255: unreachable or
 * 255+ hops), on the calling thread and with its sweeps on three workers.
 */
static void check_distance_matrix(const struct lanes_fabric *f)
{
	uint32_t n = f->num_switches, *dist = malloc(n * sizeof(*dist)), *q = malloc(n * sizeof(*q));
	struct lanes_error err;
	uint8_t *m, *m3;

	assert_int_equal(lanes_fabric_switch_distances(f, &m, &err), 0);
	assert_int_equal(lanes_switch_distances_parallel(f, 3, &m3, &err), 0);
	for (uint32_t s = 0; s < n; s++) {
		plain_bfs(f, s, dist, q);
		for (uint32_t v = 0; v < n; v++) {
			assert_int_equal(m[(size_t)s * n + v], dist[v] > 254 ? 255 : dist[v]);
			assert_int_equal(m3[(size_t)s * n + v], dist[v] > 254 ? 255 : dist[v]);
		}
	}
	free(m);
	free(m3);
	free(dist);
	free(q);
}

static void test_bit_parallel_bfs_matches_plain_bfs(void **state)
{
	struct lanes_fabric *f = ring(300, 0, 37);
	struct lanes_fabric_stats st = stats_of(f);
	uint32_t diam;
	double avg;

	(void)state;
	naive(f, &diam, &avg);
	assert_int_equal(st.diameter, diam);
	check_distance_matrix(f);
	assert_true(st.avg_distance > avg - 1e-9 && st.avg_distance < avg + 1e-9);
	assert_int_equal(st.parallel_links, 0);
	lanes_fabric_free(f);
}

/*
 * High-diameter and mixed fabrics: a ring of 2000 switches (diameter 1000,
 * where the search pushes from small frontiers for a thousand levels), the
 * same ring with a few chords, and dense fabrics where it pulls.
 */
static void test_bfs_high_diameter(void **state)
{
	struct lanes_fabric *fabrics[] = {
		ring(2000, 0, 0), ring(2000, 0, 5), ring(129, 0, 0), gen("dragonfly a=4 p=0 h=2"),
		gen("torus k=30x7 p=0"), gen("jellyfish switches=500 degree=3 p=0"),
	};

	(void)state;
	for (size_t i = 0; i < sizeof(fabrics) / sizeof(fabrics[0]); i++) {
		struct lanes_fabric_stats st = stats_of(fabrics[i]);
		uint32_t diam;
		double avg;

		naive(fabrics[i], &diam, &avg);
		assert_int_equal(st.diameter, diam);
		assert_true(st.avg_distance > avg - 1e-9 && st.avg_distance < avg + 1e-9);
		check_distance_matrix(fabrics[i]);
		lanes_fabric_free(fabrics[i]);
	}
	/* the ring's numbers by formula: n^2 / (4(n-1)) for even n */
	{
		struct lanes_fabric *f = ring(2000, 1, 0);
		struct lanes_fabric_stats st = stats_of(f);

		assert_int_equal(st.diameter, 1000);
		assert_true(st.avg_distance > 2000.0 * 2000 / (4.0 * 1999) - 1e-9 &&
			    st.avg_distance < 2000.0 * 2000 / (4.0 * 1999) + 1e-9);
		lanes_fabric_free(f);
	}
}

/* Switch-to-switch cables of f whose two switches are still in g. */
static uint32_t surviving_cables(const struct lanes_fabric *f, const struct lanes_fabric *g)
{
	uint32_t count = 0;

	for (uint32_t l = 0; l < f->num_links; l++) {
		const struct lanes_link *k = &f->links[l];

		if (f->nodes[k->a].type == LANES_NODE_SWITCH && f->nodes[k->b].type == LANES_NODE_SWITCH &&
		    lanes_fabric_find_guid(g, f->nodes[k->a].guid) != LANES_NONE &&
		    lanes_fabric_find_guid(g, f->nodes[k->b].guid) != LANES_NONE)
			count++;
	}
	return count;
}

static void test_faults_are_reproducible(void **state)
{
	struct lanes_fabric *f = ring(40, 2, 20), *a, *b;
	struct lanes_fault_spec spec = { 0.25, 3, 42 };
	struct lanes_fault_report ra, rb;
	struct lanes_error err;

	(void)state;
	assert_int_equal(lanes_fabric_inject_faults(f, &spec, &a, &ra, &err), 0);
	assert_int_equal(lanes_fabric_inject_faults(f, &spec, &b, &rb, &err), 0);
	assert_int_equal(ra.switches_removed, 3);
	assert_int_equal(ra.cas_removed, 6); /* the hosts of the 3 removed switches */
	assert_int_equal(a->num_switches, 37);
	assert_int_equal(a->num_cas, 74);
	/* 60 switch cables; those of the removed switches go, then 25% of the rest */
	assert_int_equal(stats_of(f).links_switch_switch, 60);
	assert_int_equal(ra.links_removed, (surviving_cables(f, a) + 2) / 4);
	assert_int_equal(stats_of(a).links_switch_switch, surviving_cables(f, a) - ra.links_removed);
	assert_int_equal(ra.links_removed, rb.links_removed);
	assert_int_equal(a->num_links, b->num_links);
	for (uint32_t l = 0; l < a->num_links; l++) {
		assert_int_equal(a->nodes[a->links[l].a].guid, b->nodes[b->links[l].a].guid);
		assert_int_equal(a->nodes[a->links[l].b].guid, b->nodes[b->links[l].b].guid);
	}
	/* surviving LIDs are kept */
	assert_int_equal(lanes_fabric_lid(a, lanes_fabric_find_guid(a, 0x900000 + 39 * 16), 1),
			 lanes_fabric_lid(f, lanes_fabric_find_guid(f, 0x900000 + 39 * 16), 1));
	lanes_fabric_free(a);
	lanes_fabric_free(b);
	spec.seed = 43;
	assert_int_equal(lanes_fabric_inject_faults(f, &spec, &b, &rb, &err), 0);
	assert_int_equal(rb.switches_removed, 3);
	lanes_fabric_free(b);
	lanes_fabric_free(f);
}

static void test_faults_disconnect_and_refuse(void **state)
{
	struct lanes_fabric *f = ring(10, 1, 0), *g;
	struct lanes_fault_spec two = { 2, 0, 7 }, too_many = { 11, 0, 7 }, bad = { 0, 1.5, 7 };
	struct lanes_error err;

	(void)state;
	/* a ring cut twice falls in two pieces */
	assert_int_equal(lanes_fabric_inject_faults(f, &two, &g, NULL, &err), 0);
	assert_false(stats_of(g).connected);
	assert_int_equal(stats_of(g).components, 2);
	check_distance_matrix(g); /* unreachable pairs are 255 */
	lanes_fabric_free(g);
	assert_int_equal(lanes_fabric_inject_faults(f, &too_many, &g, NULL, &err), LANES_EINVAL);
	assert_non_null(strstr(err.message, "fail-links"));
	assert_int_equal(lanes_fabric_inject_faults(f, &bad, &g, NULL, &err), LANES_EINVAL);
	assert_non_null(strstr(err.message, "fail-switches"));
	lanes_fabric_free(f);
}

/* Counts beyond 2^32 are refused before any conversion (UB, and they wrapped to 0). */
static void test_faults_huge_counts(void **state)
{
	static const struct lanes_fault_spec specs[] = {
		{ 4294967296.0, 0, 1 }, { 1e20, 0, 1 }, { 0, 4294967296.0, 1 }, { 0, 1e20, 1 },
		{ 4294967306.0, 0, 1 },
	};
	struct lanes_fabric *f = ring(10, 1, 0), *g = NULL;
	struct lanes_error err;

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		const char *opt = specs[i].fail_links ? "fail-links" : "fail-switches";

		assert_int_equal(lanes_fabric_inject_faults(f, &specs[i], &g, NULL, &err),
				 LANES_EINVAL);
		assert_null(g);
		assert_non_null(strstr(err.message, opt));
		assert_non_null(strstr(err.message, "cannot remove"));
	}
	lanes_fabric_free(f);
}

/* Removing every switch leaves nothing to describe or write: refused. */
static void test_faults_refuse_removing_all_switches(void **state)
{
	struct lanes_fabric *f = ring(10, 1, 0), *g = NULL;
	struct lanes_fault_spec all = { 0, 10, 1 }, most = { 0, 9, 1 }, frac = { 0, 0.99, 1 };
	struct lanes_error err;

	(void)state;
	assert_int_equal(lanes_fabric_inject_faults(f, &all, &g, NULL, &err), LANES_EINVAL);
	assert_non_null(strstr(err.message, "fail-switches"));
	assert_int_equal(lanes_fabric_inject_faults(f, &frac, &g, NULL, &err), LANES_EINVAL);
	assert_int_equal(lanes_fabric_inject_faults(f, &most, &g, NULL, &err), 0);
	assert_int_equal(g->num_switches, 1);
	assert_true(stats_of(g).connected);
	lanes_fabric_free(g);
	lanes_fabric_free(f);
}

/* CAs 0-1 cabled back to back (no switch), and CA 2 with no cable when lonely. */
static struct lanes_fabric *back_to_back(int lonely)
{
	struct lanes_node_spec ca = { LANES_NODE_CA, 2, 0, 0, 0, 0, "c" };
	struct lanes_builder *b;
	struct lanes_fabric *f;
	struct lanes_error err;
	uint32_t n[3];

	assert_int_equal(lanes_builder_new(&b, &err), 0);
	for (int i = 0; i < 2 + lonely; i++)
		assert_int_equal(lanes_builder_add_node(b, &ca, &n[i], &err), 0);
	assert_int_equal(lanes_builder_connect(b, n[0], 1, n[1], 2, 4, 3, &err), 0);
	assert_int_equal(lanes_builder_finish(b, &f, &err), 0);
	return f;
}

static void test_connected_over_all_cables(void **state)
{
	struct lanes_fabric *f = back_to_back(0);
	struct lanes_fabric_stats st = stats_of(f);

	(void)state;
	assert_int_equal(st.switches, 0);
	assert_int_equal(st.links_other, 1);
	assert_true(st.connected);
	assert_int_equal(st.fabric_components, 1);
	assert_int_equal(st.isolated_cas, 0);
	assert_int_equal(st.diameter, 0);
	lanes_fabric_free(f);
	f = back_to_back(1);
	st = stats_of(f);
	assert_false(st.connected);
	assert_int_equal(st.fabric_components, 2);
	assert_int_equal(st.isolated_cas, 1);
	lanes_fabric_free(f);
	/* two switch planes joined only through dual-port hosts: connected */
	f = gen("xgft h=2 m=2,2 w=2,2");
	st = stats_of(f);
	assert_int_equal(st.components, 2);
	assert_int_equal(st.fabric_components, 1);
	assert_true(st.connected);
	/* the same counts without distances, as route and verify ask */
	uint32_t switch_parts = 0, parts = 0;
	struct lanes_error err;

	assert_int_equal(lanes_fabric_components(f, &switch_parts, &parts, &err), 0);
	assert_int_equal(switch_parts, 2);
	assert_int_equal(parts, 1);
	lanes_fabric_free(f);
}

/*
 * Named parts go first, and the random count is drawn among what is left:
 * naming a switch and asking for 25% of the switches removes 1 + 25% of 15.
 */
static void test_named_faults(void **state)
{
	struct lanes_fabric *f = gen("torus k=4x4 p=1"), *g;
	const uint64_t sw = f->nodes[f->switches[5]].guid;
	const struct lanes_fault_port end = { f->nodes[f->switches[0]].guid, 2 };
	struct lanes_fault_names names = { &sw, 1, &end, 1 };
	struct lanes_fault_spec spec = { 0, 0.25, 9 };
	struct lanes_fault_report rep;
	struct lanes_fault_list list;
	struct lanes_error err;

	(void)state;
	assert_int_equal(lanes_fabric_remove_faults(f, &spec, &names, &g, &rep, &list, &err), 0);
	assert_int_equal(rep.switches_removed, 1 + 4); /* round(0.25 * 15) */
	assert_int_equal(list.num_switches, 5);
	assert_true(list.switches[0] == sw || list.switches[1] == sw || list.switches[2] == sw ||
		    list.switches[3] == sw || list.switches[4] == sw);
	assert_int_equal(g->num_switches, 11);
	assert_int_equal(lanes_fabric_find_guid(g, sw), LANES_NONE);
	lanes_fault_list_free(&list);
	lanes_fabric_free(g);
	/* a GUID that is no switch, a port without a cable */
	const uint64_t ca = f->nodes[f->switches[0]].guid + 0x60000; /* no node */
	const struct lanes_fault_port none = { f->nodes[f->switches[0]].guid, 7 };
	struct lanes_fault_names bad_sw = { &ca, 1, NULL, 0 }, bad_port = { NULL, 0, &none, 1 };
	struct lanes_fault_spec zero = { 0, 0, 1 };

	assert_int_equal(lanes_fabric_remove_faults(f, &zero, &bad_sw, &g, NULL, NULL, &err),
			 LANES_EINVAL);
	assert_non_null(strstr(err.message, "not a GUID of the fabric"));
	assert_int_equal(lanes_fabric_remove_faults(f, &zero, &bad_port, &g, NULL, NULL, &err),
			 LANES_EINVAL);
	assert_non_null(strstr(err.message, "has no cable"));
	lanes_fabric_free(f);
}

/* Write f in a format and read it back. */
static struct lanes_fabric *round_trip(const struct lanes_fabric *f, const char *format)
{
	const struct lanes_format *fmt = lanes_format_find(format);
	struct lanes_fabric *g = NULL;
	struct lanes_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	assert_int_equal(fmt->write(f, mem, &err), 0);
	fclose(mem);
	assert_int_equal(fmt->read(buf, len, "mem", &g, &err), 0);
	free(buf);
	return g;
}

/* f rebuilt with its nodes in reverse order (LIDs and cables the same). */
static struct lanes_fabric *reversed(const struct lanes_fabric *f)
{
	struct lanes_builder *b = tb_new();
	uint32_t *map = malloc(sizeof(*map) * f->num_nodes);
	struct lanes_error err;

	for (uint32_t i = f->num_nodes; i-- > 0;) {
		const struct lanes_node *n = &f->nodes[i];
		struct lanes_node_spec spec = { n->type, n->nports, n->guid, n->sysimage_guid,
						n->vendor_id, n->device_id, n->desc };

		assert_int_equal(lanes_builder_add_node(b, &spec, &map[i], &err), 0);
		for (unsigned p = 0; p <= n->nports; p++) {
			const struct lanes_port *pt = &f->ports[n->port_base + p];

			assert_int_equal(lanes_builder_set_port(b, map[i], (uint8_t)p, pt->guid,
								lanes_lid_in_file(pt->lid), pt->lmc, &err), 0);
		}
	}
	for (uint32_t l = 0; l < f->num_links; l++) {
		const struct lanes_link *k = &f->links[l];

		assert_int_equal(lanes_builder_connect(b, map[k->a], k->pa, map[k->b], k->pb, 0, 0,
						       &err), 0);
	}
	free(map);
	return tb_finish(b);
}

/*
 * Fingerprints (report.json, `lanes verify DIR`): the same fabric gives the
 * same ones whatever order a file lists it in (ibsim lists the nodes in
 * another order than ibnetdiscover), and each kind of change moves its part.
 */
static void test_fingerprint(void **state)
{
	struct lanes_fabric *f = gen("torus k=4x4 p=2"), *g = round_trip(f, "ibsim"), *h;
	struct lanes_fingerprint a, b;
	struct lanes_fault_spec one = { 1, 0, 3 };
	struct lanes_error err;

	(void)state;
	lanes_fabric_fingerprint(f, &a);
	lanes_fabric_fingerprint(g, &b);
	assert_true(a.nodes == b.nodes && a.lids == b.lids && a.cables == b.cables);
	lanes_fabric_free(g);
	/* the nodes in reverse order: every cable's ends come the other way round */
	g = reversed(f);
	lanes_fabric_fingerprint(g, &b);
	assert_true(a.nodes == b.nodes && a.lids == b.lids && a.cables == b.cables);
	lanes_fabric_free(g);
	/* a cable less: only the cables part moves */
	assert_int_equal(lanes_fabric_inject_faults(f, &one, &h, NULL, &err), 0);
	lanes_fabric_fingerprint(h, &b);
	assert_true(a.nodes == b.nodes && a.lids == b.lids && a.cables != b.cables);
	lanes_fabric_free(h);
	/* the same GUIDs cabled as a mesh: the cables differ, nodes and LIDs do not */
	h = gen("mesh k=4x4 p=2");
	lanes_fabric_fingerprint(h, &b);
	assert_true(a.nodes == b.nodes && a.lids == b.lids && a.cables != b.cables);
	lanes_fabric_free(h);
	/* LMC 1 instead of 0 on one CA: the LIDs part moves */
	uint32_t x, t0;

	lanes_fabric_free(f);
	f = tb_lmc_chassis(0, &x, &t0);
	g = tb_lmc_chassis(1, &x, &t0);
	lanes_fabric_fingerprint(f, &a);
	lanes_fabric_fingerprint(g, &b);
	assert_true(a.nodes == b.nodes && a.lids != b.lids && a.cables == b.cables);
	lanes_fabric_free(g);
	lanes_fabric_free(f);
}

/* 10000 switches + 40000 hosts: 849 more LIDs than one subnet has. */
static void test_fabric_beyond_one_subnet(void **state)
{
	struct lanes_fabric *f = gen("torus k=100x100 p=4"), *g = NULL;
	const struct lanes_format *fmt = lanes_format_find("ibnetdiscover");
	struct lanes_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	(void)state;
	assert_int_equal(f->max_lid, 50000);
	for (uint32_t lid = 1; lid <= 50000; lid++) /* every LID owned by the node it names */
		assert_int_equal(lanes_fabric_lid(f, f->lid_owner[lid].node, f->lid_owner[lid].port),
				 lid);
	assert_int_equal(f->num_warnings, 1);
	assert_non_null(strstr(f->warnings[0], "849 ports got LIDs above 0xBFFF"));
	/* written as lid 0, read back: the same LIDs again, one warning */
	mem = open_memstream(&buf, &len);
	assert_int_equal(fmt->write(f, mem, &err), 0);
	fclose(mem);
	assert_null(strstr(buf, "lid 49152 "));
	assert_int_equal(fmt->read(buf, len, "mem", &g, &err), 0);
	assert_int_equal(g->num_warnings, 1);
	for (uint32_t i = 0; i < f->num_nodes; i++)
		assert_int_equal(lanes_fabric_lid(g, i, 1), lanes_fabric_lid(f, i, 1));
	free(buf);
	lanes_fabric_free(g);
	lanes_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lids_assigned_in_node_order),
		cmocka_unit_test(test_valid_lids_kept_and_bad_ones_repaired),
		cmocka_unit_test(test_lid_warning_names_lines),
		cmocka_unit_test(test_cabling_rules),
		cmocka_unit_test(test_ring_distances),
		cmocka_unit_test(test_bit_parallel_bfs_matches_plain_bfs),
		cmocka_unit_test(test_bfs_high_diameter),
		cmocka_unit_test(test_faults_are_reproducible),
		cmocka_unit_test(test_faults_disconnect_and_refuse),
		cmocka_unit_test(test_faults_huge_counts),
		cmocka_unit_test(test_faults_refuse_removing_all_switches),
		cmocka_unit_test(test_connected_over_all_cables),
		cmocka_unit_test(test_fabric_beyond_one_subnet),
		cmocka_unit_test(test_fingerprint),
		cmocka_unit_test(test_named_faults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
