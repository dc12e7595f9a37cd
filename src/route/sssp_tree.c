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
 * The least key is one addition and a minimum per candidate where the key
 * also names its candidate (indexed keys, below): on the DGX SuperPOD file
 * 59 M instructions instead of 80 M, with the same trees.
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
 * 255 P^2; the key (load sum << sh | channel load) packs both into 64 bits
 * where they fit. Then the arrays hold them scaled so that a key is one
 * addition: m->load the channel load times m->scale (2^sh + 1, so that
 * load << sh | load = load * scale), m->wd the load sum << sh; m->hi keeps
 * a key's load sum part. Ties to the lowest port only (dfsssp): sh 0,
 * scale 1. Wide keys (128 bits) keep both unscaled (scale 1, hi all ones).
 *
 * Indexed keys, where ib more bits fit (ib: enough for a switch's
 * adjacency): the key is (load sum << sh | channel load) << ib | the
 * entry's place in its switch's adjacency, which m->load's low bits hold
 * (the loads added are multiples of 2^ib: scale and hi shifted by ib).
 * The least key then names its entry, and of equal sums and loads the
 * first in adjacency order (the lowest port), as the ties want.
 */
int sssp_wide_keys;

void sssp_set_key_shift(struct sssp *m)
{
	const uint32_t *aoff = m->f->adj_off;
	uint64_t p = 0;
	uint32_t deg = 1;

	for (uint32_t s = 0; s < m->f->num_switches; s++) {
		p += m->hca[s];
		deg = aoff[s + 1] - aoff[s] > deg ? aoff[s + 1] - aoff[s] : deg;
	}
	m->key_shift = 64;
	if (!m->less_loaded)
		m->key_shift = 0;
	else if (!sssp_wide_keys && p < (1u << 24) && bits(255 * p * p) + bits(p * p) <= 64)
		m->key_shift = bits(p * p);
	m->scale = 1;
	m->hi = UINT64_MAX;
	if (m->key_shift && m->key_shift < 64) {
		m->scale = ((uint64_t)1 << m->key_shift) + 1;
		m->hi = ~(((uint64_t)1 << m->key_shift) - 1);
	}
	m->ib = bits(deg - 1);
	m->indexed = m->key_shift < 64 && p < (1u << 24) &&
		     bits(255 * p * p) + m->key_shift + m->ib <= 64;
	if (m->indexed) {
		m->scale <<= m->ib;
		m->hi = ~(((uint64_t)1 << (m->key_shift + m->ib)) - 1);
	} else {
		m->ib = 0;
	}
}

/* ------------------------------------------------------------- a tree */

/* 128 bits (a GCC and Clang extension): a two-part key compared at once */
__extension__ typedef unsigned __int128 u128;

/*
 * The pick of candidates c0 .. c1 (adjacency order: the first is the lowest
 * port) by the least packed key (scaled: wd + load); *best gets its load
 * sum part (key & hi).
 */
static inline uint32_t least_packed(const uint64_t *wd, const uint64_t *load, const uint32_t *nb,
				    const uint32_t *mcand, uint32_t c0, uint32_t c1, uint64_t hi,
				    uint64_t *best)
{
	uint64_t bk = UINT64_MAX;
	uint32_t be = 0;

	for (uint32_t c = c0; c < c1; c++) {
		uint32_t e = mcand[c];
		uint64_t k = wd[nb[e]] + load[e];
		int lt = k < bk; /* branch-free: the outcome is a coin toss */

		bk = lt ? k : bk;
		be = lt ? e : be;
	}
	*best = bk & hi;
	return be;
}

/*
 * The least indexed key of the candidates from *cp to end (it names its
 * entry); *cp moves to end. The keys of one switch differ, so their order
 * does not matter: the first alone if they are odd, then two at a time.
 */
static inline uint64_t least_indexed(const uint64_t *wd, const uint64_t *load, const uint32_t *nb,
				     const uint32_t **cp, const uint32_t *end)
{
	const uint32_t *c = *cp;
	uint64_t bk = UINT64_MAX;

	if ((end - c) & 1) {
		bk = wd[nb[*c]] + load[*c];
		c++;
	}
	for (; c < end; c += 2) {
		uint64_t k0 = wd[nb[c[0]]] + load[c[0]], k1 = wd[nb[c[1]]] + load[c[1]];

		k0 = k1 < k0 ? k1 : k0;
		bk = k0 < bk ? k0 : bk;
	}
	*cp = end;
	return bk;
}

