/*
 * lash.c - LASH, layered shortest path routing: Skeie, Lysne and Theiss,
 * "Layered Shortest Path (LASH) Routing in Irregular System Area Networks",
 * Proceedings of IPDPS 2002 (Workshop on Communication Architecture for
 * Clusters). The paper's idea: route every pair of switches on one
 * shortest path, and free the routing of deadlock by putting each path
 * into one of a few virtual layers (virtual lanes) such that the channel
 * dependency graph of every layer stays acyclic; a path takes the first
 * layer that stays acyclic with it. This engine gives the tables of OpenSM
 * 3.3.23's osm_ucast_lash.c (without --do_mesh_analysis) entry for entry;
 * facts and algorithm only, no code taken.
 *
 * 1. Paths, OpenSM's: switches get OpenSM's ids, the order of its switch GUID
 *    map (lanes_route_osm_guid_key). For each switch i in id order, a BFS from i
 *    (neighbours in port order, the first cable to a neighbour) makes a
 *    shortest-path tree; every tree switch x then routes toward every switch
 *    d below it through the child on the way to d, unless an earlier tree
 *    already set x's port toward d. Each step of a tree path is one hop
 *    closer to d, so every path is a shortest path, and the tables equal
 *    OpenSM's entry for entry (tests/interop/lash_vs_opensm.sh). One path
 *    per (switch, destination switch): a CA LID takes the path to the switch
 *    it is cabled to, then its cable; a switch keeps its own LIDs on port 0.
 *    Neither the paper nor OpenSM balances the paths themselves; what
 *    OpenSM balances is the layers, step 3.
 * 2. Layers (SL = layer = VL): the switch pairs {s, t}, s before t in id
 *    order, in OpenSM's order; the paths s->t and t->s always share a layer.
 *    A pair joins the first layer whose channel dependency graph (channels:
 *    directed switch-to-switch cables; s->t's consecutive channels make its
 *    dependencies) stays acyclic with both paths, or opens a new layer
 *    (lash_layers.c, on cdg/cdg.c's graphs). "Needed" is the number of
 *    layers open at the end (OpenSM's log: "Lanes needed: N").
 * 3. Balance, OpenSM's balance_virtual_lanes over the layers needed (as
 *    OpenSM does: the routing uses no more VLs than it needs): while the
 *    fullest layer holds 3 pairs or more than the emptiest, move a pair of
 *    the fullest layer to the emptiest when that one stays acyclic; stop
 *    when as many moves as the fullest layer holds have failed in a row.
 *    Counts are switch pairs, as OpenSM's.
 * 4. Path SLs per (source switch, destination LID): the pair's layer; 0 from
 *    a switch to its own LIDs and CAs. SL2VL: SL i -> VL i on every port for
 *    the layers used (common/layers.c).
 *
 * Where this is not OpenSM:
 * - Over budget: when the layers needed exceed the budget (the least of
 *   opts->max_vls and opts->max_sls), the pairs are layered again, longest
 *   paths first (the paper's first fit, with the hardest paths placed
 *   while the layers are empty; fewer layers on tori), and the routing
 *   fails only if that exceeds it too, naming the fewer layers and the
 *   limit that binds ("lash: needs 9 VLs, the budget is 8 (vls 8)";
 *   OpenSM: "Lane requirements (9) exceed available lanes (8)").
 * - Balance: OpenSM picks the pairs to move at random; here a cursor goes
 *   round the pairs in id order, and the failed moves are also bounded by
 *   the number of pairs in all, so the routing is deterministic.
 * - Cycle tests: OpenSM searches a layer's whole dependency graph on every
 *   try of a path; cdg/cdg.c keeps each layer in a topological order,
 *   searches only between the two channels of a dependency that goes
 *   against it, and remembers refusals. The answers are the same, so are
 *   the layers.
 * - Every switch pair is layered, switch LIDs included, so `lanes verify
 *   --all-traffic` holds too. LMC > 0 (OpenSM falls back to its default
 *   engine there): every LID of a port is routed like its base LID, with
 *   its SL. Unreachable switch pairs (a split fabric) stay dropped, SL 0.
 *
 * Files: this one holds the paths (step 1), the steps and the tables (step
 * 4); lash_layers.c layers and balances the pairs (steps 2 and 3);
 * lash_internal.h holds their shared state. Deterministic: no randomness,
 * no threads; same fabric and options, same bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "core/strbuf.h"
#include "core/util.h"
#include "route/lash/lash_internal.h"
#include "route/engines.h"
#include "route/common/endports.h"
#include "route/cdg/channels.h"
#include "route/common/layers.h"

#define NONE LANES_NONE

/* ---------------------------------------------------------------- paths */

