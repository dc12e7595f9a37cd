/*
 * test_recognize_slimfly.c - lanes_recognize_slimfly() (src/recognize/slimfly.c)
 * judged against the definition of the MMS graph (Besta, Hoefler, "Slim
 * Fly", SC14, Sec. 3.1; Hafner's generator sets as gf.h states them),
 * computed here from the field alone:
 * - every Slim Fly the generator makes up to q = 13 (delta = -1: 3, 7, 11;
 *   0: 4, 8; 1: 5, 9, 13; prime powers 4, 8, 9), as generated and with its
 *   switch indices and port numbers shuffled, names and GUIDs gone: the
 *   coordinates are a bijection onto {0,1} x GF(q) x GF(q), and every switch
 *   pair is cabled exactly when the MMS rules say so; and q = 16, 17, 19,
 *   25, 27 shuffled once;
 * - faults: 1 to 4 missing cables (q = 3, 5, 7, 8, 9): recognised, with
 *   coordinates under which every surviving cable is an MMS link and as many
 *   MMS links lack a cable as were removed; 5 missing cables, a missing
 *   switch: refused, naming the cause;
 * - look-alikes refused: random regular graphs with the switch count and
 *   degree of q = 3, 4, 5; a Slim Fly with two cables swapped (every degree
 *   kept); every other small generated fabric and every real fabric;
 * - lanes_recognize() reports kind slimfly.
 */
#include <stdint.h>

#include "lanes/recognize.h"
#include "testutil.h"
#include "topo/gf.h"

/* ------------------------------------------------------------ fabric copies */

/* What a copy changes besides the order: a cable left out, two cables swapped. */
struct copy_edit {
	uint32_t skip_link[8];     /* indices into f->links left out */
	uint32_t num_skipped;
	uint32_t swap_a, swap_b;   /* indices into f->links, or LANES_NONE */
	uint32_t skip_switch;      /* switch index left out with its cables, or LANES_NONE */
};

static const struct copy_edit no_edit = { { 0 }, 0, LANES_NONE, LANES_NONE, LANES_NONE };

/* Is link i one the edit leaves out? */
static int skipped(const struct copy_edit *edit, uint32_t i)
{
	for (uint32_t k = 0; k < edit->num_skipped; k++)
		if (edit->skip_link[k] == i)
			return 1;
	return 0;
}

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

/* Port p of old node v in the copy (port numbers shuffled per switch when seeded). */
static uint8_t new_port(const uint8_t *port_map, const struct lanes_fabric *f, uint32_t v,
		       uint8_t p)
{
	return port_map[f->nodes[v].port_base + p];
}

/* The nodes: switches in shuffled order (none left out by edit), then the CAs. */
static void copy_nodes(struct lanes_builder *b, const struct lanes_fabric *f, const uint32_t *order,
		       const struct copy_edit *edit, uint32_t *new_index)
{
	for (uint32_t v = 0; v < f->num_nodes; v++)
		new_index[v] = LANES_NONE;
	for (uint32_t i = 0; i < f->num_switches; i++) {
		uint32_t v = f->switches[order[i]];

		if (order[i] != edit->skip_switch)
			new_index[v] = tb_add(b, LANES_NODE_SWITCH, f->nodes[v].nports, 0);
	}
	for (uint32_t v = 0; v < f->num_nodes; v++)
		if (f->nodes[v].type != LANES_NODE_SWITCH)
			new_index[v] = tb_add(b, f->nodes[v].type, f->nodes[v].nports, 0);
}

/* Shuffle the port numbers 1..nports of every switch (rng 0: keep them). */
static void shuffle_ports(const struct lanes_fabric *f, uint8_t *port_map, uint64_t *rng)
{
	uint32_t perm[LANES_PORTS_MAX + 1];

	for (uint32_t v = 0; v < f->num_nodes; v++) {
		uint32_t np = f->nodes[v].nports;
		int shuffled = f->nodes[v].type == LANES_NODE_SWITCH && *rng;

		port_map[f->nodes[v].port_base] = 0;
		shuffle(perm, np, rng);
		for (uint32_t p = 1; p <= np; p++) {
			uint32_t slot = f->nodes[v].port_base + p;

			port_map[slot] = (uint8_t)(shuffled ? perm[p - 1] + 1 : p);
		}
	}
}

