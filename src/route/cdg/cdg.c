/*
 * cdg.c - channel dependency graphs in virtual layers, kept acyclic while
 * paths are added (cdg.h gives the API). Dally and Seitz ("Deadlock-free
 * message routing in multiprocessor interconnection networks", IEEE
 * Transactions on Computers, 1987): a routing is free of deadlock when its
 * channel dependency graph (CDG) is acyclic. Layered engines (LASH: Skeie,
 * Lysne, Theiss, IPDPS 2002) put each path into a layer, a virtual lane,
 * whose graph stays acyclic with it.
 *
 * The graph. Channels are directed switch-to-switch cables, dependencies
 * "in, then out" at a switch, both numbered as channels.h says. Per layer
 * and dependency a count of the paths that use it; the dependency is in the
 * layer's graph while its count is not 0, so a path that shares a
 * dependency with one already there costs a count.
 *
 * The order. Each layer keeps its channels in a topological order, a list
 * with growing labels (cdg_order.c), as in Pearce and Kelly's dynamic
 * topological sort ("A dynamic topological sort algorithm for directed
 * acyclic graphs", ACM Journal of Experimental Algorithmics 11, 2006). A new
 * dependency u -> v with u before v needs no search. Otherwise a cycle
 * closes exactly when v reaches u, and every channel of such a path lies
 * between v and u in the order. Two breadth-first searches run in turns,
 * the one with the smaller frontier stepping: forward from v through
 * channels before u (the set F), backward from u through channels after v
 * (the set B). When they meet, v reaches u: the dependency is refused. When
 * one of them runs out there is no cycle, and only that one set moves: all
 * of F right after u, or all of B right before v, each in its own order.
 * Every dependency then still goes forward (a channel outside F that F
 * reaches lies after u; one outside B that reaches B lies before v).
 *
 * Where this is not Pearce and Kelly: their forward search runs first and
 * alone, and both F and B, complete, take each other's places. Here the
 * search stops at the smaller side, which on LASH's layers is a few
 * channels where the other holds hundreds, and moving needs the labelled
 * list, not a permutation of places.
 *
 * Undo and removal. Taking dependencies out never breaks a topological
 * order, so lanes_cdg_undo() and lanes_cdg_remove_path() only count down.
 * The transaction's journal lists the dependencies it counted.
 *
 * Refusals remembered. A refused dependency whose cycle (the searches keep
 * their trees) uses no dependency the open transaction made new closes a
 * cycle in the layer's kept graph, and does so while the layer only grows.
 * Such a refusal is stamped with the layer's epoch, which
 * lanes_cdg_remove_path() advances whenever a dependency leaves the layer;
 * lanes_cdg_known_refused() and the adds refuse a stamped dependency at
 * once. LASH tries the same dependencies in full layers again and again and
 * skips most searches so.
 *
 * The witness. lanes_cdg_witness() looks for the path from v back to u
 * again, breadth first through the layer, and returns it with u: a shortest
 * cycle through u -> v.
 *
 * OpenSM has three CDGs of its own (osm_ucast_lash.c, osm_ucast_dfsssp.c,
 * osm_ucast_nue.c); its LASH searches the whole layer for a cycle on every
 * try of a path.
 */
#include <stdlib.h>
#include <string.h>

#include "route/cdg/cdg.h"
#include "core/util.h"

struct cdg_layer {
	uint32_t *count;   /* per dependency: the paths that use it */
	uint32_t *refused; /* per dependency: the epoch in which its kept graph refused it */
	uint8_t *tentative; /* per dependency: made new by the open transaction */
	/*
	 * Per dependency, count > 0 as a byte, by in and then out (used) and
	 * by out and then in (used_into): the searches read a run of bytes per
	 * channel, not a run (forward) or a stride (backward) of counts. Worth
	 * 17% of lash's time on dragonfly a=20 p=10 h=10 (40.6 s user instead of
	 * 48.8 s) and 20% on a=16 p=8 h=8; last-level cache misses 11.6M ->
	 * 4.3M on a=12 p=6 h=6 (cachegrind, 2 MB last level).
	 */
	uint8_t *used, *used_into;
	struct cdg_order order; /* the channels in a topological order (cdg_order.c); its
				   labels head the layer's one block, NULL until opened */
	uint32_t epoch;    /* advanced whenever a dependency leaves the layer */
};

struct channel_label {
	uint64_t label;
	uint32_t channel;
};

struct journal_entry {
	uint32_t layer, dep, dep_into; /* dep_into: when the transaction made it new */
};

