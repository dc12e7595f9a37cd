/*
 * test_cdg.c - the incremental channel dependency graph (src/route/cdg/cdg.c)
 * against a brute-force model:
 * - random paths (random walks over the switch graph) added to random
 *   layers of small fabrics, in transactions that are kept or undone, and
 *   kept paths removed again: lanes_cdg_add_path accepts a path exactly
 *   when the layer's graph with it stays acyclic (Kahn's algorithm over all
 *   channels), the counts equal the model's, and the layer's order stays a
 *   topological order of its dependencies;
 * - every refusal's witness is a real cycle: consecutive channels, each
 *   dependency in the layer except the refused one, which closes it;
 * - hand-made cycles around a ring are refused, in one layer and not in a
 *   second one; undo restores what was there;
 * - single dependencies (Nue's way): lanes_cdg_add_dep accepts exactly
 *   what keeps the layer acyclic, except a dependency it refused before,
 *   which it refuses until lanes_cdg_forget_refusal (lanes_cdg_remove_dep
 *   keeps refusals; lanes_cdg_remove_path forgets them); lanes_cdg_used,
 *   lanes_cdg_refused and the lanes_cdg_onto view agree with the model,
 *   from a random start order (lanes_cdg_set_order);
 * - the labelled list of an order (cdg_order.c) against an array, with
 *   moves into one gap until it is labelled again, and random moves; a list
 *   set from an array (lanes_cdg_order_set).
 */
#include <stdint.h>

#include "route/cdg/cdg.h"
#include "route/cdg/channels.h"
#include "testutil.h"

#define LAYERS 3
#define MAX_PATH 6

/* ---------------------------------------------------------------- model */

struct model {
	const struct lanes_fabric *f;
	struct route_channels ch;
	struct lanes_cdg *g;
	uint32_t *count[LAYERS]; /* per dependency: the model's count */
	uint32_t *indeg, *queue; /* Kahn's scratch */
	uint64_t rng;
	uint32_t accepted, refused; /* paths */
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
	assert_int_equal(lanes_cdg_new(&m->g, &m->ch, LAYERS, &err), 0);
	for (uint32_t k = 0; k < LAYERS; k++) {
		assert_int_equal(lanes_cdg_open_layer(m->g, k, &err), 0);
		m->count[k] = calloc(m->ch.ndeps + 1, sizeof(uint32_t));
	}
	m->indeg = calloc(m->ch.E + 1, sizeof(uint32_t));
	m->queue = calloc(m->ch.E + 1, sizeof(uint32_t));
}

static void model_free(struct model *m)
{
	for (uint32_t k = 0; k < LAYERS; k++)
		free(m->count[k]);
	free(m->indeg);
	free(m->queue);
	lanes_cdg_free(m->g);
	lanes_route_channels_free(&m->ch);
}

/* The switch a channel leaves (adjacency entries are by switch). */
static uint32_t tail_switch(const struct model *m, uint32_t c)
{
	uint32_t x = 0;

	while (m->f->adj_off[x + 1] <= c)
		x++;
	return x;
}

/* A random walk of n >= 2 channels, each leaving the switch where the last ends. */
static uint32_t random_path(struct model *m, uint32_t *chan)
{
	uint32_t n = 2 + rnd(m, MAX_PATH - 1), x = rnd(m, m->f->num_switches);

	for (uint32_t i = 0; i < n; i++) {
		uint32_t a = m->f->adj_off[x], deg = m->f->adj_off[x + 1] - a;

		if (!deg)
			return i;
		chan[i] = a + rnd(m, deg);
		x = m->f->adj[chan[i]].sw;
	}
	return n;
}

/* Count the path's dependencies in the model (sign +1 or -1). */
static void model_count(struct model *m, uint32_t k, const uint32_t *chan, uint32_t n, int sign)
{
	for (uint32_t i = 1; i < n; i++)
		m->count[k][route_dependency(&m->ch, chan[i - 1], chan[i])] += (uint32_t)sign;
}

