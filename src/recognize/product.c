/*
 * product.c - recognise a Slim Fly x FlatFly product (SF x FF): the
 * Cartesian product of one MMS graph and complete graphs, as "Early
 * evaluation of direct large-scale InfiniBand networks with adaptive
 * routing" (Sec. 1.5) builds SF x FF-1 and SF x FF-2, from the switch graph
 * alone, and give every switch its Slim Fly vertex and its FlatFly
 * coordinates.
 *
 * In a Cartesian product G x H, (g, h) - (g', h') is a link when g = g' and
 * h - h' is one in H, or h = h' and g - g' is one in G. Three facts follow
 * (project a cycle onto a factor: it must close there):
 *   (a) a triangle lies in one factor (one layer);
 *   (b) a 4-cycle lies in one factor, or it is a "product square" whose
 *       opposite sides are in the same factor;
 *   (c) two links at a switch u that are in different factors, u - v and
 *       u - w, span exactly one 4-cycle (v and w have exactly one common
 *       neighbour besides u: the fourth corner), the "unique square" of
 *       product recognition (Imrich and Klavzar, "Product graphs", 2000).
 * So the paper's link equivalence for mapping a FlatFly (Sec. 2.1: the two
 * directions of a cable, parallel cables, the links of a triangle (a), the
 * opposite sides of a 4-cycle (b), closed by union-find) never joins links
 * of different factors; we add (c): two links at one switch whose other
 * ends share no common neighbour besides it, or more than one, are in the
 * same factor. Every class of the closure lies within one factor. A
 * complete graph K_n (n >= 3) is one class through its triangles, K_2
 * through the squares it spans with the rest. The Slim Fly is one class
 * for q = 5, 7, 8, 9, 11, 13, 16, 17 (measured on the generator's), but for
 * q = 3 and 4 its links fall into two classes, one of them a clique at
 * every switch that looks like a FlatFly dimension and is not a factor (the
 * switches are then not one per tuple of class values). Hence the choice
 * of step 4, checked as a whole.
 *
 * The steps, each with its refusal (LANES_EINVAL, "not a Slim Fly x
 * FlatFly product: ..."; the reasons count things and name no switch, so
 * they do not depend on the order the switches were read in):
 *  1. Every switch has as many neighbour switches (a product of regular
 *     graphs is regular).
 *  2. The link classes above (union-find over link positions). One class:
 *     no Cartesian factors (a plain Slim Fly of q >= 5, among others).
 *  3. A class is complete when at every switch its links lead to switches
 *     that are pairwise cabled: a clique with the switch.
 *  4. A choice: a non-empty set of complete classes are the FlatFly
 *     dimensions, every other class together the Slim Fly. The counts must
 *     fit (n / prod K_i = 2q^2 switches per Slim Fly, of degree (3q -
 *     delta)/2 for an MMS prime power q); the choices that fit are checked,
 *     most FlatFly dimensions first (then by class order), until one holds:
 *     a. coordinates as the paper assigns them (Sec. 2.1): for dimension
 *        i, the ends of every link of the other dimensions are joined
 *        (union-find on switches); each class is one value of coordinate i;
 *     b. the fabric IS the product of its factors: one switch per tuple of
 *        values, every link changing its own dimension's value, K_i - 1
 *        links in a complete dimension of K_i values at every switch, and
 *        in the Slim Fly dimension the values its links lead to are exactly
 *        those that the layer of switch 0 (the switches agreeing with it in
 *        every FlatFly coordinate) joins to its own value;
 *     c. that layer, as a graph on the Slim Fly values, is the MMS graph:
 *        lanes_recognize_slimfly() labels it with (t, x, y), every MMS link
 *        present (the degree was checked, so its missing-cable tolerance
 *        is not used).
 *     Any choice that holds describes the fabric exactly; on the products
 *     measured the first that fits holds, or the second for q = 3, 4.
 *
 * Faults: none are tolerated; a missing switch or cable fails step 1 or 4.
 * Engines get a complete product or a reason.
 *
 * Numbering: dimension 0 is the Slim Fly, its coordinate the MMS vertex
 * t q^2 + x q + y; the FlatFly dimensions follow by ascending number of
 * values, ties by their lowest link (lower switch index, then higher);
 * their values by lowest switch index.
 *
 * Cost: step 2 looks at every pair of links at every switch and merges the
 * two far ends' neighbour lists, O(switches * degree^3); the checks are
 * linear in the links per choice, the Slim Fly recogniser runs on 2q^2
 * vertices. Measured: 0.02 s for the paper's SF x FF-1 (2048 switches of
 * degree 20), 0.05 s for SF x FF-2 (2048 of degree 27).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "recognize/recognize.h"
#include "topo/gf.h"

#define NOT_PRODUCT "not a Slim Fly x FlatFly product: "
/* Most link classes looked at before giving up (as the HyperX recogniser). */
#define MAX_CLASSES (4 * LANES_STRUCTURE_MAX_DIMS)
/* Most complete-graph classes whose subsets are tried as part of the Slim Fly. */
#define MAX_COMPLETE_CLASSES 12

