/*
 * sssp_osm.h - the state of the OpenSM SSSP emulation shared by sssp_osm.c
 * (set-up and the routing loop), sssp_osm_prep.c (each destination
 * switch's fill, kept or made ahead on a helper thread), sssp_osm_lid.c
 * (one LID's tree, LFT column and loads), sssp_osm_dijkstra.c (cl_heap
 * and the Dijkstra step) and sssp_osm_dijkstra_fast.c (its fast step). Not public API; see those files for the rules.
 */
#ifndef LANES_SSSP_OSM_H
#define LANES_SSSP_OSM_H

#include <stddef.h>
#include <stdint.h>

#include "lanes/fabric.h"
#include "lanes/routing.h"
#include "core/heap.h"
#include "route/common/prep_pipe.h"
#include "route/sssp/sssp.h"

/* OpenSM's "infinity" for Dijkstra keys */
#define OSM_INF 0x7FFFFFFFull


/*
 * What one destination switch t needs that does not depend on the loads
 * (the helper thread fills it ahead): hops, each switch's runs one hop
 * farther, and the heap as it stands once t has left it.
 */
struct emu_dest {
	uint32_t t;
	int ca;                     /* for CA LIDs (else t's own LIDs) */
	uint32_t *row;              /* per switch: hops to t, UINT32_MAX unreached */
	uint32_t *bfs, nbfs;        /* switches that reach t, by hops */
	uint32_t nscan;             /* bfs[0 .. nscan): the switches with farther_first and farther_end */
	uint32_t max_hops;          /* hops of the farthest of them */
	uint32_t *nearer_than;      /* per hop count h <= max_hops: switches less than h hops away */
	uint32_t *farther_first, *farther_end; /* per switch: its runs one hop farther,
				       farther_run[farther_first .. farther_end) */
	uint32_t *farther_run, *farther_nb; /* those runs, and their neighbours */
	struct lanes_heap heap_at_start; /* the heap once t has left it */
};

struct emu {
	const struct lanes_fabric *f;
	struct lanes_routing *r;
	unsigned threads;           /* the caller's opts->threads */
	int full_steps_only;        /* never the fast step (sssp_osm_dijkstra.c) */
	uint32_t ns;                /* switches; vertex ns is the CA of a CA LID */
	uint64_t p2;                /* P^2 */
	uint32_t *gorder;           /* switches in GUID map order */
	uint64_t *gkey;             /* set-up: (GUID map key, switch) pairs, sorted */
	uint32_t *port_e;           /* set-up: per fabric port slot, its adjacency entry */
	uint32_t *reverse;          /* per adjacency entry: the other end's entry */
	uint32_t *nb;               /* per adjacency entry: the neighbour */
	uint64_t *load;             /* per adjacency entry: routes on that channel */
	uint64_t max_load;          /* the largest entry of load */
	const uint64_t *hca;        /* per switch: OpenSM's num_hca */
	void *block;                /* every array below (sssp_osm.c) but kept */
	struct lanes_heap start;      /* every vertex at infinity in vertex order, the CA's last */

	/*
	 * Runs: each switch's cables to other switches in port order, with
	 * consecutive cables to one neighbour merged into one run (its load:
	 * the smallest of theirs; its cable: the first with that load).
	 */
	uint32_t *run_off;          /* per switch: its runs, run_off[s] .. run_off[s + 1] */
	uint32_t *run_v;            /* per run: the neighbour */
	uint32_t *run_e0;           /* per run: its first adjacency entry (the next run's ends it) */
	uint64_t *run_load;         /* per run: the smallest load on its cables toward the switch */
	uint32_t *run_best;         /* per run: the entry back of the first such cable */
	uint32_t *run_of;           /* per adjacency entry: the run holding it */

	/* one Dijkstra */
	struct emu_dest *d;         /* the current destination switch */
	struct lanes_heap hp;
	uint64_t *dist;             /* per vertex: its key */
	uint32_t *used;             /* per switch: its adjacency entry toward t (full step) */
	uint32_t *farther_used;     /* per switch: the place in farther_run of its run
				       toward t (fast step) */
	uint8_t *done;              /* per vertex: extracted (full step) */
	uint32_t *reached, nreached; /* switches reached, parents before children */
	uint64_t *lids_below;       /* per switch: LIDs whose paths pass it */

	/* fills kept for the switches' own LIDs (sssp_osm_prep.c), in 32-bit words */
	uint32_t *kept_at;          /* per switch: the start of its record in kept, or UINT32_MAX */
	uint32_t *kept;
	size_t kept_used, kept_cap;

	/* the helper thread: buf[j % 2] holds destination j of the sequence */
	struct emu_dest buf[2];
	struct prep_pipe pipe;
	const uint32_t *seq;
	uint32_t nseq, ngroups;
};

/* sssp_osm_prep.c: the kept fills' room, and the helper thread started. */
void lanes_emu_prep_start(struct emu *h);

/*
 * sssp_osm_lid.c: the LIDs of destination j of o (in h->d) in turn; 0 as
 * soon as one leaves a switch unreached or off its fewest hops.
 */
int lanes_emu_route_destination(struct emu *h, const struct sssp_osm_order *o, uint32_t j);

/* sssp_osm_dijkstra.c */

/* The runs of every switch (once per fabric; loads all 0). */
void lanes_emu_set_runs(struct emu *h);

/* Run k's smallest load and first cable with it, from load. */
void lanes_emu_run_update(struct emu *h, uint32_t k);

/* Fill d for destination switch t (reads only what the loads do not change). */
void lanes_emu_dest_fill(const struct emu *h, struct emu_dest *d, uint32_t t, int ca);

/* d->heap_at_start from d->t and d->ca (lanes_emu_dest_fill ends with it). */
void lanes_emu_dest_heap(const struct emu *h, struct emu_dest *d);

/* The full step: OpenSM's dijkstra() as it is; returns switches reached. */
uint32_t lanes_emu_dijkstra_full(struct emu *h);

/*
 * OpenSM's heap (cl_heap, d = 4) is core/heap.h's with arity 4, every tie
 * 0 (keys alone decide) and ties between children to the last of them.
 */
static inline void lanes_emu_heap_init(struct lanes_heap *hp, struct lanes_heap_entry *entry, uint32_t *pos)
{
	lanes_heap_init(hp, entry, pos, 2);
	hp->last_of_equal_children = 1;
}

/* The root of hp; the last element takes its place and sinks. */
static inline uint32_t lanes_emu_heap_pop(struct lanes_heap *hp, uint64_t *key)
{
	struct lanes_heap_entry e = { OSM_INF, 0, 0 }; /* hp is never empty here */

	lanes_heap_pop(hp, &e);
	*key = e.key;
	return e.id;
}

/* v's key in hp decreases to key (a strict improvement), so it sifts up. */
static inline void lanes_emu_heap_decrease(struct lanes_heap *hp, uint32_t v, uint64_t key)
{
	lanes_heap_offer(hp, key, 0, v);
}

/* sssp_osm_dijkstra_fast.c */

/* Does the fast step give the full step's tree for the current LID? */
int lanes_emu_fast_ok(const struct emu *h);

/* The same tree as the full step when lanes_emu_fast_ok(), in farther_used (d->bfs orders it). */
void lanes_emu_dijkstra_fast(struct emu *h);

#endif
