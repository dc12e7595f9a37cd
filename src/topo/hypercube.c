/*
 * hypercube.c - the binary n-cube: n=11 p=8 [L=2].
 *
 * Construction: 2^n switches, one per n-bit string; switches that differ in
 * exactly bit i are cabled with L_i parallel cables (seed 001 section 1.3:
 * "a Cartesian product of 2-vertex complete graphs"; its reference setup is
 * n=11 p=8 L=2, radix 30, diameter 11). It is the torus k=2x...x2 and is
 * built by the same code (grid.c).
 *
 * Ports: hosts on 1..p, then dimension i owns the L_i ports
 * p + 1 + sum_{j<i} L_j .. + L_i - 1, and a cable uses the same port number
 * on both ends, as OpenSM's dor requires of a hypercube ("the same port must
 * be used throughout the fabric to represent the hypercube dimension and
 * match on both ends of the cable", seed 002). Bit i is coordinate i of the
 * label ("x1-y0-z1" for bits 0..2), and switch index = the bit string read
 * with bit 0 least significant.
 *
 * Invariants: 2^n switches, 2^n * p hosts, 2^(n-1) * sum L_i cables between
 * switches, radix p + sum L_i, diameter n; deterministic.
 */
#include <stdio.h>

#include "generators.h"
#include "grid.h"

static int generate(struct lanes_params *p, struct lanes_builder *b, struct lanes_error *err)
{
	struct grid g = { .kind = "hypercube", .wrap = 1 };
	uint64_t n, hosts;
	char what[64];
	int rc;

	if ((rc = lanes_params_uint(p, "n", LANES_PARAM_REQUIRED, 1, GRID_DIMS_MAX, &n, err)))
		return rc;
	g.n = (size_t)n;
	for (size_t i = 0; i < g.n; i++)
		g.k[i] = 2;
	if ((rc = lanes_grid_read_L(p, g.n, g.L, err)) ||
	    (rc = lanes_params_uint(p, "p", LANES_PARAM_REQUIRED, 0, LANES_PORTS_MAX, &hosts, err)))
		return rc;
	g.p = (uint32_t)hosts;
	snprintf(what, sizeof(what), "n=%u p=%u", (unsigned)n, g.p);
	if ((rc = lanes_grid_layout(p, &g, what, err)))
		return rc;
	return lanes_grid_build(&g, b, err);
}

const struct lanes_generator lanes_gen_hypercube = {
	.name = "hypercube",
	.summary = "binary n-cube (2^n switches), L parallel cables per dimension",
	.usage = "n=N p=N [L=N|L0,L1,...]",
	.source = "seed 001 Sec. 1.3 (hypercube as a product of K2); OpenSM dor (seed 002)",
	.generate = generate,
};
