/*
 * test_hyperx.c - the hyperx engine's three variants ("Early evaluation of
 * direct large-scale InfiniBand networks with adaptive routing", Sec. 3.3),
 * walked hop by hop against the coordinates the generator writes into the
 * switch names ("hyperx-x1-y0-z2-w1"), never against the engine's own:
 *  - dor: dimensions 1..n in order, one hop each, only where the
 *    coordinates differ (shortest);
 *  - mixed: the destination's host index d picks the order d mod 4 of the
 *    paper's (1,2,3,4), (2,4,1,3), (3,1,4,2), (4,3,2,1) on a 4-D HyperX,
 *    the path SL is d mod 4 and every switch-to-switch hop is on VL = SL;
 *  - twisted: from the source switch a first hop in the last dimension to
 *    coordinate d mod K_n (none when already there) on VL 1, then dimension
 *    order on VL 0;
 * and every variant verified free of credit loops with the SLs and VLs the
 * paper states, refusals naming what is missing. Slim Fly x FlatFly
 * products (recognition and the three variants): the second half.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "lanes/route.h"
#include "lanes/verify.h"

#define MAX_DIMS 4

/* Coordinates from "...-x1-y2-z0-w3:...": how many. */
static uint32_t name_coords(const struct lanes_fabric *f, uint32_t sw, uint32_t *c)
{
	const char *p = strstr(f->nodes[f->switches[sw]].desc, "-x");
	uint32_t n = 0;

	while (p && n < MAX_DIMS && p[0] == '-' && strchr("xyzw", p[1])) {
		char *end;

		c[n++] = (uint32_t)strtoul(p + 2, &end, 10);
		p = end;
	}
	return n;
}

/* The rank of a CA's port among its switch's CA ports: the paper's host index d. */
static uint32_t host_index(const struct lanes_fabric *f, uint32_t lid)
{
	uint8_t at = 0;
	uint32_t sw = lanes_fabric_lid_switch_port(f, lid, &at), rank = 0;

	for (uint8_t p = 1; p < at; p++) {
		uint32_t peer = lanes_fabric_port(f, f->switches[sw], p)->peer_node;

		rank += peer != LANES_NONE && f->nodes[peer].type == LANES_NODE_CA;
	}
	return rank;
}

struct walk {
	uint32_t dims[16];   /* the dimension of each switch-to-switch hop */
	uint8_t vls[16];     /* its VL */
	uint32_t hops;
	uint32_t first_hop_to[MAX_DIMS]; /* coordinates after the first hop */
};

/* Follow a CA's packets to lid from its switch, noting each hop's dimension and VL. */
static struct walk walk_route(const struct lanes_fabric *f, const struct lanes_routing *r,
			      uint32_t ca_node, uint32_t lid)
{
	const struct lanes_port *cp = lanes_fabric_port(f, ca_node, 1);
	uint32_t x = f->nodes[cp->peer_node].switch_index, src_lid = cp->lid;
	uint8_t in = cp->peer_port, sl = lanes_routing_sl(r, f, src_lid, lid);
	struct walk w;

	memset(&w, 0, sizeof(w));
	for (;;) {
		uint8_t out = lanes_routing_port(r, x, lid);
		const struct lanes_port *op = lanes_fabric_port(f, f->switches[x], out);
		uint32_t a[MAX_DIMS], b[MAX_DIMS], y, n;

		if (f->nodes[op->peer_node].type != LANES_NODE_SWITCH)
			return w;
		y = f->nodes[op->peer_node].switch_index;
		n = name_coords(f, x, a);
		name_coords(f, y, b);
		for (uint32_t d = 0, moved = 0; d < n; d++)
			if (a[d] != b[d]) {
				assert_int_equal(moved++, 0);
				w.dims[w.hops] = d;
			}
		if (!w.hops)
			memcpy(w.first_hop_to, b, sizeof(b));
		w.vls[w.hops] = lanes_routing_switch_map(r, f, x, in, out)[sl];
		assert_true(++w.hops < 16);
		in = op->peer_port;
		x = y;
	}
}

static struct lanes_routing *route_order(struct lanes_fabric *f, const char *params)
{
	struct lanes_route_opts ro;
	struct lanes_routing *r;
	struct lanes_error err;

	lanes_route_opts_init(&ro);
	ro.params = params;
	ro.threads = 1;
	if (lanes_route(lanes_engine_find("hyperx"), f, &ro, &r, &err))
		fail_msg("hyperx %s: %s", params, err.message);
	return r;
}

