/*
 * ud_dfs.c - up* / down* routing on a depth-first spanning tree, after
 * Sancho, Robles, López, Flich and Duato, "Routing in InfiniBand Torus
 * Network Topologies" (ICPP 2003), section 3, which takes the methodology of
 * its refs. [18] and [19]: a DFS spanning tree instead of Autonet's BFS one
 * gives more minimal paths and a better balance.
 *
 * The heuristics, as section 3 gives them:
 *  - Root: "the root with the highest average topological distance to the
 *    rest of the switches will be selected as the root node" (average hops
 *    to the other switches of its component; ties to the lowest node GUID,
 *    then the lowest index: our tie-break, the paper names none).
 *  - Order: "Starting from the root, the switch with the largest number of
 *    links connecting to switches that already belong to the tree is
 *    selected as the next switch in the tree. In case of tie, the switch with
 *    the highest average topological distance to the rest of the switches
 *    will be selected first." We read "recursive procedure" as a true DFS:
 *    the candidates are the unvisited neighbours of the switch on top of the
 *    DFS stack, and the search backs up when it has none. Links are counted
 *    as cables (parallel cables each count). Further ties: lowest GUID, then
 *    lowest index.
 *  - Directions: switches are labelled in visiting order and "the 'up' end of
 *    each link is defined as the end whose switch has the label with the
 *    highest value"; with labels counting down from the root that is the end
 *    visited earlier, so here a move towards the switch visited earlier is up.
 * A disconnected fabric gets one tree per component, each with its own root.
 * With order=frontier the next switch is chosen by the same rule among every
 * unvisited switch cabled to the tree, not only among the neighbours of the
 * switch on top of the stack: on the tori of the paper's Table 2 that gives
 * its UD_DFS average distances exactly (docs/routing.md), so the paper's
 * own search was evidently of that kind.
 *
 * Paths and balance: the shortest legal up* / down* paths with minhop's
 * least-loaded choice (lanes_route_updown_lfts in updown.c); with the
 * parameter balance=N (N >= 1 rounds) one tree per destination switch
 * chosen among the same legal candidates by the balancing selection of
 * route/common/balance.c, our reconstruction of ref. [18]'s
 * (lanes_route_updown_balanced in updown_balance.c), on one thread. The paper balances
 * with the algorithm of its ref. [18] and avoids InfiniBand's lack of
 * input-port routing by destination renaming (extra LIDs); here the LFT is
 * per destination as for updn, so a switch with an all-down path always
 * takes it, which every switch has towards its tree descendants. Every DFS
 * tree edge joins a switch to one visited earlier, so every switch reaches
 * its root by up moves and every other switch from there by down moves:
 * every pair is routed, on one VL, without credit loops.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/distance.h"
#include "route/common/balance.h"
#include "route/common/params.h"
#include "route/common/tables.h"
#include "route/updown/updown.h"
#include "route/engines.h"
#include "core/util.h"

struct dfs {
	const struct lanes_fabric *f;
	unsigned workers;  /* for the distances and the tables */
	uint8_t *dist;     /* all-pairs switch hops */
	uint32_t *comp, ncomp;
	uint64_t *sum;     /* hops to the other switches of the component */
	uint32_t *intree;  /* cable ends to switches already in the tree */
	uint8_t *visited;
	uint32_t *stack;
	uint32_t *pos;     /* visit order */
	uint32_t *roots;   /* per component */
	uint32_t *parent_entry; /* per switch: its tree link to the switch it was found from
				   (the first such cable in port order), LANES_NONE at a root;
				   NULL when not wanted */
	uint32_t next;
	uint32_t balance_rounds; /* balance=N; 0: minhop's choice */
	int frontier;      /* order=frontier: the next switch among all switches cabled to the tree */
};

static uint64_t guid_of(const struct dfs *d, uint32_t s)
{
	return d->f->nodes[d->f->switches[s]].guid;
}

/* Higher average distance (same component: higher sum), then lower GUID, then lower index. */
static int farther(const struct dfs *d, uint32_t a, uint32_t b)
{
	if (d->sum[a] != d->sum[b])
		return d->sum[a] > d->sum[b];
	if (guid_of(d, a) != guid_of(d, b))
		return guid_of(d, a) < guid_of(d, b);
	return a < b;
}

/* The DFS heuristic: more links into the tree first, then farther(). */
static int better(const struct dfs *d, uint32_t a, uint32_t b)
{
	if (d->intree[a] != d->intree[b])
		return d->intree[a] > d->intree[b];
	return farther(d, a, b);
}

