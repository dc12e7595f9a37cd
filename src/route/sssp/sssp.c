/*
 * sssp.c - the sssp routing engine: the single-source shortest-path routing
 * of Hoefler, Schneider and Lumsdaine, "Optimized Routing for Large-Scale
 * InfiniBand Networks" (HOTI 2009), as OpenSM 3.3.23 runs it
 * (osm_ucast_dfsssp.c with routing type SSSP). Destination LIDs are routed
 * one at a time, each by a shortest-path tree whose channel weights count
 * the routes already placed, so that routes spread over the fabric globally
 * rather than per switch as Min Hop does. The paths are lanes_route_sssp()
 * (sssp_paths.c); this engine stops there, as OpenSM's SSSP skips the
 * deadlock removal of DFSSSP (dfsssp/dfsssp.c).
 *
 * Where it is not OpenSM: OpenSM's weights and destination order, but
 * distances compare as (hops, load sum), so every path is a shortest path,
 * and ties go to the less loaded channel, then the lowest port, not to
 * OpenSM's heap order (lanes_route_sssp() without its replay, for speed;
 * dfsssp replays it). Uniform SL 0 and no SL2VL maps (one VL). Not
 * deadlock-free: rings, tori and dragonflies get credit loops.
 */
#include <stdlib.h>
#include <string.h>

#include "route/sssp/sssp.h"
#include "route/engines.h"
#include "core/util.h"

static int set_notes(struct lanes_routing *r, struct lanes_error *err)
{
	static const char notes[] =
		"sssp: OpenSM 3.3.23 SSSP; shortest paths per destination LID, ties broken by "
		"the routes already placed on each channel; not deadlock-free";

	r->notes = malloc(sizeof(notes));
	if (!r->notes)
		return lanes_error_oom(err);
	memcpy(r->notes, notes, sizeof(notes));
	return 0;
}

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	struct lanes_routing *r = NULL;
	int rc;

	*out = NULL;
	if ((rc = lanes_routing_new(f, &r, err)) || (rc = lanes_route_sssp(f, opts, 0, NULL, r, err)) ||
	    (rc = set_notes(r, err))) {
		lanes_routing_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

const struct lanes_engine lanes_engine_sssp = {
	.name = "sssp",
	.summary = "OpenSM's SSSP: shortest paths balanced by the routes placed on each link",
	.scope = "any",
	.resources = "1 VL",
	.source = "OpenSM 3.3.23 SSSP (doc/current-routing.txt); osm_ucast_dfsssp.c",
	.flags = LANES_ENGINE_ANY_TOPOLOGY,
	.check = NULL,
	.route = route,
};