/* The same where the key needs more than 64 bits (unscaled: load sum, channel load). */
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
 * The picks of the multi switches, straight into the LFT column col: least
 * load sum to t; of equal sums the less loaded channel (m->less_loaded),
 * then the lowest port. A multi switch reads the load sums one hop closer:
 * the multi switches before it, and the single ones closer than it, taken
 * from their list as they come in (the load sums are needed only below the
 * farthest multi switch's hops).
 */
static void choose(struct sssp *m, uint8_t *col)
{
	const struct dest *d = m->cur;
	/* locals: the stores to wd, pick and col may alias anything the structs point to */
	const uint8_t *row = d->row;
	uint64_t *wd = m->wd;
	const uint64_t *load = m->load;
	const uint32_t *nb = m->nb, *multi = d->multi, *single = d->single, *moff = d->moff;
	const uint32_t *mcand = d->mcand, nmulti = d->nmulti, nsingle = d->nsingle;
	const struct lanes_adj *adj = m->f->adj;
	uint32_t *pick = d->pick, j = 0;
	uint64_t hi = m->hi;
	int wide = m->key_shift >= 64;

	wd[d->t] = 0;
	for (uint32_t k = 0; k < nmulti; k++) {
		uint32_t s = multi[k], e;
		uint8_t h = row[s];

		for (; j < nsingle && row[single[j]] < h; j++) {
			uint32_t v = single[j], pe = pick[v];

			wd[v] = wd[nb[pe]] + (load[pe] & hi);
		}
		if (!wide)
			e = least_packed(wd, load, nb, mcand, moff[k], moff[k + 1], hi, &wd[s]);
		else
			e = least_wide(wd, load, nb, mcand, moff[k], moff[k + 1], &wd[s]);
		pick[s] = e;
		col[s] = adj[e].port;
	}
}

/*
 * choose() with indexed keys: the least key names the pick (its place in
 * the switch's adjacency), so a candidate is an addition and a minimum.
 */
static void choose_indexed(struct sssp *m, uint8_t *col)
{
	const struct dest *d = m->cur;
	/* locals, as in choose() */
	const uint8_t *row = d->row;
	uint64_t *wd = m->wd;
	const uint64_t *load = m->load, hi = m->hi, ix = ((uint64_t)1 << m->ib) - 1;
	const uint32_t *nb = m->nb, *multi = d->multi, *single = d->single, *moff = d->moff;
	const uint32_t *mcand = d->mcand, nmulti = d->nmulti, nsingle = d->nsingle;
	const uint32_t *aoff = m->f->adj_off, *c = mcand;
	const struct lanes_adj *adj = m->f->adj;
	uint32_t *pick = d->pick, j = 0;

	wd[d->t] = 0;
	for (uint32_t k = 0; k < nmulti; k++) {
		uint32_t s = multi[k], e;
		uint64_t key;

		for (; j < nsingle && row[single[j]] < row[s]; j++) {
			uint32_t v = single[j], pe = pick[v];

			wd[v] = wd[nb[pe]] + (load[pe] & hi);
		}
		key = least_indexed(wd, load, nb, &c, mcand + moff[k + 1]);
		e = aoff[s] + (uint32_t)(key & ix);
		wd[s] = key & hi;
		pick[s] = e;
		col[s] = adj[e].port;
	}
}

/*
 * Every switch adds k times its LIDs to each channel on its path to t (times
 * m->scale, see the keys). In
 * reverse hop order each switch's sum is complete when it is read, and is
 * reset then: sub is all 0 between calls.
 */
static void add_load(struct sssp *m, uint64_t k)
{
	const struct dest *d = m->cur;
	const uint32_t *order = d->order, *pick = d->pick, *nb = m->nb;
	const uint64_t *hca = m->hca;
	uint64_t *load = m->load, *sub = m->sub, ks = k * m->scale;

	for (uint32_t i = d->norder; i-- > 1;) {
		uint32_t s = order[i], e = pick[s];
		uint64_t x = sub[s] + hca[s];

		sub[s] = 0;
		load[e] += ks * x;
		sub[nb[e]] += x;
	}
	sub[d->t] = 0;
}

/* One destination LID: its LFT column, its tree, its weights (unless deferred). */
static void route_lid(struct sssp *m, uint32_t lid, uint8_t port, uint64_t *deferred)
{
	const struct dest *d = m->cur;
	uint8_t *col = m->r->lft + (size_t)lid * m->f->num_switches;

	memcpy(col, d->col, m->f->num_switches);
	if (d->nmulti) {
		if (m->indexed)
			choose_indexed(m, col);
		else
			choose(m, col);
		add_load(m, 1);
	} else {
		(*deferred)++;
	}
	col[d->t] = port;
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
