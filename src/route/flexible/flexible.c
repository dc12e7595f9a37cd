/*
 * flexible.c - the Flexible routing (FX) of Sancho, Robles and Duato, "A
 * flexible routing scheme for networks of workstations" (ISHPC 2000, LNCS
 * 1940), as Sancho, Robles, Lopez, Flich and Duato, "Routing in InfiniBand
 * Torus Network Topologies" (ICPP 2003), Sec. 4 describe it. The ISHPC
 * paper was not available to us: what follows is a reconstruction, and
 * this header says which parts are the sources' words and which are ours.
 *
 * What the sources say (ICPP 2003 Sec. 4, and the ISHPC abstract):
 *  - "a generic routing scheme that avoids deadlock by breaking cycles in
 *    the network graph. However, cycles are broken at different nodes for
 *    each direction in the cycle, thus providing better traffic balance
 *    than that provided by the up*\/down* routing algorithm";
 *  - on a ring of 4 switches (their Figures 3 to 5) up* / down* removes the
 *    dependencies of both directions at the same switch and some channels
 *    carry three routes; with the restrictions "independently placed for
 *    each direction of the cycle" the most routes on a channel is 2; it
 *    "may apply new routing restrictions to the network in addition to
 *    those imposed to remove cyclic dependencies ... avoiding disconnecting
 *    the network";
 *  - it "is based on computing a DFS spanning tree on the network graph,
 *    which provides a suitable underlying graph to detect cycles";
 *  - one VL and one SL; the input-port dependence is removed by destination
 *    renaming (Lopez, Flich, Duato, ICPP 2001); "this routing scheme
 *    performs a perfect traffic balance on 4-node cycles" (Sec. 5, Table 2:
 *    deviation crossing 0 on the 4x4, 3x3x3 and 4x4x4 tori).
 *
 * Our reconstruction. A restriction is a forbidden channel dependency
 * (turn); the allowed dependencies form a channel dependency graph (CDG)
 * that is kept acyclic (route/cdg/cdg.h), which is what deadlock freedom on
 * one VL needs (Dally and Seitz). Instead of fixing the restrictions up
 * front from the tree (up* / down*: at the switch where both directions of
 * a cycle turn from down to up), each direction of a cycle is broken where
 * the routes leave it free:
 *  1. The DFS spanning tree of ud-dfs (Sancho et al.'s root and order
 *     heuristics, src/route/updown/ud_dfs.c). Every turn between two tree
 *     links is allowed from the start: a tree has no cycle, so these
 *     dependencies are acyclic, and every switch reaches every other along
 *     the tree. This keeps the network connected whatever is restricted
 *     later.
 *  2. All switch pairs, shortest routes first: level by level (0 hops, 1,
 *     ...), at each level every destination t in index order, every switch
 *     s without a route toward t in index order. s takes a channel s->y to
 *     a neighbour y routed toward t at this level when the dependency of
 *     s->y onto y's own channel toward t is in the CDG or can join it
 *     without closing a cycle; a switch refused at its level tries again
 *     one level later (a longer route). A dependency that would close a
 *     cycle is a restriction placed there, for that direction of that cycle
 *     only: the other direction is broken wherever its own routes leave
 *     room. (Destination by destination, the first destinations took the
 *     dependencies the later ones needed for short routes.)
 *  3. So that no switch is ever cut off: when s takes a channel other than
 *     its tree link toward t, the dependencies of its tree children toward
 *     t that have no route yet (the tree neighbours whose tree path to t
 *     runs through s) onto that channel are added at once; if one would
 *     close a cycle, s tries its next candidate. A switch can therefore
 *     always join through its tree parent toward t, and every switch of
 *     t's component is routed.
 *  4. Balance, the Sec. 4 selection "minimizing the number of routing paths
 *     crossing each channel", counted per switch pair as Sec. 5 counts:
 *     candidates in order of the most-crossed channel of their whole route
 *     (routes never change once made, so it is known), then how many of
 *     s's unrouted successors (neighbours one hop farther from t) could
 *     follow s onto the channel, then the crossings summed, then port
 *     order.
 *  5. Trials (trials=N; 16 up to 256 switches, else 1): each from a fresh
 *     CDG, trial i weighing a channel by (i + 1) times its crossings plus
 *     those of the earlier trials and starting its destination order at
 *     another switch; the trial with the lowest crossing path (then the
 *     fewest hops) is kept.
 * The tables are destination-based: one next hop per (switch, destination
 * switch), the same for every LID that ends there (route/common/balance.c's
 * driver writes them). The paper's destination renaming gives a source a
 * choice of DLIDs per destination, so that a switch may forward packets
 * for one destination differently by where they came from; lanes'
 * routings have no per-(source, destination) DLID choice, so here each
 * switch has one route per destination and the input-port dependence never
 * arises. Everything runs on one thread, in index order: the tables do not
 * depend on opts->threads.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "core/util.h"
#include "fabric/distance.h"
#include "route/cdg/cdg.h"
#include "route/common/balance.h"
#include "route/common/params.h"
#include "route/common/tables.h"
#include "route/engines.h"
#include "route/updown/updown.h"

#define ENGINE "flexible"
/* All-pairs state: 6 bytes per (switch, destination switch). */
#define MAX_SWITCHES 4096
#define UNSET 0xffff
/* trials=N: the default, and the most; above TRIALS_UP_TO switches the default is 1 */
#define DEFAULT_TRIALS 16
#define MAX_TRIALS 64
#define TRIALS_UP_TO 256