/*
 * A copy of f through the builder: switch indices (and, seeded, port
 * numbers) shuffled by seed (0: kept), every name "n", GUIDs new; edited.
 */
static struct lanes_fabric *copy_fabric(const struct lanes_fabric *f, uint64_t seed,
					const struct copy_edit *edit)
{
	struct lanes_builder *b = tb_new();
	uint32_t *order = malloc(f->num_switches * sizeof(*order));
	uint32_t *new_index = malloc(f->num_nodes * sizeof(*new_index));
	uint8_t *port_map = malloc(f->num_port_slots);
	uint64_t rng = seed;

	assert_true(order && new_index && port_map);
	if (seed)
		shuffle(order, f->num_switches, &rng);
	else
		for (uint32_t i = 0; i < f->num_switches; i++)
			order[i] = i;
	shuffle_ports(f, port_map, &rng);
	copy_nodes(b, f, order, edit, new_index);
	for (uint32_t i = 0; i < f->num_links; i++) {
		const struct lanes_link *l = &f->links[i];
		uint32_t bn = l->b;
		uint8_t pb = l->pb;

		if (i == edit->swap_a || i == edit->swap_b) {
			uint32_t other = i == edit->swap_a ? edit->swap_b : edit->swap_a;

			bn = f->links[other].b;
			pb = f->links[other].pb;
		}
		if (skipped(edit, i) || new_index[l->a] == LANES_NONE ||
		    new_index[bn] == LANES_NONE)
			continue;
		tb_cable(b, new_index[l->a], new_port(port_map, f, l->a, l->pa), new_index[bn],
			 new_port(port_map, f, bn, pb));
	}
	free(order);
	free(new_index);
	free(port_map);
	return tb_finish(b);
}

/* ------------------------------------------------------------ the MMS rules */

/* The generator sets X_0 = X and X_1 = X' of gf.h (Hafner), as membership tables. */
static void generator_sets(const struct gf *gf, int delta, uint8_t in_set[2][GF_Q_MAX])
{
	unsigned q = gf->q, w = (unsigned)(((int)q - delta) / 4);

	memset(in_set, 0, 2 * GF_Q_MAX);
	for (unsigned t = 0; t < 2; t++) {
		if (delta == 1 || delta == 0) {
			unsigned last = delta == 1 ? q - 3 : q - 2;

			for (unsigned e = 0; e <= last; e += 2)
				in_set[t][gf_prim_pow(gf, e + t)] = 1;
		} else {
			for (unsigned e = 0; e <= 2 * w - 2; e += 2)
				in_set[t][gf_prim_pow(gf, e + t)] = 1;
			for (unsigned e = 2 * w - 1; e <= 4 * w - 3; e += 2)
				in_set[t][gf_prim_pow(gf, e + t)] = 1;
		}
	}
}

/* Are (t, x, y) and (t2, x2, y2) linked in the MMS graph? */
static int mms_linked(const struct gf *gf, uint8_t in_set[2][GF_Q_MAX], const uint32_t *a,
		      const uint32_t *b)
{
	if (a[0] == b[0])
		return a[1] == b[1] && a[2] != b[2] && in_set[a[0]][gf_sub(gf, a[2], b[2])];
	if (a[0] == 1)
		return mms_linked(gf, in_set, b, a);
	/* (0, x, y) - (1, m, c) iff y = m x + c */
	return a[2] == gf_add(gf, gf_mul(gf, b[1], a[1]), b[2]);
}

/*
 * The coordinates are a bijection, every cable is an MMS link, and the MMS
 * links without a cable are `missing` (0: every switch pair is cabled iff
 * the MMS rules link it).
 */
