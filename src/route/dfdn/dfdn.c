/*
 * dfdn.c - DF-DN, deadlock freedom by VL hopping: the engines dfdn,
 * sssp-df and minhop-df.
 *
 * Sources. Schneider, Bibartiu and Hoefler, "Ensuring Deadlock-Freedom in
 * Low-Diameter InfiniBand Networks", HOTI 2016 (we had the talk's slides,
 * "Incrementing the VL" and "Incrementing the VL (diameter > 2)", and the
 * abstract; the paper's text we could not find); and Maglione-Mathey,
 * Escudero-Sahuquillo, Garcia, Quiles and Zahavi, "Leveraging InfiniBand
 * Controller to Configure Deadlock-Free Routing Engines for Dragonflies"
 * (JPDC), Sec. 2.3 item 5: DF-DN "imposes a total order on virtual channels
 * where packets are mapped along their routes, and increments the VL at
 * every hop", "leaves the calculation of the LFTs to SSSP and MINHOP", the
 * two variants they call SSSP-DF and MINHOP-DF (their Table 2: 3 VLs and
 * 3..6 SLs on fully connected dragonflies).
 *
 * The algorithm.
 * 1. LFTs: the base engine's, unchanged (sssp or minhop, OpenSM 3.3.23's
 *    rules as src/route/sssp and src/route/minhop reproduce them).
 * 2. A packet on its i-th switch-to-switch hop (i = 0, 1, ...) travels on
 *    VL i. Every dependency then goes from a channel on VL i to one on
 *    VL i + 1, so ordering channels by VL orders the channel dependency
 *    graph: it is acyclic. The VLs needed are the hops of the longest path,
 *    the diameter for minimal routing (slides: "#VLs used = number of hops").
 * 3. A switch cannot see the hop count: its SL2VL map gives the out VL from
 *    (in port, out port, SL). At diameter two every packet that enters a
 *    switch from another switch is on its second hop, so one map per switch,
 *    VL 1 for every SL, does it with one SL. Beyond diameter two the same
 *    (switch, in port, out port) can be the second hop of one path and the
 *    third of another; those paths need different SLs, so that no map entry
 *    (switch, in, out, SL) needs two VLs (the slides' In/Out/SL/VL tables).
 * 4. SLs, as the slides' tables are filled: paths are taken one at a time,
 *    and each gets the lowest SL under which every map entry it passes is
 *    still free or already holds the VL it needs there; it then claims
 *    those entries. The order in which the paper takes the paths we could
 *    not learn: we take destination LIDs in ascending order and for each the
 *    source switches in index order (the LFT column of one LID is
 *    contiguous). The work is one walk per (source switch, destination LID)
 *    path and a few nibble tests per hop (dfdn_hops.c).
 *
 * Decisions where the sources are silent.
 * - The paths are those from every switch with a CA or router port to every
 *   CA and router LID, the traffic the verifier checks for credit loops by
 *   default. Paths to switch LIDs are in the LFTs (opts->switch_lids) but
 *   take SL 0 and whatever VL the maps give (always within the budget): they
 *   are management traffic and do not count for the VLs.
 * - Terminal channels: the CA's injection map is map 0, so a packet enters
 *   its first switch on VL 0 and leaves it on VL 0 whatever its SL (no other
 *   path uses a pair whose in port is a CA port); the last switch hands it
 *   to the CA on VL 0. A CA consumes what it receives, so the channel into
 *   it waits on nothing and cannot close a cycle.
 * - An SL that no path set on a (switch, in, out) maps to VL 0.
 * - SL granularity: per (source switch, destination LID), which is exact for
 *   destination-based LFTs; made coarser (one per destination LID, or one
 *   SL) when that gives the same SLs. On a diameter-two fabric it is one SL.
 * - Refusals: more VLs than opts->max_vls, or more SLs than opts->max_sls,
 *   fail with LANES_ERANGE and the count needed. Any connected fabric is
 *   routed when its longest path and its SLs fit, faulty ones included.
 * - Parameters: `dfdn` takes base=sssp|minhop (default sssp); `sssp-df` and
 *   `minhop-df` are dfdn with the base fixed and take none.
 *
 * Threads: the base engine uses opts->threads and gives the same tables for
 * any count; the SL pass places paths sequentially (first fit depends on
 * the order) while a second thread, where opts->threads allows, computes
 * the next LIDs' trees (dfdn_hops.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "route/common/params.h"
#include "route/dfdn/dfdn.h"
#include "route/engines.h"

enum dfdn_base { BASE_SSSP, BASE_MINHOP };

/* The base named by one "key=value" word of opts->params (len bytes at w). */
static int parse_word(void *ctx, const char *w, size_t len, struct lanes_error *err)
{
	enum dfdn_base *base = ctx;
	static const char key[] = "base=";

	if (len < sizeof(key) - 1 || memcmp(w, key, sizeof(key) - 1)) {
		size_t klen = 0;

		while (klen < len && w[klen] != '=')
			klen++;
		return lanes_error_set(err, LANES_EINVAL,
				       "dfdn: unknown parameter '%.*s' (takes base=sssp|minhop)",
				       (int)klen, w);
	}
	w += sizeof(key) - 1;
	len -= sizeof(key) - 1;
	if (len == 4 && !memcmp(w, "sssp", 4))
		*base = BASE_SSSP;
	else if (len == 6 && !memcmp(w, "minhop", 6))
		*base = BASE_MINHOP;
	else
		return lanes_error_set(err, LANES_EINVAL,
				       "dfdn: parameter 'base' must be sssp or minhop, not '%.*s'",
				       (int)len, w);
	return 0;
}

