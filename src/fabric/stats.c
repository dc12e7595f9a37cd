/*
 * stats.c - the summary numbers of `lanes topo info`. Distances come from
 * the bit-parallel BFS of bfs.c.
 */
#include "bfs.h"
#include "lanes/progress.h"
#include "../core/util.h"

#include <stdlib.h>
#include <string.h>

/* The sources of every stride-th block of 64 (the last block may be short). */
static uint64_t sources_swept(uint32_t n, uint32_t stride)
{
	uint64_t count = 0;

	for (uint64_t first = 0; first < n; first += 64ULL * stride)
		count += n - first < 64 ? n - first : 64;
	return count;
}

/*
 * All pairs, or the sources of every stride-th block of 64 when max_sources
 * asks. Progress: phase "distances", a unit per source.
 */
static int distances(const struct lanes_fabric *f, uint32_t max_sources,
		     struct lanes_fabric_stats *st, struct lanes_progress *progress)
{
	struct bfs_sums s = { 0, 0, 0 };
	uint32_t blocks = (f->num_switches + 63) / 64, want = (max_sources + 63) / 64;
	uint32_t stride = max_sources && want < blocks ? (blocks + want - 1) / want : 1;

	lanes_progress_phase(progress, "distances", sources_swept(f->num_switches, stride));
	if (lanes_bfs_sample(f, 1, stride, &s, NULL, progress))
		return LANES_ENOMEM;
	st->sampled_sources = stride > 1 ? (uint32_t)((blocks + stride - 1) / stride * 64) : 0;
	if (st->sampled_sources > f->num_switches)
		st->sampled_sources = f->num_switches;
	st->diameter = s.diameter;
	st->avg_distance = s.pairs ? (double)s.dist_sum / (double)s.pairs : 0.0;
	return 0;
}

static uint32_t find(uint32_t *parent, uint32_t x)
{
	while (parent[x] != x)
		x = parent[x] = parent[parent[x]];
	return x;
}

static uint32_t count_roots(uint32_t *parent, uint32_t n)
{
	uint32_t roots = 0;

	for (uint32_t v = 0; v < n; v++)
		roots += find(parent, v) == v;
	return roots;
}

/*
 * Components twice: of the switch graph (what diameter and distances are
 * about), and of the whole fabric over every cable (what "connected" means:
 * two CAs cabled back to back are one connected fabric, and the planes of a
 * multi-rail fat tree are joined by their multi-port hosts).
 */
int lanes_fabric_components(const struct lanes_fabric *f, uint32_t *switch_components,
			    uint32_t *fabric_components, struct lanes_error *err)
{
	uint32_t *parent = malloc(sizeof(*parent) * ((size_t)f->num_nodes + 1));

	if (!parent)
		return lanes_error_oom(err);
	for (uint32_t v = 0; v < f->num_switches; v++)
		parent[v] = v;
	for (uint32_t v = 0; v < f->num_switches; v++)
		for (uint32_t e = f->adj_off[v]; e < f->adj_off[v + 1]; e++)
			parent[find(parent, v)] = find(parent, f->adj[e].sw);
	*switch_components = count_roots(parent, f->num_switches);
	for (uint32_t i = 0; i < f->num_nodes; i++)
		parent[i] = i;
	for (uint32_t l = 0; l < f->num_links; l++)
		parent[find(parent, f->links[l].a)] = find(parent, f->links[l].b);
	*fabric_components = count_roots(parent, f->num_nodes);
	free(parent);
	return 0;
}

/* Cables beyond the first between one pair of distinct nodes. */
static uint32_t count_parallel(const struct lanes_fabric *f)
{
	uint32_t peers[LANES_PORTS_MAX + 1], total = 0;

	for (uint32_t i = 0; i < f->num_nodes; i++) {
		const struct lanes_node *n = &f->nodes[i];
		uint32_t k = 0;

		for (unsigned p = 1; p <= n->nports; p++) {
			uint32_t peer = f->ports[n->port_base + p].peer_node;

			if (peer != LANES_NONE && peer > i)
				peers[k++] = peer;
		}
		qsort(peers, k, sizeof(*peers), lanes_cmp_u32);
		for (uint32_t j = 1; j < k; j++)
			total += peers[j] == peers[j - 1];
	}
	return total;
}

