/*
 * dnup.c - OpenSM's Down/Up engine (OpenSM's doc/current-routing.txt, "DNUP
 * Routing Algorithm"; OpenSM 3.3.23 osm_ucast_dnup.c): up* / down* routing
 * whose ranks come from the CAs instead of from roots, for fabrics where
 * CAs hang off switches of every level ("nodes and uplinks connected to the
 * same switch").
 *
 * 1. Ranks: every switch with a CA or router port cabled to it has rank 0
 *    (dnup_lid_matrices; current-routing.txt says 1, the offset does not
 *    matter); the others get BFS hops from the nearest of them
 *    (dnup_subn_rank).
 * 2. In DNUP's words a move towards a higher rank is "down" and a legal path
 *    is down* then up*: away from the CAs first, then back towards them
 *    (dnup_bfs_by_node forbids a reverse step from UP to DOWN). That is
 *    lanes_route_updown_lfts's up* / down* with the order "higher DNUP rank first";
 *    on a fat tree with CAs only on the leaves it is updn's orientation.
 * 3. Min-hop tables under that rule and minhop's balancing (updown.c).
 *
 * Where this is not OpenSM:
 *  - OpenSM leaves moves between equal ranks unrestricted (EQUAL resets the
 *    direction), which is not deadlock-free: on a torus with CAs everywhere
 *    every rank is 0 and DNUP is minhop. Here equal ranks are ordered by node
 *    GUID (the lower GUID comes first), which keeps the order total.
 *  - So where two cabled switches have equal ranks, OpenSM allows more
 *    paths than the GUID order does; with all ranks 0 (CAs on every switch)
 *    its DNUP is minhop, and on the real fabrics with CAs on the leaves and
 *    leaf-to-leaf cables (ut_stage) its tables are minhop's too. Those
 *    tables are often free of credit loops (two switches, a ring of three, a
 *    small fat tree with leaf-to-leaf cables). So where equal ranks are
 *    cabled, the engine also routes minhop and keeps its tables when their
 *    CA-to-CA channel dependencies are acyclic (cdg_check.c): shortest
 *    paths, minhop's balance, and OpenSM's tables wherever those are
 *    deadlock-free. Otherwise it keeps the GUID order's tables. Where the
 *    GUID order leaves a gap (below), it does not try (the DGX SuperPOD
 *    file: OpenSM's tables have a credit loop there, and the check would
 *    run most of minhop to find it). The notes say which. The work comes
 *    in that order: whether the GUID order leaves a gap (no tables), then
 *    minhop under the check, then the GUID order's tables only when
 *    minhop's are not kept.
 *  - DNUP ranks can leave two switches with CAs without a legal path between
 *    them (no common switch farther from the CAs than both). Then the engine
 *    uses updn's fallback order (one root per component, the switch of
 *    minimum eccentricity, ties to the lowest GUID; BFS ranks from it), which
 *    routes every pair, and says so in the notes with "roots=...". A fabric
 *    with no CA at all (OpenSM: "No leaf switches found") gets that order too.
 *  - A roots file (opts->roots) means nothing to DNUP; it is ignored, and
 *    the notes say so.
 *
 * Result: one VL, uniform SL 0, deadlock-free for CA-to-CA traffic; switch
 * pairs without a legal path get a shortest completion (management traffic).
 */
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "fabric/distance.h"
#include "route/common/tables.h"
#include "route/updown/updown.h"
#include "route/cdg/cdg.h"
#include "route/minhop/minhop.h"
#include "route/engines.h"
#include "core/util.h"

struct dnup {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	uint32_t *seeds, nseeds; /* switches with CAs */
	uint32_t *rank, *key, *pos;
	struct lanes_routing *r;
	struct route_updown_gap gap;
};

/*
 * The switches with a CA or router cabled to them, ascending, found from
 * the cables (each listed once). d->key is the scratch.
 */
static void find_seeds(struct dnup *d)
{
	const struct lanes_fabric *f = d->f;
	const struct lanes_node *nodes = f->nodes;
	uint32_t *mark = d->key;

	memset(mark, 0, sizeof(*mark) * f->num_switches);
	for (uint32_t l = 0; l < f->num_links; l++) {
		const struct lanes_node *a = &nodes[f->links[l].a], *b = &nodes[f->links[l].b];

		if ((a->type == LANES_NODE_SWITCH) != (b->type == LANES_NODE_SWITCH))
			mark[a->type == LANES_NODE_SWITCH ? a->switch_index : b->switch_index] = 1;
	}
	d->nseeds = 0;
	for (uint32_t s = 0; s < f->num_switches; s++)
		if (mark[s])
			d->seeds[d->nseeds++] = s;
}

