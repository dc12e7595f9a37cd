/*
 * channels.h - the numbering of channels and channel dependencies (channels.c).
 */
#ifndef LANES_ROUTE_CDG_CHANNELS_H
#define LANES_ROUTE_CDG_CHANNELS_H

#include <stddef.h>
#include <stdint.h>
#include "lanes/error.h"
#include "lanes/fabric.h"

/* ------------------------------------- channels and their dependencies */

/*
 * The channels of a channel dependency graph (CDG), as dfsssp, lash and nue
 * number them (channels.c): a channel is a directed switch-to-switch cable,
 * numbered by its switch adjacency entry e (f->adj[e] leaves switch s for
 * adj_off[s] <= e < adj_off[s + 1]). A dependency "in, then out" (out leaves
 * the switch x where in ends) is numbered densely per switch, deg^2 numbers
 * for a switch of degree deg:
 *   dense_off[x] + (rev[in] - adj_off[x]) * deg + (out - adj_off[x]),
 * so a channel's out-dependencies are one run of deg numbers and its
 * in-dependencies one stride of deg. Engines keep their per-dependency state
 * (counts, LID pairs, flags) in arrays of ndeps entries indexed so.
 */
struct route_channels {
	const struct lanes_fabric *f;
	uint32_t E;         /**< channels: adjacency entries */
	uint32_t *port_ent; /**< per fabric port slot: its adjacency entry, or LANES_NONE */
	uint32_t *rev;      /**< per channel: the same cable from the other end, or
				 LANES_NONE (not cabled back to a switch port) */
	size_t *dense_off;  /**< per switch + 1: its first dependency number */
	size_t ndeps;       /**< dense_off[num_switches], below UINT32_MAX */
};

/**
 * Number the channels and dependencies of f; LANES_ERANGE ("who: too many
 * switch port pairs") when the dependency numbers would not fit 32 bits.
 */
int lanes_route_channels_init(struct route_channels *c, const struct lanes_fabric *f, const char *who,
			struct lanes_error *err);

/** Free the buffers (the struct itself is the caller's). */
void lanes_route_channels_free(struct route_channels *c);

/** @return the channel that leaves switch sw by port, or LANES_NONE */
static inline uint32_t route_channel_at(const struct route_channels *c, uint32_t sw, uint8_t port)
{
	const struct lanes_node *n = &c->f->nodes[c->f->switches[sw]];

	return port >= 1 && port <= n->nports ? c->port_ent[n->port_base + port] : LANES_NONE;
}

/** @return the number of the dependency "in, then out" (out leaves where in ends) */
static inline uint32_t route_dependency(const struct route_channels *c, uint32_t in, uint32_t out)
{
	const struct lanes_fabric *f = c->f;
	uint32_t x = f->adj[in].sw, a = f->adj_off[x], deg = f->adj_off[x + 1] - a;

	return (uint32_t)(c->dense_off[x] + (size_t)(c->rev[in] - a) * deg + (out - a));
}

#endif
