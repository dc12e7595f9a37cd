/*
 * hyperx.c - dimension-order routing on HyperX / Flattened Butterfly
 * fabrics (hypercubes included) and on Slim Fly x FlatFly products, in the
 * three variants that standard InfiniBand hardware can carry, from "Early
 * evaluation of direct large-scale InfiniBand networks with adaptive
 * routing", Sec. 3.3, 3.4 and 3.6. In a HyperX every dimension is a
 * complete graph, so a packet crosses each dimension in at most one hop.
 * "DOR, ADOR and their Mixed and Twisted variants may be used for SF x FF
 * products, considering Slim Fly as a dimension of a Flat Fly" (Sec. 3.6):
 * there the Slim Fly dimension is crossed by its minimal route, one or two
 * hops (its diameter is 2).
 *
 * 1. Structure: lanes_recognize_hyperx() gives every switch its
 *    coordinates (x_1, ..., x_n); a fabric it refuses goes to
 *    lanes_recognize_sfxff(), whose dimension 1 (index 0) is the Slim Fly,
 *    its coordinate an MMS vertex (t, x, y), and dimensions 2..n complete
 *    graphs. A fabric both refuse, this engine refuses with their reasons
 *    (LANES_EREFUSED); so does a HyperX with a switch or cable missing on a
 *    route, naming it (the variants below have no way around a hole).
 * 2. Variants (parameter order=dor|mixed|twisted, default dor):
 *    - dor: the dimensions in order 1..n, one hop each to the destination's
 *      coordinate. "Unlike tori, there is no need to use two VLs since a
 *      packet traverses at most one link in each dimension": 1 SL, 1 VL.
 *    - mixed (Mixed DOR): "At the source node, SL is set of d mod 4, where
 *      d is the index of the destination host within the destination
 *      switch. Based on SL, one of the four dimension orders are used:
 *      (1, 2, 3, 4), (2, 4, 1, 3), (3, 1, 4, 2), (4, 3, 2, 1)", each order
 *      on its own VL (VL = SL), which keeps the orders from closing cycles
 *      between them. The order belongs to the destination, so the LFTs
 *      carry it; the path SL is per destination LID. With n != 4
 *      dimensions (the paper's orders are for 4) we use min(4, n) orders,
 *      the cyclic shifts (j, j+1, ..., j-1), a Latin square like the
 *      paper's: min(4, n) SLs and VLs.
 *    - twisted (Twisted DOR): "If a packet comes from a host, route it to
 *      switch with coordinates (x_1, ..., d mod K_n) using VL 1 (if d = x_n
 *      mod K_n, do nothing). After that, proceed with DOR using VL 0." That
 *      fits LFTs, which see only the destination: a switch whose x_n is not
 *      d mod K_n carries the destination's packets only when they start
 *      there (after the twist every packet stays at x_n = d mod K_n until
 *      its last hop, which ends at the destination switch), so it sends
 *      them along dimension n; the others route by DOR. VLs by the SL2VL
 *      maps: VL 1 on the first hop (in port a CA port), VL 0 after: 1 SL,
 *      2 VLs. The paths are one hop longer where the twist is made.
 *    Deadlock freedom: within one VL the dimensions are crossed in one
 *    fixed order (twisted: the VL 1 channels are first hops, which lead
 *    only to VL 0 channels or to a CA).
 * 3. SF x FF. The Slim Fly dimension is crossed by the minimal route of
 *    Sec. 3.6 between the two MMS vertices (src/route/slimfly/mms_paths.c,
 *    the slimfly engine's, choice 0: one link when they are linked, else
 *    the middle switch its cases give), the FlatFly coordinates fixed; a
 *    route is consistent as LFTs need, since the middle switch is linked
 *    to the target vertex and goes there directly. Within the Slim Fly,
 *    "on two-hop paths VL 0 is used on the first hop and VL 1 on the
 *    second", and a second hop is recognised as Sec. 3.3's ADOR recognises
 *    a hop in the same dimension: in and out port both of the Slim Fly
 *    dimension. The SL2VL maps (per in port, out port, SL) therefore give:
 *    - dor: VL 1 to a second Slim Fly hop, VL 0 to every other: 1 SL, 2 VLs.
 *    - mixed: VL N (N = number of orders) to a second Slim Fly hop, VL = SL
 *      to every other: N SLs, N + 1 VLs.
 *    - twisted: VL 1 to a second Slim Fly hop and to a first hop from a
 *      host into a FlatFly dimension (the twist, in dimension n, a complete
 *      graph since the Slim Fly is dimension 1; or the first DOR hop where
 *      no twist is made), VL 0 to every other, a first hop from a host into
 *      the Slim Fly included: 1 SL, 2 VLs.
 *    Proof (no cycle of channel dependencies). Number the dimensions of an
 *    order by position, the Slim Fly at position s. Give each channel
 *    (link direction, VL) a rank: a channel of dimension at position i
 *    that is not a second Slim Fly hop has rank 2i; a second-hop channel
 *    2s + 1; a twisted first hop into a FlatFly dimension -1. A packet
 *    goes from rank 2i to 2j with j > i (one hop per complete graph, next
 *    dimension later in its order), from 2s to 2s + 1 (first to second Slim
 *    Fly hop), from 2s + 1 to 2j with j > s, and from -1 to anything: ranks
 *    rise along every packet's path. For dor and twisted each VL's channels
 *    hold one kind only (VL 1: second Slim Fly hops in the Slim Fly, twist
 *    hops in the FlatFly dimensions, never on one link), so the rank is a
 *    function of the channel and every dependency rises: no cycle. For
 *    mixed, a channel on VL j < N carries only packets of order j, ranked
 *    by order j, and dependencies among them rise; a channel on VL N is
 *    left only for a VL j channel of a dimension after the Slim Fly in
 *    order j, from which order-j packets never come back to the Slim Fly,
 *    hence never to VL N: a cycle through VL N is impossible, and one
 *    without it stays on one VL j, where ranks rise. The verifier confirms
 *    it (tests/unit/test_hyperx.c).
 * 4. Where the paper is silent, decided here: the host index d is the rank
 *    of the CA port among its switch's CA ports in port order (0 for the
 *    switch's own LID); parallel cables: LID mod their number picks one, in
 *    port order; every LID of a port is routed alike; twisted: a packet
 *    for a CA of its own switch is delivered at once, without the twist;
 *    SF x FF: the Slim Fly is dimension 1 (the twist stays a single hop in
 *    a complete graph), the minimal Slim Fly route is choice 0 of
 *    mms_paths.c for every LID, the second Slim Fly hop's VL is shared by
 *    the orders of mixed.
 *
 * Work: per destination switch, every switch's port for each of its LIDs;
 * destination switches are split among the workers (opts->threads), each
 * writing only its own LIDs' entries and SLs, so the tables are the same
 * for any number of threads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "core/parallel.h"
#include "core/util.h"
#include "lanes/recognize.h"
#include "route/common/layers.h"
#include "route/common/lids.h"
#include "route/common/params.h"
#include "route/common/tables.h"
#include "route/engines.h"
#include "route/slimfly/mms_paths.h"

#define ENGINE "hyperx"
#define MAX_ORDERS 4

enum hx_variant { HX_DOR, HX_MIXED, HX_TWISTED };

/* A port's dimension (port_dim): that of its cable, or one of these. */
#define TO_HOST UINT32_MAX      /* a CA port, or the switch itself (port 0) */
#define TO_NOTHING (UINT32_MAX - 1) /* not cabled */