static void check_is_mms(const struct lanes_fabric *f, const struct lanes_structure *s, unsigned q,
			 uint32_t missing)
{
	uint32_t not_cabled = 0;
	uint32_t n = f->num_switches, *seen = calloc(2 * q * q, sizeof(*seen));
	uint8_t in_set[2][GF_Q_MAX], *cabled = calloc((size_t)n * n, 1);
	struct lanes_error err;
	struct gf gf;
	int delta;

	assert_true(seen && cabled);
	assert_int_equal(s->kind, LANES_STRUCTURE_SLIMFLY);
	assert_int_equal(s->slimfly_q, q);
	assert_int_equal(s->num_dims, 3);
	assert_int_equal(s->extent[0], 2);
	assert_int_equal(s->extent[1], q);
	assert_int_equal(s->extent[2], q);
	assert_int_equal(lanes_mms_check_q("test", q, &delta, &err), 0);
	assert_int_equal(lanes_gf_init(&gf, q, &err), 0);
	generator_sets(&gf, delta, in_set);
	for (uint32_t u = 0; u < n; u++) {
		const uint32_t *c = &s->coord[3 * u];

		assert_true(c[0] < 2 && c[1] < q && c[2] < q);
		assert_int_equal(seen[c[0] * q * q + c[1] * q + c[2]]++, 0);
		for (uint32_t e = f->adj_off[u]; e < f->adj_off[u + 1]; e++)
			cabled[(size_t)u * n + f->adj[e].sw] = 1;
	}
	for (uint32_t u = 0; u < n; u++)
		for (uint32_t v = u + 1; v < n; v++) {
			int linked = mms_linked(&gf, in_set, &s->coord[3 * u], &s->coord[3 * v]);

			if (cabled[(size_t)u * n + v] && !linked)
				fail_msg("q=%u: switches %u and %u: cabled, MMS says no", q, u, v);
			not_cabled += linked && !cabled[(size_t)u * n + v];
		}
	assert_int_equal(not_cabled, missing);
	lanes_gf_free(&gf);
	free(seen);
	free(cabled);
}

/* Recognise f and check the result against the MMS rules of q. */
static void recognise_and_check(const struct lanes_fabric *f, unsigned q)
{
	struct lanes_structure s;
	struct lanes_error err;

	if (lanes_recognize_slimfly(f, &s, &err))
		fail_msg("q=%u: %s", q, err.message);
	check_is_mms(f, &s, q, 0);
	lanes_structure_free(&s);
}

/* The reason f is refused. */
static struct lanes_error refusal(const struct lanes_fabric *f)
{
	struct lanes_structure s;
	struct lanes_error err;

	memset(&err, 0, sizeof(err));
	if (!lanes_recognize_slimfly(f, &s, &err)) {
		lanes_structure_free(&s);
		fail_msg("expected a refusal");
	}
	assert_int_equal(s.kind, LANES_STRUCTURE_NONE);
	assert_null(s.coord);
	return err;
}

/* ------------------------------------------------------------ tests */

static const unsigned every_q[] = { 3, 4, 5, 7, 8, 9, 11, 13 };

static void test_generated(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(every_q) / sizeof(every_q[0]); i++) {
		char spec[64];
		struct lanes_fabric *f;

		snprintf(spec, sizeof(spec), "slimfly q=%u p=1", every_q[i]);
		f = gen(spec);
		recognise_and_check(f, every_q[i]);
		lanes_fabric_free(f);
	}
}

static void test_shuffled(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(every_q) / sizeof(every_q[0]); i++)
		for (uint64_t seed = 1; seed <= 3; seed++) {
			char spec[64];
			struct lanes_fabric *f, *g;

			snprintf(spec, sizeof(spec), "slimfly q=%u p=1", every_q[i]);
			f = gen(spec);
			g = copy_fabric(f, seed * 0x9e3779b97f4a7c15ULL + every_q[i], &no_edit);
			recognise_and_check(g, every_q[i]);
			lanes_fabric_free(g);
			lanes_fabric_free(f);
		}
}

