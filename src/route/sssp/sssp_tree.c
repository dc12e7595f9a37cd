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
 * 59 M instructions instead of 80 M, with the same trees. With indexed
 * keys, a switch's parallel cables to one neighbour are one candidate, its
 * group's least load (sssp_groups.c, kept up by add_load): the DGX file's
 * trees then take 46 M instead of 51 M for the whole call.
 *
 * Then every switch s adds num_hca(s) to each channel on its path to t, so
 * later trees avoid loaded channels. Where every switch has one candidate,
 * the tree cannot depend on the loads: all the LIDs behind t share it and
 * its weights are added once, times their number.
 */
#include <string.h>

#include "route/sssp/sssp_paths.h"
#include "route/common/endports.h"
#include "route/sssp/sssp.h"

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
int lanes_sssp_wide_keys;

void lanes_sssp_set_key_shift(struct sssp *m)
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
	else if (!lanes_sssp_wide_keys && p < (1u << 24) && bits(255 * p * p) + bits(p * p) <= 64)
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
 * The pick of the n candidates c[] (adjacency order: the first is the lowest
 * port) by the least packed key (scaled: wd + load); *best gets its load
 * sum part (key & hi).
 */
static inline uint32_t least_packed(const uint64_t *wd, const uint64_t *load, const uint32_t *nb,
				    const uint32_t *cand, uint32_t n, uint64_t hi, uint64_t *best)
{
	uint64_t bk = UINT64_MAX;
	uint32_t be = 0;

	for (uint32_t c = 0; c < n; c++) {
		uint32_t e = cand[c];
		uint64_t k = wd[nb[e]] + load[e];
		int lt = k < bk; /* branch-free: the outcome is a coin toss */

		bk = lt ? k : bk;
		be = lt ? e : be;
	}
	*best = bk & hi;
	return be;
}

/* A candidate's key: its neighbour's load sum plus its own load (scaled). */
static inline uint64_t key_of(const uint64_t *wd, const uint64_t *load, const uint32_t *nb,
			      uint32_t e)
{
	return wd[nb[e]] + load[e];
}

static inline uint64_t min64(uint64_t a, uint64_t b)
{
	return b < a ? b : a;
}

/*
 * The least indexed key of the candidates c[] up to end (an even count, at
 * least 2: struct dest; load: the groups' least loads, m->gmin); it names its entry. The
 * keys of one switch differ, so their order does not matter: two at a time.
 */
static inline uint64_t least_indexed(const uint64_t *wd, const uint64_t *load, const uint32_t *nb,
				     const uint32_t *c, const uint32_t *end)
{
	uint64_t a = key_of(wd, load, nb, c[0]), b = key_of(wd, load, nb, c[1]);

	for (c += 2; c < end; c += 2) {
		a = min64(a, key_of(wd, load, nb, c[0]));
		b = min64(b, key_of(wd, load, nb, c[1]));
	}
	return min64(a, b);
}

/* The same where the key needs more than 64 bits (unscaled: load sum, channel load). */
static inline uint32_t least_wide(const uint64_t *wd, const uint64_t *load, const uint32_t *nb,
				  const uint32_t *cand, uint32_t n, uint64_t *best)
{
	u128 bk = ~(u128)0;
	uint32_t be = 0;

	for (uint32_t c = 0; c < n; c++) {
		uint32_t e = cand[c];
		u128 k = (u128)(wd[nb[e]] + load[e]) << 64 | load[e];
		int lt = k < bk;

		bk = lt ? k : bk;
		be = lt ? e : be;
	}
	*best = (uint64_t)(bk >> 64);
	return be;
}

/* A single switch of the program p: its load sum through its one entry. */
static inline void single_sum(uint64_t *wd, const uint64_t *load, const uint32_t *nb,
			      const uint32_t *p, uint64_t hi)
{
	wd[p[0] & ~SSSP_SINGLE] = wd[nb[p[1]]] + (load[p[1]] & hi);
}

/*
 * The picks of the multi switches, straight into the LFT column col: least
 * load sum to t; of equal sums the less loaded channel (m->less_loaded),
 * then the lowest port. A switch reads the load sums one hop closer, which
 * the program (struct dest) has set before it; its single switches only
 * pass their load sums on (the load sums are needed only below the
 * farthest multi switch's hops, where the program ends).
 */
