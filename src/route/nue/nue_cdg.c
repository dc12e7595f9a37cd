/*
 * nue_cdg.c - the complete channel dependency graph of one nue layer and its
 * incremental cycle check (a dynamic topological order); see nue_cdg.h for
 * the representation.
 *
 * Invariant: for every used dependency c1 -> c2, lab[c1] < lab[c2]; the
 * labels follow a list of the channels (nxt, prv). Adding c1 -> c2 with
 * lab[c1] > lab[c2]: a forward search from c2 and a backward one from c1,
 * both inside the window lab[c2] .. lab[c1], take turns (two_way()); if
 * they meet, c2 reaches c1 and c1 -> c2 closes a cycle: refused. Else the
 * side that ran out first has its whole set: B, what reaches c1 from inside
 * the window, moves (in its order) to just before c2, or F, what c2
 * reaches, to just after c1 (Marchetti-Spaccamela, Nanni, Rohnert's shift,
 * one set moved as a block). Every other channel keeps its place in the
 * list, so every used dependency stays in order: one into B comes from
 * outside the window (or it would be in B), one out of F goes outside it.
 * Moved channels take labels between their new neighbours', and all
 * channels are labelled again where that gap is too small. Only the time
 * depends on the order, never which dependencies go in. Deterministic.
 *
 * A dependency found to close a cycle is marked blocked and refused from
 * then on without a search (OpenSM's Nue keeps such a cCDG edge BLOCKED for
 * the rest of the layer too). Used dependencies are only ever taken back by
 * the search that added them, so a blocked one could at most have become
 * usable again after such a take-back: refusing it stays safe.
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "route/nue/nue_cdg.h"
#include "route/cdg/channels.h"

int lanes_nue_cdg_init(struct nue_cdg *g, const struct lanes_fabric *f, struct route_arena *a,
		 const char *who, struct lanes_error *err)
{
	uint32_t ns = f->num_switches, maxdeg = 1;
	size_t E1, n1 = (size_t)ns + 1;
	int rc;

	memset(g, 0, sizeof(*g));
	g->f = f;
	if ((rc = lanes_route_channels_init(&g->ch, f, who, err)))
		return rc;
	E1 = (size_t)g->ch.E + 1;
	for (uint32_t s = 0; s < ns; s++)
		maxdeg = f->adj_off[s + 1] - f->adj_off[s] > maxdeg ? f->adj_off[s + 1] - f->adj_off[s] : maxdeg;
	g->W = (maxdeg + 63) / 64;
	g->tail = route_alloc(a, sizeof(*g->tail) * E1);
	g->drow = route_alloc(a, sizeof(*g->drow) * E1);
	g->lab = route_alloc(a, sizeof(*g->lab) * E1);
	g->nxt = route_alloc(a, sizeof(*g->nxt) * E1);
	g->prv = route_alloc(a, sizeof(*g->prv) * E1);
	g->mark = route_zalloc(a, sizeof(*g->mark) * E1);
	g->setf = route_alloc(a, sizeof(*g->setf) * E1);
	g->setb = route_alloc(a, sizeof(*g->setb) * E1);
	g->sorted = route_alloc(a, sizeof(*g->sorted) * E1);
	g->dep = route_alloc(a, g->ch.ndeps + 1);
	g->succ = route_alloc(a, sizeof(*g->succ) * E1 * g->W);
	g->pred = route_alloc(a, sizeof(*g->pred) * E1 * g->W);
	g->head = route_alloc(a, sizeof(*g->head) * E1);
	g->tailf = route_alloc(a, sizeof(*g->tailf) * E1);
	/* the order's scratch (lanes_nue_cdg_order_from); a bucket count stays below 3 * ns + 1 */
	g->lv = route_alloc(a, sizeof(*g->lv) * 2 * n1);
	g->q = route_alloc(a, sizeof(*g->q) * n1);
	g->key = route_alloc(a, sizeof(*g->key) * 2 * E1);
	g->cnt = route_alloc(a, sizeof(*g->cnt) * (3 * n1 + 2));
	if (!g->tail || !g->drow || !g->lab || !g->nxt || !g->prv || !g->mark || !g->setf || !g->setb ||
	    !g->sorted || !g->dep || !g->succ || !g->pred || !g->head || !g->tailf || !g->lv || !g->q ||
	    !g->key || !g->cnt)
		return lanes_error_oom(err);
	for (uint32_t s = 0; s < ns; s++)
		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++) {
			g->tail[e] = s;
			g->tailf[e] = f->adj_off[s];
			g->head[e] = f->adj_off[f->adj[e].sw];
			if (g->ch.rev[e] == LANES_NONE)
				return lanes_error_set(err, LANES_EINTERNAL,
						       "%s: internal: switch adjacency is not symmetric",
						       who);
		}
	for (uint32_t e = 0; e < g->ch.E; e++) { /* e enters y = adj[e].sw by y's entry rev[e] */
		uint32_t y = f->adj[e].sw, a0 = f->adj_off[y], deg = f->adj_off[y + 1] - a0;

		g->drow[e] = (uint32_t)(g->ch.dense_off[y] + (size_t)(g->ch.rev[e] - a0) * deg) - a0;
	}
	lanes_nue_cdg_reset(g);
	return 0;
}

