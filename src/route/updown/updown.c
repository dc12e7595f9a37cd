/*
 * updown.c - up* / down* routing on a total order of the switches, shared by
 * the updn, dnup and ud-dfs engines (updown.h): lanes_route_updown_lfts,
 * the batches of destination switches, and the LFT column fill with its LMC
 * passes. The candidates toward one destination switch come from
 * updown_legal.c (phases A and B) and updown_complete.c (phase C);
 * updown_graph.c sets up what they share, updown_internal.h declares it.
 *
 * The rule is Autonet's, as Sancho, Robles, Lopez, Flich, Duato state it in
 * "Routing in InfiniBand Torus Network Topologies" (ICPP 2003), section 3:
 * every link gets a direction from the order ("up" towards the switch that
 * comes first), and a legal route is zero or more up links followed by zero
 * or more down links. Up links never form a cycle (they follow a total
 * order), and a down link is never followed by an up link, so the channel
 * dependencies of legal routes are acyclic: one VL suffices.
 *
 * Balancing is minhop's (OpenSM's doc/current-routing.txt, "The basic
 * routing algorithm"; common/load.h): destinations in OpenSM's port order,
 * the least-loaded candidate per switch, CA LIDs counted, switch LIDs
 * routed after all CA LIDs and not counted, LMC passes with the search
 * starting after the previous LID's port and OpenSM's preference for a port
 * towards a system, then a node, that the port's earlier LIDs do not use
 * (lanes_route_fill_lids, load.c).
 *
 * The work. Candidates depend only on the destination switch, so they are
 * computed once per switch for all the CAs behind it, for a batch of
 * destination switches at once, one destination per worker (opts->threads),
 * and kept (within a memory budget: 4 MB plus a quarter of the LFTs) for
 * its switch LID after every CA LID and for later LMC passes. The choices
 * are then made in OpenSM's order; a switch's choice reads only its own
 * counters (and, in LMC passes, its own entries for the earlier LIDs), so
 * each worker fills every LID of the batch for its own share of the
 * switches (lanes_route_fill_lids takes a switch range). Switch LIDs, not
 * counted, go one destination per worker; one at offset 0 whose candidates are not kept (a
 * switch without CAs, without LMC) needs only each switch's least-loaded
 * candidate: the phases put it straight into the LFT column (column mode,
 * u->column), the port lanes_route_fill_lids would pick. The tables are the
 * same for any number of threads.
 *
 * With r NULL, lanes_route_updown_lfts only says whether the order leaves a
 * gap (has_gap: phases A and B, no tables), for dnup to decide before
 * routing.
 *
 * Invariants: iteration in index or order position, no global state; a
 * gap is reported only for a destination switch with CAs, the first in
 * OpenSM's order.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "core/parallel.h"
#include "lanes/route.h"
#include "lanes/routing.h"
#include "route/common/endports.h"
#include "route/common/load.h"
#include "route/common/tables.h"
#include "route/updown/updown.h"
#include "route/updown/updown_internal.h"
#include "core/util.h"

/* Destination switches whose candidates a batch computes, per worker. */
#define DESTINATIONS_PER_WORKER 32

/* One destination switch of a batch. */
struct updown_slot {
	struct route_dest dest;              /* its switch, CA ports and LIDs (in batch_lids) */
	const struct route_hop_ports *hops;  /* its candidates: computed or saved */
	const uint8_t *state;                /* the switches' ST_* toward it */
	uint32_t num_legal;                     /* hops->multi[0..num_legal) have legal routes */
	struct route_saved_hops *computed;   /* computed for this batch, or NULL */
	size_t computed_bytes;
	struct route_updown_gap gap;         /* phase C's verdict toward it */
};

struct updown_worker {
	struct updown_run *run;
	struct updown phases;        /* its state for the phases */
	struct route_switch_range share; /* the switches it fills */
	struct route_updown_gap gap; /* switch LIDs: unused verdicts */
	int out_of_memory;
	int found_gap;               /* has_gap */
	char apart[LANES_FALSE_SHARING_GAP]; /* from the next worker (core/parallel.h) */
};

