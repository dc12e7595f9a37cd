/*
 * hyperx_place.c - the HyperX recogniser's steps for faulty fabrics (our
 * addition to the mapping of "Early evaluation of direct large-scale
 * InfiniBand networks with adaptive routing", Sec. 2.1, which hyperx.c
 * follows): switches that lost the links tying them to their hyperplane
 * are placed one step from their placed neighbours, the values renumbered,
 * and every link in no dimension (an orphan) given the dimension its ends
 * differ in. What each step does is in recognize/hyperx.h.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recognize/hyperx.h"
#include "core/util.h"

/* Coordinates p differ from switch t's in how many dimensions? */
static uint32_t distance_to(const struct hx *x, const uint32_t *p, uint32_t t)
{
	uint32_t differ = 0;

	for (uint32_t d = 0; d < x->num_dims; d++)
		differ += p[d] != x->coord[(size_t)t * x->num_dims + d];
	return differ;
}

/* Does p fit switch s: its own values kept, one step from every placed neighbour, on no one? */
static int fits(const struct hx *x, uint32_t s, const uint32_t *p, const uint8_t *placed,
		uint32_t own_dims)
{
	const struct lanes_switch_graph *g = &x->g;

	for (uint32_t d = 0; d < x->num_dims; d++)
		if ((own_dims >> d & 1) && p[d] != x->coord[(size_t)s * x->num_dims + d])
			return 0;
	for (uint32_t f = g->off[s]; f < g->off[s + 1]; f++)
		if (placed[g->nbr[f]] && distance_to(x, p, g->nbr[f]) != 1)
			return 0;
	for (uint32_t w = 0; w < g->num_switches; w++)
		if (w != s && placed[w] && distance_to(x, p, w) == 0)
			return 0;
	return 1;
}

/*
 * Where an unsettled switch can sit: one step from a placed neighbour (its
 * every one-coordinate change to a value a placed switch holds). Returns
 * how many distinct places fit, 2 meaning "several" (the first in place).
 */
static uint32_t places_for(const struct hx *x, uint32_t s, const uint8_t *placed,
			   const uint8_t *held, uint32_t own_dims, uint32_t *place)
{
	const struct lanes_switch_graph *g = &x->g;
	uint32_t nd = x->num_dims, found = 0, p[LANES_STRUCTURE_MAX_DIMS];

	for (uint32_t e = g->off[s]; e < g->off[s + 1]; e++) {
		uint32_t t = g->nbr[e];

		if (!placed[t])
			continue;
		for (uint32_t d = 0; d < nd; d++)
			for (uint32_t v = 0; v < x->extent[d]; v++) {
				memcpy(p, &x->coord[(size_t)t * nd], nd * sizeof(*p));
				if (v == p[d] || !held[(size_t)d * g->num_switches + v])
					continue;
				p[d] = v;
				if (!fits(x, s, p, placed, own_dims) ||
				    (found && !memcmp(p, place, nd * sizeof(*p))))
					continue;
				if (found++)
					return found;
				memcpy(place, p, nd * sizeof(*p));
			}
	}
	return found;
}

/*
 * Settled dimensions of every switch: those where its value is held by more
 * than a quarter as many switches as the most held value of the dimension.
 * A value held by a few switches only is a fault's trace: they lost every
 * link that tied them to the rest of their hyperplane, or every link they
 * have is an orphan. (In one dimension every value is one switch's: all
 * settled.)
 */
static int settled_dims(const struct hx *x, uint32_t *own, struct lanes_error *err)
{
	uint32_t n = x->g.num_switches, nd = x->num_dims;
	uint32_t *holders = calloc((size_t)n + 1, sizeof(*holders));

	if (!holders)
		return lanes_error_oom(err);
	for (uint32_t u = 0; u < n; u++)
		own[u] = 0;
	for (uint32_t d = 0; d < nd; d++) {
		memset(holders, 0, ((size_t)n + 1) * sizeof(*holders));
		uint32_t most = 0;

		for (uint32_t u = 0; u < n; u++)
			holders[x->coord[(size_t)u * nd + d]]++;
		for (uint32_t v = 0; v < n; v++)
			most = holders[v] > most ? holders[v] : most;
		for (uint32_t u = 0; u < n; u++)
			if (4 * holders[x->coord[(size_t)u * nd + d]] > most)
				own[u] |= 1u << d;
	}
	free(holders);
	return 0;
}

