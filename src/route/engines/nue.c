/*
 * nue.c - the Nue routing engine: Domke, Hoefler, Matsuoka, "Routing on the
 * Dependency Graph: A New Approach to Deadlock-Free High-Performance
 * Routing", HPDC 2016, as OpenSM 3.3.23 implements it (seed 002, "Nue
 * Routing Algorithm"; osm_ucast_nue.c). Facts and the algorithm only; no
 * code taken.
 *
 * 1. Layers. The destination LIDs are split into k = min(max_vls, max_sls)
 *    virtual layers. As in OpenSM, METIS_PartGraphKway cuts a graph whose
 *    vertices are the switches and the end ports (CA and router ports) and
 *    whose edges are the cables into k parts (unit weights, a fixed seed, so
 *    the same fabric gives the same parts); a LID's layer is its port's part.
 *    With k = 1 there is no METIS. SL = layer (per destination LID), and
 *    SL i goes to VL i everywhere.
 * 2. Per layer, a fresh complete CDG (nue_cdg.c): every pair of switch-to-
 *    switch channels meeting at a switch may become a dependency; the used
 *    ones are kept acyclic by an incremental topological order.
 * 3. Escape paths. The layer's destination switches span a convex subgraph
 *    (every switch on a shortest path between two of them); its most central
 *    switch by Brandes' betweenness (end ports counted as the endpoints they
 *    are) is the root of a spanning tree, grown Dijkstra-like over the
 *    current channel weights so that layers get different trees. The up*-
 *    down* dependencies of the tree paths from every switch to every
 *    destination switch of the layer are used up front; they are acyclic.
 * 4. Per destination LID (in LID order), a Dijkstra-like search on the CDG
 *    from the destination backward: a popped channel (x -> u) routes switch
 *    x, provided the dependency from it to u's channel is used already or
 *    can be used without closing a cycle; then the channels into x are
 *    relaxed likewise (distance: the sum of channel weights, each a base of P,
 *    the number of destination LIDs, plus the routes placed on it). Each
 *    switch is routed once, so the LFT column is a tree toward the
 *    destination. If a switch stays unreached (an impasse), every
 *    dependency this search added is taken back and the destination is
 *    routed on the escape paths alone (OpenSM tries local backtracking
 *    first; not done here, the notes count these destinations).
 * 5. Balancing: after each destination, every channel's weight grows by
 *    the source LIDs (CA LIDs, and switch LIDs when routed) whose path
 *    crosses it.
 *
 * Which traffic: switch LIDs (opts->switch_lids) are routed inside the CDG
 * like CA LIDs, and sources at switches use the same trees, so every path,
 * switch traffic included, stays in its layer's acyclic CDG: `lanes verify
 * --all-traffic` holds. Works on one VL on any connected fabric; on a
 * disconnected one each component is routed within itself.
 *
 * Bounded work: the convex subgraph is computed exactly while |destination
 * switches| * channels stays under HULL_WORK, else it is the whole
 * component; Brandes' sum takes every HULL_STEP-th source of the hull so that
 * sources * channels stays under BC_WORK. Both depend on the input only.
 *
 * Deterministic: ties go to the lower index everywhere; METIS has a fixed
 * seed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/util.h"
#include "../nue_cdg.h"
#include "../nue_dests.h"
#include "../nue_escape.h"
#include "../route_internal.h"
#include "engines.h"

#define LAZY_TRIES 4

struct nue {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	struct lanes_routing *r;
	uint32_t ns, E, k;
	struct nue_cdg g;
	struct nue_escape x;
	struct nue_dests dests; /* the fields below alias its arrays */
	uint32_t nd, *dlid, *dsw;
	uint8_t *dport, *dlayer;
	uint64_t *hca;       /* per switch: source LIDs there */
	uint64_t *load, w0;  /* per channel: routes placed; base weight */
	uint64_t *load_saved;
	uint32_t *comp, ncomp, *csize;
	double *tw;          /* per switch: destination LIDs of the layer there */
	uint8_t *want;       /* per switch: its escape down paths are used */
	uint8_t *early;      /* per switch: ... from the start of the layer */
	uint32_t *toward;    /* per switch: for the fallback, the entry toward t */
	uint32_t *roots, nroots;
	/* per-destination search */
	struct nue_heap heap;
	uint32_t *via, *seen, stamp, *order, norder;
	uint64_t *sub;
	uint32_t *added, nadded; /* dependencies this search used: (in, out) pairs */
	size_t added_cap;
	uint64_t *dd;            /* per switch: distance of its route */
	int backtracked;         /* this search moved a routed switch */
	uint64_t backtracks, fallbacks, escaped, redone;
	uint32_t *anc, *esc, *q, nq; /* impasse: ancestors of t, switches on escape paths */
};