/* Is the model's layer k acyclic? Kahn's algorithm over every channel. */
static int model_acyclic(struct model *m, uint32_t k)
{
	const struct lanes_fabric *f = m->f;
	uint32_t head = 0, tail = 0;

	memset(m->indeg, 0, sizeof(uint32_t) * m->ch.E);
	for (uint32_t x = 0; x < f->num_switches; x++) {
		uint32_t a = f->adj_off[x], deg = f->adj_off[x + 1] - a;

		for (uint32_t i = 0; i < deg; i++)
			for (uint32_t j = 0; j < deg; j++)
				if (m->count[k][m->ch.dense_off[x] + (size_t)i * deg + j])
					m->indeg[a + j]++;
	}
	for (uint32_t c = 0; c < m->ch.E; c++)
		if (!m->indeg[c])
			m->queue[tail++] = c;
	while (head < tail) {
		uint32_t c = m->queue[head++], x = f->adj[c].sw, a = f->adj_off[x];
		uint32_t deg = f->adj_off[x + 1] - a, back = m->ch.rev[c];

		for (uint32_t j = 0; back != LANES_NONE && j < deg; j++)
			if (m->count[k][m->ch.dense_off[x] + (size_t)(back - a) * deg + j] && !--m->indeg[a + j])
				m->queue[tail++] = a + j;
	}
	return tail == m->ch.E;
}

/* ---------------------------------------------------------------- checks */

static void check_layer(struct model *m, uint32_t k)
{
	assert_true(lanes_cdg_order_holds(m->g, k));
	for (uint32_t d = 0; d < m->ch.ndeps; d++)
		assert_int_equal(lanes_cdg_count(m->g, k, d), m->count[k][d]);
}

/* The witness of the last refusal in layer k: a cycle of the layer plus the refused dependency. */
static void check_witness(struct model *m, uint32_t k, uint32_t u, uint32_t v)
{
	uint32_t w[4096], len = lanes_cdg_witness(m->g, w, 4096);

	assert_true(len >= 2 && len <= 4096);
	assert_int_equal(w[0], u);
	assert_int_equal(w[1], v);
	for (uint32_t i = 0; i < len; i++) {
		uint32_t a = w[i], b = w[(i + 1) % len];

		assert_int_equal(m->f->adj[a].sw, tail_switch(m, b)); /* b leaves where a ends */
		if (i)
			assert_true(lanes_cdg_count(m->g, k, route_dependency(&m->ch, a, b)) > 0);
	}
}

/* The dependency add_path refused: the first of the path that the layer with the path's earlier ones refuses. */
static void refused_dependency(struct model *m, uint32_t k, const uint32_t *chan, uint32_t n, uint32_t *u,
			       uint32_t *v)
{
	uint32_t i = 1;

	for (; i < n; i++) {
		uint32_t d = route_dependency(&m->ch, chan[i - 1], chan[i]);
		int ok;

		m->count[k][d]++;
		ok = model_acyclic(m, k);
		m->count[k][d]--;
		if (!ok)
			break;
		m->count[k][d]++;
	}
	assert_true(i < n);
	*u = chan[i - 1];
	*v = chan[i];
	while (--i >= 1)
		m->count[k][route_dependency(&m->ch, chan[i - 1], chan[i])]--;
}

/* ---------------------------------------------------------------- random runs */

struct kept {
	uint32_t layer, n, chan[MAX_PATH];
};

/* One transaction of one or two paths; kept ones go to list. */
static void transaction(struct model *m, struct kept *list, uint32_t *nkept)
{
	struct lanes_error err;
	uint32_t k = rnd(m, LAYERS), np = 1 + rnd(m, 2), n[2], chan[2][MAX_PATH], added = 0;
	int ok = 1;

	for (uint32_t p = 0; p < np && ok; p++) {
		int rc, want;

		n[p] = random_path(m, chan[p]);
		model_count(m, k, chan[p], n[p], +1);
		want = model_acyclic(m, k);
		model_count(m, k, chan[p], n[p], -1);
		rc = lanes_cdg_add_path(m->g, k, chan[p], n[p], &err);
		assert_int_equal(rc, want);
		m->accepted += rc == 1;
		m->refused += rc == 0;
		if (!rc) {
			uint32_t u, v;

			refused_dependency(m, k, chan[p], n[p], &u, &v);
			check_witness(m, k, u, v);
			ok = 0;
			break;
		}
		model_count(m, k, chan[p], n[p], +1);
		added++;
	}
	if (!ok || rnd(m, 4) == 0) { /* undo: the model forgets the paths too */
		lanes_cdg_undo(m->g);
		for (uint32_t p = 0; p < added; p++)
			model_count(m, k, chan[p], n[p], -1);
	} else {
		lanes_cdg_keep(m->g);
		for (uint32_t p = 0; p < added; p++) {
			list[*nkept].layer = k;
			list[*nkept].n = n[p];
			memcpy(list[*nkept].chan, chan[p], sizeof(chan[p]));
			(*nkept)++;
		}
	}
	check_layer(m, k);
}