struct sfxff {
	const struct lanes_fabric *f;
	struct lanes_switch_graph g;
	uint32_t *reverse;      /* per link position u->v: the position of v->u */
	struct lanes_uf links;  /* over link positions: the classes of step 2 */
	uint32_t *class_of;     /* per link position: its class */
	uint32_t num_classes;
	uint32_t class_degree[MAX_CLASSES]; /* per class: its links at switch 0 */
	uint8_t complete[MAX_CLASSES];      /* per class: a clique at every switch (step 3) */
	/* the choice being checked (step 4): */
	uint32_t dim_of_class[MAX_CLASSES]; /* 0: the Slim Fly; 1..: a complete graph */
	uint32_t num_dims;
	uint32_t extent[LANES_STRUCTURE_MAX_DIMS];
	uint32_t *coord;        /* [switch * num_dims + dim]: the value of each coordinate */
	uint32_t sf_degree;     /* the Slim Fly factor's degree */
	uint32_t *factor_nbr;   /* per Slim Fly value: sf_degree neighbour values, sorted */
	uint32_t *mms_vertex;   /* per Slim Fly value: its MMS vertex t q^2 + x q + y */
	uint32_t *scratch;      /* per switch */
	uint32_t *mine;         /* a switch's degree */
};

/* ------------------------------------------------------------ steps 1 and 2 */

static int check_regular(const struct lanes_switch_graph *g, struct lanes_error *err)
{
	uint32_t lo = UINT32_MAX, hi = 0;

	for (uint32_t u = 0; u < g->num_switches; u++) {
		uint32_t d = g->off[u + 1] - g->off[u];

		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
	}
	if (!g->num_switches || !hi)
		return lanes_error_set(err, LANES_EINVAL, NOT_PRODUCT "no switch-to-switch links");
	if (lo != hi)
		return lanes_error_set(err, LANES_EINVAL,
				       NOT_PRODUCT "its switches have %u to %u neighbour switches, a "
				       "product's have one number",
				       lo, hi);
	return 0;
}

static uint32_t position(const struct lanes_switch_graph *g, uint32_t u, uint32_t v)
{
	return g->off[u] + lanes_lower_bound(g->nbr + g->off[u], g->off[u + 1] - g->off[u], v);
}

/*
 * At switch u, every pair of links u - v, u - w: the 4-cycles u v x w make
 * opposite sides equivalent (b); a triangle (a) or other than one such
 * cycle (c) puts the two links in one class.
 */
static void unite_around(struct sfxff *p, uint32_t u)
{
	const struct lanes_switch_graph *g = &p->g;

	for (uint32_t uv = g->off[u]; uv < g->off[u + 1]; uv++)
		for (uint32_t uw = uv + 1; uw < g->off[u + 1]; uw++) {
			uint32_t v = g->nbr[uv], w = g->nbr[uw], a = g->off[v], b = g->off[w];
			uint32_t squares = 0;

			while (a < g->off[v + 1] && b < g->off[w + 1]) {
				if (g->nbr[a] < g->nbr[b]) {
					a++;
				} else if (g->nbr[a] > g->nbr[b]) {
					b++;
				} else {
					if (g->nbr[a] != u) { /* the 4-cycle u v x w, x = nbr[a] */
						squares++;
						lanes_uf_union(&p->links, uv, b);
						lanes_uf_union(&p->links, uw, a);
					}
					a++;
					b++;
				}
			}
			if (squares != 1 || lanes_switch_graph_adjacent(g, v, w))
				lanes_uf_union(&p->links, uv, uw);
		}
}

