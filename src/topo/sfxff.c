/*
 * sfxff.c - Slim Fly x FlatFly products, seed 001 ("Early evaluation of
 * direct large-scale InfiniBand networks with adaptive routing", Sec. 1.5):
 * the Cartesian product of the MMS graph of a prime power q (slimfly.c, with
 * every Slim Fly edge made of Lsf parallel cables) and N complete graphs
 * K_1 x ... x K_N (FlatFly dimensions, dimension n made of L_n parallel
 * cables), with p hosts per switch. K and L are read as hyperx reads them
 * (L absent: 1 everywhere; one value: every dimension; else one per K).
 *
 *   switches  2q^2 * K_1 * ... * K_N
 *   radix     p + Lsf*(3q - delta)/2 + sum_n L_n*(K_n - 1)
 *   diameter  2 + N
 *
 * The two presets are seed 001's setups for 2048 switches of 36 ports with
 * C = 8 hosts each (16384 hosts):
 *   sfxff-1: q=4 Lsf=2 K=8x8 L=1,1 p=8  -> degree 34, diameter 4
 *   sfxff-2: q=8 Lsf=1 K=16  L=1   p=8  -> degree 35, diameter 3
 * Keys given with a preset override the preset's values; L defaults to the
 * preset's widths when K is the preset's too, else to 1.
 *
 * Numbering: switch (v, c_1, .., c_N) is switch v*P + c_1 + K_1*(c_2 + ...)
 * with P = K_1*...*K_N: one Slim Fly vertex's switches are consecutive (the
 * "twin rack" of seed 001), labelled "sf<t>.<x>.<y>-ff<c_1>.<c_2>...".
 * Ports 1..p are hosts; then the Slim Fly ports, Lsf per neighbour,
 * neighbours in ascending MMS vertex order (as in slimfly.c); then dimension
 * 1, L_1 per other coordinate value in ascending order (the hyperx layout),
 * then dimension 2, and so on. The parallel cables of one bundle are on
 * consecutive ports at both ends. Switches, then cables, then hosts.
 */
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "generators.h"
#include "gf.h"
#include "params.h"

#define KIND "sfxff"
#define USAGE "preset=sfxff-1|sfxff-2 | q=N k=N[xN...] p=N [Lsf=N] [L=N[,N...]]"
#define DIMS LANES_PARAM_LIST_MAX

struct preset {
	unsigned q, l, p;
	size_t ndims;
	uint32_t k[2], w[2];
};

struct sfx {
	unsigned q, l, p, kq; /* kq: Slim Fly network radix (3q - delta)/2 */
	int delta;
	size_t ndims;
	uint32_t k[DIMS], w[DIMS], stride[DIMS], base[DIMS];
	uint32_t planes;      /* K_1 * ... * K_N */
	uint64_t radix;
	uint32_t first;       /* node index of switch 0 */
	struct mms m;
	struct gen gen;
};

static const struct preset *read_preset(struct lanes_params *prm, int *rc,
					struct lanes_error *err)
{
	static const char *const names[] = { "sfxff-1", "sfxff-2", NULL };
	static const struct preset presets[] = {
		{ 4, 2, 8, 2, { 8, 8 }, { 1, 1 } },
		{ 8, 1, 8, 1, { 16, 0 }, { 1, 0 } },
	};
	int which;

	*rc = lanes_params_choice(prm, "preset", names, -1, &which, err);
	return *rc || which < 0 ? NULL : &presets[which];
}

/* FlatFly orders K and widths L, as hyperx reads them (L: absent, one, or one per K). */
static int read_dims(struct lanes_params *prm, struct sfx *s, const struct preset *pre,
		     struct lanes_error *err)
{
	size_t nw;
	int rc;

	if ((rc = lanes_params_list(prm, "k", !pre, 2, 254, s->k, &s->ndims, err)) ||
	    (rc = lanes_params_list(prm, "L", 0, 1, 254, s->w, &nw, err)))
		return rc;
	if (!s->ndims) { /* the preset's dimensions, and its widths unless L is given */
		s->ndims = pre->ndims;
		memcpy(s->k, pre->k, sizeof(pre->k));
		if (!nw)
			memcpy(s->w, pre->w, sizeof(pre->w));
		nw = nw ? nw : pre->ndims;
	}
	if (nw <= 1)
		for (size_t d = 0; d < s->ndims; d++)
			s->w[d] = nw ? s->w[0] : 1;
	else if (nw != s->ndims)
		return lanes_error_set(err, LANES_EINVAL,
				       "%s: parameter 'L' needs one width for all dimensions or one "
				       "per dimension of 'k' (%zu), not %zu",
				       KIND, s->ndims, nw);
	return 0;
}

/* Strides, port bases, the switch count and the radix; refuse what cannot be built. */
static int layout(struct lanes_params *prm, struct sfx *s, struct lanes_error *err)
{
	uint64_t planes = 1, radix = s->p + (uint64_t)s->l * s->kq, sw;
	int rc;

	for (size_t d = 0; d < s->ndims; d++) {
		s->stride[d] = (uint32_t)planes; /* only used once the LID check passed */
		s->base[d] = (uint32_t)(radix + 1);
		radix += (uint64_t)s->w[d] * (s->k[d] - 1);
		planes = lanes_gen_sat_mul(planes, s->k[d]);
	}
	sw = lanes_gen_sat_mul(2ULL * s->q * s->q, planes);
	if ((rc = lanes_gen_check_radix(KIND, radix,
				  "'p' + 'Lsf'*(3q-delta)/2 + sum of 'L'*('k'-1)", err)) ||
	    (rc = lanes_gen_check_lids(prm, KIND, "parameters 'q', 'k' and 'p'", sw, lanes_gen_sat_mul(sw, s->p),
				 err)))
		return rc;
	s->planes = (uint32_t)planes;
	s->radix = radix;
	return 0;
}

