/*
 * dfdn_hops.c - VL hopping on given LFTs: an SL per (source switch,
 * destination LID) by first fit, and the SL2VL maps that raise the VL by one
 * at every switch-to-switch hop (Schneider, Bibartiu and Hoefler, HOTI 2016;
 * dfdn.c has the whole story and the choices made where the paper is silent).
 *
 * Entries: for each switch and (in port, out port) one 64-bit word, 16
 * nibbles, nibble s = 1 + the VL that SL s must get there, 0 while no path
 * has used it. The words sit in the layout of the routing's map indices
 * (switch offset + in * (nports + 1) + out), so a word becomes a map index in
 * place. (Out port major words, which the paths to one LID share more
 * cache lines of, made minhop-df 8% faster on dragonfly a=20 p=10 h=10,
 * 1.81 s against 1.96 s: under the 10% that layout tuning must earn.)
 *
 * Per LID, the tree of its paths is computed once (lid_tree: next switch,
 * hops left, the entry used at the next switch), so a path of L hops costs
 * L - 1 reads of those arrays, and first fit tests all 16 SLs of an entry
 * at once (zero_nibbles). The trees are made in batches of LIDs, one batch
 * ahead of the placing, on a second thread where opts->threads allows
 * (assign_all); a batch's trees stay within BATCH_CELLS switch cells so they
 * are still in cache when their paths are placed. sssp-df on dragonfly
 * a=26 p=13 h=13, 2 threads: 14.8 s against 20.5 s with the trees made on
 * the placing thread (the same machine and load).
 */
#include "route/dfdn/dfdn.h"

#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "core/parallel.h"
#include "core/util.h"
#include "route/common/layers.h"

#define NIBBLES_ALL_SLS 16
#define BATCH_CELLS (1u << 16) /* LIDs * switches of the trees in one batch, at most */
#define BATCH_LIDS_MAX 256
#define PIPELINE_WORTH (1u << 20) /* paths from which the trees get a thread of their own */
#define MAP_HASH_SLOTS (1u << 17) /* over twice the 65535 maps a pool holds */
/* dist[] values beyond a hop count */
#define HOPS_LONG (DFDN_MAX_HOPS + 1) /* this many or more */
#define HOPS_VISITING 0xfd
#define HOPS_UNKNOWN 0xfe
#define HOPS_NONE 0xff

/*
 * The trees of a batch of LIDs (lid_tree), filled on one thread while the
 * paths of the batch before are placed on the other. Per LID j of the batch
 * and switch x, at [j * num_switches + x]: dist, x's hops to the LID's
 * switch or HOPS_*; next, the switch x forwards to; enter, the entry x's
 * packets use at next (in port from x, next's out port).
 */
struct tree_batch {
	struct hops *h;
	const uint32_t *lids; /* the batch's LIDs */
	uint32_t count;
	uint8_t *dist;
	uint32_t *next;
	size_t *enter;
	uint32_t *stack;      /* tree_dist's path, num_switches */
	struct tree_batch *to_place; /* in a pipeline step: place this batch's paths, not fill */
};

struct hops {
	const struct lanes_fabric *f;
	struct lanes_routing *r;
	uint32_t *next_switch;     /* per port slot: the switch behind the cable, or LANES_NONE */
	uint8_t *peer_port;        /* per port slot: the port at the other end */
	uint32_t *port_base;       /* per switch: its port 0 slot */
	uint8_t *nports;           /* per switch */
	size_t *entry_base;        /* per switch: its first entry */
	uint64_t *entry;           /* (switch, in, out) words, see the header */
	uint32_t *sources;         /* switches with an endport cabled to them */
	uint32_t num_sources;
	uint8_t *dst_sl;           /* per LID: the SL of its first path, 0xff none yet */
	int same_sl_per_dst;       /* every path to a LID got the same SL so far */
	struct dfdn_result *res;
};

static int is_endport(const struct lanes_fabric *f, uint32_t node)
{
	return node != LANES_NONE && f->nodes[node].type != LANES_NODE_SWITCH;
}

