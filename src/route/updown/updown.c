/*
 * updown.c - up* / down* routing on a total order of the switches, shared by
 * the updn, dnup and ud-dfs engines (updown.h): lanes_route_updown_lfts,
 * its setup, the candidates kept per destination switch, and the LFT column
 * fill with its LMC passes. The candidates toward one destination switch
 * come from updown_legal.c (phases A and B) and updown_complete.c (phase C);
 * updown_internal.h holds the state they share.
 *
 * The rule is Autonet's, as seed 004 section 3 states it: every link gets a
 * direction from the order ("up" towards the switch that comes first), and a
 * legal route is zero or more up links followed by zero or more down links.
 * Up links never form a cycle (they follow a total order), and a down link
 * is never followed by an up link, so the channel dependencies of legal
 * routes are acyclic: one VL suffices.
 *
 * Balancing is minhop's (common/load.h): destinations in OpenSM's port
 * order, the least-loaded candidate per switch, CA LIDs counted, switch LIDs
 * routed after all CA LIDs and not counted, LMC passes with the search
 * starting after the previous LID's port and OpenSM's preference for a port
 * towards a system, then a node, that the port's earlier LIDs do not use
 * (lanes_route_fill_lids, load.c). Candidates depend only on the
 * destination switch, so they are computed once per switch for all the CAs
 * behind it, and kept (within a memory budget: 4 MB plus a quarter of the
 * LFTs) for its switch LID after every CA LID and for later LMC passes. A
 * switch LID at offset 0 whose candidates are not kept (a switch without
 * CAs, without LMC) needs only each switch's least-loaded candidate: the
 * phases put it straight into the LFT column (column mode, u->col), the
 * port lanes_route_fill_lids would pick.
 * A group's LIDs are filled switch by switch: a switch's choices read only
 * its own counters, so the order across switches does not matter.
 *
 * With r NULL, lanes_route_updown_lfts only says whether the order leaves a gap
 * (has_gap: phases A and B, no tables), for dnup to decide before routing.
 *
 * Invariants: iteration in index or order position, no global state; a
 * gap is reported only for a destination switch with CAs.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/route.h"
#include "lanes/routing.h"
#include "route/common/endports.h"
#include "route/common/load.h"
#include "route/updown/updown.h"
#include "route/updown/updown_internal.h"

/* ------------------------------------------------------------ candidates per destination */

/* Save u->hops and u->state for t's next LIDs, within the budget. */
static void save_hops(struct updown *u, uint32_t t)
{
	struct route_saved_hops *sv =
		lanes_route_hop_ports_save(&u->hops, u->f->num_switches, u->state, &u->save_left);

	if (!sv)
		return;
	sv->tag = u->nlegal;
	u->saved[t] = sv;
	u->cur = &sv->h;
	u->cur_state = sv->extra;
	u->cur_nlegal = sv->tag;
}

/*
 * Candidates toward switch t into u->hops. check: t is a CA destination.
 * @return 1 on a gap, else 0.
 */
static int want_hops(struct updown *u, uint32_t t, int check)
{
	if (u->saved[t]) {
		u->cur = &u->saved[t]->h;
		u->cur_state = u->saved[t]->extra;
		u->cur_nlegal = u->saved[t]->tag;
		return 0;
	}
	u->cur = &u->hops;
	u->cur_state = u->state;
	if (u->hops.dst == t) {
		u->cur_nlegal = u->nlegal;
		return 0;
	}
	u->hops.dst = LANES_NONE;
	lanes_updown_legal_paths(u, t);
	if (u->nunrouted)
		lanes_updown_complete(u, t, check);
	if (u->gap->from_sw != LANES_NONE)
		return 1;
	u->hops.dst = t;
	u->cur_nlegal = u->nlegal;
	if (u->save_next)
		save_hops(u, t);
	return 0;
}

/* ------------------------------------------------------------ LFT columns */

/*
 * minhop's column fill for the m LIDs lids[] toward the current destination
 * switch (lanes_route_fill_lids). Completed routes are never counted: OpenSM has
 * no route there, and management traffic should not move CA routes.
 */
static void route_lids(struct updown *u, const uint32_t *lids, uint32_t m, int offset, int count)
{
	lanes_route_fill_lids(u->r->lft, u->f->num_switches, u->cur, &u->load, &u->peers, lids, m,
			offset, count ? u->cur_nlegal : 0);
}

/* Count k paths on every switch with a single candidate (exact: they make no choice). */
static void count_single(struct updown *u, uint32_t k)
{
	const uint8_t *one = u->cur->one, *state = u->cur_state;

	for (uint32_t s = 0; s < u->f->num_switches; s++)
		if (one[s] != 0 && one[s] != LANES_PORT_DROP && state[s] != ST_COMPLETED)
			route_load_of(&u->load, s)[one[s]] += k;
}

