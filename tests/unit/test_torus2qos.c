/*
 * test_torus2qos.c - OpenSM's torus-2QoS (doc/current-routing.txt,
 * "Torus-2QoS Routing Algorithm"). Truths from the document and from the
 * coordinates the fabric was built with (the generator's switch names
 * "torus-x3-y1-z0", or the positions of the hand-built tori here), never
 * from the engine:
 *  - on an intact torus every route corrects x, then y, then z, one step
 *    at a time, the shorter way round each ring (the way that does not
 *    wrap on a tie): shortest paths in dimension order;
 *  - the path SL has bit d set when the shorter way in dimension d wraps
 *    from extent-1 to 0 ("sl |= path_crosses_dateline(d) << d"), bit 3 the
 *    QoS level; the switches' SL2VL maps put SL bit d on VL bit 0 for an
 *    output port in dimension d, VL bit 1 on y-x, z-x and z-y turns, the
 *    QoS bit on VL bit 2;
 *  - with a failed switch or failed cables every pair is still routed, the
 *    path SLs are those of the intact torus, and the verifier finds no
 *    credit loop; two breaks in one ring, missing switches in two columns
 *    and too small budgets are refused with a reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#include "lanes/route.h"
#include "lanes/verify.h"

#define MAXSW 256

/* A torus and where each of its switches is. */
struct grid {
	uint32_t k[3];
	int mesh;            /* no wraparound (the walk's distances) */
	uint32_t pos[MAXSW]; /* per switch index: x + X * (y + Y * z) */
	char conf[64];       /* a torus-2QoS.conf for it, or "" */
};

static const struct lanes_engine *engine(void)
{
	const struct lanes_engine *e = lanes_engine_find("torus-2qos");

	assert_non_null(e);
	return e;
}

static uint32_t coord(const struct grid *g, uint32_t sw, unsigned d)
{
	uint32_t p = g->pos[sw];

	return d == 0 ? p % g->k[0] : d == 1 ? p / g->k[0] % g->k[1] : p / g->k[0] / g->k[1];
}

/* The ring distance and whether the shorter way wraps (on a tie: not). */
static uint32_t ring_distance(uint32_t a, uint32_t b, uint32_t k, int *wraps)
{
	uint32_t direct = a > b ? a - b : b - a, around = k - direct;

	*wraps = around < direct;
	return *wraps ? around : direct;
}

static uint8_t expected_sl(const struct grid *g, uint32_t s, uint32_t t)
{
	uint8_t sl = 0;

	for (unsigned d = 0; d < 3; d++) {
		int wraps;

		ring_distance(coord(g, s, d), coord(g, t, d), g->k[d], &wraps);
		sl |= (uint8_t)(wraps << d);
	}
	return sl;
}

static uint32_t next_switch(const struct lanes_fabric *f, uint32_t sw, uint8_t port)
{
	const struct lanes_port *p = lanes_fabric_port(f, f->switches[sw], port);

	if (port == 0 || port == LANES_PORT_DROP || p->peer_node == LANES_NONE)
		return LANES_NONE;
	return f->nodes[p->peer_node].switch_index;
}

/* The CA LID on switch t (the only CA port there, cabled to port 1). */
static uint32_t ca_lid(const struct lanes_fabric *f, uint32_t t)
{
	const struct lanes_port *p = lanes_fabric_port(f, f->switches[t], 1);

	return lanes_fabric_lid(f, p->peer_node, p->peer_port);
}

