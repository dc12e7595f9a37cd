/*
 * balance.h - choosing one path per switch pair among legal ones so that
 * the routes per channel are balanced: our reconstruction of the traffic
 * balancing algorithm of Sancho and Robles, "Improving the up* / down* routing
 * scheme for networks of workstations" (Euro-Par 2000), which Sancho,
 * Robles, Lopez, Flich and Duato, "Routing in InfiniBand Torus Network
 * Topologies" (ICPP 2003), Sec. 5 use for every engine of their Table 2
 * ("a single path has to be selected for each source-destination pair among
 * all the available ones"; "selecting a single path between every pair of
 * switches, minimizing the number of routing paths crossing each channel",
 * Sec. 4). balance.c says what is theirs and what is ours.
 *
 * An engine hands over, one destination switch at a time, the candidates it
 * allows: per switch its rank (hops of its legal route to the destination)
 * and the adjacency entries of f (switch-to-switch channels) it may take
 * next, each to a switch of rank one less, any combination of choices being
 * legal. The module picks one entry per switch and keeps the crossings
 * (switch-pair routes per channel) over all destinations handed so far.
 */
#ifndef LANES_ROUTE_COMMON_BALANCE_H
#define LANES_ROUTE_COMMON_BALANCE_H

#include <stddef.h>
#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/route.h"
#include "lanes/routing.h"
#include "route/common/lids.h"

/** The most rounds balance=N may ask for (the first pass is round 1). */
#define ROUTE_BALANCE_MAX_ROUNDS 64

/** The candidates toward one destination switch (the engine's, read only). */
struct route_balance_tree {
	uint32_t dest;            /**< the destination switch */
	const uint32_t *rank;     /**< per switch: hops to dest; LANES_NONE: no route */
	const uint32_t *first;    /**< per switch + 1: offsets into entry */
	const uint32_t *entry;    /**< candidate adjacency entries of f (f->adj indices) */
	const uint8_t *source;    /**< per switch: its own route counts (NULL: every routed one) */
};

/** The crossings so far and the scratch of one destination; no other state. */
struct route_balance {
	const struct lanes_fabric *f;
	uint64_t *crossings;     /**< per adjacency entry of f: switch-pair routes on it */
	uint64_t *through;       /**< per switch: routes that pass it toward the current dest */
	uint64_t *path_most;     /**< per switch: the most-crossed channel of its least-crossed way on */
	uint64_t *path_sum;      /**< per switch: the crossings summed along that way */
	uint32_t *by_rank;       /**< the routed switches, farthest first */
	uint32_t *bucket;        /**< counting sort by rank */
};

int lanes_route_balance_init(struct route_balance *b, const struct lanes_fabric *f,
			     struct lanes_error *err);
void lanes_route_balance_free(struct route_balance *b);

/**
 * Choose each switch's next hop toward c->dest: chosen[s] an adjacency entry
 * of f from s's candidates, LANES_NONE for dest and switches without a
 * route; adds the routes to the crossings.
 * @return 0, or LANES_EINTERNAL when a candidate does not lead one rank closer
 */
int lanes_route_balance_choose(struct route_balance *b, const struct route_balance_tree *c,
			       uint32_t *chosen, struct lanes_error *err);

/**
 * Take the routes of an earlier choice toward c->dest (chosen, as
 * lanes_route_balance_choose filled it for the same candidates) back out of
 * the crossings, for an improvement round.
 */
void lanes_route_balance_forget(struct route_balance *b, const struct route_balance_tree *c,
				const uint32_t *chosen);

/**
 * Parse "balance=N" (N rounds, 0: off, at most ROUTE_BALANCE_MAX_ROUNDS)
 * for an engine's parameter parser. @return 1 if w is such a word (*rounds
 * set), 0 if it is another word, or a negative LANES_E* code (err names
 * the engine) when the value is bad
 */
int lanes_route_balance_param(const char *engine, const char *w, size_t len, uint32_t *rounds,
			      struct lanes_error *err);

/**
 * The candidates toward switch t into *out (pointers into the engine's
 * memory, valid until the next call); b's crossings so far may guide them. @return 0; a positive value the
 * driver hands back at once (an engine's verdict, such as a gap); or a
 * negative LANES_E* code
 */
typedef int (*route_balance_candidates_fn)(void *ctx, uint32_t t, const struct route_balance *b,
					   struct route_balance_tree *out, struct lanes_error *err);

/**
 * The driver: rounds passes over the destination switches in index order
 * (those with a LID routed through the fabric: a CA LID, or their own LID
 * with opts->switch_lids); per destination, the engine's candidates, the
 * earlier choice forgotten (rounds 2 on), the balanced choice, written to
 * every such LID of t (all LMC offsets alike), and at t the port of each
 * LID; a switch LID without switch_lids only at t (port 0). r is fresh
 * (every entry dropped). Progress (opts->progress): phase "routing", a
 * unit per destination switch, then "balancing", a unit per destination
 * switch of rounds 2..N. @return 0, the engine's positive verdict, or a
 * negative LANES_E* code
 */
int lanes_route_balanced_tables(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
				uint32_t rounds, route_balance_candidates_fn candidates, void *ctx,
				struct lanes_routing *r, struct lanes_error *err);

/** The adjacency entry of f for switch s's port, or LANES_NONE. */
uint32_t lanes_route_balance_entry(const struct lanes_fabric *f, uint32_t s, uint8_t port);

#endif