static void remove_one(struct model *m, struct kept *list, uint32_t *nkept)
{
	uint32_t i = rnd(m, *nkept);
	struct kept p = list[i];

	lanes_cdg_remove_path(m->g, p.layer, p.chan, p.n);
	model_count(m, p.layer, p.chan, p.n, -1);
	list[i] = list[--*nkept];
	check_layer(m, p.layer);
}

static void random_run(const char *spec, uint64_t seed, uint32_t steps)
{
	struct lanes_fabric *f = gen(spec);
	struct kept *list = calloc(2 * steps + 2, sizeof(*list));
	uint32_t nkept = 0;
	struct model m;

	model_init(&m, f, seed);
	for (uint32_t s = 0; s < steps; s++)
		if (nkept && rnd(&m, 5) == 0)
			remove_one(&m, list, &nkept);
		else
			transaction(&m, list, &nkept);
	for (uint32_t k = 0; k < LAYERS; k++)
		assert_true(model_acyclic(&m, k));
	if (m.accepted < steps / 4 || m.refused < steps / 20)
		fail_msg("%s: %u paths accepted, %u refused: too few to judge", spec, m.accepted, m.refused);
	free(list);
	model_free(&m);
	lanes_fabric_free(f);
}

static void test_random_small(void **state)
{
	(void)state;
	random_run("torus k=3x3 p=1", 1, 3000);
	random_run("dragonfly a=4 p=2 h=2", 2, 3000);
	random_run("jellyfish switches=10 degree=3 p=1", 3, 3000);
	random_run("hypercube n=3 p=1", 4, 3000);
}

static void test_random_seeds(void **state)
{
	(void)state;
	for (uint64_t seed = 11; seed < 19; seed++)
		random_run("jellyfish switches=16 degree=4 p=2 seed=7", seed, 1500);
}

/* ---------------------------------------------------------------- single dependencies */

struct dep_run {
	struct model m;
	uint8_t *refused;       /* per dependency: the model's remembered refusals */
	uint32_t (*kept)[2], nkept; /* dependencies added, a pair per use */
};

/* A random dependency "in, then out" of the fabric; @return 0 when in is not cabled back */
static int random_dep(struct model *m, uint32_t *in, uint32_t *out)
{
	uint32_t x, a, deg;

	*in = rnd(m, m->ch.E);
	x = m->f->adj[*in].sw;
	a = m->f->adj_off[x];
	deg = m->f->adj_off[x + 1] - a;
	*out = a + rnd(m, deg);
	return m->ch.rev[*in] != LANES_NONE && deg > 0;
}

/* Every dependency: used, refused and the onto view as the model has them; the order holds. */
static void check_deps(struct dep_run *r, uint32_t k)
{
	const struct lanes_fabric *f = r->m.f;

	check_layer(&r->m, k);
	for (uint32_t out = 0; out < r->m.ch.E; out++) {
		uint32_t x = tail_switch(&r->m, out), a = f->adj_off[x];
		struct lanes_cdg_onto o;

		lanes_cdg_onto(r->m.g, k, out, &o);
		for (uint32_t e = a; e < f->adj_off[x + 1]; e++) {
			uint32_t in = r->m.ch.rev[e], d;

			if (in == LANES_NONE)
				continue;
			d = route_dependency(&r->m.ch, in, out);
			assert_int_equal(lanes_cdg_used(r->m.g, k, in, out), r->m.count[k][d] > 0);
			assert_int_equal(lanes_cdg_onto_used(&o, e - a), r->m.count[k][d] > 0);
			assert_int_equal(lanes_cdg_refused(r->m.g, k, in, out), r->refused[d]);
			assert_int_equal(lanes_cdg_onto_refused(&o, e - a), r->refused[d]);
		}
	}
}

