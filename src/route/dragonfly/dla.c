/*
 * dla.c - DLA, the deterministic minimal routing of Kim and Dally for
 * dragonflies ("Technology-driven, highly-scalable dragonfly topology",
 * ISCA 2008), as Maglione-Mathey, Escudero-Sahuquillo, Garcia, Quiles and
 * Zahavi configure it through InfiniBand's tables: "Leveraging InfiniBand
 * controller to configure deadlock-free routing engines for Dragonflies",
 * Journal of Parallel and Distributed Computing (2021), Secs. 2.1.1, 3, 4.
 *
 * The algorithm (Sec. 2.1.1, Fig. 4). A packet from switch S_s of group G_s
 * to switch S_d of group G_d goes: if G_s != G_d and S_s has no global
 * cable to G_d, to the switch S_i of G_s that has one (a local hop); over
 * that global cable into G_d; then, if it did not land on S_d, to S_d (a
 * local hop). At most local, global, local: minimal in global hops, and in
 * a fully connected dragonfly at most three switch hops. Inside a group it
 * is one local hop.
 *
 * Deadlock freedom (Sec. 4, Fig. 8). Kim and Dally shift the virtual
 * channel after the global hop. InfiniBand cannot count hops, but the
 * SL2VL map of a switch is chosen per (in port, out port), and a packet
 * that enters by a global port and leaves by a local one is exactly a
 * packet on its last, local hop after the global one: that map sends every
 * SL to VL 1, every other map (and every CA's injection map) to VL 0. One
 * SL, 2 VLs. VL 0 then carries local hops before a global one and global
 * hops, whose dependencies only go from local to global; VL 1 carries the
 * last local hops, which lead only to CAs: no cycle.
 *
 * What it needs (Sec. 3): the in-port trick holds only when a packet takes
 * at most one local hop after the global one, so every group must be fully
 * connected (a cable between every two of its switches), and so must the
 * inter-group network (a global cable between every two groups). The groups
 * come from a bare fabric (lanes_recognize_dragonfly: closed
 * neighbourhoods, Sec. 4 step 1). A fabric the recogniser does not take is
 * refused with its reason; a group without a cable between two of its
 * switches, or two groups without a global cable, are refused by name
 * (dragonfly.c). Fewer than 2 VLs in the budget: refused, naming 2 VLs.
 *
 * Where the paper is silent, this engine decides (dragonfly.h, _lft.c):
 * - Several global cables between two groups (g < a*h + 1), or several
 *   from one switch to the destination group: a switch with its own cables
 *   to G_d takes one of them (Fig. 4's first test); the others go to the
 *   exit switch of one of their group's cables to G_d. Which of several is
 *   picked by the destination LID's rank among the LIDs of G_d (in LID
 *   order), modulo the number of candidates, so a group's LIDs spread
 *   evenly over the cables and all switches of a group agree on one LID's
 *   exit. Parallel local cables: the lowest port.
 * - LMC > 0: every LID of a port is a destination of its own, with its own
 *   rank, so with several cables between two groups the LIDs of one port
 *   leave by different cables; with one cable they share the path.
 * - Switch LIDs (opts->switch_lids): routed like a CA on that switch, ending
 *   on port 0; without them a switch keeps only its own LIDs, on port 0.
 *   Traffic that starts at a switch enters by port 0 and gets VL 0 like a
 *   CA's, so the routing stays deadlock-free for switch traffic too.
 * - The SL2VL maps follow Fig. 8 on every port pair of every switch,
 *   whether or not a route uses it, on VL 0 and 1 for all 16 SLs; path SL 0.
 *
 * On balanced fully connected dragonflies (a = 2p = 2h, g = a*h + 1) the
 * flows per channel are the paper's formulas (1)-(3): N - 1 on a terminal
 * channel, (ap)^2 on a global one, p^2 + 2ahp^2 on a local one, of which
 * ahp^2 (from other groups) on VL 1 (tests/unit/test_dla.c counts them).
 */
#include <string.h>

#include "route/common/layers.h"
#include "route/dragonfly/dragonfly.h"
#include "route/engines.h"
#include "core/util.h"

/* Fig. 8 on every switch: a global in port and a local out port map every SL to VL 1. */
static int set_sl2vl(const struct dragonfly *d, struct lanes_routing *r, struct lanes_error *err)
{
	const struct lanes_fabric *f = d->f;
	uint8_t to_vl1[LANES_NUM_SLS];
	uint16_t vl1;
	int rc;

	memset(to_vl1, 1, sizeof(to_vl1));
	if ((rc = lanes_routing_enable_sl2vl(r, f, err)) ||
	    (rc = lanes_routing_add_map(r, to_vl1, &vl1, err)))
		return rc;
	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint8_t nports = f->nodes[f->switches[s]].nports;

		for (uint8_t in = 1; in <= nports; in++) {
			if (dragonfly_port_kind_of(d, s, in) != DRAGONFLY_PORT_GLOBAL)
				continue;
			for (uint8_t out = 1; out <= nports; out++)
				if (dragonfly_port_kind_of(d, s, out) == DRAGONFLY_PORT_LOCAL)
					lanes_routing_set_switch_map(r, f, s, in, out, vl1);
		}
	}
	return 0;
}

static int set_notes(const struct dragonfly *d, struct lanes_routing *r, struct lanes_error *err)
{
	r->notes = lanes_aprintf("dla: Kim-Dally minimal routing (Maglione-Mathey et al., JPDC "
				 "2021, Fig. 4 and 8) on %u groups; 1 SL, VL 1 on a local hop "
				 "after a global one",
				 d->num_groups);
	return r->notes ? 0 : lanes_error_oom(err);
}

static int route(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct lanes_routing **out, struct lanes_error *err)
{
	struct dragonfly d;
	struct lanes_routing *r = NULL;
	int rc;

	*out = NULL;
	memset(&d, 0, sizeof(d));
	/* the structure first: a fabric that is no dragonfly says so whatever the budget */
	if ((rc = lanes_dragonfly_build(&d, f, "dla", DRAGONFLY_GROUPS_COMPLETE, err)) ||
	    (opts->max_vls < 2 && (rc = lanes_route_over_budget(err, "dla", 2, 2, opts))) ||
	    (rc = lanes_dragonfly_route_lfts(&d, opts, 0, &r, err)) ||
	    (rc = set_sl2vl(&d, r, err)) || (rc = set_notes(&d, r, err)))
		goto out;
	lanes_routing_count_resources(r);
	*out = r;
	r = NULL;
out:
	lanes_routing_free(r);
	lanes_dragonfly_free(&d);
	return rc;
}

const struct lanes_engine lanes_engine_dla = {
	.name = "dla",
	.summary = "Kim-Dally minimal dragonfly routing, VL 1 after a global hop by SL2VL (Fig. 8)",
	.scope = "dragonflies with fully connected groups and inter-group network",
	.resources = "1 SL, 2 VLs",
	.source = "Maglione-Mathey et al., JPDC 2021, Secs. 2.1.1, 3, 4 (Fig. 4, Fig. 8); "
		  "Kim, Dally, Scott, Abts, ISCA 2008",
	.flags = LANES_ENGINE_DEADLOCK_FREE | LANES_ENGINE_USES_VLS,
	.check = NULL,
	.route = route,
};
