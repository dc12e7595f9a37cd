/*
 * cdg_order.c - the reordering step of Pearce and Kelly's dynamic
 * topological order ("A dynamic topological sort algorithm for directed
 * acyclic graphs", JEA 2006), shared by the engines that keep a channel
 * dependency graph acyclic while they add dependencies (lash per layer,
 * nue through nue_cdg.c); see cdg.h.
 *
 * Adding u -> v with ord[u] > ord[v]: F is what v reaches through places
 * below ord[u], B what reaches u through places above ord[v] (the engines'
 * searches, which read their own dependency arrays). F and B are disjoint
 * (a channel in both would close a cycle, which the forward search reports
 * first), so their places are distinct; handed out again in ascending order,
 * B first and then F, each in its old order, they make u come before v and
 * keep every other dependency in order. Channels outside B and F keep their
 * places. Keys are unique, so the result does not depend on how they are
 * sorted.
 */
#include <string.h>

#include "route/cdg/cdg.h"

void lanes_route_sort_u64(uint64_t *a, uint32_t n, uint64_t *tmp, unsigned lo, unsigned hi)
{
	if (n <= 32) {
		for (uint32_t i = 1; i < n; i++) {
			uint64_t v = a[i];
			uint32_t j = i;

			for (; j > 0 && a[j - 1] > v; j--)
				a[j] = a[j - 1];
			a[j] = v;
		}
		return;
	}
	for (unsigned shift = lo; shift < hi; shift += 8) {
		uint32_t count[257] = { 0 };

		for (uint32_t i = 0; i < n; i++)
			count[((a[i] >> shift) & 0xff) + 1]++;
		if (count[((a[0] >> shift) & 0xff) + 1] == n)
			continue; /* one digit for all */
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (uint32_t i = 0; i < n; i++)
			tmp[count[(a[i] >> shift) & 0xff]++] = a[i];
		memcpy(a, tmp, sizeof(*a) * n);
	}
}

void lanes_route_pk_reorder(uint32_t *ord, uint32_t E, uint64_t *bwd, uint32_t nb, uint64_t *fwd,
		      uint32_t nf, struct route_pk_scratch *s)
{
	uint32_t i = 0, j = 0, k = 0;
	unsigned hi = 32; /* keys sort by place, the bits of E above 32 */

	for (uint32_t e = E; e; e >>= 1)
		hi++;
	lanes_route_sort_u64(fwd, nf, s->tmp, 32, hi);
	lanes_route_sort_u64(bwd, nb, s->tmp, 32, hi);
	while (i < nb || j < nf)
		if (j == nf || (i < nb && bwd[i] < fwd[j]))
			s->slots[k++] = (uint32_t)(bwd[i++] >> 32);
		else
			s->slots[k++] = (uint32_t)(fwd[j++] >> 32);
	k = 0;
	for (i = 0; i < nb; i++)
		ord[(uint32_t)bwd[i]] = s->slots[k++];
	for (j = 0; j < nf; j++)
		ord[(uint32_t)fwd[j]] = s->slots[k++];
}