void lanes_nue_cdg_free(struct nue_cdg *g)
{
	lanes_route_channels_free(&g->ch); /* the arrays are the arena's */
	memset(g, 0, sizeof(*g));
}

/* The channels in the order idx[0..E): list and labels. */
static void set_order(struct nue_cdg *g, const uint32_t *idx)
{
	uint32_t E = g->ch.E, last = E; /* E: the list's sentinel */

	for (uint32_t i = 0; i < E; i++) {
		g->lab[idx[i]] = (uint64_t)(i + 1) * NUE_GAP;
		g->prv[idx[i]] = last;
		g->nxt[last] = idx[i];
		last = idx[i];
	}
	g->nxt[last] = E;
	g->prv[E] = last;
}

void lanes_nue_cdg_reset(struct nue_cdg *g)
{
	memset(g->dep, 0, g->ch.ndeps + 1);
	memset(g->succ, 0, sizeof(*g->succ) * g->ch.E * g->W);
	memset(g->pred, 0, sizeof(*g->pred) * g->ch.E * g->W);
	for (uint32_t c = 0; c < g->ch.E; c++)
		g->setf[c] = c;
	set_order(g, g->setf);
}

/* Hops from the nearest of the n switches src[] in lv (LANES_NONE: none in reach); @return the most. */
static uint32_t hops_from(const struct lanes_fabric *f, uint32_t *src, uint32_t n, uint32_t *lv)
{
	uint32_t most = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t x = src[i];

		for (uint32_t e = f->adj_off[x]; e < f->adj_off[x + 1]; e++)
			if (lv[f->adj[e].sw] == LANES_NONE) {
				lv[f->adj[e].sw] = lv[x] + 1;
				most = lv[x] + 1;
				src[n++] = f->adj[e].sw;
			}
	}
	return most;
}

/*
 * Channel a -> b by the hops lv from some sources (most at most): the
 * channels toward the sources first, from the farthest, then those between
 * switches as far, then those away from them, the nearest first; with away,
 * the other way round. @return its bucket, 0 .. 3 (most + 1)
 */
static uint32_t bucket(const uint32_t *lv, uint32_t most, uint32_t a, uint32_t b, int away)
{
	if (lv[a] == LANES_NONE || lv[b] == LANES_NONE)
		return 3 * (most + 1);
	if (lv[b] == lv[a])
		return most + 1 + lv[a];
	if ((lv[b] < lv[a]) != away)
		return away ? lv[a] : most - lv[a];
	return 2 * (most + 1) + (away ? most - lv[b] : lv[b]);
}

/* Stable counting sort of idx[0..E) by key[] (below nb) into out; cnt: nb + 1 counters. */
static void sort_by(const uint32_t *idx, uint32_t E, const uint32_t *key, uint32_t nb, uint32_t *cnt,
		    uint32_t *out)
{
	memset(cnt, 0, sizeof(*cnt) * ((size_t)nb + 1));
	for (uint32_t i = 0; i < E; i++)
		cnt[key[idx[i]] + 1]++;
	for (uint32_t k = 0; k < nb; k++)
		cnt[k + 1] += cnt[k];
	for (uint32_t i = 0; i < E; i++)
		out[cnt[key[idx[i]]]++] = idx[i];
}

