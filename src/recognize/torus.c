/*
 * torus.c - recognise a torus or mesh (k-ary n-cube, with or without the
 * wraparound of each dimension) and give every switch its coordinates.
 *
 * A torus or mesh is the Cartesian product of cycles and paths (Dally,
 * "Performance analysis of k-ary n-cube interconnection networks", IEEE
 * Trans. Computers 39(6), 1990). In a Cartesian product two links at a
 * switch that belong to different factors span exactly one square u-a-w-b
 * (the "unique square property" on which the factorisation algorithms of
 * Imrich and Klavzar, "Product Graphs", Wiley 2000, ch. 4, rest), while two
 * links of one cycle or path span none. That gives the equivalence on links
 * whose classes are the dimensions, as in the FlatFly mapping of "Early
 * evaluation of direct large-scale InfiniBand networks with adaptive
 * routing", Sec. 2.1 (recognize/hyperx.c), with cycles and paths in place of
 * complete graphs:
 *   1. the two directions of a link are equivalent;
 *   2. two links at a switch that span no square are equivalent (one cycle
 *      or path through the switch);
 *   3. two links at a switch that span one square: the opposite sides of
 *      that square are equivalent;
 *   4. two links at a switch that span two or more squares: not a product
 *      of cycles and paths (a fat tree, a complete bipartite piece).
 * A refusal says what failed but names no switch: which one is met first
 * depends on the node order, and a fabric read from another file of the
 * same cabling must get the same answer.
 * A ring of 4 is the product of two links (K2 x K2) and a triangle is the
 * cycle of 3, so a dimension of extent 4 with wraparound comes back as two
 * dimensions of extent 2, as the graph cannot tell them apart (and the
 * torus k=4x4 as 2x2x2x2).
 *
 * The direction of a dimension: a second equivalence on the directed links
 * ("arcs") joins the arcs that point the same way: the parallel sides of
 * each square of rule 3, and the arc into a switch with the arc that leaves
 * it straight on in the same dimension (x -> u and u -> y, x != y). Each
 * dimension then has two classes of arcs, + and -; an arc in the class of
 * its own reverse is a twist (a Moebius-like cabling) and is refused.
 *
 * Coordinates: the origin is the lowest-numbered switch at an end of every
 * path dimension (a corner of a mesh; any switch of a torus). The +
 * direction of each dimension is that of the origin's arc into it (for a
 * cycle, the arc to its lower-numbered neighbour). A breadth-first walk from
 * the origin adds 1 along + arcs and subtracts 1 along - arcs, modulo the
 * extent of a cycle. The result is accepted when every switch has distinct
 * coordinates within the extents, every link joins switches that differ by
 * one step in its dimension only, and the fabric has every switch and link
 * of the full product (faulty tori are refused for now). Fewer than 3
 * switches, or one dimension of extent 2 alone, are too few to call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recognize/recognize.h"
#include "core/util.h"

struct torus {
	const struct lanes_switch_graph *g;
	uint32_t num_arcs;
	uint32_t *rev;        /* per arc: its reverse */
	uint32_t *arc_from;   /* per arc: its tail switch */
	struct lanes_uf dims; /* rule 1 to 3 classes over arcs */
	struct lanes_uf ways; /* same-direction classes over arcs */
	uint32_t num_dims;
	uint32_t *dim_of_arc; /* per arc: its dimension */
	uint32_t *plus;       /* per dimension: the ways root of its + direction */
	uint32_t *coord;      /* per switch * num_dims */
	uint32_t extent[LANES_STRUCTURE_MAX_DIMS];
	uint8_t wrap[LANES_STRUCTURE_MAX_DIMS];
};

static uint32_t arc_to(const struct torus *t, uint32_t arc)
{
	return t->g->nbr[arc];
}

/* The arc u -> v (v must be a neighbour of u). */
static uint32_t arc_between(const struct lanes_switch_graph *g, uint32_t u, uint32_t v)
{
	return g->off[u] + lanes_lower_bound(g->nbr + g->off[u], g->off[u + 1] - g->off[u], v);
}