/* next_switch and peer_port for every port slot; the switches with endports. */
static int index_ports(struct hops *h, struct lanes_error *err)
{
	const struct lanes_fabric *f = h->f;
	uint8_t *has_endport = calloc(f->num_switches + 1, 1);

	h->next_switch = malloc(sizeof(uint32_t) * (f->num_port_slots + 1));
	h->peer_port = calloc(f->num_port_slots + 1, 1);
	h->sources = malloc(sizeof(uint32_t) * (f->num_switches + 1));
	h->port_base = malloc(sizeof(uint32_t) * (f->num_switches + 1));
	h->nports = malloc(f->num_switches + 1);
	if (!has_endport || !h->next_switch || !h->peer_port || !h->sources || !h->port_base ||
	    !h->nports) {
		free(has_endport);
		return lanes_error_oom(err);
	}
	for (uint32_t n = 0; n < f->num_nodes; n++) {
		const struct lanes_node *nd = &f->nodes[n];

		for (uint32_t p = 0; p <= nd->nports; p++) {
			const struct lanes_port *pt = &f->ports[nd->port_base + p];
			uint32_t peer = p ? pt->peer_node : LANES_NONE;
			uint32_t sw = peer == LANES_NONE ? LANES_NONE : f->nodes[peer].switch_index;

			h->next_switch[nd->port_base + p] = sw;
			h->peer_port[nd->port_base + p] = pt->peer_port;
			if (sw != LANES_NONE && is_endport(f, n))
				has_endport[sw] = 1;
		}
	}
	for (uint32_t s = 0; s < f->num_switches; s++) {
		h->port_base[s] = f->nodes[f->switches[s]].port_base;
		h->nports[s] = f->nodes[f->switches[s]].nports;
		if (has_endport[s])
			h->sources[h->num_sources++] = s;
	}
	free(has_endport);
	return 0;
}

static int alloc_entries(struct hops *h, struct lanes_error *err)
{
	const struct lanes_fabric *f = h->f;
	size_t total = 0;

	h->entry_base = malloc(sizeof(size_t) * ((size_t)f->num_switches + 1));
	h->dst_sl = malloc((size_t)f->max_lid + 1);
	if (!h->entry_base || !h->dst_sl)
		return lanes_error_oom(err);
	for (uint32_t s = 0; s < f->num_switches; s++) {
		size_t n = (size_t)f->nodes[f->switches[s]].nports + 1;

		h->entry_base[s] = total;
		total += n * n;
	}
	h->entry = calloc(total + 1, sizeof(uint64_t));
	if (!h->entry)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory for the SL2VL entries (%zu MB)",
				       (total * sizeof(uint64_t)) >> 20);
	memset(h->dst_sl, 0xff, (size_t)f->max_lid + 1);
	h->same_sl_per_dst = 1;
	return 0;
}

/* dist[x] by following next[] to a switch whose distance is known. */
static void tree_dist(struct tree_batch *b, uint8_t *dist, const uint32_t *next, uint32_t x)
{
	uint32_t depth = 0, nsw = b->h->f->num_switches;
	uint8_t d;

	while (dist[x] == HOPS_UNKNOWN && depth < nsw) {
		b->stack[depth++] = x;
		dist[x] = HOPS_VISITING;
		x = next[x];
	}
	d = dist[x] >= HOPS_VISITING ? HOPS_NONE : dist[x]; /* a loop drops */
	while (depth--) {
		d = d == HOPS_NONE ? HOPS_NONE : (uint8_t)(d < HOPS_LONG ? d + 1 : HOPS_LONG);
		dist[b->stack[depth]] = d;
	}
}

/*
 * The tree of the batch's j-th LID: for every switch, its hops to the LID's
 * switch (HOPS_NONE when its packets drop or loop, which the verifier
 * reports), its next switch and the entry it enters there.
 */
