/*
 * nue.c - the Nue routing engine, after Jens Domke, Torsten Hoefler and
 * Satoshi Matsuoka, "Routing on the Dependency Graph: A New Approach to
 * Deadlock-Free High-Performance Routing", HPDC 2016 (ACM), with the details
 * of Domke's dissertation (Tokyo Institute of Technology, 2017). Facts and
 * the algorithm only; no code taken from OpenSM.
 *
 * Nue routes inside the channel dependency graph (CDG) instead of checking
 * a routing against it afterwards: a route may take a turn only if the
 * dependency between the two channels keeps the CDG acyclic, so the tables
 * are free of credit loops by construction and any fabric, with any number
 * of virtual lanes from one up, can be routed. In order:
 *
 * 1. Destinations and layers (nue_dests.c): the CA and router LIDs, in
 *    rounds over their switches, are split into k = min(max_vls, max_sls)
 *    virtual layers by a METIS k-way partition, as in OpenSM (no METIS when
 *    k = 1). A destination's SL is its layer, and SL i goes to VL i.
 * 2. Per layer, a fresh complete CDG (cdg/cdg.c, one layer of a lanes_cdg):
 *    every pair of switch-to-switch channels that meet at a switch is a
 *    possible dependency; the used ones are kept acyclic by an incremental
 *    topological order, which starts from an order that the escape paths
 *    agree with (nue_order.c).
 * 3. Escape paths (nue_escape.c): per connected component, the most central
 *    switch of the convex subgraph of the layer's destination switches
 *    (betweenness) roots a spanning tree grown over the current channel
 *    weights, and the up*-down* dependencies of its paths to every
 *    destination switch of the layer are used up front. They are acyclic,
 *    so a destination whose search ends at an impasse can always fall back
 *    on them.
 * 4. Per destination LID (nue_search.c): a Dijkstra-like search on the CDG
 *    from the destination backward routes every switch of the component
 *    through dependencies that keep the CDG acyclic, with local
 *    backtracking, and escape paths where it still ends at an impasse. A
 *    channel weighs w0 = P^2 (P: destination LIDs) plus the routes placed
 *    on it, so that the searches spread the load. Where it provably gives
 *    the same tree, a BFS (nue_fast.c, the engine's default) does the
 *    search's work with less heap traffic.
 * 5. Switch LIDs (opts->switch_lids; nue_swlids.c), after all layers and
 *    outside the CDG: per switch the least-loaded min-hop port by minhop's
 *    rule (common/load.h), the loads being the CA LIDs routed per port;
 *    SL 0.
 *
 * Which paths: CA to CA, the traffic the verifier checks by default and
 * that OpenSM's engines keep free of deadlock ("between any two hosts").
 * Paths from a switch to a CA LID follow the same trees and stay in the
 * CDG too, but the paths to switch LIDs are not in it: they carry
 * management traffic only, so `lanes verify --all-traffic` may find cycles
 * through them (with --ca-lids-only, where every destination is a CA, it
 * holds).
 *
 * Where this is not OpenSM's osm_ucast_nue.c (3.3.23):
 * - the cycle check: a dynamic topological order of the channels (cdg/cdg.c:
 *   a forward and a backward search inside the window between the two ends
 *   of a new dependency, one side moved as a block) instead of OpenSM's
 *   coloured subgraphs and depth-first search; only the time differs;
 * - the search's heap holds one entry per switch (its best channel, with
 *   decrease-key) instead of one per channel with lazy deletion: the same
 *   pop order, except that after a local backtracking step a switch may be
 *   offered again a channel into a switch that moved;
 * - the escape root's betweenness is sampled (every n-th source) and the
 *   convex subgraph becomes the whole component above fixed work bounds
 *   (nue_escape.c), bounds that depend on the input alone;
 * - switch LIDs are routed outside the CDG on min-hop paths (OpenSM's
 *   nue_include_switches FALSE leaves them to its fallback);
 * - a disconnected fabric is routed component by component, each within
 *   itself, the other components' LIDs dropped;
 * - the BFS shortcut of step 4 (nue_fast.c) is lanes' own: same tables.
 *
 * Deterministic: ties go to the lower index everywhere; METIS has a fixed
 * seed. The same build gives the same bytes for the same input; another
 * METIS version, or another compiler rounding the betweenness sums that pick
 * the escape root differently, may give other (equally valid) tables.
 *
 * Memory: the arrays of a call come from one arena (common/arena.c), its
 * first room on this function's stack, freed together at the end.
 */
#include <string.h>