/* Step 2: the classes, numbered by lowest link position into class_of. */
static int link_classes(struct sfxff *p, struct lanes_error *err)
{
	const struct lanes_switch_graph *g = &p->g;
	uint32_t n = g->num_switches, ends = g->off[n], root_of[MAX_CLASSES];
	int rc;

	p->reverse = malloc(((size_t)ends + 1) * sizeof(*p->reverse));
	p->class_of = malloc(((size_t)ends + 1) * sizeof(*p->class_of));
	if (!p->reverse || !p->class_of)
		return lanes_error_oom(err);
	if ((rc = lanes_uf_init(&p->links, ends, err)))
		return rc;
	for (uint32_t u = 0; u < n; u++)
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
			p->reverse[e] = position(g, g->nbr[e], u);
			lanes_uf_union(&p->links, e, p->reverse[e]);
		}
	for (uint32_t u = 0; u < n; u++)
		unite_around(p, u);
	p->num_classes = 0;
	for (uint32_t e = 0; e < ends; e++) {
		uint32_t r = lanes_uf_find(&p->links, e), c = 0;

		while (c < p->num_classes && root_of[c] != r)
			c++;
		if (c == p->num_classes) {
			if (c == MAX_CLASSES)
				return lanes_error_set(err, LANES_EINVAL,
						       NOT_PRODUCT "more than %d link classes",
						       MAX_CLASSES);
			root_of[p->num_classes++] = r;
		}
		p->class_of[e] = c;
	}
	if (p->num_classes == 1)
		return lanes_error_set(err, LANES_EINVAL,
				       NOT_PRODUCT "its links form one class, it has no "
				       "Cartesian factors");
	return 0;
}

/* ------------------------------------------------------------ step 3 */

/* Are the class-c neighbours of every switch there, and pairwise cabled? */
static int is_complete_class(const struct sfxff *p, uint32_t c)
{
	const struct lanes_switch_graph *g = &p->g;

	for (uint32_t u = 0; u < g->num_switches; u++) {
		uint32_t count = 0;

		for (uint32_t a = g->off[u]; a < g->off[u + 1]; a++) {
			if (p->class_of[a] != c)
				continue;
			count++;
			for (uint32_t b = a + 1; b < g->off[u + 1]; b++)
				if (p->class_of[b] == c &&
				    !lanes_switch_graph_adjacent(g, g->nbr[a], g->nbr[b]))
					return 0;
		}
		if (!count)
			return 0;
	}
	return 1;
}

static void classify(struct sfxff *p)
{
	memset(p->class_degree, 0, sizeof(p->class_degree));
	for (uint32_t e = p->g.off[0]; e < p->g.off[1]; e++)
		p->class_degree[p->class_of[e]]++;
	for (uint32_t c = 0; c < p->num_classes; c++)
		p->complete[c] = (uint8_t)is_complete_class(p, c);
}

/* ------------------------------------------------------------ step 4: one choice */

/* The MMS q of a factor of `values` vertices of `degree`, or 0 when none fits. */
static unsigned mms_q(uint64_t values, uint32_t degree)
{
	struct lanes_error why;
	unsigned q = 1;
	int delta = 0;

	while ((uint64_t)2 * (q + 1) * (q + 1) <= values)
		q++;
	if ((uint64_t)2 * q * q != values || lanes_mms_check_q("sfxff", q, &delta, &why) ||
	    degree != (uint32_t)(3 * (int)q - delta) / 2 || degree > LANES_PORTS_MAX)
		return 0;
	return q;
}

/* Coordinate i joins the ends of every link of the other dimensions (eps_i). */
static int coordinate(struct sfxff *p, uint32_t i, struct lanes_error *err)
{
	const struct lanes_switch_graph *g = &p->g;
	uint32_t n = g->num_switches, count = 0, *value_of_root = p->scratch;
	struct lanes_uf uf = { 0 };
	int rc;

	if ((rc = lanes_uf_init(&uf, n, err)))
		return rc;
	for (uint32_t u = 0; u < n; u++) {
		value_of_root[u] = LANES_NONE;
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++)
			if (p->dim_of_class[p->class_of[e]] != i)
				lanes_uf_union(&uf, u, g->nbr[e]);
	}
	for (uint32_t u = 0; u < n; u++) { /* values by lowest switch */
		uint32_t r = lanes_uf_find(&uf, u);

		if (value_of_root[r] == LANES_NONE)
			value_of_root[r] = count++;
		p->coord[(size_t)u * p->num_dims + i] = value_of_root[r];
	}
	p->extent[i] = count;
	lanes_uf_free(&uf);
	return 0;
}

