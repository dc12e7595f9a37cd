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
 */
#include <math.h>

#include "testutil.h"

#include "lanes/sim.h"
#include "sim/traffic.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hotspot_measured_at_receivers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
