/*
 * load.c - port load counters and min-hop candidate ports, the two pieces
 * of OpenSM's balancing step (seed 002: "Each port has a counter counting
 * the number of target LIDs going through it. When there are multiple
 * alternative ports with same MinHop to a LID, the one with less
 * previously assigned LIDs is selected.").
 *
 * Min-hop ports come from a distance row instead of OpenSM's per-switch
 * hop matrix (osm_ucast_mgr.c relaxes hops[lid][port] = 1 + least hops of
 * the neighbour through each port): a port of s is a min-hop port toward t
 * exactly when its neighbour is one hop closer to t, which gives the same
 * set, parallel cables included, in O(cable ends) per destination switch.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/routing.h"
#include "route_internal.h"

int route_load_init(struct route_load *l, const struct lanes_fabric *f, struct lanes_error *err)
{
	uint32_t ns = f->num_switches;
	size_t total = 0;

	l->count = NULL;
	l->off = malloc(sizeof(*l->off) * ((size_t)ns + 1));
	if (!l->off)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	for (uint32_t s = 0; s < ns; s++) {
		l->off[s] = (uint32_t)total;
		total += (size_t)f->nodes[f->switches[s]].nports + 1;
	}
	l->off[ns] = (uint32_t)total;
	l->count = calloc(total + 1, sizeof(*l->count));
	if (!l->count) {
		route_load_free(l);
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	}
	return 0;
}

void route_load_free(struct route_load *l)
{
	if (!l)
		return;
	free(l->off);
	free(l->count);
	l->off = NULL;
	l->count = NULL;
}

int route_hop_ports_init(struct route_hop_ports *h, const struct lanes_fabric *f,
			 struct lanes_error *err)
{
	size_t ns = f->num_switches, ne = f->adj_off[ns];

	memset(h, 0, sizeof(*h));
	h->dst = LANES_NONE;
	h->one = malloc(ns + 1);
	h->multi = malloc(sizeof(*h->multi) * (ns + 1));
	h->moff = malloc(sizeof(*h->moff) * (ns + 1));
	h->port = malloc(ne + 1);
	h->nb = malloc(sizeof(*h->nb) * (ne + 1));
	if (!h->one || !h->multi || !h->moff || !h->port || !h->nb) {
		route_hop_ports_free(h);
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	}
	for (size_t e = 0; e < ne; e++)
		h->nb[e] = f->adj[e].sw;
	return 0;
}

/*
 * The min-hop ports toward dst of every switch: one[], or multi/moff/port
 * for a switch with several. Locals throughout: the byte stores into one[]
 * and port[] could alias every field.
 */
void route_hop_ports_fill(struct route_hop_ports *h, const struct lanes_fabric *f, uint32_t dst,
			  const uint8_t *dist_to_dst)
{
	const uint32_t *off = f->adj_off, *nb = h->nb, ns = f->num_switches;
	const struct lanes_adj *adj = f->adj;
	const uint8_t *dist = dist_to_dst;
	uint8_t *one = h->one, *port = h->port;
	uint32_t *multi = h->multi, *moff = h->moff, n = 0, nmulti = 0;

	moff[0] = 0;
	for (uint32_t s = 0; s < ns; s++) {
		uint8_t want = (uint8_t)(dist[s] - 1);
		uint32_t k = 0;

		one[s] = LANES_PORT_DROP;
		if (dist[s] == 0 || dist[s] == 255)
			continue;
		for (uint32_t e = off[s]; e < off[s + 1]; e++)
			if (dist[nb[e]] == want)
				port[n + k++] = adj[e].port;
		if (k == 1) {
			one[s] = port[n];
		} else if (k > 1) {
			one[s] = 0;
			multi[nmulti++] = s;
			n += k;
			moff[nmulti] = n;
		}
	}
	h->nmulti = nmulti;
	h->dst = dst;
}

void route_hop_ports_free(struct route_hop_ports *h)
{
	if (!h)
		return;
	free(h->one);
	free(h->multi);
	free(h->moff);
	free(h->port);
	free(h->nb);
	memset(h, 0, sizeof(*h));
	h->dst = LANES_NONE;
}
