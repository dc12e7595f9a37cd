/*
 * test_slimfly.c - the slimfly engine (src/route/slimfly/), judged against
 * "Early evaluation of direct large-scale InfiniBand networks with adaptive
 * routing", Sec. 3.6, and the verifier, on Slim Flies of q = 3 .. 13 with
 * shuffled switch indices and port numbers:
 * - minimal: every switch-to-switch route has as many hops as the switch
 *   distance, CA-to-CA stretch 1;
 * - the route shapes: the intermediate switch of every two-hop route is the
 *   one Sec. 3.6 gives, computed here from the coordinates the recogniser
 *   reports and the field: yy (the first a in X_t by power of xi, as the
 *   engine's header decides), tt by formulas (1) and (2), ty before yt;
 *   all six shapes y, yy, t, tt, ty, yt occur;
 * - LMC 1: LID base + 1 takes yt where ty and yt are both minimal;
 * - 1 SL, 2 VLs: VL 0 for packets from a CA (injection and at the first
 *   switch), VL 1 for packets from a switch;
 * - the verifier: every pair reached, free of credit loops for all traffic,
 *   2 VLs; threads 1 and 2 give the same bytes;
 * - every switch cable doubled: recognised, odd LIDs on the second cable;
 * - faults (1 or 2 missing cables): refused exactly when some switch pair
 *   is more than 2 hops apart, naming such a pair; otherwise minimal and
 *   deadlock-free; both happen;
 * - refusals: --vls 1 (needs 2 VLs), other topologies.
 */
#include <stdint.h>

#include "lanes/recognize.h"
#include "lanes/route.h"
#include "lanes/routing.h"
#include "lanes/verify.h"
#include "testutil.h"
#include "topo/gf.h"

extern const struct lanes_engine lanes_engine_slimfly;

static const unsigned every_q[] = { 3, 4, 5, 7, 8, 9, 11, 13 };
#define NUM_Q (sizeof(every_q) / sizeof(every_q[0]))

/* ------------------------------------------------------------ shuffled copies */

static void shuffle(uint32_t *a, uint32_t n, uint64_t *rng)
{
	for (uint32_t i = 0; i < n; i++)
		a[i] = i;
	for (uint32_t i = n; i > 1; i--) {
		uint32_t j = test_random_below(rng, i), t = a[i - 1];

		a[i - 1] = a[j];
		a[j] = t;
	}
}

/* Nodes of the copy: switches in shuffled order, then the rest; LMC on every LID. */
static void copy_nodes(struct lanes_builder *b, const struct lanes_fabric *f, const uint32_t *order,
		       uint8_t lmc, uint32_t *new_index)
{
	struct lanes_error err;

	for (uint32_t i = 0; i < f->num_switches; i++) {
		uint32_t v = f->switches[order[i]];

		new_index[v] = tb_add(b, LANES_NODE_SWITCH, f->nodes[v].nports, 0);
		assert_int_equal(lanes_builder_set_port(b, new_index[v], 0, 0, 0, lmc, &err), 0);
	}
	for (uint32_t v = 0; v < f->num_nodes; v++)
		if (f->nodes[v].type != LANES_NODE_SWITCH) {
			new_index[v] = tb_add(b, f->nodes[v].type, f->nodes[v].nports, 0);
			for (uint8_t p = 1; p <= f->nodes[v].nports; p++) {
				int rc = lanes_builder_set_port(b, new_index[v], p, 0, 0, lmc,
								&err);

				assert_int_equal(rc, 0);
			}
		}
}

/*
 * f with its switch indices and switch port numbers shuffled by seed, every
 * name "n", LMC lmc everywhere.
 */
static struct lanes_fabric *shuffled(const struct lanes_fabric *f, uint64_t seed, uint8_t lmc)
{
	struct lanes_builder *b = tb_new();
	uint32_t *order = malloc(f->num_switches * sizeof(*order));
	uint32_t *new_index = malloc(f->num_nodes * sizeof(*new_index));
	uint8_t *port_map = malloc(f->num_port_slots);
	uint32_t perm[LANES_PORTS_MAX];
	uint64_t rng = seed;

