/*
 * test_sim.c - the packet-level simulator (lanes/sim.h), against truths
 * that do not come from a run:
 *  - zero-load latency on a line of switches equals the model's analytic
 *    sum, (hops + 1) link latencies + hops switch latencies + one packet
 *    time (virtual cut-through: the head goes on after the routing time, so
 *    only the last link's serialisation adds to the latency);
 *  - one flow at load 1.0 gets its whole link (accepted within 1%);
 *  - minhop on a ring of 5 has a credit loop (the verifier says so) and
 *    deadlocks under load, with a witness that is a cycle of channels;
 *    up*\/down* on the same ring is acyclic and never deadlocks;
 *  - a sweep gives the same points on 1 and 2 threads;
 *  - a dragonfly a=4 p=2 h=2 with dla (deadlock-free, minimal) saturates
 *    at 0.9 of the link bandwidth or more under uniform traffic;
 *  - shift permutations on a line of switches get 1 / (max flows per
 *    channel); the dragonfly worst case under dla gets 1 / (a * p);
 *  - without VOQ, head-of-line blocking costs throughput; below saturation
 *    what is offered is accepted;
 *  - every engine on every small fabric: a routing the verifier accepts
 *    never deadlocks, and every deadlock's witness is a cycle.
 */
#include <pthread.h>

#include "sim_testutil.h"

#include "lanes/rng.h"
#include "lanes/sim.h"
#include "sim/traffic.h"

/* ---- helpers ---- */

/* A line: host - S1 - S2 - ... - Sk - host (switch i: port 1 left, port 2 right). */
static struct lanes_fabric *line_of_switches(unsigned k)
{
	struct lanes_builder *b = tb_new();
	uint32_t h0 = tb_add(b, LANES_NODE_CA, 1, 0x100), prev = h0, h1;
	uint8_t prev_port = 1;

	for (unsigned i = 0; i < k; i++) {
		uint32_t sw = tb_add(b, LANES_NODE_SWITCH, 2, 0x200 + i);

		tb_cable(b, prev, prev_port, sw, 1);
		prev = sw;
		prev_port = 2;
	}
	h1 = tb_add(b, LANES_NODE_CA, 1, 0x101);
	tb_cable(b, prev, prev_port, h1, 1);
	return tb_finish(b);
}

static struct lanes_routing *route_with(const char *engine, const struct lanes_fabric *f)
{
	const struct lanes_engine *e = lanes_engine_find(engine);

	assert_non_null(e);
	return route_engine(e, f, 8, 8, 0);
}

/* Short windows: these tests need thousands of packets, not millions. */
static void quick_opts(struct lanes_sim_opts *o)
{
	lanes_sim_opts_init(o);
	o->warmup_ns = 100e3;
	o->measure_ns = 1e6;
	o->threads = 1;
}

static struct lanes_sim_point run_point(const struct lanes_fabric *f,
					const struct lanes_routing *r,
					const struct lanes_sim_opts *o,
					const struct lanes_sim_traffic *t, double load)
{
	struct lanes_sim_point pt;
	struct lanes_error err;

	if (lanes_sim_run(f, r, o, t, load, &pt, &err))
		fail_msg("sim: %s", err.message);
	return pt;
}

/* ---- zero-load latency ---- */

/*
 * One packet crosses k switches and k + 1 links. Its head leaves the source
 * at creation, reaches each switch one link latency later and leaves it one
 * switch latency after that (the downstream buffer is empty); the tail
 * reaches the destination one packet time after the head. So
 * latency = (k + 1) * link + k * switch + bytes * 8 / Gb/s.
 */
