/*
 * test_traffic.c - the traffic patterns (src/sim/traffic.c) against their
 * definitions (docs/traffic-patterns.md), computed here independently:
 * bit patterns bit by bit from Dally and Towles' Table 3.2 (d_i = s_j),
 * transpose by transposing a matrix, the stencil grid by coordinates,
 * seed 000's hot-spot sizes by hand (N = 72: 4 senders, 2 destinations;
 * N = 1056: 63 and 5), the dragonfly groups from the generator's numbering
 * (switch s of group i is switch i*a + s), uniform draws by a chi-square
 * bound. Fabrics: a star of n CAs on one switch (endpoint i is CA i), and
 * generated ones.
 */
#include "testutil.h"

#include "sim/traffic.h"

/* One switch with n CAs on ports 1..n, CA i being endpoint i. */
static struct lanes_fabric *star(uint32_t n)
{
	struct lanes_builder *b = tb_new();
	uint32_t sw = tb_add(b, LANES_NODE_SWITCH, (uint8_t)n, 0x1000);

	for (uint32_t i = 0; i < n; i++)
		tb_cable(b, tb_add(b, LANES_NODE_CA, 1, 0x2000 + i), 1, sw, (uint8_t)(i + 1));
	return tb_finish(b);
}

static struct lanes_traffic make(const struct lanes_fabric *f, int pattern, uint32_t shift,
				 uint64_t seed)
{
	struct lanes_sim_traffic spec = { pattern, shift, 0.06, LANES_SIM_PLACE_LINEAR };
	struct lanes_traffic t;
	struct lanes_error err;

	if (lanes_traffic_make(f, &spec, seed, &t, &err))
		fail_msg("%s: %s", lanes_sim_pattern_name(pattern), err.message);
	return t;
}

static int make_error(const struct lanes_fabric *f, int pattern, uint32_t shift,
		      struct lanes_error *err)
{
	struct lanes_sim_traffic spec = { pattern, shift, 0.06, LANES_SIM_PLACE_LINEAR };
	struct lanes_traffic t;
	int rc = lanes_traffic_make(f, &spec, 1, &t, err);

	assert_true(rc < 0);
	assert_null(t.lid);
	return rc;
}

/* bit j of s */
static uint32_t bit(uint32_t s, unsigned j)
{
	return (s >> j) & 1u;
}

/* Dally-Towles Table 3.2 on b bits: d_i = s_(src_bit(i)) */
static uint32_t by_bits(uint32_t s, unsigned b, int pattern)
{
	uint32_t d = 0;

	for (unsigned i = 0; i < b; i++) {
		unsigned j = pattern == LANES_SIM_BIT_REVERSE  ? b - 1 - i
			     : pattern == LANES_SIM_BIT_ROTATION ? (i + 1) % b
			     : pattern == LANES_SIM_SHUFFLE      ? (i + b - 1) % b
								 : (i + b / 2) % b; /* transpose */
		d |= bit(s, j) << i;
	}
	return d;
}

/* The partners are a partial permutation: senders have distinct partners, never themselves;
 * idle endpoints have none. Returns the number of senders. */
static uint32_t check_partial_permutation(const struct lanes_traffic *t)
{
	uint32_t n = t->num_endpoints, senders = 0;
	char *hit = calloc(n, 1);
	struct lanes_rng rng;

	lanes_rng_seed(&rng, 5);
	for (uint32_t s = 0; s < n; s++) {
		if (t->role[s] == LANES_TRAFFIC_IDLE) {
			assert_int_equal(lanes_traffic_next(t, s, &rng), LANES_NONE);
			continue;
		}
		assert_int_equal(t->role[s], LANES_TRAFFIC_OFFERED);
		assert_true(t->fixed[s] < n);
		assert_int_not_equal(t->fixed[s], s);
		assert_false(hit[t->fixed[s]]);
		hit[t->fixed[s]] = 1;
		assert_int_equal(lanes_traffic_next(t, s, &rng), t->fixed[s]);
		senders++;
	}
	free(hit);
	return senders;
}

