/*
 * ftree.c - fat-tree routing, the engine "ftree": OpenSM's Fat-tree routing
 * algorithm as OpenSM's doc/current-routing.txt describes it ("Fat-tree
 * Routing Algorithm"), with the behaviour of OpenSM 3.3.23's
 * osm_ucast_ftree.c, checked entry by entry against it on ibsim
 * (tests/interop/ftree_vs_opensm.sh). It routes the
 * "shift" permutation without two routes on one cable on a full fat tree,
 * and is free of credit loops on one VL, as up*-then-down* routing is.
 *
 * The algorithm.
 * 1. Compute nodes (CNs): the CA ports of cn_guid_file, or all CA ports.
 *    I/O nodes: the ports of io_guid_file.
 * 2. Ranks (ftree_build.c): the leaves are the switches with CNs, every
 *    switch is ranked by its hops from the leaves, reversed, so the top
 *    switches have rank 0 and the leaves the highest rank; or, with a root
 *    GUID file, by its hops from the roots. Each switch's cables become
 *    port groups (all cables to one neighbour), up or down.
 * 3. Tuples (ftree_build.c): from the first leaf in OpenSM's GUID order, a
 *    BFS gives each switch an index (rank, digit, digit, ...); groups are
 *    sorted by their far switch's index, and the leaves are taken in index
 *    order. OpenSM's LFTs depend on that order.
 * 4. Routing (ftree_route.c): for each leaf in index order, each CN below
 *    it gets its routes (a climb from the leaf that picks the least-loaded
 *    up group and cable at each level, and at each switch on the way every
 *    lower switch is told to send the LID up to it); a leaf with fewer CNs
 *    than the fullest counts dummy routes for the missing ones. Then the
 *    other CA ports, CA by CA, counted the same way after the CNs (I/O nodes
 *    may take max_reverse_hops reverse hops), then the switch LIDs,
 *    uncounted.
 * Every route goes up and then down, so the routes to CA LIDs never close a
 * credit loop, and on a full fat tree the counters spread the CN LIDs of a
 * leaf over different up cables and the LIDs of different leaves over the
 * roots: the shift permutation uses each cable once.
 *
 * Where this is not OpenSM (docs/ftree.md says why).
 * - The leaves: OpenSM takes every switch with a CN as a leaf and refuses a
 *   fabric whose CNs are not all on one level (its ERR AB26, AB2B). We try
 *   OpenSM's choice first; when some cable then joins two switches at one
 *   level we retry with the switches with at least m CNs as leaves, m
 *   growing, and take the first choice that makes a fat tree
 *   (ftree_build.c). CNs left on non-leaf switches are routed as OpenSM
 *   routes other CAs. When no choice works the fabric is refused naming the
 *   two switches cabled within a level, with LANES_EREFUSED.
 * - OpenSM also demands the same number of up and down groups and of cables
 *   per group on every switch of a rank (ERR AB09-AB0C); we route irregular
 *   trees (a missing leaf, a missing cable, uneven uplinks) as they are. A
 *   switch with no up groups acts as a root at any rank.
 * - Cables within a level (OpenSM's sibling groups) are refused rather
 *   than routed: no fat tree has them and they can close credit loops.
 * - Completion: OpenSM leaves entries it does not find by going up and down
 *   empty (the root switches' routes to each other's LIDs, CAs above the
 *   leaves seen from other roots). We fill each missing entry with the
 *   port to a neighbour that has a route, nearest first, so every switch
 *   reaches every LID; when CA traffic then takes such a path (or an I/O
 *   node's reverse hops), the verifier checks the CA-to-CA routes for credit
 *   loops and the fabric is refused, naming a switch, if they close one.
 * - LMC > 0 is refused (OpenSM falls back to minhop). Routers are left
 *   out, as OpenSM's ftree leaves them.
 *
 * Parameters (-e ftree:...): cn_guid_file=PATH, io_guid_file=PATH,
 * root_guid_file=PATH (the roots: switches are ranked by their hops from
 * them, OpenSM's fabric_rank_from_roots, ftree_build.c), max_reverse_hops=N
 * (default 0), ca_order_dump=PATH (write OpenSM's
 * opensm-ftree-ca-order.dump there). Files: one GUID per line (0x hex or
 * decimal, then anything), '#' comments, as OpenSM's parse_node_map reads;
 * a root GUID that names no switch is an error with its file and line
 * (OpenSM logs ERR AB24 and skips it).
 *
 * Result: uniform SL 0, one VL. Threads: the routing is sequential (each
 * LID's choices read the counters all earlier LIDs left); only the
 * verifier, when it must judge, runs with opts->threads. The output does
 * not depend on opts->threads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "io/text.h"
#include "lanes/io.h"
#include "lanes/verify.h"
#include "route/common/params.h"
#include "route/engines.h"
#include "route/ftree/ftree.h"

#define FTREE_PARAMS                                                                          \
	"cn_guid_file=PATH,io_guid_file=PATH,root_guid_file=PATH,max_reverse_hops=N,"          \
	"ca_order_dump=PATH"

struct ftree_params {
	char *cn_file, *io_file, *root_file, *ca_order_file; /* malloc'ed, or NULL */
	unsigned max_reverse_hops;
};

