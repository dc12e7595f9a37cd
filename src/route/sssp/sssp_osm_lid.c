/*
 * sssp_osm_lid.c - one destination LID of OpenSM 3.3.23's SSSP replayed
 * (sssp_osm.c says the rules): its Dijkstra (sssp_osm_dijkstra.c), its LFT
 * column and the loads it adds; facts from osm_ucast_dfsssp.c (update_lft,
 * update_weights), no code taken from it.
 *
 * After each LID every switch adds its number of LIDs (its own and its CA
 * ports') to each channel on its path. A LID is refused (the replay
 * declines) when its Dijkstra leaves a switch of t's component unreached,
 * or gives a switch a path longer than its fewest hops.
 */
#include <string.h>

#include "route/sssp/sssp_osm.h"
#include "route/common/endports.h"
#include "route/sssp/sssp.h"

/* After a full step: the LFT column of lid; port is t's own entry. */
static void write_column(struct emu *h, uint32_t lid, uint8_t port)
{
	uint8_t *col = h->r->lft + (size_t)lid * h->ns;

	memset(col, LANES_PORT_DROP, h->ns);
	for (uint32_t k = 1; k < h->nreached; k++)
		col[h->reached[k]] = h->f->adj[h->used[h->reached[k]]].port;
	col[h->d->t] = port;
}

/* After a full step: every switch adds its LIDs to each channel on its path. */
static void add_load(struct emu *h)
{
	for (uint32_t k = 0; k < h->nreached; k++)
		h->lids_below[h->reached[k]] = h->hca[h->reached[k]];
	for (uint32_t k = h->nreached; k-- > 1;) { /* children first */
		uint32_t s = h->reached[k], e = h->used[s];

		h->load[e] += h->lids_below[s];
		h->max_load = h->load[e] > h->max_load ? h->load[e] : h->max_load;
		h->lids_below[h->nb[e]] += h->lids_below[s];
		lanes_emu_run_update(h, h->run_of[h->reverse[e]]);
	}
}

/*
 * The same after a fast step, in one pass from the leaves: each switch's
 * entry from its run (farther_used), its LIDs on that channel and on to its
 * parent, the run's load.
 */
static void finish_fast(struct emu *h, uint32_t lid, uint8_t port, const uint32_t *ord)
{
	uint8_t *col = h->r->lft + (size_t)lid * h->ns;
	const struct lanes_adj *adj = h->f->adj;
	const uint32_t *run_e0 = h->run_e0, *farther_run = h->d->farther_run;
	const uint32_t *farther_used = h->farther_used;
	const uint32_t *run_best = h->run_best, *nb = h->nb;
	uint64_t *sub = h->lids_below, *load = h->load, *run_load = h->run_load, max = h->max_load;

	memset(col, LANES_PORT_DROP, h->ns);
	memcpy(sub, h->hca, sizeof(*sub) * h->ns);
	for (uint32_t k = h->nreached; k-- > 1;) {
		uint32_t s = ord[k], run = farther_run[farther_used[s]], e = run_best[run];
		uint64_t x = sub[s], l = load[e] + x;

		col[s] = adj[e].port;
		load[e] = l;
		max = l > max ? l : max;
		sub[nb[e]] += x;
		if (run_e0[run + 1] - run_e0[run] == 1)
			run_load[run] = l;
		else
			lanes_emu_run_update(h, run);
	}
	h->max_load = max;
	col[h->d->t] = port;
}

/* After a full step: does every switch's path take its fewest hops? */
static int all_shortest(const struct emu *h)
{
	const uint32_t *row = h->d->row;

	for (uint32_t k = 1; k < h->nreached; k++) {
		uint32_t s = h->reached[k];

		if (row[h->nb[h->used[s]]] + 1 != row[s])
			return 0;
	}
	return 1;
}

/*
 * One LID: 1 when OpenSM would reach every switch of t's component by
 * shortest paths, else 0.
 */
static int route_lid(struct emu *h, uint32_t lid, uint8_t port)
{
	if (lanes_emu_fast_ok(h)) {
		lanes_emu_dijkstra_fast(h);
		h->nreached = h->d->nbfs;
		finish_fast(h, lid, port, h->d->bfs);
		return 1;
	}
	if (lanes_emu_dijkstra_full(h) != h->d->nbfs || !all_shortest(h))
		return 0;
	write_column(h, lid, port);
	add_load(h);
	return 1;
}

int lanes_emu_route_destination(struct emu *h, const struct sssp_osm_order *o, uint32_t j)
{
	const struct lanes_fabric *f = h->f;
	uint32_t t = o->seq[j];

	if (j >= o->ngroups) {
		const struct lanes_port *p0 = lanes_fabric_port(f, f->switches[t], 0);

		for (uint32_t l = 0; l < (1u << p0->lmc); l++)
			if (!route_lid(h, p0->lid + l, 0))
				return 0;
		return 1;
	}
	for (uint32_t i = o->ep_first[t]; i < o->eps->n && o->eps->ep[i].sw == t; i++) {
		const struct route_endport *ep = &o->eps->ep[i];

		for (uint32_t l = 0; l < (1u << ep->lmc); l++)
			if (!route_lid(h, ep->lid + l, ep->sw_port))
				return 0;
	}
	return 1;
}