/* Walk s to t's CA: every hop one step; on an intact torus in x-y-z order and shortest. */
static void walk(const struct lanes_fabric *f, const struct lanes_routing *r, const struct grid *g,
		 uint32_t s, uint32_t t, int intact)
{
	uint32_t lid = ca_lid(f, t), want = 0, hops = 0, x = s, last = 0;

	for (unsigned d = 0; d < 3; d++) {
		int wraps;

		want += g->mesh ? (coord(g, s, d) > coord(g, t, d) ? coord(g, s, d) - coord(g, t, d)
								  : coord(g, t, d) - coord(g, s, d))
				: ring_distance(coord(g, s, d), coord(g, t, d), g->k[d], &wraps);
	}
	while (x != t) {
		uint32_t y = next_switch(f, x, lanes_routing_port(r, x, lid)), moved = 0, dim = 0;

		assert_true(y != LANES_NONE);
		for (unsigned d = 0; d < 3; d++)
			if (coord(g, x, d) != coord(g, y, d)) {
				int wraps;

				moved++;
				dim = d;
				assert_int_equal(ring_distance(coord(g, x, d), coord(g, y, d), g->k[d], &wraps), 1);
			}
		assert_int_equal(moved, 1);
		if (intact) {
			assert_true(dim >= last); /* x, then y, then z */
			for (unsigned d = 0; d < dim; d++)
				assert_int_equal(coord(g, y, d), coord(g, t, d));
		}
		last = dim;
		x = y;
		assert_true(++hops <= f->num_switches);
	}
	if (intact)
		assert_int_equal(hops, want);
	assert_int_equal(lanes_routing_port(r, t, lid), 1);
}

/* Every switch pair walked and its SL checked against the coordinates. */
static void walk_all(const struct lanes_fabric *f, const struct lanes_routing *r,
		     const struct grid *g, int intact)
{
	for (uint32_t s = 0; s < f->num_switches; s++)
		for (uint32_t t = 0; t < f->num_switches; t++) {
			walk(f, r, g, s, t, intact);
			assert_int_equal(lanes_routing_sl(r, f, ca_lid(f, s), ca_lid(f, t)),
					 expected_sl(g, s, t));
		}
}

/* Coordinates from the generator's names "...-x1-y2-z0:...". */
static void name_grid(const struct lanes_fabric *f, const uint32_t k[3], struct grid *g)
{
	memset(g, 0, sizeof(*g));
	memcpy(g->k, k, sizeof(g->k));
	for (uint32_t sw = 0; sw < f->num_switches; sw++) {
		const char *p = strstr(f->nodes[f->switches[sw]].desc, "-x");
		uint32_t c[3] = { 0, 0, 0 }, n = 0;

		while (p && n < 3 && p[0] == '-' && p[1] >= 'x' && p[1] <= 'z') {
			char *end;

			c[n++] = (uint32_t)strtoul(p + 2, &end, 10);
			p = end;
		}
		g->pos[sw] = c[0] + k[0] * (c[1] + k[1] * c[2]);
	}
}

/* ------------------------------------------------------------ hand-built tori */

#define GUID(p) (0x1000u + (p))

/* Is the cable between positions a and b cut (cut: pairs, n of them)? */
static int is_cut(const uint32_t (*cut)[2], size_t n, uint32_t a, uint32_t b)
{
	for (size_t i = 0; i < n; i++)
		if ((cut[i][0] == a && cut[i][1] == b) || (cut[i][0] == b && cut[i][1] == a))
			return 1;
	return 0;
}

/* Position p's neighbour one step + in d, or LANES_NONE (a mesh of 2 has one cable). */
static uint32_t plus_of(const uint32_t k[3], uint32_t p, unsigned d)
{
	uint32_t c[3] = { p % k[0], p / k[0] % k[1], p / k[0] / k[1] };

	if (k[d] < 2 || (k[d] == 2 && c[d] == 1))
		return LANES_NONE;
	c[d] = (c[d] + 1) % k[d];
	return c[0] + k[0] * (c[1] + k[1] * c[2]);
}

/*
 * A k0 x k1 x k2 torus, one CA per switch (port 1), port 2 + 2d to +d and
 * 3 + 2d to -d; without the switches at positions missing[] and the cables
 * cut[]. g gets the positions and a torus-2QoS.conf seeded at position 0.
 */
