/*
 * nue_swlids.c - the switch LIDs of the nue engine; see nue_swlids.h.
 *
 * Hops: for up to 64 * W destination switches at a time (t0 .. t0 + cnt -
 * 1), a BFS of bitsets, one bit per destination, that reaches a level's
 * switches for every destination at once. row[s * cnt + t - t0]: hops
 * between s and t (the adjacency is symmetric), 255 when unreachable or
 * farther than 254, as a BFS from each t would give.
 *
 * Ports, switch by switch for all of a chunk's destinations at once: an
 * entry of s is a min-hop port toward t when its neighbour is one hop
 * closer to t. One such port is the answer; of several, the least loaded
 * (the fewest CA LIDs routed through it, ties to the lower port: what
 * route_least_loaded() picks scanning from port 1), which is the one with
 * the best rank among s's entries sorted by (load, port), as the loads stay
 * the same throughout. A switch LID with LMC > 0 starts each further LID's
 * scan after the port before: such a destination takes its min-hop ports
 * one switch at a time (lanes_route_hop_ports_fill()), as minhop does.
 */
#include <string.h>

#include "route/nue/nue_swlids.h"
#include "core/util.h"
#include "route/common/load.h"
#include "route/common/arena.h"
#include "core/bits.h"

/* ---------------------------------------------------------------- hops */

struct hops {
	uint32_t W;              /* 64-bit words per switch */
	uint64_t *cur, *nxt, *seen;
	uint8_t *row;            /* row[s * cnt + t - t0] */
};

static int hops_init(struct hops *h, uint32_t ns, struct route_arena *a)
{
	h->W = (ns + 63) / 64 < 8 ? (ns + 63) / 64 : 8;
	h->W = h->W ? h->W : 1;
	h->cur = route_alloc(a, sizeof(*h->cur) * ((size_t)ns + 1) * h->W);
	h->nxt = route_alloc(a, sizeof(*h->nxt) * ((size_t)ns + 1) * h->W);
	h->seen = route_alloc(a, sizeof(*h->seen) * ((size_t)ns + 1) * h->W);
	h->row = route_alloc(a, ((size_t)ns + 1) * 64 * h->W);
	return h->cur && h->nxt && h->seen && h->row ? 0 : -1;
}

static void hops_from(struct hops *h, const struct lanes_fabric *f, uint32_t t0, uint32_t cnt)
{
	const uint32_t ns = f->num_switches, W = h->W, *off = f->adj_off;
	const struct lanes_adj *adj = f->adj;
	uint64_t *cur = h->cur, *nxt = h->nxt, *seen = h->seen;
	uint8_t *row = h->row;
	size_t words = (size_t)ns * W;
	int any = 1;

	memset(row, 255, (size_t)cnt * ns);
	memset(cur, 0, sizeof(*cur) * words);
	for (uint32_t i = 0; i < cnt; i++) {
		cur[(size_t)(t0 + i) * W + i / 64] |= 1ull << (i % 64);
		row[(size_t)(t0 + i) * cnt + i] = 0;
	}
	memcpy(seen, cur, sizeof(*cur) * words);
	for (uint32_t level = 1; any && level <= 254; level++) {
		uint64_t *tmp;

		any = 0;
		for (uint32_t y = 0; y < ns; y++) {
			uint64_t *ny = nxt + (size_t)y * W, *sy = seen + (size_t)y * W;

			for (uint32_t w = 0; w < W; w++) {
				uint64_t m = 0;

				for (uint32_t e = off[y]; e < off[y + 1]; e++)
					m |= cur[(size_t)adj[e].sw * W + w];
				m &= ~sy[w];
				ny[w] = m;
				sy[w] |= m;
				any |= m != 0;
				for (; m; m &= m - 1)
					row[(size_t)y * cnt + w * 64 + lanes_ctz64(m)] = (uint8_t)level;
			}
		}
		tmp = cur, cur = nxt, nxt = tmp;
	}
}

/* --------------------------------------------------------------- ports */

