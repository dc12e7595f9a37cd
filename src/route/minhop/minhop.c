/*
 * minhop.c - OpenSM's default routing engine, Min Hop, as OpenSM's
 * doc/current-routing.txt describes it ("Min Hop Algorithm" and "The basic
 * routing algorithm"), with the behaviour of OpenSM 3.3.23: osm_ucast_mgr.c
 * (osm_ucast_mgr_build_lid_matrices, ucast_mgr_build_lfts,
 * ucast_mgr_process_tbl, ucast_mgr_process_port) and osm_switch.c
 * (osm_switch_recommend_path).
 *
 * 1. Min-hop tables: hops from every switch port to every switch. Here the
 *    all-pairs switch distance matrix; a port is a min-hop port toward switch
 *    t when its neighbour is one hop closer to t (common/load.h).
 * 2. For every switch, destination LIDs are taken in OpenSM's port order
 *    (lanes_route_endports_osm_order: CA and router ports behind switches
 *    sorted by switch load, then switch LIDs). A CA LID maps, at the switch
 *    the CA is cabled to, to that port; elsewhere to the min-hop port toward
 *    that switch with the fewest LIDs routed through it so far, ties to the
 *    lowest port number; the chosen port's counter then goes up by one. A
 *    switch's own LID maps to port 0; other switch LIDs take the
 *    least-loaded min-hop port but, as in OpenSM (port_profile_switch_nodes
 *    off), are not counted, so they see the counters left by all the CA
 *    LIDs. Unreachable destinations stay LANES_PORT_DROP (OpenSM's
 *    OSM_NO_PATH).
 *
 * The work. The CA ports behind one switch t are consecutive in the order,
 * so t's min-hop ports are computed once for all of them. They depend on t
 * alone, so they are computed for a batch of destination switches at once,
 * one worker per thread (opts->threads). The choices then are made in
 * OpenSM's order, but a switch's choice reads only its own counters, so
 * each worker fills every LID of the batch in order for its own share of
 * the switches (lanes_route_fill_lids takes a switch range). The tables
 * are the same for any number of threads. Before that, the workers set
 * every LFT entry to "drop", each a run of the table (common/tables.h),
 * and compute the distances (fabric/distance.h). Switch LIDs, not counted,
 * depend on nothing but the counters the CA LIDs left, and are filled one
 * destination per worker; with one
 * pass (LMC 0), where many switches have no CAs (fat trees: want_fast),
 * minhop_fast.c answers them for all destinations at once, switch by
 * switch, instead.
 *
 * opts->switch_lids = 0: switch LIDs are not routed through the fabric (they
 * stay LANES_PORT_DROP) except that each switch keeps its own LID on port 0,
 * which is what makes it a switch. Since OpenSM never counts switch-LID
 * paths, every CA LID entry is the same either way.
 *
 * LMC > 0: LIDs are routed in OpenSM's passes (every port's base LID, then
 * every base + 1, ...; ucast_mgr_process_tbl), and LID base + i, i > 0, of
 * a CA port takes OpenSM's LMC preference (current-routing.txt's rules
 * a-d; osm_switch_recommend_path with routing_for_lmc): the scan starts
 * after the port chosen for base + i - 1 (ucast_mgr_process_port's
 * start_from), and a least-loaded port towards a system image GUID, else a
 * node, that base .. base + i - 1 do not leave by comes first
 * (lanes_route_fill_lids, load.c). Every CA LID is counted, the extra ones
 * too. Those passes read the switch's own entries for the earlier LIDs,
 * which its worker wrote, so they split among the workers as well.
 *
 * Result: uniform SL 0 and no SL2VL maps (one VL). Min Hop is not
 * deadlock-free: it makes credit loops on rings, tori and dragonflies.
 *
 * lanes_minhop_route_narrowed: OpenSM's dor is this engine with one change
 * to the candidates (osm_switch_recommend_path with dor), so dor/dor.c
 * passes a narrow function that drops ports from each destination switch's
 * min-hop ports right after they are computed, and LIDs base + i, i > 0,
 * take dor's LMC preference (load.c, dor_choose); the rest is the same.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "core/parallel.h"
#include "fabric/distance.h"
#include "route/cdg/cdg.h"
#include "route/common/endports.h"
#include "route/common/load.h"
#include "route/common/tables.h"
#include "route/engines.h"
#include "route/minhop/minhop.h"
#include "route/minhop/minhop_fast.h"
#include "core/util.h"

/* Destination switches whose min-hop ports a batch computes, per worker. */
#define DESTINATIONS_PER_WORKER 32

