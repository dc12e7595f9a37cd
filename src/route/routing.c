/*
 * routing.c - allocating a routing and reading and writing its SLs and
 * SL2VL maps (the data model of lanes/routing.h).
 *
 * Invariants: map 0 of the pool is all VL 0; a routing without SL2VL index
 * arrays means map 0 everywhere; the SL2VL index arrays share one block,
 * headed by sl2vl_sw_off; the SL array, when present, is sized for its mode.
 */
#include "lanes/routing.h"

#include <stdlib.h>
#include <string.h>

#include "route/common/layers.h"
#include "route/common/tables.h"
#include "core/parallel.h"
#include "core/util.h"

static const uint8_t zero_map[LANES_NUM_SLS];

/* Job k of n: "drop" into the k-th of n equal runs of the LFT block. */
struct drop_runs {
	struct lanes_routing *r;
	size_t cells;
	unsigned n;
};

static void drop_run(void *ctx, unsigned k)
{
	const struct drop_runs *d = ctx;
	size_t first = d->cells * k / d->n, end = d->cells * (k + 1) / d->n;

	memset(d->r->lft + first, LANES_PORT_DROP, end - first);
}

int lanes_routing_new_parallel(const struct lanes_fabric *f, unsigned workers,
			       struct lanes_routing **out, struct lanes_error *err)
{
	struct lanes_routing *r = calloc(1, sizeof(*r));
	size_t cells = ((size_t)f->max_lid + 1) * (f->num_switches ? f->num_switches : 1);
	struct drop_runs runs = { r, cells, workers ? workers : 1 };

	*out = NULL;
	if (!r)
		return lanes_error_oom(err);
	r->num_switches = f->num_switches;
	r->num_lids = f->max_lid + 1;
	r->lft = malloc(cells);
	r->sl2vl_maps = calloc(1, sizeof(*r->sl2vl_maps));
	if (!r->lft || !r->sl2vl_maps) {
		lanes_routing_free(r);
		return lanes_error_set(err, LANES_ENOMEM,
				       "out of memory for the LFTs (%zu MB)", cells >> 20);
	}
	lanes_parallel_run(runs.n, drop_run, &runs);
	r->num_sl2vl_maps = 1;
	r->num_vls = r->vls_needed = 1;
	r->num_sls = r->sls_needed = 1;
	*out = r;
	return 0;
}

int lanes_routing_new(const struct lanes_fabric *f, struct lanes_routing **out,
		      struct lanes_error *err)
{
	return lanes_routing_new_parallel(f, 1, out, err);
}

void lanes_routing_free(struct lanes_routing *r)
{
	if (!r)
		return;
	free(r->lft);
	free(r->sl);
	free(r->sl2vl_maps);
	free(r->sl2vl_sw_off); /* and sl2vl_port and sl2vl_sw, in its block */
	free(r->notes);
	free(r->warnings);
	free(r);
}

int lanes_routing_check(const struct lanes_fabric *f, const struct lanes_routing *r,
			struct lanes_error *err)
{
	if (r->num_switches != f->num_switches || r->num_lids != f->max_lid + 1)
		return lanes_error_set(err, LANES_EINVAL,
				       "the routing was made for another fabric (%u switches, %u LIDs)",
				       r->num_switches, r->num_lids - 1);
	return 0;
}

size_t lanes_routing_sl_cells(const struct lanes_routing *r, int mode)
{
	switch (mode) {
	case LANES_SL_PER_DST:
		return r->num_lids;
	case LANES_SL_PER_SRC_SWITCH:
		return (size_t)r->num_lids * r->num_switches;
	case LANES_SL_PER_PAIR:
		return (size_t)r->num_lids * r->num_lids;
	default:
		return 1;
	}
}

void lanes_routing_reset_sls(struct lanes_routing *r)
{
	free(r->sl);
	r->sl = NULL;
	r->sl_mode = LANES_SL_UNIFORM;
	r->sl_uniform = 0;
}

/* The SL that the current mode gives (source switch s, source LID sl, dst d). */
static uint8_t sl_at(const struct lanes_routing *r, int mode, uint32_t s, uint32_t src, uint32_t d)
{
	switch (mode) {
	case LANES_SL_PER_DST:
		return r->sl[d];
	case LANES_SL_PER_SRC_SWITCH:
		return r->sl[(size_t)d * r->num_switches + s];
	case LANES_SL_PER_PAIR:
		return r->sl[(size_t)d * r->num_lids + src];
	default:
		return r->sl_uniform;
	}
}