static int set_param(void *ctx, const char *w, size_t len, struct lanes_error *err)
{
	struct ftree_params *p = ctx;
	const char *eq = memchr(w, '=', len);
	size_t klen = eq ? (size_t)(eq - w) : len, vlen = eq ? len - klen - 1 : 0;
	char **file = NULL;

	if (!eq || !vlen)
		return lanes_error_set(err, LANES_EINVAL, "ftree: parameter '%.*s' needs a value (%s)",
				       (int)klen, w, FTREE_PARAMS);
	if (klen == 12 && !memcmp(w, "cn_guid_file", 12))
		file = &p->cn_file;
	else if (klen == 12 && !memcmp(w, "io_guid_file", 12))
		file = &p->io_file;
	else if (klen == 14 && !memcmp(w, "root_guid_file", 14))
		file = &p->root_file;
	else if (klen == 13 && !memcmp(w, "ca_order_dump", 13))
		file = &p->ca_order_file;
	else if (klen == 16 && !memcmp(w, "max_reverse_hops", 16)) {
		struct lanes_scan sc = lanes_scan_of(eq + 1, vlen);
		uint64_t v;

		if (!lanes_scan_uint(&sc, 255, &v) || !lanes_scan_at_end(&sc))
			return lanes_error_set(err, LANES_EINVAL,
					       "ftree: max_reverse_hops must be 0..255, not '%.*s'",
					       (int)vlen, eq + 1);
		p->max_reverse_hops = (unsigned)v;
		return 0;
	} else
		return lanes_error_set(err, LANES_EINVAL, "ftree: unknown parameter '%.*s' (takes %s)",
				       (int)klen, w, FTREE_PARAMS);
	free(*file);
	*file = lanes_strndup(eq + 1, vlen);
	return *file ? 0 : lanes_error_oom(err);
}

/* opts->params: words separated by commas or blanks. */
static int parse_params(const char *params, struct ftree_params *p, struct lanes_error *err)
{
	memset(p, 0, sizeof(*p));
	return lanes_route_each_param(params, set_param, p, err);
}

/* One line of a GUID file: 1 and *guid, 0 blank or comment, or a parse error. */
static int guid_line(const char *s, size_t len, const char *path, unsigned long lineno,
		     uint64_t *guid, struct lanes_error *err)
{
	char buf[64];
	char *end;
	size_t n = 0;

	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	if (!len || *s == '#')
		return 0;
	while (n < len && n < sizeof(buf) - 1 && s[n] != ' ' && s[n] != '\t' && s[n] != '#')
		buf[n] = s[n], n++;
	buf[n] = 0;
	*guid = strtoull(buf, &end, 0);
	if (*end || !*guid)
		return lanes_error_parse(err, path, lineno, "expected a GUID (0x hex or decimal), not \"%s\"",
					 buf);
	return 1;
}

/* Called for each GUID of a file, with its line; 0 or a LANES_E* code. */
typedef int (*guid_fn)(void *ctx, uint64_t guid, const char *path, unsigned long lineno,
		       struct lanes_error *err);

/* Each GUID of the file at path, in file order; LANES_EINVAL when it names none. */
static int each_guid(const char *path, guid_fn fn, void *ctx, struct lanes_error *err)
{
	struct lanes_lines lines;
	char *data = NULL;
	size_t dlen = 0, len;
	const char *s;
	uint64_t guid;
	unsigned long count = 0;
	int rc;

	if ((rc = lanes_io_slurp(path, &data, &dlen, err)))
		goto out;
	lanes_lines_init(&lines, data, dlen, path);
	while (lanes_lines_next(&lines, &s, &len)) {
		if ((rc = guid_line(s, len, path, lines.lineno, &guid, err)) < 0)
			goto out;
		if (rc && (++count, rc = fn(ctx, guid, path, lines.lineno, err)))
			goto out;
	}
	rc = count ? 0 : lanes_error_set(err, LANES_EINVAL, "ftree: %s holds no GUID", path);
out:
	free(data);
	return rc;
}

