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
 * lanes_emu_levels makes every switch's key and link this way, hop by hop in BFS
 * order, and returns the largest hop count of a switch u that tied (0:
 * none, t is alone at 0 hops). The caller replays the heap up to there.
 */
#include "route/sssp/sssp_osm.h"

/* What the links of one switch read and write (arrays of struct emu and emu_dest). */
struct lv {
	const uint32_t *dl, *dl_v;
	const uint64_t *run_load;
	uint64_t *fk;
	uint32_t *used_i;
};

/*
 * The links of a switch u with two runs to one neighbour (its runs lo .. hi
 * in dl; base: its key plus P^2, over its key): 1 when one ties with an
 * earlier switch's (a later run of u itself that equals one keeps port
 * order).
 */
static uint32_t relax_twice(const struct lv *a, uint32_t lo, uint32_t hi, uint64_t base)
{
	uint32_t tie = 0;

	for (uint32_t i = lo; i < hi; i++) {
		uint32_t v = a->dl_v[i], uv = a->used_i[v];
		uint64_t c = base + (a->run_load[a->dl[i]] << 32), bv = a->fk[v];
		uint32_t take = c < bv;

		tie |= (c == bv) & (uv < lo);
		a->fk[v] = take ? c : bv;
		a->used_i[v] = take ? i : uv;
	}
	return tie;
}

uint32_t lanes_emu_levels(struct emu *h)
{
	const struct emu_dest *d = h->d;
	const uint32_t *bfs = d->bfs, *row = d->row, *dl_hi = d->dl_hi;
	const struct lv a = { d->dl, d->dl_v, h->run_load, h->fkey, h->used_i };
	uint64_t *fk = h->fkey, p2 = h->p2;
	uint32_t last = 0, end = d->below[d->ecc], lo = 0;

	for (uint32_t j = 1; j < d->nbfs; j++)
		fk[bfs[j]] = UINT64_MAX;
	fk[d->t] = (uint64_t)(d->ca ? 1 : 0) << 32;
	/* the switches' runs follow one another in dl, in BFS order */
	for (uint32_t j = 0; j < end; j++) {
		uint32_t u = bfs[j], hi = dl_hi[u], hu = row[u];
		uint64_t ku = fk[u] >> 32, base = (ku + p2) << 32 | ku;

		if (h->twice[u]) {
			last = relax_twice(&a, lo, hi, base) ? hu : last;
			lo = hi;
			continue;
		}
		/* without branches: the outcomes are coin tosses */
		for (uint32_t i = lo; i < hi; i++) {
			uint32_t v = a.dl_v[i], uv = a.used_i[v];
			uint64_t c = base + (a.run_load[a.dl[i]] << 32), bv = fk[v];
			uint32_t take = c < bv;

			last = c == bv ? hu : last; /* an earlier switch, same key and sum */
			fk[v] = take ? c : bv;
			a.used_i[v] = take ? i : uv;
		}
		lo = hi;
	}
	return last;
}
