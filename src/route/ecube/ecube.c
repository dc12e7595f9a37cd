/*
 * ecube.c - e-cube (dimension-order) routing on tori and meshes with the
 * service levels and virtual lanes of Sancho, Robles, Lopez, Flich and
 * Duato, "Routing in InfiniBand torus network topologies" (ICPP 2003),
 * Sec. 2, after Dally and Seitz, "Deadlock-free message routing in
 * multiprocessor interconnection networks" (IEEE Trans. Computers 36(5),
 * 1987).
 *
 * 1. Structure: lanes_recognize_torus() gives every switch its coordinates
 *    and says which dimensions wrap around. A fabric it refuses, this
 *    engine refuses with its reason (LANES_EREFUSED). A ring of 4 comes
 *    back as two dimensions of extent 2 (the graphs are the same); with the
 *    parameter rings4=1 the engine pairs such dimensions, in order, into
 *    rings of 4 (coordinates (0,0) (1,0) (1,1) (0,1) around the ring), which
 *    is how the paper treats its 4x4 and 4x4x4 tori.
 * 2. Routes: "a packet ... will be routed through the physical channel
 *    belonging to the dimension i, where i is the position of the most
 *    significant digit in which addresses n_c and n_d differ": dimensions
 *    in decreasing order, each on the shorter way round a ring (the paper
 *    routes minimally; on a tie, half way round an even ring, we go up),
 *    straight along a path. Parallel cables: LID mod their number picks
 *    one, in port order.
 * 3. VLs (Dally and Seitz, as the paper's Figure 1 shows on a 1x7 torus):
 *    in a dimension that wraps, a packet uses VL 1 while its destination's
 *    coordinate is above the current one and VL 0 otherwise, so the cycle
 *    of VL 1 channels is broken before the wraparound channel going up and
 *    that of VL 0 after it going down. Dimensions that do not wrap use
 *    VL 0. Decreasing dimension order keeps the dimensions acyclic.
 * 4. SLs (the paper's Table 1): a switch sees the SL, the in and out port,
 *    never the destination, so the SL says for each wrapping dimension
 *    whether the path crosses its wraparound channel. With w wrapping
 *    dimensions that is 2^w SLs; the dimension routed first is the lowest
 *    bit (Table 1: SL1 wraps in dimension 1, SL2 in dimension 0). A
 *    switch knows which side of the wraparound a crossing packet is on from
 *    its own coordinate: a minimal path that crosses going up starts in the
 *    upper half of the ring and ends in the lower (and going down the
 *    other way round), so at coordinate c the packet has crossed when
 *    2c < k going up, and not yet when 2c < k going down. Its SL2VL maps
 *    depend on the out port and its own coordinate only.
 *    Path SLs are per (source switch, destination LID); needs 2 VLs when a
 *    dimension wraps (else 1) and 2^w SLs, refused naming them when the
 *    budget is smaller.
 *
 * Where the paper is silent, decided here: the tie direction, parallel
 * cables, VL 0 in dimensions without wraparound, LMC (every LID of a port
 * routed alike), switch LIDs routed like CA LIDs.
 *
 * With balance=N (N >= 1 rounds) the ties and the parallel cables are left
 * to the balancing selection of route/common/balance.c, our reconstruction
 * of the traffic balancing of the paper's ref. [18] (Sancho and Robles,
 * Euro-Par 2000), which Sec. 5 applies to e-cube too: every switch's
 * candidates are the cables of its e-cube direction, both directions on a
 * tie; one tree per destination switch, destinations in index order on one
 * thread. The path SLs then come from walking each chosen path (which
 * wraparound channels it crosses); the SL2VL maps are the same, as the VL
 * rule holds for both directions of a tie.
 *
 * Work: per destination switch, every switch's next port; destination
 * switches are split among the workers (opts->threads), each writing only
 * its own LIDs' entries and SLs, so the tables are the same for any number
 * of threads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "core/parallel.h"
#include "core/util.h"
#include "lanes/recognize.h"
#include "route/common/balance.h"
#include "route/common/layers.h"
#include "route/common/lids.h"
#include "route/common/params.h"
#include "route/common/tables.h"
#include "route/engines.h"

#define ENGINE "ecube"
#define UP 0
#define DOWN 1

struct ecube {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	struct lanes_routing *r;
	struct lanes_structure s;  /* the torus view, rings of 4 paired on request */
	uint32_t wraps;            /* dimensions that wrap around */
	uint8_t sl_bit[LANES_STRUCTURE_MAX_DIMS]; /* per wrapping dimension: its bit of the SL */
	/* per (switch, dimension, direction): its cables' ports, in port order */
	uint32_t *port_first;      /* (num_switches * D * 2) + 1 offsets */
	uint8_t *port;
	struct route_switch_lids lids; /* the LIDs that end at each switch */
	unsigned num_workers;
	uint32_t balance_rounds;   /* balance=N; 0: the parity rule on ties */
	/* balance=N: the candidates toward one destination switch */
	uint32_t *rank, *first, *entry;
};

