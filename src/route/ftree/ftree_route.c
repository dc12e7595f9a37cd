/*
 * ftree_route.c - the routing of the fat-tree engine (ftree.c gives the
 * algorithm), OpenSM 3.3.23's osm_ucast_ftree.c step by step:
 * fabric_route_downgoing_by_going_up, fabric_route_upgoing_by_going_down,
 * fabric_route_to_cns, fabric_route_to_non_cns, fabric_route_to_switches.
 *
 * For one destination LID, the climb (OpenSM's downgoing) starts at the
 * switch of the destination: at each switch it first descends (upgoing)
 * into every lower switch, but the one it came from, that has no route as
 * short yet, telling it to send the LID up to here; and then goes up one of
 * its up groups: the one with the fewest routes sent down it (ties to the
 * far switch's tuple), and in it the cable with the fewest (ties to the
 * lower port). The far switch sends the LID down that cable unless it has a
 * shorter route, and the climb goes on from it. For a compute node or
 * another CA ("main path") the chosen group's and cable's counters go up by
 * one; the other up groups get the route too, uncounted (OpenSM's
 * "secondary paths", which make every switch reach every LID), and climb
 * from there. The descent takes the down groups in the order of fewest
 * routes sent up them, then the far switch's tuple, CAs last, and in each
 * the cable with the fewest; a group's counters go up when a CA lies below.
 * Leaves with fewer compute nodes than the most any leaf has route dummy
 * compute nodes for the missing ones: full routes to "LID 0" that count
 * and write no table (OpenSM 3.3.23), so every leaf loads its cables alike.
 * The hops to the current destination are kept per switch with a stamp, so
 * a new destination starts with none without clearing them.
 *
 * Two simplifications that change no table: OpenSM sorts a switch's down
 * groups only when a counter changed (sorting a sorted list by a total
 * order leaves it as it is), and its tie-break between up groups by the far
 * switch's least-loaded down group always reads 0, since only the lower end
 * of a cable counts routes down (osm_ucast_ftree.c,
 * recalculate_min_counter_down), so ties go straight to the tuple.
 *
 * Speed, without changing a table. OpenSM's descent looks at every cable
 * below every switch for every LID, so a k-ary 3-tree costs k^3 LIDs times
 * 2k^3 cables. Most of those looks find a switch that already has the
 * route: in a fat tree many switches have the same switches below them
 * ("twins": the top switches above one set of pods, the middle switches of
 * one pod), and once one twin has descended for a LID, a twin descending
 * at as many hops or more finds every switch below routed (below_routed).
 * Such a descent changes no counter, so it is skipped, and so is its sort,
 * which waits until the order is next read (down_groups): the sort is
 * stable and the counters it sorts by have not changed since, so the order
 * is the one OpenSM's eager sort gives. A sort is also skipped where it
 * would move nothing (down_in_order, checked after a descent counted
 * routes, while its groups are in the cache). A switch with only CAs below
 * likewise needs no look at its groups. Routes with reverse hops (I/O
 * nodes) take no shortcut through twins: a reverse hop climbs from a switch
 * without a route, where the argument fails. That leaves a few switches per
 * pod and per top group doing the full descent, about 2k^2 cables per LID.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "core/util.h"
#include "route/common/endports.h"
#include "route/ftree/ftree.h"

static uint8_t hops_at(const struct ftree *t, uint32_t s)
{
	return t->hops_stamp[s] == t->stamp ? t->hops[s] : FTREE_NO_HOPS;
}

/* Switch s sends lid out of port, hops from the destination. */
static void set_route(struct ftree *t, uint32_t s, uint32_t lid, uint8_t port, uint32_t hops)
{
	if (lid)
		lanes_routing_set_port(t->r, s, lid, port);
	t->hops[s] = (uint8_t)(hops < FTREE_NO_HOPS ? hops : FTREE_NO_HOPS - 1);
	t->hops_stamp[s] = t->stamp;
}

/* The first cable of g with the fewest routes up (up = 1) or down. */
static struct ftree_port *least_port(struct ftree *t, const struct ftree_group *g, int up)
{
	struct ftree_port *best = &t->ports[g->first_port];

