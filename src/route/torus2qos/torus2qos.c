/*
 * torus2qos.c - OpenSM's torus-2QoS routing engine, as OpenSM's
 * doc/current-routing.txt describes it ("Torus-2QoS Routing Algorithm"),
 * with the behaviour of OpenSM 3.3.23's opensm/osm_torus.c (its functions
 * lft_port, next_hop_path, ring_dir_idx, use_vl1, sl2vl_entry,
 * routable_torus and torus_path_sl are the ones followed here).
 *
 * 1. The torus. Every switch gets coordinates (x, y, z) in a torus or mesh
 *    of at most three dimensions (z extent 1 for a 2D torus): from
 *    lanes_recognize_torus() on a bare intact fabric, or grown from the
 *    seed switches of an OpenSM torus-2QoS.conf (parameter config=FILE,
 *    place.c, config.c), which tolerates failed switches and cables, or on
 *    a bare faulty torus from a seed the engine finds (place.c). Each switch's
 *    cables to other switches fall into six port groups, -x +x -y +y -z +z;
 *    a cable that joins no neighbouring positions is refused. A dimension
 *    of extent 2 is a mesh (OpenSM: "a torus of radix two is also a mesh").
 * 2. Routes (lft_port): dimension order x, y, z. In a ring the shorter way
 *    round; on a tie (half way round an even ring) the way that does not
 *    cross the dateline, which lies between coordinates extent-1 and 0. A
 *    ring broken by a failed cable or switch is taken "the long way round"
 *    when the short way is blocked: the path heads for the switch where it
 *    turns into the next dimension by whichever way reaches it. When that
 *    turning switch is missing, the path goes the short way as far as it
 *    can and turns early into the next dimension (y, then z) that still
 *    has to be corrected; the turn back later is one DOR forbids.
 *    Parallel cables: each switch deals its routes to a port group round
 *    robin over the group's cables, CA LIDs and switch LIDs counted apart,
 *    destinations in switch index order, a switch's own LIDs before its CA
 *    ports', ports in order.
 * 3. Path SLs (torus_path_sl): bit d is set when the shortest way from the
 *    source switch's coordinate to the destination switch's in dimension d
 *    crosses the dateline (use_vl1), computed from coordinates only, so a
 *    failure never changes a path's SL. As OpenSM, mesh dimensions get the
 *    bit too (the way "round" is not there, the bit only picks a VL), unless
 *    the SL budget is too small for it. Bit 3 is the QoS level: the
 *    parameter level=1 puts every path SL on the second level (OpenSM takes
 *    it from the SL a path record query asks for).
 * 4. SL2VL (sl2vl_entry), by the port a packet leaves on and the one it
 *    came in by: VL bit 0 = SL bit d of the output port's dimension d (0 on
 *    a port to a CA or the switch itself); VL bit 1 for a turn from a
 *    higher dimension to a lower one (y-x, z-x, z-y, the turns DOR forbids);
 *    VL bit 2 = SL bit 3 (the QoS level). On a link to or from a CA (the
 *    switch's port to it, the CA's own injection map) only the QoS level
 *    matters, on VL bit 0 (OpenSM 3.3.23: endpoint links carry VLs 0-1).
 *    As in OpenSM, a bit is in the maps when the VL budget has room for it:
 *    2 VLs for bit 0 (and the CA links' QoS bit), 4 for bit 1, 8 for bit
 *    2. The routing needs bit 0 when a dimension wraps, bit 1 when a switch
 *    is missing, bit 2 with level=1; a smaller budget is refused naming the
 *    VLs needed.
 * 5. Failures routed or refused (routable_torus): in every ring (every
 *    line of switches along one dimension) the switches without a - cable
 *    must be as many as those without a + cable, and at most one: a ring
 *    broken in two places is refused, naming the ring and its broken
 *    cables. Missing switches must all lie in one column along the last
 *    dimension routed (z; y on a 2D torus), and when there are several they
 *    must be adjacent in it; else refused, naming them.
 *    A destination a switch cannot reach by these rules is refused too.
 *
 * Where this is not OpenSM:
 *  - Several missing switches adjacent in y on a 2D torus are routed, as the
 *    document's own 6x6 example does (S-n-q-I-u-D); OpenSM 3.3.23's check
 *    (rpt_torus_missing) accepts columns along z only and refuses it.
 *  - Every switch must find a place in the torus (OpenSM routes the torus
 *    part and ignores the rest); a switch or cable outside it is refused.
 *  - Parallel cables: OpenSM deals destinations in the order its torus
 *    discovery placed the switches; here in switch index order.
 *  - Without a config, an intact torus is recognised and a faulty one
 *    seeded by the engine (OpenSM always needs torus-2QoS.conf).
 *  - Multicast (the master spanning tree) is not computed: lanes routes
 *    unicast only.
 * Work: each worker owns a run of switches and writes only their LFT
 *    entries and path SLs, destinations in order, so the tables are the
 *    same for any thread count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "core/parallel.h"
#include "core/util.h"
#include "route/common/layers.h"
#include "route/common/params.h"
#include "route/common/tables.h"
#include "route/engines.h"
#include "route/torus2qos/torus2qos.h"

#define VL_LOOP 1u
#define VL_TURN 2u
#define VL_QOS 4u

/* ------------------------------------------------------------ parameters */

