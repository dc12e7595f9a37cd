/*
 * dfsssp.c - OpenSM's DFSSSP routing engine (seed 002, "DFSSSP and SSSP
 * Routing Algorithm", steps 1-5; OpenSM 3.3.23 osm_ucast_dfsssp.c,
 * dfsssp_remove_deadlocks and get_dfsssp_sl; Domke, Hoefler, Nagel,
 * "Deadlock-Free Oblivious Routing for Arbitrary Topologies", IPDPS 2011;
 * seed 000 for its VL use on dragonflies). Facts only, no code taken.
 *
 * 1. Paths: route_sssp() (sssp_paths.c), the same as the sssp engine.
 * 2. Every path starts in layer 0. Layer by layer, a depth-first search of
 *    the layer's channel dependency graph (nodes: directed switch-to-switch
 *    channels; an edge c1 -> c2 when some path of the layer takes c2 right
 *    after c1) finds a cycle; its weakest edge (fewest LID pairs, the first
 *    one from where the cycle closes on ties) is broken by moving every path
 *    of the layer that makes it to the next layer; the search goes on until
 *    the layer is acyclic. Layers needed = the highest layer used + 1.
 * 3. Beyond OpenSM: when that needs more layers than the budget (the least
 *    of opts->max_vls and opts->max_sls), the paths are layered again by
 *    LASH's first fit, longest paths first, each in the lowest layer that
 *    stays acyclic with it (a 10x10 torus with 4 CAs per switch: OpenSM's
 *    way needs 14 layers on these paths, this 7; the real OpenSM needs 9 on
 *    its own and fails with 8). If neither fits, fail naming the fewer VLs needed (OpenSM: "Not
 *    enough VLs available"). First fit gives up after FF_WORK dependency
 *    checks (some 15 s; the bound depends only on the input), and the error
 *    then names OpenSM's count.
 * 4. OpenSM's balancing: each free VL goes, one at a time, to the layer with
 *    the most LID pairs per VL, and layer i uses VLs start_i .. start_i +
 *    split_i - 1. OpenSM answers a random VL of that range to each path
 *    record query; here the pair (source switch s, destination LID d) gets
 *    start_i + ((s + d) mod 64 mod split_i), the same on every call. Any
 *    subset of an acyclic layer is acyclic, so the split is safe.
 * 5. SL = VL: path SLs per (source switch, destination LID), and one SL2VL
 *    map, SL i -> VL i, on every switch port pair and CA port.
 *
 * Which paths: CA-to-CA (end port to end port), the traffic the verifier
 * checks by default and that OpenSM's engines promise to keep free of
 * deadlock ("between any two hosts"). OpenSM also layers the paths from and
 * to switch LIDs, which on fat trees is what costs it extra VLs; here switch
 * LIDs keep SL 0 (management traffic), so `lanes verify --all-traffic` may
 * find cycles through them.
 *
 * Units: every CA behind a switch s follows s's path, and the LIDs behind
 * one destination switch t often share s's path (SSSP may still give them
 * different trees elsewhere), so a unit is (s, t, one distinct path) and
 * weighs its LID pairs. OpenSM moves LID pairs, but the pairs of one unit
 * share every dependency and so always move together: this is exact. The
 * paths to t are grouped once per t from the LFTs, switches in hop order: a
 * path is its first channel plus the next switch's path. Pairs with fewer
 * than two switch-to-switch hops make no dependency and stay in layer 0.
 * Each unit keeps its dependencies, each dependency the units that make it
 * (OpenSM keeps LID pairs) and its LID pairs per layer. Dependencies are
 * numbered by (switch, in port, out port), so a channel's out-edges are one
 * run of numbers.
 *
 * The cycle search pops the stack back to the tail of the broken edge only,
 * and a channel pushed again resumes its scan where it stopped: within a
 * layer, edges only die, so what it passed stays passed. A layer's counts
 * are rebuilt from its units when its turn comes, so a move only touches the
 * layer it leaves. Cost on the 114,582-endpoint dragonfly (8,814 switches):
 * 97M units, 188M unit-dependency references, 6.3M dependencies; OpenSM's
 * layering needs 8 layers there.
 *
 * Not reproduced: OpenSM's order of the cycle search (its channel IDs in a
 * binary tree, edges in insertion order); here channels in adjacency order.
 * Deterministic: no randomness at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/util.h"
#include "../route_internal.h"
#include "engines.h"

#define MAX_LAYERS LANES_NUM_SLS
#define SPREAD 64 /* the rotation that spreads a layer over its VLs */
#define PREFETCH 8 /* units ahead when moving a dependency's units */
#define FF_WORK 2000000000ull /* dependency checks first fit may spend */
#define GAVE_UP UINT32_MAX

/* A unit's dependencies are u_dep[off .. next unit's off); w: its LID pairs. */
struct unit {
	uint32_t off, w;
};

