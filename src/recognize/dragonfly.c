/*
 * dragonfly.c - recognise the groups of a dragonfly from its switch graph.
 *
 * Closed neighbourhoods (Maglione-Mathey et al., "Leveraging InfiniBand
 * controller to configure deadlock-free routing engines for Dragonflies",
 * JPDC 2021, Sec. 4, after their D3R paper): the closed neighbourhood of a
 * switch is the switch and its neighbours. Two switches of one group share
 * most of theirs (in a complete group of a switches, a - 2 common neighbours
 * besides themselves); the two ends of a global cable share almost none. A
 * cable is local when its ends have more than half as many common neighbours
 * as the most any cable's ends have; the groups are the components of the
 * local cables (union-find).
 *
 * This first version expects an intact dragonfly with groups of at least 3
 * switches; it refuses graphs with no triangles (tori, fat trees) and graphs
 * that come out as one group (HyperX, complete graphs).
 */
#include <stdlib.h>
#include <string.h>

#include "recognize/recognize.h"
#include "core/util.h"

/* The most common neighbours over all cables. */
static uint32_t max_common(const struct lanes_switch_graph *g)
{
	uint32_t best = 0;

	for (uint32_t u = 0; u < g->num_switches; u++)
		for (uint32_t i = g->off[u]; i < g->off[u + 1]; i++) {
			uint32_t c = lanes_switch_graph_common(g, u, g->nbr[i]);

			if (c > best)
				best = c;
		}
	return best;
}

/* Merge the ends of every local cable; returns 1 if some cable is global. */
static int merge_local(const struct lanes_switch_graph *g, uint32_t most_common,
		       struct lanes_uf *uf)
{
	int any_global = 0;

	for (uint32_t u = 0; u < g->num_switches; u++)
		for (uint32_t i = g->off[u]; i < g->off[u + 1]; i++) {
			uint32_t v = g->nbr[i];

			if (v < u)
				continue;
			if (2 * lanes_switch_graph_common(g, u, v) > most_common)
				lanes_uf_union(uf, u, v);
			else
				any_global = 1;
		}
	return any_global;
}

/* Number the groups by their lowest switch; returns the count. */
static uint32_t number_groups(struct lanes_uf *uf, uint32_t n, uint32_t *group)
{
	uint32_t count = 0;

	for (uint32_t u = 0; u < n; u++)
		group[u] = LANES_NONE;
	for (uint32_t u = 0; u < n; u++) {
		uint32_t root = lanes_uf_find(uf, u);

		if (group[root] == LANES_NONE)
			group[root] = count++;
		group[u] = group[root];
	}
	return count;
}

int lanes_recognize_dragonfly(const struct lanes_fabric *f, struct lanes_structure *s,
			      struct lanes_error *err)
{
	struct lanes_switch_graph g = { 0 };
	struct lanes_uf uf = { 0 };
	uint32_t best, groups;
	int rc;

	memset(s, 0, sizeof(*s));
	if (f->num_switches < 2)
		return lanes_error_set(err, LANES_EINVAL, "not a dragonfly: fewer than 2 switches");
	if ((rc = lanes_switch_graph_build(f, &g, err)) ||
	    (rc = lanes_uf_init(&uf, f->num_switches, err)))
		goto out;
	best = max_common(&g);
	if (best == 0) {
		rc = lanes_error_set(err, LANES_EINVAL,
				     "not a dragonfly: no two neighbour switches share a neighbour");
		goto out;
	}
	if (!merge_local(&g, best, &uf)) {
		rc = lanes_error_set(err, LANES_EINVAL, "not a dragonfly: no global cables");
		goto out;
	}
	s->group = malloc((size_t)f->num_switches * sizeof(*s->group));
	if (!s->group) {
		rc = lanes_error_oom(err);
		goto out;
	}
	groups = number_groups(&uf, f->num_switches, s->group);
	if (groups < 2) {
		rc = lanes_error_set(err, LANES_EINVAL, "not a dragonfly: one group");
		goto out;
	}
	s->kind = LANES_STRUCTURE_DRAGONFLY;
	s->num_switches = f->num_switches;
	s->num_groups = groups;
out:
	if (rc)
		lanes_structure_free(s);
	lanes_switch_graph_free(&g);
	lanes_uf_free(&uf);
	return rc;
}
