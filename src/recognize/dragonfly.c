/*
 * dragonfly.c - recognise the groups of a dragonfly from its switch graph.
 *
 * Two sources, combined:
 *
 * - Closed neighbourhoods (Maglione-Mathey, Escudero-Sahuquillo, Garcia,
 *   Quiles, Zahavi, "Leveraging InfiniBand controller to configure
 *   deadlock-free routing engines for Dragonflies", JPDC 2021, Sec. 4 stage
 *   1, after their D3R paper, IEEE TPDS 29(1), 2018): the closed
 *   neighbourhood N[v] of a switch is v and its neighbours. Two switches of
 *   one group share their whole group in N[u] and N[v]; the two ends of a
 *   global cable share almost nothing. The papers do not spell out the rule
 *   that turns this into groups; ours is below.
 * - Link equivalence ("Early evaluation of direct large-scale InfiniBand
 *   networks with adaptive routing", Sec. 2.2): the links of a triangle are
 *   equivalent, and a class of more than one link is the local links of
 *   one group; all other links are global. The paper also unites opposite
 *   sides of rectangles (its FlatFly rule 4), but in a dragonfly a local
 *   link u-v whose group's cables to groups B and C land on u and v, with a
 *   B-C cable between the landing switches, closes a rectangle with that
 *   global cable, and all classes run together; we use triangles only. A
 *   triangle of three global cables also exists (consecutive wiring puts
 *   switch 0 of groups 0..h in one clique of global cables), and with fewer
 *   than a*h+1 groups two cables between one pair of groups close a
 *   triangle with a local link; so the paper's rule "more than one link,
 *   local" does not hold on our generator's dragonflies.
 *
 * Ours, in two phases.
 *
 * Phase 1 (link equivalence, triangles only): the classes of the triangle
 * relation are candidate groups. A switch in one class only is that class's
 * own; a class of global cables has few or none of its own, since each of
 * its switches also lies in its group's class. Classes are taken by most
 * own switches, then most links, then lowest link; a class with own
 * switches becomes a group of them, and a switch it shares with other
 * classes joins when no group took it before and it is linked to more than
 * half of the group so far.
 *
 * Phase 2 (closed neighbourhoods): every link u-v gets its similarity
 * |N[u] & N[v]| / |N[u] | N[v]| (u and v included) and, when it lies in no
 * triangle, its number of 4-cycles. Links are taken in order: in a
 * triangle first, then in a 4-cycle, then the rest; within each by falling
 * similarity, ties by switch index. Union-find merges the groups of a
 * link's ends when the switch pairs across the two groups are linked more
 * than half (a triangle link) or at least half (other links: a faulty group
 * of 4 that kept a 4-cycle of its 6 cables, or 2 switches and their cable).
 * A group stays a near-clique, and one global cable never joins two groups
 * of two or more switches. Groups are numbered by their lowest switch.
 *
 * Faults: what survives is recognised, parts cut off included. A group
 * whose surviving switches lost the local cables between them cannot be
 * told from several groups and comes out as several; a switch left with a
 * single cable into its group (or none) looks like any other group's
 * neighbour and is placed by the half rule above, which can be wrong
 * (docs/recognize.md gives the measured rates). The fabric is accepted as
 * a dragonfly when it passes the acceptance checks, our decisions, which
 * live in dragonfly_checks.c (lanes_df_check_*; recognize/dragonfly.h says
 * what each refuses). A HyperX is tried first (lanes_recognize_hyperx): one
 * of 2 dimensions, K_a x K_g, is the dragonfly of g complete groups of a
 * switches (the larger dimension's lines, at least 3 switches), any other
 * HyperX is refused. lanes_recognize() calls K_a x K_g a HyperX, as it
 * tries HyperX before dragonfly.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "recognize/recognize.h"
#include "recognize/dragonfly.h"
#include "core/util.h"

/* One link and how much its ends' closed neighbourhoods overlap. */
struct df_link {
	uint32_t u, v;
	uint32_t shared; /* |N[u] & N[v]|, u and v included */
	uint32_t joint;  /* |N[u] | N[v]| */
	uint32_t squares; /* links in no triangle: the 4-cycles through them */
};

