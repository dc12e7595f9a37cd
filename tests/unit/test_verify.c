/*
 * test_verify.c - the verifier on routings built by hand, where the right
 * answer is known without running it: a 4-switch ring routed clockwise has a
 * credit loop; the same ring with a dateline VL change has none; forwarding
 * loops and drops are reported with the LIDs involved; the metrics of small
 * cases are counted by hand. Switch-pairs metrics (one route per ordered
 * pair of switches, as Sancho, Robles, Lopez, Flich and Duato count in
 * "Routing in InfiniBand torus network topologies", ICPP 2003, Table 2):
 * the clockwise ring by hand, and the average distance of shortest paths on
 * their five tori both from the ring formula and as the paper prints it
 * (truncated to two decimals: 3.0857 is its 3.08).
 */
#include <math.h>

#include "testutil.h"

#include "lanes/routing.h"
#include "lanes/verify.h"

/* Ring of n switches: port 1 to the next (clockwise), port 2 to the previous, port 3 a CA. */
static struct lanes_fabric *ring(unsigned n)
{
	struct lanes_builder *b;
	struct lanes_fabric *f;
	struct lanes_error err;

	assert_int_equal(lanes_builder_new(&b, &err), 0);
	for (unsigned i = 0; i < n; i++) {
		struct lanes_node_spec s = { LANES_NODE_SWITCH, 4, 0x100 + i, 0, 0, 0, "sw" };

		assert_int_equal(lanes_builder_add_node(b, &s, NULL, &err), 0);
	}
	for (unsigned i = 0; i < n; i++) {
		struct lanes_node_spec s = { LANES_NODE_CA, 1, 0x1000 + 16 * i, 0, 0, 0, "ca" };
		uint32_t ca;

		assert_int_equal(lanes_builder_connect(b, i, 1, (i + 1) % n, 2, 4, 3, &err), 0);
		assert_int_equal(lanes_builder_add_node(b, &s, &ca, &err), 0);
		assert_int_equal(lanes_builder_connect(b, i, 3, ca, 1, 4, 3, &err), 0);
	}
	assert_int_equal(lanes_builder_finish(b, &f, &err), 0);
	return f; /* switch i has LID i+1, its CA LID n+i+1 */
}

/* Everything clockwise: port 1 until the destination's switch. */
static struct lanes_routing *clockwise(const struct lanes_fabric *f, unsigned n)
{
	struct lanes_routing *r;
	struct lanes_error err;

	assert_int_equal(lanes_routing_new(f, &r, &err), 0);
	for (unsigned x = 0; x < n; x++)
		for (unsigned t = 0; t < n; t++) {
			lanes_routing_set_port(r, x, t + 1, x == t ? 0 : 1);
			lanes_routing_set_port(r, x, n + t + 1, x == t ? 3 : 1);
		}
	return r;
}

static struct lanes_verify_result *verify(const struct lanes_fabric *f,
					  const struct lanes_routing *r)
{
	struct lanes_verify_opts o;
	struct lanes_verify_result *res;
	struct lanes_error err;

	lanes_verify_opts_init(&o);
	if (lanes_verify(f, r, &o, &res, &err))
		fail_msg("verify: %s", err.message);
	return res;
}

/* Follow the LFTs from a LID's switch: does the path use link a->b and then b->c? */
static int path_uses(const struct lanes_fabric *f, const struct lanes_routing *r, uint32_t src,
		     uint32_t dst, uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t x = lanes_fabric_lid_switch(f, src), prev2 = LANES_NONE, prev = LANES_NONE;

	for (unsigned steps = 0; steps < 64 && x != LANES_NONE; steps++) {
		uint8_t p = lanes_routing_port(r, x, dst);
		const struct lanes_port *port = lanes_fabric_port(f, f->switches[x], p);

		if (prev2 == a && prev == b && x == c)
			return 1;
		if (p == 0 || port->peer_node == LANES_NONE ||
		    f->nodes[port->peer_node].type != LANES_NODE_SWITCH)
			return prev == a && x == b && c == LANES_NONE;
		prev2 = prev;
		prev = x;
		x = f->nodes[port->peer_node].switch_index;
	}
	return 0;
}