	assert_true(order && new_index && port_map);
	shuffle(order, f->num_switches, &rng);
	for (uint32_t v = 0; v < f->num_nodes; v++) {
		int is_switch = f->nodes[v].type == LANES_NODE_SWITCH;

		shuffle(perm, f->nodes[v].nports, &rng);
		for (uint32_t p = 1; p <= f->nodes[v].nports; p++) {
			uint32_t slot = f->nodes[v].port_base + p;

			port_map[slot] = (uint8_t)(is_switch ? perm[p - 1] + 1 : p);
		}
	}
	copy_nodes(b, f, order, lmc, new_index);
	for (uint32_t i = 0; i < f->num_links; i++) {
		const struct lanes_link *l = &f->links[i];

		tb_cable(b, new_index[l->a], port_map[f->nodes[l->a].port_base + l->pa],
			 new_index[l->b], port_map[f->nodes[l->b].port_base + l->pb]);
	}
	free(order);
	free(new_index);
	free(port_map);
	return tb_finish(b);
}

static struct lanes_fabric *shuffled_slimfly(unsigned q, uint8_t lmc)
{
	char spec[64];
	struct lanes_fabric *f, *g;

	snprintf(spec, sizeof(spec), "slimfly q=%u p=2", q);
	f = gen(spec);
	g = shuffled(f, 0x9e3779b97f4a7c15ULL * q + 5, lmc);
	lanes_fabric_free(f);
	return g;
}

/* ------------------------------------------------------------ walking the tables */

static uint32_t switch_lid(const struct lanes_fabric *f, uint32_t s)
{
	return lanes_fabric_port(f, f->switches[s], 0)->lid;
}

/* The switch behind port p of switch s (LANES_NONE if none). */
static uint32_t peer_switch(const struct lanes_fabric *f, uint32_t s, uint8_t p)
{
	const struct lanes_port *pp = lanes_fabric_port(f, f->switches[s], p);

	if (p == 0 || p == LANES_PORT_DROP || pp->peer_node == LANES_NONE)
		return LANES_NONE;
	return f->nodes[pp->peer_node].switch_index;
}

/* Switch hops from s to lid's switch t, and the first switch after s. */
static uint32_t walk(const struct lanes_fabric *f, const struct lanes_routing *r, uint32_t s,
		     uint32_t t, uint32_t lid, uint32_t *first)
{
	uint32_t x = s, hops = 0;

	*first = LANES_NONE;
	while (x != t) {
		x = peer_switch(f, x, lanes_routing_port(r, x, lid));
		assert_true(x != LANES_NONE && hops < 3);
		if (!hops)
			*first = x;
		hops++;
	}
	return hops;
}

/* ------------------------------------------------------------ Sec. 3.6 by hand */

struct field_rules {
	struct gf gf;
	uint8_t in_set[2][GF_Q_MAX];
	const uint32_t *coord;
	unsigned q;
};

/* X_0 = X, X_1 = X' as gf.h (Hafner) states them. */
static void rules_init(struct field_rules *fr, unsigned q, const uint32_t *coord)
{
	struct lanes_error err;
	int delta;
	unsigned w;

	assert_int_equal(lanes_mms_check_q("test", q, &delta, &err), 0);
	assert_int_equal(lanes_gf_init(&fr->gf, q, &err), 0);
	fr->q = q;
	fr->coord = coord;
	w = (unsigned)(((int)q - delta) / 4);
	memset(fr->in_set, 0, sizeof(fr->in_set));
	for (unsigned t = 0; t < 2; t++) {
		unsigned last = delta == 1 ? q - 3 : q - 2;

		for (unsigned e = 0; delta != -1 && e <= last; e += 2)
			fr->in_set[t][gf_prim_pow(&fr->gf, e + t)] = 1;
		for (unsigned e = 0; delta == -1 && e <= 2 * w - 2; e += 2)
			fr->in_set[t][gf_prim_pow(&fr->gf, e + t)] = 1;
		for (unsigned e = 2 * w - 1; delta == -1 && e <= 4 * w - 3; e += 2)
			fr->in_set[t][gf_prim_pow(&fr->gf, e + t)] = 1;
	}
}

enum { Y, YY, T, TT, TY, YT, SHAPES };
static const char *const shape_name[SHAPES] = { "y", "yy", "t", "tt", "ty", "yt" };

