/*
 * nue_cdg.c - the complete channel dependency graph of one nue layer and its
 * incremental cycle check (Pearce-Kelly dynamic topological order); see
 * nue_cdg.h for the representation.
 *
 * Invariant: for every used dependency c1 -> c2, ord[c1] < ord[c2]. Adding
 * c1 -> c2 with ord[c1] > ord[c2]: a forward search from c2 over channels
 * placed before c1 either meets c1 (a cycle: refused) or finds the set F; a
 * backward search from c1 over channels placed after c2 finds B; the places
 * of B and F, sorted, are handed out again, B first, each set in its old
 * order (route_pk_reorder, cdg_order.c). Channels outside B and F keep their
 * places. Deterministic.
 *
 * A dependency found to close a cycle is marked blocked and refused from
 * then on without a search (OpenSM's Nue keeps such a cCDG edge BLOCKED for
 * the rest of the layer too). Used dependencies are only ever taken back by
 * the search that added them, so a blocked one could at most have become
 * usable again after such a take-back: refusing it stays safe.
 */
#include <stdlib.h>
#include <string.h>

#include "nue_cdg.h"

static int oom(struct lanes_error *err)
{
	return lanes_error_set(err, LANES_ENOMEM, "out of memory");
}

int nue_cdg_init(struct nue_cdg *g, const struct lanes_fabric *f, const char *who,
		 struct lanes_error *err)
{
	uint32_t ns = f->num_switches, E, maxdeg = 1;
	int rc;

	memset(g, 0, sizeof(*g));
	g->f = f;
	if ((rc = route_channels_init(&g->ch, f, who, err)))
		return rc;
	E = g->ch.E;
	g->tail = malloc(sizeof(*g->tail) * ((size_t)E + 1));
	g->drow = malloc(sizeof(*g->drow) * ((size_t)E + 1));
	g->ord = malloc(sizeof(*g->ord) * ((size_t)E + 1));
	g->at = malloc(sizeof(*g->at) * ((size_t)E + 1));
	g->pb = calloc((size_t)E / 64 + 2, sizeof(*g->pb));
	g->pf = calloc((size_t)E / 64 + 2, sizeof(*g->pf));
	g->mark = calloc((size_t)E + 1, sizeof(*g->mark));
	g->stk = malloc(sizeof(*g->stk) * ((size_t)E + 1));
	g->fwd = malloc(sizeof(*g->fwd) * ((size_t)E + 1));
	g->bwd = malloc(sizeof(*g->bwd) * ((size_t)E + 1));
	g->pk.tmp = malloc(sizeof(*g->pk.tmp) * ((size_t)E + 1));
	g->pk.slots = malloc(sizeof(*g->pk.slots) * ((size_t)E + 1));
	g->dep = malloc(g->ch.ndeps + 1);
	for (uint32_t s = 0; s < ns; s++)
		maxdeg = f->adj_off[s + 1] - f->adj_off[s] > maxdeg ? f->adj_off[s + 1] - f->adj_off[s] : maxdeg;
	g->W = (maxdeg + 63) / 64;
	g->succ = malloc(sizeof(*g->succ) * ((size_t)E + 1) * g->W);
	g->pred = malloc(sizeof(*g->pred) * ((size_t)E + 1) * g->W);
	g->head = malloc(sizeof(*g->head) * ((size_t)E + 1));
	g->tailf = malloc(sizeof(*g->tailf) * ((size_t)E + 1));
	if (!g->tail || !g->drow || !g->ord || !g->mark || !g->stk || !g->fwd || !g->bwd || !g->pk.tmp ||
	    !g->pk.slots || !g->dep || !g->at || !g->pb || !g->pf || !g->succ || !g->pred || !g->head || !g->tailf)
		return oom(err);
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
	for (uint32_t e = 0; e < E; e++) { /* e enters y = adj[e].sw by y's entry rev[e] */
		uint32_t y = f->adj[e].sw, a = f->adj_off[y], deg = f->adj_off[y + 1] - a;

		g->drow[e] = (uint32_t)(g->ch.dense_off[y] + (size_t)(g->ch.rev[e] - a) * deg) - a;
	}
	nue_cdg_reset(g);
	return 0;
}

void nue_cdg_free(struct nue_cdg *g)
{
	void *p[] = { g->tail, g->drow,	   g->dep,	g->ord,	 g->mark, g->stk,  g->fwd,
		      g->bwd,  g->pk.tmp, g->pk.slots, g->succ, g->pred, g->head, g->tailf, g->at, g->pb, g->pf };

	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		free(p[i]);
	route_channels_free(&g->ch);
	memset(g, 0, sizeof(*g));
}

