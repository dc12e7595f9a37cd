/*
 * lash.c - LASH, layered shortest path routing (seed 002, "LASH Routing
 * Algorithm"; OpenSM 3.3.23 osm_ucast_lash.c without --do_mesh_analysis;
 * Skeie, Lysne, Theiss, "Layered Shortest Path (LASH) Routing in Irregular
 * System Area Networks", IPDPS 2002). Facts and algorithm only, no code taken.
 *
 * 1. Paths, OpenSM's: switches get OpenSM's ids, the order of its switch GUID
 *    map (route_osm_guid_key). For each switch i in id order, a BFS from i
 *    (neighbours in port order, the first cable to a neighbour) makes a
 *    shortest-path tree; every tree switch x then routes toward every switch
 *    d below it through the child on the way to d, unless an earlier tree
 *    already set x's port toward d. Each step of a tree path is one hop
 *    closer to d, so every path is a shortest path, and the tables equal
 *    OpenSM's entry for entry (tests/interop/lash_vs_opensm.sh). One path
 *    per (switch, destination switch): a CA LID takes the path to the switch
 *    it is cabled to, then its cable; a switch keeps its own LIDs on port 0.
 *    OpenSM's lash does not balance the paths themselves (they follow the
 *    first BFS trees); what it balances is the layers, step 3.
 * 2. Layers (SL = layer = VL): the switch pairs {s, t}, s before t in id
 *    order, in OpenSM's order; the paths s->t and t->s always share a layer.
 *    A pair joins the first layer whose channel dependency graph (channels:
 *    directed switch-to-switch cables; s->t's consecutive channels make its
 *    dependencies) stays acyclic with both paths, or opens a new layer.
 *    "Needed" is the number of layers open at the end (OpenSM's log: "Lanes
 *    needed: N"). Beyond OpenSM: when that exceeds the budget (the least of
 *    opts->max_vls and opts->max_sls), the pairs are layered again, longest
 *    paths first (LASH's first fit in the paper's spirit; fewer layers on
 *    tori), and the routing fails only if that exceeds it too, naming the
 *    fewer layers ("lash: needs 9 VLs, the budget is 8"; OpenSM: "Lane
 *    requirements (9) exceed available lanes (8)").
 * 3. Balance, OpenSM's balance_virtual_lanes made deterministic and spread
 *    over the whole budget (OpenSM stays within the layers needed): while the
 *    fullest layer holds 3 pairs or more than the emptiest, move a pair of
 *    the fullest layer to the emptiest when that one stays acyclic; stop when
 *    as many moves as the fullest layer holds have failed in a row, or as many
 *    as there are pairs in all. OpenSM
 *    picks the pairs at random; here a cursor goes round the pairs in id
 *    order. Counts are switch pairs, as OpenSM's.
 * 4. Path SLs per (source switch, destination LID): the pair's layer; 0 from
 *    a switch to its own LIDs and CAs. SL2VL: SL i -> VL i on every port for
 *    the layers used (sl_layers.c).
 *
 * Acyclicity is kept incrementally: each layer holds a topological order of
 * its channels (Pearce and Kelly, "A dynamic topological sort algorithm for
 * directed acyclic graphs", JEA 2006). A new dependency u->v that agrees with
 * the order costs nothing; otherwise a search bounded by the order either
 * finds the cycle (v reaches u) or reorders the few channels in between.
 * Removing dependencies never breaks the order, so undoing a pair that does
 * not fit, or moving one away, is just counting down. OpenSM searches the
 * whole layer from the path's first channel for every try. The searches are
 * here (they read the layer's counts); the reordering is cdg_order.c's.
 *
 * Every switch pair is layered, switch LIDs included, so `lanes verify
 * --all-traffic` holds too. LMC > 0 (OpenSM falls back to its default engine
 * there): every LID of a port is routed like its base LID, with its SL.
 * Unreachable switch pairs (a split fabric) stay dropped, SL 0.
 * Deterministic: no randomness; same fabric and options, same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/util.h"
#include "../route_internal.h"
#include "engines.h"

#define MAX_LAYERS LANES_NUM_SLS
#define BALANCE_LIMIT 3 /* pairs; OpenSM's limit of 6 counts each pair twice */
#define NONE LANES_NONE
#define OVER (MAX_LAYERS + 1) /* more layers needed than SLs exist */