static const uint32_t *coord_of(const struct ecube *e, uint32_t sw)
{
	return e->s.coord + (size_t)sw * e->s.num_dims;
}

/* ------------------------------------------------------------ structure */

struct ecube_params {
	int rings4;
	uint32_t balance_rounds;
};

/* One word of the engine's parameters: rings4=0|1, balance=N. */
static int parse_word(void *ctx, const char *w, size_t len, struct lanes_error *err)
{
	struct ecube_params *p = ctx;
	int rc;

	if (len == 8 && !memcmp(w, "rings4=", 7) && (w[7] == '0' || w[7] == '1')) {
		p->rings4 = w[7] == '1';
		return 0;
	}
	if ((rc = lanes_route_balance_param(ENGINE, w, len, &p->balance_rounds, err)))
		return rc < 0 ? rc : 0;
	return lanes_error_set(err, LANES_EINVAL, ENGINE ": unknown parameter '%.*s' "
			       "(takes rings4=0|1, balance=N)", (int)len, w);
}

static int parse_params(const char *params, struct ecube_params *p, struct lanes_error *err)
{
	memset(p, 0, sizeof(*p));
	return lanes_route_each_param(params, parse_word, p, err);
}

static int recognise(struct ecube *e, struct lanes_error *err)
{
	struct lanes_error why;
	struct ecube_params p;
	int rc;

	if ((rc = parse_params(e->opts->params, &p, err)))
		return rc;
	e->balance_rounds = p.balance_rounds;
	lanes_error_clear(&why);
	if ((rc = lanes_recognize_torus(e->f, &e->s, &why)))
		return rc == LANES_EINVAL ? lanes_error_set(err, LANES_EREFUSED, ENGINE ": %s",
							    why.message)
					  : lanes_error_set(err, rc, "%s", why.message);
	if (p.rings4)
		lanes_structure_pair_rings4(&e->s);
	/* SL bits in routing order: the highest wrapping dimension is bit 0 */
	for (uint32_t d = e->s.num_dims; d-- > 0;)
		if (e->s.wrap[d])
			e->sl_bit[d] = (uint8_t)e->wraps++;
	return 0;
}

/* ------------------------------------------------------------ cables and LIDs */

/* The dimension and direction of the cable from u to v (one step in one dimension). */
static uint32_t cable_slot(const struct ecube *e, uint32_t u, uint32_t v)
{
	const uint32_t *a = coord_of(e, u), *b = coord_of(e, v), D = e->s.num_dims;

	for (uint32_t d = 0; d < D; d++)
		if (a[d] != b[d]) {
			int up = e->s.wrap[d] ? b[d] == (a[d] + 1) % e->s.extent[d] : b[d] > a[d];

			return ((uint32_t)u * D + d) * 2 + (up ? UP : DOWN);
		}
	return LANES_NONE; /* the recogniser checked every cable: not reached */
}