/* Expected partner of s among n endpoints (LANES_NONE: idle), from the definitions. */
static uint32_t expected(int pattern, uint32_t s, uint32_t n, uint32_t shift)
{
	unsigned b = 0;
	uint32_t d, m = 0;

	while ((2u << b) <= n)
		b++; /* 2^b <= n < 2^(b+1) */
	while ((m + 1) * (m + 1) <= n)
		m++;
	if (pattern == LANES_SIM_BIT_COMPLEMENT)
		d = n - 1 - s;
	else if (pattern == LANES_SIM_SHIFT)
		d = (s + shift) % n;
	else if (pattern == LANES_SIM_TRANSPOSE && n == (1u << b) && b % 2 == 0)
		d = by_bits(s, b, pattern); /* N = 4^k: Table 3.2's bit transpose */
	else if (pattern == LANES_SIM_TRANSPOSE) {
		/* the matrix M[r][c] = r*m + c; the element at (r, c) goes to (c, r) */
		if (s >= m * m)
			return LANES_NONE;
		uint32_t r = s / m, c = s - r * m;
		d = c * m + r;
	} else if (s >= (1u << b))
		return LANES_NONE;
	else
		d = by_bits(s, b, pattern);
	return d == s ? LANES_NONE : d;
}

static void check_pattern(uint32_t n, int pattern, uint32_t shift, uint32_t senders)
{
	struct lanes_fabric *f = star(n);
	struct lanes_traffic t = make(f, pattern, shift, 1);

	assert_int_equal(t.num_endpoints, n);
	assert_int_equal(check_partial_permutation(&t), senders);
	for (uint32_t s = 0; s < n; s++)
		assert_int_equal(t.fixed[s], expected(pattern, s, n, shift));
	lanes_traffic_free(&t);
	lanes_fabric_free(f);
}

/* N = 64: bit complement is ~s & 63 exactly, and the bit patterns are Table 3.2's. */
static void test_permutations_64(void **state)
{
	struct lanes_fabric *f = star(64);
	struct lanes_traffic t = make(f, LANES_SIM_BIT_COMPLEMENT, 0, 1);

	(void)state;
	for (uint32_t s = 0; s < 64; s++)
		assert_int_equal(t.fixed[s], ~s & 63u);
	lanes_traffic_free(&t);
	lanes_fabric_free(f);
	/* senders: all; reverse: 64 - 8 palindromes of 6 bits; rotation and shuffle:
	 * all but 000000 and 111111; transpose: all but the 8 with s_hi == s_lo */
	check_pattern(64, LANES_SIM_BIT_COMPLEMENT, 0, 64);
	check_pattern(64, LANES_SIM_BIT_REVERSE, 0, 56);
	check_pattern(64, LANES_SIM_BIT_ROTATION, 0, 62);
	check_pattern(64, LANES_SIM_SHUFFLE, 0, 62);
	check_pattern(64, LANES_SIM_TRANSPOSE, 0, 56);
}

/* Non-powers of two: 72 (64 + 8 idle), 27 (odd), 30. */
static void test_permutations_any_n(void **state)
{
	(void)state;
	check_pattern(72, LANES_SIM_BIT_COMPLEMENT, 0, 72);
	check_pattern(72, LANES_SIM_BIT_REVERSE, 0, 56);
	check_pattern(72, LANES_SIM_BIT_ROTATION, 0, 62);
	check_pattern(72, LANES_SIM_SHUFFLE, 0, 62);
	check_pattern(72, LANES_SIM_TRANSPOSE, 0, 56);   /* 8x8, 8 on the diagonal, 8 beyond */
	check_pattern(27, LANES_SIM_BIT_COMPLEMENT, 0, 26); /* 13 maps to itself */
	check_pattern(27, LANES_SIM_BIT_REVERSE, 0, 12);  /* 16: 4 palindromes of 4 bits */
	check_pattern(27, LANES_SIM_BIT_ROTATION, 0, 14);
	check_pattern(27, LANES_SIM_SHUFFLE, 0, 14);
	check_pattern(27, LANES_SIM_TRANSPOSE, 0, 20);    /* 5x5 less its diagonal */
	check_pattern(30, LANES_SIM_TRANSPOSE, 0, 20);
	check_pattern(2, LANES_SIM_BIT_COMPLEMENT, 0, 2);
}

