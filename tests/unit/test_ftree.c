/*
 * test_ftree.c - the fat-tree engine ftree (OpenSM's fat-tree routing,
 * src/route/ftree/) against what holds independently of its output:
 *  - on k-ary n-trees and an XGFT, every CA-to-CA route is a shortest path
 *    and goes up, then down: the test ranks the switches itself (hops from
 *    the switches with CAs, a BFS of its own) and walks the LFTs;
 *  - the shift permutation (host i to host i + s, hosts in the generator's
 *    order, every s) puts at most one route on each cable direction: the
 *    optimality OpenSM's doc/current-routing.txt promises;
 *  - the verifier finds no credit loop with 1 VL and every pair reachable;
 *  - the real fat trees: routed and verified, or refused with a reason that
 *    names a switch; a leaf without CAs, or gone: routed, shortest, up then
 *    down, verified;
 *  - the compute-node GUID file changes which CAs are balanced: with one
 *    CA per leaf as the compute nodes, their own shift permutation is
 *    optimal;
 *  - tori, hypercubes and dragonflies are refused naming a switch; bad
 *    parameters name the parameter; threads do not matter.
 */
#include "testutil.h"

#include <unistd.h>

static const struct lanes_engine *ftree(void)
{
	const struct lanes_engine *e = lanes_engine_find("ftree");

	assert_non_null(e);
	return e;
}

static struct lanes_routing *route_params(const struct lanes_fabric *f, const char *params)
{
	struct lanes_route_opts o;
	struct lanes_routing *r = NULL;
	struct lanes_error err;

	lanes_route_opts_init(&o);
	o.threads = 1;
	o.params = params;
	if (lanes_route(ftree(), f, &o, &r, &err))
		fail_msg("ftree: %s", err.message);
	return r;
}

/* Hops from the nearest switch with a CA: the test's own ranking (leaves 0). */
static uint32_t *heights(const struct lanes_fabric *f)
{
	uint32_t *h = malloc(sizeof(uint32_t) * f->num_switches), *q = malloc(sizeof(uint32_t) * f->num_switches);
	uint32_t head = 0, tail = 0;

	for (uint32_t s = 0; s < f->num_switches; s++)
		h[s] = UINT32_MAX;
	for (uint32_t n = 0; n < f->num_nodes; n++)
		for (uint8_t p = 1; f->nodes[n].type == LANES_NODE_CA && p <= f->nodes[n].nports; p++) {
			uint32_t peer = f->ports[f->nodes[n].port_base + p].peer_node;
			uint32_t s = peer == LANES_NONE ? LANES_NONE : f->nodes[peer].switch_index;

			if (s != LANES_NONE && h[s]) {
				h[s] = 0;
				q[tail++] = s;
			}
		}
	while (head < tail) {
		uint32_t s = q[head++];

		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++)
			if (h[f->adj[e].sw] == UINT32_MAX) {
				h[f->adj[e].sw] = h[s] + 1;
				q[tail++] = f->adj[e].sw;
			}
	}
	free(q);
	return h;
}

/* Switch-to-switch hops from s to every switch (BFS). */
static void distances(const struct lanes_fabric *f, uint32_t s, uint32_t *d, uint32_t *q)
{
	uint32_t head = 0, tail = 0;

	for (uint32_t i = 0; i < f->num_switches; i++)
		d[i] = UINT32_MAX;
	d[s] = 0;
	q[tail++] = s;
	while (head < tail) {
		uint32_t x = q[head++];

		for (uint32_t e = f->adj_off[x]; e < f->adj_off[x + 1]; e++)
			if (d[f->adj[e].sw] == UINT32_MAX) {
				d[f->adj[e].sw] = d[x] + 1;
				q[tail++] = f->adj[e].sw;
			}
	}
}

/* The CA ports cabled to switches, in node then port order: LIDs and switches. */
struct hosts {
	uint32_t n, *lid, *sw;
};

