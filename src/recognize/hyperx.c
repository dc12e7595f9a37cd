/*
 * hyperx.c - recognise a HyperX / Flattened Butterfly (generalised
 * hypercube, hypercubes included) and give every switch its coordinates.
 *
 * The mapping algorithm of "Early evaluation of direct large-scale
 * InfiniBand networks with adaptive routing", Sec. 2.1 ("Mapping a
 * FlatFly"). An equivalence relation eps on the links is built from four
 * rules:
 *   1. the two directions of one cable are equivalent;
 *   2. parallel cables between the same two switches are equivalent;
 *   3. the links of a triangle are equivalent (the text extracted from the
 *      paper reads "three links forming a rectangle"; three links close a
 *      triangle, and in a HyperX a triangle lies in one dimension);
 *   4. in a rectangle of four links (a 4-cycle) the opposite sides are
 *      equivalent.
 * Its transitive closure is taken with union-find. Each class D_i of eps is
 * one dimension. Then for every dimension i a relation eps_i on the switches
 * joins the two ends of every link that is not in D_i; the classes of eps_i
 * are the values of coordinate i.
 *
 * Here rules 1 and 2 are the simple switch graph (one link per neighbour
 * pair, both directions united). Rules 3 and 4 are found from every switch
 * u by walking the paths u - v - w of two links (n * d^2 steps, as the paper
 * counts): w adjacent to u closes a triangle; two different middles v, v'
 * for one w close the rectangle u v w v'. For k middles of one w, uniting
 * each new middle's sides with the first and the previous middle's gives
 * the same closure as all k(k-1) rectangles.
 *
 * Numbering (deterministic): dimensions in the order of their lowest link,
 * (lower switch index, then higher); within a dimension, values in the order
 * of their lowest switch index. On our generators (dimension 0 fastest in
 * the switch index) this is the generator's own order.
 *
 * The result is accepted as a HyperX when (decisions of ours; the paper
 * assumes a FlatFly): the switch graph is connected; every dimension has at
 * least 2 values; the two ends of every link of D_i differ in coordinate i
 * (they agree in all others by construction); no two switches share all
 * coordinates; at least 2/3 of the coordinate space is present (the paper
 * maps FlatFlies with 20% of the switches missing); and at least half of
 * the links a complete HyperX would have among the present switches are
 * there (the paper: 15% of the links missing). A complete graph is a 1-D
 * HyperX; a ring of 4 is the 2x2 HyperX it is isomorphic to (a torus of
 * extents 3 and 4 only is a HyperX). Fewer than 3 switches are too few to
 * call anything (two switches and a cable would be a 1-D HyperX). Longer
 * rings, meshes, trees, fat trees and dragonflies fail one of the tests and
 * are refused with the reason.
 *
 * Files: hyperx.c builds eps and the coordinates; hyperx_place.c places the
 * switches that faults left with a value of their own in some dimension,
 * and the links in no dimension (our addition to the paper, for faulty
 * fabrics); hyperx_checks.c holds the acceptance checks above. They share
 * struct hx and their steps through recognize/hyperx.h.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "recognize/recognize.h"
#include "recognize/hyperx.h"
#include "core/util.h"

/* The position of v in u's neighbour list (v must be a neighbour). */
static uint32_t position(const struct lanes_switch_graph *g, uint32_t u, uint32_t v)
{
	return g->off[u] + lanes_lower_bound(g->nbr + g->off[u], g->off[u + 1] - g->off[u], v);
}

/* Rule 1: unite the two directions of every link. */
static void unite_directions(struct hx *x)
{
	for (uint32_t u = 0; u < x->g.num_switches; u++)
		for (uint32_t e = x->g.off[u]; e < x->g.off[u + 1]; e++) {
			x->reverse[e] = position(&x->g, x->g.nbr[e], u);
			lanes_uf_union(&x->eps, e, x->reverse[e]);
		}
}

/* Per-walk scratch, indexed by switch: stamp of the walk, first and last middle. */
struct walk {
	uint32_t *seen;        /* u + 1 when w was reached from u */
	uint32_t *is_nbr;      /* u + 1 when w is a neighbour of u */
	uint32_t *first_uv, *first_wv, *last_uv, *last_wv; /* link positions */
};