static int cables_init(struct ecube *e, struct lanes_error *err)
{
	const struct lanes_fabric *f = e->f;
	uint32_t n = f->num_switches, slots = n * e->s.num_dims * 2, *fill;

	e->port_first = calloc((size_t)slots + 2, sizeof(*e->port_first));
	e->port = malloc((size_t)f->adj_off[n] + 1);
	fill = malloc(((size_t)slots + 1) * sizeof(*fill));
	if (!e->port_first || !e->port || !fill) {
		free(fill);
		return lanes_error_oom(err);
	}
	for (uint32_t u = 0; u < n; u++)
		for (uint32_t k = f->adj_off[u]; k < f->adj_off[u + 1]; k++)
			if (f->adj[k].sw != u)
				e->port_first[cable_slot(e, u, f->adj[k].sw) + 1]++;
	for (uint32_t i = 0; i < slots; i++)
		e->port_first[i + 1] += e->port_first[i];
	memcpy(fill, e->port_first, (size_t)slots * sizeof(*fill));
	/* adj lists are in port order within a switch, so each slot's ports are too */
	for (uint32_t u = 0; u < n; u++)
		for (uint32_t k = f->adj_off[u]; k < f->adj_off[u + 1]; k++)
			if (f->adj[k].sw != u)
				e->port[fill[cable_slot(e, u, f->adj[k].sw)]++] = f->adj[k].port;
	free(fill);
	return 0;
}

/* ------------------------------------------------------------ routes and SLs */

/* The way from coordinate a to b in dimension d: UP or DOWN (the shorter; up on a tie). */
static int way(const struct ecube *e, uint32_t d, uint32_t a, uint32_t b)
{
	uint32_t k = e->s.extent[d], up = (b + k - a) % k;

	if (!e->s.wrap[d])
		return b > a ? UP : DOWN;
	if (2 * up == k)
		return a % 2 ? DOWN : UP;
	return 2 * up < k ? UP : DOWN;
}

/* The next port from switch x toward switch t (x != t) for LID lid. */
static uint8_t next_port(const struct ecube *e, uint32_t x, uint32_t t, uint32_t lid)
{
	const uint32_t *a = coord_of(e, x), *b = coord_of(e, t), D = e->s.num_dims;
	uint32_t d = D - 1, slot, count;

	while (a[d] == b[d])
		d--; /* x != t: some dimension differs */
	slot = ((uint32_t)x * D + d) * 2 + (uint32_t)way(e, d, a[d], b[d]);
	count = e->port_first[slot + 1] - e->port_first[slot];
	return e->port[e->port_first[slot] + lid % count];
}

/* The SL of the paths from switch x to switch t: a bit per wraparound crossed. */
static uint8_t path_sl(const struct ecube *e, uint32_t x, uint32_t t)
{
	const uint32_t *a = coord_of(e, x), *b = coord_of(e, t);
	uint8_t sl = 0;

	for (uint32_t d = 0; d < e->s.num_dims; d++) {
		int w = way(e, d, a[d], b[d]);

		if (e->s.wrap[d] && a[d] != b[d] && (w == UP ? b[d] < a[d] : b[d] > a[d]))
			sl |= (uint8_t)(1u << e->sl_bit[d]);
	}
	return sl;
}

static void route_destination(struct ecube *e, uint32_t t)
{
	const struct lanes_fabric *f = e->f;

	for (uint32_t i = e->lids.first[t]; i < e->lids.first[t + 1]; i++) {
		uint32_t lid = e->lids.lid[i];
		uint8_t port_at_t = 0;

		lanes_fabric_lid_switch_port(f, lid, &port_at_t);
		if (f->nodes[f->lid_owner[lid].node].type == LANES_NODE_SWITCH && !e->opts->switch_lids) {
			lanes_routing_set_port(e->r, t, lid, 0);
			continue;
		}
		for (uint32_t x = 0; x < f->num_switches; x++) {
			lanes_routing_set_port(e->r, x, lid, x == t ? port_at_t : next_port(e, x, t, lid));
			if (e->wraps) /* else one SL for all: nothing per path to set */
				lanes_routing_set_sl(e->r, x, lid, x == t ? 0 : path_sl(e, x, t));
		}
	}
}