/* One switch per tuple of values, every link changing its own dimension's? 1 or 0. */
static int check_tuples(struct sfxff *p)
{
	const struct lanes_switch_graph *g = &p->g;
	uint32_t n = g->num_switches, k = p->num_dims, *switch_at = p->scratch;
	uint64_t tuples = 1;

	for (uint32_t d = 0; d < k && tuples <= n; d++)
		tuples *= p->extent[d];
	if (tuples != n)
		return 0;
	for (uint32_t u = 0; u < n; u++)
		switch_at[u] = LANES_NONE;
	for (uint32_t u = 0; u < n; u++) {
		uint64_t index = 0;

		for (uint32_t d = k; d-- > 0;)
			index = index * p->extent[d] + p->coord[(size_t)u * k + d];
		if (switch_at[index] != LANES_NONE)
			return 0;
		switch_at[index] = u;
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
			uint32_t d = p->dim_of_class[p->class_of[e]];

			if (p->coord[(size_t)u * k + d] == p->coord[(size_t)g->nbr[e] * k + d])
				return 0;
		}
	}
	return 1;
}

/* Does switch u agree with switch 0 in every FlatFly coordinate? */
static int in_layer_of_0(const struct sfxff *p, uint32_t u)
{
	for (uint32_t d = 1; d < p->num_dims; d++)
		if (p->coord[(size_t)u * p->num_dims + d] != p->coord[d])
			return 0;
	return 1;
}

/* The Slim Fly values that switch u's links lead to, sorted; how many. */
static uint32_t factor_values(const struct sfxff *p, uint32_t u, uint32_t *out)
{
	const struct lanes_switch_graph *g = &p->g;
	uint32_t k = 0;

	for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++)
		if (!p->dim_of_class[p->class_of[e]])
			out[k++] = p->coord[(size_t)g->nbr[e] * p->num_dims];
	qsort(out, k, sizeof(*out), lanes_cmp_u32);
	return k;
}

/*
 * Every switch's links are a product vertex's: K_d - 1 in each complete
 * dimension d, and in the Slim Fly the values that the layer of switch 0
 * joins to its own (that layer is the factor graph, into factor_nbr).
 * @return 1 if so, 0 if not, LANES_ENOMEM
 */
static int check_layers(struct sfxff *p, struct lanes_error *err)
{
	uint32_t n = p->g.num_switches, k = p->num_dims, deg = p->sf_degree;
	uint32_t count[LANES_STRUCTURE_MAX_DIMS];

	free(p->factor_nbr);
	if (!(p->factor_nbr = malloc(((size_t)p->extent[0] * deg + 1) * sizeof(*p->factor_nbr))))
		return lanes_error_oom(err);
	for (uint32_t u = 0; u < n; u++)
		if (in_layer_of_0(p, u))
			factor_values(p, u, p->factor_nbr + (size_t)p->coord[(size_t)u * k] * deg);
	for (uint32_t u = 0; u < n; u++) {
		const uint32_t *mine = p->mine, *layer = p->factor_nbr + (size_t)p->coord[(size_t)u * k] * deg;

		memset(count, 0, sizeof(count));
		for (uint32_t e = p->g.off[u]; e < p->g.off[u + 1]; e++)
			count[p->dim_of_class[p->class_of[e]]]++;
		for (uint32_t d = 1; d < k; d++)
			if (count[d] != p->extent[d] - 1)
				return 0;
		if (count[0] != deg || factor_values(p, u, p->mine) != deg ||
		    memcmp(mine, layer, deg * sizeof(*mine)))
			return 0;
	}
	return 1;
}

/* The factor as a fabric of switches only (port i + 1 to its i-th neighbour). */
static int factor_fabric(const struct sfxff *p, struct lanes_fabric **out, struct lanes_error *err)
{
	uint32_t values = p->extent[0], degree = p->sf_degree;
	struct lanes_node_spec spec = { LANES_NODE_SWITCH, (uint8_t)degree, 0, 0, 0, 0, "" };
	struct lanes_builder *b = NULL;
	int rc;

	if ((rc = lanes_builder_new(&b, err)))
		return rc;
	for (uint32_t v = 0; v < values && !rc; v++)
		rc = lanes_builder_add_node(b, &spec, NULL, err);
	for (uint32_t v = 0; v < values && !rc; v++)
		for (uint32_t i = 0; i < degree && !rc; i++) {
			uint32_t w = p->factor_nbr[(size_t)v * degree + i];
			uint32_t back = lanes_lower_bound(p->factor_nbr + (size_t)w * degree, degree, v);

			if (v < w)
				rc = lanes_builder_connect(b, v, (uint8_t)(i + 1), w,
							   (uint8_t)(back + 1), 0, 0, err);
		}
	if (rc) {
		lanes_builder_free(b);
		return rc;
	}
	return lanes_builder_finish(b, out, err);
}

