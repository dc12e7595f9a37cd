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
	uint32_t ns = f->num_switches, E;
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
	g->dep = malloc(g->ch.ndeps + 8); /* + 7: search_forward reads rows 8 bytes at a time */
	if (!g->tail || !g->drow || !g->ord || !g->mark || !g->stk || !g->fwd || !g->bwd || !g->pk.tmp ||
	    !g->pk.slots || !g->dep)
		return oom(err);
	for (uint32_t s = 0; s < ns; s++)
		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++) {
			g->tail[e] = s;
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
	void *p[] = { g->tail, g->drow, g->dep, g->ord,    g->mark,
		      g->stk,  g->fwd, g->bwd, g->pk.tmp, g->pk.slots };

	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		free(p[i]);
	route_channels_free(&g->ch);
	memset(g, 0, sizeof(*g));
}

void nue_cdg_reset(struct nue_cdg *g)
{
	memset(g->dep, 0, g->ch.ndeps + 8);
	for (uint32_t c = 0; c < g->ch.E; c++)
		g->ord[c] = c;
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
 * The used dependencies among the first min(n, 8) bytes at p: bit 8i set when
 * byte i is NUE_DEP_USED (1; the other states, 0 and 2, have bit 0 clear).
 */
static inline uint64_t used_bytes(const uint8_t *p, uint32_t n)
{
	uint64_t v;

	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	v &= 0x0101010101010101ull;
	return n < 8 ? v & ((1ull << (8 * n)) - 1) : v;
}

/*
 * Forward search from v over used dependencies, through channels placed
 * before ub; collects them in fwd. @return 1 if it meets channel u.
 */
static int search_forward(struct nue_cdg *g, uint32_t v, uint32_t u, uint32_t ub, uint32_t st)
{
	const struct lanes_fabric *f = g->f;
	uint32_t top = 0;

	g->nf = 0;
	g->mark[v] = st;
	g->stk[top++] = v;
	g->fwd[g->nf++] = key(g, v);
	while (top) {
		uint32_t c = g->stk[--top], x = f->adj[c].sw, a = f->adj_off[x];
		uint32_t deg = f->adj_off[x + 1] - a;
		const uint8_t *row = g->dep + (uint32_t)(g->drow[c] + a);

		for (uint32_t j0 = 0; j0 < deg; j0 += 8) {
			uint64_t m = used_bytes(row + j0, deg - j0);

			for (; m; m &= m - 1) {
				uint32_t y = a + j0 + (uint32_t)(ctz64(m) >> 3);

				if (y == u)
					return 1;
				if (g->mark[y] != st && g->ord[y] < ub) {
					g->mark[y] = st;
					g->stk[top++] = y;
					g->fwd[g->nf++] = key(g, y);
				}
			}
		}
	}
	return 0;
}

/* Backward search from u through channels placed after lb; collects them in bwd. */
static void search_backward(struct nue_cdg *g, uint32_t u, uint32_t lb, uint32_t st)
{
	const struct lanes_fabric *f = g->f;
	uint32_t top = 0;

	g->nb = 0;
	g->mark[u] = st;
	g->stk[top++] = u;
	g->bwd[g->nb++] = key(g, u);
	while (top) {
		uint32_t c = g->stk[--top], x = g->tail[c], a = f->adj_off[x];
		uint32_t deg = f->adj_off[x + 1] - a;
		const uint8_t *base = g->dep + g->ch.dense_off[x] + (c - a);

		/* in-channels of x are rev[e] for the out entries e of x */
		for (uint32_t i = 0; i < deg; i++) {
			uint32_t y = g->ch.rev[a + i];

			if (base[(size_t)i * deg] != 1)
				continue;
			if (g->mark[y] != st && g->ord[y] > lb) {
				g->mark[y] = st;
				g->stk[top++] = y;
				g->bwd[g->nb++] = key(g, y);
			}
		}
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
		route_pk_reorder(g->ord, g->ch.E, g->bwd, g->nb, g->fwd, g->nf, &g->pk);
	}
	g->dep[d] = NUE_DEP_USED;
	return 0;
}
