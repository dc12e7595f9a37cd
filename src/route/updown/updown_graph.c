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

/* The adjacency of each switch, up moves first, each part in port order. */
static void split_adjacency(struct updown_graph *g)
{
	const struct lanes_fabric *f = g->f;
	const struct lanes_adj *adj = f->adj;

	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t e0 = f->adj_off[s], e1 = f->adj_off[s + 1], nup = 0, ku, kd;

		for (uint32_t e = e0; e < e1; e++)
			nup += g->isup[e] = g->pos[adj[e].sw] < g->pos[s];
		g->off[s] = ku = e0;
		g->mid[s] = kd = e0 + nup;
		for (uint32_t e = e0; e < e1; e++) {
			uint32_t k = g->isup[e] ? ku++ : kd++;

			g->nb[k] = adj[e].sw;
			g->port[k] = adj[e].port;
		}
	}
	g->off[f->num_switches] = f->adj_off[f->num_switches];
}

int lanes_updown_graph_init(struct updown_graph *g, const struct lanes_fabric *f,
			    const uint32_t *pos, struct lanes_error *err)
{
	size_t ns = f->num_switches, ne = f->adj_off[ns];
	uint32_t ncomp = 0;
	int rc;

	memset(g, 0, sizeof(*g));
	g->f = f;
	g->pos = pos;
	/* one zeroed block: off, mid, perm, comp, nb, then port, isup, has_ca */
	g->off = calloc(1, sizeof(uint32_t) * (4 * (ns + 1) + ne + 1) + 2 * (ne + 1) + ns + 1);
	if (!g->off)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	g->mid = g->off + ns + 1;
	g->perm = g->mid + ns + 1;
	g->comp = g->perm + ns + 1;
	g->nb = g->comp + ns + 1;
	g->port = (uint8_t *)(g->nb + ne + 1);
	g->isup = g->port + ne + 1;
	g->has_ca = g->isup + ne + 1;
	if ((rc = lanes_route_components(f, g->comp, &ncomp, err)))
		return rc;
	split_adjacency(g);
	for (uint32_t s = 0; s < ns; s++)
		g->perm[pos[s]] = s;
	return 0;
}

void lanes_updown_graph_free(struct updown_graph *g)
{
	free(g->off);
	g->off = NULL;
}

int lanes_updown_phases_init(struct updown *u, const struct updown_graph *g,
			     struct lanes_error *err)
{
	size_t ns = g->f->num_switches, n = ns + 1, nbits = (ns + 63) / 64 + 1;

	memset(u, 0, sizeof(*u));
	u->g = g;
	/* one zeroed block: bits, then dn, best, len, queue, sorted, unrouted, bucket, state */
	u->bits = calloc(1, sizeof(uint64_t) * nbits + sizeof(uint32_t) * (7 * n + 1) + n);
	if (!u->bits)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	u->dn = (uint32_t *)(u->bits + nbits);
	u->best = u->dn + n;
	u->len = u->best + n;
	u->queue = u->len + n;
	u->sorted = u->queue + n;
	u->unrouted = u->sorted + n;
	u->bucket = u->unrouted + n; /* n + 1 */
	u->state = (uint8_t *)(u->bucket + n + 1);
	memset(u->dn, 0xff, sizeof(*u->dn) * ns); /* INF */
	return lanes_route_hop_ports_init(&u->hops, g->f, err);
}

void lanes_updown_phases_free(struct updown *u)
{
	lanes_route_hop_ports_free(&u->hops);
	free(u->bits);
	u->bits = NULL;
}
