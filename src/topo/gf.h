/*
 * gf.h - finite fields GF(q) for prime powers q, and the McKay-Miller-Siran
 * (MMS) graphs built on them, which the Slim Fly generators (slimfly.c,
 * sfxff.c) share.
 *
 * Field elements are the integers 0..q-1: for q = p^n an element is the
 * polynomial over GF(p) whose coefficients are its base-p digits (least
 * significant digit = constant term), reduced modulo the smallest monic
 * irreducible polynomial of degree n (coefficients read as a base-p number)
 * that has a primitive root. The primitive element xi is the smallest element
 * that generates the multiplicative group. Both choices are fixed, so the
 * graphs built here are the same on every run.
 *
 * MMS graph (Besta and Hoefler, "Slim Fly", SC14, Sec. 3.1; Hafner,
 * "Geometric realisation of the graphs of McKay-Miller-Siran", JCTB 2004):
 * q = 4w + delta with delta in {-1, 0, 1}; vertices (t, x, y) with t in {0,1}
 * and x, y in GF(q), numbered t*q^2 + x*q + y; generator sets
 *   delta =  1: X = {1, xi^2, ..., xi^(q-3)},        X' = {xi, xi^3, ..., xi^(q-2)}
 *   delta =  0: X = {1, xi^2, ..., xi^(q-2)},        X' = {xi, xi^3, ..., xi^(q-1)}
 *   delta = -1: X = {xi^0, xi^2, ..., xi^(2w-2), xi^(2w-1), xi^(2w+1), ..., xi^(4w-3)},
 *               X' = {xi^1, xi^3, ..., xi^(2w-1), xi^(2w), xi^(2w+2), ..., xi^(4w-2)};
 * edges (0,x,y)-(0,x,y') iff y - y' in X; (1,m,c)-(1,m,c') iff c - c' in X';
 * (0,x,y)-(1,m,c) iff y = m*x + c. Seed 001 (Sec. 1.5) states the same graph
 * for delta = 0 with y-edges and t-edges. Every vertex has degree
 * k' = (3q - delta)/2 and the diameter is 2.
 */
#ifndef LANES_TOPO_GF_H
#define LANES_TOPO_GF_H

#include <stdint.h>

#include "lanes/error.h"

/* Largest field supported (tables are q*q entries). */
#define GF_Q_MAX 256

struct gf {
	unsigned q, p, n;  /* q = p^n */
	unsigned prim;     /* the primitive element xi */
	uint16_t *add;     /* q*q: a + b */
	uint16_t *neg;     /* q: -a */
	uint16_t *exp;     /* 2(q-1): xi^i */
	uint16_t *log;     /* q: log_xi(a) for a != 0 */
};

/* Is q = p^n for a prime p and n >= 1? Fills p and n when it is. */
int lanes_gf_prime_power(uint64_t q, unsigned *p, unsigned *n);

/* Build GF(q); q must be a prime power <= GF_Q_MAX. 0 or LANES_ENOMEM/EINVAL. */
int lanes_gf_init(struct gf *f, unsigned q, struct lanes_error *err);
void lanes_gf_free(struct gf *f);

static inline unsigned gf_add(const struct gf *f, unsigned a, unsigned b)
{
	return f->add[a * f->q + b];
}

static inline unsigned gf_sub(const struct gf *f, unsigned a, unsigned b)
{
	return f->add[a * f->q + f->neg[b]];
}

static inline unsigned gf_mul(const struct gf *f, unsigned a, unsigned b)
{
	return a && b ? f->exp[f->log[a] + f->log[b]] : 0;
}

/* xi^e for any e >= 0. */
static inline unsigned gf_prim_pow(const struct gf *f, unsigned e)
{
	return f->exp[e % (f->q - 1)];
}

/* An MMS graph: 2q^2 vertices of degree k', neighbours in ascending order. */
struct mms {
	unsigned q;
	int delta;
	uint32_t vertices;  /* 2q^2 */
	uint32_t degree;    /* (3q - delta)/2 */
	uint32_t *nbr;      /* vertices * degree */
};

/*
 * Check that q gives an MMS graph (a prime power 4w + delta, |delta| <= 1);
 * otherwise LANES_EINVAL "<kind>: parameter 'q' ...". Fills delta.
 */
int lanes_mms_check_q(const char *kind, uint64_t q, int *delta, struct lanes_error *err);

/* Build the graph for a q that passed lanes_mms_check_q. */
int lanes_mms_build(struct mms *m, unsigned q, struct lanes_error *err);
void lanes_mms_free(struct mms *m);

/* Position of u in v's neighbour list, or UINT32_MAX when not adjacent. */
uint32_t lanes_mms_port(const struct mms *m, uint32_t v, uint32_t u);

/* Coordinates (t, x, y) of vertex v. */
static inline void mms_coords(const struct mms *m, uint32_t v, unsigned *t, unsigned *x,
			      unsigned *y)
{
	*t = v / (m->q * m->q);
	*x = v / m->q % m->q;
	*y = v % m->q;
}

#endif