/* Rules 3 and 4 from switch u over every path u - v - w. */
static void walk_from(struct hx *x, struct walk *k, uint32_t u)
{
	const struct lanes_switch_graph *g = &x->g;

	for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++)
		k->is_nbr[g->nbr[e]] = u + 1;
	for (uint32_t uv = g->off[u]; uv < g->off[u + 1]; uv++) {
		uint32_t v = g->nbr[uv];

		for (uint32_t vw = g->off[v]; vw < g->off[v + 1]; vw++) {
			uint32_t w = g->nbr[vw], wv = x->reverse[vw];

			if (w == u)
				continue;
			if (k->is_nbr[w] == u + 1) /* rule 3: triangle u v w */
				lanes_uf_union(&x->eps, uv, vw);
			if (k->seen[w] != u + 1) {
				k->seen[w] = u + 1;
				k->first_uv[w] = k->last_uv[w] = uv;
				k->first_wv[w] = k->last_wv[w] = wv;
				continue;
			}
			/* rule 4: rectangles u v w v1 with the first and the last middle v1 */
			lanes_uf_union(&x->eps, uv, k->first_wv[w]);
			lanes_uf_union(&x->eps, wv, k->first_uv[w]);
			lanes_uf_union(&x->eps, uv, k->last_wv[w]);
			lanes_uf_union(&x->eps, wv, k->last_uv[w]);
			k->last_uv[w] = uv;
			k->last_wv[w] = wv;
		}
	}
}

static int link_classes(struct hx *x, struct lanes_error *err)
{
	uint32_t n = x->g.num_switches;
	struct walk k = { 0 };
	int rc = 0;

	k.seen = calloc(n, sizeof(*k.seen));
	k.is_nbr = calloc(n, sizeof(*k.is_nbr));
	k.first_uv = malloc(n * sizeof(uint32_t));
	k.first_wv = malloc(n * sizeof(uint32_t));
	k.last_uv = malloc(n * sizeof(uint32_t));
	k.last_wv = malloc(n * sizeof(uint32_t));
	if (!k.seen || !k.is_nbr || !k.first_uv || !k.first_wv || !k.last_uv || !k.last_wv) {
		rc = lanes_error_oom(err);
		goto out;
	}
	unite_directions(x);
	for (uint32_t u = 0; u < n; u++)
		walk_from(x, &k, u);
out:
	free(k.seen);
	free(k.is_nbr);
	free(k.first_uv);
	free(k.first_wv);
	free(k.last_uv);
	free(k.last_wv);
	return rc;
}

/* Most classes of eps looked at before giving up. */
#define MAX_CLASSES (4 * LANES_STRUCTURE_MAX_DIMS)

/* Number the classes of eps by lowest link into x->dim_of. */
static int number_classes(struct hx *x, uint32_t *num_classes, struct lanes_error *err)
{
	const struct lanes_switch_graph *g = &x->g;
	uint32_t root_of[MAX_CLASSES], count = 0;

	for (uint32_t u = 0; u < g->num_switches; u++)
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
			uint32_t r = lanes_uf_find(&x->eps, e), c = 0;

			while (c < count && root_of[c] != r)
				c++;
			if (c == count) {
				if (count == MAX_CLASSES)
					return lanes_error_set(err, LANES_EINVAL,
							       "not a HyperX: more than %d link classes",
							       MAX_CLASSES);
				root_of[count++] = r;
			}
			x->dim_of[e] = c;
		}
	*num_classes = count;
	return 0;
}

/*
 * The classes of the relation that joins the ends of every link whose
 * dim_of entry d has use[d] set: with every class but one in use, the values
 * of that one's coordinate (eps_i). Numbered by lowest switch; returns the
 * count in *count.
 */
static int split_by(struct hx *x, const uint8_t *use, uint32_t *value, uint32_t *count,
		    struct lanes_error *err)
{
	const struct lanes_switch_graph *g = &x->g;
	uint32_t n = g->num_switches;
	struct lanes_uf uf = { 0 };
	int rc;

	if ((rc = lanes_uf_init(&uf, n, err)))
		return rc;
	for (uint32_t u = 0; u < n; u++)
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++)
			if (x->dim_of[e] != LANES_NONE && use[x->dim_of[e]])
				lanes_uf_union(&uf, u, g->nbr[e]);
	for (uint32_t u = 0; u < n; u++)
		value[u] = LANES_NONE;
	*count = 0;
	for (uint32_t u = 0; u < n; u++) {
		uint32_t r = lanes_uf_find(&uf, u);

		if (value[r] == LANES_NONE)
			value[r] = (*count)++;
		value[u] = value[r];
	}
	lanes_uf_free(&uf);
	return 0;
}