static int oom(struct lanes_error *err)
{
	return lanes_error_set(err, LANES_ENOMEM, "out of memory");
}

static uint32_t budget_of(const struct lanes_route_opts *o)
{
	return o->max_vls < o->max_sls ? o->max_vls : o->max_sls;
}

/* ------------------------------------------------------------ search */

static uint64_t weight(const struct nue *n, uint32_t e)
{
	return n->w0 + n->load[e];
}

/* ------------------------------------------------------ one destination */

static int remember(struct nue *n, uint32_t in, uint32_t out, struct lanes_error *err)
{
	if (lanes_grow((void **)&n->added, &n->added_cap, n->nadded + 2, sizeof(*n->added)))
		return oom(err);
	n->added[n->nadded++] = in;
	n->added[n->nadded++] = out;
	return 0;
}

/* Route switch x by channel c (x -> next) and relax the channels into x. */
static void settle(struct nue *n, uint32_t x, uint32_t c, uint64_t d)
{
	const struct lanes_fabric *f = n->f;

	n->seen[x] = n->stamp;
	n->via[x] = c;
	n->dd[x] = d;
	n->order[n->norder++] = x;
	for (uint32_t e = f->adj_off[x]; e < f->adj_off[x + 1]; e++) {
		uint32_t y = f->adj[e].sw, in = n->g.rev[e];

		if (n->seen[y] == n->stamp)
			continue;
		nue_heap_push(&n->heap, d + weight(n, in), in, c); /* checked when popped */
	}
}

/* Pop channels until the heap is empty: each routes its switch if it may. */
static int run_heap(struct nue *n, struct lanes_error *err)
{
	struct nue_hent h;
	int rc;

	while (nue_heap_pop(&n->heap, &h)) {
		uint32_t x = n->g.tail[h.c];

		if (n->seen[x] == n->stamp)
			continue;
		if (h.par != LANES_NONE && !nue_cdg_used(&n->g, h.c, h.par)) {
			if (nue_cdg_add(&n->g, h.c, h.par))
				continue;
			if ((rc = remember(n, h.c, h.par, err)))
				return rc;
		}
		settle(n, x, h.c, h.d);
	}
	return 0;
}

/* Use dependencies in->out[i] (all or none); the new ones are remembered. */
static int use_all(struct nue *n, const uint32_t *in, const uint32_t *out, uint32_t cnt,
		   struct lanes_error *err, int *rc)
{
	uint32_t i, mark = n->nadded;

	for (i = 0; i < cnt; i++) {
		if (nue_cdg_used(&n->g, in[i], out[i]))
			continue;
		if (nue_cdg_add(&n->g, in[i], out[i]))
			break;
		if ((*rc = remember(n, in[i], out[i], err)))
			return 0;
	}
	if (i == cnt)
		return 1;
	while (n->nadded > mark) {
		n->nadded -= 2;
		nue_cdg_remove(&n->g, n->added[n->nadded], n->added[n->nadded + 1]);
	}
	return 0;
}

/* Does the path from v toward the destination pass through u? */
static int passes(const struct nue *n, uint32_t v, uint32_t u)
{
	for (uint32_t hop = 0; v != u && n->via[v] != LANES_NONE && hop <= n->ns; hop++)
		v = n->f->adj[n->via[v]].sw;
	return v == u;
}

/*
 * OpenSM's local backtracking (Domke's thesis, section 6.2.6.2), one step:
 * the unreached switch x may enter a routed neighbour u if u moves to another
 * routed neighbour v (whose path avoids u) such that the dependencies of x,
 * of u's routed predecessors and of u itself on the new channel can be used.
 */
