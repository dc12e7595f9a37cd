/*
 * minhop.c - OpenSM's default routing engine, Min Hop (seed 002, "Min Hop
 * Algorithm" and "The basic routing algorithm"), with the behaviour of
 * OpenSM 3.3.23: osm_ucast_mgr.c (osm_ucast_mgr_build_lid_matrices,
 * ucast_mgr_build_lfts, ucast_mgr_process_tbl, ucast_mgr_process_port) and
 * osm_switch.c (osm_switch_recommend_path).
 *
 * 1. Min-hop tables: hops from every switch port to every switch. Here the
 *    all-pairs switch distance matrix; a port is a min-hop port toward switch
 *    t when its neighbour is one hop closer to t (common/load.h).
 * 2. For every switch, destination LIDs are taken in OpenSM's port order
 *    (lanes_route_endports_osm_order: CA and router ports behind switches sorted
 *    by switch load, then switch LIDs). A CA LID maps, at the switch the CA
 *    is cabled to, to that port; elsewhere to the min-hop port toward that
 *    switch with the fewest LIDs routed through it so far, ties to the lowest
 *    port number; the chosen port's counter then goes up by one. A switch's
 *    own LID maps to port 0; other switch LIDs take the least-loaded min-hop
 *    port but, as in OpenSM (port_profile_switch_nodes off), are not
 *    counted, so they see the counters left by all the CA LIDs. Unreachable
 *    destinations stay LANES_PORT_DROP (OpenSM's OSM_NO_PATH).
 *
 * Counters belong to one switch, so switches are independent; the work is
 * done one destination LID at a time over all switches, which writes each
 * LFT column in order and computes the min-hop ports once per destination
 * switch for all the CAs behind it (they are consecutive in the order).
 * With one pass (LMC 0) the switch LIDs, which come last and are not
 * counted, all see the same counters: they are done switch by switch, each
 * switch answering every destination switch at once from the distance
 * matrix (minhop_swlids.c), and t's min-hop ports need not be kept for them.
 *
 * opts->switch_lids = 0: switch LIDs are not routed through the fabric (they
 * stay LANES_PORT_DROP) except that each switch keeps its own LID on port 0,
 * which is what makes it a switch. Since OpenSM never counts switch-LID
 * paths, every CA LID entry is the same either way.
 *
 * LMC > 0: LIDs are routed in OpenSM's passes (every port's base LID, then
 * every base + 1, ...; ucast_mgr_process_tbl), and LID base + i, i > 0, of
 * a CA port takes OpenSM's LMC preference (seed 002's rules a-d;
 * osm_switch_recommend_path with routing_for_lmc): the scan starts after
 * the port chosen for base + i - 1 (ucast_mgr_process_port's start_from),
 * and a least-loaded port towards a system image GUID, else a node, that
 * base .. base + i - 1 do not leave by comes first (lanes_route_fill_lids,
 * load.c). Every CA LID is counted, the extra ones too.
 *
 * Result: uniform SL 0 and no SL2VL maps (one VL). Min Hop is not
 * deadlock-free: it makes credit loops on rings, tori and dragonflies.
 */
#include <stdlib.h>
#include <string.h>

#include "route/minhop/minhop_swlids.h"
#include "route/common/endports.h"
#include "route/common/load.h"
#include "route/cdg/cdg.h"
#include "route/minhop/minhop.h"
#include "route/engines.h"

struct minhop {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	struct lanes_routing *r;
	uint8_t *dist;                /* all-pairs switch hops */
	struct route_endports eps;    /* CA and router ports in OpenSM's order */
	struct route_load load;       /* paths per (switch, port) */
	struct route_peers peers;     /* far ends of switch ports, LMC > 0 only */
	struct route_hop_ports hops;  /* min-hop ports toward one switch */
	const struct route_hop_ports *cur; /* the ports LIDs are routed with: hops or a copy */
	struct route_saved_hops **saved;   /* per destination switch, for a later LID, or NULL */
	size_t save_left;             /* bytes the saved copies may still take */
	uint32_t *lids;               /* route_group: the LIDs of a group */
	struct route_cdg_check *check; /* or NULL */
	int batch;                    /* switch LIDs all at once (minhop_swlids.c) */
	struct minhop_swlids sw;      /* its scratch */
};