/* The Slim Fly factor labelled as the MMS graph of q; LANES_EINVAL with why if not one. */
static int label_factor(struct sfxff *p, unsigned q, struct lanes_error *why,
			struct lanes_error *err)
{
	struct lanes_fabric *factor = NULL;
	struct lanes_structure sf = { 0 };
	int rc;

	free(p->mms_vertex);
	if (!(p->mms_vertex = malloc(((size_t)p->extent[0] + 1) * sizeof(*p->mms_vertex))))
		return lanes_error_oom(err);
	if ((rc = factor_fabric(p, &factor, err)))
		return rc;
	rc = lanes_recognize_slimfly(factor, &sf, why);
	if (rc && rc != LANES_EINVAL)
		rc = lanes_error_set(err, rc, "%s", why->message);
	for (uint32_t i = 0; !rc && i < factor->num_switches; i++) {
		const uint32_t *c = sf.coord + 3 * (size_t)i;

		p->mms_vertex[factor->switches[i]] = (c[0] * q + c[1]) * q + c[2];
	}
	lanes_structure_free(&sf);
	lanes_fabric_free(factor);
	return rc;
}

/*
 * Check the choice in dim_of_class: coordinates, the product, the MMS
 * factor. 0 when it is one; LANES_EINVAL (why filled when the Slim Fly
 * recogniser said no) when not; another code on failure.
 */
static int check_choice(struct sfxff *p, unsigned q, struct lanes_error *why,
			struct lanes_error *err)
{
	int rc = 0;

	free(p->coord);
	if (!(p->coord = malloc((size_t)p->g.num_switches * p->num_dims * sizeof(*p->coord))))
		return lanes_error_oom(err);
	for (uint32_t d = 0; d < p->num_dims && !rc; d++)
		rc = coordinate(p, d, err);
	if (rc)
		return rc;
	if (!check_tuples(p))
		return LANES_EINVAL;
	if ((rc = check_layers(p, err)) <= 0)
		return rc ? rc : LANES_EINVAL;
	return label_factor(p, q, why, err);
}

/* ------------------------------------------------------------ step 4: the choices */

/*
 * The choice of `flatfly` (a bit per complete class: those that are
 * FlatFly dimensions) if its counts fit: dimensions 1.. by ascending size,
 * ties by class; the MMS q, or 0 when the counts do not fit.
 */
static unsigned set_choice(struct sfxff *p, const uint32_t *complete, uint32_t num_complete,
			   uint32_t flatfly)
{
	uint32_t n = p->g.num_switches, degree = p->g.off[1] - p->g.off[0], dims = 1;
	uint32_t order[LANES_STRUCTURE_MAX_DIMS];
	uint64_t sf_values = n;

	for (uint32_t c = 0; c < p->num_classes; c++)
		p->dim_of_class[c] = 0;
	for (uint32_t i = 0; i < num_complete; i++) {
		uint32_t c = complete[i], k = p->class_degree[c] + 1, at = dims++;

		if (!(flatfly >> i & 1)) {
			dims--;
			continue;
		}
		if (sf_values % k || dims > LANES_STRUCTURE_MAX_DIMS)
			return 0;
		sf_values /= k;
		degree -= k - 1;
		while (at > 1 && p->class_degree[order[at - 1]] > p->class_degree[c]) {
			order[at] = order[at - 1];
			at--;
		}
		order[at] = c;
	}
	for (uint32_t d = 1; d < dims; d++)
		p->dim_of_class[order[d]] = d;
	p->num_dims = dims;
	p->sf_degree = degree;
	return mms_q(sf_values, degree);
}

static uint32_t bits_set(uint32_t mask)
{
	uint32_t count = 0;

	for (; mask; mask &= mask - 1)
		count++;
	return count;
}

/*
 * Step 4: which complete classes are the FlatFly dimensions, the rest
 * being the Slim Fly: every non-empty set of them whose counts fit, most
 * dimensions first (then in class order), until one checks.
 */
