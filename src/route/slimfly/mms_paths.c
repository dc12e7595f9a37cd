/*
 * mms_paths.c - minimal routes in a Slim Fly from switch coordinates, as
 * "Early evaluation of direct large-scale InfiniBand networks with adaptive
 * routing", Sec. 3.6, states them for a packet from (ts, xs, ys) to
 * (td, xd, yd) (all arithmetic in GF(q); y-links (t, x, y) - (t, x, y')
 * when y - y' is in X_t; t-links (0, x, y) - (1, m, c) when y = m x + c):
 *
 * 1. ts = td = t, xs = xd: "y" when ys - yd is in X_t, else "yy" through
 *    (t, xs, yi) with ys - yi and yi - yd in X_t. Several yi may do: the
 *    one taken is the choice-th (mod their number) of the yi = ys - a, a in
 *    X_t by ascending power of the primitive element xi. The order depends
 *    on the difference ys - yd only, so every column and every y in it
 *    routes alike (no y-link is favoured by the position of a switch).
 * 2. ts = td = t, xs != xd: "tt", one route, through (1 - t, xi, yi):
 *    t = 0: xi = (ys - yd)/(xs - xd), yi = ys - xs xi           (1)
 *    t = 1: xi = -(ys - yd)/(xs - xd), yi = ys + xs xi          (2)
 *    (The unified line after (2) in our copy of the paper reads
 *    yi = ys + (-1)^t xs xi, which is (2) but not (1) for t = 0; we follow
 *    (1) and (2), which the t-link rule gives.)
 * 3. ts != td, with D = td - ts (+1 or -1): the t-link itself when
 *    D (ys - yd) = xs xd. Otherwise
 *    "ty" through (td, xd, yi), yi = ys - D xs xd, if yi - yd is in X_td;
 *    "yt" through (ts, xs, yi), yi = yd + D xs xd, if ys - yi is in X_ts.
 *    When both exist, the choice-th of [ty, yt]: with choice 0, ty, the
 *    order the paper lists them in. ty puts the y-link in the destination's
 *    half: routes from half 0 load half 1's y-links and routes from half 1
 *    load half 0's, so these routes spread over both halves, not one.
 *
 * Nothing is searched: the cases give the next switch in O(1), yy in
 * O(|X_t|).
 *
 * A missing cable (the recogniser labels Slim Flies with a few): asked to
 * route without the link between a linked pair, a pair in one column goes
 * "yy" as if it were not linked (its common neighbours are all in its
 * column), a t-linked pair has no route of two links (its ends have no
 * common neighbour). These and the alternatives above (choice) are all the
 * routes of at most two links the MMS graph has between two switches: case
 * 1 lists every middle of the column, case 2 has one common neighbour, case
 * 3 at most the two, ty and yt.
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "route/slimfly/mms_paths.h"

/* X_t read off gf.c's MMS graph: (t, 0, 0) - (t, 0, a) iff a is in X_t. */
static int read_generator_sets(struct sf_paths *p, struct lanes_error *err)
{
	struct mms reference;
	unsigned q = p->q;
	int rc;

	if ((rc = lanes_mms_build(&reference, q, err)))
		return rc;
	memset(p->in_generator_set, 0, sizeof(p->in_generator_set));
	for (unsigned t = 0; t < 2; t++) {
		const uint32_t *nbr = &reference.nbr[(size_t)t * q * q * reference.degree];

		for (uint32_t i = 0; i < reference.degree; i++)
			if (nbr[i] / (q * q) == t && nbr[i] / q % q == 0)
				p->in_generator_set[t][nbr[i] % q] = 1;
		p->num_generators[t] = 0;
		for (unsigned e = 0; e + 1 < q; e++) {
			unsigned a = gf_prim_pow(&p->field, e);

			if (p->in_generator_set[t][a])
				p->generators_by_exponent[t][p->num_generators[t]++] = (uint16_t)a;
		}
	}
	lanes_mms_free(&reference);
	return 0;
}

int lanes_slimfly_paths_init(struct sf_paths *p, const struct lanes_structure *s,
			     struct lanes_error *err)
{
	unsigned q = s->slimfly_q;
	int rc;

