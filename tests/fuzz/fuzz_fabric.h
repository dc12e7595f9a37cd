/*
 * fuzz_fabric.h - the fabric the routing-file fuzz targets read their
 * inputs against: a torus k=4x4 p=1 (the fabric of their seed corpora),
 * generated once per process and kept (a fuzzer runs millions of inputs).
 */
#ifndef LANES_FUZZ_FABRIC_H
#define LANES_FUZZ_FABRIC_H

#include <stdlib.h>

#include "lanes/topo.h"

static inline const struct lanes_fabric *fuzz_fabric(void)
{
	static struct lanes_fabric *f;
	static const char *const args[] = { "k=4x4", "p=1" };
	struct lanes_error err;

	if (!f && lanes_topo_generate("torus", 2, args, &f, &err))
		abort();
	return f;
}

#endif
