/*
 * sim/traffic.h - who sends to whom: the traffic patterns of lanes/sim.h
 * made concrete for one fabric (sim/traffic.c; docs/traffic-patterns.md
 * defines each pattern for any number of endpoints).
 *
 * Endpoints are the fabric's CA ports that have a LID and a cable to a
 * switch, in node and port order, numbered 0..num_endpoints-1. The core
 * asks, for each packet a source creates, lanes_traffic_next(): a fixed
 * destination for permutations, a random one for uniform and hot-spot
 * traffic. Randomness comes only from the caller's generator, so a run is
 * reproducible from its seed.
 */
#ifndef LANES_SIM_TRAFFIC_H
#define LANES_SIM_TRAFFIC_H

#include <stdint.h>

#include "lanes/rng.h"
#include "lanes/sim.h"

/** What an endpoint does. */
enum lanes_traffic_role {
	LANES_TRAFFIC_OFFERED = 0, /**< injects at the offered load; measured */
	LANES_TRAFFIC_FULL_RATE,   /**< injects at load 1.0 whatever is offered; not measured
				        (seed 000's hot-spot senders) */
	LANES_TRAFFIC_IDLE,        /**< sends nothing (no partner in a permutation); still
				        receives */
};

struct lanes_traffic {
	uint32_t num_endpoints;
	uint32_t *lid;        /**< per endpoint: its base LID (the destination LID used) */
	uint32_t *node;       /**< per endpoint: the CA's node index */
	uint8_t *port;        /**< per endpoint: the CA's port number */
	uint8_t *role;        /**< per endpoint: enum lanes_traffic_role */
	/**
	 * Per endpoint: counts in the accepted throughput. What it receives
	 * when measure_at_destination (seed 000's hot-spot: every endpoint but
	 * the hot-spot destinations), else what it sends (the OFFERED ones).
	 */
	uint8_t *measured;
	int measure_at_destination;
	/*
	 * Destinations, per source (an IDLE source sends nothing):
	 * fixed[src] != LANES_NONE is a permutation partner; otherwise
	 * uniformly among set[set_off[src] .. set_off[src+1]) when set is not
	 * NULL and that range is not empty, else among all other endpoints.
	 */
	uint32_t *fixed;
	uint32_t *set_off;
	uint32_t *set;
};

/** Build the traffic of spec for f; LANES_EREFUSED when it does not apply. */
int lanes_traffic_make(const struct lanes_fabric *f, const struct lanes_sim_traffic *spec,
		       uint64_t seed, struct lanes_traffic *t, struct lanes_error *err);

/** The destination endpoint of src's next packet, or LANES_NONE (src sends nothing). */
uint32_t lanes_traffic_next(const struct lanes_traffic *t, uint32_t src, struct lanes_rng *rng);

void lanes_traffic_free(struct lanes_traffic *t);

#endif
