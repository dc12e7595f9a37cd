/*
 * minhop_share.h - minhop's LFT column fill (lanes_route_fill_lids) for one
 * worker's share of the switches (minhop_share.c), so that several workers
 * can fill the same columns at once. Used by minhop.c and, for the same
 * balancing, by updown.c. Not public API.
 */
#ifndef LANES_ROUTE_MINHOP_SHARE_H
#define LANES_ROUTE_MINHOP_SHARE_H

#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "route/common/load.h"

/* The most columns filled in one call of lanes_route_fill_lids here. */
#define MINHOP_SHARE_COLUMNS 64

/**
 * Switches first_switch..end_switch - 1 of a fabric and a worker's scratch.
 * A switch's choices read and count only its own port counters, so workers
 * with disjoint shares can fill the same LIDs at once, each in LID order.
 */
struct minhop_share {
	uint32_t first_switch, end_switch;
	uint32_t num_switches;
	struct route_hop_ports part; /* the multi switches of the share, numbered from
					first_switch; one points into the caller's */
	uint8_t *scratch_columns;    /* MINHOP_SHARE_COLUMNS columns, a byte per share switch */
	uint32_t column_numbers[MINHOP_SHARE_COLUMNS]; /* 0, 1, 2, ...: LIDs of scratch_columns */
};

/**
 * Worker k of n: an equal share of f's switches (n 1: all of them, and no
 * scratch: the fill then goes straight to lanes_route_fill_lids).
 */
int lanes_minhop_share_init(struct minhop_share *share, const struct lanes_fabric *f, unsigned k,
			    unsigned n, struct lanes_error *err);
void lanes_minhop_share_free(struct minhop_share *share);

/**
 * lanes_route_fill_lids(lft, ns, h, load, peers, lids, m, offset, ncount)
 * for the switches of the share only: the entries of the other switches in
 * those columns are left alone. offset > 0 reads the LIDs before each one
 * in lft, so it needs a share of all switches.
 */
void lanes_minhop_fill_share(struct minhop_share *share, uint8_t *lft,
			     const struct route_hop_ports *h, const struct route_load *load,
			     const struct route_peers *peers, const uint32_t *lids, uint32_t m,
			     int offset, uint32_t ncount);

/** Is switch s in the share? */
static inline int minhop_share_has(const struct minhop_share *share, uint32_t s)
{
	return s >= share->first_switch && s < share->end_switch;
}

#endif
