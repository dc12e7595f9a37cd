/*
 * sssp_osm_prep.c - what OpenSM 3.3.23's SSSP replayed (sssp_osm.c) needs
 * per destination switch before its LIDs are routed: hops, runs and heap
 * start (lanes_emu_dest_fill, sssp_osm_dijkstra.c), none of which depends on the
 * loads. So a helper thread prepares the next destination switch while
 * this one is routed (prep_pipe.c, from SSSP_THREAD_WORTH switches as opts->threads allows, as sssp_cands.c),
 * and the result does not depend on the thread. This is the emulation's
 * own speed-up; OpenSM (osm_ucast_dfsssp.c) makes each Dijkstra from
 * scratch.
 *
 * A switch with end ports is a destination twice: for them, and after
 * every such switch, for its own LIDs. Its fill does not depend on the
 * loads, so the first time keeps it for the second, packed: nbfs, max_hops,
 * nscan, nd; bfs; nearer_than; where each scanned switch's runs start in farther_run,
 * then nd; farther_run. Hops, farther_nb and the heap follow from those. The records
 * take at most KEPT_BYTES plus a quarter of the LFTs' size; a switch
 * whose record does not fit is filled again.
 */
#include <stdlib.h>
#include <string.h>

#include "route/sssp/sssp_osm.h"
#include "route/sssp/sssp.h"
#include "core/parallel.h"

#define KEPT_BYTES ((size_t)4 << 20)

static void kept_alloc(struct emu *h)
{
	size_t ns = h->ns, record = 4 + 3 * ns + 3 + h->run_off[ns];
	size_t budget = (KEPT_BYTES + (size_t)(h->f->max_lid + 1) * ns / 4) / sizeof(*h->kept);

	memset(h->kept_at, 0xFF, sizeof(*h->kept_at) * ns);
	h->kept_cap = record * h->ngroups < budget ? record * h->ngroups : budget;
	h->kept = h->kept_cap ? malloc(sizeof(*h->kept) * h->kept_cap) : NULL;
}

/*
 * keep_fill and restore_fill read d's arrays through locals: d lies in h
 * (buf), and without them the compiler reloads its pointers at every store.
 */
static void keep_fill(struct emu *h, const struct emu_dest *d)
{
	const uint32_t *bfs = d->bfs, *farther_first = d->farther_first;
	uint32_t nd = d->nscan ? d->farther_end[bfs[d->nscan - 1]] : 0, *w;
	size_t need = 4 + d->nbfs + d->max_hops + 2 + d->nscan + 1 + nd;

	if (!h->kept || h->kept_used + need > h->kept_cap)
		return;
	h->kept_at[d->t] = (uint32_t)h->kept_used;
	w = h->kept + h->kept_used;
	h->kept_used += need;
	w[0] = d->nbfs;
	w[1] = d->max_hops;
	w[2] = d->nscan;
	w[3] = nd;
	w += 4;
	memcpy(w, bfs, sizeof(*w) * d->nbfs);
	w += d->nbfs;
	memcpy(w, d->nearer_than, sizeof(*w) * (d->max_hops + 2));
	w += d->max_hops + 2;
	for (uint32_t i = 0; i < d->nscan; i++)
		w[i] = farther_first[bfs[i]];
	w[d->nscan] = nd;
	memcpy(w + d->nscan + 1, d->farther_run, sizeof(*w) * nd);
}

/* d for t's own LIDs from t's record; 0 when t has none. */
static int restore_fill(const struct emu *h, struct emu_dest *d, uint32_t t)
{
	const uint32_t *w, *run_v = h->run_v;
	uint32_t nd, *row = d->row, *bfs = d->bfs, *below = d->nearer_than;
	uint32_t *farther_first = d->farther_first, *farther_end = d->farther_end;
	uint32_t *farther_nb = d->farther_nb;

	if (!h->kept || h->kept_at[t] == UINT32_MAX)
		return 0;
	w = h->kept + h->kept_at[t];
	d->t = t;
	d->ca = 0;
	d->nbfs = w[0];
	d->max_hops = w[1];
	d->nscan = w[2];
	nd = w[3];
	w += 4;
	memcpy(bfs, w, sizeof(*w) * d->nbfs);
	w += d->nbfs;
	memcpy(below, w, sizeof(*w) * (d->max_hops + 2));
	w += d->max_hops + 2;
	memset(row, 0xFF, sizeof(*row) * h->ns);
	for (uint32_t hops = 0; hops <= d->max_hops; hops++)
		for (uint32_t i = below[hops]; i < below[hops + 1]; i++)
			row[bfs[i]] = hops;
	for (uint32_t i = 0; i < d->nscan; i++) {
		farther_first[bfs[i]] = w[i];
		farther_end[bfs[i]] = w[i + 1];
	}
	w += d->nscan + 1;
	memcpy(d->farther_run, w, sizeof(*w) * nd);
	for (uint32_t i = 0; i < nd; i++)
		farther_nb[i] = run_v[w[i]];
	lanes_emu_dest_heap(h, d);
	return 1;
}

/*
 * prep_pipe's callback: destination j into buf[j % 2], restored when kept,
 * else filled (and kept when it has end ports).
 */
static void prepare(void *arg, uint32_t j)
{
	struct emu *h = arg;
	struct emu_dest *d = &h->buf[j & 1];
	int ca = j < h->ngroups;

	if (!ca && restore_fill(h, d, h->seq[j]))
		return;
	lanes_emu_dest_fill(h, d, h->seq[j], ca);
	if (ca)
		keep_fill(h, d);
}

void lanes_emu_prep_start(struct emu *h)
{
	kept_alloc(h);
	lanes_prep_pipe_start(&h->pipe, h->nseq, lanes_threads_wanted(h->threads, h->ns, SSSP_THREAD_WORTH), prepare, h);
}