static int parse_word(void *ctx, const char *w, size_t len, struct lanes_error *err)
{
	struct t2q_params *p = ctx;

	if (len > 7 && !memcmp(w, "config=", 7)) {
		free(p->config);
		if (!(p->config = lanes_strndup(w + 7, len - 7)))
			return lanes_error_oom(err);
		return 0;
	}
	if (len == 7 && !memcmp(w, "level=", 6) && (w[6] == '0' || w[6] == '1')) {
		p->level = w[6] == '1';
		return 0;
	}
	return lanes_error_set(err, LANES_EINVAL, T2Q_ENGINE ": unknown parameter '%.*s' "
			       "(takes config=FILE, level=0|1)", (int)len, w);
}

const char *lanes_t2q_switch_name(const struct lanes_fabric *f, uint32_t sw, char *buf, size_t size)
{
	const struct lanes_node *n = &f->nodes[f->switches[sw]];

	snprintf(buf, size, "0x%016llx (\"%s\")", (unsigned long long)n->guid, n->desc);
	return buf;
}

/* ------------------------------------------------------------ routes */

/* +1 or -1: the shorter way from a to b on a ring of k (ring_dir_idx); 0 when a == b. */
static int ring_way(uint32_t a, uint32_t b, uint32_t k)
{
	uint32_t lo = a < b ? a : b, hi = a < b ? b : a, direct = hi - lo, around = lo + k - hi;

	if (a == b)
		return 0;
	if (b > a)
		return direct <= around ? 1 : -1;
	return direct <= around ? -1 : 1;
}

/* The shorter way crosses the dateline (use_vl1). */
static int crosses_dateline(uint32_t a, uint32_t b, uint32_t k)
{
	uint32_t lo = a < b ? a : b, hi = a < b ? b : a;

	return lo + k - hi < hi - lo;
}

/* Can sw reach coordinate b in dimension d going `way` without meeting a gap? */
static int reaches(const struct t2q *q, uint32_t sw, unsigned d, int way, uint32_t b)
{
	uint32_t a = lanes_t2q_coord(q, sw)[d], k = q->t.extent[d];
	uint32_t steps = way > 0 ? (b >= a ? b - a : b + k - a) : (a >= b ? a - b : a + k - b);

	return steps <= q->run[sw * T2Q_GROUPS + 2 * d + (way > 0)];
}

/* Toward the turning switch (sw's position, d from dst): the short way, else the long way. */
static int hop_path(const struct t2q *q, unsigned d, uint32_t sw, uint32_t dst, unsigned *g)
{
	const uint32_t *a = lanes_t2q_coord(q, sw), *b = lanes_t2q_coord(q, dst);
	uint32_t c[T2Q_DIMS] = { a[0], a[1], a[2] };
	int way = ring_way(a[d], b[d], q->t.extent[d]);

	c[d] = b[d];
	if (!way || q->t.at[c[0] + q->t.extent[0] * (c[1] + q->t.extent[1] * c[2])] == LANES_NONE)
		return 0;
	if (!reaches(q, sw, d, way, b[d]))
		way = -way;
	if (!reaches(q, sw, d, way, b[d]))
		return 0;
	*g = 2 * d + (way > 0);
	return 1;
}

/* The turning switch is missing: the short way, as long as there is a cable (next_hop_idx). */
static int hop_short(const struct t2q *q, unsigned d, uint32_t sw, uint32_t dst, unsigned *g)
{
	int way = ring_way(lanes_t2q_coord(q, sw)[d], lanes_t2q_coord(q, dst)[d], q->t.extent[d]);

	if (!way || !lanes_t2q_group_size(q, sw, 2 * d + (way > 0)))
		return 0;
	*g = 2 * d + (way > 0);
	return 1;
}

