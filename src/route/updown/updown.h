/*
 * updown.h - what the up* / down* engines (updn, dnup, ud-dfs) share: the
 * routing on a total order of the switches, and the pieces of their orders.
 */
#ifndef LANES_ROUTE_UPDOWN_H
#define LANES_ROUTE_UPDOWN_H

#include <stdint.h>
#include "lanes/error.h"
#include "lanes/fabric.h"

/* ------------------------------------------------------------ up* / down* */

/*
 * Up* / down* routing on a total order of the switches (updown.c; Sancho et
 * al., ICPP 2003, section 3; OpenSM's updn and dnup of doc/current-routing.txt).
 * pos[s] is switch s's place
 * in the order, 0 first; a move from s to a neighbour with a smaller place is
 * "up", any other move "down", and a legal path is zero or more up moves
 * followed by zero or more down moves. A total order makes the up moves
 * acyclic, which is what keeps CA-to-CA traffic free of credit loops on one
 * VL. The engines differ only in the order: BFS ranks from roots (updn),
 * hops from the switches with CAs (dnup), DFS visit order (ud-dfs).
 */

/** Where an order leaves CA traffic without a legal path. */
struct route_updown_gap {
	uint32_t from_sw; /**< a switch with CAs, or LANES_NONE */
	uint32_t to_sw;   /**< a switch with CAs it cannot reach legally */
};

struct lanes_route_opts;
struct lanes_routing;

/**
 * Route every LID of f into r (fresh from lanes_routing_new) under the
 * up* / down* rule of pos, one destination switch at a time, with minhop's
 * port order, load counters and least-loaded choice among the candidates
 * (the shortest legal moves, with one restriction: a switch that packets may
 * enter by a down move only moves down; updown_legal.c explains the states).
 * Switches with no legal path at all (only switches without CAs, for CA
 * destinations) get a shortest completion so every LID stays reachable; that
 * carries management traffic only.
 * With r NULL it builds no tables and only answers whether they would have
 * a gap (1; gap is then not filled in) or not (0).
 * @return 0; 1 when a switch with CAs has no legal path to a destination
 *         switch with CAs (gap says which; r is then incomplete); or a
 *         negative LANES_E* code
 */
int lanes_route_updown_lfts(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		      const uint32_t *pos, struct lanes_routing *r, struct route_updown_gap *gap,
		      struct lanes_error *err);

/**
 * The same legal candidates as lanes_route_updown_lfts, one tree per
 * destination switch chosen by the balancing selection of
 * route/common/balance.h over `rounds` rounds (updown_balance.c), every LID
 * of a switch alike, on one thread. @return as lanes_route_updown_lfts
 */
int lanes_route_updown_balanced(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
				const uint32_t *pos, uint32_t rounds, struct lanes_routing *r,
				struct route_updown_gap *gap, struct lanes_error *err);

/**
 * ud-dfs's depth-first spanning tree (ud_dfs.c: Sancho et al.'s root and
 * order heuristics), one per component: pos[s] switch s's place in visiting
 * order; parent_entry[s] (may be NULL) the adjacency entry of s's tree link
 * to the switch it was found from (the first such cable in port order),
 * LANES_NONE at a root. workers: threads for the distance matrix.
 */
int lanes_route_dfs_tree(const struct lanes_fabric *f, unsigned workers, uint32_t *pos,
			 uint32_t *parent_entry, struct lanes_error *err);

/**
 * updn's roots from the GUID file at path (updn_roots.c gives the format):
 * roots[0..*nroots) the switches named, ascending; unknown: how many GUIDs
 * of the file are not in f, and the first of them with its line.
 * @return 0, or a negative LANES_E* code (a file:line parse error, or no GUID
 *         names a switch or a cabled CA of f)
 */
struct roots_unknown {
	uint32_t count;
	uint64_t first_guid;
	unsigned long first_line;
};

int lanes_route_read_roots(const struct lanes_fabric *f, const char *path, uint32_t *roots,
			   uint32_t *nroots, struct roots_unknown *unknown, struct lanes_error *err);

/**
 * Multi-source BFS hop counts from seeds over the switch graph; rank[s] is
 * UINT32_MAX where no seed reaches.
 */
int lanes_route_bfs_ranks(const struct lanes_fabric *f, const uint32_t *seeds, uint32_t nseeds,
		    uint32_t *rank, struct lanes_error *err);

/**
 * The order of switches by key ascending, then node GUID ascending, then
 * index: pos[s] receives switch s's place.
 */
int lanes_route_order_by_key(const struct lanes_fabric *f, const uint32_t *key, uint32_t *pos,
		       struct lanes_error *err);

/** Connected components of the switch graph: comp[s] in 0..count-1, by lowest switch index. */
int lanes_route_components(const struct lanes_fabric *f, uint32_t *comp, uint32_t *count,
		     struct lanes_error *err);

/**
 * The fallback roots: one per connected component, the switch of minimum
 * eccentricity (from the distance matrix dist, on up to `workers`
 * threads), ties to the lowest GUID: roots[c] for component c.
 */
int lanes_route_center_roots(const struct lanes_fabric *f, const uint8_t *dist, const uint32_t *comp,
			     uint32_t ncomp, unsigned workers, uint32_t *roots, struct lanes_error *err);

/**
 * A malloc'ed notes string: head, then "roots=0x..,0x.." naming the node
 * GUIDs of the n root switches (none when n is 0), then tail (may be NULL).
 */
char *lanes_route_notes_with_roots(const struct lanes_fabric *f, const char *head,
			     const uint32_t *roots, uint32_t n, const char *tail);

#endif