struct guid_list {
	uint64_t *v;
	uint32_t n, cap;
};

static int add_guid(void *ctx, uint64_t guid, const char *path, unsigned long lineno,
		    struct lanes_error *err)
{
	struct guid_list *l = ctx;

	(void)path, (void)lineno;
	if (l->n == l->cap) {
		uint64_t *nv = realloc(l->v, sizeof(*nv) * (l->cap = l->cap ? 2 * l->cap : 64));

		if (!nv)
			return lanes_error_oom(err);
		l->v = nv;
	}
	l->v[l->n++] = guid;
	return 0;
}

/* The GUIDs of a file, sorted; LANES_EINVAL when it names none (OpenSM's AB27, AB29). */
static int read_guids(const char *path, uint64_t **out, uint32_t *count, struct lanes_error *err)
{
	struct guid_list l = { NULL, 0, 0 };
	int rc = each_guid(path, add_guid, &l, err);

	if (rc) {
		free(l.v);
		return rc;
	}
	qsort(l.v, l.n, sizeof(*l.v), lanes_cmp_u64);
	*out = l.v;
	*count = l.n;
	return 0;
}

/* The root GUID file being read: node GUIDs (with node index) sorted, switches marked. */
struct root_reader {
	const struct lanes_fabric *f;
	uint64_t *by_guid;  /* pairs: node GUID, node index */
	uint8_t *is_root;   /* per switch index */
};

static int by_first(const void *pa, const void *pb)
{
	const uint64_t *a = pa, *b = pb;

	return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) : (a[1] > b[1]) - (a[1] < b[1]);
}

/* One root: the node GUID of a switch, else a file:line error. */
static int add_root(void *ctx, uint64_t guid, const char *path, unsigned long lineno,
		    struct lanes_error *err)
{
	struct root_reader *rd = ctx;
	const struct lanes_fabric *f = rd->f;
	size_t lo = 0, hi = f->num_nodes;
	const struct lanes_node *nd;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rd->by_guid[2 * mid] < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == f->num_nodes || rd->by_guid[2 * lo] != guid)
		return lanes_error_parse(err, path, lineno,
					 "0x%016llx is not the node GUID of any switch of the "
					 "fabric", (unsigned long long)guid);
	nd = &f->nodes[rd->by_guid[2 * lo + 1]];
	if (nd->type != LANES_NODE_SWITCH)
		return lanes_error_parse(err, path, lineno,
					 "0x%016llx is %s \"%.40s\", not a switch: the roots are "
					 "switches", (unsigned long long)guid,
					 nd->type == LANES_NODE_CA ? "CA" : "router", nd->desc);
	rd->is_root[nd->switch_index] = 1;
	return 0;
}

/*
 * OpenSM's root_guid_file for ftree: the switches named, by node GUID,
 * ascending by switch index. Unlike OpenSM (ERR AB24, which skips it), a
 * GUID that names no switch is an error, with its file and line.
 */
static int read_roots(const struct lanes_fabric *f, const char *path, uint32_t **out,
		      uint32_t *count, struct lanes_error *err)
{
	struct root_reader rd = { f, malloc(sizeof(uint64_t) * 2 * ((size_t)f->num_nodes + 1)),
				  calloc((size_t)f->num_switches + 1, 1) };
	uint32_t *roots = malloc(sizeof(uint32_t) * ((size_t)f->num_switches + 1)), n = 0;
	int rc;

	if (!rd.by_guid || !rd.is_root || !roots) {
		rc = lanes_error_oom(err);
		goto out;
	}
	for (uint32_t i = 0; i < f->num_nodes; i++) {
		rd.by_guid[2 * i] = f->nodes[i].guid;
		rd.by_guid[2 * i + 1] = i;
	}
	qsort(rd.by_guid, f->num_nodes, 2 * sizeof(uint64_t), by_first);
	if ((rc = each_guid(path, add_root, &rd, err)))
		goto out;
	for (uint32_t s = 0; s < f->num_switches; s++)
		if (rd.is_root[s])
			roots[n++] = s;
	*out = roots;
	*count = n;
	roots = NULL;
out:
	free(rd.by_guid);
	free(rd.is_root);
	free(roots);
	return rc;
}

