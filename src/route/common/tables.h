/*
 * tables.h - a routing's tables made on the caller's threads (routing.c).
 * On the largest fabrics setting every LFT entry to "drop" is a good part
 * of a fast engine's time (177 MB on dragonfly a=20 p=10 h=10: 0.068 s of
 * minhop's 0.37), so the engines that route per destination on workers
 * make their tables on them too.
 */
#ifndef LANES_ROUTE_COMMON_TABLES_H
#define LANES_ROUTE_COMMON_TABLES_H

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/route.h"
#include "lanes/routing.h"
#include "core/parallel.h"

/**
 * The workers of an engine that routes per destination switch (minhop, the
 * up*-down* engines): as opts->threads says, and with threads 0 from 256
 * switches on, below which handing work between threads costs more than it
 * saves.
 */
static inline unsigned lanes_route_destination_workers(const struct lanes_route_opts *opts,
							uint32_t num_switches)
{
	if (!lanes_threads_wanted(opts->threads, num_switches, 256))
		return 1;
	return lanes_threads_for(opts->threads, num_switches);
}

/**
 * lanes_routing_new() with the LFT entries set on `workers` threads, each an
 * equal run of the table (0 or 1: on the calling thread alone).
 */
int lanes_routing_new_parallel(const struct lanes_fabric *f, unsigned workers,
			       struct lanes_routing **out, struct lanes_error *err);

#endif
