/*
 * test_minhop.c - the minhop engine against expectations computed here:
 * shortest paths from a plain BFS over the port table (not the engine's
 * distance matrix or candidate ports), reachability by walking the LFTs,
 * and OpenSM's least-loaded choices worked out by hand on small fabrics
 * (OpenSM's doc/current-routing.txt: "the one with less previously
 * assigned LIDs is selected"; OpenSM 3.3.23 takes CA ports behind the most
 * loaded switches first, ties in its GUID map order, and does not count
 * switch LIDs). Also minhop_fast.c against the reference.
 */
#include <stdint.h>

#include "lanes/route.h"
#include "lanes/routing.h"
#include "route/minhop/minhop.h"
#include "testutil.h"

#define UNREACHED UINT32_MAX

/* ---------------------------------------------------------------- helpers */

static struct lanes_routing *route_opts(const struct lanes_fabric *f, int switch_lids)
{
	const struct lanes_engine *e = lanes_engine_find("minhop");

	assert_non_null(e);
	return route_engine(e, f, 8, 16, switch_lids); /* the default budgets */
}

static struct lanes_routing *route(const struct lanes_fabric *f)
{
	return route_opts(f, 1);
}

static int is_switch(const struct lanes_fabric *f, uint32_t node)
{
	return node != LANES_NONE && f->nodes[node].type == LANES_NODE_SWITCH;
}

static uint8_t entry(const struct lanes_routing *r, const struct lanes_fabric *f, uint32_t node,
		     uint32_t lid)
{
	return lanes_routing_port(r, f->nodes[node].switch_index, lid);
}

/* Hops from switch node t to every node, switches only, over cabled ports. */
static uint32_t *bfs_from(const struct lanes_fabric *f, uint32_t t)
{
	uint32_t *dist = malloc(sizeof(*dist) * f->num_nodes);
	uint32_t *queue = malloc(sizeof(*queue) * f->num_nodes);
	uint32_t head = 0, tail = 0;

	for (uint32_t i = 0; i < f->num_nodes; i++)
		dist[i] = UNREACHED;
	dist[t] = 0;
	queue[tail++] = t;
	while (head < tail) {
		uint32_t u = queue[head++];

		for (uint8_t p = 1; p <= f->nodes[u].nports; p++) {
			uint32_t v = lanes_fabric_port(f, u, p)->peer_node;

			if (is_switch(f, v) && dist[v] == UNREACHED) {
				dist[v] = dist[u] + 1;
				queue[tail++] = v;
			}
		}
	}
	free(queue);
	return dist;
}

/* Where a LID leaves the fabric: its switch node and the port there, or LANES_NONE. */
static uint32_t lid_target(const struct lanes_fabric *f, uint32_t lid, uint8_t *last)
{
	uint32_t node = f->lid_owner[lid].node;
	const struct lanes_port *p;

	if (node == LANES_NONE)
		return LANES_NONE;
	if (is_switch(f, node)) {
		*last = 0;
		return node;
	}
	p = lanes_fabric_port(f, node, f->lid_owner[lid].port);
	if (!is_switch(f, p->peer_node))
		return LANES_NONE;
	*last = p->peer_port;
	return p->peer_node;
}