void nue_cdg_reset(struct nue_cdg *g)
{
	memset(g->dep, 0, g->ch.ndeps + 1);
	memset(g->succ, 0, sizeof(*g->succ) * g->ch.E * g->W);
	memset(g->pred, 0, sizeof(*g->pred) * g->ch.E * g->W);
	for (uint32_t c = 0; c < g->ch.E; c++)
		g->ord[c] = g->at[c] = c;
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

/* Stable counting sort of idx[0..E) by key[] (below nb) into out. */
static int sort_by(const uint32_t *idx, uint32_t E, const uint32_t *key, uint32_t nb, uint32_t *out)
{
	uint32_t *cnt = calloc((size_t)nb + 1, sizeof(*cnt));

	if (!cnt)
		return -1;
	for (uint32_t i = 0; i < E; i++)
		cnt[key[idx[i]] + 1]++;
	for (uint32_t k = 0; k < nb; k++)
		cnt[k + 1] += cnt[k];
	for (uint32_t i = 0; i < E; i++)
		out[cnt[key[idx[i]]]++] = idx[i];
	free(cnt);
	return 0;
}

int nue_cdg_order_from(struct nue_cdg *g, const uint32_t *roots, uint32_t nroots, const uint8_t *want)
{
	const struct lanes_fabric *f = g->f;
	uint32_t ns = f->num_switches, E = g->ch.E, n = 0, most[2];
	uint32_t *lv = malloc(sizeof(*lv) * 2 * ((size_t)ns + 1)), *q = malloc(sizeof(*q) * ((size_t)ns + 1));
	uint32_t *key = malloc(sizeof(*key) * 2 * ((size_t)E + 1)), *idx = g->stk, *tmp = g->pk.slots;
	int rc = -1;

	if (!lv || !q || !key)
		goto out;
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
	if (sort_by(idx, E, key + E, 3 * (most[1] + 1) + 1, tmp) ||
	    sort_by(tmp, E, key, 3 * (most[0] + 1) + 1, idx))
		goto out;
	for (uint32_t i = 0; i < E; i++)
		g->ord[idx[i]] = i, g->at[i] = idx[i];
	rc = 0;
out:
	free(lv), free(q), free(key);
	return rc;
}

static uint32_t next_stamp(struct nue_cdg *g)
{
	if (++g->stamp == 0) {
		memset(g->mark, 0, sizeof(*g->mark) * g->ch.E);
		g->stamp = 1;
	}
	return g->stamp;
}

/* A channel as route_pk_reorder() takes it: its place, then its number. */
static uint64_t key(const struct nue_cdg *g, uint32_t c)
{
	return (uint64_t)g->ord[c] << 32 | c;
}

static inline unsigned ctz64(uint64_t m)
{
	return (unsigned)__builtin_ctzll(m);
}

/*
 * Forward search from v over used dependencies (the succ bits), through
 * channels placed before ub; collects them in fwd. @return 1 if it meets
 * channel u.
 */
static int search_forward(struct nue_cdg *g, uint32_t v, uint32_t u, uint32_t ub, uint32_t st)
{
	const uint64_t *succ = g->succ;
	const uint32_t *head = g->head, *ord = g->ord, W = g->W;
	uint32_t *mark = g->mark, *stk = g->stk, top = 0, nf = 0;
	uint64_t *fwd = g->fwd;

	mark[v] = st;
	stk[top++] = v;
	fwd[nf++] = key(g, v);
	while (top) {
		uint32_t c = stk[--top], a = head[c];

		for (uint32_t w = 0; w < W; w++, a += 64)
			for (uint64_t m = succ[(size_t)c * W + w]; m; m &= m - 1) {
				uint32_t y = a + ctz64(m);

				if (y == u)
					return 1;
				if (mark[y] != st && ord[y] < ub) {
					mark[y] = st;
					stk[top++] = y;
					fwd[nf++] = key(g, y);
				}
			}
	}
	g->nf = nf;
	return 0;
}

/* Backward search from u (the pred bits) through channels placed after lb; collects them in bwd. */
static void search_backward(struct nue_cdg *g, uint32_t u, uint32_t lb, uint32_t st)
{
	const uint64_t *pred = g->pred;
	const uint32_t *tailf = g->tailf, *rev = g->ch.rev, *ord = g->ord, W = g->W;
	uint32_t *mark = g->mark, *stk = g->stk, top = 0, nb = 0;
	uint64_t *bwd = g->bwd;

	mark[u] = st;
	stk[top++] = u;
	bwd[nb++] = key(g, u);
	while (top) {
		uint32_t c = stk[--top], a = tailf[c];

		/* in-channels of c's switch are rev[e] for its out entries e */
		for (uint32_t w = 0; w < W; w++, a += 64)
			for (uint64_t m = pred[(size_t)c * W + w]; m; m &= m - 1) {
				uint32_t y = rev[a + ctz64(m)];

				if (mark[y] != st && ord[y] > lb) {
					mark[y] = st;
					stk[top++] = y;
					bwd[nb++] = key(g, y);
				}
			}
	}
	g->nb = nb;
}

/* Set the bits of the n keys' places, less lo, in bm. */
static void set_places(uint64_t *bm, const uint64_t *keys, uint32_t n, uint32_t lo)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = (uint32_t)(keys[i] >> 32) - lo;

		bm[p / 64] |= 1ull << (p % 64);
	}
}