/* Route on pos. @return 0, 1 on a gap (routing dropped), or an error. */
static int attempt(struct dnup *d, struct lanes_error *err)
{
	int rc;

	lanes_routing_free(d->r);
	d->r = NULL;
	if ((rc = lanes_routing_new_parallel(d->f, lanes_route_destination_workers(d->opts, d->f->num_switches),
					     &d->r, err)))
		return rc;
	rc = lanes_route_updown_lfts(d->f, d->opts, d->pos, d->r, &d->gap, err);
	if (rc == 1) {
		lanes_routing_free(d->r);
		d->r = NULL;
	}
	return rc;
}

/* DNUP's order: higher rank first, equal ranks by GUID; CA-less components last. */
static int dnup_order(struct dnup *d, struct lanes_error *err)
{
	uint32_t max = 0;
	int rc;

	if ((rc = lanes_route_bfs_ranks(d->f, d->seeds, d->nseeds, d->rank, err)))
		return rc;
	for (uint32_t s = 0; s < d->f->num_switches; s++)
		if (d->rank[s] != UINT32_MAX && d->rank[s] > max)
			max = d->rank[s];
	for (uint32_t s = 0; s < d->f->num_switches; s++)
		d->key[s] = d->rank[s] == UINT32_MAX ? UINT32_MAX : max - d->rank[s];
	return lanes_route_order_by_key(d->f, d->key, d->pos, err);
}

static const char *ignored(const struct dnup *d)
{
	return d->opts->roots ? "; the roots file is not used (DNUP ranks come from the CAs)" : "";
}

/* updn's fallback order, when DNUP's ranks cannot join all CAs. */
static int fallback(struct dnup *d, const char *why, struct lanes_error *err)
{
	uint8_t *dist = NULL;
	uint32_t *comp = malloc(sizeof(uint32_t) * ((size_t)d->f->num_switches + 1)), ncomp = 0;
	unsigned workers = lanes_route_destination_workers(d->opts, d->f->num_switches);
	char head[1024];
	struct lanes_sb b;
	int rc;

	if (!comp)
		return lanes_error_oom(err);
	if ((rc = lanes_route_components(d->f, comp, &ncomp, err)) ||
	    (rc = lanes_switch_distances_parallel(d->f, workers, &dist, err)) ||
	    (rc = lanes_route_center_roots(d->f, dist, comp, ncomp, workers, d->seeds, err)) ||
	    (rc = lanes_route_bfs_ranks(d->f, d->seeds, ncomp, d->rank, err)) ||
	    (rc = lanes_route_order_by_key(d->f, d->rank, d->pos, err)))
		goto out;
	if ((rc = attempt(d, err)) == 1)
		rc = lanes_error_set(err, LANES_EINTERNAL, "dnup: internal: a single root left a gap");
	if (rc)
		goto out;
	lanes_sb_init(&b, head, sizeof(head));
	lanes_sb_str(&b, "dnup: ");
	lanes_sb_str(&b, why);
	lanes_sb_str(&b, "; fallback: updn's order, one root per connected component (the switch "
		     "of minimum eccentricity, ties to the lowest GUID), BFS ranks from it, lower "
		     "rank first; 1 VL");
	lanes_sb_str(&b, ignored(d));
	lanes_sb_str(&b, "; ");
	d->r->notes = lanes_route_notes_with_roots(d->f, head, d->seeds, ncomp, NULL);
	rc = d->r->notes ? 0 : lanes_error_oom(err);
out:
	free(dist);
	free(comp);
	return rc;
}

/* Some cabled switches have equal DNUP ranks (OpenSM: no direction). */
static int equal_ranks_cabled(const struct dnup *d)
{
	const struct lanes_fabric *f = d->f;

	for (uint32_t s = 0; s < f->num_switches; s++)
		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++)
			if (d->rank[f->adj[e].sw] == d->rank[s])
				return 1;
	return 0;
}

/*
 * Keep minhop's tables when they are free of credit loops for CA traffic.
 * @return 1 kept (d->r set), 0 not, or an error
 */