/* Triangle links first, then higher similarity, then lower (u, v). */
static int link_order(const void *pa, const void *pb)
{
	const struct df_link *a = pa, *b = pb;
	int ta = a->shared > 2, tb = b->shared > 2, qa = a->squares > 0, qb = b->squares > 0;
	uint64_t sa = (uint64_t)a->shared * b->joint, sb = (uint64_t)b->shared * a->joint;

	if (ta != tb)
		return tb - ta;
	if (qa != qb)
		return qb - qa;
	if (sa != sb)
		return sa > sb ? -1 : 1;
	if (a->u != b->u)
		return a->u < b->u ? -1 : 1;
	return (a->v > b->v) - (a->v < b->v);
}

/* 4-cycles u - x - y - v - u through the link u-v (u, v in no triangle). */
static uint32_t count_squares(const struct lanes_switch_graph *g, uint32_t u, uint32_t v,
			      uint32_t *mark)
{
	uint32_t squares = 0;

	for (uint32_t e = g->off[v]; e < g->off[v + 1]; e++)
		mark[g->nbr[e]] = u + 1;
	for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
		uint32_t x = g->nbr[e];

		if (x == v)
			continue;
		for (uint32_t f = g->off[x]; f < g->off[x + 1]; f++)
			squares += g->nbr[f] != u && mark[g->nbr[f]] == u + 1;
	}
	for (uint32_t e = g->off[v]; e < g->off[v + 1]; e++)
		mark[g->nbr[e]] = 0;
	return squares;
}

static int list_links(const struct lanes_switch_graph *g, struct df_link **out, uint32_t *count,
		      struct lanes_error *err)
{
	struct df_link *l = malloc(((size_t)g->off[g->num_switches] / 2 + 1) * sizeof(*l));
	uint32_t *mark = calloc((size_t)g->num_switches + 1, sizeof(*mark));
	uint32_t m = 0;

	if (!l || !mark) {
		free(l);
		free(mark);
		return lanes_error_oom(err);
	}
	for (uint32_t u = 0; u < g->num_switches; u++)
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
			uint32_t v = g->nbr[e], shared;

			if (v < u)
				continue;
			shared = lanes_switch_graph_common(g, u, v) + 2;
			l[m].u = u;
			l[m].v = v;
			l[m].shared = shared;
			l[m].joint = (g->off[u + 1] - g->off[u] + 1) + (g->off[v + 1] - g->off[v] + 1) -
				     shared;
			l[m].squares = shared > 2 ? 0 : count_squares(g, u, v, mark);
			m++;
		}
	free(mark);
	qsort(l, m, sizeof(*l), link_order);
	*out = l;
	*count = m;
	return 0;
}

/* The groups being built: union-find plus a circular member list per group. */
struct df_groups {
	struct lanes_uf uf;
	uint32_t *next;      /* next member of the same group */
	uint8_t *triangular; /* per switch: joined its group over a link in a triangle */
};

/* Links between the groups with roots x and y, counted from x's members. */
static uint32_t links_between(const struct lanes_switch_graph *g, struct df_groups *gr,
			      uint32_t x, uint32_t y)
{
	uint32_t count = 0, m = x;

	do {
		for (uint32_t e = g->off[m]; e < g->off[m + 1]; e++)
			if (lanes_uf_find(&gr->uf, g->nbr[e]) == y)
				count++;
		m = gr->next[m];
	} while (m != x);
	return count;
}

