/*
 * ftree_build.c - the fat-tree engine's view of the fabric (ftree.c gives
 * the algorithm): CA ports and compute nodes, port groups, the ranking of
 * the switches and OpenSM's tuples, after OpenSM 3.3.23's
 * osm_ucast_ftree.c (fabric_construct_hca_ports, fabric_construct_sw_ports,
 * fabric_rank_from_hcas, fabric_make_indexing, fabric_get_new_tuple,
 * fabric_create_leaf_switch_array, fabric_set_max_cn_per_leaf).
 *
 * Ranking. The leaf switches are chosen first, as the switches with at
 * least some number m of compute-node ports; every switch then gets its
 * height, the hops to the nearest leaf (a BFS from all leaves at once), and
 * its rank is the greatest height less its own, so that the leaves have the
 * highest rank and the switches farthest from them rank 0. The choice is
 * accepted when no cable joins two switches of one height (a fat tree has
 * none: each cable goes one level up or down), every switch is reached and
 * the tree has 2 to 8 levels. m is tried from the smallest count of
 * compute nodes on a switch upwards; the smallest is OpenSM's choice
 * (every switch with a compute node is a leaf), which on a pure fat tree
 * gives OpenSM's ranks. A larger m leaves switches with few CAs (SHARP
 * aggregation nodes, a storage or management node cabled to a spine) at the
 * level their cables give them; their CAs are then routed as OpenSM routes
 * non-compute nodes. When no m works the fabric is refused, naming the
 * two switches the first choice found cabled within one level. With a root
 * GUID file the ranks are the hops from the roots instead
 * (fabric_rank_from_roots; rank_from_roots says what it checks).
 *
 * Twins: the switches with the same set of switches below them, the
 * routing's shortcut (ftree_route.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bits.h"
#include "core/util.h"
#include "route/common/endports.h"
#include "route/ftree/ftree.h"

/* "0x... (desc)" of switch s, in buf. */
static const char *sw_name(const struct lanes_fabric *f, uint32_t s, char *buf, size_t size)
{
	const struct lanes_node *nd = &f->nodes[f->switches[s]];

	snprintf(buf, size, "0x%016llx \"%.40s\"", (unsigned long long)nd->guid, nd->desc);
	return buf;
}

static int in_sorted(const uint64_t *a, uint32_t n, uint64_t v)
{
	uint32_t i = lanes_lower_bound64(a, n, v);

	return i < n && a[i] == v;
}

/* ------------------------------------------------------------------ CA ports */