struct id_key {
	uint64_t key;
	uint32_t s;
};

static int by_key(const void *pa, const void *pb)
{
	const struct id_key *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->s < b->s ? -1 : a->s > b->s;
}

/* OpenSM's switch ids: switches by GUID map key (then index); k: ns scratch keys. */
static void osm_ids(struct lash *l, struct id_key *k)
{
	for (uint32_t s = 0; s < l->ns; s++) {
		k[s].key = lanes_route_osm_guid_key(l->f->nodes[l->f->switches[s]].guid);
		k[s].s = s;
	}
	qsort(k, l->ns, sizeof(*k), by_key);
	for (uint32_t i = 0; i < l->ns; i++) {
		l->osm[i] = k[i].s;
		l->id[k[i].s] = i;
	}
}

/* OpenSM's BFS from root: visit order in queue, each switch's parent and its cable from it. */
static uint32_t bfs(struct lash *l, uint32_t root)
{
	const struct lanes_fabric *f = l->f;
	uint32_t head = 0, n = 0;

	l->parent[root] = root;
	l->queue[n++] = root;
	while (head < n) {
		uint32_t x = l->queue[head++];

		for (uint32_t e = f->adj_off[x]; e < f->adj_off[x + 1]; e++) {
			uint32_t y = f->adj[e].sw;

			if (l->parent[y] != NONE)
				continue;
			l->parent[y] = x;
			l->pport[y] = f->adj[e].port; /* the first cable in port order */
			l->queue[n++] = y;
		}
	}
	return n;
}

/* Every tree switch routes toward the switches below it, where no earlier tree did. */
static void routes_of_tree(struct lash *l, uint32_t root)
{
	uint32_t n = bfs(l, root);

	for (uint32_t j = 1; j < n; j++) {
		uint32_t d = l->queue[j];
		uint8_t *row = l->port + (size_t)d * l->ns;

		for (uint32_t y = d; y != root; y = l->parent[y])
			if (row[l->parent[y]] == LANES_PORT_DROP)
				row[l->parent[y]] = l->pport[y];
	}
	for (uint32_t j = 0; j < n; j++)
		l->parent[l->queue[j]] = NONE;
}

/* Progress: phase "paths", one unit per tree (switch). */
static void make_paths(struct lash *l)
{
	lanes_progress_phase(l->opts->progress, "paths", l->ns);
	for (uint32_t i = 0; i < l->ns; i++) {
		routes_of_tree(l, l->osm[i]);
		lanes_progress_add(l->opts->progress, 1);
	}
	for (uint32_t t = 0; t < l->ns; t++)
		l->port[(size_t)t * l->ns + t] = 0;
}

/* Layers in OpenSM's order; longest first when that needs more than the budget. */
static int make_layers(struct lash *l, uint32_t *osm_needed, uint32_t *ff_needed,
		       struct lanes_error *err)
{
	uint32_t budget = lanes_route_layer_budget(l->opts);
	int rc;

	*ff_needed = 0;
	if ((rc = lanes_lash_open_layer(l, 0, err)) || (rc = lanes_lash_layer_osm_order(l, osm_needed, err)))
		return rc;
	if (*osm_needed <= budget)
		return 0;
	if ((rc = lanes_lash_layer_longest_first(l, ff_needed, err)))
		return rc;
	if (*ff_needed <= budget)
		return 0;
	return lanes_route_over_budget(err, "lash", *ff_needed < *osm_needed ? *ff_needed : *osm_needed,
				 LASH_MAX_LAYERS, l->opts);
}

