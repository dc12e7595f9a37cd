/*
 * slimfly.c - the minimal Slim Fly routing with two VLs of "Early
 * evaluation of direct large-scale InfiniBand networks with adaptive
 * routing", Sec. 3.6, on the Slim Fly of Besta and Hoefler ("Slim Fly: a
 * cost effective low-diameter network topology", SC14): the MMS graph of
 * diameter 2, where every switch reaches every other in one or two links.
 *
 * 1. Structure: lanes_recognize_slimfly() gives every switch coordinates
 *    (t, x, y) under which every cable is an MMS link (it checks every
 *    cable), and every MMS link a cable but for up to 4 missing ones. A
 *    fabric it refuses, this engine refuses with its reason
 *    (LANES_EREFUSED, which the CLI reports as "not for this fabric"): any
 *    other topology, a Slim Fly with a missing switch or more than 4
 *    missing cables.
 * 2. Routes: for a destination switch d and every switch s, the next switch
 *    toward d is d itself when they are cabled, else the intermediate switch
 *    that the case analysis of Sec. 3.6 gives (mms_paths.c: y, yy, t, tt,
 *    ty, yt, and which one is taken where several are minimal). Each LID of
 *    d (its CAs' LIDs and, with switch LIDs on, its own) gets at every s the
 *    port of a cable to that next switch, and at d the port of its CA (0 for
 *    its own LID). Every route is a shortest path: one link when cabled, two
 *    otherwise, the diameter being 2.
 *    Missing cables (the paper routes intact Slim Flies): where a cable of
 *    the chosen route is missing, the next other minimal route whose cables
 *    are there; where the MMS link s - d itself is missing, a two-link
 *    route (mms_paths.c lists all routes of at most two links). Still every
 *    route is a shortest path of at most two links, and the VLs below keep
 *    it deadlock-free. A pair left with no such route (the ends of a missing
 *    t-link, which share no neighbour, or a pair whose only route used the
 *    missing cable) is more than 2 hops apart: the engine refuses
 *    (LANES_EREFUSED), naming the first such pair (lowest destination, then source).
 * 3. LMC: LID base + i of a port asks for choice i of
 *    lanes_slimfly_next_switch(): the pairs with two minimal routes (yy with
 *    several middles, ty and yt) spread their LIDs over them; the others use
 *    their one route for all.
 *    Parallel cables between two switches: LID mod their number picks one,
 *    in port order.
 * 4. VLs, as the paper says: "on two-hop paths VL 0 is used on the first
 *    hop and VL 1 on the second ... if a packet comes from a host, select
 *    VL 0, otherwise VL 1". Every CA injects on VL 0; at a switch, a packet
 *    that came in on a CA port (or from the switch itself, port 0) leaves on
 *    VL 0 and one that came in from a switch leaves on VL 1. One SL (0).
 *    Deadlock freedom: a switch-to-switch link on VL 0 carries first hops
 *    only, which lead to VL 1 or to a CA; one on VL 1 carries second hops
 *    only, which lead to a CA. The channel dependencies go VL 0 -> VL 1 ->
 *    CA and cannot close a cycle. Needs 2 VLs: with max_vls 1 the engine
 *    refuses (lanes_route_over_budget).
 *
 * Where the paper is silent, decided here: which of several minimal routes
 * (mms_paths.c), LMC and parallel cables (3 above), switch LIDs routed like
 * CA LIDs (opts->switch_lids 0: only a switch's own LID, at port 0), the
 * switch's own port 0 counts as a host (its packets start on VL 0).
 *
 * Work: per destination switch, O(switches) next switches, one column per
 * LMC choice, then every LID's column from it; destination switches are
 * split among the workers (opts->threads), each writing only its own LIDs'
 * entries, so the tables are the same for any number of threads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "core/parallel.h"
#include "core/util.h"
#include "lanes/recognize.h"
#include "route/common/layers.h"
#include "route/common/lids.h"
#include "route/common/tables.h"
#include "route/engines.h"
#include "route/slimfly/mms_paths.h"

#define ENGINE "slimfly"
#define VLS_NEEDED 2
/* The most LMC choices a destination asks for: 2^7 LIDs per port. */
#define MAX_CHOICES 128
#define NO_ENTRY UINT32_MAX

