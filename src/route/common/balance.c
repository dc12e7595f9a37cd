/*
 * balance.c - one path per switch pair, chosen among legal ones to balance
 * the routes per channel (balance.h).
 *
 * The source. Sancho, Robles, Lopez, Flich and Duato, "Routing in
 * InfiniBand Torus Network Topologies" (ICPP 2003) select, for every engine
 * of their Table 2, "a single path ... for each source-destination pair
 * among all the available ones" with "the traffic balancing algorithm
 * proposed in [18]" (Sancho and Robles, "Improving the up* / down* routing
 * scheme for networks of workstations", Euro-Par 2000), and describe its
 * effect in Sec. 4: "every routing path is computed by selecting a single
 * path between every pair of switches, minimizing the number of routing
 * paths crossing each channel". Their metric counts one route per ordered
 * pair of switches (Sec. 5). Ref. [18] itself was not available to us; the
 * rule below is our reconstruction, and everything in it beyond those
 * quotations is ours.
 *
 * The rule. Channels carry a crossing count: the switch-pair routes placed
 * on them so far. Destinations come one at a time (the engine's order). For
 * a destination t the engine gives every switch its candidates, the next
 * hops of its legal paths of the fewest hops (each leading one rank, one
 * hop, closer; any combination legal). Switches are taken farthest first
 * (rank descending, then index); when switch s is taken, every switch that
 * may route through s has chosen already, so the routes that will cross
 * s's next channel are known: s's own (if it is a source) plus those
 * forwarded to it. s takes the candidate channel with the fewest crossings
 * (the first in the engine's order on a tie), and that many routes are
 * added to it. With N rounds (balance=N), rounds 2..N take each destination
 * again in the same order, take its routes back out and choose again
 * against the crossings of all the other destinations: the choice of the
 * first round saw only the destinations before it.
 *
 * In the form InfiniBand tables allow: one next hop per (switch,
 * destination), so the choice is per destination tree, not per pair; the
 * paper gets per-pair choice through destination renaming (several LIDs per
 * host, Lopez, Flich, Duato, ICPP 2001), which lanes' destination-based
 * routings do not model.
 *
 * Invariants: no state beyond struct route_balance; one thread; the result
 * depends only on the candidates and their order, so engines that hand the
 * destinations in a fixed order get the same tables for any thread count.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "core/util.h"
#include "route/common/balance.h"

int lanes_route_balance_init(struct route_balance *b, const struct lanes_fabric *f,
			     struct lanes_error *err)
{
	size_t ns = f->num_switches;

	memset(b, 0, sizeof(*b));
	b->f = f;
	b->crossings = calloc((size_t)f->adj_off[ns] + 1, sizeof(*b->crossings));
	b->through = calloc(ns + 1, sizeof(*b->through));
	b->path_most = calloc(ns + 1, sizeof(*b->path_most));
	b->path_sum = calloc(ns + 1, sizeof(*b->path_sum));
	b->by_rank = malloc((ns + 1) * sizeof(*b->by_rank));
	b->bucket = malloc((ns + 2) * sizeof(*b->bucket));
	if (!b->crossings || !b->through || !b->path_most || !b->path_sum || !b->by_rank || !b->bucket) {
		lanes_route_balance_free(b);
		return lanes_error_oom(err);
	}
	return 0;
}

void lanes_route_balance_free(struct route_balance *b)
{
	free(b->crossings);
	free(b->through);
	free(b->path_most);
	free(b->path_sum);
	free(b->by_rank);
	free(b->bucket);
	memset(b, 0, sizeof(*b));
}

/* The routed switches by rank, farthest first, index ascending within a rank; @return how many */
static uint32_t sort_farthest_first(struct route_balance *b, const uint32_t *rank)
{
	uint32_t ns = b->f->num_switches, most = 0, n = 0;

	for (uint32_t s = 0; s < ns; s++)
		if (rank[s] != LANES_NONE && rank[s] > most)
			most = rank[s];
	if (most > ns)
		return 0; /* ranks are hops of simple paths: the caller's error */
	memset(b->bucket, 0, sizeof(*b->bucket) * ((size_t)most + 2));
	for (uint32_t s = 0; s < ns; s++)
		if (rank[s] != LANES_NONE)
			b->bucket[most - rank[s] + 1]++;
	for (uint32_t r = 1; r <= most + 1; r++)
		b->bucket[r] += b->bucket[r - 1];
	for (uint32_t s = 0; s < ns; s++)
		if (rank[s] != LANES_NONE) {
			b->by_rank[b->bucket[most - rank[s]]++] = s;
			n++;
		}
	return n;
}