/* The values of placed switch s, per dimension: held[dim * n + value]. */
static void mark_held(const struct hx *x, uint32_t s, uint8_t *held)
{
	for (uint32_t d = 0; d < x->num_dims; d++)
		held[(size_t)d * x->g.num_switches + x->coord[(size_t)s * x->num_dims + d]] = 1;
}

int lanes_hx_place_unsettled(struct hx *x, struct lanes_error *err)
{
	uint32_t n = x->g.num_switches, nd = x->num_dims, place[LANES_STRUCTURE_MAX_DIMS];
	uint32_t *own = malloc(((size_t)n + 1) * sizeof(*own)), full = (1u << nd) - 1, s;
	uint8_t *placed = malloc((size_t)n + 1), *held = calloc((size_t)n * nd + 1, 1);
	int rc = 0, progress;

	if (!placed || !own || !held) {
		rc = lanes_error_oom(err);
		goto out;
	}
	if ((rc = settled_dims(x, own, err)))
		goto out;
	for (s = 0; s < n; s++)
		if ((placed[s] = own[s] == full))
			mark_held(x, s, held);
	for (;;) {
		for (progress = 1; progress;) {
			progress = 0;
			for (s = 0; s < n; s++)
				if (!placed[s] && places_for(x, s, placed, held, own[s], place) == 1) {
					memcpy(&x->coord[(size_t)s * nd], place, nd * sizeof(*place));
					placed[s] = 1;
					mark_held(x, s, held);
					progress = 1;
				}
		}
		for (s = 0; s < n; s++)
			if (!placed[s] && places_for(x, s, placed, held, own[s], place) > 1)
				break;
		if (s == n)
			break;
		memcpy(&x->coord[(size_t)s * nd], place, nd * sizeof(*place));
		placed[s] = 1;
		mark_held(x, s, held);
	}

out:
	free(own);
	free(placed);
	free(held);
	return rc;
}

int lanes_hx_renumber_values(struct hx *x, struct lanes_error *err)
{
	uint32_t n = x->g.num_switches, nd = x->num_dims;
	uint32_t *map = malloc(((size_t)n + 1) * sizeof(*map));

	if (!map)
		return lanes_error_oom(err);
	for (uint32_t d = 0; d < nd; d++) {
		uint32_t count = 0;

		for (uint32_t v = 0; v < n; v++)
			map[v] = LANES_NONE;
		for (uint32_t u = 0; u < n; u++) {
			uint32_t *c = &x->coord[(size_t)u * nd + d];

			if (map[*c] == LANES_NONE)
				map[*c] = count++;
			*c = map[*c];
		}
		x->extent[d] = count;
	}
	free(map);
	return 0;
}

int lanes_hx_place_orphans(struct hx *x, struct lanes_error *err)
{
	const struct lanes_switch_graph *g = &x->g;
	uint32_t nd = x->num_dims;

	for (uint32_t u = 0; u < g->num_switches; u++)
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
			uint32_t v = g->nbr[e], differ = 0, dim = 0;

			if (x->dim_of[e] != LANES_NONE)
				continue;
			for (uint32_t d = 0; d < nd; d++)
				if (x->coord[(size_t)u * nd + d] != x->coord[(size_t)v * nd + d]) {
					differ++;
					dim = d;
				}
			if (differ != 1)
				return lanes_error_set(err, LANES_EINVAL,
						       "not a HyperX: a link in no dimension joins "
						       "switches %u and %u, %u coordinates apart",
						       u, v, differ);
			x->dim_of[e] = dim;
		}
	return 0;
}