/* Per switch, its distinct neighbour switches (ascending) and the ports cabled to each. */
struct sf_cables {
	uint32_t *first_entry;   /* per switch + 1: its entries */
	uint32_t *neighbour;     /* per entry: the neighbour switch */
	uint32_t *first_port;    /* per entry + 1: its ports in port[] */
	uint8_t *port;           /* ports, in port order per entry */
};

struct sf_worker;

struct sf_route {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	struct lanes_routing *r;
	struct lanes_structure structure;
	struct sf_paths paths;
	struct sf_cables cables;
	struct route_switch_lids lids;
	unsigned num_workers;
	struct sf_worker *workers;
};

struct sf_worker {
	struct sf_route *sr;
	uint32_t *next_entry;   /* MAX_CHOICES columns: per switch, the cable entry toward d */
	uint32_t failed_from, failed_to; /* the first pair without a route, or NO_ENTRY */
	char apart[LANES_FALSE_SHARING_GAP];
};

/* ------------------------------------------------------------ cables and LIDs */

static int cmp_adj(const void *a, const void *b)
{
	const struct lanes_adj *x = a, *y = b;

	if (x->sw != y->sw)
		return x->sw < y->sw ? -1 : 1;
	return (x->port > y->port) - (x->port < y->port);
}

static int cables_init(struct sf_cables *c, const struct lanes_fabric *f, struct lanes_error *err)
{
	uint32_t n = f->num_switches, ends = f->adj_off[n], entries = 0;
	struct lanes_adj *sorted = malloc(((size_t)ends + 1) * sizeof(*sorted));

	c->first_entry = malloc(((size_t)n + 1) * sizeof(*c->first_entry));
	c->neighbour = malloc(((size_t)ends + 1) * sizeof(*c->neighbour));
	c->first_port = malloc(((size_t)ends + 1) * sizeof(*c->first_port));
	c->port = malloc((size_t)ends + 1);
	if (!sorted || !c->first_entry || !c->neighbour || !c->first_port || !c->port) {
		free(sorted);
		return lanes_error_oom(err);
	}
	memcpy(sorted, f->adj, (size_t)ends * sizeof(*sorted));
	for (uint32_t s = 0; s < n; s++) {
		uint32_t lo = f->adj_off[s], hi = f->adj_off[s + 1];

		qsort(sorted + lo, hi - lo, sizeof(*sorted), cmp_adj);
		c->first_entry[s] = entries;
		for (uint32_t e = lo; e < hi; e++) {
			if (e == lo || sorted[e].sw != sorted[e - 1].sw) {
				c->neighbour[entries] = sorted[e].sw;
				c->first_port[entries++] = e;
			}
			c->port[e] = sorted[e].port;
		}
	}
	c->first_entry[n] = entries;
	c->first_port[entries] = ends;
	free(sorted);
	return 0;
}

static void cables_free(struct sf_cables *c)
{
	free(c->first_entry);
	free(c->neighbour);
	free(c->first_port);
	free(c->port);
}

/* The entry of s's cables to v, or NO_ENTRY. */
static uint32_t cable_entry(const struct sf_cables *c, uint32_t s, uint32_t v)
{
	uint32_t lo = c->first_entry[s], n = c->first_entry[s + 1] - lo;
	uint32_t i = lanes_lower_bound(c->neighbour + lo, n, v);

	return i < n && c->neighbour[lo + i] == v ? lo + i : NO_ENTRY;
}

/* ------------------------------------------------------------ one destination */

