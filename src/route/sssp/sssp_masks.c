/*
 * sssp_masks.c - the candidates of the sssp paths' own rule (sssp_paths.c)
 * from the switch distance matrix, for every destination switch at once,
 * on fabrics routed without the helper thread (sssp_cands.c): the same
 * candidates as its BFS per destination switch, after OpenSM 3.3.23's SSSP
 * (seed 002; osm_ucast_dfsssp.c routes on shortest paths; no code taken
 * from it), with minhop's bit-parallel test (minhop_swlids.c, swar.h).
 *
 * Switch s's adjacency entry i (neighbour v) is a candidate toward t when v
 * is one hop closer: hops(v, t) + 1 == hops(s, t). The matrix is symmetric,
 * so row s holds s's hops to every t and row v its neighbour's, and one
 * 64-bit word of each tests eight destinations, a byte each. Each test
 * leaves the high bit of a byte; shifted down and over by i, eight entries
 * fill one byte of the mask of each of eight destinations. So every
 * (t, s) gets a mask of s's candidate entries toward t (bit i: entry
 * adj_off[s] + i; hence at most 64 entries per switch), in O(S^2 / 8 *
 * degree) word operations instead of an adjacency scan per destination.
 *
 * A destination t is then filled from row t and its masks in O(switches +
 * candidates): the switches by hops (a counting sort; within one hop count
 * the order does not matter, see sssp_cands.c), each one's candidates in
 * adjacency order (ascending bits), a byte of its mask at a time from a
 * table of each byte value's bit places (m->bitpos, 9 KB per routing).
 * t itself (0 hops) and unreachable switches (255, also beyond 254 hops,
 * as the BFS) take no candidates.
 * Memory: 8 S^2 bytes of masks and 2 S^2 of hops (2.6 MB at 511 switches),
 * freed when the routing ends.
 */
#include <stdlib.h>
#include <string.h>

#include "route/sssp/sssp_paths.h"
#include "route/common/swar.h"

/*
 * Whether the masks pay: a BFS per destination costs a scan of the whole
 * adjacency, the masks a word per entry and eight destinations plus
 * about fifty instructions per (destination, switch); so they take the
 * fabrics of 32 switches or more whose switches have six entries or more
 * on average (measured: a 10x10 torus, four, is faster by BFS). Not
 * possible where a switch has more than 64 entries.
 */
static int masks_pay(const struct lanes_fabric *f)
{
	uint32_t ns = f->num_switches;

	for (uint32_t s = 0; s < ns; s++)
		if (f->adj_off[s + 1] - f->adj_off[s] > 64)
			return 0;
	return ns >= 32 && f->adj_off[ns] >= 6 * (size_t)ns;
}

/*
 * m->hops: the distance matrix with rows padded to whole words (255), then
 * the same rows plus one per byte (255 wraps to 0), for the tests; and
 * m->maxhop, a bound on the hops between switches that reach each other
 * (the bits of every hop plus one: at most twice the most hops, plus one).
 */
static int padded_hops(struct sssp *m)
{
	size_t ns = m->f->num_switches, st = (ns + 7) / 8 * 8;
	struct lanes_error err;
	uint8_t *dist, by[8];
	uint64_t any = 0;

	if (lanes_fabric_switch_distances(m->f, &dist, &err))
		return -1;
	m->hstride = st;
	m->hops = malloc(2 * st * ns + 8);
	if (m->hops) {
		uint8_t *inc = m->hops + st * ns;

		memset(m->hops, 255, st * ns);
		for (size_t s = 0; s < ns; s++)
			memcpy(m->hops + s * st, dist + s * ns, ns);
		for (size_t i = 0; i < st * ns; i += 8) {
			uint64_t x = swar_inc_bytes(swar_word(m->hops + i));

			memcpy(inc + i, &x, 8);
			any |= x;
		}
	}
	free(dist);
	memcpy(by, &any, 8);
	m->maxhop = 0;
	for (int b = 0; b < 8; b++)
		m->maxhop |= by[b];
	m->maxhop = m->maxhop > 254 ? 254 : m->maxhop;
	return m->hops ? 0 : -1;
}

/* Byte b of each chunk's word, chunk c in bits 8c.. of the mask. */
static uint64_t gather_bytes(uint8_t by[8][8], uint32_t deg, size_t b)
{
	uint64_t mk = 0;

	for (uint32_t c = 0; c * 8 < deg; c++)
		mk |= (uint64_t)by[c][b] << (8 * c);
	return mk;
}

/*
 * The masks of switch s toward every t: entries in chunks of eight, each
 * chunk one byte of the masks of the eight destinations of a word.
 */