/*
 * Pearce and Kelly's reordering: the places of B and F, in order, go to B
 * then F, each in its old order. Where the window lo..hi of places is
 * short against |B| + |F|, bitmaps of their places give both orders (ord's
 * inverse at names the channels) without sorting; else route_pk_reorder().
 */
static void reorder(struct nue_cdg *g, uint32_t lo, uint32_t hi)
{
	uint32_t nw = (hi - lo) / 64 + 1, nb = g->nb, n = 0, k = 0, *ch = g->pk.slots;
	uint64_t *pb = g->pb, *pf = g->pf;

	if (nw > 2 * (nb + g->nf)) {
		route_pk_reorder(g->ord, g->ch.E, g->bwd, nb, g->fwd, g->nf, &g->pk);
		for (uint32_t i = 0; i < nb; i++)
			g->at[g->ord[(uint32_t)g->bwd[i]]] = (uint32_t)g->bwd[i];
		for (uint32_t i = 0; i < g->nf; i++)
			g->at[g->ord[(uint32_t)g->fwd[i]]] = (uint32_t)g->fwd[i];
		return;
	}
	set_places(pb, g->bwd, nb, lo);
	set_places(pf, g->fwd, g->nf, lo);
	for (uint32_t w = 0; w < nw; w++) /* B, then F, each in place order */
		for (uint64_t m = pb[w]; m; m &= m - 1)
			ch[n++] = g->at[lo + w * 64 + ctz64(m)];
	for (uint32_t w = 0; w < nw; w++)
		for (uint64_t m = pf[w]; m; m &= m - 1)
			ch[n++] = g->at[lo + w * 64 + ctz64(m)];
	for (uint32_t w = 0; w < nw; w++) {
		for (uint64_t m = pb[w] | pf[w]; m; m &= m - 1) {
			uint32_t p = lo + w * 64 + ctz64(m);

			g->ord[ch[k]] = p;
			g->at[p] = ch[k++];
		}
		pb[w] = pf[w] = 0;
	}
}

int nue_cdg_would_cycle(struct nue_cdg *g, uint32_t in, uint32_t out)
{
	size_t d = nue_cdg_dep(g, in, out);

	if (g->dep[d] == NUE_DEP_USED || g->ord[in] < g->ord[out])
		return 0;
	if (g->dep[d] == NUE_DEP_BLOCKED)
		return 1;
	g->searches++;
	if (!search_forward(g, out, in, g->ord[in], next_stamp(g)))
		return 0;
	g->dep[d] = NUE_DEP_BLOCKED;
	return 1;
}

int nue_cdg_add(struct nue_cdg *g, uint32_t in, uint32_t out)
{
	size_t d = nue_cdg_dep(g, in, out);

	if (g->dep[d] == NUE_DEP_USED)
		return 0;
	if (g->dep[d] == NUE_DEP_BLOCKED)
		return 1;
	if (g->ord[in] > g->ord[out]) {
		uint32_t st = next_stamp(g);

		g->searches++;
		if (search_forward(g, out, in, g->ord[in], st)) {
			g->dep[d] = NUE_DEP_BLOCKED;
			return 1;
		}
		search_backward(g, in, g->ord[out], next_stamp(g));
		reorder(g, g->ord[out], g->ord[in]);
	}
	g->dep[d] = NUE_DEP_USED;
	nue_cdg_bits(g, in, out, 1);
	return 0;
}