static int setup_arcs(struct torus *t, struct lanes_error *err)
{
	const struct lanes_switch_graph *g = t->g;

	t->num_arcs = g->off[g->num_switches];
	t->rev = malloc(((size_t)t->num_arcs + 1) * sizeof(*t->rev));
	t->arc_from = malloc(((size_t)t->num_arcs + 1) * sizeof(*t->arc_from));
	if (!t->rev || !t->arc_from)
		return lanes_error_oom(err);
	for (uint32_t u = 0; u < g->num_switches; u++)
		for (uint32_t a = g->off[u]; a < g->off[u + 1]; a++) {
			t->arc_from[a] = u;
			t->rev[a] = arc_between(g, g->nbr[a], u);
		}
	if (lanes_uf_init(&t->dims, t->num_arcs, err) || lanes_uf_init(&t->ways, t->num_arcs, err))
		return LANES_ENOMEM;
	return 0;
}

/* The neighbours w != u common to a and b: how many (up to 2), the first in *w. */
static uint32_t corners(const struct lanes_switch_graph *g, uint32_t u, uint32_t a, uint32_t b,
			uint32_t *w)
{
	uint32_t i = g->off[a], j = g->off[b], found = 0;

	while (i < g->off[a + 1] && j < g->off[b + 1] && found < 2) {
		if (g->nbr[i] < g->nbr[j]) {
			i++;
		} else if (g->nbr[i] > g->nbr[j]) {
			j++;
		} else {
			if (g->nbr[i] != u && !found++)
				*w = g->nbr[i];
			i++;
			j++;
		}
	}
	return found;
}

/* Rules 2 to 4 for the links u -> a and u -> b, and the parallel arcs of their square. */
static int pair_rules(struct torus *t, uint32_t u, uint32_t ua, uint32_t ub, struct lanes_error *err)
{
	const struct lanes_switch_graph *g = t->g;
	uint32_t a = g->nbr[ua], b = g->nbr[ub], w = LANES_NONE;
	uint32_t n = corners(g, u, a, b, &w);

	if (n >= 2)
		return lanes_error_set(err, LANES_EINVAL,
				       "not a torus or mesh: two links at a switch span two or "
				       "more squares (as in a fat tree)");
	if (n == 0) {
		lanes_uf_union(&t->dims, ua, ub);
		return 0;
	}
	/* the square u a w b: u->a parallel to b->w, u->b parallel to a->w */
	lanes_uf_union(&t->dims, ua, arc_between(g, b, w));
	lanes_uf_union(&t->dims, ub, arc_between(g, a, w));
	lanes_uf_union(&t->ways, ua, arc_between(g, b, w));
	lanes_uf_union(&t->ways, ub, arc_between(g, a, w));
	lanes_uf_union(&t->ways, t->rev[ua], arc_between(g, w, b));
	lanes_uf_union(&t->ways, t->rev[ub], arc_between(g, w, a));
	return 0;
}

static int link_classes(struct torus *t, struct lanes_error *err)
{
	const struct lanes_switch_graph *g = t->g;
	int rc;

	for (uint32_t a = 0; a < t->num_arcs; a++)
		lanes_uf_union(&t->dims, a, t->rev[a]);
	for (uint32_t u = 0; u < g->num_switches; u++)
		for (uint32_t i = g->off[u]; i < g->off[u + 1]; i++)
			for (uint32_t j = i + 1; j < g->off[u + 1]; j++)
				if ((rc = pair_rules(t, u, i, j, err)))
					return rc;
	return 0;
}

