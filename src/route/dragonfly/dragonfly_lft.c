/*
 * dragonfly_lft.c - the minimal local-global-local forwarding tables of the
 * dragonfly engines (dragonfly.h gives the rule: Fig. 4 of Maglione-Mathey
 * et al., JPDC 2021, after Kim, Dally, Scott and Abts, ISCA 2008).
 *
 * One LID at a time, one LFT column: first the exit of every group toward
 * the LID's group (the cable its rank picks among the group's cables to that
 * group, among those that land on the LID's switch if any do; inside the
 * LID's own group, the LID's switch), then every switch: one of its own
 * cables to the LID's group if it has any (picked the same way when it has
 * several), else the first hop toward its group's exit.
 * With one cable between two groups (g = a*h + 1) no rank matters and this
 * is Fig. 4 word for word. The LIDs are split into equal runs, one per
 * worker (opts->threads); a column depends on nothing but its LID, so the
 * tables are the same for any number of workers.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "core/parallel.h"
#include "route/common/layers.h"
#include "route/common/tables.h"
#include "route/dragonfly/dragonfly.h"
#include "core/util.h"

struct lft_fill {
	const struct dragonfly *d;
	const struct lanes_route_opts *opts;
	struct lanes_routing *r;
	int sls_by_group_order;
};
struct lft_worker {
	const struct lft_fill *fill;
	uint32_t first_lid, end_lid;
	uint32_t *exit_position; /* per group: the position of its exit switch for this LID */
	uint32_t *landing_seen;  /* per group: the LID + 1 whose exit lands on its switch */
	char apart[LANES_FALSE_SHARING_GAP];
};


/* The candidate `rank` picks among n, counted from 0. */
static uint32_t pick(uint32_t rank, uint32_t n)
{
	return n > 1 ? rank % n : 0;
}

/* Group x's exit toward t is one of t's own global cables from x: the one rank picks. */
static void exit_by_landing(const struct dragonfly *d, uint32_t t, uint32_t x, uint32_t rank,
			    uint32_t *exit_position)
{
	const struct lanes_fabric *f = d->f;
	uint32_t n = 0, k;

	for (uint32_t e = f->adj_off[t]; e < f->adj_off[t + 1]; e++)
		n += d->group_of[f->adj[e].sw] == x;
	k = pick(rank, n);
	for (uint32_t e = f->adj_off[t]; e < f->adj_off[t + 1]; e++)
		if (d->group_of[f->adj[e].sw] == x && k-- == 0) {
			exit_position[x] = d->position[f->adj[e].sw];
			return;
		}
}

/*
 * exit_position of every group toward a LID of group y, of that rank, that
 * ends at switch t: by rank among the group's cables to y, unless some land
 * on t (t's own global cables): then by rank among those. landing_seen and
 * stamp mark the groups done that way.
 */
static void choose_exits(const struct dragonfly *d, uint32_t y, uint32_t t, uint32_t rank,
			 uint32_t *exit_position, uint32_t *landing_seen, uint32_t stamp)
{
	const struct lanes_fabric *f = d->f;
	uint32_t g = d->num_groups;

	for (uint32_t x = 0; x < g; x++) {
		const uint32_t *first = d->cables_first + (size_t)x * g + y;

		if (x == y)
			exit_position[x] = d->position[t];
		else
			exit_position[x] = d->position[d->cables[first[0] +
							       pick(rank, first[1] - first[0])].sw];
	}
	for (uint32_t e = f->adj_off[t]; e < f->adj_off[t + 1]; e++) {
		uint32_t x = d->group_of[f->adj[e].sw];

		if (x != y && landing_seen[x] != stamp) {
			landing_seen[x] = stamp;
			exit_by_landing(d, t, x, rank, exit_position);
		}
	}
}

/* Switch s (of group x) has n > 1 cables to group y: those landing on t first, by rank. */
static uint8_t pick_own_cable(const struct dragonfly *d, uint32_t s, uint32_t x, uint32_t y,
			      uint32_t t, uint32_t rank, uint32_t n)
{
	const uint32_t *first = d->cables_first + (size_t)x * d->num_groups + y;
	const struct dragonfly_cable *own = d->cables + first[0];
	uint32_t landing = 0, k;

	while (own->sw != s) /* s's cables are consecutive in the pair's list */
		own++;
	for (uint32_t i = 0; i < n; i++)
		landing += own[i].far_sw == t;
	k = pick(rank, landing ? landing : n);
	for (uint32_t i = 0; i < n; i++)
		if ((!landing || own[i].far_sw == t) && k-- == 0)
			return own[i].port;
	return own[0].port; /* not reached */
}

