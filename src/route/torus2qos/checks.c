/*
 * checks.c - the port groups of each switch (-x +x -y +y -z +z), how far
 * each can go each way before a failure, and the failure patterns
 * torus-2qos refuses (torus2qos.c, whose header gives the rules; OpenSM's
 * routable_torus and rpt_torus_missing in osm_torus.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "route/torus2qos/torus2qos.h"

/* The group of the cable from u to v: 2d (-) or 2d + 1 (+), or T2Q_GROUPS when no neighbour. */
static unsigned cable_group(const struct t2q *q, uint32_t u, uint32_t v)
{
	const uint32_t *a = lanes_t2q_coord(q, u), *b = lanes_t2q_coord(q, v);
	unsigned group = T2Q_GROUPS, differ = 0;

	for (unsigned d = 0; d < T2Q_DIMS; d++) {
		uint32_t k = q->t.extent[d];

		if (a[d] == b[d])
			continue;
		differ++;
		if (q->t.mesh[d])
			group = b[d] == a[d] + 1 ? 2 * d + 1 : a[d] == b[d] + 1 ? 2 * d : T2Q_GROUPS;
		else
			group = b[d] == (a[d] + 1) % k ? 2 * d + 1 : a[d] == (b[d] + 1) % k ? 2 * d : T2Q_GROUPS;
	}
	return differ == 1 ? group : T2Q_GROUPS;
}

static int refuse_cable(const struct t2q *q, uint32_t u, const struct lanes_adj *a,
			struct lanes_error *err)
{
	const uint32_t *c = lanes_t2q_coord(q, u), *e = lanes_t2q_coord(q, a->sw);
	char n1[160], n2[160];

	return lanes_error_set(err, LANES_EREFUSED,
			       T2Q_ENGINE ": the cable from switch %s port %u (at %u,%u,%u) to switch "
			       "%s port %u (at %u,%u,%u) joins no neighbours of the %ux%ux%u %s",
			       lanes_t2q_switch_name(q->f, u, n1, sizeof(n1)), a->port, c[0], c[1], c[2],
			       lanes_t2q_switch_name(q->f, a->sw, n2, sizeof(n2)), a->peer_port, e[0], e[1],
			       e[2], q->t.extent[0], q->t.extent[1], q->t.extent[2],
			       q->t.mesh[0] && q->t.mesh[1] && q->t.mesh[2] ? "mesh" : "torus");
}

/* Count each switch's cables per group (pass 0), then list them (pass 1). */
static int fill_groups(struct t2q *q, uint32_t *fill, struct lanes_error *err)
{
	const struct lanes_fabric *f = q->f;

	for (uint32_t u = 0; u < f->num_switches; u++)
		for (uint32_t e = f->adj_off[u]; e < f->adj_off[u + 1]; e++) {
			const struct lanes_adj *a = &f->adj[e];
			unsigned g;

			if (a->sw == u)
				continue;
			if ((g = cable_group(q, u, a->sw)) == T2Q_GROUPS)
				return refuse_cable(q, u, a, err);
			if (fill)
				q->group_port[fill[u * T2Q_GROUPS + g]++] = a->port;
			else
				q->group_first[u * T2Q_GROUPS + g + 1]++;
			q->dim_of_port[f->nodes[f->switches[u]].port_base + a->port] = (uint8_t)(g / 2);
		}
	return 0;
}

int lanes_t2q_groups_init(struct t2q *q, struct lanes_error *err)
{
	const struct lanes_fabric *f = q->f;
	size_t slots = (size_t)f->num_switches * T2Q_GROUPS;
	uint32_t *fill = NULL;
	int rc;

	q->group_first = calloc(slots + 2, sizeof(*q->group_first));
	q->group_port = malloc((size_t)f->adj_off[f->num_switches] + 1);
	q->dim_of_port = malloc((size_t)f->num_port_slots + 1);
	if (!q->group_first || !q->group_port || !q->dim_of_port)
		return lanes_error_oom(err);
	memset(q->dim_of_port, T2Q_LOCAL, (size_t)f->num_port_slots + 1);
	if ((rc = fill_groups(q, NULL, err)))
		return rc;
	for (size_t i = 0; i < slots; i++)
		q->group_first[i + 1] += q->group_first[i];
	if (!(fill = malloc((slots + 1) * sizeof(*fill))))
		return lanes_error_oom(err);
	memcpy(fill, q->group_first, slots * sizeof(*fill));
	rc = fill_groups(q, fill, err); /* adj is in port order: each group's ports are too */
	free(fill);
	return rc;
}

/* The switch one step from sw in group g's way, or LANES_NONE (no cable). */
static uint32_t step(const struct t2q *q, uint32_t sw, unsigned g)
{
	const struct lanes_port *p;

	if (!lanes_t2q_group_size(q, sw, g))
		return LANES_NONE;
	p = lanes_fabric_port(q->f, q->f->switches[sw],
			      q->group_port[q->group_first[sw * T2Q_GROUPS + g]]);
	return q->f->nodes[p->peer_node].switch_index;
}

/* How far each switch can go each way before a missing cable or switch (the extent: no gap). */
int lanes_t2q_runs_init(struct t2q *q, struct lanes_error *err)
{
	uint32_t n = q->f->num_switches;

	if (!(q->run = malloc(((size_t)n * T2Q_GROUPS + 1) * sizeof(*q->run))))
		return lanes_error_oom(err);
	for (uint32_t u = 0; u < n; u++)
		for (unsigned g = 0; g < T2Q_GROUPS; g++) {
			uint32_t steps = 0, k = q->t.extent[g / 2];

			for (uint32_t x = step(q, u, g); x != LANES_NONE && steps < k; x = step(q, x, g))
				steps++;
			q->run[u * T2Q_GROUPS + g] = steps;
		}
	return 0;
}

