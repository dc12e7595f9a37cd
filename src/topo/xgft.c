/*
 * xgft.c - extended generalized fat trees: h=3 m=4,4,4 w=1,4,4.
 *
 * Construction (S. R. Öhring, M. Ibel, S. K. Das, M. J. Kumar, "On
 * generalized fat trees", IPPS 1995): XGFT(h; m_1..m_h; w_1..w_h) has
 * levels 0..h. A level-i node is a tuple (x_h, .., x_1) whose digit x_j
 * ranges over m_j for j > i and over w_j for j <= i, so level i has
 * prod_{j>i} m_j * prod_{j<=i} w_j nodes. A level-i node and a level-(i+1)
 * node are cabled iff their tuples agree everywhere except at position i+1:
 * every level-i node has w_{i+1} parents (one per value of the parent's
 * digit) and every level-(i+1) node m_{i+1} children.
 *
 * Level 0 is the hosts (prod m_j CAs); levels 1..h are switches. When
 * w_1 > 1 a host has w_1 parents, and it is one CA with w_1 ports (port
 * b + 1 to the parent whose digit 1 is b), like a dual-port HCA cabled to
 * two leaf switches. Switches never change digit 1, so the switch graph then
 * falls into w_1 disjoint planes joined only through the hosts: w_1
 * independent rails, which a real installation runs as w_1 subnets.
 *
 * Numbering: a node's index is its tuple as a mixed-radix number with x_1
 * least significant. Switches are added level 1 first, in index order, and
 * labelled "l<level>-i<index>". Host t is node t among the CAs.
 *
 * Ports of a level-i switch: down ports 1..m_i (port a + 1 to the child
 * whose digit i is a), then up ports m_i + 1 .. m_i + w_{i+1} (port
 * m_i + 1 + b to the parent whose digit i+1 is b). Top switches have only
 * their m_h down ports. XGFT(n; k,..,k; 1,k,..,k) is the k-ary n-tree of
 * fattree.c, with the same node order, labels and ports.
 *
 * Invariants: the level sizes above; level i to i+1 has
 * count_i * w_{i+1} cables; hosts have w_1 cables each; deterministic.
 */
#include <stdio.h>

#include "generators.h"
#include "grid.h"

#define XGFT_MAX LANES_PARAM_LIST_MAX

struct xgft {
	uint32_t h;
	uint32_t m[XGFT_MAX + 2], w[XGFT_MAX + 2]; /* 1-based; w[h+1] = 0 */
	uint32_t count[XGFT_MAX + 1];              /* nodes at level 0..h */
	uint32_t low[XGFT_MAX + 1];                /* prod_{j<=i} w_j */
	uint32_t first[XGFT_MAX + 1];              /* node of level i's first switch */
};

static int read_list(struct lanes_params *p, const char *key, uint32_t h, uint32_t *vals,
		     struct lanes_error *err)
{
	uint32_t v[LANES_PARAM_LIST_MAX];
	size_t n;
	int rc;

	if ((rc = lanes_params_list(p, key, 1, 1, LANES_PORTS_MAX, v, &n, err)))
		return rc;
	if (n != h)
		return lanes_error_set(err, LANES_EINVAL,
				       "xgft: parameter '%s' needs one value per level (h=%u), "
				       "not %zu",
				       key, h, n);
	for (uint32_t i = 1; i <= h; i++)
		vals[i] = v[i - 1];
	return 0;
}

static int read_params(struct lanes_params *p, struct xgft *x, struct lanes_error *err)
{
	uint64_t h;
	int rc;

	if ((rc = lanes_params_uint(p, "h", LANES_PARAM_REQUIRED, 1, XGFT_MAX, &h, err)))
		return rc;
	x->h = (uint32_t)h;
	if ((rc = read_list(p, "m", x->h, x->m, err)) || (rc = read_list(p, "w", x->h, x->w, err)))
		return rc;
	x->w[x->h + 1] = 0;
	return 0;
}

/* Every level's switches must fit: m_i down ports plus w_{i+1} up ports. */
static int check_radix(const struct xgft *x, struct lanes_error *err)
{
	char what[96];

	for (uint32_t i = 1; i <= x->h; i++) {
		uint64_t ports = (uint64_t)x->m[i] + x->w[i + 1];
		int rc;

		snprintf(what, sizeof(what), "m_%u + w_%u = %u + %u at level %u", i, i + 1,
			 x->m[i], x->w[i + 1], i);
		if ((rc = lanes_gen_check_radix("xgft", ports, what, err)))
			return rc;
	}
	return 0;
}