struct dfsssp {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	struct lanes_routing *r;
	uint32_t ns;              /* switches */
	struct route_channels ch; /* channels and dependency numbers */
	/* destinations and path grouping */
	struct route_endports eps;
	uint32_t *dst_off, *dst;  /* per switch: the end-port LIDs behind it */
	uint32_t maxk;            /* most end-port LIDs behind one switch */
	uint8_t *dist;            /* all-pairs switch hops */
	uint32_t *order, norder;  /* switches by hops from the current destination switch */
	uint32_t *canon;          /* per (switch, i): the first i' whose path is LID i's */
	uint8_t *varies;          /* per switch: the LIDs of t do not all share its path */
	uint32_t *key_e, *key_c, *uid; /* per LID of t: scratch */
	uint32_t *pu;             /* per (switch, i): the unit of LID i's path, or LANES_NONE */
	int keep_canon;           /* the grouping waits in the SL cells */
	/* units: (source switch, one distinct path to a destination switch) */
	uint32_t nunits;
	struct unit *unit;        /* nunits + 1 */
	uint32_t *u_dep;          /* each unit's dependencies, in path order */
	uint8_t *layer;
	size_t u_cap, dep_cap, ndep_refs;
	/* dependencies */
	uint32_t *eid;            /* dense dependency -> its number, or LANES_NONE */
	uint32_t ndeps;
	uint32_t *dep_in, *dep_out; /* per dependency: its two channels */
	uint32_t *arr_off;        /* per entry e: the dependencies of channel rev[e] */
	size_t *inc_off;          /* per dependency: its units in inc */
	uint32_t *inc;
	uint64_t *cnt[MAX_LAYERS];/* per layer and dependency: LID pairs */
	uint64_t paths[MAX_LAYERS];
	uint32_t nlayers;
	uint32_t greedy;          /* layers OpenSM's way (MAX_LAYERS + 1: too many) */
	/* searches */
	uint32_t *chan;           /* one path's channels */
	uint8_t *state;           /* cycle search, per channel: new, on the stack, done */
	uint32_t *stk, *stj, *pos;
	uint32_t *resume;         /* per channel: where its scan goes on when pushed again */
	uint32_t *seen, stamp;    /* first fit: visits per channel */
	uint32_t *at;             /* first fit: 1 + a channel's place on the path, or 0 */
	uint64_t ff_work;         /* first fit: dependencies checked */
	uint8_t split[MAX_LAYERS], start[MAX_LAYERS];
};

enum { NEW = 0, ON_STACK, DONE };
enum { OVERFLOW = 1 }; /* the greedy layering ran out of SLs */

static int oom(struct lanes_error *err)
{
	return lanes_error_set(err, LANES_ENOMEM, "out of memory");
}

/*
 * Loops over u_dep in order hit scattered counters: ask for them early.
 * u_dep ends with 2 * PREFETCH zeros (a valid number), so looking ahead
 * never leaves it.
 */
static inline void ahead(const void *p)
{
	__builtin_prefetch(p);
}

/* ---------------------------------------------------- grouping paths */

