/*
 * dfsssp_layers.c - the virtual layers of the dfsssp engine
 * (dfsssp/dfsssp.c): the cycle breaking of Domke, Hoefler, Nagel,
 * "Deadlock-Free Oblivious Routing for Arbitrary Topologies" (IPDPS 2011)
 * as OpenSM 3.3.23 does it (osm_ucast_dfsssp.c, dfsssp_remove_deadlocks) and, beyond
 * OpenSM, LASH's first fit (Skeie, Lysne, Theiss, IPDPS 2002) when that
 * needs more layers than the budget. Facts only, no code taken. Shared
 * state: dfsssp_internal.h.
 *
 * The cycle search is cdg/cdg_cycles.c's, over the layer's dependency set
 * (those of d->deps with LID pairs in the layer, layer_pairs): it goes
 * on after each broken cycle from the tail of the broken dependency, and a
 * channel pushed again resumes its scan where it stopped (within a layer,
 * dependencies only leave). A layer's counts are rebuilt from its units when
 * its turn comes, so a move only touches the layer it leaves. (Dropping from a dependency's list, as a move reads it,
 * the units left below for good made it slower: 23.8 s against 22.2 on the
 * dragonfly below.) Cost on the 114,582-endpoint dragonfly (8,814 switches):
 * 97M units, 188M unit-dependency references, 6.3M dependencies; OpenSM's
 * layering needs 8 layers there.
 *
 * Not reproduced: OpenSM's order of the cycle search (its channel IDs in a
 * binary tree, edges in insertion order); here channels in adjacency order.
 *
 * First fit keeps its layers in cdg/cdg.c's layered graph, which stays
 * acyclic as each unit's path is added or refused (lash's layers too).
 *
 * Invariant: a layer is acyclic once its cycles are broken, and at all
 * times under first fit; taking units out of it keeps it so.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "core/util.h"
#include "route/cdg/cdg.h"
#include "route/cdg/cycles.h"
#include "route/dfsssp/dfsssp_internal.h"


enum { OVERFLOW = 1 }; /* the greedy layering ran out of SLs */

/* ------------------------------------------------------ moving units */

/* Unit u leaves layer l for l + 1; layer l + 1 counts it when its turn comes. */
static void lift(struct dfsssp *d, uint32_t u, uint32_t l)
{
	uint64_t w = d->unit[u].w;

	d->layer[u] = (uint8_t)(l + 1);
	d->paths[l] -= w;
	d->paths[l + 1] += w;
	for (uint32_t j = d->unit[u].off; j < d->unit[u + 1].off; j++)
		d->layer_pairs[l][d->unit_deps[j]] -= w;
}

/*
 * Move every unit of layer l that makes dependency k to layer l + 1.
 * @return 0, or OVERFLOW past the last layer
 */
static int move_up(struct dfsssp *d, uint32_t l, uint32_t k)
{
	if (l + 1 >= DFSSSP_MAX_LAYERS)
		return OVERFLOW;
	if (d->nlayers < l + 2)
		d->nlayers = l + 2;
	for (size_t i = d->dep_units_off[k], end = d->dep_units_off[k + 1]; i < end; i++) {
		if (d->layer[d->dep_units[i]] == l)
			lift(d, d->dep_units[i], l);
	}
	return 0;
}

/* One thread's part of a layer's counts: units [u0, u1) of layer l into c. */
struct count_part {
	const struct dfsssp *d;
	uint32_t l, u0, u1;
	uint64_t *c;
};

static void *count_units(void *arg)
{
	const struct count_part *p = arg;
	const struct dfsssp *d = p->d;

	if (!p->c)
		return NULL; /* no second part */
	memset(p->c, 0, sizeof(*p->c) * ((size_t)d->deps.n + 1));
	for (uint32_t u = p->u0; u < p->u1; u++) {
		if (d->layer[u] == p->l)
			for (uint32_t j = d->unit[u].off; j < d->unit[u + 1].off; j++)
				p->c[d->unit_deps[j]] += d->unit[u].w;
	}
	return NULL;
}

/*
 * Layer l's counts, from the units that arrived while layer l - 1 was
 * broken (one pass in unit order, cheaper than counting at every move; on
 * large fabrics two halves on two threads, the second into d->spare, then
 * added); layer l - 1's buffer is reused, the greedy layering is done with it.
 */
