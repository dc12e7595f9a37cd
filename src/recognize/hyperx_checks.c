/*
 * hyperx_checks.c - the acceptance checks of the HyperX recogniser
 * (hyperx.c): connected switches, dimensions that cut, distinct
 * coordinates, and enough of the switches and links of a complete HyperX.
 * Our decisions (the paper assumes a FlatFly); what each refuses is in
 * recognize/hyperx.h.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recognize/hyperx.h"
#include "core/util.h"

/* Compare two switches' coordinates, skipping dimension `skip` (num_dims: none). */
struct coord_order {
	const uint32_t *coord;
	uint32_t num_dims, skip;
};

static int coords_cmp(const struct coord_order *o, uint32_t a, uint32_t b)
{
	for (uint32_t d = 0; d < o->num_dims; d++) {
		uint32_t ca = o->coord[(size_t)a * o->num_dims + d];
		uint32_t cb = o->coord[(size_t)b * o->num_dims + d];

		if (d != o->skip && ca != cb)
			return ca < cb ? -1 : 1;
	}
	return 0;
}

/* Merge sort of switch indices by coordinates (qsort has no context in C11). */
static void sort_by_coords(const struct coord_order *o, uint32_t *idx, uint32_t *tmp, uint32_t n)
{
	uint32_t half = n / 2, i = 0, j = half, k = 0;

	if (n < 2)
		return;
	sort_by_coords(o, idx, tmp, half);
	sort_by_coords(o, idx + half, tmp, n - half);
	while (i < half || j < n)
		tmp[k++] = j == n || (i < half && coords_cmp(o, idx[i], idx[j]) <= 0) ? idx[i++]
										      : idx[j++];
	memcpy(idx, tmp, (size_t)n * sizeof(*idx));
}

/*
 * Pairs of switches equal in every coordinate but `skip` (with skip ==
 * num_dims: pairs equal in all, which a HyperX has none of).
 */
static double pairs_in_lines(const struct coord_order *o, uint32_t *idx, uint32_t *tmp, uint32_t n)
{
	double pairs = 0;
	uint32_t run = 1;

	for (uint32_t i = 0; i < n; i++)
		idx[i] = i;
	sort_by_coords(o, idx, tmp, n);
	for (uint32_t i = 1; i <= n; i++) {
		if (i < n && coords_cmp(o, idx[i - 1], idx[i]) == 0) {
			run++;
			continue;
		}
		pairs += (double)run * (run - 1) / 2;
		run = 1;
	}
	return pairs;
}

int lanes_hx_check_fill(struct hx *x, struct lanes_error *err)
{
	uint32_t n = x->g.num_switches;
	struct coord_order o = { x->coord, x->num_dims, x->num_dims };
	uint32_t *idx = malloc(((size_t)n + 1) * sizeof(*idx));
	uint32_t *tmp = malloc(((size_t)n + 1) * sizeof(*tmp));
	double space = 1, possible = 0, links = x->g.off[n] / 2.0;
	int rc = 0;

	if (!idx || !tmp) {
		rc = lanes_error_oom(err);
		goto out;
	}
	if (pairs_in_lines(&o, idx, tmp, n) > 0) {
		rc = lanes_error_set(err, LANES_EINVAL, "not a HyperX: two switches get the same coordinates");
		goto out;
	}
	for (uint32_t d = 0; d < x->num_dims; d++) {
		space *= x->extent[d];
		o.skip = d;
		possible += pairs_in_lines(&o, idx, tmp, n);
	}
	if (4.0 * n <= 3.0 * space)
		rc = lanes_error_set(err, LANES_EINVAL,
				     "not a HyperX: %u switches fill 3/4 or less of the %.0f coordinates",
				     n, space);
	else if (3.0 * links < 2.0 * possible)
		rc = lanes_error_set(err, LANES_EINVAL,
				     "not a HyperX: %.0f links, under 2/3 of the %.0f a HyperX would have",
				     links, possible);
out:
	free(idx);
	free(tmp);
	return rc;
}

int lanes_hx_check_dims(const struct hx *x, struct lanes_error *err)
{
	const struct lanes_switch_graph *g = &x->g;

	for (uint32_t d = 0; d < x->num_dims; d++)
		if (x->extent[d] < 2)
			return lanes_error_set(err, LANES_EINVAL,
					       "not a HyperX: link class %u does not cut the switches "
					       "in two (a ring longer than 4?)", d);
	for (uint32_t u = 0; u < g->num_switches; u++)
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
			uint32_t d = x->dim_of[e], v = g->nbr[e];

			if (x->coord[(size_t)u * x->num_dims + d] == x->coord[(size_t)v * x->num_dims + d])
				return lanes_error_set(err, LANES_EINVAL,
						       "not a HyperX: a link of dimension %u joins "
						       "switches of one coordinate", d);
		}
	return 0;
}

int lanes_hx_check_connected(const struct lanes_switch_graph *g, struct lanes_error *err)
{
	struct lanes_uf uf = { 0 };
	uint32_t parts;
	int rc;

	if ((rc = lanes_uf_init(&uf, g->num_switches, err)))
		return rc;
	parts = g->num_switches;
	for (uint32_t u = 0; u < g->num_switches; u++)
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++)
			parts -= (uint32_t)lanes_uf_union(&uf, u, g->nbr[e]);
	lanes_uf_free(&uf);
	if (parts > 1)
		return lanes_error_set(err, LANES_EINVAL,
				       "not a HyperX: the switch graph has %u components", parts);
	return 0;
}