/* Shift, by hand. */
static void test_shift(void **state)
{
	struct lanes_fabric *f = star(5);
	struct lanes_traffic t = make(f, LANES_SIM_SHIFT, 2, 1);
	const uint32_t by_hand[5] = { 2, 3, 4, 0, 1 };
	struct lanes_error err;

	(void)state;
	for (uint32_t s = 0; s < 5; s++)
		assert_int_equal(t.fixed[s], by_hand[s]);
	lanes_traffic_free(&t);
	t = make(f, LANES_SIM_SHIFT, 9, 1); /* 9 mod 5 = 4: i to i - 1 */
	for (uint32_t s = 0; s < 5; s++)
		assert_int_equal(t.fixed[s], (s + 4) % 5);
	lanes_traffic_free(&t);
	assert_int_equal(make_error(f, LANES_SIM_SHIFT, 10, &err), LANES_EINVAL);
	assert_int_equal(make_error(f, LANES_SIM_SHIFT, 0, &err), LANES_EINVAL);
	lanes_fabric_free(f);
	check_pattern(72, LANES_SIM_SHIFT, 1, 72);
	check_pattern(72, LANES_SIM_SHIFT, 36, 72);
}

/* j is among i's stencil neighbours */
static int is_neighbour(const struct lanes_traffic *t, uint32_t i, uint32_t j)
{
	for (uint32_t k = t->set_off[i]; k < t->set_off[i + 1]; k++)
		if (t->set[k] == j)
			return 1;
	return 0;
}

/* Every sender has 6 distinct neighbours, not itself, symmetric; returns the senders. */
static uint32_t check_stencil(const struct lanes_traffic *t)
{
	uint32_t senders = 0;

	for (uint32_t i = 0; i < t->num_endpoints; i++) {
		if (t->role[i] == LANES_TRAFFIC_IDLE) {
			assert_int_equal(t->set_off[i + 1], t->set_off[i]);
			continue;
		}
		senders++;
		assert_int_equal(t->set_off[i + 1] - t->set_off[i], 6);
		for (uint32_t k = t->set_off[i]; k < t->set_off[i + 1]; k++) {
			assert_int_not_equal(t->set[k], i);
			assert_int_not_equal(t->role[t->set[k]], LANES_TRAFFIC_IDLE);
			assert_true(is_neighbour(t, t->set[k], i));
			for (uint32_t l = t->set_off[i]; l < k; l++)
				assert_int_not_equal(t->set[l], t->set[k]);
		}
	}
	return senders;
}

/* The neighbours of endpoint 0 on an X x Y x Z grid (x fastest): all as a set. */
static void check_origin(const struct lanes_traffic *t, uint32_t X, uint32_t Y, uint32_t Z)
{
	const uint32_t want[6] = { X - 1, 1, X * (Y - 1), X, X * Y * (Z - 1), X * Y };

	for (int k = 0; k < 6; k++)
		assert_true(is_neighbour(t, 0, want[k]));
}