/* Every CA port cabled to a switch; LANES_EREFUSED for a CA cabled to a CA (OpenSM's AB11). */
static int collect_cas(struct ftree *t, struct lanes_error *err)
{
	const struct lanes_fabric *f = t->f;

	t->cas = calloc((size_t)f->num_port_slots + 1, sizeof(*t->cas));
	t->node_cns = calloc((size_t)f->num_nodes + 1, sizeof(*t->node_cns));
	if (!t->cas || !t->node_cns)
		return lanes_error_oom(err);
	for (uint32_t n = 0; n < f->num_nodes; n++) {
		if (f->nodes[n].type != LANES_NODE_CA)
			continue;
		for (uint8_t p = 1; p <= f->nodes[n].nports; p++) {
			const struct lanes_port *pt = lanes_fabric_port(f, n, p);
			struct ftree_ca_port *c = &t->cas[t->num_cas];

			if (pt->peer_node == LANES_NONE || f->nodes[pt->peer_node].type == LANES_NODE_ROUTER)
				continue;
			if (f->nodes[pt->peer_node].type == LANES_NODE_CA)
				return lanes_error_set(err, LANES_EREFUSED,
						       "ftree: not a fat tree: CA 0x%016llx is cabled "
						       "to CA 0x%016llx",
						       (unsigned long long)f->nodes[n].guid,
						       (unsigned long long)f->nodes[pt->peer_node].guid);
			if (pt->lmc)
				return lanes_error_set(err, LANES_EREFUSED,
						       "ftree: LMC %u on CA 0x%016llx: fat-tree routing "
						       "takes LMC 0 only, as OpenSM's",
						       pt->lmc, (unsigned long long)f->nodes[n].guid);
			*c = (struct ftree_ca_port){ .node = n, .port = p, .lid = pt->lid,
						     .sw = f->nodes[pt->peer_node].switch_index,
						     .sw_port = pt->peer_port };
			c->is_cn = !t->cn_guids || in_sorted(t->cn_guids, t->num_cn_guids, pt->guid);
			c->is_io = (!t->cn_guids || !c->is_cn) && t->io_guids &&
				   in_sorted(t->io_guids, t->num_io_guids, pt->guid);
			c->is_cn &= !c->is_io;
			if (c->is_cn)
				t->sw[c->sw].num_cns++;
			t->sw[c->sw].num_ca_ports++;
			t->num_cas++;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ port groups */

/* The group of switch s (whose groups start at first) toward (remote, is_ca), or num_groups. */
static uint32_t find_group(const struct ftree *t, uint32_t first, uint32_t remote, uint8_t is_ca,
			   uint8_t ca_port)
{
	for (uint32_t g = first; g < t->num_groups; g++)
		if (t->groups[g].remote == remote && t->groups[g].remote_is_ca == is_ca &&
		    t->groups[g].ca_port == ca_port)
			return g;
	return t->num_groups;
}

/* Switch s's cables: one group per neighbour, in the order of their first ports. */
static void switch_groups(struct ftree *t, uint32_t s, uint32_t *port_group)
{
	const struct lanes_fabric *f = t->f;
	uint32_t node = f->switches[s], first = t->num_groups;

	for (uint8_t p = 1; p <= f->nodes[node].nports; p++) {
		const struct lanes_port *pt = lanes_fabric_port(f, node, p);
		uint32_t peer = pt->peer_node, g;
		uint8_t is_ca, ca_port;

		port_group[p] = LANES_NONE;
		if (peer == LANES_NONE || peer == node || f->nodes[peer].type == LANES_NODE_ROUTER)
			continue;
		is_ca = f->nodes[peer].type == LANES_NODE_CA;
		ca_port = is_ca ? pt->peer_port : 0;
		if (!is_ca)
			peer = f->nodes[peer].switch_index;
		g = find_group(t, first, peer, is_ca, ca_port);
		if (g == t->num_groups)
			t->groups[t->num_groups++] = (struct ftree_group){
				.remote = peer, .remote_is_ca = is_ca, .ca_port = ca_port,
				.remote_lid = lanes_fabric_lid(f, pt->peer_node, pt->peer_port) };
		t->groups[g].num_ports++;
		port_group[p] = g;
	}
}

/* Lay out switch s's cables group by group, by port number, from ports[*next]. */
static void fill_ports(struct ftree *t, uint32_t s, uint32_t first, const uint32_t *port_group,
		       uint32_t *next)
{
	const struct lanes_fabric *f = t->f;
	uint32_t node = f->switches[s];

	for (uint32_t g = first; g < t->num_groups; g++) {
		t->groups[g].first_port = *next;
		*next += t->groups[g].num_ports;
		t->groups[g].num_ports = 0;
	}
	for (uint8_t p = 1; p <= f->nodes[node].nports; p++) {
		struct ftree_group *g;

		if (port_group[p] == LANES_NONE)
			continue;
		g = &t->groups[port_group[p]];
		t->ports[g->first_port + g->num_ports++] = (struct ftree_port){
			.port = p, .remote_port = lanes_fabric_port(f, node, p)->peer_port };
	}
}

/* Every switch's groups, each group's cables by port number. */
static int build_groups(struct ftree *t, struct lanes_error *err)
{
	const struct lanes_fabric *f = t->f;
	uint32_t port_group[LANES_PORTS_MAX + 1], next = 0;

	t->groups = calloc((size_t)f->num_port_slots + 1, sizeof(*t->groups));
	t->ports = calloc((size_t)f->num_port_slots + 1, sizeof(*t->ports));
	if (!t->groups || !t->ports)
		return lanes_error_oom(err);
	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t first = t->num_groups;

		switch_groups(t, s, port_group);
		t->sw[s].first_group = first;
		t->sw[s].num_groups = t->num_groups - first;
		fill_ports(t, s, first, port_group, &next);
		t->sw[s].lid = lanes_fabric_port(f, f->switches[s], 0)->lid;
	}
	return 0;
}

/* ------------------------------------------------------------------ ranking */

/* Why a ranking is not a fat tree: the first fault found. */
struct rank_fault {
	uint32_t a, b;   /* two switches of one level cabled together; b LANES_NONE: a unreached */
	uint32_t levels; /* or, with a LANES_NONE, too many or too few levels */
	uint32_t deeper; /* or, from roots, a switch below the leaves (LANES_NONE: none) */
};

/*
 * Levels by a BFS from the seeds (level 0, the first tail entries of
 * queue) over the switch graph: every switch's hops from the nearest seed.
 * @return the greatest level, or UINT32_MAX with *fault filled in when a
 *         switch is not reached or a cable joins two switches of one level
 */
static uint32_t levels_from(const struct ftree *t, uint32_t *level, uint32_t *queue,
			    uint32_t tail, struct rank_fault *fault)
{
	const struct lanes_fabric *f = t->f;
	uint32_t head = 0, top = 0;

	while (head < tail) {
		uint32_t s = queue[head++];

		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++) {
			uint32_t nb = f->adj[e].sw;

			if (level[nb] == UINT32_MAX) {
				level[nb] = level[s] + 1;
				top = level[nb];
				queue[tail++] = nb;
			}
		}
	}
	for (uint32_t s = 0; s < f->num_switches; s++) {
		if (level[s] == UINT32_MAX) {
			*fault = (struct rank_fault){ s, LANES_NONE, 0, LANES_NONE };
			return UINT32_MAX;
		}
		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++)
			if (level[f->adj[e].sw] == level[s]) {
				*fault = (struct rank_fault){ s, f->adj[e].sw, 0, LANES_NONE };
				return UINT32_MAX;
			}
	}
	return top;
}

