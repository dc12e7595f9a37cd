/*
 * dfsssp.c - the dfsssp routing engine: deadlock-free single-source
 * shortest-path routing, after Domke, Hoefler and Nagel, "Deadlock-Free
 * Oblivious Routing for Arbitrary Topologies" (IPDPS 2011), as OpenSM
 * 3.3.23 runs it (osm_ucast_dfsssp.c, dfsssp_remove_deadlocks and
 * get_dfsssp_sl). Facts only, no code taken.
 *
 * The paper's algorithm: route with SSSP (Hoefler, Schneider, Lumsdaine,
 * HOTI 2009), then make the routes deadlock-free by virtual layers. All
 * paths start in one layer; while a layer's channel dependency graph has
 * a cycle, the paths that make one of the cycle's edges move to the next
 * layer; each layer is then one virtual lane (an SL mapped to a VL), and
 * free VLs are spread over the layers. The steps here:
 *
 * 1. Paths: lanes_route_sssp() (sssp_paths.c) with OpenSM's heap replayed, so
 *    OpenSM's own SSSP paths entry for entry where OpenSM can route (the
 *    sssp engine breaks ties by the lowest port instead, for speed).
 * 2. Every path starts in layer 0. Layer by layer, a depth-first search of
 *    the layer's channel dependency graph (nodes: directed switch-to-switch
 *    channels; an edge c1 -> c2 when some path of the layer takes c2 right
 *    after c1) finds a cycle; its weakest edge (fewest LID pairs, the first
 *    one from where the cycle closes on ties) is broken by moving every path
 *    of the layer that makes it to the next layer; the search goes on until
 *    the layer is acyclic. Layers needed = the highest layer used + 1.
 * 3. Beyond OpenSM: when that needs more layers than the budget (the least
 *    of opts->max_vls and opts->max_sls) or more than 8, the paths are
 *    layered again by LASH's first fit, longest paths first, each in the
 *    lowest layer that stays acyclic with it, and the fewer layers win (a
 *    10x10 torus with 4 CAs per switch: OpenSM's way needs 13 layers on these
 *    paths, this 7; the real OpenSM needs 9 on its own and fails with 8). So
 *    with any budget of 8 or more the count does not depend on the budget. If
 *    neither fits, fail naming the fewer VLs needed and the limit that binds
 *    ("dfsssp: needs 9 VLs, the budget is 8 (vls 8)"; OpenSM: "Not enough VLs
 *    available"). First fit gives up after FF_WORK dependency checks
 *    (dfsssp_layers.c; some 15 s; the bound depends only on the input), and
 *    OpenSM's count then stands.
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
 * Files: this one holds the steps, the balancing and the SLs (steps 4 and
 * 5); dfsssp_units.c groups the paths into units, dfsssp_cdg.c builds their
 * channel dependency graph, dfsssp_layers.c breaks its cycles (step 2) and
 * runs first fit (step 3); dfsssp_one_fast.c finds, without units, when the
 * graph has no cycle (step 2 then keeps every path in layer 0);
 * dfsssp_split.c runs the path SLs per destination switch on the threads
 * opts->threads allows, dfsssp_overlap.c the units on a second thread, on
 * large fabrics; dfsssp_internal.h holds their shared state.
 *
 * Where it is not OpenSM: the layering of step 3 beyond OpenSM's own
 * count, the VL per path of step 4 fixed instead of random, the CA-to-CA
 * paths only (above), and the paths of sssp_paths.c where OpenSM's heap
 * replay declines (P > 46,340 LIDs, where OpenSM itself routes nothing).
 *
 * Deterministic: no randomness at all.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "core/strbuf.h"
#include "core/util.h"
#include "io/fmt.h"
#include "route/dfsssp/dfsssp_internal.h"
#include "route/engines.h"
#include "route/common/endports.h"
#include "route/sssp/sssp.h"
#include "route/cdg/channels.h"
#include "route/common/layers.h"

#define SPREAD 64 /* the rotation that spreads a layer over its VLs */

/* ---------------------------------------------------------- balancing */