/* Larger ones, shuffled once: q = 16 and 27 need the most search (docs/slimfly.md). */
static void test_larger_shuffled(void **state)
{
	static const unsigned larger_q[] = { 16, 17, 19, 25, 27 };

	(void)state;
	for (size_t i = 0; i < sizeof(larger_q) / sizeof(larger_q[0]); i++) {
		char spec[64];
		struct lanes_fabric *f, *g;

		snprintf(spec, sizeof(spec), "slimfly q=%u p=0", larger_q[i]);
		f = gen(spec);
		g = copy_fabric(f, 0x51f15eedULL + larger_q[i], &no_edit);
		recognise_and_check(g, larger_q[i]);
		lanes_fabric_free(g);
		lanes_fabric_free(f);
	}
}

/* The index of the first switch-to-switch cable of f at or after from. */
static uint32_t switch_link(const struct lanes_fabric *f, uint32_t from)
{
	for (uint32_t i = from; i < f->num_links; i++)
		if (f->nodes[f->links[i].a].type == LANES_NODE_SWITCH &&
		    f->nodes[f->links[i].b].type == LANES_NODE_SWITCH)
			return i;
	fail_msg("no switch cable");
	return 0;
}

/* Leave out `count` switch cables: the first at or after `from`, then every `step` links on. */
static void skip_switch_links(const struct lanes_fabric *f, struct copy_edit *edit, uint32_t count,
			      uint32_t from, uint32_t step)
{
	edit->num_skipped = count;
	for (uint32_t k = 0; k < count; k++)
		from = edit->skip_link[k] = switch_link(f, k ? from + step : from);
}

/*
 * 1 to 4 missing cables: recognised, every surviving cable an MMS link, as
 * many MMS links without a cable as were removed; 5: refused; a missing
 * switch: refused.
 */
static void test_missing_cables(void **state)
{
	static const unsigned some_q[] = { 3, 5, 7, 8, 9 };

	(void)state;
	for (size_t i = 0; i < sizeof(some_q) / sizeof(some_q[0]); i++)
		for (uint32_t missing = 1; missing <= 4; missing++) {
			char spec[64], count[32];
			struct lanes_fabric *f, *g;
			struct copy_edit edit = no_edit;
			struct lanes_structure s;
			struct lanes_error err;

			snprintf(spec, sizeof(spec), "slimfly q=%u p=1", some_q[i]);
			f = gen(spec);
			skip_switch_links(f, &edit, missing, 3 * missing, 7 + 2 * (uint32_t)i);
			g = copy_fabric(f, 17 * missing + some_q[i], &edit);
			assert_int_equal(stats_of(g).links_switch_switch,
					 stats_of(f).links_switch_switch - missing);
			if (lanes_recognize_slimfly(g, &s, &err))
				fail_msg("%s, %u missing: %s", spec, missing, err.message);
			check_is_mms(g, &s, some_q[i], missing);
			snprintf(count, sizeof(count), "%u MMS links not cabled", missing);
			assert_non_null(strstr(s.note, count));
			lanes_structure_free(&s);
			lanes_fabric_free(g);
			lanes_fabric_free(f);
		}
}

static void test_too_many_missing_or_a_switch(void **state)
{
	struct lanes_fabric *f = gen("slimfly q=5 p=1"), *g;
	struct copy_edit edit = no_edit;
	struct lanes_error err;

	(void)state;
	skip_switch_links(f, &edit, 5, 0, 11);
	g = copy_fabric(f, 7, &edit);
	err = refusal(g);
	assert_non_null(strstr(err.message, "10 cable ends are missing, at most 4 missing cables"));
	lanes_fabric_free(g);
	edit = no_edit;
	edit.skip_switch = 17;
	g = copy_fabric(f, 7, &edit);
	err = refusal(g);
	assert_non_null(strstr(err.message, "49 switches is not 2q^2"));
	lanes_fabric_free(g);
	lanes_fabric_free(f);
}