/* Worker k: destination switches k, k + workers, ...; a unit of progress each. */
static void route_share(void *ctx, unsigned k)
{
	struct ecube *e = ctx;

	for (uint32_t t = k; t < e->f->num_switches; t += e->num_workers) {
		route_destination(e, t);
		lanes_progress_add(e->opts->progress, 1);
	}
}

/* ------------------------------------------------------------ balance=N */

/* Hops of the e-cube route from x to t: the shorter way round each ring, straight along a path. */
static uint32_t ecube_hops(const struct ecube *e, uint32_t x, uint32_t t)
{
	const uint32_t *a = coord_of(e, x), *b = coord_of(e, t);
	uint32_t hops = 0;

	for (uint32_t d = 0; d < e->s.num_dims; d++) {
		uint32_t k = e->s.extent[d], up = (b[d] + k - a[d]) % k;

		if (e->s.wrap[d])
			hops += up < k - up ? up : k - up;
		else
			hops += a[d] > b[d] ? a[d] - b[d] : b[d] - a[d];
	}
	return hops;
}

/* The cables of (x, slot) appended to e->entry at *k, as adjacency entries. */
static void add_cables(struct ecube *e, uint32_t x, uint32_t slot, uint32_t *k)
{
	for (uint32_t p = e->port_first[slot]; p < e->port_first[slot + 1]; p++)
		e->entry[(*k)++] = lanes_route_balance_entry(e->f, x, e->port[p]);
}

/* route_balance_candidates_fn: every switch's e-cube cables toward t, both ways on a tie. */
static int balance_candidates(void *ctx, uint32_t t, const struct route_balance *balance,
			      struct route_balance_tree *out, struct lanes_error *err)
{
	struct ecube *e = ctx;
	const uint32_t *b = coord_of(e, t), D = e->s.num_dims;
	uint32_t k = 0;

	(void)err;
	(void)balance;
	for (uint32_t x = 0; x < e->f->num_switches; x++) {
		const uint32_t *a = coord_of(e, x);
		uint32_t d = D - 1, ext, slot;

		e->rank[x] = ecube_hops(e, x, t);
		e->first[x] = k;
		if (x == t)
			continue;
		while (a[d] == b[d])
			d--;
		ext = e->s.extent[d];
		slot = (x * D + d) * 2;
		if (e->s.wrap[d] && 2 * ((b[d] + ext - a[d]) % ext) == ext) {
			add_cables(e, x, slot + UP, &k);
			add_cables(e, x, slot + DOWN, &k);
		} else {
			add_cables(e, x, slot + (uint32_t)way(e, d, a[d], b[d]), &k);
		}
	}
	e->first[e->f->num_switches] = k;
	out->dest = t;
	out->rank = e->rank;
	out->first = e->first;
	out->entry = e->entry;
	out->source = NULL;
	return 0;
}

/* The SL of the routed path from x to t for lid: a bit per wraparound channel it crosses. */
static uint8_t walked_sl(const struct ecube *e, uint32_t x, uint32_t t, uint32_t lid)
{
	const struct lanes_fabric *f = e->f;
	uint32_t D = e->s.num_dims;
	uint8_t sl = 0;

	for (uint32_t steps = 0; x != t && steps < f->num_switches; steps++) {
		uint32_t entry = lanes_route_balance_entry(f, x, lanes_routing_port(e->r, x, lid));
		uint32_t y, slot, d;

		if (entry == LANES_NONE)
			break; /* not reached: every switch routes every destination */
		y = f->adj[entry].sw;
		slot = cable_slot(e, x, y);
		d = (slot / 2) % D;
		if (e->s.wrap[d] && coord_of(e, x)[d] == (slot % 2 == UP ? e->s.extent[d] - 1 : 0))
			sl |= (uint8_t)(1u << e->sl_bit[d]);
		x = y;
	}
	return sl;
}