/* Every CA to every CA LID: the walk matches the variant's rule. */
static void check_variant(const char *spec, const char *params)
{
	static const uint32_t paper[4][4] = { { 0, 1, 2, 3 }, { 1, 3, 0, 2 }, { 2, 0, 3, 1 },
					      { 3, 2, 1, 0 } };
	struct lanes_fabric *f = gen(spec);
	struct lanes_routing *r = route_order(f, params);
	int mixed = !strcmp(params, "order=mixed"), twisted = !strcmp(params, "order=twisted");

	for (uint32_t s = 0; s < f->num_nodes; s++)
		for (uint32_t t = 0; t < f->num_nodes && f->nodes[s].type == LANES_NODE_CA; t++) {
			const struct lanes_port *sp = lanes_fabric_port(f, s, 1);
			uint32_t lid = lanes_fabric_lid(f, t, 1), a[MAX_DIMS], b[MAX_DIMS], n, k[MAX_DIMS];
			uint32_t d, pos = 0, differ = 0, twist;
			struct walk w;

			if (t == s || f->nodes[t].type != LANES_NODE_CA)
				continue;
			d = host_index(f, lid);
			n = name_coords(f, f->nodes[sp->peer_node].switch_index, a);
			name_coords(f, lanes_fabric_lid_switch(f, lid), b);
			sscanf(spec, "hyperx K=%ux%ux%ux%u", &k[0], &k[1], &k[2], &k[3]);
			w = walk_route(f, r, s, lid);
			/* a packet for a CA of its own switch is delivered at once */
			twist = twisted && memcmp(a, b, n * sizeof(*a)) && a[n - 1] != d % k[n - 1];
			if (twist) {
				assert_int_equal(w.dims[0], n - 1);
				assert_int_equal(w.first_hop_to[n - 1], d % k[n - 1]);
				a[n - 1] = d % k[n - 1];
			}
			for (uint32_t i = 0; i < n; i++) {
				uint32_t dim = mixed ? paper[d % 4][i] : i;

				if (a[dim] == b[dim])
					continue;
				differ++;
				assert_int_equal(w.dims[twist + pos++], dim);
			}
			assert_int_equal(w.hops, differ + twist);
			for (uint32_t h = 0; h < w.hops; h++)
				assert_int_equal(w.vls[h], mixed ? d % 4 : twisted ? h == 0 : 0);
			if (mixed)
				assert_int_equal(lanes_routing_sl(r, f, sp->lid, lid), d % 4);
		}
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

static void test_variants_hop_by_hop(void **state)
{
	(void)state;
	check_variant("hyperx K=2x3x2x3 p=4", "order=dor");
	check_variant("hyperx K=2x3x2x3 p=4", "order=mixed");
	check_variant("hyperx K=2x3x2x3 p=4", "order=twisted");
	check_variant("hyperx K=3x4x3x2 p=5", "order=twisted");
	check_variant("hyperx K=3x4x3x2 p=5", "order=mixed");
}

static void test_verified(void **state)
{
	static const struct {
		const char *spec, *params;
		unsigned vls, sls;
	} cases[] = {
		{ "hyperx K=4x4x4 p=2", "order=dor", 1, 1 },
		{ "hyperx K=2x3x2x3 p=4", "order=mixed", 4, 4 },
		{ "hyperx K=4x4x4 p=4", "order=mixed", 3, 3 }, /* 3 dimensions: 3 orders */
		{ "hyperx K=4x4 p=2 L=2", "order=twisted", 2, 1 },
		{ "hypercube n=5 p=2", "order=twisted", 2, 1 },
		{ "hyperx K=8 p=3", "order=mixed", 1, 1 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lanes_fabric *f = gen(cases[i].spec);
		struct lanes_routing *r = route_order(f, cases[i].params);
		struct lanes_verify_result *res = verify_quick(f, r, 8, 0, 0);

		assert_true(res->deadlock_free);
		assert_true(res->reachable);
		assert_int_equal(res->vls_used, cases[i].vls);
		assert_int_equal(res->sls_used, cases[i].sls);
		lanes_verify_result_free(res);
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
}

static void test_refusals(void **state)
{
	const struct lanes_engine *e = lanes_engine_find("hyperx");
	struct lanes_fault_spec one_cable = { 1, 0, 1 };
	struct lanes_fabric *f = gen("torus k=5x5 p=1"), *broken;
	struct lanes_route_opts ro;
	struct lanes_routing *r;
	struct lanes_error err;

	(void)state;
	err = route_engine_error(e, f, 8, 16);
	assert_int_equal(err.code, LANES_EREFUSED);
	assert_non_null(strstr(err.message, "hyperx: not a HyperX"));
	lanes_fabric_free(f);
	/* a HyperX missing a cable: recognised, but a dimension-order hop has no cable */
	f = gen("hyperx K=4x4x4 p=1");
	assert_int_equal(lanes_fabric_inject_faults(f, &one_cable, &broken, NULL, &err), 0);
	err = route_engine_error(e, broken, 8, 16);
	assert_int_equal(err.code, LANES_EREFUSED);
	assert_non_null(strstr(err.message, "hyperx: no cable from switch"));
	lanes_fabric_free(broken);
	lanes_route_opts_init(&ro);
	ro.params = "order=mixed";
	ro.max_vls = 2;
	assert_int_equal(lanes_route(e, f, &ro, &r, &err), LANES_ERANGE);
	assert_non_null(strstr(err.message, "needs 3 VLs and 3 SLs"));
	ro.params = "order=sideways";
	assert_int_equal(lanes_route(e, f, &ro, &r, &err), LANES_EINVAL);
	assert_non_null(strstr(err.message, "unknown parameter 'order=sideways'"));
	lanes_fabric_free(f);
}

/* ============================================================ Slim Fly x FlatFly */

/*
 * SF x FF products (Sec. 1.5, 3.6), judged against the generator's
 * coordinates in the switch names ("sf<t>.<x>.<y>-ff<c_1>.<c_2>..."), the
 * MMS graph of gf.c (the definition of the Slim Fly vertex numbering t q^2
 * + x q + y) and the cables themselves, never the engine's own:
 *  - recognition of bare copies (switch order and port numbers shuffled,
 *    names gone): the Slim Fly and each complete-graph dimension are the
 *    generator's, value for value up to renaming; every cable is a product
 *    link under the coordinates (a Slim Fly link is an MMS link), and there
 *    are as many as the product has; refusals of non-products and of
 *    damaged products, with reasons that do not depend on the switch order;
 *  - routing, every CA pair walked hop by hop: the Slim Fly (dimension 1)
 *    crossed in as many hops as its layer's distance (1 when cabled, else
 *    2), each complete graph in at most 1, in the variant's order; dor and
 *    mixed shortest (product distance = sum of the factors' distances);
 *    each hop's VL as the file header states; the verifier's judgement.
 */
#include "lanes/recognize.h"
#include "topo/gf.h"

#define SFX_MAX_FF 3
#define SFX_MAX_HOPS 24

/* The generator's coordinates of every switch, read once from the names. */
struct sfx_names {
	unsigned q;
	uint32_t num_ff;
	uint32_t *sf; /* per switch: t q^2 + x q + y */
	uint32_t *ff; /* [switch * SFX_MAX_FF + gen dim] */
};

static struct sfx_names sfx_read_names(const struct lanes_fabric *f, unsigned q)
{
	struct sfx_names nm = { q, 0, malloc(f->num_switches * sizeof(uint32_t)),
				calloc((size_t)f->num_switches * SFX_MAX_FF, sizeof(uint32_t)) };

	assert_true(nm.sf && nm.ff);
	for (uint32_t u = 0; u < f->num_switches; u++) {
		const char *p = strstr(f->nodes[f->switches[u]].desc, "-sf");
		unsigned t, x, y;
		int used = 0;
		uint32_t k = 0;

		assert_non_null(p);
		assert_int_equal(sscanf(p, "-sf%u.%u.%u-ff%n", &t, &x, &y, &used), 3);
		assert_true(used > 0);
		nm.sf[u] = (t * q + x) * q + y;
		for (p += used; k < SFX_MAX_FF && *p >= '0' && *p <= '9'; k++) {
			char *end;

			nm.ff[u * SFX_MAX_FF + k] = (uint32_t)strtoul(p, &end, 10);
			p = *end == '.' ? end + 1 : end;
		}
		nm.num_ff = k;
	}
	return nm;
}

static void sfx_names_free(struct sfx_names *nm)
{
	free(nm->sf);
	free(nm->ff);
}

/*
 * The engine's dimensions in generator terms: 0 the Slim Fly, then the
 * complete graphs by ascending size (docs/recognize.md); gen_dim[e] is the
 * generator's dimension of engine dimension e >= 1 (sizes all differ here).
 */
struct sfx_case {
	const char *spec;
	unsigned q;
	uint32_t num_ff, k[SFX_MAX_FF]; /* generator order */
};

static uint32_t sfx_engine_dims(const struct sfx_case *c, uint32_t *gen_dim, uint32_t *extent)
{
	uint32_t n = 1;

	extent[0] = 2 * c->q * c->q;
	for (uint32_t i = 0; i < c->num_ff; i++) {
		uint32_t at = n++;

		while (at > 1 && c->k[gen_dim[at - 1]] > c->k[i]) {
			gen_dim[at] = gen_dim[at - 1];
			at--;
		}
		gen_dim[at] = i;
	}
	for (uint32_t e = 1; e < n; e++)
		extent[e] = c->k[gen_dim[e]];
	return n;
}

/* Switch u's coordinates in engine dimensions. */
static void sfx_engine_coords(const struct sfx_names *nm, const uint32_t *gen_dim, uint32_t n,
			      uint32_t u, uint32_t *c)
{
	c[0] = nm->sf[u];
	for (uint32_t e = 1; e < n; e++)
		c[e] = nm->ff[u * SFX_MAX_FF + gen_dim[e]];
}

/* 1 when switch a is cabled to the switch of its layer at Slim Fly vertex v, else 2. */
static uint32_t sfx_layer_distance(const struct lanes_fabric *f, const struct sfx_names *nm,
				   uint32_t a, uint32_t v)
{
	uint32_t node = f->switches[a];

	for (uint8_t p = 1; p <= f->nodes[node].nports; p++) {
		uint32_t peer = lanes_fabric_port(f, node, p)->peer_node, y;

		if (peer == LANES_NONE || f->nodes[peer].type != LANES_NODE_SWITCH)
			continue;
		y = f->nodes[peer].switch_index;
		if (nm->sf[y] == v && !memcmp(nm->ff + y * SFX_MAX_FF, nm->ff + a * SFX_MAX_FF,
					      SFX_MAX_FF * sizeof(uint32_t)))
			return 1;
	}
	return 2;
}

struct sfx_walk {
	uint32_t dim[SFX_MAX_HOPS]; /* engine dimension of each switch-to-switch hop */
	uint8_t vl[SFX_MAX_HOPS];
	uint32_t hops;
	uint32_t first_to[1 + SFX_MAX_FF]; /* engine coordinates after the first hop */
};

static struct sfx_walk sfx_walk_route(const struct lanes_fabric *f, const struct lanes_routing *r,
				      const struct sfx_names *nm, const uint32_t *gen_dim,
				      uint32_t n, uint32_t ca_node, uint32_t lid)
{
	const struct lanes_port *cp = lanes_fabric_port(f, ca_node, 1);
	uint32_t x = f->nodes[cp->peer_node].switch_index;
	uint8_t in = cp->peer_port, sl = lanes_routing_sl(r, f, cp->lid, lid);
	struct sfx_walk w;

	memset(&w, 0, sizeof(w));
	for (;;) {
		uint8_t out = lanes_routing_port(r, x, lid);
		const struct lanes_port *op = lanes_fabric_port(f, f->switches[x], out);
		uint32_t a[1 + SFX_MAX_FF], b[1 + SFX_MAX_FF], y, moved = 0;

		assert_int_not_equal(out, 0);
		if (f->nodes[op->peer_node].type != LANES_NODE_SWITCH)
			return w;
		y = f->nodes[op->peer_node].switch_index;
		sfx_engine_coords(nm, gen_dim, n, x, a);
		sfx_engine_coords(nm, gen_dim, n, y, b);
		for (uint32_t d = 0; d < n; d++)
			if (a[d] != b[d]) {
				moved++;
				w.dim[w.hops] = d;
			}
		assert_int_equal(moved, 1); /* a product link changes one coordinate */
		if (!w.hops)
			memcpy(w.first_to, b, sizeof(b));
		w.vl[w.hops] = lanes_routing_switch_map(r, f, x, in, out)[sl];
		assert_true(++w.hops < SFX_MAX_HOPS);
		in = op->peer_port;
		x = y;
	}
}

static struct lanes_routing *sfx_route(const struct lanes_fabric *f, const char *params)
{
	struct lanes_route_opts ro;
	struct lanes_routing *r;
	struct lanes_error err;

	lanes_route_opts_init(&ro);
	ro.params = params;
	ro.threads = 1;
	if (lanes_route(lanes_engine_find("hyperx"), f, &ro, &r, &err))
		fail_msg("hyperx %s: %s", params, err.message);
	return r;
}

enum { SFX_DOR, SFX_MIXED, SFX_TWISTED };

/* The variant's dimension order for host index d (engine dimensions). */
static void sfx_order(int variant, uint32_t n, uint32_t d, uint32_t *order)
{
	static const uint32_t paper[4][4] = { { 0, 1, 2, 3 }, { 1, 3, 0, 2 }, { 2, 0, 3, 1 },
					      { 3, 2, 1, 0 } };
	uint32_t orders = n < 4 ? n : 4;

	for (uint32_t i = 0; i < n; i++)
		order[i] = variant != SFX_MIXED ? i : n == 4 ? paper[d % 4][i] : (d % orders + i) % n;
}

/* The VL the header states for hop h of w. */
static uint8_t sfx_expected_vl(int variant, uint32_t n, uint32_t d, const struct sfx_walk *w,
			       uint32_t h)
{
	int second = w->dim[h] == 0 && h > 0 && w->dim[h - 1] == 0;
	uint32_t orders = n < 4 ? n : 4;

	if (variant == SFX_MIXED)
		return (uint8_t)(second ? orders : d % orders);
	if (variant == SFX_TWISTED)
		return (uint8_t)(second || (h == 0 && w->dim[0] != 0));
	return (uint8_t)second;
}

/* One CA pair: the walk against the variant's rule. */
static void sfx_check_pair(const struct lanes_fabric *f, const struct lanes_routing *r,
			   const struct sfx_names *nm, const uint32_t *gen_dim, const uint32_t *extent,
			   uint32_t n, int variant, uint32_t s, uint32_t t)
{
	const struct lanes_port *sp = lanes_fabric_port(f, s, 1);
	uint32_t lid = lanes_fabric_lid(f, t, 1), d = host_index(f, lid);
	uint32_t src = f->nodes[sp->peer_node].switch_index, dst = lanes_fabric_lid_switch(f, lid);
	uint32_t a[1 + SFX_MAX_FF], b[1 + SFX_MAX_FF], order[1 + SFX_MAX_FF], pos = 0, twist;
	uint32_t distance = 0, sf_hops;
	struct sfx_walk w = sfx_walk_route(f, r, nm, gen_dim, n, s, lid);

	sfx_engine_coords(nm, gen_dim, n, src, a);
	sfx_engine_coords(nm, gen_dim, n, dst, b);
	sfx_order(variant, n, d, order);
	sf_hops = a[0] == b[0] ? 0 : sfx_layer_distance(f, nm, src, b[0]);
	twist = variant == SFX_TWISTED && src != dst && a[n - 1] != d % extent[n - 1];
	if (twist) {
		assert_int_equal(w.dim[0], n - 1);
		assert_int_equal(w.first_to[n - 1], d % extent[n - 1]);
		a[n - 1] = d % extent[n - 1];
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t dim = order[i], hops = dim ? 1 : sf_hops;

		for (uint32_t k = 0; k < hops && a[dim] != b[dim]; k++, distance++)
			assert_int_equal(w.dim[twist + pos++], dim);
	}
	assert_int_equal(w.hops, twist + pos); /* shortest within each dimension */
	if (variant != SFX_TWISTED)
		assert_int_equal(w.hops, distance); /* the product distance */
	for (uint32_t h = 0; h < w.hops; h++)
		assert_int_equal(w.vl[h], sfx_expected_vl(variant, n, d, &w, h));
	if (variant == SFX_MIXED)
		assert_int_equal(lanes_routing_sl(r, f, sp->lid, lid), d % (n < 4 ? n : 4));
}

/* Every source CA (every stride-th) to every CA LID. */
static void sfx_check_variant(const struct sfx_case *c, int variant, uint32_t stride)
{
	static const char *const params[] = { "order=dor", "order=mixed", "order=twisted" };
	struct lanes_fabric *f = gen(c->spec);
	struct lanes_routing *r = sfx_route(f, params[variant]);
	struct sfx_names nm = sfx_read_names(f, c->q);
	uint32_t gen_dim[1 + SFX_MAX_FF], extent[1 + SFX_MAX_FF];
	uint32_t n = sfx_engine_dims(c, gen_dim, extent), cas = 0;

	assert_int_equal(nm.num_ff, c->num_ff);
	for (uint32_t s = 0; s < f->num_nodes; s++) {
		if (f->nodes[s].type != LANES_NODE_CA || cas++ % stride)
			continue;
		for (uint32_t t = 0; t < f->num_nodes; t++)
			if (t != s && f->nodes[t].type == LANES_NODE_CA)
				sfx_check_pair(f, r, &nm, gen_dim, extent, n, variant, s, t);
	}
	sfx_names_free(&nm);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

static void test_sfxff_hop_by_hop(void **state)
{
	static const struct sfx_case small = { "sfxff q=3 K=2x3 p=2", 3, 2, { 2, 3 } };
	static const struct sfx_case swapped = { "sfxff q=4 K=3x2 p=3", 4, 2, { 3, 2 } };
	static const struct sfx_case four = { "sfxff q=3 K=4x2x3 p=4", 3, 3, { 4, 2, 3 } };
	static const struct sfx_case hoffman = { "sfxff q=5 K=3 p=2 Lsf=2 L=2", 5, 1, { 3 } };

	(void)state;
	for (int v = SFX_DOR; v <= SFX_TWISTED; v++) {
		sfx_check_variant(&small, v, 1);
		sfx_check_variant(&swapped, v, 1);
		sfx_check_variant(&four, v, 7); /* 4 dimensions: the paper's orders */
		sfx_check_variant(&hoffman, v, 1);
	}
}

/* ------------------------------------------------------------ SF x FF recognition */

/* What a copy changes besides the order: a cable left out, two cables' far ends swapped. */
struct sfx_edit {
	uint32_t skip_link;      /* index into f->links, or LANES_NONE */
	uint32_t swap_a, swap_b; /* indices into f->links, or LANES_NONE */
};

static const struct sfx_edit sfx_no_edit = { LANES_NONE, LANES_NONE, LANES_NONE };

static void sfx_shuffle(uint32_t *a, uint32_t n, uint64_t *rng)
{
	for (uint32_t i = 0; i < n; i++)
		a[i] = i;
	for (uint32_t i = n; i > 1; i--) {
		uint32_t j = test_random_below(rng, i), t = a[i - 1];

		a[i - 1] = a[j];
		a[j] = t;
	}
}

/*
 * A bare copy of f: switches in an order shuffled by seed, their port
 * numbers shuffled, every name "n", GUIDs new, edited. new_switch[old
 * switch index] receives each switch's index in the copy (may be NULL).
 */
static struct lanes_fabric *sfx_copy(const struct lanes_fabric *f, uint64_t seed,
				     const struct sfx_edit *edit, uint32_t *new_switch)
{
	struct lanes_builder *b = tb_new();
	uint32_t *order = malloc(f->num_switches * sizeof(*order));
	uint32_t *node_of = malloc(f->num_nodes * sizeof(*node_of)), perm[LANES_PORTS_MAX + 1];
	uint8_t *port_of = malloc(f->num_port_slots);
	struct lanes_fabric *copy;
	uint64_t rng = seed;

	assert_true(order && node_of && port_of);
	sfx_shuffle(order, f->num_switches, &rng);
	for (uint32_t i = 0; i < f->num_switches; i++)
		node_of[f->switches[order[i]]] = tb_add(b, LANES_NODE_SWITCH,
							f->nodes[f->switches[order[i]]].nports, 0);
	for (uint32_t v = 0; v < f->num_nodes; v++) {
		uint32_t np = f->nodes[v].nports;
		int is_switch = f->nodes[v].type == LANES_NODE_SWITCH;

		if (!is_switch)
			node_of[v] = tb_add(b, f->nodes[v].type, (uint8_t)np, 0);
		sfx_shuffle(perm, np, &rng);
		for (uint32_t p = 1; p <= np; p++)
			port_of[f->nodes[v].port_base + p] = (uint8_t)(is_switch ? perm[p - 1] + 1 : p);
	}
	for (uint32_t i = 0; i < f->num_links; i++) {
		const struct lanes_link *l = &f->links[i];
		uint32_t bn = l->b;
		uint8_t pb = l->pb;

		if (i == edit->swap_a || i == edit->swap_b) {
			const struct lanes_link *o = &f->links[i == edit->swap_a ? edit->swap_b : edit->swap_a];

			bn = o->b;
			pb = o->pb;
		}
		if (i != edit->skip_link)
			tb_cable(b, node_of[l->a], port_of[f->nodes[l->a].port_base + l->pa], node_of[bn],
				 port_of[f->nodes[bn].port_base + pb]);
	}
	copy = tb_finish(b);
	for (uint32_t u = 0; new_switch && u < f->num_switches; u++)
		new_switch[u] = copy->nodes[node_of[f->switches[u]]].switch_index;
	free(order);
	free(node_of);
	free(port_of);
	return copy;
}

/* Values of one generator coordinate and one recognised coordinate name the same classes. */
static void sfx_same_partition(const uint32_t *gen, uint32_t gen_stride, const uint32_t *rec,
			       uint32_t rec_stride, uint32_t n, uint32_t values)
{
	uint32_t *gen_to_rec = malloc(values * sizeof(*gen_to_rec));
	uint32_t *rec_to_gen = malloc(values * sizeof(*rec_to_gen));

	assert_true(gen_to_rec && rec_to_gen);
	for (uint32_t v = 0; v < values; v++)
		gen_to_rec[v] = rec_to_gen[v] = LANES_NONE;
	for (uint32_t u = 0; u < n; u++) {
		uint32_t g = gen[(size_t)u * gen_stride], r = rec[(size_t)u * rec_stride];

		assert_true(g < values && r < values);
		if (gen_to_rec[g] == LANES_NONE && rec_to_gen[r] == LANES_NONE) {
			gen_to_rec[g] = r;
			rec_to_gen[r] = g;
		}
		assert_int_equal(gen_to_rec[g], r);
		assert_int_equal(rec_to_gen[r], g);
	}
	free(gen_to_rec);
	free(rec_to_gen);
}

/*
 * A bare copy of c's fabric recognised: the generator's dimensions value
 * for value, every cable a product link (MMS link in the Slim Fly), as many
 * cabled switch pairs as the product has.
 */
static void sfx_check_recognised(const struct sfx_case *c, uint64_t seed)
{
	struct lanes_fabric *f = gen(c->spec), *copy;
	struct sfx_names nm = sfx_read_names(f, c->q);
	uint32_t gen_dim[1 + SFX_MAX_FF], extent[1 + SFX_MAX_FF], n = sfx_engine_dims(c, gen_dim, extent);
	uint32_t *new_switch = malloc(f->num_switches * sizeof(uint32_t)), *rec, pairs = 0, expect;
	uint32_t *mark = calloc(f->num_switches, sizeof(uint32_t));
	struct lanes_structure s;
	struct lanes_error err;
	struct mms m;

	copy = sfx_copy(f, seed, &sfx_no_edit, new_switch);
	if (lanes_recognize_sfxff(copy, &s, &err))
		fail_msg("%s (seed %llu): %s", c->spec, (unsigned long long)seed, err.message);
	assert_int_equal(s.kind, LANES_STRUCTURE_SFXFF);
	assert_int_equal(s.slimfly_q, c->q);
	assert_int_equal(s.num_dims, n);
	for (uint32_t e = 0; e < n; e++)
		assert_int_equal(s.extent[e], extent[e]);
	rec = malloc((size_t)f->num_switches * n * sizeof(*rec));
	assert_non_null(rec);
	for (uint32_t u = 0; u < f->num_switches; u++) /* in the generator's switch order */
		memcpy(rec + (size_t)u * n, s.coord + (size_t)new_switch[u] * n, n * sizeof(*rec));
	sfx_same_partition(nm.sf, 1, rec, n, f->num_switches, extent[0]);
	for (uint32_t e = 1; e < n; e++)
		sfx_same_partition(nm.ff + gen_dim[e], SFX_MAX_FF, rec + e, n, f->num_switches,
				   extent[e]);
	assert_int_equal(lanes_mms_build(&m, c->q, &err), 0);
	for (uint32_t u = 0; u < copy->num_switches; u++)
		for (uint32_t k = copy->adj_off[u]; k < copy->adj_off[u + 1]; k++) {
			const uint32_t *a = s.coord + (size_t)u * n;
			const uint32_t *b = s.coord + (size_t)copy->adj[k].sw * n;
			uint32_t moved = 0;

			for (uint32_t e = 0; e < n; e++)
				moved += a[e] != b[e];
			assert_int_equal(moved, 1);
			if (a[0] != b[0])
				assert_int_not_equal(lanes_mms_port(&m, a[0], b[0]), UINT32_MAX);
			pairs += mark[copy->adj[k].sw] != u + 1; /* distinct neighbours */
			mark[copy->adj[k].sw] = u + 1;
		}
	expect = m.degree; /* neighbour switches per switch in the product */
	for (uint32_t e = 1; e < n; e++)
		expect += extent[e] - 1;
	assert_int_equal(pairs, f->num_switches * expect);
	lanes_mms_free(&m);
	lanes_structure_free(&s);
	free(rec);
	free(new_switch);
	free(mark);
	sfx_names_free(&nm);
	lanes_fabric_free(copy);
	lanes_fabric_free(f);
}

static void test_sfxff_recognised(void **state)
{
	static const struct sfx_case cases[] = {
		{ "sfxff q=3 K=2 p=1", 3, 1, { 2 } },
		{ "sfxff q=3 K=3 p=1", 3, 1, { 3 } },
		{ "sfxff q=3 K=2x3 p=1", 3, 2, { 2, 3 } },
		{ "sfxff q=4 K=3x2 p=1", 4, 2, { 3, 2 } },
		{ "sfxff q=4 K=5 p=0 Lsf=2", 4, 1, { 5 } },
		{ "sfxff q=5 K=2 p=1", 5, 1, { 2 } },
		{ "sfxff q=5 K=4x2x3 p=0", 5, 3, { 4, 2, 3 } },
		{ "sfxff q=7 K=3 p=1 L=2", 7, 1, { 3 } },
		{ "sfxff q=8 K=2 p=1", 8, 1, { 2 } },
		{ "sfxff q=9 K=2 p=0", 9, 1, { 2 } },
		{ "sfxff q=8 K=16 p=1", 8, 1, { 16 } }, /* the paper's SF x FF-2 */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (uint64_t seed = 1; seed <= 3; seed++)
			sfx_check_recognised(&cases[i], seed);
}

/* The refusal of f's bare copies under two switch orders: the same words, and the reason. */
static void sfx_expect_refusal(const struct lanes_fabric *f, const struct sfx_edit *edit,
			       const char *what)
{
	struct lanes_fabric *one = sfx_copy(f, 11, edit, NULL), *two = sfx_copy(f, 12, edit, NULL);
	struct lanes_structure s;
	struct lanes_error e1, e2;

	if (!lanes_recognize_sfxff(one, &s, &e1))
		fail_msg("%s: taken for a Slim Fly x FlatFly (%s)", what, s.note);
	assert_null(s.coord);
	assert_int_equal(lanes_recognize_sfxff(two, &s, &e2), LANES_EINVAL);
	assert_non_null(strstr(e1.message, "not a Slim Fly x FlatFly product: "));
	if (strcmp(e1.message, e2.message))
		fail_msg("%s: the reason depends on the switch order:\n  %s\n  %s", what, e1.message,
			 e2.message);
	lanes_fabric_free(one);
	lanes_fabric_free(two);
}

static int sfx_between_switches(const struct lanes_fabric *f, uint32_t link)
{
	assert_true(link < f->num_links);
	return f->nodes[f->links[link].a].type == LANES_NODE_SWITCH &&
	       f->nodes[f->links[link].b].type == LANES_NODE_SWITCH;
}

static void test_sfxff_refused(void **state)
{
	static const char *const specs[] = {
		"slimfly q=3", "slimfly q=4", "slimfly q=5 p=1", "slimfly q=8", "hyperx K=3x3 p=1",
		"hyperx K=2x3x3 p=1", "hypercube n=4 p=1", "torus k=5x5 p=1", "mesh k=3x4 p=1",
		"fattree k=4 n=3", "dragonfly a=4 p=2 h=2", "jellyfish switches=36 degree=6 p=1 seed=3",
		"xgft h=3 m=2,2,2 w=1,2,2",
	};
	struct lanes_fabric *f = gen("sfxff q=4 K=3 p=1");
	struct sfx_edit edit = sfx_no_edit;
	uint32_t first, second;

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct lanes_fabric *g = gen(specs[i]);

		sfx_expect_refusal(g, &sfx_no_edit, specs[i]);
		lanes_fabric_free(g);
	}
	/* a product with a cable missing, and with two cables' far ends swapped (degrees kept) */
	/* the first cable between switches, and a later one with other ends */
	for (first = 0; !sfx_between_switches(f, first); first++)
		;
	for (second = first + 1; !sfx_between_switches(f, second) ||
				 f->links[second].a == f->links[first].a ||
				 f->links[second].a == f->links[first].b ||
				 f->links[second].b == f->links[first].a ||
				 f->links[second].b == f->links[first].b;
	     second++)
		;
	edit.skip_link = first;
	sfx_expect_refusal(f, &edit, "a missing cable");
	edit.skip_link = LANES_NONE;
	edit.swap_a = first;
	edit.swap_b = second;
	sfx_expect_refusal(f, &edit, "two cables swapped");
	lanes_fabric_free(f);
}

/* lanes_recognize() names each what it is, the product included. */
static void test_sfxff_kinds(void **state)
{
	static const struct {
		const char *spec;
		int kind;
	} cases[] = {
		{ "sfxff q=3 K=2 p=1", LANES_STRUCTURE_SFXFF },
		{ "sfxff q=5 K=2x3 p=1", LANES_STRUCTURE_SFXFF },
		{ "slimfly q=3", LANES_STRUCTURE_SLIMFLY },
		{ "slimfly q=5 p=1", LANES_STRUCTURE_SLIMFLY },
		{ "hyperx K=4x4x4 p=1", LANES_STRUCTURE_HYPERX },
		{ "torus k=5x5 p=1", LANES_STRUCTURE_TORUS },
		{ "dragonfly a=4 p=2 h=2", LANES_STRUCTURE_DRAGONFLY },
		{ "fattree k=4 n=3", LANES_STRUCTURE_NONE },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lanes_fabric *f = gen(cases[i].spec);
		struct lanes_structure s;
		struct lanes_error err;

		assert_int_equal(lanes_recognize(f, &s, &err), 0);
		if (s.kind != cases[i].kind)
			fail_msg("%s: %s (%s)", cases[i].spec, lanes_structure_kind_name(s.kind), s.note);
		lanes_structure_free(&s);
		lanes_fabric_free(f);
	}
}

/* ------------------------------------------------------------ SF x FF: verifier, refusals */

/* Each variant free of credit loops with the VLs and SLs of the header, on bare copies too. */
static void test_sfxff_verified(void **state)
{
	static const struct {
		const char *spec, *params;
		uint64_t seed; /* 0: as generated; else a bare copy */
		unsigned vls, sls;
	} cases[] = {
		{ "sfxff q=3 K=2x3 p=2", "order=dor", 0, 2, 1 },
		{ "sfxff q=3 K=2x3 p=3", "order=mixed", 0, 4, 3 }, /* 3 orders, VL 3 the second hop */
		{ "sfxff q=3 K=2x3 p=2", "order=twisted", 0, 2, 1 },
		{ "sfxff q=4 K=2x2x2 p=4", "order=mixed", 0, 5, 4 },
		{ "sfxff q=5 K=3 p=2 Lsf=2", "order=twisted", 5, 2, 1 },
		{ "sfxff q=4 K=3x2 p=2", "order=dor", 6, 2, 1 },
		{ "sfxff q=4 K=3x2 p=3", "order=mixed", 7, 4, 3 },
		{ "sfxff q=7 K=2 p=2", "order=mixed", 8, 3, 2 }, /* 2 orders */
		{ "sfxff preset=sfxff-1 p=1", "order=dor", 0, 2, 1 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lanes_fabric *g = gen(cases[i].spec);
		struct lanes_fabric *f = cases[i].seed ? sfx_copy(g, cases[i].seed, &sfx_no_edit, NULL) : g;
		struct lanes_routing *r = sfx_route(f, cases[i].params);
		struct lanes_verify_result *res = verify_quick(f, r, 8, 0, 0);

		if (!res->deadlock_free || !res->reachable)
			fail_msg("%s %s: deadlock free %d, reachable %d", cases[i].spec,
				 cases[i].params, res->deadlock_free, res->reachable);
		assert_int_equal(res->vls_used, cases[i].vls);
		assert_int_equal(res->sls_used, cases[i].sls);
		assert_non_null(strstr(r->notes, "Slim Fly x FlatFly"));
		lanes_verify_result_free(res);
		lanes_routing_free(r);
		if (f != g)
			lanes_fabric_free(f);
		lanes_fabric_free(g);
	}
}

static void test_sfxff_refusals(void **state)
{
	const struct lanes_engine *e = lanes_engine_find("hyperx");
	struct lanes_fault_spec one_cable = { 1, 0, 1 };
	struct lanes_fabric *f = gen("sfxff q=3 K=2x3 p=1"), *broken;
	struct lanes_route_opts ro;
	struct lanes_routing *r;
	struct lanes_error err;

	(void)state;
	/* over budget: the VLs and SLs needed */
	err = route_engine_error(e, f, 1, 16);
	assert_int_equal(err.code, LANES_ERANGE);
	assert_non_null(strstr(err.message, "order=dor on a Slim Fly x FlatFly needs 2 VLs and 1 SLs"));
	lanes_route_opts_init(&ro);
	ro.params = "order=mixed";
	ro.max_vls = 3;
	assert_int_equal(lanes_route(e, f, &ro, &r, &err), LANES_ERANGE);
	assert_non_null(strstr(err.message, "order=mixed on a Slim Fly x FlatFly needs 4 VLs and 3 SLs"));
	ro.max_vls = 8;
	ro.max_sls = 2;
	assert_int_equal(lanes_route(e, f, &ro, &r, &err), LANES_ERANGE);
	ro.params = "order=twisted";
	ro.max_vls = 1;
	assert_int_equal(lanes_route(e, f, &ro, &r, &err), LANES_ERANGE);
	assert_non_null(strstr(err.message, "needs 2 VLs and 1 SLs"));
	/* a cable missing: not a product any more, refused with both recognisers' reasons */
	assert_int_equal(lanes_fabric_inject_faults(f, &one_cable, &broken, NULL, &err), 0);
	err = route_engine_error(e, broken, 8, 16);
	assert_int_equal(err.code, LANES_EREFUSED);
	assert_non_null(strstr(err.message, "hyperx: not a HyperX"));
	assert_non_null(strstr(err.message, "; not a Slim Fly x FlatFly product: "));
	lanes_fabric_free(broken);
	lanes_fabric_free(f);
	/* a plain Slim Fly is the slimfly engine's */
	f = gen("slimfly q=5 p=1");
	err = route_engine_error(e, f, 8, 16);
	assert_int_equal(err.code, LANES_EREFUSED);
	assert_non_null(strstr(err.message, "not a Slim Fly x FlatFly product: its links form one class"));
	lanes_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variants_hop_by_hop),
		cmocka_unit_test(test_verified),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_sfxff_hop_by_hop),
		cmocka_unit_test(test_sfxff_recognised),
		cmocka_unit_test(test_sfxff_refused),
		cmocka_unit_test(test_sfxff_kinds),
		cmocka_unit_test(test_sfxff_verified),
		cmocka_unit_test(test_sfxff_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