/*
 * Heights from the leaves (switches with at least min_cns compute nodes).
 * @return the greatest height, or UINT32_MAX with *fault filled in
 */
static uint32_t heights_from(const struct ftree *t, uint32_t min_cns, uint32_t *height,
			     uint32_t *queue, struct rank_fault *fault)
{
	uint32_t tail = 0, top;

	for (uint32_t s = 0; s < t->f->num_switches; s++) {
		height[s] = t->sw[s].num_cns >= min_cns ? 0 : UINT32_MAX;
		if (!height[s])
			queue[tail++] = s;
	}
	top = levels_from(t, height, queue, tail, fault);
	if (top != UINT32_MAX && (top + 1 > FTREE_MAX_RANK || top < 1)) {
		*fault = (struct rank_fault){ LANES_NONE, LANES_NONE, top + 1, LANES_NONE };
		return UINT32_MAX;
	}
	return top;
}

/* from: what the levels count from, "the nearest leaf switch" or "the nearest root". */
static int refuse_ranking(const struct ftree *t, const struct rank_fault *fault,
			  const uint32_t *level, const char *from, struct lanes_error *err)
{
	char a[96], b[96];

	if (fault->deeper != LANES_NONE)
		return lanes_error_set(err, LANES_EREFUSED,
				       "ftree: not a fat tree: switch %s is %u hops from the "
				       "nearest root, below the leaf switches (%u hops)",
				       sw_name(t->f, fault->deeper, a, sizeof(a)),
				       level[fault->deeper], fault->levels - 1);
	if (fault->a == LANES_NONE)
		return lanes_error_set(err, LANES_EREFUSED,
				       "ftree: not a fat tree: the switches form %u level%s, a fat "
				       "tree has 2 to %u",
				       fault->levels, fault->levels == 1 ? "" : "s", FTREE_MAX_RANK);
	if (fault->b == LANES_NONE)
		return lanes_error_set(err, LANES_EREFUSED,
				       "ftree: not a fat tree: switch %s is not connected to %s",
				       sw_name(t->f, fault->a, a, sizeof(a)),
				       t->roots ? "any root" : "any leaf");
	return lanes_error_set(err, LANES_EREFUSED,
			       "ftree: not a fat tree: switch %s and switch %s are both %u hop%s "
			       "from %s and cabled to each other",
			       sw_name(t->f, fault->a, a, sizeof(a)), sw_name(t->f, fault->b, b, sizeof(b)),
			       level[fault->a], level[fault->a] == 1 ? "" : "s", from);
}

