/*
 * torus.c - the k-ary n-cube with wraparound: k=4x4x4 p=8 [L=...].
 *
 * Construction: switches at the coordinates of k_0 x ... x k_{n-1}; in each
 * dimension i every switch is cabled to its +1 and -1 neighbours (mod k_i)
 * with L_i parallel cables (W. J. Dally, "Performance analysis of k-ary
 * n-cube interconnection networks", IEEE Trans. Computers 39(6), 1990; seed
 * 001 section 1.1, whose notation K_n, L_n, C this follows; seed 004).
 *
 * Ports (grid.h, docs/topologies-grid-tree.md): hosts on 1..p, then one
 * block per dimension in order. For k_i >= 3 the block is L_i ports towards
 * +1 then L_i ports towards -1, and +1 port l is cabled to -1 port l of the
 * neighbour. For k_i = 2 the block is L_i ports, cabled to the same port
 * numbers of the one neighbour (one set of cables, as in a hypercube and as
 * torus-2QoS files them). For k_i = 1 the dimension has no ports (a 2D torus
 * written as k=6x5x1, as torus-2QoS.conf allows).
 *
 * Invariants: S = prod k_i switches and S * p hosts; switch-to-switch cables
 * S * sum(L_i for k_i >= 3) + S/2 * sum(L_i for k_i = 2); every switch has
 * the same radix p + sum(width_i); diameter sum floor(k_i / 2). Dimension 0
 * varies fastest in the switch index; output is deterministic.
 */
#include "generators.h"
#include "grid.h"

static int generate(struct lanes_params *p, struct lanes_builder *b, struct lanes_error *err)
{
	struct grid g = { .kind = "torus", .wrap = 1 };
	int rc = lanes_grid_read(p, "k", &g, err);

	return rc ? rc : lanes_grid_build(&g, b, err);
}

const struct lanes_generator lanes_gen_torus = {
	.name = "torus",
	.summary = "k-ary n-cube with wraparound (torus), L parallel cables per neighbour pair",
	.usage = "k=K0xK1x... p=N [L=N|L0,L1,...]",
	.source = "Dally, IEEE Trans. Computers 1990 (k-ary n-cubes); seed 001 Sec. 1.1",
	.generate = generate,
};
