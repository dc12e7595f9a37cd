/*
 * updown_orders.c - the switch orders behind the up* / down* engines
 * (updown.c routes on them): BFS ranks from seed switches (updn's roots,
 * dnup's switches with CAs), the total order by a key then node GUID, the
 * connected components of the switch graph, the fallback roots (one per
 * component, the switch of minimum eccentricity, ties to the lowest GUID),
 * and the notes that name the roots. OpenSM's doc/current-routing.txt
 * (updn's and dnup's ranking); Sancho, Robles, Lopez, Flich, Duato,
 * "Routing in InfiniBand Torus Network Topologies" (ICPP 2003), section 3.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/fabric.h"
#include "core/numfmt.h"
#include "core/parallel.h"
#include "route/common/load.h"
#include "route/updown/updown.h"
#include "core/util.h"

#define INF UINT32_MAX /* unreached */

/* ------------------------------------------------------------ orders */

int lanes_route_bfs_ranks(const struct lanes_fabric *f, const uint32_t *seeds, uint32_t nseeds,
		    uint32_t *rank, struct lanes_error *err)
{
	uint32_t head = 0, tail = 0;
	uint32_t *queue = malloc(sizeof(*queue) * ((size_t)f->num_switches + 1));

	if (!queue)
		return lanes_error_oom(err);
	for (uint32_t s = 0; s < f->num_switches; s++)
		rank[s] = INF;
	for (uint32_t i = 0; i < nseeds; i++)
		if (rank[seeds[i]] == INF) {
			rank[seeds[i]] = 0;
			queue[tail++] = seeds[i];
		}
	while (head < tail) {
		uint32_t x = queue[head++];

		for (uint32_t e = f->adj_off[x]; e < f->adj_off[x + 1]; e++)
			if (rank[f->adj[e].sw] == INF) {
				rank[f->adj[e].sw] = rank[x] + 1;
				queue[tail++] = f->adj[e].sw;
			}
	}
	free(queue);
	return 0;
}

struct keyed {
	uint32_t key;
	uint32_t sw;
	uint64_t guid;
};

static int by_key(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->guid != b->guid)
		return a->guid < b->guid ? -1 : 1;
	return a->sw < b->sw ? -1 : a->sw > b->sw;
}

/* By key, then GUID, then switch index: a total order. */
int lanes_route_order_by_key(const struct lanes_fabric *f, const uint32_t *key, uint32_t *pos,
			     struct lanes_error *err)
{
	uint32_t ns = f->num_switches;
	struct keyed *k = malloc(sizeof(*k) * ((size_t)ns + 1));

	if (!k)
		return lanes_error_oom(err);
	for (uint32_t s = 0; s < ns; s++) {
		k[s].key = key[s];
		k[s].sw = s;
		k[s].guid = f->nodes[f->switches[s]].guid;
	}
	qsort(k, ns, sizeof(*k), by_key);
	for (uint32_t i = 0; i < ns; i++)
		pos[k[i].sw] = i;
	free(k);
	return 0;
}

int lanes_route_components(const struct lanes_fabric *f, uint32_t *comp, uint32_t *count,
		     struct lanes_error *err)
{
	uint32_t ns = f->num_switches, n = 0;
	uint32_t *queue = malloc(sizeof(*queue) * ((size_t)ns + 1));

	if (!queue)
		return lanes_error_oom(err);
	for (uint32_t s = 0; s < ns; s++)
		comp[s] = INF;
	for (uint32_t s0 = 0; s0 < ns; s0++) {
		uint32_t head = 0, tail = 0;

		if (comp[s0] != INF)
			continue;
		comp[s0] = n;
		queue[tail++] = s0;
		while (head < tail) {
			uint32_t x = queue[head++];

			for (uint32_t e = f->adj_off[x]; e < f->adj_off[x + 1]; e++)
				if (comp[f->adj[e].sw] == INF) {
					comp[f->adj[e].sw] = n;
					queue[tail++] = f->adj[e].sw;
				}
		}
		n++;
	}
	free(queue);
	*count = n;
	return 0;
}

/* Hops from s to the farthest switch of its component (255 marks "too far or unreachable"). */
static uint32_t eccentricity(const struct lanes_fabric *f, const uint8_t *dist,
			     const uint32_t *comp, uint32_t s)
{
	const uint8_t *row = dist + (size_t)s * f->num_switches;
	uint32_t ecc = 0;

	for (uint32_t v = 0; v < f->num_switches; v++)
		if (comp[v] == comp[s] && row[v] > ecc)
			ecc = row[v];
	return ecc;
}

/* The eccentricities of one worker's run of switches. */
struct eccentricities {
	const struct lanes_fabric *f;
	const uint8_t *dist;
	const uint32_t *comp;
	uint32_t *ecc;
	unsigned workers;
};

static void eccentricity_job(void *ctx, unsigned k)
{
	const struct eccentricities *e = ctx;
	struct route_switch_range mine = route_switch_share(e->f->num_switches, k, e->workers);

	for (uint32_t s = mine.first; s < mine.end; s++)
		e->ecc[s] = eccentricity(e->f, e->dist, e->comp, s);
}

int lanes_route_center_roots(const struct lanes_fabric *f, const uint8_t *dist, const uint32_t *comp,
			     uint32_t ncomp, unsigned workers, uint32_t *roots, struct lanes_error *err)
{
	uint32_t *best = malloc(sizeof(*best) * ((size_t)ncomp + 1 + f->num_switches));
	struct eccentricities e = { f, dist, comp, best + ncomp + 1, workers ? workers : 1 };

	if (!best)
		return lanes_error_oom(err);
	lanes_parallel_run(e.workers, eccentricity_job, &e);
	for (uint32_t c = 0; c < ncomp; c++)
		roots[c] = LANES_NONE;
	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t c = comp[s], r = roots[c];

		if (r == LANES_NONE || e.ecc[s] < best[c] ||
		    (e.ecc[s] == best[c] && f->nodes[f->switches[s]].guid < f->nodes[f->switches[r]].guid)) {
			roots[c] = s;
			best[c] = e.ecc[s];
		}
	}
	free(best);
	return 0;
}

/* ------------------------------------------------------------ notes */

char *lanes_route_notes_with_roots(const struct lanes_fabric *f, const char *head,
			     const uint32_t *roots, uint32_t n, const char *tail)
{
	size_t hl = strlen(head), tl = tail ? strlen(tail) : 0;
	size_t cap = hl + tl + 8 + (size_t)n * 19, k;
	char *s = malloc(cap);

	if (!s)
		return NULL;
	memcpy(s, head, hl);
	k = hl;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t g = f->nodes[f->switches[roots[i]]].guid;

		if (i) {
			s[k++] = ',';
		} else {
			memcpy(s + k, "roots=", 6);
			k += 6;
		}
		s[k++] = '0';
		s[k++] = 'x';
		k = (size_t)(lanes_fmt_hex_field(s + k, g, 16) - s); /* "%016llx" */
	}
	if (tail)
		memcpy(s + k, tail, tl);
	s[k + tl] = '\0';
	return s;
}