#include "lanes/progress.h"
#include "core/parallel.h"
#include "core/strbuf.h"
#include "core/util.h"
#include "route/nue/nue.h"
#include "route/cdg/cdg.h"
#include "route/nue/nue_dests.h"
#include "route/nue/nue_escape.h"
#include "route/nue/nue_order.h"
#include "route/nue/nue_search.h"
#include "route/nue/nue_swlids.h"
#include "route/common/endports.h"
#include "route/updown/updown.h"
#include "route/common/layers.h"
#include "route/engines.h"

#define NUE_ROOM 4096 /* bytes of the arena's first room, on the stack */

struct nue {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	int use_fast;          /* the search's BFS shortcut (nue_fast.c) */
	struct lanes_routing *r;
	uint32_t ns, E, k;
	struct route_channels ch; /* the CDG's channels and dependencies */
	struct lanes_cdg *cdg;    /* the layer being routed: its layer NUE_LAYER */
	struct nue_order order;   /* a fresh layer's first order */
	struct nue_escape x;
	struct nue_search s;
	struct nue_dests d;
	uint64_t *load;      /* per channel: routes placed */
	uint32_t *comp, ncomp, *csize;
	double *tw;          /* per switch: destination LIDs of the layer there */
	uint8_t *want;       /* per switch: destinations of the layer there */
	uint32_t *roots, nroots;
	uint32_t *layer_root; /* per layer l and component c, [l * ncomp + c]: the escape root, or
			       * LANES_NONE (no destination of l in c) */
	struct route_arena a;  /* the arrays of the call (arena.c) */
};

/* ----------------------------------------------------------------- layers */

/* tw[s]: the destination LIDs of layer l at switch s. */
static void layer_weights(const struct nue *n, uint32_t l, double *tw)
{
	for (uint32_t s = 0; s < n->ns; s++)
		tw[s] = 0.0;
	for (uint32_t i = 0; i < n->d.nd; i++)
		if (n->d.layer[i] == l)
			tw[n->d.sw[i]] += 1.0;
}

/*
 * The escape roots of layer l, one per component with destinations, into
 * layer_root (x and tw: scratch of the caller's thread). They depend on the
 * layer's destinations alone, not on the loads, so every layer's can be
 * found before the first is routed, each layer on any thread.
 */
static void layer_roots(struct nue *n, uint32_t l, struct nue_escape *x, double *tw)
{
	const struct lanes_fabric *f = n->f;

	layer_weights(n, l, tw);
	for (uint32_t c = 0; c < n->ncomp; c++) {
		uint32_t nds = 0;
		uint64_t edges = 0;

		for (uint32_t s = 0; s < n->ns; s++)
			if (n->comp[s] == c) {
				nds += tw[s] > 0;
				edges += f->adj_off[s + 1] - f->adj_off[s];
			}
		n->layer_root[(size_t)l * n->ncomp + c] =
			nds ? lanes_nue_escape_root(x, n->comp, c, tw, nds, edges) : LANES_NONE;
	}
}

struct roots_work {
	struct nue *n;
	unsigned workers;
	struct nue_escape *x; /* per worker */
	double *tw;           /* per worker: ns + 1 */
};

/* Worker k: layers k, k + workers, ... */
static void roots_job(void *ctx, unsigned k)
{
	struct roots_work *w = ctx;

	for (uint32_t l = k; l < w->n->k; l += w->workers)
		layer_roots(w->n, l, &w->x[k], w->tw + (size_t)k * (w->n->ns + 1));
}

/* Below this many switches times layers one thread finds the roots (threads 0). */
#define NUE_ROOTS_WORTH 4096

/* Every layer's escape roots, on opts->threads threads (the same roots for any count). */
static int all_roots(struct nue *n, struct lanes_error *err)
{
	size_t work = (size_t)n->ns * n->k;
	struct roots_work w = { n, 1, NULL, NULL };
	int rc;

	n->layer_root = route_alloc(&n->a, sizeof(*n->layer_root) * ((size_t)n->k * n->ncomp + 1));
	if (lanes_threads_wanted(n->opts->threads, work, NUE_ROOTS_WORTH))
		w.workers = lanes_threads_for(n->opts->threads, n->k);
	w.x = route_alloc(&n->a, sizeof(*w.x) * w.workers);
	w.tw = route_alloc(&n->a, sizeof(*w.tw) * w.workers * ((size_t)n->ns + 1));
	if (!n->layer_root || !w.x || !w.tw)
		return lanes_error_oom(err);
	for (unsigned k = 0; k < w.workers; k++)
		if ((rc = lanes_nue_escape_init(&w.x[k], n->f, &n->a, err)))
			return rc;
	if (w.workers > 1)
		lanes_parallel_run(w.workers, roots_job, &w);
	else
		roots_job(&w, 0);
	return 0;
}

