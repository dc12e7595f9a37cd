/*
 * sssp_groups.c - parallel cables in the sssp paths' own rule (sssp_paths.c,
 * after OpenSM 3.3.23's SSSP, seed 002; no code taken from it): the
 * adjacency entries of one switch toward one neighbour form a group.
 *
 * A group's entries lead to the same switch, so they are candidates toward
 * a destination together (sssp_cands.c, sssp_masks.c), and their keys in
 * choose() (sssp_tree.c) differ only in the channel load: the least key of
 * a group is its neighbour's load sum plus the group's least indexed load,
 * which names the member (of equal loads the first in adjacency order, as
 * the ties want). So the program lists each candidate group once, by its
 * first entry, and choose() reads m->gmin there: the same pick as comparing
 * every member, one key per neighbour. add_load() keeps gmin up: after it
 * adds to an entry's load, its group's least load is taken again.
 *
 * Only with indexed keys (the index bits make a group's least load name its
 * member) and only where some switch has parallel cables (the DGX SuperPOD
 * file: 557 of its 2,236 cables); elsewhere gmin is m->load itself and
 * nothing changes. Memory: 16 bytes per adjacency entry.
 */
#include <stdlib.h>

#include "route/sssp/sssp_paths.h"

/* Group e with the latest entry of its switch toward the same neighbour, if any. */
static void link_entry(struct sssp *m, uint32_t *last, uint32_t e0, uint32_t e)
{
	uint32_t v = m->nb[e], l = last[v];

	if (l != LANES_NONE && l >= e0) { /* an earlier entry of this switch */
		m->gfirst[e] = m->gfirst[l];
		m->gnext[l] = e;
	} else {
		m->gfirst[e] = e;
	}
	m->gnext[e] = LANES_NONE;
	m->gmin[e] = m->load[e]; /* the first's own load is its group's least: the least index */
	last[v] = e;
}

/* Whether some switch has two entries toward one neighbour (last: scratch). */
static int any_parallel(const struct sssp *m, uint32_t *last)
{
	const uint32_t ns = m->f->num_switches, *aoff = m->f->adj_off;

	for (uint32_t v = 0; v < ns; v++)
		last[v] = LANES_NONE;
	for (uint32_t s = 0; s < ns; s++)
		for (uint32_t e = aoff[s]; e < aoff[s + 1]; e++) {
			if (last[m->nb[e]] != LANES_NONE && last[m->nb[e]] >= aoff[s])
				return 1;
			last[m->nb[e]] = e;
		}
	return 0;
}

int lanes_sssp_groups_build(struct sssp *m)
{
	const uint32_t ns = m->f->num_switches, *aoff = m->f->adj_off, ne = aoff[ns];
	uint32_t *last;
	int par;

	m->gmin = m->load;
	if (!m->indexed)
		return 0;
	if (!(last = malloc(sizeof(uint32_t) * (ns + 1))))
		return -1;
	par = any_parallel(m, last);
	if (par && (m->gfirst = malloc((sizeof(uint32_t) * 2 + sizeof(uint64_t)) * (ne + 1)))) {
		m->gmin = (uint64_t *)(m->gfirst + 2 * (size_t)(ne + 1));
		m->gnext = m->gfirst + ne + 1;
		for (uint32_t v = 0; v < ns; v++)
			last[v] = LANES_NONE;
		for (uint32_t s = 0; s < ns; s++)
			for (uint32_t e = aoff[s]; e < aoff[s + 1]; e++)
				link_entry(m, last, aoff[s], e);
	}
	free(last);
	return par && !m->gfirst ? -1 : 0;
}

void lanes_sssp_groups_free(struct sssp *m)
{
	free(m->gfirst);
	m->gfirst = m->gnext = NULL;
	m->gmin = NULL;
}
