/*
 * channels.c - the numbering of channels and channel dependencies shared by
 * the engines that build channel dependency graphs (dfsssp, lash, nue); see
 * channels.h for the numbers.
 *
 * Invariants: port_ent and rev are inverse lookups of the switch adjacency
 * (f->adj), so every engine numbers the same channel and the same
 * dependency alike; a dependency's number depends only on the fabric.
 */
#include <stdlib.h>
#include <string.h>

#include "route/cdg/channels.h"
#include "core/util.h"

int lanes_route_channels_init(struct route_channels *c, const struct lanes_fabric *f, const char *who,
			struct lanes_error *err)
{
	uint32_t ns = f->num_switches;

	size_t n_off = (size_t)ns + 1, n_ent = (size_t)f->num_port_slots + 1;

	memset(c, 0, sizeof(*c));
	c->f = f;
	c->E = f->adj_off[ns];
	/* one block: dense_off (size_t) first, then port_ent and rev */
	c->dense_off = malloc(sizeof(*c->dense_off) * n_off +
			      sizeof(uint32_t) * (n_ent + (size_t)c->E + 1));
	if (!c->dense_off)
		return lanes_error_oom(err);
	c->port_ent = (uint32_t *)(c->dense_off + n_off);
	c->rev = c->port_ent + n_ent;
	for (uint32_t i = 0; i < f->num_port_slots; i++)
		c->port_ent[i] = LANES_NONE;
	c->dense_off[0] = 0;
	for (uint32_t s = 0; s < ns; s++) {
		size_t deg = f->adj_off[s + 1] - f->adj_off[s];

		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++)
			c->port_ent[f->nodes[f->switches[s]].port_base + f->adj[e].port] = e;
		c->dense_off[s + 1] = c->dense_off[s] + deg * deg;
	}
	c->ndeps = c->dense_off[ns];
	if (c->ndeps >= UINT32_MAX)
		return lanes_error_set(err, LANES_ERANGE, "%s: too many switch port pairs", who);
	for (uint32_t s = 0; s < ns; s++)
		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++)
			c->rev[e] = route_channel_at(c, f->adj[e].sw, f->adj[e].peer_port);
	return 0;
}

void lanes_route_channels_free(struct route_channels *c)
{
	free(c->dense_off); /* port_ent and rev are in its block */
	memset(c, 0, sizeof(*c));
}