struct flexible {
	const struct lanes_fabric *f;
	struct lanes_progress *progress; /* opts->progress */
	uint32_t ns;
	struct route_channels channels;
	struct lanes_cdg *cdg;
	uint32_t *position;       /* DFS visiting order */
	uint32_t *parent_entry;   /* per switch: its tree link upward, LANES_NONE at a root */
	uint8_t *tree_link;       /* per channel: a tree link, either direction */
	uint32_t *component;      /* per switch */
	/* per (destination t, switch s) at [t * ns + s] */
	uint16_t *hops;           /* hops of s's route to t, UNSET: none yet */
	uint32_t *next;           /* s's channel toward t, LANES_NONE at t and unrouted */
	uint64_t *crossings;      /* per channel: switch-pair routes on it so far */
	uint64_t *history;        /* per channel: crossings of the earlier trials, summed */
	uint32_t trials, trial;   /* trials=N: routings tried; this one */
	uint16_t *best_hops;      /* the best trial's hops and next */
	uint32_t *best_next;
	uint64_t best_most, best_total;
	uint32_t *toward;         /* per switch: its tree channel toward the current t */
	uint32_t *queue;
	uint8_t *queued;
	uint32_t *order;          /* a switch's candidate channels */
	uint64_t *most, *sum;     /* per candidate: the crossings of its whole path */
	uint32_t *first, *chosen; /* the tree handed to the LFT writer */
	uint32_t *rank;
	uint8_t *dist;            /* all-pairs switch hops */
	uint32_t *future;         /* per candidate: successors that could follow it */
};

static uint16_t *hops_to(const struct flexible *x, uint32_t t)
{
	return x->hops + (size_t)t * x->ns;
}

static uint32_t *next_to(const struct flexible *x, uint32_t t)
{
	return x->next + (size_t)t * x->ns;
}

/* ------------------------------------------------------------ the tree */

static int tree_init(struct flexible *x, const struct lanes_route_opts *opts,
		     struct lanes_error *err)
{
	const struct lanes_fabric *f = x->f;
	uint32_t ncomp;
	int rc;

	if ((rc = lanes_route_dfs_tree(f, lanes_route_destination_workers(opts, f->num_switches),
				       x->position, x->parent_entry, err)) ||
	    (rc = lanes_route_components(f, x->component, &ncomp, err)))
		return rc;
	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t e = x->parent_entry[s];

