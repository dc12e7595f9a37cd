/*
 * sssp_tree_fast.c - the picks of sssp_tree.c's choose() with the two parts
 * of a key packed into one 64-bit word, where they fit (lanes_sssp_set_keys:
 * P below 2^24 LIDs and the bits of 255 P^2 plus those of P^2 at most 64;
 * for dfsssp's ties, which read the load sum alone, P below 2^24).
 * The same trees: the least packed key is the least (load sum, channel
 * load), and of equal keys the first candidate, the lowest port.
 *
 * The arrays hold the parts scaled (sssp_tree.c, the keys): m->load_sum
 * the load sum << key_shift, m->load the channel load times 2^key_shift +
 * 1; so a candidate's key is one addition, load_sum[neighbour] + load[e],
 * and the least key one comparison per candidate.
 *
 * Kept for speed, end to end (lanes_route_sssp, user CPU, medians of 5
 * interleaved runs, sssp with threads 1, on a 2-core shared machine):
 * torus k=14x14x14 p=4 (10,976 endpoints; 64-bit keys fit) 0.29 s against
 * 0.64 s with the two-part keys of sssp_tree.c, 2.2x. Tests compare the
 * two (test_sssp.c, test_packed_keys_same). least_packed takes the least
 * key without branches (which candidate wins is a coin toss on tori):
 * 0.29 s against 0.57 s with an if, on the same torus.
 */
#include "route/sssp/sssp_paths.h"

/*
 * The pick of the n candidates cand[] (adjacency order: the first is the
 * lowest port) by the least packed key; *sum gets its load sum part.
 */
static uint32_t least_packed(const uint64_t *load_sum, const uint64_t *load, const uint32_t *nb,
			     const uint32_t *cand, uint32_t n, uint64_t sum_mask, uint64_t *sum)
{
	uint64_t best_key = UINT64_MAX;
	uint32_t best = cand[0];

	for (uint32_t c = 0; c < n; c++) {
		uint32_t e = cand[c];
		uint64_t k = load_sum[nb[e]] + load[e];
		int less = k < best_key;

		best_key = less ? k : best_key;
		best = less ? e : best;
	}
	*sum = best_key & sum_mask;
	return best;
}

void lanes_sssp_choose_packed(struct sssp *m, uint8_t *col)
{
	const struct dest *d = m->cur;
	const uint32_t *p = d->program, *end = p + d->program_len;
	/* locals: the stores to load_sum and col may alias anything m points to */
	uint64_t *load_sum = m->load_sum;
	const uint64_t *load = m->load, sum_mask = m->sum_mask;
	const uint32_t *nb = m->nb;

	load_sum[d->t] = 0;
	while (p < end) {
		uint32_t s = p[0] & ~SSSP_SINGLE, e;

		if (p[0] & SSSP_SINGLE) {
			load_sum[s] = load_sum[nb[p[1]]] + (load[p[1]] & sum_mask);
			p += 2;
			continue;
		}
		e = least_packed(load_sum, load, nb, p + 2, p[1], sum_mask, &load_sum[s]);
		d->pick[s] = e;
		col[s] = m->f->adj[e].port;
		p += 2 + p[1];
	}
}