static void lid_tree(struct tree_batch *b, uint32_t j)
{
	const struct hops *h = b->h;
	uint32_t nsw = h->f->num_switches, t = lanes_fabric_lid_switch(h->f, b->lids[j]);
	const uint8_t *col = lanes_routing_column(h->r, b->lids[j]);
	uint8_t *dist = b->dist + (size_t)j * nsw;
	uint32_t *next = b->next + (size_t)j * nsw;
	size_t *enter = b->enter + (size_t)j * nsw;

	for (uint32_t x = 0; x < nsw; x++) {
		uint32_t slot = h->port_base[x] + col[x], nx;

		dist[x] = x == t ? 0 : HOPS_UNKNOWN;
		if (x == t)
			continue;
		if (col[x] == 0 || col[x] > h->nports[x] || h->next_switch[slot] == LANES_NONE) {
			dist[x] = HOPS_NONE;
			continue;
		}
		nx = h->next_switch[slot];
		next[x] = nx;
		enter[x] = h->entry_base[nx] + (size_t)h->peer_port[slot] * (h->nports[nx] + 1u) +
			   (col[nx] <= h->nports[nx] ? col[nx] : 0);
	}
	for (uint32_t x = 0; x < nsw; x++)
		tree_dist(b, dist, next, x);
}

/* Per nibble: 8 where the nibble of x is 0, else 0. */
static inline uint64_t zero_nibbles(uint64_t x)
{
	const uint64_t low = 0x7777777777777777ull;

	return ~(((x & low) + low) | x) & 0x8888888888888888ull;
}

/* The first SL under which every entry of the path is free or holds its VL; -1 if none. */
static int first_fit(const struct hops *h, const size_t *entry, uint32_t hops)
{
	uint64_t ok = 0x8888888888888888ull;

	for (uint32_t i = 1; i < hops; i++) {
		uint64_t w = h->entry[entry[i]];

		ok &= zero_nibbles(w) | zero_nibbles(w ^ (0x1111111111111111ull * (i + 1)));
	}
	return ok ? __builtin_ctzll(ok) / 4 : -1;
}

/* Give the path from source switch s to lid (entries entry[1..hops-1]) its SL. */
static void place(struct hops *h, const size_t *entry, uint32_t hops, uint32_t s, uint32_t lid)
{
	int sl = first_fit(h, entry, hops);

	if (sl < 0) {
		h->res->sls_needed = NIBBLES_ALL_SLS + 1;
		return;
	}
	for (uint32_t i = 1; i < hops; i++)
		h->entry[entry[i]] |= (uint64_t)(i + 1) << (4 * sl);
	h->r->sl[(size_t)lid * h->f->num_switches + s] = (uint8_t)sl;
	if ((uint32_t)sl + 1 > h->res->sls_needed)
		h->res->sls_needed = (uint32_t)sl + 1;
	if (h->dst_sl[lid] == 0xff)
		h->dst_sl[lid] = (uint8_t)sl;
	else if (h->dst_sl[lid] != sl)
		h->same_sl_per_dst = 0;
}

/* Every path to the batch's j-th LID, source switches in index order. */
static void assign_lid(struct hops *h, const struct tree_batch *b, uint32_t j)
{
	uint32_t lid = b->lids[j], nsw = h->f->num_switches;
	const uint8_t *dist = b->dist + (size_t)j * nsw;
	const uint32_t *next = b->next + (size_t)j * nsw;
	const size_t *enter = b->enter + (size_t)j * nsw;
	size_t entry[DFDN_MAX_HOPS + 1];

	for (uint32_t k = 0; k < h->num_sources; k++) {
		uint32_t s = h->sources[k], x = s, hops = dist[s];

		if (hops == HOPS_NONE || hops == 0)
			continue;
		if (hops > h->res->longest_path)
			h->res->longest_path = hops;
		if (hops > DFDN_MAX_HOPS)
			h->res->too_long = 1;
		if (h->res->too_long || h->res->sls_needed > NIBBLES_ALL_SLS)
			continue;
		for (uint32_t i = 1; i < hops; i++, x = next[x])
			entry[i] = enter[x];
		place(h, entry, hops, s, lid);
	}
}