/* The least count of compute nodes above min among the switches, or UINT32_MAX. */
static uint32_t next_count(const struct ftree *t, uint32_t min)
{
	uint32_t best = UINT32_MAX;

	for (uint32_t s = 0; s < t->f->num_switches; s++)
		if (t->sw[s].num_cns > min && t->sw[s].num_cns < best)
			best = t->sw[s].num_cns;
	return best;
}

/* Ranks from the first choice of leaves that makes a fat tree (the file header). */
static int rank_from_leaves(struct ftree *t, uint32_t *height, uint32_t *queue,
			    struct lanes_error *err)
{
	const struct lanes_fabric *f = t->f;
	uint32_t *first_height = malloc(sizeof(uint32_t) * ((size_t)f->num_switches + 1));
	struct rank_fault first = { 0, 0, 0, LANES_NONE }, fault = first;
	uint32_t m = next_count(t, 0), top = UINT32_MAX;
	int rc = 0, tried = 0;

	if (!first_height) {
		rc = lanes_error_oom(err);
		goto out;
	}
	while (m != UINT32_MAX) {
		top = heights_from(t, m, height, queue, &fault);
		if (top != UINT32_MAX)
			break;
		if (!tried++) {
			first = fault;
			memcpy(first_height, height, sizeof(uint32_t) * f->num_switches);
		}
		m = next_count(t, m);
	}
	if (top == UINT32_MAX) {
		rc = refuse_ranking(t, &first, first_height, "the nearest leaf switch", err);
		goto out;
	}
	t->leaf_rank = top;
	for (uint32_t s = 0; s < f->num_switches; s++) {
		t->sw[s].rank = top - height[s];
		t->sw[s].is_leaf = height[s] == 0;
	}
out:
	free(first_height);
	return rc;
}

/*
 * Ranks from the root GUID file, as OpenSM's fabric_rank_from_roots: the
 * roots rank 0, every other switch its hops from the nearest root. The
 * leaves are the switches with compute nodes at the greatest rank that has
 * any (OpenSM takes the rank of its first compute node's switch and
 * refuses compute nodes at another, ERR AB26; ours on a switch of smaller
 * rank are routed as other CAs, as without the file). Refused: a switch
 * not reached, a cable within a rank, a switch ranked below the leaves,
 * fewer than 2 or more than 8 levels.
 */
static int rank_from_roots(struct ftree *t, uint32_t *rank, uint32_t *queue,
			   struct lanes_error *err)
{
	const struct lanes_fabric *f = t->f;
	struct rank_fault fault = { 0, 0, 0, LANES_NONE };
	uint32_t leaf_rank = 0, top;

	for (uint32_t s = 0; s < f->num_switches; s++)
		rank[s] = UINT32_MAX;
	for (uint32_t i = 0; i < t->num_roots; i++) {
		rank[t->roots[i]] = 0;
		queue[i] = t->roots[i];
	}
	top = levels_from(t, rank, queue, t->num_roots, &fault);
	if (top == UINT32_MAX)
		return refuse_ranking(t, &fault, rank, "the nearest root", err);
	for (uint32_t s = 0; s < f->num_switches; s++)
		if (t->sw[s].num_cns && rank[s] > leaf_rank)
			leaf_rank = rank[s];
	for (uint32_t s = 0; s < f->num_switches && fault.deeper == LANES_NONE; s++)
		if (rank[s] > leaf_rank)
			fault = (struct rank_fault){ LANES_NONE, LANES_NONE, leaf_rank + 1, s };
	if (fault.deeper == LANES_NONE && (leaf_rank < 1 || leaf_rank + 1 > FTREE_MAX_RANK))
		fault = (struct rank_fault){ LANES_NONE, LANES_NONE, leaf_rank + 1, LANES_NONE };
	if (fault.deeper != LANES_NONE || fault.levels)
		return refuse_ranking(t, &fault, rank, "the nearest root", err);
	t->leaf_rank = leaf_rank;
	for (uint32_t s = 0; s < f->num_switches; s++) {
		t->sw[s].rank = rank[s];
		t->sw[s].is_leaf = rank[s] == leaf_rank && t->sw[s].num_cns;
	}
	return 0;
}