int lanes_routing_set_sl_mode(struct lanes_routing *r, int mode, struct lanes_error *err)
{
	uint8_t *sl;
	size_t n = lanes_routing_sl_cells(r, mode);

	if (mode < r->sl_mode || mode > LANES_SL_PER_PAIR)
		return lanes_error_set(err, LANES_EINVAL, "SL granularity can only get finer");
	if (mode == r->sl_mode)
		return 0;
	if (mode == LANES_SL_PER_PAIR && r->sl_mode == LANES_SL_PER_SRC_SWITCH)
		return lanes_error_set(err, LANES_EINVAL,
				       "set per-pair SLs before per-source-switch ones");
	if (mode == LANES_SL_PER_PAIR && n > (1u << 30))
		return lanes_error_set(err, LANES_ENOMEM,
				       "per-pair SLs for %u LIDs would need %zu MB", r->num_lids,
				       n >> 20);
	if (!(sl = malloc(n)))
		return lanes_error_set(err, LANES_ENOMEM, "out of memory for path SLs");
	for (uint32_t d = 0; d < r->num_lids; d++) {
		if (mode == LANES_SL_PER_DST)
			sl[d] = sl_at(r, r->sl_mode, 0, 0, d);
		else if (mode == LANES_SL_PER_SRC_SWITCH)
			for (uint32_t s = 0; s < r->num_switches; s++)
				sl[(size_t)d * r->num_switches + s] = sl_at(r, r->sl_mode, s, 0, d);
		else /* per pair from a coarser mode: the source switch is not known here */
			memset(sl + (size_t)d * r->num_lids, sl_at(r, r->sl_mode, 0, 0, d), r->num_lids);
	}
	free(r->sl);
	r->sl = sl;
	r->sl_mode = mode;
	return 0;
}

uint32_t lanes_fabric_lid_switch_port(const struct lanes_fabric *f, uint32_t lid, uint8_t *port)
{
	uint32_t node = lanes_fabric_lid_node(f, lid);
	const struct lanes_port *p;

	*port = 0;
	if (node == LANES_NONE)
		return LANES_NONE;
	if (f->nodes[node].type == LANES_NODE_SWITCH)
		return f->nodes[node].switch_index;
	p = lanes_fabric_port(f, node, f->lid_owner[lid].port);
	if (p->peer_node == LANES_NONE || f->nodes[p->peer_node].type != LANES_NODE_SWITCH)
		return LANES_NONE;
	*port = p->peer_port;
	return f->nodes[p->peer_node].switch_index;
}

uint32_t lanes_fabric_lid_switch(const struct lanes_fabric *f, uint32_t lid)
{
	uint8_t port;

	return lanes_fabric_lid_switch_port(f, lid, &port);
}

uint8_t lanes_routing_sl(const struct lanes_routing *r, const struct lanes_fabric *f,
			 uint32_t src_lid, uint32_t dst_lid)
{
	uint32_t s = 0;

	if (r->sl_mode == LANES_SL_PER_SRC_SWITCH && (s = lanes_fabric_lid_switch(f, src_lid)) ==
							      LANES_NONE)
		return 0;
	return sl_at(r, r->sl_mode, s, src_lid, dst_lid);
}

void lanes_routing_set_sl(struct lanes_routing *r, uint32_t src, uint32_t dst_lid, uint8_t sl)
{
	switch (r->sl_mode) {
	case LANES_SL_PER_DST:
		r->sl[dst_lid] = sl;
		break;
	case LANES_SL_PER_SRC_SWITCH:
		r->sl[(size_t)dst_lid * r->num_switches + src] = sl;
		break;
	case LANES_SL_PER_PAIR:
		r->sl[(size_t)dst_lid * r->num_lids + src] = sl;
		break;
	default:
		r->sl_uniform = sl;
	}
}

int lanes_routing_add_map(struct lanes_routing *r, const uint8_t map[LANES_NUM_SLS],
			  uint16_t *out_index, struct lanes_error *err)
{
	uint8_t(*maps)[LANES_NUM_SLS];

	for (uint32_t i = 0; i < r->num_sl2vl_maps; i++)
		if (!memcmp(r->sl2vl_maps[i], map, LANES_NUM_SLS)) {
			*out_index = (uint16_t)i;
			return 0;
		}
	for (int s = 0; s < LANES_NUM_SLS; s++)
		if (map[s] > 15)
			return lanes_error_set(err, LANES_EINVAL, "SL %d maps to VL %u (> 15)", s,
					       map[s]);
	if (r->num_sl2vl_maps == UINT16_MAX)
		return lanes_error_set(err, LANES_ERANGE, "more than 65535 distinct SL2VL maps");
	maps = realloc(r->sl2vl_maps, sizeof(*maps) * (r->num_sl2vl_maps + 1));
	if (!maps)
		return lanes_error_oom(err);
	r->sl2vl_maps = maps;
	memcpy(maps[r->num_sl2vl_maps], map, LANES_NUM_SLS);
	*out_index = (uint16_t)r->num_sl2vl_maps++;
	return 0;
}

/* One block: sl2vl_sw_off, sl2vl_port (zeroed), then sl2vl_sw (lanes_routing_free frees the first). */
int lanes_route_sl2vl_alloc(struct lanes_routing *r, const struct lanes_fabric *f,
		      struct lanes_error *err)
{
	size_t total = 0, ns = f->num_switches, slots = (size_t)f->num_port_slots + 1;
	char *block;

