/*
 * nue_bundles_fast.c - bundles of parallel cables for nue's BFS shortcut
 * (nue_fast.c, whose figure in nue_fast.h keeps both); no paper, a
 * speed-up that keeps the same tables.
 *
 * A switch x's adjacency entries to one neighbour y form a bundle, listed
 * in the order of the bundle's first entry (a single cable is a bundle of
 * one). When the BFS offers x's entries, y takes the least (distance,
 * channel) over the open channels y -> x (dependency not blocked), and
 * within a bundle the distances differ only by the load of the channel.
 * So each bundle keeps the channel of least (load, number), and the BFS
 * looks at one channel per neighbour: that one, unless its dependency is
 * blocked (then it scans the bundle). Loads only grow, and only where a
 * tree is placed (lanes_nue_search_place): a bundle picks again when its
 * best channel's load grows; any other channel only fell further behind.
 */
#include <string.h>

#include "route/nue/nue_fast.h"

void lanes_nue_bundles_sync(struct nue_fast *v, const uint64_t *load)
{
	v->load = load;
	for (uint32_t k = 0; k < v->nbundles; k++)
		nue_bundle_pick(v, k);
}

/*
 * The bundles of switch x, numbered from k, their sizes counted; per entry
 * its bundle (of_entry); last[y]: x + 1 once y has a bundle of x, and its
 * number in idx[y]. @return the number past x's last bundle
 */
static uint32_t group(struct nue_fast *v, const struct lanes_fabric *f, uint32_t x, uint32_t k,
		      uint32_t *last, uint32_t *idx, uint32_t *of_entry)
{
	for (uint32_t e = f->adj_off[x]; e < f->adj_off[x + 1]; e++) {
		uint32_t y = f->adj[e].sw;

		if (last[y] != x + 1) {
			last[y] = x + 1;
			idx[y] = k;
			v->bundle[k].neighbour = y;
			v->bundle[k++].count = 0;
		}
		of_entry[e] = idx[y];
		v->bundle[idx[y]].count++;
	}
	return k;
}

/* Each bundle's entries, in adjacency order, the least channel back as its best (zero loads). */
static void fill(struct nue_fast *v, const struct lanes_fabric *f, const uint32_t *of_entry)
{
	uint32_t first = 0;

	for (uint32_t k = 0; k < v->nbundles; k++) {
		v->bundle[k].first = first;
		first += v->bundle[k].count;
		v->parallel |= v->bundle[k].count > 1;
		v->bundle[k].count = 0;
	}
	for (uint32_t e = 0; e < f->adj_off[f->num_switches]; e++) {
		struct nue_bundle *b = &v->bundle[of_entry[e]];

		v->entry[b->first + b->count++] = e;
		if (b->count == 1 || v->rev[e] < v->rev[b->best])
			b->best = e;
	}
	for (uint32_t e = 0; e < f->adj_off[f->num_switches]; e++)
		v->bundle_of[e] = v->bundle[of_entry[e]].count > 1 ? of_entry[e] : LANES_NONE;
}

int lanes_nue_bundles_init(struct nue_fast *v, const struct lanes_fabric *f, const uint32_t *rev,
			   struct route_arena *a)
{
	uint32_t ns = f->num_switches, k = 0;
	size_t e1 = (size_t)f->adj_off[ns] + 1, n1 = (size_t)ns + 1;
	uint32_t *of_entry = route_alloc(a, sizeof(*of_entry) * e1), *last = route_zalloc(a, sizeof(*last) * n1);
	uint32_t *idx = route_alloc(a, sizeof(*idx) * n1);

	v->bundle = route_alloc(a, sizeof(*v->bundle) * e1);
	v->bundle_off = route_alloc(a, sizeof(*v->bundle_off) * n1);
	v->entry = route_alloc(a, sizeof(*v->entry) * e1);
	v->bundle_of = route_alloc(a, sizeof(*v->bundle_of) * e1);
	if (!of_entry || !last || !idx || !v->bundle || !v->bundle_off || !v->entry || !v->bundle_of)
		return -1;
	for (uint32_t x = 0; x < ns; x++) {
		v->bundle_off[x] = k;
		k = group(v, f, x, k, last, idx, of_entry);
	}
	v->bundle_off[ns] = k;
	v->nbundles = k;
	v->rev = rev;
	fill(v, f, of_entry);
	return 0;
}
