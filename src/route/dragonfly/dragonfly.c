/*
 * dragonfly.c - the groups of a dragonfly and the tables dla and d3r route
 * from (dragonfly.h says what they hold).
 *
 * 1. Groups: lanes_recognize_dragonfly() (closed neighbourhoods, Maglione-
 *    Mathey et al., JPDC 2021, Sec. 4); its reason for a fabric that is no
 *    dragonfly is passed on after the engine's name.
 * 2. Ports: every switch port as terminal (a CA or router), local (a switch
 *    of its group) or global (a switch of another group).
 * 3. Full connectivity between the groups: every group must have a global
 *    cable to every other (both papers assume a fully connected inter-group
 *    network); the first pair without one is named. This runs before any
 *    table of num_groups^2 entries is made, which it then bounds: g groups
 *    with a cable between every two have at least g(g-1) global ports.
 * 4. Inside the groups: complete (dla, Sec. 3 of the JPDC paper: a cable
 *    between every two switches) or connected (d3r), naming two switches
 *    that have no cable, or no path inside their group.
 * 5. Tables: the first hop toward every member of a switch's group (a
 *    breadth-first search inside the group from every member; the lowest
 *    port among those one hop closer), the global cables between every two
 *    groups, each switch's own cables to each group, and per LID the
 *    switch where it ends, its port there and its rank in its group.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanes/recognize.h"
#include "route/dragonfly/dragonfly.h"
#include "core/util.h"

const char *lanes_dragonfly_switch_label(const struct lanes_fabric *f, uint32_t sw, char *buf,
				   size_t size)
{
	const struct lanes_node *n = &f->nodes[f->switches[sw]];

	if (n->desc[0])
		snprintf(buf, size, "\"%s\"", n->desc);
	else
		snprintf(buf, size, "0x%016llx", (unsigned long long)n->guid);
	return buf;
}

/* ------------------------------------------------------------ groups and ports */

/* The recogniser's groups, or its reason after the engine's name. */
static int recognise(struct dragonfly *d, struct lanes_error *err)
{
	struct lanes_structure s;
	struct lanes_error why;
	int rc;

	memset(&why, 0, sizeof(why));
	rc = lanes_recognize_dragonfly(d->f, &s, &why);
	if (rc == LANES_ENOMEM)
		return lanes_error_oom(err);
	if (rc)
		return lanes_error_set(err, rc == LANES_EINVAL ? LANES_EREFUSED : rc, "%s: %s",
				       d->engine, why.message);
	d->num_groups = s.num_groups;
	d->group_of = s.group; /* taken over */
	s.group = NULL;
	lanes_structure_free(&s);
	return 0;
}

/* Members of every group in switch order, each switch's position, the largest group. */
static int index_groups(struct dragonfly *d, struct lanes_error *err)
{
	uint32_t ns = d->f->num_switches, g = d->num_groups, *next;

	d->group_first = calloc((size_t)g + 1, sizeof(uint32_t));
	d->group_members = malloc(sizeof(uint32_t) * ns);
	d->position = malloc(sizeof(uint32_t) * ns);
	if (!d->group_first || !d->group_members || !d->position)
		return lanes_error_oom(err);
	for (uint32_t s = 0; s < ns; s++)
		d->group_first[d->group_of[s] + 1]++;
	for (uint32_t x = 0; x < g; x++) {
		uint32_t size = d->group_first[x + 1];

		if (size > d->largest_group)
			d->largest_group = size;
		d->group_first[x + 1] += d->group_first[x];
	}
	next = malloc(sizeof(uint32_t) * ((size_t)g + 1));
	if (!next)
		return lanes_error_oom(err);
	memcpy(next, d->group_first, sizeof(uint32_t) * ((size_t)g + 1));
	for (uint32_t s = 0; s < ns; s++) { /* groups interleave in switch order on real files */
		uint32_t x = d->group_of[s];

		d->position[s] = next[x] - d->group_first[x];
		d->group_members[next[x]++] = s;
	}
	free(next);
	return 0;
}

