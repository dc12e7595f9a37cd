/*
 * dor.c - OpenSM's Dimension Order Routing, as OpenSM's
 * doc/current-routing.txt describes it ("DOR Routing Algorithm"), with the
 * behaviour of OpenSM 3.3.23: osm_ucast_mgr.c (ucast_dor_build_lfts, which
 * is Min Hop's ucast_mgr_build_lfts with is_dor set) and osm_switch.c
 * (osm_switch_recommend_path with dor).
 *
 * The document: DOR is based on Min Hop and uses shortest paths, but among
 * the shortest paths it chooses by an ordering of dimensions. Every port
 * stands for one dimension of a hypercube or a mesh; paths are grown from a
 * destination back to a source using the lowest dimension (port) available
 * at each step. Parallel cables between two switches are one dimension, and
 * traffic is balanced over them. A hypercube dimension must use the same
 * port throughout the fabric, on both ends of its cables; a mesh dimension
 * one fixed pair of ports, one at each end of its cables.
 *
 * The code does exactly Min Hop (minhop/minhop.c: the distances, OpenSM's
 * destination order, the port load counters, switch LIDs not counted) with
 * one change at the choice of a port: at switch s toward destination switch
 * t, OpenSM scans s's min-hop ports in ascending order, takes the switch
 * behind the first one, skips every min-hop port to another switch, and
 * among the ports to that first switch (parallel cables) takes the least
 * loaded, the lowest on a tie. Here that is first_dimension_only(), which
 * narrows each destination's min-hop ports before minhop chooses
 * (lanes_minhop_route_narrowed); the rest is minhop's machinery unchanged.
 * With LMC > 0, LID base + i, i > 0, is scanned from port 1 too (Min Hop
 * starts after base + i - 1's port), and a tie among parallel cables goes
 * to the cable fewer of base .. base + i - 1 took (ucast_mgr_process_port,
 * find_and_add_remote_sys with dor): load.c's dor_choose, which
 * lanes_minhop_route_narrowed turns on.
 *
 * Deadlock freedom. Call a switch port's dimension port the lowest port of
 * its switch that is cabled to the same neighbour switch (a parallel group
 * counts once). lanes claims that DOR's routes are free of credit loops,
 * and checks three things, refusing (LANES_EREFUSED) with the switch and
 * port that break them:
 *  1. Consistent cabling (check_port_pairs): each dimension port a is
 *     cabled to one and the same dimension port b at the far end, all over
 *     the fabric (a hypercube dimension: b = a; a mesh dimension: b != a,
 *     and then b's cables end at a).
 *  2. No rings (check_rings): following port a (b != a) from switch to
 *     switch never comes back, as it does around a torus ring.
 *  3. On the tables built, every CA LID's route from every switch takes
 *     dimension ports that never decrease and never turns back
 *     (check_dimension_order). On a whole mesh or hypercube cabled as in 1
 *     this always holds: the dimensions still to correct only shrink along
 *     a shortest path. It fails where a cable is missing (a route around
 *     the gap).
 * Why they suffice: by 3, the dimension ports along any cycle of channel
 * dependencies would all be one port a, and the cycle would follow port a
 * from switch to switch back to its start: a ring (excluded by 2) or a
 * turn back (excluded by 3). 1 is what OpenSM's document asks and what
 * makes the ordering the same at every switch; 3 is checked on the routes
 * themselves, so no fabric passes with tables the verifier would reject.
 *
 * Where this is not OpenSM:
 *  - OpenSM routes any fabric with dor; lanes refuses where 1-3 fail.
 *  - port_search_ordering_file, port_shifting and scatter_ports (off by
 *    default in OpenSM) are not reproduced.
 * Result: uniform SL 0, no SL2VL maps (one VL).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "route/engines.h"
#include "route/minhop/minhop.h"
#include "core/util.h"

/* Every switch port's dimension port: the lowest port to the same neighbour switch. */
struct dor_cabling {
	const struct lanes_fabric *f;
	uint32_t *off;          /* per switch: where its ports start in dimension_port */
	uint8_t *dimension_port; /* per switch port; 0 for a port without a switch cable */
};

static uint8_t dimension_port(const struct dor_cabling *c, uint32_t sw, uint8_t port)
{
	return c->dimension_port[c->off[sw] + port];
}