/* One destination switch of a batch. */
struct minhop_slot {
	struct route_dest dest;              /* its switch, CA ports and LIDs (in batch_lids) */
	const struct route_hop_ports *hops;  /* its min-hop ports: computed or saved */
	struct route_saved_hops *computed;   /* computed for this batch, or NULL */
	size_t computed_bytes;
};

struct minhop_worker {
	struct minhop *m;
	struct route_hop_ports hops;  /* min-hop ports toward one switch */
	struct route_switch_range share; /* the switches it fills */
	struct minhop_fast fast;      /* minhop_fast.c's scratch, or unused */
	int out_of_memory;
	char apart[LANES_FALSE_SHARING_GAP]; /* from the next worker (core/parallel.h) */
};

struct minhop {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	struct lanes_routing *r;
	uint8_t *dist;                  /* all-pairs switch hops */
	struct route_endports eps;      /* CA and router ports in OpenSM's order */
	struct route_load load;         /* paths per (switch, port) */
	struct route_peers peers;       /* far ends of switch ports, LMC > 0 only */
	struct route_saved_hops **saved; /* per destination switch, for a later LID, or NULL */
	size_t save_left;               /* bytes the saved copies may still take */
	struct route_cdg_check *check;  /* or NULL */
	lanes_minhop_narrow_fn narrow;  /* or NULL (lanes_minhop_route_narrowed) */
	int fast_switch_lids;           /* switch LIDs by minhop_fast.c (want_fast) */
	unsigned num_workers;
	struct minhop_worker *workers;
	struct minhop_slot *batch;      /* DESTINATIONS_PER_WORKER per worker */
	uint32_t batch_size;
	uint32_t *batch_lids;           /* the LIDs of the batch, slot after slot */
	int offset;                     /* the pass: LID base + offset */
};

/* ------------------------------------------------------------ a batch of CA groups */

/* A later pass or switch t's own LID will want t's min-hop ports again. */
static int wanted_again(const struct minhop *m, uint32_t t)
{
	const struct lanes_port *p0 = lanes_fabric_port(m->f, m->f->switches[t], 0);

	return m->offset + 1 < (1 << m->eps.max_lmc) ||
	       (m->opts->switch_lids && !m->fast_switch_lids && p0->lid &&
		m->offset < (1 << p0->lmc));
}

/* The min-hop ports toward the slot's switch: saved, or computed into a copy of its own. */
static void find_slot_hops(struct minhop_worker *w, struct minhop_slot *slot)
{
	const struct minhop *m = w->m;
	uint32_t t = slot->dest.dst_switch;
	size_t unlimited = SIZE_MAX;

	slot->computed = NULL;
	slot->hops = m->saved[t] ? &m->saved[t]->h : NULL;
	if (slot->hops)
		return;
	lanes_route_hop_ports_fill(&w->hops, m->f, t, m->dist + (size_t)t * m->f->num_switches);
	if (m->narrow)
		m->narrow(&w->hops, m->f);
	slot->computed = lanes_route_hop_ports_save(&w->hops, m->f->num_switches, NULL, &unlimited);
	slot->computed_bytes = SIZE_MAX - unlimited;
	if (slot->computed)
		slot->hops = &slot->computed->h;
	else
		w->out_of_memory = 1;
}

/* Worker k's destinations of the batch: k, k + workers, ... */
static void find_batch_hops(void *ctx, unsigned k)
{
	struct minhop_worker *w = (struct minhop_worker *)ctx + k;

	for (uint32_t q = k; q < w->m->batch_size; q += w->m->num_workers)
		find_slot_hops(w, &w->m->batch[q]);
}

/* Count k paths on the share's switches with a single min-hop port (they make no choice). */
static void count_single(struct minhop *m, struct route_switch_range share,
			 const struct route_hop_ports *hops, uint32_t k)
{
	for (uint32_t s = share.first; s < share.end; s++)
		if (hops->one[s] != 0 && hops->one[s] != LANES_PORT_DROP)
			route_load_of(&m->load, s)[hops->one[s]] += k;
}

/*
 * One slot's LIDs at the share's switches: the columns (lanes_route_fill_lids,
 * all counted), then the destination switch's own entries, set and counted.
 */
