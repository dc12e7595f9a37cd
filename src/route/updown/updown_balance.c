/*
 * updown_balance.c - up* / down* routing whose path per switch pair is
 * chosen by the balancing selection of route/common/balance.c (our
 * reconstruction of Sancho and Robles, "Improving the up* / down* routing
 * scheme for networks of workstations", Euro-Par 2000, as Sancho, Robles,
 * Lopez, Flich, Duato, "Routing in InfiniBand Torus Network Topologies",
 * ICPP 2003, Sec. 5 use it), instead of minhop's least-loaded port per LID
 * (updown.c). ud-dfs runs it with balance=N.
 *
 * The candidates are the same as updown.c's: phases A and B
 * (updown_legal.c) give every switch with a legal path its next hops on
 * its shortest legal route under the states that keep a destination-based
 * table legal (any combination of choices is up* then down*), phase C
 * (updown_complete.c) a shortest completion to the others, which carries
 * no CA traffic and is not counted as a source. The choice is per
 * destination switch, one tree for all its LIDs; destinations one at a
 * time in index order on one thread, so the tables do not depend on
 * opts->threads.
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "route/common/balance.h"
#include "route/updown/updown.h"
#include "route/updown/updown_internal.h"

struct updown_balanced {
	const struct lanes_fabric *f;
	struct updown_graph graph;
	struct updown phases;
	uint32_t *first;  /* per switch + 1: offsets into entry */
	uint32_t *entry;  /* candidate adjacency entries */
	uint8_t *source;  /* per switch: a legal route (not completed) */
	struct route_updown_gap *gap;
};

/* The candidate ports of the phases (u->hops) as adjacency entries, per switch. */
static void hops_to_entries(struct updown_balanced *b)
{
	const struct route_hop_ports *h = &b->phases.hops;
	uint32_t ns = b->f->num_switches;

	memset(b->first, 0, sizeof(*b->first) * ((size_t)ns + 1));
	for (uint32_t s = 0; s < ns; s++)
		b->first[s + 1] = h->one[s] != 0 && h->one[s] != LANES_PORT_DROP;
	for (uint32_t i = 0; i < h->nmulti; i++)
		b->first[h->multi[i] + 1] = h->moff[i + 1] - h->moff[i];
	for (uint32_t s = 0; s < ns; s++)
		b->first[s + 1] += b->first[s];
	for (uint32_t s = 0; s < ns; s++)
		if (h->one[s] != 0 && h->one[s] != LANES_PORT_DROP)
			b->entry[b->first[s]] = lanes_route_balance_entry(b->f, s, h->one[s]);
	for (uint32_t i = 0; i < h->nmulti; i++)
		for (uint32_t p = h->moff[i], s = h->multi[i]; p < h->moff[i + 1]; p++)
			b->entry[b->first[s] + p - h->moff[i]] =
				lanes_route_balance_entry(b->f, s, h->port[p]);
}

/* route_balance_candidates_fn: the phases toward t. @return 1 on a gap */
static int candidates(void *ctx, uint32_t t, const struct route_balance *balance,
		      struct route_balance_tree *out, struct lanes_error *err)
{
	struct updown_balanced *b = ctx;
	struct updown *u = &b->phases;
	struct route_updown_gap gap = { LANES_NONE, LANES_NONE };

	(void)err;
	(void)balance;
	u->gap = &gap;
	lanes_updown_legal_paths(u, t);
	if (u->num_unrouted)
		lanes_updown_complete(u, t, b->graph.has_ca[t]);
	if (gap.from_sw != LANES_NONE) {
		*b->gap = gap;
		return 1;
	}
	hops_to_entries(b);
	for (uint32_t s = 0; s < b->f->num_switches; s++)
		b->source[s] = u->state[s] != ST_COMPLETED;
	out->dest = t;
	out->rank = u->route_hops;
	out->first = b->first;
	out->entry = b->entry;
	out->source = b->source;
	return 0;
}

int lanes_route_updown_balanced(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
				const uint32_t *pos, uint32_t rounds, struct lanes_routing *r,
				struct route_updown_gap *gap, struct lanes_error *err)
{
	struct updown_balanced b;
	size_t ns = f->num_switches;
	int rc;

	memset(&b, 0, sizeof(b));
	b.f = f;
	b.gap = gap;
	gap->from_sw = gap->to_sw = LANES_NONE;
	b.first = malloc((ns + 2) * sizeof(*b.first));
	b.entry = malloc(((size_t)f->adj_off[ns] + 1) * sizeof(*b.entry));
	b.source = malloc(ns + 1);
	if (!b.first || !b.entry || !b.source) {
		rc = lanes_error_oom(err);
		goto out;
	}
	if ((rc = lanes_updown_graph_init(&b.graph, f, pos, err)) ||
	    (rc = lanes_updown_phases_init(&b.phases, &b.graph, err)))
		goto out;
	lanes_updown_mark_ca_switches(f, b.graph.has_ca);
	rc = lanes_route_balanced_tables(f, opts, rounds, candidates, &b, r, err);
out:
	lanes_updown_phases_free(&b.phases);
	lanes_updown_graph_free(&b.graph);
	free(b.first);
	free(b.entry);
	free(b.source);
	return rc;
}