	if (r->sl2vl_sw)
		return 0;
	for (uint32_t s = 0; s < ns; s++) {
		size_t n = (size_t)f->nodes[f->switches[s]].nports + 1;

		total += n * n;
	}
	/* the uint16_t arrays after the uint32_t one: aligned */
	block = malloc(sizeof(uint32_t) * (ns + 1) + sizeof(uint16_t) * (slots + total + 1));
	if (!block)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory for SL2VL tables");
	r->sl2vl_sw_off = (uint32_t *)block;
	r->sl2vl_port = (uint16_t *)(r->sl2vl_sw_off + ns + 1);
	r->sl2vl_sw = r->sl2vl_port + slots;
	memset(r->sl2vl_port, 0, sizeof(uint16_t) * slots);
	total = 0;
	for (uint32_t s = 0; s < ns; s++) {
		size_t n = (size_t)f->nodes[f->switches[s]].nports + 1;

		r->sl2vl_sw_off[s] = (uint32_t)total;
		total += n * n;
	}
	r->sl2vl_sw_off[ns] = (uint32_t)total;
	r->sl2vl_sw[total] = 0;
	return 0;
}

int lanes_routing_enable_sl2vl(struct lanes_routing *r, const struct lanes_fabric *f,
			       struct lanes_error *err)
{
	int rc;

	if (r->sl2vl_sw)
		return 0;
	if ((rc = lanes_route_sl2vl_alloc(r, f, err)))
		return rc;
	memset(r->sl2vl_sw, 0, sizeof(uint16_t) * r->sl2vl_sw_off[f->num_switches]);
	return 0;
}

static size_t switch_slot(const struct lanes_routing *r, const struct lanes_fabric *f, uint32_t sw,
			  uint8_t in, uint8_t out)
{
	size_t n = (size_t)f->nodes[f->switches[sw]].nports + 1;

	return r->sl2vl_sw_off[sw] + in * n + out;
}

void lanes_routing_set_switch_map(struct lanes_routing *r, const struct lanes_fabric *f,
				  uint32_t sw, uint8_t in, uint8_t out, uint16_t map)
{
	r->sl2vl_sw[switch_slot(r, f, sw, in, out)] = map;
}

void lanes_routing_set_port_map(struct lanes_routing *r, const struct lanes_fabric *f,
				uint32_t node, uint8_t port, uint16_t map)
{
	r->sl2vl_port[f->nodes[node].port_base + port] = map;
}

const uint8_t *lanes_routing_switch_map(const struct lanes_routing *r,
					const struct lanes_fabric *f, uint32_t sw, uint8_t in,
					uint8_t out)
{
	if (!r->sl2vl_sw)
		return zero_map;
	return r->sl2vl_maps[r->sl2vl_sw[switch_slot(r, f, sw, in, out)]];
}

const uint8_t *lanes_routing_port_map(const struct lanes_routing *r,
				      const struct lanes_fabric *f, uint32_t node, uint8_t port)
{
	if (!r->sl2vl_port)
		return zero_map;
	return r->sl2vl_maps[r->sl2vl_port[f->nodes[node].port_base + port]];
}

/*
 * The largest of m and p[0..n). Eight bytes at a time while m < 127: only a
 * word with a byte over m (Bit Twiddling Hacks' "hasmore": adding 127 - m
 * to each byte sets its top bit exactly when it is over m; a byte of 128 or
 * more has it already and may carry into the next, which only causes a
 * look) is read byte by byte. SLs rise past m a few times at most.
 */
static uint8_t max_byte(const uint8_t *p, size_t n, uint8_t m)
{
	const uint64_t ones = ~(uint64_t)0 / 255, tops = ones * 128;
	size_t i = 0;

	for (; i + 8 <= n && m < 127; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, sizeof(w));
		if (((w + ones * (127u - m)) | w) & tops)
			for (size_t k = i; k < i + 8; k++)
				m = p[k] > m ? p[k] : m;
	}
	for (; i < n; i++)
		m = p[i] > m ? p[i] : m;
	return m;
}

/* VLs count only for the SLs that paths use (and the needs are set to the use), as OpenSM's default maps send
 * SLs 8..15 somewhere even when every path has SL 0. */
void lanes_routing_count_resources(struct lanes_routing *r)
{
	uint8_t vl = 0, sl = r->sl_uniform;

	if (r->sl)
		sl = max_byte(r->sl, lanes_routing_sl_cells(r, r->sl_mode), sl);
	for (uint32_t m = 0; m < r->num_sl2vl_maps; m++)
		for (int s = 0; s <= sl; s++)
			if (r->sl2vl_maps[m][s] > vl && r->sl2vl_maps[m][s] != 15)
				vl = r->sl2vl_maps[m][s];
	r->num_vls = r->vls_needed = (uint8_t)(vl + 1);
	r->num_sls = r->sls_needed = (uint8_t)(sl + 1);
}