static void test_stencil(void **state)
{
	struct lanes_fabric *f = star(64);
	struct lanes_traffic t = make(f, LANES_SIM_STENCIL3D, 0, 1);
	struct lanes_error err;

	(void)state;
	/* 4x4x4: i = x + 4y + 16z; the neighbours differ by +-1 mod 4 in one coordinate */
	assert_int_equal(check_stencil(&t), 64);
	for (uint32_t i = 0; i < 64; i++)
		for (uint32_t k = t.set_off[i]; k < t.set_off[i + 1]; k++) {
			uint32_t j = t.set[k], differ = 0;

			for (uint32_t unit = 1; unit < 64; unit *= 4) {
				uint32_t a = i / unit % 4, c = j / unit % 4;

				if (a != c) {
					differ++;
					assert_true((a + 1) % 4 == c || (c + 1) % 4 == a);
				}
			}
			assert_int_equal(differ, 1);
		}
	check_origin(&t, 4, 4, 4);
	lanes_traffic_free(&t);
	lanes_fabric_free(f);

	f = gen("dragonfly a=4 p=2 h=2"); /* 72 = 6 x 4 x 3 */
	t = make(f, LANES_SIM_STENCIL3D, 0, 1);
	assert_int_equal(check_stencil(&t), 72);
	check_origin(&t, 6, 4, 3);
	lanes_traffic_free(&t);
	lanes_fabric_free(f);

	/* 1056 = 2^5 * 3 * 11 has exact grids; one side is 11 (22 is too far from the cube
	 * root 10.2), the other two multiply to 96 and lie within 4 of 11: only 12 and 8;
	 * X - Z = 4, X <= 2Z: 12 x 11 x 8 */
	f = gen("dragonfly a=8 p=4 h=4");
	t = make(f, LANES_SIM_STENCIL3D, 0, 1);
	assert_int_equal(check_stencil(&t), 1056);
	check_origin(&t, 12, 11, 8);
	lanes_traffic_free(&t);
	lanes_fabric_free(f);

	f = star(30); /* 27 = 3 x 3 x 3, three idle */
	t = make(f, LANES_SIM_STENCIL3D, 0, 1);
	assert_int_equal(check_stencil(&t), 27);
	check_origin(&t, 3, 3, 3);
	lanes_traffic_free(&t);
	lanes_fabric_free(f);

	f = star(26);
	assert_int_equal(make_error(f, LANES_SIM_STENCIL3D, 0, &err), LANES_EREFUSED);
	lanes_fabric_free(f);
}

/* Seed 000's rule: h_s senders FULL_RATE, all to the same h_d destinations, not senders. */
static void check_hotspot(const struct lanes_traffic *t, uint32_t h_s, uint32_t h_d)
{
	uint32_t senders = 0, first = LANES_NONE;
	struct lanes_rng rng;

	lanes_rng_seed(&rng, 3);
	for (uint32_t s = 0; s < t->num_endpoints; s++) {
		uint32_t lo = t->set_off[s], hi = t->set_off[s + 1];

		assert_int_not_equal(t->role[s], LANES_TRAFFIC_IDLE);
		if (t->role[s] != LANES_TRAFFIC_FULL_RATE) {
			assert_int_equal(hi, lo); /* uniform */
			continue;
		}
		senders++;
		assert_int_equal(hi - lo, h_d);
		if (first == LANES_NONE)
			first = s;
		for (uint32_t k = lo; k < hi; k++) {
			assert_int_equal(t->set[k], t->set[t->set_off[first] + k - lo]);
			assert_int_not_equal(t->role[t->set[k]], LANES_TRAFFIC_FULL_RATE);
			for (uint32_t l = lo; l < k; l++)
				assert_int_not_equal(t->set[l], t->set[k]);
		}
		for (int draw = 0; draw < 20; draw++) {
			uint32_t d = lanes_traffic_next(t, s, &rng);

			assert_true(is_neighbour(t, s, d));
		}
	}
	assert_int_equal(senders, h_s);
}

static int same_choice(const struct lanes_traffic *a, const struct lanes_traffic *b)
{
	return !memcmp(a->role, b->role, a->num_endpoints) &&
	       !memcmp(a->set, b->set, a->set_off[a->num_endpoints] * sizeof(*a->set));
}

static void test_hotspot(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	struct lanes_traffic t = make(f, LANES_SIM_HOTSPOT, 0, 1), u, v;

	(void)state;
	check_hotspot(&t, 4, 2); /* floor(0.06 * 72) = 4, floor(log2 4) = 2 */
	lanes_traffic_free(&t);
	lanes_fabric_free(f);

	f = gen("dragonfly a=8 p=4 h=4"); /* N = 1056 */
	t = make(f, LANES_SIM_HOTSPOT, 0, 1);
	u = make(f, LANES_SIM_HOTSPOT, 0, 1);
	v = make(f, LANES_SIM_HOTSPOT, 0, 2);
	assert_int_equal(t.num_endpoints, 1056);
	check_hotspot(&t, 63, 5); /* floor(63.36) = 63, floor(log2 63) = 5 */
	check_hotspot(&v, 63, 5);
	assert_true(same_choice(&t, &u));
	assert_false(same_choice(&t, &v));
	lanes_traffic_free(&t);
	lanes_traffic_free(&u);
	lanes_traffic_free(&v);
	lanes_fabric_free(f);
}