		if (e != LANES_NONE && x->channels.rev[e] != LANES_NONE)
			x->tree_link[e] = x->tree_link[x->channels.rev[e]] = 1;
	}
	return 0;
}

/* Every turn between two tree links, into the CDG: acyclic, as the tree is. */
static int allow_tree_turns(struct flexible *x, struct lanes_error *err)
{
	const struct lanes_fabric *f = x->f;

	for (uint32_t y = 0; y < f->num_switches; y++)
		for (uint32_t a = f->adj_off[y]; a < f->adj_off[y + 1]; a++)
			for (uint32_t b = f->adj_off[y]; b < f->adj_off[y + 1]; b++) {
				uint32_t in = x->channels.rev[a];

				if (!x->tree_link[a] || !x->tree_link[b] || a == b ||
				    f->adj[a].sw == f->adj[b].sw || in == LANES_NONE)
					continue;
				if (lanes_cdg_add_dep(x->cdg, 0, in, b) != 1)
					return lanes_error_set(err, LANES_EINTERNAL,
							       ENGINE ": internal: a tree turn closed "
							       "a cycle at switch %u", y);
			}
	return 0;
}

/* toward[s]: s's tree channel toward t (a BFS over tree links from t). */
static void tree_toward(struct flexible *x, uint32_t t)
{
	const struct lanes_fabric *f = x->f;
	uint32_t head = 0, tail = 0;

	for (uint32_t s = 0; s < x->ns; s++)
		x->toward[s] = LANES_NONE;
	x->queue[tail++] = t;
	x->queued[t] = 1;
	while (head < tail) {
		uint32_t z = x->queue[head++];

		for (uint32_t e = f->adj_off[z]; e < f->adj_off[z + 1]; e++) {
			uint32_t w = f->adj[e].sw;

			if (x->tree_link[e] && !x->queued[w]) {
				x->queued[w] = 1;
				x->toward[w] = x->channels.rev[e];
				x->queue[tail++] = w;
			}
		}
	}
	for (uint32_t i = 0; i < tail; i++)
		x->queued[x->queue[i]] = 0;
}

/* ------------------------------------------------------------ attaching a switch */

/*
 * s's tree children toward t that have no route yet may follow s onto
 * channel c: their dependencies onto c, added (all or none). @return 1
 * added, 0 refused
 */
static int children_follow(struct flexible *x, uint32_t t, uint32_t s, uint32_t c)
{
	const struct lanes_fabric *f = x->f;
	const uint16_t *hops = hops_to(x, t);
	uint32_t added[256], n = 0;

	if (c == x->toward[s])
		return 1; /* tree turns: in the CDG from the start */
	for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++) {
		uint32_t in = x->channels.rev[e], w = f->adj[e].sw;

		if (!x->tree_link[e] || e == x->toward[s] || x->toward[w] != in || hops[w] != UNSET)
			continue; /* not a child, or routed already */
		if (lanes_cdg_add_dep(x->cdg, 0, in, c) != 1) {
			for (uint32_t i = 0; i < n; i++)
				lanes_cdg_remove_dep(x->cdg, 0, added[i], c);
			return 0;
		}
		added[n++] = in;
	}
	return 1;
}

/*
 * Channel c from s to a routed switch y: the dependency of c onto y's own
 * channel joins the CDG unless it closes a cycle; then s's tree children
 * must be able to follow (children_follow). @return 1 s takes c
 */
static int try_channel(struct flexible *x, uint32_t t, uint32_t s, uint32_t c)
{
	uint32_t y = x->f->adj[c].sw, onward = next_to(x, t)[y];

	if (y != t && lanes_cdg_add_dep(x->cdg, 0, c, onward) != 1)
		return 0;
	if (!children_follow(x, t, s, c)) {
		if (y != t)
			lanes_cdg_remove_dep(x->cdg, 0, c, onward);
		return 0;
	}
	return 1;
}