/* The coordinates (t, x, y) Sec. 3.6 routes s to d through; the shape. */
static void expected_middle(const struct field_rules *fr, const uint32_t *s, const uint32_t *d,
			    uint32_t *mid, int *shape)
{
	const struct gf *g = &fr->gf;

	if (s[0] == d[0] && s[1] == d[1]) { /* case 1: the first a = xi^e in X_t that works */
		*shape = fr->in_set[s[0]][gf_sub(g, s[2], d[2])] ? Y : YY;
		for (unsigned e = 0; *shape == YY && e + 1 < fr->q; e++) {
			unsigned a = gf_prim_pow(g, e), yi = gf_sub(g, s[2], a);

			if (fr->in_set[s[0]][a] && fr->in_set[s[0]][gf_sub(g, yi, d[2])]) {
				mid[0] = s[0], mid[1] = s[1], mid[2] = yi;
				return;
			}
		}
		return;
	}
	if (s[0] == d[0]) { /* case 2, (1) and (2) */
		unsigned dx = gf_sub(g, s[1], d[1]), dy = gf_sub(g, s[2], d[2]);
		unsigned xi = gf_mul(g, dy, g->exp[(g->q - 1 - g->log[dx]) % (g->q - 1)]);

		*shape = TT;
		mid[0] = 1 - s[0];
		mid[1] = s[0] ? g->neg[xi] : xi;
		mid[2] = s[0] ? gf_add(g, s[2], gf_mul(g, s[1], mid[1]))
			      : gf_sub(g, s[2], gf_mul(g, s[1], mid[1]));
		return;
	}
	/* case 3 with D = td - ts */
	unsigned prod = gf_mul(g, s[1], d[1]), dxx = d[0] ? prod : g->neg[prod];

	if (gf_sub(g, s[2], d[2]) == dxx) {
		*shape = T;
		return;
	}
	mid[0] = d[0], mid[1] = d[1], mid[2] = gf_sub(g, s[2], dxx);
	*shape = TY;
	if (!fr->in_set[d[0]][gf_sub(g, mid[2], d[2])]) {
		mid[0] = s[0], mid[1] = s[1], mid[2] = gf_add(g, d[2], dxx);
		*shape = YT;
		assert_true(fr->in_set[s[0]][gf_sub(g, s[2], mid[2])]);
	}
}

/* Is there a second minimal route (yt besides ty)? Its middle in mid. */
static int second_route_yt(const struct field_rules *fr, const uint32_t *s, const uint32_t *d,
			   uint32_t *mid)
{
	const struct gf *g = &fr->gf;
	unsigned prod = gf_mul(g, s[1], d[1]), dxx = d[0] ? prod : g->neg[prod];

	if (s[0] == d[0] || gf_sub(g, s[2], d[2]) == dxx ||
	    !fr->in_set[d[0]][gf_sub(g, gf_sub(g, s[2], dxx), d[2])])
		return 0;
	mid[0] = s[0], mid[1] = s[1], mid[2] = gf_add(g, d[2], dxx);
	return fr->in_set[s[0]][gf_sub(g, s[2], mid[2])];
}

static struct lanes_structure recognised(const struct lanes_fabric *f)
{
	struct lanes_structure st;
	struct lanes_error err;

	if (lanes_recognize_slimfly(f, &st, &err))
		fail_msg("%s", err.message);
	return st;
}

/* ------------------------------------------------------------ tests */

