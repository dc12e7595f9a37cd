/*
 * endports.c - the CA and router ports behind the switches, in the order
 * OpenSM 3.3.23 routes them (seed 002: "each switch is visited and for each
 * target LID ..."; the order itself is osm_ucast_mgr.c's
 * ucast_mgr_build_lfts without a guid_routing_order file).
 *
 * OpenSM builds its port order list in two steps. sort_ports_by_switch_load
 * takes the switches in the order of its switch GUID map, counts each one's
 * end-port cables (ports whose peer is not a switch), sorts them by that
 * count, largest first, with glibc's qsort (a merge sort in the glibc 2.36
 * that Debian's OpenSM 3.3.23 runs on, so ties keep the map order), and
 * appends each switch's end ports in port order.
 * Then every port not yet listed (switch port 0s, CA ports cabled to no
 * switch) follows in port GUID map order. Switch LIDs never change a load
 * counter in OpenSM (port_profile_switch_nodes is off by default) and
 * unattached ports are unroutable, so only the first part is kept here.
 *
 * Invariant: the end ports behind one switch are consecutive.
 */
#include <stdlib.h>

#include "route_internal.h"

#define FEW_SWITCHES 16 /* switches ranked on the stack, by insertion */

uint64_t route_osm_guid_key(uint64_t guid)
{
	return __builtin_bswap64(guid); /* its bytes in reverse order */
}

struct sw_rank {
	uint64_t key;   /* OpenSM's GUID map key */
	uint32_t links; /* end-port cables */
	uint32_t sw;
};

static int by_load(const void *pa, const void *pb)
{
	const struct sw_rank *a = pa, *b = pb;

	if (a->links != b->links)
		return a->links > b->links ? -1 : 1;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->sw < b->sw ? -1 : a->sw > b->sw;
}

static int is_endport_peer(const struct lanes_fabric *f, const struct lanes_port *p)
{
	return p->peer_node != LANES_NONE && f->nodes[p->peer_node].type != LANES_NODE_SWITCH;
}

static uint32_t count_endport_links(const struct lanes_fabric *f, uint32_t node)
{
	const struct lanes_port *pt = lanes_fabric_port(f, node, 1);
	uint32_t n = 0, np = f->nodes[node].nports;

	for (uint32_t i = 0; i < np; i++)
		n += (uint32_t)is_endport_peer(f, &pt[i]);
	return n;
}

static uint8_t max_switch_lmc(const struct lanes_fabric *f)
{
	uint8_t m = 0;

	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint8_t l = lanes_fabric_port(f, f->switches[s], 0)->lmc;

		m = l > m ? l : m;
	}
	return m;
}

/* Append the end ports behind switch s (links of them cabled), in its port order. */
static void add_switch_endports(const struct lanes_fabric *f, uint32_t s, uint32_t links,
				struct route_endports *e)
{
	uint32_t node = f->switches[s], np = f->nodes[node].nports;
	const struct lanes_port *pt = lanes_fabric_port(f, node, 1);

	for (uint32_t i = 0; i < np && links; i++) {
		struct route_endport *ep = &e->ep[e->n];

		if (!is_endport_peer(f, &pt[i]))
			continue;
		links--;
		ep->node = pt[i].peer_node;
		ep->port = pt[i].peer_port;
		ep->sw = s;
		ep->sw_port = (uint8_t)(i + 1);
		ep->lid = lanes_fabric_port(f, ep->node, ep->port)->lid; /* not a switch's */
		ep->lmc = lanes_fabric_port(f, ep->node, ep->port)->lmc;
		if (!ep->lid)
			continue;
		e->max_lmc = ep->lmc > e->max_lmc ? ep->lmc : e->max_lmc;
		e->n++;
	}
}

/*
 * by_load is a total order (switch indices differ), so any sort gives the
 * one result: insertion on a few switches, where qsort's set-up costs more.
 */
static void sort_by_load(struct sw_rank *rank, uint32_t ns)
{
	if (ns > FEW_SWITCHES) {
		qsort(rank, ns, sizeof(*rank), by_load);
		return;
	}
	for (uint32_t i = 1; i < ns; i++) {
		struct sw_rank x = rank[i];
		uint32_t j = i;

		for (; j > 0 && by_load(&rank[j - 1], &x) > 0; j--)
			rank[j] = rank[j - 1];
		rank[j] = x;
	}
}

int route_endports_osm_order(const struct lanes_fabric *f, struct route_endports *out,
			     struct lanes_error *err)
{
	uint32_t ns = f->num_switches, total = 0;
	struct sw_rank few[FEW_SWITCHES];
	struct sw_rank *rank = ns <= FEW_SWITCHES ? few : malloc(sizeof(*rank) * ns);

	out->ep = NULL;
	out->n = 0;
	out->max_lmc = max_switch_lmc(f);
	if (!rank)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	for (uint32_t s = 0; s < ns; s++) {
		rank[s].key = route_osm_guid_key(f->nodes[f->switches[s]].guid);
		rank[s].links = count_endport_links(f, f->switches[s]);
		rank[s].sw = s;
		total += rank[s].links;
	}
	sort_by_load(rank, ns);
	out->ep = malloc(sizeof(*out->ep) * (total ? total : 1));
	for (uint32_t i = 0; out->ep && i < ns; i++)
		add_switch_endports(f, rank[i].sw, rank[i].links, out);
	if (rank != few)
		free(rank);
	return out->ep ? 0 : lanes_error_set(err, LANES_ENOMEM, "out of memory");
}

void route_endports_free(struct route_endports *eps)
{
	if (!eps)
		return;
	free(eps->ep);
	eps->ep = NULL;
	eps->n = 0;
}