static void count_layer(struct dfsssp *d, uint32_t l)
{
	struct count_part a = { d, l, 0, d->nunits, d->layer_pairs[l - 1] }, b = a;

	d->layer_pairs[l - 1] = NULL;
	d->layer_pairs[l] = a.c;
	if (d->spare)
		a.u1 = b.u0 = d->nunits / 2;
	b.c = d->spare;
	lanes_run_pair(count_units, &a, &b, d->spare != NULL);
	for (uint32_t k = 0; d->spare && k < d->deps.n; k++)
		a.c[k] += d->spare[k];
}

/* ---------------------------------------------------- cycle breaking */

/*
 * The search of cdg/cycles.h over layer l's set (channels in adjacency
 * order, as cdg_cycles.c says) breaks each cycle it meets at its weakest
 * dependency (fewest LID pairs, the first on ties, from where the cycle
 * closes) and goes on from that dependency's tail; moving its units takes
 * it and maybe others out of the set (lift).
 */
static int break_cycles(struct dfsssp *d, struct route_cycles *s, uint32_t l)
{
	uint32_t n, k;

	lanes_route_cycles_start(s, &d->deps, d->layer_pairs[l]);
	while ((n = lanes_route_cycles_next(s))) {
		uint32_t weakest = 0;
		uint64_t least = UINT64_MAX;

		for (uint32_t i = 0; i < n; i++) {
			uint64_t pairs = d->layer_pairs[l][route_cycle_dep(s, i)];

			if (pairs < least) {
				least = pairs;
				weakest = i;
			}
		}
		k = route_cycle_dep(s, weakest);
		lanes_route_cycles_cut(s, weakest);
		if (move_up(d, l, k))
			return OVERFLOW;
	}
	return 0;
}

/* The units that stay in layer l (its cycles broken, they move no more). */
static uint64_t units_in(const struct dfsssp *d, uint32_t l)
{
	uint64_t n = 0;

	for (uint32_t u = 0; u < d->nunits; u++)
		n += d->layer[u] == l;
	return n;
}

/*
 * OpenSM's layering; d->nlayers = DFSSSP_MAX_LAYERS + 1 when the SLs do not
 * suffice. Progress: phase "VL layers", a unit per unit of paths, counted
 * when its layer is done.
 */
int lanes_dfsssp_make_layers(struct dfsssp *d, struct lanes_error *err)
{
	struct route_cycles s;
	int rc;

	if (dfsssp_two_threads(d) &&
	    !(d->spare = route_alloc(&d->arena, sizeof(*d->spare) * ((size_t)d->deps.n + 1))))
		return lanes_error_oom(err);
	if ((rc = lanes_route_cycles_init(&s, &d->ch, err)))
		return rc;
	lanes_progress_phase(d->opts->progress, "VL layers", d->nunits);
	for (uint32_t l = 0; l < d->nlayers; l++) {
		if (l)
			count_layer(d, l);
		if (break_cycles(d, &s, l) == OVERFLOW) {
			d->nlayers = DFSSSP_MAX_LAYERS + 1;
			break;
		}
		lanes_progress_add(d->opts->progress, units_in(d, l));
	}
	lanes_route_cycles_free(&s);
	return 0;
}

/* ---------------------------------------------------------- first fit */

/* Unit u's channels into chan; @return the last index. */
static uint32_t unit_channels(struct dfsssp *d, uint32_t u)
{
	uint32_t n = 0;

	d->chan[0] = d->deps.in[d->unit_deps[d->unit[u].off]];
	for (uint32_t j = d->unit[u].off; j < d->unit[u + 1].off; j++)
		d->chan[++n] = d->deps.out[d->unit_deps[j]];
	return n;
}

/*
 * The lowest layer that unit u's path joins and leaves acyclic, its
 * dependencies added there (cdg.c decides); DFSSSP_MAX_LAYERS when none,
 * or LANES_ENOMEM.
 */
static int first_layer(struct dfsssp *d, struct lanes_cdg *g, uint32_t *opened, uint32_t u,
		       struct lanes_error *err)
{
	uint32_t n = unit_channels(d, u) + 1;

