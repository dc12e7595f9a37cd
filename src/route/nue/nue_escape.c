/*
 * nue_escape.c - escape paths of one nue layer; see nue_escape.h.
 *
 * Convex subgraph: from each destination switch a, a BFS; walking back from
 * the other destination switches in reverse BFS order collects every switch
 * on a shortest path between two of them. While |destination switches| x
 * channels exceeds HULL_WORK the subgraph is the whole component instead.
 * Centrality: Brandes' betweenness restricted to the subgraph, each source
 * counted once plus once per destination LID behind it (OpenSM counts the
 * end ports as the path endpoints they are); every HULL_STEP-th source only,
 * so that sources x channels stays under BC_WORK. Both bounds depend on the
 * input alone, so the result is deterministic. Ties: the lowest index.
 *
 * Escape dependencies, for a tree whose parent of s is reached by down[s]
 * (an adjacency entry parent -> s): up then up (s -> p, p -> its parent) for
 * every switch; down then down on the chain from the root to every wanted
 * switch; up then down at a turn (s -> p, p -> y) for y a wanted-chain child
 * of p other than s. Every tree path from a switch to a wanted switch uses
 * only these, and they are acyclic by themselves (an up*-down* order).
 */
#include <string.h>

#include "core/util.h"
#include "route/nue/nue_escape.h"

#define HULL_WORK 100000000ull
#define BC_WORK 100000000ull

int lanes_nue_escape_init(struct nue_escape *x, const struct lanes_fabric *f, struct route_arena *a,
		    struct lanes_error *err)
{
	size_t ns = (size_t)f->num_switches + 1, E = (size_t)f->adj_off[f->num_switches] + 1;

	memset(x, 0, sizeof(*x));
	x->f = f;
	x->ns = f->num_switches;
	x->down = route_alloc(a, sizeof(*x->down) * ns);
	x->onchain = route_zalloc(a, ns);
	x->q = route_alloc(a, sizeof(*x->q) * ns);
	x->dist = route_alloc(a, sizeof(*x->dist) * ns);
	x->seen = route_zalloc(a, sizeof(*x->seen) * ns);
	x->hull = route_zalloc(a, ns);
	x->sigma = route_alloc(a, sizeof(double) * ns);
	x->delta = route_alloc(a, sizeof(double) * ns);
	x->bc = route_alloc(a, sizeof(double) * ns);
	x->heap.entry = route_alloc(a, sizeof(*x->heap.entry) * (E + ns)); /* a push per entry, + root */
	x->nb = route_alloc(a, sizeof(*x->nb) * E);
	if (!x->down || !x->onchain || !x->q || !x->dist || !x->seen || !x->hull || !x->sigma ||
	    !x->delta || !x->bc || !x->heap.entry || !x->nb)
		return lanes_error_oom(err);
	for (size_t e = 0; e + 1 < E; e++)
		x->nb[e] = f->adj[e].sw;
	for (uint32_t s = 0; s < x->ns; s++)
		x->dist[s] = UINT32_MAX;
	lanes_heap_init(&x->heap, x->heap.entry, NULL, 1);
	lanes_nue_escape_clear(x);
	return 0;
}

void lanes_nue_escape_clear(struct nue_escape *x)
{
	for (uint32_t s = 0; s < x->ns; s++)
		x->down[s] = LANES_NONE;
}

/* BFS hops from s over the switches allowed (all when allow is NULL); q gets the order. */
static uint32_t bfs(struct nue_escape *x, uint32_t s, const uint8_t *allow)
{
	const struct lanes_fabric *f = x->f;
	uint32_t head = 0, tail = 0;

	x->dist[s] = 0;
	x->q[tail++] = s;
	while (head < tail) {
		uint32_t v = x->q[head++];

		for (uint32_t e = f->adj_off[v]; e < f->adj_off[v + 1]; e++) {
			uint32_t y = f->adj[e].sw;

			if (x->dist[y] == UINT32_MAX && (!allow || allow[y])) {
				x->dist[y] = x->dist[v] + 1;
				x->q[tail++] = y;
			}
		}
	}
	return tail;
}

/*
 * dist[] of the switches outside the hull during central_switch(): 0, as
 * near as the source, so that bfs_sigma() skips them with the nearer ones
 * (one compare), and back_delta() never looks for level 0 (the source's
 * delta is never read).
 */
#define OUTSIDE 0u

