/*
 * updown_swlids.c - the switch LIDs of up* / down* routing (updown.c),
 * every destination switch at once, as minhop_swlids.c does for minhop.
 * Seed 004 section 3 (Autonet's rule) and OpenSM 3.3.23's balancing
 * (seed 002), exactly as the per-destination phases of updown_legal.c and
 * updown_complete.c compute them; this file only reorganises the work.
 *
 * With one pass (no LMC) the switch LIDs come after every CA LID and are
 * not counted, so the loads stay fixed while they are routed, and switch s
 * sends t's LID to its first least-loaded candidate toward t: of the
 * candidates, the least key load << 8 | port (candidate lists ascend by
 * port). The phases toward t reduce to recurrences over the order, one
 * value per (switch, destination) pair, with no other state:
 *  - dn: hops of a shortest all-down path (phase A); 0 at t, else 1 + the
 *    least dn of the down neighbours (which come later in the order).
 *  - best (phase B1): for dn finite, min(dn, 1 + least best of the up
 *    neighbours). DF: DOWN, or FREE (dn finite, best == dn).
 *  - DOWN (phase B2): t, or a switch with an up neighbour v in DF and
 *    dn == dn[v] - 1 (v's down steps). dd = DOWN ? dn : INF, the length a
 *    down move into the switch may use.
 *  - legal len: 0 at t, else 1 + the least move value, where an up move to
 *    v is worth len[v] (INF when the switch is DOWN: it only steps down)
 *    and a down move into x is worth dd[x]. For DOWN and FREE switches
 *    this is dn (their down steps reach dd = dn - 1, and nothing is
 *    shorter: best), for the others it is any_candidates' and
 *    legal_paths' minimum; the candidates are the moves worth len - 1.
 *  - phase C: a switch of t's component without a legal path (len INF)
 *    takes 1 + the least len of all its neighbours, to a fixed point
 *    (legal lens stay as they are), which is the BFS of complete_few; its
 *    candidates are the neighbours at len - 1, whatever the direction.
 * So each switch answers every destination at once, 16 to a vector of
 * bytes: the rows of s and of its neighbours are combined lane by lane,
 * then its entries are scanned in key order and each destination takes the
 * first that is a candidate, as the minimum of the keys would. t itself and
 * other components get LANES_PORT_DROP (route_switch then puts 0 at t).
 *
 * Lengths fit in a byte: a route (completions included) follows strictly
 * shorter lengths to t, so it is at most ns - 1 hops; hence ns <=
 * UPDOWN_SWLIDS_MAX, and 255 is INF. O(entries x ns / 16) vector
 * operations per pass, a handful of passes, instead of the phases once per
 * destination switch. tests/unit/test_updown_swlids.c compares the tables
 * with the per-destination ones on many orders and fabrics.
 *
 * Invariants: the rows of a switch are final before any switch later in
 * the pass reads them (its up neighbours come first in the order, its down
 * neighbours last); bytes past ns are INF, never open; no global state.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/routing.h"
#include "route/updown/updown_internal.h"
#include "route/common/load.h"

/* Sixteen destinations, a byte each (a GCC and Clang vector extension). */
typedef uint8_t vb __attribute__((vector_size(16)));
#define VB 16

/* Rows of nv vectors per switch, one block (aligned for the vectors). */
struct swl {
	uint32_t ns, nv;
	vb *dn, *best, *df, *down, *dd, *len, *rt; /* rt: legal len finite, or padding */
	uint32_t *ro;                               /* per entry of nb: nb[e] * nv */
	uint32_t *idx;                              /* a switch's entries by key */
	uint64_t *kx;                               /* the same, key << 32 | entry */
	uint8_t **col;                              /* the LFT columns of the switch LIDs */
	uint32_t *to, nt;                           /* their switches */
};

#if defined(__SSE2__)
#include <emmintrin.h>

static inline vb vmin(vb a, vb b)
{
	return (vb)_mm_min_epu8((__m128i)a, (__m128i)b);
}
#else
static inline vb vmin(vb a, vb b)
{
	vb m = (vb)(a < b);

	return (a & m) | (b & ~m);
}
#endif

/* Plus one, INF (255) staying INF. */
static inline vb vinc(vb a)
{
	return a - (vb)(a != 255);
}

static inline int vany(vb a)
{
	uint64_t w[2];

	memcpy(w, &a, sizeof(w));
	return (w[0] | w[1]) != 0;
}

static inline vb vset(uint8_t x)
{
	vb v;

	memset(&v, x, sizeof(v));
	return v;
}

/* Lane i of the row's vector k, where the row's byte i lies in it, else 0. */
static inline vb vlane(uint32_t i, uint32_t k)
{
	vb v = vset(0);

	if (i / VB == k)
		((uint8_t *)&v)[i % VB] = 255;
	return v;
}

/* The least of the rows of the entries e0..e1 (w->ro), vector k. */
static inline vb least(const vb *m, const uint32_t *ro, uint32_t e0, uint32_t e1, uint32_t k)
{
	vb x = vset(255);

	for (uint32_t e = e0; e < e1; e++)
		x = vmin(x, m[ro[e] + k]);
	return x;
}

