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

size_t route_hop_ports_save_budget(const struct lanes_fabric *f)
{
	return ((size_t)4 << 20) + (size_t)(f->max_lid + 1) * f->num_switches / 4;
}

struct route_saved_hops *route_hop_ports_save(const struct route_hop_ports *h, uint32_t ns,
					      const uint8_t *extra, size_t *budget)
{
	size_t nm = h->nmulti, np = h->moff[nm], nx = extra ? ns : 0;
	size_t bytes = sizeof(struct route_saved_hops) + sizeof(uint32_t) * (2 * nm + 1) + ns + nx + np;
	struct route_saved_hops *sv;
	char *p;

	if (bytes > *budget || !(sv = malloc(bytes)))
		return NULL;
	*budget -= bytes;
	p = (char *)(sv + 1);
	sv->h = *h;
	sv->h.nb = NULL;
	sv->h.multi = memcpy(p, h->multi, sizeof(uint32_t) * nm);
	p += sizeof(uint32_t) * nm;
	sv->h.moff = memcpy(p, h->moff, sizeof(uint32_t) * (nm + 1));
	p += sizeof(uint32_t) * (nm + 1);
	sv->h.one = memcpy(p, h->one, ns);
	p += ns;
	sv->extra = extra ? memcpy(p, extra, ns) : NULL;
	p += nx;
	sv->h.port = np ? memcpy(p, h->port, np) : (uint8_t *)p;
	sv->tag = 0;
	return sv;
}

/* offset > 0: each LID's search starts after the port of the LID before it. */
static void fill_after_prev(uint8_t *lft, uint32_t ns, uint32_t s, uint32_t *load,
			    const uint8_t *ports, uint32_t n, const uint32_t *lids, uint32_t m,
			    uint32_t add)
{
	for (uint32_t j = 0; j < m; j++) {
		uint8_t *col = lft + (size_t)lids[j] * ns, p;

		p = route_least_loaded(load, ports, n, (col - ns)[s] + 1u);
		col[s] = p;
		load[p] += add;
	}
}

/*
 * route_least_loaded from port 1 is the first least-loaded port in list
 * order. Uncounted, every LID takes the same one. Counted, the ports at the
 * least load lo are taken in list order, each going to lo + 1, then those at
 * lo + 1 from the start again: walk on from the last pick to the next port
 * at lo, and past the end raise lo.
 */
static void fill_from_start(uint8_t *lft, uint32_t ns, uint32_t s, uint32_t *load,
			    const uint8_t *ports, uint32_t n, const uint32_t *lids, uint32_t m,
			    uint32_t add)
{
	uint32_t lo = load[ports[0]], c = 0;

	for (uint32_t q = 1; q < n; q++)
		if (load[ports[q]] < lo) {
			lo = load[ports[q]];
			c = q;
		}
	if (!add) {
		for (uint32_t j = 0; j < m; j++)
			lft[(size_t)lids[j] * ns + s] = ports[c];
		return;
	}
	for (uint32_t j = 0; j < m; j++) {
		while (load[ports[c]] != lo)
			if (++c == n) {
				c = 0;
				lo++;
			}
		lft[(size_t)lids[j] * ns + s] = ports[c];
		load[ports[c]]++;
	}
}

/*
 * A switch's choices read only its own counters: the multi switches are
 * taken one at a time. (Locals: the byte stores into lft could alias h.)
 */
void route_fill_lids(uint8_t *lft, uint32_t ns, const struct route_hop_ports *h,
		     const struct route_load *load, const uint32_t *lids, uint32_t m, int offset,
		     uint32_t ncount)
{
	const uint32_t *multi = h->multi, *moff = h->moff, *loff = load->off, nmulti = h->nmulti;
	const uint8_t *port = h->port;
	uint32_t *count = load->count;

	for (uint32_t j = 0; j < m; j++)
		memcpy(lft + (size_t)lids[j] * ns, h->one, ns);
	for (uint32_t i = 0; i < nmulti; i++) {
		uint32_t s = multi[i], a = moff[i], n = moff[i + 1] - a;

		if (offset)
			fill_after_prev(lft, ns, s, count + loff[s], port + a, n, lids, m,
					i < ncount);
		else
			fill_from_start(lft, ns, s, count + loff[s], port + a, n, lids, m,
					i < ncount);
	}
}
