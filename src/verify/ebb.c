/*
 * ebb.c - effective bisection bandwidth, as ORCS and Netgauge define it
 * (Hoefler, Schneider, Lumsdaine, "Multistage switches are not crossbars",
 * 2008): split the CA ports at random into two halves, pair them, and let
 * every pair exchange data both ways; a flow gets 1 / (the most flows that
 * share one switch-to-switch link on its path) of a link's bandwidth. The
 * EBB is the mean over flows and over `ebb_patterns` seeded random
 * bisections: 1.0 means every flow gets a full link. A flow that cannot
 * reach its destination gets 0.
 */
#include "verify_internal.h"

#include <stdlib.h>
#include <string.h>

struct flows {
	uint32_t *perm;   /* CA indices, shuffled */
	uint32_t *ca_sw;  /* switch of each CA */
	uint32_t *load;   /* flows per CSR entry */
};

/* Walk src -> dst; op 0 adds load, op 1 returns the worst load, op 2 removes load. */
static uint32_t walk(struct vctx *c, struct flows *fl, uint32_t src, uint32_t dst, int op)
{
	const struct lanes_fabric *f = c->f;
	uint32_t x = fl->ca_sw[src], end = fl->ca_sw[dst], worst = 1, lid = c->cas[dst].lid;

	for (uint32_t steps = 0; steps <= c->S; steps++) {
		uint8_t p = lanes_routing_port(c->r, x, lid);
		uint32_t e;

		if (x == end && p == c->cas[dst].sw_port)
			return worst;
		if (p == 0 || p > f->nodes[f->switches[x]].nports ||
		    (e = c->port_ent[f->nodes[f->switches[x]].port_base + p]) == LANES_NONE)
			return 0;
		if (op == 0)
			fl->load[e]++;
		else if (op == 2)
			fl->load[e]--;
		else if (fl->load[e] > worst)
			worst = fl->load[e];
		x = f->adj[e].sw;
	}
	return 0; /* a forwarding loop */
}

static double one_pattern(struct vctx *c, struct flows *fl, uint32_t n, struct lanes_rng *rng)
{
	uint32_t half = n / 2;
	double sum = 0;

	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)lanes_rng_below(rng, i + 1), t = fl->perm[i];

		fl->perm[i] = fl->perm[j];
		fl->perm[j] = t;
	}
	for (uint32_t i = 0; i < half; i++) {
		walk(c, fl, fl->perm[i], fl->perm[i + half], 0);
		walk(c, fl, fl->perm[i + half], fl->perm[i], 0);
	}
	for (uint32_t i = 0; i < half; i++) {
		uint32_t a = walk(c, fl, fl->perm[i], fl->perm[i + half], 1);
		uint32_t b = walk(c, fl, fl->perm[i + half], fl->perm[i], 1);

		sum += (a ? 1.0 / a : 0.0) + (b ? 1.0 / b : 0.0);
	}
	for (uint32_t i = 0; i < half; i++) {
		walk(c, fl, fl->perm[i], fl->perm[i + half], 2);
		walk(c, fl, fl->perm[i + half], fl->perm[i], 2);
	}
	return sum / (2.0 * half);
}

int verify_ebb(struct vctx *c, struct lanes_error *err)
{
	uint32_t n = c->ca_off[c->S];
	struct flows fl = { malloc(sizeof(uint32_t) * (n + 1)), malloc(sizeof(uint32_t) * (n + 1)),
			    calloc((size_t)c->E + 1, sizeof(uint32_t)) };
	struct lanes_rng rng;
	double sum = 0;

	if (!fl.perm || !fl.ca_sw || !fl.load) {
		free(fl.perm);
		free(fl.ca_sw);
		free(fl.load);
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	}
	for (uint32_t s = 0; s < c->S; s++)
		for (uint32_t k = c->ca_off[s]; k < c->ca_off[s + 1]; k++)
			fl.ca_sw[k] = s;
	for (uint32_t i = 0; i < n; i++)
		fl.perm[i] = i;
	lanes_rng_seed(&rng, c->o->seed);
	for (uint32_t p = 0; n >= 2 && p < c->o->ebb_patterns; p++)
		sum += one_pattern(c, &fl, n, &rng);
	if (n >= 2 && c->o->ebb_patterns) {
		c->res->ebb = sum / c->o->ebb_patterns;
		c->res->ebb_patterns = c->o->ebb_patterns;
	}
	free(fl.perm);
	free(fl.ca_sw);
	free(fl.load);
	return 0;
}