/* Ranks and leaves, from the roots when the root GUID file gives them, else from the CNs. */
static int rank_switches(struct ftree *t, struct lanes_error *err)
{
	const struct lanes_fabric *f = t->f;
	uint32_t *level = malloc(sizeof(uint32_t) * ((size_t)f->num_switches + 1));
	uint32_t *queue = malloc(sizeof(uint32_t) * ((size_t)f->num_switches + 1));
	int rc;

	if (!level || !queue)
		rc = lanes_error_oom(err);
	else if (next_count(t, 0) == UINT32_MAX)
		rc = lanes_error_set(err, LANES_EREFUSED,
				     "ftree: no compute node is cabled to a switch%s",
				     t->cn_guids ? " (none of the CN GUID file's ports)" : "");
	else
		rc = t->roots ? rank_from_roots(t, level, queue, err)
			      : rank_from_leaves(t, level, queue, err);
	free(level);
	free(queue);
	return rc;
}

/*
 * Compute nodes on a switch that is not a leaf are routed as other CAs
 * (the file header); count each CA's compute-node ports (OpenSM's cn_num).
 */
static void settle_cns(struct ftree *t)
{
	for (uint32_t i = 0; i < t->num_cas; i++) {
		struct ftree_ca_port *c = &t->cas[i];

		if (c->is_cn && !t->sw[c->sw].is_leaf) {
			c->is_cn = 0;
			c->is_io = t->io_guids &&
				   in_sorted(t->io_guids, t->num_io_guids,
					     lanes_fabric_port(t->f, c->node, c->port)->guid);
		}
		if (c->is_cn)
			t->node_cns[c->node]++;
	}
}

/* Each switch's groups split into down (CAs, higher ranks) and up, in group order. */
static int split_groups(struct ftree *t, struct lanes_error *err)
{
	uint32_t used = 0;

	t->group_lists = malloc(sizeof(uint32_t) * ((size_t)t->num_groups + 1));
	if (!t->group_lists)
		return lanes_error_oom(err);
	for (uint32_t s = 0; s < t->f->num_switches; s++) {
		struct ftree_switch *w = &t->sw[s];
		uint32_t end = w->first_group + w->num_groups;

		w->down = t->group_lists + used;
		for (uint32_t g = w->first_group; g < end; g++) {
			const struct ftree_group *gr = &t->groups[g];

			if (gr->remote_is_ca || t->sw[gr->remote].rank > w->rank) {
				w->down[w->num_down++] = g;
				w->num_down_switches += !gr->remote_is_ca;
				w->has_ca_down |= gr->remote_is_ca;
			}
		}
		used += w->num_down;
		w->up = t->group_lists + used;
		for (uint32_t g = w->first_group; g < end; g++)
			if (!t->groups[g].remote_is_ca && t->sw[t->groups[g].remote].rank < w->rank)
				w->up[w->num_up++] = g;
		used += w->num_up;
	}
	return 0;
}

/* ------------------------------------------------------------------ twins */

/* A switch's down switches, sorted: what makes two switches twins. */
struct down_set {
	const uint32_t *far;
	uint32_t n;
	uint32_t sw;
};

static int down_set_cmp(const struct down_set *a, const struct down_set *b)
{
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (uint32_t i = 0; i < a->n; i++)
		if (a->far[i] != b->far[i])
			return a->far[i] < b->far[i] ? -1 : 1;
	return 0;
}

static int by_down_set(const void *pa, const void *pb)
{
	const struct down_set *a = pa, *b = pb;
	int c = down_set_cmp(a, b);

	return c ? c : (a->sw > b->sw) - (a->sw < b->sw);
}

/*
 * Twin classes: the switches with the same set of down switches (all the
 * top switches above one set of pods in a k-ary n-tree, all the middle
 * switches of one pod). Once one twin has descended for a LID, every
 * switch below them has a route as short as another twin's descent at as
 * many hops or more could give (ftree_route.c, descend).
 */