/* Level sizes (saturating), and the LID check. */
static int sizes(struct lanes_params *prm, struct xgft *x, struct lanes_error *err)
{
	uint64_t count[XGFT_MAX + 1], switches = 0;
	char what[160], ms[72], ws[72];
	int rc;

	for (uint32_t i = 0; i <= x->h; i++) {
		count[i] = 1;
		for (uint32_t j = 1; j <= x->h; j++)
			count[i] = lanes_gen_sat_mul(count[i], j > i ? x->m[j] : x->w[j]);
		if (i > 0)
			switches = lanes_gen_sat_add(switches, count[i]);
	}
	lanes_grid_format_dims(x->m + 1, x->h, ms, sizeof(ms));
	lanes_grid_format_dims(x->w + 1, x->h, ws, sizeof(ws));
	snprintf(what, sizeof(what), "h=%u m=%s w=%s", x->h, ms, ws);
	rc = lanes_gen_check_lids(prm, "xgft", what, switches, lanes_gen_sat_mul(count[0], x->w[1]), err);
	if (rc)
		return rc;
	for (uint32_t i = 0; i <= x->h; i++) {
		x->count[i] = (uint32_t)count[i];
		x->low[i] = i ? x->low[i - 1] * x->w[i] : 1;
	}
	return 0;
}

/*
 * The parent of level-i node child whose digit i+1 is b; *a receives the
 * child's digit i+1 (the parent's down port is *a + 1). Digits below i+1 keep
 * their radix between the levels, so only that one digit is rewritten.
 */
static uint32_t parent_of(const struct xgft *x, uint32_t i, uint32_t child, uint32_t b,
			  uint32_t *a)
{
	uint32_t low = x->low[i], lo = child % low, rest = child / low;

	*a = rest % x->m[i + 1];
	return (rest / x->m[i + 1] * x->w[i + 1] + b) * low + lo;
}

static int add_switches(struct gen *g, struct xgft *x, struct lanes_error *err)
{
	char label[32];

	for (uint32_t i = 1; i <= x->h; i++)
		for (uint32_t s = 0; s < x->count[i]; s++) {
			uint32_t node;
			int rc;

			snprintf(label, sizeof(label), "l%u-i%u", i, s);
			if ((rc = lanes_gen_switch(g, x->m[i] + x->w[i + 1], label, &node, err)))
				return rc;
			if (s == 0)
				x->first[i] = node;
		}
	return 0;
}

static int cable_switches(struct gen *g, const struct xgft *x, struct lanes_error *err)
{
	for (uint32_t i = 1; i < x->h; i++)
		for (uint32_t c = 0; c < x->count[i]; c++)
			for (uint32_t b = 0; b < x->w[i + 1]; b++) {
				uint32_t a, parent = parent_of(x, i, c, b, &a);
				int rc = lanes_gen_cable(g, x->first[i] + c, x->m[i] + 1 + b,
						   x->first[i + 1] + parent, a + 1, err);

				if (rc)
					return rc;
			}
	return 0;
}

static int add_hosts(struct gen *g, const struct xgft *x, struct lanes_error *err)
{
	int rc;

	if (x->w[1] == 1) {
		for (uint32_t s = 0; s < x->count[1]; s++)
			if ((rc = lanes_gen_hosts(g, x->first[1] + s, 1, x->m[1], err)))
				return rc;
		return 0;
	}
	for (uint32_t t = 0; t < x->count[0]; t++) {
		uint32_t host;

		if ((rc = lanes_gen_host(g, x->w[1], &host, err)))
			return rc;
		for (uint32_t b = 0; b < x->w[1]; b++) {
			uint32_t a, leaf = parent_of(x, 0, t, b, &a);

			if ((rc = lanes_gen_cable(g, x->first[1] + leaf, a + 1, host, b + 1, err)))
				return rc;
		}
	}
	return 0;
}

static int generate(struct lanes_params *p, struct lanes_builder *b, struct lanes_error *err)
{
	struct xgft x = { 0 };
	struct gen g;
	int rc;

	if ((rc = read_params(p, &x, err)) || (rc = check_radix(&x, err)) ||
	    (rc = sizes(p, &x, err)))
		return rc;
	lanes_gen_init(&g, b, "xgft");
	if ((rc = add_switches(&g, &x, err)) || (rc = cable_switches(&g, &x, err)))
		return rc;
	return add_hosts(&g, &x, err);
}

const struct lanes_generator lanes_gen_xgft = {
	.name = "xgft",
	.summary = "extended generalized fat tree XGFT(h; m; w); w1 > 1 makes multi-port hosts",
	.usage = "h=N m=M1,...,Mh w=W1,...,Wh",
	.source = "Ohring, Ibel, Das, Kumar, On generalized fat trees, IPPS 1995",
	.generate = generate,
};
