/*
 * cdg.c - channel dependency graphs in virtual layers, kept acyclic while
 * paths are added (cdg.h gives the API). Dally and Seitz ("Deadlock-free
 * message routing in multiprocessor interconnection networks", IEEE
 * Transactions on Computers, 1987): a routing is free of deadlock when its
 * channel dependency graph (CDG) is acyclic. Layered engines (LASH: Skeie,
 * Lysne, Theiss, IPDPS 2002) put each path into a layer, a virtual lane,
 * whose graph stays acyclic with it; Nue (Domke, Hoefler, Matsuoka, HPDC
 * 2016) routes inside one layer's graph, a dependency at a time.
 *
 * The graph. Channels are directed switch-to-switch cables, dependencies
 * "in, then out" at a switch, both numbered as channels.h says. Per layer
 * and dependency a count of the paths that use it; the dependency is in the
 * layer's graph while its count is not 0, so a path that shares a
 * dependency with one already there costs a count. The searches read the
 * graph as bits: per channel, its dependencies out (one bit per channel
 * leaving the switch it enters) and its dependencies in (one bit per
 * channel entering the switch it leaves), a word for up to 64 ports.
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
 * reaches lies after u; one outside B that reaches B lies before v). Which
 * dependencies go in depends only on the graph, never on the order: the
 * order decides the time alone.
 *
 * Where this is not Pearce and Kelly: their forward search runs first and
 * alone, and both F and B, complete, take each other's places. Here the
 * search stops at the smaller side, which on LASH's layers is a few
 * channels where the other holds hundreds, and moving needs the labelled
 * list, not a permutation of places.
 *
 * Undo and removal. Taking dependencies out never breaks a topological
 * order, so lanes_cdg_undo() and the removals only count down. The
 * transaction's journal lists the dependencies it counted.
 *
 * Refusals remembered. A refused dependency whose cycle (the searches keep
 * their trees) uses no dependency the open transaction made new closes a
 * cycle in the layer's kept graph, and does so while the layer only grows.
 * Such a refusal is stamped with the layer's epoch (a byte; when it wraps,
 * every stamp goes), and the adds refuse a stamped dependency at once.
 * lanes_cdg_remove_path() advances the epoch whenever a dependency leaves
 * the layer, so that lanes_cdg_known_refused() stays exact: LASH tries the
 * same dependencies in full layers again and again and skips most searches
 * so. lanes_cdg_remove_dep() keeps the stamps: a refused dependency stays
 * refused, even where the layer has lost the cycle it closed, until the
 * caller forgets it (lanes_cdg_forget_refusal) or the layer is opened
 * again. That is Nue's "blocked" (OpenSM's osm_ucast_nue.c keeps such an
 * edge BLOCKED too), on which its tables depend.
 *
 * The witness. lanes_cdg_witness() looks for the path from v back to u
 * again, breadth first through the layer, and returns it with u: a shortest
 * cycle through u -> v.
 *
 * OpenSM has three CDGs of its own (osm_ucast_lash.c, osm_ucast_dfsssp.c,
 * osm_ucast_nue.c); its LASH searches the whole layer for a cycle on every
 * try of a path, its Nue colours subgraphs and searches depth first.
 */
#include <stdlib.h>
#include <string.h>

#include "route/cdg/cdg.h"
#include "core/bits.h"
#include "core/util.h"

struct cdg_layer {
	uint32_t *count;   /* per dependency: the paths that use it */
	uint8_t *tentative; /* per dependency: made new by the open transaction */
	/*
	 * Per dependency, by dep_into(): the epoch in which it was refused. A
	 * byte, not a 32-bit number: nue on dragonfly a=20 p=10 h=10 (one
	 * layer of 3.4M dependencies, read a channel's run at a time) took 37 s
	 * of user CPU with 32-bit epochs, 23-25 s with bytes.
	 */
	uint8_t *refused;
	/*
	 * The dependencies in the graph (count > 0) as bits, words_per_channel
	 * words per channel c: succ, bit j: "c, then out_first[c] + j"; pred,
	 * bit i: "rev[in_first[c] + i], then c". The searches walk the set
	 * bits of a word instead of a run of counts or bytes.
	 */
	uint64_t *succ, *pred;
	struct cdg_order order; /* the channels in a topological order (cdg_order.c); its
				   labels head the layer's one block, NULL until opened */
	uint8_t epoch;     /* advanced whenever lanes_cdg_remove_path takes a dependency out */
};

