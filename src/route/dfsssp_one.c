/*
 * dfsssp_one.c - the dfsssp engine's shortcut (engines/dfsssp.c) for
 * fabrics whose paths need one layer: when the channel dependency graph of
 * every CA-to-CA path is acyclic, OpenSM's layering (seed 002, step 2;
 * OpenSM 3.3.23 osm_ucast_dfsssp.c, dfsssp_remove_deadlocks; Domke,
 * Hoefler, Nagel, IPDPS 2011) finds no cycle in layer 0 and leaves every
 * path there. Facts only, no code taken. Shared state: dfsssp_internal.h.
 *
 * The graph is the union of the dependencies of the paths, and a path's
 * dependencies are its consecutive channel pairs, so it is made per
 * destination LID from the LFT column alone: each switch that a path of the
 * LID passes adds (its channel, the next switch's channel), and a walk from
 * a source stops at a switch already passed. That is one pass per LID, not
 * one per path (dfsssp_units.c makes units, their dependencies and
 * dfsssp_cdg.c their graph only when some cycle must be broken). Then one
 * depth-first search looks for a cycle.
 *
 * The sources are as dfsssp_units.c takes them (switches with end ports at
 * two switch hops or more, dfsssp_has_dependency), and every switch that
 * reaches the destination must take a shortest path, as dfsssp_units_to
 * requires; otherwise, or on a cycle, d->one_layer stays 0 and the units
 * are made as usual (which reports such a path).
 */
#include <string.h>

#include "dfsssp_internal.h"

enum { NEW = 0, ON_STACK, DONE };

static int oom(struct lanes_error *err)
{
	return lanes_error_set(err, LANES_ENOMEM, "out of memory");
}

/*
 * The channel out of every switch for lid (nxt; LANES_NONE: none), toward
 * t (row: hops to t); 0 when a switch that reaches t leaves it by a channel
 * that does not go one hop closer.
 */
static int lid_channels(const struct dfsssp *d, const uint8_t *row, uint32_t lid, uint32_t *nxt)
{
	const uint8_t *col = lanes_routing_column(d->r, lid);
	const struct lanes_adj *adj = d->f->adj;

	for (uint32_t s = 0; s < d->ns; s++) {
		uint32_t e = route_channel_at(&d->ch, s, col[s]);

		nxt[s] = e;
		if (row[s] != 255 && e != LANES_NONE && row[adj[e].sw] + 1 != row[s])
			return 0;
	}
	return 1;
}

/* Mark the dependencies of lid's paths toward t in used; stamp: per switch, the last walk. */
static void lid_deps(const struct dfsssp *d, uint32_t t, const uint32_t *nxt, uint32_t *stamp,
		     uint32_t mark, uint8_t *used)
{
	const struct lanes_adj *adj = d->f->adj;

	for (uint32_t s = 0; s < d->ns; s++) {
		if (!dfsssp_has_dependency(d, s, t))
			continue;
		for (uint32_t x = s; stamp[x] != mark;) {
			uint32_t e = nxt[x], y;

			stamp[x] = mark;
			if (e == LANES_NONE)
				break;
			y = adj[e].sw;
			if (nxt[y] == LANES_NONE)
				break;
			used[route_dependency(&d->ch, e, nxt[y])] = 1;
			x = y;
		}
	}
}

/* Does the graph of the dependencies in used have a cycle? (stk, stj, state: E each) */
static int has_cycle(const struct dfsssp *d, const uint8_t *used, uint32_t *stk, uint32_t *stj,
		     uint8_t *state)
{
	const struct lanes_fabric *f = d->f;

	memset(state, NEW, d->ch.E);
	for (uint32_t root = 0; root < d->ch.E; root++) {
		uint32_t sp = 0;

		if (state[root] != NEW)
			continue;
		state[root] = ON_STACK;
		stk[sp] = root;
		stj[sp++] = 0;
		while (sp) {
			uint32_t c = stk[sp - 1], x = f->adj[c].sw, a = f->adj_off[x];
			uint32_t deg = f->adj_off[x + 1] - a, o = stj[sp - 1];
			const uint8_t *row = used + d->ch.dense_off[x] + (size_t)(d->ch.rev[c] - a) * deg;

			while (o < deg && (!row[o] || state[a + o] == DONE))
				o++;
			stj[sp - 1] = o + 1;
			if (o == deg) {
				state[c] = DONE;
				sp--;
			} else if (state[a + o] == ON_STACK) {
				return 1;
			} else {
				state[a + o] = ON_STACK;
				stk[sp] = a + o;
				stj[sp++] = 0;
			}
		}
	}
	return 0;
}

int dfsssp_one_layer(struct dfsssp *d, struct lanes_error *err)
{
	struct dfsssp_arena *a = &d->arena;
	size_t e = (size_t)d->ch.E + 1;
	uint8_t *used = dfsssp_zalloc(a, d->ch.ndeps + 1), *state = dfsssp_alloc(a, e);
	uint32_t *nxt = dfsssp_alloc(a, sizeof(*nxt) * ((size_t)d->ns + 1));
	uint32_t *stamp = dfsssp_alloc(a, sizeof(*stamp) * ((size_t)d->ns + 1));
	uint32_t *stk = dfsssp_alloc(a, sizeof(*stk) * e), *stj = dfsssp_alloc(a, sizeof(*stj) * e);
	uint32_t mark = 0;

	d->one_layer = 0;
	if (!used || !state || !nxt || !stamp || !stk || !stj)
		return oom(err);
	memset(stamp, 0xFF, sizeof(*stamp) * d->ns);
	for (uint32_t p = 0; p < d->nt; p++) {
		uint32_t t = d->t_order[p];
		const uint8_t *row = d->dist + (size_t)t * d->ns;

		for (uint32_t i = d->dst_off[t]; i < d->dst_off[t + 1]; i++, mark++) {
			if (!lid_channels(d, row, d->dst[i], nxt))
				return 0;
			lid_deps(d, t, nxt, stamp, mark, used);
		}
	}
	d->one_layer = !has_cycle(d, used, stk, stj, state);
	return 0;
}