/* Every routed switch starts with its own route (a source), none elsewhere. */
static void start_through(struct route_balance *b, const struct route_balance_tree *c)
{
	for (uint32_t s = 0; s < b->f->num_switches; s++)
		b->through[s] = c->rank[s] != LANES_NONE && s != c->dest &&
				(!c->source || c->source[s]);
}

/* The way on through entry e carrying `extra` more routes: its most-crossed channel and sum. */
static void way_through(const struct route_balance *b, uint32_t e, uint64_t extra, uint64_t *most,
			uint64_t *sum)
{
	uint32_t next = b->f->adj[e].sw;
	uint64_t here = b->crossings[e] + extra;

	*most = here > b->path_most[next] ? here : b->path_most[next];
	*sum = here + b->path_sum[next];
}

/*
 * s's candidate whose way on is least crossed: the smallest most-crossed
 * channel, then the smallest sum, then the first; LANES_NONE if it has
 * none. Sets s's own way (path_most, path_sum) for `extra` routes.
 */
static uint32_t least_crossed(struct route_balance *b, const struct route_balance_tree *c,
			      uint32_t s, uint64_t extra)
{
	uint64_t best_most = UINT64_MAX, best_sum = UINT64_MAX, most, sum;
	uint32_t best = LANES_NONE;

	for (uint32_t i = c->first[s]; i < c->first[s + 1]; i++) {
		way_through(b, c->entry[i], extra, &most, &sum);
		if (most < best_most || (most == best_most && sum < best_sum)) {
			best = c->entry[i];
			best_most = most;
			best_sum = sum;
		}
	}
	b->path_most[s] = best == LANES_NONE ? 0 : best_most;
	b->path_sum[s] = best == LANES_NONE ? 0 : best_sum;
	return best;
}

/* Nearest first: every routed switch's least-crossed way to c->dest as things stand. */
static void estimate_ways(struct route_balance *b, const struct route_balance_tree *c, uint32_t n)
{
	b->path_most[c->dest] = b->path_sum[c->dest] = 0;
	for (uint32_t i = n; i-- > 0;)
		if (b->by_rank[i] != c->dest)
			least_crossed(b, c, b->by_rank[i], 0);
}

int lanes_route_balance_choose(struct route_balance *b, const struct route_balance_tree *c,
			       uint32_t *chosen, struct lanes_error *err)
{
	const struct lanes_adj *adj = b->f->adj;
	uint32_t n = sort_farthest_first(b, c->rank);

	start_through(b, c);
	estimate_ways(b, c, n);
	for (uint32_t s = 0; s < b->f->num_switches; s++)
		chosen[s] = LANES_NONE;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t s = b->by_rank[i], e, next;

		if (s == c->dest)
			continue;
		if ((e = least_crossed(b, c, s, b->through[s])) == LANES_NONE || e < b->f->adj_off[s] ||
		    e >= b->f->adj_off[s + 1] || c->rank[next = adj[e].sw] + 1 != c->rank[s])
			return lanes_error_set(err, LANES_EINTERNAL,
					       "balance: switch %u has no candidate one hop closer "
					       "to switch %u", s, c->dest);
		chosen[s] = e;
		b->crossings[e] += b->through[s];
		b->through[next] += b->through[s];
	}
	return 0;
}

void lanes_route_balance_forget(struct route_balance *b, const struct route_balance_tree *c,
				const uint32_t *chosen)
{
	uint32_t n = sort_farthest_first(b, c->rank);

	start_through(b, c);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t s = b->by_rank[i], e = chosen[s];

		if (e == LANES_NONE)
			continue;
		b->crossings[e] -= b->through[s];
		b->through[b->f->adj[e].sw] += b->through[s];
	}
}

int lanes_route_balance_param(const char *engine, const char *w, size_t len, uint32_t *rounds,
			      struct lanes_error *err)
{
	uint32_t v = 0;
	size_t i = 8;

	if (len < 8 || memcmp(w, "balance=", 8))
		return 0;
	for (; i < len && w[i] >= '0' && w[i] <= '9' && v <= ROUTE_BALANCE_MAX_ROUNDS; i++)
		v = v * 10 + (uint32_t)(w[i] - '0');
	if (i == 8 || i < len || v > ROUTE_BALANCE_MAX_ROUNDS)
		return lanes_error_set(err, LANES_EINVAL,
				       "%s: bad parameter '%.*s' (balance=N: rounds of the balancing "
				       "selection, 0 to %u)", engine, (int)len, w,
				       ROUTE_BALANCE_MAX_ROUNDS);
	*rounds = v;
	return 1;
}

/* ------------------------------------------------------------ the driver */

uint32_t lanes_route_balance_entry(const struct lanes_fabric *f, uint32_t s, uint8_t port)
{
	for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++)
		if (f->adj[e].port == port)
			return e;
	return LANES_NONE;
}