static void masks_of(struct sssp *m, uint32_t s)
{
	const size_t ns = m->f->num_switches, st = m->hstride;
	const uint32_t e0 = m->f->adj_off[s], deg = m->f->adj_off[s + 1] - e0;
	const uint32_t nc = (deg + 7) / 8; /* chunks of eight entries */
	const uint8_t *rs = m->hops + s * st, *inc = m->hops + st * ns, *rv[64];
	uint64_t *mask = m->cmask;
	uint8_t by[8][8];

	if (nc == 3)
		memset(by[3], 0, sizeof(by[3])); /* the fourth chunk, read below, stays 0 */
	for (uint32_t i = 0; i < deg; i++)
		rv[i] = inc + (size_t)m->nb[e0 + i] * st;
	for (size_t w = 0; w < st; w += 8) {
		uint64_t hs = swar_word(rs + w), *out = mask + w * ns + s;
		size_t nt = ns - w < 8 ? ns - w : 8; /* destinations in this word */

		for (uint32_t c = 0; c < nc; c++) {
			uint32_t i1 = deg < 8 * c + 8 ? deg : 8 * c + 8;
			uint64_t acc = 0;

			/* high bits where hops(v) + 1 == hops(s) */
			for (uint32_t i = 8 * c; i < i1; i++)
				acc |= (swar_zero_bytes(swar_word(rv[i] + w) ^ hs) >> 7) << (i - 8 * c);
			memcpy(by[c], &acc, 8); /* byte b: destination w + b */
		}
		if (nc == 1)
			for (size_t b = 0; b < nt; b++)
				out[b * ns] = by[0][b];
		else if (nc == 2)
			for (size_t b = 0; b < nt; b++)
				out[b * ns] = by[0][b] | (uint64_t)by[1][b] << 8;
		else if (nc <= 4)
			for (size_t b = 0; b < nt; b++)
				out[b * ns] = by[0][b] | (uint64_t)by[1][b] << 8 |
					      (uint64_t)by[2][b] << 16 | (uint64_t)by[3][b] << 24;
		else
			for (size_t b = 0; b < nt; b++)
				out[b * ns] = gather_bytes(by, deg, b);
	}
}

/* m->bitpos (struct sssp): 0, or -1 (no memory). */
static int bit_places(struct sssp *m)
{
	if (!(m->bitpos = calloc(9 * 256, sizeof(uint32_t))))
		return -1;
	for (uint32_t v = 0; v < 256; v++)
		for (uint32_t j = 0; j < 8; j++)
			if (v >> j & 1)
				m->bitpos[8 * v + m->bitpos[2048 + v]++] = j;
	return 0;
}

/* m->glead where parallel cables are grouped (sssp_groups.c): 0, or -1 (no memory). */
static int lead_masks(struct sssp *m)
{
	const uint32_t ns = m->f->num_switches, *aoff = m->f->adj_off;

	if (!m->gfirst)
		return 0;
	if (!(m->glead = calloc(ns + 1, sizeof(uint64_t)))) {
		lanes_sssp_masks_free(m);
		return -1;
	}
	for (uint32_t s = 0; s < ns; s++)
		for (uint32_t e = aoff[s]; e < aoff[s + 1]; e++)
			if (m->gfirst[e] == e)
				m->glead[s] |= (uint64_t)1 << (e - aoff[s]);
	return 0;
}

int lanes_sssp_masks_build(struct sssp *m)
{
	size_t ns = m->f->num_switches;

	if (!masks_pay(m->f) || padded_hops(m))
		return -1;
	m->cmask = malloc(sizeof(uint64_t) * (ns * ns + 1));
	if (!m->cmask || bit_places(m)) {
		lanes_sssp_masks_free(m);
		return -1;
	}
	for (uint32_t s = 0; s < ns; s++)
		masks_of(m, s);
	return lead_masks(m);
}

void lanes_sssp_masks_free(struct sssp *m)
{
	free(m->hops);
	free(m->cmask);
	free(m->glead);
	free(m->bitpos);
	m->bitpos = NULL;
	m->hops = NULL;
	m->cmask = NULL;
	m->glead = NULL;
}

/*
 * d->order: the switches that reach t by hops (t first), a counting sort of
 * row (the unreachable ones, 255, go after them and are not counted).
 */
