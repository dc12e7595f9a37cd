/*
 * sssp.h - the SSSP paths that the sssp and dfsssp engines share (sssp/).
 */
#ifndef LANES_ROUTE_SSSP_H
#define LANES_ROUTE_SSSP_H

#include <stdint.h>
#include "lanes/error.h"
#include "lanes/fabric.h"
#include "route/common/endports.h"

/* ---------------------------------------------------------- SSSP paths */

/*
 * The SSSP paths of Hoefler, Schneider and Lumsdaine, "Optimized Routing
 * for Large-Scale InfiniBand Networks" (HOTI 2009), as OpenSM 3.3.23's
 * sssp and dfsssp engines compute them (osm_ucast_dfsssp.c), shared by the
 * sssp and dfsssp engines: destination LIDs one at a time, each a
 * shortest-path tree over the switches whose choices minimise the routes
 * already placed on the channels, then those routes added to the channel
 * weights. See sssp_paths.c for the exact rules.
 */

struct lanes_route_opts;
struct lanes_routing;

/**
 * lanes_route_sssp's progress: routed(ctx, t) once the LIDs of the end ports
 * behind switch t are routed (their LFT columns final), for every such
 * switch, in routing order, on lanes_route_sssp's thread.
 */
struct sssp_progress {
	void (*routed)(void *ctx, uint32_t t);
	void *ctx;
};

/** lanes_route_sssp's how: a set of these bits. */
enum sssp_how {
	/** Break ties as OpenSM's heap does (its tables entry for entry,
	 *  slower; the lowest port where it declines), else by the less
	 *  loaded channel, then the lowest port (see sssp_paths.c). */
	SSSP_REPLAY = 1,
	/** Only the reference code, none of the *_fast.c copies (the same
	 *  tables, slower; the tests compare the two). */
	SSSP_REFERENCE = 2
};

/**
 * Fill r's LFTs with SSSP paths for every end-port LID and (when
 * opts->switch_lids) every switch LID; each switch keeps its own LIDs on
 * port 0. r must be fresh from lanes_routing_new(). how: enum sssp_how
 * bits. prog: NULL, or told of each destination switch routed.
 */
int lanes_route_sssp(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		     unsigned how, const struct sssp_progress *prog, struct lanes_routing *r,
		     struct lanes_error *err);

/**
 * Switches from which lanes_route_sssp prepares the next destination on a
 * second thread when the caller leaves the thread count to it
 * (opts->threads 0), for its own rule and the heap replay. Below, a
 * destination's candidates take microseconds and handing them between
 * threads costs more than it saves (measured on torus k=10x10 p=4: 3.5 ms
 * with the thread, see bench/RESULTS.md).
 */
#define SSSP_THREAD_WORTH 512

/** The destinations of lanes_route_sssp in OpenSM's order (sssp_order.c makes them). */
struct sssp_osm_order {
	const struct route_endports *eps; /**< end ports, grouped by switch */
	const uint32_t *ep_first;         /**< per switch: its first end port, or LANES_NONE */
	const uint64_t *hca;              /**< per switch: OpenSM's num_hca */
	const uint32_t *seq;              /**< destination switches in routing order */
	uint32_t ngroups;                 /**< seq[0..ngroups): their end ports */
	uint32_t nseq;                    /**< seq[ngroups..nseq): their own LIDs */
};

/**
 * OpenSM's own Dijkstra and heap, step for step (sssp_osm.c): 1 when it
 * routed every LID of o, 0 when OpenSM's arithmetic would not reach every
 * switch (the caller then routes the whole fabric itself), <0 on error.
 * reference: OpenSM's Dijkstra as it is for every LID, never the fast step
 * (sssp_osm_dijkstra.c; the same tables, slower).
 */
int lanes_route_sssp_osm(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
			 int reference, struct lanes_routing *r, const struct sssp_osm_order *o,
			 struct lanes_error *err);

#endif
