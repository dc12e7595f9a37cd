/*
 * test_cdg_cycles.c - the dependency set and its cycle search
 * (src/route/cdg/cdg_cycles.c, cycles.h) and the credit-loop check on it
 * (cdg_check.c), against a brute-force model on small fabrics: random sets
 * of dependencies, a byte per dependency number, with random weights.
 * - the list: every marked dependency once, each channel's run in the order
 *   of the channels it leads to, numbers that point back;
 * - the verdict: a cycle exactly when Kahn's algorithm cannot order the
 *   set, and every cycle reported is one (consecutive channels, each
 *   dependency in the set, the last one closing it);
 * - the order: the first cycle equals the one a plain recursive
 *   depth-first search finds (roots in channel order, out-dependencies in
 *   the order of the channels they lead to, white/grey/black);
 * - going on: breaking each cycle at its lightest dependency (dfsssp's
 *   rule) and cutting there, each next cycle equals the first cycle of a
 *   fresh recursive search of what is left, and the set ends acyclic; with
 *   other dependencies taken out as well (also ones on the stack), every
 *   cycle reported is still one and the set still ends acyclic;
 * - the credit-loop check of minhop's and updn's tables: cyclic exactly
 *   when the model's dependencies of every LID's column are.
 */
#include <stdint.h>

#include "route/cdg/cdg.h"
#include "route/cdg/channels.h"
#include "route/cdg/cycles.h"
#include "testutil.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *const fabrics[] = {
	"torus k=3x3 p=1", "dragonfly a=4 p=2 h=2", "jellyfish switches=10 degree=3 p=1",
	"hypercube n=3 p=1", "fattree k=4 n=3", "jellyfish switches=16 degree=4 p=2 seed=7",
};

/* ---------------------------------------------------------------- model */

struct model {
	const struct lanes_fabric *f;
	struct route_channels ch;
	uint8_t *marks;          /* per dependency number: in the listing */
	uint64_t *weight;        /* per dependency number: 0 when out of the set */
	uint8_t *colour;         /* recursive search: 0 white, 1 grey, 2 black */
	uint32_t *path, depth;   /* recursive search: the grey channels */
	uint32_t *indeg, *queue; /* Kahn's scratch */
	uint64_t rng;
};

static uint32_t rnd(struct model *m, uint32_t n)
{
	return test_random_below(&m->rng, n);
}

static void model_init(struct model *m, const struct lanes_fabric *f, uint64_t seed)
{
	struct lanes_error err;

	memset(m, 0, sizeof(*m));
	m->f = f;
	m->rng = seed;
	assert_int_equal(lanes_route_channels_init(&m->ch, f, "test", &err), 0);
	m->marks = calloc(m->ch.ndeps + 1, 1);
	m->weight = calloc(m->ch.ndeps + 1, sizeof(uint64_t));
	m->colour = calloc(m->ch.E + 1, 1);
	m->path = calloc(m->ch.E + 1, sizeof(uint32_t));
	m->indeg = calloc(m->ch.E + 1, sizeof(uint32_t));
	m->queue = calloc(m->ch.E + 1, sizeof(uint32_t));
}

static void model_free(struct model *m)
{
	free(m->marks);
	free(m->weight);
	free(m->colour);
	free(m->path);
	free(m->indeg);
	free(m->queue);
	lanes_route_channels_free(&m->ch);
}

/* Mark each dependency with probability pct %, of weight 1 .. 4 (ties on purpose). */
static void random_set(struct model *m, uint32_t pct)
{
	for (size_t i = 0; i < m->ch.ndeps; i++) {
		m->marks[i] = rnd(m, 100) < pct;
		m->weight[i] = m->marks[i] ? 1 + rnd(m, 4) : 0;
	}
}

/* The number of dependency "channel c, then out-entry o of the switch where c ends", or LANES_NONE. */
static uint32_t dep_of(const struct model *m, uint32_t c, uint32_t o)
{
	uint32_t x = m->f->adj[c].sw, a = m->f->adj_off[x];

	if (m->ch.rev[c] == LANES_NONE)
		return LANES_NONE;
	return route_dependency(&m->ch, c, a + o);
}