/* The escape trees of layer l: one per component with destinations, from its root. */
static void grow_trees(struct nue *n, uint32_t l)
{
	layer_weights(n, l, n->tw);
	lanes_nue_escape_clear(&n->x);
	for (uint32_t c = 0; c < n->ncomp; c++) {
		uint32_t root = n->layer_root[(size_t)l * n->ncomp + c];

		if (root == LANES_NONE)
			continue;
		n->roots[n->nroots++] = root;
		lanes_nue_escape_tree(&n->x, root, n->load, n->s.w0);
	}
}

/* Route layer l: escape paths up front, then each destination LID of it. */
static int route_layer(struct nue *n, uint32_t l, struct lanes_error *err)
{
	uint32_t r0 = n->nroots;
	int rc;

	grow_trees(n, l);
	if ((rc = lanes_cdg_open_layer(n->cdg, NUE_LAYER, err)))
		return rc;
	for (uint32_t s = 0; s < n->ns; s++)
		n->want[s] = n->tw[s] > 0;
	lanes_cdg_set_order(n->cdg, NUE_LAYER,
			    lanes_nue_order_from(&n->order, n->roots + r0, n->nroots - r0, n->want));
	if (lanes_nue_escape_mark(&n->x, n->cdg, NUE_LAYER, &n->ch, n->want))
		return lanes_error_set(err, LANES_EINTERNAL, "nue: internal: escape paths close a cycle");
	for (uint32_t i = 0; i < n->d.nd; i++) {
		if (n->d.layer[i] != l)
			continue;
		if ((rc = lanes_nue_search_route(&n->s, n->d.sw[i], err)))
			return rc;
		lanes_nue_search_place(&n->s, n->r, n->d.sw[i], n->d.lid[i], n->d.port[i]);
		lanes_progress_add(n->opts->progress, 1);
	}
	return 0;
}

/* -------------------------------------------------------- SLs and maps */

/* SL = layer per destination LID; SL i -> VL i on every port pair. */
static int set_sls_and_maps(struct nue *n, struct lanes_error *err)
{
	uint8_t used = 0;
	int rc;

	for (uint32_t i = 0; i < n->d.nd; i++)
		used = n->d.layer[i] + 1u > used ? (uint8_t)(n->d.layer[i] + 1) : used;
	if (used <= 1)
		return 0;
	if ((rc = lanes_routing_set_sl_mode(n->r, LANES_SL_PER_DST, err)))
		return rc;
	for (uint32_t i = 0; i < n->d.nd; i++)
		lanes_routing_set_sl(n->r, 0, n->d.lid[i], n->d.layer[i]);
	return lanes_route_sl2vl_identity(n->r, n->f, used, err);
}

static int set_notes(struct nue *n, struct lanes_error *err)
{
	char head[320];
	struct lanes_sb b;

	/* without printf: the notes are made on every call */
	lanes_sb_init(&b, head, sizeof(head));
	lanes_sb_str(&b, "nue: ");
	lanes_sb_dec(&b, n->k);
	lanes_sb_str(&b, n->k == 1 ? " layer (no METIS), " : " layers (METIS), ");
	lanes_sb_dec(&b, n->d.nd);
	lanes_sb_str(&b, " CA destination LIDs, ");
	lanes_sb_dec(&b, n->s.backtracks);
	lanes_sb_str(&b, " local backtracking steps, ");
	lanes_sb_dec(&b, n->s.fallbacks);
	lanes_sb_str(&b, " impasses solved by ");
	lanes_sb_dec(&b, n->s.escaped);
	lanes_sb_str(&b, " switches on escape paths; switch LIDs on shortest paths outside the "
		     "CDG (SL 0); escape roots per layer and component: ");
	n->r->notes = lanes_route_notes_with_roots(n->f, head, n->roots, n->nroots, NULL);
	return n->r->notes ? 0 : lanes_error_oom(err);
}

/* ------------------------------------------------------------- engine */

static int alloc_all(struct nue *n, struct lanes_error *err)
{
	size_t ns = (size_t)n->ns + 1, E = (size_t)n->E + 1;
	int rc;

	n->load = route_zalloc(&n->a, sizeof(*n->load) * E);
	n->comp = route_alloc(&n->a, sizeof(*n->comp) * ns);
	n->csize = route_zalloc(&n->a, sizeof(*n->csize) * ns);
	n->tw = route_alloc(&n->a, sizeof(*n->tw) * ns);
	n->want = route_zalloc(&n->a, ns);
	n->roots = route_alloc(&n->a, sizeof(*n->roots) * ns * LANES_NUM_SLS);
	if (!n->load || !n->comp || !n->csize || !n->tw || !n->want || !n->roots)
		return lanes_error_oom(err);
	if ((rc = lanes_route_channels_init(&n->ch, n->f, "nue", err)))
		return rc;
	for (uint32_t e = 0; e < n->E; e++)
		if (n->ch.rev[e] == LANES_NONE)
			return lanes_error_set(err, LANES_EINTERNAL,
					       "nue: internal: switch adjacency is not symmetric");
	if ((rc = lanes_cdg_new(&n->cdg, &n->ch, 1, err)) ||
	    (rc = lanes_nue_order_init(&n->order, n->f, &n->ch, &n->a, err)) ||
	    (rc = lanes_nue_escape_init(&n->x, n->f, &n->a, err)))
		return rc;
	return lanes_nue_search_init(&n->s, n->f, n->cdg, &n->ch, &n->x, n->use_fast, &n->a, err);
}