/* One pipeline step: place the paths of step->to_place, or fill step's trees. */
static void *pipeline_step(void *arg)
{
	struct tree_batch *b = arg;

	if (b->to_place)
		for (uint32_t j = 0; j < b->to_place->count; j++)
			assign_lid(b->to_place->h, b->to_place, j);
	else
		for (uint32_t j = 0; j < b->count; j++)
			lid_tree(b, j);
	return NULL;
}

static int batch_alloc(struct tree_batch *b, struct hops *h, uint32_t size)
{
	size_t cells = (size_t)size * h->f->num_switches + 1;

	b->h = h;
	b->dist = malloc(cells);
	b->next = malloc(sizeof(uint32_t) * cells);
	b->enter = malloc(sizeof(size_t) * cells);
	b->stack = malloc(sizeof(uint32_t) * ((size_t)h->f->num_switches + 1));
	return b->dist && b->next && b->enter && b->stack ? 0 : LANES_ENOMEM;
}

static void batch_free(struct tree_batch *b)
{
	free(b->dist);
	free(b->next);
	free(b->enter);
	free(b->stack);
}

/* The endport LIDs in ascending order (those on a switch); NULL when out of memory. */
static uint32_t *endport_lids(const struct lanes_fabric *f, uint32_t *count)
{
	uint32_t *lids = malloc(sizeof(uint32_t) * ((size_t)f->max_lid + 1));

	*count = 0;
	for (uint32_t lid = 1; lids && lid <= f->max_lid; lid++)
		if (is_endport(f, f->lid_owner[lid].node) &&
		    lanes_fabric_lid_switch(f, lid) != LANES_NONE)
			lids[(*count)++] = lid;
	return lids;
}

/*
 * Every path, LIDs in ascending order, in batches: while the paths of one
 * batch are placed (sequentially: first fit depends on the order), the trees
 * of the next are filled, on a second thread where threads allow.
 * Progress: phase "path SLs", a unit per LID placed, counted per batch.
 */
static int assign_all(struct hops *h, const struct lanes_route_opts *opts,
		      struct lanes_error *err)
{
	uint32_t nl, size = BATCH_CELLS / (h->f->num_switches + 1);
	uint32_t *lids = endport_lids(h->f, &nl);
	struct tree_batch batch[2] = { { 0 } }, step = { 0 };
	int threaded, rc = 0;

	size = size < 1 ? 1 : size > BATCH_LIDS_MAX ? BATCH_LIDS_MAX : size;
	if (!lids || batch_alloc(&batch[0], h, size) || batch_alloc(&batch[1], h, size)) {
		rc = lanes_error_oom(err);
		goto out;
	}
	threaded = lanes_threads_for(opts->threads, 2) > 1 &&
		   lanes_threads_wanted(opts->threads, (size_t)nl * h->num_sources, PIPELINE_WORTH);
	lanes_progress_phase(opts->progress, "path SLs", nl);
	batch[0].lids = lids;
	batch[0].count = nl < size ? nl : size;
	pipeline_step(&batch[0]);
	for (uint32_t first = 0, i = 0; first < nl; first += batch[i % 2].count, i++) {
		struct tree_batch *cur = &batch[i % 2], *nxt = &batch[(i + 1) % 2];
		uint32_t rest = nl - first - cur->count;

		nxt->lids = lids + first + cur->count;
		nxt->count = rest < size ? rest : size;
		step.to_place = cur;
		lanes_run_pair(pipeline_step, &step, nxt, threaded && nxt->count);
		lanes_progress_add(opts->progress, cur->count);
	}
out:
	free(lids);
	batch_free(&batch[0]);
	batch_free(&batch[1]);
	return rc;
}