/* LID base + what? And at its own switch, which port? */
static uint32_t lid_offset(const struct lanes_fabric *f, uint32_t lid, uint8_t *port_at_switch)
{
	const struct lanes_lid_owner *o = &f->lid_owner[lid];

	lanes_fabric_lid_switch_port(f, lid, port_at_switch);
	return lid - lanes_fabric_lid(f, o->node, o->port);
}

/*
 * The cable entry from s toward d (s != d) for `choice`; where a cable of
 * that route is missing, the next of the other minimal routes (choice + 1,
 * ...) whose cables are all there, and where the MMS link s - d itself is
 * missing, a route of two links. NO_ENTRY when none is left.
 */
static uint32_t route_entry(const struct sf_route *sr, uint32_t s, uint32_t d, uint32_t choice)
{
	const struct sf_cables *c = &sr->cables;
	int shape, without_link;
	uint32_t next = lanes_slimfly_next_switch(&sr->paths, s, d, choice, 0, &shape);

	without_link = next == d && cable_entry(c, s, d) == NO_ENTRY;
	for (uint32_t k = 0; k < sr->paths.q; k++) { /* fewer than q routes of two links */
		uint32_t e;

		next = lanes_slimfly_next_switch(&sr->paths, s, d, choice + k, without_link,
						 &shape);
		if (next == LANES_NONE)
			return NO_ENTRY;
		e = cable_entry(c, s, next);
		if (e != NO_ENTRY && (next == d || cable_entry(c, next, d) != NO_ENTRY))
			return e;
	}
	return NO_ENTRY;
}

/*
 * Column `choice` toward d: per switch, its cable entry to the next switch
 * (NO_ENTRY at d). @return 0, or 1 when a switch has no route
 */
static int fill_column(struct sf_worker *w, uint32_t d, uint32_t choice, uint32_t *column)
{
	const struct sf_route *sr = w->sr;

	for (uint32_t s = 0; s < sr->f->num_switches; s++) {
		column[s] = s == d ? NO_ENTRY : route_entry(sr, s, d, choice);
		if (s != d && column[s] == NO_ENTRY) {
			w->failed_from = s;
			w->failed_to = d;
			return 1;
		}
	}
	return 0;
}

/* One LID of d: at d its port, elsewhere a cable of the column's entry. */
static void fill_lid(struct sf_route *sr, uint32_t d, uint32_t lid, uint8_t port_at_d,
		     const uint32_t *column)
{
	const struct sf_cables *c = &sr->cables;

	for (uint32_t s = 0; s < sr->f->num_switches; s++) {
		uint32_t e = column[s], parallel;

		if (s == d) {
			lanes_routing_set_port(sr->r, s, lid, port_at_d);
			continue;
		}
		parallel = c->first_port[e + 1] - c->first_port[e];
		e = c->first_port[e] + (parallel > 1 ? lid % parallel : 0);
		lanes_routing_set_port(sr->r, s, lid, c->port[e]);
	}
}

/* Every LID of destination switch d. @return 0, or 1 when a route is missing */
static int route_destination(struct sf_worker *w, uint32_t d)
{
	struct sf_route *sr = w->sr;
	const struct lanes_fabric *f = sr->f;
	uint32_t columns_made = 0, n = f->num_switches;

	for (uint32_t i = sr->lids.first[d]; i < sr->lids.first[d + 1]; i++) {
		uint32_t lid = sr->lids.lid[i];
		uint8_t port_at_d;
		uint32_t choice = lid_offset(f, lid, &port_at_d) % MAX_CHOICES;
		int is_switch = f->nodes[f->lid_owner[lid].node].type == LANES_NODE_SWITCH;

		if (is_switch && !sr->opts->switch_lids) {
			lanes_routing_set_port(sr->r, d, lid, 0);
			continue;
		}
		for (; columns_made <= choice; columns_made++) {
			uint32_t *column = w->next_entry + (size_t)columns_made * n;

			if (fill_column(w, d, columns_made, column))
				return 1;
		}
		fill_lid(sr, d, lid, port_at_d, w->next_entry + (size_t)choice * n);
	}
	return 0;
}

