/*
 * test_sim_arb.c - IB's weighted VL arbitration in the packet-level
 * simulator (lanes/sim.h, LANES_SIM_ARB_WEIGHTED; InfiniBand Architecture
 * Specification vol. 1, rel. 1.2.1, Sec. 7.6.9), and the MTU rule.
 *
 * The fabric: switches A and B, one cable between them, hosts h0 and h1 on
 * A, h2 and h3 on B. Shift-2 traffic sends h0 -> h2 and h1 -> h3 over A->B
 * (and h2 -> h0, h3 -> h1 back over B->A). Path SL and VL are the source's
 * endpoint parity: h0 and h2 use VL 0, h1 and h3 VL 1. At full load each
 * direction of the A-B cable is saturated by one flow per VL, every other
 * link carries one flow, so the A-B link is the only contended output, and
 * its arbiter alone decides the share of each VL. Truths:
 *  - weights 1:3 (in units of 64 bytes; with 64-byte packets one and three
 *    packets a turn, with 4 KB packets 64 and 192) give VL 0 a quarter of
 *    the link and VL 1 three quarters;
 *  - weights in 64-byte units count the packet that uses them up whole:
 *    with 4 KB packets, weights 1:3 are one packet each turn, 1:1;
 *  - the default tables (every VL weight 1 in the low table) share 1:1,
 *    as round robin does;
 *  - VL 1 in the high-priority table with a limit of 2 x 4 KB before a
 *    waiting low-priority packet goes: two high packets per low one, 2:1;
 *  - a sweep gives the same points on 1 and 2 threads.
 * The accepted load is then the mean of the two flows' shares, 0.5, always.
 */
#include <math.h>

#include "testutil.h"

#include "lanes/sim.h"

/* The fabric above; hosts added first on A, then on B, so endpoint i is h_i. */
static struct lanes_fabric *two_switches(void)
{
	struct lanes_builder *b = tb_new();
	uint32_t h[4], a, c;

	for (int i = 0; i < 4; i++)
		h[i] = tb_add(b, LANES_NODE_CA, 1, 0x100 + (uint64_t)i);
	a = tb_add(b, LANES_NODE_SWITCH, 3, 0x200);
	c = tb_add(b, LANES_NODE_SWITCH, 3, 0x201);
	tb_cable(b, h[0], 1, a, 1);
	tb_cable(b, h[1], 1, a, 2);
	tb_cable(b, h[2], 1, c, 1);
	tb_cable(b, h[3], 1, c, 2);
	tb_cable(b, a, 3, c, 3);
	return tb_finish(b);
}

/* minhop's LFTs, path SL = the source host's index parity, VL = SL on every hop. */
static struct lanes_routing *two_vl_routing(const struct lanes_fabric *f)
{
	struct lanes_routing *r = route_engine(lanes_engine_find("minhop"), f, 8, 8, 0);
	const uint8_t identity[LANES_NUM_SLS] = { 0, 1 };
	struct lanes_error err;
	uint16_t map;

	assert_int_equal(lanes_routing_set_sl_mode(r, LANES_SL_PER_PAIR, &err), 0);
	assert_int_equal(lanes_routing_enable_sl2vl(r, f, &err), 0);
	assert_int_equal(lanes_routing_add_map(r, identity, &map, &err), 0);
	for (uint32_t node = 0; node < f->num_nodes; node++) {
		const struct lanes_node *nd = &f->nodes[node];

		if (nd->type == LANES_NODE_CA) {
			uint32_t src = f->ports[nd->port_base + 1].lid;

			lanes_routing_set_port_map(r, f, node, 1, map);
			for (uint32_t dst = 1; dst < r->num_lids; dst++)
				lanes_routing_set_sl(r, src, dst, (uint8_t)((node & 1) != 0));
			continue;
		}
		for (uint8_t in = 0; in <= nd->nports; in++)
			for (uint8_t out = 0; out <= nd->nports; out++)
				lanes_routing_set_switch_map(r, f, nd->switch_index, in, out, map);
	}
	lanes_routing_count_resources(r);
	assert_int_equal(r->num_vls, 2);
	return r;
}

static void base_opts(struct lanes_sim_opts *o)
{
	lanes_sim_opts_init(o);
	o->warmup_ns = 100e3;
	o->measure_ns = 1e6;
	o->threads = 1;
	o->arbitration = LANES_SIM_ARB_WEIGHTED;
}