/*
 * Brandes' first phase from s inside the hull (the switches outside it at
 * dist OUTSIDE): BFS hops, the order in q, and sigma (shortest paths from
 * s), each switch adding its sigma to the next level's switches in BFS
 * order, one adjacency entry at a time; delta zeroed. @return the switches
 * reached
 */
static uint32_t bfs_sigma(struct nue_escape *x, uint32_t s)
{
	const uint32_t *off = x->f->adj_off, *nb = x->nb;
	uint32_t *dist = x->dist, *q = x->q, head = 0, tail = 0;
	double *sigma = x->sigma, *delta = x->delta;

	dist[s] = 0;
	sigma[s] = 1.0;
	delta[s] = 0.0;
	q[tail++] = s;
	while (head < tail) {
		uint32_t v = q[head++], dv = dist[v] + 1, end = off[v + 1];
		double sv = sigma[v];

		for (uint32_t e = off[v]; e < end; e++) {
			uint32_t y = nb[e], dy = dist[y];

			if (dy < dv) /* nearer, or outside (OUTSIDE) */
				continue;
			if (dy == dv) {
				sigma[y] += sv;
				continue;
			}
			dist[y] = dv; /* new: 0.0 + sv is sv, exactly */
			sigma[y] = sv;
			delta[y] = 0.0;
			q[tail++] = y;
		}
	}
	return tail;
}

/*
 * Brandes' second phase: delta back from the farthest, and each switch's
 * share into bc. A switch's dist goes back to UINT32_MAX once it is done
 * (clear_dist() in the same pass): the switches after it look only for
 * dist one below their own, which a done switch (as far or farther) never
 * had either. s's too.
 */
static void back_delta(struct nue_escape *x, uint32_t s, const double *tw, uint32_t cnt)
{
	const uint32_t *off = x->f->adj_off, *nb = x->nb, *q = x->q;
	uint32_t *dist = x->dist;
	const double *sigma = x->sigma;
	double *delta = x->delta, *bc = x->bc;

	for (uint32_t i = cnt; i-- > 1;) { /* level 1 passes nothing: to s alone, whose delta is unused */
		uint32_t w = q[i], dw = dist[w] - 1, end = dw ? off[w + 1] : off[w];
		double pass = (tw[w] + delta[w]) / sigma[w];

		for (uint32_t e = off[w]; e < end; e++) {
			uint32_t v = nb[e];

			if (dist[v] == dw)
				delta[v] += sigma[v] * pass;
		}
		bc[w] += (1.0 + tw[s]) * delta[w];
		dist[w] = UINT32_MAX;
	}
	dist[s] = UINT32_MAX;
}

static void clear_dist(struct nue_escape *x, uint32_t cnt)
{
	for (uint32_t i = 0; i < cnt; i++)
		x->dist[x->q[i]] = UINT32_MAX;
}

static void convex_hull(struct nue_escape *x, const uint32_t *comp, uint32_t c, const double *tw,
			uint32_t nds, uint64_t edges)
{
	const struct lanes_fabric *f = x->f;
	uint8_t *back = x->onchain; /* scratch: on a walk back to the source */
	int whole = (uint64_t)nds * edges > HULL_WORK;

	uint32_t nc = 0, nh = 0; /* switches of c; of them in the hull */

	for (uint32_t s = 0; s < x->ns; s++) {
		x->hull[s] = comp[s] == c && (tw[s] > 0 || whole);
		nc += comp[s] == c;
		nh += x->hull[s];
	}
	if (whole)
		return;
	for (uint32_t a = 0; a < x->ns && nh < nc; a++) { /* the whole component: no more to add */
		uint32_t cnt;

		if (comp[a] != c || tw[a] <= 0)
			continue;
		cnt = bfs(x, a, NULL);
		for (uint32_t i = 0; i < cnt; i++)
			back[x->q[i]] = tw[x->q[i]] > 0;
		for (uint32_t i = cnt; i-- > 1;) { /* farthest first */
			uint32_t v = x->q[i];

			if (!back[v])
				continue;
			nh += !x->hull[v];
			x->hull[v] = 1;
			for (uint32_t e = f->adj_off[v]; e < f->adj_off[v + 1]; e++)
				if (x->dist[f->adj[e].sw] + 1 == x->dist[v])
					back[f->adj[e].sw] = 1;
		}
		clear_dist(x, cnt);
	}
	memset(back, 0, x->ns);
}