static void test_hotspot_edges(void **state)
{
	struct lanes_fabric *f = star(20);
	struct lanes_sim_traffic spec = { LANES_SIM_HOTSPOT, 1, 0.06, LANES_SIM_PLACE_LINEAR };
	struct lanes_traffic t;
	struct lanes_error err;

	(void)state;
	assert_int_equal(lanes_traffic_make(f, &spec, 1, &t, &err), 0);
	check_hotspot(&t, 1, 1); /* floor(1.2) = 1 sender; log2 1 = 0, taken as 1 */
	lanes_traffic_free(&t);
	spec.hotspot_fraction = 0.05; /* floor(0.05 * 20) = 1 whatever the rounding */
	assert_int_equal(lanes_traffic_make(f, &spec, 1, &t, &err), 0);
	check_hotspot(&t, 1, 1);
	lanes_traffic_free(&t);
	spec.hotspot_fraction = 0.04; /* no sender: uniform */
	assert_int_equal(lanes_traffic_make(f, &spec, 1, &t, &err), 0);
	check_hotspot(&t, 0, 0);
	lanes_traffic_free(&t);
	spec.hotspot_fraction = 0.9; /* 18 senders, 4 destinations: 22 > 20 */
	assert_int_equal(lanes_traffic_make(f, &spec, 1, &t, &err), LANES_EINVAL);
	spec.hotspot_fraction = -0.1;
	assert_int_equal(lanes_traffic_make(f, &spec, 1, &t, &err), LANES_EINVAL);
	lanes_fabric_free(f);
}

/* The group of endpoint e by the generator's numbering: switch i*a + s is in group i. */
static uint32_t df_group(const struct lanes_fabric *f, const struct lanes_traffic *t, uint32_t e,
			 uint32_t a)
{
	uint32_t sw = lanes_fabric_port(f, t->node[e], t->port[e])->peer_node;

	return f->nodes[sw].switch_index / a;
}

static void test_dragonfly_worst(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	struct lanes_traffic t = make(f, LANES_SIM_DRAGONFLY_WORST, 0, 1);
	struct lanes_error err;
	uint32_t rank[72], count[9] = { 0 };

	(void)state;
	assert_int_equal(t.num_endpoints, 72);
	assert_int_equal(check_partial_permutation(&t), 72);
	for (uint32_t e = 0; e < 72; e++)
		rank[e] = count[df_group(f, &t, e, 4)]++;
	for (uint32_t e = 0; e < 72; e++) {
		uint32_t d = t.fixed[e];

		assert_int_equal(df_group(f, &t, d, 4), (df_group(f, &t, e, 4) + 1) % 9);
		assert_int_equal(rank[d], rank[e]);
	}
	lanes_traffic_free(&t);
	lanes_fabric_free(f);

	f = gen("torus k=5x5 p=1"); /* 4x4 would be a hypercube */
	memset(&err, 0, sizeof(err));
	assert_int_equal(make_error(f, LANES_SIM_DRAGONFLY_WORST, 0, &err), LANES_EREFUSED);
	assert_int_equal(err.code, LANES_EREFUSED);
	assert_non_null(strstr(err.message, "dragonfly"));
	lanes_fabric_free(f);
}