static void check_zero_load(unsigned k, uint32_t bytes, double link_ns, double switch_ns,
			    double gbps, uint32_t buffer_bytes)
{
	struct lanes_fabric *f = line_of_switches(k);
	struct lanes_routing *r = route_with("minhop", f);
	struct lanes_sim_opts o;
	struct lanes_sim_traffic t;
	struct lanes_sim_point pt;
	double expect = (k + 1) * link_ns + k * switch_ns + bytes * 8.0 / gbps;

	quick_opts(&o);
	o.packet_bytes = bytes;
	o.link_latency_ns = link_ns;
	o.switch_latency_ns = switch_ns;
	o.link_gbps = gbps;
	o.buffer_bytes = buffer_bytes;
	lanes_sim_traffic_init(&t);
	t.pattern = LANES_SIM_SHIFT;
	t.shift = 1;
	pt = run_point(f, r, &o, &t, 0.05);
	assert_true(pt.packets > 10);
	assert_false(pt.deadlock);
	assert_float_equal(pt.latency_avg_ns, expect, 1e-6);
	assert_float_equal(pt.latency_p99_ns, expect, 1e-6);
	lanes_sim_point_clear(&pt);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

static void test_zero_load_latency(void **state)
{
	(void)state;
	check_zero_load(1, 4096, 10, 100, 32, 0);   /* 2*10 + 100 + 1024 = 1144 ns */
	check_zero_load(3, 4096, 10, 100, 32, 0);   /* 4*10 + 300 + 1024 = 1364 ns */
	check_zero_load(5, 2048, 25, 60, 100, 0);   /* 6*25 + 300 + 163.84 ns */
	check_zero_load(2, 256, 5, 0, 8, 0);        /* 15 + 256 ns */
	/* seed 004's setup: 1X SDR links (2 Gb/s of data), 100 ns routing and fly
	 * time, 32 B and 512 B packets, 2 KB buffers */
	check_zero_load(3, 32, 100, 100, 2, 2048);  /* 400 + 300 + 128 ns */
	check_zero_load(3, 512, 100, 100, 2, 2048); /* 400 + 300 + 2048 ns */
}

/* ---- one flow at full load ---- */

static void check_full_rate(unsigned k, int voq)
{
	struct lanes_fabric *f = line_of_switches(k);
	struct lanes_routing *r = route_with("minhop", f);
	struct lanes_sim_opts o;
	struct lanes_sim_traffic t;
	struct lanes_sim_point pt;

	quick_opts(&o);
	o.voq = voq;
	lanes_sim_traffic_init(&t);
	t.pattern = LANES_SIM_SHIFT;
	pt = run_point(f, r, &o, &t, 1.0);
	assert_false(pt.deadlock);
	/* within 1%: the window cuts a packet time at either end */
	assert_float_equal(pt.accepted, 1.0, 0.01);
	/* both directions of every switch-to-switch cable carry one flow at link rate */
	if (k > 1) {
		assert_true(pt.link_utilisation_avg >= 0.99 && pt.link_utilisation_max <= 1.0 + 1e-9);
		assert_true(pt.vl_utilisation[0] >= 0.99);
	}
	lanes_sim_point_clear(&pt);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

static void test_full_link_bandwidth(void **state)
{
	(void)state;
	check_full_rate(1, 1);
	check_full_rate(3, 1);
	check_full_rate(3, 0);
}

/* ---- permutations: 1 / (max flows per channel) ---- */


/*
 * Shift permutations on a line of 8 switches (mesh k=8 p=1, minhop: one
 * path per pair, no credit loop). Every flow gets 1 / (the most flows on a
 * channel of its path) of its link when every flow has the same bottleneck
 * and the flows of a bottleneck come in on different input ports (round
 * robin among inputs is then fair); the mean over flows is the accepted
 * load (issue 20 item 5: "1 / (max flows per channel) within 5%"). Shifts
 * of 3 to 5 are the "parking lot": two flows share one input of a
 * bottleneck and get a quarter each, not a third, as on real switches.
 */
static void test_permutation_max_flows(void **state)
{
	struct lanes_fabric *f = gen("mesh k=8 p=1");
	struct lanes_routing *r = route_with("minhop", f);
	struct lanes_sim_opts o;
	struct lanes_sim_traffic spec;
	struct lanes_error err;

	(void)state;
	quick_opts(&o);
	lanes_sim_traffic_init(&spec);
	spec.pattern = LANES_SIM_SHIFT;
	for (uint32_t shift = 1; shift <= 7; shift++) {
		struct lanes_traffic t;
		struct lanes_sim_point pt;
		unsigned *flows;
		double expect = 0;

		if (shift >= 3 && shift <= 5)
			continue;
		flows = calloc(f->num_port_slots, sizeof(unsigned));
		spec.shift = shift;
		assert_int_equal(lanes_traffic_make(f, &spec, o.seed, &t, &err), 0);
		assert_int_equal(t.num_endpoints, 8);
		for (uint32_t i = 0; i < t.num_endpoints; i++)
			walk_flow(f, r, &t, i, flows, 1);
		for (uint32_t i = 0; i < t.num_endpoints; i++)
			expect += 1.0 / walk_flow(f, r, &t, i, flows, 0) / t.num_endpoints;
		/* on a line of 8, shift s puts min(s, 8 - s) flows on the busiest channels */
		assert_float_equal(expect, 1.0 / (shift < 8 - shift ? shift : 8 - shift), 1e-12);
		pt = run_point(f, r, &o, &spec, 1.0);
		assert_false(pt.deadlock);
		assert_float_equal(pt.accepted, expect, 0.05 * expect);
		lanes_sim_point_clear(&pt);
		lanes_traffic_free(&t);
		free(flows);
	}
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/*
 * The dragonfly worst case under minimal routing (issue 20 item 5): every
 * host of group g sends to a host of group g + 1, so the a * p hosts of a
 * group share the one global cable to the next group: 1 / (a * p) of a
 * link each, 0.125 on the 72-node dragonfly (Kim, Dally, Scott and Abts,
 * "Technology-driven, highly-scalable dragonfly topology", ISCA 2008,
 * Sec. 4.2). The traffic is the dragonfly worst-case pattern (groups
 * recognised from the cables); the LFT walk confirms every flow's
 * bottleneck is 8 flows before the run. Within 2%.
 */
static void test_dragonfly_worst_case(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	struct lanes_routing *r = route_with("dla", f);
	struct lanes_sim_opts o;
	struct lanes_sim_traffic spec;
	struct lanes_traffic t;
	struct lanes_sim_point pt;
	struct lanes_error err;
	unsigned *flows = calloc(f->num_port_slots, sizeof(unsigned));

	(void)state;
	quick_opts(&o);
	lanes_sim_traffic_init(&spec);
	spec.pattern = LANES_SIM_DRAGONFLY_WORST;
	assert_int_equal(lanes_traffic_make(f, &spec, o.seed, &t, &err), 0);
	for (uint32_t i = 0; i < t.num_endpoints; i++)
		walk_flow(f, r, &t, i, flows, 1);
	for (uint32_t i = 0; i < t.num_endpoints; i++)
		assert_int_equal(walk_flow(f, r, &t, i, flows, 0), 4 * 2);
	pt = run_point(f, r, &o, &spec, 1.0);
	assert_false(pt.deadlock);
	assert_float_equal(pt.accepted, 1.0 / (4 * 2), 0.02 / (4 * 2));
	lanes_sim_point_clear(&pt);
	lanes_traffic_free(&t);
	free(flows);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* ---- deadlock on a ring ---- */

/* The switch name of "NAME/PORT" in s[0..n): NAME's length. */
static size_t name_len(const char *s, size_t n)
{
	while (n && s[n - 1] != '/')
		n--;
	return n ? n - 1 : 0;
}

/*
 * The witness is a cycle: a header "... a cycle of N ..." and N lines
 * "  A/p -> B/q VL v ...", each line's B the next line's A, the last's B
 * the first's A.
 */
static void assert_witness_cycle(const char *w)
{
	const char *lines[64], *nl = strchr(w, '\n');
	unsigned n = 0, claimed = 0;

	assert_non_null(strstr(w, "a cycle of "));
	claimed = (unsigned)strtoul(strstr(w, "a cycle of ") + 11, NULL, 10);
	while (nl && nl[1] && n < 64) {
		lines[n++] = nl + 1;
		nl = strchr(nl + 1, '\n');
	}
	assert_true(n >= 2);
	assert_int_equal(n, claimed);
	for (unsigned i = 0; i < n; i++) {
		const char *a = lines[(i + 1) % n] + 2, *arrow = strstr(lines[i], " -> ");
		const char *b = arrow + 4, *vl = strstr(b, " VL ");
		const char *a_end = strstr(a, " -> ");
		size_t lb = name_len(b, (size_t)(vl - b)), la = name_len(a, (size_t)(a_end - a));

		assert_int_equal(la, lb);
		assert_memory_equal(a, b, la);
	}
}

/*
 * Ring of 5 switches, one host each, at full load, with VL buffers of
 * buffer_packets packets. The verifier, independently, finds minhop's
 * credit loop and none for updn.
 */
static void ring_run(const char *engine, int pattern, unsigned buffer_packets, int expect_deadlock)
{
	struct lanes_fabric *f = gen("torus k=5 p=1");
	struct lanes_routing *r = route_with(engine, f);
	struct lanes_verify_result *v = verify_quick(f, r, 8, 0, 1);
	struct lanes_sim_opts o;
	struct lanes_sim_traffic t;
	struct lanes_sim_point pt;

	assert_int_equal(v->cycle_len > 0, expect_deadlock);
	lanes_verify_result_free(v);
	quick_opts(&o);
	o.measure_ns = 5e6;
	o.buffer_packets = buffer_packets;
	o.watchdog_ns = 20e3;
	lanes_sim_traffic_init(&t);
	t.pattern = pattern;
	t.shift = 2; /* two hops, all one way round: the loop the verifier names */
	pt = run_point(f, r, &o, &t, 1.0);
	assert_int_equal(pt.deadlock, expect_deadlock);
	if (expect_deadlock) {
		assert_non_null(pt.deadlock_witness);
		assert_witness_cycle(pt.deadlock_witness);
		assert_true(pt.simulated_ns < o.warmup_ns + o.measure_ns);
	} else {
		assert_null(pt.deadlock_witness);
		assert_true(pt.accepted > 0.3);
		assert_float_equal(pt.simulated_ns, o.warmup_ns + o.measure_ns, 1e-6);
	}
	lanes_sim_point_clear(&pt);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

static void test_ring_deadlock(void **state)
{
	(void)state;
	ring_run("minhop", LANES_SIM_SHIFT, 2, 1);
	ring_run("minhop", LANES_SIM_UNIFORM, 1, 1);
	ring_run("updn", LANES_SIM_SHIFT, 2, 0);
	ring_run("updn", LANES_SIM_UNIFORM, 1, 0);
	ring_run("updn", LANES_SIM_UNIFORM, 16, 0);
}

/*
 * Issue 20 item 4: no routing the verifier accepts ever deadlocks. Every
 * engine on every small fabric (where it applies), uniform and shift
 * traffic at full load with 2-packet buffers (where credit loops bite
 * soonest): a routing the verifier finds reachable and acyclic must not
 * deadlock; one that deadlocks must come with a cycle as its witness.
 */
static void check_accepted_never_deadlocks(const struct lanes_fabric *f, const char *name,
					   void *ctx)
{
	struct lanes_sim_opts o;
	struct lanes_sim_traffic t;
	unsigned *runs = ctx;

	quick_opts(&o);
	o.warmup_ns = 20e3;
	o.measure_ns = 200e3;
	o.buffer_packets = 2;
	o.watchdog_ns = 20e3;
	lanes_sim_traffic_init(&t);
	for (size_t k = 0; lanes_engine_at(k); k++) {
		const struct lanes_engine *e = lanes_engine_at(k);
		struct lanes_route_opts ro;
		struct lanes_routing *r = NULL;
		struct lanes_verify_result *v;
		struct lanes_error err;
		int accepted;

		lanes_route_opts_init(&ro);
		if (lanes_route(e, f, &ro, &r, &err))
			continue; /* does not apply here, or over the budget */
		v = verify_quick(f, r, 8, 0, 1);
		accepted = v->deadlock_free && v->reachable && !v->vls_over_budget;
		lanes_verify_result_free(v);
		for (int pattern = 0; pattern < 2; pattern++) {
			struct lanes_sim_point pt;

			t.pattern = pattern ? LANES_SIM_SHIFT : LANES_SIM_UNIFORM;
			pt = run_point(f, r, &o, &t, 1.0);
			if (accepted && pt.deadlock)
				fail_msg("%s on %s: verified, yet deadlocked:\n%s", e->name, name,
					 pt.deadlock_witness);
			if (pt.deadlock)
				assert_witness_cycle(pt.deadlock_witness);
			(*runs)++;
			lanes_sim_point_clear(&pt);
		}
		lanes_routing_free(r);
	}
}

static void test_verified_never_deadlocks(void **state)
{
	unsigned runs = 0;

	(void)state;
	each_small_fabric(check_accepted_never_deadlocks, &runs);
	assert_true(runs > 100);
}

/* ---- threads ---- */

/* The progress hook: once per point, with that point's result, on any thread count. */
struct seen {
	pthread_mutex_t lock;
	unsigned calls[4];
	double accepted[4];
};

static void count_point(void *ctx, size_t point, const struct lanes_sim_point *result)
{
	struct seen *s = ctx;

	pthread_mutex_lock(&s->lock);
	s->calls[point]++;
	s->accepted[point] = result->accepted;
	pthread_mutex_unlock(&s->lock);
}

static void test_progress_hook(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	struct lanes_routing *r = route_with("dla", f);
	const double loads[4] = { 0.2, 0.4, 0.6, 0.8 };
	struct lanes_sim_point out[4];
	struct lanes_sim_opts o;
	struct lanes_sim_traffic t;
	struct lanes_error err;

	(void)state;
	for (unsigned threads = 1; threads <= 3; threads += 2) {
		struct seen s = { PTHREAD_MUTEX_INITIALIZER, { 0 }, { 0 } };

		quick_opts(&o);
		o.threads = threads;
		o.progress = count_point;
		o.progress_ctx = &s;
		lanes_sim_traffic_init(&t);
		assert_int_equal(lanes_sim_sweep(f, r, &o, &t, loads, 4, out, &err), 0);
		for (int i = 0; i < 4; i++) {
			assert_int_equal(s.calls[i], 1);
			assert_true(s.accepted[i] == out[i].accepted);
			lanes_sim_point_clear(&out[i]);
		}
	}
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

static void test_threads_identical(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=2 p=1 h=1");
	struct lanes_routing *r = route_with("minhop", f);
	struct lanes_sim_opts o;
	struct lanes_sim_traffic t;
	const double loads[] = { 0.2, 0.5, 0.8, 1.0 };
	struct lanes_sim_point a[4], b[4];
	struct lanes_error err;

	(void)state;
	lanes_sim_traffic_init(&t);
	for (int variant = 0; variant < 2; variant++) {
		quick_opts(&o);
		o.voq = !variant;
		o.injection = variant ? LANES_SIM_POISSON : LANES_SIM_BERNOULLI;
		o.arbitration = variant ? LANES_SIM_ARB_AGE : LANES_SIM_ARB_ROUND_ROBIN;
		assert_int_equal(lanes_sim_sweep(f, r, &o, &t, loads, 4, a, &err), 0);
		o.threads = 2;
		assert_int_equal(lanes_sim_sweep(f, r, &o, &t, loads, 4, b, &err), 0);
		for (int i = 0; i < 4; i++) {
			assert_true(a[i].packets > 0);
			assert_null(a[i].deadlock_witness);
			assert_memory_equal(&a[i], &b[i], sizeof(a[i]));
			lanes_sim_point_clear(&a[i]);
			lanes_sim_point_clear(&b[i]);
		}
	}
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* ---- options ---- */

static void test_bad_options(void **state)
{
	struct lanes_fabric *f = line_of_switches(1);
	struct lanes_routing *r = route_with("minhop", f);
	struct lanes_sim_opts o;
	struct lanes_sim_traffic t;
	struct lanes_sim_point pt;
	struct lanes_error err;

	(void)state;
	lanes_sim_traffic_init(&t);
	quick_opts(&o);
	o.packet_bytes = 8192;
	assert_int_equal(lanes_sim_run(f, r, &o, &t, 0.5, &pt, &err), LANES_EINVAL);
	quick_opts(&o);
	o.data_vls = 0;
	assert_int_equal(lanes_sim_run(f, r, &o, &t, 0.5, &pt, &err), LANES_EINVAL);
	quick_opts(&o);
	o.buffer_bytes = 2048;
	assert_int_equal(lanes_sim_run(f, r, &o, &t, 0.5, &pt, &err), LANES_EINVAL);
	quick_opts(&o);
	assert_int_equal(lanes_sim_run(f, r, &o, &t, 1.5, &pt, &err), LANES_EINVAL);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* ---- head-of-line blocking ---- */

/*
 * One 16-port switch, 16 hosts, uniform traffic at full load. With one FIFO
 * per input VL, a head packet waiting for a busy output blocks the packets
 * behind it (Karol, Hluchyj and Morgan, "Input versus output queueing on a
 * space-division packet switch", IEEE Trans. Commun. 35(12), 1987: 0.586 of
 * the link for large N in their slotted model); virtual output queues
 * remove that blocking. The property: VOQ accepts clearly more.
 */
static void test_hol_blocking(void **state)
{
	struct lanes_fabric *f = gen("fattree k=16 n=1");
	struct lanes_routing *r = route_with("minhop", f);
	struct lanes_sim_opts o;
	struct lanes_sim_traffic t;
	struct lanes_sim_point with_voq, without;

	(void)state;
	quick_opts(&o);
	lanes_sim_traffic_init(&t);
	with_voq = run_point(f, r, &o, &t, 1.0);
	o.voq = 0;
	without = run_point(f, r, &o, &t, 1.0);
	assert_true(with_voq.accepted >= 0.9);
	assert_true(without.accepted < with_voq.accepted - 0.1);
	assert_true(without.accepted > 0.5);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* ---- below saturation, what is offered is accepted ---- */

static void test_accepted_is_offered(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	struct lanes_routing *r = route_with("dla", f);
	struct lanes_sim_opts o;
	struct lanes_sim_traffic t;
	const int injection[] = { LANES_SIM_BERNOULLI, LANES_SIM_POISSON, LANES_SIM_BERNOULLI };
	const int arbitration[] = { LANES_SIM_ARB_ROUND_ROBIN, LANES_SIM_ARB_AGE,
				    LANES_SIM_ARB_WEIGHTED };

	(void)state;
	lanes_sim_traffic_init(&t);
	for (int k = 0; k < 3; k++) {
		struct lanes_sim_point pt;

		quick_opts(&o);
		o.injection = injection[k];
		o.arbitration = arbitration[k];
		o.voq = k != 2;
		pt = run_point(f, r, &o, &t, 0.4);
		assert_false(pt.deadlock);
		assert_float_equal(pt.accepted, 0.4, 0.02);
		/* at least the zero-load latency of the shortest path: 2 links, 1 switch */
		assert_true(pt.latency_avg_ns >= 2 * 10 + 100 + 1024);
		assert_true(pt.latency_p99_ns >= pt.latency_avg_ns);
		lanes_sim_point_clear(&pt);
	}
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* ---- dragonfly saturation ---- */

static void test_dragonfly_saturation(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	struct lanes_routing *r = route_with("dla", f);
	struct lanes_sim_opts o;
	struct lanes_sim_traffic t;
	struct lanes_sim_point pt;

	(void)state;
	quick_opts(&o);
	lanes_sim_traffic_init(&t);
	pt = run_point(f, r, &o, &t, 1.0);
	assert_false(pt.deadlock);
	assert_true(pt.accepted >= 0.9);
	lanes_sim_point_clear(&pt);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_load_latency),
		cmocka_unit_test(test_full_link_bandwidth),
		cmocka_unit_test(test_permutation_max_flows),
		cmocka_unit_test(test_dragonfly_worst_case),
		cmocka_unit_test(test_ring_deadlock),
		cmocka_unit_test(test_verified_never_deadlocks),
		cmocka_unit_test(test_threads_identical),
		cmocka_unit_test(test_progress_hook),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_hol_blocking),
		cmocka_unit_test(test_accepted_is_offered),
		cmocka_unit_test(test_dragonfly_saturation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