static void fill_slot(struct minhop *m, struct route_switch_range share, const struct minhop_slot *slot)
{
	const uint32_t *lids = m->batch_lids + slot->dest.first_lid;
	uint32_t t = slot->dest.dst_switch;

	lanes_route_fill_lids(m->r->lft, m->f->num_switches, share, slot->hops, &m->load, &m->peers,
			      lids, slot->dest.num_lids, m->offset, slot->hops->nmulti);
	for (uint32_t q = slot->dest.first_endport; t >= share.first && t < share.end &&
						    q < slot->dest.end_endport; q++) {
		const struct route_endport *ep = &m->eps.ep[q];

		if (m->offset >= (1 << ep->lmc))
			continue;
		lanes_routing_set_port(m->r, t, ep->lid + (uint32_t)m->offset, ep->sw_port);
		route_load_of(&m->load, t)[ep->sw_port]++;
	}
	count_single(m, share, slot->hops, slot->dest.num_lids);
}

/* Worker k: every slot of the batch, in order, at its own switches. */
static void fill_batch(void *ctx, unsigned k)
{
	struct minhop_worker *w = (struct minhop_worker *)ctx + k;

	for (uint32_t q = 0; q < w->m->batch_size; q++)
		fill_slot(w->m, w->share, &w->m->batch[q]);
}

/* Keep the computed ports a later LID wants, in order, within the budget; free the rest. */
static void keep_or_free(struct minhop *m)
{
	for (uint32_t q = 0; q < m->batch_size; q++) {
		struct minhop_slot *slot = &m->batch[q];

		if (slot->computed && wanted_again(m, slot->dest.dst_switch) &&
		    slot->computed_bytes <= m->save_left) {
			m->saved[slot->dest.dst_switch] = slot->computed;
			m->save_left -= slot->computed_bytes;
		} else {
			free(slot->computed);
		}
		slot->computed = NULL;
	}
}

/* Each LID of the batch through the check, in order. @return 1 once a cycle is found */
static int check_batch(struct minhop *m)
{
	for (uint32_t q = 0; q < m->batch_size; q++) {
		const struct minhop_slot *slot = &m->batch[q];

		for (uint32_t j = 0; j < slot->dest.num_lids; j++)
			if (!lanes_route_cdg_check_lid(m->check, m->r,
						       m->batch_lids[slot->dest.first_lid + j]))
				return 1;
		if (lanes_route_cdg_check_cyclic(m->check))
			return 1;
	}
	return 0;
}

/* The batch's min-hop ports, then its columns. @return 0, 1 on a cycle, or LANES_ENOMEM */
static int route_batch(struct minhop *m, struct lanes_error *err)
{
	int failed = 0, cyclic;

	lanes_parallel_run(m->num_workers, find_batch_hops, m->workers);
	for (unsigned k = 0; k < m->num_workers; k++)
		failed |= m->workers[k].out_of_memory;
	if (!failed)
		lanes_parallel_run(m->num_workers, fill_batch, m->workers);
	cyclic = !failed && m->check && check_batch(m);
	keep_or_free(m);
	if (failed)
		return lanes_error_oom(err);
	return cyclic;
}

/* ------------------------------------------------------------ a pass */

/* Every CA LID base + offset, in batches. @return 0, 1 on a cycle, or an error */
static int route_endports(struct minhop *m, struct lanes_error *err)
{
	uint32_t most = DESTINATIONS_PER_WORKER * m->num_workers, i = 0;
	int rc;

	lanes_progress_phase(m->opts->progress, "routing", m->eps.n);
	while (i < m->eps.n) {
		uint32_t lids = 0, first = i;

		for (m->batch_size = 0; i < m->eps.n && m->batch_size < most; m->batch_size++) {
			struct route_dest *d = &m->batch[m->batch_size].dest;

			lanes_route_take_dest(&m->eps, &i, m->offset, m->batch_lids, lids, d);
			lids += d->num_lids;
		}
		if ((rc = route_batch(m, err)))
			return rc;
		lanes_progress_add(m->opts->progress, i - first); /* end ports, as the total */
	}
	return 0;
}

/* Switch t's LID base + offset (not counted: it reads the counters only). */
static void route_switch(struct minhop_worker *w, uint32_t t)
{
	const struct minhop *m = w->m;
	const struct lanes_port *p0 = lanes_fabric_port(m->f, m->f->switches[t], 0);
	uint32_t lid = p0->lid + (uint32_t)m->offset;
	const struct route_hop_ports *hops = &w->hops;

	if (!p0->lid || m->offset >= (1 << p0->lmc))
		return;
	if (m->opts->switch_lids) {
		if (m->saved[t]) {
			hops = &m->saved[t]->h;
		} else {
			lanes_route_hop_ports_fill(&w->hops, m->f, t,
						   m->dist + (size_t)t * m->f->num_switches);
			if (m->narrow)
				m->narrow(&w->hops, m->f);
		}
		lanes_route_fill_lids(m->r->lft, m->f->num_switches,
				      route_switch_share(m->f->num_switches, 0, 1), hops, &m->load, &m->peers,
				      &lid, 1, m->offset, 0);
	}
	lanes_routing_set_port(m->r, t, lid, 0);
}

