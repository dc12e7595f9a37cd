/*
 * sssp_osm_dijkstra_fast.c - the fast step of the replay of OpenSM 3.3.23's
 * SSSP Dijkstra (sssp_osm_dijkstra.c holds the heap and the full step, the
 * reference): the same tree as OpenSM's dijkstra() with less of its heap,
 * where the loads allow. Facts from osm_ucast_dfsssp.c dijkstra() and
 * complib/cl_heap.c; no code taken from them.
 *
 * The fast step gives the same tree when every key at h hops stays below
 * (h + 1) * P^2 and below infinity (lanes_emu_fast_ok: hops times the largest
 * channel load below P^2). Then:
 *  - only a link to a switch one hop farther from t can improve a key, and
 *    every switch at h hops leaves the heap before any at h + 1;
 *  - the switches at the largest hop count, max_hops, never leave before the
 *    last nearer one, and nothing is relaxed after it, so the step stops
 *    there. Their keys are always larger than the nearer switches' keys,
 *    so where they sit in the heap never moves a nearer switch (a nearer
 *    switch passes them going up and down whatever their keys, and they
 *    never pass it). So they stay at infinity in the heap and their keys
 *    and links are kept beside it: the same first strict minimum, without
 *    sifting;
 *  - consecutive cables from u to one neighbour are one check with their
 *    smallest weight (two successive sift-ups of one element end where
 *    one sift-up to the smaller key ends).
 *
 * Kept for speed, end to end (the whole lanes_route call, user CPU,
 * medians of 3 interleaved runs, dfsssp with threads 1, on a 2-core shared
 * machine): dragonfly a=16 p=8 h=8 (16,512 endpoints) 1.59 s against 4.93 s
 * with the full step for every LID, 3.1x. Tests compare the two
 * (test_sssp.c, test_dfsssp_fast_same: lanes_dfsssp_route with reference
 * set takes the full step only).
 */
#include <string.h>

#include "route/sssp/sssp_osm.h"

int lanes_emu_fast_ok(const struct emu *h)
{
	uint64_t spread = (uint64_t)h->d->max_hops * h->max_load + 1;

	return !h->full_steps_only && spread < h->p2 &&
	       (uint64_t)h->d->max_hops * h->p2 + spread < OSM_INF;
}

/*
 * u's runs in turn, each checked against the key as it stands. in_heap: a
 * lowered key goes to the heap too; not for u at max_hops - 1 hops, whose
 * neighbours farther on are the farthest switches, never taken from the heap.
 */
static void relax_runs(struct emu *h, uint32_t u, uint64_t base, int in_heap)
{
	const struct emu_dest *d = h->d;

	for (uint32_t i = d->farther_first[u]; i < d->farther_end[u]; i++) {
		uint32_t v = d->farther_nb[i];
		uint64_t w = base + h->run_load[d->farther_run[i]];

		if (w < h->dist[v]) {
			h->farther_used[v] = i;
			h->dist[v] = w;
			if (in_heap)
				lanes_emu_heap_decrease(&h->hp, v, w);
		}
	}
}

/* The switches at max_hops - 1 hops leave the heap in turn; the farthest take their keys. */
static void far_by_heap(struct emu *h)
{
	const struct emu_dest *d = h->d;

	for (uint32_t i = d->nearer_than[d->max_hops]; i < d->nbfs; i++)
		h->dist[d->bfs[i]] = OSM_INF;
	for (uint32_t k = d->nearer_than[d->max_hops - 1]; k < d->nearer_than[d->max_hops]; k++) {
		uint64_t du;
		uint32_t u = lanes_emu_heap_pop(&h->hp, &du);

		relax_runs(h, u, du + h->p2, 0);
	}
}

void lanes_emu_dijkstra_fast(struct emu *h)
{
	const struct emu_dest *d = h->d;
	uint32_t t = d->t;

	for (uint32_t s = 0; s < h->ns; s++)
		h->dist[s] = OSM_INF;
	h->dist[t] = d->ca ? 1 : 0;
	if (d->max_hops < 2) { /* t alone, or every other switch next to it */
		if (d->max_hops)
			relax_runs(h, t, h->dist[t] + h->p2, 0);
		return;
	}
	/* the heap from t's start up to the switches at max_hops - 1 hops */
	memcpy(h->hp.entry, d->heap_at_start.entry, sizeof(*h->hp.entry) * d->heap_at_start.n);
	memcpy(h->hp.pos, d->heap_at_start.pos, sizeof(*h->hp.pos) * (h->ns + 1));
	h->hp.n = d->heap_at_start.n;
	relax_runs(h, t, h->dist[t] + h->p2, 1);
	for (uint32_t k = 1; k < d->nearer_than[d->max_hops - 1]; k++) {
		uint64_t du;
		uint32_t u = lanes_emu_heap_pop(&h->hp, &du);

		relax_runs(h, u, du + h->p2, 1);
	}
	far_by_heap(h);
}