/* Number the dimensions by their lowest arc; at most two arcs per switch in each. */
static int number_dims(struct torus *t, struct lanes_error *err)
{
	const struct lanes_switch_graph *g = t->g;
	uint32_t *id = malloc(((size_t)t->num_arcs + 1) * sizeof(*id));

	t->dim_of_arc = malloc(((size_t)t->num_arcs + 1) * sizeof(*t->dim_of_arc));
	if (!id || !t->dim_of_arc) {
		free(id);
		return lanes_error_oom(err);
	}
	for (uint32_t a = 0; a < t->num_arcs; a++)
		id[a] = LANES_NONE;
	for (uint32_t a = 0; a < t->num_arcs; a++) {
		uint32_t root = lanes_uf_find(&t->dims, a);

		if (id[root] == LANES_NONE) {
			if (t->num_dims == LANES_STRUCTURE_MAX_DIMS) {
				free(id);
				return lanes_error_set(err, LANES_EINVAL,
						       "not a torus or mesh: more than %u dimensions",
						       LANES_STRUCTURE_MAX_DIMS);
			}
			id[root] = t->num_dims++;
		}
		t->dim_of_arc[a] = id[root];
	}
	free(id);
	for (uint32_t u = 0; u < g->num_switches; u++) {
		uint32_t count[LANES_STRUCTURE_MAX_DIMS] = { 0 };

		for (uint32_t a = g->off[u]; a < g->off[u + 1]; a++)
			if (++count[t->dim_of_arc[a]] > 2)
				return lanes_error_set(err, LANES_EINVAL,
						       "not a torus or mesh: a switch has 3 links "
						       "in one dimension");
	}
	return 0;
}

/* Arcs that go straight on through a switch point the same way. */
static void straight_on(struct torus *t)
{
	const struct lanes_switch_graph *g = t->g;

	for (uint32_t u = 0; u < g->num_switches; u++)
		for (uint32_t i = g->off[u]; i < g->off[u + 1]; i++)
			for (uint32_t j = i + 1; j < g->off[u + 1]; j++)
				if (t->dim_of_arc[i] == t->dim_of_arc[j]) {
					/* x -> u -> y and y -> u -> x, x = nbr[i], y = nbr[j] */
					lanes_uf_union(&t->ways, t->rev[i], j);
					lanes_uf_union(&t->ways, t->rev[j], i);
				}
}

/* Arcs of the switch u in dimension d: how many, the first two in arcs[]. */
static uint32_t arcs_in(const struct torus *t, uint32_t u, uint32_t d, uint32_t arcs[2])
{
	uint32_t n = 0;

	for (uint32_t a = t->g->off[u]; a < t->g->off[u + 1]; a++)
		if (t->dim_of_arc[a] == d && n < 2)
			arcs[n++] = a;
	return n;
}

/* A dimension is a cycle when the origin has two arcs in it that lead round back to it. */
static uint32_t pick_origin(const struct torus *t)
{
	const struct lanes_switch_graph *g = t->g;
	uint32_t best = 0, best_arcs = UINT32_MAX, arcs[2];

	for (uint32_t u = 0; u < g->num_switches; u++) {
		uint32_t total = 0;

		for (uint32_t d = 0; d < t->num_dims; d++)
			total += arcs_in(t, u, d, arcs);
		if (total < best_arcs) {
			best = u;
			best_arcs = total;
		}
	}
	return best;
}

/* Walk dimension d from the origin along + arcs: its extent and whether it wraps. */
static int measure_dim(struct torus *t, uint32_t origin, uint32_t d, struct lanes_error *err)
{
	uint32_t arcs[2] = { 0, 0 }, n = arcs_in(t, origin, d, arcs), u = origin, steps = 0, arc;

	if (n == 0)
		return lanes_error_set(err, LANES_EINVAL, "not a torus or mesh: a switch has no "
				       "link in one of the dimensions");
	/* + is the origin's arc (to the lower-numbered neighbour when it has two) */
	arc = n == 2 && arc_to(t, arcs[1]) < arc_to(t, arcs[0]) ? arcs[1] : arcs[0];
	t->plus[d] = lanes_uf_find(&t->ways, arc);
	if (lanes_uf_find(&t->ways, t->rev[arc]) == t->plus[d])
		return lanes_error_set(err, LANES_EINVAL,
				       "not a torus or mesh: a dimension is twisted (its links "
				       "point both ways)");
	for (;;) {
		uint32_t next = LANES_NONE;

		u = arc_to(t, arc);
		steps++;
		if (u == origin || steps > t->g->num_switches)
			break;
		n = arcs_in(t, u, d, arcs);
		for (uint32_t k = 0; k < n; k++)
			if (lanes_uf_find(&t->ways, arcs[k]) == t->plus[d])
				next = arcs[k];
		if (next == LANES_NONE)
			break;
		arc = next;
	}
	t->wrap[d] = u == origin && steps > 2;
	t->extent[d] = t->wrap[d] ? steps : steps + 1;
	return 0;
}