/* "0x0002c90000000001 ("desc")" into buf. */
static const char *switch_name(const struct lanes_fabric *f, uint32_t sw, char *buf, size_t size)
{
	const struct lanes_node *n = &f->nodes[f->switches[sw]];

	snprintf(buf, size, "0x%016llx (\"%s\")", (unsigned long long)n->guid, n->desc);
	return buf;
}

/* Switch sw's dimension ports; lowest[t] and seen[t] are scratch per neighbour t. */
static void fill_switch(struct dor_cabling *c, uint32_t sw, uint8_t *lowest, uint32_t *seen)
{
	const struct lanes_fabric *f = c->f;

	for (uint32_t e = f->adj_off[sw]; e < f->adj_off[sw + 1]; e++) { /* in port order */
		uint32_t t = f->adj[e].sw;

		if (seen[t] != sw + 1) {
			seen[t] = sw + 1;
			lowest[t] = f->adj[e].port;
		}
		c->dimension_port[c->off[sw] + f->adj[e].port] = lowest[t];
	}
}

static int cabling_init(struct dor_cabling *c, const struct lanes_fabric *f, struct lanes_error *err)
{
	uint32_t ns = f->num_switches, total = 0, *seen = calloc((size_t)ns + 1, sizeof(uint32_t));
	uint8_t *lowest = malloc((size_t)ns + 1);
	int rc = 0;

	c->f = f;
	c->off = malloc(sizeof(uint32_t) * ((size_t)ns + 1));
	for (uint32_t s = 0; c->off && s < ns; s++) {
		c->off[s] = total;
		total += f->nodes[f->switches[s]].nports + 1u;
	}
	c->dimension_port = calloc((size_t)total + 1, 1);
	if (!seen || !lowest || !c->off || !c->dimension_port) {
		rc = lanes_error_oom(err);
		goto out;
	}
	for (uint32_t s = 0; s < ns; s++)
		fill_switch(c, s, lowest, seen);
out:
	free(seen);
	free(lowest);
	return rc;
}

static void cabling_free(struct dor_cabling *c)
{
	free(c->off);
	free(c->dimension_port);
}

/* ------------------------------------------------------------ the cabling rules */

/* The far dimension port of each dimension port a (0: none seen yet), and the cable it was seen on. */
struct dor_pairs {
	uint8_t far[256];
	uint32_t seen_from[256], seen_to[256]; /* the switches at its ends */
};

static int refuse_pair(const struct dor_cabling *c, const struct dor_pairs *pp, uint32_t s,
		       const struct lanes_adj *a, uint8_t far, struct lanes_error *err)
{
	const struct lanes_fabric *f = c->f;
	uint8_t port = a->port;
	char n1[160], n2[160], n3[160], n4[160];

	switch_name(f, s, n1, sizeof(n1));
	switch_name(f, a->sw, n2, sizeof(n2));
	switch_name(f, pp->seen_from[port], n3, sizeof(n3));
	switch_name(f, pp->seen_to[port], n4, sizeof(n4));
	return lanes_error_set(err, LANES_EREFUSED,
			       "dor: inconsistent cabling: switch %s port %u reaches switch %s at its "
			       "port %u, but switch %s port %u reaches switch %s at its port %u: DOR "
			       "needs each port to stand for one dimension, cabled to one fixed port "
			       "at the far end (the same port in a hypercube; with parallel cables, "
			       "the lowest port of each group)",
			       n1, port, n2, far, n3, port, n4, pp->far[port]);
}

/* Rule 1: each dimension port a meets one dimension port far[a] all over the fabric. */
static int check_port_pairs(const struct dor_cabling *c, struct dor_pairs *pp, struct lanes_error *err)
{
	const struct lanes_fabric *f = c->f;

	memset(pp, 0, sizeof(*pp));
	for (uint32_t s = 0; s < f->num_switches; s++)
		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++) {
			const struct lanes_adj *a = &f->adj[e];
			uint8_t far = dimension_port(c, a->sw, a->peer_port);

			if (dimension_port(c, s, a->port) != a->port)
				continue; /* a parallel cable: its group's lowest port speaks for it */
			if (!pp->far[a->port]) {
				pp->far[a->port] = far;
				pp->seen_from[a->port] = s;
				pp->seen_to[a->port] = a->sw;
			} else if (pp->far[a->port] != far) {
				return refuse_pair(c, pp, s, a, far, err);
			}
		}
	return 0;
}