/* ---------------------------------------------------------------- tables */

/* LID lid ends at switch t, where it leaves by port at_t; its SLs are the pairs' layers. */
static void route_lid(struct lash *l, uint32_t lid, uint32_t t, uint8_t at_t)
{
	uint8_t *col = l->r->lft + (size_t)lid * l->ns;

	if (lid > l->f->max_lid)
		return;
	memcpy(col, l->port + (size_t)t * l->ns, l->ns);
	col[t] = at_t;
	memcpy(l->r->sl + (size_t)lid * l->ns, l->lay + (size_t)t * l->ns, l->ns);
}

static int write_tables(struct lash *l, struct lanes_error *err)
{
	const struct lanes_fabric *f = l->f;
	struct route_endports eps;
	int rc;

	if ((rc = lanes_route_sls_per_src_switch(l->r, err)) ||
	    (rc = lanes_route_endports_osm_order(f, &eps, err)))
		return rc;
	for (uint32_t i = 0; i < eps.n; i++)
		for (uint32_t k = 0; k < (1u << eps.ep[i].lmc); k++)
			route_lid(l, eps.ep[i].lid + k, eps.ep[i].sw, eps.ep[i].sw_port);
	lanes_route_endports_free(&eps);
	for (uint32_t t = 0; t < l->ns; t++) {
		const struct lanes_port *p0 = lanes_fabric_port(f, f->switches[t], 0);

		for (uint32_t k = 0; p0->lid && k < (1u << p0->lmc); k++)
			if (l->opts->switch_lids)
				route_lid(l, p0->lid + k, t, 0);
			else if (p0->lid + k <= f->max_lid)
				lanes_routing_set_port(l->r, t, p0->lid + k, 0);
	}
	return 0;
}

static uint32_t layers_used(const struct lash *l)
{
	uint32_t n = 1;

	for (uint32_t k = 0; k < l->nlayers; k++)
		if (l->pairs[k])
			n = k + 1;
	return n;
}

/* The notes, without printf (they are made on every call): at most ~190 bytes. */
static int set_notes(struct lash *l, uint32_t osm_needed, uint32_t ff_needed, uint32_t used,
		     struct lanes_error *err)
{
	char buf[256], osm[32];
	struct lanes_sb b;

	lanes_sb_init(&b, buf, sizeof(buf));
	lanes_sb_str(&b, "lash: OpenSM 3.3.23 LASH on every switch pair; ");
	lanes_sb_str(&b, lanes_route_count_text(osm_needed, LASH_MAX_LAYERS, osm, sizeof(osm)));
	lanes_sb_str(&b, osm_needed == 1 ? " VL" : " VLs");
	lanes_sb_str(&b, " needed in OpenSM's order");
	if (ff_needed) {
		lanes_sb_str(&b, "; ");
		lanes_sb_dec(&b, ff_needed);
		lanes_sb_str(&b, " with longest paths first");
	}
	lanes_sb_str(&b, "; pairs balanced over ");
	lanes_sb_dec(&b, used);
	lanes_sb_str(&b, used == 1 ? " VL (SL = VL)" : " VLs (SL = VL)");
	l->r->notes = lanes_sb_dup(&b);
	return l->r->notes ? 0 : lanes_error_oom(err);
}

/* ---------------------------------------------------------------- engine */

/*
 * The scratch arrays, from one block (util.h's lanes_carve: measured, then
 * handed out), l->block.
 * @return the id keys for osm_ids
 */
static struct id_key *carve(struct lash *l, struct lanes_carver *c)
{
	size_t ns = l->ns, cells = ns * ns;
	struct id_key *k;

	l->osm = lanes_carve(c, sizeof(*l->osm) * (ns + 1));
	k = lanes_carve(c, sizeof(*k) * (ns + 1));
	l->port = lanes_carve(c, cells + 1);
	l->lay = lanes_carve(c, cells + 1);
	l->id = lanes_carve(c, sizeof(*l->id) * (ns + 1));
	l->pair_layer = lanes_carve(c, cells + 1);
	l->queue = lanes_carve(c, sizeof(*l->queue) * (ns + 1));
	l->parent = lanes_carve(c, sizeof(*l->parent) * (ns + 1));
	l->pport = lanes_carve(c, ns + 1);
	l->there = lanes_carve(c, sizeof(*l->there) * (ns + 1));
	l->back = lanes_carve(c, sizeof(*l->back) * (ns + 1));
	return k;
}