/*
 * balance=N: path SLs of every LID routed through the fabric, from the
 * routes chosen. Progress: phase "path SLs", a unit per destination switch.
 */
static void set_walked_sls(struct ecube *e)
{
	const struct lanes_fabric *f = e->f;

	lanes_progress_phase(e->opts->progress, "path SLs", f->num_switches);
	for (uint32_t t = 0; t < f->num_switches; t++) {
		for (uint32_t i = e->lids.first[t]; i < e->lids.first[t + 1]; i++) {
			uint32_t lid = e->lids.lid[i];

			if (f->nodes[f->lid_owner[lid].node].type == LANES_NODE_SWITCH &&
			    !e->opts->switch_lids)
				continue;
			for (uint32_t x = 0; x < f->num_switches; x++)
				lanes_routing_set_sl(e->r, x, lid, x == t ? 0 : walked_sl(e, x, t, lid));
		}
		lanes_progress_add(e->opts->progress, 1);
	}
}

static int route_balanced(struct ecube *e, struct lanes_error *err)
{
	const struct lanes_fabric *f = e->f;
	int rc;

	e->rank = malloc(((size_t)f->num_switches + 1) * sizeof(*e->rank));
	e->first = malloc(((size_t)f->num_switches + 1) * sizeof(*e->first));
	e->entry = malloc(((size_t)f->adj_off[f->num_switches] + 1) * sizeof(*e->entry));
	if (!e->rank || !e->first || !e->entry)
		return lanes_error_oom(err);
	if ((rc = lanes_route_balanced_tables(f, e->opts, e->balance_rounds, balance_candidates, e,
					      e->r, err)))
		return rc;
	if (e->wraps)
		set_walked_sls(e);
	return 0;
}

/* ------------------------------------------------------------ VLs */

/*
 * The SL2VL map of an out port of switch x in dimension d going `dir`:
 * VL 1 where the destination's coordinate is above x's (Dally and Seitz).
 * Without the wraparound bit that is every packet going up; with it, a
 * packet going up has crossed when 2c < k, one going down has not yet.
 */
static void port_map(const struct ecube *e, uint32_t x, uint32_t d, int dir,
		     uint8_t map[LANES_NUM_SLS])
{
	uint32_t c = coord_of(e, x)[d], k = e->s.extent[d];
	int low_half = 2 * c < k;

	for (uint32_t sl = 0; sl < LANES_NUM_SLS; sl++) {
		int crosses = (sl >> e->sl_bit[d]) & 1;

		map[sl] = !e->s.wrap[d] ? 0 : !crosses ? dir == UP : (uint8_t)low_half;
	}
}

static int set_vls(struct ecube *e, struct lanes_error *err)
{
	const struct lanes_fabric *f = e->f;
	uint32_t D = e->s.num_dims;
	int rc;

	if (!e->wraps)
		return 0; /* every hop on VL 0 */
	if ((rc = lanes_routing_enable_sl2vl(e->r, f, err)))
		return rc;
	for (uint32_t x = 0; x < f->num_switches; x++)
		for (uint32_t d = 0; d < D; d++)
			for (int dir = UP; dir <= DOWN; dir++) {
				uint32_t slot = (x * D + d) * 2 + (uint32_t)dir;
				uint8_t map[LANES_NUM_SLS];
				uint16_t index;

				port_map(e, x, d, dir, map);
				if ((rc = lanes_routing_add_map(e->r, map, &index, err)))
					return rc;
				for (uint32_t p = e->port_first[slot]; p < e->port_first[slot + 1]; p++)
					for (uint8_t in = 0; in <= f->nodes[f->switches[x]].nports; in++)
						lanes_routing_set_switch_map(e->r, f, x, in, e->port[p], index);
			}
	return 0;
}