static void test_clockwise_ring_has_a_cycle(void **state)
{
	struct lanes_fabric *f = ring(4);
	struct lanes_routing *r = clockwise(f, 4);
	struct lanes_verify_result *res = verify(f, r);

	(void)state;
	assert_true(res->reachable);
	assert_int_equal(res->unreachable_pairs, 0);
	assert_false(res->deadlock_free);
	assert_int_equal(res->cycle_len, 4); /* the four clockwise links, VL 0 */
	for (uint32_t i = 0; i < 4; i++) {
		const struct lanes_cycle_step *s = &res->cycle[i], *next = &res->cycle[(i + 1) % 4];

		assert_int_equal(s->to_sw, (s->from_sw + 1) % 4);
		assert_int_equal(s->from_port, 1);
		assert_int_equal(s->to_port, 2);
		assert_int_equal(s->vl, 0);
		assert_int_equal(next->from_sw, s->to_sw);
		/* the named pair really uses this channel and then the next */
		assert_true(path_uses(f, r, s->src_lid, s->dst_lid, s->from_sw, s->to_sw,
				      next->to_sw));
	}
	assert_int_equal(res->vls_used, 1);
	assert_int_equal(res->sls_used, 1);
	/* CA-to-CA: 4 sources x 3 destinations, clockwise distances 1, 2, 3 (+2 CA links) */
	assert_int_equal(res->routes, 12);
	assert_int_equal(res->hops_max, 5);
	assert_true(res->hops_avg > 4.0 - 1e-9 && res->hops_avg < 4.0 + 1e-9);
	/* each clockwise link carries 1 + 2 + 3 = 6 routes, each counter-clockwise link none */
	assert_int_equal(res->rpc_max, 6);
	assert_int_equal(res->rpc_min, 0);
	assert_true(res->rpc_avg > 3.0 - 1e-9 && res->rpc_avg < 3.0 + 1e-9);
	assert_true(res->rpc_stddev > 3.0 - 1e-9 && res->rpc_stddev < 3.0 + 1e-9);
	/* shortest CA-to-CA distances in a 4-ring: 3, 4, 3 for 1, 2, 3 steps clockwise */
	assert_true(res->stretch_max > 5.0 / 3 - 1e-9 && res->stretch_max < 5.0 / 3 + 1e-9);
	lanes_verify_result_free(res);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/*
 * The dateline: a path from switch s that wraps past switch 3 -> 0 gets SL s
 * (per source switch), every other path SL 0. At switch x, SL s maps to VL 1
 * once the packet is past the dateline (x < s), else VL 0.
 */
static void test_dateline_makes_the_ring_acyclic(void **state)
{
	struct lanes_fabric *f = ring(4);
	struct lanes_routing *r = clockwise(f, 4);
	struct lanes_error err;

	(void)state;
	assert_int_equal(lanes_routing_set_sl_mode(r, LANES_SL_PER_SRC_SWITCH, &err), 0);
	for (unsigned s = 0; s < 4; s++)
		for (unsigned t = 0; t < 4; t++) {
			lanes_routing_set_sl(r, s, t + 1, (uint8_t)(t < s ? s : 0));
			lanes_routing_set_sl(r, s, 4 + t + 1, (uint8_t)(t < s ? s : 0));
		}
	assert_int_equal(lanes_routing_enable_sl2vl(r, f, &err), 0);
	for (unsigned x = 0; x < 4; x++) {
		uint8_t map[16] = { 0 };
		uint16_t m;

		for (unsigned s = 1; s < 4; s++)
			map[s] = x < s;
		assert_int_equal(lanes_routing_add_map(r, map, &m, &err), 0);
		for (uint8_t in = 0; in <= 4; in++)
			for (uint8_t out = 0; out <= 4; out++)
				lanes_routing_set_switch_map(r, f, x, in, out, m);
	}
	lanes_routing_count_resources(r);
	assert_int_equal(r->num_vls, 2);

	struct lanes_verify_result *res = verify(f, r);

	assert_true(res->reachable);
	assert_true(res->deadlock_free);
	assert_null(res->cycle);
	assert_int_equal(res->vls_used, 2);
	assert_int_equal(res->sls_used, 4);
	assert_false(res->vl15_used);
	assert_false(res->vls_over_budget);
	lanes_verify_result_free(res);

	/* the same maps with a VL budget of 1 are over budget */
	struct lanes_verify_opts o;

	lanes_verify_opts_init(&o);
	o.max_vls = 1;
	assert_int_equal(lanes_verify(f, r, &o, &res, &err), 0);
	assert_true(res->vls_over_budget);
	lanes_verify_result_free(res);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

static void test_loops_and_drops_are_reported(void **state)
{
	struct lanes_fabric *f = ring(4);
	struct lanes_routing *r = clockwise(f, 4);
	struct lanes_verify_result *res;

	(void)state;
	/* destination CA of switch 2 (LID 7): switch 0 and switch 1 send it back and forth */
	lanes_routing_set_port(r, 0, 7, 1);
	lanes_routing_set_port(r, 1, 7, 2);
	/* destination switch 3 (LID 4): switch 2 drops it */
	lanes_routing_set_port(r, 2, 4, LANES_PORT_DROP);
	res = verify(f, r);
	assert_false(res->reachable);
	/* LID 7 from switches 0, 1 and 3 (3 goes through 0): 3 switches + their 3 CAs */
	assert_int_equal(res->loops, 6);
	/* LID 4 from switch 2, and from 1 and 0 through it: 3 switches + 3 CAs */
	assert_int_equal(res->drops, 6);
	assert_int_equal(res->unreachable_pairs, 12);
	assert_true(res->num_examples >= 2);
	for (uint32_t i = 0; i < res->num_examples; i++) {
		const struct lanes_path_failure *e = &res->examples[i];

		if (e->dst_lid == 7) {
			assert_int_equal(e->kind, LANES_PATH_LOOP);
			assert_true(e->at_switch <= 1);
		} else {
			assert_int_equal(e->dst_lid, 4);
			assert_int_equal(e->kind, LANES_PATH_DROP);
			assert_int_equal(e->at_switch, 2);
			assert_int_equal(e->port, LANES_PORT_DROP);
		}
	}
	lanes_verify_result_free(res);

	/* a port without a cable, and port 0 at the wrong switch, are drops too */
	lanes_routing_free(r);
	r = clockwise(f, 4);
	lanes_routing_set_port(r, 1, 8, 4); /* port 4 has no cable */
	lanes_routing_set_port(r, 3, 5, 0); /* switch 3 keeps the CA of switch 0's packets */
	res = verify(f, r);
	assert_int_equal(res->loops, 0);
	/* LID 8 dies at switch 1, reached from switches 0 and 1; LID 5 dies at switch 3,
	 * reached from switches 1, 2 and 3: each switch and its CA */
	assert_int_equal(res->drops, (2 + 2) + (3 + 3));
	lanes_verify_result_free(res);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* A two-switch fabric with two parallel cables and two CAs each. */
static void test_ebb_counts_shared_links(void **state)
{
	struct lanes_fabric *f = read_fabric(LANES_DATA_DIR, "ibsim_net.2sw2path4hca2port", NULL);
	struct lanes_routing *r;
	struct lanes_error err;
	struct lanes_verify_result *res;

	(void)state;
	assert_int_equal(lanes_routing_new(f, &r, &err), 0);
	/* Switch1: Hca1 on ports 1,2; cables to Switch2 on ports 3 and 5. Everything remote via port 3. */
	for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
		uint32_t sw = lanes_fabric_lid_switch(f, lid);

		for (uint32_t x = 0; x < 2; x++) {
			uint8_t p = 3;

			if (sw == x) {
				uint32_t node = f->lid_owner[lid].node;

				p = f->nodes[node].type == LANES_NODE_SWITCH
					    ? 0
					    : lanes_fabric_port(f, node, f->lid_owner[lid].port)->peer_port;
			}
			lanes_routing_set_port(r, x, lid, p);
		}
	}
	res = verify(f, r);
	assert_true(res->reachable);
	assert_true(res->deadlock_free);
	/* 4 CA ports: 2 behind each switch. A bisection pairs each port with another; pairs
	 * across the switches all share one cable per direction. The EBB lies strictly
	 * between the all-local case (1.0) and two flows per cable (0.5). */
	assert_true(res->ebb > 0.5 && res->ebb < 1.0);
	assert_int_equal(res->rpc_max, 4); /* 2 sources x 2 remote CA ports on cable 3 */
	assert_int_equal(res->rpc_min, 0); /* the parallel cable on port 5 is unused */
	lanes_verify_result_free(res);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* A routing written here, independent of the engines: lowest port on a shortest path. */
static struct lanes_routing *lowest_port_shortest(const struct lanes_fabric *f)
{
	struct lanes_routing *r;
	struct lanes_error err;
	uint8_t *dist;

	assert_int_equal(lanes_routing_new(f, &r, &err), 0);
	assert_int_equal(lanes_fabric_switch_distances(f, &dist, &err), 0);
	for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
		uint32_t node = f->lid_owner[lid].node, t = lanes_fabric_lid_switch(f, lid);

		for (uint32_t x = 0; x < f->num_switches && node != LANES_NONE; x++) {
			uint8_t port = 0;

			if (x == t && f->nodes[node].type != LANES_NODE_SWITCH)
				port = lanes_fabric_port(f, node, f->lid_owner[lid].port)->peer_port;
			for (uint32_t e = f->adj_off[x]; x != t && e < f->adj_off[x + 1] && !port; e++)
				if (dist[(size_t)f->adj[e].sw * f->num_switches + t] + 1 ==
				    dist[(size_t)x * f->num_switches + t])
					port = f->adj[e].port;
			lanes_routing_set_port(r, x, lid, port);
		}
	}
	free(dist);
	return r;
}

static void test_same_result_for_any_thread_count(void **state)
{
	struct lanes_fabric *f = gen("torus k=8x8 p=2");
	struct lanes_routing *r = lowest_port_shortest(f);
	struct lanes_verify_result *res[3];
	struct lanes_verify_opts o;
	struct lanes_error err;

	(void)state;
	lanes_verify_opts_init(&o);
	for (unsigned t = 1; t <= 3; t++) {
		o.threads = t;
		assert_int_equal(lanes_verify(f, r, &o, &res[t - 1], &err), 0);
	}
	assert_true(res[0]->reachable);
	assert_false(res[0]->deadlock_free); /* shortest paths on a torus wrap around */
	assert_int_equal(res[0]->routes, 128 * 127);
	for (unsigned t = 1; t < 3; t++) {
		struct lanes_verify_result a = *res[0], b = *res[t];

		assert_int_equal(a.cycle_len, b.cycle_len);
		assert_memory_equal(a.cycle, b.cycle, a.cycle_len * sizeof(*a.cycle));
		a.cycle = b.cycle = NULL;
		assert_memory_equal(&a, &b, sizeof(a));
	}
	for (unsigned t = 0; t < 3; t++)
		lanes_verify_result_free(res[t]);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* The clockwise ring of 4 counted switch to switch: route x -> t has (t - x) mod 4 hops. */
static void test_switch_pairs_ring(void **state)
{
	struct lanes_fabric *f = ring(4);
	struct lanes_routing *r = clockwise(f, 4);
	struct lanes_verify_result *res, *other, *ca = verify(f, r);
	struct lanes_verify_opts o;
	struct lanes_error err;

	(void)state;
	lanes_verify_opts_init(&o);
	o.metric_traffic = LANES_VERIFY_SWITCH_PAIRS;
	assert_int_equal(lanes_verify(f, r, &o, &res, &err), 0);
	assert_int_equal(res->routes, 12);
	assert_float_equal(res->hops_avg, 24.0 / 12, 1e-12); /* 1 + 2 + 3 from each switch */
	assert_int_equal(res->hops_max, 3);
	assert_int_equal(res->rpc_max, 6); /* a clockwise link: 3 + 2 + 1 routes cross it */
	assert_int_equal(res->rpc_min, 0); /* nothing goes anticlockwise */
	assert_float_equal(res->rpc_avg, 3.0, 1e-12);
	/* the deadlock verdict is the CA traffic's either way */
	assert_false(res->deadlock_free);
	assert_int_equal(res->cdg_dependencies, ca->cdg_dependencies);
	assert_int_equal(ca->routes, 12);
	assert_float_equal(ca->hops_avg, 2.0 + 2, 1e-12); /* CA to CA: two more links */
	o.ca_only = 1;
	assert_int_equal(lanes_verify(f, r, &o, &other, &err), LANES_EINVAL);
	o.ca_only = 0;
	o.metric_traffic = 9;
	assert_int_equal(lanes_verify(f, r, &o, &other, &err), LANES_EINVAL);
	lanes_verify_result_free(res);
	lanes_verify_result_free(ca);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/*
 * Shortest paths on the tori of Sancho et al.'s Table 2: the average switch
 * distance over ordered pairs is sum over dimensions of floor(k^2 / 4) (a
 * ring's distances from one switch) times S / k, over S - 1; the paper
 * prints 2.13, 3.08, 4.06, 2.07 and 3.04. Every route crosses hops links,
 * so the routes per channel average S (S - 1) hops_avg / (2 n S).
 */
static void test_switch_pairs_tori(void **state)
{
	const char *const specs[] = { "torus k=4x4 p=1", "torus k=6x6 p=1", "torus k=8x8 p=1",
				      "torus k=3x3x3 p=1", "torus k=4x4x4 p=1" };
	const unsigned sides[][3] = { { 4, 4, 0 }, { 6, 6, 0 }, { 8, 8, 0 }, { 3, 3, 3 }, { 4, 4, 4 } };
	const double paper[] = { 2.13, 3.08, 4.06, 2.07, 3.04 };

	(void)state;
	for (size_t i = 0; i < sizeof(paper) / sizeof(paper[0]); i++) {
		struct lanes_fabric *f = gen(specs[i]);
		struct lanes_routing *r = lowest_port_shortest(f);
		struct lanes_verify_result *res;
		struct lanes_verify_opts o;
		struct lanes_error err;
		double S = f->num_switches, per_switch = 0, dims = 0;

		for (unsigned d = 0; d < 3 && sides[i][d]; d++, dims++)
			per_switch += (double)(sides[i][d] * sides[i][d] / 4) * S / sides[i][d];
		lanes_verify_opts_init(&o);
		o.metric_traffic = LANES_VERIFY_SWITCH_PAIRS;
		o.ebb_patterns = 0;
		assert_int_equal(lanes_verify(f, r, &o, &res, &err), 0);
		assert_int_equal(res->routes, S * (S - 1));
		assert_float_equal(res->hops_avg, per_switch / (S - 1), 1e-12);
		assert_float_equal(floor(res->hops_avg * 100) / 100, paper[i], 1e-9); /* truncated */
		assert_float_equal(res->stretch_max, 1.0, 1e-12);
		assert_float_equal(res->rpc_avg, S * (S - 1) * res->hops_avg / (2 * dims * S), 1e-9);
		lanes_verify_result_free(res);
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clockwise_ring_has_a_cycle),
		cmocka_unit_test(test_dateline_makes_the_ring_acyclic),
		cmocka_unit_test(test_loops_and_drops_are_reported),
		cmocka_unit_test(test_ebb_counts_shared_links),
		cmocka_unit_test(test_same_result_for_any_thread_count),
		cmocka_unit_test(test_switch_pairs_ring),
		cmocka_unit_test(test_switch_pairs_tori),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