/* The end ports eps[i..j) behind one switch. @return 1 on a gap. */
static int route_group(struct updown *u, uint32_t i, uint32_t j, int offset)
{
	uint32_t t = u->eps.ep[i].sw, k = 0, i0 = i;
	const struct lanes_port *p0 = lanes_fabric_port(u->f, u->f->switches[t], 0);

	u->save_next = offset + 1 < (1 << u->eps.max_lmc) ||
		       (u->opts->switch_lids && p0->lid && offset < (1 << p0->lmc));
	if (want_hops(u, t, 1))
		return 1;
	for (; i < j; i++) {
		const struct route_endport *ep = &u->eps.ep[i];
		uint32_t lid = ep->lid + (uint32_t)offset;

		if (offset >= (1 << ep->lmc))
			continue;
		u->lids[k++] = lid;
	}
	route_lids(u, u->lids, k, offset, 1);
	for (k = 0; i0 < j; i0++) {
		const struct route_endport *ep = &u->eps.ep[i0];
		uint32_t lid = ep->lid + (uint32_t)offset;

		if (offset >= (1 << ep->lmc))
			continue;
		lanes_routing_set_port(u->r, t, lid, ep->sw_port);
		route_load_of(&u->load, t)[ep->sw_port]++;
		k++;
	}
	count_single(u, k);
	return 0;
}

/* Switch t's LID base + offset. */
static void route_switch(struct updown *u, uint32_t t, int offset)
{
	const struct lanes_port *p0 = lanes_fabric_port(u->f, u->f->switches[t], 0);
	uint32_t lid = p0->lid + (uint32_t)offset;

	if (!p0->lid || offset >= (1 << p0->lmc))
		return;
	if (u->opts->switch_lids) {
		u->save_next = offset + 1 < (1 << u->eps.max_lmc);
		if (!offset && !u->save_next && !u->saved[t] && u->hops.dst != t) {
			/* column mode: the phases pick what lanes_route_fill_lids would */
			u->col = u->r->lft + (size_t)lid * u->f->num_switches;
			u->hops.dst = LANES_NONE;
			lanes_updown_legal_paths(u, t);
			if (u->nunrouted)
				lanes_updown_complete(u, t, 0);
			u->col = NULL;
		} else {
			want_hops(u, t, 0);
			route_lids(u, &lid, 1, offset, 0);
		}
	}
	lanes_routing_set_port(u->r, t, lid, 0);
}

/* One LMC pass: every CA LID base + offset, then every switch LID. @return 1 on a gap. */
static int route_pass(struct updown *u, int offset)
{
	const struct route_endport *ep = u->eps.ep;
	uint32_t i = 0, j;

	while (i < u->eps.n) {
		for (j = i + 1; j < u->eps.n && ep[j].sw == ep[i].sw; j++)
			;
		if (route_group(u, i, j, offset))
			return 1;
		i = j;
	}
	for (uint32_t t = 0; t < u->f->num_switches; t++)
		route_switch(u, t, offset);
	return 0;
}

/* ------------------------------------------------------------ setup */

/*
 * The per-switch, per-entry and per-end-port arrays in one zeroed block
 * (u->saved heads it); after lanes_route_endports_osm_order, for lids.
 */
static int alloc_arrays(struct updown *u, struct lanes_error *err)
{
	size_t ns = u->f->num_switches, ne = u->f->adj_off[ns], n = ns + 1;
	uint32_t **w32[] = { &u->off, &u->mid, &u->perm, &u->comp, &u->dn, &u->len, &u->best,
			     &u->queue, &u->sorted, &u->unrouted, &u->bucket };
	size_t nw = sizeof(w32) / sizeof(w32[0]);
	size_t nbits = (ns + 63) / 64 + 1;
	uint32_t *w;
	uint8_t *b;

	u->saved = calloc(1, sizeof(*u->saved) * n + sizeof(uint64_t) * nbits +
				     sizeof(uint32_t) * (nw * n + 1 + u->eps.n + 1 + ne + 1) +
				     2 * (ne + 1) + 2 * n);
	u->save_left = lanes_route_hop_ports_save_budget(u->f);
	if (!u->saved)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	u->bits = (uint64_t *)(u->saved + n);
	w = (uint32_t *)(u->bits + nbits);
	for (size_t i = 0; i < nw; i++)
		*w32[i] = w + i * n;       /* bucket, the last, gets n + 1 */
	memset(u->dn, 0xff, sizeof(*u->dn) * ns); /* INF */
	u->lids = w + nw * n + 1;
	u->nb = u->lids + u->eps.n + 1;
	b = (uint8_t *)(u->nb + ne + 1);
	u->port = b;
	u->isup = b + ne + 1;
	u->has_ca = b + 2 * (ne + 1);
	u->state = u->has_ca + n;
	return 0;
}

