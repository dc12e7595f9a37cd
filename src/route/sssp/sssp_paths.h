/*
 * sssp_paths.h - the state of the sssp paths' own rule (lanes_route_sssp, see
 * sssp_paths.c for the rules) shared by sssp_paths.c (the driver),
 * sssp_order.c (OpenSM's destination order), sssp_cands.c (the candidates
 * toward one destination switch, prepared ahead on a helper thread),
 * sssp_tree.c (the trees, LFT columns and loads) and sssp_tree_fast.c (the
 * trees' picks with packed keys). Not public API.
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
 * The candidates toward one destination switch t. program is the tree pass of
 * sssp_tree.c in hop order, up to the farthest switch with several
 * candidates (multi): a switch s with one candidate e as the two words
 * (s | SSSP_SINGLE, e); a multi switch as (s, n, then its n candidate
 * entries in adjacency order). Single switches at or beyond the farthest
 * multi switch's hops are left out (no one reads their load sums).
 */
#define SSSP_SINGLE 0x80000000u

struct dest {
	uint32_t t;
	uint8_t *hops;              /* per switch: hops to t (255: unreachable or too far) */
	uint32_t *order, norder;    /* switches that reach t, by hops, t first */
	uint32_t *pick;             /* per switch: adjacency entry toward t */
	uint8_t *fixed_port;        /* per switch: its port if it has one candidate,
				       0 if several, LANES_PORT_DROP if none */
	uint32_t *program;          /* the tree pass (above) */
	uint32_t program_len;
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
	uint64_t *load;             /* per adjacency entry: routes on that channel
				       (times load_scale with packed keys) */
	uint32_t *nb;               /* per adjacency entry: the neighbour (a compact copy) */
	uint64_t *load_sum;         /* per switch: the load sum of its path to t
				       (shifted with packed keys, sssp_tree_fast.c) */
	uint64_t *lids_below;       /* per switch: LIDs whose paths pass it (num_hca
				       between trees, sssp_tree.c) */
	int less_loaded;            /* 1: ties go to the less loaded channel; 0: to the lowest port */
	const struct sssp_progress *progress; /* told of each end-port group routed, or NULL */
	int packed_keys;            /* choose_packed (sssp_tree_fast.c) picks: the two
				       parts of a key fit one 64-bit word */
	unsigned key_shift;         /* packed keys: load sum << key_shift | channel load */
	uint64_t load_scale;        /* packed keys: 2^key_shift + 1, else 1 */
	uint64_t sum_mask;          /* packed keys: a key's load sum part, else all ones */
	struct dest buf[2];         /* destination j of seq in buf[j % 2] */
	struct dest *cur;           /* the destination switch being routed */
	struct dest **kept;         /* without the thread: per switch, its candidates
				       kept from its end ports for its switch LIDs */
	size_t keep_left;           /* bytes kept copies may still take */
	struct prep_pipe pipe;      /* the helper thread that fills buf ahead */
};

/* The LIDs of switch s's port 0 (0 when it has no LID). */
static inline uint64_t sssp_switch_lids(const struct lanes_fabric *f, uint32_t s)
{
	const struct lanes_port *p0 = lanes_fabric_port(f, f->switches[s], 0);

	return p0->lid ? (uint64_t)1 << p0->lmc : 0;
}

/* sssp_order.c: end ports, num_hca, rank, seq and ngroups of m->f. */
int lanes_sssp_order(struct sssp *m, struct lanes_error *err);

/* sssp_cands.c */
/* The arrays of d, in one block (d->order heads it). @return 0, or LANES_ENOMEM (no message) */
int lanes_sssp_dest_alloc(struct dest *d, size_t ns, size_t ne);
void lanes_sssp_dest_free(struct dest *d);
/* Start preparing the destinations of seq (on a helper thread on large fabrics). */
void lanes_sssp_dests_start(struct sssp *m);
/* Make destination j of seq current in m->cur (lanes_sssp_dests_done frees its buffer). */
void lanes_sssp_dests_next(struct sssp *m, uint32_t j);
void lanes_sssp_dests_done(struct sssp *m, uint32_t j);
void lanes_sssp_dests_stop(struct sssp *m);

/* sssp_tree.c */
/* The keys' layout: packed (sssp_tree_fast.c) where allowed and they fit, else two parts. */
void lanes_sssp_set_keys(struct sssp *m, int allow_packed);
/* Route every LID of the end ports behind the current switch, in port order. */
void lanes_sssp_route_endports_of(struct sssp *m);
/* Route the current switch's own LIDs. */
void lanes_sssp_route_switch_lids(struct sssp *m);

/* sssp_tree_fast.c: the picks of the current tree with packed keys, into col. */
void lanes_sssp_choose_packed(struct sssp *m, uint8_t *col);

#endif