/* Every switch's entry for lid is on a shortest path to it (or a drop when unreachable). */
static void check_shortest(const struct lanes_fabric *f, const struct lanes_routing *r,
			   uint32_t lid, const char *name)
{
	uint8_t last = 0;
	uint32_t t = lid_target(f, lid, &last), *dist;

	if (t == LANES_NONE) {
		for (uint32_t s = 0; s < f->num_switches; s++)
			if (lanes_routing_port(r, s, lid) != LANES_PORT_DROP)
				fail_msg("%s: lid %u has no switch but is routed", name, lid);
		return;
	}
	dist = bfs_from(f, t);
	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t u = f->switches[s], v;
		uint8_t p = lanes_routing_port(r, s, lid);

		if (u == t) {
			if (p != last)
				fail_msg("%s: lid %u: port %u at its own switch, not %u", name, lid, p, last);
			continue;
		}
		if (dist[u] == UNREACHED) {
			if (p != LANES_PORT_DROP)
				fail_msg("%s: lid %u unreachable from switch %u but routed", name, lid, s);
			continue;
		}
		if (p < 1 || p > f->nodes[u].nports)
			fail_msg("%s: lid %u: switch %u has port %u", name, lid, s, p);
		v = lanes_fabric_port(f, u, p)->peer_node;
		if (!is_switch(f, v) || v == u || dist[v] + 1 != dist[u])
			fail_msg("%s: lid %u: switch %u port %u is not on a shortest path", name, lid, s, p);
	}
	free(dist);
}

/* Follow the LFTs from every switch to every reachable LID. */
static void check_walks(const struct lanes_fabric *f, const struct lanes_routing *r,
			uint32_t lid, const char *name)
{
	uint8_t last = 0;
	uint32_t t = lid_target(f, lid, &last), *dist;

	if (t == LANES_NONE)
		return;
	dist = bfs_from(f, t);
	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t cur = f->switches[s], hops = 0;

		if (dist[cur] == UNREACHED)
			continue;
		while (cur != t && hops++ <= f->num_switches)
			cur = lanes_fabric_port(f, cur, entry(r, f, cur, lid))->peer_node;
		if (cur != t || entry(r, f, cur, lid) != last)
			fail_msg("%s: lid %u not reached from switch %u", name, lid, s);
	}
	free(dist);
}

static void check_fabric(const struct lanes_fabric *f, const char *name)
{
	struct lanes_routing *r = route(f);

	assert_int_equal(r->num_switches, f->num_switches);
	assert_int_equal(r->num_lids, f->max_lid + 1);
	for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
		check_shortest(f, r, lid, name);
		check_walks(f, r, lid, name);
	}
	lanes_routing_free(r);
}

/* Hand-computed cases build with testutil.h's tb_new(), tb_add(), tb_cable() and tb_finish(). */

/* ------------------------------------------------------------------ tests */

static void test_descriptor(void **state)
{
	const struct lanes_engine *e = lanes_engine_find("minhop");

	(void)state;
	assert_non_null(e);
	assert_string_equal(e->scope, "any");
	assert_string_equal(e->resources, "1 VL");
	assert_int_equal(e->flags, LANES_ENGINE_ANY_TOPOLOGY);
	assert_true(e->summary && *e->summary && e->source && *e->source);
}

static void test_every_generator_shortest_and_reachable(void **state)
{
	static const char *const specs[] = {
		"dragonfly a=2 p=1 h=1", "slimfly q=3",	      "hyperx K=3x3 p=1",
		"torus k=3x3 p=1",	 "mesh k=3x3 p=1",    "hypercube n=3 p=1",
		"fattree k=2 n=3",	 "xgft h=2 m=2,2 w=1,2", "sfxff q=3 K=2 p=1",
		"jellyfish switches=10 degree=3 p=1", "dragonfly a=4 p=2 h=2", "torus k=4x4 p=2",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct lanes_fabric *f = gen(specs[i]);

		check_fabric(f, specs[i]);
		lanes_fabric_free(f);
	}
}

static void test_real_fabric_files(void **state)
{
	struct lanes_fabric *f = read_fabric(LANES_DATA_DIR, "ibsim_net.2sw2path4hca2port", NULL);

	(void)state;
	check_fabric(f, "2sw2path4hca2port");
	lanes_fabric_free(f);
	f = read_fabric(LANES_DATA_DIR, "ibsim_4ary3tree_k-4-n-3-Full.topology", NULL);
	check_fabric(f, "4ary3tree");
	lanes_fabric_free(f);
}

