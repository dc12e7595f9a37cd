/*
 * registry.c - the table of routing engines, default options, and
 * lanes_route(): option checks, the engine's check(), then route().
 */
#include <string.h>

#include "route/engines.h"
#include "lanes/progress.h"
#include "lanes/route.h"

static const struct lanes_engine *const engines[] = {
	&lanes_engine_minhop,
	&lanes_engine_updn,
	&lanes_engine_dnup,
	&lanes_engine_ud_dfs,
	&lanes_engine_flexible,
	&lanes_engine_sssp,
	&lanes_engine_dfsssp,
	&lanes_engine_lash,
	&lanes_engine_nue,
	&lanes_engine_dla,
	&lanes_engine_d3r,
	&lanes_engine_slimfly,
	&lanes_engine_dfdn,
	&lanes_engine_sssp_df,
	&lanes_engine_minhop_df,
	&lanes_engine_ftree,
	&lanes_engine_dor,
	&lanes_engine_ecube,
	&lanes_engine_hyperx,
	&lanes_engine_torus2qos,
};

#define NUM_ENGINES (sizeof(engines) / sizeof(engines[0]))

const struct lanes_engine *lanes_engine_at(size_t i)
{
	return i < NUM_ENGINES ? engines[i] : NULL;
}

const struct lanes_engine *lanes_engine_find(const char *name)
{
	for (size_t i = 0; i < NUM_ENGINES; i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

void lanes_route_opts_init(struct lanes_route_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->max_vls = 8;
	opts->max_sls = 16;
	opts->switch_lids = 1;
	opts->seed = 1;
}

int lanes_route(const struct lanes_engine *e, const struct lanes_fabric *f,
		const struct lanes_route_opts *opts, struct lanes_routing **out,
		struct lanes_error *err)
{
	int rc;

	*out = NULL;
	if (opts->max_vls < 1 || opts->max_vls > 15)
		return lanes_error_set(err, LANES_EINVAL, "vls must be 1..15, not %u", opts->max_vls);
	if (opts->max_sls < 1 || opts->max_sls > 16)
		return lanes_error_set(err, LANES_EINVAL, "sls must be 1..16, not %u", opts->max_sls);
	if (opts->params && opts->params[0] && !e->params_usage)
		return lanes_error_set(err, LANES_EINVAL, "%s takes no parameters, not '%s'", e->name,
				       opts->params);
	if (!f->num_switches)
		return lanes_error_set(err, LANES_EINVAL, "%s: the fabric has no switch to route",
				       e->name);
	if (e->check && (rc = e->check(f, opts, err)))
		return rc;
	lanes_progress_phase(opts->progress, "routing", 0); /* an engine may count its work */
	return e->route(f, opts, out, err);
}