/* ------------------------------------------------------------ completion */

/* What the completion did to CA traffic: the first switch with CAs it gave a route. */
struct completion {
	uint32_t ca_switch; /* LANES_NONE when CA traffic kept its up/down routes */
	uint32_t ca_lid;
	uint64_t entries;   /* entries filled */
};

/* A switch the completion reaches in one layer of its BFS, and how. */
struct step {
	uint64_t key; /* its place in the BFS order: the place of the neighbour, then its port */
	uint32_t sw;
	uint8_t port; /* sw's port to that neighbour */
};

static int by_step_key(const void *pa, const void *pb)
{
	const struct step *a = pa, *b = pb;

	return a->key < b->key ? -1 : a->key > b->key;
}

/*
 * One layer of the completion's BFS, seen from the switches without a
 * route: each takes the neighbour with a route that comes first in the
 * BFS's queue (place[], or in layer 1 the switch index), then that
 * neighbour's least port, as the BFS, taking each switch's cables in port
 * order, would reach it. Only the previous layer can neighbour a switch
 * still without a route. A key orders its layer as the queue does, so it
 * serves as the place for the next layer while it fits (8 bits a layer).
 * @return the switches reached, in step[]; *unrouted those without a route
 */
static uint32_t next_layer(const struct ftree *t, const uint8_t *col, const uint64_t *place,
			   uint32_t layer, struct step *step, uint32_t *unrouted)
{
	const struct lanes_fabric *f = t->f;
	uint32_t n = 0;

	*unrouted = 0;
	for (uint32_t u = 0; u < f->num_switches; u++) {
		struct step best = { UINT64_MAX, u, 0 };

		if (col[u] != LANES_PORT_DROP)
			continue;
		(*unrouted)++;
		for (uint32_t e = f->adj_off[u]; e < f->adj_off[u + 1]; e++) {
			uint32_t v = f->adj[e].sw;
			uint64_t key = (layer == 1 ? v : place[v]) << 8 | f->adj[e].peer_port;

			if (col[v] != LANES_PORT_DROP && key < best.key)
				best = (struct step){ key, u, f->adj[e].port };
		}
		if (best.key != UINT64_MAX)
			step[n++] = best;
	}
	return n;
}

/*
 * Fill lid's empty entries as a BFS from the switches that route it (its
 * queue in index order) fills them: each switch reached sends lid to the
 * neighbour that reached it first. Computed layer by layer from the
 * switches without a route (next_layer), so that only their cables are
 * looked at; on a fat tree one layer, the roots, is mostly all.
 */
static void complete_lid(const struct ftree *t, uint32_t lid, int is_ca_lid, struct step *step,
			 uint64_t *place, struct completion *c)
{
	const uint8_t *col = lanes_routing_column(t->r, lid);
	uint32_t n, unrouted;

	if (!memchr(col, LANES_PORT_DROP, t->f->num_switches))
		return;
	for (uint32_t layer = 1;; layer++) {
		struct step first_ca = { UINT64_MAX, LANES_NONE, 0 }; /* the first with CAs */
		uint64_t max_key = 0;

		n = next_layer(t, col, place, layer, step, &unrouted);
		if (!n || unrouted == t->f->num_switches)
			return;
		for (uint32_t i = 0; i < n; i++) {
			lanes_routing_set_port(t->r, step[i].sw, lid, step[i].port);
			place[step[i].sw] = step[i].key;
			max_key = step[i].key > max_key ? step[i].key : max_key;
			if (t->sw[step[i].sw].num_ca_ports && step[i].key < first_ca.key)
				first_ca = step[i];
		}
		if (n < unrouted && max_key >> 56) {
			/* the next keys would not fit: the places become ranks */
			qsort(step, n, sizeof(*step), by_step_key);
			for (uint32_t i = 0; i < n; i++)
				place[step[i].sw] = i;
		}
		c->entries += n;
		if (is_ca_lid && first_ca.sw != LANES_NONE && c->ca_switch == LANES_NONE) {
			c->ca_switch = first_ca.sw;
			c->ca_lid = lid;
		}
		if (n == unrouted)
			return;
	}
}

