/*
 * grid.c - coordinates, labels, size checks and torus/mesh cabling for the
 * k-ary n-cube family (torus, mesh, hypercube; hyperx uses the coordinate
 * helpers). The port conventions are stated in grid.h and
 * docs/topologies-grid-tree.md; engines rely on them, so change neither
 * without the other.
 *
 * Radix-2 torus dimensions get one set of L cables, not two: the +1 and -1
 * neighbour are the same switch. This is what seed 001 counts (its 11D
 * hypercube with double links has radix 8 + 11 * 2 = 30, and it calls the
 * hypercube a special torus), what OpenSM's dor expects of a hypercube (the
 * same port on both ends of a cable), and what torus-2QoS would see anyway:
 * its link_tswitches() files every cable between two ring neighbours under
 * the first direction it examines. A torus of k = 2x2x2 is therefore the
 * 3-cube, port for port.
 */
#include "grid.h"

#include <stdio.h>

/* One letter per dimension, for switch labels. */
static const char dim_letters[GRID_DIMS_MAX + 1] = "xyzwabcdefghijkl";

void lanes_grid_format_dims(const uint32_t *k, size_t n, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++) {
		int w = snprintf(buf + len, size - len, "%s%u", i ? "x" : "", k[i]);

		if (w < 0)
			return;
		len += (size_t)w;
	}
}

void lanes_grid_coords(const uint32_t *k, size_t n, uint32_t s, uint32_t *c)
{
	for (size_t i = 0; i < n; i++) {
		c[i] = s % k[i];
		s /= k[i];
	}
}

uint32_t lanes_grid_stride(const uint32_t *k, size_t i)
{
	uint32_t stride = 1;

	for (size_t j = 0; j < i; j++)
		stride *= k[j];
	return stride;
}

void lanes_grid_label(const uint32_t *c, size_t n, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++) {
		int w = snprintf(buf + len, size - len, "%s%c%u", i ? "-" : "", dim_letters[i],
				 c[i]);

		if (w < 0)
			return;
		len += (size_t)w;
	}
}

int lanes_grid_read_L(struct lanes_params *p, size_t n, uint32_t *L, struct lanes_error *err)
{
	uint32_t v[LANES_PARAM_LIST_MAX];
	size_t m;
	int rc;

	if ((rc = lanes_params_list(p, "L", 0, 1, LANES_PORTS_MAX, v, &m, err)))
		return rc;
	if (m > 1 && m != n)
		return lanes_error_set(err, LANES_EINVAL,
				       "%s: parameter 'L' needs one value for all dimensions "
				       "or one per dimension (%zu), not %zu",
				       p->gen, n, m);
	for (size_t i = 0; i < n; i++)
		L[i] = m == 0 ? 1 : m == 1 ? v[0] : v[i];
	return 0;
}

uint64_t lanes_grid_product(const uint32_t *k, size_t n)
{
	uint64_t prod = 1;

	for (size_t i = 0; i < n; i++)
		prod = lanes_gen_sat_mul(prod, k[i]);
	return prod;
}

int lanes_grid_add_switches(struct gen *g, const uint32_t *k, size_t n, uint32_t switches,
		      unsigned nports, uint32_t *first, struct lanes_error *err)
{
	uint32_t c[GRID_DIMS_MAX];
	char label[128];

	for (uint32_t s = 0; s < switches; s++) {
		uint32_t node;
		int rc;

		lanes_grid_coords(k, n, s, c);
		lanes_grid_label(c, n, label, sizeof(label));
		if ((rc = lanes_gen_switch(g, nports, label, &node, err)))
			return rc;
		if (s == 0)
			*first = node;
	}
	return 0;
}

int lanes_grid_add_hosts(struct gen *g, uint32_t first, uint32_t switches, uint32_t p,
		   struct lanes_error *err)
{
	for (uint32_t s = 0; s < switches && p; s++) {
		int rc = lanes_gen_hosts(g, first + s, 1, p, err);

		if (rc)
			return rc;
	}
	return 0;
}

int lanes_grid_layout(struct lanes_params *prm, struct grid *g, const char *what,
		      struct lanes_error *err)
{
	uint64_t switches = lanes_grid_product(g->k, g->n);
	uint64_t ports = g->p;
	char why[96];
	int rc;

	for (size_t i = 0; i < g->n; i++) {
		g->base[i] = (uint32_t)ports + 1;
		g->width[i] = g->k[i] == 1 ? 0 : g->wrap && g->k[i] == 2 ? g->L[i] : 2 * g->L[i];
		ports += g->width[i];
	}
	snprintf(why, sizeof(why), "p=%u, plus %s", g->p,
		 g->wrap ? "2 L_i for each k_i > 2 and L_i for each k_i = 2"
			 : "2 L_i for each k_i > 1");
	if ((rc = lanes_gen_check_radix(g->kind, ports, why, err)) ||
	    (rc = lanes_gen_check_lids(prm, g->kind, what, switches, lanes_gen_sat_mul(switches, g->p), err)))
		return rc;
	g->switches = (uint32_t)switches;
	g->nports = (uint32_t)ports;
	return 0;
}

int lanes_grid_read(struct lanes_params *params, const char *kkey, struct grid *g,
	      struct lanes_error *err)
{
	char dims[128], what[160];
	uint64_t p;
	int rc;

	if ((rc = lanes_params_list(params, kkey, 1, 1, LANES_LID_MAX, g->k, &g->n, err)) ||
	    (rc = lanes_grid_read_L(params, g->n, g->L, err)) ||
	    (rc = lanes_params_uint(params, "p", LANES_PARAM_REQUIRED, 0, LANES_PORTS_MAX, &p,
				    err)))
		return rc;
	g->p = (uint32_t)p;
	lanes_grid_format_dims(g->k, g->n, dims, sizeof(dims));
	snprintf(what, sizeof(what), "%s=%s p=%u", kkey, dims, g->p);
	return lanes_grid_layout(params, g, what, err);
}

/* The L cables from switch s towards +1 in dimension i, if it has any. */
static int cable_dim(struct gen *gen, const struct grid *g, uint32_t first, uint32_t s,
		     const uint32_t *c, size_t i, struct lanes_error *err)
{
	uint32_t k = g->k[i], stride = lanes_grid_stride(g->k, i);
	uint32_t t, back;

	if (k == 1 || (c[i] == k - 1 && (!g->wrap || k == 2)))
		return 0;
	t = c[i] + 1 < k ? s + stride : s - (k - 1) * stride;
	/* a radix-2 torus block has L ports, used on both ends alike */
	back = g->width[i] == g->L[i] ? 0 : g->L[i];
	for (uint32_t l = 0; l < g->L[i]; l++) {
		int rc = lanes_gen_cable(gen, first + s, g->base[i] + l, first + t, g->base[i] + back + l,
				   err);

		if (rc)
			return rc;
	}
	return 0;
}

int lanes_grid_build(const struct grid *g, struct lanes_builder *b, struct lanes_error *err)
{
	struct gen gen;
	uint32_t first = 0, c[GRID_DIMS_MAX];
	int rc;

	lanes_gen_init(&gen, b, g->kind);
	if ((rc = lanes_grid_add_switches(&gen, g->k, g->n, g->switches, g->nports, &first, err)))
		return rc;
	for (uint32_t s = 0; s < g->switches; s++) {
		lanes_grid_coords(g->k, g->n, s, c);
		for (size_t i = 0; i < g->n; i++)
			if ((rc = cable_dim(&gen, g, first, s, c, i, err)))
				return rc;
	}
	return lanes_grid_add_hosts(&gen, first, g->switches, g->p, err);
}