/* The crossings of the route that starts with channel c toward t: most and sum. */
static void path_crossings(const struct flexible *x, uint32_t t, uint32_t c, uint64_t *most,
			   uint64_t *sum)
{
	const uint32_t *next = next_to(x, t);

	*most = *sum = 0;
	while (c != LANES_NONE) {
		uint64_t k = x->crossings[c] * (x->trial + 1) + x->history[c];

		*most = k > *most ? k : *most;
		*sum += k;
		c = next[x->f->adj[c].sw];
	}
}

/*
 * Candidate i is tried after candidate j: its route's most-crossed channel
 * carries more, else fewer of s's successors could follow it, else its
 * route's crossings sum to more.
 */
static int later(const struct flexible *x, uint32_t i, uint32_t j)
{
	if (x->most[i] != x->most[j])
		return x->most[i] > x->most[j];
	if (x->future[i] != x->future[j])
		return x->future[i] < x->future[j];
	return x->sum[i] > x->sum[j];
}

/*
 * How many of s's neighbours one hop farther from t (plain distance) and
 * not yet routed could follow s onto channel c: the dependency is in use
 * or may join the CDG (tried and taken back).
 */
static uint32_t could_follow(struct flexible *x, uint32_t t, uint32_t s, uint32_t c)
{
	const struct lanes_fabric *f = x->f;
	const uint8_t *d = x->dist + (size_t)t * x->ns;
	uint32_t n = 0;

	for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++) {
		uint32_t w = f->adj[e].sw, in = x->channels.rev[e];

		if (d[w] != d[s] + 1 || hops_to(x, t)[w] != UNSET || w == f->adj[c].sw)
			continue;
		if (lanes_cdg_used(x->cdg, 0, in, c)) {
			n++;
		} else if (lanes_cdg_add_dep(x->cdg, 0, in, c) == 1) {
			lanes_cdg_remove_dep(x->cdg, 0, in, c);
			n++;
		}
	}
	return n;
}

/* s's channels to switches routed in `hops` hops, least crossed route first, into x->order. */
static uint32_t candidates(struct flexible *x, uint32_t t, uint32_t s, uint32_t hops)
{
	const struct lanes_fabric *f = x->f;
	const uint16_t *h = hops_to(x, t);
	uint32_t n = 0;

	for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++) {
		uint32_t i = n++;

		if (h[f->adj[e].sw] != hops) {
			n--;
			continue;
		}
		x->order[i] = e;
		path_crossings(x, t, e, &x->most[i], &x->sum[i]);
		x->future[i] = could_follow(x, t, s, e);
		for (; i > 0 && later(x, i - 1, i); i--) {
			uint32_t o = x->order[i];
			uint64_t m = x->most[i], u = x->sum[i];
			uint32_t fu = x->future[i];

			x->order[i] = x->order[i - 1];
			x->most[i] = x->most[i - 1];
			x->sum[i] = x->sum[i - 1];
			x->order[i - 1] = o;
			x->most[i - 1] = m;
			x->sum[i - 1] = u;
			x->future[i] = x->future[i - 1];
			x->future[i - 1] = fu;
		}
	}
	return n;
}

/* The route of s toward t, one more pair on each of its channels. */
static void count_route(struct flexible *x, uint32_t t, uint32_t s)
{
	const uint32_t *next = next_to(x, t);

	for (uint32_t c = next[s]; c != LANES_NONE; c = next[x->f->adj[c].sw])
		x->crossings[c]++;
}

/* Route s toward t one hop beyond the switches at `hops`, if a channel may. @return 1 routed */
static int attach(struct flexible *x, uint32_t t, uint32_t s, uint32_t hops)
{
	uint32_t n = candidates(x, t, s, hops);

	for (uint32_t i = 0; i < n; i++)
		if (try_channel(x, t, s, x->order[i])) {
			next_to(x, t)[s] = x->order[i];
			hops_to(x, t)[s] = (uint16_t)(hops + 1);
			count_route(x, t, s);
			return 1;
		}
	return 0;
}