/* The min-hop ports toward t into m->cur; save: keep a copy for a later LID. */
static void want_hops(struct minhop *m, uint32_t t, int save)
{
	if (m->saved[t]) {
		m->cur = &m->saved[t]->h;
		return;
	}
	m->cur = &m->hops;
	if (m->hops.dst != t)
		lanes_route_hop_ports_fill(&m->hops, m->f, t,
				     m->dist + (size_t)t * m->f->num_switches);
	if (save && (m->saved[t] = lanes_route_hop_ports_save(&m->hops, m->f->num_switches, NULL,
							 &m->save_left)))
		m->cur = &m->saved[t]->h;
}

/* Count k paths on every switch that has a single min-hop port (exact: they make no choice). */
static void count_single(struct minhop *m, uint32_t k)
{
	const uint8_t *one = m->cur->one;

	for (uint32_t s = 0; s < m->f->num_switches; s++)
		if (one[s] != 0 && one[s] != LANES_PORT_DROP)
			route_load_of(&m->load, s)[one[s]] += k;
}

/* A later pass or switch t's own LID will want t's min-hop ports again. */
static int wanted_again(const struct minhop *m, uint32_t t, int offset)
{
	const struct lanes_port *p0 = lanes_fabric_port(m->f, m->f->switches[t], 0);

	return offset + 1 < (1 << m->eps.max_lmc) ||
	       (m->opts->switch_lids && !m->batch && p0->lid && offset < (1 << p0->lmc));
}

/*
 * The end ports eps[i..j) behind one switch t, LID base + offset of each:
 * their columns filled together (lanes_route_fill_lids, all counted), t's own
 * entries set and counted, then each LID through the check, in turn.
 */
static void route_group(struct minhop *m, uint32_t i, uint32_t j, int offset)
{
	uint32_t t = m->eps.ep[i].sw, k = 0;

	want_hops(m, t, wanted_again(m, t, offset));
	for (uint32_t q = i; q < j; q++) {
		const struct route_endport *ep = &m->eps.ep[q];

		if (offset < (1 << ep->lmc))
			m->lids[k++] = ep->lid + (uint32_t)offset;
	}
	lanes_route_fill_lids(m->r->lft, m->f->num_switches, m->cur, &m->load, &m->peers, m->lids, k,
			offset, m->cur->nmulti);
	for (uint32_t q = i; q < j; q++) {
		const struct route_endport *ep = &m->eps.ep[q];

		if (offset >= (1 << ep->lmc))
			continue;
		lanes_routing_set_port(m->r, t, ep->lid + (uint32_t)offset, ep->sw_port);
		route_load_of(&m->load, t)[ep->sw_port]++;
	}
	for (uint32_t q = 0; m->check && q < k; q++)
		if (!lanes_route_cdg_check_lid(m->check, m->r, m->lids[q]))
			return;
	count_single(m, k);
}

static void route_switch(struct minhop *m, uint32_t t, int offset)
{
	const struct lanes_port *p0 = lanes_fabric_port(m->f, m->f->switches[t], 0);
	uint32_t lid = p0->lid + (uint32_t)offset;

	if (!p0->lid || offset >= (1 << p0->lmc))
		return;
	if (m->opts->switch_lids) {
		want_hops(m, t, offset + 1 < (1 << m->eps.max_lmc));
		lanes_route_fill_lids(m->r->lft, m->f->num_switches, m->cur, &m->load, &m->peers, &lid, 1,
				offset, 0);
	}
	lanes_routing_set_port(m->r, t, lid, 0);
}