static uint32_t degree_at_head(const struct model *m, uint32_t c)
{
	uint32_t x = m->f->adj[c].sw;

	return m->f->adj_off[x + 1] - m->f->adj_off[x];
}

/* Is the set acyclic? Kahn's algorithm over every channel. */
static int model_acyclic(struct model *m)
{
	uint32_t head = 0, tail = 0, E = m->ch.E;

	memset(m->indeg, 0, sizeof(uint32_t) * E);
	for (uint32_t c = 0; c < E; c++)
		for (uint32_t o = 0, k; o < degree_at_head(m, c); o++)
			if ((k = dep_of(m, c, o)) != LANES_NONE && m->weight[k])
				m->indeg[m->f->adj_off[m->f->adj[c].sw] + o]++;
	for (uint32_t c = 0; c < E; c++)
		if (!m->indeg[c])
			m->queue[tail++] = c;
	while (head < tail) {
		uint32_t c = m->queue[head++], a = m->f->adj_off[m->f->adj[c].sw];

		for (uint32_t o = 0, k; o < degree_at_head(m, c); o++)
			if ((k = dep_of(m, c, o)) != LANES_NONE && m->weight[k] && !--m->indeg[a + o])
				m->queue[tail++] = a + o;
	}
	return tail == E;
}

/* Recursive search from c; @return the place on path where the first cycle starts, or LANES_NONE. */
static uint32_t model_visit(struct model *m, uint32_t c)
{
	uint32_t a = m->f->adj_off[m->f->adj[c].sw];

	m->colour[c] = 1;
	m->path[m->depth++] = c;
	for (uint32_t o = 0, k; o < degree_at_head(m, c); o++) {
		uint32_t next = a + o, at;

		if ((k = dep_of(m, c, o)) == LANES_NONE || !m->weight[k] || m->colour[next] == 2)
			continue;
		if (m->colour[next] == 1) {
			for (at = 0; m->path[at] != next; at++)
				;
			return at;
		}
		if ((at = model_visit(m, next)) != LANES_NONE)
			return at;
	}
	m->colour[c] = 2;
	m->depth--;
	return LANES_NONE;
}

/* The first cycle of a fresh recursive search: path[*from .. depth). @return its length, or 0 */
static uint32_t model_first_cycle(struct model *m, uint32_t *from)
{
	memset(m->colour, 0, m->ch.E);
	m->depth = 0;
	for (uint32_t c = 0; c < m->ch.E; c++)
		if (!m->colour[c] && (*from = model_visit(m, c)) != LANES_NONE)
			return m->depth - *from;
	return 0;
}

/* ---------------------------------------------------------------- checks */

static void list_set(struct model *m, struct route_deps *d)
{
	struct lanes_error err;

	assert_int_equal(lanes_route_deps_list(d, &m->ch, m->marks, 1, &err), 0);
}

/* The search's weights: the model's, by place in the list. */
static void list_weights(const struct model *m, const struct route_deps *d, uint64_t *w)
{
	for (size_t i = 0; i < m->ch.ndeps; i++)
		if (d->number[i] != LANES_NONE)
			w[d->number[i]] = m->weight[i];
}

/* Cycle of length n reported by s: consecutive channels, each dependency listed right and in the set. */
static void check_cycle(const struct model *m, const struct route_deps *d, const struct route_cycles *s,
			uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t c = route_cycle_chan(s, i), next = route_cycle_chan(s, (i + 1) % n);
		uint32_t k = route_cycle_dep(s, i);

		assert_int_equal(d->in[k], c);
		assert_int_equal(d->out[k], next);
		assert_int_equal(d->number[route_dependency(&m->ch, c, next)], k);
		assert_true(m->weight[route_dependency(&m->ch, c, next)] != 0);
	}
}

