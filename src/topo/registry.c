/*
 * registry.c - the table of topology generators and lanes_topo_generate():
 * keys checked against the usage string, generate, then every key used.
 */
#include <string.h>

#include "gen.h"
#include "generators.h"
#include "params.h"

static const struct lanes_generator *const generators[] = {
	&lanes_gen_dragonfly, &lanes_gen_slimfly,   &lanes_gen_hyperx, &lanes_gen_torus,
	&lanes_gen_mesh,      &lanes_gen_hypercube, &lanes_gen_fattree, &lanes_gen_xgft,
	&lanes_gen_sfxff,     &lanes_gen_jellyfish,
	&lanes_gen_oft,
};

#define NUM_GENERATORS (sizeof(generators) / sizeof(generators[0]))

const struct lanes_generator *lanes_generator_at(size_t i)
{
	return i < NUM_GENERATORS ? generators[i] : NULL;
}

const struct lanes_generator *lanes_generator_find(const char *name)
{
	for (size_t i = 0; i < NUM_GENERATORS; i++)
		if (!strcmp(generators[i]->name, name))
			return generators[i];
	return NULL;
}

int lanes_topo_generate(const char *name, size_t nargs, const char *const *args,
			struct lanes_fabric **out, struct lanes_error *err)
{
	const struct lanes_generator *g = lanes_generator_find(name);
	struct lanes_params params;
	struct lanes_builder *b = NULL;
	int rc;

	*out = NULL;
	if (!g)
		return lanes_error_set(err, LANES_ENOTFOUND, "no topology generator named '%s'",
				       name);
	if ((rc = lanes_params_parse(g->name, nargs, args, &params, err)))
		return rc;
	/* unknown keys first: generating a huge fabric only to refuse a typo wastes minutes */
	if (!(rc = lanes_params_check_known(&params, g->usage, err)) &&
	    !(rc = lanes_builder_new(&b, err)) && !(rc = g->generate(&params, b, err)) &&
	    !(rc = lanes_params_finish(&params, g->usage, err))) {
		rc = lanes_builder_finish(b, out, err);
		b = NULL;
	}
	lanes_builder_free(b);
	lanes_params_free(&params);
	return rc;
}

int lanes_topo_measure(const char *name, size_t nargs, const char *const *args,
		       struct lanes_topo_size *out, struct lanes_error *err)
{
	const struct lanes_generator *g = lanes_generator_find(name);
	struct lanes_params params;
	struct lanes_builder *b = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!g)
		return lanes_error_set(err, LANES_ENOTFOUND, "no topology generator named '%s'",
				       name);
	if ((rc = lanes_params_parse(g->name, nargs, args, &params, err)))
		return rc;
	params.measure = out;
	if (!(rc = lanes_params_check_known(&params, g->usage, err)) &&
	    !(rc = lanes_builder_new(&b, err)))
		rc = g->generate(&params, b, err); /* stops at its size check: GEN_MEASURED */
	if (rc == GEN_MEASURED)
		rc = 0;
	else if (!rc) /* a generator that built without checking its size */
		rc = lanes_error_set(err, LANES_EINTERNAL, "%s: generated without a size check",
				     g->name);
	lanes_builder_free(b);
	lanes_params_free(&params);
	return rc;
}
