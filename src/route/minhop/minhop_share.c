/*
 * minhop_share.c - minhop's LFT column fill for a share of the switches.
 *
 * OpenSM's balancing (doc/current-routing.txt, "The basic routing
 * algorithm"; load.c)
 * takes LIDs one after the other, but a switch's choice reads only that
 * switch's own port counters. So the switches can be split among workers,
 * each filling every LID in order for its own switches. A worker runs
 * lanes_route_fill_lids on its switches alone, numbered from 0: a copy of
 * the candidate ports cut to them, and the single-candidate bytes and the
 * counters from its first switch on. It fills scratch columns as long as
 * its share (the function writes whole columns) and copies them into the
 * LFT. The counted candidates are the first ncount of the list, and the
 * cut keeps their order, so they stay a prefix.
 */
#include <stdlib.h>
#include <string.h>

#include "route/minhop/minhop_share.h"
#include "core/util.h"

int lanes_minhop_share_init(struct minhop_share *share, const struct lanes_fabric *f, unsigned k,
			    unsigned n, struct lanes_error *err)
{
	uint32_t ns = f->num_switches;
	int rc;

	memset(share, 0, sizeof(*share));
	share->num_switches = ns;
	share->first_switch = (uint32_t)((uint64_t)ns * k / n);
	share->end_switch = (uint32_t)((uint64_t)ns * (k + 1) / n);
	if (n == 1)
		return 0;
	if ((rc = lanes_route_hop_ports_init(&share->part, f, err)))
		return rc;
	share->scratch_columns = malloc((size_t)MINHOP_SHARE_COLUMNS *
					(share->end_switch - share->first_switch) + 1);
	if (!share->scratch_columns)
		return lanes_error_oom(err);
	for (uint32_t j = 0; j < MINHOP_SHARE_COLUMNS; j++)
		share->column_numbers[j] = j;
	return 0;
}

void lanes_minhop_share_free(struct minhop_share *share)
{
	lanes_route_hop_ports_free(&share->part);
	free(share->scratch_columns);
	share->scratch_columns = NULL;
}

/*
 * The multi switches of h that are in the share, into share->part, in the
 * share's own numbering (switch first_switch is 0). @return the counted ones
 */
static uint32_t cut_to_share(struct minhop_share *share, const struct route_hop_ports *h,
			     uint32_t ncount)
{
	struct route_hop_ports *part = &share->part;
	uint32_t nports = 0, counted = 0;

	part->one = h->one + share->first_switch;
	part->nmulti = 0;
	part->moff[0] = 0;
	for (uint32_t i = 0; i < h->nmulti; i++) {
		uint32_t s = h->multi[i], k = h->moff[i + 1] - h->moff[i];

		if (!minhop_share_has(share, s))
			continue;
		memcpy(part->port + nports, h->port + h->moff[i], k);
		nports += k;
		part->multi[part->nmulti++] = s - share->first_switch;
		part->moff[part->nmulti] = nports;
		counted += i < ncount;
	}
	return counted;
}

void lanes_minhop_fill_share(struct minhop_share *share, uint8_t *lft,
			     const struct route_hop_ports *h, const struct route_load *load,
			     const struct route_peers *peers, const uint32_t *lids, uint32_t m,
			     int offset, uint32_t ncount)
{
	uint32_t ns = share->num_switches, first = share->first_switch;
	uint32_t width = share->end_switch - first, counted;
	struct route_load own_load = { load->off + first, load->count }; /* own numbering */

	if (!share->scratch_columns) { /* all switches */
		lanes_route_fill_lids(lft, ns, h, load, peers, lids, m, offset, ncount);
		return;
	}
	counted = cut_to_share(share, h, ncount);
	for (uint32_t j0 = 0; j0 < m; j0 += MINHOP_SHARE_COLUMNS) {
		uint32_t k = m - j0 < MINHOP_SHARE_COLUMNS ? m - j0 : MINHOP_SHARE_COLUMNS;

		lanes_route_fill_lids(share->scratch_columns, width, &share->part, &own_load, peers,
				      share->column_numbers, k, offset, counted);
		for (uint32_t j = 0; j < k; j++)
			memcpy(lft + (size_t)lids[j0 + j] * ns + first,
			       share->scratch_columns + (size_t)j * width, width);
	}
}