/* The pool index of the map that entry word w stands for (unset SLs go to VL 0). */
static int map_of_word(struct hops *h, uint64_t w, uint64_t *keys, uint16_t *vals,
		       uint16_t *out, struct lanes_error *err)
{
	size_t i = (size_t)((w * 0x9E3779B97F4A7C15ull) >> 47) & (MAP_HASH_SLOTS - 1);
	uint8_t map[LANES_NUM_SLS];
	int rc;

	while (keys[i] && keys[i] != w)
		i = (i + 1) & (MAP_HASH_SLOTS - 1);
	if (keys[i]) {
		*out = vals[i];
		return 0;
	}
	for (unsigned sl = 0; sl < LANES_NUM_SLS; sl++) {
		unsigned nib = (unsigned)(w >> (4 * sl)) & 15u;

		map[sl] = (uint8_t)(nib ? nib - 1 : 0);
	}
	if ((rc = lanes_routing_add_map(h->r, map, &vals[i], err)))
		return rc;
	keys[i] = w;
	*out = vals[i];
	return 0;
}

/* Every switch's (in, out) map from its entry word; CA ports keep map 0. */
static int build_maps(struct hops *h, struct lanes_error *err)
{
	const struct lanes_fabric *f = h->f;
	uint64_t *keys = calloc(MAP_HASH_SLOTS, sizeof(uint64_t));
	uint16_t *vals = calloc(MAP_HASH_SLOTS, sizeof(uint16_t));
	int rc = 0;

	if (!keys || !vals) {
		rc = lanes_error_oom(err);
		goto out;
	}
	if ((rc = lanes_route_sl2vl_alloc(h->r, f, err)))
		goto out;
	for (uint32_t s = 0; s < f->num_switches && !rc; s++) {
		size_t n = (size_t)f->nodes[f->switches[s]].nports + 1;
		uint16_t *idx = h->r->sl2vl_sw + h->r->sl2vl_sw_off[s];
		const uint64_t *w = h->entry + h->entry_base[s];

		for (size_t c = 0; c < n * n && !rc; c++) {
			idx[c] = 0;
			if (w[c])
				rc = map_of_word(h, w[c], keys, vals, &idx[c], err);
		}
	}
out:
	free(keys);
	free(vals);
	return rc;
}

/* The coarsest exact SL mode: one SL, one per destination LID, or per source switch. */
static int coarsen_sls(struct hops *h, struct lanes_error *err)
{
	const struct lanes_fabric *f = h->f;
	int rc;

	if (h->res->sls_needed <= 1) {
		lanes_routing_reset_sls(h->r);
		return 0;
	}
	if (!h->same_sl_per_dst)
		return 0;
	lanes_routing_reset_sls(h->r);
	if ((rc = lanes_routing_set_sl_mode(h->r, LANES_SL_PER_DST, err)))
		return rc;
	for (uint32_t lid = 0; lid <= f->max_lid; lid++)
		lanes_routing_set_sl(h->r, 0, lid, h->dst_sl[lid] == 0xff ? 0 : h->dst_sl[lid]);
	return 0;
}

int lanes_dfdn_assign(const struct lanes_fabric *f, struct lanes_routing *r,
		      const struct lanes_route_opts *opts, struct dfdn_result *res,
		      struct lanes_error *err)
{
	struct hops h = { .f = f, .r = r, .res = res };
	int rc;

	memset(res, 0, sizeof(*res));
	res->sls_needed = 1;
	if ((rc = index_ports(&h, err)) || (rc = alloc_entries(&h, err)) ||
	    (rc = lanes_route_sls_per_src_switch(r, err)) || (rc = assign_all(&h, opts, err)))
		goto out;
	if (res->too_long || res->sls_needed > NIBBLES_ALL_SLS)
		goto out;
	if ((rc = build_maps(&h, err)) || (rc = coarsen_sls(&h, err)))
		goto out;
	lanes_routing_count_resources(r);
out:
	free(h.next_switch);
	free(h.peer_port);
	free(h.entry_base);
	free(h.entry);
	free(h.sources);
	free(h.dst_sl);
	free(h.port_base);
	free(h.nports);
	return rc;
}