/* Complete every LID a CA port or a switch owns. */
static int complete_all(const struct ftree *t, struct completion *c, struct lanes_error *err)
{
	const struct lanes_fabric *f = t->f;
	uint64_t *place = malloc(sizeof(uint64_t) * ((size_t)f->num_switches + 1));
	struct step *step = malloc(sizeof(*step) * ((size_t)f->num_switches + 1));

	if (!place || !step) {
		free(place);
		free(step);
		return lanes_error_oom(err);
	}
	*c = (struct completion){ LANES_NONE, 0, 0 };
	for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
		uint32_t node = f->lid_owner[lid].node;

		if (node == LANES_NONE || f->nodes[node].type == LANES_NODE_ROUTER ||
		    lanes_fabric_lid_switch(f, lid) == LANES_NONE)
			continue;
		complete_lid(t, lid, f->nodes[node].type == LANES_NODE_CA, step, place, c);
	}
	free(place);
	free(step);
	return 0;
}

/*
 * *cycle_sw: a switch on a credit loop of the CA-to-CA routes on one VL
 * (the verifier's judgement, lanes/verify.h), or LANES_NONE when they close none.
 */
static int ca_routes_cyclic(const struct ftree *t, unsigned threads, uint32_t *cycle_sw,
			    struct lanes_error *err)
{
	struct lanes_verify_opts vo;
	struct lanes_verify_result *res = NULL;
	int rc;

	lanes_verify_opts_init(&vo);
	vo.ca_only = 1;
	vo.max_vls = 1;
	vo.ebb_patterns = 0;
	vo.threads = threads;
	if ((rc = lanes_verify(t->f, t->r, &vo, &res, err)))
		return rc;
	*cycle_sw = res->deadlock_free ? LANES_NONE : res->cycle_len ? res->cycle[0].from_sw : 0;
	lanes_verify_result_free(res);
	return 0;
}

/* Refuse a routing whose completed or reverse-hop paths close a credit loop. */
static int refuse_loop(const struct ftree *t, const struct completion *c, uint32_t cycle_sw,
		       struct lanes_error *err)
{
	const struct lanes_fabric *f = t->f;

	if (c->ca_switch == LANES_NONE)
		return lanes_error_set(err, LANES_EREFUSED,
				       "ftree: the I/O nodes' reverse hops (max_reverse_hops %u) close "
				       "a credit loop through switch 0x%016llx \"%.40s\"",
				       t->max_reverse_hops,
				       (unsigned long long)f->nodes[f->switches[cycle_sw]].guid,
				       f->nodes[f->switches[cycle_sw]].desc);
	{
		uint32_t at = lanes_fabric_lid_switch(f, c->ca_lid), from = c->ca_switch;

		return lanes_error_set(err, LANES_EREFUSED,
				       "ftree: not a fat tree for up/down routing: CA LID %u hangs off "
				       "switch 0x%016llx \"%.40s\" above the leaves (rank %u), and "
				       "switch 0x%016llx \"%.40s\" reaches it only by going down and up "
				       "again, which closes a credit loop",
				       c->ca_lid, (unsigned long long)f->nodes[f->switches[at]].guid,
				       f->nodes[f->switches[at]].desc, t->sw[at].rank,
				       (unsigned long long)f->nodes[f->switches[from]].guid,
				       f->nodes[f->switches[from]].desc);
	}
}

static int set_notes(struct lanes_routing *r, const struct ftree *t, const struct completion *c,
		     struct lanes_error *err)
{
	uint32_t roots = 0, cns = 0;

	for (uint32_t s = 0; s < t->f->num_switches; s++)
		roots += !t->sw[s].num_up;
	for (uint32_t i = 0; i < t->num_cas; i++)
		cns += t->cas[i].is_cn;
	free(r->notes);
	r->notes = lanes_aprintf("ftree: %u levels, %u leaf switches, %u roots, %u compute nodes "
				 "of %u CA ports (at most %u on a leaf); %llu entries completed "
				 "outside up/down",
				 t->leaf_rank + 1, t->num_leaves, roots, cns, t->num_cas,
				 t->max_cn_per_leaf, (unsigned long long)c->entries);
	return r->notes ? 0 : lanes_error_oom(err);
}

/* ------------------------------------------------------------ CA order */

/* The first port of CA node cabled to switch s (OpenSM's hca_get_port_group_by_remote_lid). */
static const struct ftree_ca_port *first_port_to(const struct ftree *t, uint32_t node, uint32_t s)
{
	uint32_t lo = 0, hi = t->num_cas;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->cas[mid].node < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < t->num_cas && t->cas[lo].node == node; lo++)
		if (t->cas[lo].sw == s)
			return &t->cas[lo];
	return NULL;
}