/* ------------------------------------------------------------ all pairs, shortest first */

/* One level for destination t: the switches that may route beyond those at `hops`. */
static uint32_t level_toward(struct flexible *x, uint32_t t, uint32_t hops, uint32_t *left)
{
	const struct lanes_fabric *f = x->f;
	const uint16_t *h = hops_to(x, t);
	uint32_t routed = 0;

	tree_toward(x, t);
	for (uint32_t s = 0; s < x->ns; s++) {
		int near = 0;

		if (h[s] != UNSET || x->component[s] != x->component[t])
			continue;
		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1] && !near; e++)
			near = h[f->adj[e].sw] == hops;
		if (near && attach(x, t, s, hops))
			routed++;
		else
			(*left)++;
	}
	return routed;
}

/*
 * Every pair: levels of hops, at each level every destination in index
 * order, each switch in index order. A switch refused at its level tries
 * again one level later. A switch's tree parent toward t always accepts it
 * (children_follow), so every pair is routed; pairs left over would be an
 * internal error.
 */
static int route_all(struct flexible *x, struct lanes_error *err)
{
	uint32_t left = 1;

	for (uint32_t t = 0; t < x->ns; t++) {
		for (uint32_t s = 0; s < x->ns; s++) {
			hops_to(x, t)[s] = UNSET;
			next_to(x, t)[s] = LANES_NONE;
		}
		hops_to(x, t)[t] = 0;
	}
	for (uint32_t hops = 0; left && hops + 1 < UNSET; hops++) {
		uint32_t routed = 0;

		left = 0;
		for (uint32_t i = 0; i < x->ns; i++) {
			uint32_t t = (i + x->trial * (x->ns / x->trials + 1)) % x->ns;
			uint32_t n = level_toward(x, t, hops, &left);

			routed += n;
			lanes_progress_add(x->progress, n);
		}
		if (left && !routed && hops > x->ns)
			break;
	}
	if (left)
		return lanes_error_set(err, LANES_EINTERNAL,
				       ENGINE ": internal: %u switch pairs left without a route", left);
	return 0;
}

/* route_balance_candidates_fn: t's routes, one candidate per switch, for the LFT writer. */
static int tree_of(void *ctx, uint32_t t, const struct route_balance *b,
		   struct route_balance_tree *out, struct lanes_error *err)
{
	struct flexible *x = ctx;
	const uint32_t *next = next_to(x, t);
	const uint16_t *h = hops_to(x, t);

	(void)b;
	(void)err;
	x->first[0] = 0;
	for (uint32_t s = 0; s < x->ns; s++) {
		x->rank[s] = h[s] == UNSET ? LANES_NONE : h[s];
		x->first[s + 1] = x->first[s] + (next[s] != LANES_NONE);
		if (next[s] != LANES_NONE)
			x->chosen[x->first[s]] = next[s];
	}
	out->dest = t;
	out->rank = x->rank;
	out->first = x->first;
	out->entry = x->chosen;
	out->source = NULL;
	return 0;
}

/* ------------------------------------------------------------ the engine */