static int backtrack(struct nue *n, uint32_t x, struct lanes_error *err, int *rc)
{
	const struct lanes_fabric *f = n->f;
	uint32_t in[LANES_PORTS_MAX + 2], out[LANES_PORTS_MAX + 2];

	for (uint32_t e = f->adj_off[x]; e < f->adj_off[x + 1]; e++) {
		uint32_t u = f->adj[e].sw;

		if (n->seen[u] != n->stamp || n->via[u] == LANES_NONE)
			continue;
		for (uint32_t e2 = f->adj_off[u]; e2 < f->adj_off[u + 1]; e2++) {
			uint32_t v = f->adj[e2].sw, cnt = 0;

			if (n->seen[v] != n->stamp || v == x || e2 == n->via[u] || passes(n, v, u))
				continue;
			if (n->via[v] != LANES_NONE)
				in[cnt] = e2, out[cnt++] = n->via[v];
			in[cnt] = e, out[cnt++] = e2;
			for (uint32_t e3 = f->adj_off[u]; e3 < f->adj_off[u + 1]; e3++) {
				uint32_t y = f->adj[e3].sw;

				if (n->seen[y] == n->stamp && n->via[y] == n->g.rev[e3])
					in[cnt] = n->g.rev[e3], out[cnt++] = e2;
			}
			if (!use_all(n, in, out, cnt, err, rc))
				continue;
			n->via[u] = e2;
			n->backtracked = 1;
			settle(n, x, e, n->dd[v] + weight(n, e2) + weight(n, e));
			return 1;
		}
	}
	return 0;
}

/*
 * The Dijkstra-like search on the CDG toward switch t, then local
 * backtracking for the switches it leaves unreached.
 * @return 1 when every switch of t's component is routed, 0 at an impasse
 */
static int search(struct nue *n, uint32_t t, struct lanes_error *err, int *rc)
{
	uint32_t want = n->csize[n->comp[t]];
	int progress = 1;

	n->stamp++;
	n->heap.n = 0;
	n->norder = 0;
	n->nadded = 0;
	n->backtracked = 0;
	settle(n, t, LANES_NONE, 0);
	if ((*rc = run_heap(n, err)))
		return 0;
	while (n->norder < want && progress) {
		progress = 0;
		for (uint32_t x = 0; x < n->ns && n->norder < want; x++) {
			if (n->comp[x] != n->comp[t] || n->seen[x] == n->stamp)
				continue;
			if (backtrack(n, x, err, rc)) {
				progress = 1;
				n->backtracks++;
				if ((*rc = run_heap(n, err)))
					return 0;
			}
			if (*rc)
				return 0;
		}
	}
	return n->norder == want;
}

/* The escape channel of x toward t: down when x is an ancestor of t, else up. */
static uint32_t escape_channel(const struct nue *n, uint32_t x)
{
	return n->anc[x] == n->stamp ? n->toward[x] : n->g.rev[n->x.down[x]];
}

static void put_on_escape(struct nue *n, uint32_t x, uint32_t t)
{
	if (x == t || n->esc[x] == n->stamp)
		return;
	n->esc[x] = n->stamp;
	n->q[n->nq++] = x;
	n->escaped++;
}

/*
 * The impasse. The unreached switches take their escape paths (the tree
 * path to t), and so does every switch on those paths (E is closed under
 * the tree path, so no forwarding loop can form); a routed switch whose
 * next hop joins E keeps its route if its dependency onto the escape channel
 * can be used, else it joins E too. In the worst case every switch uses the
 * escape paths, whose dependencies are used up front.
 */
static int escape_impasse(struct nue *n, uint32_t t, struct lanes_error *err)
{
	const struct lanes_fabric *f = n->f;
	uint32_t in, out;
	int rc = 0;

	n->fallbacks++;
	for (uint32_t x = t; n->x.down[x] != LANES_NONE; x = n->g.tail[n->x.down[x]]) {
		n->anc[n->g.tail[n->x.down[x]]] = n->stamp;
		n->toward[n->g.tail[n->x.down[x]]] = n->x.down[x];
	}
	n->nq = 0;
	for (uint32_t x = 0; x < n->ns; x++)
		if (n->comp[x] == n->comp[t] && n->seen[x] != n->stamp)
			put_on_escape(n, x, t);
	for (uint32_t i = 0; i < n->nq; i++) {
		uint32_t x = n->q[i], c = escape_channel(n, x);

		put_on_escape(n, f->adj[c].sw, t);
		for (uint32_t e = f->adj_off[x]; e < f->adj_off[x + 1]; e++) {
			uint32_t y = f->adj[e].sw;

			in = n->g.rev[e];
			out = c;
			if (n->seen[y] != n->stamp || n->esc[y] == n->stamp || n->via[y] != in)
				continue;
			if (!use_all(n, &in, &out, 1, err, &rc))
				put_on_escape(n, y, t);
			if (rc)
				return rc;
		}
	}
	for (uint32_t i = 0; i < n->nq; i++) {
		uint32_t x = n->q[i];

		if (n->seen[x] != n->stamp) {
			n->seen[x] = n->stamp;
			n->order[n->norder++] = x;
		}
		n->via[x] = escape_channel(n, x);
	}
	return 0;
}

