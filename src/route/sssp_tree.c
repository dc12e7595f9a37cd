/*
 * sssp_tree.c - the trees of the sssp paths' own rule (sssp_paths.c): for
 * each destination LID, every switch's LFT entry toward it and the loads
 * it adds, after OpenSM 3.3.23's SSSP (seed 002; osm_ucast_dfsssp.c,
 * dijkstra, update_lft, update_weights; no code taken from it).
 *
 * Distances compare as (hops, load sum): OpenSM's P^2 per channel is made
 * exact, so every path is a shortest path (OpenSM's P^2 can in principle
 * be outweighed by loads; its document and seed 000 call the engine
 * minimal). A switch's candidates are its min-hop ports toward the
 * destination switch t (sssp_cands.c). A tree is one pass over the
 * switches in hop order, up to the farthest switch with several
 * candidates. Ties on the load sum: for sssp, to the less loaded channel,
 * then the lowest port; for dfsssp (where the replay declined), to the
 * lowest port. The less loaded channel balances better (max routes per
 * channel on the DGX SuperPOD file 2,386, within 5% of OpenSM's 2,289,
 * where the lowest port gives 2,475), but its less regular paths made
 * dfsssp need 9 VLs instead of 8 on the 114,582-endpoint dragonfly, where
 * the replay declines.
 *
 * Then every switch s adds num_hca(s) to each channel on its path to t, so
 * later trees avoid loaded channels. Where every switch has one candidate,
 * the tree cannot depend on the loads: all the LIDs behind t share it and
 * its weights are added once, times their number.
 */
#include <string.h>

#include "sssp_paths.h"

/* ------------------------------------------------------------ keys */

static unsigned bits(uint64_t x)
{
	unsigned b = 0;

	for (; x; x >>= 1)
		b++;
	return b;
}

/*
 * choose()'s keys. A channel's load is at most P^2 (P: the LIDs, the sum of
 * num_hca; each destination LID adds at most P to it), a load sum at most
 * 255 P^2; the key packs both into 64 bits where they fit.
 */
int sssp_wide_keys;

void sssp_set_key_shift(struct sssp *m)
{
	uint64_t p = 0;

	for (uint32_t s = 0; s < m->f->num_switches; s++)
		p += m->hca[s];
	m->key_shift = 64;
	if (!m->less_loaded)
		m->key_shift = 0;
	else if (!sssp_wide_keys && p < (1u << 24) && bits(255 * p * p) + bits(p * p) <= 64)
		m->key_shift = bits(p * p);
}

/* ------------------------------------------------------------- a tree */

/* 128 bits (a GCC and Clang extension): a two-part key compared at once */
__extension__ typedef unsigned __int128 u128;

/*
 * The pick of candidates c0 .. c1 (adjacency order: the first is the lowest
 * port) by the least key (load sum, channel load & mask), the load sum
 * shifted by sh bits so that the key fits 64 bits; *best gets the load sum.
 */
static inline uint32_t least_packed(const uint64_t *wd, const uint64_t *load, const uint32_t *nb,
				    const uint32_t *mcand, uint32_t c0, uint32_t c1, unsigned sh,
				    uint64_t mask, uint64_t *best)
{
	uint64_t bk = UINT64_MAX;
	uint32_t be = 0;

	for (uint32_t c = c0; c < c1; c++) {
		uint32_t e = mcand[c];
		uint64_t k = (wd[nb[e]] + load[e]) << sh | (load[e] & mask);
		int lt = k < bk; /* branch-free: the outcome is a coin toss */

		bk = lt ? k : bk;
		be = lt ? e : be;
	}
	*best = bk >> sh;
	return be;
}

/* The same where the key needs more than 64 bits. */
static inline uint32_t least_wide(const uint64_t *wd, const uint64_t *load, const uint32_t *nb,
				  const uint32_t *mcand, uint32_t c0, uint32_t c1, uint64_t *best)
{
	u128 bk = ~(u128)0;
	uint32_t be = 0;

	for (uint32_t c = c0; c < c1; c++) {
		uint32_t e = mcand[c];
		u128 k = (u128)(wd[nb[e]] + load[e]) << 64 | load[e];
		int lt = k < bk;

		bk = lt ? k : bk;
		be = lt ? e : be;
	}
	*best = (uint64_t)(bk >> 64);
	return be;
}