/* Two switch cables a-b, c-d become a-d, c-b: every degree stays, the graph is no MMS graph. */
static void test_swapped_cables(void **state)
{
	const char *specs[] = { "slimfly q=3 p=1", "slimfly q=5 p=1", "slimfly q=7 p=1" };

	(void)state;
	for (size_t k = 0; k < 3; k++) {
		struct lanes_fabric *f = gen(specs[k]), *g;
		struct copy_edit edit = no_edit;
		struct lanes_error err;

		edit.swap_a = switch_link(f, 0);
		/* a cable whose ends are apart from the first's (no self-loop, no double cable) */
		for (edit.swap_b = switch_link(f, edit.swap_a + 1);;
		     edit.swap_b = switch_link(f, edit.swap_b + 1)) {
			const struct lanes_link *x = &f->links[edit.swap_a];
			const struct lanes_link *y = &f->links[edit.swap_b];
			uint32_t xa = f->nodes[x->a].switch_index, xb = f->nodes[x->b].switch_index;
			uint32_t ya = f->nodes[y->a].switch_index, yb = f->nodes[y->b].switch_index;
			int linked = 0;

			for (uint32_t e = f->adj_off[xa]; e < f->adj_off[xa + 1]; e++)
				linked |= f->adj[e].sw == yb;
			for (uint32_t e = f->adj_off[ya]; e < f->adj_off[ya + 1]; e++)
				linked |= f->adj[e].sw == xb;
			if (xa != ya && xa != yb && xb != ya && xb != yb && !linked)
				break;
		}
		g = copy_fabric(f, 11, &edit);
		err = refusal(g);
		assert_non_null(strstr(err.message, "not the MMS graph"));
		lanes_fabric_free(g);
		lanes_fabric_free(f);
	}
}

/* Random regular graphs with the switch count and degree of q = 3, 4, 5. */
static void test_lookalikes(void **state)
{
	const char *specs[] = { "jellyfish switches=18 degree=5 p=1 seed=1",
				"jellyfish switches=18 degree=5 p=1 seed=2",
				"jellyfish switches=32 degree=6 p=1 seed=3",
				"jellyfish switches=50 degree=7 p=1 seed=4" };

	(void)state;
	for (size_t k = 0; k < 4; k++) {
		struct lanes_fabric *f = gen(specs[k]);
		struct lanes_error err = refusal(f);

		if (!strstr(err.message, "not the MMS graph") && !strstr(err.message, "has "))
			fail_msg("%s: %s", specs[k], err.message);
		lanes_fabric_free(f);
	}
}

static void refused(const struct lanes_fabric *f, const char *name, void *ctx)
{
	struct lanes_error err;

	(void)ctx;
	if (!strncmp(name, "slimfly", 7))
		return;
	err = refusal(f);
	assert_non_null(strstr(err.message, "Slim Fly"));
}

static void test_others_refused(void **state)
{
	(void)state;
	each_small_fabric(refused, NULL);
	each_real_fabric(LANES_DATA_DIR, refused, NULL);
}

static void test_recognize_entry(void **state)
{
	struct lanes_fabric *f = gen("slimfly q=7 p=2");
	struct lanes_structure s;
	struct lanes_error err;

	(void)state;
	assert_int_equal(lanes_recognize(f, &s, &err), 0);
	assert_int_equal(s.kind, LANES_STRUCTURE_SLIMFLY);
	assert_string_equal(lanes_structure_kind_name(s.kind), "slimfly");
	check_is_mms(f, &s, 7, 0);
	lanes_structure_free(&s);
	lanes_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generated),
		cmocka_unit_test(test_shuffled),
		cmocka_unit_test(test_larger_shuffled),
		cmocka_unit_test(test_missing_cables),
		cmocka_unit_test(test_too_many_missing_or_a_switch),
		cmocka_unit_test(test_swapped_cables),
		cmocka_unit_test(test_lookalikes),
		cmocka_unit_test(test_others_refused),
		cmocka_unit_test(test_recognize_entry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
