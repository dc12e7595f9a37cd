/*
 * flow.c - one destination's traffic, switch by switch, leaves first.
 *
 * Routes are counted over CA-to-CA pairs: sub[s] is the number of CA
 * sources whose path to the destination crosses switch s, so the channel
 * out of s carries sub[s] routes. Channel dependencies come from the VLs:
 * for one SL, the VL on s's out-link depends only on the in-port the packet
 * used at s (SL2VL maps are per (in port, out port)), so vlmask[s] collects
 * the VLs of every active in-port: s's own sources (port 0 for the switch,
 * the CA ports) and the links from upstream switches. Every VL arriving on
 * an upstream link then depends on the VL it leaves on: one CDG edge each.
 * Leaves-first order makes every upstream link's VLs final before use.
 *
 * Unless opts->all_traffic is set, only CA-sourced paths to CA destinations
 * make dependencies and count as VL use; switch LIDs and switch sources are
 * still checked for reachability (walk.c).
 *
 * With opts->metric_traffic = LANES_VERIFY_SWITCH_PAIRS the metrics count
 * instead one route from every switch to every other switch's LID, hops in
 * switch-to-switch links (the count of Sancho et al., ICPP 2003, Sec. 5);
 * CA routes then still make dependencies and VLs, and count nothing.
 */
#include "verify_internal.h"
#include "core/bits.h"

#include <string.h>

uint8_t lanes_verify_sl(const struct vctx *c, uint32_t src_sw, uint32_t src_lid, uint32_t dst)
{
	const struct lanes_routing *r = c->r;

	switch (r->sl_mode) {
	case LANES_SL_PER_DST:
		return r->sl[dst];
	case LANES_SL_PER_SRC_SWITCH:
		return r->sl[(size_t)dst * r->num_switches + src_sw];
	case LANES_SL_PER_PAIR:
		return r->sl[(size_t)dst * r->num_lids + src_lid];
	default:
		return r->sl_uniform;
	}
}

uint8_t lanes_verify_vl(const struct vctx *c, uint32_t sw, uint8_t in, uint8_t out, uint8_t sl)
{
	return c->has_maps ? lanes_routing_switch_map(c->r, c->f, sw, in, out)[sl] : 0;
}

void lanes_verify_note_vl(struct vctx *c, uint8_t vl)
{
	if (vl + 1u > c->res->vls_used)
		c->res->vls_used = vl + 1u;
	if (vl == 15)
		c->res->vl15_used = 1;
	else if (vl >= c->o->max_vls)
		c->res->vls_over_budget = 1;
}

static int is_dst_port(const struct vctx *c, const struct vca *ca)
{
	return ca->node == c->dnode && ca->port == c->dport_dst;
}

/* CA sources behind s, without the destination itself. */
static uint64_t own_cas(const struct vctx *c, uint32_t s)
{
	uint64_t n = c->ca_off[s + 1] - c->ca_off[s];

	if (s == c->os && c->f->nodes[c->dnode].type != LANES_NODE_SWITCH)
		n--;
	return n;
}

/*
 * Hops and stretch of the `own` sources behind switch s, each end_links
 * links beyond the switch path (2 for CA to CA, 0 for switch to switch).
 */
static void own_metrics(struct vctx *c, uint32_t s, uint64_t own, uint32_t end_links)
{
	struct lanes_verify_result *res = c->res;
	uint32_t h = c->hops[s] + end_links;
	uint32_t shortest = c->dist[(size_t)c->os * c->S + s] + end_links; /* symmetric: row os */

	res->routes += own;
	c->hop_sum += own * h;
	res->hops_hist[h < LANES_VERIFY_HOPS_HIST ? h : LANES_VERIFY_HOPS_HIST - 1] += own;
	if (h > res->hops_max)
		res->hops_max = h;
	if (h >= STRETCH_SIDE)
		h = STRETCH_SIDE - 1;
	if (shortest >= STRETCH_SIDE)
		shortest = STRETCH_SIDE - 1;
	c->stretch_hist[h * STRETCH_SIDE + shortest] += own;
}

/* Hops, stretch and routes per channel for a CA destination. */
static void count_routes(struct vctx *c)
{
	for (uint32_t i = 0; i < c->num_order; i++) {
		uint32_t s = c->order[i];
		uint64_t own = own_cas(c, s), total = c->sub[s] + own;

		if (c->nxt[s] != LANES_NONE) {
			c->sub[c->nxt[s]] += total;
			c->routes[c->outent[s]] += total;
		}
		if (own)
			own_metrics(c, s, own, 2);
	}
}