/* OpenSM's split: each free VL to the layer with the most pairs per VL. */
static void balance(struct dfsssp *d, uint32_t budget)
{
	for (uint32_t l = 0; l < DFSSSP_MAX_LAYERS; l++)
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
	for (uint32_t l = 1; l < DFSSSP_MAX_LAYERS; l++)
		d->start[l] = (uint8_t)(d->start[l - 1] + d->split[l - 1]);
}

/* The grouping of the pair (s, t), from the SL cells or computed again. */
static const uint32_t *grouping(struct dfsssp *d, uint32_t s, uint32_t t)
{
	uint32_t k = dfsssp_lids_at(d, t);
	const uint32_t *lids = d->dst + d->dst_off[t];

	if (!d->grouping_in_sl_cells)
		return d->same_path_as + (size_t)s * k;
	for (uint32_t i = 0; i < k; i++)
		d->scratch_group[i] = d->r->sl[(size_t)lids[i] * d->ns + s];
	return d->scratch_group;
}

/* Number the units of one switch pair (one per distinct path c names) in unit_id. */
static uint32_t number_units(struct dfsssp *d, const uint32_t *c, uint32_t k, uint32_t first)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < k; i++)
		if (c[i] == i)
			d->unit_id[i] = first + n++;
	return n;
}

/* The pairs toward t: each unit's layer, spread over the layer's VLs (arg: the VL table). */
static int sls_to(struct dfsssp *d, uint32_t t, void *arg, struct lanes_error *err)
{
	const uint8_t(*tab)[SPREAD] = arg;
	uint32_t next = d->t_unit[t];
	uint32_t k = dfsssp_lids_at(d, t);
	const uint32_t *lids = d->dst + d->dst_off[t];
	uint8_t *sl = d->r->sl;

	for (uint32_t s = 0; s < d->ns; s++) {
		/* no switch hop, or unreachable: layer 0's first VL; else any of layer 0 */
		int first = s == t || d->dist[(size_t)t * d->ns + s] == 255;

		if (dfsssp_lids_at(d, s) && (d->one_layer || !dfsssp_has_dependency(d, s, t)))
			for (uint32_t i = 0; i < k; i++)
				sl[(size_t)lids[i] * d->ns + s] =
					first ? d->start[0] : tab[0][(s + lids[i]) % SPREAD];
	}
	if (d->one_layer)
		return 0; /* every pair in layer 0, units or not */
	if (!d->grouping_in_sl_cells)
		lanes_dfsssp_group_paths(d, t);
	else
		lanes_dfsssp_sort_by_hops(d, t);
	for (uint32_t j = 0; j < d->norder; j++) {
		uint32_t s = d->order[j];
		const uint32_t *c;

		if (!dfsssp_has_dependency(d, s, t))
			continue;
		c = grouping(d, s, t);
		next += number_units(d, c, k, next);
		for (uint32_t i = 0; i < k; i++)
			sl[(size_t)lids[i] * d->ns + s] =
				tab[d->layer[d->unit_id[c[i]]]][(s + lids[i]) % SPREAD];
	}
	(void)err;
	return 0;
}

/*
 * Path SLs per (source switch, destination LID); cells other than CA-to-CA
 * stay 0. tab[l][q] = start_l + q mod split_l, for the layers in use.
 */
static int set_sls(struct dfsssp *d, struct lanes_error *err)
{
	uint8_t tab[DFSSSP_MAX_LAYERS][SPREAD];

	for (uint32_t l = 0; l < d->nlayers && l < DFSSSP_MAX_LAYERS; l++)
		for (uint32_t q = 0, v = 0; q < SPREAD; q++) {
			tab[l][q] = (uint8_t)(d->start[l] + v);
			v = v + 1 < d->split[l] ? v + 1 : 0;
		}
	return lanes_dfsssp_split(d, sls_to, tab, err);
}

/* SL i -> VL i on every switch port pair and every CA or router port. */
static int set_maps(struct dfsssp *d, uint32_t budget, struct lanes_error *err)
{
	return lanes_route_sl2vl_identity(d->r, d->f, budget, err);
}