static struct hosts hosts_of(const struct lanes_fabric *f, int (*keep)(uint64_t guid))
{
	struct hosts h = { 0, malloc(sizeof(uint32_t) * f->num_port_slots),
			   malloc(sizeof(uint32_t) * f->num_port_slots) };

	for (uint32_t n = 0; n < f->num_nodes; n++)
		for (uint8_t p = 1; f->nodes[n].type == LANES_NODE_CA && p <= f->nodes[n].nports; p++) {
			const struct lanes_port *pt = &f->ports[f->nodes[n].port_base + p];

			if (pt->peer_node == LANES_NONE || (keep && !keep(pt->guid)))
				continue;
			h.lid[h.n] = pt->lid;
			h.sw[h.n++] = f->nodes[pt->peer_node].switch_index;
		}
	return h;
}

static void hosts_free(struct hosts *h)
{
	free(h->lid);
	free(h->sw);
}

/* The switch and port at the far end of (switch s, port p). */
static uint32_t next_switch(const struct lanes_fabric *f, uint32_t s, uint8_t p)
{
	const struct lanes_port *pt = &f->ports[f->nodes[f->switches[s]].port_base + p];

	assert_int_not_equal(pt->peer_node, LANES_NONE);
	return f->nodes[pt->peer_node].switch_index;
}

/* Every host-to-host route: shortest, and up (towards greater height) then down. */
static void check_up_down_shortest_on(const struct lanes_fabric *f, const char *spec)
{
	struct lanes_routing *r = route_params(f, NULL);
	struct hosts h = hosts_of(f, NULL);
	uint32_t *ht = heights(f), *d = malloc(sizeof(uint32_t) * f->num_switches),
		 *q = malloc(sizeof(uint32_t) * f->num_switches);

	for (uint32_t a = 0; a < h.n; a++) {
		distances(f, h.sw[a], d, q);
		for (uint32_t b = 0; b < h.n; b++) {
			uint32_t s = h.sw[a], hops = 0;
			int down = 0;

			while (s != h.sw[b]) {
				uint32_t nx = next_switch(f, s, lanes_routing_port(r, s, h.lid[b]));

				if (ht[nx] < ht[s])
					down = 1;
				else if (down)
					fail_msg("%s: LID %u from switch %u goes up after down", spec, h.lid[b],
						 h.sw[a]);
				assert_int_not_equal(ht[nx], ht[s]);
				s = nx;
				assert_true(++hops <= 2 * f->num_switches);
			}
			if (hops != d[h.sw[b]])
				fail_msg("%s: %u hops from switch %u to LID %u, shortest %u", spec, hops,
					 h.sw[a], h.lid[b], d[h.sw[b]]);
		}
	}
	free(ht);
	free(d);
	free(q);
	hosts_free(&h);
	lanes_routing_free(r);
}

static void check_up_down_shortest(const char *spec)
{
	struct lanes_fabric *f = gen(spec);

	check_up_down_shortest_on(f, spec);
	lanes_fabric_free(f);
}

static void test_routes_are_shortest_up_then_down(void **state)
{
	(void)state;
	check_up_down_shortest("fattree k=4 n=3");
	check_up_down_shortest("fattree k=2 n=4");
	check_up_down_shortest("xgft h=3 m=2,2,3 w=1,2,2");
}

/*
 * The most routes one cable direction carries under the shift permutations
 * of the hosts h (host i sends to host i + s mod n), the worst s.
 */
static uint32_t shift_max_load(const struct lanes_fabric *f, const struct lanes_routing *r,
			       const struct hosts *h)
{
	uint32_t *load = malloc(sizeof(uint32_t) * f->num_port_slots), worst = 0;

	for (uint32_t s = 1; s < h->n; s++) {
		memset(load, 0, sizeof(uint32_t) * f->num_port_slots);
		for (uint32_t a = 0; a < h->n; a++) {
			uint32_t b = (a + s) % h->n, x = h->sw[a];

			while (x != h->sw[b]) {
				uint8_t p = lanes_routing_port(r, x, h->lid[b]);
				uint32_t slot = f->nodes[f->switches[x]].port_base + p;

				if (++load[slot] > worst)
					worst = load[slot];
				x = next_switch(f, x, p);
			}
		}
	}
	free(load);
	return worst;
}