static int hop(const struct t2q *q, unsigned d, uint32_t sw, uint32_t dst, unsigned *g)
{
	const uint32_t *a = lanes_t2q_coord(q, sw), *b = lanes_t2q_coord(q, dst);
	uint32_t c[T2Q_DIMS] = { a[0], a[1], a[2] };

	c[d] = b[d];
	if (d < 2 && q->t.at[c[0] + q->t.extent[0] * (c[1] + q->t.extent[1] * c[2])] == LANES_NONE)
		return hop_short(q, d, sw, dst, g);
	return hop_path(q, d, sw, dst, g);
}

/* The port group from sw toward dst (lft_port): 1 with *g set, 0 when it cannot go on. */
static int next_group(const struct t2q *q, uint32_t sw, uint32_t dst, unsigned *g)
{
	const uint32_t *a = lanes_t2q_coord(q, sw), *b = lanes_t2q_coord(q, dst);

	for (unsigned d = 0; d < T2Q_DIMS; d++) {
		if (a[d] == b[d])
			continue;
		if (hop(q, d, sw, dst, g))
			return 1;
		/* no progress in d: turn early into a later dimension still to correct */
		for (unsigned e = d + 1; e < T2Q_DIMS; e++)
			if (a[e] != b[e] && hop(q, e, sw, dst, g))
				return 1;
		return 0;
	}
	return 0;
}

static uint8_t path_sl(const struct t2q *q, uint32_t src, uint32_t dst)
{
	const uint32_t *a = lanes_t2q_coord(q, src), *b = lanes_t2q_coord(q, dst);
	unsigned sl = (unsigned)q->params.level << T2Q_DIMS;

	for (unsigned d = 0; d < T2Q_DIMS; d++)
		sl |= ((unsigned)crosses_dateline(a[d], b[d], q->t.extent[d]) << d) & q->sl_bits;
	return (uint8_t)sl;
}

/* ------------------------------------------------------------ tables */

static void set_lids(struct t2q *q, uint32_t sw, uint32_t base, uint8_t lmc, uint8_t port,
		     uint8_t sl)
{
	for (uint32_t lid = base; lid < base + (1u << lmc) && lid <= q->f->max_lid; lid++) {
		lanes_routing_set_port(q->r, sw, lid, port);
		if (q->r->sl_mode != LANES_SL_UNIFORM)
			lanes_routing_set_sl(q->r, sw, lid, sl);
	}
}

/* Every LID of switch dst in sw's table: its own, then its CA ports' in port order. */
static int route_to(struct t2q *q, struct t2q_deal *deal, uint32_t sw, uint32_t dst)
{
	uint8_t sl = path_sl(q, sw, dst);
	uint32_t first = 0, n = 0;
	unsigned g = 0;

	if (sw != dst && q->endpoint_first[dst] != q->endpoint_first[dst + 1]) {
		if (!next_group(q, sw, dst, &g))
			return 0;
		first = q->group_first[sw * T2Q_GROUPS + g];
		n = q->group_first[sw * T2Q_GROUPS + g + 1] - first;
	}
	for (uint32_t i = q->endpoint_first[dst]; i < q->endpoint_first[dst + 1]; i++) {
		const struct t2q_endpoint *e = &q->endpoint[i];
		uint8_t port = e->port;

		if (sw != dst && !e->ca && !q->opts->switch_lids)
			continue; /* a switch LID: only its own switch answers it */
		if (sw != dst)
			port = q->group_port[first + (n == 1 ? 0 : deal->count[e->ca][g]++ % n)];
		set_lids(q, sw, e->base, e->lmc, port, sl);
	}
	return 1;
}