/* Uniform: never the source; counts pass a chi-square bound. */
static void test_uniform(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	struct lanes_traffic t = make(f, LANES_SIM_UNIFORM, 0, 1);
	const uint32_t n = 72, per = 2000, draws = (n - 1) * per;
	struct lanes_rng rng;

	(void)state;
	lanes_rng_seed(&rng, 42);
	for (uint32_t src = 0; src < n; src += 35) {
		uint32_t count[72] = { 0 };
		double chi2 = 0;

		for (uint32_t k = 0; k < draws; k++) {
			uint32_t d = lanes_traffic_next(&t, src, &rng);

			assert_true(d < n);
			assert_int_not_equal(d, src);
			count[d]++;
		}
		for (uint32_t d = 0; d < n; d++)
			if (d != src)
				chi2 += (count[d] - (double)per) * (count[d] - (double)per) / per;
		/* 70 degrees of freedom: mean 70, sd 11.8; 130 is 5 sd */
		assert_true(chi2 < 130.0);
		assert_true(chi2 > 25.0); /* not suspiciously even either */
	}
	lanes_traffic_free(&t);
	lanes_fabric_free(f);
}

/* Endpoints: CA ports with a LID and a cable to a switch, in node then port order. */
static void test_endpoints(void **state)
{
	struct lanes_builder *b = tb_new();
	uint32_t sw = tb_add(b, LANES_NODE_SWITCH, 8, 0x10);
	uint32_t c0 = tb_add(b, LANES_NODE_CA, 2, 0x20); /* port 2 to the switch, port 1 free */
	uint32_t c1 = tb_add(b, LANES_NODE_CA, 1, 0x30); /* to c2: CA to CA, no endpoint */
	uint32_t c2 = tb_add(b, LANES_NODE_CA, 2, 0x40); /* port 2 to c1, port 1 to the switch */
	uint32_t c3 = tb_add(b, LANES_NODE_CA, 2, 0x50); /* both ports to the switch */
	struct lanes_fabric *f;
	struct lanes_traffic t;
	const uint32_t node[4] = { c0, c2, c3, c3 };
	const uint8_t port[4] = { 2, 1, 1, 2 };

	(void)state;
	tb_cable(b, c0, 2, sw, 1);
	tb_cable(b, c1, 1, c2, 2);
	tb_cable(b, c2, 1, sw, 5);
	tb_cable(b, c3, 1, sw, 3);
	tb_cable(b, c3, 2, sw, 2);
	f = tb_finish(b);
	t = make(f, LANES_SIM_UNIFORM, 0, 1);
	assert_int_equal(t.num_endpoints, 4);
	for (uint32_t e = 0; e < 4; e++) {
		assert_int_equal(t.node[e], node[e]);
		assert_int_equal(t.port[e], port[e]);
		assert_int_equal(t.lid[e], lanes_fabric_port(f, node[e], port[e])->lid);
		assert_int_not_equal(t.lid[e], 0);
	}
	lanes_traffic_free(&t);
	lanes_fabric_free(f);
}

static struct lanes_traffic make_placed(const struct lanes_fabric *f, int pattern, int placement,
				       uint64_t seed)
{
	struct lanes_sim_traffic spec = { pattern, 5, 0.06, placement };
	struct lanes_traffic t;
	struct lanes_error err;

	if (lanes_traffic_make(f, &spec, seed, &t, &err))
		fail_msg("%s: %s", lanes_sim_pattern_name(pattern), err.message);
	return t;
}

/* Endpoints of b whose rank differs from a's (same LID at the same rank otherwise). */
static uint32_t moved(const struct lanes_traffic *a, const struct lanes_traffic *b)
{
	uint32_t n = 0;

	for (uint32_t e = 0; e < a->num_endpoints; e++)
		n += a->lid[e] != b->lid[e];
	return n;
}

/*
 * Placement: a pattern is defined on ranks, and the random placement only
 * changes which endpoint each rank runs on. So the ranks' destinations are
 * the linear ones, the endpoints are the same set (every LID once, each
 * with its own node and port), the order is a function of the seed, and a
 * random order of 72 moves nearly every endpoint.
 */