struct hx_route {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	struct lanes_routing *r;
	struct lanes_structure s;
	int sfxff;              /* s is a Slim Fly x FlatFly product, dimension 0 the Slim Fly */
	struct lanes_structure mms; /* sfxff: (t, x, y) per MMS vertex, for sf */
	struct sf_paths sf;     /* sfxff: the minimal routes within the Slim Fly */
	enum hx_variant variant;
	uint32_t num_orders;
	uint8_t order[MAX_ORDERS][LANES_STRUCTURE_MAX_DIMS]; /* dimension sequences */
	uint32_t *switch_at;    /* per coordinate index: the switch, or LANES_NONE */
	struct lanes_adj *nbr;  /* per switch, its cables sorted by (neighbour, port) */
	struct route_switch_lids lids; /* the LIDs that end at each switch */
	uint8_t *host_index;    /* per LID: d of the paper */
	unsigned num_workers;
	/* the first hop without a switch or cable, per worker (lowest destination wins) */
	uint32_t *missing_from, *missing_to;
};

/* ------------------------------------------------------------ parameters, orders */

/* One word of opts->params: "order=dor", "order=mixed" or "order=twisted". */
static int parse_word(void *ctx, const char *w, size_t len, struct lanes_error *err)
{
	enum hx_variant *v = ctx;
	static const char *const names[] = { "dor", "mixed", "twisted" };

	for (size_t k = 0; len > 6 && !memcmp(w, "order=", 6) && k < 3; k++)
		if (strlen(names[k]) == len - 6 && !memcmp(w + 6, names[k], len - 6)) {
			*v = (enum hx_variant)k;
			return 0;
		}
	return lanes_error_set(err, LANES_EINVAL, ENGINE ": unknown parameter '%.*s' "
			       "(takes order=dor|mixed|twisted)", (int)len, w);
}