/*
 * A cut into count parts is a dimension's when at least two parts hold 2
 * switches or more, or every part is one switch (a complete graph): a
 * bridge to a switch hanging on one cable cuts off one switch only.
 */
static int real_cut(const struct hx *x, const uint32_t *value, uint32_t count, int *yes,
		    struct lanes_error *err)
{
	uint32_t n = x->g.num_switches, big = 0, *size;

	*yes = count >= 2;
	if (count < 2 || count == n)
		return 0;
	size = calloc(count, sizeof(*size));
	if (!size)
		return lanes_error_oom(err);
	for (uint32_t u = 0; u < n; u++)
		size[value[u]]++;
	for (uint32_t v = 0; v < count; v++)
		big += size[v] >= 2;
	free(size);
	*yes = big >= 2;
	return 0;
}

/*
 * Does class c cut the switches in two? First with every other link in
 * place, as the paper has it; then, for a faulty fabric, without the classes
 * under a quarter of c's size too: a few links of c's dimension that lost
 * every triangle and rectangle tying them to c form small classes of their
 * own (orphans) and hold the cut together.
 */
static int cuts(struct hx *x, uint32_t c, uint32_t c2, const uint32_t *size, uint32_t classes,
		uint32_t *value, int *yes, struct lanes_error *err)
{
	uint64_t together = size[c] + (c2 == LANES_NONE ? 0 : size[c2]);
	uint8_t use[MAX_CLASSES];
	uint32_t count;
	int rc;

	for (uint32_t k = 0; k < classes; k++)
		use[k] = k != c && k != c2;
	if ((rc = split_by(x, use, value, &count, err)) ||
	    (rc = real_cut(x, value, count, yes, err)) || *yes)
		return rc;
	for (uint32_t k = 0; k < classes; k++)
		use[k] = use[k] && 4 * (uint64_t)size[k] >= together;
	if ((rc = split_by(x, use, value, &count, err)))
		return rc;
	return real_cut(x, value, count, yes, err);
}

/*
 * A dimension whose links fell into two pieces of like size, neither of
 * which cuts alone: for each class that does not cut, the first other
 * such class that cuts with it joins it (alias).
 */
static int pair_pieces(struct hx *x, uint32_t *size, uint32_t classes, uint8_t *cut,
		       uint32_t *alias, uint32_t *value, struct lanes_error *err)
{
	int rc, yes = 0;

	for (uint32_t c = 0; c < classes; c++)
		for (uint32_t c2 = c + 1; c2 < classes && !cut[c] && alias[c] == c; c2++) {
			if (cut[c2] || alias[c2] != c2)
				continue;
			if ((rc = cuts(x, c, c2, size, classes, value, &yes, err)))
				return rc;
			if (yes) {
				alias[c2] = c;
				size[c] += size[c2];
				cut[c] = 1;
			}
		}
	return 0;
}

/*
 * Dimensions are the classes that cut; the rest are orphans, placed once
 * the coordinates are known. Renumbers dim_of: dimensions 0..num_dims-1 in
 * class order (lowest link), orphans LANES_NONE.
 */
static int choose_dims(struct hx *x, uint32_t *value, struct lanes_error *err)
{
	uint32_t classes = 0, map[MAX_CLASSES], size[MAX_CLASSES] = { 0 }, alias[MAX_CLASSES];
	uint32_t links = x->g.off[x->g.num_switches];
	uint8_t cut[MAX_CLASSES];
	int rc, yes = 0;

	if ((rc = number_classes(x, &classes, err)))
		return rc;
	for (uint32_t e = 0; e < links; e++)
		size[x->dim_of[e]]++;
	for (uint32_t c = 0; c < classes; c++) {
		if ((rc = cuts(x, c, LANES_NONE, size, classes, value, &yes, err)))
			return rc;
		cut[c] = (uint8_t)yes;
		alias[c] = c;
	}
	if ((rc = pair_pieces(x, size, classes, cut, alias, value, err)))
		return rc;
	x->num_dims = 0;
	for (uint32_t c = 0; c < classes; c++) {
		map[c] = LANES_NONE;
		if (alias[c] != c || !cut[c])
			continue;
		if (x->num_dims == LANES_STRUCTURE_MAX_DIMS)
			return lanes_error_set(err, LANES_EINVAL,
					       "not a HyperX: more than %d dimensions",
					       LANES_STRUCTURE_MAX_DIMS);
		map[c] = x->num_dims++;
	}
	for (uint32_t e = 0; e < links; e++)
		x->dim_of[e] = map[alias[x->dim_of[e]]];
	return 0;
}