struct channel_label {
	uint64_t label;
	uint32_t channel;
};

struct journal_entry {
	uint32_t layer, in, out;
};

struct lanes_cdg {
	const struct route_channels *ch;
	uint32_t num_channels, max_layers, words_per_channel;
	uint32_t *out_first; /* per channel: the first channel leaving the switch it enters */
	uint32_t *in_first;  /* per channel: the first channel leaving the switch it leaves */
	uint32_t *into_row;  /* per channel: the first of its dependencies in, by dep_into() */
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
	uint32_t *parent;      /* per channel seen: the one before it from v, or after it to u */
};

/* Where "in, then out" is among the dependencies into out: its bit in pred. */
static uint32_t index_into(const struct lanes_cdg *g, uint32_t in, uint32_t out)
{
	return g->ch->rev[in] - g->in_first[out];
}

/*
 * The number of "in, then out" in the transposed numbering of refused,
 * dense_off[x] + (out - a) * deg + (rev[in] - a), a = adj_off[x]: the
 * dependencies into one channel are one run there, in the order of its
 * bits in pred.
 */
static uint32_t dep_into(const struct lanes_cdg *g, uint32_t in, uint32_t out)
{
	return g->into_row[out] + index_into(g, in, out);
}

/* Channel c's bits in pred. */
static uint64_t *pred_bits(const struct lanes_cdg *g, const struct cdg_layer *y, uint32_t c)
{
	return y->pred + (size_t)c * g->words_per_channel;
}

/* Is "in, then out" in layer y's graph? */
static int is_used(const struct lanes_cdg *g, const struct cdg_layer *y, uint32_t in, uint32_t out)
{
	return lanes_cdg_onto_bit(pred_bits(g, y, out), index_into(g, in, out));
}