static int try_minhop(struct dnup *d, struct lanes_error *err)
{
	static const char notes[] =
		"dnup: cabled switches of equal DNUP rank, where OpenSM's DNUP allows more paths "
		"(all of minhop's when every switch has CAs); minhop's tables kept: their CA-to-CA "
		"channel dependencies are acyclic; 1 VL";
	struct route_cdg_check *check = NULL;
	struct lanes_routing *r = NULL;
	size_t more;
	int rc;

	if ((rc = lanes_route_cdg_check_new(d->f, &check, err)) ||
	    (rc = lanes_route_minhop(d->f, d->opts, check, &r, err)) || !r)
		goto out;
	rc = 1;
	free(r->notes);
	more = strlen(ignored(d));
	if (!(r->notes = malloc(sizeof(notes) + more))) {
		rc = lanes_error_oom(err);
		goto out;
	}
	memcpy(r->notes, notes, sizeof(notes) - 1);
	memcpy(r->notes + sizeof(notes) - 1, ignored(d), more + 1);
	d->r = r;
	r = NULL;
out:
	lanes_route_cdg_check_free(check);
	lanes_routing_free(r);
	return rc;
}

/*
 * Minhop's tables where the GUID order's routing has no gap and they are
 * acyclic. First only whether the GUID order leaves a gap (lanes_route_updown_lfts
 * without tables: then minhop is not tried), then minhop, which stops at the
 * first cycle; the GUID order's own tables are built only when not kept.
 * @return 1 kept (d->r set), 0 not, or an error
 */
static int keep_minhop(struct dnup *d, struct lanes_error *err)
{
	int rc = lanes_route_updown_lfts(d->f, d->opts, d->pos, NULL, &d->gap, err);

	if (rc)
		return rc < 0 ? rc : 0; /* a gap: attempt() names it, then the fallback */
	return try_minhop(d, err);
}

static int route_dnup(struct dnup *d, struct lanes_error *err)
{
	char buf[512];
	struct lanes_sb b;
	int rc;

	find_seeds(d);
	if (!d->nseeds)
		return fallback(d, "no switch has a CA (OpenSM: \"No leaf switches found\")", err);
	if ((rc = dnup_order(d, err)))
		return rc;
	if (equal_ranks_cabled(d) && (rc = keep_minhop(d, err)))
		return rc < 0 ? rc : 0;
	if ((rc = attempt(d, err)) < 0)
		return rc;
	lanes_sb_init(&b, buf, sizeof(buf));
	if (rc == 1) {
		lanes_sb_str(&b, "DNUP ranks leave the CAs of switch 0x");
		lanes_sb_hex0(&b, d->f->nodes[d->f->switches[d->gap.from_sw]].guid, 16);
		lanes_sb_str(&b, " without a down*/up* path to those of switch 0x");
		lanes_sb_hex0(&b, d->f->nodes[d->f->switches[d->gap.to_sw]].guid, 16);
		return fallback(d, buf, err);
	}
	lanes_sb_str(&b, "dnup: down*/up* on OpenSM DNUP ranks (hops from the nearest of the ");
	lanes_sb_dec(&b, d->nseeds);
	lanes_sb_str(&b, " switches with CAs; away from the CAs first, equal ranks ordered by "
		     "GUID); 1 VL");
	lanes_sb_str(&b, ignored(d));
	if (!(d->r->notes = lanes_sb_dup(&b)))
		return lanes_error_oom(err);
	return 0;
}

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	size_t ns = f->num_switches;
	struct dnup d;
	int rc;

	memset(&d, 0, sizeof(d));
	d.f = f;
	d.opts = opts;
	*out = NULL;
	d.seeds = malloc(sizeof(uint32_t) * 4 * (ns + 1)); /* one block: seeds, rank, key, pos */
	d.rank = d.seeds ? d.seeds + (ns + 1) : NULL;
	d.key = d.seeds ? d.seeds + 2 * (ns + 1) : NULL;
	d.pos = d.seeds ? d.seeds + 3 * (ns + 1) : NULL;
	if (!d.seeds)
		rc = lanes_error_oom(err);
	else
		rc = route_dnup(&d, err);
	if (!rc) {
		*out = d.r;
		d.r = NULL;
	}
	lanes_routing_free(d.r);
	free(d.seeds);
	return rc;
}

const struct lanes_engine lanes_engine_dnup = {
	.name = "dnup",
	.summary = "OpenSM's Down/Up: up*/down* with ranks by hops from the switches with CAs",
	.scope = "any",
	.resources = "1 VL",
	.source = "OpenSM 3.3.23 DNUP (doc/current-routing.txt); osm_ucast_dnup.c, osm_ucast_mgr.c",
	.flags = LANES_ENGINE_ANY_TOPOLOGY | LANES_ENGINE_DEADLOCK_FREE,
	.check = NULL,
	.route = route,
};