struct lanes_cdg {
	const struct route_channels *ch;
	uint32_t num_channels, max_layers;
	struct cdg_layer *layers;
	/* the transaction: the dependencies it counted, and how many it made new */
	struct journal_entry *journal;
	uint32_t journal_len, journal_cap, new_deps;
	/* the last refused dependency, for lanes_cdg_witness */
	int refused_any;
	uint32_t refused_layer, refused_in, refused_out;
	/* the searches' scratch, num_channels + 1 entries each */
	uint32_t *mark, stamp; /* stamp: seen forward; stamp + 1: seen backward */
	uint32_t *fwd, *bwd;   /* the channels seen forward and backward, in turn */
	uint32_t nfwd, nbwd;
	int forward_done;      /* which search ran out first */
	uint32_t meet_in, meet_out; /* where they met: the dependency "in, then out" */
	struct channel_label *sorted; /* the side that moves, by label */
	uint32_t *pred;        /* per channel seen: the one before it from v, or after it to u */
};

/*
 * The number of "in, then out" in the transposed numbering of used_into,
 * dense_off[x] + (out - adj_off[x]) * deg + (rev[in] - adj_off[x]): the
 * dependencies into one channel are one run there.
 */
static uint32_t dep_into(const struct route_channels *ch, uint32_t in, uint32_t out)
{
	const struct lanes_fabric *f = ch->f;
	uint32_t x = f->adj[in].sw, a = f->adj_off[x], deg = f->adj_off[x + 1] - a;

	return (uint32_t)(ch->dense_off[x] + (size_t)(out - a) * deg + (ch->rev[in] - a));
}

int lanes_cdg_new(struct lanes_cdg **out, const struct route_channels *ch, uint32_t max_layers,
		  struct lanes_error *err)
{
	size_t n = (size_t)ch->E + 1;
	struct lanes_cdg *g = calloc(1, sizeof(*g));

	*out = NULL;
	if (!g)
		return lanes_error_oom(err);
	g->ch = ch;
	g->num_channels = ch->E;
	g->max_layers = max_layers;
	g->layers = calloc(max_layers ? max_layers : 1, sizeof(*g->layers));
	/* one block: the labels first, then the 32-bit arrays */
	g->sorted = malloc(n * (sizeof(*g->sorted) + 4 * sizeof(uint32_t)));
	if (!g->layers || !g->sorted) {
		lanes_cdg_free(g);
		return lanes_error_oom(err);
	}
	g->mark = (uint32_t *)(g->sorted + n);
	g->fwd = g->mark + n;
	g->bwd = g->fwd + n;
	g->pred = g->bwd + n;
	memset(g->mark, 0, sizeof(*g->mark) * n);
	*out = g;
	return 0;
}

void lanes_cdg_free(struct lanes_cdg *g)
{
	if (!g)
		return;
	for (uint32_t k = 0; g->layers && k < g->max_layers; k++)
		free(g->layers[k].order.label); /* the layer's arrays are in its block */
	free(g->layers);
	free(g->journal);
	free(g->sorted); /* the rest of the scratch is in its block */
	free(g);
}

int lanes_cdg_open_layer(struct lanes_cdg *g, uint32_t layer, struct lanes_error *err)
{
	struct cdg_layer *y = &g->layers[layer];
	size_t nd = g->ch->ndeps + 1, n = (size_t)g->num_channels + 1;

	if (!y->order.label) { /* one block: labels, count, refused, next, prev, the bytes */
		y->order.label = malloc(sizeof(uint64_t) * n + sizeof(uint32_t) * (2 * nd + 2 * n) + 3 * nd);
		if (!y->order.label)
			return lanes_error_oom(err);
		y->count = (uint32_t *)(y->order.label + n);
		y->refused = y->count + nd;
		y->order.next = y->refused + nd;
		y->order.prev = y->order.next + n;
		y->tentative = (uint8_t *)(y->order.prev + n);
		y->used = y->tentative + nd;
		y->used_into = y->used + nd;
	}
	memset(y->count, 0, sizeof(uint32_t) * 2 * nd); /* count and refused */
	memset(y->tentative, 0, 3 * nd);                /* used and used_into */
	lanes_cdg_order_init(&y->order, g->num_channels);
	y->epoch = 1;
	return 0;
}

/* ------------------------------------------------------- the two searches */

/* Fresh marks for a search: stamp forward, stamp + 1 backward. */
static void next_stamp(struct lanes_cdg *g)
{
	if (g->stamp >= UINT32_MAX - 3) {
		memset(g->mark, 0, sizeof(*g->mark) * ((size_t)g->num_channels + 1));
		g->stamp = 0;
	}
	g->stamp += 2;
}

