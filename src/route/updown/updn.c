/*
 * updn.c - OpenSM's Up/Down engine (OpenSM's doc/current-routing.txt, "UPDN
 * Routing Algorithm"), with the behaviour of OpenSM 3.3.23's
 * osm_ucast_updn.c where it is deadlock-free, and a root rule of our own
 * where OpenSM gives up.
 *
 * 1. Roots. From opts->roots, a file of GUIDs (read by updn_roots.c, which
 *    gives its format): switch GUIDs, or CA node or port GUIDs for the switch
 *    the CA is cabled to (current-routing.txt, note 2); GUIDs not in the fabric are
 *    skipped, as OpenSM skips them, and counted in the notes. Without a
 *    file, OpenSM's auto-detection (updn_find_root_nodes_by_min_hop): for
 *    every switch, a histogram of the hop counts to the switches of all CA
 *    and router ports cabled to a switch; a switch is a root when exactly
 *    one bar holds more than 90% of those ports and exactly one more than 5%
 *    (the same bar).
 * 2. Ranks: BFS hops from the roots (updn_subn_rank). A move towards a lower
 *    rank is up; between equal ranks, towards the lower node GUID
 *    (updn_get_dir: "bigger == UP direction" from the moving side).
 * 3. Min-hop tables under the up* / down* rule, then minhop's balancing:
 *    lanes_route_updown_lfts (updown.c) says how, and updown_legal.c where it
 *    differs from OpenSM's single-direction BFS.
 *
 * Where this is not OpenSM:
 *  - OpenSM makes every link between two roots "up" in both directions (a
 *    hack in updn_get_dir); chains of such links can close a credit loop, so
 *    here roots are ordered by GUID like any other equal ranks. Fat trees
 *    have no links between roots, so nothing changes there.
 *  - When auto-detection finds no root, OpenSM falls back to minhop, which is
 *    not deadlock-free (it happens on tori and on the real DGX A100 SuperPOD
 *    file, whose every switch carries a SHARP aggregation node). Here:
 *    fallback 1 applies OpenSM's rule to the CA ports of the host switches
 *    only (those with at least half as many CA ports as the busiest switch),
 *    which finds the top of a fat tree that carries stray management or
 *    aggregation nodes; fallback 2 takes one root per connected component,
 *    the switch of minimum eccentricity, ties to the lowest GUID (a single
 *    root reaches every switch up its BFS tree and down again, so every pair
 *    is routed). A root set is only used if it gives every switch with CAs
 *    an up* / down* path to every other one; detected roots that do not fall
 *    through to the next rule, roots from a file are an error naming the
 *    switches. The notes say which rule chose the roots and list them
 *    ("roots=0x...,0x...").
 *
 * Result: one VL, uniform SL 0, deadlock-free for CA-to-CA traffic. Switch
 * pairs that up* / down* cannot join (a top switch and a middle switch of
 * another plane of a fat tree: current-routing.txt's "no LID routing communication
 * between switches ... inside spine switch systems") get a shortest
 * completion, used by switch-sourced management traffic only.
 */
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/parallel.h"
#include "core/util.h"
#include "fabric/distance.h"
#include "route/common/load.h"
#include "route/common/tables.h"
#include "route/updown/updown.h"
#include "route/engines.h"

#define HOPS_MAX 64 /* IB_SUBNET_PATH_HOPS_MAX: OpenSM's histogram length */

struct updn {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	unsigned num_workers; /* for the distances, the root test and the tables */
	void *block;          /* the arrays below but dist (carve) */
	uint8_t *dist;        /* all-pairs switch hops (root detection, fallback 2) */
	uint8_t *is_root;     /* detect_roots: per switch, the rule's verdict */
	uint32_t *comp;       /* connected component per switch */
	uint32_t ncomp;
	uint32_t *cas;        /* CA and router ports cabled to each switch */
	uint32_t *roots;      /* switch indices, ascending */
	uint32_t nroots;
	uint32_t *rank, *pos;
	struct lanes_routing *r;
	struct route_updown_gap gap;
};

/* ------------------------------------------------------------ auto-detection */

static void count_cas(struct updn *u)
{
	const struct lanes_fabric *f = u->f;

	for (uint32_t n = 0; n < f->num_nodes; n++) {
		if (f->nodes[n].type == LANES_NODE_SWITCH)
			continue;
		for (uint8_t p = 1; p <= f->nodes[n].nports; p++) {
			uint32_t peer = lanes_fabric_port(f, n, p)->peer_node;

			if (peer != LANES_NONE && f->nodes[peer].type == LANES_NODE_SWITCH)
				u->cas[f->nodes[peer].switch_index]++;
		}
	}
}