/* Merge the groups of u and v when more than half their cross pairs are linked. */
static void try_merge(const struct lanes_switch_graph *g, struct df_groups *gr,
		      const struct df_link *l)
{
	uint32_t x = lanes_uf_find(&gr->uf, l->u), y = lanes_uf_find(&gr->uf, l->v), t, between;
	uint64_t cross;

	if (x == y)
		return;
	if (gr->uf.size[x] > gr->uf.size[y]) {
		t = x;
		x = y;
		y = t;
	}
	cross = (uint64_t)gr->uf.size[x] * gr->uf.size[y];
	between = links_between(g, gr, x, y);
	if (2 * (uint64_t)between < cross + (l->shared > 2))
		return;
	t = gr->next[x]; /* splice the two circular member lists */
	gr->next[x] = gr->next[y];
	gr->next[y] = t;
	lanes_uf_union(&gr->uf, x, y);
	if (l->shared > 2)
		gr->triangular[l->u] = gr->triangular[l->v] = 1;
}

/* Number the groups by their lowest switch; returns the count. */
static uint32_t number_groups(struct lanes_uf *uf, uint32_t n, uint32_t *group)
{
	uint32_t count = 0;

	for (uint32_t u = 0; u < n; u++)
		group[u] = LANES_NONE;
	for (uint32_t u = 0; u < n; u++) {
		uint32_t root = lanes_uf_find(uf, u);

		if (group[root] == LANES_NONE)
			group[root] = count++;
		group[u] = group[root];
	}
	return count;
}

/*
 * Phase 1, the link equivalence of triangles: the links of a triangle are
 * equivalent (union-find over the link positions u -> v with u < v of the
 * switch graph). Each class is a candidate group: the switches its links
 * touch.
 */
static void unite_triangles(const struct lanes_switch_graph *g, struct lanes_uf *eps)
{
	for (uint32_t u = 0; u < g->num_switches; u++)
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
			uint32_t v = g->nbr[e], i = g->off[u], j = g->off[v];

			if (v < u)
				continue;
			while (i < g->off[u + 1] && j < g->off[v + 1]) { /* common w > v */
				if (g->nbr[i] < g->nbr[j])
					i++;
				else if (g->nbr[i] > g->nbr[j])
					j++;
				else {
					if (g->nbr[i] > v) {
						lanes_uf_union(eps, e, i);
						lanes_uf_union(eps, e, j);
					}
					i++;
					j++;
				}
			}
		}
}

/* A class of triangle links: a range of the links sorted by class. */
struct df_class {
	uint32_t begin, end;  /* in the sorted triangle links */
	uint32_t own;         /* switches in no other class */
	uint32_t first_link;  /* lowest link position, for ties */
};

/* The link u-v at position pos (u < v) with its class. */
struct df_tri_link {
	uint32_t cls, pos, u, v;
};

static int tri_link_order(const void *pa, const void *pb)
{
	const struct df_tri_link *a = pa, *b = pb;

	if (a->cls != b->cls)
		return a->cls < b->cls ? -1 : 1;
	return (a->pos > b->pos) - (a->pos < b->pos);
}

/* More switches of its own first, then more links, then the lowest link. */
static int class_order(const void *pa, const void *pb)
{
	const struct df_class *a = pa, *b = pb;

	if (a->own != b->own)
		return a->own > b->own ? -1 : 1;
	if (a->end - a->begin != b->end - b->begin)
		return a->end - a->begin > b->end - b->begin ? -1 : 1;
	return (a->first_link > b->first_link) - (a->first_link < b->first_link);
}

/* Per switch: its only class, or LANES_NONE (none) or LANES_NONE - 1 (several). */
static void only_class(const struct df_tri_link *t, uint32_t count, uint32_t *only)
{
	for (uint32_t k = 0; k < count; k++)
		for (int end = 0; end < 2; end++) {
			uint32_t x = end ? t[k].v : t[k].u;

			if (only[x] == LANES_NONE)
				only[x] = t[k].cls;
			else if (only[x] != t[k].cls)
				only[x] = LANES_NONE - 1;
		}
}