/* Every switch port: terminal, local, global or none. */
static int classify_ports(struct dragonfly *d, struct lanes_error *err)
{
	const struct lanes_fabric *f = d->f;

	d->port_kind = calloc((size_t)f->num_port_slots + 1, 1);
	if (!d->port_kind)
		return lanes_error_oom(err);
	for (uint32_t s = 0; s < f->num_switches; s++) {
		const struct lanes_node *n = &f->nodes[f->switches[s]];

		for (uint8_t p = 1; p <= n->nports; p++) {
			const struct lanes_port *pp = lanes_fabric_port(f, f->switches[s], p);
			uint32_t peer = pp->peer_node;

			if (peer == LANES_NONE || peer == f->switches[s])
				continue;
			if (f->nodes[peer].type != LANES_NODE_SWITCH)
				d->port_kind[n->port_base + p] = DRAGONFLY_PORT_TERMINAL;
			else if (d->group_of[f->nodes[peer].switch_index] == d->group_of[s])
				d->port_kind[n->port_base + p] = DRAGONFLY_PORT_LOCAL;
			else
				d->port_kind[n->port_base + p] = DRAGONFLY_PORT_GLOBAL;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ full connectivity */

/* How many groups group x has a global cable to; partner_seen[y] = x + 1 for each. */
static uint32_t mark_partners(const struct dragonfly *d, uint32_t x, uint32_t *partner_seen)
{
	const struct lanes_fabric *f = d->f;
	uint32_t partners = 0;

	for (uint32_t i = d->group_first[x]; i < d->group_first[x + 1]; i++) {
		uint32_t s = d->group_members[i];

		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++) {
			uint32_t y = d->group_of[f->adj[e].sw];

			if (y != x && partner_seen[y] != x + 1) {
				partner_seen[y] = x + 1;
				partners++;
			}
		}
	}
	return partners;
}

/* A global cable between every two groups, or the first pair without one. */
static int check_global_pairs(const struct dragonfly *d, struct lanes_error *err)
{
	uint32_t g = d->num_groups, *partner_seen = calloc(g, sizeof(uint32_t));
	int rc = 0;

	if (!partner_seen)
		return lanes_error_oom(err);
	for (uint32_t x = 0; x < g && !rc; x++) {
		if (mark_partners(d, x, partner_seen) == g - 1)
			continue;
		for (uint32_t y = 0; y < g; y++)
			if (y != x && partner_seen[y] != x + 1) {
				rc = lanes_error_set(err, LANES_EREFUSED,
						     "%s: groups %u and %u have no global cable",
						     d->engine, x < y ? x : y, x < y ? y : x);
				break;
			}
	}
	free(partner_seen);
	return rc;
}

/* ------------------------------------------------------------ inside the groups */

/*
 * Breadth-first search inside target's group from target: dist[position] in
 * local hops (UINT32_MAX unreached); queue has room for the group.
 */
static void search_group(const struct dragonfly *d, uint32_t target, uint32_t *dist,
			     uint32_t *queue)
{
	const struct lanes_fabric *f = d->f;
	uint32_t x = d->group_of[target], first = d->group_first[x];
	uint32_t size = d->group_first[x + 1] - first, head = 0, tail = 0;

	for (uint32_t i = 0; i < size; i++)
		dist[i] = UINT32_MAX;
	dist[d->position[target]] = 0;
	queue[tail++] = target;
	while (head < tail) {
		uint32_t u = queue[head++];

		for (uint32_t e = f->adj_off[u]; e < f->adj_off[u + 1]; e++) {
			uint32_t v = f->adj[e].sw;

			if (d->group_of[v] == x && dist[d->position[v]] == UINT32_MAX) {
				dist[d->position[v]] = dist[d->position[u]] + 1;
				queue[tail++] = v;
			}
		}
	}
}

/* toward_member of every member of target's group toward target, from dist. */
static void set_first_hops(struct dragonfly *d, uint32_t target, const uint32_t *dist)
{
	const struct lanes_fabric *f = d->f;
	uint32_t x = d->group_of[target], to = d->position[target];

	for (uint32_t i = d->group_first[x]; i < d->group_first[x + 1]; i++) {
		uint32_t u = d->group_members[i], du = dist[d->position[u]];
		uint8_t port = du == UINT32_MAX ? LANES_PORT_DROP : 0;

		for (uint32_t e = f->adj_off[u]; du != UINT32_MAX && du && e < f->adj_off[u + 1];
		     e++) {
			uint32_t v = f->adj[e].sw;

			if (d->group_of[v] == x && dist[d->position[v]] + 1 == du &&
			    (!port || f->adj[e].port < port))
				port = f->adj[e].port;
		}
		d->toward_member[(size_t)u * d->largest_group + to] = port;
	}
}

/* Two members of a group without a path inside it, and two more than a hop apart. */
struct group_gaps {
	uint32_t unreached_from, unreached_to; /* LANES_NONE: every member reaches every other */
	uint32_t uncabled_from, uncabled_to;   /* LANES_NONE: a cable between every two */
};

/* toward_member inside group x, and its gaps. */
static void route_inside_group(struct dragonfly *d, uint32_t x, uint32_t *dist, uint32_t *queue,
			       struct group_gaps *gaps)
{
	uint32_t first = d->group_first[x], end = d->group_first[x + 1];

	gaps->unreached_from = gaps->unreached_to = LANES_NONE;
	gaps->uncabled_from = gaps->uncabled_to = LANES_NONE;
	for (uint32_t i = first; i < end; i++) {
		uint32_t t = d->group_members[i];

		search_group(d, t, dist, queue);
		set_first_hops(d, t, dist);
		for (uint32_t j = first; j < end; j++) {
			uint32_t u = d->group_members[j], du = dist[j - first];

			if (du == UINT32_MAX && gaps->unreached_from == LANES_NONE) {
				gaps->unreached_from = t;
				gaps->unreached_to = u;
			} else if (du != UINT32_MAX && du > 1 &&
				   gaps->uncabled_from == LANES_NONE) {
				gaps->uncabled_from = t;
				gaps->uncabled_to = u;
			}
		}
	}
}

/* The refusal of a group with gaps, where the engine cannot take them; 0 where it can. */
static int group_refusal(const struct dragonfly *d, uint32_t x, const struct group_gaps *gaps,
			 int groups_needed, struct lanes_error *err)
{
	int unreached = gaps->unreached_from != LANES_NONE;
	char la[160], lb[160];

	if (!unreached && (gaps->uncabled_from == LANES_NONE ||
			   groups_needed != DRAGONFLY_GROUPS_COMPLETE))
		return 0;
	lanes_dragonfly_switch_label(d->f, unreached ? gaps->unreached_from : gaps->uncabled_from,
				     la, sizeof(la));
	lanes_dragonfly_switch_label(d->f, unreached ? gaps->unreached_to : gaps->uncabled_to, lb,
				     sizeof(lb));
	if (unreached)
		return lanes_error_set(err, LANES_EREFUSED,
				       "%s: group %u is not connected: switches %s and %s have no "
				       "path inside it",
				       d->engine, x, la, lb);
	return lanes_error_set(err, LANES_EREFUSED,
			       "%s: group %u is not fully connected: switches %s and %s have no "
			       "cable",
			       d->engine, x, la, lb);
}

/* toward_member for every group; refuse a group the engine cannot take. */
static int route_inside_groups(struct dragonfly *d, int groups_needed, struct lanes_error *err)
{
	uint32_t *dist = malloc(sizeof(uint32_t) * ((size_t)d->largest_group + 1));
	uint32_t *queue = malloc(sizeof(uint32_t) * ((size_t)d->largest_group + 1));
	struct group_gaps gaps;
	int rc = 0;

	d->toward_member = malloc((size_t)d->f->num_switches * d->largest_group + 1);
	if (!dist || !queue || !d->toward_member) {
		rc = lanes_error_oom(err);
		goto out;
	}
	d->groups_complete = 1;
	for (uint32_t x = 0; x < d->num_groups && !rc; x++) {
		route_inside_group(d, x, dist, queue, &gaps);
		if (gaps.uncabled_from != LANES_NONE)
			d->groups_complete = 0;
		rc = group_refusal(d, x, &gaps, groups_needed, err);
	}
out:
	free(dist);
	free(queue);
	return rc;
}

/* ------------------------------------------------------------ cables and LIDs */

/* Count (pass 0) or list (pass 1) the global cables, and each switch's own ones. */
static void list_cables(struct dragonfly *d, int pass, uint32_t *next)
{
	const struct lanes_fabric *f = d->f;
	uint32_t g = d->num_groups, ns = f->num_switches;

	for (uint32_t s = 0; s < ns; s++)
		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++) {
			uint32_t x = d->group_of[s], y = d->group_of[f->adj[e].sw];
			size_t own = (size_t)y * ns + s;

			if (x == y)
				continue;
			if (pass == 0) {
				d->cables_first[(size_t)x * g + y + 1]++;
				continue;
			}
			d->cables[next[(size_t)x * g + y]++] =
				(struct dragonfly_cable){ s, f->adj[e].sw, f->adj[e].port };
			if (!d->cables_to_group[own])
				d->first_port_to_group[own] = f->adj[e].port;
			if (d->cables_to_group[own] < 255)
				d->cables_to_group[own]++;
		}
}

/* The global cables between every two groups, and each switch's own to each group. */
static int index_cables(struct dragonfly *d, struct lanes_error *err)
{
	size_t pairs = (size_t)d->num_groups * d->num_groups;
	size_t own = (size_t)d->num_groups * d->f->num_switches;
	uint32_t *next = NULL;
	int rc = 0;

	d->cables_first = calloc(pairs + 1, sizeof(uint32_t));
	d->first_port_to_group = calloc(own + 1, 1);
	d->cables_to_group = calloc(own + 1, 1);
	next = malloc(sizeof(uint32_t) * (pairs + 1));
	if (!d->cables_first || !d->first_port_to_group || !d->cables_to_group || !next) {
		rc = lanes_error_oom(err);
		goto out;
	}
	list_cables(d, 0, NULL);
	for (size_t i = 0; i < pairs; i++)
		d->cables_first[i + 1] += d->cables_first[i];
	memcpy(next, d->cables_first, sizeof(uint32_t) * (pairs + 1));
	d->cables = malloc(sizeof(*d->cables) * ((size_t)d->cables_first[pairs] + 1));
	if (!d->cables) {
		rc = lanes_error_oom(err);
		goto out;
	}
	list_cables(d, 1, next);
out:
	free(next);
	return rc;
}

/* Per LID: the switch where it ends, its port there, its rank among its group's LIDs. */
static int index_lids(struct dragonfly *d, struct lanes_error *err)
{
	const struct lanes_fabric *f = d->f;
	size_t lids = (size_t)f->max_lid + 1;
	uint32_t *count = calloc((size_t)d->num_groups + 1, sizeof(uint32_t));

	d->lid_switch = malloc(sizeof(uint32_t) * lids);
	d->lid_port = malloc(lids);
	d->lid_rank = malloc(sizeof(uint32_t) * lids);
	if (!count || !d->lid_switch || !d->lid_port || !d->lid_rank) {
		free(count);
		return lanes_error_oom(err);
	}
	for (uint32_t lid = 0; lid < lids; lid++) {
		uint32_t sw = lid ? lanes_fabric_lid_switch_port(f, lid, &d->lid_port[lid]) : LANES_NONE;

		d->lid_switch[lid] = sw;
		d->lid_rank[lid] = sw == LANES_NONE ? 0 : count[d->group_of[sw]]++;
	}
	d->lid_port[0] = 0;
	free(count);
	return 0;
}

/* ------------------------------------------------------------ all of it */

int lanes_dragonfly_build(struct dragonfly *d, const struct lanes_fabric *f, const char *engine,
		    int groups_needed, struct lanes_error *err)
{
	int rc;

	memset(d, 0, sizeof(*d));
	d->f = f;
	d->engine = engine;
	if ((rc = recognise(d, err)) || (rc = index_groups(d, err)) ||
	    (rc = classify_ports(d, err)) || (rc = check_global_pairs(d, err)) ||
	    (rc = route_inside_groups(d, groups_needed, err)) || (rc = index_cables(d, err)) ||
	    (rc = index_lids(d, err)))
		lanes_dragonfly_free(d);
	return rc;
}

void lanes_dragonfly_free(struct dragonfly *d)
{
	free(d->group_of);
	free(d->group_first);
	free(d->group_members);
	free(d->position);
	free(d->port_kind);
	free(d->toward_member);
	free(d->cables_first);
	free(d->cables);
	free(d->first_port_to_group);
	free(d->cables_to_group);
	free(d->lid_switch);
	free(d->lid_port);
	free(d->lid_rank);
	memset(d, 0, sizeof(*d));
}