static int make_twins(struct ftree *t, struct lanes_error *err)
{
	uint32_t n = t->f->num_switches, sets = 0, used = 0;
	struct down_set *set = malloc(sizeof(*set) * ((size_t)n + 1));
	uint32_t *far = malloc(sizeof(uint32_t) * ((size_t)t->num_groups + 1));
	int rc = 0;

	t->twin_stamp = calloc((size_t)n + 1, sizeof(uint32_t));
	t->twin_hops = calloc((size_t)n + 1, sizeof(uint32_t));
	if (!set || !far || !t->twin_stamp || !t->twin_hops) {
		rc = lanes_error_oom(err);
		goto out;
	}
	for (uint32_t s = 0; s < n; s++) {
		const struct ftree_switch *w = &t->sw[s];

		if (!w->num_down_switches)
			continue;
		set[sets] = (struct down_set){ far + used, w->num_down_switches, s };
		for (uint32_t k = 0; k < w->num_down; k++)
			if (!t->groups[w->down[k]].remote_is_ca)
				far[used++] = t->groups[w->down[k]].remote;
		qsort(far + used - w->num_down_switches, w->num_down_switches, sizeof(uint32_t),
		      lanes_cmp_u32);
		sets++;
	}
	qsort(set, sets, sizeof(*set), by_down_set);
	for (uint32_t i = 0; i < sets; i++) {
		if (i && down_set_cmp(&set[i], &set[i - 1]))
			t->num_twin_classes++;
		t->sw[set[i].sw].twin_class = t->num_twin_classes;
	}
	t->num_twin_classes += sets > 0;
out:
	free(set);
	free(far);
	return rc;
}

/* ------------------------------------------------------------------ tuples */

/* The set of tuples given out (open addressing on the tuple's 8 bytes). */
struct tuple_set {
	uint64_t *keys; /* UINT64_MAX: empty (no tuple is all 0xFF) */
	uint64_t mask;
};

static uint64_t tuple_key(const uint8_t *tuple)
{
	uint64_t k;

	memcpy(&k, tuple, sizeof(k));
	return k;
}

static uint64_t *tuple_slot(const struct tuple_set *ts, uint64_t k)
{
	uint64_t i = (k * 0x9E3779B97F4A7C15ull) >> 20;

	while (ts->keys[i & ts->mask] != UINT64_MAX && ts->keys[i & ts->mask] != k)
		i++;
	return &ts->keys[i & ts->mask];
}

/*
 * OpenSM's fabric_get_new_tuple: from's tuple one level down (the digit
 * after from's own) or up (from's last digit), that digit the least still free.
 * @return 0, or -1 when all 255 are taken
 */
static int new_tuple(const struct tuple_set *ts, const uint8_t *from, int down, uint8_t *out)
{
	uint8_t tmp[FTREE_TUPLE_LEN];
	unsigned var = down ? from[0] + 1u : from[0];

	memcpy(tmp, from, FTREE_TUPLE_LEN);
	tmp[0] = (uint8_t)(down ? from[0] + 1 : from[0] - 1);
	for (unsigned i = 0; i < 0xFF; i++) {
		tmp[var] = (uint8_t)i;
		if (*tuple_slot(ts, tuple_key(tmp)) == UINT64_MAX) {
			memcpy(out, tmp, FTREE_TUPLE_LEN);
			return 0;
		}
	}
	return -1;
}

static void give_tuple(struct ftree *t, struct tuple_set *ts, uint32_t s, const uint8_t *tuple)
{
	memcpy(t->sw[s].tuple, tuple, FTREE_TUPLE_LEN);
	*tuple_slot(ts, tuple_key(tuple)) = tuple_key(tuple);
}

static int tuple_cmp(const uint8_t *a, const uint8_t *b)
{
	return memcmp(a, b, FTREE_TUPLE_LEN);
}

/* Groups to switches by the far switch's tuple, CA groups after them in their order. */
static int group_before(const struct ftree *t, uint32_t a, uint32_t b)
{
	const struct ftree_group *ga = &t->groups[a], *gb = &t->groups[b];

	if (ga->remote_is_ca || gb->remote_is_ca)
		return !ga->remote_is_ca && gb->remote_is_ca;
	return tuple_cmp(t->sw[ga->remote].tuple, t->sw[gb->remote].tuple) < 0;
}

static void sort_by_tuple(const struct ftree *t, uint32_t *list, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		uint32_t g = list[i], j = i;

		for (; j > 0 && group_before(t, g, list[j - 1]); j--)
			list[j] = list[j - 1];
		list[j] = g;
	}
}