/* The switch behind sw's dimension port a, or LANES_NONE. */
static uint32_t follow(const struct dor_cabling *c, uint32_t sw, uint8_t a)
{
	const struct lanes_fabric *f = c->f;
	const struct lanes_port *p;

	if (a > f->nodes[f->switches[sw]].nports || dimension_port(c, sw, a) != a)
		return LANES_NONE;
	p = lanes_fabric_port(f, f->switches[sw], a);
	return f->nodes[p->peer_node].switch_index;
}

static int refuse_ring(const struct dor_cabling *c, uint32_t sw, uint8_t a, struct lanes_error *err)
{
	uint32_t length = 1;
	char name[160];

	for (uint32_t x = follow(c, sw, a); x != sw; x = follow(c, x, a))
		length++;
	return lanes_error_set(err, LANES_EREFUSED,
			       "dor: port %u leads from switch %s around a ring of %u switches back "
			       "to it (a torus dimension): DOR is free of credit loops only on meshes "
			       "and hypercubes",
			       a, switch_name(c->f, sw, name, sizeof(name)), length);
}

/*
 * Rule 2 for one mesh dimension port a: walk port a from every switch not
 * walked yet (state 1 on this walk, 2 done); coming back to a switch of
 * this walk is a ring.
 */
static int check_ring(const struct dor_cabling *c, uint8_t a, uint8_t *state, struct lanes_error *err)
{
	uint32_t ns = c->f->num_switches;

	memset(state, 0, ns);
	for (uint32_t s = 0; s < ns; s++) {
		uint32_t x = s;

		while (x != LANES_NONE && !state[x]) {
			state[x] = 1;
			x = follow(c, x, a);
		}
		if (x != LANES_NONE && state[x] == 1)
			return refuse_ring(c, x, a, err);
		for (x = s; x != LANES_NONE && state[x] == 1; x = follow(c, x, a))
			state[x] = 2;
	}
	return 0;
}

/* Rule 2: no mesh dimension closes a ring (a hypercube's port a only goes back and forth). */
static int check_rings(const struct dor_cabling *c, const struct dor_pairs *pp, struct lanes_error *err)
{
	uint8_t *state = malloc((size_t)c->f->num_switches + 1);
	int rc = 0;

	if (!state)
		return lanes_error_oom(err);
	for (unsigned a = 1; a < 256 && !rc; a++)
		if (pp->far[a] && pp->far[a] != a)
			rc = check_ring(c, (uint8_t)a, state, err);
	free(state);
	return rc;
}

/* Rules 1 and 2 (the engine's check, and route's first step). */
static int check_cabling(const struct lanes_fabric *f, struct lanes_error *err)
{
	struct dor_cabling c = { 0 };
	struct dor_pairs pairs;
	int rc;

	if (!(rc = cabling_init(&c, f, err)) && !(rc = check_port_pairs(&c, &pairs, err)))
		rc = check_rings(&c, &pairs, err);
	cabling_free(&c);
	return rc;
}

/* ------------------------------------------------------------ the choice */

/*
 * OpenSM's dor choice (osm_switch_recommend_path with dor): of a switch's
 * min-hop ports (ascending), only those to the same switch as the first.
 * Done in place: the kept ports never move right, and each switch's range
 * is read (begin, end) before its slot is rewritten.
 */
static void first_dimension_only(struct route_hop_ports *h, const struct lanes_fabric *f)
{
	uint32_t kept = 0, n = 0, begin = 0;

	for (uint32_t i = 0; i < h->nmulti; i++) {
		uint32_t s = h->multi[i], end = h->moff[i + 1], k = 0;
		uint32_t node = f->switches[s];
		uint32_t first = lanes_fabric_port(f, node, h->port[begin])->peer_node;

		for (uint32_t j = begin; j < end; j++)
			if (lanes_fabric_port(f, node, h->port[j])->peer_node == first)
				h->port[n + k++] = h->port[j];
		begin = end;
		if (k == 1) {
			h->one[s] = h->port[n];
			continue;
		}
		h->multi[kept++] = s;
		n += k;
		h->moff[kept] = n;
	}
	h->nmulti = kept;
}

/* ------------------------------------------------------------ rule 3, on the tables */