static void check_shift(const char *spec)
{
	struct lanes_fabric *f = gen(spec);
	struct lanes_routing *r = route_params(f, NULL);
	struct hosts h = hosts_of(f, NULL);

	if (shift_max_load(f, r, &h) != 1)
		fail_msg("%s: a cable carries %u routes of one shift", spec, shift_max_load(f, r, &h));
	hosts_free(&h);
	lanes_routing_free(r);
	lanes_fabric_free(f);
}

static void test_shift_permutation_one_route_per_cable(void **state)
{
	(void)state;
	check_shift("fattree k=4 n=3");
	check_shift("fattree k=2 n=4");
	check_shift("fattree k=3 n=3");
}

static void check_verified(const struct lanes_fabric *f, const struct lanes_routing *r,
			   const char *name)
{
	struct lanes_verify_result *res = verify_quick(f, r, 1, 0, 0);

	if (!res->reachable || !res->deadlock_free || res->vls_used != 1)
		fail_msg("%s: reachable %d, deadlock free %d, %u VLs", name, res->reachable,
			 res->deadlock_free, res->vls_used);
	lanes_verify_result_free(res);
}

static void test_verifier_finds_no_credit_loop(void **state)
{
	static const char *const specs[] = { "fattree k=4 n=3", "fattree k=2 n=4",
					     "xgft h=3 m=2,2,3 w=1,2,2", "xgft h=2 m=4,4 w=1,3" };

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct lanes_fabric *f = gen(specs[i]);
		struct lanes_routing *r = route_params(f, NULL);

		check_verified(f, r, specs[i]);
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
}

/* The error of a refused routing (with params), and its code. */
static struct lanes_error refusal(const struct lanes_fabric *f, const char *params, int *code)
{
	struct lanes_route_opts o;
	struct lanes_routing *r = NULL;
	struct lanes_error err;

	memset(&err, 0, sizeof(err));
	lanes_route_opts_init(&o);
	o.params = params;
	*code = lanes_route(ftree(), f, &o, &r, &err);
	if (!*code) {
		lanes_routing_free(r);
		fail_msg("ftree: expected a refusal");
	}
	return err;
}

/*
 * The three real fat trees OpenSM's ftree refuses: ut_stage (3 CAs on a
 * spine) and psmn_x5 (a top switch above only two of four middle switches)
 * are routed and verified; the DGX SuperPOD (a SHARP aggregation node, a
 * CA, on every spine and core switch) is routed or refused naming a switch.
 */
static void test_real_fat_trees(void **state)
{
	static const char *const files[] = { "ut_stage_sx6036_fdr10_ibnetdiscover.txt",
					     "psmn_x5_qdr_ibnetdiscover.txt",
					     "dgxa100_superpod_qm8790_hdr_ibnetdiscover.txt" };

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct lanes_fabric *f = read_fabric(LANES_DATA_DIR, files[i], NULL);
		struct lanes_route_opts o;
		struct lanes_routing *r = NULL;
		struct lanes_error err;
		int rc;

		lanes_route_opts_init(&o);
		rc = lanes_route(ftree(), f, &o, &r, &err);
		if (i < 2 && rc)
			fail_msg("%s: %s", files[i], err.message);
		if (!rc)
			check_verified(f, r, files[i]);
		else if (rc != LANES_EREFUSED || !strstr(err.message, "switch 0x"))
			fail_msg("%s: refused without naming a switch: %s", files[i], err.message);
		else
			print_message("%s: %s\n", files[i], err.message);
		lanes_routing_free(r);
		lanes_fabric_free(f);
	}
}

