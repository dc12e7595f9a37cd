/*
 * dfsssp_units.c - the path units of the dfsssp engine (dfsssp/dfsssp.c)
 * and their channel dependency graph (Domke, Hoefler,
 * Nagel, "Deadlock-Free Oblivious Routing for Arbitrary Topologies", IPDPS
 * 2011; OpenSM 3.3.23 osm_ucast_dfsssp.c). Facts only, no code taken. Shared state:
 * dfsssp_internal.h.
 *
 * Units: every CA behind a switch s follows s's path, and the LIDs behind
 * one destination switch t often share s's path (SSSP may still give them
 * different trees elsewhere), so a unit is (s, t, one distinct path) and
 * weighs its LID pairs. OpenSM moves LID pairs, but the pairs of one unit
 * share every dependency and so always move together: this is exact. The
 * paths to t are grouped once per t from the LFTs, switches in hop order: a
 * path is its first channel plus the next switch's path. Pairs with fewer
 * than two switch-to-switch hops make no dependency and stay in layer 0.
 * Each unit keeps its dependencies in path order. The destinations take two
 * threads on large fabrics (dfsssp_overlap.c).
 *
 * Until lanes_dfsssp_build_cdg() (dfsssp_cdg.c), unit_deps holds route_dependency()
 * numbers (dense per switch, cdg/channels.h); from then on, their places
 * in the list of the dependencies some unit makes (d->deps, cdg/cycles.h),
 * 0 .. deps.n - 1.
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "fabric/distance.h"
#include "route/dfsssp/dfsssp_internal.h"
#include "route/common/endports.h"
#include "route/cdg/channels.h"

/* ---------------------------------------------------- grouping paths */

/* The end-port LIDs behind each switch, in routing order. */
static int list_destinations(struct dfsssp *d, struct lanes_error *err)
{
	uint32_t total = 0;
	int rc;

	if ((rc = lanes_route_endports_osm_order(d->f, &d->eps, err)))
		return rc;
	for (uint32_t i = 0; i < d->eps.n; i++)
		total += 1u << d->eps.ep[i].lmc;
	d->dst_off = route_zalloc(&d->arena, sizeof(*d->dst_off) * ((size_t)d->ns + 2));
	d->dst = route_alloc(&d->arena, sizeof(*d->dst) * ((size_t)total + 1));
	if (!d->dst_off || !d->dst)
		return lanes_error_oom(err);
	for (uint32_t i = 0; i < d->eps.n; i++)
		d->dst_off[d->eps.ep[i].sw + 2] += 1u << d->eps.ep[i].lmc;
	for (uint32_t s = 0; s < d->ns; s++) {
		uint32_t k = d->dst_off[s + 2];

		d->maxk = k > d->maxk ? k : d->maxk;
		d->dst_off[s + 2] += d->dst_off[s + 1];
	}
	for (uint32_t i = 0; i < d->eps.n; i++)
		for (uint32_t l = 0; l < (1u << d->eps.ep[i].lmc); l++)
			d->dst[d->dst_off[d->eps.ep[i].sw + 1]++] = d->eps.ep[i].lid + l;
	return 0;
}

/* A thread's scratch for grouping paths and numbering units, from its arena. */
int lanes_dfsssp_alloc_scratch(struct dfsssp *d, struct lanes_error *err)
{
	struct route_arena *a = &d->arena;
	size_t k = (size_t)d->maxk + 1, ns = (size_t)d->ns + 1;

	d->order = route_alloc(a, sizeof(*d->order) * ns);
	d->same_path_as = route_alloc(a, sizeof(*d->same_path_as) * k * d->ns);
	d->path_unit = route_alloc(a, sizeof(*d->path_unit) * k * d->ns);
	d->varies = route_alloc(a, ns);
	d->scratch_first = route_alloc(a, sizeof(*d->scratch_first) * k);
	d->scratch_group = route_alloc(a, sizeof(*d->scratch_group) * k);
	d->unit_id = route_alloc(a, sizeof(*d->unit_id) * k);
	d->chan = route_alloc(a, sizeof(*d->chan) * ns);
	if (!d->order || !d->same_path_as || !d->path_unit || !d->varies || !d->scratch_first || !d->scratch_group || !d->unit_id ||
	    !d->chan)
		return lanes_error_oom(err);
	return 0;
}

/*
 * The switches that reach t, by hops: a counting sort of t's distance row,
 * over the hop counts up to the largest in the row only.
 */
void lanes_dfsssp_sort_by_hops(struct dfsssp *d, uint32_t t)
{
	const uint8_t *row = d->dist + (size_t)t * d->ns;
	uint32_t start[256];
	uint8_t top = 0;

	for (uint32_t s = 0; s < d->ns; s++)
		if (row[s] != 255 && row[s] > top)
			top = row[s];
	memset(start, 0, sizeof(*start) * ((size_t)top + 1));
	for (uint32_t s = 0; s < d->ns; s++)
		if (row[s] != 255)
			start[row[s]]++;
	d->norder = 0;
	for (uint32_t h = 0; h <= top; h++) {
		uint32_t c = start[h];

		start[h] = d->norder;
		d->norder += c;
	}
	for (uint32_t s = 0; s < d->ns; s++)
		if (row[s] != 255)
			d->order[start[row[s]]++] = s;
}

