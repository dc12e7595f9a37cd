/*
 * sim_testutil.h - what the simulator's tests share: walking a permutation
 * flow over the LFTs to count the flows on each switch-to-switch channel,
 * the independent measure (1 / max flows per channel) the simulated
 * throughput is held to.
 */
#ifndef LANES_SIM_TESTUTIL_H
#define LANES_SIM_TESTUTIL_H

#include "testutil.h"

#include "lanes/routing.h"
#include "sim/traffic.h"

/*
 * Walk flow src -> fixed[src] over the LFTs: count (add 1) or read (max)
 * the flows of each switch-to-switch channel it crosses. Returns the max
 * read.
 */
static inline unsigned walk_flow(const struct lanes_fabric *f, const struct lanes_routing *r,
				 const struct lanes_traffic *t, uint32_t src, unsigned *flows,
				 int count)
{
	const struct lanes_port *pt = &f->ports[f->nodes[t->node[src]].port_base + t->port[src]];
	uint32_t node = pt->peer_node, dst_lid = t->lid[t->fixed[src]];
	unsigned most = 0;

	for (int hops = 0; hops < 64; hops++) {
		uint8_t out = lanes_routing_port(r, f->nodes[node].switch_index, dst_lid);
		uint32_t slot = f->nodes[node].port_base + out;

		if (f->nodes[f->ports[slot].peer_node].type != LANES_NODE_SWITCH)
			return most;
		if (count)
			flows[slot]++;
		else if (flows[slot] > most)
			most = flows[slot];
		node = f->ports[slot].peer_node;
	}
	fail_msg("a loop in the LFTs");
	return 0;
}

#endif
