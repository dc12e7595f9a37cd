/*
 * sim_testutil.h - what the simulator's tests share: walking a route over
 * the LFTs to count the flows on each switch-to-switch channel, the
 * independent measure (1 / max flows per channel, or the load a channel
 * carries) the simulated throughput and link utilisation are held to.
 */
#ifndef LANES_SIM_TESTUTIL_H
#define LANES_SIM_TESTUTIL_H

#include "testutil.h"

#include "lanes/routing.h"
#include "sim/traffic.h"

/*
 * The switch-to-switch channels (sending port slots) that the route from
 * endpoint src to endpoint dst crosses over the LFTs, in order, into
 * slots[0..64); returns how many.
 */
static inline unsigned walk_route(const struct lanes_fabric *f, const struct lanes_routing *r,
				  const struct lanes_traffic *t, uint32_t src, uint32_t dst,
				  uint32_t *slots)
{
	const struct lanes_port *pt = &f->ports[f->nodes[t->node[src]].port_base + t->port[src]];
	uint32_t node = pt->peer_node, dst_lid = t->lid[dst];

	for (unsigned hops = 0; hops < 64; hops++) {
		uint8_t out = lanes_routing_port(r, f->nodes[node].switch_index, dst_lid);
		uint32_t slot = f->nodes[node].port_base + out;

		if (f->nodes[f->ports[slot].peer_node].type != LANES_NODE_SWITCH)
			return hops;
		slots[hops] = slot;
		node = f->ports[slot].peer_node;
	}
	fail_msg("a loop in the LFTs");
	return 0;
}

/*
 * Walk flow src -> fixed[src] over the LFTs: count (add 1) or read (max)
 * the flows of each switch-to-switch channel it crosses. Returns the max
 * read.
 */
static inline unsigned walk_flow(const struct lanes_fabric *f, const struct lanes_routing *r,
				 const struct lanes_traffic *t, uint32_t src, unsigned *flows,
				 int count)
{
	uint32_t slots[64];
	unsigned n = walk_route(f, r, t, src, t->fixed[src], slots), most = 0;

	for (unsigned k = 0; k < n; k++)
		if (count)
			flows[slots[k]]++;
		else if (flows[slots[k]] > most)
			most = flows[slots[k]];
	return most;
}

#endif