/* Tuples for the far switches of list not yet indexed (BFS step); 0 or -1 (over 255). */
static int index_far(struct ftree *t, struct tuple_set *ts, uint32_t s, const uint32_t *list,
		     uint32_t n, int down, uint32_t *queue, uint32_t *tail)
{
	uint8_t tuple[FTREE_TUPLE_LEN];

	for (uint32_t i = 0; i < n; i++) {
		const struct ftree_group *g = &t->groups[list[i]];

		if (g->remote_is_ca || t->sw[g->remote].tuple[0] != 0xFF)
			continue;
		if (new_tuple(ts, t->sw[s].tuple, down, tuple))
			return -1;
		give_tuple(t, ts, g->remote, tuple);
		queue[(*tail)++] = g->remote;
	}
	return 0;
}

/* The leaf switch OpenSM starts indexing from: the first in its GUID map's order. */
static uint32_t first_leaf(const struct ftree *t)
{
	uint32_t best = LANES_NONE;
	uint64_t best_key = 0;

	for (uint32_t s = 0; s < t->f->num_switches; s++) {
		uint64_t k = lanes_route_osm_guid_key(t->f->nodes[t->f->switches[s]].guid);

		if (t->sw[s].is_leaf && (best == LANES_NONE || k < best_key)) {
			best = s;
			best_key = k;
		}
	}
	return best;
}

/*
 * OpenSM's fabric_make_indexing: the first leaf gets (rank, 0, ..., 0);
 * a BFS gives each switch found through a down group or an up group the
 * least free tuple one level down or up, and sorts each switch's groups by
 * their far switch's tuple.
 */
static int make_indexing(struct ftree *t, struct lanes_error *err)
{
	uint32_t n = t->f->num_switches, head = 0, tail = 0, cap = 16, s;
	uint32_t *queue = malloc(sizeof(uint32_t) * ((size_t)n + 1));
	uint8_t tuple[FTREE_TUPLE_LEN];
	struct tuple_set ts = { 0 };
	int rc = 0;

	while (cap < 2 * (uint64_t)n + 2)
		cap *= 2;
	ts.mask = cap - 1;
	ts.keys = malloc(sizeof(uint64_t) * cap);
	if (!queue || !ts.keys) {
		rc = lanes_error_oom(err);
		goto out;
	}
	memset(ts.keys, 0xFF, sizeof(uint64_t) * cap);
	s = first_leaf(t);
	memset(tuple, 0xFF, sizeof(tuple));
	tuple[0] = (uint8_t)t->sw[s].rank;
	memset(tuple + 1, 0, t->sw[s].rank);
	give_tuple(t, &ts, s, tuple);
	queue[tail++] = s;
	while (head < tail && !rc) {
		struct ftree_switch *w = &t->sw[s = queue[head++]];

		if (w->rank < t->leaf_rank) {
			rc = index_far(t, &ts, s, w->down, w->num_down, 1, queue, &tail);
			sort_by_tuple(t, w->down, w->num_down);
		}
		if (w->rank != 0 && !rc) {
			rc = index_far(t, &ts, s, w->up, w->num_up, 0, queue, &tail);
			sort_by_tuple(t, w->up, w->num_up);
		}
		if (rc) {
			char name[96];

			rc = lanes_error_set(err, LANES_EREFUSED,
					     "ftree: switch %s has more than 255 neighbours one "
					     "level away, more than OpenSM's tuples hold",
					     sw_name(t->f, s, name, sizeof(name)));
		}
	}
out:
	free(queue);
	free(ts.keys);
	return rc;
}

static int leaf_before(const struct ftree *t, uint32_t a, uint32_t b)
{
	return tuple_cmp(t->sw[a].tuple, t->sw[b].tuple) < 0;
}

/*
 * OpenSM's leaf_switches: the switches of the leaf rank by tuple, from the
 * first to the last with compute nodes; and max_cn_per_leaf, the most
 * compute-node ports of the CAs on one of them.
 */