/*
 * The picks of the multi switches: least load sum to t; of equal sums the
 * less loaded channel (m->less_loaded), then the lowest port. Load sums are
 * needed only below the farthest multi switch's hops.
 */
static void choose(struct sssp *m)
{
	struct dest *d = m->cur;
	const uint8_t *row = d->row;
	uint8_t far = row[d->multi[d->nmulti - 1]];
	/* locals: the stores to wd and pick may alias anything the structs point to */
	uint64_t *wd = m->wd;
	const uint64_t *load = m->load;
	const uint32_t *nb = m->nb, *order = d->order, *moff = d->moff, *mcand = d->mcand;
	const uint8_t *col = d->col;
	uint32_t *pick = d->pick;
	unsigned sh = m->key_shift;
	uint64_t mask = m->less_loaded ? UINT64_MAX : 0;

	wd[d->t] = 0;
	for (uint32_t i = 1, k = 0; i < d->norder && row[order[i]] <= far; i++) {
		uint32_t s = order[i];

		if (col[s]) {
			if (row[s] < far)
				wd[s] = wd[nb[pick[s]]] + load[pick[s]];
			continue;
		}
		if (sh < 64)
			pick[s] = least_packed(wd, load, nb, mcand, moff[k], moff[k + 1], sh, mask, &wd[s]);
		else
			pick[s] = least_wide(wd, load, nb, mcand, moff[k], moff[k + 1], &wd[s]);
		k++;
	}
}

/* The LFT column of lid from the current picks; port is t's own entry. */
static void write_column(struct sssp *m, uint32_t lid, uint8_t port)
{
	const struct dest *d = m->cur;
	uint8_t *col = m->r->lft + (size_t)lid * m->f->num_switches;

	memcpy(col, d->col, m->f->num_switches);
	for (uint32_t k = 0; k < d->nmulti; k++)
		col[d->multi[k]] = m->f->adj[d->pick[d->multi[k]]].port;
	col[d->t] = port;
}

/* Every switch adds k times its LIDs to each channel on its path to t. */
static void add_load(struct sssp *m, uint64_t k)
{
	const struct dest *d = m->cur;

	for (uint32_t i = 0; i < d->norder; i++)
		m->sub[d->order[i]] = m->hca[d->order[i]];
	for (uint32_t i = d->norder; i-- > 1;) {
		uint32_t s = d->order[i], e = d->pick[s];

		m->load[e] += k * m->sub[s];
		m->sub[m->nb[e]] += m->sub[s];
	}
}

/* One destination LID: its tree, its column, its weights (unless deferred). */
static void route_lid(struct sssp *m, uint32_t lid, uint8_t port, uint64_t *deferred)
{
	if (m->cur->nmulti)
		choose(m);
	write_column(m, lid, port);
	if (m->cur->nmulti)
		add_load(m, 1);
	else
		(*deferred)++;
}

/* ------------------------------------------------- a destination switch */

void sssp_route_endports_of(struct sssp *m)
{
	uint32_t t = m->cur->t;
	uint64_t same = 0;

	for (uint32_t i = m->ep_first[t]; i < m->eps.n && m->eps.ep[i].sw == t; i++) {
		const struct route_endport *ep = &m->eps.ep[i];

		for (uint32_t l = 0; l < (1u << ep->lmc); l++)
			route_lid(m, ep->lid + l, ep->sw_port, &same);
	}
	if (same)
		add_load(m, same);
}

void sssp_route_switch_lids(struct sssp *m)
{
	uint32_t t = m->cur->t;
	const struct lanes_port *p0 = lanes_fabric_port(m->f, m->f->switches[t], 0);
	uint64_t same = 0;

	for (uint32_t l = 0; l < (1u << p0->lmc); l++)
		route_lid(m, p0->lid + l, 0, &same);
	if (same)
		add_load(m, same);
}