/* opts->params of dfdn: words separated by commas or blanks; the last base= wins. */
static int parse_params(const char *params, enum dfdn_base *base, struct lanes_error *err)
{
	*base = BASE_SSSP;
	return lanes_route_each_param(params, parse_word, base, err);
}

static int set_notes(struct lanes_routing *r, const char *name, enum dfdn_base base,
		     const struct dfdn_result *res, struct lanes_error *err)
{
	free(r->notes);
	r->notes = lanes_aprintf("%s (LFTs from %s): VL i on switch-to-switch hop i; longest path "
				 "%u hops, %u VLs, %u SLs",
				 name, base == BASE_SSSP ? "sssp" : "minhop", res->longest_path,
				 r->num_vls, r->num_sls);
	return r->notes ? 0 : lanes_error_oom(err);
}

/*
 * LANES_EREFUSED when no budget could hold the paths (a path longer than
 * InfiniBand's VLs, more SLs than exist); LANES_ERANGE, in the words of
 * lanes_route_over_budget(), when the budget given is too small; else 0.
 */
static int check_budget(const char *name, const struct dfdn_result *res,
			const struct lanes_route_opts *opts, struct lanes_error *err)
{
	if (res->too_long)
		return lanes_error_set(err, LANES_EREFUSED,
				       "%s: a path has more than %u switch-to-switch hops, more VLs "
				       "than InfiniBand has",
				       name, DFDN_MAX_HOPS);
	if (res->sls_needed > LANES_NUM_SLS)
		return lanes_error_set(err, LANES_EREFUSED,
				       "%s: the paths need more than %u SLs, more than InfiniBand has",
				       name, LANES_NUM_SLS);
	if (res->longest_path > opts->max_vls)
		return lanes_error_set(err, LANES_ERANGE,
				       "%s: needs %u VLs (its longest path has %u switch-to-switch "
				       "hops), the budget is %u (vls %u)",
				       name, res->longest_path, res->longest_path, opts->max_vls,
				       opts->max_vls);
	if (res->sls_needed > opts->max_sls)
		return lanes_error_set(err, LANES_ERANGE,
				       "%s: needs %u SLs, the budget is %u (sls %u)", name,
				       res->sls_needed, opts->max_sls, opts->max_sls);
	return 0;
}

static int route_with(const char *name, enum dfdn_base base, const struct lanes_fabric *f,
		      const struct lanes_route_opts *opts, struct lanes_routing **out,
		      struct lanes_error *err)
{
	const struct lanes_engine *e = base == BASE_SSSP ? &lanes_engine_sssp : &lanes_engine_minhop;
	struct lanes_route_opts o = *opts;
	struct lanes_routing *r = NULL;
	struct dfdn_result res;
	int rc;

	*out = NULL;
	o.params = NULL;
	if ((rc = e->route(f, &o, &r, err)))
		goto out;
	if ((rc = lanes_dfdn_assign(f, r, opts, &res, err)) ||
	    (rc = check_budget(name, &res, opts, err)) ||
	    (rc = set_notes(r, name, base, &res, err)))
		goto out;
	*out = r;
	r = NULL;
out:
	lanes_routing_free(r);
	return rc;
}

static int route_dfdn(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		      struct lanes_routing **out, struct lanes_error *err)
{
	enum dfdn_base base;
	int rc;

	*out = NULL;
	if ((rc = parse_params(opts->params, &base, err)))
		return rc;
	return route_with("dfdn", base, f, opts, out, err);
}

static int route_sssp_df(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
			 struct lanes_routing **out, struct lanes_error *err)
{
	return route_with("sssp-df", BASE_SSSP, f, opts, out, err);
}

static int route_minhop_df(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
			   struct lanes_routing **out, struct lanes_error *err)
{
	return route_with("minhop-df", BASE_MINHOP, f, opts, out, err);
}

#define DFDN_FLAGS                                                                          \
	(LANES_ENGINE_DEADLOCK_FREE | LANES_ENGINE_USES_SLS | LANES_ENGINE_USES_VLS)
#define DFDN_SOURCE                                                                         \
	"Schneider, Bibartiu, Hoefler, HOTI 2016 (VL hopping); Maglione-Mathey et al., "   \
	"JPDC, Sec. 2.3 (DF-DN, SSSP-DF, MINHOP-DF)"

const struct lanes_engine lanes_engine_dfdn = {
	.name = "dfdn",
	.summary = "DF-DN: base LFTs (sssp or minhop), VL raised by one at every switch hop",
	.scope = "low diameter",
	.resources = "diameter VLs, first-fit SLs",
	.source = DFDN_SOURCE,
	.flags = DFDN_FLAGS,
	.params_usage = "base=sssp|minhop",
	.route = route_dfdn,
};

const struct lanes_engine lanes_engine_sssp_df = {
	.name = "sssp-df",
	.summary = "DF-DN on sssp's LFTs: VL raised by one at every switch hop",
	.scope = "low diameter",
	.resources = "diameter VLs, first-fit SLs",
	.source = DFDN_SOURCE,
	.flags = DFDN_FLAGS,
	.route = route_sssp_df,
};

const struct lanes_engine lanes_engine_minhop_df = {
	.name = "minhop-df",
	.summary = "DF-DN on minhop's LFTs: VL raised by one at every switch hop",
	.scope = "low diameter",
	.resources = "diameter VLs, first-fit SLs",
	.source = DFDN_SOURCE,
	.flags = DFDN_FLAGS,
	.route = route_minhop_df,
};
