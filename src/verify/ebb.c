/*
 * ebb.c - effective bisection bandwidth, as ORCS and Netgauge define it
 * (Hoefler, Schneider, Lumsdaine, "Multistage switches are not crossbars",
 * 2008): split the CA ports at random into two halves, pair them, and let
 * every pair exchange data both ways; a flow gets 1 / (the most flows that
 * share one switch-to-switch link on its path) of a link's bandwidth. The
 * EBB is the mean over flows and over `ebb_patterns` random bisections:
 * 1.0 means every flow gets a full link. A flow that cannot reach its
 * destination gets 0.
 *
 * Each pattern draws from its own generator, seeded from (seed, pattern
 * number), and patterns are shared out over threads; the per-pattern means
 * are added in pattern order, so the result does not depend on the threads.
 * Each flow's path is walked through the LFTs once and kept, so counting the
 * worst link costs no second walk.
 */
#include "verify_internal.h"

#include "core/parallel.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

struct ebb_ctx {
	struct vctx *c;
	uint32_t n;            /* CA ports */
	const uint32_t *ca_sw; /* switch of each CA port */
	double *mean;          /* per pattern */
	uint32_t first, step;  /* patterns first, first + step, ... */
	int rc;
};

struct flows {
	uint32_t *perm, *load;
	uint32_t *path;       /* the links of every flow of a pattern, one after another */
	size_t cap;
	uint32_t *start;      /* flow k's links are path[start[k] .. start[k+1]) */
	uint8_t *arrived;
};

static int push(struct flows *fl, uint32_t *len, uint32_t e)
{
	if (*len == fl->cap) {
		size_t ncap = fl->cap ? fl->cap * 2 : 1u << 16;
		uint32_t *p = realloc(fl->path, ncap * sizeof(*p));

		if (!p)
			return -1;
		fl->path = p;
		fl->cap = ncap;
	}
	fl->path[(*len)++] = e;
	return 0;
}

/* Walk src -> dst, appending the links; 1 arrived, 0 lost, -1 out of memory. */
static int walk(const struct ebb_ctx *x, struct flows *fl, uint32_t src, uint32_t dst,
		uint32_t *len)
{
	const struct vctx *c = x->c;
	uint32_t s = x->ca_sw[src], end = x->ca_sw[dst], lid = c->cas[dst].lid;

	for (uint32_t steps = 0; steps <= c->S; steps++) {
		uint8_t p = lanes_routing_port(c->r, s, lid);
		uint32_t e;

		if (s == end && p == c->cas[dst].sw_port)
			return 1;
		if (p == 0 || p > c->sw_nports[s] ||
		    (e = c->port_ent[c->sw_base[s] + p]) == LANES_NONE)
			return 0;
		if (push(fl, len, e))
			return -1;
		s = c->f->adj[e].sw;
	}
	return 0; /* a forwarding loop */
}

static void shuffle(uint32_t *perm, uint32_t n, uint64_t seed, uint32_t pattern)
{
	struct lanes_rng rng;

	lanes_rng_seed(&rng, seed ^ (0x9e3779b97f4a7c15ULL * (pattern + 1)));
	for (uint32_t i = 0; i < n; i++)
		perm[i] = i;
	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)lanes_rng_below(&rng, i + 1), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
}

/* Lay every flow's path and load; flow k < half goes a -> b, k >= half b -> a. */
static int lay_flows(const struct ebb_ctx *x, struct flows *fl, uint32_t half, uint32_t *len)
{
	for (uint32_t k = 0; k < 2 * half; k++) {
		uint32_t a = fl->perm[k % half], b = fl->perm[half + k % half], from = *len;
		int rc = k < half ? walk(x, fl, a, b, len) : walk(x, fl, b, a, len);

		if (rc < 0)
			return -1;
		if (!rc)
			*len = from; /* a lost flow carries nothing */
		fl->arrived[k] = (uint8_t)rc;
		fl->start[k] = from;
		for (uint32_t i = from; i < *len; i++)
			fl->load[fl->path[i]]++;
	}
	fl->start[2 * half] = *len;
	return 0;
}

/* One bisection: the mean bandwidth of its flows, or -1 when out of memory. */
static double one_pattern(const struct ebb_ctx *x, struct flows *fl, uint32_t pattern)
{
	uint32_t half = x->n / 2, len = 0;
	double sum = 0;

	shuffle(fl->perm, x->n, x->c->o->seed, pattern);
	if (lay_flows(x, fl, half, &len))
		return -1;
	for (uint32_t k = 0; k < 2 * half; k++) {
		uint32_t worst = 1;

		if (!fl->arrived[k])
			continue;
		for (uint32_t i = fl->start[k]; i < fl->start[k + 1]; i++)
			if (fl->load[fl->path[i]] > worst)
				worst = fl->load[fl->path[i]];
		sum += 1.0 / worst;
	}
	for (uint32_t i = 0; i < len; i++)
		fl->load[fl->path[i]] = 0;
	return sum / (2.0 * half);
}

static void run_patterns(void *ctx, unsigned k)
{
	struct ebb_ctx *x = (struct ebb_ctx *)ctx + k;
	struct flows fl = { malloc(sizeof(uint32_t) * (x->n + 1)),
			    calloc((size_t)x->c->E + 1, sizeof(uint32_t)), NULL, 0,
			    malloc(sizeof(uint32_t) * (x->n + 2)), malloc(x->n + 1) };

	x->rc = !fl.perm || !fl.load || !fl.start || !fl.arrived ? -1 : 0;
	for (uint32_t p = x->first; !x->rc && p < x->c->o->ebb_patterns; p += x->step)
		if ((x->mean[p] = one_pattern(x, &fl, p)) < 0)
			x->rc = -1;
		else
			lanes_progress_add(x->c->o->progress, 1);
	free(fl.perm);
	free(fl.load);
	free(fl.path);
	free(fl.start);
	free(fl.arrived);
	}

int lanes_verify_ebb(struct vctx *c, struct lanes_error *err)
{
	uint32_t n = c->ca_off[c->S], P = c->o->ebb_patterns, T = lanes_verify_threads(c->o, P);
	uint32_t *ca_sw = malloc(sizeof(uint32_t) * (n + 1));
	double *mean = calloc((size_t)P + 1, sizeof(double)), sum = 0;
	struct ebb_ctx *x = calloc(T, sizeof(*x));
	int rc = 0;

	if (!ca_sw || !mean || !x) {
		rc = lanes_error_oom(err);
		goto out;
	}
	lanes_progress_phase(c->o->progress, "bisections", P);
	if (n < 2 || !P)
		goto out;
	for (uint32_t s = 0; s < c->S; s++)
		for (uint32_t k = c->ca_off[s]; k < c->ca_off[s + 1]; k++)
			ca_sw[k] = s;
	for (uint32_t t = 0; t < T; t++)
		x[t] = (struct ebb_ctx){ c, n, ca_sw, mean, t, T, 0 };
	lanes_parallel_run(T, run_patterns, x);
	for (uint32_t t = 0; t < T; t++)
		if (x[t].rc)
			rc = lanes_error_set(err, LANES_ENOMEM, "out of memory for the bisections");
	for (uint32_t p = 0; p < P; p++)
		sum += mean[p];
	c->res->ebb = sum / P;
	c->res->ebb_patterns = P;
out:
	free(ca_sw);
	free(mean);
	free(x);
	return rc;
}