struct updown_run {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	struct lanes_routing *r;
	struct updown_graph graph;
	struct route_endports eps;
	struct route_load load;
	struct route_peers peers;       /* far ends of switch ports, LMC > 0 only */
	struct route_saved_hops **saved; /* per destination switch, for a later LID, or NULL;
					   extra: the states, tag: num_legal */
	size_t save_left;               /* bytes the saved copies may still take */
	unsigned num_workers;
	struct updown_worker *workers;
	struct updown_slot *batch;      /* DESTINATIONS_PER_WORKER per worker */
	uint32_t batch_size;
	uint32_t *batch_lids;           /* the LIDs of the batch, slot after slot */
	int offset;                     /* the pass: LID base + offset */
	struct route_updown_gap *gap;   /* the caller's */
};

/* ------------------------------------------------------------ candidates per destination */

/* The phases toward t into u (u->column: column mode). check: t is a CA destination. */
static void find_candidates(struct updown *u, uint32_t t, int check)
{
	lanes_updown_legal_paths(u, t);
	if (u->num_unrouted)
		lanes_updown_complete(u, t, check);
}

/* The slot's candidates: saved, or computed into a copy of its own (none on a gap). */
static void find_slot_candidates(struct updown_worker *w, struct updown_slot *slot)
{
	const struct updown_run *run = w->run;
	const struct route_saved_hops *saved = run->saved[slot->dest.dst_switch];
	struct updown *u = &w->phases;
	size_t unlimited = SIZE_MAX;

	slot->computed = NULL;
	slot->gap.from_sw = slot->gap.to_sw = LANES_NONE;
	if (saved) {
		slot->hops = &saved->h;
		slot->state = saved->extra;
		slot->num_legal = saved->tag;
		return;
	}
	u->gap = &slot->gap;
	find_candidates(u, slot->dest.dst_switch, 1);
	if (slot->gap.from_sw != LANES_NONE)
		return;
	slot->computed = lanes_route_hop_ports_save(&u->hops, run->f->num_switches, u->state,
						    &unlimited);
	if (!slot->computed) {
		w->out_of_memory = 1;
		return;
	}
	slot->computed->tag = slot->num_legal = u->num_legal;
	slot->computed_bytes = SIZE_MAX - unlimited;
	slot->hops = &slot->computed->h;
	slot->state = slot->computed->extra;
}

/* Worker k's destinations of the batch: k, k + workers, ... */
static void find_batch_candidates(void *ctx, unsigned k)
{
	struct updown_worker *w = (struct updown_worker *)ctx + k;

	for (uint32_t q = k; q < w->run->batch_size; q += w->run->num_workers)
		find_slot_candidates(w, &w->run->batch[q]);
}

/* ------------------------------------------------------------ LFT columns of a batch */

/*
 * Count k paths on the share's switches with a single candidate (they make
 * no choice). Completed routes are never counted: OpenSM has no route
 * there, and management traffic should not move CA routes.
 */
static void count_single(struct updown_run *run, struct route_switch_range share,
			 const struct updown_slot *slot, uint32_t k)
{
	const uint8_t *one = slot->hops->one;

	for (uint32_t s = share.first; s < share.end; s++)
		if (one[s] != 0 && one[s] != LANES_PORT_DROP && slot->state[s] != ST_COMPLETED)
			route_load_of(&run->load, s)[one[s]] += k;
}

/*
 * One slot's LIDs at the share's switches: minhop's column fill (legal
 * routes counted), then the destination switch's own entries, set and
 * counted.
 */
static void fill_slot(struct updown_run *run, struct route_switch_range share,
		      const struct updown_slot *slot)
{
	uint32_t t = slot->dest.dst_switch;

	lanes_route_fill_lids(run->r->lft, run->f->num_switches, share, slot->hops, &run->load,
			      &run->peers, run->batch_lids + slot->dest.first_lid, slot->dest.num_lids,
			      run->offset, slot->num_legal);
	for (uint32_t q = slot->dest.first_endport; t >= share.first && t < share.end &&
						    q < slot->dest.end_endport; q++) {
		const struct route_endport *ep = &run->eps.ep[q];

		if (run->offset >= (1 << ep->lmc))
			continue;
		lanes_routing_set_port(run->r, t, ep->lid + (uint32_t)run->offset, ep->sw_port);
		route_load_of(&run->load, t)[ep->sw_port]++;
	}
	count_single(run, share, slot, slot->dest.num_lids);
}