static int choose(struct sfxff *p, unsigned *q_out, struct lanes_error *err)
{
	uint32_t complete[MAX_CLASSES], num_complete = 0, fitting = 0;
	struct lanes_error why;
	int rc = LANES_EINVAL;

	for (uint32_t c = 0; c < p->num_classes; c++)
		if (p->complete[c])
			complete[num_complete++] = c;
	if (num_complete > MAX_COMPLETE_CLASSES)
		return lanes_error_set(err, LANES_EINVAL,
				       NOT_PRODUCT "%u of its link classes are complete graphs, at "
				       "most %d are tried",
				       num_complete, MAX_COMPLETE_CLASSES);
	lanes_error_clear(&why);
	for (uint32_t size = num_complete; size > 0 && rc == LANES_EINVAL; size--)
		for (uint32_t mask = 1; mask < (1u << num_complete) && rc == LANES_EINVAL; mask++) {
			unsigned q;

			if (bits_set(mask) != size ||
			    !(q = set_choice(p, complete, num_complete, mask)))
				continue;
			fitting++;
			*q_out = q;
			rc = check_choice(p, q, &why, err);
		}
	if (rc != LANES_EINVAL)
		return rc;
	if (!fitting)
		return lanes_error_set(err, LANES_EINVAL,
				       NOT_PRODUCT "no choice of its complete link classes (%u of "
				       "%u) as FlatFly dimensions leaves 2q^2 switches of degree (3q "
				       "- delta)/2 for a prime power q = 4w + delta",
				       num_complete, p->num_classes);
	if (!why.message[0])
		return lanes_error_set(err, LANES_EINVAL,
				       NOT_PRODUCT "%u choices of its complete link classes as "
				       "FlatFly dimensions fit the counts, none makes it a product",
				       fitting);
	return lanes_error_set(err, LANES_EINVAL,
			       NOT_PRODUCT "%u choices of its complete link classes as FlatFly "
			       "dimensions fit the counts, none leaves an MMS graph (%.300s)",
			       fitting, why.message);
}

/* ------------------------------------------------------------ the structure */

static int fill_structure(struct sfxff *p, struct lanes_structure *s, unsigned q,
			  struct lanes_error *err)
{
	uint32_t n = p->g.num_switches, dims = p->num_dims;
	int len;

	if (!(s->coord = malloc((size_t)n * dims * sizeof(*s->coord))))
		return lanes_error_oom(err);
	s->kind = LANES_STRUCTURE_SFXFF;
	s->num_switches = n;
	s->num_dims = dims;
	s->slimfly_q = q;
	memcpy(s->extent, p->extent, sizeof(s->extent));
	for (uint32_t u = 0; u < n; u++)
		for (uint32_t d = 0; d < dims; d++) {
			uint32_t c = p->coord[(size_t)u * dims + d];

			s->coord[(size_t)u * dims + d] = d ? c : p->mms_vertex[c];
		}
	len = snprintf(s->note, sizeof(s->note), "Slim Fly x FlatFly: the MMS graph of q=%u", q);
	for (uint32_t d = 1; d < dims && len > 0 && (size_t)len < sizeof(s->note); d++)
		len += snprintf(s->note + len, sizeof(s->note) - (size_t)len, " x K_%u",
				s->extent[d]);
	return 0;
}

static void sfxff_free(struct sfxff *p)
{
	lanes_switch_graph_free(&p->g);
	lanes_uf_free(&p->links);
	free(p->reverse);
	free(p->class_of);
	free(p->coord);
	free(p->factor_nbr);
	free(p->mms_vertex);
	free(p->scratch);
	free(p->mine);
}

int lanes_recognize_sfxff(const struct lanes_fabric *f, struct lanes_structure *s,
			  struct lanes_error *err)
{
	struct sfxff p;
	unsigned q = 0;
	int rc;

	memset(s, 0, sizeof(*s));
	memset(&p, 0, sizeof(p));
	p.f = f;
	if ((rc = lanes_switch_graph_build(f, &p.g, err)) || (rc = check_regular(&p.g, err)) ||
	    (rc = link_classes(&p, err)))
		goto out;
	p.scratch = malloc(((size_t)f->num_switches + 1) * sizeof(*p.scratch));
	p.mine = malloc(((size_t)p.g.off[1] + 1) * sizeof(*p.mine));
	if (!p.scratch || !p.mine) {
		rc = lanes_error_oom(err);
		goto out;
	}
	classify(&p);
	if (!(rc = choose(&p, &q, err)))
		rc = fill_structure(&p, s, q, err);
out:
	if (rc)
		lanes_structure_free(s);
	sfxff_free(&p);
	return rc;
}
