/*
 * slimfly.c - the Slim Fly of Besta and Hoefler ("Slim Fly: a cost effective
 * low-diameter network topology", SC14): the McKay-Miller-Siran graph of a
 * prime power q = 4w + delta, delta in {-1, 0, 1}, built as in Hafner's
 * geometric construction (see gf.h for the generator sets; seed 001 Sec. 1.5
 * states the delta = 0 case). 2q^2 switches, diameter 2, network radix
 * k' = (3q - delta)/2 on every switch; p hosts per switch, by default
 * ceil(k'/2) as Besta and Hoefler recommend for full global bandwidth.
 *
 * Numbering: switch (t, x, y) is switch t*q^2 + x*q + y, labelled
 * "t<t>-x<x>-y<y>" (field elements as integers, see gf.h). Ports 1..p are
 * hosts; ports p+1..p+k' go to the switch's neighbours in ascending switch
 * order. For t = 0 that is the y-edges (same x) first, then the t-edges to
 * (1, m, y - m*x) for m = 0..q-1; for t = 1 the t-edges to (0, x, m*x + c)
 * for x = 0..q-1 first, then the y-edges. Switches, then cables, then hosts.
 */
#include <stdio.h>

#include "gen.h"
#include "generators.h"
#include "gf.h"
#include "params.h"

#define KIND "slimfly"
#define USAGE "q=N [p=N]"

struct sf {
	unsigned q, p;
	int delta;
	uint32_t first; /* node index of switch 0 */
	struct mms m;
	struct gen gen;
};

static int read_params(struct lanes_params *prm, struct sf *s, struct lanes_error *err)
{
	uint64_t q, p, k;
	char what[96];
	int rc;

	if ((rc = lanes_params_uint(prm, "q", LANES_PARAM_REQUIRED, 0, UINT32_MAX, &q, err)) ||
	    (rc = lanes_mms_check_q(KIND, q, &s->delta, err)))
		return rc;
	k = (uint64_t)(3 * (int64_t)q - s->delta) / 2;
	if ((rc = lanes_params_uint(prm, "p", (k + 1) / 2, 0, 254, &p, err)) ||
	    (rc = lanes_gen_check_radix(KIND, p + k, "'p' hosts + (3q-delta)/2 network ports for 'q'",
				  err)))
		return rc;
	snprintf(what, sizeof(what), "parameters 'q' and 'p' (q=%llu p=%llu)",
		 (unsigned long long)q, (unsigned long long)p);
	if ((rc = lanes_gen_check_lids(prm, KIND, what, 2 * q * q, lanes_gen_sat_mul(2 * q * q, p), err)))
		return rc;
	s->q = (unsigned)q;
	s->p = (unsigned)p;
	return 0;
}

static int add_switches(struct sf *s, struct lanes_error *err)
{
	char label[48];
	int rc;

	for (uint32_t v = 0; v < s->m.vertices; v++) {
		unsigned t, x, y;
		uint32_t node;

		mms_coords(&s->m, v, &t, &x, &y);
		snprintf(label, sizeof(label), "t%u-x%u-y%u", t, x, y);
		if ((rc = lanes_gen_switch(&s->gen, s->p + s->m.degree, label, &node, err)))
			return rc;
		if (!v)
			s->first = node;
	}
	return 0;
}

static int add_cables(struct sf *s, struct lanes_error *err)
{
	int rc;

	for (uint32_t v = 0; v < s->m.vertices; v++)
		for (uint32_t i = 0; i < s->m.degree; i++) {
			uint32_t u = s->m.nbr[(size_t)v * s->m.degree + i];

			if (u > v && (rc = lanes_gen_cable(&s->gen, s->first + v, s->p + 1 + i,
						     s->first + u,
						     s->p + 1 + lanes_mms_port(&s->m, u, v), err)))
				return rc;
		}
	return 0;
}

static int generate(struct lanes_params *prm, struct lanes_builder *b, struct lanes_error *err)
{
	struct sf s = { 0 };
	int rc;

	lanes_gen_init(&s.gen, b, KIND);
	if ((rc = read_params(prm, &s, err)) || (rc = lanes_mms_build(&s.m, s.q, err)) ||
	    (rc = add_switches(&s, err)) || (rc = add_cables(&s, err)))
		goto out;
	for (uint32_t v = 0; v < s.m.vertices; v++)
		if ((rc = lanes_gen_hosts(&s.gen, s.first + v, 1, s.p, err)))
			goto out;
out:
	lanes_mms_free(&s.m);
	return rc;
}

const struct lanes_generator lanes_gen_slimfly = {
	.name = "slimfly",
	.summary = "Slim Fly: the diameter-2 McKay-Miller-Siran graph of a prime power q",
	.usage = USAGE,
	.source = "Besta, Hoefler, SC14 (MMS graphs, Hafner's construction); seed 001 Sec. 1.5",
	.generate = generate,
};