static int alloc_state(struct flexible *x, struct lanes_error *err)
{
	size_t ns = x->ns, ne = x->f->adj_off[ns];

	x->position = malloc((ns + 1) * sizeof(uint32_t));
	x->parent_entry = malloc((ns + 1) * sizeof(uint32_t));
	x->component = malloc((ns + 1) * sizeof(uint32_t));
	x->tree_link = calloc(ne + 1, 1);
	x->hops = malloc((ns * ns + 1) * sizeof(uint16_t));
	x->next = malloc((ns * ns + 1) * sizeof(uint32_t));
	x->crossings = calloc(ne + 1, sizeof(uint64_t));
	x->history = calloc(ne + 1, sizeof(uint64_t));
	x->best_hops = malloc((ns * ns + 1) * sizeof(uint16_t));
	x->best_next = malloc((ns * ns + 1) * sizeof(uint32_t));
	x->toward = malloc((ns + 1) * sizeof(uint32_t));
	x->queue = malloc((ns + 1) * sizeof(uint32_t));
	x->queued = calloc(ns + 1, 1);
	x->order = malloc(257 * sizeof(uint32_t));
	x->most = malloc(257 * sizeof(uint64_t));
	x->sum = malloc(257 * sizeof(uint64_t));
	x->future = malloc(257 * sizeof(uint32_t));
	x->first = malloc((ns + 2) * sizeof(uint32_t));
	x->chosen = malloc((ns + 1) * sizeof(uint32_t));
	x->rank = malloc((ns + 1) * sizeof(uint32_t));
	if (!x->position || !x->parent_entry || !x->component || !x->tree_link || !x->hops ||
	    !x->next || !x->crossings || !x->history || !x->best_hops || !x->best_next || !x->toward || !x->queue || !x->queued || !x->order ||
	    !x->most || !x->sum || !x->future || !x->first || !x->chosen || !x->rank)
		return lanes_error_oom(err);
	return 0;
}

static void release(struct flexible *x)
{
	lanes_cdg_free(x->cdg);
	lanes_route_channels_free(&x->channels);
	free(x->position);
	free(x->parent_entry);
	free(x->component);
	free(x->tree_link);
	free(x->hops);
	free(x->next);
	free(x->crossings);
	free(x->history);
	free(x->best_hops);
	free(x->best_next);
	free(x->toward);
	free(x->queue);
	free(x->queued);
	free(x->order);
	free(x->most);
	free(x->sum);
	free(x->future);
	free(x->dist);
	free(x->first);
	free(x->chosen);
	free(x->rank);
}

static int prepare(struct flexible *x, const struct lanes_route_opts *opts, struct lanes_error *err)
{
	int rc;

	if (x->ns > MAX_SWITCHES)
		return lanes_error_set(err, LANES_EREFUSED,
				       ENGINE ": %u switches, more than the %u its all-pairs state "
				       "allows", x->ns, MAX_SWITCHES);
	if ((rc = alloc_state(x, err)) ||
	    (rc = lanes_route_channels_init(&x->channels, x->f, ENGINE, err)) ||
	    (rc = lanes_cdg_new(&x->cdg, &x->channels, 1, err)) || (rc = tree_init(x, opts, err)) ||
	    (rc = lanes_switch_distances_parallel(x->f, 1, &x->dist, err)))
		return rc;
	return 0;
}

/* The most crossings on a channel and the total hops of the routing just made. */
static void score(const struct flexible *x, uint64_t *most, uint64_t *total)
{
	*most = *total = 0;
	for (uint32_t e = 0; e < x->f->adj_off[x->ns]; e++) {
		*most = x->crossings[e] > *most ? x->crossings[e] : *most;
		*total += x->crossings[e];
	}
}

/* The switch pairs a trial routes: ordered, of distinct switches in one component. */
static uint64_t pairs_to_route(const struct flexible *x)
{
	uint64_t n = 0;

	for (uint32_t t = 0; t < x->ns; t++)
		for (uint32_t s = 0; s < x->ns; s++)
			n += s != t && x->component[s] == x->component[t];
	return n;
}

/*
 * trials=N routings, each from a fresh CDG, the later ones steered off the
 * channels the earlier ones crowded; the least crowded (then the shortest)
 * kept. Progress: phase "paths", a unit per switch pair routed in a trial.
 */