/*
 * Channel e out of s toward t (row: hops to t) goes one hop closer, as
 * every path does here: the grouping reads the next switch's, done before
 * in hop order. Else s is noted in d->longer (lanes_dfsssp_units_to refuses).
 */
static void check_closer(struct dfsssp *d, const uint8_t *row, uint32_t s, uint32_t e)
{
	if (e != LANES_NONE && row[d->f->adj[e].sw] + 1 != row[s])
		d->longer = s;
}

/* Do all k LIDs leave s by one port toward a switch that does not split them? */
static int all_same(struct dfsssp *d, const uint8_t *row, uint32_t s, const uint32_t *lids, uint32_t k)
{
	uint8_t p = lanes_routing_port(d->r, s, lids[0]);
	uint32_t e;

	for (uint32_t i = 1; i < k; i++)
		if (lanes_routing_port(d->r, s, lids[i]) != p)
			return 0;
	e = route_channel_at(&d->ch, s, p);
	check_closer(d, row, s, e);
	return e == LANES_NONE || !d->varies[d->f->adj[e].sw];
}

/* same_path_as for switch s: LID i's path is its channel plus the next switch's path for i. */
static void group_switch(struct dfsssp *d, const uint8_t *row, uint32_t s, const uint32_t *lids,
			 uint32_t k)
{
	uint32_t *c = d->same_path_as + (size_t)s * k;

	d->varies[s] = !all_same(d, row, s, lids, k);
	if (!d->varies[s]) {
		memset(c, 0, sizeof(*c) * k);
		return;
	}
	for (uint32_t i = 0; i < k; i++) {
		uint32_t e = route_channel_at(&d->ch, s, lanes_routing_port(d->r, s, lids[i])), j = 0;

		check_closer(d, row, s, e);
		d->scratch_first[i] = e;
		d->scratch_group[i] = e == LANES_NONE ? 0 : d->same_path_as[(size_t)d->f->adj[e].sw * k + i];
		while (d->scratch_first[j] != e || d->scratch_group[j] != d->scratch_group[i])
			j++;
		c[i] = j;
	}
}

/* Group the LIDs behind t by path, for every switch that reaches t. */
void lanes_dfsssp_group_paths(struct dfsssp *d, uint32_t t)
{
	uint32_t k = dfsssp_lids_at(d, t);
	const uint32_t *lids = d->dst + d->dst_off[t];

	lanes_dfsssp_sort_by_hops(d, t);
	memset(d->same_path_as + (size_t)t * k, 0, sizeof(*d->same_path_as) * k);
	d->varies[t] = 0;
	for (uint32_t i = 1; i < d->norder; i++)
		group_switch(d, d->dist + (size_t)t * d->ns, d->order[i], lids, k);
}

/* ------------------------------------------------------------- units */

int lanes_dfsssp_grow_deps(struct dfsssp *d, size_t more, struct lanes_error *err)
{
	if (d->ndep_refs + more <= d->dep_cap)
		return 0;
	if (lanes_grow((void **)&d->unit_deps, &d->dep_cap, d->ndep_refs + more, sizeof(*d->unit_deps)))
		return lanes_error_oom(err);
	return 0;
}

/* Append the dependencies of a path from switch x on, entered by channel prev. */
static int walk_from(struct dfsssp *d, uint32_t x, uint32_t prev, const uint8_t *col,
		     struct lanes_error *err)
{
	if (lanes_dfsssp_grow_deps(d, d->ns, err)) /* a path takes fewer hops than there are switches */
		return LANES_ENOMEM;
	for (uint32_t hop = 0; hop < d->ns; hop++) {
		uint32_t e = route_channel_at(&d->ch, x, col[x]);

		if (e == LANES_NONE)
			return 0; /* delivered to a CA port */
		d->unit_deps[d->ndep_refs++] = route_dependency(&d->ch, prev, e);
		prev = e;
		x = d->f->adj[e].sw;
	}
	return 0;
}

/*
 * Append the dense dependencies of LID i's path from s: its first two
 * channels, then the path of the next switch n, copied from n's unit when n
 * has one (switches come in hop order), else walked.
 */
static int add_path(struct dfsssp *d, uint32_t s, uint32_t i, const uint32_t *lids, uint32_t k,
		    struct lanes_error *err)
{
	const uint8_t *col = lanes_routing_column(d->r, lids[i]);
	uint32_t e = route_channel_at(&d->ch, s, col[s]), n, via, len;