/*
 * One forward step from channel c: its dependencies c -> w in layer y, where
 * w is labelled below the bound, join F. @return 1 when one of them is in B
 */
static int step_forward(struct lanes_cdg *g, const struct cdg_layer *y, uint32_t c, uint64_t bound)
{
	const struct lanes_fabric *f = g->ch->f;
	uint32_t back = g->ch->rev[c], x = f->adj[c].sw, a = f->adj_off[x];
	uint32_t deg = f->adj_off[x + 1] - a;
	const uint8_t *used;

	if (back == LANES_NONE)
		return 0; /* not cabled back: no dependencies out of it */
	used = y->used + g->ch->dense_off[x] + (size_t)(back - a) * deg;
	for (uint32_t i = 0; i < deg; i++) {
		uint32_t w = a + i;

		if (!used[i])
			continue;
		if (g->mark[w] == g->stamp + 1) {
			g->meet_in = c;
			g->meet_out = w;
			return 1;
		}
		if (g->mark[w] == g->stamp || y->order.label[w] > bound)
			continue;
		g->mark[w] = g->stamp;
		g->pred[w] = c;
		g->fwd[g->nfwd++] = w;
	}
	return 0;
}

/*
 * One backward step to channel c: the dependencies w -> c in layer y, where
 * w is labelled above the bound, put w in B. @return 1 when one of them is in F
 */
static int step_backward(struct lanes_cdg *g, const struct cdg_layer *y, uint32_t c, uint64_t bound)
{
	const struct lanes_fabric *f = g->ch->f;
	uint32_t back = g->ch->rev[c], x, a, deg;
	const uint8_t *used;

	if (back == LANES_NONE)
		return 0;
	x = f->adj[back].sw; /* c leaves x */
	a = f->adj_off[x];
	deg = f->adj_off[x + 1] - a;
	used = y->used_into + g->ch->dense_off[x] + (size_t)(c - a) * deg;
	for (uint32_t i = 0; i < deg; i++) {
		uint32_t w = g->ch->rev[a + i];

		if (!used[i])
			continue;
		if (g->mark[w] == g->stamp) {
			g->meet_in = w;
			g->meet_out = c;
			return 1;
		}
		if (g->mark[w] == g->stamp + 1 || y->order.label[w] < bound)
			continue;
		g->mark[w] = g->stamp + 1;
		g->pred[w] = c;
		g->bwd[g->nbwd++] = w;
	}
	return 0;
}

/*
 * Would u -> v (u after v in the order) close a cycle in layer y? F and B
 * in turns, a step each, until they meet or one runs out. @return 1 a
 * cycle; 0 none, and forward_done says which side is complete
 */
static int closes_cycle(struct lanes_cdg *g, const struct cdg_layer *y, uint32_t u, uint32_t v)
{
	uint64_t upper = y->order.label[u], lower = y->order.label[v];
	uint32_t next_f = 0, next_b = 0;

	next_stamp(g);
	g->mark[v] = g->stamp;
	g->mark[u] = g->stamp + 1;
	g->fwd[0] = v;
	g->bwd[0] = u;
	g->nfwd = g->nbwd = 1;
	for (;;) {
		if ((g->forward_done = next_f == g->nfwd) || next_b == g->nbwd)
			return 0;
		if (g->nfwd - next_f <= g->nbwd - next_b) {
			if (step_forward(g, y, g->fwd[next_f++], upper))
				return 1;
		} else if (step_backward(g, y, g->bwd[next_b++], lower)) {
			return 1;
		}
	}
}

static int by_label(const void *pa, const void *pb)
{
	const struct channel_label *a = pa, *b = pb;

	return a->label < b->label ? -1 : a->label > b->label;
}

/* chan[0..n) in layer y's order, into chan. */
static void sort_by_label(struct lanes_cdg *g, const struct cdg_layer *y, uint32_t *chan, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		g->sorted[i].label = y->order.label[chan[i]];
		g->sorted[i].channel = chan[i];
	}
	qsort(g->sorted, n, sizeof(*g->sorted), by_label);
	for (uint32_t i = 0; i < n; i++)
		chan[i] = g->sorted[i].channel;
}

/*
 * No cycle: u must come before v. When F is complete, F (v and what it
 * reaches before u) moves right after u; else B (u and what reaches it
 * after v) moves right before v; each keeps its own order.
 */