static int prepare(struct lash *l, struct lanes_error *err)
{
	struct lanes_carver c = { NULL, 0 };
	size_t ns = l->ns;
	struct id_key *k;
	int rc;

	if ((rc = lanes_route_channels_init(&l->ch, l->f, "lash", err)) ||
	    (rc = lanes_cdg_new(&l->cdg, &l->ch, LASH_MAX_LAYERS, err)))
		return rc;
	carve(l, &c);
	if (!(l->block = c.base = malloc(c.used)))
		return lanes_error_set(err, LANES_ENOMEM, "lash: out of memory (%zu switches)", ns);
	c.used = 0;
	k = carve(l, &c);
	osm_ids(l, k);
	memset(l->port, LANES_PORT_DROP, ns * ns);
	memset(l->lay, 0, ns * ns + 1);
	memset(l->pair_layer, LASH_NO_LAYER, ns * ns + 1);
	for (size_t s = 0; s < ns; s++)
		l->parent[s] = NONE;
	return 0;
}

static int compute(struct lash *l, struct lanes_error *err)
{
	uint32_t osm_needed, ff_needed, used;
	int rc;

	if ((rc = prepare(l, err)))
		return rc;
	make_paths(l);
	if ((rc = make_layers(l, &osm_needed, &ff_needed, err)))
		return rc;
	if ((rc = lanes_lash_balance(l, err)) || (rc = write_tables(l, err)))
		return rc;
	used = layers_used(l);
	if ((rc = lanes_route_sl2vl_identity(l->r, l->f, used, err)))
		return rc;
	lanes_routing_count_resources(l->r);
	/* the layering that fitted, before the pairs were balanced over more */
	l->r->vls_needed = l->r->sls_needed = (uint8_t)(ff_needed ? ff_needed : osm_needed);
	return set_notes(l, osm_needed, ff_needed, used, err);
}

static void release(struct lash *l)
{
	free(l->block);
	lanes_cdg_free(l->cdg);
	lanes_route_channels_free(&l->ch);
}

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	struct lash l;
	int rc;

	memset(&l, 0, sizeof(l));
	l.f = f;
	l.opts = opts;
	l.ns = f->num_switches;
	*out = NULL;
	if ((rc = lanes_routing_new(f, &l.r, err)) || (rc = compute(&l, err)))
		goto out;
	*out = l.r;
	l.r = NULL;
out:
	lanes_routing_free(l.r);
	release(&l);
	return rc;
}

/*
 * Beyond the tables: a byte per switch pair in each of port, lay and
 * pair_layer (carve) and in the hops of longest-first layering. Measured:
 * torus k=20x20x10 p=1 peaks at 126 MB, of which 64 MB of tables and 64 MB
 * by this count.
 */
static uint64_t scratch_bytes(const struct lanes_fabric *f, const struct lanes_route_opts *opts)
{
	(void)opts;
	return 4 * (uint64_t)f->num_switches * f->num_switches;
}

const struct lanes_engine lanes_engine_lash = {
	.name = "lash",
	.summary = "OpenSM's LASH: one shortest path per switch pair, pairs in virtual layers "
		   "with acyclic channel dependencies (SL = VL)",
	.scope = "any",
	.resources = "the layers needed (fails naming them), balanced among themselves",
	.source = "OpenSM 3.3.23 LASH (doc/current-routing.txt), Skeie et al. IPDPS 2002; osm_ucast_lash.c",
	.flags = LANES_ENGINE_ANY_TOPOLOGY | LANES_ENGINE_DEADLOCK_FREE | LANES_ENGINE_USES_SLS |
		 LANES_ENGINE_USES_VLS,
	.check = NULL,
	.route = route,
	.scratch_bytes = scratch_bytes,
};
