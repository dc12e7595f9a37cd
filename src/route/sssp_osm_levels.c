/*
 * sssp_osm_levels.c - the fast step of OpenSM 3.3.23's SSSP replay
 * (sssp_osm_dijkstra.c says when it applies and why) without the heap,
 * wherever the heap's order cannot change the tree. Facts from
 * osm_ucast_dfsssp.c dijkstra() and complib/cl_heap.c; no code taken.
 *
 * In the fast step every switch at h hops leaves the heap before any at
 * h + 1, by key, and only links to switches one hop farther improve keys.
 * So a switch v's key is the least sum key(u) + P^2 + load over its links
 * from the switches u one hop nearer, whatever the order, and its link is
 * the first with that sum in the order the u leave the heap: by key, then
 * by the heap's arrangement of equal keys. Candidates compare as
 * sum << 32 | key(u) (both below 2^31), so the least is that link unless
 * two switches u tie on key and sum (two runs of one switch keep port
 * order). Only then does the heap decide, and only for the switches one
 * hop farther than the tie; keys never depend on it.
 *
 * emu_levels makes every switch's key and link this way, hop by hop in BFS
 * order, and returns the largest hop count of a switch u that tied (0:
 * none, t is alone at 0 hops). The caller replays the heap up to there.
 */
#include "sssp_osm.h"

uint32_t emu_levels(struct emu *h)
{
	const struct emu_dest *d = h->d;
	const uint32_t *dl = d->dl, *dl_v = d->dl_v, *bfs = d->bfs, *row = d->row;
	const uint32_t *dl_lo = d->dl_lo, *dl_hi = d->dl_hi;
	const uint64_t *run_load = h->run_load;
	uint64_t *fk = h->fkey, p2 = h->p2;
	uint32_t *used_i = h->used_i, last = 0, end = d->below[d->ecc];

	for (uint32_t j = 1; j < d->nbfs; j++)
		fk[bfs[j]] = UINT64_MAX;
	fk[d->t] = (uint64_t)(d->ca ? 1 : 0) << 32;
	for (uint32_t j = 0; j < end; j++) { /* without branches: the outcomes are coin tosses */
		uint32_t u = bfs[j], lo = dl_lo[u], hi = dl_hi[u], tie = 0;
		uint64_t ku = fk[u] >> 32, base = (ku + p2) << 32 | ku;

		for (uint32_t i = lo; i < hi; i++) {
			uint32_t v = dl_v[i], uv = used_i[v];
			uint64_t c = base + (run_load[dl[i]] << 32), bv = fk[v];
			uint32_t take = c < bv;

			tie |= (c == bv) & (uv < lo); /* an earlier switch, same key and sum */
			fk[v] = take ? c : bv;
			used_i[v] = take ? i : uv;
		}
		last = tie ? row[u] : last;
	}
	return last;
}