/* Hops equal the switch distance for every switch pair, and CA-to-CA stretch is 1. */
static void test_minimal(void **state)
{
	(void)state;
	for (size_t i = 0; i < NUM_Q; i++) {
		struct lanes_fabric *f = shuffled_slimfly(every_q[i], 0);
		struct lanes_routing *r = route_engine(&lanes_engine_slimfly, f, 8, 16, 1);
		struct lanes_verify_result *res = verify_quick(f, r, 8, 1, 0);
		uint32_t n = f->num_switches, first;
		uint8_t *dist = NULL;
		struct lanes_error err;

		assert_int_equal(lanes_fabric_switch_distances(f, &dist, &err), 0);
		for (uint32_t s = 0; s < n; s++)
			for (uint32_t t = 0; t < n; t++)
				assert_int_equal(walk(f, r, s, t, switch_lid(f, t), &first),
						 dist[(size_t)s * n + t]);
		assert_true(res->reachable);
		assert_true(res->stretch_max == 1.0);
		assert_true(res->hops_max <= 4);
		free(dist);
		lanes_verify_result_free(res);
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
}

/* The middle switch of every two-hop route is Sec. 3.6's; all shapes occur. */
static void check_shapes(const struct lanes_fabric *f, const struct lanes_routing *r, unsigned q,
			 uint64_t *seen)
{
	struct lanes_structure st = recognised(f);
	struct field_rules fr;
	uint32_t n = f->num_switches, first, mid[3];
	int shape;

	rules_init(&fr, q, st.coord);
	for (uint32_t s = 0; s < n; s++)
		for (uint32_t d = 0; d < n; d++) {
			uint32_t hops = walk(f, r, s, d, switch_lid(f, d), &first);

			if (s == d)
				continue;
			expected_middle(&fr, &st.coord[3 * s], &st.coord[3 * d], mid, &shape);
			seen[shape]++;
			assert_int_equal(hops, shape == Y || shape == T ? 1 : 2);
			if (hops == 2 && memcmp(&st.coord[3 * first], mid, sizeof(mid)))
				fail_msg("q=%u: %s route %u -> %u through the wrong switch", q,
					 shape_name[shape], s, d);
		}
	lanes_gf_free(&fr.gf);
	lanes_structure_free(&st);
}

static void test_route_shapes(void **state)
{
	uint64_t seen[SHAPES] = { 0 };

	(void)state;
	for (size_t i = 0; i < NUM_Q; i++) {
		struct lanes_fabric *f = shuffled_slimfly(every_q[i], 0);
		struct lanes_routing *r = route_engine(&lanes_engine_slimfly, f, 8, 16, 1);

		check_shapes(f, r, every_q[i], seen);
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
	for (int k = 0; k < SHAPES; k++)
		if (!seen[k])
			fail_msg("no %s route seen", shape_name[k]);
}

/* LMC 1: base + 1 of a switch LID goes yt where ty and yt are both minimal. */
static void test_lmc_second_route(void **state)
{
	struct lanes_fabric *f = shuffled_slimfly(7, 1);
	struct lanes_routing *r = route_engine(&lanes_engine_slimfly, f, 8, 16, 1);
	struct lanes_verify_result *res = verify_quick(f, r, 8, 1, 0);
	struct lanes_structure st = recognised(f);
	struct field_rules fr;
	uint32_t n = f->num_switches, first, mid[3], both = 0;

	(void)state;
	assert_true(res->reachable && res->deadlock_free);
	rules_init(&fr, 7, st.coord);
	for (uint32_t s = 0; s < n; s++)
		for (uint32_t d = 0; d < n; d++)
			if (second_route_yt(&fr, &st.coord[3 * s], &st.coord[3 * d], mid)) {
				assert_int_equal(walk(f, r, s, d, switch_lid(f, d) + 1, &first), 2);
				assert_memory_equal(&st.coord[3 * first], mid, sizeof(mid));
				both++;
			}
	assert_true(both > 0);
	lanes_gf_free(&fr.gf);
	lanes_structure_free(&st);
	lanes_verify_result_free(res);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* One SL; VL 0 from a CA or the switch itself, VL 1 from a switch. */
static void test_sl2vl(void **state)
{
	struct lanes_fabric *f = shuffled_slimfly(5, 0);
	struct lanes_routing *r = route_engine(&lanes_engine_slimfly, f, 8, 16, 1);

	(void)state;
	assert_int_equal(r->num_vls, 2);
	assert_int_equal(r->num_sls, 1);
	assert_int_equal(r->sl_mode, LANES_SL_UNIFORM);
	assert_int_equal(r->sl_uniform, 0);
	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t node = f->switches[s];

		for (uint8_t in = 0; in <= f->nodes[node].nports; in++) {
			uint32_t peer = lanes_fabric_port(f, node, in)->peer_node;
			int from_switch = in && peer != LANES_NONE &&
					  f->nodes[peer].type == LANES_NODE_SWITCH;

			for (uint8_t out = 0; out <= f->nodes[node].nports; out++) {
				const uint8_t *map = lanes_routing_switch_map(r, f, s, in, out);

				for (int sl = 0; sl < LANES_NUM_SLS; sl++)
					assert_int_equal(map[sl], from_switch);
			}
		}
	}
	for (uint32_t v = 0; v < f->num_nodes; v++)
		if (f->nodes[v].type == LANES_NODE_CA)
			assert_int_equal(lanes_routing_port_map(r, f, v, 1)[0], 0);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* The verifier: all traffic deadlock-free in 2 VLs; the same bytes with 1 and 2 threads. */
static void test_verifier_and_threads(void **state)
{
	(void)state;
	for (size_t i = 0; i < NUM_Q; i++) {
		struct lanes_fabric *f = shuffled_slimfly(every_q[i], 0);
		struct lanes_routing *one = route_engine_threads(&lanes_engine_slimfly, f, 1);
		struct lanes_routing *two = route_engine_threads(&lanes_engine_slimfly, f, 2);
		struct lanes_verify_result *res = verify_quick(f, one, 2, 1, 0);

		assert_true(routings_equal(one, two));
		assert_true(res->reachable);
		assert_true(res->deadlock_free);
		assert_false(res->vls_over_budget);
		assert_int_equal(res->vls_used, 2);
		assert_int_equal(res->sls_used, 1);
		lanes_verify_result_free(res);
		lanes_routing_free(one);
		lanes_routing_free(two);
		lanes_fabric_free(f);
	}
}

/* Switch LIDs off: a switch keeps its own LID at port 0, the others drop. */
static void test_no_switch_lids(void **state)
{
	struct lanes_fabric *f = gen("slimfly q=3 p=1");
	struct lanes_routing *r = route_engine(&lanes_engine_slimfly, f, 8, 16, 0);
	struct lanes_verify_result *res = verify_quick(f, r, 8, 0, 1);

	(void)state;
	for (uint32_t s = 0; s < f->num_switches; s++)
		for (uint32_t t = 0; t < f->num_switches; t++)
			assert_int_equal(lanes_routing_port(r, s, switch_lid(f, t)),
					 s == t ? 0 : LANES_PORT_DROP);
	assert_true(res->reachable && res->deadlock_free);
	lanes_verify_result_free(res);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/*
 * f with every switch cable doubled: a switch of n ports gets n more, and
 * the cable (a, pa) - (b, pb) a twin (a, pa + n_a) - (b, pb + n_b).
 */
static struct lanes_fabric *doubled(const struct lanes_fabric *f)
{
	struct lanes_builder *b = tb_new();

	for (uint32_t v = 0; v < f->num_nodes; v++) {
		int is_switch = f->nodes[v].type == LANES_NODE_SWITCH;

		tb_add(b, f->nodes[v].type, (uint8_t)(f->nodes[v].nports * (is_switch ? 2 : 1)), 0);
	}
	for (uint32_t i = 0; i < f->num_links; i++) {
		const struct lanes_link *l = &f->links[i];

		tb_cable(b, l->a, l->pa, l->b, l->pb);
		if (f->nodes[l->a].type == LANES_NODE_SWITCH &&
		    f->nodes[l->b].type == LANES_NODE_SWITCH)
			tb_cable(b, l->a, (uint8_t)(l->pa + f->nodes[l->a].nports), l->b,
				 (uint8_t)(l->pb + f->nodes[l->b].nports));
	}
	return tb_finish(b);
}

/* Doubled cables: still a Slim Fly; LIDs spread over both cables by LID parity; verified. */
static void test_parallel_cables(void **state)
{
	struct lanes_fabric *f0 = gen("slimfly q=5 p=2"), *f = doubled(f0);
	struct lanes_routing *r = route_engine(&lanes_engine_slimfly, f, 8, 16, 1);
	struct lanes_verify_result *res = verify_quick(f, r, 2, 1, 0);
	uint32_t n = f->num_switches, first, high_port[2] = { 0, 0 };

	(void)state;
	assert_true(res->reachable && res->deadlock_free);
	assert_true(res->stretch_max == 1.0);
	for (uint32_t s = 0; s < n; s++)
		for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
			uint8_t p = lanes_routing_port(r, s, lid);
			uint32_t half = f->nodes[f->switches[s]].nports / 2;

			if (p >= 1 && p != LANES_PORT_DROP && peer_switch(f, s, p) != LANES_NONE)
				high_port[lid % 2] += p > half;
		}
	/* odd LIDs take the second cable (port + n), even LIDs the first */
	assert_int_equal(high_port[0], 0);
	assert_true(high_port[1] > 0);
	for (uint32_t s = 0; s < n; s++)
		for (uint32_t t = 0; t < n; t++)
			assert_true(walk(f, r, s, t, switch_lid(f, t), &first) <= 2);
	lanes_verify_result_free(res);
	lanes_routing_free(r);
	lanes_fabric_free(f);
	lanes_fabric_free(f0);
}

/* The pair a refusal names: "from switch A (...) to switch B". */
static void named_pair(const char *message, uint32_t *from, uint32_t *to)
{
	const char *a = strstr(message, "from switch "), *b = strstr(message, " to switch ");

	assert_non_null(a);
	assert_non_null(b);
	*from = (uint32_t)strtoul(a + strlen("from switch "), NULL, 10);
	*to = (uint32_t)strtoul(b + strlen(" to switch "), NULL, 10);
}

/*
 * Faults (1 or 2 missing cables, by lanes_fabric_inject_faults): refused
 * exactly when some switch pair is more than 2 hops apart, naming such a
 * pair; otherwise minimal routes, deadlock-free in 2 VLs. Both happen.
 */
static void check_faulty(const struct lanes_fabric *g, uint32_t *routed, uint32_t *refused)
{
	uint32_t n = g->num_switches, from, to, first;
	uint8_t *dist = NULL;
	struct lanes_routing *r = NULL;
	struct lanes_route_opts o;
	struct lanes_error err;

	assert_int_equal(lanes_fabric_switch_distances(g, &dist, &err), 0);
	lanes_route_opts_init(&o);
	if (lanes_route(&lanes_engine_slimfly, g, &o, &r, &err)) {
		assert_true(stats_of(g).diameter > 2);
		named_pair(err.message, &from, &to);
		assert_true(from < n && to < n && dist[(size_t)from * n + to] > 2);
		(*refused)++;
	} else {
		struct lanes_verify_result *res = verify_quick(g, r, 2, 1, 0);

		assert_true(res->reachable && res->deadlock_free);
		for (uint32_t s = 0; s < n; s++)
			for (uint32_t t = 0; t < n; t++)
				assert_int_equal(walk(g, r, s, t, switch_lid(g, t), &first),
						 dist[(size_t)s * n + t]);
		lanes_verify_result_free(res);
		(*routed)++;
	}
	lanes_routing_free(r);
	free(dist);
}

static void test_faults(void **state)
{
	static const char *const specs[] = { "slimfly q=5 p=1", "slimfly q=7 p=1",
					     "slimfly q=8 p=1", "slimfly q=9 p=1" };
	uint32_t routed = 0, refused = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct lanes_fabric *f = gen(specs[i]);

		for (uint64_t seed = 1; seed <= 8; seed++)
			for (int links = 1; links <= 2; links++) {
				struct lanes_fault_spec spec = { links, 0, seed };
				struct lanes_fault_report rep;
				struct lanes_fabric *g;
				struct lanes_error err;
				int rc = lanes_fabric_inject_faults(f, &spec, &g, &rep, &err);

				assert_int_equal(rc, 0);
				check_faulty(g, &routed, &refused);
				lanes_fabric_free(g);
			}
		lanes_fabric_free(f);
	}
	assert_true(routed > 0);
	assert_true(refused > 0);
}

static void test_refusals(void **state)
{
	struct lanes_fabric *f = gen("slimfly q=5 p=1");
	struct lanes_error err;

	(void)state;
	err = route_engine_error(&lanes_engine_slimfly, f, 1, 16);
	assert_int_equal(err.code, LANES_ERANGE);
	assert_non_null(strstr(err.message, "needs 2 VLs"));
	lanes_fabric_free(f);
	f = gen("dragonfly a=4 p=2 h=2");
	err = route_engine_error(&lanes_engine_slimfly, f, 8, 16);
	assert_non_null(strstr(err.message, "slimfly: not a Slim Fly"));
	lanes_fabric_free(f);
	f = gen("jellyfish switches=18 degree=5 p=1 seed=1");
	err = route_engine_error(&lanes_engine_slimfly, f, 8, 16);
	assert_non_null(strstr(err.message, "not a Slim Fly"));
	lanes_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minimal),
		cmocka_unit_test(test_route_shapes),
		cmocka_unit_test(test_lmc_second_route),
		cmocka_unit_test(test_sl2vl),
		cmocka_unit_test(test_verifier_and_threads),
		cmocka_unit_test(test_no_switch_lids),
		cmocka_unit_test(test_parallel_cables),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