/* Stop using the dependencies this search added that its final tree does not use. */
static void drop_unused(struct nue *n, uint32_t t)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < n->nadded; i += 2) {
		uint32_t in = n->added[i], out = n->added[i + 1], x = n->g.tail[in];
		uint32_t y = n->f->adj[in].sw;

		if (n->via[x] == in && y != t && n->via[y] == out) {
			n->added[k++] = in;
			n->added[k++] = out;
		} else {
			nue_cdg_remove(&n->g, in, out);
		}
	}
	n->nadded = k;
}

/* Write the LFT column of destination i and add its routes to the weights. */
static void place(struct nue *n, uint32_t i, int walked)
{
	const struct lanes_fabric *f = n->f;
	uint32_t t = n->dsw[i], lid = n->dlid[i];

	lanes_routing_set_port(n->r, t, lid, n->dport[i]);
	for (uint32_t j = 0; j < n->norder; j++) {
		uint32_t s = n->order[j];

		if (s != t)
			lanes_routing_set_port(n->r, s, lid, f->adj[n->via[s]].port);
		n->sub[s] = n->hca[s];
	}
	if (walked) { /* escape routes: no settle order, walk each path */
		for (uint32_t j = 0; j < n->norder; j++)
			for (uint32_t x = n->order[j]; x != t; x = f->adj[n->via[x]].sw)
				n->load[n->via[x]] += n->hca[n->order[j]];
		return;
	}
	for (uint32_t j = n->norder; j-- > 1;) { /* next hops were settled earlier */
		uint32_t s = n->order[j], c = n->via[s];

		n->load[c] += n->sub[s];
		n->sub[f->adj[c].sw] += n->sub[s];
	}
}

/* ----------------------------------------------------------------- layers */

/* The escape trees of layer l: one per component with destinations. */
static void grow_trees(struct nue *n, uint32_t l)
{
	const struct lanes_fabric *f = n->f;

	for (uint32_t s = 0; s < n->ns; s++)
		n->tw[s] = 0.0;
	for (uint32_t i = 0; i < n->nd; i++)
		if (n->dlayer[i] == l)
			n->tw[n->dsw[i]] += 1.0;
	nue_escape_clear(&n->x);
	for (uint32_t c = 0; c < n->ncomp; c++) {
		uint32_t nds = 0, root;
		uint64_t edges = 0;

		for (uint32_t s = 0; s < n->ns; s++)
			if (n->comp[s] == c) {
				nds += n->tw[s] > 0;
				edges += f->adj_off[s + 1] - f->adj_off[s];
			}
		if (!nds)
			continue;
		root = nue_escape_root(&n->x, n->comp, c, n->tw, nds, edges);
		n->roots[n->nroots++] = root;
		nue_escape_tree(&n->x, root, n->load, n->w0);
	}
}

/*
 * Route layer l. The escape down paths are used up front toward the switches
 * with CA or router destinations and the switches in early[] (all of them
 * when lazy is 0); toward another switch that is a destination by its own
 * LID only when its search ends at an impasse. Early escape dependencies
 * restrict every later search (on a fat tree they turn many up-down turns
 * away), so fewer is better; but late ones may no longer fit: such a switch
 * is put in early[] and the layer fails (its routing is then discarded).
 * @return 0 done, 1 a late escape path did not fit, or a negative code
 */
static int route_layer(struct nue *n, uint32_t l, int lazy, struct lanes_error *err)
{
	int rc = 0, failed = 0;

	grow_trees(n, l);
	nue_cdg_reset(&n->g);
	for (uint32_t s = 0; s < n->ns; s++)
		n->want[s] = n->early[s];
	for (uint32_t i = 0; i < n->nd; i++)
		if (n->dlayer[i] == l && (!lazy || n->dport[i]))
			n->want[n->dsw[i]] = 1;
	if (nue_escape_mark(&n->x, &n->g, n->want))
		return lanes_error_set(err, LANES_EINVAL, "nue: escape paths close a cycle (a bug)");
	for (uint32_t i = 0; i < n->nd; i++) {
		uint32_t t = n->dsw[i];
		int ok;

		if (n->dlayer[i] != l)
			continue;
		ok = search(n, t, err, &rc);
		if (rc)
			return rc;
		if (!ok && !n->want[t]) {
			n->want[t] = 1;
			if (nue_escape_mark(&n->x, &n->g, n->want))
				failed = n->early[t] = 1;
		}
		if (!ok && (rc = escape_impasse(n, t, err)))
			return rc;
		drop_unused(n, t);
		place(n, i, !ok || n->backtracked);
	}
	return failed;
}