	for (uint32_t j = 1; j < g->num_ports; j++) {
		struct ftree_port *p = &t->ports[g->first_port + j];

		if (up ? p->counter_up < best->counter_up : p->counter_down < best->counter_down)
			best = p;
	}
	return best;
}

/*
 * Down groups by routes sent up them, then the far switch's tuple, CAs last
 * (OpenSM's bubble_sort_up); a stable insertion sort.
 */
static void sort_down_groups(const struct ftree *t, uint32_t *list, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		uint32_t g = list[i], j = i;
		const struct ftree_group *a = &t->groups[g];

		for (; j > 0; j--) {
			const struct ftree_group *b = &t->groups[list[j - 1]];

			if (a->counter_up > b->counter_up ||
			    (a->counter_up == b->counter_up && a->remote_order >= b->remote_order))
				break;
			list[j] = list[j - 1];
		}
		list[j] = g;
	}
}

/* Whether sort_down_groups would leave list as it is: no group goes before the one ahead of it. */
static int down_groups_in_order(const struct ftree *t, const uint32_t *list, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		const struct ftree_group *a = &t->groups[list[i]], *b = &t->groups[list[i - 1]];

		if (a->counter_up < b->counter_up ||
		    (a->counter_up == b->counter_up && a->remote_order < b->remote_order))
			return 0;
	}
	return 1;
}

/* OpenSM's sort of s's down groups, done only where it would move a group. */
static void sort_down(struct ftree *t, uint32_t s)
{
	struct ftree_switch *w = &t->sw[s];

	if (!w->down_in_order)
		sort_down_groups(t, w->down, w->num_down);
	w->down_in_order = 1;
	w->down_sort_owed = 0;
}

/* Up groups by routes sent down them, then the far switch's tuple (OpenSM's bubble_sort_down). */
static void sort_up_groups(const struct ftree *t, uint32_t *list, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		uint32_t g = list[i], j = i;
		const struct ftree_group *a = &t->groups[g];

		for (; j > 0; j--) {
			const struct ftree_group *b = &t->groups[list[j - 1]];

			if (a->counter_down > b->counter_down ||
			    (a->counter_down == b->counter_down && a->remote_order >= b->remote_order))
				break;
			list[j] = list[j - 1];
		}
		list[j] = g;
	}
}

/* What one climb or descent routes. */
struct ftree_target {
	uint32_t lid;   /* 0 for a dummy compute node: counted, tables untouched */
	uint8_t twins;  /* no reverse hops: a twin's descent may stand for the others' */
};

/*
 * s's down groups in the order OpenSM's last descent from s sorted them:
 * a skipped descent (descend) owes its sort, made here; after a full one
 * (descend_groups) the list stays as that descent sorted it, though its
 * counters have changed since.
 */
static const uint32_t *down_groups(struct ftree *t, uint32_t s)
{
	if (t->sw[s].down_sort_owed)
		sort_down(t, s);
	return t->sw[s].down;
}

/*
 * Whether a descent from s at hops would find every switch below s with a
 * route of at most hops + 1 already: s has none below it, or a twin of s
 * (the same switches below, ftree_build.c) has descended at hops or fewer
 * for this target. Without reverse hops every switch a climb reaches has a
 * route of at most the climb's hops, so the twin's descent skipped or
 * routed each switch below, and routes only get shorter.
 */
static int below_routed(const struct ftree *t, uint32_t s, struct ftree_target tg, uint32_t hops)
{
	const struct ftree_switch *w = &t->sw[s];

	return !w->num_down_switches ||
	       (tg.twins && t->twin_stamp[w->twin_class] == t->stamp &&
		t->twin_hops[w->twin_class] <= hops);
}

static void twin_descended(struct ftree *t, uint32_t s, uint32_t hops)
{
	uint32_t c = t->sw[s].twin_class;

	if (t->twin_stamp[c] != t->stamp || t->twin_hops[c] > hops) {
		t->twin_stamp[c] = t->stamp;
		t->twin_hops[c] = hops;
	}
}

static int descend(struct ftree *t, uint32_t s, uint32_t prev, struct ftree_target tg,
		   uint32_t hops);

