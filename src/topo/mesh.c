/* mesh.c - PLACEHOLDER being written; replaced before landing. */
#include "generators.h"
#include "params.h"

static int generate(struct lanes_params *p, struct lanes_builder *b, struct lanes_error *err)
{
	(void)p;
	(void)b;
	return lanes_error_set(err, LANES_EINVAL, "mesh: not written yet");
}

const struct lanes_generator lanes_gen_mesh = {
	.name = "mesh",
	.summary = "",
	.usage = "",
	.source = "",
	.generate = generate,
};