/* The GUID of every fourth host of fattree k=4 n=3: one CA per leaf (ports go in leaf order). */
static uint64_t cn_of_leaf[16];

static int is_listed_cn(uint64_t guid)
{
	for (size_t i = 0; i < 16; i++)
		if (cn_of_leaf[i] == guid)
			return 1;
	return 0;
}

/* f without the CAs keep() rejects and without node drop (or LANES_NONE), GUIDs and LIDs kept. */
static struct lanes_fabric *strip_nodes(const struct lanes_fabric *f, int (*keep)(uint64_t guid),
					uint32_t drop)
{
	struct lanes_builder *b = tb_new();
	uint32_t *idx = malloc(sizeof(uint32_t) * f->num_nodes);
	struct lanes_error err;

	for (uint32_t n = 0; n < f->num_nodes; n++) {
		const struct lanes_node *nd = &f->nodes[n];
		struct lanes_node_spec spec = { nd->type, nd->nports, nd->guid, nd->sysimage_guid,
						nd->vendor_id, nd->device_id, nd->desc };

		idx[n] = LANES_NONE;
		if (n == drop || (nd->type == LANES_NODE_CA && !keep(f->ports[nd->port_base + 1].guid)))
			continue;
		assert_int_equal(lanes_builder_add_node(b, &spec, &idx[n], &err), 0);
		for (uint8_t p = nd->type == LANES_NODE_SWITCH ? 0 : 1;
		     p <= (nd->type == LANES_NODE_SWITCH ? 0 : nd->nports); p++) {
			const struct lanes_port *pt = &f->ports[nd->port_base + p];

			assert_int_equal(lanes_builder_set_port(b, idx[n], p, pt->guid, pt->lid, 0, &err), 0);
		}
	}
	for (uint32_t l = 0; l < f->num_links; l++) {
		const struct lanes_link *k = &f->links[l];

		if (idx[k->a] != LANES_NONE && idx[k->b] != LANES_NONE)
			tb_cable(b, idx[k->a], k->pa, idx[k->b], k->pb);
	}
	free(idx);
	return tb_finish(b);
}

/* The CN LIDs' entries of a and b (two fabrics with the same switches) differ somewhere. */
static int cn_entries_differ(const struct hosts *cns, const struct lanes_routing *a,
			     const struct lanes_routing *b, uint32_t num_switches)
{
	for (uint32_t i = 0; i < cns->n; i++)
		for (uint32_t s = 0; s < num_switches; s++)
			if (lanes_routing_port(a, s, cns->lid[i]) != lanes_routing_port(b, s, cns->lid[i]))
				return 1;
	return 0;
}

/*
 * cn_guid_file: only the compute nodes are balanced. With one CA per leaf of
 * fattree k=4 n=3 as the compute nodes, their routes are routed first and
 * counted alone, so they are the routes the same tree gets with the other
 * 48 CAs unplugged; with every CA a compute node they are not.
 */