	memset(p, 0, sizeof(*p));
	p->q = q;
	p->coord = s->coord;
	if ((rc = lanes_gf_init(&p->field, q, err)) || (rc = read_generator_sets(p, err)))
		return rc;
	p->switch_at = malloc(2 * (size_t)q * q * sizeof(*p->switch_at));
	if (!p->switch_at)
		return lanes_error_oom(err);
	for (uint32_t v = 0; v < 2 * q * q; v++)
		p->switch_at[v] = LANES_NONE;
	for (uint32_t u = 0; u < s->num_switches; u++) {
		const uint32_t *c = &s->coord[3 * (size_t)u];

		p->switch_at[c[0] * q * q + c[1] * q + c[2]] = u;
	}
	return 0;
}

void lanes_slimfly_paths_free(struct sf_paths *p)
{
	lanes_gf_free(&p->field);
	free(p->switch_at);
	p->switch_at = NULL;
}

static uint32_t at(const struct sf_paths *p, unsigned t, unsigned x, unsigned y)
{
	return p->switch_at[(t * p->q + x) * p->q + y];
}

/* Case 1: the same column. */
static uint32_t same_column(const struct sf_paths *p, const uint32_t *s, const uint32_t *d,
			    uint32_t choice, int without_link, int *shape)
{
	const struct gf *f = &p->field;
	unsigned t = s[0], found = 0, yi[GF_Q_MAX];

	if (!without_link && p->in_generator_set[t][gf_sub(f, s[2], d[2])]) {
		*shape = SF_SHAPE_Y;
		return at(p, t, d[1], d[2]);
	}
	*shape = SF_SHAPE_YY;
	for (uint32_t i = 0; i < p->num_generators[t]; i++) {
		unsigned y = gf_sub(f, s[2], p->generators_by_exponent[t][i]);

		if (p->in_generator_set[t][gf_sub(f, y, d[2])])
			yi[found++] = y;
	}
	return found ? at(p, t, s[1], yi[choice % found]) : LANES_NONE;
}

/* Case 2: the same half, another column: formulas (1) and (2). */
static uint32_t same_half(const struct sf_paths *p, const uint32_t *s, const uint32_t *d,
			  int *shape)
{
	const struct gf *f = &p->field;
	unsigned ratio = gf_mul(f, gf_sub(f, s[2], d[2]),
				f->exp[(f->q - 1 - f->log[gf_sub(f, s[1], d[1])]) % (f->q - 1)]);
	unsigned xi, yi;

	*shape = SF_SHAPE_TT;
	if (s[0] == 0) {
		xi = ratio;
		yi = gf_sub(f, s[2], gf_mul(f, s[1], xi));
	} else {
		xi = f->neg[ratio];
		yi = gf_add(f, s[2], gf_mul(f, s[1], xi));
	}
	return at(p, 1 - s[0], xi, yi);
}

/* Case 3: the other half. */
static uint32_t other_half(const struct sf_paths *p, const uint32_t *s, const uint32_t *d,
			   uint32_t choice, int *shape)
{
	const struct gf *f = &p->field;
	unsigned product = gf_mul(f, s[1], d[1]);
	unsigned step = d[0] == 1 ? product : f->neg[product]; /* D xs xd */
	unsigned y_ty = gf_sub(f, s[2], step), y_yt = gf_add(f, d[2], step);
	uint32_t via[2], found = 0;
	int shapes[2];

	if (gf_sub(f, s[2], d[2]) == step) { /* D (ys - yd) = xs xd */
		*shape = SF_SHAPE_T;
		return at(p, d[0], d[1], d[2]);
	}
	if (p->in_generator_set[d[0]][gf_sub(f, y_ty, d[2])]) {
		via[found] = at(p, d[0], d[1], y_ty);
		shapes[found++] = SF_SHAPE_TY;
	}
	if (p->in_generator_set[s[0]][gf_sub(f, s[2], y_yt)]) {
		via[found] = at(p, s[0], s[1], y_yt);
		shapes[found++] = SF_SHAPE_YT;
	}
	if (!found)
		return LANES_NONE;
	*shape = shapes[choice % found];
	return via[choice % found];
}

uint32_t lanes_slimfly_next_switch(const struct sf_paths *p, uint32_t from, uint32_t to,
				   uint32_t choice, int without_link, int *shape)
{
	const uint32_t *s = &p->coord[3 * (size_t)from], *d = &p->coord[3 * (size_t)to];
	uint32_t next;

	if (from == to) {
		*shape = SF_SHAPE_HERE;
		return to;
	}
	if (s[0] == d[0] && s[1] == d[1])
		return same_column(p, s, d, choice, without_link, shape);
	next = s[0] != d[0] ? other_half(p, s, d, choice, shape) : same_half(p, s, d, shape);
	return without_link && next == to ? LANES_NONE : next;
}
