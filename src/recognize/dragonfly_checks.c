/*
 * dragonfly_checks.c - the acceptance checks of the dragonfly recogniser
 * (dragonfly.c): once the groups are found, each check refuses a fabric
 * whose groups do not look like a dragonfly's (a random graph's triangles,
 * groups that were not found). Our decisions, not the papers'; what each
 * refuses, and why, is in recognize/dragonfly.h.
 */
#include <stdint.h>
#include <stdlib.h>

#include "recognize/dragonfly.h"
#include "core/util.h"

int lanes_df_check_triangles(uint32_t n, const uint32_t *group, uint32_t groups,
			     uint32_t triangular, struct lanes_error *err)
{
	uint32_t *size = calloc((size_t)groups + 1, sizeof(*size)), in_big = 0, uniform = 1;

	if (!size)
		return lanes_error_oom(err);
	for (uint32_t u = 0; u < n; u++)
		size[group[u]]++;
	for (uint32_t u = 0; u < n; u++) {
		in_big += size[group[u]] >= 4;
		uniform &= size[group[u]] == size[0];
	}
	free(size);
	if (2 * (uint64_t)triangular < n)
		return lanes_error_set(err, LANES_EINVAL,
				       "not a dragonfly: only %u of %u switches joined a group over "
				       "a link in a triangle", triangular, n);
	if (!uniform && 2 * (uint64_t)in_big <= n)
		return lanes_error_set(err, LANES_EINVAL,
				       "not a dragonfly: groups of unequal size, and only %u of %u "
				       "switches in groups of 4 or more", in_big, n);
	return 0;
}

int lanes_df_check_spread(const struct lanes_switch_graph *g, const uint32_t *group,
			  uint32_t groups, struct lanes_error *err)
{
	uint64_t *pair = malloc(((size_t)g->off[g->num_switches] / 2 + 1) * sizeof(*pair));
	uint64_t cables = 0, joined = 0, all = (uint64_t)groups * (groups - 1) / 2;

	if (!pair)
		return lanes_error_oom(err);
	for (uint32_t u = 0; u < g->num_switches; u++)
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
			uint32_t v = g->nbr[e], a = group[u], b = group[v];

			if (v > u && a != b)
				pair[cables++] = a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
		}
	qsort(pair, cables, sizeof(*pair), lanes_cmp_u64);
	for (uint64_t i = 0; i < cables; i++)
		joined += !i || pair[i] != pair[i - 1];
	free(pair);
	if (!cables)
		return lanes_error_set(err, LANES_EINVAL, "not a dragonfly: no global cables");
	if (4 * joined < 3 * (cables < all ? cables : all))
		return lanes_error_set(err, LANES_EINVAL,
				       "not a dragonfly: %llu global cables join only %llu pairs of "
				       "%u groups", (unsigned long long)cables,
				       (unsigned long long)joined, groups);
	return 0;
}

int lanes_df_check_local_share(const struct lanes_switch_graph *g, const uint32_t *group,
			       struct lanes_error *err)
{
	uint64_t local = 0, all = 0;

	for (uint32_t u = 0; u < g->num_switches; u++)
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
			local += group[g->nbr[e]] == group[u];
			all++;
		}
	if (5 * local < 2 * all)
		return lanes_error_set(err, LANES_EINVAL,
				       "not a dragonfly: only %llu of %llu cables inside groups",
				       (unsigned long long)local / 2, (unsigned long long)all / 2);
	return 0;
}

int lanes_df_check_dense(const struct lanes_switch_graph *g, const uint32_t *group,
			 uint32_t groups, struct lanes_error *err)
{
	uint64_t *size = calloc((size_t)groups + 1, sizeof(*size));
	uint64_t *links = calloc((size_t)groups + 1, sizeof(*links));
	int rc = 0;

	if (!size || !links) {
		rc = lanes_error_oom(err);
		goto out;
	}
	for (uint32_t u = 0; u < g->num_switches; u++) {
		size[group[u]]++;
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++)
			links[group[u]] += group[g->nbr[e]] == group[u]; /* twice per link */
	}
	for (uint32_t k = 0; k < groups && !rc; k++)
		if (size[k] >= 3 && 2 * links[k] <= size[k] * (size[k] - 1))
			rc = lanes_error_set(err, LANES_EINVAL,
					     "not a dragonfly: a group of %llu switches has only "
					     "%llu of its %llu pairs linked",
					     (unsigned long long)size[k],
					     (unsigned long long)links[k] / 2,
					     (unsigned long long)(size[k] * (size[k] - 1) / 2));
out:
	free(size);
	free(links);
	return rc;
}

int lanes_df_check_global_degree(const struct lanes_switch_graph *g, const uint32_t *group,
				 uint32_t groups, struct lanes_error *err)
{
	uint32_t *size = calloc((size_t)groups + 1, sizeof(*size));
	uint32_t most_inside = 0, most_outside = 0, worst = 0;

	if (!size)
		return lanes_error_oom(err);
	for (uint32_t u = 0; u < g->num_switches; u++)
		size[group[u]]++;
	for (uint32_t u = 0; u < g->num_switches; u++) {
		uint32_t global = 0;

		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++)
			global += group[g->nbr[e]] != group[u];
		if (size[group[u]] >= 3 && global > most_inside)
			most_inside = global;
		/* a switch alone may be one whose single local cable was all that survived */
		if (size[group[u]] < 3 && global > most_outside) {
			most_outside = global;
			worst = u;
		}
	}
	free(size);
	if (most_outside > most_inside + 1 + most_inside / 8)
		return lanes_error_set(err, LANES_EINVAL,
				       "not a dragonfly: switch %u, alone or in a pair, has %u global "
				       "cables, switches of the groups of 3 or more at most %u",
				       worst, most_outside, most_inside);
	return 0;
}

int lanes_df_check_regular(const struct lanes_fabric *f, const struct lanes_switch_graph *g,
			   const uint32_t *group, uint32_t groups, struct lanes_error *err)
{
	uint32_t *size, lo = UINT32_MAX, hi = 0, degree = f->adj_off[1] - f->adj_off[0];

	for (uint32_t u = 1; u < f->num_switches; u++)
		if (f->adj_off[u + 1] - f->adj_off[u] != degree)
			return 0;
	size = calloc((size_t)groups + 1, sizeof(*size));
	if (!size)
		return lanes_error_oom(err);
	for (uint32_t u = 0; u < g->num_switches; u++)
		size[group[u]]++;
	for (uint32_t k = 0; k < groups; k++) {
		lo = size[k] < lo ? size[k] : lo;
		hi = size[k] > hi ? size[k] : hi;
	}
	free(size);
	if (lo != hi)
		return lanes_error_set(err, LANES_EINVAL,
				       "not a dragonfly that could be mapped: every switch has %u "
				       "cables to switches, but the groups found hold %u to %u "
				       "switches",
				       degree, lo, hi);
	return 0;
}
