/*
 * distance.c - the all-pairs switch distance matrix (hops), for engines and
 * the verifier. S^2 bytes: 78 MB for the 8,814 switches of a 114k-endpoint
 * dragonfly.
 */
#include <stdlib.h>
#include <string.h>

#include "bfs.h"
#include "distance.h"
#include "core/util.h"

int lanes_switch_distances_parallel(const struct lanes_fabric *f, unsigned workers, uint8_t **out,
				    struct lanes_error *err)
{
	size_t n = f->num_switches;
	struct bfs_sums s = { 0, 0, 0 };
	uint8_t *dist = malloc(n * n + 1);

	*out = NULL;
	if (!dist)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory for %zu x %zu distances",
				       n, n);
	dist[n * n] = 255;
	if (lanes_bfs_all(f, workers, &s, dist)) {
		free(dist);
		return lanes_error_oom(err);
	}
	*out = dist;
	return 0;
}

int lanes_fabric_switch_distances(const struct lanes_fabric *f, uint8_t **out,
				  struct lanes_error *err)
{
	return lanes_switch_distances_parallel(f, 1, out, err);
}