/* The LIDs that end at each switch: its own, then its CA ports' in port order. */
static int endpoints_init(struct t2q *q, struct lanes_error *err)
{
	const struct lanes_fabric *f = q->f;
	uint32_t n = 0;

	q->endpoint_first = malloc(((size_t)f->num_switches + 1) * sizeof(*q->endpoint_first));
	q->endpoint = malloc(((size_t)f->num_port_slots + 1) * sizeof(*q->endpoint));
	if (!q->endpoint_first || !q->endpoint)
		return lanes_error_oom(err);
	for (uint32_t sw = 0; sw < f->num_switches; sw++) {
		uint32_t node = f->switches[sw];
		const struct lanes_port *p0 = lanes_fabric_port(f, node, 0);

		q->endpoint_first[sw] = n;
		if (p0->lid)
			q->endpoint[n++] = (struct t2q_endpoint){ p0->lid, p0->lmc, 0, 0 };
		for (uint8_t port = 1; port <= f->nodes[node].nports; port++) {
			const struct lanes_port *p = lanes_fabric_port(f, node, port), *far;

			if (p->peer_node == LANES_NONE || f->nodes[p->peer_node].type == LANES_NODE_SWITCH)
				continue;
			far = lanes_fabric_port(f, p->peer_node, p->peer_port);
			if (far->lid)
				q->endpoint[n++] = (struct t2q_endpoint){ far->lid, far->lmc, port, 1 };
		}
	}
	q->endpoint_first[f->num_switches] = n;
	return 0;
}

/* Worker k: a run of switches, every destination in order (the LFT rows stay in cache). */
static void route_share(void *ctx, unsigned k)
{
	struct t2q *q = ctx;
	struct t2q_unroutable *bad = &q->unroutable[k];
	uint32_t n = q->f->num_switches, per = (n + q->num_workers - 1) / q->num_workers;
	uint32_t begin = k * per < n ? k * per : n, end = begin + per < n ? begin + per : n;

	bad->from = bad->to = LANES_NONE;
	for (uint32_t dst = 0; dst < n; dst++) {
		for (uint32_t sw = begin; sw < end; sw++)
			if (!route_to(q, &q->deal[sw], sw, dst) &&
			    (bad->from == LANES_NONE || sw < bad->from)) {
				bad->from = sw;
				bad->to = dst;
			}
		lanes_progress_add(q->opts->progress, end - begin);
	}
}

static int refuse_unroutable(const struct t2q *q, struct lanes_error *err)
{
	const struct t2q_unroutable *low = NULL;
	char n1[160], n2[160];

	for (unsigned k = 0; k < q->num_workers; k++)
		if (q->unroutable[k].from != LANES_NONE &&
		    (!low || q->unroutable[k].from < low->from))
			low = &q->unroutable[k];
	if (!low)
		return 0;
	return lanes_error_set(err, LANES_EREFUSED,
			       T2Q_ENGINE ": switch %s cannot reach switch %s by the torus-2QoS "
			       "rules around the failed switches and cables",
			       lanes_t2q_switch_name(q->f, low->from, n1, sizeof(n1)),
			       lanes_t2q_switch_name(q->f, low->to, n2, sizeof(n2)));
}

/* ------------------------------------------------------------ VLs */

/* The map for a packet in by a port of dimension in, out by one of dimension out (sl2vl_entry). */
static void port_map(const struct t2q *q, unsigned in, unsigned out, uint8_t map[LANES_NUM_SLS])
{
	for (unsigned sl = 0; sl < LANES_NUM_SLS; sl++) {
		unsigned vl = 0;

		if (out == T2Q_LOCAL) { /* to a CA (or from one): the QoS level on VL bit 0 */
			map[sl] = (uint8_t)((q->vl_bits & VL_LOOP) ? (sl >> T2Q_DIMS) & 1u : 0);
			continue;
		}
		if ((q->vl_bits & VL_LOOP) && out < T2Q_LOCAL)
			vl |= (sl >> out) & 1u;
		if ((q->vl_bits & VL_TURN) && in < T2Q_LOCAL && out < T2Q_LOCAL && in > out)
			vl |= 2u;
		if (q->vl_bits & VL_QOS)
			vl |= ((sl >> T2Q_DIMS) & 1u) << 2;
		map[sl] = (uint8_t)vl;
	}
}

static void set_switch_maps(struct t2q *q, uint32_t sw,
			    const uint16_t index[T2Q_LOCAL + 1][T2Q_LOCAL + 1])
{
	const struct lanes_fabric *f = q->f;
	const struct lanes_node *n = &f->nodes[f->switches[sw]];

	for (uint8_t in = 0; in <= n->nports; in++)
		for (uint8_t out = 0; out <= n->nports; out++)
			lanes_routing_set_switch_map(q->r, f, sw, in, out,
						     index[q->dim_of_port[n->port_base + in]]
							  [q->dim_of_port[n->port_base + out]]);
}