/* The adjacency of each switch, up moves first, each part in port order. */
static void split_adjacency(struct updown *u, const uint32_t *pos)
{
	const struct lanes_fabric *f = u->f;
	const struct lanes_adj *adj = f->adj;
	uint32_t *nb = u->nb;
	uint8_t *port = u->port, *isup = u->isup;

	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t e0 = f->adj_off[s], e1 = f->adj_off[s + 1], nup = 0, ku, kd, ps = pos[s];

		for (uint32_t e = e0; e < e1; e++)
			nup += isup[e] = pos[adj[e].sw] < ps;
		u->off[s] = ku = e0;
		u->mid[s] = kd = e0 + nup;
		for (uint32_t e = e0; e < e1; e++) {
			uint32_t k = isup[e] ? ku++ : kd++;

			nb[k] = adj[e].sw;
			port[k] = adj[e].port;
		}
	}
	u->off[f->num_switches] = f->adj_off[f->num_switches];
}

static int prepare(struct updown *u, const uint32_t *pos, struct lanes_error *err)
{
	const struct lanes_fabric *f = u->f;
	uint32_t ncomp = 0;
	int rc;

	if ((rc = lanes_route_endports_osm_order(f, &u->eps, err)) || (rc = alloc_arrays(u, err)) ||
	    (rc = lanes_route_components(f, u->comp, &ncomp, err)) ||
	    (rc = lanes_route_load_init(&u->load, f, err)) ||
	    (rc = lanes_route_hop_ports_init(&u->hops, f, err)) ||
	    (u->eps.max_lmc && (rc = lanes_route_peers_init(&u->peers, f, &u->load, err))))
		return rc;
	split_adjacency(u, pos);
	for (uint32_t s = 0; s < f->num_switches; s++)
		u->perm[pos[s]] = s;
	for (uint32_t i = 0; i < u->eps.n; i++)
		u->has_ca[u->eps.ep[i].sw] = 1;
	return 0;
}

static void release(struct updown *u)
{
	lanes_route_hop_ports_free(&u->hops);
	lanes_route_peers_free(&u->peers);
	lanes_route_load_free(&u->load);
	lanes_route_endports_free(&u->eps);
	for (uint32_t s = 0; u->saved && s < u->f->num_switches; s++)
		free(u->saved[s]);
	free(u->saved);
}

/*
 * Gap check only (r NULL): the switches with CAs, those of the end ports
 * with a LID (as lanes_route_endports_osm_order lists them), into u->has_ca.
 */
static void mark_ca_switches(struct updown *u)
{
	const struct lanes_fabric *f = u->f;

	for (uint32_t i = 0; i < f->num_nodes; i++) {
		const struct lanes_node *n = &f->nodes[i];

		for (uint32_t q = 1; n->type != LANES_NODE_SWITCH && q <= n->nports; q++) {
			const struct lanes_port *pt = &f->ports[n->port_base + q];

			if (pt->lid && pt->peer_node != LANES_NONE &&
			    f->nodes[pt->peer_node].type == LANES_NODE_SWITCH)
				u->has_ca[f->nodes[pt->peer_node].switch_index] = 1;
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

/*
 * Does some destination switch with CAs leave a switch with CAs without a
 * legal path? Not when one_top holds. Phases A and B only: a switch of t's component without a
 * legal route is always reached by phase C's BFS, so route_pass reports a
 * gap exactly when lanes_updown_legal_paths leaves such a switch with CAs
 * (u->unrouted_ca). Which gap route_pass names depends on its destination
 * order; this only says whether there is one (gap is not set).
 */
static int has_gap(struct updown *u, const uint32_t *pos, struct lanes_error *err)
{
	const struct lanes_fabric *f = u->f;
	uint32_t ncomp = 0;
	int rc;

	if (one_top(f, pos))
		return 0;
	if ((rc = alloc_arrays(u, err)) || (rc = lanes_route_components(f, u->comp, &ncomp, err)) ||
	    (rc = lanes_route_hop_ports_init(&u->hops, f, err)))
		return rc;
	split_adjacency(u, pos);
	for (uint32_t s = 0; s < f->num_switches; s++)
		u->perm[pos[s]] = s;
	mark_ca_switches(u);
	for (uint32_t t = 0; t < f->num_switches; t++) {
		if (!u->has_ca[t])
			continue;
		lanes_updown_legal_paths(u, t);
		if (u->unrouted_ca)
			return 1;
	}
	return 0;
}

/* r NULL: only whether lanes_route_updown_lfts would find a gap (see has_gap). */
int lanes_route_updown_lfts(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		      const uint32_t *pos, struct lanes_routing *r, struct route_updown_gap *gap,
		      struct lanes_error *err)
{
	struct updown u;
	int rc;

	memset(&u, 0, sizeof(u));
	u.f = f;
	u.pos = pos;
	u.opts = opts;
	u.r = r;
	u.gap = gap;
	u.hops.dst = LANES_NONE;
	gap->from_sw = gap->to_sw = LANES_NONE;
	if (!r)
		rc = has_gap(&u, pos, err);
	else if (!(rc = prepare(&u, pos, err))) {
		for (int offset = 0; offset < (1 << u.eps.max_lmc) && !rc; offset++)
			rc = route_pass(&u, offset);
	}
	release(&u);
	return rc;
}