static void distance_sums(struct dfs *d)
{
	uint32_t ns = d->f->num_switches;

	for (uint32_t s = 0; s < ns; s++) {
		const uint8_t *row = d->dist + (size_t)s * ns;
		uint64_t sum = 0;

		for (uint32_t v = 0; v < ns; v++)
			sum += d->comp[v] == d->comp[s] ? row[v] : 0;
		d->sum[s] = sum;
	}
}

static void pick_roots(struct dfs *d)
{
	for (uint32_t c = 0; c < d->ncomp; c++)
		d->roots[c] = LANES_NONE;
	for (uint32_t s = 0; s < d->f->num_switches; s++) {
		uint32_t c = d->comp[s];

		if (d->roots[c] == LANES_NONE || farther(d, s, d->roots[c]))
			d->roots[c] = s;
	}
}

static void visit(struct dfs *d, uint32_t v)
{
	const struct lanes_fabric *f = d->f;

	d->visited[v] = 1;
	d->pos[v] = d->next++;
	for (uint32_t e = f->adj_off[v]; e < f->adj_off[v + 1]; e++)
		d->intree[f->adj[e].sw]++;
}

/* The best unvisited neighbour of c, or LANES_NONE. */
static uint32_t next_child(const struct dfs *d, uint32_t c)
{
	const struct lanes_fabric *f = d->f;
	uint32_t best = LANES_NONE;

	for (uint32_t e = f->adj_off[c]; e < f->adj_off[c + 1]; e++) {
		uint32_t v = f->adj[e].sw;

		if (!d->visited[v] && (best == LANES_NONE || better(d, v, best)))
			best = v;
	}
	return best;
}

/* The first adjacency entry of v (port order) that leads to u. */
static uint32_t cable_to(const struct lanes_fabric *f, uint32_t v, uint32_t u)
{
	for (uint32_t e = f->adj_off[v]; e < f->adj_off[v + 1]; e++)
		if (f->adj[e].sw == u)
			return e;
	return LANES_NONE;
}

static void dfs_tree(struct dfs *d, uint32_t root)
{
	uint32_t top = 0;

	visit(d, root);
	if (d->parent_entry)
		d->parent_entry[root] = LANES_NONE;
	d->stack[top++] = root;
	while (top) {
		uint32_t v = next_child(d, d->stack[top - 1]);

		if (v == LANES_NONE) {
			top--;
			continue;
		}
		visit(d, v);
		if (d->parent_entry)
			d->parent_entry[v] = cable_to(d->f, v, d->stack[top - 1]);
		d->stack[top++] = v;
	}
}

/* The first cable (port order) from v to a switch already visited, or LANES_NONE. */
static uint32_t cable_to_tree(const struct dfs *d, uint32_t v)
{
	for (uint32_t e = d->f->adj_off[v]; e < d->f->adj_off[v + 1]; e++)
		if (d->visited[d->f->adj[e].sw])
			return e;
	return LANES_NONE;
}

/*
 * order=frontier: from the root, the next switch is the best by the same
 * rule among every unvisited switch cabled to the tree of its component,
 * not only among the neighbours of the switch on top of a DFS stack.
 */
static void frontier_tree(struct dfs *d, uint32_t root)
{
	const struct lanes_fabric *f = d->f;

	visit(d, root);
	if (d->parent_entry)
		d->parent_entry[root] = LANES_NONE;
	for (;;) {
		uint32_t best = LANES_NONE;

		for (uint32_t v = 0; v < f->num_switches; v++)
			if (!d->visited[v] && d->intree[v] && d->comp[v] == d->comp[root] &&
			    (best == LANES_NONE || better(d, v, best)))
				best = v;
		if (best == LANES_NONE)
			return;
		if (d->parent_entry)
			d->parent_entry[best] = cable_to_tree(d, best);
		visit(d, best);
	}
}

static int dfs_order(struct dfs *d, struct lanes_error *err)
{
	size_t ns = d->f->num_switches;
	int rc;

	d->comp = malloc(sizeof(uint32_t) * (ns + 1));
	d->sum = malloc(sizeof(uint64_t) * (ns + 1));
	d->intree = calloc(ns + 1, sizeof(uint32_t));
	d->visited = calloc(ns + 1, 1);
	d->stack = malloc(sizeof(uint32_t) * (ns + 1));
	d->pos = malloc(sizeof(uint32_t) * (ns + 1));
	d->roots = malloc(sizeof(uint32_t) * (ns + 1));
	if (!d->comp || !d->sum || !d->intree || !d->visited || !d->stack || !d->pos || !d->roots)
		return lanes_error_oom(err);
	if ((rc = lanes_route_components(d->f, d->comp, &d->ncomp, err)) ||
	    (rc = lanes_switch_distances_parallel(d->f, d->workers, &d->dist, err)))
		return rc;
	distance_sums(d);
	pick_roots(d);
	for (uint32_t c = 0; c < d->ncomp; c++)
		if (d->frontier)
			frontier_tree(d, d->roots[c]);
		else
			dfs_tree(d, d->roots[c]);
	return 0;
}