/* The list against the marks. */
static void check_list(const struct model *m, const struct route_deps *d)
{
	uint32_t listed = 0;

	for (uint32_t c = 0; c < m->ch.E; c++) {
		uint32_t e = m->ch.rev[c], k = e == LANES_NONE ? 0 : d->first[e];

		for (uint32_t o = 0, num; e != LANES_NONE && o < degree_at_head(m, c); o++) {
			if (!m->marks[num = dep_of(m, c, o)]) {
				assert_int_equal(d->number[num], LANES_NONE);
				continue;
			}
			assert_int_equal(d->number[num], k);
			assert_int_equal(d->in[k], c);
			assert_int_equal(d->out[k++], m->f->adj_off[m->f->adj[c].sw] + o);
			listed++;
		}
		if (e != LANES_NONE)
			assert_int_equal(k, d->first[e + 1]);
	}
	assert_int_equal(listed, d->n);
}

/* The first cycle of a fresh search equals the model's, or both find none. */
static void check_first(struct model *m, const struct route_deps *d, struct route_cycles *s,
			const uint64_t *w)
{
	uint32_t from, want = model_first_cycle(m, &from), n;

	lanes_route_cycles_start(s, d, w);
	n = lanes_route_cycles_next(s);
	assert_int_equal(n, want);
	assert_int_equal(!n, model_acyclic(m));
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(route_cycle_chan(s, i), m->path[from + i]);
	check_cycle(m, d, s, n);
}

static void test_list_and_first_cycle(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(fabrics); i++) {
		struct lanes_fabric *f = gen(fabrics[i]);
		struct route_deps d = { 0 };
		struct route_cycles s;
		struct lanes_error err;
		struct model m;
		uint64_t *w;

		model_init(&m, f, 1 + i);
		w = calloc(m.ch.ndeps + 1, sizeof(*w));
		assert_int_equal(lanes_route_cycles_init(&s, &m.ch, &err), 0);
		for (uint32_t round = 0; round < 200; round++) {
			random_set(&m, 1 + rnd(&m, 40));
			list_set(&m, &d);
			check_list(&m, &d);
			list_weights(&m, &d, w);
			check_first(&m, &d, &s, w);
			assert_int_equal(lanes_route_cycles_any(&s, &d), !model_acyclic(&m));
		}
		free(w);
		lanes_route_cycles_free(&s);
		lanes_route_deps_free(&d);
		model_free(&m);
		lanes_fabric_free(f);
	}
}

/* ---------------------------------------------------------------- breaking cycles */

/* Take dependency k (a place in the list) out of the set, in the model and in w. */
static void take_out(struct model *m, const struct route_deps *d, uint64_t *w, uint32_t k)
{
	w[k] = 0;
	m->weight[route_dependency(&m->ch, d->in[k], d->out[k])] = 0;
}

/* The lightest dependency of the cycle, the first on ties (dfsssp_layers.c's rule). */
static uint32_t lightest(const struct route_cycles *s, const uint64_t *w, uint32_t n)
{
	uint32_t best = 0;

	for (uint32_t i = 1; i < n; i++)
		if (w[route_cycle_dep(s, i)] < w[route_cycle_dep(s, best)])
			best = i;
	return best;
}

/*
 * Break every cycle of a random set as dfsssp does; extra: also take out
 * that many other dependencies per cycle, among them one of the stack.
 * @return the cycles broken
 */
static uint32_t break_all(struct model *m, struct route_deps *d, struct route_cycles *s, uint64_t *w,
			  uint32_t extra)
{
	uint32_t n, broken = 0;

	lanes_route_cycles_start(s, d, w);
	while ((n = lanes_route_cycles_next(s))) {
		uint32_t i = lightest(s, w, n), from, want;

		check_cycle(m, d, s, n);
		if (!extra) { /* the set only lost the cut dependencies: as a fresh search */
			want = model_first_cycle(m, &from);
			assert_int_equal(n, want);
			for (uint32_t j = 0; j < n; j++)
				assert_int_equal(route_cycle_chan(s, j), m->path[from + j]);
		}
		for (uint32_t e = 0; e < extra && d->n; e++)
			take_out(m, d, w, e ? rnd(m, d->n) : s->stack_dep[rnd(m, s->top)]);
		take_out(m, d, w, route_cycle_dep(s, i));
		lanes_route_cycles_cut(s, i);
		broken++;
	}
	assert_true(model_acyclic(m));
	return broken;
}