static int parse_params(const char *params, enum hx_variant *v, struct lanes_error *err)
{
	*v = HX_DOR;
	return lanes_route_each_param(params, parse_word, v, err);
}

/* The paper's four orders for 4 dimensions; cyclic shifts otherwise. */
static void make_orders(struct hx_route *h)
{
	static const uint8_t paper[MAX_ORDERS][4] = { { 0, 1, 2, 3 }, { 1, 3, 0, 2 },
						     { 2, 0, 3, 1 }, { 3, 2, 1, 0 } };
	uint32_t n = h->s.num_dims;

	h->num_orders = h->variant == HX_MIXED ? (n < MAX_ORDERS ? n : MAX_ORDERS) : 1;
	for (uint32_t j = 0; j < h->num_orders; j++)
		for (uint32_t i = 0; i < n; i++)
			h->order[j][i] = n == 4 && h->variant == HX_MIXED ? paper[j][i]
									   : (uint8_t)((j + i) % n);
}

/* ------------------------------------------------------------ structure and tables */

static int cmp_adj(const void *a, const void *b)
{
	const struct lanes_adj *x = a, *y = b;

	if (x->sw != y->sw)
		return x->sw < y->sw ? -1 : 1;
	return (x->port > y->port) - (x->port < y->port);
}

static uint64_t coord_index(const struct hx_route *h, const uint32_t *c)
{
	uint64_t index = 0;

	for (uint32_t d = h->s.num_dims; d-- > 0;)
		index = index * h->s.extent[d] + c[d];
	return index;
}

static int tables_init(struct hx_route *h, struct lanes_error *err)
{
	const struct lanes_fabric *f = h->f;
	uint64_t cells = 1;
	uint32_t n = f->num_switches, ends = f->adj_off[n];

	for (uint32_t d = 0; d < h->s.num_dims; d++)
		cells *= h->s.extent[d];
	h->switch_at = malloc((size_t)cells * sizeof(*h->switch_at));
	h->nbr = malloc(((size_t)ends + 1) * sizeof(*h->nbr));
	if (!h->switch_at || !h->nbr)
		return lanes_error_oom(err);
	for (uint64_t i = 0; i < cells; i++)
		h->switch_at[i] = LANES_NONE;
	for (uint32_t u = 0; u < n; u++)
		h->switch_at[coord_index(h, h->s.coord + (size_t)u * h->s.num_dims)] = u;
	memcpy(h->nbr, f->adj, (size_t)ends * sizeof(*h->nbr));
	for (uint32_t u = 0; u < n; u++)
		qsort(h->nbr + f->adj_off[u], f->adj_off[u + 1] - f->adj_off[u], sizeof(*h->nbr),
		      cmp_adj);
	return 0;
}

/* Each LID's host index d: the rank of its CA port among its switch's CA ports. */
static int host_indices(struct hx_route *h, struct lanes_error *err)
{
	const struct lanes_fabric *f = h->f;

	h->host_index = calloc((size_t)f->max_lid + 1, 1);
	if (!h->host_index)
		return lanes_error_oom(err);
	for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
		uint8_t at = 0, rank = 0;
		uint32_t sw = lanes_fabric_lid_switch_port(f, lid, &at);

		for (uint8_t p = 1; sw != LANES_NONE && at && p < at; p++) {
			uint32_t peer = lanes_fabric_port(f, f->switches[sw], p)->peer_node;

			rank += peer != LANES_NONE && f->nodes[peer].type != LANES_NODE_SWITCH;
		}
		h->host_index[lid] = rank;
	}
	return 0;
}