static uint32_t central_switch(struct nue_escape *x, const double *tw, uint64_t edges)
{
	uint32_t nh = 0, step, seen = 0, best = LANES_NONE;

	for (uint32_t s = 0; s < x->ns; s++) {
		nh += x->hull[s];
		x->bc[s] = 0.0;
	}
	step = (uint32_t)(((uint64_t)nh * edges) / BC_WORK + 1);
	for (uint32_t s = 0; s < x->ns; s++)
		x->dist[s] = x->hull[s] ? UINT32_MAX : OUTSIDE;
	for (uint32_t s = 0; s < x->ns; s++) {
		uint32_t cnt;

		if (!x->hull[s] || seen++ % step)
			continue;
		cnt = bfs_sigma(x, s);
		back_delta(x, s, tw, cnt);
	}
	for (uint32_t s = 0; s < x->ns; s++)
		x->dist[s] = UINT32_MAX;
	for (uint32_t s = 0; s < x->ns; s++)
		if (x->hull[s] && (best == LANES_NONE || x->bc[s] > x->bc[best]))
			best = s;
	return best;
}

uint32_t lanes_nue_escape_root(struct nue_escape *x, const uint32_t *comp, uint32_t c,
			 const double *tw, uint32_t nds, uint64_t edges)
{
	convex_hull(x, comp, c, tw, nds, edges);
	return central_switch(x, tw, edges);
}

void lanes_nue_escape_tree(struct nue_escape *x, uint32_t root, const uint64_t *load, uint64_t w0)
{
	const struct lanes_fabric *f = x->f;
	struct lanes_heap_entry h;

	x->stamp++;
	x->heap.n = 0;
	/* entries (distance, switch, the entry parent -> switch); lazy: a switch settles once */
	lanes_heap_push(&x->heap, 0, root, LANES_NONE);
	while (lanes_heap_pop(&x->heap, &h)) {
		uint32_t s = h.tie;

		if (x->seen[s] == x->stamp)
			continue;
		x->seen[s] = x->stamp;
		x->down[s] = h.id;
		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++)
			if (x->seen[f->adj[e].sw] != x->stamp)
				lanes_heap_push(&x->heap, h.key + w0 + load[e], f->adj[e].sw, e);
	}
}

/*
 * Use a dependency even if an earlier search found it blocked: check it
 * again. @return 1 when it closes a cycle, else 0
 */
static int reserve(struct lanes_cdg *cdg, uint32_t layer, uint32_t in, uint32_t out)
{
	if (lanes_cdg_used(cdg, layer, in, out))
		return 0; /* once is enough: nothing takes escape dependencies back */
	lanes_cdg_forget_refusal(cdg, layer, in, out);
	return !lanes_cdg_add_dep(cdg, layer, in, out);
}

/* The switch channel c leaves (every channel of nue's is cabled back). */
static uint32_t tail_of(const struct nue_escape *x, const struct route_channels *ch, uint32_t c)
{
	return x->f->adj[ch->rev[c]].sw;
}

int lanes_nue_escape_mark(struct nue_escape *x, struct lanes_cdg *cdg, uint32_t layer,
			  const struct route_channels *ch, const uint8_t *want)
{
	const struct lanes_fabric *f = x->f;

	memset(x->onchain, 0, x->ns);
	for (uint32_t t = 0; t < x->ns; t++)
		for (uint32_t v = t; want[t] && !x->onchain[v];) {
			x->onchain[v] = 1;
			if (x->down[v] == LANES_NONE)
				break;
			v = tail_of(x, ch, x->down[v]);
		}
	for (uint32_t s = 0; s < x->ns; s++) {
		uint32_t d = x->down[s], p, up;

		if (d == LANES_NONE)
			continue;
		p = tail_of(x, ch, d);
		up = ch->rev[d];
		if (x->down[p] != LANES_NONE) {
			if (reserve(cdg, layer, up, ch->rev[x->down[p]]))
				return 1;
			if (x->onchain[s] && reserve(cdg, layer, x->down[p], d))
				return 1;
		}
		for (uint32_t e = f->adj_off[p]; e < f->adj_off[p + 1]; e++) {
			uint32_t y = f->adj[e].sw;

			if (y != s && x->down[y] == e && x->onchain[y] && reserve(cdg, layer, up, e))
				return 1;
		}
	}
	return 0;
}
