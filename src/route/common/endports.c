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

#include "core/util.h"
#include "route/common/endports.h"
#include "core/bits.h"

#define FEW_SWITCHES 16 /* switches ranked on the stack, by insertion */

uint64_t lanes_route_osm_guid_key(uint64_t guid)
{
	return lanes_bswap64(guid); /* its bytes in reverse order */
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

/* The switch index that CA or router port slot pt is cabled to, or LANES_NONE. */
static uint32_t switch_peer(const struct lanes_fabric *f, const struct lanes_port *pt)
{
	if (pt->peer_node == LANES_NONE || f->nodes[pt->peer_node].type != LANES_NODE_SWITCH)
		return LANES_NONE;
	return f->nodes[pt->peer_node].switch_index;
}

/*
 * Each switch's end-port cables into rank[s].links, counted from the other
 * end: the CA and router ports cabled to a switch, far fewer than the switch
 * ports. Both ends of a cable name each other (the builder cables them so),
 * so these are the switch ports whose peer is not a switch. @return the total
 */
static uint32_t count_links(const struct lanes_fabric *f, struct sw_rank *rank)
{
	uint32_t total = 0;

	for (uint32_t i = 0; i < f->num_nodes; i++) {
		const struct lanes_node *n = &f->nodes[i];

		if (n->type == LANES_NODE_SWITCH)
			continue;
		for (uint32_t q = 1; q <= n->nports; q++) {
			uint32_t s = switch_peer(f, &f->ports[n->port_base + q]);

			if (s != LANES_NONE) {
				rank[s].links++;
				total++;
			}
		}
	}
	return total;
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

/*
 * Every end port with a LID into e->ep, switches in rank order, each one's
 * from its own side, so in its port order (both ends of a cable name each
 * other); only the switches with end-port cables are scanned.
 */
static void list_endports(const struct lanes_fabric *f, const struct sw_rank *rank,
			  struct route_endports *e)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < f->num_switches && rank[i].links; i++) {
		uint32_t s = rank[i].sw;
		const struct lanes_node *sw = &f->nodes[f->switches[s]];

		for (uint32_t p = 1; p <= sw->nports; p++) {
			const struct lanes_port *sp = &f->ports[sw->port_base + p], *pt;

			if (sp->peer_node == LANES_NONE ||
			    f->nodes[sp->peer_node].type == LANES_NODE_SWITCH)
				continue;
			pt = lanes_fabric_port(f, sp->peer_node, sp->peer_port);
			if (!pt->lid)
				continue;
			e->max_lmc = pt->lmc > e->max_lmc ? pt->lmc : e->max_lmc;
			e->ep[n++] = (struct route_endport){ sp->peer_node, s, pt->lid, sp->peer_port,
							     (uint8_t)p, pt->lmc };
		}
	}
	e->n = n;
}

int lanes_route_endports_osm_order(const struct lanes_fabric *f, struct route_endports *out,
			     struct lanes_error *err)
{
	uint32_t ns = f->num_switches, total;
	struct sw_rank few[FEW_SWITCHES];
	struct sw_rank *rank = few;

	out->ep = NULL;
	out->n = 0;
	out->max_lmc = max_switch_lmc(f);
	if (ns > FEW_SWITCHES)
		rank = malloc(sizeof(*rank) * ns);
	if (!rank)
		return lanes_error_oom(err);
	for (uint32_t s = 0; s < ns; s++)
		rank[s] = (struct sw_rank){ lanes_route_osm_guid_key(f->nodes[f->switches[s]].guid), 0, s };
	total = count_links(f, rank);
	lanes_sort_few(rank, ns, sizeof(*rank), FEW_SWITCHES, by_load); /* total order */
	if ((out->ep = malloc(sizeof(*out->ep) * (total ? total : 1))))
		list_endports(f, rank, out);
	if (rank != few)
		free(rank);
	return out->ep ? 0 : lanes_error_oom(err);
}

void lanes_route_endports_free(struct route_endports *eps)
{
	if (!eps)
		return;
	free(eps->ep);
	eps->ep = NULL;
	eps->n = 0;
}

void lanes_route_take_dest(const struct route_endports *eps, uint32_t *next, int offset,
			   uint32_t *lids, uint32_t first_lid, struct route_dest *d)
{
	uint32_t i = *next, j = i + 1;

	while (j < eps->n && eps->ep[j].sw == eps->ep[i].sw)
		j++;
	*d = (struct route_dest){ eps->ep[i].sw, i, j, first_lid, 0 };
	for (uint32_t q = i; q < j; q++)
		if (offset < (1 << eps->ep[q].lmc))
			lids[first_lid + d->num_lids++] = eps->ep[q].lid + (uint32_t)offset;
	*next = j;
}