/* descend's work at s: its down groups, sorted; @return 1 when a CA lies below */
static int descend_groups(struct ftree *t, uint32_t s, uint32_t prev, struct ftree_target tg,
			  uint32_t hops)
{
	struct ftree_switch *w = &t->sw[s];
	int created = 0, counted = 0;

	sort_down(t, s);
	for (uint32_t k = 0; k < w->num_down; k++) {
		struct ftree_group *g = &t->groups[w->down[k]];
		struct ftree_port *p;
		uint8_t least;
		int routed;

		if (g->remote_is_ca) {
			created = 1;
			continue;
		}
		least = hops_at(t, g->remote);
		if (g->remote == prev || (least != FTREE_NO_HOPS && hops + 1 >= least))
			continue;
		p = least_port(t, g, 1);
		set_route(t, g->remote, tg.lid, p->remote_port, hops + 1);
		routed = descend(t, g->remote, LANES_NONE, tg, hops + 1);
		created |= routed;
		if (routed) {
			p->counter_up++;
			g->counter_up++;
			counted = 1;
		}
	}
	if (counted)
		w->down_in_order = down_groups_in_order(t, w->down, w->num_down);
	if (tg.twins)
		twin_descended(t, s, hops);
	return created;
}

/*
 * OpenSM's fabric_route_upgoing_by_going_down: below switch s (which routes
 * the target), every lower switch but prev without a shorter route sends it
 * up to s. When none can get one (below_routed) the groups are not looked
 * at: no counter changes, so their sort can wait until they are read.
 * @return 1 when a CA lies below (a route was made)
 */
static int descend(struct ftree *t, uint32_t s, uint32_t prev, struct ftree_target tg,
		   uint32_t hops)
{
	struct ftree_switch *w = &t->sw[s];
	int created;

	if (!w->num_down)
		return 0;
	if (below_routed(t, s, tg, hops)) {
		w->down_sort_owed = 1;
		created = w->has_ca_down;
	} else
		created = descend_groups(t, s, prev, tg, hops);
	if (created)
		w->down_start = (w->down_start + 1) % w->num_down;
	return created;
}

static int climb(struct ftree *t, uint32_t s, uint32_t prev, struct ftree_target tg, int main_path,
		 unsigned credit, uint32_t hops);

/* At a switch with no up groups: OpenSM's reverse hops down, then up again. */
static int reverse_at_root(struct ftree *t, uint32_t s, struct ftree_target tg, int main_path,
			   unsigned credit, uint32_t hops)
{
	struct ftree_switch *w = &t->sw[s];
	uint32_t i;
	int created = 0;

	if (!credit || !w->num_down)
		return 0;
	w->down_start = (w->down_start + 1) % w->num_down;
	i = w->down_start;
	for (uint32_t j = 0; j < w->num_down; j++) {
		const struct ftree_group *g = &t->groups[down_groups(t, s)[i]];

		i = (i + 1) % w->num_down;
		if (!g->remote_is_ca)
			created |= climb(t, g->remote, s, tg, main_path, credit - 1, hops + 1);
	}
	return created;
}

/* The other up groups of s (all of them off the main path) route the target down to s. */
static int climb_secondary(struct ftree *t, uint32_t s, struct ftree_target tg, int main_path,
			   unsigned credit, uint32_t hops)
{
	struct ftree_switch *w = &t->sw[s];
	int created = 0;

	for (uint32_t i = main_path ? 1 : 0; i < w->num_up; i++) {
		const struct ftree_group *g = &t->groups[w->up[i]];
		uint8_t least = hops_at(t, g->remote);

		if (least != FTREE_NO_HOPS && hops + 1 >= least)
			continue;
		set_route(t, g->remote, tg.lid, least_port(t, g, 0)->remote_port, hops + 1);
		created |= climb(t, g->remote, s, tg, 0, credit, hops + 1);
	}
	return created;
}

/*
 * OpenSM's fabric_route_downgoing_by_going_up at switch s, which routes the
 * target (prev: the switch below it came from, or LANES_NONE).
 */