/* The end-port LIDs behind each switch, in routing order. */
static int list_destinations(struct dfsssp *d, struct lanes_error *err)
{
	uint32_t total = 0;
	int rc;

	if ((rc = route_endports_osm_order(d->f, &d->eps, err)))
		return rc;
	for (uint32_t i = 0; i < d->eps.n; i++)
		total += 1u << d->eps.ep[i].lmc;
	d->dst_off = calloc((size_t)d->ns + 2, sizeof(*d->dst_off));
	d->dst = malloc(sizeof(*d->dst) * ((size_t)total + 1));
	if (!d->dst_off || !d->dst)
		return oom(err);
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

static uint32_t lids_at(const struct dfsssp *d, uint32_t s)
{
	return d->dst_off[s + 1] - d->dst_off[s];
}

static int alloc_grouping(struct dfsssp *d, struct lanes_error *err)
{
	size_t k = (size_t)d->maxk + 1;
	int rc;

	if ((rc = lanes_fabric_switch_distances(d->f, &d->dist, err)))
		return rc;
	d->order = malloc(sizeof(*d->order) * ((size_t)d->ns + 1));
	d->canon = malloc(sizeof(*d->canon) * k * d->ns);
	d->pu = malloc(sizeof(*d->pu) * k * d->ns);
	d->varies = malloc((size_t)d->ns + 1);
	d->key_e = malloc(sizeof(*d->key_e) * k);
	d->key_c = malloc(sizeof(*d->key_c) * k);
	d->uid = malloc(sizeof(*d->uid) * k);
	d->chan = malloc(sizeof(*d->chan) * ((size_t)d->ns + 1));
	if (!d->order || !d->canon || !d->pu || !d->varies || !d->key_e || !d->key_c || !d->uid ||
	    !d->chan)
		return oom(err);
	return 0;
}

/* The switches that reach t, by hops (a counting sort of t's distance row). */
static void sort_by_hops(struct dfsssp *d, uint32_t t)
{
	const uint8_t *row = d->dist + (size_t)t * d->ns;
	uint32_t start[256] = { 0 };

	for (uint32_t s = 0; s < d->ns; s++)
		if (row[s] != 255)
			start[row[s]]++;
	d->norder = 0;
	for (int h = 0; h < 256; h++) {
		uint32_t c = start[h];

		start[h] = d->norder;
		d->norder += c;
	}
	for (uint32_t s = 0; s < d->ns; s++)
		if (row[s] != 255)
			d->order[start[row[s]]++] = s;
}

/* Do all k LIDs leave s by one port toward a switch that does not split them? */
static int all_same(struct dfsssp *d, uint32_t s, const uint32_t *lids, uint32_t k)
{
	uint8_t p = lanes_routing_port(d->r, s, lids[0]);
	uint32_t e;

	for (uint32_t i = 1; i < k; i++)
		if (lanes_routing_port(d->r, s, lids[i]) != p)
			return 0;
	e = route_channel_at(&d->ch, s, p);
	return e == LANES_NONE || !d->varies[d->f->adj[e].sw];
}

/* canon for switch s: LID i's path is its channel plus the next switch's path for i. */
static void group_switch(struct dfsssp *d, uint32_t s, const uint32_t *lids, uint32_t k)
{
	uint32_t *c = d->canon + (size_t)s * k;

	d->varies[s] = !all_same(d, s, lids, k);
	if (!d->varies[s]) {
		memset(c, 0, sizeof(*c) * k);
		return;
	}
	for (uint32_t i = 0; i < k; i++) {
		uint32_t e = route_channel_at(&d->ch, s, lanes_routing_port(d->r, s, lids[i])), j = 0;

		d->key_e[i] = e;
		d->key_c[i] = e == LANES_NONE ? 0 : d->canon[(size_t)d->f->adj[e].sw * k + i];
		while (d->key_e[j] != e || d->key_c[j] != d->key_c[i])
			j++;
		c[i] = j;
	}
}

/* Group the LIDs behind t by path, for every switch that reaches t. */
static void group_paths(struct dfsssp *d, uint32_t t)
{
	uint32_t k = lids_at(d, t);
	const uint32_t *lids = d->dst + d->dst_off[t];

	sort_by_hops(d, t);
	memset(d->canon + (size_t)t * k, 0, sizeof(*d->canon) * k);
	d->varies[t] = 0;
	for (uint32_t i = 1; i < d->norder; i++)
		group_switch(d, d->order[i], lids, k);
}

/* Does CA traffic from s to t cross two switch-to-switch links or more? */
static int has_dependency(const struct dfsssp *d, uint32_t s, uint32_t t)
{
	uint8_t h = d->dist[(size_t)t * d->ns + s];

	return h != 255 && h >= 2 && lids_at(d, s);
}

/* Number the units of one switch pair (one per distinct path c names) in uid. */
static uint32_t number_units(struct dfsssp *d, const uint32_t *c, uint32_t k, uint32_t first)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < k; i++)
		if (c[i] == i)
			d->uid[i] = first + n++;
	return n;
}

/* Path SLs per (source switch, destination LID), all 0 so far (sl_layers.c). */
static int alloc_sls(struct dfsssp *d, struct lanes_error *err)
{
	return route_sls_per_src_switch(d->r, err);
}

/* ------------------------------------------------------------- units */

static int grow_deps(struct dfsssp *d, size_t more, struct lanes_error *err)
{
	if (lanes_grow((void **)&d->u_dep, &d->dep_cap, d->ndep_refs + more, sizeof(*d->u_dep)))
		return oom(err);
	return 0;
}

/* Append the dependencies of a path from switch x on, entered by channel prev. */
static int walk_from(struct dfsssp *d, uint32_t x, uint32_t prev, const uint8_t *col,
		     struct lanes_error *err)
{
	for (uint32_t hop = 0; hop < d->ns; hop++) {
		uint32_t e = route_channel_at(&d->ch, x, col[x]);

		if (e == LANES_NONE)
			return 0; /* delivered to a CA port */
		if (grow_deps(d, 1, err))
			return LANES_ENOMEM;
		d->u_dep[d->ndep_refs++] = route_dependency(&d->ch, prev, e);
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
	via = d->pu[(size_t)n * k + d->canon[(size_t)n * k + i]];
	if (via == LANES_NONE)
		return walk_from(d, n, e, col, err);
	len = d->unit[via + 1].off - d->unit[via].off;
	if (grow_deps(d, (size_t)len + 1, err))
		return LANES_ENOMEM;
	d->u_dep[d->ndep_refs++] =
		route_dependency(&d->ch, e, route_channel_at(&d->ch, n, col[n]));
	memcpy(d->u_dep + d->ndep_refs, d->u_dep + d->unit[via].off, sizeof(*d->u_dep) * len);
	d->ndep_refs += len;
	return 0;
}

/* A unit from s for the LIDs behind t whose path is LID i's (cnt of them). */
static int add_unit(struct dfsssp *d, uint32_t s, uint32_t i, uint32_t cnt, uint32_t t,
		    struct lanes_error *err)
{
	uint32_t k = lids_at(d, t);
	int rc;