static int route_trials(struct flexible *x, struct lanes_error *err)
{
	size_t nn = (size_t)x->ns * x->ns, ne = x->f->adj_off[x->ns];
	uint64_t most, total;
	int rc;

	x->best_most = UINT64_MAX;
	lanes_progress_phase(x->progress, "paths", x->trials * pairs_to_route(x));
	for (x->trial = 0; x->trial < x->trials; x->trial++) {
		memset(x->crossings, 0, ne * sizeof(*x->crossings));
		if ((rc = lanes_cdg_open_layer(x->cdg, 0, err)) || (rc = allow_tree_turns(x, err)) ||
		    (rc = route_all(x, err)))
			return rc;
		score(x, &most, &total);
		if (most < x->best_most || (most == x->best_most && total < x->best_total)) {
			x->best_most = most;
			x->best_total = total;
			memcpy(x->best_hops, x->hops, nn * sizeof(*x->hops));
			memcpy(x->best_next, x->next, nn * sizeof(*x->next));
		}
		for (size_t e = 0; e < ne; e++)
			x->history[e] += x->crossings[e];
	}
	memcpy(x->hops, x->best_hops, nn * sizeof(*x->hops));
	memcpy(x->next, x->best_next, nn * sizeof(*x->next));
	return 0;
}

/* One word of the parameters: trials=N. */
static int parse_word(void *ctx, const char *w, size_t len, struct lanes_error *err)
{
	uint32_t *trials = ctx, v = 0;
	size_t i = 7;

	if (len > 7 && !memcmp(w, "trials=", 7)) {
		for (; i < len && w[i] >= '0' && w[i] <= '9' && v <= MAX_TRIALS; i++)
			v = v * 10 + (uint32_t)(w[i] - '0');
		if (i == len && v >= 1 && v <= MAX_TRIALS) {
			*trials = v;
			return 0;
		}
	}
	return lanes_error_set(err, LANES_EINVAL,
			       ENGINE ": unknown parameter '%.*s' (takes trials=N, 1 to %u)",
			       (int)len, w, MAX_TRIALS);
}

static int set_notes(struct lanes_routing *r, struct lanes_error *err)
{
	r->notes = lanes_aprintf(ENGINE ": Flexible routing (Sancho, Robles, Duato, ISHPC 2000; "
				 "our reconstruction): on ud-dfs's DFS spanning tree, every turn "
				 "between tree links allowed, other turns added, shortest routes "
				 "first, while the channel dependency graph stays acyclic, so each "
				 "direction of a cycle is broken where its routes leave room; "
				 "least-crossed route first; 1 VL, 1 SL; deadlock-free");
	return r->notes ? 0 : lanes_error_oom(err);
}

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	struct lanes_routing *r = NULL;
	struct flexible x;
	int rc;

	memset(&x, 0, sizeof(x));
	x.f = f;
	x.ns = f->num_switches;
	x.progress = opts->progress;
	x.trials = x.ns <= TRIALS_UP_TO ? DEFAULT_TRIALS : 1;
	*out = NULL;
	if ((rc = lanes_route_each_param(opts->params, parse_word, &x.trials, err)) ||
	    (rc = prepare(&x, opts, err)) || (rc = route_trials(&x, err)) ||
	    (rc = lanes_routing_new_parallel(f, lanes_route_destination_workers(opts, f->num_switches),
					     &r, err)) ||
	    (rc = lanes_route_balanced_tables(f, opts, 1, tree_of, &x, r, err)) ||
	    (rc = set_notes(r, err)))
		goto out;
	*out = r;
	r = NULL;
out:
	lanes_routing_free(r);
	release(&x);
	return rc;
}

const struct lanes_engine lanes_engine_flexible = {
	.name = ENGINE,
	.summary = "Flexible routing: cycles broken at different switches for each direction, "
		   "on a DFS spanning tree, 1 VL",
	.scope = "any",
	.resources = "1 VL",
	.source = "Sancho, Robles, Duato: A flexible routing scheme for networks of workstations "
		  "(ISHPC 2000), as Sancho, Robles, Lopez, Flich, Duato, Routing in InfiniBand "
		  "torus network topologies (ICPP 2003), Sec. 4 describe it; our reconstruction",
	.flags = LANES_ENGINE_ANY_TOPOLOGY | LANES_ENGINE_DEADLOCK_FREE,
	.check = NULL,
	.params_usage = "trials=N",
	.route = route,
};
