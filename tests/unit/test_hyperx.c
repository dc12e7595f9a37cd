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
 * paper states, refusals naming what is missing.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variants_hop_by_hop),
		cmocka_unit_test(test_verified),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
