/*
 * mesh.c - the k-ary n-cube without wraparound: k=4x4 p=8 [L=...].
 *
 * Construction: switches at the coordinates of k_0 x ... x k_{n-1}; in each
 * dimension i a switch is cabled to its +1 neighbour when c_i < k_i - 1,
 * with L_i parallel cables (the open counterpart of torus.c; Dally 1990).
 *
 * Ports (grid.h, docs/topologies-grid-tree.md): hosts on 1..p, then one
 * block per dimension with k_i >= 2: L_i ports towards +1, then L_i ports
 * towards -1, and +1 port l is cabled to -1 port l of the neighbour. Every
 * switch has the same port count, so the +1 ports of the last switch and the
 * -1 ports of the first switch of each line stay uncabled: a port's direction
 * never depends on where the switch sits, which is what OpenSM's dor asks of
 * a mesh ("the dimension should consistently use the same pair of ports",
 * seed 002). This holds for k_i = 2 too (unlike the torus, whose radix-2
 * dimensions have one set of cables). A dimension with k_i = 1 has no ports.
 *
 * Invariants: S = prod k_i switches, S * p hosts; switch-to-switch cables
 * sum(S / k_i * (k_i - 1) * L_i); declared ports p + sum(2 L_i, k_i >= 2);
 * diameter sum(k_i - 1). Dimension 0 varies fastest; output is
 * deterministic.
 */
#include "generators.h"
#include "grid.h"

static int generate(struct lanes_params *p, struct lanes_builder *b, struct lanes_error *err)
{
	struct grid g = { .kind = "mesh", .wrap = 0 };
	int rc = lanes_grid_read(p, "k", &g, err);

	return rc ? rc : lanes_grid_build(&g, b, err);
}

const struct lanes_generator lanes_gen_mesh = {
	.name = "mesh",
	.summary = "k-ary n-cube without wraparound (mesh), L parallel cables per neighbour pair",
	.usage = "k=K0xK1x... p=N [L=N|L0,L1,...]",
	.source = "Dally, IEEE Trans. Computers 1990 (k-ary n-cubes); OpenSM dor (seed 002)",
	.generate = generate,
};