static int make_leaves(struct ftree *t, struct lanes_error *err)
{
	uint32_t n = 0, first = LANES_NONE, last = 0;

	t->leaves = malloc(sizeof(uint32_t) * ((size_t)t->f->num_switches + 1));
	if (!t->leaves)
		return lanes_error_oom(err);
	for (uint32_t s = 0; s < t->f->num_switches; s++) {
		uint32_t j = n++;

		if (t->sw[s].rank != t->leaf_rank) {
			n--;
			continue;
		}
		for (; j > 0 && leaf_before(t, s, t->leaves[j - 1]); j--)
			t->leaves[j] = t->leaves[j - 1];
		t->leaves[j] = s;
	}
	for (uint32_t i = 0; i < n; i++)
		if (t->sw[t->leaves[i]].is_leaf) {
			first = first == LANES_NONE ? i : first;
			last = i;
		}
	t->num_leaves = last - first + 1;
	memmove(t->leaves, t->leaves + first, sizeof(uint32_t) * t->num_leaves);
	for (uint32_t i = 0; i < t->num_leaves; i++) {
		const struct ftree_switch *w = &t->sw[t->leaves[i]];
		uint32_t cns = 0;

		for (uint32_t k = 0; k < w->num_down; k++)
			if (t->groups[w->down[k]].remote_is_ca)
				cns += t->node_cns[t->groups[w->down[k]].remote];
		t->max_cn_per_leaf = cns > t->max_cn_per_leaf ? cns : t->max_cn_per_leaf;
	}
	return 0;
}

static int by_key(const void *pa, const void *pb)
{
	const uint64_t *a = pa, *b = pb;

	return a[0] < b[0] ? -1 : a[0] > b[0];
}

/*
 * Each group's far switch's place among all switches in tuple order, so
 * that the routing compares integers (a tuple read as a big-endian number
 * sorts as the tuple does).
 */
static int order_by_tuple(struct ftree *t, struct lanes_error *err)
{
	uint32_t n = t->f->num_switches;
	uint64_t *k = malloc(sizeof(uint64_t) * 2 * ((size_t)n + 1));
	uint32_t *order = malloc(sizeof(uint32_t) * ((size_t)n + 1));

	if (!k || !order) {
		free(k);
		free(order);
		return lanes_error_oom(err);
	}
	for (uint32_t s = 0; s < n; s++) {
		k[2 * s] = lanes_bswap64(tuple_key(t->sw[s].tuple));
		k[2 * s + 1] = s;
	}
	qsort(k, n, 2 * sizeof(uint64_t), by_key);
	for (uint32_t i = 0; i < n; i++)
		order[k[2 * i + 1]] = i;
	for (uint32_t g = 0; g < t->num_groups; g++)
		t->groups[g].remote_order =
			t->groups[g].remote_is_ca ? UINT32_MAX : order[t->groups[g].remote];
	free(k);
	free(order);
	return 0;
}

int lanes_ftree_build(struct ftree *t, struct lanes_error *err)
{
	const struct lanes_fabric *f = t->f;
	int rc;

	t->sw = calloc((size_t)f->num_switches + 1, sizeof(*t->sw));
	t->hops = malloc((size_t)f->num_switches + 1);
	t->hops_stamp = calloc((size_t)f->num_switches + 1, sizeof(uint32_t));
	if (!t->sw || !t->hops || !t->hops_stamp)
		return lanes_error_oom(err);
	for (uint32_t s = 0; s < f->num_switches; s++)
		memset(t->sw[s].tuple, 0xFF, FTREE_TUPLE_LEN);
	if ((rc = collect_cas(t, err)) || (rc = build_groups(t, err)) ||
	    (rc = rank_switches(t, err)))
		return rc;
	settle_cns(t);
	if ((rc = split_groups(t, err)) || (rc = make_indexing(t, err)) ||
	    (rc = make_leaves(t, err)) || (rc = order_by_tuple(t, err)) ||
	    (rc = make_twins(t, err)))
		return rc;
	return 0;
}

void lanes_ftree_free(struct ftree *t)
{
	free(t->sw);
	free(t->groups);
	free(t->ports);
	free(t->group_lists);
	free(t->cas);
	free(t->node_cns);
	free(t->leaves);
	free(t->hops);
	free(t->hops_stamp);
	free(t->twin_stamp);
	free(t->twin_hops);
}