/* ------------------------------------------------------------ routes */

/* A port of a cable from u to v (LID mod their number), or 0 when none. */
static uint8_t cable_port(const struct hx_route *h, uint32_t u, uint32_t v, uint32_t lid)
{
	const struct lanes_adj *a = h->nbr + h->f->adj_off[u];
	uint32_t n = h->f->adj_off[u + 1] - h->f->adj_off[u], lo = 0, hi = n, count = 0;

	while (lo < hi) { /* the first cable to v */
		uint32_t mid = (lo + hi) / 2;

		if (a[mid].sw < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo + count < n && a[lo + count].sw == v)
		count++;
	return count ? a[lo + lid % count].port : 0;
}

/* The switch at x's coordinates with dimension d set to value, or LANES_NONE. */
static uint32_t step(const struct hx_route *h, uint32_t x, uint32_t d, uint32_t value)
{
	uint32_t c[LANES_STRUCTURE_MAX_DIMS];

	memcpy(c, h->s.coord + (size_t)x * h->s.num_dims, h->s.num_dims * sizeof(*c));
	c[d] = value;
	return h->switch_at[coord_index(h, c)];
}

/*
 * One hop in dimension `dim` from x toward value `to`: there at once in a
 * complete graph; in the Slim Fly, the next switch of its minimal route
 * (mms_paths.c, choice 0) between the two MMS vertices.
 */
static uint32_t hop(const struct hx_route *h, uint32_t x, uint32_t dim, uint32_t to)
{
	uint32_t from = h->s.coord[(size_t)x * h->s.num_dims], next;
	int shape;

	if (!h->sfxff || dim)
		return step(h, x, dim, to);
	next = lanes_slimfly_next_switch(&h->sf, from, to, 0, 0, &shape);
	return next == LANES_NONE ? LANES_NONE : step(h, x, 0, next);
}

/* The next switch from x toward t (x != t) for a destination of host index d. */
static uint32_t next_switch(const struct hx_route *h, uint32_t x, uint32_t t, uint32_t d)
{
	const uint32_t n = h->s.num_dims, *a = h->s.coord + (size_t)x * n;
	const uint32_t *b = h->s.coord + (size_t)t * n;
	const uint8_t *order = h->order[h->variant == HX_MIXED ? d % h->num_orders : 0];

	if (h->variant == HX_TWISTED && a[n - 1] != d % h->s.extent[n - 1])
		return step(h, x, n - 1, d % h->s.extent[n - 1]);
	for (uint32_t i = 0; i < n; i++)
		if (a[order[i]] != b[order[i]])
			return hop(h, x, order[i], b[order[i]]);
	return LANES_NONE; /* x == t: not reached */
}

/* Every LID of destination switch t; a missing switch or cable is noted and ends it. */
static void route_destination(struct hx_route *h, unsigned worker, uint32_t t)
{
	const struct lanes_fabric *f = h->f;

	for (uint32_t i = h->lids.first[t]; i < h->lids.first[t + 1]; i++) {
		uint32_t lid = h->lids.lid[i], d = h->host_index[lid];
		uint8_t port_at_t = 0;

		lanes_fabric_lid_switch_port(f, lid, &port_at_t);
		if (f->nodes[f->lid_owner[lid].node].type == LANES_NODE_SWITCH && !h->opts->switch_lids) {
			lanes_routing_set_port(h->r, t, lid, 0);
			continue;
		}
		if (h->variant == HX_MIXED)
			lanes_routing_set_sl(h->r, lid, lid, (uint8_t)(d % h->num_orders));
		for (uint32_t x = 0; x < f->num_switches; x++) {
			uint32_t y = x == t ? LANES_NONE : next_switch(h, x, t, d);
			uint8_t port = x == t ? port_at_t : y == LANES_NONE ? 0 : cable_port(h, x, y, lid);

			if (x != t && !port) {
				h->missing_from[worker] = x;
				h->missing_to[worker] = y;
				return;
			}
			lanes_routing_set_port(h->r, x, lid, port);
		}
	}
}

/* Worker k: destination switches k, k + workers, ...; a unit of progress each. */
static void route_share(void *ctx, unsigned k)
{
	struct hx_route *h = ctx;

	for (uint32_t t = k; t < h->f->num_switches && h->missing_from[k] == LANES_NONE;
	     t += h->num_workers) {
		route_destination(h, k, t);
		lanes_progress_add(h->opts->progress, 1);
	}
}

/* ------------------------------------------------------------ VLs */

/* The dimension of switch x's port: its cable's, TO_HOST or TO_NOTHING. */
static uint32_t port_dim(const struct hx_route *h, uint32_t x, uint8_t port)
{
	const struct lanes_fabric *f = h->f;
	const uint32_t n = h->s.num_dims, *a = h->s.coord + (size_t)x * n;
	uint32_t peer = port ? lanes_fabric_port(f, f->switches[x], port)->peer_node : LANES_NONE;

	if (!port || (peer != LANES_NONE && f->nodes[peer].type != LANES_NODE_SWITCH))
		return TO_HOST;
	for (uint32_t d = 0; peer != LANES_NONE && d < n; d++)
		if (a[d] != h->s.coord[(size_t)f->nodes[peer].switch_index * n + d])
			return d;
	return TO_NOTHING;
}

enum hx_map { MAP_PLAIN, MAP_FIRST, MAP_SECOND, NUM_MAPS };

/*
 * The map of a hop that came in on a port of dimension `in` and leaves on
 * one of `out`: the second of two hops in the Slim Fly, a twisted first hop
 * (from a host, not into the Slim Fly), or the variant's plain map.
 */
static enum hx_map map_for(const struct hx_route *h, uint32_t in, uint32_t out)
{
	if (h->sfxff && in == 0 && out == 0)
		return MAP_SECOND;
	if (h->variant == HX_TWISTED && in == TO_HOST && !(h->sfxff && out == 0))
		return MAP_FIRST;
	return MAP_PLAIN;
}

/*
 * The SL2VL maps: plain VL 0 (mixed: VL = SL); first (twisted) VL 1;
 * second VL 1 (mixed: VL num_orders). Set for every pair of cabled ports.
 */
static int set_vls(struct hx_route *h, struct lanes_error *err)
{
	const struct lanes_fabric *f = h->f;
	uint8_t map[NUM_MAPS][LANES_NUM_SLS];
	uint32_t dim[LANES_PORTS_MAX + 1];
	uint16_t index[NUM_MAPS];
	int rc = 0;

	if (!h->sfxff && (h->variant == HX_DOR || (h->variant == HX_MIXED && h->num_orders == 1)))
		return 0;
	memset(map, 0, sizeof(map));
	memset(map[MAP_FIRST], 1, sizeof(map[MAP_FIRST]));
	memset(map[MAP_SECOND], h->variant == HX_MIXED ? (int)h->num_orders : 1,
	       sizeof(map[MAP_SECOND]));
	for (uint32_t sl = 0; h->variant == HX_MIXED && sl < h->num_orders; sl++)
		map[MAP_PLAIN][sl] = (uint8_t)sl;
	for (int m = 0; m < NUM_MAPS && !rc; m++)
		rc = lanes_routing_add_map(h->r, map[m], &index[m], err);
	if (rc || (rc = lanes_routing_enable_sl2vl(h->r, f, err)))
		return rc;
	for (uint32_t x = 0; x < f->num_switches; x++) {
		uint8_t nports = f->nodes[f->switches[x]].nports;

		for (uint8_t p = 0; p <= nports; p++)
			dim[p] = port_dim(h, x, p);
		for (uint8_t in = 0; in <= nports; in++)
			for (uint8_t out = 1; out <= nports && dim[in] != TO_NOTHING; out++)
				if (dim[out] != TO_NOTHING)
					lanes_routing_set_switch_map(h->r, f, x, in, out,
								     index[map_for(h, dim[in], dim[out])]);
	}
	return 0;
}

/* ------------------------------------------------------------ setup */

/* sfxff: the (t, x, y) of every MMS vertex, and the Slim Fly's minimal routes on them. */
static int slimfly_paths(struct hx_route *h, struct lanes_error *err)
{
	uint32_t q = h->s.slimfly_q, vertices = 2 * q * q;

	h->mms.kind = LANES_STRUCTURE_SLIMFLY;
	h->mms.num_switches = vertices;
	h->mms.num_dims = 3;
	h->mms.slimfly_q = q;
	if (!(h->mms.coord = malloc(3 * (size_t)vertices * sizeof(*h->mms.coord))))
		return lanes_error_oom(err);
	for (uint32_t v = 0; v < vertices; v++) {
		h->mms.coord[3 * (size_t)v + 0] = v / (q * q);
		h->mms.coord[3 * (size_t)v + 1] = v / q % q;
		h->mms.coord[3 * (size_t)v + 2] = v % q;
	}
	return lanes_slimfly_paths_init(&h->sf, &h->mms, err);
}

/* A HyperX, else a Slim Fly x FlatFly product; neither: refused with both reasons. */
static int recognise(struct hx_route *h, struct lanes_error *err)
{
	struct lanes_error why, why_not_product;
	int rc;

	if ((rc = parse_params(h->opts->params, &h->variant, err)))
		return rc;
	lanes_error_clear(&why);
	lanes_error_clear(&why_not_product);
	rc = lanes_recognize_hyperx(h->f, &h->s, &why);
	if (rc == LANES_EINVAL) {
		rc = lanes_recognize_sfxff(h->f, &h->s, &why_not_product);
		if (rc == LANES_EINVAL)
			return lanes_error_set(err, LANES_EREFUSED, ENGINE ": %.200s; %.280s",
					       why.message, why_not_product.message);
		if (rc)
			return lanes_error_set(err, rc, "%s", why_not_product.message);
		h->sfxff = 1;
		if ((rc = slimfly_paths(h, err)))
			return rc;
	} else if (rc) {
		return lanes_error_set(err, rc, "%s", why.message);
	}
	make_orders(h);
	return 0;
}

static int check_budget(const struct hx_route *h, struct lanes_error *err)
{
	static const char *const names[] = { "dor", "mixed", "twisted" };
	uint32_t sf = (uint32_t)h->sfxff;
	uint32_t vls = h->variant == HX_MIXED ? h->num_orders + sf : h->variant == HX_TWISTED ? 2 : 1 + sf;
	uint32_t sls = h->variant == HX_MIXED ? h->num_orders : 1;

	if (vls > h->opts->max_vls || sls > h->opts->max_sls)
		return lanes_error_set(err, LANES_ERANGE, ENGINE ": order=%s%s needs %u VLs and %u SLs, "
				       "the budget is %u VLs and %u SLs (vls %u, sls %u)",
				       names[h->variant], sf ? " on a Slim Fly x FlatFly" : "", vls, sls,
				       h->opts->max_vls, h->opts->max_sls, h->opts->max_vls,
				       h->opts->max_sls);
	return 0;
}

static int set_notes(struct hx_route *h, struct lanes_error *err)
{
	static const char *const what[] = {
		"dimension order 1..n, 1 SL, 1 VL",
		"Mixed DOR: SL = destination host index mod %u picks a dimension order, VL = SL",
		("Twisted DOR: a first hop in the last dimension to host index mod K_n on VL 1, "
		 "then dimension order on VL 0"),
		"dimension order 1..n", /* SF x FF: the VLs follow */
	};
	static const char *const slimfly_vl[] = {
		"1 SL, 2 VLs: the Slim Fly (dimension 1) by its minimal route, VL 1 on its second hop",
		"the Slim Fly (dimension 1) by its minimal route, VL %u on its second hop",
		"the Slim Fly (dimension 1) by its minimal route on VL 0, VL 1 on its second hop",
	};
	char dims[LANES_STRUCTURE_MAX_DIMS * 12] = "", how[160], slimfly[120] = "";
	size_t len = 0;

	for (uint32_t d = 0; d < h->s.num_dims; d++)
		len += (size_t)snprintf(dims + len, sizeof(dims) - len, "%s%u", d ? "x" : "",
					h->s.extent[d]);
	if (h->sfxff) {
		snprintf(dims, sizeof(dims), "SF(q=%u)", h->s.slimfly_q);
		for (uint32_t d = 1, at = (uint32_t)strlen(dims); d < h->s.num_dims; d++)
			at += (uint32_t)snprintf(dims + at, sizeof(dims) - at, "x%u", h->s.extent[d]);
		snprintf(slimfly, sizeof(slimfly), slimfly_vl[h->variant], h->num_orders);
	}
	snprintf(how, sizeof(how), what[h->sfxff && h->variant == HX_DOR ? 3 : (int)h->variant],
		 h->num_orders);
	h->r->notes = lanes_aprintf(ENGINE " on the %s %s: %s%s%s; deadlock-free", dims,
				    h->sfxff ? "Slim Fly x FlatFly" : "HyperX", how,
				    h->sfxff ? "; " : "", slimfly);
	return h->r->notes ? 0 : lanes_error_oom(err);
}

static int prepare(struct hx_route *h, struct lanes_error *err)
{
	int rc;

	if ((rc = recognise(h, err)) || (rc = check_budget(h, err)) || (rc = tables_init(h, err)) ||
	    (rc = lanes_route_switch_lids_init(&h->lids, h->f, err)) ||
	    (rc = host_indices(h, err)))
		return rc;
	h->num_workers = lanes_route_destination_workers(h->opts, h->f->num_switches);
	h->missing_from = malloc(h->num_workers * sizeof(*h->missing_from));
	h->missing_to = malloc(h->num_workers * sizeof(*h->missing_to));
	if (!h->missing_from || !h->missing_to)
		return lanes_error_oom(err);
	for (unsigned k = 0; k < h->num_workers; k++)
		h->missing_from[k] = h->missing_to[k] = LANES_NONE;
	if ((rc = lanes_routing_new_parallel(h->f, h->num_workers, &h->r, err)))
		return rc;
	if (h->variant == HX_MIXED && (rc = lanes_routing_set_sl_mode(h->r, LANES_SL_PER_DST, err)))
		return rc;
	return set_notes(h, err);
}

/* A hop without its switch or cable: refuse, naming it. */
static int refuse_missing(const struct hx_route *h, struct lanes_error *err)
{
	const struct lanes_fabric *f = h->f;

	for (unsigned k = 0; k < h->num_workers; k++) {
		uint32_t x = h->missing_from[k], y = h->missing_to[k];

		if (x == LANES_NONE)
			continue;
		if (y == LANES_NONE)
			return lanes_error_set(err, LANES_EREFUSED, ENGINE ": switch %u ('%.60s') "
					       "has no switch at the coordinates of its next hop",
					       x, f->nodes[f->switches[x]].desc);
		return lanes_error_set(err, LANES_EREFUSED, ENGINE ": no cable from switch %u "
				       "('%.60s') to switch %u ('%.60s'), a hop of the dimension order",
				       x, f->nodes[f->switches[x]].desc, y, f->nodes[f->switches[y]].desc);
	}
	return 0;
}

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	struct hx_route h;
	int rc;

	memset(&h, 0, sizeof(h));
	h.f = f;
	h.opts = opts;
	*out = NULL;
	if ((rc = prepare(&h, err)))
		goto out;
	lanes_progress_phase(opts->progress, "routing", f->num_switches);
	lanes_parallel_run(h.num_workers, route_share, &h);
	if ((rc = refuse_missing(&h, err)) || (rc = set_vls(&h, err)))
		goto out;
	lanes_routing_count_resources(h.r);
	*out = h.r;
	h.r = NULL;
out:
	free(h.switch_at);
	free(h.nbr);
	lanes_route_switch_lids_free(&h.lids);
	free(h.host_index);
	free(h.missing_from);
	free(h.missing_to);
	lanes_structure_free(&h.s);
	if (h.sfxff)
		lanes_slimfly_paths_free(&h.sf);
	lanes_structure_free(&h.mms);
	lanes_routing_free(h.r);
	return rc;
}

const struct lanes_engine lanes_engine_hyperx = {
	.name = ENGINE,
	.summary = "dimension order on HyperX / FlatFly and Slim Fly x FlatFly: DOR, Mixed DOR or "
		   "Twisted DOR",
	.scope = "HyperX, Flattened Butterflies, hypercubes, Slim Fly x FlatFly products",
	.resources = "dor: 1 SL, 1 VL; mixed: min(4, n) SLs and VLs; twisted: 1 SL, 2 VLs; "
		     "on SF x FF one VL more for dor and mixed",
	.source = "Early evaluation of direct large-scale InfiniBand networks with adaptive "
		  "routing, Sec. 3.3, 3.4 and 3.6",
	.flags = LANES_ENGINE_DEADLOCK_FREE | LANES_ENGINE_USES_VLS,
	.params_usage = "order=dor|mixed|twisted",
	.route = route,
};
