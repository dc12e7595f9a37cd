/*
 * sssp_paths.c - the SSSP paths that the sssp and dfsssp engines share:
 * lanes_route_sssp, which takes the replay of OpenSM's Dijkstra
 * (sssp_osm.c) or routes by its own rule.
 *
 * The algorithm is Hoefler, Schneider and Lumsdaine's, "Optimized Routing
 * for Large-Scale InfiniBand Networks" (HOTI 2009), which the dfsssp
 * engine's paper (Domke, Hoefler and Nagel, "Deadlock-Free Oblivious
 * Routing for Arbitrary Topologies", IPDPS 2011) takes as its first step:
 * destination LIDs are routed one at a time. For each, a single-source
 * shortest-path tree is grown from the destination over the switch graph,
 * where a channel weighs the routes already placed on it; each switch's LFT
 * entry is its edge of that tree. Then every switch s adds the LIDs whose
 * routes start at s (num_hca(s): its CA ports' LIDs and its own) to each
 * channel on its path to the destination, so that later trees avoid loaded
 * channels and the routes spread over the fabric globally, not per switch
 * as Min Hop does. Facts on OpenSM 3.3.23's version from
 * osm_ucast_dfsssp.c (dfsssp_build_graph, dijkstra, update_lft,
 * update_weights, dfsssp_do_dijkstra_routing); no code taken from it.
 * There a channel weighs P^2 (P: every CA and switch LID of the subnet,
 * "to force shortest paths") plus its routes, and destinations come in
 * its order (sssp_order.c: end ports by num_hca, then every switch's own
 * LIDs); switch destinations add weights too.
 *
 * Ties. OpenSM's Dijkstra breaks them with its 4-ary heap (cl_heap): of
 * the candidates with the least sum, the one its heap releases first,
 * which for equal keys depends on every heap operation before. For dfsssp
 * (SSSP_REPLAY), lanes_route_sssp first hands the destinations to
 * lanes_route_sssp_osm (sssp_osm.c, sssp_osm_lid.c, sssp_osm_prep.c,
 * sssp_osm_dijkstra.c), which replays OpenSM's Dijkstra and heap
 * operation for operation: its LFTs equal OpenSM's entry for entry
 * (tests/interop/sssp_vs_opensm.sh; on the DGX SuperPOD file max routes
 * per channel 2,289 both sides, where the rule below gives 2,386 and
 * lowest-port ties 2,475). It declines where OpenSM's own arithmetic
 * fails: its keys are 64-bit sums compared with 0x7FFFFFFF, so with P^2
 * at or above that (P > 46,340, e.g. the 114,582-endpoint dragonfly) or
 * with a switch it would leave unreached, OpenSM routes nothing, and the
 * rule below routes the whole fabric instead. The sssp engine always takes
 * the rule below: the replay costs 2 to 5 times its time (a heap per
 * destination LID instead of one pass per destination switch; DGX 19 ms
 * against 6 ms, a 10x10 torus 2.3 ms against 0.5); for dfsssp that time
 * is small next to the layering.
 *
 * That rule, where it is not OpenSM: distances compare as (hops, load
 * sum), so every path is a shortest path; ties on the load sum go, for
 * sssp, to the less loaded channel, then the lowest port, and for dfsssp
 * (where the replay declined) to the lowest port (sssp_tree.c). A switch's
 * candidates are its min-hop ports toward the destination switch, found
 * once per destination switch by a BFS, on a helper thread ahead of the
 * routing on large fabrics (sssp_cands.c).
 *
 * Other differences from OpenSM: router ports are routed like CA ports
 * (OpenSM skips them, but they are destinations); no compute/I-O node GUID
 * files. Unreachable destinations stay LANES_PORT_DROP. opts->switch_lids
 * = 0 leaves switch LIDs out (each switch still keeps its own on port 0);
 * they come after every CA LID, so CA entries do not change.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "route/sssp/sssp_paths.h"
#include "route/common/endports.h"
#include "route/sssp/sssp.h"
#include "core/util.h"

/* What the rule needs, only when it routes. */
static int alloc_rule(struct sssp *m, struct lanes_error *err)
{
	size_t ns = m->f->num_switches, ne = m->f->adj_off[ns];

	/* one zeroed block: load, load_sum, lids_below (set to num_hca below), then nb */
	m->load = calloc(1, sizeof(uint64_t) * (ne + 2 * ns + 3) + sizeof(uint32_t) * (ne + 1));
	m->kept = calloc(ns + 1, sizeof(*m->kept));
	/* kept candidates: at most 4 MB and a quarter of the LFTs' size */
	m->keep_left = ((size_t)4 << 20) + (size_t)(m->f->max_lid + 1) * ns / 4;
	if (!m->kept || !m->load)
		return lanes_error_oom(err);
	m->load_sum = m->load + ne + 1;
	m->lids_below = m->load_sum + ns + 1;
	m->nb = (uint32_t *)(m->lids_below + ns + 1);
	if (ns) /* lids_below as between trees (sssp_tree.c) */
		memcpy(m->lids_below, m->hca, sizeof(uint64_t) * ns);
	if (lanes_sssp_dest_alloc(&m->buf[0], ns, ne) || lanes_sssp_dest_alloc(&m->buf[1], ns, ne))
		return lanes_error_oom(err);
	for (size_t e = 0; e < ne; e++)
		m->nb[e] = m->f->adj[e].sw;
	return 0;
}