/* OpenSM's test on one switch's histogram (same double arithmetic as OpenSM). */
static int is_root(const unsigned *hist, int len, unsigned cas_num)
{
	double thd1 = cas_num * 0.9, thd2 = cas_num * 0.05;
	unsigned over1 = 0, over2 = 0;

	for (int i = 0; i < len; i++) {
		over1 += hist[i] > thd1;
		over2 += hist[i] > thd2;
	}
	return over1 == 1 && over2 == 1;
}

/* The rule's question for detect_roots' switches, min_cas and cas_num its sources'. */
struct root_test {
	const struct updn *u;
	uint32_t min_cas;
	unsigned cas_num;
};

/*
 * Worker k's switches s: the hop histogram of OpenSM's rule, the CA ports
 * of each source switch t (cas[t] >= min_cas) at d < HOPS_MAX hops from s
 * (hops are symmetric, so s's row of the distances), and its verdict.
 */
static void test_switches(void *ctx, unsigned k)
{
	const struct root_test *q = ctx;
	const struct updn *u = q->u;
	uint32_t ns = u->f->num_switches;
	struct route_switch_range mine = route_switch_share(ns, k, u->num_workers);

	for (uint32_t s = mine.first; s < mine.end; s++) {
		const uint8_t *hops = u->dist + (size_t)s * ns;
		unsigned bars[HOPS_MAX] = { 0 };

		for (uint32_t t = 0; t < ns; t++)
			if (u->cas[t] && u->cas[t] >= q->min_cas && hops[t] < HOPS_MAX)
				bars[hops[t]] += u->cas[t];
		u->is_root[s] = (uint8_t)is_root(bars, HOPS_MAX, q->cas_num);
	}
}

/*
 * The roots by OpenSM's histogram rule over the CA ports of switches with at
 * least min_cas of them (1: all, OpenSM's own rule), into u->roots.
 * @return how many
 */
static uint32_t detect_roots(struct updn *u, uint32_t min_cas)
{
	struct root_test q = { u, min_cas, 0 };
	uint32_t ns = u->f->num_switches, n = 0;

	for (uint32_t t = 0; t < ns; t++)
		if (u->cas[t] && u->cas[t] >= min_cas)
			q.cas_num += u->cas[t];
	lanes_parallel_run(u->num_workers, test_switches, &q);
	for (uint32_t s = 0; s < ns; s++)
		if (u->is_root[s])
			u->roots[n++] = s;
	return n;
}

/*
 * Half the CA ports of the busiest switch, rounded up; 0 when no switch has
 * fewer CA ports than that but some (fallback 1 would repeat OpenSM's rule).
 */
static uint32_t host_threshold(const struct updn *u)
{
	uint32_t max = 0, half, stray = 0;

	for (uint32_t s = 0; s < u->f->num_switches; s++)
		max = u->cas[s] > max ? u->cas[s] : max;
	half = (max + 1) / 2;
	for (uint32_t s = 0; s < u->f->num_switches; s++)
		stray += u->cas[s] && u->cas[s] < half;
	return stray ? half : 0;
}

/* ------------------------------------------------------------ routing */

/* Route with the current roots. @return 0, 1 on a gap (no routing kept), or an error. */
static int attempt(struct updn *u, struct lanes_error *err)
{
	int rc;

	lanes_routing_free(u->r);
	u->r = NULL;
	if ((rc = lanes_route_bfs_ranks(u->f, u->roots, u->nroots, u->rank, err)) ||
	    (rc = lanes_route_order_by_key(u->f, u->rank, u->pos, err)) ||
	    (rc = lanes_routing_new_parallel(u->f, u->num_workers, &u->r, err)))
		return rc;
	rc = lanes_route_updown_lfts(u->f, u->opts, u->pos, u->r, &u->gap, err);
	if (rc == 1) {
		lanes_routing_free(u->r);
		u->r = NULL;
	}
	return rc;
}

static const char *desc_of(const struct lanes_fabric *f, uint32_t sw)
{
	return f->nodes[f->switches[sw]].desc;
}

static unsigned long long guid_of(const struct lanes_fabric *f, uint32_t sw)
{
	return (unsigned long long)f->nodes[f->switches[sw]].guid;
}