/* Dimension d becomes orphan links; those above it move down one. */
static void drop_dim(struct hx *x, uint32_t d)
{
	for (uint32_t e = 0; e < x->g.off[x->g.num_switches]; e++)
		if (x->dim_of[e] == d)
			x->dim_of[e] = LANES_NONE;
		else if (x->dim_of[e] != LANES_NONE && x->dim_of[e] > d)
			x->dim_of[e]--;
	x->num_dims--;
}

/*
 * eps_i for every dimension over the links of the dimensions (orphans left
 * out). A dimension with one value cut only with help (see cuts()) and is
 * dropped to orphans, and the rest computed again.
 */
static int fill_coords(struct hx *x, uint32_t *value, struct lanes_error *err)
{
	uint32_t n = x->g.num_switches;
	uint8_t use[LANES_STRUCTURE_MAX_DIMS];
	int rc = 0;

	for (uint32_t d = 0; d < x->num_dims && !rc; d++) {
		for (uint32_t k = 0; k < x->num_dims; k++)
			use[k] = k != d;
		if ((rc = split_by(x, use, value, &x->extent[d], err)))
			break;
		if (x->extent[d] < 2) {
			drop_dim(x, d);
			d = (uint32_t)-1; /* start over */
			continue;
		}
		for (uint32_t u = 0; u < n; u++)
			x->coord[(size_t)u * x->num_dims + d] = value[u];
	}
	return rc;
}

static int coordinates(struct hx *x, struct lanes_error *err)
{
	uint32_t n = x->g.num_switches;
	uint32_t *value = malloc(((size_t)n + 1) * sizeof(*value));
	int rc = 0;

	if (!value || (rc = choose_dims(x, value, err))) {
		rc = rc ? rc : lanes_error_oom(err);
		goto out;
	}
	x->coord = malloc(((size_t)n * x->num_dims + 1) * sizeof(*x->coord));
	if (!x->coord) {
		rc = lanes_error_oom(err);
		goto out;
	}
	if ((rc = fill_coords(x, value, err)))
		goto out;
	if (!x->num_dims)
		rc = lanes_error_set(err, LANES_EINVAL,
				     "not a HyperX: no link class cuts the switches in two");
out:
	free(value);
	return rc;
}

static int map(struct hx *x, const struct lanes_fabric *f, struct lanes_error *err)
{
	uint32_t links;
	int rc;

	if (f->num_switches < 3)
		return lanes_error_set(err, LANES_EINVAL,
				       "not a HyperX: fewer than 3 switches, too few to tell");
	if ((rc = lanes_switch_graph_build(f, &x->g, err)) ||
	    (rc = lanes_hx_check_connected(&x->g, err)))
		return rc;
	links = x->g.off[f->num_switches];
	x->reverse = malloc(((size_t)links + 1) * sizeof(*x->reverse));
	x->dim_of = malloc(((size_t)links + 1) * sizeof(*x->dim_of));
	if (!x->reverse || !x->dim_of)
		return lanes_error_oom(err);
	if ((rc = lanes_uf_init(&x->eps, links, err)) || (rc = link_classes(x, err)) ||
	    (rc = coordinates(x, err)) || (rc = lanes_hx_place_unsettled(x, err)) ||
	    (rc = lanes_hx_renumber_values(x, err)) || (rc = lanes_hx_place_orphans(x, err)) ||
	    (rc = lanes_hx_check_dims(x, err)) || (rc = lanes_hx_check_fill(x, err)))
		return rc;
	return 0;
}

int lanes_recognize_hyperx(const struct lanes_fabric *f, struct lanes_structure *s,
			   struct lanes_error *err)
{
	struct hx x = { 0 };
	int rc;

	memset(s, 0, sizeof(*s));
	if ((rc = map(&x, f, err)))
		goto out;
	s->kind = LANES_STRUCTURE_HYPERX;
	s->num_switches = f->num_switches;
	s->num_dims = x.num_dims;
	memcpy(s->extent, x.extent, sizeof(x.extent));
	s->coord = x.coord;
	x.coord = NULL;
out:
	free(x.coord);
	free(x.reverse);
	free(x.dim_of);
	lanes_uf_free(&x.eps);
	lanes_switch_graph_free(&x.g);
	return rc;
}