/*
 * Worker k: destination switches k, k + workers, ...; stops at the first
 * without routes. Progress: a unit per destination switch routed.
 */
static void route_share(void *ctx, unsigned k)
{
	struct sf_worker *w = (struct sf_worker *)ctx + k;

	for (uint32_t d = k; d < w->sr->f->num_switches; d += w->sr->num_workers) {
		if (route_destination(w, d))
			return;
		lanes_progress_add(w->sr->opts->progress, 1);
	}
}

/* ------------------------------------------------------------ VLs */

/* VL 1 for everything that came in from a switch; VL 0 (map 0) for the rest. */
static int set_vls(struct lanes_routing *r, const struct lanes_fabric *f, struct lanes_error *err)
{
	uint8_t map[LANES_NUM_SLS];
	uint16_t vl1;
	int rc;

	memset(map, 1, sizeof(map));
	if ((rc = lanes_routing_add_map(r, map, &vl1, err)) ||
	    (rc = lanes_routing_enable_sl2vl(r, f, err)))
		return rc;
	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t node = f->switches[s];
		uint8_t nports = f->nodes[node].nports;

		for (uint8_t in = 1; in <= nports; in++) {
			uint32_t peer = lanes_fabric_port(f, node, in)->peer_node;

			if (peer == LANES_NONE || f->nodes[peer].type != LANES_NODE_SWITCH)
				continue;
			for (uint32_t out = 0; out <= nports; out++)
				lanes_routing_set_switch_map(r, f, s, in, (uint8_t)out, vl1);
		}
	}
	lanes_routing_count_resources(r);
	return 0;
}

/* ------------------------------------------------------------ setup */

static int set_notes(struct sf_route *sr, struct lanes_error *err)
{
	char notes[160];
	int len = snprintf(notes, sizeof(notes),
			   ENGINE ": minimal Slim Fly routing (MMS graph, q=%u), VL 0 on the first "
			   "hop and VL 1 on the second; deadlock-free",
			   sr->structure.slimfly_q);

	sr->r->notes = malloc((size_t)len + 1);
	if (!sr->r->notes)
		return lanes_error_oom(err);
	memcpy(sr->r->notes, notes, (size_t)len + 1);
	return 0;
}

static int start_workers(struct sf_route *sr, struct lanes_error *err)
{
	uint32_t max_offset = 0;

	for (uint32_t lid = 1; lid <= sr->f->max_lid; lid++) {
		uint8_t port;

		if (sr->f->lid_owner[lid].node != LANES_NONE &&
		    lid_offset(sr->f, lid, &port) > max_offset)
			max_offset = lid_offset(sr->f, lid, &port);
	}
	sr->num_workers = lanes_route_destination_workers(sr->opts, sr->f->num_switches);
	sr->workers = calloc(sr->num_workers, sizeof(*sr->workers));
	if (!sr->workers)
		return lanes_error_oom(err);
	for (unsigned k = 0; k < sr->num_workers; k++) {
		struct sf_worker *w = &sr->workers[k];
		size_t columns = max_offset + 1 < MAX_CHOICES ? max_offset + 1 : MAX_CHOICES;

		w->sr = sr;
		w->failed_from = w->failed_to = NO_ENTRY;
		w->next_entry = malloc(columns * sr->f->num_switches * sizeof(*w->next_entry));
		if (!w->next_entry)
			return lanes_error_oom(err);
	}
	return 0;
}

/* MMS links without a cable. */
static uint32_t links_missing(const struct sf_route *sr)
{
	uint32_t n = sr->f->num_switches, degree = sr->paths.q + sr->paths.num_generators[0];

	return (n * degree - sr->cables.first_entry[n]) / 2;
}

/* The refusal for a pair without a route of at most two links. */
static int refuse_pair(const struct sf_route *sr, uint32_t from, uint32_t to,
		       struct lanes_error *err)
{
	const struct lanes_fabric *f = sr->f;