static void test_breaking(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(fabrics); i++) {
		struct lanes_fabric *f = gen(fabrics[i]);
		struct route_deps d = { 0 };
		struct route_cycles s;
		struct lanes_error err;
		struct model m;
		uint32_t broken[3] = { 0 };
		uint64_t *w;

		model_init(&m, f, 100 + i);
		w = calloc(m.ch.ndeps + 1, sizeof(*w));
		assert_int_equal(lanes_route_cycles_init(&s, &m.ch, &err), 0);
		for (uint32_t round = 0; round < 150; round++) {
			uint32_t extra = round % 3;

			random_set(&m, 5 + rnd(&m, 60));
			list_set(&m, &d);
			list_weights(&m, &d, w);
			broken[extra] += break_all(&m, &d, &s, w, extra);
		}
		if (broken[0] < 50 || broken[1] < 20)
			fail_msg("%s: %u and %u cycles broken: too few to judge", fabrics[i], broken[0], broken[1]);
		free(w);
		lanes_route_cycles_free(&s);
		lanes_route_deps_free(&d);
		model_free(&m);
		lanes_fabric_free(f);
	}
}

/* ---------------------------------------------------------------- the credit-loop check */

/* Mark the dependencies of lid's column: u's channel, then the channel of the switch it leads to. */
static void model_column(struct model *m, const struct lanes_routing *r, uint32_t lid)
{
	const uint8_t *col = lanes_routing_column(r, lid);

	for (uint32_t u = 0; u < m->f->num_switches; u++) {
		uint32_t in = route_channel_at(&m->ch, u, col[u]), out;

		if (in != LANES_NONE &&
		    (out = route_channel_at(&m->ch, m->f->adj[in].sw, col[m->f->adj[in].sw])) != LANES_NONE)
			m->weight[route_dependency(&m->ch, in, out)] = 1;
	}
}

/* @return the check's verdict on engine's tables of f, after asserting it is the model's */
static int check_tables(const struct lanes_fabric *f, const char *engine)
{
	struct lanes_routing *r = route_engine_threads(lanes_engine_find(engine), f, 1);
	struct route_cdg_check *k;
	struct lanes_error err;
	struct model m;
	int cyclic;

	model_init(&m, f, 1);
	assert_int_equal(lanes_route_cdg_check_new(f, &k, &err), 0);
	for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
		lanes_route_cdg_check_lid(k, r, lid);
		model_column(&m, r, lid);
	}
	cyclic = lanes_route_cdg_check_finish(k);
	assert_int_equal(cyclic, !model_acyclic(&m));
	assert_int_equal(lanes_route_cdg_check_cyclic(k), cyclic);
	lanes_route_cdg_check_free(k);
	model_free(&m);
	lanes_routing_free(r);
	return cyclic;
}

static void test_credit_loop_check(void **state)
{
	const char *more[] = { "torus k=4x4 p=2", "fattree k=4 n=2", "hyperx K=3x3 p=2", "mesh k=3x3 p=1" };
	uint32_t verdicts[2] = { 0 };

	(void)state;
	for (size_t i = 0; i < N(fabrics) + N(more); i++) {
		struct lanes_fabric *f = gen(i < N(fabrics) ? fabrics[i] : more[i - N(fabrics)]);

		verdicts[check_tables(f, "minhop")]++;
		verdicts[check_tables(f, "updn")]++;
		lanes_fabric_free(f);
	}
	if (verdicts[0] < 4 || verdicts[1] < 4)
		fail_msg("%u acyclic and %u cyclic tables: too few to judge", verdicts[0], verdicts[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_and_first_cycle),
		cmocka_unit_test(test_breaking),
		cmocka_unit_test(test_credit_loop_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