static void test_result_is_sl0_one_vl(void **state)
{
	struct lanes_fabric *f = gen("torus k=3x3 p=1");
	struct lanes_routing *r = route(f);

	(void)state;
	assert_int_equal(r->sl_mode, LANES_SL_UNIFORM);
	assert_int_equal(r->sl_uniform, 0);
	assert_int_equal(r->num_vls, 1);
	assert_int_equal(r->num_sls, 1);
	assert_null(r->sl2vl_sw);
	assert_null(r->sl2vl_port);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/*
 * With LMC 0 the switch LIDs come after every CA LID and are not counted, so
 * each switch sends a switch LID to the least-loaded of its min-hop ports
 * toward that switch, ties to the lower port (OpenSM 3.3.23,
 * osm_switch_recommend_path). The loads are the CA LIDs each port carries
 * in the final LFTs; min-hop ports from a plain BFS. Fabrics with parallel
 * cables and switch counts that are not multiples of eight.
 */
static void check_switch_lids(const struct lanes_fabric *f, const char *name)
{
	struct lanes_routing *r = route(f);
	uint32_t *count = calloc((size_t)f->num_switches * 256, sizeof(*count));

	assert_non_null(count);
	for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
		uint32_t node = f->lid_owner[lid].node;

		if (node == LANES_NONE || is_switch(f, node))
			continue;
		for (uint32_t s = 0; s < f->num_switches; s++) {
			uint8_t p = lanes_routing_port(r, s, lid);

			if (p != LANES_PORT_DROP)
				count[(size_t)s * 256 + p]++;
		}
	}
	for (uint32_t t = 0; t < f->num_switches; t++) {
		uint32_t w = f->switches[t], *dist = bfs_from(f, w);
		uint32_t lid = lanes_fabric_port(f, w, 0)->lid;

		for (uint32_t s = 0; s < f->num_switches && lid; s++) {
			uint32_t u = f->switches[s], best = UINT32_MAX;
			uint8_t want = LANES_PORT_DROP;

			if (u == w || dist[u] == UNREACHED)
				continue;
			for (uint8_t p = 1; p <= f->nodes[u].nports; p++) {
				uint32_t v = lanes_fabric_port(f, u, p)->peer_node;

				if (is_switch(f, v) && v != u && dist[v] + 1 == dist[u] &&
				    count[(size_t)s * 256 + p] < best) {
					best = count[(size_t)s * 256 + p];
					want = p;
				}
			}
			if (entry(r, f, u, lid) != want)
				fail_msg("%s: switch %u sends switch %u's LID %u to port %u, not %u", name,
					 s, t, lid, entry(r, f, u, lid), want);
		}
		free(dist);
	}
	free(count);
	lanes_routing_free(r);
}

static void test_switch_lids_least_loaded(void **state)
{
	static const char *const specs[] = {
		"torus k=5x4 p=2 L=2",	"dragonfly a=4 p=2 h=2", "jellyfish switches=13 degree=4 p=1",
		"fattree k=4 n=3",	"hyperx K=3x3 p=1 L=2",	 "jellyfish switches=37 degree=4 p=2 seed=3",
	};
	struct lanes_fabric *f;

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		f = gen(specs[i]);
		check_switch_lids(f, specs[i]);
		lanes_fabric_free(f);
	}
	f = read_fabric(LANES_DATA_DIR, "ibsim_4ary3tree_k-4-n-3-Full.topology", NULL);
	check_switch_lids(f, "4ary3tree");
	lanes_fabric_free(f);
	f = read_fabric(LANES_DATA_DIR, "ut_stage_sx6036_fdr10_ibnetdiscover.txt", NULL);
	check_switch_lids(f, "ut_stage");
	lanes_fabric_free(f);
}

/*
 * A (GUID 0x10, 1 CA on port 5) and B (GUID 0x20, 4 CAs on ports 3..6),
 * cabled twice: A1-B1, A2-B2. B has more CAs, so OpenSM routes b0..b3
 * first: at A they alternate 1, 2, 1, 2 (ties to the lower port). Then a0
 * at B takes port 1. Switch LIDs are not counted: B's LID at A sees 2 and 2
 * (port 1); A's LID at B sees 1 on port 1 and 0 on port 2, so port 2.
 */