/* out_first, in_first and into_row of every channel, and the words per channel of the bits. */
static void channel_geometry(struct lanes_cdg *g)
{
	const struct lanes_fabric *f = g->ch->f;
	uint32_t most = 1;

	for (uint32_t x = 0; x < f->num_switches; x++) {
		uint32_t a = f->adj_off[x], deg = f->adj_off[x + 1] - a;

		most = deg > most ? deg : most;
		for (uint32_t c = a; c < a + deg; c++) {
			g->out_first[c] = f->adj_off[f->adj[c].sw];
			g->in_first[c] = a;
			g->into_row[c] = (uint32_t)(g->ch->dense_off[x] + (size_t)(c - a) * deg);
		}
	}
	g->words_per_channel = (most + 63) / 64;
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
	g->sorted = malloc(n * (sizeof(*g->sorted) + 7 * sizeof(uint32_t)));
	if (!g->layers || !g->sorted) {
		lanes_cdg_free(g);
		return lanes_error_oom(err);
	}
	g->mark = (uint32_t *)(g->sorted + n);
	g->fwd = g->mark + n;
	g->bwd = g->fwd + n;
	g->parent = g->bwd + n;
	g->out_first = g->parent + n;
	g->in_first = g->out_first + n;
	g->into_row = g->in_first + n;
	memset(g->mark, 0, sizeof(*g->mark) * n);
	channel_geometry(g);
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

/* Layer y's one block: labels, succ, pred (64-bit), count, next, prev, tentative, refused. */
static int layer_block(struct lanes_cdg *g, struct cdg_layer *y)
{
	size_t nd = g->ch->ndeps + 1, n = (size_t)g->num_channels + 1, bits = n * g->words_per_channel;

	y->order.label = malloc(sizeof(uint64_t) * (n + 2 * bits) + sizeof(uint32_t) * (nd + 2 * n) + 2 * nd);
	if (!y->order.label)
		return -1;
	y->succ = y->order.label + n;
	y->pred = y->succ + bits;
	y->count = (uint32_t *)(y->pred + bits);
	y->order.next = y->count + nd;
	y->order.prev = y->order.next + n;
	y->tentative = (uint8_t *)(y->order.prev + n);
	y->refused = y->tentative + nd;
	return 0;
}

int lanes_cdg_open_layer(struct lanes_cdg *g, uint32_t layer, struct lanes_error *err)
{
	struct cdg_layer *y = &g->layers[layer];
	size_t nd = g->ch->ndeps + 1, n = (size_t)g->num_channels + 1;

	if (!y->order.label && layer_block(g, y))
		return lanes_error_oom(err);
	memset(y->succ, 0, sizeof(uint64_t) * 2 * n * g->words_per_channel); /* succ and pred */
	memset(y->count, 0, sizeof(uint32_t) * nd);
	memset(y->tentative, 0, 2 * nd); /* tentative and refused */
	lanes_cdg_order_init(&y->order, g->num_channels);
	y->epoch = 1;
	return 0;
}

void lanes_cdg_set_order(struct lanes_cdg *g, uint32_t layer, const uint32_t *chan)
{
	lanes_cdg_order_set(&g->layers[layer].order, chan);
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
	const uint64_t *succ = y->succ + (size_t)c * g->words_per_channel;
	uint32_t first = g->out_first[c];

	for (uint32_t k = 0; k < g->words_per_channel; k++)
		for (uint64_t bits = succ[k]; bits; bits &= bits - 1) {
			uint32_t w = first + 64 * k + lanes_ctz64(bits);

			if (g->mark[w] == g->stamp + 1) {
				g->meet_in = c;
				g->meet_out = w;
				return 1;
			}
			if (g->mark[w] == g->stamp || y->order.label[w] > bound)
				continue;
			g->mark[w] = g->stamp;
			g->parent[w] = c;
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
	const uint64_t *pred = pred_bits(g, y, c);
	uint32_t first = g->in_first[c];

	for (uint32_t k = 0; k < g->words_per_channel; k++)
		for (uint64_t bits = pred[k]; bits; bits &= bits - 1) {
			uint32_t w = g->ch->rev[first + 64 * k + lanes_ctz64(bits)];

			if (g->mark[w] == g->stamp) {
				g->meet_in = w;
				g->meet_out = c;
				return 1;
			}
			if (g->mark[w] == g->stamp + 1 || y->order.label[w] < bound)
				continue;
			g->mark[w] = g->stamp + 1;
			g->parent[w] = c;
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

/* chan[0..n) in layer y's order, into chan: insertion sort when short, else qsort. */
static void sort_by_label(struct lanes_cdg *g, const struct cdg_layer *y, uint32_t *chan, uint32_t n)
{
	struct channel_label *t = g->sorted;

	for (uint32_t i = 0; i < n; i++) {
		struct channel_label c = { y->order.label[chan[i]], chan[i] };
		uint32_t j = i;

		for (; n <= 32 && j > 0 && t[j - 1].label > c.label; j--)
			t[j] = t[j - 1];
		t[j] = c;
	}
	if (n > 32)
		qsort(t, n, sizeof(*t), by_label);
	for (uint32_t i = 0; i < n; i++)
		chan[i] = t[i].channel;
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
	for (uint32_t c = g->meet_in; c != v; c = g->parent[c])
		if (y->tentative[route_dependency(ch, g->parent[c], c)])
			return 1;
	for (uint32_t c = g->meet_out; c != u; c = g->parent[c])
		if (y->tentative[route_dependency(ch, c, g->parent[c])])
			return 1;
	return 0;
}

/* Refuse u -> v; searched: the searches found the cycle (else it was remembered). */
static void refuse(struct lanes_cdg *g, uint32_t layer, uint32_t u, uint32_t v, int searched)
{
	struct cdg_layer *y = &g->layers[layer];

	if (searched && (!g->new_deps || !cycle_is_tentative(g, y, u, v)))
		y->refused[dep_into(g, u, v)] = y->epoch; /* the kept graph alone closes a cycle */
	g->refused_any = 1;
	g->refused_layer = layer;
	g->refused_in = u;
	g->refused_out = v;
}

/* Set (on) or clear the bits of "in, then out" in layer y. */
static void set_bits(const struct lanes_cdg *g, struct cdg_layer *y, uint32_t in, uint32_t out, int on)
{
	uint32_t j = out - g->out_first[in], i = index_into(g, in, out);
	uint64_t *s = y->succ + (size_t)in * g->words_per_channel + j / 64, *p = pred_bits(g, y, out) + i / 64;

	*s = on ? *s | 1ull << (j % 64) : *s & ~(1ull << (j % 64));
	*p = on ? *p | 1ull << (i % 64) : *p & ~(1ull << (i % 64));
}

/*
 * Count u -> v in layer unless it closes a cycle or is known to; a new one
 * is tentative while a transaction is open. @return 1 counted, 0 refused
 */
static int add_dep(struct lanes_cdg *g, uint32_t layer, uint32_t u, uint32_t v, int in_transaction)
{
	struct cdg_layer *y = &g->layers[layer];
	uint32_t dep = route_dependency(g->ch, u, v);

	if (!is_used(g, y, u, v)) {
		if (y->refused[dep_into(g, u, v)] == y->epoch) {
			refuse(g, layer, u, v, 0);
			return 0;
		}
		if (y->order.label[u] > y->order.label[v]) {
			if (closes_cycle(g, y, u, v)) {
				refuse(g, layer, u, v, 1);
				return 0;
			}
			reorder(g, y, u, v);
		}
		set_bits(g, y, u, v, 1);
		if (in_transaction) {
			y->tentative[dep] = 1;
			g->new_deps++;
		}
	}
	y->count[dep]++;
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
	for (uint32_t i = 1; i < n; i++) {
		if (!add_dep(g, layer, chan[i - 1], chan[i], 1))
			return 0;
		g->journal[g->journal_len++] = (struct journal_entry){ layer, chan[i - 1], chan[i] };
	}
	return 1;
}

int lanes_cdg_add_dep(struct lanes_cdg *g, uint32_t layer, uint32_t in, uint32_t out)
{
	return add_dep(g, layer, in, out, 0);
}

int lanes_cdg_known_refused(const struct lanes_cdg *g, uint32_t layer, const uint32_t *chan, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++)
		if (lanes_cdg_refused(g, layer, chan[i - 1], chan[i]))
			return 1;
	return 0;
}

void lanes_cdg_keep(struct lanes_cdg *g)
{
	for (uint32_t i = 0; i < g->journal_len; i++) {
		const struct journal_entry *e = &g->journal[i];

		g->layers[e->layer].tentative[route_dependency(g->ch, e->in, e->out)] = 0;
	}
	g->journal_len = 0;
	g->new_deps = 0;
}

/* One use of "in, then out" fewer in layer y. @return 1 when it left the graph */
static int count_down(struct lanes_cdg *g, struct cdg_layer *y, uint32_t in, uint32_t out)
{
	if (--y->count[route_dependency(g->ch, in, out)])
		return 0;
	set_bits(g, y, in, out, 0);
	return 1;
}

void lanes_cdg_undo(struct lanes_cdg *g)
{
	while (g->journal_len) {
		const struct journal_entry *e = &g->journal[--g->journal_len];
		struct cdg_layer *y = &g->layers[e->layer];

		count_down(g, y, e->in, e->out);
		y->tentative[route_dependency(g->ch, e->in, e->out)] = 0;
	}
	g->new_deps = 0;
}

/* A dependency left layer y: its remembered refusals no longer hold. */
static void next_epoch(struct lanes_cdg *g, struct cdg_layer *y)
{
	if (y->epoch == UINT8_MAX) {
		memset(y->refused, 0, g->ch->ndeps + 1);
		y->epoch = 0;
	}
	y->epoch++;
}

void lanes_cdg_remove_path(struct lanes_cdg *g, uint32_t layer, const uint32_t *chan, uint32_t n)
{
	struct cdg_layer *y = &g->layers[layer];
	int left = 0;

	for (uint32_t i = 1; i < n; i++)
		left |= count_down(g, y, chan[i - 1], chan[i]);
	if (left)
		next_epoch(g, y);
}

void lanes_cdg_remove_dep(struct lanes_cdg *g, uint32_t layer, uint32_t in, uint32_t out)
{
	count_down(g, &g->layers[layer], in, out);
}

/* ------------------------------------------------------------ questions */

/* Breadth first from v through layer's dependencies to u; parent holds the tree. */
static int find_path(struct lanes_cdg *g, const struct cdg_layer *y, uint32_t v, uint32_t u)
{
	uint32_t head = 0, tail = 0;

	next_stamp(g);
	g->mark[v] = g->stamp;
	g->fwd[tail++] = v;
	while (head < tail) {
		uint32_t c = g->fwd[head++];
		const uint64_t *succ = y->succ + (size_t)c * g->words_per_channel;

		if (c == u)
			return 1;
		for (uint32_t k = 0; k < g->words_per_channel; k++)
			for (uint64_t bits = succ[k]; bits; bits &= bits - 1) {
				uint32_t w = g->out_first[c] + 64 * k + lanes_ctz64(bits);

				if (g->mark[w] == g->stamp)
					continue;
				g->mark[w] = g->stamp;
				g->parent[w] = c;
				g->fwd[tail++] = w;
			}
	}
	return 0;
}

uint32_t lanes_cdg_witness(struct lanes_cdg *g, uint32_t *out, uint32_t max)
{
	uint32_t u = g->refused_in, v = g->refused_out, len = 1;

	if (!g->refused_any || !find_path(g, &g->layers[g->refused_layer], v, u))
		return 0;
	for (uint32_t c = u; c != v; c = g->parent[c])
		len++; /* u, then the path's channels before u back to v */
	for (uint32_t c = u, i = len; i > 1; c = g->parent[c], i--)
		if (i - 1 < max)
			out[i - 1] = g->parent[c];
	if (max)
		out[0] = u;
	return len;
}

uint32_t lanes_cdg_count(const struct lanes_cdg *g, uint32_t layer, uint32_t dep)
{
	return g->layers[layer].count[dep];
}

int lanes_cdg_used(const struct lanes_cdg *g, uint32_t layer, uint32_t in, uint32_t out)
{
	return is_used(g, &g->layers[layer], in, out);
}

int lanes_cdg_refused(const struct lanes_cdg *g, uint32_t layer, uint32_t in, uint32_t out)
{
	const struct cdg_layer *y = &g->layers[layer];

	return y->refused[dep_into(g, in, out)] == y->epoch;
}

void lanes_cdg_forget_refusal(struct lanes_cdg *g, uint32_t layer, uint32_t in, uint32_t out)
{
	g->layers[layer].refused[dep_into(g, in, out)] = 0;
}

void lanes_cdg_onto(const struct lanes_cdg *g, uint32_t layer, uint32_t out, struct lanes_cdg_onto *o)
{
	const struct cdg_layer *y = &g->layers[layer];

	o->used = pred_bits(g, y, out);
	o->refused = y->refused + g->into_row[out];
	o->epoch = y->epoch;
}

/* Does layer y's list hold every channel once, labels growing? */
static int list_holds(const struct lanes_cdg *g, const struct cdg_layer *y)
{
	uint32_t seen = 0, n = g->num_channels;

	for (uint32_t c = y->order.next[n]; c != n; c = y->order.next[c], seen++)
		if (seen >= n || (y->order.next[c] != n && y->order.label[c] >= y->order.label[y->order.next[c]]))
			return 0;
	return seen == n;
}

int lanes_cdg_order_holds(const struct lanes_cdg *g, uint32_t layer)
{
	const struct lanes_fabric *f = g->ch->f;
	const struct cdg_layer *y = &g->layers[layer];

	if (!list_holds(g, y))
		return 0;
	for (uint32_t x = 0; x < f->num_switches; x++) {
		uint32_t a = f->adj_off[x], deg = f->adj_off[x + 1] - a;

		for (uint32_t i = 0; i < deg; i++)
			for (uint32_t j = 0; j < deg; j++) {
				uint32_t in = g->ch->rev[a + i], out = a + j;
				int counted = in != LANES_NONE && y->count[route_dependency(g->ch, in, out)];

				if (in != LANES_NONE &&
				    (counted != lanes_cdg_onto_bit(pred_bits(g, y, out), i) ||
				     counted != lanes_cdg_onto_bit(y->succ + (size_t)in * g->words_per_channel, j)))
					return 0; /* the bits are not the counts */
				if (counted && y->order.label[in] >= y->order.label[out])
					return 0;
			}
	}
	return 1;
}
