/*
 * distance.h - the all-pairs switch distance matrix on the caller's workers
 * (distance.c; lanes_fabric_switch_distances in lanes/fabric.h is the same
 * on the calling thread alone). On dragonfly a=20 p=10 h=10 it is 0.02 s of
 * minhop's 0.37, the largest part of its setup that is not per destination.
 */
#ifndef LANES_FABRIC_DISTANCE_H
#define LANES_FABRIC_DISTANCE_H

#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"

/** lanes_fabric_switch_distances() with the BFS sweeps on up to `workers` threads. */
int lanes_switch_distances_parallel(const struct lanes_fabric *f, unsigned workers, uint8_t **out,
				    struct lanes_error *err);

#endif