/* Switch-pairs metrics for a switch destination: one route from every other switch. */
static void count_switch_routes(struct vctx *c)
{
	for (uint32_t i = 0; i < c->num_order; i++) {
		uint32_t s = c->order[i];
		uint64_t own = s != c->os, total = c->sub[s] + own;

		if (c->nxt[s] != LANES_NONE) {
			c->sub[c->nxt[s]] += total;
			c->routes[c->outent[s]] += total;
		}
		if (own)
			own_metrics(c, s, own, 0);
	}
	memset(c->sub, 0, sizeof(*c->sub) * c->S);
}

/* Which SLs the sources behind each switch use for this destination. */
static uint16_t source_sls(struct vctx *c)
{
	int per_pair = c->r->sl_mode == LANES_SL_PER_PAIR;
	uint16_t all = 0;

	for (uint32_t i = 0; i < c->num_order; i++) {
		uint32_t s = c->order[i], lid = c->sw_lid[s];
		uint16_t m = 0;

		if (!per_pair) { /* the switch and its CAs share the source switch's SL */
			if ((c->o->all_traffic && lid != c->d) || own_cas(c, s))
				m = (uint16_t)(1u << lanes_verify_sl(c, s, lid, c->d));
		} else {
			if (c->o->all_traffic && lid != c->d)
				m |= (uint16_t)(1u << lanes_verify_sl(c, s, lid, c->d));
			for (uint32_t k = c->ca_off[s]; k < c->ca_off[s + 1]; k++)
				if (!is_dst_port(c, &c->cas[k]))
					m |= (uint16_t)(1u << lanes_verify_sl(c, s, c->cas[k].lid, c->d));
		}
		c->own_sls[s] = m;
		all |= m;
	}
	return all;
}

/* CA sources one by one: per-pair SLs, or CA ports whose maps differ. */
static void own_cas_slow(struct vctx *c, uint32_t s, uint8_t out, uint8_t sl, int counted)
{
	for (uint32_t k = c->ca_off[s]; k < c->ca_off[s + 1]; k++) {
		const struct vca *ca = &c->cas[k];
		uint8_t vl;

		if (is_dst_port(c, ca) || lanes_verify_sl(c, s, ca->lid, c->d) != sl)
			continue;
		if (c->has_maps)
			lanes_verify_note_vl(c, lanes_routing_port_map(c->r, c->f, ca->node, ca->port)[sl]);
		vl = lanes_verify_vl(c, s, ca->sw_port, out, sl);
		lanes_verify_note_vl(c, vl);
		c->vlmask[s] |= (uint16_t)(1u << vl);
		c->sub_sl[s]++;
		if (counted)
			c->res->routes_per_vl[vl]++;
	}
}

/* CA sources at once, when they share the SL: the precomputed VL mask. */
static void own_cas_fast(struct vctx *c, uint32_t s, uint8_t out, uint8_t sl, int counted)
{
	uint64_t own = own_cas(c, s);
	uint16_t m = 1;

	if (!own)
		return;
	if (c->has_maps) {
		m = c->inj_mask[((size_t)c->sw_base[s] + out) * 16 + sl];
		if (lanes_popcount64(m) != 1) {
			own_cas_slow(c, s, out, sl, counted);
			return;
		}
		lanes_verify_note_vl(c, (uint8_t)lanes_ctz64(m));
		for (uint16_t x = c->ca_inj[(size_t)s * 16 + sl]; x; x &= (uint16_t)(x - 1))
			lanes_verify_note_vl(c, (uint8_t)lanes_ctz64(x));
	}
	c->vlmask[s] |= m;
	c->sub_sl[s] += own;
	if (counted)
		c->res->routes_per_vl[lanes_ctz64(m)] += own;
}

/* VLs of s's own sources with SL sl, and the CA routes they carry per VL. */
static void own_sources(struct vctx *c, uint32_t s, uint8_t out, uint8_t sl, int counted)
{
	uint32_t lid = c->sw_lid[s];

	if (c->o->all_traffic && lid != c->d && lanes_verify_sl(c, s, lid, c->d) == sl) {
		uint8_t vl = lanes_verify_vl(c, s, 0, out, sl);

		lanes_verify_note_vl(c, vl);
		c->vlmask[s] |= (uint16_t)(1u << vl);
	}
	if (c->r->sl_mode == LANES_SL_PER_PAIR)
		own_cas_slow(c, s, out, sl, counted);
	else
		own_cas_fast(c, s, out, sl, counted);
}