/*
 * Layer l from the same weights, first lazily, each try with the switches
 * that failed before added to early[]; after LAZY_TRIES, with every escape
 * path up front (always possible: they are an up*-down* order).
 */
static int route_layer_safely(struct nue *n, uint32_t l, struct lanes_error *err)
{
	uint64_t saved[4] = { n->backtracks, n->fallbacks, n->escaped, n->nroots };
	int rc;

	memset(n->early, 0, n->ns);
	memcpy(n->load_saved, n->load, sizeof(*n->load) * n->E);
	for (int tries = 0;; tries++) {
		if ((rc = route_layer(n, l, tries < LAZY_TRIES, err)) != 1)
			return rc;
		memcpy(n->load, n->load_saved, sizeof(*n->load) * n->E);
		n->backtracks = saved[0], n->fallbacks = saved[1], n->escaped = saved[2];
		n->nroots = (uint32_t)saved[3];
		n->redone++;
	}
}

/* -------------------------------------------------------- SLs and maps */

/* SL = layer per destination LID; SL i -> VL i on every port pair. */
static int set_sls_and_maps(struct nue *n, struct lanes_error *err)
{
	const struct lanes_fabric *f = n->f;
	uint8_t map[LANES_NUM_SLS] = { 0 }, used = 0;
	uint16_t m;
	int rc;

	for (uint32_t i = 0; i < n->nd; i++)
		used = n->dlayer[i] + 1u > used ? (uint8_t)(n->dlayer[i] + 1) : used;
	if (used <= 1)
		return 0;
	if ((rc = lanes_routing_set_sl_mode(n->r, LANES_SL_PER_DST, err)))
		return rc;
	for (uint32_t i = 0; i < n->nd; i++)
		lanes_routing_set_sl(n->r, 0, n->dlid[i], n->dlayer[i]);
	for (uint8_t s = 0; s < used; s++)
		map[s] = s;
	if ((rc = lanes_routing_add_map(n->r, map, &m, err)) ||
	    (rc = lanes_routing_enable_sl2vl(n->r, f, err)))
		return rc;
	for (uint32_t x = 0; x < f->num_nodes; x++) {
		uint8_t np = f->nodes[x].nports;

		if (f->nodes[x].type != LANES_NODE_SWITCH) {
			for (uint8_t p = 1; p <= np; p++)
				lanes_routing_set_port_map(n->r, f, x, p, m);
			continue;
		}
		for (uint32_t in = 0; in <= np; in++)
			for (uint32_t out = 0; out <= np; out++)
				lanes_routing_set_switch_map(n->r, f, f->nodes[x].switch_index,
							     (uint8_t)in, (uint8_t)out, m);
	}
	return 0;
}

static int set_notes(struct nue *n, struct lanes_error *err)
{
	char head[320];

	snprintf(head, sizeof(head),
		 "nue: %u layer%s (%s), %u destination LIDs, %llu local backtracking steps, "
		 "%llu impasses solved by %llu switches on escape paths, %llu layer%s routed "
		 "again with more escape paths up front; escape roots per layer and component: ",
		 n->k, n->k == 1 ? "" : "s", n->k == 1 ? "no METIS" : "METIS", n->nd,
		 (unsigned long long)n->backtracks, (unsigned long long)n->fallbacks,
		 (unsigned long long)n->escaped, (unsigned long long)n->redone,
		 n->redone == 1 ? "" : "s");
	n->r->notes = route_notes_with_roots(n->f, head, n->roots, n->nroots, NULL);
	return n->r->notes ? 0 : oom(err);
}

/* ------------------------------------------------------------- engine */

