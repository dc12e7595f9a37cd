/*
 * sssp_paths.h - the state of the sssp paths' own rule (lanes_route_sssp, see
 * sssp_paths.c for the rules) shared by sssp_paths.c (the driver),
 * sssp_order.c (OpenSM's destination order), sssp_cands.c (the candidates
 * toward one destination switch, prepared ahead on a helper thread),
 * sssp_masks.c (the candidates of every destination, without the thread) and
 * sssp_tree.c (the trees, LFT columns and loads). Not public API.
 */
#ifndef LANES_SSSP_PATHS_H
#define LANES_SSSP_PATHS_H

#include <stdint.h>

#include "lanes/fabric.h"
#include "lanes/route.h"
#include "lanes/routing.h"
#include "route/common/prep_pipe.h"
#include "route/common/endports.h"
#include "route/sssp/sssp.h"

/*
 * The candidates toward one destination switch t. prog is the tree pass of
 * sssp_tree.c in hop order, up to the farthest switch with several
 * candidates (multi): a switch s with one candidate e as the two words
 * (s | SSSP_SINGLE, e); a multi switch as (s, adj_off[s], n, then its n
 * candidate entries in adjacency order; where parallel cables are grouped,
 * sssp_groups.c, only the first entry of each candidate group; then the
 * last one again if they are odd, so that n is even: choose() takes two at
 * a time, and a candidate twice does not change the least key). Single
 * switches at or beyond the farthest multi switch's hops are left out (no
 * one reads their load sums). The word after the program is SSSP_END.
 */
#define SSSP_SINGLE 0x80000000u
#define SSSP_END 0x7fffffffu /* the word after the program (not a switch) */

struct dest {
	uint32_t t;
	uint8_t *row;               /* per switch: hops to t (255: unreachable or too far) */
	uint32_t *order, norder;    /* switches that reach t, by hops, t first */
	uint32_t *pick;             /* per switch: adjacency entry toward t */
	uint8_t *col;               /* per switch: its port if it has one candidate,
				       0 if several, LANES_PORT_DROP if none */
	uint32_t *prog, nprog;      /* the tree pass (above) */
	uint32_t nmulti;            /* the multi switches */
};

struct sssp {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	struct lanes_routing *r;
	struct route_endports eps;  /* CA and router ports, grouped by switch */
	uint32_t *rank;             /* switches in OpenSM's destination order */
	uint32_t *ep_first;         /* per switch: its first end port in eps, or LANES_NONE */
	uint64_t *hca;              /* per switch: OpenSM's num_hca */
	uint32_t *seq, nseq;        /* destination switches in routing order */
	uint32_t ngroups;           /* seq[0..ngroups): end-port groups */
	uint64_t *load;             /* per adjacency entry: routes on that channel (scaled) */
	uint32_t *nb;               /* per adjacency entry: the neighbour (a compact copy) */
	uint64_t *wd, *sub;         /* per switch: load sum to t; LIDs at or below it
				       (num_hca, m->hca, between trees) */
	int less_loaded;            /* 1: ties go to the less loaded channel; 0: to the lowest port */
	const struct sssp_progress *prog; /* told of each end-port group routed, or NULL */
	unsigned key_shift;         /* choose()'s key: load sum << key_shift | channel load
				       (64 or more: 128-bit keys) */
	uint64_t scale, hi;         /* load holds channel loads times scale, wd load sums
				       << key_shift; hi: a key's load sum part (sssp_tree.c) */
	int indexed;                /* choose()'s keys are indexed: the low ib bits of
				       load[e] hold e's place in its switch's adjacency */
	unsigned ib;                /* (0 when not indexed) */
	struct dest buf[2];         /* destination j of seq in buf[j % 2] */
	struct dest *cur;           /* the destination switch being routed */
	struct dest **kept;         /* without the thread: per switch, its candidates
				       kept from its end ports for its switch LIDs */
	size_t keep_left;           /* bytes kept copies may still take */
	struct prep_pipe pipe;      /* the helper thread that fills buf ahead */
	/* without the thread (sssp_masks.c; NULL: each destination by a BFS) */
	uint8_t *hops;              /* the switch hops, rows hstride bytes (255 padded) */
	size_t hstride;
	uint8_t maxhop;             /* at least the most hops between two switches, < 255 */
	uint64_t *cmask;            /* per (t, s): s's candidate entries toward t */
	uint64_t *glead;            /* per switch: its entries that lead a group (NULL: all) */
	uint32_t *bitpos;           /* per byte value v: its set bits' places (8 words,
				       ascending), then at 2048 + v their count */
	/* parallel cables (sssp_groups.c; NULL: none, or keys not indexed) */
	uint32_t *gfirst;           /* per entry: the first entry of its group */
	uint32_t *gnext;            /* per entry: the next entry of its group, or LANES_NONE */
	uint64_t *gmin;             /* per group's first entry: the group's least load
				       (m->load itself where there are no groups) */
};

static inline int sssp_oom(struct lanes_error *err)
{
	return lanes_error_set(err, LANES_ENOMEM, "out of memory");
}

/* The LIDs of switch s's port 0 (0 when it has no LID). */
static inline uint64_t sssp_switch_lids(const struct lanes_fabric *f, uint32_t s)
{
	const struct lanes_port *p0 = lanes_fabric_port(f, f->switches[s], 0);

	return p0->lid ? (uint64_t)1 << p0->lmc : 0;
}

/* sssp_order.c: end ports, num_hca, rank, seq and ngroups of m->f. */
int lanes_sssp_order(struct sssp *m, struct lanes_error *err);

/* sssp_cands.c */
/* The arrays of d, in one block (d->order heads it). */
int lanes_sssp_dest_alloc(struct dest *d, size_t ns, size_t ne);
void lanes_sssp_dest_free(struct dest *d);
/* d->prog without the singles of its last hops (from word from to end); its new length. */
uint32_t lanes_sssp_prog_cut(uint32_t *prog, uint32_t from, uint32_t end);
/* Start preparing the destinations of seq (on a helper thread on large fabrics). */
void lanes_sssp_dests_start(struct sssp *m);
/* Make destination j of seq current in m->cur (lanes_sssp_dests_done frees its buffer). */
void lanes_sssp_dests_next(struct sssp *m, uint32_t j);
void lanes_sssp_dests_done(struct sssp *m, uint32_t j);
void lanes_sssp_dests_stop(struct sssp *m);

/* sssp_masks.c: every destination's candidates at once (0), or -1 (not
 * possible: more than 64 entries at a switch, or no memory; m unchanged). */
int lanes_sssp_masks_build(struct sssp *m);
void lanes_sssp_masks_free(struct sssp *m);
/* Fill d for destination switch t from the masks. */
void lanes_sssp_masks_fill(const struct sssp *m, struct dest *d, uint32_t t);

/* sssp_groups.c: m->gfirst, gnext and gmin where keys are indexed and some
 * switch has parallel cables (0), or m->gmin = m->load (0); -1 no memory. */
int lanes_sssp_groups_build(struct sssp *m);
void lanes_sssp_groups_free(struct sssp *m);

/* sssp_tree.c */
/* choose()'s key layout (m->key_shift), from num_hca and m->less_loaded. */
void lanes_sssp_set_key_shift(struct sssp *m);
/* Route every LID of the end ports behind the current switch, in port order. */
void lanes_sssp_route_endports_of(struct sssp *m);
/* Route the current switch's own LIDs. */
void lanes_sssp_route_switch_lids(struct sssp *m);

#endif
