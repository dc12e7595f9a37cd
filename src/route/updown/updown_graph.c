/*
 * updown_graph.c - what the phases of up* / down* routing (updown_legal.c,
 * updown_complete.c) read and write: the switch graph with each move's
 * direction under the order (struct updown_graph, shared by the workers and
 * read-only while they run), and one worker's state for the phases toward
 * one destination switch (struct updown). updown.c drives them.
 *
 * The direction of a move follows the up* / down* rule of Sancho, Robles,
 * Lopez, Flich, Duato, "Routing in InfiniBand Torus Network Topologies"
 * (ICPP 2003), section 3: a move to a switch earlier in the order is "up".
 */
#include <stdlib.h>
#include <string.h>

#include "route/updown/updown_internal.h"
#include "core/util.h"

/* The adjacency of each switch, up moves first, each part in port order. */
static void split_adjacency(struct updown_graph *g)
{
	const struct lanes_fabric *f = g->f;
	const struct lanes_adj *adj = f->adj;

	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t e0 = f->adj_off[s], e1 = f->adj_off[s + 1], nup = 0, ku, kd;

		for (uint32_t e = e0; e < e1; e++)
			nup += g->goes_up[e] = g->position[adj[e].sw] < g->position[s];
		g->first_up[s] = ku = e0;
		g->first_down[s] = kd = e0 + nup;
		for (uint32_t e = e0; e < e1; e++) {
			uint32_t k = g->goes_up[e] ? ku++ : kd++;

			g->neighbour[k] = adj[e].sw;
			g->entry_port[k] = adj[e].port;
		}
	}
	g->first_up[f->num_switches] = f->adj_off[f->num_switches];
}

int lanes_updown_graph_init(struct updown_graph *g, const struct lanes_fabric *f,
			    const uint32_t *pos, struct lanes_error *err)
{
	size_t ns = f->num_switches, ne = f->adj_off[ns];
	uint32_t ncomp = 0;
	int rc;

	memset(g, 0, sizeof(*g));
	g->f = f;
	g->position = pos;
	/* one zeroed block: first_up, first_down, by_position, component, neighbour,
	 * then entry_port, goes_up, has_ca */
	g->first_up = calloc(1, sizeof(uint32_t) * (4 * (ns + 1) + ne + 1) + 2 * (ne + 1) + ns + 1);
	if (!g->first_up)
		return lanes_error_oom(err);
	g->first_down = g->first_up + ns + 1;
	g->by_position = g->first_down + ns + 1;
	g->component = g->by_position + ns + 1;
	g->neighbour = g->component + ns + 1;
	g->entry_port = (uint8_t *)(g->neighbour + ne + 1);
	g->goes_up = g->entry_port + ne + 1;
	g->has_ca = g->goes_up + ne + 1;
	if ((rc = lanes_route_components(f, g->component, &ncomp, err)))
		return rc;
	split_adjacency(g);
	for (uint32_t s = 0; s < ns; s++)
		g->by_position[pos[s]] = s;
	return 0;
}

void lanes_updown_graph_free(struct updown_graph *g)
{
	free(g->first_up);
	g->first_up = NULL;
}

int lanes_updown_phases_init(struct updown *u, const struct updown_graph *g,
			     struct lanes_error *err)
{
	size_t ns = g->f->num_switches, n = ns + 1, nbits = (ns + 63) / 64 + 1;

	memset(u, 0, sizeof(*u));
	u->g = g;
	/* one zeroed block: down_set_bits, then down_hops, best_hops, route_hops,
	 * queue, routed_by_hops, unrouted, hops_bucket, state */
	u->down_set_bits = calloc(1, sizeof(uint64_t) * nbits + sizeof(uint32_t) * (7 * n + 1) + n);
	if (!u->down_set_bits)
		return lanes_error_oom(err);
	u->down_hops = (uint32_t *)(u->down_set_bits + nbits);
	u->best_hops = u->down_hops + n;
	u->route_hops = u->best_hops + n;
	u->queue = u->route_hops + n;
	u->routed_by_hops = u->queue + n;
	u->unrouted = u->routed_by_hops + n;
	u->hops_bucket = u->unrouted + n; /* n + 1 */
	u->state = (uint8_t *)(u->hops_bucket + n + 1);
	memset(u->down_hops, 0xff, sizeof(*u->down_hops) * ns); /* INF */
	return lanes_route_hop_ports_init(&u->hops, g->f, err);
}

void lanes_updown_phases_free(struct updown *u)
{
	lanes_route_hop_ports_free(&u->hops);
	free(u->down_set_bits);
	u->down_set_bits = NULL;
}