static void reorder(struct lanes_cdg *g, struct cdg_layer *y, uint32_t u, uint32_t v)
{
	if (g->forward_done) {
		sort_by_label(g, y, g->fwd, g->nfwd);
		lanes_cdg_order_move_after(&y->order, u, g->fwd, g->nfwd);
	} else {
		sort_by_label(g, y, g->bwd, g->nbwd);
		lanes_cdg_order_move_before(&y->order, v, g->bwd, g->nbwd);
	}
}

/* ---------------------------------------------------------- adding paths */

/*
 * Does the cycle the searches found (v .. meet_in, meet_out .. u, u) use a
 * dependency the open transaction made new? (u -> v itself is not in.)
 */
static int cycle_is_tentative(const struct lanes_cdg *g, const struct cdg_layer *y, uint32_t u, uint32_t v)
{
	const struct route_channels *ch = g->ch;

	if (y->tentative[route_dependency(ch, g->meet_in, g->meet_out)])
		return 1;
	for (uint32_t c = g->meet_in; c != v; c = g->pred[c])
		if (y->tentative[route_dependency(ch, g->pred[c], c)])
			return 1;
	for (uint32_t c = g->meet_out; c != u; c = g->pred[c])
		if (y->tentative[route_dependency(ch, c, g->pred[c])])
			return 1;
	return 0;
}

/* Refuse u -> v; searched: the searches found the cycle (else it was remembered). */
static void refuse(struct lanes_cdg *g, uint32_t layer, uint32_t u, uint32_t v, uint32_t dep, int searched)
{
	struct cdg_layer *y = &g->layers[layer];

	if (searched && (!g->new_deps || !cycle_is_tentative(g, y, u, v)))
		y->refused[dep] = y->epoch; /* the kept graph alone closes a cycle */
	g->refused_any = 1;
	g->refused_layer = layer;
	g->refused_in = u;
	g->refused_out = v;
}

/* Count u -> v in layer unless it closes a cycle. @return 1 counted, 0 refused */
static int add_dep(struct lanes_cdg *g, uint32_t layer, uint32_t u, uint32_t v)
{
	struct cdg_layer *y = &g->layers[layer];
	uint32_t dep = route_dependency(g->ch, u, v), into = LANES_NONE;

	if (!y->count[dep]) {
		if (y->order.label[u] > y->order.label[v]) {
			if (y->refused[dep] == y->epoch) {
				refuse(g, layer, u, v, dep, 0);
				return 0;
			}
			if (closes_cycle(g, y, u, v)) {
				refuse(g, layer, u, v, dep, 1);
				return 0;
			}
			reorder(g, y, u, v);
		}
		into = dep_into(g->ch, u, v);
		y->tentative[dep] = 1;
		y->used[dep] = 1;
		y->used_into[into] = 1;
		g->new_deps++;
	}
	y->count[dep]++;
	g->journal[g->journal_len].layer = layer;
	g->journal[g->journal_len].dep_into = into;
	g->journal[g->journal_len++].dep = dep;
	return 1;
}

/* Room in the journal for n more entries. */
static int journal_room(struct lanes_cdg *g, uint32_t n, struct lanes_error *err)
{
	struct journal_entry *j;
	uint32_t cap = g->journal_cap ? g->journal_cap : 64;

	if (g->journal_len + n <= g->journal_cap)
		return 0;
	while (cap < g->journal_len + n)
		cap *= 2;
	if (!(j = realloc(g->journal, sizeof(*j) * cap)))
		return lanes_error_oom(err);
	g->journal = j;
	g->journal_cap = cap;
	return 0;
}

int lanes_cdg_add_path(struct lanes_cdg *g, uint32_t layer, const uint32_t *chan, uint32_t n,
		       struct lanes_error *err)
{
	int rc;

	if (n < 2)
		return 1;
	if ((rc = journal_room(g, n - 1, err)))
		return rc;
	for (uint32_t i = 1; i < n; i++)
		if (!add_dep(g, layer, chan[i - 1], chan[i]))
			return 0;
	return 1;
}

int lanes_cdg_known_refused(const struct lanes_cdg *g, uint32_t layer, const uint32_t *chan, uint32_t n)
{
	const struct cdg_layer *y = &g->layers[layer];

	for (uint32_t i = 1; i < n; i++)
		if (y->refused[route_dependency(g->ch, chan[i - 1], chan[i])] == y->epoch)
			return 1;
	return 0;
}

void lanes_cdg_keep(struct lanes_cdg *g)
{
	for (uint32_t i = 0; i < g->journal_len; i++)
		g->layers[g->journal[i].layer].tentative[g->journal[i].dep] = 0;
	g->journal_len = 0;
	g->new_deps = 0;
}

