/*
 * nue_order.c - the order a fresh nue layer's CDG starts from; see
 * nue_order.h. No paper: the order decides only how much the CDG's
 * acyclicity check (cdg/cdg.c) has to search and reorder, never which
 * dependencies it takes. Two BFSs give every switch its hops from the
 * nearest destination switch of the layer and from the nearest escape
 * root; each channel goes into a bucket by the hops of its two ends, and
 * two stable counting sorts order the channels by (destination bucket,
 * root bucket). Deterministic: ties keep channel order.
 */
#include <string.h>

#include "core/util.h"
#include "route/nue/nue_order.h"

int lanes_nue_order_init(struct nue_order *o, const struct lanes_fabric *f, const struct route_channels *ch,
			 struct route_arena *a, struct lanes_error *err)
{
	size_t n1 = (size_t)f->num_switches + 1, E1 = (size_t)ch->E + 1;

	memset(o, 0, sizeof(*o));
	o->f = f;
	o->ch = ch;
	o->hops = route_alloc(a, sizeof(*o->hops) * 2 * n1);
	o->queue = route_alloc(a, sizeof(*o->queue) * n1);
	o->bucket = route_alloc(a, sizeof(*o->bucket) * 2 * E1);
	o->count = route_alloc(a, sizeof(*o->count) * (3 * n1 + 2)); /* a bucket stays below 3 n1 */
	o->list = route_alloc(a, sizeof(*o->list) * E1);
	o->tmp = route_alloc(a, sizeof(*o->tmp) * E1);
	if (!o->hops || !o->queue || !o->bucket || !o->count || !o->list || !o->tmp)
		return lanes_error_oom(err);
	return 0;
}

/* Hops from the nearest of the n switches src[] in hops (LANES_NONE: none in reach); @return the most. */
static uint32_t hops_from(const struct lanes_fabric *f, uint32_t *src, uint32_t n, uint32_t *hops)
{
	uint32_t most = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t x = src[i];

		for (uint32_t e = f->adj_off[x]; e < f->adj_off[x + 1]; e++)
			if (hops[f->adj[e].sw] == LANES_NONE) {
				hops[f->adj[e].sw] = hops[x] + 1;
				most = hops[x] + 1;
				src[n++] = f->adj[e].sw;
			}
	}
	return most;
}

/*
 * Channel a -> b by the hops from some sources (most at most): the
 * channels toward the sources first, from the farthest, then those between
 * switches as far, then those away from them, the nearest first; with away,
 * the other way round. @return its bucket, 0 .. 3 (most + 1)
 */
static uint32_t bucket(const uint32_t *hops, uint32_t most, uint32_t a, uint32_t b, int away)
{
	if (hops[a] == LANES_NONE || hops[b] == LANES_NONE)
		return 3 * (most + 1);
	if (hops[b] == hops[a])
		return most + 1 + hops[a];
	if ((hops[b] < hops[a]) != away)
		return away ? hops[a] : most - hops[a];
	return 2 * (most + 1) + (away ? most - hops[b] : hops[b]);
}

/* Stable counting sort of idx[0..E) by key[] (below nb) into out; count: nb + 1 counters. */
static void sort_by(const uint32_t *idx, uint32_t E, const uint32_t *key, uint32_t nb, uint32_t *count,
		    uint32_t *out)
{
	memset(count, 0, sizeof(*count) * ((size_t)nb + 1));
	for (uint32_t i = 0; i < E; i++)
		count[key[idx[i]] + 1]++;
	for (uint32_t k = 0; k < nb; k++)
		count[k + 1] += count[k];
	for (uint32_t i = 0; i < E; i++)
		out[count[key[idx[i]]]++] = idx[i];
}

/* The hops of every switch from the destination switches, then (at ns) from the roots; most[2]. */
static void both_hops(struct nue_order *o, const uint32_t *roots, uint32_t nroots, const uint8_t *want,
		      uint32_t *most)
{
	uint32_t ns = o->f->num_switches, n = 0, *hops = o->hops, *q = o->queue;

	for (uint32_t s = 0; s < 2 * ns; s++)
		hops[s] = LANES_NONE;
	for (uint32_t s = 0; s < ns; s++)
		if (want[s])
			hops[s] = 0, q[n++] = s;
	most[0] = hops_from(o->f, q, n, hops);
	for (uint32_t i = n = 0; i < nroots; i++)
		if (hops[ns + roots[i]] == LANES_NONE)
			hops[ns + roots[i]] = 0, q[n++] = roots[i];
	most[1] = hops_from(o->f, q, n, hops + ns);
}

const uint32_t *lanes_nue_order_from(struct nue_order *o, const uint32_t *roots, uint32_t nroots,
				     const uint8_t *want)
{
	const struct lanes_fabric *f = o->f;
	uint32_t ns = f->num_switches, E = o->ch->E, most[2], *key = o->bucket;

	both_hops(o, roots, nroots, want, most);
	for (uint32_t c = 0; c < E; c++) {
		uint32_t from = f->adj[o->ch->rev[c]].sw, to = f->adj[c].sw; /* nue's channels are cabled back */

		key[c] = bucket(o->hops, most[0], from, to, 1);
		key[E + c] = bucket(o->hops + ns, most[1], from, to, 0);
		o->list[c] = c;
	}
	/* by the roots' buckets, then (stable) by the destinations': the latter first */
	sort_by(o->list, E, key + E, 3 * (most[1] + 1) + 1, o->count, o->tmp);
	sort_by(o->tmp, E, key, 3 * (most[0] + 1) + 1, o->count, o->list);
	return o->list;
}