static int climb(struct ftree *t, uint32_t s, uint32_t prev, struct ftree_target tg, int main_path,
		 unsigned credit, uint32_t hops)
{
	struct ftree_switch *w = &t->sw[s];
	struct ftree_group *g;
	struct ftree_port *p;
	int created = descend(t, s, prev, tg, hops);

	if (!w->num_up)
		return created | reverse_at_root(t, s, tg, main_path, credit, hops);
	sort_up_groups(t, w->up, w->num_up);
	g = &t->groups[w->up[0]];
	p = least_port(t, g, 0);
	if (main_path) {
		uint8_t least = hops_at(t, g->remote);

		g->counter_down++;
		p->counter_down++;
		if (least == FTREE_NO_HOPS || hops + 1 < least)
			set_route(t, g->remote, tg.lid, p->remote_port, hops + 1);
		created |= climb(t, g->remote, s, tg, main_path, credit, hops + 1);
	}
	created |= climb_secondary(t, s, tg, main_path, credit, hops);
	if (!credit || w->is_leaf)
		return created;
	for (uint32_t i = 0; i < w->num_down; i++) {
		g = &t->groups[down_groups(t, s)[i]];
		if (!g->remote_is_ca)
			created |= climb(t, g->remote, s, tg, 1, credit - 1, hops + 1);
	}
	return created;
}

/* A new destination: no switch has hops to it yet. */
static void next_target(struct ftree *t)
{
	if (++t->stamp == 0) {
		memset(t->hops_stamp, 0, sizeof(uint32_t) * (t->f->num_switches + 1));
		memset(t->twin_stamp, 0, sizeof(uint32_t) * (t->f->num_switches + 1));
		t->stamp = 1;
	}
}

/* The CA port behind lid (cas[] entry), or NULL. */
static struct ftree_ca_port *ca_of_lid(struct ftree *t, const uint32_t *ca_at_lid, uint32_t lid)
{
	return lid <= t->f->max_lid && ca_at_lid[lid] != LANES_NONE ? &t->cas[ca_at_lid[lid]] : NULL;
}

/* A CA LID from its switch s (port sw_port) up: counted (main) and with credit reverse hops. */
static void route_ca_lid(struct ftree *t, struct ftree_ca_port *c, uint32_t s, uint8_t sw_port,
			 unsigned credit)
{
	struct ftree_target tg = { c->lid, credit == 0 };

	next_target(t);
	set_route(t, s, c->lid, sw_port, 1);
	if (credit)
		t->reverse_hops_used = 1;
	climb(t, s, LANES_NONE, tg, 1, credit, 1);
	c->routed = 1;
}

/* OpenSM's fabric_route_to_cns: leaf by leaf, its compute nodes, then dummies. */
static void route_to_cns(struct ftree *t, const uint32_t *ca_at_lid)
{
	for (uint32_t i = 0; i < t->num_leaves; i++) {
		uint32_t s = t->leaves[i], routed = 0;
		const struct ftree_switch *w = &t->sw[s];
		struct ftree_target dummy = { 0, 1 };

		for (uint32_t j = 0; j < w->num_down; j++) {
			const struct ftree_group *g = &t->groups[down_groups(t, s)[j]];
			struct ftree_ca_port *c = ca_of_lid(t, ca_at_lid, g->remote_lid);

			if (!g->remote_is_ca || !t->node_cns[g->remote] || !c || !c->is_cn)
				continue;
			route_ca_lid(t, c, s, t->ports[g->first_port].port, 0);
			routed++;
		}
		for (; routed < t->max_cn_per_leaf; routed++) {
			next_target(t);
			set_route(t, s, 0, 0, 1);
			climb(t, s, LANES_NONE, dummy, 1, 0, 1);
		}
		lanes_progress_add(t->progress, routed);
	}
}

static int by_guid_key(const void *pa, const void *pb)
{
	const uint64_t *a = pa, *b = pb;

	return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : (a[1] > b[1]) - (a[1] < b[1]);
}

/* Nodes of one type in OpenSM's GUID map order (network-order GUID keys). */
static uint32_t *nodes_in_osm_order(const struct lanes_fabric *f, int type, uint32_t *count)
{
	uint64_t *k = malloc(sizeof(uint64_t) * 2 * ((size_t)f->num_nodes + 1));
	uint32_t *out = malloc(sizeof(uint32_t) * ((size_t)f->num_nodes + 1)), n = 0;

	if (k && out) {
		for (uint32_t i = 0; i < f->num_nodes; i++)
			if (f->nodes[i].type == type) {
				k[2 * n] = lanes_route_osm_guid_key(f->nodes[i].guid);
				k[2 * n++ + 1] = i;
			}
		qsort(k, n, 2 * sizeof(uint64_t), by_guid_key);
		for (uint32_t i = 0; i < n; i++)
			out[i] = (uint32_t)k[2 * i + 1];
	}
	free(k);
	if (!k) {
		free(out);
		return NULL;
	}
	*count = n;
	return out;
}