/* Worker k: every slot of the batch, in order, at its own switches. */
static void fill_batch(void *ctx, unsigned k)
{
	struct updown_worker *w = (struct updown_worker *)ctx + k;

	for (uint32_t q = 0; q < w->run->batch_size; q++)
		fill_slot(w->run, w->share, &w->run->batch[q]);
}

/* A later pass or switch t's own LID will want t's candidates again. */
static int wanted_again(const struct updown_run *run, uint32_t t)
{
	const struct lanes_port *p0 = lanes_fabric_port(run->f, run->f->switches[t], 0);

	return run->offset + 1 < (1 << run->eps.max_lmc) ||
	       (run->opts->switch_lids && p0->lid && run->offset < (1 << p0->lmc));
}

/* Keep the computed candidates a later LID wants, in order, within the budget; free the rest. */
static void keep_or_free(struct updown_run *run)
{
	for (uint32_t q = 0; q < run->batch_size; q++) {
		struct updown_slot *slot = &run->batch[q];

		if (slot->computed && wanted_again(run, slot->dest.dst_switch) &&
		    slot->computed_bytes <= run->save_left) {
			run->saved[slot->dest.dst_switch] = slot->computed;
			run->save_left -= slot->computed_bytes;
		} else {
			free(slot->computed);
		}
		slot->computed = NULL;
	}
}

/* The first gap of the batch, in order, into run->gap. @return 1 if there is one */
static int first_gap(struct updown_run *run)
{
	for (uint32_t q = 0; q < run->batch_size; q++)
		if (run->batch[q].gap.from_sw != LANES_NONE) {
			*run->gap = run->batch[q].gap;
			return 1;
		}
	return 0;
}

/* The batch's candidates, then its columns. @return 0, 1 on a gap, or LANES_ENOMEM */
static int route_batch(struct updown_run *run, struct lanes_error *err)
{
	int failed = 0, gap;

	lanes_parallel_run(run->num_workers, find_batch_candidates, run->workers);
	for (unsigned k = 0; k < run->num_workers; k++)
		failed |= run->workers[k].out_of_memory;
	gap = !failed && first_gap(run);
	if (!failed && !gap)
		lanes_parallel_run(run->num_workers, fill_batch, run->workers);
	keep_or_free(run);
	if (failed)
		return lanes_error_oom(err);
	return gap;
}

/* ------------------------------------------------------------ a pass */

/* Every CA LID base + offset, in batches. @return 0, 1 on a gap, or an error */
static int route_endports(struct updown_run *run, struct lanes_error *err)
{
	uint32_t most = DESTINATIONS_PER_WORKER * run->num_workers, i = 0;
	int rc;

	lanes_progress_phase(run->opts->progress, "routing", run->eps.n);
	while (i < run->eps.n) {
		uint32_t lids = 0, first = i;

		for (run->batch_size = 0; i < run->eps.n && run->batch_size < most; run->batch_size++) {
			struct route_dest *d = &run->batch[run->batch_size].dest;

			lanes_route_take_dest(&run->eps, &i, run->offset, run->batch_lids, lids, d);
			lids += d->num_lids;
		}
		if ((rc = route_batch(run, err)))
			return rc;
		lanes_progress_add(run->opts->progress, i - first); /* end ports, as the total */
	}
	return 0;
}

/*
 * Switch t's LID lid through the fabric, not counted (it reads the counters
 * only): from t's kept candidates; else, with one pass, in column mode;
 * else from candidates computed afresh.
 */
static void route_switch_lid(struct updown_worker *w, uint32_t t, uint32_t lid)
{
	const struct updown_run *run = w->run;
	const struct route_saved_hops *saved = run->saved[t];
	uint32_t ns = run->f->num_switches;

	w->phases.gap = &w->gap;
	if (!saved && !run->eps.max_lmc) {
		w->phases.column = run->r->lft + (size_t)lid * ns;
		find_candidates(&w->phases, t, 0);
		w->phases.column = NULL;
		return;
	}
	if (!saved)
		find_candidates(&w->phases, t, 0);
	lanes_route_fill_lids(run->r->lft, ns, route_switch_share(ns, 0, 1),
			      saved ? &saved->h : &w->phases.hops, &run->load, &run->peers, &lid, 1,
			      run->offset, 0);
}