static void test_placement(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");
	const int patterns[] = { LANES_SIM_STENCIL3D, LANES_SIM_SHIFT, LANES_SIM_BIT_REVERSE };
	struct lanes_error err;

	(void)state;
	for (size_t k = 0; k < sizeof(patterns) / sizeof(patterns[0]); k++) {
		struct lanes_traffic lin = make_placed(f, patterns[k], LANES_SIM_PLACE_LINEAR, 1);
		struct lanes_traffic rnd = make_placed(f, patterns[k], LANES_SIM_PLACE_RANDOM, 1);
		struct lanes_traffic again = make_placed(f, patterns[k], LANES_SIM_PLACE_RANDOM, 1);
		struct lanes_traffic other = make_placed(f, patterns[k], LANES_SIM_PLACE_RANDOM, 2);
		uint8_t *seen = calloc(f->num_nodes, 1);
		uint32_t n = lin.num_endpoints;

		assert_non_null(seen);
		assert_int_equal(rnd.num_endpoints, n);
		assert_memory_equal(rnd.role, lin.role, n);
		assert_memory_equal(rnd.fixed, lin.fixed, n * sizeof(*lin.fixed));
		if (lin.set)
			assert_memory_equal(rnd.set, lin.set, lin.set_off[n] * sizeof(*lin.set));
		for (uint32_t e = 0; e < n; e++) {
			/* one CA port each on this fabric: its node identifies it */
			assert_int_equal(rnd.lid[e], lanes_fabric_port(f, rnd.node[e], rnd.port[e])->lid);
			assert_false(seen[rnd.node[e]]);
			seen[rnd.node[e]] = 1;
		}
		assert_int_equal(moved(&lin, &again), moved(&lin, &rnd));
		assert_int_equal(moved(&rnd, &again), 0);
		/* a random permutation of 72 fixes one point on average */
		assert_true(moved(&lin, &rnd) >= n - 6);
		assert_true(moved(&rnd, &other) >= n - 6);
		free(seen);
		lanes_traffic_free(&lin);
		lanes_traffic_free(&rnd);
		lanes_traffic_free(&again);
		lanes_traffic_free(&other);
	}
	{
		struct lanes_sim_traffic spec = { LANES_SIM_UNIFORM, 1, 0.06, 7 };
		struct lanes_traffic t;

		assert_int_equal(lanes_traffic_make(f, &spec, 1, &t, &err), LANES_EINVAL);
	}
	lanes_fabric_free(f);
}

static void test_refusals(void **state)
{
	struct lanes_fabric *f = star(1);
	struct lanes_error err;

	(void)state;
	assert_int_equal(make_error(f, LANES_SIM_UNIFORM, 0, &err), LANES_EREFUSED);
	lanes_fabric_free(f);
	f = star(3); /* bit reverse on 2 of 3 endpoints: 0 -> 0, 1 -> 1, no sender */
	assert_int_equal(make_error(f, LANES_SIM_BIT_REVERSE, 0, &err), LANES_EREFUSED);
	assert_int_equal(make_error(f, 99, 0, &err), LANES_EINVAL);
	assert_int_equal(make_error(f, -1, 0, &err), LANES_EINVAL);
	lanes_fabric_free(f);
}

static void test_names(void **state)
{
	int p = -1;

	(void)state;
	for (int k = LANES_SIM_UNIFORM; k <= LANES_SIM_DRAGONFLY_WORST; k++) {
		assert_int_equal(lanes_sim_pattern_find(lanes_sim_pattern_name(k), &p), 0);
		assert_int_equal(p, k);
	}
	assert_string_equal(lanes_sim_pattern_name(LANES_SIM_UNIFORM), "uniform");
	assert_string_equal(lanes_sim_pattern_name(LANES_SIM_BIT_COMPLEMENT), "bitcomp");
	assert_int_equal(lanes_sim_pattern_find("nosuch", &p), LANES_ENOTFOUND);
	assert_string_equal(lanes_sim_pattern_name(99), "unknown");
	assert_string_equal(lanes_sim_pattern_name(-1), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_permutations_64),
		cmocka_unit_test(test_permutations_any_n),
		cmocka_unit_test(test_shift),
		cmocka_unit_test(test_stencil),
		cmocka_unit_test(test_hotspot),
		cmocka_unit_test(test_hotspot_edges),
		cmocka_unit_test(test_dragonfly_worst),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_endpoints),
		cmocka_unit_test(test_placement),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
