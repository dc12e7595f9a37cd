/*
 * dfsssp_one_fast.c - the dfsssp engine's shortcut (dfsssp/dfsssp.c) for
 * fabrics whose paths need one layer: when the channel dependency graph of
 * every CA-to-CA path is acyclic, the layering of Domke, Hoefler, Nagel,
 * "Deadlock-Free Oblivious Routing for Arbitrary Topologies" (IPDPS 2011),
 * as OpenSM 3.3.23 does it (osm_ucast_dfsssp.c, dfsssp_remove_deadlocks),
 * finds no cycle in layer 0 and leaves every path there. The reference
 * path makes the units, their graph and the layering anyway
 * (lanes_dfsssp_route with reference set); the tables are the same
 * (test_sssp.c, test_dfsssp_fast_same). Facts only, no code taken. Shared
 * state: dfsssp_internal.h.
 *
 * Kept for speed, end to end (the whole lanes_route call, user CPU,
 * medians of 3 interleaved runs, dfsssp with threads 1, on a 2-core shared
 * machine): fattree k=12 n=4 (20,736 endpoints, one layer) 3.36 s against
 * 6.89 s without it, 2.05x. It runs where dfsssp takes no units thread
 * (dfsssp_overlap.c): threads 1, or below DFSSSP_SPLIT_MIN switches.
 *
 * The graph is the union of the dependencies of the paths, and a path's
 * dependencies are its consecutive channel pairs, so it is made per
 * destination LID from the LFT column alone: each switch that a path of the
 * LID passes adds (its channel, the next switch's channel), and a walk from
 * a source stops at a switch already passed. That is one pass per LID, not
 * one per path (dfsssp_units.c makes units, their dependencies and
 * dfsssp_cdg.c their graph only when some cycle must be broken). Then the
 * search of cdg/cycles.h looks for a cycle in the set of those dependencies.
 *
 * The sources are as dfsssp_units.c takes them (switches with end ports at
 * two switch hops or more, dfsssp_has_dependency), and every switch that
 * reaches the destination must take a shortest path, as lanes_dfsssp_units_to
 * requires; otherwise, or on a cycle, d->one_layer stays 0 and the units
 * are made as usual (which reports such a path). The search also runs
 * after the first 64, 128, 256, ... LIDs, so that a fabric that needs more
 * layers does not pay for the whole pass (a cycle stays a cycle as paths
 * are added); the paths are checked last, once the graph is acyclic.
 */
#include <string.h>

#include "route/dfsssp/dfsssp_internal.h"
#include "route/cdg/channels.h"
#include "route/cdg/cycles.h"
#include "core/util.h"

/* Scratch: per (switch, port), its channel (chan, w ports a switch); the sources toward t. */
struct one {
	uint32_t *chan, w, *src, nsrc;
	uint32_t *stamp;       /* per switch: the last walk that passed it */
	uint8_t *used;         /* per dependency number: some path makes it */
	struct route_deps deps;      /* used, listed for the search */
	struct route_cycles cycles;  /* the search */
};

/* The channel out of switch s for the LID of column col, or LANES_NONE. */
static inline uint32_t chan_of(const struct one *o, uint32_t s, const uint8_t *col)
{
	return col[s] < o->w ? o->chan[(size_t)s * o->w + col[s]] : LANES_NONE;
}

/* Do the switches that reach t (row: hops to t) all go one hop closer for the LID of col? */
static int lid_shortest(const struct dfsssp *d, const struct one *o, const uint8_t *row,
			const uint8_t *col)
{
	const struct lanes_adj *adj = d->f->adj;

	for (uint32_t s = 0; s < d->ns; s++) {
		uint32_t e = chan_of(o, s, col);

		if (e != LANES_NONE && row[s] != 255 && row[adj[e].sw] + 1 != row[s])
			return 0;
	}
	return 1;
}

/* Mark the dependencies of the paths of the LID of col in o->used (mark: the walks' stamp). */
static void lid_deps(const struct dfsssp *d, const struct one *o, const uint8_t *col,
		     uint32_t mark)
{
	const struct lanes_adj *adj = d->f->adj;
	uint32_t *stamp = o->stamp;

	for (uint32_t j = 0; j < o->nsrc; j++) {
		uint32_t x = o->src[j], e = chan_of(o, x, col);

		while (stamp[x] != mark) { /* a switch passed before: the rest is marked */
			uint32_t y, next;

			stamp[x] = mark;
			if (e == LANES_NONE)
				break;
			y = adj[e].sw;
			if ((next = chan_of(o, y, col)) == LANES_NONE)
				break;
			o->used[route_dependency(&d->ch, e, next)] = 1;
			x = y;
			e = next;
		}
	}
}