static struct lanes_fabric *build(const uint32_t k[3], const uint32_t *missing, size_t nmissing,
				  const uint32_t (*cut)[2], size_t ncut, struct grid *g)
{
	struct lanes_builder *b = tb_new();
	uint32_t n = k[0] * k[1] * k[2], node[MAXSW], nsw = 0;

	memset(g, 0, sizeof(*g));
	memcpy(g->k, k, sizeof(g->k));
	for (uint32_t p = 0; p < n; p++) {
		node[p] = LANES_NONE;
		for (size_t i = 0; i < nmissing; i++)
			if (missing[i] == p)
				goto skip;
		node[p] = tb_add(b, LANES_NODE_SWITCH, 7, GUID(p));
		g->pos[nsw++] = p;
skip:;
	}
	for (uint32_t p = 0; p < n; p++)
		if (node[p] != LANES_NONE)
			tb_cable(b, node[p], 1, tb_add(b, LANES_NODE_CA, 1, 0x100000u + p), 1);
	for (uint32_t p = 0; p < n; p++)
		for (unsigned d = 0; d < 3; d++) {
			uint32_t q = plus_of(k, p, d);

			if (q != LANES_NONE && node[p] != LANES_NONE && node[q] != LANES_NONE &&
			    !is_cut(cut, ncut, p, q))
				tb_cable(b, node[p], (uint8_t)(2 + 2 * d), node[q], (uint8_t)(3 + 2 * d));
		}
	return tb_finish(b);
}

/* g->conf: "torus k0 k1 k2" and the seed at position 0 (x- too for a ring of 4). */
static void write_conf(struct grid *g)
{
	uint32_t step[3] = { 1, g->k[0], g->k[0] * g->k[1] };
	FILE *fp;
	int fd;

	strcpy(g->conf, "/tmp/test_torus2qos_XXXXXX");
	assert_true((fd = mkstemp(g->conf)) >= 0);
	assert_non_null(fp = fdopen(fd, "w"));
	fprintf(fp, "# a test torus\ntorus %u %u %u\n", g->k[0], g->k[1], g->k[2]);
	for (unsigned d = 0; d < 3; d++) {
		if (g->k[d] > 1)
			fprintf(fp, "%cp_link 0x%x 0x%x\n", "xyz"[d], GUID(0), GUID(step[d]));
		if (g->k[d] == 4)
			fprintf(fp, "%cm_link 0x%x 0x%x\n", "xyz"[d], GUID(0), GUID(3 * step[d]));
	}
	fclose(fp);
}

/* Route with the config; 0 or the error code, err filled. */
static int route_conf(const struct lanes_fabric *f, const struct grid *g, uint8_t vls,
		      struct lanes_routing **r, struct lanes_error *err)
{
	struct lanes_route_opts o;
	char params[96];

	lanes_route_opts_init(&o);
	o.max_vls = vls;
	snprintf(params, sizeof(params), "config=%s", g->conf);
	o.params = g->conf[0] ? params : NULL;
	o.threads = 2;
	return lanes_route(engine(), f, &o, r, err);
}

/* Routed with the config: every pair reached, intact SLs, no credit loop (vls VLs). */
static void check_faulty(const struct lanes_fabric *f, const struct grid *g, uint8_t vls)
{
	struct lanes_routing *r = NULL;
	struct lanes_verify_result *v;
	struct lanes_error err;

	if (route_conf(f, g, vls, &r, &err))
		fail_msg("torus-2qos: %s", err.message);
	walk_all(f, r, g, 0);
	v = verify_quick(f, r, vls, 1, 0);
	assert_true(v->reachable);
	assert_true(v->deadlock_free);
	lanes_verify_result_free(v);
	lanes_routing_free(r);
}

/* Refused (LANES_EREFUSED or ERANGE as code says) with `word` in the reason. */
static void check_refused(const struct lanes_fabric *f, const struct grid *g, uint8_t vls,
			  int code, const char *word)
{
	struct lanes_routing *r = NULL;
	struct lanes_error err;

	assert_int_equal(route_conf(f, g, vls, &r, &err), code);
	assert_null(r);
	if (!strstr(err.message, word))
		fail_msg("'%s' not in: %s", word, err.message);
}

/* ------------------------------------------------------------ the tests */