/* The ports of group x's switches toward a LID of group y and that rank. */
static void fill_group(const struct dragonfly *d, uint32_t x, uint32_t y, uint32_t t,
		       uint32_t rank, uint32_t exit_position, uint8_t *column)
{
	uint32_t ns = d->f->num_switches;
	const uint8_t *first_port_to_group = d->first_port_to_group + (size_t)y * ns;
	const uint8_t *cables_to_group = d->cables_to_group + (size_t)y * ns;

	for (uint32_t i = d->group_first[x]; i < d->group_first[x + 1]; i++) {
		uint32_t s = d->group_members[i];

		if (cables_to_group[s] == 0)
			column[s] = d->toward_member[(size_t)s * d->largest_group + exit_position];
		else if (cables_to_group[s] == 1)
			column[s] = first_port_to_group[s];
		else
			column[s] = pick_own_cable(d, s, x, y, t, rank, cables_to_group[s]);
	}
}

/* d3r's path SLs from every switch toward a LID of group y (dragonfly_group_order_sl). */
static void fill_sls(const struct dragonfly *d, uint32_t y, uint8_t *sls)
{
	for (uint32_t x = 0; x < d->num_groups; x++) {
		uint8_t sl = dragonfly_group_order_sl(x, y);

		for (uint32_t i = d->group_first[x]; i < d->group_first[x + 1]; i++)
			sls[d->group_members[i]] = sl;
	}
}

/* The LFT column of one LID (and its SLs). */
static void fill_lid(const struct lft_fill *fill, uint32_t lid, uint32_t *exit_position,
		     uint32_t *landing_seen)
{
	const struct dragonfly *d = fill->d;
	const struct lanes_fabric *f = d->f;
	uint32_t t = d->lid_switch[lid], ns = f->num_switches, y;
	uint8_t *column = fill->r->lft + (size_t)lid * ns;

	if (t == LANES_NONE)
		return;
	if (f->nodes[f->lid_owner[lid].node].type == LANES_NODE_SWITCH &&
	    !fill->opts->switch_lids) {
		column[t] = 0; /* a switch keeps its own LIDs */
		return;
	}
	y = d->group_of[t];
	choose_exits(d, y, t, d->lid_rank[lid], exit_position, landing_seen, lid + 1);
	for (uint32_t x = 0; x < d->num_groups; x++)
		fill_group(d, x, y, t, d->lid_rank[lid], exit_position[x], column);
	column[t] = d->lid_port[lid];
	if (fill->sls_by_group_order)
		fill_sls(d, y, fill->r->sl + (size_t)lid * ns);
}

/* Worker k: its run of LIDs. */
static void fill_run(void *ctx, unsigned k)
{
	struct lft_worker *w = (struct lft_worker *)ctx + k;

	for (uint32_t lid = w->first_lid; lid < w->end_lid; lid++) {
		fill_lid(w->fill, lid, w->exit_position, w->landing_seen);
		lanes_progress_add(w->fill->opts->progress, 1);
	}
}

/* The workers, each with its run of LIDs and its scratch. */
static int start_workers(struct lft_worker *w, unsigned n, const struct lft_fill *fill,
			 struct lanes_error *err)
{
	uint64_t lids = (uint64_t)fill->d->f->max_lid + 1;

	for (unsigned k = 0; k < n; k++) {
		w[k].fill = fill;
		w[k].first_lid = (uint32_t)(lids * k / n);
		w[k].end_lid = (uint32_t)(lids * (k + 1) / n);
		w[k].exit_position = malloc(sizeof(uint32_t) * ((size_t)fill->d->num_groups + 1));
		w[k].landing_seen = calloc((size_t)fill->d->num_groups + 1, sizeof(uint32_t));
		if (!w[k].exit_position || !w[k].landing_seen)
			return lanes_error_oom(err);
	}
	return 0;
}

int lanes_dragonfly_route_lfts(const struct dragonfly *d, const struct lanes_route_opts *opts,
			 int sls_by_group_order, struct lanes_routing **out,
			 struct lanes_error *err)
{
	unsigned n = lanes_route_destination_workers(opts, d->f->num_switches);
	struct lft_fill fill = { d, opts, NULL, sls_by_group_order };
	struct lft_worker *w = calloc(n, sizeof(*w));
	int rc;

	*out = NULL;
	if (!w) {
		rc = lanes_error_oom(err);
		goto out;
	}
	if ((rc = lanes_routing_new_parallel(d->f, n, &fill.r, err)) ||
	    (sls_by_group_order && (rc = lanes_route_sls_per_src_switch(fill.r, err))) ||
	    (rc = start_workers(w, n, &fill, err)))
		goto out;
	lanes_progress_phase(opts->progress, "routing", (uint64_t)d->f->max_lid + 1);
	lanes_parallel_run(n, fill_run, w);
	*out = fill.r;
	fill.r = NULL;
out:
	for (unsigned k = 0; w && k < n; k++) {
		free(w[k].exit_position);
		free(w[k].landing_seen);
	}
	free(w);
	lanes_routing_free(fill.r);
	return rc;
}
