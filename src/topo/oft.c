/*
 * oft.c - the two-level orthogonal fat tree (OFT) of Valerio, Moser and
 * Melliar-Smith ("Recursively scalable fat-trees as interconnection
 * networks", 1994: the two-level OFT, built from a complete set of mutually
 * orthogonal Latin squares, is their building block), as Kathareios,
 * Minkenberg, Prisacari, Rodriguez and Hoefler evaluate it ("Cost-effective
 * diameter-two topologies: analysis and evaluation", SC15: diameter two,
 * 2 cables and 3 switch ports per host) and Schneider, Bibartiu and Hoefler
 * route it with VL hopping (HOTI 2016). Of these we had the abstracts; the
 * sizes below follow from the construction: switches of radix 2k with
 * k - 1 = q a prime power; 2(k^2 - k + 1) leaf switches with k hosts and k
 * up-links each, k^2 - k + 1 spine switches with 2k leaves each,
 * 2k(k^2 - k + 1) hosts.
 *
 * Construction: the projective plane PG(2, q) over GF(q) (gf.h), as a
 * complete set of q - 1 mutually orthogonal Latin squares of order q is
 * equivalent to it (Camarero, Martinez, Vallejo and Beivide, "Projective
 * networks", arXiv:1512.07574, count the OFT among the networks built on
 * projective planes). Points and lines of PG(2, q) are both written as the
 * n = q^2 + q + 1 nonzero vectors of GF(q)^3 whose first nonzero coordinate
 * is 1, numbered (0,0,1), then (0,1,z), then (1,y,z) for y, z = 0..q-1;
 * point x lies on line v when x . v = 0. Every line has k = q + 1 points,
 * every point is on k lines, two points share exactly one line and two lines
 * one point.
 *  - Point leaves P0..P(n-1) (switches 0..n-1): P_x is cabled to the spines
 *    of the k lines through point x.
 *  - Line leaves L0..L(n-1) (switches n..2n-1): L_a is cabled to the spines
 *    of the k points on line a.
 *  - Spines S0..S(n-1) (switches 2n..3n-1): S_v joins the point leaves of
 *    the points on line v and the line leaves of the lines through point v.
 * Two point leaves share exactly one spine (the line through both points),
 * two line leaves exactly one (the point on both lines); P_x and L_a share
 * the spines v with x . v = 0 and a . v = 0: one when x != a, k when x = a.
 * So hosts are two switch hops apart at most; a leaf is three hops from the
 * spines it does not touch. Where the sources are silent (which leaf half is
 * which, the numbering and the ports) the choices are ours.
 *
 * Ports: a leaf has hosts on 1..p (p = k by default) and its spines on
 * p+1..p+k in ascending spine order; a spine has its point leaves on 1..k
 * and its line leaves on k+1..2k, each in ascending order. Switches, then
 * cables, then hosts.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/util.h"
#include "gen.h"
#include "generators.h"
#include "gf.h"
#include "params.h"

#define KIND "oft"
#define USAGE "k=N [p=N]"

struct oft {
	unsigned q, k, p;
	uint32_t n;       /* points = lines = spines = q^2 + q + 1 */
	uint32_t first;   /* node index of switch P0 */
	uint16_t (*vec)[3];
	uint32_t *inc;    /* n * k: inc[v*k + i], the i-th vector w with v . w = 0, ascending */
	struct gf gf;
	struct gen gen;
};

static int read_params(struct lanes_params *prm, struct oft *o, struct lanes_error *err)
{
	uint64_t k, p;
	unsigned pr, e;
	char what[96];
	int rc;

	if ((rc = lanes_params_uint(prm, "k", LANES_PARAM_REQUIRED, 3, 127, &k, err)))
		return rc;
	if (!lanes_gf_prime_power(k - 1, &pr, &e))
		return lanes_error_set(err, LANES_EINVAL,
				       KIND ": parameter 'k' must be a prime power plus one "
				       "(k - 1 = q, the order of the projective plane), not %llu",
				       (unsigned long long)k);
	if ((rc = lanes_params_uint(prm, "p", k, 0, 254, &p, err)) ||
	    (rc = lanes_gen_check_radix(KIND, p + k, "'p' hosts + 'k' spine ports of a leaf", err)))
		return rc;
	o->k = (unsigned)k;
	o->q = (unsigned)k - 1;
	o->p = (unsigned)p;
	o->n = o->q * o->q + o->q + 1;
	snprintf(what, sizeof(what), "parameters 'k' and 'p' (k=%llu p=%llu)",
		 (unsigned long long)k, (unsigned long long)p);
	return lanes_gen_check_lids(prm, KIND, what, 3ull * o->n, lanes_gen_sat_mul(2ull * o->n, p), err);
}