static void test_intact_dimension_order(void **state)
{
	static const struct {
		const char *spec;
		uint32_t k[3];
		int mesh;
	} cases[] = {
		{ "torus k=5x5 p=1", { 5, 5, 1 }, 0 },     { "torus k=6x5x3 p=1", { 6, 5, 3 }, 0 },
		{ "torus k=3x3x3 p=1", { 3, 3, 3 }, 0 },   { "torus k=7x6 p=1", { 7, 6, 1 }, 0 },
		{ "mesh k=4x3 p=1", { 4, 3, 1 }, 1 },      { "mesh k=3x3x3 p=1", { 3, 3, 3 }, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lanes_fabric *f = gen(cases[i].spec);
		struct lanes_routing *r = route_engine(engine(), f, 8, 16, 1);
		struct lanes_verify_result *v = verify_quick(f, r, 8, 1, 0);
		struct grid g;

		name_grid(f, cases[i].k, &g);
		g.mesh = cases[i].mesh;
		walk_all(f, r, &g, 1);
		assert_true(v->reachable);
		assert_true(v->deadlock_free);
		lanes_verify_result_free(v);
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
}

/* The dimension of sw's port: 0..2 from the coordinates, 3 for a CA or port 0. */
static unsigned port_dim(const struct lanes_fabric *f, const struct grid *g, uint32_t sw,
			 uint8_t port)
{
	uint32_t y = next_switch(f, sw, port);

	for (unsigned d = 0; y != LANES_NONE && d < 3; d++)
		if (coord(g, sw, d) != coord(g, y, d))
			return d;
	return 3;
}

static void check_maps(const struct lanes_fabric *f, const struct lanes_routing *r,
		       const struct grid *g)
{
	for (uint32_t sw = 0; sw < f->num_switches; sw++) {
		uint8_t n = f->nodes[f->switches[sw]].nports;

		for (uint8_t in = 0; in <= n; in++)
			for (uint8_t out = 1; out <= n; out++) {
				const uint8_t *map = lanes_routing_switch_map(r, f, sw, in, out);
				unsigned id = port_dim(f, g, sw, in), od = port_dim(f, g, sw, out);

				for (unsigned sl = 0; sl < 16; sl++) {
					unsigned want = od == 3 ? sl >> 3 : ((sl >> od) & 1) |
						(id < 3 && id > od ? 2u : 0) | ((sl >> 3) << 2);

					assert_int_equal(map[sl], want);
				}
			}
	}
}

static void test_sl2vl_by_direction(void **state)
{
	static const uint32_t k[3] = { 5, 4, 3 };
	struct lanes_fabric *f = gen("torus k=5x4x3 p=1");
	struct lanes_routing *r = route_engine(engine(), f, 8, 16, 1);
	struct grid g;

	(void)state;
	name_grid(f, k, &g);
	check_maps(f, r, &g);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

static void test_config_equals_recognition(void **state)
{
	static const uint32_t k[3] = { 5, 4, 3 };
	struct lanes_fabric *f;
	struct lanes_routing *bare, *r = NULL;
	struct lanes_error err;
	struct grid g;

	(void)state;
	f = build(k, NULL, 0, NULL, 0, &g);
	write_conf(&g);
	bare = route_engine(engine(), f, 8, 16, 1);
	assert_int_equal(route_conf(f, &g, 8, &r, &err), 0);
	assert_true(routings_equal(bare, r));
	walk_all(f, r, &g, 1);
	unlink(g.conf);
	lanes_routing_free(bare);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

/* Without a config: recognition refuses, the engine seeds the faulty torus itself. */
static void check_bare_equals_config(const struct lanes_fabric *f, struct grid *g, uint8_t vls)
{
	struct lanes_routing *with = NULL, *bare = NULL;
	struct lanes_error err;
	char conf[sizeof(g->conf)];

	assert_int_equal(route_conf(f, g, vls, &with, &err), 0);
	memcpy(conf, g->conf, sizeof(conf));
	g->conf[0] = 0;
	if (route_conf(f, g, vls, &bare, &err))
		fail_msg("bare: %s", err.message);
	memcpy(g->conf, conf, sizeof(conf));
	assert_true(routings_equal(with, bare));
	lanes_routing_free(with);
	lanes_routing_free(bare);
}

static void test_failed_cables(void **state)
{
	static const uint32_t k2[3] = { 6, 5, 1 }, k3[3] = { 5, 5, 3 };
	static const uint32_t one[][2] = { { 7, 8 } }, three[][2] = { { 0, 1 }, { 30, 55 }, { 12, 17 } };
	struct lanes_fabric *f;
	struct grid g;

	(void)state;
	f = build(k2, NULL, 0, one, 1, &g); /* the long way round the ring y=1 */
	write_conf(&g);
	check_faulty(f, &g, 2);
	check_bare_equals_config(f, &g, 2);
	unlink(g.conf);
	lanes_fabric_free(f);
	f = build(k3, NULL, 0, three, 3, &g); /* one seed cable among them */
	write_conf(&g);
	check_faulty(f, &g, 2);
	unlink(g.conf);
	lanes_fabric_free(f);
}

static void test_failed_switches(void **state)
{
	static const uint32_t k2[3] = { 6, 5, 1 }, k3[3] = { 5, 5, 4 };
	static const uint32_t one = 9, column[] = { 12, 37 };
	struct lanes_fabric *f;
	struct grid g;

	(void)state;
	f = build(k2, &one, 1, NULL, 0, &g);
	write_conf(&g);
	check_faulty(f, &g, 4);
	check_bare_equals_config(f, &g, 4);
	check_refused(f, &g, 2, LANES_ERANGE, "needs 4 VLs");
	unlink(g.conf);
	lanes_fabric_free(f);
	f = build(k3, column, 2, NULL, 0, &g); /* adjacent in z, the last dimension */
	write_conf(&g);
	check_faulty(f, &g, 4);
	unlink(g.conf);
	lanes_fabric_free(f);
}

static void test_refusals(void **state)
{
	static const uint32_t k2[3] = { 6, 5, 1 }, k3[3] = { 5, 5, 4 };
	static const uint32_t twice[][2] = { { 7, 8 }, { 9, 10 } };
	static const uint32_t apart[] = { 9, 14 }, gap[] = { 12, 62 };
	struct lanes_fabric *f;
	struct grid g;

	(void)state;
	f = build(k2, NULL, 0, twice, 2, &g);
	write_conf(&g);
	check_refused(f, &g, 8, LANES_EREFUSED, "ring");
	unlink(g.conf);
	g.conf[0] = 0; /* bare: seeded without a config, refused all the same */
	check_refused(f, &g, 8, LANES_EREFUSED, "ring");
	lanes_fabric_free(f);
	f = build(k2, apart, 2, NULL, 0, &g);
	write_conf(&g);
	check_refused(f, &g, 8, LANES_EREFUSED, "in different");
	unlink(g.conf);
	lanes_fabric_free(f);
	f = build(k3, gap, 2, NULL, 0, &g);
	write_conf(&g);
	check_refused(f, &g, 8, LANES_EREFUSED, "not adjacent in z");
	unlink(g.conf);
	lanes_fabric_free(f);
	f = build(k3, NULL, 0, NULL, 0, &g);
	write_conf(&g);
	check_refused(f, &g, 1, LANES_ERANGE, "needs 2 VLs");
	unlink(g.conf);
	lanes_fabric_free(f);
}

/* Random cable failures, and a switch in every third trial: routed (and then right) or
 * refused with a reason, never unverified; with the config and bare. */
static void test_random_cable_failures(void **state)
{
	static const uint32_t k[3] = { 5, 5, 3 };
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	unsigned routed = 0, refused = 0, bare = 0;

	(void)state;
	for (int trial = 0; trial < 36; trial++) {
		uint32_t cut[8][2], n = 1 + test_random_below(&rng, 8), missing;
		uint8_t vls;
		struct lanes_routing *r = NULL;
		struct lanes_fabric *f;
		struct lanes_error err;
		struct grid g;

		for (uint32_t i = 0; i < n; i++) {
			uint32_t p = test_random_below(&rng, 75);
			unsigned d = test_random_below(&rng, 3);

			cut[i][0] = p;
			cut[i][1] = plus_of(k, p, d);
		}
		/* every third trial also without a switch (never the seed's), so with 4 VLs */
		missing = 1 + test_random_below(&rng, 74);
		f = build(k, &missing, trial % 3 == 0, (const uint32_t(*)[2])cut, n, &g);
		vls = trial % 3 == 0 ? 4 : 2;
		write_conf(&g);
		if (route_conf(f, &g, vls, &r, &err)) {
			assert_int_equal(err.code, LANES_EREFUSED);
			assert_true(strlen(err.message) > 20);
			refused++;
		} else {
			lanes_routing_free(r);
			check_faulty(f, &g, vls);
			routed++;
		}
		unlink(g.conf);
		g.conf[0] = 0; /* bare: seeded by the engine, routed and verified or refused */
		if (route_conf(f, &g, vls, &r, &err)) {
			assert_int_equal(err.code, LANES_EREFUSED);
		} else {
			struct lanes_verify_result *v = verify_quick(f, r, vls, 1, 0);

			assert_true(v->reachable);
			assert_true(v->deadlock_free);
			lanes_verify_result_free(v);
			lanes_routing_free(r);
			bare++;
		}
		lanes_fabric_free(f);
	}
	assert_true(routed > 0);
	assert_true(refused > 0);
	assert_true(bare > 0);
}

static void test_qos_level(void **state)
{
	static const uint32_t k[3] = { 5, 4, 3 };
	struct lanes_fabric *f = gen("torus k=5x4x3 p=1");
	struct lanes_route_opts o;
	struct lanes_routing *r = NULL;
	struct lanes_error err;
	struct grid g;

	(void)state;
	name_grid(f, k, &g);
	lanes_route_opts_init(&o);
	o.params = "level=1";
	assert_int_equal(lanes_route(engine(), f, &o, &r, &err), 0);
	for (uint32_t s = 0; s < f->num_switches; s++)
		for (uint32_t t = 0; t < f->num_switches; t++)
			assert_int_equal(lanes_routing_sl(r, f, ca_lid(f, s), ca_lid(f, t)),
					 expected_sl(&g, s, t) | 8);
	check_maps(f, r, &g);
	lanes_routing_free(r);
	o.max_vls = 4;
	assert_int_equal(lanes_route(engine(), f, &o, &r, &err), LANES_ERANGE);
	assert_non_null(strstr(err.message, "needs 8 VLs"));
	o.max_vls = 8;
	o.max_sls = 8;
	assert_int_equal(lanes_route(engine(), f, &o, &r, &err), LANES_ERANGE);
	assert_non_null(strstr(err.message, "needs 16 SLs"));
	o.params = "level=2";
	assert_int_equal(lanes_route(engine(), f, &o, &r, &err), LANES_EINVAL);
	lanes_fabric_free(f);
}

/* The positions the route from position s to position t's CA visits, as "x,y x,y ...". */
static void path_of(const struct lanes_fabric *f, const struct lanes_routing *r,
		    const struct grid *g, uint32_t s, uint32_t t, char *out, size_t size)
{
	uint32_t from = LANES_NONE, to = LANES_NONE, x, lid;
	size_t len = 0;

	for (uint32_t sw = 0; sw < f->num_switches; sw++) {
		from = g->pos[sw] == s ? sw : from;
		to = g->pos[sw] == t ? sw : to;
	}
	assert_true(from != LANES_NONE && to != LANES_NONE);
	lid = ca_lid(f, to);
	for (x = from; x != LANES_NONE;
	     x = x == to ? LANES_NONE : next_switch(f, x, lanes_routing_port(r, x, lid))) {
		len += (size_t)snprintf(out + len, size - len, "%s%u,%u", len ? " " : "", coord(g, x, 0),
					coord(g, x, 1));
		assert_true(len < size - 1);
	}
}

/* The examples of doc/current-routing.txt ("Torus-2QoS Routing Algorithm"), path by path. */
static void check_example(const uint32_t k[3], const uint32_t *missing, size_t nmissing,
			  const uint32_t (*cut)[2], size_t ncut, uint32_t s, uint32_t t, const char *want)
{
	struct lanes_routing *r = NULL;
	struct lanes_fabric *f;
	struct lanes_error err;
	struct grid g;
	char path[256];

	f = build(k, missing, nmissing, cut, ncut, &g);
	write_conf(&g);
	if (route_conf(f, &g, 4, &r, &err))
		fail_msg("torus-2qos: %s", err.message);
	path_of(f, r, &g, s, t, path, sizeof(path));
	if (strcmp(path, want))
		fail_msg("path %s, the document's %s", path, want);
	unlink(g.conf);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

static void test_document_examples(void **state)
{
	/* the 6x5 torus: S (1,1), n (2,1), T (3,1), m (0,1), p (5,1), o (4,1), I (2,2),
	 * r (3,2), D (3,3) */
	static const uint32_t k65[3] = { 6, 5, 1 }, k66[3] = { 6, 6, 1 };
	static const uint32_t S = 7, D = 21, n_T[][2] = { { 8, 9 } }, S_n[][2] = { { 7, 8 } };
	static const uint32_t T = 9, T_R[] = { 9, 15 }, O_T[] = { 9, 10 };
	struct lanes_fabric *f;
	struct grid g;

	(void)state;
	check_example(k65, NULL, 0, NULL, 0, S, D, "1,1 2,1 3,1 3,2 3,3");     /* S-n-T-r-D */
	check_example(k65, NULL, 0, S_n, 1, S, D, "1,1 0,1 5,1 4,1 3,1 3,2 3,3"); /* S-m-p-o-T-r-D */
	check_example(k65, NULL, 0, n_T, 1, S, D, "1,1 0,1 5,1 4,1 3,1 3,2 3,3");
	check_example(k65, &T, 1, NULL, 0, S, D, "1,1 2,1 2,2 3,2 3,3");       /* S-n-I-r-D */
	/* the 6x6 torus without T (3,1) and R (3,2), D at (3,4): S-n-q-I-u-D (OpenSM 3.3.23 refuses
	 * it: its check wants missing switches in a z column; the document routes it) */
	check_example(k66, T_R, 2, NULL, 0, S, 27, "1,1 2,1 2,2 2,3 3,3 3,4");
	f = build(k66, T_R, 2, NULL, 0, &g);
	write_conf(&g);
	check_faulty(f, &g, 4);
	unlink(g.conf);
	lanes_fabric_free(f);
	/* without O (3,1) and T (4,1), adjacent in x, not the last dimension: refused */
	f = build(k66, O_T, 2, NULL, 0, &g);
	write_conf(&g);
	check_refused(f, &g, 8, LANES_EREFUSED, "in different");
	unlink(g.conf);
	lanes_fabric_free(f);
}

/* A config file with this text; route f with it; the error code, err filled. */
static int route_text(const struct lanes_fabric *f, const char *text, struct lanes_error *err)
{
	struct lanes_routing *r = NULL;
	struct grid g;
	FILE *fp;
	int fd, rc;

	memset(&g, 0, sizeof(g));
	strcpy(g.conf, "/tmp/test_torus2qos_XXXXXX");
	assert_true((fd = mkstemp(g.conf)) >= 0);
	assert_non_null(fp = fdopen(fd, "w"));
	fputs(text, fp);
	fclose(fp);
	rc = route_conf(f, &g, 8, &r, err);
	unlink(g.conf);
	lanes_routing_free(r);
	return rc;
}

static void test_config_errors(void **state)
{
	static const uint32_t k[3] = { 6, 5, 1 };
	struct lanes_fabric *f;
	struct lanes_error err;
	struct lanes_routing *r = NULL;
	struct lanes_route_opts o;
	struct grid g;

	(void)state;
	f = build(k, NULL, 0, NULL, 0, &g);
	/* the size does not fit the fabric: a switch finds no place, or a cable no neighbours */
	assert_int_equal(route_text(f, "torus 5 5 1\nxp_link 0x1000 0x1001\nyp_link 0x1000 0x1006\n",
				    &err), LANES_EREFUSED);
	assert_non_null(strstr(err.message, "switch 0x"));
	assert_int_equal(route_text(f, "torus 6 5 1\nxp_lnk 0x1000 0x1001\n", &err), LANES_EPARSE);
	assert_int_equal(err.line, 2); /* file:line */
	assert_int_equal(route_text(f, "torus 6 5\n", &err), LANES_EPARSE);
	assert_int_equal(route_text(f, "# no size\nxp_link 0x1000 0x1001\n", &err), LANES_EPARSE);
	assert_int_equal(route_text(f, "torus 6 5 1\nyp_link 0x1000 0x1006\n", &err), LANES_EINVAL);
	assert_non_null(strstr(err.message, "xp_link"));
	assert_int_equal(route_text(f, "torus 6 5 1\nxp_link 0x1000 0x1001\nyp_link 0x1001 0x1007\n",
				    &err), LANES_EINVAL); /* seed links from two switches */
	assert_int_equal(route_text(f, "torus 6 5 1\nxp_link 0x9999 0x1001\nyp_link 0x9999 0x1006\n",
				    &err), LANES_EREFUSED); /* the only seed names a missing switch */
	/* a backup seed (next_seed) with a dateline: the seed switch sits at -1, -1 */
	assert_int_equal(route_text(f, "torus 6 5 1\nxp_link 0x9999 0x1001\nnext_seed\n"
				    "xp_link 0x1007 0x1008\nyp_link 0x1007 0x100d\nx_dateline -1\n"
				    "y_dateline -1\n", &err), 0);
	lanes_route_opts_init(&o);
	o.params = "config=/nonexistent/torus-2QoS.conf";
	assert_int_equal(lanes_route(engine(), f, &o, &r, &err), LANES_EIO);
	o.params = "colour=blue";
	assert_int_equal(lanes_route(engine(), f, &o, &r, &err), LANES_EINVAL);
	assert_non_null(strstr(err.message, "colour=blue"));
	lanes_fabric_free(f);
}

/* A backup seed with datelines routes as the default seed at 0,0,0 does. */
static void test_dateline_seed(void **state)
{
	static const uint32_t k[3] = { 6, 5, 1 };
	struct lanes_fabric *f;
	struct lanes_routing *a = NULL, *b = NULL;
	struct lanes_error err;
	struct grid g;

	(void)state;
	f = build(k, NULL, 0, NULL, 0, &g);
	write_conf(&g);
	assert_int_equal(route_conf(f, &g, 8, &a, &err), 0);
	unlink(g.conf);
	strcpy(g.conf, "/tmp/test_torus2qos_XXXXXX");
	{
		FILE *fp;
		int fd = mkstemp(g.conf);

		assert_true(fd >= 0);
		assert_non_null(fp = fdopen(fd, "w"));
		/* switch at (1,1) (GUID 0x1007) seeds, its position given by the datelines */
		fputs("torus 6 5 1\nxp_link 0x1007 0x1008\nyp_link 0x1007 0x100d\n"
		      "x_dateline -1\ny_dateline -1\n", fp);
		fclose(fp);
	}
	assert_int_equal(route_conf(f, &g, 8, &b, &err), 0);
	unlink(g.conf);
	assert_true(routings_equal(a, b));
	lanes_routing_free(a);
	lanes_routing_free(b);
	lanes_fabric_free(f);
}

/* A mesh under a small SL budget: its dateline bits (OpenSM's, meaningless there) left out. */
static void test_mesh_small_budget(void **state)
{
	static const uint32_t k[3] = { 4, 3, 1 };
	struct lanes_fabric *f = gen("mesh k=4x3 p=1");
	struct lanes_routing *r = route_engine(engine(), f, 1, 1, 1);
	struct lanes_verify_result *v = verify_quick(f, r, 1, 1, 0);
	struct grid g;

	(void)state;
	name_grid(f, k, &g);
	g.mesh = 1;
	for (uint32_t s = 0; s < f->num_switches; s++)
		for (uint32_t t = 0; t < f->num_switches; t++) {
			walk(f, r, &g, s, t, 1);
			assert_int_equal(lanes_routing_sl(r, f, ca_lid(f, s), ca_lid(f, t)), 0);
		}
	assert_true(v->deadlock_free);
	assert_int_equal(r->num_vls, 1);
	lanes_verify_result_free(v);
	lanes_routing_free(r);
	lanes_fabric_free(f);
	f = gen("torus k=5x4x3 p=1"); /* a torus: refused, naming the 8 SLs */
	{
		struct lanes_error err = route_engine_error(engine(), f, 2, 4);

		assert_non_null(strstr(err.message, "needs 8 SLs"));
	}
	lanes_fabric_free(f);
}

static void test_threads(void **state)
{
	(void)state;
	check_threads_identical(engine(), "torus k=6x5x3 p=2", 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intact_dimension_order),
		cmocka_unit_test(test_sl2vl_by_direction),
		cmocka_unit_test(test_config_equals_recognition),
		cmocka_unit_test(test_failed_cables),
		cmocka_unit_test(test_failed_switches),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_random_cable_failures),
		cmocka_unit_test(test_qos_level),
		cmocka_unit_test(test_document_examples),
		cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_dateline_seed),
		cmocka_unit_test(test_mesh_small_budget),
		cmocka_unit_test(test_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