/* ------------------------------------------------------------- engine */

/*
 * OpenSM's layering (d->layer, d->paths, d->nlayers), kept while first fit
 * tries. d->layer_pairs is not kept: after the layering nothing reads it.
 */
struct layering {
	uint8_t *layer;
	uint64_t paths[DFSSSP_MAX_LAYERS];
	uint32_t nlayers;
};

static int keep_layering(const struct dfsssp *d, struct layering *k, struct lanes_error *err)
{
	if (!(k->layer = malloc((size_t)d->nunits + 1)))
		return lanes_error_oom(err);
	memcpy(k->layer, d->layer, d->nunits);
	memcpy(k->paths, d->paths, sizeof(k->paths));
	k->nlayers = d->nlayers;
	return 0;
}

static void restore_layering(struct dfsssp *d, const struct layering *k)
{
	memcpy(d->layer, k->layer, d->nunits);
	memcpy(d->paths, k->paths, sizeof(k->paths));
	d->nlayers = k->nlayers;
}

/*
 * OpenSM's layering; first fit too when that needs more than the budget or
 * more than 8 VLs (where OpenSM's own dfsssp fails on 8-VL hardware), and
 * the fewer layers win. With any budget of 8 or more the count is the same.
 */
static int assign_layers(struct dfsssp *d, uint32_t budget, struct lanes_error *err)
{
	struct layering k = { NULL, { 0 }, 0 };
	uint32_t ff = 0;
	int rc;

	if (d->one_layer) { /* layer 0 is acyclic: OpenSM's layering keeps every path there */
		lanes_progress_phase(d->opts->progress, "VL layers", 1);
		lanes_progress_add(d->opts->progress, 1);
		d->nlayers = d->greedy = 1;
		return 0;
	}
	if ((rc = lanes_dfsssp_build_cdg(d, err)) || (rc = lanes_dfsssp_make_layers(d, err)))
		return rc;
	d->greedy = d->nlayers;
	if (d->greedy <= budget && d->greedy <= DFSSSP_FF_ABOVE)
		return 0;
	if (d->greedy <= budget && (rc = keep_layering(d, &k, err)))
		return rc;
	rc = lanes_dfsssp_first_fit(d, &ff, err);
	if (k.layer && (rc || ff >= d->greedy)) {
		restore_layering(d, &k); /* OpenSM's layering fits: first fit was optional */
		rc = 0;
	} else if (!rc && !k.layer && ff > budget) {
		rc = lanes_route_over_budget(err, "dfsssp", ff < d->greedy ? ff : d->greedy,
				       DFSSSP_MAX_LAYERS, d->opts);
	}
	free(k.layer);
	return rc;
}

/* "n VL" or "n VLs", without printf (the notes are made on every call). */
static char *put_vls(char *p, uint32_t n)
{
	p = lanes_fmt_dec(p, n);
	return lanes_fmt_str(p, n == 1 ? " VL" : " VLs");
}

/* The notes when first fit needed fewer VLs than OpenSM's layering: at most ~200 bytes. */
static char *first_fit_notes(const struct dfsssp *d, uint32_t budget)
{
	char buf[256], count[32];
	struct lanes_sb b;

	lanes_sb_init(&b, buf, sizeof(buf));
	lanes_sb_str(&b, "dfsssp: OpenSM 3.3.23 DFSSSP on CA-to-CA paths; ");
	lanes_sb_dec(&b, d->nlayers);
	lanes_sb_str(&b, " VLs needed (first fit; OpenSM's layering needs ");
	lanes_sb_str(&b, lanes_route_count_text(d->greedy, DFSSSP_MAX_LAYERS, count, sizeof(count)));
	lanes_sb_str(&b, "), paths spread over up to ");
	lanes_sb_dec(&b, budget);
	lanes_sb_str(&b, " VLs (SL = VL)");
	return lanes_sb_dup(&b);
}