/* Every path shortest, as lanes_dfsssp_units_to requires? */
static int all_shortest(const struct dfsssp *d, const struct one *o)
{
	for (uint32_t p = 0; p < d->nt; p++) {
		uint32_t t = d->t_order[p];

		for (uint32_t i = d->dst_off[t]; i < d->dst_off[t + 1]; i++)
			if (!lid_shortest(d, o, d->dist + (size_t)t * d->ns,
					  lanes_routing_column(d->r, d->dst[i])))
				return 0;
	}
	return 1;
}

/* o's arrays from d's arena, and the search's; 0 or LANES_ENOMEM. */
static int one_alloc(struct dfsssp *d, struct one *o, struct lanes_error *err)
{
	struct route_arena *a = &d->arena;
	size_t sz = sizeof(uint32_t) * ((size_t)d->ns + 1);

	o->w = 1;
	for (uint32_t s = 0; s < d->ns; s++) {
		uint32_t np = d->f->nodes[d->f->switches[s]].nports;

		o->w = np + 1 > o->w ? np + 1 : o->w;
	}
	o->chan = route_alloc(a, sizeof(*o->chan) * o->w * ((size_t)d->ns + 1));
	o->src = route_alloc(a, sz);
	o->stamp = route_alloc(a, sz);
	o->used = route_zalloc(a, d->ch.ndeps + 1);
	if (!o->chan || !o->src || !o->stamp || !o->used)
		return lanes_error_oom(err);
	if (lanes_route_cycles_init(&o->cycles, &d->ch, err))
		return LANES_ENOMEM;
	for (uint32_t s = 0; s < d->ns; s++) {
		for (uint32_t p = 0; p < o->w; p++)
			o->chan[(size_t)s * o->w + p] = route_channel_at(&d->ch, s, (uint8_t)p);
		o->stamp[s] = UINT32_MAX;
	}
	return 0;
}

static uint32_t gcd(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/*
 * A step prime to n near 0.618 n: destinations taken p, p + step, ... (mod
 * n) each once, spread over the order, so that the early searches see paths
 * of every kind of destination (the graph does not depend on the order).
 */
static uint32_t spread_step(uint32_t n)
{
	uint32_t s = (uint32_t)((uint64_t)n * 618 / 1000);

	while (s > 1 && gcd(n, s) != 1)
		s--;
	return s ? s : 1;
}

/* Do the dependencies marked in o->used make a cycle? 1 yes, 0 no, or LANES_ENOMEM. */
static int cyclic(struct dfsssp *d, struct one *o, struct lanes_error *err)
{
	int rc = lanes_route_deps_list(&o->deps, &d->ch, o->used, 0, err);

	return rc ? rc : lanes_route_cycles_any(&o->cycles, &o->deps);
}

/* Mark the dependencies of the paths toward the destination switch t. */
static void dest_deps(struct dfsssp *d, struct one *o, uint32_t t, uint32_t *mark)
{
	o->nsrc = 0;
	for (uint32_t s = 0; s < d->ns; s++)
		if (dfsssp_has_dependency(d, s, t))
			o->src[o->nsrc++] = s;
	for (uint32_t i = d->dst_off[t]; i < d->dst_off[t + 1]; i++, (*mark)++)
		lid_deps(d, o, lanes_routing_column(d->r, d->dst[i]), *mark);
}

/* Mark every destination's dependencies; a cycle ends it early. @return 1 acyclic, 0 a cycle, or an error */
static int acyclic(struct dfsssp *d, struct one *o, struct lanes_error *err)
{
	uint32_t mark = 0, check = 64, step = spread_step(d->nt);
	int rc;

	for (uint32_t q = 0, p = 0; q < d->nt; q++) {
		dest_deps(d, o, d->t_order[p], &mark);
		/* after 64, 128, 256, ... LIDs: a cycle already there ends it early */
		if (mark >= check && q + 1 < d->nt) {
			if ((rc = cyclic(d, o, err)))
				return rc < 0 ? rc : 0;
			while (check <= mark)
				check *= 2;
		}
		p = (uint32_t)(((uint64_t)p + step) % d->nt);
	}
	rc = cyclic(d, o, err);
	return rc < 0 ? rc : !rc;
}

int lanes_dfsssp_one_layer(struct dfsssp *d, struct lanes_error *err)
{
	struct one o;
	int rc;

	memset(&o, 0, sizeof(o));
	d->one_layer = 0;
	if (!(rc = one_alloc(d, &o, err)) && (rc = acyclic(d, &o, err)) == 1)
		d->one_layer = all_shortest(d, &o);
	lanes_route_deps_free(&o.deps);
	lanes_route_cycles_free(&o.cycles);
	return rc < 0 ? rc : 0;
}