/* Links from x to switches already in group gid. */
static uint32_t links_into(const struct lanes_switch_graph *g, const uint32_t *group_of,
			   uint32_t x, uint32_t gid)
{
	uint32_t count = 0;

	for (uint32_t e = g->off[x]; e < g->off[x + 1]; e++)
		count += group_of[g->nbr[e]] == gid;
	return count;
}

/*
 * A class becomes a group of its own switches (those in no other class)
 * when they form a near-clique (more than half of their pairs linked: with
 * few groups and many cables between two groups, triangles of a local link
 * and two cables run the classes of several groups together, and phase 2
 * sorts such switches out); a switch it shares with other classes joins
 * when it is linked to more than half of the group so far and no group
 * took it before. A class of
 * global cables (a clique of them, or a triangle a local link makes with
 * two cables to one switch) has few or no switches of its own: every one of
 * its switches has its own group.
 */
static void take_class(const struct lanes_switch_graph *g, const struct df_tri_link *t,
		       const struct df_class *c, const uint32_t *only, uint32_t gid,
		       uint32_t *group_of, uint32_t *members)
{
	uint32_t size = 0;
	uint64_t twice_links = 0;

	for (uint32_t k = c->begin; k < c->end; k++) /* the class's own switches */
		for (int end = 0; end < 2; end++) {
			uint32_t x = end ? t[k].v : t[k].u;

			if (group_of[x] == LANES_NONE && only[x] == t[k].cls) {
				group_of[x] = gid;
				members[size++] = x;
			}
		}
	for (uint32_t i = 0; i < size; i++)
		twice_links += links_into(g, group_of, members[i], gid);
	if (size >= 3 && twice_links <= (uint64_t)size * (size - 1) / 2) { /* no near-clique */
		for (uint32_t i = 0; i < size; i++)
			group_of[members[i]] = LANES_NONE;
		return;
	}
	for (uint32_t k = c->begin; k < c->end; k++) /* switches it shares */
		for (int end = 0; end < 2; end++) {
			uint32_t x = end ? t[k].v : t[k].u;

			if (group_of[x] == LANES_NONE && 2 * links_into(g, group_of, x, gid) > size) {
				group_of[x] = gid;
				size++;
			}
		}
}

static int list_classes(const struct lanes_switch_graph *g, struct lanes_uf *eps,
			struct df_tri_link **out_t, uint32_t *out_nt, struct df_class **out_c,
			uint32_t *out_nc, struct lanes_error *err)
{
	uint32_t nt = 0, nc = 0;
	struct df_tri_link *t = malloc(((size_t)g->off[g->num_switches] / 2 + 1) * sizeof(*t));
	struct df_class *c = NULL;

	if (!t)
		return lanes_error_oom(err);
	for (uint32_t u = 0; u < g->num_switches; u++)
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
			uint32_t r = lanes_uf_find(eps, e);

			if (g->nbr[e] > u && eps->size[r] > 1)
				t[nt++] = (struct df_tri_link){ r, e, u, g->nbr[e] };
		}
	qsort(t, nt, sizeof(*t), tri_link_order);
	c = malloc(((size_t)nt + 1) * sizeof(*c));
	if (!c) {
		free(t);
		return lanes_error_oom(err);
	}
	for (uint32_t k = 0; k < nt; k++) {
		if (!k || t[k].cls != t[k - 1].cls)
			c[nc++] = (struct df_class){ k, k, 0, t[k].pos };
		c[nc - 1].end = k + 1;
	}
	*out_t = t;
	*out_nt = nt;
	*out_c = c;
	*out_nc = nc;
	return 0;
}

/* Each class's own switches (classes still in the order of their root). */
static void count_own(struct df_class *c, uint32_t nc, const struct df_tri_link *t,
		      const uint32_t *only, uint32_t n)
{
	for (uint32_t x = 0; x < n; x++) {
		uint32_t lo = 0, hi = nc;

		if (only[x] >= LANES_NONE - 1)
			continue;
		while (lo < hi) {
			uint32_t mid = (lo + hi) / 2;

			if (t[c[mid].begin].cls < only[x])
				lo = mid + 1;
			else
				hi = mid;
		}
		c[lo].own++;
	}
}