/*
 * OpenSM's fabric_route_to_non_cns: CA by CA in GUID map order, port by
 * port, every CA port that is not a compute node; an I/O node gets
 * max_reverse_hops.
 */
static void route_to_non_cns(struct ftree *t, const uint32_t *cas_in_order, uint32_t num_nodes,
			     const uint32_t *node_first_ca)
{
	for (uint32_t i = 0; i < num_nodes; i++) {
		uint32_t node = cas_in_order[i];

		for (uint32_t k = node_first_ca[node]; k < t->num_cas && t->cas[k].node == node; k++) {
			struct ftree_ca_port *c = &t->cas[k];

			if (c->is_cn || c->routed)
				continue;
			route_ca_lid(t, c, c->sw, c->sw_port, c->is_io ? t->max_reverse_hops : 0);
			lanes_progress_add(t->progress, 1);
		}
	}
}

/* OpenSM's fabric_route_to_switches: each switch's LID, uncounted, from it up. */
static void route_to_switches(struct ftree *t, const uint32_t *sws, uint32_t n, int switch_lids)
{
	struct ftree_target tg = { 0, 1 };

	for (uint32_t i = 0; i < n; i++) {
		uint32_t s = t->f->nodes[sws[i]].switch_index;

		tg.lid = t->sw[s].lid;
		if (!tg.lid)
			continue;
		next_target(t);
		set_route(t, s, tg.lid, 0, 0);
		if (switch_lids)
			climb(t, s, LANES_NONE, tg, 0, 0, 0);
		lanes_progress_add(t->progress, 1);
	}
}

/* The units of progress: the leaves' compute-node slots, the other CA ports, the switch LIDs. */
static uint64_t targets(const struct ftree *t)
{
	uint64_t n = (uint64_t)t->num_leaves * t->max_cn_per_leaf;

	for (uint32_t k = 0; k < t->num_cas; k++)
		n += !t->cas[k].is_cn;
	for (uint32_t s = 0; s < t->f->num_switches; s++)
		n += t->sw[s].lid != 0;
	return n;
}

int lanes_ftree_route_all(struct ftree *t, int switch_lids, struct lanes_error *err)
{
	const struct lanes_fabric *f = t->f;
	uint32_t *ca_at_lid = malloc(sizeof(uint32_t) * ((size_t)f->max_lid + 1));
	uint32_t *node_first_ca = malloc(sizeof(uint32_t) * ((size_t)f->num_nodes + 1));
	uint32_t ncas = 0, nsws = 0, *cas_in_order = NULL, *sws = NULL;
	int rc = 0;

	cas_in_order = nodes_in_osm_order(f, LANES_NODE_CA, &ncas);
	sws = nodes_in_osm_order(f, LANES_NODE_SWITCH, &nsws);
	if (!ca_at_lid || !node_first_ca || !cas_in_order || !sws) {
		rc = lanes_error_oom(err);
		goto out;
	}
	for (uint32_t l = 0; l <= f->max_lid; l++)
		ca_at_lid[l] = LANES_NONE;
	for (uint32_t n = 0; n <= f->num_nodes; n++)
		node_first_ca[n] = t->num_cas;
	for (uint32_t k = t->num_cas; k-- > 0;) {
		ca_at_lid[t->cas[k].lid] = k;
		node_first_ca[t->cas[k].node] = k;
	}
	lanes_progress_phase(t->progress, "routing", targets(t));
	route_to_cns(t, ca_at_lid);
	route_to_non_cns(t, cas_in_order, ncas, node_first_ca);
	route_to_switches(t, sws, nsws, switch_lids);
out:
	free(ca_at_lid);
	free(node_first_ca);
	free(cas_in_order);
	free(sws);
	return rc;
}