	for (uint32_t k = 0; k < DFSSSP_MAX_LAYERS; k++) {
		int rc;

		if (k == *opened && (rc = lanes_cdg_open_layer(g, (*opened)++, err)))
			return rc;
		rc = lanes_cdg_add_path(g, k, d->chan, n, err);
		if (rc < 0)
			return rc;
		if (rc) {
			lanes_cdg_keep(g);
			return (int)k;
		}
		lanes_cdg_undo(g);
	}
	return DFSSSP_MAX_LAYERS;
}

/* Empty every layer (pairs without a dependency stay in layer 0). */
static int ff_empty(struct dfsssp *d, struct lanes_error *err)
{
	uint64_t all = 0;

	for (uint32_t l = 0; l < DFSSSP_MAX_LAYERS; l++) {
		if (!d->layer_pairs[l] &&
		    !(d->layer_pairs[l] = route_alloc(&d->arena, sizeof(uint64_t) * ((size_t)d->deps.n + 1))))
			return lanes_error_oom(err);
		memset(d->layer_pairs[l], 0, sizeof(uint64_t) * ((size_t)d->deps.n + 1));
		all += d->paths[l];
		d->paths[l] = 0;
	}
	for (uint32_t u = 0; u < d->nunits; u++)
		all -= d->unit[u].w;
	d->paths[0] = all;
	d->nlayers = 1;
	return 0;
}

/* Units by dependencies, most first, then by number (a counting sort). */
static int ff_order(struct dfsssp *d, uint32_t *order, struct lanes_error *err)
{
	uint32_t maxn = 0, *start;

	for (uint32_t u = 0; u < d->nunits; u++)
		if (d->unit[u + 1].off - d->unit[u].off > maxn)
			maxn = d->unit[u + 1].off - d->unit[u].off;
	if (!(start = calloc((size_t)maxn + 2, sizeof(*start))))
		return lanes_error_oom(err);
	for (uint32_t u = 0; u < d->nunits; u++)
		start[maxn - (d->unit[u + 1].off - d->unit[u].off) + 1]++;
	for (uint32_t i = 1; i <= maxn + 1; i++)
		start[i] += start[i - 1];
	for (uint32_t u = 0; u < d->nunits; u++)
		order[start[maxn - (d->unit[u + 1].off - d->unit[u].off)]++] = u;
	free(start);
	return 0;
}

/* Count unit u in layer k. */
static void place(struct dfsssp *d, uint32_t u, uint32_t k)
{
	d->layer[u] = (uint8_t)k;
	d->paths[k] += d->unit[u].w;
	for (uint32_t j = d->unit[u].off; j < d->unit[u + 1].off; j++)
		d->layer_pairs[k][d->unit_deps[j]] += d->unit[u].w;
	if (d->nlayers < k + 1)
		d->nlayers = k + 1;
}

/*
 * Beyond OpenSM, when its layering needs more than the budget: LASH's first
 * fit on these paths. Longest paths first, each goes to the lowest layer
 * that stays acyclic with it, in the layered graph of cdg/cdg.c (as lash's
 * layers). *needed receives the layers used, DFSSSP_MAX_LAYERS + 1 when
 * they do not suffice. Progress: phase "VL layers, first fit", a unit per
 * unit of paths placed (the rest at once when the layers run out).
 */
int lanes_dfsssp_first_fit(struct dfsssp *d, uint32_t *needed, struct lanes_error *err)
{
	uint32_t *order = malloc(sizeof(*order) * ((size_t)d->nunits + 1)), opened = 0;
	struct lanes_cdg *g = NULL;
	int rc;

	*needed = 0;
	if (!order)
		return lanes_error_oom(err);
	if ((rc = lanes_cdg_new(&g, &d->ch, DFSSSP_MAX_LAYERS, err)) || (rc = ff_empty(d, err)) ||
	    (rc = ff_order(d, order, err)))
		goto out;
	lanes_progress_phase(d->opts->progress, "VL layers, first fit", d->nunits);
	for (uint32_t i = 0; i < d->nunits && !*needed; i++) {
		int k = first_layer(d, g, &opened, order[i], err);

		if (k < 0) {
			rc = k;
			goto out;
		}
		if (k == DFSSSP_MAX_LAYERS)
			*needed = DFSSSP_MAX_LAYERS + 1;
		else
			place(d, order[i], (uint32_t)k);
		lanes_progress_add(d->opts->progress, *needed ? d->nunits - i : 1);
	}
	if (!*needed)
		*needed = d->nlayers;
out:
	lanes_cdg_free(g);
	free(order);
	return rc;
}