/* Phase 1: groups from the triangle classes; group_of[x] = LANES_NONE for the rest. */
static int triangle_groups(const struct lanes_switch_graph *g, uint32_t *group_of,
			   struct lanes_error *err)
{
	uint32_t n = g->num_switches, nt = 0, nc = 0, gid = 0;
	struct lanes_uf eps = { 0 };
	struct df_tri_link *t = NULL;
	struct df_class *c = NULL;
	uint32_t *only = NULL, *members = NULL;
	int rc;

	if ((rc = lanes_uf_init(&eps, g->off[n], err)))
		return rc;
	unite_triangles(g, &eps);
	if ((rc = list_classes(g, &eps, &t, &nt, &c, &nc, err)))
		goto out;
	only = malloc(((size_t)n + 1) * sizeof(*only));
	members = malloc(((size_t)n + 1) * sizeof(*members));
	if (!only || !members) {
		rc = lanes_error_oom(err);
		goto out;
	}
	for (uint32_t x = 0; x < n; x++)
		only[x] = group_of[x] = LANES_NONE;
	only_class(t, nt, only);
	count_own(c, nc, t, only, n);
	qsort(c, nc, sizeof(*c), class_order);
	for (uint32_t k = 0; k < nc; k++)
		if (c[k].own)
			take_class(g, t, &c[k], only, gid++, group_of, members);
out:
	free(t);
	free(c);
	free(only);
	free(members);
	lanes_uf_free(&eps);
	return rc;
}

/* Start phase 2 from the groups of phase 1. */
static int seed_groups(const struct lanes_switch_graph *g, struct df_groups *gr,
		       struct lanes_error *err)
{
	uint32_t n = g->num_switches, *group_of = malloc(((size_t)n + 1) * sizeof(*group_of));
	uint32_t *first = malloc(((size_t)n + 1) * sizeof(*first));
	int rc = 0;

	if (!group_of || !first) {
		rc = lanes_error_oom(err);
		goto out;
	}
	if ((rc = triangle_groups(g, group_of, err)))
		goto out;
	for (uint32_t x = 0; x < n; x++)
		first[x] = LANES_NONE;
	for (uint32_t x = 0; x < n; x++) {
		uint32_t k = group_of[x], r, t;

		if (k == LANES_NONE)
			continue;
		gr->triangular[x] = 1;
		if (first[k] == LANES_NONE) {
			first[k] = x;
			continue;
		}
		r = lanes_uf_find(&gr->uf, first[k]);
		t = gr->next[r]; /* splice x's one-member list in */
		gr->next[r] = gr->next[x];
		gr->next[x] = t;
		lanes_uf_union(&gr->uf, r, x);
	}
out:
	free(group_of);
	free(first);
	return rc;
}

static int build_groups(const struct lanes_switch_graph *g, uint32_t *group, uint32_t *count,
			uint32_t *triangular, struct lanes_error *err)
{
	struct df_groups gr = { { 0 }, NULL, NULL };
	struct df_link *links = NULL;
	uint32_t m = 0, n = g->num_switches;
	int rc;

	if ((rc = list_links(g, &links, &m, err)) || (rc = lanes_uf_init(&gr.uf, n, err)))
		goto out;
	gr.next = malloc(((size_t)n + 1) * sizeof(*gr.next));
	gr.triangular = calloc((size_t)n + 1, 1);
	if (!gr.next || !gr.triangular) {
		rc = lanes_error_oom(err);
		goto out;
	}
	for (uint32_t u = 0; u < n; u++)
		gr.next[u] = u;
	if ((rc = seed_groups(g, &gr, err)))
		goto out;
	for (uint32_t i = 0; i < m; i++)
		try_merge(g, &gr, &links[i]);
	*count = number_groups(&gr.uf, n, group);
	*triangular = 0;
	for (uint32_t u = 0; u < n; u++)
		*triangular += gr.triangular[u];
out:
	free(links);
	free(gr.next);
	free(gr.triangular);
	lanes_uf_free(&gr.uf);
	return rc;
}