/* Phase A for every t: dn, in reverse order (down neighbours first). */
static void rows_dn(struct swl *w, const struct updown *u)
{
	const uint32_t nv = w->nv, *ro = w->ro;

	for (uint32_t i = w->ns; i-- > 0;) {
		uint32_t s = u->perm[i];
		vb *row = w->dn + (size_t)s * nv;

		for (uint32_t k = 0; k < nv; k++)
			row[k] = vinc(least(w->dn, ro, u->mid[s], u->off[s + 1], k)) & ~vlane(s, k);
	}
}

/* Phases B1 and B2 for every t: best, DOWN, DF and dd, in order. */
static void rows_states(struct swl *w, const struct updown *u)
{
	const uint32_t nv = w->nv, *ro = w->ro;

	for (uint32_t i = 0; i < w->ns; i++) {
		uint32_t s = u->perm[i], e0 = u->off[s], e1 = u->mid[s];
		size_t r = (size_t)s * nv;

		for (uint32_t k = 0; k < nv; k++) {
			vb dn = w->dn[r + k], up = vinc(dn), b = vset(255), down = vlane(s, k);

			for (uint32_t e = e0; e < e1; e++) {
				b = vmin(b, w->best[ro[e] + k]);
				down |= w->df[ro[e] + k] & (vb)(up == w->dn[ro[e] + k]);
			}
			b = vmin(dn, vinc(b));
			w->best[r + k] = b;
			w->down[r + k] = down;
			w->df[r + k] = down | ((vb)(b == dn) & (vb)(dn != 255));
			w->dd[r + k] = dn | ~down;
		}
	}
}

/* Phases B and B3 for every t: the legal len, in order. @return some len is INF */
static int rows_len(struct swl *w, const struct updown *u)
{
	const uint32_t nv = w->nv, *ro = w->ro;
	vb any = vset(0);

	for (uint32_t i = 0; i < w->ns; i++) {
		uint32_t s = u->perm[i], e0 = u->off[s], e1 = u->mid[s], e2 = u->off[s + 1];
		size_t r = (size_t)s * nv;

		for (uint32_t k = 0; k < nv; k++) {
			vb down = w->down[r + k], m = least(w->dd, ro, e1, e2, k), len;

			for (uint32_t e = e0; e < e1; e++)
				m = vmin(m, w->len[ro[e] + k] | down);
			len = vinc(m) & ~vlane(s, k);
			w->len[r + k] = len;
			w->rt[r + k] = (vb)(len != 255);
		}
		memset((uint8_t *)(w->rt + r) + w->ns, 255, (size_t)nv * VB - w->ns); /* padding */
		for (uint32_t k = 0; k < nv; k++)
			any |= ~w->rt[r + k];
	}
	return vany(any);
}

/*
 * Phase C for every t: the switches without a legal len take 1 + the least
 * len of their neighbours, sweep after sweep (forward, backward) until none
 * changes. Each value is the length of a real path, and after d sweeps
 * every switch within d hops of its nearest routed switch is exact, so this
 * is the BFS distance complete_few computes. Other components stay INF.
 * Vectors whose switches all have a legal len are passed over.
 */
static void rows_complete(struct swl *w, const struct updown *u)
{
	const uint32_t nv = w->nv, ns = w->ns, *ro = w->ro;
	int changed = 1;

	for (uint32_t sweep = 0; changed; sweep++) {
		changed = 0;
		for (uint32_t i = 0; i < ns; i++) {
			uint32_t s = u->perm[sweep & 1 ? ns - 1 - i : i];
			size_t r = (size_t)s * nv;

			for (uint32_t k = 0; k < nv; k++) {
				vb rt = w->rt[r + k], len = w->len[r + k], l;

				if (!vany(~rt))
					continue;
				l = vmin(len, vinc(least(w->len, ro, u->off[s], u->off[s + 1], k)) | rt);
				changed |= vany(l ^ len);
				w->len[r + k] = l;
			}
		}
	}
}

/*
 * s's entries of the split adjacency by key, load << 8 | port, into w->idx
 * (each key above the entry's index, in w->kx). Inserted in port order
 * (the fabric's adjacency, isup telling which part holds each), so that
 * ports of equal load, the common case once the CA LIDs are balanced,
 * rarely move.
 */
static uint32_t entries_by_key(struct swl *w, const struct updown *u, uint32_t s)
{
	const uint32_t *load = route_load_of(&u->load, s), *aoff = u->f->adj_off;
	const uint8_t *isup = u->isup;
	const struct lanes_adj *adj = u->f->adj;
	uint32_t n = aoff[s + 1] - aoff[s], ku = u->off[s], kd = u->mid[s], i = 0;
	uint64_t *kx = w->kx;

	for (uint32_t a = aoff[s]; a < aoff[s + 1]; a++, i++) {
		uint64_t c = (uint64_t)(load[adj[a].port] << 8 | adj[a].port) << 32 |
			     (isup[a] ? ku++ : kd++);
		uint32_t j = i;

		for (; j > 0 && kx[j - 1] > c; j--)
			kx[j] = kx[j - 1];
		kx[j] = c;
	}
	for (i = 0; i < n; i++)
		w->idx[i] = (uint32_t)kx[i];
	return n;
}