static uint32_t by_hops(const struct sssp *m, const uint8_t *row, uint32_t *order)
{
	uint32_t ns = m->f->num_switches, cnt[256], n = 0, s;

	memset(cnt, 0, sizeof(uint32_t) * ((size_t)m->maxhop + 1));
	cnt[255] = 0;
	/* four at a time, into the padding of the row (255, not counted) */
	for (s = 0; s < ns; s += 4) {
		cnt[row[s]]++;
		cnt[row[s + 1]]++;
		cnt[row[s + 2]]++;
		cnt[row[s + 3]]++;
	}
	for (uint32_t h = 0; h <= m->maxhop; h++) {
		uint32_t c = cnt[h];

		cnt[h] = n;
		n += c;
	}
	cnt[255] = n;
	for (s = 0; s + 4 <= ns; s += 4) {
		order[cnt[row[s]]++] = s;
		order[cnt[row[s + 1]]++] = s + 1;
		order[cnt[row[s + 2]]++] = s + 2;
		order[cnt[row[s + 3]]++] = s + 3;
	}
	for (; s < ns; s++)
		order[cnt[row[s]]++] = s;
	return n;
}

/* Four words at once (a GCC and Clang vector extension, as the builtins here). */
typedef uint32_t v4u __attribute__((vector_size(16)));

/*
 * A multi switch's candidate entries, e0 plus the places of b's bits in
 * ascending order, into c, an even count (struct dest); how many. Byte by
 * byte from the table bitpos (eight words a byte, whatever its bits, so
 * that the copy has no branches): it may write up to 8 words past the
 * list, and struct dest's prog has that slack (sssp_cands.c).
 */
static uint32_t cands_of(const uint32_t *bitpos, uint32_t e0, uint64_t b, uint32_t *c)
{
	uint32_t n = 0;

	for (; b; b >>= 8, e0 += 8) {
		const uint32_t *pos = bitpos + 8 * (b & 255);
		v4u lo, hi;

		memcpy(&lo, pos, sizeof(lo));
		memcpy(&hi, pos + 4, sizeof(hi));
		lo += e0;
		hi += e0;
		memcpy(c + n, &lo, sizeof(lo));
		memcpy(c + n + 4, &hi, sizeof(hi));
		n += bitpos[2048 + (b & 255)];
	}
	if (n & 1) { /* an even count (struct dest) */
		c[n] = c[n - 1];
		n++;
	}
	return n;
}

/*
 * The hops of the farthest multi switch (two candidates or more) of order
 * (n switches, t first), 0 if none: from the end of order, past the singles.
 */
static uint8_t farthest_multi(const uint64_t *mask, const uint8_t *row, const uint32_t *order,
			      uint32_t n)
{
	uint32_t i = n - 1;

	while (i > 0 && !(mask[order[i]] & (mask[order[i]] - 1)))
		i--;
	return i ? row[order[i]] : 0;
}

/*
 * Fill d for destination switch t, as set_destination in sssp_cands.c does;
 * but a single switch goes into the program only if it is closer than the
 * farthest multi switch (hop lm), so the ones no multi switch reads stay
 * out (in hop order, a single goes in where it comes: the switches of one
 * hop count read only closer ones); a candidate group of parallel cables
 * goes in once, by its first entry (m->glead), and the count is made even
 * (struct dest).
 */
void lanes_sssp_masks_fill(const struct sssp *m, struct dest *d, uint32_t t)
{
	const uint32_t ns = m->f->num_switches, *aoff = m->f->adj_off;
	const uint64_t *mask = m->cmask + (size_t)t * ns;
	const uint8_t *row = m->hops + (size_t)t * m->hstride;
	const struct lanes_adj *adj = m->f->adj;
	const uint64_t *glead = m->glead;
	const uint32_t *bitpos = m->bitpos;
	uint8_t *col = d->col, lm;
	uint32_t *order = d->order, *pick = d->pick, *prog = d->prog;
	uint32_t n, np = 0, nmulti = 0;

	memcpy(d->row, row, ns);
	memset(col, LANES_PORT_DROP, ns);
	n = by_hops(m, row, order);
	lm = farthest_multi(mask, row, order, n);
	pick[t] = LANES_NONE;
	for (uint32_t i = 1; i < n; i++) {
		uint32_t s = order[i], e0 = aoff[s];
		uint64_t b = mask[s];

		if (!(b & (b - 1))) { /* (a multi switch's pick: choose() in sssp_tree.c) */
			pick[s] = e0 + (uint32_t)__builtin_ctzll(b);
			col[s] = adj[pick[s]].port;
			if (row[s] < lm) { /* a multi switch farther away reads it */
				prog[np++] = s | SSSP_SINGLE;
				prog[np++] = pick[s];
			}
			continue;
		}
		col[s] = 0;
		prog[np] = s;
		prog[np + 1] = e0;
		if (glead) /* parallel cables: their groups' first entries */
			b &= glead[s];
		prog[np + 2] = cands_of(bitpos, e0, b, prog + np + 3);
		np += 3 + prog[np + 2];
		nmulti++;
	}
	prog[np] = SSSP_END;
	d->t = t;
	d->norder = n;
	d->nprog = np;
	d->nmulti = nmulti;
}