static int alloc_all(struct nue *n, struct lanes_error *err)
{
	size_t ns = (size_t)n->ns + 1, E = (size_t)n->E + 1;

	n->load = calloc(E, sizeof(*n->load));
	n->load_saved = malloc(sizeof(*n->load_saved) * E);
	n->comp = malloc(sizeof(*n->comp) * ns);
	n->csize = calloc(ns, sizeof(*n->csize));
	n->tw = malloc(sizeof(*n->tw) * ns);
	n->want = calloc(ns, 1);
	n->early = calloc(ns, 1);
	n->toward = malloc(sizeof(*n->toward) * ns);
	n->roots = malloc(sizeof(*n->roots) * ns * LANES_NUM_SLS);
	n->heap.h = malloc(sizeof(*n->heap.h) * (E + ns));
	n->via = malloc(sizeof(*n->via) * ns);
	n->seen = calloc(ns, sizeof(*n->seen));
	n->order = malloc(sizeof(*n->order) * ns);
	n->sub = malloc(sizeof(*n->sub) * ns);
	n->dd = malloc(sizeof(*n->dd) * ns);
	n->anc = calloc(ns, sizeof(*n->anc));
	n->esc = calloc(ns, sizeof(*n->esc));
	n->q = malloc(sizeof(*n->q) * ns);
	if (!n->load || !n->load_saved || !n->comp || !n->csize || !n->tw || !n->want || !n->early ||
	    !n->toward || !n->roots || !n->heap.h || !n->via || !n->seen || !n->order || !n->sub ||
	    !n->dd || !n->anc || !n->esc || !n->q)
		return oom(err);
	return nue_escape_init(&n->x, n->f, err);
}

static void release(struct nue *n)
{
	void *p[] = { n->load, n->load_saved,
		      n->comp,	 n->csize, n->tw,    n->want, n->early,	n->toward, n->roots, n->heap.h,
		      n->via,	 n->seen,  n->order, n->sub,	n->added, n->dd,   n->anc,
		      n->esc,	 n->q };

	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		free(p[i]);
	nue_cdg_free(&n->g);
	nue_escape_free(&n->x);
	nue_dests_free(&n->dests);
}

static int route_all(struct nue *n, struct lanes_error *err)
{
	struct route_endports eps;
	int rc;

	memset(&eps, 0, sizeof(eps));
	if ((rc = nue_cdg_init(&n->g, n->f, err)) || (rc = alloc_all(n, err)) ||
	    (rc = route_components(n->f, n->comp, &n->ncomp, err)) ||
	    (rc = route_endports_osm_order(n->f, &eps, err)) ||
	    (rc = nue_dests_build(&n->dests, n->f, &eps, n->opts->switch_lids, n->k, err)))
		goto out;
	n->nd = n->dests.nd, n->dlid = n->dests.lid, n->dsw = n->dests.sw;
	n->dport = n->dests.port, n->dlayer = n->dests.layer, n->hca = n->dests.hca;
	n->k = n->dests.k;
	for (uint32_t s = 0; s < n->ns; s++) { /* each switch answers its own LIDs */
		const struct lanes_port *p0 = lanes_fabric_port(n->f, n->f->switches[s], 0);

		for (uint32_t l = 0; p0->lid && l < (1u << p0->lmc); l++)
			lanes_routing_set_port(n->r, s, p0->lid + l, 0);
	}
	for (uint32_t s = 0; s < n->ns; s++)
		n->csize[n->comp[s]]++;
	n->w0 = n->nd ? (uint64_t)n->nd * n->nd : 1;
	for (uint32_t l = 0; l < n->k; l++)
		if ((rc = route_layer_safely(n, l, err)))
			goto out;
	if ((rc = set_sls_and_maps(n, err)))
		goto out;
	lanes_routing_count_resources(n->r);
	rc = set_notes(n, err);
out:
	route_endports_free(&eps);
	return rc;
}

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	struct nue n;
	int rc;

	memset(&n, 0, sizeof(n));
	n.f = f;
	n.opts = opts;
	n.ns = f->num_switches;
	n.E = f->adj_off[n.ns];
	n.k = budget_of(opts);
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

const struct lanes_engine lanes_engine_nue = {
	.name = "nue",
	.summary = "Nue: routes inside the channel dependency graph of each virtual layer, with "
		   "escape paths; never exceeds the VL budget (SL = layer of the destination)",
	.scope = "any",
	.resources = "1..budget VLs (METIS layers of destinations; SL = VL)",
	.source = "Domke, Hoefler, Matsuoka, HPDC 2016; OpenSM 3.3.23 Nue (seed 002), "
		  "osm_ucast_nue.c",
	.flags = LANES_ENGINE_ANY_TOPOLOGY | LANES_ENGINE_DEADLOCK_FREE | LANES_ENGINE_USES_SLS |
		 LANES_ENGINE_USES_VLS,
	.check = NULL,
	.route = route,
};