/*
 * A HyperX is no dragonfly, but for one case: the 2-dimensional HyperX
 * K_a x K_g is exactly a dragonfly of g complete groups of a switches with a
 * cables between every two groups (our generator makes it for g - 1 = h, and
 * OpenSM sees only the cables). Its groups are then the lines along the
 * larger dimension (the first on a tie): switches that share the other
 * coordinate. Groups of 2 (a ring of 4 is K_2 x K_2) are not taken, as
 * groups of fewer than 3 switches are not recognised anywhere else either.
 * *taken is 1 when s->group now holds them.
 */
static int hyperx_groups(const struct lanes_fabric *f, struct lanes_structure *s, int *taken,
			 struct lanes_error *err)
{
	struct lanes_structure hx;
	struct lanes_error e;
	int rc = lanes_recognize_hyperx(f, &hx, &e);

	*taken = 0;
	if (rc == LANES_EINVAL)
		return 0;
	if (rc)
		return lanes_error_set(err, rc, "%s", e.message);
	if (hx.num_dims == 2 && (hx.extent[0] >= 3 || hx.extent[1] >= 3)) {
		uint32_t other = hx.extent[0] >= hx.extent[1] ? 1 : 0;

		for (uint32_t u = 0; u < f->num_switches; u++)
			s->group[u] = hx.coord[(size_t)u * 2 + other];
		s->num_groups = hx.extent[other];
		*taken = 1;
	} else
		rc = lanes_error_set(err, LANES_EINVAL, "not a dragonfly: a HyperX of %u dimensions",
				     hx.num_dims);
	lanes_structure_free(&hx);
	return rc;
}

int lanes_recognize_dragonfly(const struct lanes_fabric *f, struct lanes_structure *s,
			      struct lanes_error *err)
{
	struct lanes_switch_graph g = { 0 };
	uint32_t groups = 0, triangular = 0;
	int rc, taken;

	memset(s, 0, sizeof(*s));
	if (f->num_switches < 2)
		return lanes_error_set(err, LANES_EINVAL, "not a dragonfly: fewer than 2 switches");
	if ((rc = lanes_switch_graph_build(f, &g, err)))
		goto out;
	s->group = malloc((size_t)f->num_switches * sizeof(*s->group));
	if (!s->group) {
		rc = lanes_error_oom(err);
		goto out;
	}
	if ((rc = hyperx_groups(f, s, &taken, err)))
		goto out;
	if (taken) {
		groups = s->num_groups;
		goto found;
	}
	if ((rc = build_groups(&g, s->group, &groups, &triangular, err)))
		goto out;
	if (groups < 2) {
		rc = lanes_error_set(err, LANES_EINVAL, "not a dragonfly: one group");
		goto out;
	}
	if ((rc = lanes_df_check_triangles(f->num_switches, s->group, groups, triangular, err)) ||
	    (rc = lanes_df_check_spread(&g, s->group, groups, err)) ||
	    (rc = lanes_df_check_local_share(&g, s->group, err)) ||
	    (rc = lanes_df_check_dense(&g, s->group, groups, err)) ||
	    (rc = lanes_df_check_global_degree(&g, s->group, groups, err)) ||
	    (rc = lanes_df_check_regular(f, &g, s->group, groups, err)))
		goto out;
found:
	s->kind = LANES_STRUCTURE_DRAGONFLY;
	s->num_switches = f->num_switches;
	s->num_groups = groups;
out:
	if (rc)
		lanes_structure_free(s);
	lanes_switch_graph_free(&g);
	return rc;
}