struct work {
	const struct lanes_fabric *f;
	struct lanes_routing *r;
	struct route_load ld;
	struct hops h;
	uint8_t *rank, *by_rank;  /* per entry of a switch: its rank; per rank: the port (255: drop) */
	uint8_t *best;            /* per destination of the chunk: the best rank found */
	uint8_t **col;            /* per destination of the chunk: its LFT column, NULL none (LMC > 0) */
	struct route_hop_ports hp; /* LMC > 0 (else left empty) */
	uint8_t *dist;            /* LMC > 0: one destination's hops */
};

/* s's entries by (load, port): w->rank per entry, w->by_rank the ports in that order. */
static void rank_entries(struct work *w, uint32_t s)
{
	const struct lanes_adj *adj = w->f->adj + w->f->adj_off[s];
	const uint32_t *load = route_load_of(&w->ld, s), deg = w->f->adj_off[s + 1] - w->f->adj_off[s];
	uint8_t *by = w->by_rank; /* entries first, then their ports */

	for (uint32_t j = 0; j < deg; j++) {
		uint32_t k = j, lj = load[adj[j].port];

		for (; k > 0; k--) { /* insertion by (load, port) */
			uint8_t p = adj[by[k - 1]].port;

			if (load[p] < lj || (load[p] == lj && p < adj[j].port))
				break;
			by[k] = by[k - 1];
		}
		by[k] = (uint8_t)j;
	}
	for (uint32_t k = 0; k < deg; k++) {
		w->rank[by[k]] = (uint8_t)k;
		by[k] = adj[by[k]].port;
	}
}

/*
 * best[i] = r where the entry's neighbour is one hop closer to destination
 * i (ry[i] + 1 == rs[i]) and r is below best[i].
 */
static void best_rank(uint8_t *best, const uint8_t *ry, const uint8_t *rs, uint8_t r, uint32_t cnt)
{
	for (uint32_t i = 0; i < cnt; i++)
		if ((uint8_t)(ry[i] + 1) == rs[i] && r < best[i])
			best[i] = r;
}

/* Switch s's entries in the chunk's columns: its best min-hop port toward each destination. */
static void ports_of(struct work *w, uint32_t s, uint32_t cnt)
{
	const struct lanes_fabric *f = w->f;
	const uint32_t a = f->adj_off[s], deg = f->adj_off[s + 1] - a;
	const uint8_t *row = w->h.row, *rs = row + (size_t)s * cnt, *by_rank = w->by_rank;
	uint8_t *best = w->best, *const *col = w->col;

	rank_entries(w, s);
	memset(best, 255, cnt);
	for (uint32_t j = 0; j < deg; j++)
		best_rank(best, row + (size_t)f->adj[a + j].sw * cnt, rs, w->rank[j], cnt);
	for (uint32_t i = 0; i < cnt; i++) /* hops 1 .. 254, and a best rank (by_rank[255]: drop) */
		if (col[i])
			col[i][s] = (uint8_t)(rs[i] - 1) < 254 ? by_rank[best[i]] : LANES_PORT_DROP;
}

/* A destination t with LMC > 0 (its hops in the chunk's rows at i): minhop's way, LID by LID. */
static void route_lmc(struct work *w, uint32_t t, uint32_t i, uint32_t cnt)
{
	const struct lanes_fabric *f = w->f;
	const struct lanes_port *p0 = lanes_fabric_port(f, f->switches[t], 0);
	uint32_t ns = f->num_switches;

	for (uint32_t s = 0; s < ns; s++)
		w->dist[s] = w->h.row[(size_t)s * cnt + i];
	lanes_route_hop_ports_fill(&w->hp, f, t, w->dist);
	for (uint32_t l = 0; l < (1u << p0->lmc); l++) {
		uint8_t *col = w->r->lft + (size_t)(p0->lid + l) * ns, *prev = col - ns;

		memcpy(col, w->hp.one, ns);
		for (uint32_t k = 0; k < w->hp.nmulti; k++) {
			uint32_t s = w->hp.multi[k], o = w->hp.moff[k];

			col[s] = route_least_loaded(route_load_of(&w->ld, s), w->hp.port + o,
						    w->hp.moff[k + 1] - o, l ? prev[s] + 1u : 1u);
		}
		col[t] = 0;
	}
}

