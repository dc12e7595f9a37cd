/*
 * test_sim_measure.c - what the simulator measures for seed 000's hot-spot
 * pattern (Maglione-Mathey et al., "Leveraging InfiniBand controller to
 * configure deadlock-free routing engines for Dragonflies", JPDC 147
 * (2021), Sec. 5.2 item 3): h_s = floor(0.06 N) endpoints send at full
 * rate to h_d = floor(log2 h_s) destinations, the others uniformly at the
 * offered load, and the throughput is sampled "only for those endnodes not
 * receiving hot-spot traffic". Truths:
 *  - the measured endpoints are exactly all but the h_d destinations that
 *    the full-rate senders address;
 *  - below saturation, a measured endpoint r receives from each uniform
 *    sender other than itself load / (N - 1) of a link, so the accepted
 *    load is load * mean over measured r of (uniform senders but r) / (N-1):
 *    0.9443 * load on 72 endpoints (66 measured uniform senders receive
 *    from 67 others, 4 hot-spot senders from 68: (66 * 67 + 4 * 68) /
 *    (70 * 71)). Counting the saturated destinations (1.0 of a link each)
 *    would give about 0.119 at load 0.1 instead of 0.094.
 *
 * And where the ranks of a pattern run (lanes_sim_traffic.placement): under
 * the 6-point stencil each sender spreads its load evenly over its 6
 * neighbours, so below saturation a switch-to-switch channel is busy for
 * load * (sum over the routes crossing it of 1/6) of the time, the routes
 * walked over the LFTs. The simulated busiest channel must match that for
 * both placements, and the random placement must spread the stencil: on the
 * 342-endpoint dragonfly the linear one puts whole grid planes on single
 * global cables.
 */
#include <math.h>

#include "testutil.h"

#include "lanes/sim.h"
#include "sim/traffic.h"
#include "sim_testutil.h"

/* The hot-spot traffic's measured set: all but the destinations of the full-rate senders. */
static void check_measured_set(const struct lanes_traffic *t, uint32_t senders, uint32_t dests)
{
	uint8_t *is_dest = calloc(t->num_endpoints, 1);
	uint32_t full = 0, measured = 0, num_dests = 0;

	assert_non_null(is_dest);
	assert_true(t->measure_at_destination);
	for (uint32_t e = 0; e < t->num_endpoints; e++) {
		if (t->role[e] != LANES_TRAFFIC_FULL_RATE)
			continue;
		full++;
		for (uint32_t k = t->set_off[e]; k < t->set_off[e + 1]; k++)
			is_dest[t->set[k]] = 1;
	}
	for (uint32_t e = 0; e < t->num_endpoints; e++) {
		num_dests += is_dest[e];
		measured += t->measured[e];
		assert_int_equal(t->measured[e], !is_dest[e]);
	}
	assert_int_equal(full, senders);
	assert_int_equal(num_dests, dests);
	assert_int_equal(measured, t->num_endpoints - dests);
	free(is_dest);
}

/* What the measured endpoints receive below saturation, per endpoint, at load 1. */
static double expected_share(const struct lanes_traffic *t)
{
	uint32_t uniform = 0, measured = 0;
	double sum = 0;

	for (uint32_t e = 0; e < t->num_endpoints; e++)
		uniform += t->role[e] == LANES_TRAFFIC_OFFERED;
	for (uint32_t e = 0; e < t->num_endpoints; e++) {
		if (!t->measured[e])
			continue;
		measured++;
		sum += (double)(uniform - (t->role[e] == LANES_TRAFFIC_OFFERED)) /
		       (t->num_endpoints - 1);
	}
	return sum / measured;
}