/* Worker k: the switch LIDs of switches k, k + workers, ... (each writes its own column). */
static void route_switches(void *ctx, unsigned k)
{
	struct minhop_worker *w = (struct minhop_worker *)ctx + k;

	for (uint32_t t = k; t < w->m->f->num_switches; t += w->m->num_workers)
		route_switch(w, t);
}

/*
 * Worker k: minhop_fast.c's switch LIDs at blocks k, k + workers, ... of 64
 * switches (a fat tree's levels cost differently, and whole blocks keep the
 * workers' bytes of a column apart).
 */
static void route_switches_fast(void *ctx, unsigned k)
{
	struct minhop_worker *w = (struct minhop_worker *)ctx + k;
	uint32_t ns = w->m->f->num_switches;

	for (uint32_t first = 64 * k; first < ns; first += 64 * w->m->num_workers)
		lanes_minhop_fast_switch_lids(&w->fast, w->m->f, w->m->dist, &w->m->load,
					      w->m->r, first, first + 64 < ns ? first + 64 : ns);
}

/* One of OpenSM's LMC passes: every port's LID base + offset. @return as route_endports */
static int route_pass(struct minhop *m, struct lanes_error *err)
{
	int rc = route_endports(m, err);

	if (rc)
		return rc;
	lanes_parallel_run(m->num_workers,
			   m->fast_switch_lids ? route_switches_fast : route_switches, m->workers);
	return 0;
}

/* ------------------------------------------------------------ setup */

static int set_notes(struct lanes_routing *r, struct lanes_error *err)
{
	static const char notes[] =
		"minhop: OpenSM 3.3.23 Min Hop; shortest paths, least-loaded port per "
		"switch; not deadlock-free";

	r->notes = malloc(sizeof(notes));
	if (!r->notes)
		return lanes_error_oom(err);
	memcpy(r->notes, notes, sizeof(notes));
	return 0;
}

/* The workers (prepare counts them, as opts->threads says); minhop_fast.c's scratch where used. */
static int start_workers(struct minhop *m, struct lanes_error *err)
{
	const struct lanes_fabric *f = m->f;
	int rc;

	m->workers = calloc(m->num_workers, sizeof(*m->workers));
	if (!m->workers)
		return lanes_error_oom(err);
	for (unsigned k = 0; k < m->num_workers; k++) {
		struct minhop_worker *w = &m->workers[k];

		w->m = m;
		w->share = route_switch_share(f->num_switches, k, m->num_workers);
		if ((rc = lanes_route_hop_ports_init(&w->hops, f, err)) ||
		    (m->fast_switch_lids && (rc = lanes_minhop_fast_init(&w->fast, f, err))))
			return rc;
	}
	return 0;
}

static void stop_workers(struct minhop *m)
{
	for (unsigned k = 0; m->workers && k < m->num_workers; k++) {
		lanes_route_hop_ports_free(&m->workers[k].hops);
		lanes_minhop_fast_free(&m->workers[k].fast);
	}
	free(m->workers);
}

/* The batch: slots, and room for the LIDs of its end ports (at most all of them). */
static int alloc_batch(struct minhop *m, struct lanes_error *err)
{
	size_t slots = (size_t)DESTINATIONS_PER_WORKER * m->num_workers;

	m->batch = calloc(slots, sizeof(*m->batch));
	m->batch_lids = malloc(sizeof(uint32_t) * ((size_t)m->eps.n + 1));
	m->saved = calloc((size_t)m->f->num_switches + 1, sizeof(*m->saved));
	m->save_left = lanes_route_hop_ports_save_budget(m->f);
	if (!m->batch || !m->batch_lids || !m->saved)
		return lanes_error_oom(err);
	return 0;
}

/*
 * Route the switch LIDs by minhop_fast.c? Only with one pass (they all see
 * the same counters), and where it pays (fast 1): where at least a quarter
 * of the switch LIDs belong to switches without CAs, whose min-hop ports
 * the reference computes afresh (fat trees); fast 2: wherever it applies.
 * Either way the same ports.
 */
