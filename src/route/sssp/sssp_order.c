/*
 * sssp_order.c - the order in which OpenSM 3.3.23's SSSP and DFSSSP engines
 * route their destinations (facts from osm_ucast_dfsssp.c,
 * dfsssp_do_dijkstra_routing and its num_hca counts; no code taken from
 * it), for lanes_route_sssp (sssp_paths.c) and its replay of OpenSM's Dijkstra
 * (sssp_osm.c) alike.
 *
 * num_hca(s): the LIDs of the CA (and router) ports behind switch s plus
 * its own LIDs. Destinations come in this order: the end ports behind the
 * switches sorted by num_hca, most first, ties in the switch GUID map
 * order (a stable qsort of that map), each switch's end ports in port
 * order and each port's LIDs in turn; then every switch's own LIDs,
 * switches in the same order (left out when opts->switch_lids is 0, so CA
 * entries do not change). The sequence lists the destination switches in
 * that order, each once per group: seq[0 .. ngroups) for the end ports
 * behind them, seq[ngroups .. nseq) for their own LIDs.
 */
#include <stdlib.h>

#include "route/sssp/sssp_paths.h"
#include "route/common/endports.h"
#include "route/sssp/sssp.h"
#include "core/util.h"

/* num_hca per switch and the first end port of each switch. */
static void count_hca(struct sssp *m)
{
	for (uint32_t s = 0; s < m->f->num_switches; s++) {
		m->hca[s] = sssp_switch_lids(m->f, s);
		m->ep_first[s] = LANES_NONE;
	}
	for (uint32_t i = m->eps.n; i-- > 0;) {
		const struct route_endport *ep = &m->eps.ep[i];

		m->hca[ep->sw] += (uint64_t)1 << ep->lmc;
		m->ep_first[ep->sw] = i;
	}
}

struct rank_key {
	uint64_t hca, key;
	uint32_t sw;
};

static int by_hca(const void *pa, const void *pb)
{
	const struct rank_key *a = pa, *b = pb;

	if (a->hca != b->hca)
		return a->hca > b->hca ? -1 : 1;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->sw < b->sw ? -1 : a->sw > b->sw;
}

/* Switches by num_hca, most first, ties in OpenSM's GUID map order. */
static int rank_switches(struct sssp *m, struct lanes_error *err)
{
	uint32_t ns = m->f->num_switches;
	struct rank_key *k = malloc(sizeof(*k) * (ns + 1));

	if (!k)
		return lanes_error_oom(err);
	for (uint32_t s = 0; s < ns; s++) {
		k[s].hca = m->hca[s];
		k[s].key = lanes_route_osm_guid_key(m->f->nodes[m->f->switches[s]].guid);
		k[s].sw = s;
	}
	qsort(k, ns, sizeof(*k), by_hca);
	for (uint32_t i = 0; i < ns; i++)
		m->rank[i] = k[i].sw;
	free(k);
	return 0;
}

/* The destination switches in routing order: end-port groups, then switch LIDs. */
static int make_sequence(struct sssp *m, struct lanes_error *err)
{
	uint32_t ns = m->f->num_switches;

	if (!(m->seq = malloc(sizeof(*m->seq) * (2 * (size_t)ns + 1))))
		return lanes_error_oom(err);
	for (uint32_t i = 0; i < ns; i++)
		if (m->ep_first[m->rank[i]] != LANES_NONE)
			m->seq[m->nseq++] = m->rank[i];
	m->ngroups = m->nseq;
	for (uint32_t i = 0; i < ns && m->opts->switch_lids; i++)
		if (sssp_switch_lids(m->f, m->rank[i]))
			m->seq[m->nseq++] = m->rank[i];
	return 0;
}

static int alloc_order(struct sssp *m, struct lanes_error *err)
{
	size_t ns = m->f->num_switches;

	m->rank = malloc(sizeof(*m->rank) * (ns + 1));
	m->ep_first = malloc(sizeof(*m->ep_first) * (ns + 1));
	m->hca = malloc(sizeof(*m->hca) * (ns + 1));
	return m->rank && m->ep_first && m->hca ? 0 : lanes_error_oom(err);
}

int lanes_sssp_order(struct sssp *m, struct lanes_error *err)
{
	int rc;

	if ((rc = lanes_route_endports_osm_order(m->f, &m->eps, err)) || (rc = alloc_order(m, err)))
		return rc;
	count_hca(m);
	if ((rc = rank_switches(m, err)))
		return rc;
	return make_sequence(m, err);
}