/* Coordinates by a breadth-first walk: +1 along + arcs, -1 along - arcs, modulo a cycle. */
static int walk_coordinates(struct torus *t, uint32_t origin, struct lanes_error *err)
{
	const struct lanes_switch_graph *g = t->g;
	uint32_t n = g->num_switches, D = t->num_dims, head = 0, tail = 0;
	uint32_t *queue = malloc(((size_t)n + 1) * sizeof(*queue));
	uint8_t *seen = calloc((size_t)n + 1, 1);

	t->coord = calloc((size_t)n * D + 1, sizeof(*t->coord));
	if (!queue || !seen || !t->coord) {
		free(queue);
		free(seen);
		return lanes_error_oom(err);
	}
	queue[tail++] = origin;
	seen[origin] = 1;
	while (head < tail) {
		uint32_t u = queue[head++];

		for (uint32_t a = g->off[u]; a < g->off[u + 1]; a++) {
			uint32_t v = g->nbr[a], d = t->dim_of_arc[a], k = t->extent[d];
			int up = lanes_uf_find(&t->ways, a) == t->plus[d];

			if (seen[v])
				continue;
			seen[v] = 1;
			queue[tail++] = v;
			memcpy(t->coord + (size_t)v * D, t->coord + (size_t)u * D, D * sizeof(*t->coord));
			t->coord[(size_t)v * D + d] = (t->coord[(size_t)u * D + d] + (up ? 1 : k - 1)) % k;
		}
	}
	free(queue);
	free(seen);
	if (tail < n)
		return lanes_error_set(err, LANES_EINVAL, "not a torus or mesh: the switches are "
				       "not all connected");
	return 0;
}

/* The extents' product, which must be the number of switches (0 on overflow). */
static uint64_t product_size(const struct torus *t)
{
	uint64_t size = 1;

	for (uint32_t d = 0; d < t->num_dims; d++) {
		size *= t->extent[d];
		if (size > UINT32_MAX)
			return 0;
	}
	return size;
}

/* Arc a joins switches one step apart in its dimension, the way its class says. */
static int arc_fits(struct torus *t, uint32_t a)
{
	uint32_t D = t->num_dims, d = t->dim_of_arc[a], k = t->extent[d];
	const uint32_t *cu = t->coord + (size_t)t->arc_from[a] * D, *cv = t->coord + (size_t)arc_to(t, a) * D;
	int up = lanes_uf_find(&t->ways, a) == t->plus[d];

	for (uint32_t e = 0; e < D; e++)
		if (e != d && cu[e] != cv[e])
			return 0;
	if (!t->wrap[d])
		return up ? cu[d] + 1 == cv[d] : cv[d] + 1 == cu[d];
	return (cu[d] + (up ? 1 : k - 1)) % k == cv[d];
}

/* Distinct coordinates, every link one step in its dimension, every link of the product there. */
static int check_product(struct torus *t, struct lanes_error *err)
{
	uint32_t n = t->g->num_switches, D = t->num_dims;
	uint64_t size = product_size(t), links = 0;
	uint8_t *taken;

	if (size != n)
		return lanes_error_set(err, LANES_EINVAL, "not a torus or mesh: %u switches, not "
				       "the product of the extents", n);
	for (uint32_t a = 0; a < t->num_arcs; a++)
		if (!arc_fits(t, a))
			return lanes_error_set(err, LANES_EINVAL, "not a torus or mesh: a link is "
					       "no step of its dimension");
	if (!(taken = calloc(n, 1)))
		return lanes_error_oom(err);
	for (uint32_t u = 0; u < n; u++) {
		uint64_t index = 0;

		for (uint32_t d = D; d-- > 0;)
			index = index * t->extent[d] + t->coord[(size_t)u * D + d];
		if (taken[index]++) {
			free(taken);
			return lanes_error_set(err, LANES_EINVAL, "not a torus or mesh: two switches "
					       "get the same coordinates");
		}
	}
	free(taken);
	for (uint32_t d = 0; d < D; d++)
		links += (uint64_t)n / t->extent[d] * (t->wrap[d] ? t->extent[d] : t->extent[d] - 1);
	if (links != t->num_arcs / 2)
		return lanes_error_set(err, LANES_EINVAL, "not a torus or mesh: %u links between "
				       "switches where the full product has %llu", t->num_arcs / 2,
				       (unsigned long long)links);
	return 0;
}