static void test_parallel_cables_alternate(void **state)
{
	struct lanes_builder *b = tb_new();
	uint32_t A = tb_add(b, LANES_NODE_SWITCH, 8, 0x10), B = tb_add(b, LANES_NODE_SWITCH, 8, 0x20);
	uint32_t a0 = tb_add(b, LANES_NODE_CA, 1, 0x100), bca[4];
	struct lanes_fabric *f;
	struct lanes_routing *r;

	(void)state;
	tb_cable(b, A, 1, B, 1);
	tb_cable(b, A, 2, B, 2);
	tb_cable(b, A, 5, a0, 1);
	for (int i = 0; i < 4; i++) {
		bca[i] = tb_add(b, LANES_NODE_CA, 1, 0x200 + (uint64_t)i);
		tb_cable(b, B, (uint8_t)(3 + i), bca[i], 1);
	}
	f = tb_finish(b);
	r = route(f);
	for (int i = 0; i < 4; i++) {
		uint32_t lid = lanes_fabric_lid(f, bca[i], 1);

		assert_int_equal(entry(r, f, A, lid), i % 2 ? 2 : 1);
		assert_int_equal(entry(r, f, B, lid), 3 + i);
	}
	assert_int_equal(entry(r, f, B, lanes_fabric_lid(f, a0, 1)), 1);
	assert_int_equal(entry(r, f, A, lanes_fabric_lid(f, a0, 1)), 5);
	assert_int_equal(entry(r, f, A, lanes_fabric_lid(f, B, 0)), 1);
	assert_int_equal(entry(r, f, B, lanes_fabric_lid(f, A, 0)), 2);
	assert_int_equal(entry(r, f, A, lanes_fabric_lid(f, A, 0)), 0);
	assert_int_equal(entry(r, f, B, lanes_fabric_lid(f, B, 0)), 0);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/*
 * X -(1,2)- W, W -3- Y (1 CA), W -4- Z (1 CA). At X both CA LIDs can use
 * ports 1 and 2; the first one routed gets port 1. Y and Z have one CA
 * each, so OpenSM's switch GUID map order decides, and its key is the GUID
 * in network byte order: 0x0100 (Y) comes before 0x0002 (Z) there,
 * although not as numbers. The switch LIDs, routed after every CA LID and
 * never counted, all see equal loads.
 */
static void test_equal_loads_follow_guid_map_order(void **state)
{
	struct lanes_builder *b = tb_new();
	uint32_t X = tb_add(b, LANES_NODE_SWITCH, 4, 0x1000000000000000ull);
	uint32_t W = tb_add(b, LANES_NODE_SWITCH, 4, 0x2000000000000000ull);
	uint32_t Z = tb_add(b, LANES_NODE_SWITCH, 4, 0x0002), Y = tb_add(b, LANES_NODE_SWITCH, 4, 0x0100);
	uint32_t y0 = tb_add(b, LANES_NODE_CA, 1, 0x500), z0 = tb_add(b, LANES_NODE_CA, 1, 0x600);
	struct lanes_fabric *f;
	struct lanes_routing *r;

	(void)state;
	tb_cable(b, X, 1, W, 1);
	tb_cable(b, X, 2, W, 2);
	tb_cable(b, W, 3, Y, 1);
	tb_cable(b, W, 4, Z, 1);
	tb_cable(b, Y, 2, y0, 1);
	tb_cable(b, Z, 2, z0, 1);
	f = tb_finish(b);
	r = route(f);
	assert_int_equal(entry(r, f, X, lanes_fabric_lid(f, y0, 1)), 1);
	assert_int_equal(entry(r, f, X, lanes_fabric_lid(f, z0, 1)), 2);
	/* switch LIDs see 1 and 1 and, not being counted, all take port 1 */
	assert_int_equal(entry(r, f, X, lanes_fabric_lid(f, W, 0)), 1);
	assert_int_equal(entry(r, f, X, lanes_fabric_lid(f, Y, 0)), 1);
	assert_int_equal(entry(r, f, X, lanes_fabric_lid(f, Z, 0)), 1);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/*
 * X -(1,2)- Y, Y -3- Z; Y has 1 CA, Z has 2 CAs. Z's CAs come first
 * (more CAs behind it), though Y is the earlier switch: at X, z0 -> 1,
 * z1 -> 2, then y0 -> 1.
 */
static void test_loaded_switches_first(void **state)
{
	struct lanes_builder *b = tb_new();
	uint32_t X = tb_add(b, LANES_NODE_SWITCH, 4, 0x10), Y = tb_add(b, LANES_NODE_SWITCH, 4, 0x11);
	uint32_t Z = tb_add(b, LANES_NODE_SWITCH, 4, 0x12);
	uint32_t y0 = tb_add(b, LANES_NODE_CA, 1, 0x500), z0 = tb_add(b, LANES_NODE_CA, 1, 0x600);
	uint32_t z1 = tb_add(b, LANES_NODE_CA, 1, 0x700);
	struct lanes_fabric *f;
	struct lanes_routing *r;

	(void)state;
	tb_cable(b, X, 1, Y, 1);
	tb_cable(b, X, 2, Y, 2);
	tb_cable(b, Y, 3, Z, 1);
	tb_cable(b, Y, 4, y0, 1);
	tb_cable(b, Z, 2, z0, 1);
	tb_cable(b, Z, 3, z1, 1);
	f = tb_finish(b);
	r = route(f);
	assert_int_equal(entry(r, f, X, lanes_fabric_lid(f, z0, 1)), 1);
	assert_int_equal(entry(r, f, X, lanes_fabric_lid(f, z1, 1)), 2);
	assert_int_equal(entry(r, f, X, lanes_fabric_lid(f, y0, 1)), 1);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/*
 * X -1- Y, X -2- W, Y -2- Z, W -2- Z; Y has 2 CAs, Z 1. At X, Y's CAs have
 * one min-hop port (1) and still load it, so z0, which may use 1 or 2,
 * sees 2 against 0 and takes port 2.
 */
static void test_single_port_routes_count(void **state)
{
	struct lanes_builder *b = tb_new();
	uint32_t X = tb_add(b, LANES_NODE_SWITCH, 4, 0x10), Y = tb_add(b, LANES_NODE_SWITCH, 4, 0x11);
	uint32_t W = tb_add(b, LANES_NODE_SWITCH, 4, 0x12), Z = tb_add(b, LANES_NODE_SWITCH, 4, 0x13);
	uint32_t y0 = tb_add(b, LANES_NODE_CA, 1, 0x500), y1 = tb_add(b, LANES_NODE_CA, 1, 0x600);
	uint32_t z0 = tb_add(b, LANES_NODE_CA, 1, 0x700);
	struct lanes_fabric *f;
	struct lanes_routing *r;

	(void)state;
	tb_cable(b, X, 1, Y, 1);
	tb_cable(b, X, 2, W, 1);
	tb_cable(b, Y, 2, Z, 1);
	tb_cable(b, W, 2, Z, 2);
	tb_cable(b, Y, 3, y0, 1);
	tb_cable(b, Y, 4, y1, 1);
	tb_cable(b, Z, 3, z0, 1);
	f = tb_finish(b);
	r = route(f);
	assert_int_equal(entry(r, f, X, lanes_fabric_lid(f, y0, 1)), 1);
	assert_int_equal(entry(r, f, X, lanes_fabric_lid(f, y1, 1)), 1);
	assert_int_equal(entry(r, f, X, lanes_fabric_lid(f, z0, 1)), 2);
	assert_int_equal(entry(r, f, W, lanes_fabric_lid(f, y0, 1)), 1);
	assert_int_equal(entry(r, f, W, lanes_fabric_lid(f, y1, 1)), 2);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* Switch LIDs are never counted, so CA entries do not depend on routing them. */
static void test_ca_lids_only(void **state)
{
	struct lanes_fabric *f = gen("torus k=4x4 p=2");
	struct lanes_routing *all = route_opts(f, 1), *cas = route_opts(f, 0);

	(void)state;
	for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
		uint32_t node = f->lid_owner[lid].node;

		for (uint32_t s = 0; s < f->num_switches; s++) {
			uint8_t p = lanes_routing_port(cas, s, lid);

			if (!is_switch(f, node))
				assert_int_equal(p, lanes_routing_port(all, s, lid));
			else if (f->switches[s] == node)
				assert_int_equal(p, 0);
			else
				assert_int_equal(p, LANES_PORT_DROP);
		}
	}
	lanes_routing_free(all);
	lanes_routing_free(cas);
	lanes_fabric_free(f);
}

static void test_deterministic(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	struct lanes_routing *r1 = route(f), *r2 = route(f);

	(void)state;
	assert_memory_equal(r1->lft, r2->lft, (size_t)r1->num_lids * r1->num_switches);
	lanes_routing_free(r1);
	lanes_routing_free(r2);
	lanes_fabric_free(f);
}

/*
 * Two islands (A-B and C, with a CA each), a CA cabled to nothing and two
 * CAs cabled to each other: unreachable LIDs are drops, nothing crashes.
 */
static void test_disconnected(void **state)
{
	struct lanes_builder *b = tb_new();
	uint32_t A = tb_add(b, LANES_NODE_SWITCH, 4, 0x10), B = tb_add(b, LANES_NODE_SWITCH, 4, 0x11);
	uint32_t C = tb_add(b, LANES_NODE_SWITCH, 4, 0x12);
	uint32_t a0 = tb_add(b, LANES_NODE_CA, 1, 0x500), c0 = tb_add(b, LANES_NODE_CA, 1, 0x600);
	uint32_t lone = tb_add(b, LANES_NODE_CA, 1, 0x700);
	uint32_t p1 = tb_add(b, LANES_NODE_CA, 1, 0x800), p2 = tb_add(b, LANES_NODE_CA, 1, 0x900);
	struct lanes_fabric *f;
	struct lanes_routing *r;

	(void)state;
	tb_cable(b, A, 1, B, 1);
	tb_cable(b, A, 2, a0, 1);
	tb_cable(b, C, 2, c0, 1);
	tb_cable(b, p1, 1, p2, 1);
	f = tb_finish(b);
	r = route(f);
	assert_int_equal(entry(r, f, B, lanes_fabric_lid(f, a0, 1)), 1);
	assert_int_equal(entry(r, f, C, lanes_fabric_lid(f, a0, 1)), LANES_PORT_DROP);
	assert_int_equal(entry(r, f, A, lanes_fabric_lid(f, c0, 1)), LANES_PORT_DROP);
	assert_int_equal(entry(r, f, C, lanes_fabric_lid(f, c0, 1)), 2);
	assert_int_equal(entry(r, f, A, lanes_fabric_lid(f, C, 0)), LANES_PORT_DROP);
	assert_int_equal(entry(r, f, C, lanes_fabric_lid(f, C, 0)), 0);
	for (uint32_t s = 0; s < f->num_switches; s++) {
		assert_int_equal(lanes_routing_port(r, s, lanes_fabric_lid(f, lone, 1)),
				 LANES_PORT_DROP);
		assert_int_equal(lanes_routing_port(r, s, lanes_fabric_lid(f, p1, 1)),
				 LANES_PORT_DROP);
	}
	for (uint32_t lid = 1; lid <= f->max_lid; lid++)
		check_shortest(f, r, lid, "disconnected");
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* LMC 1: every LID of a port is routed on a shortest path. */
static void test_lmc_lids_routed(void **state)
{
	struct lanes_builder *b = tb_new();
	uint32_t A = tb_add(b, LANES_NODE_SWITCH, 8, 0x10), B = tb_add(b, LANES_NODE_SWITCH, 8, 0x20);
	struct lanes_fabric *f;
	struct lanes_routing *r;
	struct lanes_error err;

	(void)state;
	tb_cable(b, A, 1, B, 1);
	tb_cable(b, A, 2, B, 2);
	for (int i = 0; i < 4; i++) {
		uint32_t ca = tb_add(b, LANES_NODE_CA, 1, 0x200 + (uint64_t)i);

		tb_cable(b, i < 2 ? A : B, (uint8_t)(3 + i), ca, 1);
		assert_int_equal(lanes_builder_set_port(b, ca, 1, 0, 0, 1, &err), 0);
	}
	f = tb_finish(b);
	r = route(f);
	for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
		check_shortest(f, r, lid, "lmc");
		check_walks(f, r, lid, "lmc");
	}
	for (uint32_t lid = 1; lid <= f->max_lid; lid++)
		if (f->lid_owner[lid].node != LANES_NONE && !is_switch(f, f->lid_owner[lid].node))
			assert_int_not_equal(lanes_routing_port(r, 0, lid), LANES_PORT_DROP);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* The system (image GUID, else node GUID) at the far end of switch node x's port. */
static uint64_t far_system(const struct lanes_fabric *f, uint32_t x, uint8_t port)
{
	const struct lanes_node *n = &f->nodes[lanes_fabric_port(f, x, port)->peer_node];

	return n->sysimage_guid ? n->sysimage_guid : n->guid;
}

/*
 * Seed 002's LMC rule, OpenSM's osm_switch_recommend_path: base + 1 prefers
 * a min-hop port towards a system base does not go to, then one towards
 * another node. tb_lmc_chassis: at X, base takes port 1 (A, all loads 0).
 * base + 1's scan starts at port 2 (B, least loaded), but B is A's chassis
 * and C (port 3) is another system: port 3. At LMC 2, base + 2 (scan from
 * port 4, that is 1, 2, 3) finds A's and C's systems used and B the one
 * unused node: port 2; base + 3 (scan from 3) finds everything used, loads
 * 1, 1, 1 and each node once: the first least loaded, port 3.
 */
static void test_lmc_prefers_other_system(void **state)
{
	static const uint8_t want[2][4] = { { 1, 3 }, { 1, 3, 2, 3 } };

	(void)state;
	for (uint8_t lmc = 1; lmc <= 2; lmc++) {
		uint32_t X, t0;
		struct lanes_fabric *f = tb_lmc_chassis(lmc, &X, &t0);
		struct lanes_routing *r = route(f);
		uint32_t base = lanes_fabric_lid(f, t0, 1);

		for (uint32_t k = 0; k < (1u << lmc); k++)
			assert_int_equal(entry(r, f, X, base + k), want[lmc - 1][k]);
		assert_true(far_system(f, X, entry(r, f, X, base)) !=
			    far_system(f, X, entry(r, f, X, base + 1)));
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
}

/*
 * Parallel cables, no system image GUIDs (each node its own system): X -1,2-
 * A, X -3- B, A and B -> T (CA t0 at LMC 1). base takes port 1; base + 1
 * scans from port 2, which goes to A again: port 3 (B), not 2.
 */
static void test_lmc_parallel_cables_other_node(void **state)
{
	struct lanes_builder *b = tb_new();
	uint32_t X = tb_add(b, LANES_NODE_SWITCH, 4, 0x10), A = tb_add(b, LANES_NODE_SWITCH, 4, 0x11);
	uint32_t B = tb_add(b, LANES_NODE_SWITCH, 4, 0x12), T = tb_add(b, LANES_NODE_SWITCH, 4, 0x13);
	uint32_t t0 = tb_add(b, LANES_NODE_CA, 1, 0x100), base;
	struct lanes_fabric *f;
	struct lanes_routing *r;
	struct lanes_error err;

	(void)state;
	tb_cable(b, X, 1, A, 1);
	tb_cable(b, X, 2, A, 2);
	tb_cable(b, X, 3, B, 1);
	tb_cable(b, A, 3, T, 1);
	tb_cable(b, B, 2, T, 2);
	tb_cable(b, T, 3, t0, 1);
	assert_int_equal(lanes_builder_set_port(b, t0, 1, 0, 0, 1, &err), 0);
	f = tb_finish(b);
	r = route(f);
	base = lanes_fabric_lid(f, t0, 1);
	assert_int_equal(entry(r, f, X, base), 1);
	assert_int_equal(entry(r, f, X, base + 1), 3);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/*
 * minhop_fast.c against the reference (switch LIDs one destination switch
 * at a time): lanes_minhop_route with fast 0, 1 (where it pays) and 2
 * (wherever it applies), each with 1 and 2 threads, byte for byte.
 */
static void compare_fast(const struct lanes_fabric *f, const char *name, void *ctx)
{
	struct lanes_routing *ref = NULL;
	struct lanes_route_opts o;
	struct lanes_error err;

	(void)ctx;
	lanes_route_opts_init(&o);
	o.threads = 1;
	assert_int_equal(lanes_minhop_route(f, &o, NULL, 0, &ref, &err), 0);
	for (int fast = 1; fast <= 2; fast++)
		for (unsigned threads = 1; threads <= 2; threads++) {
			struct lanes_routing *r = NULL;
			size_t n = (size_t)ref->num_lids * ref->num_switches;

			o.threads = threads;
			assert_int_equal(lanes_minhop_route(f, &o, NULL, fast, &r, &err), 0);
			for (size_t i = 0; i < n; i++)
				if (r->lft[i] != ref->lft[i])
					fail_msg("%s: LID %zu at switch %zu: port %u, %u with fast %d",
						 name, i / ref->num_switches, i % ref->num_switches,
						 ref->lft[i], r->lft[i], fast);
			lanes_routing_free(r);
		}
	lanes_routing_free(ref);
}

static void test_fast_same_as_reference(void **state)
{
	static const char *const specs[] = { "fattree k=8 n=3", "torus k=6x6 p=2",
					     "dragonfly a=8 p=4 h=4", "xgft h=3 m=2,3,2 w=1,2,3" };

	(void)state;
	each_small_fabric(compare_fast, NULL);
	each_real_fabric(LANES_DATA_DIR, compare_fast, NULL);
	for (size_t k = 0; k < sizeof(specs) / sizeof(specs[0]); k++)
		for (uint64_t seed = 0; seed <= 2; seed++) {
			struct lanes_fault_spec fs = { 0.05 * (double)seed, 0, seed };
			struct lanes_fabric *f = gen(specs[k]), *g = f;
			struct lanes_error err;

			if (seed)
				assert_int_equal(lanes_fabric_inject_faults(f, &fs, &g, NULL, &err), 0);
			compare_fast(g, specs[k], NULL);
			if (g != f)
				lanes_fabric_free(g);
			lanes_fabric_free(f);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptor),
		cmocka_unit_test(test_every_generator_shortest_and_reachable),
		cmocka_unit_test(test_real_fabric_files),
		cmocka_unit_test(test_result_is_sl0_one_vl),
		cmocka_unit_test(test_parallel_cables_alternate),
		cmocka_unit_test(test_switch_lids_least_loaded),
		cmocka_unit_test(test_equal_loads_follow_guid_map_order),
		cmocka_unit_test(test_loaded_switches_first),
		cmocka_unit_test(test_single_port_routes_count),
		cmocka_unit_test(test_ca_lids_only),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_disconnected),
		cmocka_unit_test(test_lmc_lids_routed),
		cmocka_unit_test(test_lmc_prefers_other_system),
		cmocka_unit_test(test_lmc_parallel_cables_other_node),
		cmocka_unit_test(test_fast_same_as_reference),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