/* Append to why the reason a rule's roots were not used. */
static void describe_gap(const struct updn *u, const char *what, struct lanes_sb *why)
{
	if (why->len)
		lanes_sb_str(why, "; ");
	lanes_sb_str(why, what);
	lanes_sb_str(why, " leave the CAs of switch 0x");
	lanes_sb_hex0(why, guid_of(u->f, u->gap.from_sw), 16);
	lanes_sb_str(why, " without an up*/down* path to those of switch 0x");
	lanes_sb_hex0(why, guid_of(u->f, u->gap.to_sw), 16);
}

/* The warning for GUIDs of the roots file that name nothing in the fabric. */
static int warn_unknown(struct updn *u, const struct roots_unknown *unknown,
			struct lanes_error *err)
{
	char buf[1200];
	struct lanes_sb b;

	lanes_sb_init(&b, buf, sizeof(buf));
	lanes_sb_str(&b, "updn: ");
	lanes_sb_str(&b, u->opts->roots);
	lanes_sb_str(&b, ":");
	lanes_sb_dec(&b, unknown->first_line);
	lanes_sb_str(&b, ": GUID 0x");
	lanes_sb_hex0(&b, unknown->first_guid, 16);
	lanes_sb_str(&b, " names no switch or cabled CA of the fabric");
	if (unknown->count > 1) {
		lanes_sb_str(&b, " (nor do ");
		lanes_sb_dec(&b, unknown->count - 1);
		lanes_sb_str(&b, " more)");
	}
	lanes_sb_str(&b, "; skipped, the other roots used");
	u->r->warnings = lanes_sb_dup(&b);
	return u->r->warnings ? 0 : lanes_error_oom(err);
}

static int with_file(struct updn *u, struct lanes_error *err)
{
	char head[1024], tail[128] = "";
	struct lanes_sb b;
	struct roots_unknown unknown;
	int rc;

	if ((rc = lanes_route_read_roots(u->f, u->opts->roots, u->roots, &u->nroots, &unknown, err)))
		return rc;
	if ((rc = attempt(u, err)) == 1)
		return lanes_error_set(
			err, LANES_EINVAL,
			"updn: with the roots of %s, switch 0x%016llx (\"%s\") and its CAs have no "
			"up*/down* path to the CAs of switch 0x%016llx (\"%s\"); add a root both reach",
			u->opts->roots, guid_of(u->f, u->gap.from_sw), desc_of(u->f, u->gap.from_sw),
			guid_of(u->f, u->gap.to_sw), desc_of(u->f, u->gap.to_sw));
	if (rc)
		return rc;
	lanes_sb_init(&b, head, sizeof(head));
	lanes_sb_str(&b, "updn: up*/down* on BFS ranks from the roots of ");
	lanes_sb_str(&b, u->opts->roots);
	lanes_sb_str(&b, " (equal ranks: lower GUID is up); 1 VL; ");
	if (unknown.count) {
		lanes_sb_init(&b, tail, sizeof(tail));
		lanes_sb_str(&b, "; ");
		lanes_sb_dec(&b, unknown.count);
		lanes_sb_str(&b, " GUIDs of the file are not in the fabric (skipped)");
		if ((rc = warn_unknown(u, &unknown, err)))
			return rc;
	}
	u->r->notes = lanes_route_notes_with_roots(u->f, head, u->roots, u->nroots, tail);
	return u->r->notes ? 0 : lanes_error_oom(err);
}

/* Fallback 2: one central root per component; always routes every pair. */
static int with_centres(struct updn *u, const char *why, struct lanes_error *err)
{
	char head[1536];
	struct lanes_sb b;
	int rc;

	if ((!u->dist && (rc = lanes_switch_distances_parallel(u->f, u->num_workers, &u->dist, err))) ||
	    (rc = lanes_route_center_roots(u->f, u->dist, u->comp, u->ncomp, u->num_workers, u->roots,
					     err)))
		return rc;
	u->nroots = u->ncomp;
	if ((rc = attempt(u, err)) == 1)
		return lanes_error_set(err, LANES_EINTERNAL, "updn: internal: a single root left a gap");
	if (rc)
		return rc;
	lanes_sb_init(&b, head, sizeof(head));
	lanes_sb_str(&b, "updn: ");
	lanes_sb_str(&b, why);
	lanes_sb_str(&b, "; fallback: one root per connected component, the switch of minimum "
		     "eccentricity, ties to the lowest GUID; up*/down* on BFS ranks from it; 1 VL; ");
	u->r->notes = lanes_route_notes_with_roots(u->f, head, u->roots, u->nroots, NULL);
	return u->r->notes ? 0 : lanes_error_oom(err);
}

/*
 * Notes for detected roots; hosts: fallback 1's threshold, rule then being
 * why OpenSM's own rule failed (at most 767 bytes: nothing is cut).
 */
