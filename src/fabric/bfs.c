/*
 * bfs.c - bit-parallel breadth-first search: 64 source switches at a time,
 * each switch holding a 64-bit mask of the sources that have reached it. One
 * level costs one pass over the adjacency, so all-pairs distances cost
 * O(S/64 * E * D) instead of O(S * E): well under a second for 10k switches.
 * distance.c turns it into the all-pairs distance matrix.
 */
#include "bfs.h"

#include <stdlib.h>
#include <string.h>

static void record(uint8_t *dist, uint32_t n, uint32_t first, uint32_t v, uint64_t bits,
		   uint32_t level)
{
	while (bits) {
		int k = __builtin_ctzll(bits);

		dist[(size_t)(first + (uint32_t)k) * n + v] = level > 254 ? 255 : (uint8_t)level;
		bits &= bits - 1;
	}
}

/* One sweep from sources [first, first+count): levels until nothing new. */
static void sweep(const struct lanes_fabric *f, uint32_t first, uint32_t count, uint64_t *seen,
		  uint64_t *front, uint64_t *next, struct bfs_sums *s, uint8_t *dist)
{
	uint32_t n = f->num_switches;
	int grew = 1;

	memset(seen, 0, sizeof(*seen) * n);
	memset(front, 0, sizeof(*front) * n);
	for (uint32_t k = 0; k < count; k++)
		seen[first + k] = front[first + k] = 1ULL << k;
	if (dist)
		for (uint32_t k = 0; k < count; k++)
			dist[(size_t)(first + k) * n + first + k] = 0;
	for (uint32_t level = 1; grew; level++) {
		grew = 0;
		for (uint32_t v = 0; v < n; v++) {
			uint64_t m = 0;

			for (uint32_t e = f->adj_off[v]; e < f->adj_off[v + 1]; e++)
				m |= front[f->adj[e].sw];
			next[v] = m & ~seen[v];
		}
		for (uint32_t v = 0; v < n; v++) {
			if (!next[v])
				continue;
			uint64_t c = (uint64_t)__builtin_popcountll(next[v]);

			seen[v] |= next[v];
			s->dist_sum += c * level;
			s->pairs += c;
			s->diameter = level;
			grew = 1;
			if (dist)
				record(dist, n, first, v, next[v], level);
		}
		memcpy(front, next, sizeof(*front) * n);
	}
}

int lanes_bfs_all(const struct lanes_fabric *f, struct bfs_sums *sums, uint8_t *dist)
{
	uint32_t n = f->num_switches;
	uint64_t *buf = malloc(sizeof(uint64_t) * 3 * (n ? n : 1));

	if (!buf)
		return LANES_ENOMEM;
	for (uint32_t first = 0; first < n; first += 64)
		sweep(f, first, n - first < 64 ? n - first : 64, buf, buf + n, buf + 2 * n, sums, dist);
	free(buf);
	return 0;
}
