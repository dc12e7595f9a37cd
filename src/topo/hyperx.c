/*
 * hyperx.c - HyperX / Flattened Butterfly / generalised hypercube:
 * K=4x8x8x8 L=2,1,1,1 p=8.
 *
 * Construction: switches at the coordinates of K_0 x ... x K_{N-1}; in each
 * dimension i, every two switches that differ only in coordinate i are
 * joined by L_i parallel cables: the Cartesian product of complete graphs
 * (Bhuyan and Agrawal, "Generalized hypercube and hyperbus structures for a
 * computer network", IEEE Trans. Computers 1984; Kim, Dally, Abts, "Flattened
 * butterfly", ISCA 2007; Ahn, Binkert, Davis, McLaren, Schreiber, "HyperX",
 * SC09). Notation follows seed 001 section 1.2: K_n orders, L_n link widths,
 * C = p hosts per switch. L defaults to 1 in every dimension.
 *
 * Ports: hosts on 1..p. Then dimension i owns a block of L_i * (K_i - 1)
 * ports starting at b_i = p + 1 + sum_{j<i} L_j (K_j - 1). Within the block
 * the peers come in increasing order of their coordinate, skipping the
 * switch's own: the peer with coordinate j uses slot j (j < c_i) or j - 1
 * (j > c_i), and its L_i cables are ports b_i + slot * L_i + l, l < L_i.
 * Cable l between coordinates a < b is port b_i + (b-1) L_i + l on a and
 * b_i + a L_i + l on b. So the port towards coordinate j in dimension i is
 * computable from j alone, which dimension-order routing uses.
 *
 * Invariants: S = prod K_i switches (dimension 0 fastest in the index,
 * labels "x1-y2-z0-w3"), S * p hosts, radix p + sum L_i (K_i - 1) on every
 * switch, S/2 * sum L_i (K_i - 1) switch-to-switch cables, diameter = the
 * number of dimensions with K_i > 1. Output is deterministic.
 */
#include <stdio.h>

#include "generators.h"
#include "grid.h"

struct hyperx {
	size_t n;
	uint32_t K[GRID_DIMS_MAX], L[GRID_DIMS_MAX];
	uint32_t base[GRID_DIMS_MAX];
	uint32_t p, switches, nports;
};

static int read_params(struct lanes_params *params, struct hyperx *h, struct lanes_error *err)
{
	uint64_t p;
	int rc;

	if ((rc = lanes_params_list(params, "k", 1, 1, LANES_LID_MAX, h->K, &h->n, err)) ||
	    (rc = lanes_grid_read_L(params, h->n, h->L, err)) ||
	    (rc = lanes_params_uint(params, "p", LANES_PARAM_REQUIRED, 0, LANES_PORTS_MAX, &p,
				    err)))
		return rc;
	h->p = (uint32_t)p;
	return 0;
}

static int layout(struct lanes_params *prm, struct hyperx *h, struct lanes_error *err)
{
	uint64_t switches = lanes_grid_product(h->K, h->n), ports = h->p;
	char dims[128], what[160], why[64];
	int rc;

	for (size_t i = 0; i < h->n; i++) {
		h->base[i] = ports > LANES_PORTS_MAX ? 0 : (uint32_t)ports + 1;
		ports += (uint64_t)h->L[i] * (h->K[i] - 1);
	}
	lanes_grid_format_dims(h->K, h->n, dims, sizeof(dims));
	snprintf(what, sizeof(what), "k=%s p=%u", dims, h->p);
	snprintf(why, sizeof(why), "p=%u, plus L_i * (K_i - 1) per dimension", h->p);
	if ((rc = lanes_gen_check_radix("hyperx", ports, why, err)) ||
	    (rc = lanes_gen_check_lids(prm, "hyperx", what, switches, lanes_gen_sat_mul(switches, h->p), err)))
		return rc;
	h->switches = (uint32_t)switches;
	h->nports = (uint32_t)ports;
	return 0;
}

/* Cables from switch s to its peers with a larger coordinate i. */
static int cable_dim(struct gen *g, const struct hyperx *h, uint32_t first, uint32_t s,
		     uint32_t ci, size_t i, struct lanes_error *err)
{
	uint32_t stride = lanes_grid_stride(h->K, i), L = h->L[i];

	for (uint32_t j = ci + 1; j < h->K[i]; j++) {
		uint32_t t = s + (j - ci) * stride;

		for (uint32_t l = 0; l < L; l++) {
			int rc = lanes_gen_cable(g, first + s, h->base[i] + (j - 1) * L + l, first + t,
					   h->base[i] + ci * L + l, err);

			if (rc)
				return rc;
		}
	}
	return 0;
}

static int generate(struct lanes_params *params, struct lanes_builder *b,
		    struct lanes_error *err)
{
	struct hyperx h;
	struct gen g;
	uint32_t first = 0, c[GRID_DIMS_MAX];
	int rc;

	if ((rc = read_params(params, &h, err)) || (rc = layout(params, &h, err)))
		return rc;
	lanes_gen_init(&g, b, "hyperx");
	if ((rc = lanes_grid_add_switches(&g, h.K, h.n, h.switches, h.nports, &first, err)))
		return rc;
	for (uint32_t s = 0; s < h.switches; s++) {
		lanes_grid_coords(h.K, h.n, s, c);
		for (size_t i = 0; i < h.n; i++)
			if ((rc = cable_dim(&g, &h, first, s, c[i], i, err)))
				return rc;
	}
	return lanes_grid_add_hosts(&g, first, h.switches, h.p, err);
}

const struct lanes_generator lanes_gen_hyperx = {
	.name = "hyperx",
	.summary = "HyperX / flattened butterfly: product of complete graphs, L cables per pair",
	.usage = "k=K0xK1x... p=N [L=N|L0,L1,...]",
	.source = "Ahn et al., HyperX, SC09; Bhuyan and Agrawal 1984; seed 001 Sec. 1.2",
	.generate = generate,
};