static void release(struct sssp *m)
{
	for (uint32_t s = 0; m->kept && s < m->f->num_switches; s++)
		if (m->kept[s]) {
			lanes_sssp_dest_free(m->kept[s]);
			free(m->kept[s]);
		}
	free(m->kept);
	void *p[] = { m->rank, m->ep_first, m->hca, m->load, m->seq };

	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		free(p[i]);
	lanes_sssp_dest_free(&m->buf[0]);
	lanes_sssp_dest_free(&m->buf[1]);
	lanes_route_endports_free(&m->eps);
}

/* Every switch keeps its own LIDs on port 0 (the rest may stay unrouted). */
static void own_lids(struct sssp *m)
{
	for (uint32_t s = 0; s < m->f->num_switches; s++) {
		const struct lanes_port *p0 = lanes_fabric_port(m->f, m->f->switches[s], 0);

		for (uint32_t l = 0; p0->lid && l < (1u << p0->lmc); l++)
			lanes_routing_set_port(m->r, s, p0->lid + l, 0);
	}
}

/* The rule, every destination in turn (a unit of progress each). */
static void route_by_rule(struct sssp *m)
{
	lanes_progress_phase(m->opts->progress, "routing", m->nseq);
	lanes_sssp_dests_start(m);
	for (uint32_t j = 0; j < m->nseq; j++) {
		lanes_sssp_dests_next(m, j);
		if (j < m->ngroups)
			lanes_sssp_route_endports_of(m);
		else
			lanes_sssp_route_switch_lids(m);
		if (j < m->ngroups && m->progress)
			m->progress->routed(m->progress->ctx, m->cur->t);
		lanes_sssp_dests_done(m, j);
		lanes_progress_add(m->opts->progress, 1);
	}
	lanes_sssp_dests_stop(m);
}

int lanes_route_sssp(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		     unsigned how, const struct sssp_progress *prog, struct lanes_routing *r,
		     struct lanes_error *err)
{
	struct sssp m;
	struct sssp_osm_order o;
	int rc;

	memset(&m, 0, sizeof(m));
	m.f = f;
	m.opts = opts;
	m.r = r;
	m.less_loaded = !(how & SSSP_REPLAY);
	m.progress = prog;
	if ((rc = lanes_sssp_order(&m, err)))
		goto out;
	lanes_sssp_set_keys(&m, !(how & SSSP_REFERENCE));
	o = (struct sssp_osm_order){ &m.eps, m.ep_first, m.hca, m.seq, m.ngroups, m.nseq };
	/* the replay: 1 routed, 0 declined (OpenSM could not route this fabric) */
	rc = how & SSSP_REPLAY ? lanes_route_sssp_osm(f, opts, !!(how & SSSP_REFERENCE), r, &o, err)
			       : 0;
	if (rc == 0 && (rc = alloc_rule(&m, err)) == 0)
		route_by_rule(&m);
	for (uint32_t j = 0; rc > 0 && prog && j < m.ngroups; j++)
		prog->routed(prog->ctx, m.seq[j]);
	if (rc >= 0) {
		own_lids(&m);
		rc = 0;
	}
out:
	release(&m);
	return rc;
}