	return lanes_error_set(err, LANES_EREFUSED,
			       ENGINE ": no route of at most 2 switch hops from switch %u "
			       "('%.60s') to switch %u ('%.60s'); MMS links of q=%u without a "
			       "cable: %u (dfdn routes it, one VL per hop)",
			       from, f->nodes[f->switches[from]].desc, to,
			       f->nodes[f->switches[to]].desc, sr->paths.q, links_missing(sr));
}

/* The first pair the workers found without a route (lowest destination), as a refusal. */
static int refuse_missing_route(struct sf_route *sr, struct lanes_error *err)
{
	const struct sf_worker *first = NULL;

	for (unsigned k = 0; k < sr->num_workers; k++)
		if (sr->workers[k].failed_to != NO_ENTRY &&
		    (!first || sr->workers[k].failed_to < first->failed_to))
			first = &sr->workers[k];
	return first ? refuse_pair(sr, first->failed_from, first->failed_to, err) : 0;
}

/* The coordinates (recognised), the routes' arithmetic and the cables. */
static int set_up_paths(struct sf_route *sr, struct lanes_error *err)
{
	struct lanes_error why;
	int rc;

	lanes_error_clear(&why);
	if ((rc = lanes_recognize_slimfly(sr->f, &sr->structure, &why)))
		return rc == LANES_EINVAL ? lanes_error_set(err, LANES_EREFUSED, ENGINE ": %s",
							    why.message)
					  : lanes_error_set(err, rc, "%s", why.message);
	if ((rc = lanes_slimfly_paths_init(&sr->paths, &sr->structure, err)))
		return rc;
	return cables_init(&sr->cables, sr->f, err);
}

static int prepare(struct sf_route *sr, struct lanes_error *err)
{
	int rc;

	/* the structure first: a fabric that is no Slim Fly says so whatever the budget */
	if ((rc = set_up_paths(sr, err)))
		return rc;
	if (sr->opts->max_vls < VLS_NEEDED)
		return lanes_route_over_budget(err, ENGINE, VLS_NEEDED, 15, sr->opts);
	if ((rc = lanes_route_switch_lids_init(&sr->lids, sr->f, err)) ||
	    (rc = start_workers(sr, err)) ||
	    (rc = lanes_routing_new_parallel(sr->f, sr->num_workers, &sr->r, err)))
		return rc;
	return set_notes(sr, err);
}

static void release(struct sf_route *sr)
{
	for (unsigned k = 0; sr->workers && k < sr->num_workers; k++)
		free(sr->workers[k].next_entry);
	free(sr->workers);
	lanes_route_switch_lids_free(&sr->lids);
	cables_free(&sr->cables);
	lanes_slimfly_paths_free(&sr->paths);
	lanes_structure_free(&sr->structure);
	lanes_routing_free(sr->r);
}

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	struct sf_route sr;
	int rc;

	memset(&sr, 0, sizeof(sr));
	sr.f = f;
	sr.opts = opts;
	*out = NULL;
	if ((rc = prepare(&sr, err)))
		goto out;
	lanes_progress_phase(opts->progress, "routing", f->num_switches);
	lanes_parallel_run(sr.num_workers, route_share, sr.workers);
	if ((rc = refuse_missing_route(&sr, err)) || (rc = set_vls(sr.r, f, err)))
		goto out;
	*out = sr.r;
	sr.r = NULL;
out:
	release(&sr);
	return rc;
}

const struct lanes_engine lanes_engine_slimfly = {
	.name = ENGINE,
	.summary = "Slim Fly minimal routing from recognised MMS coordinates, VL 0 then VL 1",
	.scope = "Slim Flies",
	.resources = "1 SL, 2 VLs",
	.source = "Early evaluation of direct large-scale InfiniBand networks with adaptive "
		  "routing, Sec. 3.6; Besta, Hoefler, Slim Fly, SC14",
	.flags = LANES_ENGINE_DEADLOCK_FREE | LANES_ENGINE_USES_VLS,
	.route = route,
};