/* ------------------------------------------------------------ setup */

static int check_budget(const struct ecube *e, struct lanes_error *err)
{
	uint32_t sls = 1u << e->wraps;

	if (e->wraps && e->opts->max_vls < 2)
		return lanes_route_over_budget(err, ENGINE, 2, 15, e->opts);
	if (e->wraps > 4 || sls > e->opts->max_sls)
		return lanes_error_set(err, LANES_ERANGE,
				       ENGINE ": needs %u SLs (2^%u, one per set of wrapping "
				       "dimensions a path crosses), the budget is %u (sls %u)",
				       sls, e->wraps, e->opts->max_sls, e->opts->max_sls);
	return 0;
}

static int set_notes(struct ecube *e, struct lanes_error *err)
{
	char dims[LANES_STRUCTURE_MAX_DIMS * 12] = "";
	size_t len = 0;

	for (uint32_t d = 0; d < e->s.num_dims; d++)
		len += (size_t)snprintf(dims + len, sizeof(dims) - len, "%s%u%s", d ? "x" : "",
					e->s.extent[d], e->s.wrap[d] ? "" : "(mesh)");
	e->r->notes = lanes_aprintf(ENGINE ": dimension order on the %s torus, highest dimension "
				    "first; %u SLs by the wraparounds a path crosses, %u VLs; "
				    "deadlock-free", dims, 1u << e->wraps, e->wraps ? 2 : 1);
	return e->r->notes ? 0 : lanes_error_oom(err);
}

static int prepare(struct ecube *e, struct lanes_error *err)
{
	int rc;

	if ((rc = recognise(e, err)) || (rc = check_budget(e, err)) || (rc = cables_init(e, err)) ||
	    (rc = lanes_route_switch_lids_init(&e->lids, e->f, err)))
		return rc;
	e->num_workers = lanes_route_destination_workers(e->opts, e->f->num_switches);
	if ((rc = lanes_routing_new_parallel(e->f, e->num_workers, &e->r, err)))
		return rc;
	if (e->wraps && (rc = lanes_routing_set_sl_mode(e->r, LANES_SL_PER_SRC_SWITCH, err)))
		return rc;
	return set_notes(e, err);
}

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	struct ecube e;
	int rc;

	memset(&e, 0, sizeof(e));
	e.f = f;
	e.opts = opts;
	*out = NULL;
	if ((rc = prepare(&e, err)))
		goto out;
	if (e.balance_rounds) {
		rc = route_balanced(&e, err); /* balance.c counts its rounds */
	} else {
		lanes_progress_phase(opts->progress, "routing", f->num_switches);
		lanes_parallel_run(e.num_workers, route_share, &e);
	}
	if (rc || (rc = set_vls(&e, err)))
		goto out;
	lanes_routing_count_resources(e.r);
	*out = e.r;
	e.r = NULL;
out:
	free(e.port_first);
	free(e.port);
	free(e.rank);
	free(e.first);
	free(e.entry);
	lanes_route_switch_lids_free(&e.lids);
	lanes_structure_free(&e.s);
	lanes_routing_free(e.r);
	return rc;
}

const struct lanes_engine lanes_engine_ecube = {
	.name = ENGINE,
	.summary = "e-cube dimension order on tori and meshes, wraparound SLs and dateline VLs",
	.scope = "tori and meshes",
	.resources = "2^n SLs for n wrapping dimensions, 2 VLs (1 SL, 1 VL on a mesh)",
	.source = "Sancho, Robles, Lopez, Flich, Duato, Routing in InfiniBand torus network "
		  "topologies, ICPP 2003, Sec. 2; Dally and Seitz 1987",
	.flags = LANES_ENGINE_DEADLOCK_FREE | LANES_ENGINE_USES_VLS,
	.params_usage = "rings4=0|1,balance=N",
	.route = route,
};