static void test_hotspot_measured_at_receivers(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	const struct lanes_engine *e = lanes_engine_find("dla");
	struct lanes_routing *r = route_engine(e, f, 8, 8, 0);
	struct lanes_sim_opts o;
	struct lanes_sim_traffic spec;
	struct lanes_traffic t;
	struct lanes_error err;
	double share;

	(void)state;
	lanes_sim_opts_init(&o);
	o.warmup_ns = 100e3;
	o.measure_ns = 2e6;
	o.threads = 1;
	lanes_sim_traffic_init(&spec);
	spec.pattern = LANES_SIM_HOTSPOT;
	assert_int_equal(lanes_traffic_make(f, &spec, o.seed, &t, &err), 0);
	assert_int_equal(t.num_endpoints, 72);
	check_measured_set(&t, 4, 2); /* floor(0.06 * 72) = 4, floor(log2 4) = 2 */
	share = expected_share(&t);
	assert_float_equal(share, (66.0 * 67 + 4 * 68) / (70.0 * 71), 1e-12);
	for (int k = 0; k < 3; k++) {
		const double loads[] = { 0.1, 0.3, 0.5 };
		struct lanes_sim_point pt;

		if (lanes_sim_run(f, r, &o, &spec, loads[k], &pt, &err))
			fail_msg("sim: %s", err.message);
		assert_false(pt.deadlock);
		/* within 3%: a 2 ms window holds 10,000 and more measured packets */
		assert_float_equal(pt.accepted, share * loads[k], 0.03 * share * loads[k]);
		lanes_sim_point_clear(&pt);
	}
	lanes_traffic_free(&t);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* The busiest switch-to-switch channel's load per unit of offered load, stencil traffic. */
static double stencil_channel_max(const struct lanes_fabric *f, const struct lanes_routing *r,
				  const struct lanes_traffic *t)
{
	double *load = calloc(f->num_port_slots, sizeof(*load)), most = 0;
	uint32_t slots[64];

	assert_non_null(load);
	for (uint32_t e = 0; e < t->num_endpoints; e++) {
		uint32_t lo = t->set_off[e], hi = t->set_off[e + 1];

		for (uint32_t k = lo; t->role[e] == LANES_TRAFFIC_OFFERED && k < hi; k++) {
			unsigned n = walk_route(f, r, t, e, t->set[k], slots);

			for (unsigned j = 0; j < n; j++)
				load[slots[j]] += 1.0 / (hi - lo);
		}
	}
	for (uint32_t slot = 0; slot < f->num_port_slots; slot++)
		if (load[slot] > most)
			most = load[slot];
	free(load);
	return most;
}

static void test_stencil_placement(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=6 p=3 h=3");
	struct lanes_routing *r = route_engine(lanes_engine_find("dla"), f, 8, 8, 0);
	struct lanes_sim_opts o;
	struct lanes_sim_traffic spec;
	struct lanes_error err;
	double most[2];

	(void)state;
	lanes_sim_opts_init(&o);
	o.threads = 1;
	lanes_sim_traffic_init(&spec);
	spec.pattern = LANES_SIM_STENCIL3D;
	for (int placement = LANES_SIM_PLACE_LINEAR; placement <= LANES_SIM_PLACE_RANDOM; placement++) {
		struct lanes_traffic t;
		struct lanes_sim_point pt;

		spec.placement = placement;
		assert_int_equal(lanes_traffic_make(f, &spec, o.seed, &t, &err), 0);
		most[placement] = stencil_channel_max(f, r, &t);
		lanes_traffic_free(&t);
		/* load 0.2 keeps the busiest channel below 1 in both; 5 ms hold 1,000s of packets */
		if (lanes_sim_run(f, r, &o, &spec, 0.2, &pt, &err))
			fail_msg("sim: %s", err.message);
		assert_false(pt.deadlock);
		assert_float_equal(pt.accepted, 0.2, 0.01);
		assert_float_equal(pt.link_utilisation_max, 0.2 * most[placement],
				   0.05 * 0.2 * most[placement]);
		lanes_sim_point_clear(&pt);
	}
	/*
	 * Linear: the walk finds 24 stencil routes (4 links' worth) on one
	 * global cable, as rows of the 8 x 7 x 6 grid fall into groups of 18
	 * endpoints. Random: about 1,900 of the 2,016 routes leave their group,
	 * 5.6 per directed global cable on average; the busiest carries a few
	 * times that share, well under the linear one.
	 */
	assert_true(most[LANES_SIM_PLACE_LINEAR] <= 1.0 / 0.2);
	assert_true(most[LANES_SIM_PLACE_RANDOM] < 0.75 * most[LANES_SIM_PLACE_LINEAR]);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hotspot_measured_at_receivers),
		cmocka_unit_test(test_stencil_placement),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