/* Add a random dependency: refused when refused before, else exactly when it closes a cycle. */
static void dep_add(struct dep_run *r, uint32_t k)
{
	uint32_t in, out, d;
	int want;

	if (!random_dep(&r->m, &in, &out))
		return;
	d = route_dependency(&r->m.ch, in, out);
	r->m.count[k][d]++;
	want = r->m.count[k][d] > 1 || (!r->refused[d] && model_acyclic(&r->m, k));
	assert_int_equal(lanes_cdg_add_dep(r->m.g, k, in, out), want);
	if (!want) {
		r->m.count[k][d]--;
		if (!r->refused[d]) /* a cycle found, not remembered: the witness closes it */
			check_witness(&r->m, k, in, out);
		r->refused[d] = 1;
		r->m.refused++;
		return;
	}
	r->kept[r->nkept][0] = in;
	r->kept[r->nkept++][1] = out;
	r->m.accepted++;
}

/* Take a random use back (refusals stay), or forget a random refusal. */
static void dep_remove_or_forget(struct dep_run *r, uint32_t k)
{
	uint32_t in, out;

	if (r->nkept && rnd(&r->m, 2)) {
		uint32_t i = rnd(&r->m, r->nkept);

		in = r->kept[i][0];
		out = r->kept[i][1];
		r->kept[i][0] = r->kept[--r->nkept][0];
		r->kept[i][1] = r->kept[r->nkept][1];
		lanes_cdg_remove_dep(r->m.g, k, in, out);
		r->m.count[k][route_dependency(&r->m.ch, in, out)]--;
	} else if (random_dep(&r->m, &in, &out)) {
		lanes_cdg_forget_refusal(r->m.g, k, in, out);
		r->refused[route_dependency(&r->m.ch, in, out)] = 0;
	}
}

/* A random permutation of the channels as layer k's start order. */
static void random_start(struct model *m, uint32_t k, uint32_t *chan)
{
	for (uint32_t c = 0; c < m->ch.E; c++) {
		uint32_t j = rnd(m, c + 1);

		chan[c] = chan[j];
		chan[j] = c;
	}
	lanes_cdg_set_order(m->g, k, chan);
	assert_true(lanes_cdg_order_holds(m->g, k));
}

static void dep_run(const char *spec, uint64_t seed, uint32_t steps)
{
	struct lanes_fabric *f = gen(spec);
	struct dep_run r;
	uint32_t k = 1, *chan;

	model_init(&r.m, f, seed);
	r.refused = calloc(r.m.ch.ndeps + 1, 1);
	r.kept = calloc(steps + 1, sizeof(*r.kept));
	r.nkept = 0;
	chan = calloc(r.m.ch.E + 1, sizeof(*chan));
	random_start(&r.m, k, chan);
	for (uint32_t s = 0; s < steps; s++) {
		if (rnd(&r.m, 4))
			dep_add(&r, k);
		else
			dep_remove_or_forget(&r, k);
		if (s % 16 == 0 || s + 1 == steps)
			check_deps(&r, k);
	}
	if (r.m.accepted < steps / 4 || r.m.refused < steps / 20)
		fail_msg("%s: %u dependencies accepted, %u refused: too few to judge", spec, r.m.accepted,
			 r.m.refused);
	free(chan);
	free(r.kept);
	free(r.refused);
	model_free(&r.m);
	lanes_fabric_free(f);
}

static void test_single_deps(void **state)
{
	(void)state;
	dep_run("torus k=3x3 p=1", 21, 3000);
	dep_run("dragonfly a=4 p=2 h=2", 22, 3000);
	dep_run("jellyfish switches=10 degree=3 p=1", 23, 3000);
	dep_run("jellyfish switches=16 degree=4 p=2 seed=7", 24, 2000);
}

