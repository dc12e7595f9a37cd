/*
 * sssp_osm_dijkstra.c - one Dijkstra of OpenSM 3.3.23's SSSP with its
 * 4-ary heap, operation for operation (facts from osm_ucast_dfsssp.c
 * dijkstra() and complib/cl_heap.c; no code taken from them).
 *
 * The heap (cl_heap, d = 4): every vertex is inserted at key 0x7FFFFFFF in
 * vertex order (equal keys do not move, so the array is that order); the
 * source's key is then set to 0. Sifting up moves an element above each
 * parent with a strictly greater key. Sifting down picks the smallest
 * child, the last of equal smallest children, and moves the element below
 * it while that child is strictly smaller. Extraction swaps the root with
 * the last element and sifts the new root down.
 *
 * The full step is OpenSM's loop: extract u; for each of u's links in port
 * order, a vertex not yet extracted takes the link if key(u) + weight is
 * strictly below its key (which then sifts up).
 *
 * The fast step (sssp_osm_dijkstra_fast.c) gives the same tree with less
 * of the heap where the loads allow.
 * The first steps (the CA's vertex and t leave the heap) do not depend on
 * the loads, so lanes_emu_dest_fill makes them once per destination switch (on
 * the helper thread, if any) and each LID starts from a copy.
 * The heap is core/heap.h's with cl_heap's rules (lanes_emu_heap_init):
 * every entry's tie is 0, so comparisons look at the key alone.
 */
#include <string.h>

#include "route/sssp/sssp_osm.h"

static inline void decrease(struct emu *h, uint32_t v, uint64_t key)
{
	h->dist[v] = key;
	lanes_emu_heap_decrease(&h->hp, v, key);
}

/* Every vertex at infinity in vertex order (the CA's last, h->start), the source at 0. */
static void heap_fill(const struct emu *h, struct lanes_heap *hp, uint32_t t, int ca)
{
	uint32_t ns = h->ns;

	hp->n = ns + (ca ? 1 : 0);
	memcpy(hp->entry, h->start.entry, sizeof(*hp->entry) * hp->n);
	memcpy(hp->pos, h->start.pos, sizeof(*hp->pos) * (ns + 1));
	lanes_emu_heap_decrease(hp, ca ? ns : t, 0);
}

uint32_t lanes_emu_dijkstra_full(struct emu *h)
{
	const struct lanes_fabric *f = h->f;
	uint32_t ns = h->ns, t = h->d->t;
	int ca = h->d->ca;

	for (uint32_t s = 0; s < ns; s++) {
		h->dist[s] = OSM_INF;
		h->done[s] = 0;
	}
	heap_fill(h, &h->hp, t, ca);
	h->dist[ca ? ns : t] = 0;
	h->done[ca ? ns : t] = 1;
	h->nreached = 0;
	while (h->hp.n) {
		uint64_t du;
		uint32_t u = lanes_emu_heap_pop(&h->hp, &du);

		if (du >= OSM_INF)
			break; /* the rest is unreached: relaxing from it cannot succeed */
		h->done[u] = 1;
		if (u == ns) { /* the CA: its one link, weight 1, to t */
			if (!h->done[t] && 1 < h->dist[t])
				decrease(h, t, 1);
			continue;
		}
		h->reached[h->nreached++] = u;
		for (uint32_t e = f->adj_off[u]; e < f->adj_off[u + 1]; e++) {
			uint32_t v = h->nb[e], back = h->reverse[e];
			uint64_t w;

			if (h->done[v])
				continue;
			w = du + h->p2 + h->load[back];
			if (w < h->dist[v]) {
				h->used[v] = back;
				decrease(h, v, w);
			}
		}
	}
	return h->nreached;
}

