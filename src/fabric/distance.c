/*
 * distance.c - the all-pairs switch distance matrix (hops), for engines and
 * the verifier. S^2 bytes: 78 MB for the 8,814 switches of a 114k-endpoint
 * dragonfly.
 */
#include <stdlib.h>
#include <string.h>

#include "bfs.h"
#include "core/util.h"

int lanes_fabric_switch_distances(const struct lanes_fabric *f, uint8_t **out,
				  struct lanes_error *err)
{
	size_t n = f->num_switches;
	struct bfs_sums s = { 0, 0, 0 };
	uint8_t *dist = malloc(n * n + 1);

	*out = NULL;
	if (!dist)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory for %zu x %zu distances",
				       n, n);
	memset(dist, 255, n * n + 1);
	if (lanes_bfs_all(f, &s, dist)) {
		free(dist);
		return lanes_error_oom(err);
	}
	*out = dist;
	return 0;
}