	if (e == LANES_NONE)
		return 0;
	n = d->f->adj[e].sw;
	via = d->path_unit[(size_t)n * k + d->same_path_as[(size_t)n * k + i]];
	if (via == LANES_NONE)
		return walk_from(d, n, e, col, err);
	len = d->unit[via + 1].off - d->unit[via].off;
	if (lanes_dfsssp_grow_deps(d, (size_t)len + 1, err))
		return LANES_ENOMEM;
	d->unit_deps[d->ndep_refs++] =
		route_dependency(&d->ch, e, route_channel_at(&d->ch, n, col[n]));
	memcpy(d->unit_deps + d->ndep_refs, d->unit_deps + d->unit[via].off, sizeof(*d->unit_deps) * len);
	d->ndep_refs += len;
	return 0;
}

/* A unit from s for the LIDs behind t whose path is LID i's (cnt of them). */
static int add_unit(struct dfsssp *d, uint32_t s, uint32_t i, uint32_t cnt, uint32_t t,
		    struct lanes_error *err)
{
	uint32_t k = dfsssp_lids_at(d, t);
	int rc;

	if (d->nunits == UINT32_MAX - 1 || d->ndep_refs >= UINT32_MAX - d->ns)
		return lanes_error_set(err, LANES_ERANGE, "dfsssp: too many distinct paths");
	if (lanes_grow((void **)&d->unit, &d->u_cap, (size_t)d->nunits + 2, sizeof(*d->unit)))
		return lanes_error_oom(err);
	d->path_unit[(size_t)s * k + i] = d->nunits;
	d->unit[d->nunits].off = (uint32_t)d->ndep_refs;
	d->unit[d->nunits++].w = dfsssp_lids_at(d, s) * cnt;
	if ((rc = add_path(d, s, i, d->dst + d->dst_off[t], k, err)))
		return rc;
	d->unit[d->nunits].off = (uint32_t)d->ndep_refs;
	d->unit[d->nunits].w = 0;
	return 0;
}

/*
 * The units from s to t, one per distinct path, weighed in LID pairs. The
 * grouping is kept in the SL cells (s, LID) until the SLs are known, when it
 * fits (at most 256 LIDs behind t); pairs not split keep 0 there.
 */
static int units_from(struct dfsssp *d, uint32_t s, uint32_t t, struct lanes_error *err)
{
	uint32_t k = dfsssp_lids_at(d, t);
	const uint32_t *c = d->same_path_as + (size_t)s * k, *lids = d->dst + d->dst_off[t];
	int rc;

	if (!d->varies[s])
		return add_unit(d, s, 0, k, t, err);
	if (d->grouping_in_sl_cells)
		for (uint32_t i = 0; i < k; i++)
			d->r->sl[(size_t)lids[i] * d->ns + s] = (uint8_t)c[i];
	for (uint32_t i = 0; i < k; i++) {
		uint32_t cnt = 0;

		if (c[i] != i)
			continue;
		for (uint32_t j = i; j < k; j++)
			cnt += c[j] == i;
		if ((rc = add_unit(d, s, i, cnt, t, err)))
			return rc;
	}
	return 0;
}

/*
 * The units toward t, sources in hop order; pairs without a dependency only
 * count. t's first unit is numbered in d's own list (dfsssp_overlap.c).
 */
int lanes_dfsssp_units_to(struct dfsssp *d, uint32_t t, struct lanes_error *err)
{
	uint32_t k = dfsssp_lids_at(d, t);
	int rc;

	d->t_unit[t] = d->nunits;
	d->longer = LANES_NONE;
	lanes_dfsssp_group_paths(d, t);
	if (d->longer != LANES_NONE)
		return lanes_error_set(err, LANES_EINTERNAL,
				       "dfsssp: internal: switch %u's path to switch %u is not a shortest path",
				       d->longer, t);
	for (uint32_t s = 0; s < d->ns; s++)
		if (!dfsssp_has_dependency(d, s, t))
			d->paths[0] += (uint64_t)dfsssp_lids_at(d, s) * k;
	for (uint32_t i = 0; i < d->norder; i++) {
		uint32_t s = d->order[i];

		if (dfsssp_has_dependency(d, s, t)) {
			if ((rc = units_from(d, s, t, err)))
				return rc;
		} else {
			for (uint32_t j = 0; j < k; j++)
				d->path_unit[(size_t)s * k + j] = LANES_NONE;
		}
	}
	return 0;
}

/* The state every destination's units need: destinations, distances, scratch. */
int lanes_dfsssp_units_setup(struct dfsssp *d, struct lanes_error *err)
{
	int rc;

	if ((rc = list_destinations(d, err)) ||
	    (rc = lanes_switch_distances_parallel(d->f, dfsssp_workers(d), &d->dist, err)) ||
	    (rc = lanes_dfsssp_alloc_scratch(d, err)))
		return rc;
	if (!(d->t_unit = route_zalloc(&d->arena, sizeof(*d->t_unit) * ((size_t)d->ns + 1))))
		return lanes_error_oom(err);
	d->grouping_in_sl_cells = d->maxk <= 256;
	return 0;
}