static void count_links(const struct lanes_fabric *f, struct lanes_fabric_stats *st)
{
	for (uint32_t l = 0; l < f->num_links; l++) {
		const struct lanes_link *k = &f->links[l];
		int sa = f->nodes[k->a].type == LANES_NODE_SWITCH;
		int sb = f->nodes[k->b].type == LANES_NODE_SWITCH;

		if (k->a == k->b)
			continue;
		if (sa && sb)
			st->links_switch_switch++;
		else if (sa || sb)
			st->links_switch_ca++;
		else
			st->links_other++;
	}
	st->self_loops = f->num_self_loops;
}

static void radix(const struct lanes_fabric *f, struct lanes_fabric_stats *st)
{
	st->radix_min = st->net_radix_min = st->hosts_min = f->num_switches ? UINT32_MAX : 0;
	for (uint32_t s = 0; s < f->num_switches; s++) {
		const struct lanes_node *n = &f->nodes[f->switches[s]];
		uint32_t cabled = 0, net = f->adj_off[s + 1] - f->adj_off[s], hosts = 0;

		for (unsigned p = 1; p <= n->nports; p++) {
			uint32_t peer = f->ports[n->port_base + p].peer_node;

			cabled += peer != LANES_NONE;
			hosts += peer != LANES_NONE && f->nodes[peer].type != LANES_NODE_SWITCH;
		}
#define MINMAX(field, v)                                                  \
	do {                                                              \
		if ((v) < st->field##_min)                                \
			st->field##_min = (v);                            \
		if ((v) > st->field##_max)                                \
			st->field##_max = (v);                            \
	} while (0)
		MINMAX(radix, cabled);
		MINMAX(net_radix, net);
		MINMAX(hosts, hosts);
#undef MINMAX
		if (n->nports > st->ports_max)
			st->ports_max = n->nports;
	}
}

/* CAs and routers with no cabled port at all: not part of any network. */
static uint32_t isolated_cas(const struct lanes_fabric *f)
{
	uint32_t count = 0;

	for (uint32_t i = 0; i < f->num_nodes; i++) {
		const struct lanes_node *n = &f->nodes[i];
		int cabled = 0;

		if (n->type == LANES_NODE_SWITCH)
			continue;
		for (unsigned p = 1; p <= n->nports && !cabled; p++)
			cabled = f->ports[n->port_base + p].peer_node != LANES_NONE;
		count += !cabled;
	}
	return count;
}

int lanes_fabric_stats(const struct lanes_fabric *f, struct lanes_fabric_stats *out,
		       struct lanes_error *err)
{
	return lanes_fabric_stats_sampled(f, 0, NULL, out, err);
}

int lanes_fabric_stats_sampled(const struct lanes_fabric *f, uint32_t max_sources,
			       struct lanes_progress *progress, struct lanes_fabric_stats *out,
			       struct lanes_error *err)
{
	struct lanes_fabric_stats st;

	memset(&st, 0, sizeof(st));
	st.switches = f->num_switches;
	st.cas = f->num_cas;
	st.routers = f->num_routers;
	count_links(f, &st);
	st.parallel_links = count_parallel(f);
	radix(f, &st);
	if (distances(f, max_sources, &st, progress))
		return lanes_error_oom(err);
	if (lanes_fabric_components(f, &st.components, &st.fabric_components, err))
		return LANES_ENOMEM;
	st.isolated_cas = isolated_cas(f);
	st.connected = st.fabric_components == 1;
	*out = st;
	return 0;
}