struct balanced_run {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	struct lanes_routing *r;
	struct route_switch_lids lids;
	struct route_balance balance;
	uint32_t *chosen;
};

/* A LID of switch t that only its own switch routes (a switch LID without switch_lids). */
static int lid_stays_home(const struct balanced_run *b, uint32_t lid)
{
	const struct lanes_fabric *f = b->f;

	return f->nodes[f->lid_owner[lid].node].type == LANES_NODE_SWITCH && !b->opts->switch_lids;
}

/* The first LID of t routed through the fabric, or LANES_NONE. */
static uint32_t routed_lid(const struct balanced_run *b, uint32_t t)
{
	for (uint32_t i = b->lids.first[t]; i < b->lids.first[t + 1]; i++)
		if (!lid_stays_home(b, b->lids.lid[i]))
			return b->lids.lid[i];
	return LANES_NONE;
}

/* The choice toward t into every LID of t. */
static void write_tree(struct balanced_run *b, uint32_t t)
{
	const struct lanes_fabric *f = b->f;

	for (uint32_t i = b->lids.first[t]; i < b->lids.first[t + 1]; i++) {
		uint32_t lid = b->lids.lid[i];
		uint8_t port_at_t = 0;

		lanes_fabric_lid_switch_port(f, lid, &port_at_t);
		lanes_routing_set_port(b->r, t, lid, port_at_t);
		for (uint32_t s = 0; s < f->num_switches && !lid_stays_home(b, lid); s++)
			if (s != t)
				lanes_routing_set_port(b->r, s, lid,
						       b->chosen[s] == LANES_NONE
							       ? LANES_PORT_DROP
							       : f->adj[b->chosen[s]].port);
	}
}

/* The earlier choice toward t, read back from the LFT column of lid. */
static void read_tree(struct balanced_run *b, uint32_t t, uint32_t lid)
{
	for (uint32_t s = 0; s < b->f->num_switches; s++) {
		uint8_t port = lanes_routing_port(b->r, s, lid);

		b->chosen[s] = s == t || port == LANES_PORT_DROP
				       ? LANES_NONE
				       : lanes_route_balance_entry(b->f, s, port);
	}
}

/* Toward t: the engine's candidates, the earlier choice forgotten (rounds 2 on), the choice. */
static int one_tree(struct balanced_run *b, uint32_t t, uint32_t round,
		    route_balance_candidates_fn candidates, void *ctx, struct lanes_error *err)
{
	struct route_balance_tree tree;
	uint32_t lid = routed_lid(b, t);
	int rc;

	if (lid == LANES_NONE) {
		write_tree(b, t); /* its own LIDs at t */
		return 0;
	}
	memset(&tree, 0, sizeof(tree));
	if ((rc = candidates(ctx, t, &b->balance, &tree, err)))
		return rc;
	if (round > 1) {
		read_tree(b, t, lid);
		lanes_route_balance_forget(&b->balance, &tree, b->chosen);
	}
	if ((rc = lanes_route_balance_choose(&b->balance, &tree, b->chosen, err)))
		return rc;
	write_tree(b, t);
	return 0;
}

/* One round over the destination switches, a unit of progress each. */
static int one_round(struct balanced_run *b, uint32_t round, route_balance_candidates_fn candidates,
		     void *ctx, struct lanes_error *err)
{
	int rc;

	for (uint32_t t = 0; t < b->f->num_switches; t++) {
		if ((rc = one_tree(b, t, round, candidates, ctx, err)))
			return rc;
		lanes_progress_add(b->opts->progress, 1);
	}
	return 0;
}

int lanes_route_balanced_tables(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
				uint32_t rounds, route_balance_candidates_fn candidates, void *ctx,
				struct lanes_routing *r, struct lanes_error *err)
{
	struct balanced_run b;
	int rc;

	memset(&b, 0, sizeof(b));
	b.f = f;
	b.opts = opts;
	b.r = r;
	if ((rc = lanes_route_switch_lids_init(&b.lids, f, err)) ||
	    (rc = lanes_route_balance_init(&b.balance, f, err)))
		goto out;
	if (!(b.chosen = malloc(((size_t)f->num_switches + 1) * sizeof(*b.chosen)))) {
		rc = lanes_error_oom(err);
		goto out;
	}
	for (uint32_t round = 1; round <= (rounds ? rounds : 1) && !rc; round++) {
		if (round <= 2) /* the first round routes, the others improve on it */
			lanes_progress_phase(opts->progress, round == 1 ? "routing" : "balancing",
					     (uint64_t)f->num_switches * (round == 1 ? 1 : rounds - 1));
		rc = one_round(&b, round, candidates, ctx, err);
	}
out:
	free(b.chosen);
	lanes_route_balance_free(&b.balance);
	lanes_route_switch_lids_free(&b.lids);
	return rc;
}