static int set_vls(struct t2q *q, struct lanes_error *err)
{
	const struct lanes_fabric *f = q->f;
	uint16_t index[T2Q_LOCAL + 1][T2Q_LOCAL + 1];
	int rc;

	if (!q->vl_bits)
		return 0;
	if ((rc = lanes_routing_enable_sl2vl(q->r, f, err)))
		return rc;
	for (unsigned in = 0; in <= T2Q_LOCAL; in++)
		for (unsigned out = 0; out <= T2Q_LOCAL; out++) {
			uint8_t map[LANES_NUM_SLS];

			port_map(q, in, out, map);
			if ((rc = lanes_routing_add_map(q->r, map, &index[in][out], err)))
				return rc;
		}
	for (uint32_t sw = 0; sw < f->num_switches; sw++)
		set_switch_maps(q, sw, (const uint16_t(*)[T2Q_LOCAL + 1])index);
	for (uint32_t node = 0; node < f->num_nodes; node++) /* CAs and routers: the QoS bit only */
		if (f->nodes[node].type != LANES_NODE_SWITCH)
			for (uint8_t port = 1; port <= f->nodes[node].nports; port++)
				lanes_routing_set_port_map(q->r, f, node, port, index[T2Q_LOCAL][T2Q_LOCAL]);
	return 0;
}

/* ------------------------------------------------------------ setup */

/* The VL bits the routing needs, and those the budget holds (as OpenSM's data VLs). */
static int choose_vl_bits(struct t2q *q, struct lanes_error *err)
{
	unsigned need = 0, need_vls;

	for (unsigned d = 0; d < T2Q_DIMS; d++)
		if (!q->t.mesh[d])
			need |= VL_LOOP;
	if (q->num_missing)
		need |= VL_TURN;
	if (q->params.level)
		need |= VL_QOS;
	need_vls = need & VL_QOS ? 8 : need & VL_TURN ? 4 : need & VL_LOOP ? 2 : 1;
	q->vls_needed = need_vls;
	if (q->opts->max_vls < need_vls)
		return lanes_error_set(err, LANES_ERANGE,
				       T2Q_ENGINE ": needs %u VLs (%s%s%s), the budget is %u (vls %u)",
				       need_vls, need & VL_LOOP ? "2 for the datelines" : "1",
				       need & VL_TURN ? ", x2 for the turns around a missing switch" : "",
				       need & VL_QOS ? ", x2 for the QoS level" : "",
				       q->opts->max_vls, q->opts->max_vls);
	q->vl_bits = (q->opts->max_vls >= 2 ? VL_LOOP : 0) | (q->opts->max_vls >= 4 ? VL_TURN : 0) |
		     (q->opts->max_vls >= 8 ? VL_QOS : 0);
	return 0;
}

/*
 * The path SL bits: as OpenSM, one per dimension where a shortest way can
 * wrap (extent 3 and more), meshes included. When the SL budget cannot hold
 * those of mesh dimensions, which break no cycle, they are left out; a
 * budget too small for the torus dimensions' bits is refused.
 */
static int choose_sl_bits(struct t2q *q, struct lanes_error *err)
{
	unsigned level = (unsigned)q->params.level << T2Q_DIMS, all = 0, rings = 0;

	for (unsigned d = 0; d < T2Q_DIMS; d++) {
		all |= q->t.extent[d] >= 3 ? 1u << d : 0;
		rings |= q->t.extent[d] >= 3 && !q->t.mesh[d] ? 1u << d : 0;
	}
	q->sl_bits = (level | all) + 1 <= q->opts->max_sls ? all : rings;
	if ((level | q->sl_bits) + 1 > q->opts->max_sls)
		return lanes_error_set(err, LANES_ERANGE,
				       T2Q_ENGINE ": needs %u SLs (bit d of the path SL for the dateline "
				       "of dimension d%s), the budget is %u (sls %u)",
				       (level | rings) + 1, q->params.level ? ", bit 3 for the QoS level" : "",
				       q->opts->max_sls, q->opts->max_sls);
	return 0;
}

static int place(struct t2q *q, struct lanes_error *err)
{
	struct t2q_config config;
	int rc;

	if (!q->params.config) {
		struct lanes_error why;

		lanes_error_clear(&why);
		if ((rc = lanes_t2q_place_recognized(q->f, &q->t, err)) != LANES_EREFUSED)
			return rc;
		lanes_t2q_torus_free(&q->t);
		if (!(rc = lanes_t2q_place_auto(q->f, &q->t, &why)) || rc == LANES_ENOMEM)
			return rc ? lanes_error_oom(err) : 0;
		return LANES_EREFUSED; /* recognition's reason, in err */
	}
	if ((rc = lanes_t2q_config_read(q->params.config, &config, err)))
		return rc;
	return lanes_t2q_place_config(q->f, &config, &q->t, err);
}