void lanes_emu_run_update(struct emu *h, uint32_t k)
{
	const uint32_t *rev = h->reverse;
	const uint64_t *load = h->load;
	uint32_t e1 = h->run_e0[k + 1], e = h->run_e0[k], b = rev[e];
	uint64_t best = load[b];

	for (e++; e < e1; e++) /* the first of the least */
		if (load[rev[e]] < best) {
			b = rev[e];
			best = load[b];
		}
	h->run_best[k] = b;
	h->run_load[k] = best;
}

void lanes_emu_set_runs(struct emu *h)
{
	const struct lanes_fabric *f = h->f;
	uint32_t nr = 0;

	for (uint32_t u = 0; u < h->ns; u++) {
		h->run_off[u] = nr;
		for (uint32_t e = f->adj_off[u]; e < f->adj_off[u + 1]; e++) {
			if (e == f->adj_off[u] || h->nb[e - 1] != h->nb[e]) {
				h->run_v[nr] = h->nb[e];
				h->run_e0[nr++] = e;
			}
			h->run_of[e] = nr - 1;
		}
	}
	h->run_off[h->ns] = nr;
	h->run_e0[nr] = f->adj_off[h->ns];
	for (uint32_t i = 0; i < h->ns; i++) {
		h->start.entry[i] = (struct lanes_heap_entry){ OSM_INF, 0, h->gorder[i] };
		h->start.pos[h->gorder[i]] = i;
	}
	h->start.entry[h->ns] = (struct lanes_heap_entry){ OSM_INF, 0, h->ns };
	h->start.pos[h->ns] = h->ns;
	for (uint32_t k = 0; k < nr; k++)
		lanes_emu_run_update(h, k);
}

/*
 * Hops to t by a BFS over the runs, and each switch's runs one hop farther
 * in the same pass: when u is scanned, a neighbour is one hop farther
 * exactly when its hops are u's plus one (found now or before). Once every
 * switch is found, the switches at the largest hop count have nothing
 * farther and are not scanned (nothing reads their runs).
 */
void lanes_emu_dest_fill(const struct emu *h, struct emu_dest *d, uint32_t t, int ca)
{
	uint32_t ns = h->ns, n = 1, nd = 0, hops = 0, i, *row = d->row, *bfs = d->bfs;
	uint32_t *farther_run = d->farther_run, *farther_nb = d->farther_nb;
	const uint32_t *run_off = h->run_off, *run_v = h->run_v;

	d->t = t;
	d->ca = ca;
	memset(row, 0xFF, sizeof(*row) * ns);
	row[t] = 0;
	bfs[0] = t;
	d->nearer_than[0] = 0;
	for (i = 0; i < n; i++) {
		uint32_t u = bfs[i], next = row[u] + 1;

		if (row[u] != hops)
			d->nearer_than[hops = row[u]] = i;
		if (n == ns && hops == row[bfs[n - 1]])
			break;
		d->farther_first[u] = nd;
		for (uint32_t k = run_off[u], end = run_off[u + 1]; k < end; k++) {
			uint32_t v = run_v[k];

			if (row[v] == UINT32_MAX) {
				row[v] = next;
				bfs[n++] = v;
			}
			if (row[v] == next) {
				farther_nb[nd] = v;
				farther_run[nd++] = k;
			}
		}
		d->farther_end[u] = nd;
	}
	d->nscan = i;
	d->nbfs = n;
	d->max_hops = row[bfs[n - 1]];
	/* nearer_than[0 .. max_hops]: where each hop count starts in bfs */
	d->nearer_than[d->max_hops + 1] = n;
	lanes_emu_dest_heap(h, d);
}

/* d's heap once the CA's vertex (then t at key 1) or t has left it. */
void lanes_emu_dest_heap(const struct emu *h, struct emu_dest *d)
{
	uint64_t key;

	heap_fill(h, &d->heap_at_start, d->t, d->ca);
	lanes_emu_heap_pop(&d->heap_at_start, &key);
	if (d->ca) {
		lanes_emu_heap_decrease(&d->heap_at_start, d->t, 1);
		lanes_emu_heap_pop(&d->heap_at_start, &key);
	}
}