/* Shift-2 at full load: VL 0's share of the A-B link must be share0, within 2% of the link. */
static void expect_share(const struct lanes_sim_opts *o, double share0)
{
	struct lanes_fabric *f = two_switches();
	struct lanes_routing *r = two_vl_routing(f);
	struct lanes_sim_traffic t;
	struct lanes_sim_point pt;
	struct lanes_error err;

	lanes_sim_traffic_init(&t);
	t.pattern = LANES_SIM_SHIFT;
	t.shift = 2;
	if (lanes_sim_run(f, r, o, &t, 1.0, &pt, &err))
		fail_msg("sim: %s", err.message);
	assert_false(pt.deadlock);
	/* vl_utilisation is per switch-to-switch link: the A->B and B->A directions */
	if (fabs(pt.vl_utilisation[0] - share0) > 0.02 ||
	    fabs(pt.vl_utilisation[1] - (1 - share0)) > 0.02)
		fail_msg("VL shares %.4f : %.4f, expected %.4f : %.4f", pt.vl_utilisation[0],
			 pt.vl_utilisation[1], share0, 1 - share0);
	assert_float_equal(pt.accepted, 0.5, 0.01);
	lanes_sim_point_clear(&pt);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

static void low_table(struct lanes_sim_opts *o, uint8_t weight0, uint8_t weight1)
{
	o->vlarb_low_entries = 2;
	o->vlarb_low[0].vl = 0;
	o->vlarb_low[0].weight = weight0;
	o->vlarb_low[1].vl = 1;
	o->vlarb_low[1].weight = weight1;
}

static void test_weights(void **state)
{
	struct lanes_sim_opts o;

	(void)state;
	base_opts(&o);
	expect_share(&o, 0.5); /* the default tables: round robin */
	o.arbitration = LANES_SIM_ARB_ROUND_ROBIN;
	expect_share(&o, 0.5);
	base_opts(&o);
	low_table(&o, 64, 192); /* 4 KB packets: one and three a turn */
	expect_share(&o, 0.25);
	low_table(&o, 1, 3);    /* 4 KB packets: one packet each, whatever is left */
	expect_share(&o, 0.5);
	o.packet_bytes = 64;    /* 64-byte packets: one and three a turn */
	expect_share(&o, 0.25);
}

static void test_high_priority(void **state)
{
	struct lanes_sim_opts o;

	(void)state;
	base_opts(&o);
	o.vlarb_low_entries = 1;
	o.vlarb_low[0].vl = 0;
	o.vlarb_low[0].weight = 64;
	o.vlarb_high_entries = 1;
	o.vlarb_high[0].vl = 1;
	o.vlarb_high[0].weight = 64;
	o.vlarb_high_limit = 2; /* two 4 KB packets, then a low one */
	expect_share(&o, 1.0 / 3);
	o.vlarb_high_limit = 0; /* one packet, then a low one */
	expect_share(&o, 0.5);
}

static void test_bad_tables_and_mtu(void **state)
{
	struct lanes_fabric *f = two_switches();
	struct lanes_routing *r = two_vl_routing(f);
	struct lanes_sim_opts o;
	struct lanes_sim_traffic t;
	struct lanes_sim_point pt;
	struct lanes_error err;

	(void)state;
	lanes_sim_traffic_init(&t);
	base_opts(&o);
	low_table(&o, 64, 0); /* VL 1 is used and never served */
	assert_int_equal(lanes_sim_run(f, r, &o, &t, 0.5, &pt, &err), LANES_EINVAL);
	assert_non_null(strstr(err.message, "VL 1"));
	base_opts(&o);
	o.vlarb_low[3].vl = 15;
	assert_int_equal(lanes_sim_run(f, r, &o, &t, 0.5, &pt, &err), LANES_EINVAL);
	base_opts(&o);
	o.vlarb_high_entries = 65;
	assert_int_equal(lanes_sim_run(f, r, &o, &t, 0.5, &pt, &err), LANES_EINVAL);
	/* packets are not split: larger than the MTU is refused, naming the options */
	base_opts(&o);
	o.mtu_bytes = 2048;
	assert_int_equal(lanes_sim_run(f, r, &o, &t, 0.5, &pt, &err), LANES_EINVAL);
	assert_non_null(strstr(err.message, "packet_bytes"));
	assert_non_null(strstr(err.message, "mtu_bytes"));
	o.packet_bytes = 2048;
	assert_int_equal(lanes_sim_run(f, r, &o, &t, 0.5, &pt, &err), 0);
	lanes_sim_point_clear(&pt);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* The weighted arbiter's state is per point: a sweep is the same on 1 and 2 threads. */
static void test_weighted_threads(void **state)
{
	struct lanes_fabric *f = two_switches();
	struct lanes_routing *r = two_vl_routing(f);
	struct lanes_sim_opts o;
	struct lanes_sim_traffic t;
	const double loads[] = { 0.3, 0.7, 1.0 };
	struct lanes_sim_point a[3], b[3];
	struct lanes_error err;

	(void)state;
	lanes_sim_traffic_init(&t);
	base_opts(&o);
	low_table(&o, 64, 192);
	assert_int_equal(lanes_sim_sweep(f, r, &o, &t, loads, 3, a, &err), 0);
	o.threads = 2;
	assert_int_equal(lanes_sim_sweep(f, r, &o, &t, loads, 3, b, &err), 0);
	for (int i = 0; i < 3; i++) {
		assert_true(a[i].packets > 0);
		assert_memory_equal(&a[i], &b[i], sizeof(a[i]));
		lanes_sim_point_clear(&a[i]);
		lanes_sim_point_clear(&b[i]);
	}
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weights),
		cmocka_unit_test(test_high_priority),
		cmocka_unit_test(test_bad_tables_and_mtu),
		cmocka_unit_test(test_weighted_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