/* ------------------------------------------------------------ checks */

/* One ring (the line of positions along d through start): at most one break. */
static int check_ring(const struct t2q *q, unsigned d, const uint32_t start[T2Q_DIMS],
		      struct lanes_error *err)
{
	uint32_t c[T2Q_DIMS], no_minus = 0, no_plus = 0, ends[2] = { 0, 0 };
	char n1[160], n2[160];

	memcpy(c, start, sizeof(c));
	for (c[d] = 0; c[d] < q->t.extent[d]; c[d]++) {
		uint32_t sw = q->t.at[c[0] + q->t.extent[0] * (c[1] + q->t.extent[1] * c[2])];

		if (sw == LANES_NONE)
			continue;
		no_minus += !lanes_t2q_group_size(q, sw, 2 * d);
		if (!lanes_t2q_group_size(q, sw, 2 * d + 1) && no_plus++ < 2)
			ends[no_plus - 1] = sw;
	}
	if (no_minus == no_plus && no_minus <= 1)
		return 0;
	c[d] = 0;
	return lanes_error_set(err, LANES_EREFUSED,
			       T2Q_ENGINE ": the %c ring at (%s%u,%s%u,%s%u) is broken in more than "
			       "one place (no %c+ cable at switch %s nor at switch %s): torus-2QoS "
			       "routes around one break per ring only (disjoint failures)",
			       "xyz"[d], d == 0 ? "*" : "", c[0], d == 1 ? "*" : "", c[1],
			       d == 2 ? "*" : "", c[2], "xyz"[d],
			       no_plus ? lanes_t2q_switch_name(q->f, ends[0], n1, sizeof(n1)) : "-",
			       no_plus > 1 ? lanes_t2q_switch_name(q->f, ends[1], n2, sizeof(n2)) : "-");
}

int lanes_t2q_check_rings(const struct t2q *q, struct lanes_error *err)
{
	uint32_t c[T2Q_DIMS];
	int rc;

	for (unsigned d = 0; d < T2Q_DIMS; d++)
		for (c[2] = 0; c[2] < (d == 2 ? 1 : q->t.extent[2]); c[2]++)
			for (c[1] = 0; c[1] < (d == 1 ? 1 : q->t.extent[1]); c[1]++)
				for (c[0] = 0; c[0] < (d == 0 ? 1 : q->t.extent[0]); c[0]++)
					if ((rc = check_ring(q, d, c, err)))
						return rc;
	return 0;
}

/* The last dimension routed: the highest one with more than one switch (z, or y on a 2D torus). */
static unsigned last_dim(const struct t2q *q)
{
	unsigned d = T2Q_DIMS - 1;

	while (d > 0 && q->t.extent[d] == 1)
		d--;
	return d;
}

static int refuse_missing(const struct t2q *q, uint32_t p, uint32_t other, const char *why,
			  struct lanes_error *err)
{
	uint32_t X = q->t.extent[0], Y = q->t.extent[1];
	char last = "xyz"[last_dim(q)];

	return lanes_error_set(err, LANES_EREFUSED,
			       T2Q_ENGINE ": the switches at %u,%u,%u and %u,%u,%u are missing, %s: "
			       "routing around them could deadlock (torus-2QoS routes around several "
			       "missing switches only when they are adjacent in %c, the last dimension "
			       "routed)", p % X, p / X % Y, p / X / Y, other % X, other / X % Y,
			       other / X / Y, why, last);
}

/* Position p one step (way) along d, around the ring. */
static uint32_t ring_step(const struct t2q *q, uint32_t p, unsigned d, int way)
{
	uint32_t stride = d == 0 ? 1 : d == 1 ? q->t.extent[0] : q->t.extent[0] * q->t.extent[1];
	uint32_t k = q->t.extent[d], c = p / stride % k;

	return p - c * stride + (way > 0 ? (c + 1) % k : (c + k - 1) % k) * stride;
}

/*
 * Missing switches: as the document says, several only when they are adjacent
 * in the last dimension routed (rpt_torus_missing: one column along it, and
 * no missing switch with both neighbours in it present).
 */
int lanes_t2q_check_missing(struct t2q *q, struct lanes_error *err)
{
	unsigned last = last_dim(q);
	uint32_t first = LANES_NONE, second = LANES_NONE;
	char why[64];

	for (uint32_t p = 0; p < q->t.num_positions; p++)
		if (q->t.at[p] == LANES_NONE) {
			q->num_missing++;
			second = first == LANES_NONE || second != LANES_NONE ? second : p;
			first = first == LANES_NONE ? p : first;
		}
	snprintf(why, sizeof(why), "in different %c columns", "xyz"[last]);
	for (uint32_t p = 0; q->num_missing > 1 && p < q->t.num_positions; p++) {
		uint32_t column = p;

		if (q->t.at[p] != LANES_NONE)
			continue;
		while ((column = ring_step(q, column, last, 1)) != p && column != first)
			;
		if (column != first)
			return refuse_missing(q, first, p, why, err);
	}
	snprintf(why, sizeof(why), "not adjacent in %c", "xyz"[last]);
	for (uint32_t p = 0; q->num_missing > 1 && p < q->t.num_positions; p++)
		if (q->t.at[p] == LANES_NONE && q->t.at[ring_step(q, p, last, -1)] != LANES_NONE &&
		    q->t.at[ring_step(q, p, last, 1)] != LANES_NONE)
			return refuse_missing(q, p, p == first ? second : first, why, err);
	return 0;
}