static void test_cn_guid_file_changes_balancing(void **state)
{
	struct lanes_fabric *f = gen("fattree k=4 n=3"), *alone;
	struct hosts all = hosts_of(f, NULL), cns;
	char path[] = "/tmp/lanes_ftree_cnXXXXXX", params[64];
	struct lanes_routing *r_all, *r_cn, *r_alone;
	uint32_t k = 0;
	FILE *fp;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	for (uint32_t i = 0; i < all.n && k < 16; i++) {
		uint32_t node = lanes_fabric_lid_node(f, all.lid[i]);
		int first = 1;

		for (uint32_t j = 0; j < i; j++)
			first &= all.sw[j] != all.sw[i];
		if (!first)
			continue;
		cn_of_leaf[k] = f->ports[f->nodes[node].port_base + 1].guid;
		fprintf(fp, "0x%016llx cn%u\n", (unsigned long long)cn_of_leaf[k], k);
		k++;
	}
	fclose(fp);
	assert_int_equal(k, 16);
	snprintf(params, sizeof(params), "cn_guid_file=%s", path);
	r_cn = route_params(f, params);
	r_all = route_params(f, NULL);
	alone = strip_nodes(f, is_listed_cn, LANES_NONE);
	r_alone = route_params(alone, NULL);
	cns = hosts_of(f, is_listed_cn);
	assert_int_equal(cns.n, 16);
	assert_int_equal(alone->num_switches, f->num_switches);
	if (cn_entries_differ(&cns, r_cn, r_alone, f->num_switches))
		fail_msg("the compute nodes' routes depend on the other CAs");
	if (!cn_entries_differ(&cns, r_all, r_alone, f->num_switches))
		fail_msg("with every CA balanced, the 16 CAs' routes are the same");
	assert_int_equal(shift_max_load(f, r_cn, &cns), 1);
	check_verified(f, r_cn, "fattree k=4 n=3 with a CN file");
	unlink(path);
	hosts_free(&all);
	hosts_free(&cns);
	lanes_routing_free(r_cn);
	lanes_routing_free(r_all);
	lanes_routing_free(r_alone);
	lanes_fabric_free(alone);
	lanes_fabric_free(f);
}

/* The GUID of the leaf fattree k=4 n=3 cables its first CA to, and that fabric. */
static uint64_t leaf0_guid;
static const struct lanes_fabric *leaf0_fabric;

static int not_on_leaf0(uint64_t guid)
{
	const struct lanes_fabric *f = leaf0_fabric;

	for (uint32_t n = 0; n < f->num_nodes; n++) {
		const struct lanes_port *pt = &f->ports[f->nodes[n].port_base + 1];

		if (f->nodes[n].type == LANES_NODE_CA && pt->guid == guid)
			return f->nodes[pt->peer_node].guid != leaf0_guid;
	}
	return 1;
}

/*
 * A leaf missing (OpenSM refuses both, ERR AB0A or its ranking): fattree
 * k=4 n=3 with one leaf's four CAs unplugged, and with that leaf switch
 * gone. Both route, every route shortest, up then down, and verified.
 */
static void test_missing_leaf(void **state)
{
	struct lanes_fabric *f = gen("fattree k=4 n=3"), *no_cas, *no_leaf;
	struct hosts all = hosts_of(f, NULL);
	struct lanes_routing *r;

	(void)state;
	leaf0_fabric = f;
	leaf0_guid = f->nodes[f->switches[all.sw[0]]].guid;
	no_cas = strip_nodes(f, not_on_leaf0, LANES_NONE);
	no_leaf = strip_nodes(f, not_on_leaf0, f->switches[all.sw[0]]);
	assert_int_equal(no_cas->num_cas, 60);
	assert_int_equal(no_leaf->num_switches, 47);
	check_up_down_shortest_on(no_cas, "fattree k=4 n=3, a leaf without CAs");
	check_up_down_shortest_on(no_leaf, "fattree k=4 n=3, a leaf gone");
	r = route_params(no_cas, NULL);
	check_verified(no_cas, r, "a leaf without CAs");
	lanes_routing_free(r);
	r = route_params(no_leaf, NULL);
	check_verified(no_leaf, r, "a leaf gone");
	lanes_routing_free(r);
	hosts_free(&all);
	lanes_fabric_free(no_cas);
	lanes_fabric_free(no_leaf);
	lanes_fabric_free(f);
}

static void test_not_fat_trees_refused_naming_a_switch(void **state)
{
	static const char *const specs[] = { "torus k=4x4 p=1", "hypercube n=3 p=1",
					     "dragonfly a=4 p=2 h=2", "mesh k=3x3 p=1" };

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct lanes_fabric *f = gen(specs[i]);
		int code;
		struct lanes_error err = refusal(f, NULL, &code);

		assert_int_equal(code, LANES_EREFUSED);
		if (!strstr(err.message, "not a fat tree") || !strstr(err.message, "switch 0x"))
			fail_msg("%s: %s", specs[i], err.message);
		lanes_fabric_free(f);
	}
}

