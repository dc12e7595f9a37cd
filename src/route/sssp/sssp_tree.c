/*
 * sssp_tree.c - the trees of the sssp paths' own rule (sssp_paths.c): for
 * each destination LID, every switch's LFT entry toward it and the loads
 * it adds. The algorithm is the SSSP of Hoefler, Schneider and Lumsdaine,
 * "Optimized Routing for Large-Scale InfiniBand Networks" (HOTI 2009): a
 * shortest-path tree per destination over channel weights that count the
 * routes already placed, so that later trees avoid loaded channels. Facts
 * from OpenSM 3.3.23's osm_ucast_dfsssp.c (dijkstra, update_lft,
 * update_weights); no code taken from it.
 *
 * Where it is not OpenSM: distances compare as (hops, load sum), so every
 * path is a shortest path (OpenSM adds P^2 per channel, P the LIDs, which
 * loads can in principle outweigh; its documentation calls the engine
 * minimal). A switch's candidates are its min-hop ports toward the
 * destination switch t (sssp_cands.c). A tree is one pass over the switches
 * in hop order, up to the farthest switch with several candidates. Ties on
 * the load sum go, for sssp, to the less loaded channel, then the lowest
 * port; for dfsssp (where the replay of OpenSM's heap declined), to the
 * lowest port. The less loaded channel balances better (max routes per
 * channel on the DGX SuperPOD file 2,386, within 5% of OpenSM's 2,289,
 * where the lowest port gives 2,475), but its less regular paths made
 * dfsssp need 9 VLs instead of 8 on the 114,582-endpoint dragonfly, where
 * the replay declines. OpenSM breaks ties by its heap's order instead.
 *
 * A key is (load sum, channel load), compared in that order, the lowest
 * port winning equal keys (choose, below). Where both parts fit one 64-bit
 * word, sssp_tree_fast.c compares them packed into one.
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
 * Packed keys (sssp_tree_fast.c), where allowed and they fit. A channel's
 * load is at most P^2 (P: the LIDs, the sum of num_hca; each destination
 * LID adds at most P to it), a load sum at most 255 P^2; the packed key
 * (load sum << shift | channel load) holds both where their bits fit 64.
 * The arrays then hold them scaled so that a key is one addition: m->load
 * the channel load times m->load_scale (2^shift + 1, so that load << shift
 * | load = load * scale), m->load_sum the load sum << shift; m->sum_mask
 * keeps a key's load sum part. Ties to the lowest port only (dfsssp): shift
 * 0, scale 1. Without packing, both are kept as they are (scale 1, mask all
 * ones).
 */
void lanes_sssp_set_keys(struct sssp *m, int allow_packed)
{
	uint64_t p = 0;

	for (uint32_t s = 0; s < m->f->num_switches; s++)
		p += m->hca[s];
	m->packed_keys = allow_packed && p < (1u << 24);
	m->key_shift = m->less_loaded ? bits(p * p) : 0;
	m->packed_keys = m->packed_keys && bits(255 * p * p) + m->key_shift <= 64;
	m->load_scale = 1;
	m->sum_mask = UINT64_MAX;
	if (m->packed_keys && m->key_shift) {
		m->load_scale = ((uint64_t)1 << m->key_shift) + 1;
		m->sum_mask = ~(((uint64_t)1 << m->key_shift) - 1);
	}
}

/* ------------------------------------------------------------- a tree */

/*
 * The candidate of the n entries cand[] (adjacency order: the first is the
 * lowest port) with the least key: the least load sum through it, then
 * (less_loaded) the least channel load; of equal keys the first. *sum gets
 * the least load sum.
 */
static uint32_t least_key(const uint64_t *load_sum, const uint64_t *load, const uint32_t *nb,
			  const uint32_t *cand, uint32_t n, int less_loaded, uint64_t *sum)
{
	uint64_t best_sum = UINT64_MAX, best_load = UINT64_MAX;
	uint32_t best = cand[0];

	for (uint32_t c = 0; c < n; c++) {
		uint32_t e = cand[c];
		uint64_t s = load_sum[nb[e]] + load[e], l = less_loaded ? load[e] : 0;

		if (s < best_sum || (s == best_sum && l < best_load)) {
			best_sum = s;
			best_load = l;
			best = e;
		}
	}
	*sum = best_sum;
	return best;
}

/*
 * The picks of the multi switches, straight into the LFT column col. A
 * switch reads the load sums one hop closer, which the program (struct
 * dest) has set before it; its single switches only pass their load sums
 * on (the load sums are needed only below the farthest multi switch's
 * hops, where the program ends).
 */
static void choose(struct sssp *m, uint8_t *col)
{
	const struct dest *d = m->cur;
	const uint32_t *p = d->program, *end = p + d->program_len;

	m->load_sum[d->t] = 0;
	while (p < end) {
		uint32_t s = p[0] & ~SSSP_SINGLE, e;

		if (p[0] & SSSP_SINGLE) {
			m->load_sum[s] = m->load_sum[m->nb[p[1]]] + m->load[p[1]];
			p += 2;
			continue;
		}
		e = least_key(m->load_sum, m->load, m->nb, p + 2, p[1], m->less_loaded,
			      &m->load_sum[s]);
		d->pick[s] = e;
		col[s] = m->f->adj[e].port;
		p += 2 + p[1];
	}
}

/*
 * Every switch adds k times its LIDs to each channel on its path to t (times
 * m->load_scale, see the keys). In reverse hop order each switch's count is
 * complete when it is read: lids_below starts as num_hca (m->hca) and
 * gathers the counts of the switches whose picks lead to it; it is num_hca
 * again after the pass (one copy instead of a reset per switch).
 */
static void add_load(struct sssp *m, uint64_t k)
{
	const struct dest *d = m->cur;
	uint64_t *below = m->lids_below, scaled = k * m->load_scale;

	for (uint32_t i = d->norder; i-- > 1;) {
		uint32_t s = d->order[i], e = d->pick[s];

		m->load[e] += scaled * below[s];
		below[m->nb[e]] += below[s];
	}
	memcpy(below, m->hca, sizeof(*below) * m->f->num_switches);
}

/* One destination LID: its LFT column, its tree, its weights (unless deferred). */
static void route_lid(struct sssp *m, uint32_t lid, uint8_t port, uint64_t *deferred)
{
	const struct dest *d = m->cur;
	uint8_t *col = m->r->lft + (size_t)lid * m->f->num_switches;

	memcpy(col, d->fixed_port, m->f->num_switches);
	if (d->nmulti) {
		if (m->packed_keys)
			lanes_sssp_choose_packed(m, col);
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
