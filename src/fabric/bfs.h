/*
 * bfs.h - bit-parallel breadth-first search over the switch graph, shared by
 * the statistics (stats.c) and the distance matrix (distance.c).
 */
#ifndef LANES_FABRIC_BFS_H
#define LANES_FABRIC_BFS_H

#include "lanes/fabric.h"

struct lanes_progress;

struct bfs_sums {
	uint64_t dist_sum; /* sum of hops over reachable ordered pairs */
	uint64_t pairs;    /* reachable ordered pairs (source != target) */
	uint32_t diameter;
};

/*
 * BFS from every switch, 64 at a time, the sweeps shared by up to `workers`
 * threads (0 or 1: the calling thread alone). Adds to sums; when dist is
 * not NULL, also fills dist[source * n + target] (255: unreached, or 255
 * hops or more). The same result for any number of workers.
 */
int lanes_bfs_all(const struct lanes_fabric *f, unsigned workers, struct bfs_sums *sums, uint8_t *dist);

/*
 * The same from every stride-th block of 64 sources of the search order
 * (which visits the graph ball by ball, so the blocks spread over it):
 * sums over those sources only. dist rows of the other sources are not set.
 * Each sweep adds its sources to progress (NULL: none).
 */
int lanes_bfs_sample(const struct lanes_fabric *f, unsigned workers, uint32_t stride,
		     struct bfs_sums *sums, uint8_t *dist, struct lanes_progress *progress);

#endif