static void test_bad_parameters_named(void **state)
{
	struct lanes_fabric *f = gen("fattree k=2 n=3");
	int code;
	struct lanes_error err;

	(void)state;
	err = refusal(f, "max_reverse_hops=x", &code);
	assert_int_equal(code, LANES_EINVAL);
	assert_non_null(strstr(err.message, "max_reverse_hops"));
	err = refusal(f, "roots=1", &code);
	assert_int_equal(code, LANES_EINVAL);
	assert_non_null(strstr(err.message, "roots"));
	err = refusal(f, "cn_guid_file=/nonexistent/cn.txt", &code);
	assert_int_equal(code, LANES_EIO);
	lanes_fabric_free(f);
}

/* A new temporary file holding text; its path in path (a mkstemp template). */
static void write_temp(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *fp;

	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* The node GUIDs of the switches whose description has tag (the generator's level), a line each. */
static char *switches_tagged(const struct lanes_fabric *f, const char *tag, uint32_t max)
{
	char *text = calloc((size_t)f->num_switches + 1, 24);
	size_t len = 0;
	uint32_t n = 0;

	for (uint32_t s = 0; s < f->num_switches && n < max; s++)
		if (strstr(f->nodes[f->switches[s]].desc, tag)) {
			len += (size_t)sprintf(text + len, "0x%016llx\n",
					       (unsigned long long)f->nodes[f->switches[s]].guid);
			n++;
		}
	assert_true(n > 0);
	return text;
}

/*
 * The root GUID file (OpenSM's root_guid_file). On a pure fat tree, its top
 * switches as roots rank every switch as the CAs do (doc/current-routing.txt:
 * the file only lifts the demand that the tree be pure), so the tables are
 * the same; half of them as roots (the others then rank with the leaves)
 * still gives every pair a route and no credit loop on one VL. A root file
 * on a torus ring of odd length is refused naming two switches of one rank.
 */
static void test_root_file(void **state)
{
	struct lanes_fabric *f = gen("fattree k=4 n=3"), *torus = gen("torus k=3x3 p=1");
	char path[] = "/tmp/lanes_ftree_rootXXXXXX", half[] = "/tmp/lanes_ftree_halfXXXXXX";
	char tpath[] = "/tmp/lanes_ftree_torusXXXXXX", params[96];
	char *all_tops = switches_tagged(f, "-l3-", 16), *half_tops = switches_tagged(f, "-l3-", 8);
	char *one = switches_tagged(torus, "", 1);
	struct lanes_routing *plain, *rooted;
	struct lanes_error err;
	int code;

	(void)state;
	write_temp(path, all_tops);
	write_temp(half, half_tops);
	write_temp(tpath, one);
	plain = route_params(f, NULL);
	snprintf(params, sizeof(params), "root_guid_file=%s", path);
	rooted = route_params(f, params);
	assert_true(routings_equal(plain, rooted));
	lanes_routing_free(rooted);
	snprintf(params, sizeof(params), "root_guid_file=%s", half);
	rooted = route_params(f, params);
	check_verified(f, rooted, "fattree k=4 n=3, half the top switches as roots");
	lanes_routing_free(rooted);
	snprintf(params, sizeof(params), "root_guid_file=%s", tpath);
	err = refusal(torus, params, &code);
	assert_int_equal(code, LANES_EREFUSED);
	if (!strstr(err.message, "from the nearest root and cabled to each other") ||
	    !strstr(err.message, "switch 0x"))
		fail_msg("torus with a root: %s", err.message);
	unlink(path);
	unlink(half);
	unlink(tpath);
	free(all_tops);
	free(half_tops);
	free(one);
	lanes_routing_free(plain);
	lanes_fabric_free(f);
	lanes_fabric_free(torus);
}

/*
 * A switch ranked below the leaves: root R, leaf L (two CAs) below it, and
 * switch D below L with nothing else: refused naming D.
 */
static void test_root_file_switch_below_leaves(void **state)
{
	struct lanes_builder *b = tb_new();
	uint32_t root = tb_add(b, LANES_NODE_SWITCH, 4, 0x10), leaf = tb_add(b, LANES_NODE_SWITCH, 4, 0x11);
	uint32_t below = tb_add(b, LANES_NODE_SWITCH, 4, 0x12);
	uint32_t ca0 = tb_add(b, LANES_NODE_CA, 1, 0x20), ca1 = tb_add(b, LANES_NODE_CA, 1, 0x21);
	char path[] = "/tmp/lanes_ftree_belowXXXXXX", params[96];
	struct lanes_fabric *f;
	struct lanes_error err;
	int code;

	(void)state;
	tb_cable(b, root, 1, leaf, 1);
	tb_cable(b, leaf, 2, ca0, 1);
	tb_cable(b, leaf, 3, ca1, 1);
	tb_cable(b, leaf, 4, below, 1);
	f = tb_finish(b);
	write_temp(path, "0x10\n");
	snprintf(params, sizeof(params), "root_guid_file=%s", path);
	err = refusal(f, params, &code);
	assert_int_equal(code, LANES_EREFUSED);
	if (!strstr(err.message, "0x0000000000000012") || !strstr(err.message, "below the leaf"))
		fail_msg("a switch below the leaves: %s", err.message);
	unlink(path);
	lanes_fabric_free(f);
}

/* Bad root files: the error names the file, and the line where one line is at fault. */
static void test_root_file_errors(void **state)
{
	static const struct {
		const char *text;
		int code;
		unsigned long line;
		const char *says;
	} cases[] = {
		{ "# roots\nSWITCH\n0x%016llx a CA\n", LANES_EPARSE, 3, "not a switch" },
		{ "0x1234567 nobody\n", LANES_EPARSE, 1, "not the node GUID of any switch" },
		{ "SWITCH\nzz\n", LANES_EPARSE, 2, "expected a GUID" },
		{ "# nothing\n\n", LANES_EINVAL, 0, "holds no GUID" },
	};
	struct lanes_fabric *f = gen("fattree k=2 n=3");
	struct hosts h = hosts_of(f, NULL);
	uint64_t ca_guid = f->nodes[lanes_fabric_lid_node(f, h.lid[0])].guid;
	char params[96];
	struct lanes_error err;
	int code;

	(void)state;
	err = refusal(f, "root_guid_file=/nonexistent/roots.txt", &code);
	assert_int_equal(code, LANES_EIO);
	assert_non_null(strstr(err.message, "/nonexistent/roots.txt"));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[] = "/tmp/lanes_ftree_badXXXXXX", text[256], sw[24];
		char *at;

		snprintf(text, sizeof(text), cases[i].text, (unsigned long long)ca_guid);
		snprintf(sw, sizeof(sw), "0x%016llx", (unsigned long long)f->nodes[f->switches[0]].guid);
		if ((at = strstr(text, "SWITCH"))) {
			char rest[256];

			snprintf(rest, sizeof(rest), "%s", at + 6);
			snprintf(at, sizeof(text) - (size_t)(at - text), "%s%s", sw, rest);
		}
		write_temp(path, text);
		snprintf(params, sizeof(params), "root_guid_file=%s", path);
		err = refusal(f, params, &code);
		assert_int_equal(code, cases[i].code);
		if (!strstr(err.message, cases[i].says) ||
		    (cases[i].line && (err.line != cases[i].line || strcmp(err.file, path))) ||
		    (!cases[i].line && !strstr(err.message, path)))
			fail_msg("case %zu: %s:%lu: %s", i, err.file, err.line, err.message);
		unlink(path);
	}
	hosts_free(&h);
	lanes_fabric_free(f);
}

/*
 * The CA order dump (OpenSM's opensm-ftree-ca-order.dump): on fattree k=4
 * n=3, 16 leaves of 4 CAs, 64 lines "0xLID<tab>description", each CA LID
 * once, every 4 consecutive lines the CAs of one leaf switch; with one CA of
 * a leaf unplugged, that leaf's block ends in one "0xFFFF<tab>DUMMY".
 */
static void check_ca_order(const struct lanes_fabric *f, uint32_t lines_expected, uint32_t dummies)
{
	struct hosts h = hosts_of(f, NULL);
	char path[] = "/tmp/lanes_ftree_orderXXXXXX", params[96], line[256];
	struct lanes_routing *r;
	uint32_t n = 0, dummy = 0, *seen = calloc((size_t)f->max_lid + 1, sizeof(uint32_t));
	uint32_t block_sw = LANES_NONE;
	FILE *fp;

	write_temp(path, "");
	snprintf(params, sizeof(params), "ca_order_dump=%s", path);
	r = route_params(f, params);
	fp = fopen(path, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		unsigned lid;

		if (!strcmp(line, "0xFFFF\tDUMMY\n")) {
			dummy++;
			n++;
			continue;
		}
		assert_int_equal(sscanf(line, "0x%4x\t", &lid), 1);
		assert_true(lid <= f->max_lid && !seen[lid]++);
		for (uint32_t i = 0; i < h.n; i++)
			if (h.lid[i] == lid) {
				if (n % 4 == 0)
					block_sw = h.sw[i];
				assert_int_equal(h.sw[i], block_sw);
				assert_non_null(strstr(line, f->nodes[lanes_fabric_lid_node(f, lid)].desc));
			}
		n++;
	}
	fclose(fp);
	assert_int_equal(n, lines_expected);
	assert_int_equal(dummy, dummies);
	unlink(path);
	free(seen);
	hosts_free(&h);
	lanes_routing_free(r);
}

static uint64_t unplugged_port;

static int not_unplugged(uint64_t guid)
{
	return guid != unplugged_port;
}

static void test_ca_order_dump(void **state)
{
	struct lanes_fabric *f = gen("fattree k=4 n=3"), *less;
	struct hosts h = hosts_of(f, NULL);

	(void)state;
	check_ca_order(f, 64, 0);
	unplugged_port = f->ports[f->nodes[lanes_fabric_lid_node(f, h.lid[0])].port_base + 1].guid;
	less = strip_nodes(f, not_unplugged, LANES_NONE);
	assert_int_equal(less->num_cas, 63);
	check_ca_order(less, 64, 1);
	hosts_free(&h);
	lanes_fabric_free(less);
	lanes_fabric_free(f);
}

static void test_threads_do_not_matter(void **state)
{
	(void)state;
	check_threads_identical(ftree(), "fattree k=4 n=3", 3);
	check_threads_identical(ftree(), "xgft h=3 m=2,2,3 w=1,2,2", 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_routes_are_shortest_up_then_down),
		cmocka_unit_test(test_shift_permutation_one_route_per_cable),
		cmocka_unit_test(test_verifier_finds_no_credit_loop),
		cmocka_unit_test(test_real_fat_trees),
		cmocka_unit_test(test_cn_guid_file_changes_balancing),
		cmocka_unit_test(test_missing_leaf),
		cmocka_unit_test(test_not_fat_trees_refused_naming_a_switch),
		cmocka_unit_test(test_bad_parameters_named),
		cmocka_unit_test(test_root_file),
		cmocka_unit_test(test_root_file_switch_below_leaves),
		cmocka_unit_test(test_root_file_errors),
		cmocka_unit_test(test_ca_order_dump),
		cmocka_unit_test(test_threads_do_not_matter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