static int want_fast(const struct minhop *m, int fast)
{
	const struct lanes_fabric *f = m->f;
	const struct route_endport *ep = m->eps.ep;
	uint32_t with_lid = 0, with_ca = 0, without_ca;

	if (!fast || m->narrow || !m->opts->switch_lids || m->eps.max_lmc)
		return 0;
	for (uint32_t t = 0; t < f->num_switches; t++)
		with_lid += lanes_fabric_port(f, f->switches[t], 0)->lid != 0;
	for (uint32_t i = 0; i < m->eps.n; i++) /* a switch's end ports are consecutive */
		with_ca += (i == 0 || ep[i].sw != ep[i - 1].sw) &&
			   lanes_fabric_port(f, f->switches[ep[i].sw], 0)->lid;
	without_ca = with_lid - with_ca;
	return fast == 2 || (without_ca >= 1 && without_ca >= with_lid / 4);
}

/* The tables (lanes_routing_new_parallel writes every entry, on the workers), then what routing reads. */
static int set_up(struct minhop *m, struct lanes_error *err)
{
	int rc;

	if ((rc = lanes_routing_new_parallel(m->f, m->num_workers, &m->r, err)) ||
	    (rc = lanes_switch_distances_parallel(m->f, m->num_workers, &m->dist, err)) ||
	    (rc = lanes_route_endports_osm_order(m->f, &m->eps, err)) ||
	    (rc = lanes_route_load_init(&m->load, m->f, err)))
		return rc;
	if (!m->eps.max_lmc)
		return 0;
	m->peers.dor = m->narrow != NULL;
	return lanes_route_peers_init(&m->peers, m->f, &m->load, err);
}

static int prepare(struct minhop *m, int fast, struct lanes_error *err)
{
	int rc;

	m->num_workers = lanes_route_destination_workers(m->opts, m->f->num_switches);
	if ((rc = set_up(m, err)))
		return rc;
	m->fast_switch_lids = want_fast(m, fast);
	if ((rc = start_workers(m, err)) || (rc = alloc_batch(m, err)))
		return rc;
	return set_notes(m->r, err);
}

static void release(struct minhop *m)
{
	for (uint32_t t = 0; m->saved && t < m->f->num_switches; t++)
		free(m->saved[t]);
	free(m->saved);
	free(m->batch);
	free(m->batch_lids);
	stop_workers(m);
	lanes_route_peers_free(&m->peers);
	lanes_route_load_free(&m->load);
	lanes_route_endports_free(&m->eps);
	free(m->dist);
	lanes_routing_free(m->r);
}

static int minhop_route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
			struct route_cdg_check *check, int fast, lanes_minhop_narrow_fn narrow,
			struct lanes_routing **out, struct lanes_error *err)
{
	struct minhop m;
	int rc;

	memset(&m, 0, sizeof(m));
	m.f = f;
	m.opts = opts;
	m.check = check;
	m.narrow = narrow;
	*out = NULL;
	if ((rc = prepare(&m, fast, err)))
		goto out;
	for (m.offset = 0; m.offset < (1 << m.eps.max_lmc); m.offset++)
		if ((rc = route_pass(&m, err)))
			goto out;
	if (check && lanes_route_cdg_check_finish(check)) /* the last batch */
		goto out;
	*out = m.r;
	m.r = NULL;
out:
	release(&m);
	return rc < 0 ? rc : 0;
}

int lanes_minhop_route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		       struct route_cdg_check *check, int fast, struct lanes_routing **out,
		       struct lanes_error *err)
{
	return minhop_route(f, opts, check, fast, NULL, out, err);
}

int lanes_minhop_route_narrowed(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
				lanes_minhop_narrow_fn narrow, struct lanes_routing **out,
				struct lanes_error *err)
{
	return minhop_route(f, opts, NULL, 0, narrow, out, err);
}

int lanes_route_minhop(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		       struct route_cdg_check *check, struct lanes_routing **out,
		       struct lanes_error *err)
{
	return lanes_minhop_route(f, opts, check, 1, out, err);
}

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	return lanes_route_minhop(f, opts, NULL, out, err);
}

const struct lanes_engine lanes_engine_minhop = {
	.name = "minhop",
	.summary = "OpenSM's default: shortest paths, least-loaded port per switch and LID",
	.scope = "any",
	.resources = "1 VL",
	.source = "OpenSM 3.3.23 Min Hop (doc/current-routing.txt); osm_ucast_mgr.c, osm_switch.c",
	.flags = LANES_ENGINE_ANY_TOPOLOGY,
	.check = NULL,
	.route = route,
};