/*
 * Vector k of s's answers: each destination open (len neither 0 nor INF)
 * takes the port of the first entry in key order worth len - 1. An up move
 * is worth len[v] (INF where s is DOWN), a down move dd[x] where s has a
 * legal route and len[x] where it was completed.
 */
static vb answer(const struct swl *w, const struct updown *u, uint32_t s, uint32_t n,
		 uint32_t k)
{
	size_t r = (size_t)s * w->nv + k;
	vb len = w->len[r], down = w->down[r], rt = w->rt[r], want = len - 1;
	vb open = (vb)(len != 0) & (vb)(len != 255), ans = vset(LANES_PORT_DROP);

	for (uint32_t j = 0; j < n && vany(open); j++) {
		uint32_t e = w->idx[j];
		size_t x = w->ro[e] + k;
		vb val = e < u->mid[s] ? w->len[x] | down : (w->dd[x] & rt) | (w->len[x] & ~rt);
		vb z = (vb)(val == want) & open;

		ans = (ans & ~z) | (vset(u->port[e]) & z);
		open &= ~z;
	}
	return ans;
}

/* The columns: every switch's answers for every switch LID. */
static void write_columns(struct swl *w, const struct updown *u)
{
	vb ans[VB];
	const uint8_t *a = (const uint8_t *)ans;

	for (uint32_t s = 0; s < w->ns; s++) {
		uint32_t n = entries_by_key(w, u, s);

		for (uint32_t k = 0; k < w->nv; k++)
			ans[k] = answer(w, u, s, n, k);
		for (uint32_t i = 0; i < w->nt; i++)
			w->col[i][s] = a[w->to[i]];
	}
}

/* The block's size: seven matrices of rows, then kx, col, to, ro and idx. */
static size_t block_bytes(const struct swl *w, const struct updown *u, size_t *deg)
{
	const struct lanes_fabric *f = u->f;
	size_t ns = f->num_switches, rows = ns * w->nv * sizeof(vb), ne = u->off[ns];

	*deg = 1;
	for (uint32_t s = 0; s < ns; s++)
		if (f->adj_off[s + 1] - f->adj_off[s] > *deg)
			*deg = f->adj_off[s + 1] - f->adj_off[s];
	return 7 * rows + sizeof(uint8_t *) * (ns + 1) + sizeof(uint32_t) * (2 * ns + 2 + ne) +
	       (sizeof(uint32_t) + sizeof(uint64_t)) * *deg;
}

/* The arrays of w in the block at p (aligned for the vectors). */
static void carve(struct swl *w, const struct updown *u, char *p, size_t deg)
{
	size_t ns = w->ns, rows = ns * w->nv * sizeof(vb), ne = u->off[ns];

	w->dn = (vb *)p;
	w->best = (vb *)(p + rows);
	w->df = (vb *)(p + 2 * rows);
	w->down = (vb *)(p + 3 * rows);
	w->dd = (vb *)(p + 4 * rows);
	w->len = (vb *)(p + 5 * rows);
	w->rt = (vb *)(p + 6 * rows);
	w->kx = (uint64_t *)(p + 7 * rows);
	w->col = (uint8_t **)(w->kx + deg);
	w->to = (uint32_t *)(w->col + ns + 1);
	w->ro = w->to + ns + 1;
	w->idx = w->ro + ne;
	for (size_t e = 0; e < ne; e++)
		w->ro[e] = u->nb[e] * w->nv;
}

int lanes_updown_swlids(struct updown *u)
{
	const struct lanes_fabric *f = u->f;
	vb small[512]; /* small fabrics: no allocation */
	size_t deg, bytes;
	struct swl w;
	char *p;

	w.ns = f->num_switches;
	w.nv = (w.ns + VB - 1) / VB;
	if (w.ns > UPDOWN_SWLIDS_MAX)
		return -1;
	bytes = (block_bytes(&w, u, &deg) + sizeof(vb) - 1) / sizeof(vb) * sizeof(vb);
	p = bytes <= sizeof(small) ? (char *)small : aligned_alloc(sizeof(vb), bytes);
	if (!p)
		return -1;
	carve(&w, u, p, deg);
	w.nt = 0;
	for (uint32_t t = 0; t < w.ns; t++) {
		const struct lanes_port *p0 = lanes_fabric_port(f, f->switches[t], 0);

		if (p0->lid) {
			w.col[w.nt] = u->r->lft + (size_t)p0->lid * w.ns;
			w.to[w.nt++] = t;
		}
	}
	rows_dn(&w, u);
	rows_states(&w, u);
	if (rows_len(&w, u))
		rows_complete(&w, u);
	write_columns(&w, u);
	if (p != (char *)small)
		free(p);
	return 0;
}
