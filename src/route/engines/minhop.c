/* minhop.c - PLACEHOLDER being written; replaced before landing. */
#include "engines.h"

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	(void)f;
	(void)opts;
	*out = NULL;
	return lanes_error_set(err, LANES_EINVAL, "minhop: not written yet");
}

const struct lanes_engine lanes_engine_minhop = {
	.name = "minhop",
	.route = route,
};
