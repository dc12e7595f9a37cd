/*
 * updown_internal.h - the state that lanes_route_updown_lfts (updown.c) shares
 * with the phases that find the candidates toward one destination switch:
 * updown_legal.c (phases A and B, the legal routes) and updown_complete.c
 * (phase C, a shortest completion for the switches without one). Not public
 * API. Follows the up* / down* rule of Sancho, Robles, Lopez, Flich, Duato,
 * "Routing in InfiniBand Torus Network Topologies" (ICPP 2003), section 3,
 * and OpenSM 3.3.23's updn and dnup (doc/current-routing.txt); updown.c
 * says how.
 *
 * Invariants: per switch s, the adjacency entries first_up[s]..first_down[s]
 * go up and the rest down, each part in port order; after the phases,
 * hops.multi[0..num_legal) are the switches with a legal route and the
 * completed ones come after; between destinations down_hops is all INF and
 * down_set_bits all 0; no global state. Each worker has a struct updown of its
 * own; the struct updown_graph they share is read-only while they run.
 */
#ifndef LANES_UPDOWN_INTERNAL_H
#define LANES_UPDOWN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "lanes/fabric.h"
#include "lanes/route.h"
#include "lanes/routing.h"
#include "route/common/endports.h"
#include "route/common/load.h"
#include "route/updown/updown.h"

#define INF UINT32_MAX

/* A switch's state toward the current destination (updown_legal.c explains them). */
enum { ST_NONE = 0, ST_DOWN, ST_FREE, ST_UP, ST_COMPLETED };

/* What the phases read, shared by every worker and never written during them. */
struct updown_graph {
	const struct lanes_fabric *f;
	/* the adjacency split by direction: per switch s, the entries
	 * first_up[s]..first_down[s] go up and first_down[s]..first_up[s + 1] go
	 * down, each part in port order */
	uint32_t *first_up, *first_down;
	uint32_t *neighbour;        /* per entry: the neighbour switch */
	uint8_t *entry_port;        /* per entry: our port to it */
	uint8_t *goes_up;           /* per fabric adjacency entry (f->adj): the move goes up */
	uint32_t *by_position;      /* the switches in order */
	const uint32_t *position;   /* per switch: its place in the order (the caller's) */
	uint32_t *component;        /* per switch: its connected component */
	uint8_t *has_ca;            /* per switch: end ports hang off it */
	const struct route_load *load; /* column mode reads it (the counters are final then) */
};

/* One worker's state for the phases toward one destination switch t. */
struct updown {
	const struct updown_graph *g;
	uint64_t *down_set_bits;    /* phase A to B2: the down set by position; else all 0 */
	uint32_t *down_hops;        /* hops of a shortest all-down path to t; INF outside the
				       phases */
	uint32_t *best_hops;        /* down set: hops of a shortest legal path to t */
	uint32_t *route_hops;       /* hops of the route the switch takes (phase A: INF in
				       the down set until routed) */
	uint8_t *state;             /* ST_* */
	uint32_t *queue;            /* BFS queue; after phase A, the all-down switches by
				       down_hops */
	uint32_t num_down;          /* switches with an all-down path */
	uint32_t *routed_by_hops;   /* phase C: routed switches by route_hops */
	uint32_t *hops_bucket;      /* phase C: the counting sort's buckets */
	uint32_t num_ports;         /* candidate ports filled into hops so far */
	struct route_hop_ports hops; /* the candidates */
	uint32_t num_legal;         /* hops.multi[0..num_legal) have legal routes */
	struct route_updown_gap *gap; /* phase C's verdict (from_sw LANES_NONE: none) */
	uint8_t *column;            /* column mode: the LFT column of a switch LID the routes
				       go into, each switch's least-loaded candidate (hops is
				       not filled), or NULL */
	uint32_t *unrouted;         /* phase C: switches without a legal path */
	uint32_t num_unrouted;      /* of t's component */
	uint8_t unrouted_has_ca;    /* one of them has CAs */
};

/* The graph of f under the order pos (updown_graph.c); has_ca is left all 0. */
int lanes_updown_graph_init(struct updown_graph *g, const struct lanes_fabric *f,
			    const uint32_t *pos, struct lanes_error *err);
void lanes_updown_graph_free(struct updown_graph *g);

/* The state of the phases for a fabric, dn all INF (updown_graph.c). */
int lanes_updown_phases_init(struct updown *u, const struct updown_graph *g,
			     struct lanes_error *err);
void lanes_updown_phases_free(struct updown *u);

/* The k candidate ports of s, just put at hops.port[num_ports], become its entry in hops. */
static inline void updown_take(struct updown *u, uint32_t s, uint32_t k)
{
	struct route_hop_ports *h = &u->hops;

	if (k == 1) {
		h->one[s] = h->port[u->num_ports];
	} else if (k > 1) {
		h->one[s] = 0;
		h->multi[h->nmulti++] = s;
		u->num_ports += k;
		h->moff[h->nmulti] = u->num_ports;
	} else {
		h->one[s] = LANES_PORT_DROP;
	}
}

/*
 * The k candidate ports of s, just put at hops.port[num_ports]: its entry, or
 * in column mode its least-loaded one (route_least_loaded from port 1, as
 * lanes_route_fill_lids picks for an uncounted LID at offset 0).
 */
static inline void updown_emit(struct updown *u, uint32_t s, uint32_t k)
{
	if (u->column)
		u->column[s] = k ? route_least_loaded(route_load_of(u->g->load, s),
						   u->hops.port + u->num_ports, k, 1)
			      : LANES_PORT_DROP;
	else
		updown_take(u, s, k);
}

/*
 * Phases A and B toward switch t (updown_legal.c): the states, route
 * lengths and candidates of the switches with a legal path, into u->hops
 * (refilled from the start) or u->column; the switches of t's component left
 * without one into u->unrouted.
 */
void lanes_updown_legal_paths(struct updown *u, uint32_t t);

/*
 * Phase C toward switch t (updown_complete.c): a shortest completion for
 * u->unrouted, appended to u->hops (or into u->column). check: t is a CA
 * destination, so a completed switch with CAs is a gap (u->gap); never in
 * column mode.
 */
void lanes_updown_complete(struct updown *u, uint32_t t, int check);

/* The switches with CA ports cabled to them (the end ports that hold a LID), into has_ca. */
void lanes_updown_mark_ca_switches(const struct lanes_fabric *f, uint8_t *has_ca);

#endif