/* What is not the arena's: the CDG, the channel map, the search's added[]; then the arena. */
static void release(struct nue *n)
{
	lanes_nue_search_free(&n->s);
	lanes_cdg_free(n->cdg);
	lanes_route_channels_free(&n->ch);
	lanes_route_arena_free(&n->a);
}

static int route_all(struct nue *n, struct lanes_error *err)
{
	struct route_endports eps;
	int rc;

	memset(&eps, 0, sizeof(eps));
	if ((rc = alloc_all(n, err)) || (rc = lanes_route_components(n->f, n->comp, &n->ncomp, err)) ||
	    (rc = lanes_route_endports_osm_order(n->f, &eps, err)) ||
	    (rc = lanes_nue_dests_build(&n->d, n->f, &eps, n->k, &n->a, err)))
		goto out;
	n->k = n->d.k;
	for (uint32_t s = 0; s < n->ns; s++) { /* each switch answers its own LIDs */
		const struct lanes_port *p0 = lanes_fabric_port(n->f, n->f->switches[s], 0);

		for (uint32_t l = 0; p0->lid && l < (1u << p0->lmc); l++)
			lanes_routing_set_port(n->r, s, p0->lid + l, 0);
	}
	for (uint32_t s = 0; s < n->ns; s++)
		n->csize[n->comp[s]]++;
	n->s.comp = n->comp, n->s.csize = n->csize, n->s.hca = n->d.hca, n->s.load = n->load;
	n->s.w0 = n->d.nd ? (uint64_t)n->d.nd * n->d.nd : 1;
	lanes_nue_bundles_sync(&n->s.fast, n->load);
	if ((rc = all_roots(n, err)))
		goto out;
	lanes_progress_phase(n->opts->progress, "routing", n->d.nd);
	for (uint32_t l = 0; l < n->k; l++)
		if ((rc = route_layer(n, l, err)))
			goto out;
	if (n->opts->switch_lids && (rc = lanes_nue_switch_lids(n->f, n->r, n->d.lid, n->d.nd, &n->a, err)))
		goto out;
	if ((rc = set_sls_and_maps(n, err)))
		goto out;
	lanes_routing_count_resources(n->r);
	/* Nue routes deadlock-free within any budget, 1 VL included (one
	 * layer, escape paths): it needs 1 and uses its layers for balance. */
	n->r->vls_needed = n->r->sls_needed = 1;
	rc = set_notes(n, err);
out:
	lanes_route_endports_free(&eps);
	return rc;
}

int lanes_nue_route(const struct lanes_fabric *f, const struct lanes_route_opts *opts, int use_fast,
		    struct lanes_routing **out, struct lanes_error *err)
{
	_Alignas(16) unsigned char room[NUE_ROOM]; /* the arena's first arrays */
	struct nue n;
	int rc;

	memset(&n, 0, sizeof(n));
	lanes_route_arena_init(&n.a, room, sizeof(room));
	n.f = f;
	n.opts = opts;
	n.use_fast = use_fast;
	n.ns = f->num_switches;
	n.E = f->adj_off[n.ns];
	n.k = lanes_route_layer_budget(opts);
	*out = NULL;
	if ((rc = lanes_routing_new(f, &n.r, err)) || (rc = route_all(&n, err)))
		goto out;
	*out = n.r;
	n.r = NULL;
out:
	lanes_routing_free(n.r);
	release(&n);
	return rc;
}

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	return lanes_nue_route(f, opts, 1, out, err);
}

const struct lanes_engine lanes_engine_nue = {
	.name = "nue",
	.summary = "Nue: routes inside the channel dependency graph of each virtual layer, with "
		   "escape paths; never exceeds the VL budget (SL = layer of the destination)",
	.scope = "any",
	.resources = "1..budget VLs (METIS layers of destinations; SL = VL)",
	.source = "Domke, Hoefler, Matsuoka, \"Routing on the Dependency Graph\", HPDC 2016; "
		  "OpenSM 3.3.23 osm_ucast_nue.c",
	.flags = LANES_ENGINE_ANY_TOPOLOGY | LANES_ENGINE_DEADLOCK_FREE | LANES_ENGINE_USES_SLS |
		 LANES_ENGINE_USES_VLS,
	.check = NULL,
	.route = route,
};