void lanes_nue_cdg_order_from(struct nue_cdg *g, const uint32_t *roots, uint32_t nroots, const uint8_t *want)
{
	const struct lanes_fabric *f = g->f;
	uint32_t ns = f->num_switches, E = g->ch.E, n = 0, most[2];
	uint32_t *lv = g->lv, *q = g->q, *key = g->key, *idx = g->setf, *tmp = g->setb;

	for (uint32_t s = 0; s < 2 * ns; s++)
		lv[s] = LANES_NONE;
	for (uint32_t s = 0; s < ns; s++)
		if (want[s])
			lv[s] = 0, q[n++] = s;
	most[0] = hops_from(f, q, n, lv);
	for (uint32_t i = n = 0; i < nroots; i++)
		if (lv[ns + roots[i]] == LANES_NONE)
			lv[ns + roots[i]] = 0, q[n++] = roots[i];
	most[1] = hops_from(f, q, n, lv + ns);
	for (uint32_t c = 0; c < E; c++) {
		key[c] = bucket(lv, most[0], g->tail[c], f->adj[c].sw, 1);
		key[E + c] = bucket(lv + ns, most[1], g->tail[c], f->adj[c].sw, 0);
		idx[c] = c;
	}
	/* by the roots' buckets, then (stable) by the destinations': the latter first */
	sort_by(idx, E, key + E, 3 * (most[1] + 1) + 1, g->cnt, tmp);
	sort_by(tmp, E, key, 3 * (most[0] + 1) + 1, g->cnt, idx);
	set_order(g, idx);
}

static uint32_t next_stamp(struct nue_cdg *g)
{
	if (++g->stamp == 0) {
		memset(g->mark, 0, sizeof(*g->mark) * g->ch.E);
		g->stamp = 1;
	}
	return g->stamp;
}

/*
 * Does out reach in over used dependencies? Every channel on such a path
 * lies in the window lab[out] .. lab[in]. A forward search from out (the
 * succ bits) and a backward one from in (the pred bits) take turns, one
 * channel each; meeting is a cycle. The side that runs out first has found
 * its whole set without meeting the other: no cycle. @return 1 a cycle;
 * else 0, with *back set when the backward side (B: what reaches in, in
 * g->setb) ran out first, else the forward one (F: what out reaches, in
 * g->setf); g->nset: its size
 */
static int two_way(struct nue_cdg *g, uint32_t in, uint32_t out, int *back)
{
	const uint32_t W = g->W;
	const uint64_t *succ = g->succ, *pred = g->pred, *lab = g->lab, lb = lab[out], ub = lab[in];
	const uint32_t *head = g->head, *tailf = g->tailf, *rev = g->ch.rev;
	uint32_t *mark = g->mark, *fs = g->setf, *bs = g->setb, nf = 0, nb = 0, tf, tb;
	uint32_t sf = next_stamp(g), sb = next_stamp(g);

	if (sf > sb) /* the stamps wrapped in between */
		sf = next_stamp(g), sb = next_stamp(g);
	mark[out] = sf, fs[nf++] = out, tf = 0;
	mark[in] = sb, bs[nb++] = in, tb = 0;
	for (;;) { /* a side's set is setf[0..nf); its channels from tf on are not expanded yet */
		if (tf == nf) {
			*back = 0, g->nset = nf;
			return 0;
		}
		for (uint32_t c = fs[tf++], w = 0, a = head[c]; w < W; w++, a += 64)
			for (uint64_t m = succ[(size_t)c * W + w]; m; m &= m - 1) {
				uint32_t y = a + lanes_ctz64(m);

				if (mark[y] == sb)
					return 1;
				if (mark[y] != sf && lab[y] < ub)
					mark[y] = sf, fs[nf++] = y;
			}
		if (tb == nb) {
			*back = 1, g->nset = nb;
			return 0;
		}
		for (uint32_t c = bs[tb++], w = 0, a = tailf[c]; w < W; w++, a += 64)
			for (uint64_t m = pred[(size_t)c * W + w]; m; m &= m - 1) {
				uint32_t y = rev[a + lanes_ctz64(m)]; /* c's switch is entered by rev[e], e its entries */

				if (mark[y] == sf)
					return 1;
				if (mark[y] != sb && lab[y] > lb)
					mark[y] = sb, bs[nb++] = y;
			}
	}
}