/* Upstream switch t feeds s = nxt[t]: VL at s, CDG edges, counts. */
static void feed(struct vctx *c, uint32_t t, uint8_t sl, int counted)
{
	const struct lanes_fabric *f = c->f;
	uint32_t s = c->nxt[t], e = c->outent[t];
	uint8_t in = f->adj[e].peer_port, out = lanes_routing_port(c->r, s, c->d);
	uint8_t vout = lanes_verify_vl(c, s, in, out, sl);

	lanes_verify_note_vl(c, vout);
	c->vlmask[s] |= (uint16_t)(1u << vout);
	c->active[s] = 1;
	c->sub_sl[s] += c->sub_sl[t];
	if (counted)
		c->res->routes_per_vl[vout] += c->sub_sl[t];
	if (c->nxt[s] == LANES_NONE)
		return; /* s delivers: the last channel is a sink */
	for (uint16_t m = c->vlmask[t]; m; m &= (uint16_t)(m - 1))
		lanes_verify_cdg_add(c, s, c->rev[e], (uint8_t)lanes_ctz64(m),
				     c->outent[s] - f->adj_off[s], vout);
}

static void flow_sl(struct vctx *c, uint8_t sl, int counted)
{
	for (uint32_t i = 0; i < c->num_order; i++) {
		uint32_t s = c->order[i];

		c->vlmask[s] = 0;
		c->sub_sl[s] = 0;
		c->active[s] = (c->own_sls[s] >> sl) & 1;
	}
	for (uint32_t i = 0; i < c->num_order; i++) {
		uint32_t s = c->order[i];

		if (!c->active[s])
			continue;
		own_sources(c, s, lanes_routing_port(c->r, s, c->d), sl, counted);
		if (c->nxt[s] != LANES_NONE)
			feed(c, s, sl, counted);
	}
}

/*
 * The common case in one pass: no SL2VL maps (every hop on VL 0) and one SL
 * for all sources of this destination. Same results as the general path.
 */
static void flow_plain(struct vctx *c, int ca_dst)
{
	const uint32_t *adj_off = c->f->adj_off;
	uint8_t sl = lanes_verify_sl(c, 0, 0, c->d);
	uint64_t hop_total = 0;
	int count = c->o->metric_traffic == LANES_VERIFY_CA_PAIRS;

	if (sl + 1u > c->res->sls_used)
		c->res->sls_used = sl + 1u;
	lanes_verify_note_vl(c, 0);
	for (uint32_t i = 0; i < c->num_order; i++) {
		uint32_t t = c->order[i], s = c->nxt[t], e;
		uint64_t own = ca_dst ? own_cas(c, t) : 0, total;

		if (own && count)
			own_metrics(c, t, own, 2);
		total = c->sub[t] + own;
		hop_total += total;
		if (s == LANES_NONE)
			continue;
		e = c->outent[t];
		c->sub[s] += total;
		if (count)
			c->routes[e] += total;
		if ((total || c->o->all_traffic) && c->nxt[s] != LANES_NONE)
			lanes_verify_cdg_add(c, s, c->rev[e], 0, c->outent[s] - adj_off[s], 0);
	}
	if (count)
		c->res->routes_per_vl[0] += hop_total;
}

void lanes_verify_flow(struct vctx *c)
{
	int ca_dst = c->f->nodes[c->dnode].type != LANES_NODE_SWITCH;
	int ca_metrics = ca_dst && c->o->metric_traffic == LANES_VERIFY_CA_PAIRS;
	uint16_t sls;

	if (!ca_dst && c->o->metric_traffic == LANES_VERIFY_SWITCH_PAIRS)
		count_switch_routes(c);
	if (!ca_dst && !c->o->all_traffic)
		return; /* switch LIDs: reachability only */
	if (!c->has_maps && c->r->sl_mode <= LANES_SL_PER_DST) {
		flow_plain(c, ca_dst);
		return;
	}

	if (ca_metrics)
		count_routes(c);
	sls = source_sls(c);
	for (uint8_t sl = 0; sl < LANES_NUM_SLS; sl++) {
		if (!((sls >> sl) & 1))
			continue;
		if (sl + 1u > c->res->sls_used)
			c->res->sls_used = sl + 1u;
		flow_sl(c, sl, ca_metrics);
	}
}