/* The switch behind sw's port, or LANES_NONE (a CA, no cable, port 0 or a drop). */
static uint32_t next_switch(const struct lanes_fabric *f, uint32_t sw, uint8_t port)
{
	const struct lanes_port *p;

	if (port == 0 || port > f->nodes[f->switches[sw]].nports)
		return LANES_NONE;
	p = lanes_fabric_port(f, f->switches[sw], port);
	if (p->peer_node == LANES_NONE || p->peer_node == f->switches[sw])
		return LANES_NONE;
	return f->nodes[p->peer_node].switch_index;
}

static int refuse_order(const struct dor_cabling *c, uint32_t lid, uint32_t s, uint8_t p,
			uint32_t t, uint8_t q, struct lanes_error *err)
{
	char n1[160], n2[160];

	switch_name(c->f, s, n1, sizeof(n1));
	switch_name(c->f, t, n2, sizeof(n2));
	return lanes_error_set(err, LANES_EREFUSED,
			       "dor: the route to LID %u leaves switch %s by port %u (dimension port "
			       "%u), then switch %s by port %u (dimension port %u): not in dimension "
			       "order (a cable missing?), so DOR's freedom from credit loops does not "
			       "hold",
			       lid, n1, p, dimension_port(c, s, p), n2, q, dimension_port(c, t, q));
}

/* Rule 3 for one LID's column: at every switch, the next hop's dimension port is not lower. */
static int check_column(const struct dor_cabling *c, const uint8_t *col, uint32_t lid,
			struct lanes_error *err)
{
	const struct lanes_fabric *f = c->f;

	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint8_t p = col[s], q;
		uint32_t t = next_switch(f, s, p), u;

		if (t == LANES_NONE)
			continue;
		q = col[t];
		if ((u = next_switch(f, t, q)) == LANES_NONE)
			continue;
		if (u == s || dimension_port(c, t, q) < dimension_port(c, s, p))
			return refuse_order(c, lid, s, p, t, q, err);
	}
	return 0;
}

/*
 * Rule 3: every CA (and router) LID's routes in dimension order. Progress:
 * phase "dimension order", a unit per LID.
 */
static int check_dimension_order(const struct lanes_fabric *f, const struct lanes_routing *r,
				 const struct lanes_route_opts *opts, struct lanes_error *err)
{
	struct dor_cabling c = { 0 };
	int rc = cabling_init(&c, f, err);

	lanes_progress_phase(opts->progress, "dimension order", f->max_lid);
	for (uint32_t lid = 1; !rc && lid <= f->max_lid; lid++) {
		uint32_t node = f->lid_owner[lid].node;

		if (node != LANES_NONE && f->nodes[node].type != LANES_NODE_SWITCH)
			rc = check_column(&c, lanes_routing_column(r, lid), lid, err);
		lanes_progress_add(opts->progress, 1);
	}
	cabling_free(&c);
	return rc;
}

/* ------------------------------------------------------------ the engine */

static int set_notes(struct lanes_routing *r, struct lanes_error *err)
{
	static const char notes[] =
		"dor: OpenSM 3.3.23 DOR; Min Hop's shortest paths, at each switch the lowest "
		"dimension (port) and the least-loaded of its parallel cables; cabling checked "
		"consistent and routes in dimension order: free of credit loops on 1 VL";

	free(r->notes);
	r->notes = malloc(sizeof(notes));
	if (!r->notes)
		return lanes_error_oom(err);
	memcpy(r->notes, notes, sizeof(notes));
	return 0;
}

static int check(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_error *err)
{
	(void)opts;
	return check_cabling(f, err);
}

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	struct lanes_routing *r = NULL;
	int rc;

	*out = NULL;
	if ((rc = check_cabling(f, err)) ||
	    (rc = lanes_minhop_route_narrowed(f, opts, first_dimension_only, &r, err)) ||
	    (rc = check_dimension_order(f, r, opts, err)) || (rc = set_notes(r, err)))
		goto out;
	*out = r;
	r = NULL;
out:
	lanes_routing_free(r);
	return rc;
}

const struct lanes_engine lanes_engine_dor = {
	.name = "dor",
	.summary = "OpenSM's Dimension Order Routing: Min Hop, lowest dimension first; meshes "
		   "and hypercubes",
	.scope = "meshes and hypercubes, consistently cabled",
	.resources = "1 VL",
	.source = "OpenSM 3.3.23 DOR (doc/current-routing.txt); osm_ucast_mgr.c, osm_switch.c",
	.flags = LANES_ENGINE_DEADLOCK_FREE,
	.check = check,
	.route = route,
};