int lanes_recognize_torus(const struct lanes_fabric *f, struct lanes_structure *s,
			  struct lanes_error *err)
{
	struct lanes_switch_graph g = { 0, NULL, NULL };
	struct torus t;
	uint32_t origin;
	int rc;

	memset(s, 0, sizeof(*s));
	memset(&t, 0, sizeof(t));
	if (f->num_switches < 3)
		return lanes_error_set(err, LANES_EINVAL, "not a torus or mesh: %u switches are too "
				       "few to call", f->num_switches);
	if ((rc = lanes_switch_graph_build(f, &g, err)))
		return rc;
	t.g = &g;
	if ((rc = setup_arcs(&t, err)) || (rc = link_classes(&t, err)) || (rc = number_dims(&t, err)))
		goto out;
	straight_on(&t);
	if (!(t.plus = malloc(((size_t)t.num_dims + 1) * sizeof(*t.plus)))) {
		rc = lanes_error_oom(err);
		goto out;
	}
	origin = pick_origin(&t);
	for (uint32_t d = 0; d < t.num_dims; d++)
		if ((rc = measure_dim(&t, origin, d, err)))
			goto out;
	if ((rc = walk_coordinates(&t, origin, err)) || (rc = check_product(&t, err)))
		goto out;
	s->kind = LANES_STRUCTURE_TORUS;
	s->num_switches = f->num_switches;
	s->num_dims = t.num_dims;
	memcpy(s->extent, t.extent, sizeof(s->extent));
	memcpy(s->wrap, t.wrap, sizeof(s->wrap));
	s->coord = t.coord;
	t.coord = NULL;
out:
	free(t.rev);
	free(t.arc_from);
	free(t.dim_of_arc);
	free(t.plus);
	free(t.coord);
	lanes_uf_free(&t.dims);
	lanes_uf_free(&t.ways);
	lanes_switch_graph_free(&g);
	return rc;
}

void lanes_structure_pair_rings4(struct lanes_structure *s)
{
	static const uint32_t around[2][2] = { { 0, 3 }, { 1, 2 } }; /* [a][b]: (0,0)=0 ... (0,1)=3 */
	uint32_t D = s->num_dims, keep = 0, pending = LANES_NONE;
	uint32_t target[LANES_STRUCTURE_MAX_DIMS], second[LANES_STRUCTURE_MAX_DIMS];

	for (uint32_t d = 0; d < D; d++) {
		second[d] = LANES_NONE;
		if (s->extent[d] == 2 && !s->wrap[d] && pending != LANES_NONE) {
			second[pending] = d;
			target[d] = LANES_NONE;
			pending = LANES_NONE;
			continue;
		}
		if (s->extent[d] == 2 && !s->wrap[d])
			pending = d;
		target[d] = keep++;
	}
	for (uint32_t u = 0; u < s->num_switches; u++) {
		uint32_t *c = s->coord + (size_t)u * D, out[LANES_STRUCTURE_MAX_DIMS];

		for (uint32_t d = 0; d < D; d++)
			if (target[d] != LANES_NONE)
				out[target[d]] = second[d] == LANES_NONE ? c[d] : around[c[d]][c[second[d]]];
		memcpy(s->coord + (size_t)u * keep, out, keep * sizeof(*out));
	}
	for (uint32_t d = 0; d < D; d++)
		if (target[d] != LANES_NONE && second[d] != LANES_NONE) {
			s->extent[target[d]] = 4;
			s->wrap[target[d]] = 1;
		} else if (target[d] != LANES_NONE) {
			s->extent[target[d]] = s->extent[d];
			s->wrap[target[d]] = s->wrap[d];
		}
	s->num_dims = keep;
}