static int detected(struct updn *u, const char *rule, uint32_t hosts, struct lanes_error *err)
{
	char head[1536];
	struct lanes_sb b;

	lanes_sb_init(&b, head, sizeof(head));
	lanes_sb_str(&b, "updn: ");
	lanes_sb_str(&b, rule);
	if (hosts) {
		lanes_sb_str(&b, "; fallback: OpenSM's rule over the CA ports of the host switches (");
		lanes_sb_dec(&b, hosts);
		lanes_sb_str(&b, " or more CA ports, half the busiest switch's)");
	}
	lanes_sb_str(&b, "; up*/down* on BFS ranks from them (equal ranks: lower GUID is up); 1 VL; ");
	u->r->notes = lanes_route_notes_with_roots(u->f, head, u->roots, u->nroots, NULL);
	return u->r->notes ? 0 : lanes_error_oom(err);
}

/* The chain: OpenSM's rule, fallback 1 (host switches), fallback 2 (centres). */
static int auto_roots(struct updn *u, struct lanes_error *err)
{
	char why_buf[768];
	struct lanes_sb why;
	uint32_t hosts = host_threshold(u);
	int rc;

	lanes_sb_init(&why, why_buf, sizeof(why_buf));
	if (!(u->nroots = detect_roots(u, 1)))
		lanes_sb_str(&why, "OpenSM's root detection finds no root (OpenSM would fall back "
			     "to minhop, which is not deadlock-free)");
	if (u->nroots) {
		if ((rc = attempt(u, err)) != 1)
			return rc ? rc : detected(u, "roots by OpenSM 3.3.23's auto-detection (one CA "
						  "hop bar over 90% of the CA ports, none other over 5%)", 0, err);
		describe_gap(u, "OpenSM's detected roots", &why);
	}
	if (hosts && (u->nroots = detect_roots(u, hosts))) {
		if ((rc = attempt(u, err)) != 1)
			return rc ? rc : detected(u, why_buf, hosts, err);
		describe_gap(u, "the roots of OpenSM's rule over host switches", &why);
	}
	return with_centres(u, why_buf, err);
}

/* The per-switch arrays, from one block (util.h's lanes_carve). */
static void carve(struct updn *u, struct lanes_carver *c)
{
	size_t ns = u->f->num_switches;

	u->cas = lanes_carve(c, sizeof(uint32_t) * (ns + 1));
	u->is_root = lanes_carve(c, ns + 1);
	u->comp = lanes_carve(c, sizeof(uint32_t) * (ns + 1));
	u->roots = lanes_carve(c, sizeof(uint32_t) * (ns + 1));
	u->rank = lanes_carve(c, sizeof(uint32_t) * (ns + 1));
	u->pos = lanes_carve(c, sizeof(uint32_t) * (ns + 1));
}

static int prepare(struct updn *u, struct lanes_error *err)
{
	struct lanes_carver c = { NULL, 0 };
	size_t ns = u->f->num_switches;
	int rc;

	carve(u, &c);
	if (!(u->block = c.base = malloc(c.used)))
		return lanes_error_oom(err);
	c.used = 0;
	carve(u, &c);
	memset(u->cas, 0, sizeof(uint32_t) * (ns + 1));
	u->num_workers = lanes_route_destination_workers(u->opts, u->f->num_switches);
	if ((rc = lanes_route_components(u->f, u->comp, &u->ncomp, err)))
		return rc;
	count_cas(u);
	return u->opts->roots ? 0 : lanes_switch_distances_parallel(u->f, u->num_workers, &u->dist, err);
}

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	struct updn u;
	int rc;

	memset(&u, 0, sizeof(u));
	u.f = f;
	u.opts = opts;
	*out = NULL;
	if (!(rc = prepare(&u, err)))
		rc = opts->roots ? with_file(&u, err) : auto_roots(&u, err);
	if (!rc) {
		*out = u.r;
		u.r = NULL;
	}
	lanes_routing_free(u.r);
	free(u.dist);
	free(u.block);
	return rc;
}

const struct lanes_engine lanes_engine_updn = {
	.name = "updn",
	.summary = "OpenSM's Up/Down: up*/down* on BFS ranks from roots (auto-detected or a GUID file)",
	.scope = "any",
	.resources = "1 VL",
	.source = "OpenSM 3.3.23 UPDN (doc/current-routing.txt); osm_ucast_updn.c, osm_ucast_mgr.c, osm_switch.c",
	.flags = LANES_ENGINE_ANY_TOPOLOGY | LANES_ENGINE_DEADLOCK_FREE,
	.check = NULL,
	.route = route,
};