/*
 * OpenSM's opensm-ftree-ca-order.dump (osm_ucast_ftree.c,
 * fabric_dump_hca_ordering): the compute nodes in the order the routing
 * took them, so that a job placed in this order gets the shift pattern the
 * tables balance. Leaf by leaf, each CA cabled to it whose port there is a
 * compute node, "0xLID<tab>description" (the LID of the CA's first port on
 * that leaf, as OpenSM prints it), then "0xFFFF<tab>DUMMY" for each dummy.
 * A leaf's down groups are all CAs and never change order (their sort keys
 * are all equal), so they are read as they are.
 */
static int write_ca_order(const struct ftree *t, const char *path, struct lanes_error *err)
{
	struct lanes_atomic a;
	int rc;

	if ((rc = lanes_atomic_open(&a, path, err)))
		return rc;
	for (uint32_t i = 0; i < t->num_leaves; i++) {
		const struct ftree_switch *w = &t->sw[t->leaves[i]];
		uint32_t printed = 0;

		for (uint32_t k = 0; k < w->num_down; k++) {
			const struct ftree_group *g = &t->groups[w->down[k]];
			const struct ftree_ca_port *c;

			if (!g->remote_is_ca || !(c = first_port_to(t, g->remote, t->leaves[i])) ||
			    !c->is_cn)
				continue;
			fprintf(a.fp, "0x%04x\t%s\n", c->lid, t->f->nodes[c->node].desc);
			printed++;
		}
		for (; printed < t->max_cn_per_leaf; printed++)
			fputs("0xFFFF\tDUMMY\n", a.fp);
	}
	return lanes_atomic_commit(&a, err);
}

/* Build, route, complete and check; r belongs to t. */
static int route_tree(struct ftree *t, const struct lanes_route_opts *opts, struct lanes_error *err)
{
	struct completion c = { LANES_NONE, 0, 0 };
	uint32_t cycle_sw = LANES_NONE;
	int rc;

	if ((rc = lanes_ftree_build(t, err)) ||
	    (rc = lanes_ftree_route_all(t, opts->switch_lids, err)) ||
	    (opts->switch_lids && (rc = complete_all(t, &c, err))))
		return rc;
	if ((c.ca_switch != LANES_NONE || t->reverse_hops_used) &&
	    (rc = ca_routes_cyclic(t, opts->threads, &cycle_sw, err)))
		return rc;
	if (cycle_sw != LANES_NONE)
		return refuse_loop(t, &c, cycle_sw, err);
	return set_notes(t->r, t, &c, err);
}

static int route_ftree(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		       struct lanes_routing **out, struct lanes_error *err)
{
	struct ftree_params p;
	struct ftree t = { .f = f, .progress = opts->progress };
	uint64_t *cn = NULL, *io = NULL;
	uint32_t *roots = NULL;
	int rc;

	*out = NULL;
	if ((rc = parse_params(opts->params, &p, err)) ||
	    (p.cn_file && (rc = read_guids(p.cn_file, &cn, &t.num_cn_guids, err))) ||
	    (p.io_file && (rc = read_guids(p.io_file, &io, &t.num_io_guids, err))) ||
	    (p.root_file && (rc = read_roots(f, p.root_file, &roots, &t.num_roots, err))))
		goto out;
	t.cn_guids = cn;
	t.io_guids = io;
	t.roots = roots;
	t.max_reverse_hops = p.max_reverse_hops;
	if ((rc = lanes_routing_new(f, &t.r, err)) || (rc = route_tree(&t, opts, err)) ||
	    (p.ca_order_file && (rc = write_ca_order(&t, p.ca_order_file, err))))
		goto out;
	*out = t.r;
	t.r = NULL;
out:
	lanes_routing_free(t.r);
	lanes_ftree_free(&t);
	free(cn);
	free(io);
	free(roots);
	free(p.cn_file);
	free(p.io_file);
	free(p.root_file);
	free(p.ca_order_file);
	return rc;
}

const struct lanes_engine lanes_engine_ftree = {
	.name = "ftree",
	.summary = "OpenSM's fat-tree routing: up then down, balanced for the shift permutation",
	.scope = "fat trees",
	.resources = "1 VL",
	.source = "OpenSM doc/current-routing.txt, Fat-tree Routing Algorithm; OpenSM 3.3.23 "
		  "osm_ucast_ftree.c",
	.flags = LANES_ENGINE_DEADLOCK_FREE,
	.params_usage = FTREE_PARAMS,
	.route = route_ftree,
};