/* The notes, without printf (they are made on every call). */
static int set_notes(struct dfsssp *d, uint32_t budget, struct lanes_error *err)
{
	char buf[256], *p = buf;

	if (d->nlayers == d->greedy) {
		p = lanes_fmt_str(p, "dfsssp: OpenSM 3.3.23 DFSSSP on CA-to-CA paths; ");
		p = lanes_fmt_str(put_vls(p, d->nlayers), " needed (OpenSM's layering), paths "
							  "spread over up to ");
		p = lanes_fmt_str(put_vls(p, budget), " (SL = VL)");
		d->r->notes = lanes_strndup(buf, (size_t)(p - buf));
	} else
		d->r->notes = first_fit_notes(d, budget);
	return d->r->notes ? 0 : lanes_error_oom(err);
}

static int layer_paths(struct dfsssp *d, struct lanes_error *err)
{
	uint32_t budget = lanes_route_layer_budget(d->opts);
	int rc;

	if ((rc = assign_layers(d, budget, err)))
		return rc;
	balance(d, budget);
	if ((rc = set_sls(d, err)) || (rc = set_maps(d, budget, err)))
		return rc;
	lanes_routing_count_resources(d->r);
	d->r->vls_needed = d->r->sls_needed = (uint8_t)d->nlayers; /* before spreading */
	return set_notes(d, budget, err);
}

static void release(struct dfsssp *d)
{
	lanes_dfsssp_units_free(d); /* first: its thread may still read the rest */
	free(d->dist);
	free(d->unit);
	free(d->unit_deps);
	lanes_route_arena_free(&d->arena);
	lanes_route_deps_free(&d->deps);
	lanes_route_endports_free(&d->eps);
	lanes_route_channels_free(&d->ch);
}

int lanes_dfsssp_route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		       int reference, struct lanes_routing **out, struct lanes_error *err)
{
	struct dfsssp d;
	struct sssp_progress prog;
	struct lanes_route_opts sssp_opts = *opts;
	_Alignas(16) unsigned char room[DFSSSP_ROOM]; /* the arena's first arrays */
	int rc;

	memset(&d, 0, sizeof(d));
	lanes_route_arena_init(&d.arena, room, sizeof(room));
	d.f = f;
	d.opts = opts;
	d.ns = f->num_switches;
	d.reference = reference;
	*out = NULL;
	/* step 1, with the units of each destination switch made as it is routed */
	if ((rc = lanes_routing_new(f, &d.r, err)) ||
	    (rc = lanes_route_channels_init(&d.ch, f, "dfsssp", err)) ||
	    (rc = lanes_route_sls_per_src_switch(d.r, err)) || (rc = lanes_dfsssp_units_begin(&d, &prog, err)))
		goto out;
	sssp_opts.threads = lanes_dfsssp_sssp_threads(&d);
	rc = lanes_route_sssp(f, &sssp_opts, SSSP_REPLAY | (reference ? SSSP_REFERENCE : 0), &prog,
			      d.r, err);
	if ((rc = lanes_dfsssp_units_end(&d, rc, err)))
		goto out;
	if ((rc = layer_paths(&d, err)))
		goto out;
	*out = d.r;
	d.r = NULL;
out:
	lanes_routing_free(d.r);
	release(&d);
	return rc;
}

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	return lanes_dfsssp_route(f, opts, 0, out, err);
}

const struct lanes_engine lanes_engine_dfsssp = {
	.name = "dfsssp",
	.summary = "OpenSM's DFSSSP: SSSP paths, channel-dependency cycles broken by moving "
		   "paths up a layer (SL = VL)",
	.scope = "any",
	.resources = "the layers needed, spread over the VL budget (SL = VL)",
	.source = "OpenSM 3.3.23 DFSSSP (doc/current-routing.txt), Domke et al. IPDPS 2011; osm_ucast_dfsssp.c",
	.flags = LANES_ENGINE_ANY_TOPOLOGY | LANES_ENGINE_DEADLOCK_FREE | LANES_ENGINE_USES_SLS |
		 LANES_ENGINE_USES_VLS,
	.check = NULL,
	.route = route,
	.scratch_bytes = lanes_dfsssp_scratch_bytes,
};