/* One word of the parameters: balance=N, order=dfs|frontier. */
static int parse_word(void *ctx, const char *w, size_t len, struct lanes_error *err)
{
	struct dfs *d = ctx;
	int rc = lanes_route_balance_param("ud-dfs", w, len, &d->balance_rounds, err);

	if (rc)
		return rc < 0 ? rc : 0;
	if ((len == 9 && !memcmp(w, "order=dfs", 9)) || (len == 14 && !memcmp(w, "order=frontier", 14))) {
		d->frontier = len == 14;
		return 0;
	}
	return lanes_error_set(err, LANES_EINVAL, "ud-dfs: unknown parameter '%.*s' (takes "
			       "balance=N, order=dfs|frontier)", (int)len, w);
}

static int set_notes(struct dfs *d, const struct lanes_route_opts *opts, struct lanes_routing *r,
		     struct lanes_error *err)
{
	static const char head[] =
		"ud-dfs: up*/down* on a DFS spanning tree (Sancho et al., seed 004 section 3): root "
		"= the switch with the highest average distance to the others; next = the unvisited "
		"neighbour with the most links into the tree, then the higher average distance, then "
		"the lower GUID; up = towards the switch visited earlier; 1 VL; ";
	char *tail = lanes_aprintf("%s%s%s",
				   d->frontier ? "; order=frontier: next among every switch cabled "
						 "to the tree" : "",
				   d->balance_rounds ? "; paths by the balancing selection (balance=N)"
						     : "",
				   opts->roots ? "; the roots file is not used (the heuristic picks "
						 "the root)" : "");

	if (!tail)
		return lanes_error_oom(err);
	r->notes = lanes_route_notes_with_roots(d->f, head, d->roots, d->ncomp,
						*tail ? tail : NULL);
	free(tail);
	return r->notes ? 0 : lanes_error_oom(err);
}

static void release(struct dfs *d)
{
	free(d->dist);
	free(d->comp);
	free(d->sum);
	free(d->intree);
	free(d->visited);
	free(d->stack);
	free(d->pos);
	free(d->roots);
}

int lanes_route_dfs_tree(const struct lanes_fabric *f, unsigned workers, uint32_t *pos,
			 uint32_t *parent_entry, struct lanes_error *err)
{
	struct dfs d;
	int rc;

	memset(&d, 0, sizeof(d));
	d.f = f;
	d.workers = workers ? workers : 1;
	d.parent_entry = parent_entry;
	if (!(rc = dfs_order(&d, err)))
		memcpy(pos, d.pos, sizeof(*pos) * f->num_switches);
	release(&d);
	return rc;
}

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	struct lanes_routing *r = NULL;
	struct route_updown_gap gap;
	struct dfs d;
	int rc;

	memset(&d, 0, sizeof(d));
	d.f = f;
	d.workers = lanes_route_destination_workers(opts, f->num_switches);
	*out = NULL;
	if ((rc = lanes_route_each_param(opts->params, parse_word, &d, err)) ||
	    (rc = dfs_order(&d, err)) || (rc = lanes_routing_new_parallel(f, d.workers, &r, err)))
		goto out;
	rc = d.balance_rounds
		     ? lanes_route_updown_balanced(f, opts, d.pos, d.balance_rounds, r, &gap, err)
		     : lanes_route_updown_lfts(f, opts, d.pos, r, &gap, err);
	if (rc == 1)
		rc = lanes_error_set(err, LANES_EINTERNAL, "ud-dfs: internal: the DFS order left a gap");
	if (rc || (rc = set_notes(&d, opts, r, err)))
		goto out;
	*out = r;
	r = NULL;
out:
	lanes_routing_free(r);
	release(&d);
	return rc;
}

const struct lanes_engine lanes_engine_ud_dfs = {
	.name = "ud-dfs",
	.summary = "up*/down* on a DFS spanning tree with Sancho et al.'s root and order heuristics",
	.scope = "any",
	.resources = "1 VL",
	.source = "Sancho, Robles, Lopez, Flich, Duato: Routing in InfiniBand torus network "
		  "topologies (ICPP 2003), section 3",
	.flags = LANES_ENGINE_ANY_TOPOLOGY | LANES_ENGINE_DEADLOCK_FREE,
	.check = NULL,
	.params_usage = "balance=N,order=dfs|frontier",
	.route = route,
};
