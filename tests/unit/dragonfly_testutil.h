/*
 * dragonfly_testutil.h - what the dla and d3r tests share: walking a CA's
 * path through the LFTs, and the shortest path with at most one global
 * cable that Fig. 4 of Maglione-Mathey et al. (JPDC 2021) routes on, both
 * counted from the cables (groups by switch index / a, as the generator
 * numbers them), never from the engines.
 */
#ifndef LANES_DRAGONFLY_TESTUTIL_H
#define LANES_DRAGONFLY_TESTUTIL_H

#include "testutil.h"

#include "lanes/routing.h"

#define MAX_HOPS 16

/* One switch on a path: where the packet enters and leaves. */
struct hop {
	uint32_t sw;
	uint8_t in, out;
};

/* The path from CA ca (port 1) to lid, a hop per switch; fails on a drop or loop. */
static inline int walk(const struct lanes_fabric *f, const struct lanes_routing *r, uint32_t ca,
		       uint32_t lid, struct hop *hops)
{
	const struct lanes_port *cp = lanes_fabric_port(f, ca, 1);
	uint32_t sw = f->nodes[cp->peer_node].switch_index;
	uint8_t in = cp->peer_port;

	for (int n = 0; n < MAX_HOPS; n++) {
		uint8_t out = lanes_routing_port(r, sw, lid);
		const struct lanes_port *pp;

		assert_true(out >= 1 && out != LANES_PORT_DROP);
		hops[n] = (struct hop){ sw, in, out };
		pp = lanes_fabric_port(f, f->switches[sw], out);
		assert_int_not_equal(pp->peer_node, LANES_NONE);
		if (f->nodes[pp->peer_node].type != LANES_NODE_SWITCH) {
			assert_int_equal(lanes_fabric_lid(f, pp->peer_node, pp->peer_port), lid);
			return n + 1;
		}
		in = pp->peer_port;
		sw = f->nodes[pp->peer_node].switch_index;
	}
	fail_msg("path from node %u to LID %u loops", ca, lid);
	return 0;
}

/*
 * Switch hops of the shortest path from s to t with at most one global cable
 * (groups complete): 0, 1 inside a group, else the best cable u -> v from
 * s's group to t's: [u != s] + 1 + [v != t].
 */
static inline int lgl_distance(const struct lanes_fabric *f, unsigned a, uint32_t s, uint32_t t)
{
	int best = 99;

	if (s == t || s / a == t / a)
		return s != t;
	for (uint32_t u = s / a * a; u < s / a * a + a; u++) {
		uint8_t nports = f->nodes[f->switches[u]].nports;

		for (uint8_t p = 1; p <= nports; p++) {
			const struct lanes_port *pp = lanes_fabric_port(f, f->switches[u], p);
			uint32_t v;
			int len;

			if (pp->peer_node == LANES_NONE ||
			    f->nodes[pp->peer_node].type != LANES_NODE_SWITCH)
				continue;
			v = f->nodes[pp->peer_node].switch_index;
			len = (u != s) + 1 + (v != t);
			if (v / a == t / a && len < best)
				best = len;
		}
	}
	return best;
}

#endif