static int read_params(struct lanes_params *prm, struct sfx *s, struct lanes_error *err)
{
	const struct preset *pre;
	uint64_t q, l, p;
	int rc;

	pre = read_preset(prm, &rc, err);
	if (rc || (rc = lanes_params_uint(prm, "q", pre ? pre->q : LANES_PARAM_REQUIRED, 0,
					  UINT32_MAX, &q, err)) ||
	    (rc = lanes_mms_check_q(KIND, q, &s->delta, err)) ||
	    (rc = lanes_params_uint(prm, "Lsf", pre ? pre->l : 1, 1, 254, &l, err)) ||
	    (rc = read_dims(prm, s, pre, err)) ||
	    (rc = lanes_params_uint(prm, "p", pre ? pre->p : LANES_PARAM_REQUIRED, 0, 254, &p,
				    err)))
		return rc;
	s->q = (unsigned)q;
	s->l = (unsigned)l;
	s->p = (unsigned)p;
	s->kq = (unsigned)(3 * (int)q - s->delta) / 2;
	return layout(prm, s, err);
}

static int add_switches(struct sfx *s, struct lanes_error *err)
{
	char label[160];
	int rc;

	for (uint32_t v = 0; v < s->m.vertices; v++)
		for (uint32_t f = 0; f < s->planes; f++) {
			unsigned t, x, y;
			int len;
			uint32_t node;

			mms_coords(&s->m, v, &t, &x, &y);
			len = snprintf(label, sizeof(label), "sf%u.%u.%u-ff", t, x, y);
			for (size_t d = 0; d < s->ndims && len > 0 && (size_t)len < sizeof(label); d++)
				len += snprintf(label + len, sizeof(label) - (size_t)len, "%s%u",
						d ? "." : "", f / s->stride[d] % s->k[d]);
			if ((rc = lanes_gen_switch(&s->gen, (unsigned)s->radix, label, &node, err)))
				return rc;
			if (!v && !f)
				s->first = node;
		}
	return 0;
}

/* The Lsf cables from switch (v, f) to each Slim Fly neighbour u > v, same f. */
static int sf_cables(struct sfx *s, uint32_t v, uint32_t f, struct lanes_error *err)
{
	int rc;

	for (uint32_t i = 0; i < s->m.degree; i++) {
		uint32_t u = s->m.nbr[(size_t)v * s->m.degree + i], j;

		if (u < v)
			continue;
		j = lanes_mms_port(&s->m, u, v);
		for (unsigned c = 0; c < s->l; c++)
			if ((rc = lanes_gen_cable(&s->gen, s->first + v * s->planes + f,
					    s->p + 1 + i * s->l + c, s->first + u * s->planes + f,
					    s->p + 1 + j * s->l + c, err)))
				return rc;
	}
	return 0;
}

/* The L_d cables from switch (v, f) to each higher coordinate in dimension d. */
static int ff_cables(struct sfx *s, uint32_t v, uint32_t f, size_t d, struct lanes_error *err)
{
	uint32_t me = s->first + v * s->planes + f, c = f / s->stride[d] % s->k[d];
	int rc;

	for (uint32_t c2 = c + 1; c2 < s->k[d]; c2++)
		for (unsigned j = 0; j < s->w[d]; j++)
			if ((rc = lanes_gen_cable(&s->gen, me, s->base[d] + (c2 - 1) * s->w[d] + j,
					    me + (c2 - c) * s->stride[d],
					    s->base[d] + c * s->w[d] + j, err)))
				return rc;
	return 0;
}

static int add_cables(struct sfx *s, struct lanes_error *err)
{
	int rc;

	for (uint32_t v = 0; v < s->m.vertices; v++)
		for (uint32_t f = 0; f < s->planes; f++) {
			if ((rc = sf_cables(s, v, f, err)))
				return rc;
			for (size_t d = 0; d < s->ndims; d++)
				if ((rc = ff_cables(s, v, f, d, err)))
					return rc;
		}
	return 0;
}

static int generate(struct lanes_params *prm, struct lanes_builder *b, struct lanes_error *err)
{
	struct sfx s;
	int rc;

	memset(&s, 0, sizeof(s));
	lanes_gen_init(&s.gen, b, KIND);
	if ((rc = read_params(prm, &s, err)) || (rc = lanes_mms_build(&s.m, s.q, err)) ||
	    (rc = add_switches(&s, err)) || (rc = add_cables(&s, err)))
		goto out;
	for (uint32_t v = 0; v < s.m.vertices * s.planes; v++)
		if ((rc = lanes_gen_hosts(&s.gen, s.first + v, 1, s.p, err)))
			goto out;
out:
	lanes_mms_free(&s.m);
	return rc;
}

const struct lanes_generator lanes_gen_sfxff = {
	.name = "sfxff",
	.summary = "Slim Fly x FlatFly: Cartesian product of an MMS graph and complete graphs",
	.usage = USAGE,
	.source = "seed 001 Sec. 1.5 (SF x FF-1, SF x FF-2); Besta, Hoefler, SC14",
	.generate = generate,
};
