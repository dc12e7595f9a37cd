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
	    !g->pk.slots || !g->dep || !g->succ || !g->pred || !g->head || !g->tailf)
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
		      g->bwd,  g->pk.tmp, g->pk.slots, g->succ, g->pred, g->head, g->tailf };

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
		g->ord[c] = c;
}

/* Hops from the nearest root, in lv (LANES_NONE: no root in reach); @return the most. */
static uint32_t root_hops(const struct lanes_fabric *f, const uint32_t *roots, uint32_t nroots,
			  uint32_t *lv, uint32_t *q)
{
	uint32_t n = 0, most = 0;

	for (uint32_t s = 0; s < f->num_switches; s++)
		lv[s] = LANES_NONE;
	for (uint32_t i = 0; i < nroots; i++)
		if (lv[roots[i]] == LANES_NONE) {
			lv[roots[i]] = 0;
			q[n++] = roots[i];
		}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t x = q[i];

		for (uint32_t e = f->adj_off[x]; e < f->adj_off[x + 1]; e++)
			if (lv[f->adj[e].sw] == LANES_NONE) {
				lv[f->adj[e].sw] = lv[x] + 1;
				most = lv[x] + 1;
				q[n++] = f->adj[e].sw;
			}
	}
	return most;
}

int nue_cdg_order_from(struct nue_cdg *g, const uint32_t *roots, uint32_t nroots)
{
	const struct lanes_fabric *f = g->f;
	uint32_t ns = f->num_switches, E = g->ch.E, most, nb, *lv, *q, *cnt;

	lv = malloc(sizeof(*lv) * ((size_t)ns + 1));
	q = malloc(sizeof(*q) * ((size_t)ns + 1));
	cnt = NULL;
	if (lv && q) {
		most = root_hops(f, roots, nroots, lv, q);
		nb = 3 * (most + 1) + 1;
		cnt = calloc((size_t)nb + 1, sizeof(*cnt));
	}
	if (!cnt) {
		free(lv), free(q);
		return -1;
	}
	/* bucket of channel a -> b: up by depth of a (deepest first), level, down by depth of b */
	for (uint32_t c = 0; c < E; c++) {
		uint32_t a = g->tail[c], b = f->adj[c].sw, k;

		if (lv[a] == LANES_NONE || lv[b] == LANES_NONE)
			k = 3 * (most + 1);
		else if (lv[b] < lv[a])
			k = most - lv[a];
		else if (lv[b] == lv[a])
			k = most + 1 + lv[a];
		else
			k = 2 * (most + 1) + lv[b];
		g->ord[c] = k; /* the bucket for now */
		cnt[k + 1]++;
	}
	for (uint32_t k = 0; k < nb; k++)
		cnt[k + 1] += cnt[k];
	for (uint32_t c = 0; c < E; c++)
		g->ord[c] = cnt[g->ord[c]]++;
	free(lv), free(q), free(cnt);
	return 0;
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
		route_pk_reorder(g->ord, g->ch.E, g->bwd, g->nb, g->fwd, g->nf, &g->pk);
	}
	g->dep[d] = NUE_DEP_USED;
	nue_cdg_bits(g, in, out, 1);
	return 0;
}