/* ---------------------------------------------------------------- a ring */

/* The channels of the ring torus k=4 (switches 0..3), clockwise: the entry from x to x + 1. */
static uint32_t clockwise(const struct lanes_fabric *f, uint32_t x, uint32_t ns)
{
	for (uint32_t e = f->adj_off[x]; e < f->adj_off[x + 1]; e++)
		if (f->adj[e].sw == (x + 1) % ns)
			return e;
	fail_msg("no channel from %u to %u", x, (x + 1) % ns);
	return 0;
}

static void test_ring(void **state)
{
	struct lanes_fabric *f = gen("torus k=5 p=1");
	struct route_channels ch;
	struct lanes_cdg *g;
	struct lanes_error err;
	uint32_t c[5], path[3], w[8];

	(void)state;
	assert_int_equal(f->num_switches, 5);
	for (uint32_t x = 0; x < 5; x++)
		c[x] = clockwise(f, x, 5);
	assert_int_equal(lanes_route_channels_init(&ch, f, "test", &err), 0);
	assert_int_equal(lanes_cdg_new(&g, &ch, 2, &err), 0);
	assert_int_equal(lanes_cdg_open_layer(g, 0, &err), 0);
	assert_int_equal(lanes_cdg_open_layer(g, 1, &err), 0);
	assert_int_equal(lanes_cdg_witness(g, w, 8), 0);
	/* c0 c1 c2, c2 c3 c4: acyclic; c4 c0 closes the ring */
	path[0] = c[0], path[1] = c[1], path[2] = c[2];
	assert_int_equal(lanes_cdg_add_path(g, 0, path, 3, &err), 1);
	lanes_cdg_keep(g);
	path[0] = c[2], path[1] = c[3], path[2] = c[4];
	assert_int_equal(lanes_cdg_add_path(g, 0, path, 3, &err), 1);
	lanes_cdg_keep(g);
	path[0] = c[4], path[1] = c[0];
	assert_int_equal(lanes_cdg_add_path(g, 0, path, 2, &err), 0);
	assert_int_equal(lanes_cdg_witness(g, w, 8), 5);
	for (uint32_t i = 0; i < 5; i++)
		assert_int_equal(w[i], c[(4 + i) % 5]);
	assert_int_equal(lanes_cdg_known_refused(g, 0, path, 2), 1);
	assert_int_equal(lanes_cdg_refused(g, 0, c[4], c[0]), 1);
	lanes_cdg_undo(g);
	/* one dependency out and in again by itself: the refusal stays */
	lanes_cdg_remove_dep(g, 0, c[1], c[2]);
	assert_int_equal(lanes_cdg_used(g, 0, c[1], c[2]), 0);
	assert_int_equal(lanes_cdg_refused(g, 0, c[4], c[0]), 1);
	assert_int_equal(lanes_cdg_add_dep(g, 0, c[4], c[0]), 0);
	assert_int_equal(lanes_cdg_add_dep(g, 0, c[1], c[2]), 1);
	/* the other layer takes it; the first again once a path is out */
	assert_int_equal(lanes_cdg_add_path(g, 1, path, 2, &err), 1);
	lanes_cdg_keep(g);
	path[0] = c[0], path[1] = c[1], path[2] = c[2];
	lanes_cdg_remove_path(g, 0, path, 3);
	path[0] = c[4], path[1] = c[0];
	assert_int_equal(lanes_cdg_known_refused(g, 0, path, 2), 0);
	assert_int_equal(lanes_cdg_add_path(g, 0, path, 2, &err), 1);
	lanes_cdg_keep(g);
	assert_true(lanes_cdg_order_holds(g, 0) && lanes_cdg_order_holds(g, 1));
	lanes_cdg_free(g);
	lanes_route_channels_free(&ch);
	lanes_fabric_free(f);
}

/* ---------------------------------------------------------------- the order */

#define ORDER_N 40

