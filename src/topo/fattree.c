/*
 * fattree.c - the k-ary n-tree: k=4 n=3.
 *
 * Construction (F. Petrini and M. Vanneschi, "k-ary n-trees: high
 * performance networks for massively parallel architectures", IPPS 1997):
 * k^n hosts and n stages of k^(n-1) switches. A switch is <w, s> with stage
 * s in 0..n-1 (0 = the roots) and w = w_0 .. w_{n-2} in {0..k-1}^(n-1);
 * <w, s> and <w', s+1> are cabled iff w_d = w'_d for every d != s; host
 * p_0 .. p_{n-1} hangs off leaf <w, n-1> with w_d = p_d for d < n-1.
 *
 * Naming and numbering: level = n - s, so level 1 holds the leaves and
 * level n the roots (the XGFT convention, see xgft.c). A switch's index is
 * w read as a base-k number with w_0 most significant; its label is
 * "l<level>-i<index>". Switches are added level 1 first, so switch (l, i) is
 * node (l - 1) * k^(n-1) + i. Host h hangs off leaf h / k, port h % k + 1.
 *
 * Ports: every switch is the same 2k-port model: ports 1..k go down, port
 * j + 1 to the child (switch or host) whose digit s is j; ports k+1..2k go
 * up, port k + 1 + j to the parent whose digit s-1 is j. A child reaches a
 * parent on the parent's down port (child's digit s-1) + 1. The roots'
 * up ports k+1..2k stay uncabled: a real fabric uses one switch model
 * throughout (those ports are where the tree grows a level), and OpenSM's
 * ftree ranks switches from the hosts, so unused ports do not disturb it.
 *
 * Invariants: n k^(n-1) switches, k^n hosts, (n-1) k^n switch-to-switch
 * cables, every leaf has k hosts, diameter of the switch graph 2(n-1).
 * This is XGFT(n; k,..,k; 1,k,..,k) node for node and port for port (only
 * the roots' declared port count differs); tests/unit/test_topo_grid.c
 * checks it.
 */
#include <stdio.h>

#include "generators.h"
#include "grid.h"

struct ftree {
	uint32_t k, n;
	uint32_t per_stage; /* k^(n-1) */
	uint32_t first;     /* node of the first leaf */
};

static uint32_t node_of(const struct ftree *t, uint32_t stage, uint32_t w)
{
	return t->first + (t->n - 1 - stage) * t->per_stage + w;
}

/* The weight of digit d in a switch index. */
static uint32_t weight(const struct ftree *t, uint32_t d)
{
	uint32_t v = 1;

	for (uint32_t i = d + 2; i < t->n; i++)
		v *= t->k;
	return v;
}

static int read_params(struct lanes_params *p, struct ftree *t, struct lanes_error *err)
{
	uint64_t k, n, per_stage = 1;
	char what[64];
	int rc;

	if ((rc = lanes_params_uint(p, "k", LANES_PARAM_REQUIRED, 2, LANES_PORTS_MAX, &k, err)) ||
	    (rc = lanes_params_uint(p, "n", LANES_PARAM_REQUIRED, 1, 64, &n, err)))
		return rc;
	snprintf(what, sizeof(what), "2k with k=%u", (unsigned)k);
	if ((rc = lanes_gen_check_radix("fattree", 2 * k, what, err)))
		return rc;
	for (uint64_t i = 1; i < n; i++)
		per_stage = lanes_gen_sat_mul(per_stage, k);
	snprintf(what, sizeof(what), "k=%u n=%u", (unsigned)k, (unsigned)n);
	if ((rc = lanes_gen_check_lids(p, "fattree", what, lanes_gen_sat_mul(per_stage, n),
				  lanes_gen_sat_mul(per_stage, k), err)))
		return rc;
	t->k = (uint32_t)k;
	t->n = (uint32_t)n;
	t->per_stage = (uint32_t)per_stage;
	return 0;
}

static int add_switches(struct gen *g, struct ftree *t, struct lanes_error *err)
{
	char label[32];

	for (uint32_t level = 1; level <= t->n; level++)
		for (uint32_t w = 0; w < t->per_stage; w++) {
			uint32_t node;
			int rc;

			snprintf(label, sizeof(label), "l%u-i%u", level, w);
			if ((rc = lanes_gen_switch(g, 2 * t->k, label, &node, err)))
				return rc;
			if (level == 1 && w == 0)
				t->first = node;
		}
	return 0;
}

/* The k up cables of switch <w, s+1> to the stage-s switches. */
static int cable_up(struct gen *g, const struct ftree *t, uint32_t s, uint32_t w,
		    struct lanes_error *err)
{
	uint32_t wt = weight(t, s), digit = w / wt % t->k;

	for (uint32_t j = 0; j < t->k; j++) {
		uint32_t parent = w - digit * wt + j * wt;
		int rc = lanes_gen_cable(g, node_of(t, s + 1, w), t->k + 1 + j, node_of(t, s, parent),
				   digit + 1, err);

		if (rc)
			return rc;
	}
	return 0;
}

static int generate(struct lanes_params *p, struct lanes_builder *b, struct lanes_error *err)
{
	struct ftree t = { 0, 0, 0, 0 };
	struct gen g;
	int rc;

	if ((rc = read_params(p, &t, err)))
		return rc;
	lanes_gen_init(&g, b, "fattree");
	if ((rc = add_switches(&g, &t, err)))
		return rc;
	for (uint32_t s = t.n - 1; s-- > 0;)
		for (uint32_t w = 0; w < t.per_stage; w++)
			if ((rc = cable_up(&g, &t, s, w, err)))
				return rc;
	for (uint32_t w = 0; w < t.per_stage; w++)
		if ((rc = lanes_gen_hosts(&g, node_of(&t, t.n - 1, w), 1, t.k, err)))
			return rc;
	return 0;
}

const struct lanes_generator lanes_gen_fattree = {
	.name = "fattree",
	.summary = "k-ary n-tree: n levels of k^(n-1) 2k-port switches, k^n hosts",
	.usage = "k=N n=N",
	.source = "Petrini and Vanneschi, k-ary n-trees, IPPS 1997",
	.generate = generate,
};