void lanes_cdg_undo(struct lanes_cdg *g)
{
	while (g->journal_len) {
		const struct journal_entry *e = &g->journal[--g->journal_len];
		struct cdg_layer *y = &g->layers[e->layer];

		if (!--y->count[e->dep]) { /* new in the transaction */
			y->used[e->dep] = 0;
			y->used_into[e->dep_into] = 0;
		}
		y->tentative[e->dep] = 0;
	}
	g->new_deps = 0;
}

/* A dependency left layer y: its remembered refusals no longer hold. */
static void next_epoch(struct lanes_cdg *g, struct cdg_layer *y)
{
	if (y->epoch == UINT32_MAX) {
		memset(y->refused, 0, sizeof(uint32_t) * (g->ch->ndeps + 1));
		y->epoch = 0;
	}
	y->epoch++;
}

void lanes_cdg_remove_path(struct lanes_cdg *g, uint32_t layer, const uint32_t *chan, uint32_t n)
{
	struct cdg_layer *y = &g->layers[layer];
	int left = 0;

	for (uint32_t i = 1; i < n; i++) {
		uint32_t dep = route_dependency(g->ch, chan[i - 1], chan[i]);

		if (!--y->count[dep]) {
			y->used[dep] = 0;
			y->used_into[dep_into(g->ch, chan[i - 1], chan[i])] = 0;
			left = 1;
		}
	}
	if (left)
		next_epoch(g, y);
}

/* ------------------------------------------------------------ questions */

/* Breadth first from v through layer's dependencies to u; pred holds the tree. */
static int find_path(struct lanes_cdg *g, const struct cdg_layer *y, uint32_t v, uint32_t u)
{
	const struct lanes_fabric *f = g->ch->f;
	uint32_t head = 0, tail = 0;

	next_stamp(g);
	g->mark[v] = g->stamp;
	g->fwd[tail++] = v;
	while (head < tail) {
		uint32_t c = g->fwd[head++], back = g->ch->rev[c], x = f->adj[c].sw;
		uint32_t a = f->adj_off[x], deg = f->adj_off[x + 1] - a;
		const uint32_t *count;

		if (c == u)
			return 1;
		if (back == LANES_NONE)
			continue;
		count = y->count + g->ch->dense_off[x] + (size_t)(back - a) * deg;
		for (uint32_t i = 0; i < deg; i++)
			if (count[i] && g->mark[a + i] != g->stamp) {
				g->mark[a + i] = g->stamp;
				g->pred[a + i] = c;
				g->fwd[tail++] = a + i;
			}
	}
	return 0;
}

uint32_t lanes_cdg_witness(struct lanes_cdg *g, uint32_t *out, uint32_t max)
{
	uint32_t u = g->refused_in, v = g->refused_out, len = 1;

	if (!g->refused_any || !find_path(g, &g->layers[g->refused_layer], v, u))
		return 0;
	for (uint32_t c = u; c != v; c = g->pred[c])
		len++; /* u, then the path's channels before u back to v */
	for (uint32_t c = u, i = len; i > 1; c = g->pred[c], i--)
		if (i - 1 < max)
			out[i - 1] = g->pred[c];
	if (max)
		out[0] = u;
	return len;
}

uint32_t lanes_cdg_count(const struct lanes_cdg *g, uint32_t layer, uint32_t dep)
{
	return g->layers[layer].count[dep];
}

int lanes_cdg_order_holds(const struct lanes_cdg *g, uint32_t layer)
{
	const struct lanes_fabric *f = g->ch->f;
	const struct cdg_layer *y = &g->layers[layer];
	uint32_t seen = 0;

	for (uint32_t c = y->order.next[g->num_channels]; c != g->num_channels; c = y->order.next[c], seen++)
		if (seen >= g->num_channels || (y->order.next[c] != g->num_channels &&
						 y->order.label[c] >= y->order.label[y->order.next[c]]))
			return 0; /* the list is not one run of growing labels */
	if (seen != g->num_channels)
		return 0;
	for (uint32_t x = 0; x < f->num_switches; x++) {
		uint32_t a = f->adj_off[x], deg = f->adj_off[x + 1] - a;
		const uint32_t *count = y->count + g->ch->dense_off[x];

		for (uint32_t i = 0; i < deg; i++)
			for (uint32_t j = 0; j < deg; j++)
				if (count[(size_t)i * deg + j] && y->order.label[g->ch->rev[a + i]] >= y->order.label[a + j])
					return 0;
	}
	return 1;
}
