/*
 * nue_bundle.c - bundles of parallel cables for nue's BFS shortcut
 * (nue_level.c); no paper, a speed-up that keeps the same tables.
 *
 * A switch's adjacency entries to one neighbour y form a bundle, listed in
 * the order of the bundle's first entry. When the BFS offers a switch's
 * entries, a neighbour takes the least (distance, channel) over the open
 * ones (dependency not blocked), and within a bundle the distances differ
 * only by the load of the channel back from y. So each bundle keeps the
 * channel of least (load, number) among its entries, and the BFS looks at
 * one entry per neighbour: that one, unless its dependency is blocked (then
 * it scans the bundle). Loads only grow, and only where a tree is placed
 * (lanes_nue_search_place): a bundle picks again when its best channel's load
 * grows; any other channel only falls further behind.
 */
#include <string.h>

#include "route/nue/nue_search.h"

void lanes_nue_bundles_sync(struct nue_level *v, const uint64_t *load)
{
	v->load = load;
	for (uint32_t k = 0; k < v->nbun; k++)
		nue_bundle_pick(v, k);
}

/* The bundles of switch x: numbered from k, their sizes counted. @return past the last */
static uint32_t group(struct nue_level *v, const struct lanes_fabric *f, uint32_t x, uint32_t k,
		      uint32_t *mark, uint32_t *idx, uint32_t *ebun)
{
	for (uint32_t e = f->adj_off[x]; e < f->adj_off[x + 1]; e++) {
		uint32_t y = f->adj[e].sw;

		if (mark[y] != x + 1) {
			mark[y] = x + 1;
			idx[y] = k;
			v->bun[k].y = y;
			v->bm[k++].n = 0;
		}
		ebun[e] = idx[y];
		v->bm[idx[y]].n++;
	}
	return k;
}

/* Each bundle's channels back, in adjacency order, the least as its best (zero loads); cbun[]. */
static void fill(struct nue_level *v, const struct lanes_fabric *f, const uint32_t *rev,
		 const uint32_t *ebun, uint32_t nb)
{
	uint32_t ns = f->num_switches, m = 0;

	for (uint32_t k = 0; k < nb; k++) {
		v->bm[k].m = m;
		m += v->bm[k].n;
		v->multi |= v->bm[k].n > 1;
		v->bm[k].n = 0;
	}
	for (uint32_t x = 0; x < ns; x++)
		for (uint32_t e = f->adj_off[x], a = e, deg = f->adj_off[x + 1] - a; e < a + deg; e++) {
			uint32_t k = ebun[e], i = v->bm[k].m + v->bm[k].n++;

			v->mem[i] = rev[e];
			v->mjd[i] = (e - a) * deg;
			if (v->bm[k].n == 1 || rev[e] < v->bun[k].in)
				v->bun[k].in = rev[e], v->bun[k].jd = v->mjd[i];
		}
	for (uint32_t k = 0; k < nb; k++)
		for (uint32_t i = 0; i < v->bm[k].n; i++)
			v->cbun[v->mem[v->bm[k].m + i]] = v->bm[k].n > 1 ? k : UINT32_MAX;
	v->nbun = nb;
}

int lanes_nue_bundles_init(struct nue_level *v, const struct lanes_fabric *f, const uint32_t *rev,
		     struct route_arena *a)
{
	uint32_t ns = f->num_switches, E = f->adj_off[ns], k = 0;
	size_t e1 = (size_t)E + 1, n1 = (size_t)ns + 1;
	/* one block of 4-byte words: bun, bm, mem, mjd, cbun, boff; scratch ebun, mark, idx */
	uint32_t *w = route_alloc(a, sizeof(*w) * (10 * e1 + 3 * n1)), *ebun, *mark, *idx;

	if (!w)
		return -1;
	v->bun = (struct nue_bundle *)w;
	v->bm = (struct nue_bmem *)(w + 3 * e1);
	v->mem = w + 5 * e1;
	v->mjd = w + 6 * e1;
	v->cbun = w + 7 * e1;
	ebun = w + 8 * e1;
	v->boff = w + 9 * e1;
	mark = v->boff + n1;
	idx = mark + n1;
	memset(mark, 0, sizeof(*mark) * n1);
	for (uint32_t x = 0; x < ns; x++) {
		v->boff[x] = k;
		k = group(v, f, x, k, mark, idx, ebun);
	}
	v->boff[ns] = k;
	fill(v, f, rev, ebun, k);
	return 0;
}