/* One virtual layer: its channel dependency graph and a topological order. */
struct layer {
	uint32_t *cnt; /* per dense dependency: paths of the layer that make it */
	uint32_t *ord; /* per channel: its place in the order */
	uint64_t pairs;
};

struct lash {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	struct lanes_routing *r;
	uint32_t ns;         /* switches */
	struct route_channels ch; /* channels and dependency numbers */
	uint32_t *osm;       /* OpenSM's ids: osm[id] = switch index */
	uint8_t *port;       /* port[t * ns + x]: x's port toward switch t, 0 at t */
	uint8_t *lay;        /* lay[t * ns + s]: the layer of the pair {s, t} */
	struct layer L[MAX_LAYERS];
	uint32_t nlayers;
	/* scratch */
	uint32_t *queue, *parent;
	uint8_t *pport;
	uint32_t *chan, *journal, njournal;
	uint32_t *stk, *seen, stamp;
	uint64_t *fwd, *bwd;  /* (place << 32 | channel) keys of F and B */
	uint32_t nfwd, nbwd;
	struct route_pk_scratch pk;
};

static int oom(struct lanes_error *err)
{
	return lanes_error_set(err, LANES_ENOMEM, "out of memory");
}

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

/* OpenSM's switch ids: switches by GUID map key (then index). */
static int osm_ids(struct lash *l, struct lanes_error *err)
{
	struct id_key *k = malloc(sizeof(*k) * ((size_t)l->ns + 1));

	l->osm = malloc(sizeof(*l->osm) * ((size_t)l->ns + 1));
	if (!k || !l->osm) {
		free(k);
		return oom(err);
	}
	for (uint32_t s = 0; s < l->ns; s++) {
		k[s].key = route_osm_guid_key(l->f->nodes[l->f->switches[s]].guid);
		k[s].s = s;
	}
	qsort(k, l->ns, sizeof(*k), by_key);
	for (uint32_t i = 0; i < l->ns; i++)
		l->osm[i] = k[i].s;
	free(k);
	return 0;
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

static void make_paths(struct lash *l)
{
	for (uint32_t i = 0; i < l->ns; i++)
		routes_of_tree(l, l->osm[i]);
	for (uint32_t t = 0; t < l->ns; t++)
		l->port[(size_t)t * l->ns + t] = 0;
}

/* Is there a path between switches s != t? */
static int joined(const struct lash *l, uint32_t s, uint32_t t)
{
	return l->port[(size_t)t * l->ns + s] != LANES_PORT_DROP;
}

/* The channels of the path s -> t into chan; @return their number. */
static uint32_t path(struct lash *l, uint32_t s, uint32_t t)
{
	const uint8_t *row = l->port + (size_t)t * l->ns;
	uint32_t n = 0;

	for (uint32_t x = s; x != t; x = l->f->adj[l->chan[n - 1]].sw)
		l->chan[n++] = route_channel_at(&l->ch, x, row[x]);
	return n;
}

/* --------------------------------------------- acyclic layers (Pearce-Kelly) */

static int open_layer(struct lash *l, uint32_t k, struct lanes_error *err)
{
	struct layer *y = &l->L[k];

	if (!y->cnt) {
		y->cnt = malloc(sizeof(*y->cnt) * (l->ch.ndeps + 1));
		y->ord = malloc(sizeof(*y->ord) * ((size_t)l->ch.E + 1));
		if (!y->cnt || !y->ord)
			return oom(err);
	}
	memset(y->cnt, 0, sizeof(*y->cnt) * (l->ch.ndeps + 1));
	for (uint32_t c = 0; c < l->ch.E; c++)
		y->ord[c] = c;
	y->pairs = 0;
	if (l->nlayers < k + 1)
		l->nlayers = k + 1;
	return 0;
}

static void next_stamp(struct lash *l)
{
	if (++l->stamp == 0) {
		memset(l->seen, 0, sizeof(*l->seen) * ((size_t)l->ch.E + 1));
		l->stamp = 1;
	}
}

/*
 * The channels that v reaches in layer y through channels placed before ub,
 * into fwd as (place, channel). @return 1 as soon as it reaches the channel
 * at ub itself: a cycle.
 */
static int reach_forward(struct lash *l, const struct layer *y, uint32_t v, uint32_t ub)
{
	const struct lanes_fabric *f = l->f;
	uint32_t sp = 0;

	l->nfwd = 0;
	l->seen[v] = l->stamp;
	l->stk[sp++] = v;
	while (sp) {
		uint32_t c = l->stk[--sp], x = f->adj[c].sw, a = f->adj_off[x];
		uint32_t deg = f->adj_off[x + 1] - a;
		const uint32_t *cnt = y->cnt + l->ch.dense_off[x] + (size_t)(l->ch.rev[c] - a) * deg;

		l->fwd[l->nfwd++] = (uint64_t)y->ord[c] << 32 | c;
		for (uint32_t i = 0; i < deg; i++) {
			uint32_t w = a + i;

			if (!cnt[i] || l->seen[w] == l->stamp || y->ord[w] > ub)
				continue;
			if (y->ord[w] == ub)
				return 1;
			l->seen[w] = l->stamp;
			l->stk[sp++] = w;
		}
	}
	return 0;
}

/* The channels that reach u in layer y through channels placed after lb, into bwd. */
static void reach_backward(struct lash *l, const struct layer *y, uint32_t u, uint32_t lb)
{
	const struct lanes_fabric *f = l->f;
	uint32_t sp = 0;

	l->nbwd = 0;
	l->seen[u] = l->stamp;
	l->stk[sp++] = u;
	while (sp) {
		uint32_t c = l->stk[--sp], x = f->adj[l->ch.rev[c]].sw, a = f->adj_off[x];
		uint32_t deg = f->adj_off[x + 1] - a;
		const uint32_t *cnt = y->cnt + l->ch.dense_off[x] + (c - a);

		l->bwd[l->nbwd++] = (uint64_t)y->ord[c] << 32 | c;
		for (uint32_t i = 0; i < deg; i++) {
			uint32_t w = l->ch.rev[a + i];

			if (!cnt[(size_t)i * deg] || l->seen[w] == l->stamp || y->ord[w] <= lb)
				continue;
			l->seen[w] = l->stamp;
			l->stk[sp++] = w;
		}
	}
}

/* Count dependency dep (channel u, then v) in layer y; 0 if it would close a cycle. */
static int add_dep(struct lash *l, struct layer *y, uint32_t u, uint32_t v, uint32_t dep)
{
	if (y->cnt[dep] || y->ord[u] < y->ord[v]) {
		y->cnt[dep]++;
		return 1;
	}
	next_stamp(l);
	if (reach_forward(l, y, v, y->ord[u]))
		return 0;
	next_stamp(l);
	reach_backward(l, y, u, y->ord[v]);
	route_pk_reorder(y->ord, l->ch.E, l->bwd, l->nbwd, l->fwd, l->nfwd, &l->pk);
	y->cnt[dep] = 1;
	return 1;
}

/* Add the path s -> t to layer y, recording each dependency counted. */
static int add_path(struct lash *l, struct layer *y, uint32_t s, uint32_t t)
{
	uint32_t n = path(l, s, t);

	for (uint32_t i = 1; i < n; i++) {
		uint32_t dep = route_dependency(&l->ch, l->chan[i - 1], l->chan[i]);

		if (!add_dep(l, y, l->chan[i - 1], l->chan[i], dep))
			return 0;
		l->journal[l->njournal++] = dep;
	}
	return 1;
}

/* Layer k takes the pair {s, t} if it stays acyclic; else it is left as it was. */
static int try_pair(struct lash *l, uint32_t k, uint32_t s, uint32_t t)
{
	struct layer *y = &l->L[k];

	l->njournal = 0;
	if (add_path(l, y, s, t) && add_path(l, y, t, s)) {
		y->pairs++;
		return 1;
	}
	while (l->njournal)
		y->cnt[l->journal[--l->njournal]]--;
	return 0;
}

/* Take the pair {s, t} out of layer k (an acyclic graph minus edges keeps its order). */
static void drop_pair(struct lash *l, uint32_t k, uint32_t s, uint32_t t)
{
	struct layer *y = &l->L[k];

	for (int dir = 0; dir < 2; dir++) {
		uint32_t n = dir ? path(l, t, s) : path(l, s, t);

		for (uint32_t i = 1; i < n; i++)
			y->cnt[route_dependency(&l->ch, l->chan[i - 1], l->chan[i])]--;
	}
	y->pairs--;
}

/* ---------------------------------------------------------------- layering */

static void set_layer(struct lash *l, uint32_t s, uint32_t t, uint32_t k)
{
	l->lay[(size_t)t * l->ns + s] = (uint8_t)k;
	l->lay[(size_t)s * l->ns + t] = (uint8_t)k;
}

/* The pair {s, t} into the first layer that takes it, or a new one; 1 when none is left. */
static int place(struct lash *l, uint32_t s, uint32_t t, struct lanes_error *err)
{
	uint32_t k = 0;
	int rc;

	while (k < l->nlayers && !try_pair(l, k, s, t))
		k++;
	if (k == l->nlayers) {
		if (k == MAX_LAYERS)
			return 1;
		if ((rc = open_layer(l, k, err)))
			return rc;
		try_pair(l, k, s, t); /* both paths are simple: an empty layer takes them */
	}
	set_layer(l, s, t, k);
	return 0;
}

static int clear_layers(struct lash *l, struct lanes_error *err)
{
	uint32_t n = l->nlayers;
	int rc;

	memset(l->lay, 0, (size_t)l->ns * l->ns);
	l->nlayers = 1;
	for (uint32_t k = 0; k < n; k++)
		if ((rc = open_layer(l, k, err)))
			return rc;
	l->nlayers = 1;
	return 0;
}

/* OpenSM's order: pairs by ids, (0,1), (0,2), ... *needed: layers, or OVER. */
static int layer_osm_order(struct lash *l, uint32_t *needed, struct lanes_error *err)
{
	int rc;

	*needed = OVER;
	for (uint32_t a = 0; a < l->ns; a++)
		for (uint32_t b = a + 1; b < l->ns; b++)
			if (joined(l, l->osm[a], l->osm[b]) &&
			    (rc = place(l, l->osm[a], l->osm[b], err)))
				return rc < 0 ? rc : 0;
	*needed = l->nlayers;
	return 0;
}

/* Hops of every joined pair (255 and more: 255), and how many pairs have each. */
static int pair_hops(struct lash *l, uint8_t **hops, uint64_t hist[256], struct lanes_error *err)
{
	int rc;

	if ((rc = lanes_fabric_switch_distances(l->f, hops, err)))
		return rc;
	memset(hist, 0, sizeof(uint64_t) * 256);
	for (uint32_t s = 0; s < l->ns; s++)
		for (uint32_t t = s + 1; t < l->ns; t++)
			if (joined(l, s, t))
				hist[(*hops)[(size_t)s * l->ns + t]]++;
	return 0;
}

/* First fit, longest paths first, then OpenSM's order. */
static int layer_longest_first(struct lash *l, uint32_t *needed, struct lanes_error *err)
{
	uint64_t hist[256];
	uint8_t *hops = NULL;
	int rc;

	*needed = OVER;
	if ((rc = clear_layers(l, err)) || (rc = pair_hops(l, &hops, hist, err)))
		goto out;
	for (int h = 255; h > 0; h--)
		for (uint32_t a = 0; hist[h] && a < l->ns; a++)
			for (uint32_t b = a + 1; b < l->ns; b++) {
				uint32_t s = l->osm[a], t = l->osm[b];

				if (hops[(size_t)s * l->ns + t] != h || !joined(l, s, t))
					continue;
				if ((rc = place(l, s, t, err)))
					goto out;
			}
	*needed = l->nlayers;
out:
	free(hops);
	return rc < 0 ? rc : 0;
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

static uint32_t budget_of(const struct lanes_route_opts *o)
{
	return o->max_vls < o->max_sls ? o->max_vls : o->max_sls;
}

/* Layers in OpenSM's order; longest first when that needs more than the budget. */
static int make_layers(struct lash *l, uint32_t *osm_needed, uint32_t *ff_needed,
		       struct lanes_error *err)
{
	uint32_t budget = budget_of(l->opts);
	char buf[32];
	int rc;

	*ff_needed = 0;
	if ((rc = open_layer(l, 0, err)) || (rc = layer_osm_order(l, osm_needed, err)))
		return rc;
	if (*osm_needed <= budget)
		return 0;
	if ((rc = layer_longest_first(l, ff_needed, err)))
		return rc;
	if (*ff_needed <= budget)
		return 0;
	return lanes_error_set(err, LANES_ERANGE, "lash: needs %s VLs, the budget is %u",
			       count_text(*ff_needed < *osm_needed ? *ff_needed : *osm_needed, buf,
					  sizeof(buf)),
			       budget);
}

/* --------------------------------------------------------------- balance */

/* The first layer with the fewest pairs and the first with the most. */
static void extremes(const struct lash *l, uint32_t *lo, uint32_t *hi)
{
	*lo = *hi = 0;
	for (uint32_t k = 1; k < l->nlayers; k++) {
		if (l->L[k].pairs < l->L[*lo].pairs)
			*lo = k;
		if (l->L[k].pairs > l->L[*hi].pairs)
			*hi = k;
	}
}

/* Move the cursor (a, b), a < b in id order, to the next pair of layer k. */
static void next_in_layer(const struct lash *l, uint32_t k, uint32_t *a, uint32_t *b)
{
	do {
		if (++*b >= l->ns) {
			*a = *a + 2 < l->ns ? *a + 1 : 0;
			*b = *a + 1;
		}
	} while (l->lay[(size_t)l->osm[*b] * l->ns + l->osm[*a]] != k ||
		 !joined(l, l->osm[*a], l->osm[*b]));
}

/*
 * OpenSM's balance_virtual_lanes over the whole budget: pairs of the
 * fullest layer move to the emptiest while that stays acyclic, until the
 * two differ by less than BALANCE_LIMIT or as many tries as the fullest
 * layer holds have failed since the extremes last changed. A failed try costs
 * a cycle search, and on dense fabrics (dragonflies) most tries fail, so the
 * failures are also bounded by the number of pairs in all (a bound on time
 * that depends only on the input).
 */
static int balance(struct lash *l, uint32_t budget, struct lanes_error *err)
{
	uint32_t lo, hi, a = 0, b = 0;
	uint64_t trials, fails_left = 0;
	int rc;

	for (uint32_t k = l->nlayers; k < budget; k++)
		if ((rc = open_layer(l, k, err)))
			return rc;
	for (uint32_t k = 0; k < l->nlayers; k++)
		fails_left += l->L[k].pairs;
	extremes(l, &lo, &hi);
	trials = l->L[hi].pairs;
	while (trials && fails_left && l->L[hi].pairs - l->L[lo].pairs >= BALANCE_LIMIT) {
		uint32_t olo = lo, ohi = hi, s, t;

		next_in_layer(l, hi, &a, &b);
		s = l->osm[a];
		t = l->osm[b];
		if (try_pair(l, lo, s, t)) {
			drop_pair(l, hi, s, t);
			set_layer(l, s, t, lo);
		} else {
			trials--;
			fails_left--;
		}
		extremes(l, &lo, &hi);
		if (lo != olo || hi != ohi)
			trials = l->L[hi].pairs;
	}
	return 0;
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

	if ((rc = route_sls_per_src_switch(l->r, err)) ||
	    (rc = route_endports_osm_order(f, &eps, err)))
		return rc;
	for (uint32_t i = 0; i < eps.n; i++)
		for (uint32_t k = 0; k < (1u << eps.ep[i].lmc); k++)
			route_lid(l, eps.ep[i].lid + k, eps.ep[i].sw, eps.ep[i].sw_port);
	route_endports_free(&eps);
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
		if (l->L[k].pairs)
			n = k + 1;
	return n;
}

static int set_notes(struct lash *l, uint32_t osm_needed, uint32_t ff_needed, uint32_t used,
		     struct lanes_error *err)
{
	char ff[64] = "";

	if (ff_needed)
		snprintf(ff, sizeof(ff), "; %u with longest paths first", ff_needed);
	l->r->notes = lanes_aprintf("lash: OpenSM 3.3.23 LASH on every switch pair; %s%u VL%s "
				    "needed in OpenSM's order%s; pairs balanced over %u VL%s "
				    "(SL = VL)",
				    osm_needed > MAX_LAYERS ? "more than " : "",
				    osm_needed > MAX_LAYERS ? MAX_LAYERS : osm_needed,
				    osm_needed == 1 ? "" : "s", ff, used, used == 1 ? "" : "s");
	return l->r->notes ? 0 : oom(err);
}

/* ---------------------------------------------------------------- engine */

static int prepare(struct lash *l, struct lanes_error *err)
{
	size_t ns = l->ns, cells = ns * ns, E;
	int rc;

	if ((rc = route_channels_init(&l->ch, l->f, "lash", err)) || (rc = osm_ids(l, err)))
		return rc;
	E = (size_t)l->ch.E + 1;
	l->port = malloc(cells + 1);
	l->lay = calloc(cells + 1, 1);
	l->queue = malloc(sizeof(*l->queue) * (ns + 1));
	l->parent = malloc(sizeof(*l->parent) * (ns + 1));
	l->pport = malloc(ns + 1);
	l->chan = malloc(sizeof(*l->chan) * (ns + 1));
	l->journal = malloc(sizeof(*l->journal) * (2 * ns + 1));
	l->stk = malloc(sizeof(*l->stk) * E);
	l->seen = calloc(E, sizeof(*l->seen));
	l->fwd = malloc(sizeof(*l->fwd) * E);
	l->bwd = malloc(sizeof(*l->bwd) * E);
	l->pk.tmp = malloc(sizeof(*l->pk.tmp) * E);
	l->pk.slots = malloc(sizeof(*l->pk.slots) * E);
	if (!l->pk.tmp || !l->pk.slots || !l->port || !l->lay || !l->queue || !l->parent ||
	    !l->pport || !l->chan || !l->journal || !l->stk || !l->seen || !l->fwd || !l->bwd)
		return lanes_error_set(err, LANES_ENOMEM, "lash: out of memory (%zu switches)", ns);
	memset(l->port, LANES_PORT_DROP, cells);
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
	if ((rc = make_layers(l, &osm_needed, &ff_needed, err)) ||
	    (rc = balance(l, budget_of(l->opts), err)) || (rc = write_tables(l, err)))
		return rc;
	used = layers_used(l);
	if ((rc = route_sl2vl_identity(l->r, l->f, used, err)))
		return rc;
	lanes_routing_count_resources(l->r);
	return set_notes(l, osm_needed, ff_needed, used, err);
}

static void release(struct lash *l)
{
	void *p[] = { l->osm,	 l->port,  l->lay,	l->queue, l->parent, l->pport,
		      l->chan,	 l->journal, l->stk,	l->seen,  l->fwd,    l->bwd,
		      l->pk.tmp, l->pk.slots };

	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		free(p[i]);
	for (uint32_t k = 0; k < MAX_LAYERS; k++) {
		free(l->L[k].cnt);
		free(l->L[k].ord);
	}
	route_channels_free(&l->ch);
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

const struct lanes_engine lanes_engine_lash = {
	.name = "lash",
	.summary = "OpenSM's LASH: one shortest path per switch pair, pairs in virtual layers "
		   "with acyclic channel dependencies (SL = VL)",
	.scope = "any",
	.resources = "the layers needed (fails naming them), balanced over the VL budget",
	.source = "OpenSM 3.3.23 LASH (seed 002), Skeie et al. IPDPS 2002; osm_ucast_lash.c",
	.flags = LANES_ENGINE_ANY_TOPOLOGY | LANES_ENGINE_DEADLOCK_FREE | LANES_ENGINE_USES_SLS |
		 LANES_ENGINE_USES_VLS,
	.check = NULL,
	.route = route,
};