/* Switch t's LID base + offset: through the fabric (opts->switch_lids), port 0 at t. */
static void route_switch(struct updown_worker *w, uint32_t t)
{
	const struct updown_run *run = w->run;
	const struct lanes_port *p0 = lanes_fabric_port(run->f, run->f->switches[t], 0);
	uint32_t lid = p0->lid + (uint32_t)run->offset;

	if (!p0->lid || run->offset >= (1 << p0->lmc))
		return;
	if (run->opts->switch_lids)
		route_switch_lid(w, t, lid);
	lanes_routing_set_port(run->r, t, lid, 0);
}

/* Worker k: the switch LIDs of switches k, k + workers, ... (each writes its own column). */
static void route_switches(void *ctx, unsigned k)
{
	struct updown_worker *w = (struct updown_worker *)ctx + k;

	for (uint32_t t = k; t < w->run->f->num_switches; t += w->run->num_workers)
		route_switch(w, t);
}

/* One LMC pass: every CA LID base + offset, then every switch LID. @return 1 on a gap */
static int route_pass(struct updown_run *run, struct lanes_error *err)
{
	int rc = route_endports(run, err);

	if (!rc)
		lanes_parallel_run(run->num_workers, route_switches, run->workers);
	return rc;
}

/* ------------------------------------------------------------ workers and setup */

/* The workers, as opts->threads says, each with its state for the phases and its share. */
static int start_workers(struct updown_run *run, struct lanes_error *err)
{
	const struct lanes_fabric *f = run->f;
	int rc;

	run->num_workers = lanes_route_destination_workers(run->opts, f->num_switches);
	run->workers = calloc(run->num_workers, sizeof(*run->workers));
	if (!run->workers)
		return lanes_error_oom(err);
	for (unsigned k = 0; k < run->num_workers; k++) {
		struct updown_worker *w = &run->workers[k];

		w->run = run;
		w->share = route_switch_share(f->num_switches, k, run->num_workers);
		if ((rc = lanes_updown_phases_init(&w->phases, &run->graph, err)))
			return rc;
	}
	return 0;
}

static void stop_workers(struct updown_run *run)
{
	for (unsigned k = 0; run->workers && k < run->num_workers; k++)
		lanes_updown_phases_free(&run->workers[k].phases);
	free(run->workers);
}

/* The batch: slots, and room for the LIDs of its end ports (at most all of them). */
static int alloc_batch(struct updown_run *run, struct lanes_error *err)
{
	size_t slots = (size_t)DESTINATIONS_PER_WORKER * run->num_workers;

	run->batch = calloc(slots, sizeof(*run->batch));
	run->batch_lids = malloc(sizeof(uint32_t) * ((size_t)run->eps.n + 1));
	run->saved = calloc((size_t)run->f->num_switches + 1, sizeof(*run->saved));
	run->save_left = lanes_route_hop_ports_save_budget(run->f);
	if (!run->batch || !run->batch_lids || !run->saved)
		return lanes_error_oom(err);
	return 0;
}

static int prepare(struct updown_run *run, const uint32_t *pos, struct lanes_error *err)
{
	const struct lanes_fabric *f = run->f;
	int rc;

	if ((rc = lanes_route_endports_osm_order(f, &run->eps, err)) ||
	    (rc = lanes_updown_graph_init(&run->graph, f, pos, err)) ||
	    (rc = lanes_route_load_init(&run->load, f, err)) ||
	    (run->eps.max_lmc && (rc = lanes_route_peers_init(&run->peers, f, &run->load, err))))
		return rc;
	run->graph.load = &run->load;
	for (uint32_t i = 0; i < run->eps.n; i++)
		run->graph.has_ca[run->eps.ep[i].sw] = 1;
	if ((rc = start_workers(run, err)))
		return rc;
	return alloc_batch(run, err);
}