/* ------------------------------------------------------------- routing */

static int work_init(struct work *w, const struct lanes_fabric *f, struct lanes_routing *r,
		     struct route_arena *a, struct lanes_error *err)
{
	uint32_t ns = f->num_switches, maxdeg = 1;
	int rc;

	memset(w, 0, sizeof(*w));
	w->f = f;
	w->r = r;
	for (uint32_t s = 0; s < ns; s++)
		if (f->adj_off[s + 1] - f->adj_off[s] > maxdeg)
			maxdeg = f->adj_off[s + 1] - f->adj_off[s];
	if (hops_init(&w->h, ns, a) || !(w->rank = route_alloc(a, maxdeg)) ||
	    !(w->by_rank = route_alloc(a, maxdeg > 256 ? maxdeg : 256)) ||
	    !(w->best = route_alloc(a, 64 * (size_t)w->h.W)) ||
	    !(w->dist = route_alloc(a, (size_t)ns + 1)) ||
	    !(w->col = route_alloc(a, sizeof(*w->col) * 64 * w->h.W)))
		return lanes_error_oom(err);
	w->by_rank[255] = LANES_PORT_DROP; /* best rank 255: none (ranks stay below, as the ports) */
	if ((rc = lanes_route_load_init(&w->ld, f, err)))
		return rc;
	for (uint32_t s = 0; s < ns; s++) { /* hp: only for a switch LID with LMC > 0 */
		const struct lanes_port *p0 = lanes_fabric_port(f, f->switches[s], 0);

		if (p0->lid && p0->lmc)
			return lanes_route_hop_ports_init(&w->hp, f, err);
	}
	return 0;
}

static void work_free(struct work *w)
{
	lanes_route_load_free(&w->ld); /* the other arrays are the arena's */
	lanes_route_hop_ports_free(&w->hp);
}

/* The loads: the CA LIDs routed per switch port. */
static void count_loads(struct work *w, const uint32_t *lids, uint32_t nd)
{
	const uint32_t ns = w->f->num_switches;

	for (uint32_t i = 0; i < nd; i++) {
		const uint8_t *col = w->r->lft + (size_t)lids[i] * ns;

		for (uint32_t s = 0; s < ns; s++)
			if (col[s] != LANES_PORT_DROP)
				w->ld.count[w->ld.off[s] + col[s]]++;
	}
}

int lanes_nue_switch_lids(const struct lanes_fabric *f, struct lanes_routing *r, const uint32_t *lids,
		    uint32_t nd, struct route_arena *a, struct lanes_error *err)
{
	uint32_t ns = f->num_switches, chunk;
	struct route_arena_mark mark = route_arena_mark(a); /* all of this is scratch */
	struct work w;
	int rc;

	if ((rc = work_init(&w, f, r, a, err)))
		goto out;
	count_loads(&w, lids, nd);
	chunk = 64 * w.h.W;
	for (uint32_t t0 = 0; t0 < ns; t0 += chunk) {
		uint32_t cnt = ns - t0 < chunk ? ns - t0 : chunk;

		for (uint32_t i = 0; i < cnt; i++) {
			const struct lanes_port *p0 = lanes_fabric_port(f, f->switches[t0 + i], 0);

			w.col[i] = p0->lid && !p0->lmc ? r->lft + (size_t)p0->lid * ns : NULL;
		}
		hops_from(&w.h, f, t0, cnt);
		for (uint32_t s = 0; s < ns; s++)
			ports_of(&w, s, cnt);
		for (uint32_t i = 0; i < cnt; i++) {
			const struct lanes_port *p0 = lanes_fabric_port(f, f->switches[t0 + i], 0);

			if (p0->lid && p0->lmc)
				route_lmc(&w, t0 + i, i, cnt);
			else if (p0->lid)
				w.col[i][t0 + i] = 0;
		}
	}
out:
	work_free(&w);
	lanes_route_arena_release(a, mark);
	return rc;
}