static void choose(struct sssp *m, uint8_t *col)
{
	const struct dest *d = m->cur;
	/* locals: the stores to wd, pick and col may alias anything the structs point to */
	uint64_t *wd = m->wd;
	const uint64_t *load = m->load, hi = m->hi;
	const uint32_t *nb = m->nb, *p = d->prog, *end = p + d->nprog;
	const struct lanes_adj *adj = m->f->adj;
	uint32_t *pick = d->pick;
	int wide = m->key_shift >= 64;

	wd[d->t] = 0;
	while (p < end) {
		uint32_t s = p[0], e;

		if (s & SSSP_SINGLE) {
			single_sum(wd, load, nb, p, hi);
			p += 2;
			continue;
		}
		if (!wide)
			e = least_packed(wd, load, nb, p + 3, p[2], hi, &wd[s]);
		else
			e = least_wide(wd, load, nb, p + 3, p[2], &wd[s]);
		pick[s] = e;
		col[s] = adj[e].port;
		p += 3 + p[2];
	}
}

/*
 * choose() with indexed keys: the least key names the pick (its place in
 * the switch's adjacency), so a candidate is an addition and a minimum;
 * a candidate group of parallel cables is one (its least load, m->gmin).
 */
static void choose_indexed(struct sssp *m, uint8_t *col)
{
	const struct dest *d = m->cur;
	/* locals, as in choose() */
	uint64_t *wd = m->wd;
	const uint64_t *gmin = m->gmin, hi = m->hi;
	const uint64_t ix = ((uint64_t)1 << m->ib) - 1;
	const uint32_t *nb = m->nb, *p = d->prog;
	const struct lanes_adj *adj = m->f->adj;
	uint32_t *pick = d->pick;

	wd[d->t] = 0;
	for (;;) { /* up to the word SSSP_END after the program (struct dest) */
		uint32_t s = p[0], e;
		const uint32_t *c = p + 3, *ce;
		uint64_t key;

		if (s & SSSP_SINGLE) {
			/* its one entry has no parallel cable (or it would have two
			 * candidates): its group's least load is its own */
			single_sum(wd, gmin, nb, p, hi);
			p += 2;
			continue;
		}
		if (s == SSSP_END)
			break;
		ce = c + p[2];
		key = least_indexed(wd, gmin, nb, c, ce);
		e = p[1] + (uint32_t)(key & ix);
		wd[s] = key & hi;
		pick[s] = e;
		col[s] = adj[e].port;
		p = ce;
	}
}

/* The least load of e's group again (sssp_groups.c), after e's grew. */
static inline void regroup(const uint32_t *gfirst, const uint32_t *gnext, const uint64_t *load,
			   uint64_t *gmin, uint32_t e)
{
	uint32_t g = gfirst[e];
	uint64_t k = load[g];

	for (uint32_t u = gnext[g]; u != LANES_NONE; u = gnext[u])
		k = min64(k, load[u]);
	gmin[g] = k;
}

/*
 * Every switch adds k times its LIDs to each channel on its path to t (times
 * m->scale, see the keys). In reverse hop order each switch's sum is
 * complete when it is read: sub starts as num_hca (m->hca) and gathers the
 * sums of the switches whose picks lead to it; it is num_hca again after
 * the pass (one copy instead of a reset per switch). grouped: keep m->gmin
 * up too.
 */
static inline void add_load_to(struct sssp *m, uint64_t k, int grouped)
{
	const struct dest *d = m->cur;
	const uint32_t *order = d->order, *pick = d->pick, *nb = m->nb;
	const uint32_t *gfirst = m->gfirst, *gnext = m->gnext;
	const uint64_t *hca = m->hca;
	uint64_t *load = m->load, *sub = m->sub, *gmin = m->gmin, ks = k * m->scale;

	for (uint32_t i = d->norder; i-- > 1;) {
		uint32_t s = order[i], e = pick[s];
		uint64_t x = sub[s];

		load[e] += ks * x;
		sub[nb[e]] += x;
		if (grouped)
			regroup(gfirst, gnext, load, gmin, e);
	}
	memcpy(sub, hca, sizeof(*sub) * m->f->num_switches);
}

static void add_load(struct sssp *m, uint64_t k)
{
	if (m->gfirst)
		add_load_to(m, k, 1);
	else
		add_load_to(m, k, 0);
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

void lanes_sssp_route_endports_of(struct sssp *m)
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

void lanes_sssp_route_switch_lids(struct sssp *m)
{
	uint32_t t = m->cur->t;
	const struct lanes_port *p0 = lanes_fabric_port(m->f, m->f->switches[t], 0);
	uint64_t same = 0;

	for (uint32_t l = 0; l < (1u << p0->lmc); l++)
		route_lid(m, p0->lid + l, 0, &same);
	if (same)
		add_load(m, same);
}