static int set_notes(struct t2q *q, struct lanes_error *err)
{
	q->r->notes = lanes_aprintf(T2Q_ENGINE ": OpenSM torus-2QoS on the %ux%ux%u %s%s, %u switch%s "
				    "missing; DOR x-y-z, dateline bits in the path SL (QoS level %d), "
				    "SL2VL by the output port's direction (VL bits %s as the budget "
				    "allows, as OpenSM's maps); %u VLs needed; deadlock-free",
				    q->t.extent[0], q->t.extent[1], q->t.extent[2],
				    q->t.mesh[0] && q->t.mesh[1] && q->t.mesh[2] ? "mesh" : "torus",
				    q->params.config ? " (from the config file)" : "", q->num_missing,
				    q->num_missing == 1 ? "" : "es", q->params.level,
				    q->vl_bits == 7 ? "0-2" : q->vl_bits == 3 ? "0-1" : q->vl_bits ? "0" : "none",
				    q->vls_needed);
	return q->r->notes ? 0 : lanes_error_oom(err);
}

static int prepare(struct t2q *q, struct lanes_error *err)
{
	int rc;

	if ((rc = lanes_route_each_param(q->opts->params, parse_word, &q->params, err)) ||
	    (rc = place(q, err)) || (rc = lanes_t2q_check_missing(q, err)) ||
	    (rc = lanes_t2q_groups_init(q, err)) || (rc = lanes_t2q_check_rings(q, err)) ||
	    (rc = choose_vl_bits(q, err)) || (rc = choose_sl_bits(q, err)) ||
	    (rc = lanes_t2q_runs_init(q, err)) || (rc = endpoints_init(q, err)))
		return rc;
	q->num_workers = lanes_route_destination_workers(q->opts, q->f->num_switches);
	q->deal = calloc((size_t)q->f->num_switches + 1, sizeof(*q->deal));
	if (!(q->unroutable = calloc(q->num_workers, sizeof(*q->unroutable))) || !q->deal)
		return lanes_error_oom(err);
	if ((rc = lanes_routing_new_parallel(q->f, q->num_workers, &q->r, err)))
		return rc;
	if ((rc = lanes_routing_set_sl_mode(q->r, LANES_SL_PER_SRC_SWITCH, err)))
		return rc;
	return set_notes(q, err);
}

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	struct t2q q;
	int rc;

	memset(&q, 0, sizeof(q));
	q.f = f;
	q.opts = opts;
	*out = NULL;
	if ((rc = prepare(&q, err)))
		goto out;
	lanes_progress_phase(opts->progress, "routing", (uint64_t)f->num_switches * f->num_switches);
	lanes_parallel_run(q.num_workers, route_share, &q);
	if ((rc = refuse_unroutable(&q, err)) || (rc = set_vls(&q, err)))
		goto out;
	lanes_routing_count_resources(q.r);
	if (q.r->num_vls > q.vls_needed)
		q.r->vls_needed = (uint8_t)q.vls_needed;
	*out = q.r;
	q.r = NULL;
out:
	free(q.params.config);
	free(q.group_first);
	free(q.group_port);
	free(q.dim_of_port);
	free(q.run);
	free(q.unroutable);
	free(q.deal);
	free(q.endpoint_first);
	free(q.endpoint);
	lanes_t2q_torus_free(&q.t);
	lanes_routing_free(q.r);
	return rc;
}

const struct lanes_engine lanes_engine_torus2qos = {
	.name = T2Q_ENGINE,
	.summary = "OpenSM's torus-2QoS: DOR on 2D/3D tori with dateline SLs, two QoS levels, "
		   "routing around a failed switch or failed cables",
	.scope = "2D/3D tori and meshes (from recognition or an OpenSM torus-2QoS.conf)",
	.resources = "2 VLs and 2^n SLs per QoS level; 4 VLs around a missing switch",
	.source = "OpenSM 3.3.23 torus-2QoS (doc/current-routing.txt); opensm/osm_torus.c",
	.flags = LANES_ENGINE_DEADLOCK_FREE | LANES_ENGINE_USES_SLS | LANES_ENGINE_USES_VLS,
	.params_usage = "config=FILE (OpenSM torus-2QoS.conf), level=0|1 (QoS level of the path SLs)",
	.route = route,
};