	if (d->nunits == UINT32_MAX - 1 || d->ndep_refs >= UINT32_MAX - d->ns)
		return lanes_error_set(err, LANES_ERANGE, "dfsssp: too many distinct paths");
	if (lanes_grow((void **)&d->unit, &d->u_cap, (size_t)d->nunits + 2, sizeof(*d->unit)))
		return oom(err);
	d->pu[(size_t)s * k + i] = d->nunits;
	d->unit[d->nunits].off = (uint32_t)d->ndep_refs;
	d->unit[d->nunits++].w = lids_at(d, s) * cnt;
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
	uint32_t k = lids_at(d, t);
	const uint32_t *c = d->canon + (size_t)s * k, *lids = d->dst + d->dst_off[t];
	int rc;

	if (!d->varies[s])
		return add_unit(d, s, 0, k, t, err);
	if (d->keep_canon)
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

/* The units toward t, sources in hop order; pairs without a dependency only count. */
static int units_to(struct dfsssp *d, uint32_t t, struct lanes_error *err)
{
	uint32_t k = lids_at(d, t);
	int rc;

	group_paths(d, t);
	for (uint32_t s = 0; s < d->ns; s++)
		if (!has_dependency(d, s, t))
			d->paths[0] += (uint64_t)lids_at(d, s) * k;
	for (uint32_t i = 0; i < d->norder; i++) {
		uint32_t s = d->order[i];

		if (has_dependency(d, s, t)) {
			if ((rc = units_from(d, s, t, err)))
				return rc;
		} else {
			for (uint32_t j = 0; j < k; j++)
				d->pu[(size_t)s * k + j] = LANES_NONE;
		}
	}
	return 0;
}

/* Every unit toward every destination switch. */
static int make_units(struct dfsssp *d, struct lanes_error *err)
{
	int rc;

	if ((rc = list_destinations(d, err)) || (rc = alloc_grouping(d, err)) ||
	    (rc = alloc_sls(d, err)))
		return rc;
	d->keep_canon = d->maxk <= 256;
	for (uint32_t t = 0; t < d->ns; t++)
		if (lids_at(d, t) && (rc = units_to(d, t, err)))
			return rc;
	return 0;
}

/* ------------------------------------------------ dependency graph */

/* Number the dependencies in dense order, with their channels. */
static int number_dependencies(struct dfsssp *d, struct lanes_error *err)
{
	const struct lanes_fabric *f = d->f;
	size_t nd = d->ch.dense_off[d->ns];

	if (!(d->eid = calloc(nd + 1, sizeof(*d->eid))) ||
	    !(d->arr_off = malloc(sizeof(*d->arr_off) * ((size_t)d->ch.E + 1))))
		return oom(err);
	for (size_t j = 0; j < d->ndep_refs; j++) {
		ahead(&d->eid[d->u_dep[j + 2 * PREFETCH]]);
		d->eid[d->u_dep[j]] = 1;
	}
	for (size_t i = 0; i < nd; i++)
		d->ndeps += d->eid[i];
	d->dep_in = malloc(sizeof(*d->dep_in) * ((size_t)d->ndeps + 1));
	d->dep_out = malloc(sizeof(*d->dep_out) * ((size_t)d->ndeps + 1));
	if (!d->dep_in || !d->dep_out)
		return oom(err);
	for (uint32_t x = 0, k = 0; x < d->ns; x++) {
		uint32_t a = f->adj_off[x], deg = f->adj_off[x + 1] - a;

		for (uint32_t i = 0; i < deg; i++) {
			d->arr_off[a + i] = k;
			for (uint32_t o = 0; o < deg; o++) {
				uint32_t *id = &d->eid[d->ch.dense_off[x] + (size_t)i * deg + o];

				if (!*id) {
					*id = LANES_NONE;
					continue;
				}
				d->dep_in[k] = d->ch.rev[a + i];
				d->dep_out[k] = a + o;
				*id = k++;
			}
		}
	}
	d->arr_off[d->ch.E] = d->ndeps;
	return 0;
}

/* Dependencies by number in the units; each dependency's units; layer 0's counts. */
static int build_cdg(struct dfsssp *d, struct lanes_error *err)
{
	size_t *fill;
	int rc;

	if (grow_deps(d, 2 * PREFETCH, err))
		return LANES_ENOMEM;
	memset(d->u_dep + d->ndep_refs, 0, sizeof(*d->u_dep) * 2 * PREFETCH);
	if ((rc = number_dependencies(d, err)))
		return rc;
	for (size_t j = 0; j < d->ndep_refs; j++) {
		ahead(&d->eid[d->u_dep[j + 2 * PREFETCH]]);
		d->u_dep[j] = d->eid[d->u_dep[j]];
	}
	d->inc_off = calloc((size_t)d->ndeps + 2, sizeof(*d->inc_off));
	d->inc = malloc(sizeof(*d->inc) * (d->ndep_refs + 1));
	d->cnt[0] = calloc((size_t)d->ndeps + 1, sizeof(uint64_t));
	d->layer = calloc((size_t)d->nunits + 1, 1);
	if (!d->inc_off || !d->inc || !d->cnt[0] || !d->layer)
		return oom(err);
	for (size_t j = 0; j < d->ndep_refs; j++) {
		ahead(&d->inc_off[d->u_dep[j + 2 * PREFETCH] + 1]);
		d->inc_off[d->u_dep[j] + 1]++;
	}
	for (uint32_t k = 0; k < d->ndeps; k++)
		d->inc_off[k + 1] += d->inc_off[k];
	if (!(fill = malloc(sizeof(*fill) * ((size_t)d->ndeps + 1))))
		return oom(err);
	memcpy(fill, d->inc_off, sizeof(*fill) * d->ndeps);
	for (uint32_t u = 0; u < d->nunits; u++) {
		d->paths[0] += d->unit[u].w;
		for (uint32_t j = d->unit[u].off; j < d->unit[u + 1].off; j++) {
			ahead(&fill[d->u_dep[j + 2 * PREFETCH]]);
			ahead(&d->cnt[0][d->u_dep[j + 2 * PREFETCH]]);
			d->inc[fill[d->u_dep[j]]++] = u;
			d->cnt[0][d->u_dep[j]] += d->unit[u].w;
		}
	}
	free(fill);
	d->nlayers = 1;
	return 0;
}

/* Unit u leaves layer l for l + 1; layer l + 1 counts it when its turn comes. */
static void lift(struct dfsssp *d, uint32_t u, uint32_t l)
{
	uint64_t w = d->unit[u].w;

	d->layer[u] = (uint8_t)(l + 1);
	d->paths[l] -= w;
	d->paths[l + 1] += w;
	for (uint32_t j = d->unit[u].off; j < d->unit[u + 1].off; j++)
		d->cnt[l][d->u_dep[j]] -= w;
}

/*
 * Move every unit of layer l that makes dependency k to layer l + 1.
 * @return 0, or OVERFLOW past the last layer
 */
static int move_up(struct dfsssp *d, uint32_t l, uint32_t k)
{
	if (l + 1 >= MAX_LAYERS)
		return OVERFLOW;
	if (d->nlayers < l + 2)
		d->nlayers = l + 2;
	for (size_t i = d->inc_off[k], end = d->inc_off[k + 1]; i < end; i++) {
		if (i + 2 * PREFETCH < end) { /* the lists are long and the units scattered */
			__builtin_prefetch(&d->layer[d->inc[i + 2 * PREFETCH]]);
			__builtin_prefetch(&d->unit[d->inc[i + 2 * PREFETCH]]);
		}
		if (i + PREFETCH < end)
			__builtin_prefetch(&d->u_dep[d->unit[d->inc[i + PREFETCH]].off]);
		if (d->layer[d->inc[i]] == l)
			lift(d, d->inc[i], l);
	}
	return 0;
}

/*
 * Layer l's counts, from the units that arrived while layer l - 1 was
 * broken (one pass in unit order, cheaper than counting at every move);
 * layer l - 1's buffer is reused, the greedy layering is done with it.
 */
static void count_layer(struct dfsssp *d, uint32_t l)
{
	uint64_t *c = d->cnt[l - 1];

	d->cnt[l - 1] = NULL;
	d->cnt[l] = c;
	memset(c, 0, sizeof(*c) * ((size_t)d->ndeps + 1));
	for (uint32_t u = 0; u < d->nunits; u++) {
		ahead(&c[d->u_dep[d->unit[u].off + 2 * PREFETCH]]);
		if (d->layer[u] == l)
			for (uint32_t j = d->unit[u].off; j < d->unit[u + 1].off; j++)
				c[d->u_dep[j]] += d->unit[u].w;
	}
}

/* ---------------------------------------------------- cycle search */

/*
 * From dependency *k on (within c's run): the first live one of layer l to a
 * channel not done; *k stays on it, so that the scan comes back to it after
 * a child is done. @return its out channel, or LANES_NONE
 */
static uint32_t next_edge(const struct dfsssp *d, uint32_t l, uint32_t c, uint32_t *k)
{
	uint32_t end = d->arr_off[d->ch.rev[c] + 1];

	for (; *k < end; (*k)++)
		if (d->cnt[l][*k] && d->state[d->dep_out[*k]] != DONE)
			return d->dep_out[*k];
	return LANES_NONE;
}

/* A channel pushed again resumes its scan: what it passed is dead or done for good. */
static void push(struct dfsssp *d, uint32_t c, uint32_t *sp)
{
	d->state[c] = ON_STACK;
	d->pos[c] = *sp;
	d->stk[*sp] = c;
	d->stj[(*sp)++] = d->resume[c];
}

static void pop_to(struct dfsssp *d, uint32_t keep, uint32_t *sp)
{
	for (uint32_t i = keep; i < *sp; i++) {
		d->state[d->stk[i]] = NEW;
		d->resume[d->stk[i]] = d->stj[i];
	}
	*sp = keep;
}

/*
 * The stack from position from up to the top, closed by the top's current
 * dependency, is a cycle unless a dependency on it died since it was pushed
 * (then search again from before that one). A real cycle loses its weakest
 * dependency (the first on ties, from where the cycle closes), and the search
 * resumes at that dependency's tail: the stack below it is still a path, or
 * its dead dependencies are found as above.
 */
static int on_cycle(struct dfsssp *d, uint32_t l, uint32_t from, uint32_t *sp)
{
	uint32_t weakest = from;
	uint64_t least = UINT64_MAX;

	for (uint32_t i = from; i < *sp; i++) {
		uint64_t n = d->cnt[l][d->stj[i]];

		if (!n) {
			pop_to(d, i + 1, sp);
			return 0;
		}
		if (n < least) {
			least = n;
			weakest = i;
		}
	}
	pop_to(d, weakest + 1, sp);
	return move_up(d, l, d->stj[weakest]);
}

/* Depth-first search from channel root, breaking the cycles it meets; 0 or OVERFLOW. */
static int search_from(struct dfsssp *d, uint32_t l, uint32_t root)
{
	uint32_t sp = 0;
	int rc;

	push(d, root, &sp);
	while (sp) {
		uint32_t c = d->stk[sp - 1], n = next_edge(d, l, c, &d->stj[sp - 1]);

		if (n == LANES_NONE) {
			d->state[c] = DONE;
			sp--;
		} else if (d->state[n] == NEW) {
			push(d, n, &sp);
		} else if ((rc = on_cycle(d, l, d->pos[n], &sp))) {
			return rc;
		}
	}
	return 0;
}

static int break_cycles(struct dfsssp *d, uint32_t l)
{
	int rc;

	memset(d->state, NEW, d->ch.E);
	for (uint32_t c = 0; c < d->ch.E; c++)
		d->resume[c] = d->arr_off[d->ch.rev[c]];
	for (uint32_t c = 0; c < d->ch.E; c++)
		if (d->state[c] == NEW && (rc = search_from(d, l, c)))
			return rc;
	return 0;
}

/* OpenSM's layering; d->nlayers = MAX_LAYERS + 1 when the SLs do not suffice. */
static int make_layers(struct dfsssp *d, struct lanes_error *err)
{
	d->state = malloc((size_t)d->ch.E + 1);
	d->stk = malloc(sizeof(*d->stk) * ((size_t)d->ch.E + 1));
	d->stj = malloc(sizeof(*d->stj) * ((size_t)d->ch.E + 1));
	d->pos = malloc(sizeof(*d->pos) * ((size_t)d->ch.E + 1));
	d->resume = malloc(sizeof(*d->resume) * ((size_t)d->ch.E + 1));
	if (!d->state || !d->stk || !d->stj || !d->pos || !d->resume)
		return oom(err);
	for (uint32_t l = 0; l < d->nlayers; l++) {
		if (l)
			count_layer(d, l);
		if (break_cycles(d, l) == OVERFLOW) {
			d->nlayers = MAX_LAYERS + 1;
			break;
		}
	}
	return 0;
}

/* ---------------------------------------------------------- first fit */

/* Does layer k reach, from channel c, a channel of the path placed before limit? */
static int reaches_back(struct dfsssp *d, uint32_t k, uint32_t c, uint32_t limit)
{
	uint32_t sp = 0;

	d->seen[c] = d->stamp;
	d->stk[sp++] = c;
	while (sp) {
		uint32_t in = d->stk[--sp];

		for (uint32_t j = d->arr_off[d->ch.rev[in]]; j < d->arr_off[d->ch.rev[in] + 1]; j++) {
			uint32_t nx = d->dep_out[j];

			d->ff_work++;
			if (!d->cnt[k][j] || d->seen[nx] == d->stamp)
				continue;
			if (d->at[nx] && d->at[nx] <= limit)
				return 1;
			d->seen[nx] = d->stamp;
			d->stk[sp++] = nx;
		}
	}
	return 0;
}

/* Unit u's channels into chan; @return the last index. */
static uint32_t unit_channels(struct dfsssp *d, uint32_t u)
{
	uint32_t n = 0;

	d->chan[0] = d->dep_in[d->u_dep[d->unit[u].off]];
	for (uint32_t j = d->unit[u].off; j < d->unit[u + 1].off; j++)
		d->chan[++n] = d->dep_out[d->u_dep[j]];
	return n;
}

/*
 * Can unit u join the acyclic layer k and keep it acyclic? Only if no
 * channel of its path reaches an earlier one in layer k. Later channels
 * first, sharing the visits: what a later channel reaches was checked
 * against more channels.
 */
static int fits(struct dfsssp *d, uint32_t k, uint32_t u)
{
	uint32_t n = unit_channels(d, u);
	int found = 0;

	if (++d->stamp == 0) {
		memset(d->seen, 0, sizeof(*d->seen) * d->ch.E);
		d->stamp = 1;
	}
	for (uint32_t i = 0; i <= n; i++)
		d->at[d->chan[i]] = i + 1;
	for (uint32_t j = n + 1; j-- > 1 && !found;)
		found = d->seen[d->chan[j]] != d->stamp && reaches_back(d, k, d->chan[j], j);
	for (uint32_t i = 0; i <= n; i++)
		d->at[d->chan[i]] = 0;
	return !found;
}

/* Empty every layer (pairs without a dependency stay in layer 0). */
static int ff_empty(struct dfsssp *d, struct lanes_error *err)
{
	uint64_t all = 0;

	for (uint32_t l = 0; l < MAX_LAYERS; l++) {
		if (!d->cnt[l] && !(d->cnt[l] = malloc(sizeof(uint64_t) * ((size_t)d->ndeps + 1))))
			return oom(err);
		memset(d->cnt[l], 0, sizeof(uint64_t) * ((size_t)d->ndeps + 1));
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
		return oom(err);
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
		d->cnt[k][d->u_dep[j]] += d->unit[u].w;
	if (d->nlayers < k + 1)
		d->nlayers = k + 1;
}

/*
 * Beyond OpenSM, when its layering needs more than the budget: LASH's first
 * fit on these paths. Longest paths first, each goes to the lowest layer
 * that stays acyclic with it. *needed receives the layers used, MAX_LAYERS
 * + 1 when they do not suffice, or GAVE_UP past FF_WORK dependency checks
 * (a bound on time; it depends only on the input).
 */
static int first_fit(struct dfsssp *d, uint32_t *needed, struct lanes_error *err)
{
	uint32_t *order = malloc(sizeof(*order) * ((size_t)d->nunits + 1));
	int rc = 0;

	d->seen = calloc((size_t)d->ch.E + 1, sizeof(*d->seen));
	d->at = calloc((size_t)d->ch.E + 1, sizeof(*d->at));
	if (!order || !d->seen || !d->at)
		rc = oom(err);
	else if (!(rc = ff_empty(d, err)))
		rc = ff_order(d, order, err);
	*needed = 0;
	for (uint32_t i = 0; !rc && i < d->nunits && !*needed; i++) {
		uint32_t u = order[i], k = 0;

		while (k < MAX_LAYERS && !fits(d, k, u))
			k++;
		if (k == MAX_LAYERS || d->ff_work > FF_WORK)
			*needed = k == MAX_LAYERS ? MAX_LAYERS + 1 : GAVE_UP;
		else
			place(d, u, k);
	}
	if (!*needed)
		*needed = d->nlayers;
	free(order);
	return rc;
}

/* ---------------------------------------------------------- balancing */

/* OpenSM's split: each free VL to the layer with the most pairs per VL. */
static void balance(struct dfsssp *d, uint32_t budget)
{
	for (uint32_t l = 0; l < MAX_LAYERS; l++)
		d->split[l] = l < d->nlayers;
	for (uint32_t v = d->nlayers; v < budget; v++) {
		uint32_t best = 0;
		double most = 0.0;

		for (uint32_t l = 0; l < d->nlayers; l++)
			if ((double)d->paths[l] / d->split[l] > most) {
				most = (double)d->paths[l] / d->split[l];
				best = l;
			}
		d->split[best]++;
	}
	d->start[0] = 0;
	for (uint32_t l = 1; l < MAX_LAYERS; l++)
		d->start[l] = (uint8_t)(d->start[l - 1] + d->split[l - 1]);
}

/* The grouping of the pair (s, t), from the SL cells or computed again. */
static const uint32_t *grouping(struct dfsssp *d, uint32_t s, uint32_t t)
{
	uint32_t k = lids_at(d, t);
	const uint32_t *lids = d->dst + d->dst_off[t];

	if (!d->keep_canon)
		return d->canon + (size_t)s * k;
	for (uint32_t i = 0; i < k; i++)
		d->key_c[i] = d->r->sl[(size_t)lids[i] * d->ns + s];
	return d->key_c;
}

/* The pairs toward t: each unit's layer, spread over the layer's VLs. */
static void sls_to(struct dfsssp *d, uint32_t t, const uint8_t (*tab)[SPREAD], uint32_t *next)
{
	uint32_t k = lids_at(d, t);
	const uint32_t *lids = d->dst + d->dst_off[t];
	uint8_t *sl = d->r->sl;

	if (!d->keep_canon)
		group_paths(d, t);
	else
		sort_by_hops(d, t);
	for (uint32_t s = 0; s < d->ns; s++) {
		/* no switch hop, or unreachable: layer 0's first VL; one hop: any of layer 0 */
		int first = s == t || d->dist[(size_t)t * d->ns + s] == 255;

		if (lids_at(d, s) && !has_dependency(d, s, t))
			for (uint32_t i = 0; i < k; i++)
				sl[(size_t)lids[i] * d->ns + s] =
					first ? d->start[0] : tab[0][(s + lids[i]) % SPREAD];
	}
	for (uint32_t j = 0; j < d->norder; j++) {
		uint32_t s = d->order[j];
		const uint32_t *c;

		if (!has_dependency(d, s, t))
			continue;
		c = grouping(d, s, t);
		*next += number_units(d, c, k, *next);
		for (uint32_t i = 0; i < k; i++)
			sl[(size_t)lids[i] * d->ns + s] =
				tab[d->layer[d->uid[c[i]]]][(s + lids[i]) % SPREAD];
	}
}

/* Path SLs per (source switch, destination LID); cells other than CA-to-CA stay 0. */
static void set_sls(struct dfsssp *d)
{
	uint8_t tab[MAX_LAYERS][SPREAD];
	uint32_t next = 0;

	for (uint32_t l = 0; l < MAX_LAYERS; l++)
		for (uint32_t q = 0; q < SPREAD; q++)
			tab[l][q] = (uint8_t)(d->start[l] + (d->split[l] ? q % d->split[l] : 0));
	for (uint32_t t = 0; t < d->ns; t++)
		if (lids_at(d, t))
			sls_to(d, t, (const uint8_t(*)[SPREAD])tab, &next);
}

/* SL i -> VL i on every switch port pair and every CA or router port. */
static int set_maps(struct dfsssp *d, uint32_t budget, struct lanes_error *err)
{
	return route_sl2vl_identity(d->r, d->f, budget, err);
}

/* ------------------------------------------------------------- engine */

static uint32_t budget_of(const struct lanes_route_opts *o)
{
	return o->max_vls < o->max_sls ? o->max_vls : o->max_sls;
}

/* "9" or "more than 16" */
static const char *count_text(uint32_t n, char *buf, size_t size)
{
	if (n > MAX_LAYERS)
		snprintf(buf, size, "more than %d", MAX_LAYERS);
	else
		snprintf(buf, size, "%u", n);
	return buf;
}

/* OpenSM's layering, and first fit when that needs more than the budget. */
static int assign_layers(struct dfsssp *d, uint32_t budget, struct lanes_error *err)
{
	uint32_t ff = 0;
	char buf[32];
	int rc;

	if ((rc = build_cdg(d, err)) || (rc = make_layers(d, err)))
		return rc;
	if ((d->greedy = d->nlayers) <= budget)
		return 0;
	if ((rc = first_fit(d, &ff, err)))
		return rc;
	if (ff <= budget)
		return 0;
	return lanes_error_set(err, LANES_ERANGE, "dfsssp: needs %s VLs, the budget is %u",
			       count_text(ff < d->greedy ? ff : d->greedy, buf, sizeof(buf)),
			       budget); /* GAVE_UP is more than any count */
}

static int set_notes(struct dfsssp *d, uint32_t budget, struct lanes_error *err)
{
	char buf[32];

	if (d->nlayers == d->greedy)
		d->r->notes = lanes_aprintf("dfsssp: OpenSM 3.3.23 DFSSSP on CA-to-CA paths; "
					    "%u VL%s needed (OpenSM's layering), paths spread "
					    "over up to %u VL%s (SL = VL)",
					    d->nlayers, d->nlayers == 1 ? "" : "s", budget,
					    budget == 1 ? "" : "s");
	else
		d->r->notes = lanes_aprintf("dfsssp: OpenSM 3.3.23 DFSSSP on CA-to-CA paths; "
					    "%u VLs needed (first fit; OpenSM's layering needs "
					    "%s), paths spread over up to %u VLs (SL = VL)",
					    d->nlayers, count_text(d->greedy, buf, sizeof(buf)),
					    budget);
	return d->r->notes ? 0 : oom(err);
}

static int layer_paths(struct dfsssp *d, struct lanes_error *err)
{
	uint32_t budget = budget_of(d->opts);
	int rc;

	if ((rc = route_channels_init(&d->ch, d->f, "dfsssp", err)) ||
	    (rc = make_units(d, err)) || (rc = assign_layers(d, budget, err)))
		return rc;
	balance(d, budget);
	set_sls(d);
	if ((rc = set_maps(d, budget, err)))
		return rc;
	lanes_routing_count_resources(d->r);
	return set_notes(d, budget, err);
}

static void release(struct dfsssp *d)
{
	void *p[] = { d->dst_off, d->dst,     d->dist,	   d->order,   d->canon,   d->pu,
		      d->varies,  d->key_e,   d->key_c,	   d->uid,     d->unit,	   d->u_dep,
		      NULL,	  d->layer,   d->eid,	   d->dep_in,  d->dep_out, d->arr_off,
		      d->inc_off, d->inc,     d->chan,	   d->state,   d->stk,	   d->stj,
		      d->pos,	  d->resume,  d->seen,	   d->at };

	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		free(p[i]);
	for (uint32_t l = 0; l < MAX_LAYERS; l++)
		free(d->cnt[l]);
	route_endports_free(&d->eps);
	route_channels_free(&d->ch);
}

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	struct dfsssp d;
	int rc;

	memset(&d, 0, sizeof(d));
	d.f = f;
	d.opts = opts;
	d.ns = f->num_switches;
	*out = NULL;
	if ((rc = lanes_routing_new(f, &d.r, err)) || (rc = route_sssp(f, opts, d.r, err)) ||
	    (rc = layer_paths(&d, err)))
		goto out;
	*out = d.r;
	d.r = NULL;
out:
	lanes_routing_free(d.r);
	release(&d);
	return rc;
}

const struct lanes_engine lanes_engine_dfsssp = {
	.name = "dfsssp",
	.summary = "OpenSM's DFSSSP: SSSP paths, channel-dependency cycles broken by moving "
		   "paths up a layer (SL = VL)",
	.scope = "any",
	.resources = "the layers needed, spread over the VL budget (SL = VL)",
	.source = "OpenSM 3.3.23 DFSSSP (seed 002), Domke et al. IPDPS 2011; osm_ucast_dfsssp.c",
	.flags = LANES_ENGINE_ANY_TOPOLOGY | LANES_ENGINE_DEADLOCK_FREE | LANES_ENGINE_USES_SLS |
		 LANES_ENGINE_USES_VLS,
	.check = NULL,
	.route = route,
};