static void release(struct updown_run *run)
{
	for (uint32_t s = 0; run->saved && s < run->f->num_switches; s++)
		free(run->saved[s]);
	free(run->saved);
	free(run->batch);
	free(run->batch_lids);
	stop_workers(run);
	lanes_updown_graph_free(&run->graph);
	lanes_route_peers_free(&run->peers);
	lanes_route_load_free(&run->load);
	lanes_route_endports_free(&run->eps);
}

/* ------------------------------------------------------------ the gap check alone */

/*
 * Gap check only (r NULL): the switches with CAs, those of the end ports
 * with a LID (as lanes_route_endports_osm_order lists them), into has_ca.
 */
void lanes_updown_mark_ca_switches(const struct lanes_fabric *f, uint8_t *has_ca)
{
	for (uint32_t i = 0; i < f->num_nodes; i++) {
		const struct lanes_node *n = &f->nodes[i];

		for (uint32_t q = 1; n->type != LANES_NODE_SWITCH && q <= n->nports; q++) {
			const struct lanes_port *pt = &f->ports[n->port_base + q];

			if (pt->lid && pt->peer_node != LANES_NONE &&
			    f->nodes[pt->peer_node].type == LANES_NODE_SWITCH)
				has_ca[f->nodes[pt->peer_node].switch_index] = 1;
		}
	}
}

/*
 * Only one switch of f has no up move (the first in the order): every up*
 * path ends there, so every switch reaches every other by up* to it and
 * down* from it, and no switch lacks a legal path.
 */
static int one_top(const struct lanes_fabric *f, const uint32_t *pos)
{
	uint32_t tops = 0;

	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t e = f->adj_off[s];

		while (e < f->adj_off[s + 1] && pos[f->adj[e].sw] >= pos[s])
			e++;
		if (e == f->adj_off[s + 1] && ++tops > 1)
			return 0;
	}
	return tops == 1;
}

/* Worker k: destination switches k, k + workers, ... with CAs, until it finds a gap. */
static void find_gaps(void *ctx, unsigned k)
{
	struct updown_worker *w = (struct updown_worker *)ctx + k;
	const struct updown_graph *g = &w->run->graph;

	for (uint32_t t = k; t < g->f->num_switches && !w->found_gap; t += w->run->num_workers) {
		if (!g->has_ca[t])
			continue;
		lanes_updown_legal_paths(&w->phases, t);
		w->found_gap = w->phases.unrouted_has_ca;
	}
}

/*
 * Does some destination switch with CAs leave a switch with CAs without a
 * legal path? Not when one_top holds. Phases A and B only: a switch of t's
 * component without a legal route is always reached by phase C's BFS, so
 * route_pass reports a gap exactly when lanes_updown_legal_paths leaves
 * such a switch with CAs (unrouted_has_ca). Which gap route_pass names depends
 * on its destination order; this only says whether there is one (gap is
 * not set).
 */
static int has_gap(struct updown_run *run, const uint32_t *pos, struct lanes_error *err)
{
	int rc, found = 0;

	if (one_top(run->f, pos))
		return 0;
	if ((rc = lanes_updown_graph_init(&run->graph, run->f, pos, err)))
		return rc;
	lanes_updown_mark_ca_switches(run->f, run->graph.has_ca);
	if ((rc = start_workers(run, err)))
		return rc;
	lanes_parallel_run(run->num_workers, find_gaps, run->workers);
	for (unsigned k = 0; k < run->num_workers; k++)
		found |= run->workers[k].found_gap;
	return found;
}

/* ------------------------------------------------------------ entry */

int lanes_route_updown_lfts(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
			    const uint32_t *pos, struct lanes_routing *r,
			    struct route_updown_gap *gap, struct lanes_error *err)
{
	struct updown_run run;
	int rc;

	memset(&run, 0, sizeof(run));
	run.f = f;
	run.opts = opts;
	run.r = r;
	run.gap = gap;
	gap->from_sw = gap->to_sw = LANES_NONE;
	if (!r)
		rc = has_gap(&run, pos, err);
	else if (!(rc = prepare(&run, pos, err)))
		for (run.offset = 0; run.offset < (1 << run.eps.max_lmc) && !rc; run.offset++)
			rc = route_pass(&run, err);
	release(&run);
	return rc;
}