static int by_label(const void *pa, const void *pb)
{
	const struct nue_lab *a = pa, *b = pb;

	return a->l < b->l ? -1 : a->l > b->l;
}

/* The n channels of set[] in their order (by label), in place. */
static void sort_set(struct nue_cdg *g, uint32_t *set, uint32_t n)
{
	struct nue_lab *t = g->sorted;

	for (uint32_t i = 0; i < n; i++) {
		struct nue_lab v = { g->lab[set[i]], set[i] };
		uint32_t j = i;

		for (; n <= 32 && j > 0 && t[j - 1].l > v.l; j--)
			t[j] = t[j - 1];
		t[j] = v;
	}
	if (n > 32)
		qsort(t, n, sizeof(*t), by_label);
	for (uint32_t i = 0; i < n; i++)
		set[i] = t[i].c;
}

/* Labels GAP apart in list order, from GAP. */
static void relabel(struct nue_cdg *g)
{
	uint64_t l = 0;

	for (uint32_t c = g->nxt[g->ch.E]; c != g->ch.E; c = g->nxt[c])
		g->lab[c] = l += NUE_GAP;
}

/*
 * Move the n channels of set[] (in their order) to just after p (the
 * sentinel E: the front), none of them p or p's successor; labels between
 * p's and its successor's, or all channels labelled again where the gap
 * is too small.
 */
static void move_after(struct nue_cdg *g, uint32_t p, const uint32_t *set, uint32_t n)
{
	uint32_t E = g->ch.E, *nxt = g->nxt, *prv = g->prv, q, last = p;
	uint64_t lo, hi;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t c = set[i];

		nxt[prv[c]] = nxt[c];
		prv[nxt[c]] = prv[c];
	}
	q = nxt[p];
	for (uint32_t i = 0; i < n; i++) {
		prv[set[i]] = last;
		nxt[last] = set[i];
		last = set[i];
	}
	nxt[last] = q;
	prv[q] = last;
	lo = p == E ? 0 : g->lab[p];
	hi = q != E ? g->lab[q] : lo < UINT64_MAX / 2 ? lo + (n + 1) * NUE_GAP : lo;
	if (hi - lo <= n) {
		relabel(g);
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		g->lab[set[i]] = lo + (hi - lo) / (n + 1) * (i + 1);
}

int lanes_nue_cdg_would_cycle(struct nue_cdg *g, uint32_t in, uint32_t out)
{
	size_t d = nue_cdg_dep(g, in, out);
	int back;

	if (g->dep[d] == NUE_DEP_USED || g->lab[in] < g->lab[out])
		return 0;
	if (g->dep[d] == NUE_DEP_BLOCKED)
		return 1;
	g->searches++;
	if (!two_way(g, in, out, &back))
		return 0;
	g->dep[d] = NUE_DEP_BLOCKED;
	return 1;
}

int lanes_nue_cdg_add(struct nue_cdg *g, uint32_t in, uint32_t out)
{
	size_t d = nue_cdg_dep(g, in, out);
	int back;

	if (g->dep[d] == NUE_DEP_USED)
		return 0;
	if (g->dep[d] == NUE_DEP_BLOCKED)
		return 1;
	if (g->lab[in] > g->lab[out]) {
		g->searches++;
		if (two_way(g, in, out, &back)) {
			g->dep[d] = NUE_DEP_BLOCKED;
			return 1;
		}
		if (back) { /* B (all after out) goes just before out */
			sort_set(g, g->setb, g->nset);
			move_after(g, g->prv[out], g->setb, g->nset);
		} else { /* F (all before in) goes just after in */
			sort_set(g, g->setf, g->nset);
			move_after(g, in, g->setf, g->nset);
		}
	}
	g->dep[d] = NUE_DEP_USED;
	nue_cdg_bits(g, in, out, 1);
	return 0;
}