/* The list from its head equals seq, with growing labels. */
static void check_order(const struct cdg_order *o, const uint32_t *seq)
{
	uint32_t c = o->next[ORDER_N];

	for (uint32_t i = 0; i < ORDER_N; i++, c = o->next[c]) {
		assert_int_equal(c, seq[i]);
		assert_int_equal(o->prev[o->next[c]], c);
		if (i)
			assert_true(o->label[seq[i - 1]] < o->label[c]);
	}
	assert_int_equal(c, ORDER_N);
}

/* The array's move: nodes out of seq, then in right after anchor (or before it). */
static void seq_move(uint32_t *seq, uint32_t anchor, const uint32_t *nodes, uint32_t k, int before)
{
	uint32_t rest[ORDER_N], n = 0, out = 0;

	for (uint32_t i = 0; i < ORDER_N; i++) {
		int moved = 0;

		for (uint32_t j = 0; j < k; j++)
			moved |= seq[i] == nodes[j];
		if (!moved)
			rest[n++] = seq[i];
	}
	for (uint32_t i = 0; i < n; i++) {
		if (rest[i] == anchor && before)
			for (uint32_t j = 0; j < k; j++)
				seq[out++] = nodes[j];
		seq[out++] = rest[i];
		if (rest[i] == anchor && !before)
			for (uint32_t j = 0; j < k; j++)
				seq[out++] = nodes[j];
	}
	assert_int_equal(out, ORDER_N);
}

static void order_move(struct cdg_order *o, uint32_t *seq, uint32_t anchor, const uint32_t *nodes, uint32_t k,
		       int before)
{
	if (before)
		lanes_cdg_order_move_before(o, anchor, nodes, k);
	else
		lanes_cdg_order_move_after(o, anchor, nodes, k);
	seq_move(seq, anchor, nodes, k, before);
	check_order(o, seq);
}

static void test_order(void **state)
{
	uint64_t label[ORDER_N + 1];
	uint32_t next[ORDER_N + 1], prev[ORDER_N + 1], seq[ORDER_N], nodes[4];
	struct cdg_order o = { label, next, prev, ORDER_N };
	struct model m = { .rng = 99 };

	(void)state;
	lanes_cdg_order_init(&o, ORDER_N);
	for (uint32_t i = 0; i < ORDER_N; i++)
		seq[i] = i;
	check_order(&o, seq);
	/* the last channel, again and again, right after channel 0: the gap halves until relabelled */
	for (uint32_t i = 0; i < 300; i++) {
		nodes[0] = seq[ORDER_N - 1];
		order_move(&o, seq, 0, nodes, 1, 0);
	}
	/* and before channel 1, two at a time */
	for (uint32_t i = 0; i < 300; i++) {
		nodes[0] = seq[ORDER_N - 1] == 1 ? seq[ORDER_N - 3] : seq[ORDER_N - 1];
		nodes[1] = seq[ORDER_N - 2] == 1 ? seq[ORDER_N - 3] : seq[ORDER_N - 2];
		if (nodes[0] == nodes[1] || nodes[0] == 1 || nodes[1] == 1)
			continue;
		order_move(&o, seq, 1, nodes, 2, 1);
	}
	for (uint32_t i = 0; i < 3000; i++) {
		uint32_t anchor = rnd(&m, ORDER_N), k = 1 + rnd(&m, 4), n = 0;

		while (n < k) {
			uint32_t c = rnd(&m, ORDER_N), dup = c == anchor;

			for (uint32_t j = 0; j < n; j++)
				dup |= nodes[j] == c;
			if (!dup)
				nodes[n++] = c;
		}
		order_move(&o, seq, anchor, nodes, k, (int)rnd(&m, 2));
	}
	/* a list set from an array: the array reversed */
	for (uint32_t i = 0; i < ORDER_N; i++)
		seq[i] = ORDER_N - 1 - i;
	lanes_cdg_order_set(&o, seq);
	check_order(&o, seq);
	nodes[0] = seq[0];
	nodes[1] = seq[1];
	order_move(&o, seq, seq[3], nodes, 2, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_small),
		cmocka_unit_test(test_random_seeds),
		cmocka_unit_test(test_single_deps),
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