/* One of OpenSM's LMC passes: every port's LID base + offset. */
static void route_pass(struct minhop *m, int offset)
{
	const struct route_endport *ep = m->eps.ep;
	uint32_t i = 0, j;

	while (i < m->eps.n) {
		for (j = i + 1; j < m->eps.n && ep[j].sw == ep[i].sw; j++)
			;
		route_group(m, i, j, offset);
		if (m->check && lanes_route_cdg_check_cyclic(m->check))
			return;
		i = j;
	}
	if (m->batch) {
		lanes_minhop_swlids_route(&m->sw, m->f, m->dist, &m->load, m->r);
		return;
	}
	for (uint32_t t = 0; t < m->f->num_switches; t++)
		route_switch(m, t, offset);
}

static int set_notes(struct lanes_routing *r, struct lanes_error *err)
{
	static const char notes[] =
		"minhop: OpenSM 3.3.23 Min Hop; shortest paths, least-loaded port per "
		"switch; not deadlock-free";

	r->notes = malloc(sizeof(notes));
	if (!r->notes)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	memcpy(r->notes, notes, sizeof(notes));
	return 0;
}

static int prepare(struct minhop *m, struct lanes_error *err)
{
	int rc;

	if ((rc = lanes_routing_new(m->f, &m->r, err)) ||
	    (rc = lanes_fabric_switch_distances(m->f, &m->dist, err)) ||
	    (rc = lanes_route_endports_osm_order(m->f, &m->eps, err)) ||
	    (rc = lanes_route_load_init(&m->load, m->f, err)) ||
	    (rc = lanes_route_hop_ports_init(&m->hops, m->f, err)) ||
	    (m->eps.max_lmc && (rc = lanes_route_peers_init(&m->peers, m->f, &m->load, err))))
		return rc;
	/* one pass with switch LIDs: they all see the same counters */
	m->batch = m->opts->switch_lids && !m->eps.max_lmc;
	if (m->batch && (rc = lanes_minhop_swlids_init(&m->sw, m->f, err)))
		return rc;
	/* one zeroed block: saved, then lids */
	m->saved = calloc(1, sizeof(*m->saved) * ((size_t)m->f->num_switches + 1) +
				     sizeof(uint32_t) * ((size_t)m->eps.n + 1));
	m->save_left = lanes_route_hop_ports_save_budget(m->f);
	if (!m->saved)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	m->lids = (uint32_t *)(m->saved + m->f->num_switches + 1);
	return set_notes(m->r, err);
}

int lanes_route_minhop(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct route_cdg_check *check, struct lanes_routing **out, struct lanes_error *err)
{
	struct minhop m;
	int rc;

	memset(&m, 0, sizeof(m));
	m.f = f;
	m.opts = opts;
	m.hops.dst = LANES_NONE;
	m.check = check;
	*out = NULL;
	if ((rc = prepare(&m, err)))
		goto out;
	for (int offset = 0; offset < (1 << m.eps.max_lmc); offset++) {
		route_pass(&m, offset);
		if (check && lanes_route_cdg_check_cyclic(check))
			goto out;
	}
	if (check && lanes_route_cdg_check_finish(check)) /* the last batch */
		goto out;
	*out = m.r;
	m.r = NULL;
out:
	for (uint32_t t = 0; m.saved && t < f->num_switches; t++)
		free(m.saved[t]);
	free(m.saved);
	lanes_route_hop_ports_free(&m.hops);
	lanes_minhop_swlids_free(&m.sw);
	lanes_route_peers_free(&m.peers);
	lanes_route_load_free(&m.load);
	lanes_route_endports_free(&m.eps);
	free(m.dist);
	lanes_routing_free(m.r);
	return rc;
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
	.source = "OpenSM 3.3.23 Min Hop (seed 002); osm_ucast_mgr.c, osm_switch.c",
	.flags = LANES_ENGINE_ANY_TOPOLOGY,
	.check = NULL,
	.route = route,
};