static unsigned dot(const struct oft *o, uint32_t a, uint32_t b)
{
	unsigned s = 0;

	for (int c = 0; c < 3; c++)
		s = gf_add(&o->gf, s, gf_mul(&o->gf, o->vec[a][c], o->vec[b][c]));
	return s;
}

/* The n normalised vectors and, for each, the k vectors orthogonal to it. */
static int build_plane(struct oft *o, struct lanes_error *err)
{
	uint32_t i = 0;
	int rc;

	if ((rc = lanes_gf_init(&o->gf, o->q, err)))
		return rc;
	o->vec = malloc(sizeof(*o->vec) * o->n);
	o->inc = malloc(sizeof(uint32_t) * o->n * o->k);
	if (!o->vec || !o->inc)
		return lanes_error_oom(err);
	o->vec[i][0] = 0, o->vec[i][1] = 0, o->vec[i][2] = 1, i++;
	for (unsigned z = 0; z < o->q; z++)
		o->vec[i][0] = 0, o->vec[i][1] = 1, o->vec[i][2] = (uint16_t)z, i++;
	for (unsigned y = 0; y < o->q; y++)
		for (unsigned z = 0; z < o->q; z++)
			o->vec[i][0] = 1, o->vec[i][1] = (uint16_t)y, o->vec[i][2] = (uint16_t)z, i++;
	for (uint32_t v = 0; v < o->n; v++) {
		uint32_t found = 0;

		for (uint32_t w = 0; w < o->n; w++)
			if (!dot(o, v, w)) {
				if (found == o->k)
					return lanes_error_set(err, LANES_EINTERNAL,
							       KIND ": line %u has more than k points", v);
				o->inc[(size_t)v * o->k + found++] = w;
			}
		if (found != o->k)
			return lanes_error_set(err, LANES_EINTERNAL, KIND ": line %u has %u points, not k",
					       v, found);
	}
	return 0;
}

/* Position of w in v's list of orthogonal vectors. */
static unsigned pos(const struct oft *o, uint32_t v, uint32_t w)
{
	unsigned i = 0;

	while (o->inc[(size_t)v * o->k + i] != w)
		i++;
	return i;
}

static int add_switches(struct oft *o, struct lanes_error *err)
{
	static const char half[3] = { 'P', 'L', 'S' };
	char label[32];
	uint32_t node;
	int rc;

	for (unsigned h = 0; h < 3; h++)
		for (uint32_t v = 0; v < o->n; v++) {
			snprintf(label, sizeof(label), "%c%u", half[h], v);
			if ((rc = lanes_gen_switch(&o->gen, h < 2 ? o->p + o->k : 2 * o->k, label,
						   &node, err)))
				return rc;
			if (!h && !v)
				o->first = node;
		}
	return 0;
}

/* Leaf v of half h (0 points, 1 lines) to each of its k spines. */
static int add_leaf_cables(struct oft *o, unsigned h, uint32_t v, struct lanes_error *err)
{
	uint32_t leaf = o->first + h * o->n + v;
	int rc;

	for (unsigned i = 0; i < o->k; i++) {
		uint32_t s = o->inc[(size_t)v * o->k + i];

		if ((rc = lanes_gen_cable(&o->gen, leaf, o->p + 1 + i, o->first + 2 * o->n + s,
					  h * o->k + 1 + pos(o, s, v), err)))
			return rc;
	}
	return 0;
}

static int generate(struct lanes_params *prm, struct lanes_builder *b, struct lanes_error *err)
{
	struct oft o = { 0 };
	int rc;

	lanes_gen_init(&o.gen, b, KIND);
	if ((rc = read_params(prm, &o, err)) || (rc = build_plane(&o, err)) ||
	    (rc = add_switches(&o, err)))
		goto out;
	for (unsigned h = 0; h < 2; h++)
		for (uint32_t v = 0; v < o.n; v++)
			if ((rc = add_leaf_cables(&o, h, v, err)))
				goto out;
	for (uint32_t v = 0; v < 2 * o.n; v++)
		if ((rc = lanes_gen_hosts(&o.gen, o.first + v, 1, o.p, err)))
			goto out;
out:
	free(o.vec);
	free(o.inc);
	lanes_gf_free(&o.gf);
	return rc;
}

const struct lanes_generator lanes_gen_oft = {
	.name = "oft",
	.summary = "two-level orthogonal fat tree from the projective plane of order k-1",
	.usage = USAGE,
	.source = "Valerio, Moser, Melliar-Smith, 1994; Kathareios et al., SC15",
	.generate = generate,
};
