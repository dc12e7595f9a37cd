/*
 * load.c - port load counters and min-hop candidate ports, the two pieces
 * of OpenSM's balancing step (seed 002: "Each port has a counter counting
 * the number of target LIDs going through it. When there are multiple
 * alternative ports with same MinHop to a LID, the one with less
 * previously assigned LIDs is selected."), and, for LMC > 0, the far end
 * of every switch port for OpenSM's preference among a port's LIDs (seed
 * 002: "first prefer the ones that go to different systemImageGuid ...
 * if none - prefer those which go through another NodeGuid"; see
 * lmc_choose below).
 *
 * Min-hop ports come from a distance row instead of OpenSM's per-switch
 * hop matrix (osm_ucast_mgr.c relaxes hops[lid][port] = 1 + least hops of
 * the neighbour through each port): a port of s is a min-hop port toward t
 * exactly when its neighbour is one hop closer to t, which gives the same
 * set, parallel cables included, in O(cable ends) per destination switch.
 *
 * LMC 0 (offset 0) never reads the far ends: fill_from_start is the whole
 * choice there. The LMC preference runs only for base + i, i > 0, in
 * fill_after_prev.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/routing.h"
#include "route/common/load.h"
#include "core/util.h"

/* One zeroed block: off, then count (lanes_route_load_free frees off). */
int lanes_route_load_init(struct route_load *l, const struct lanes_fabric *f, struct lanes_error *err)
{
	uint32_t ns = f->num_switches;
	size_t total = 0;

	for (uint32_t s = 0; s < ns; s++)
		total += (size_t)f->nodes[f->switches[s]].nports + 1;
	l->count = NULL;
	l->off = calloc((size_t)ns + 1 + total + 1, sizeof(*l->off));
	if (!l->off)
		return lanes_error_oom(err);
	l->count = l->off + ns + 1;
	total = 0;
	for (uint32_t s = 0; s < ns; s++) {
		l->off[s] = (uint32_t)total;
		total += (size_t)f->nodes[f->switches[s]].nports + 1;
	}
	l->off[ns] = (uint32_t)total;
	return 0;
}

void lanes_route_load_free(struct route_load *l)
{
	if (!l)
		return;
	free(l->off);
	l->off = NULL;
	l->count = NULL;
}

/* One block: multi, moff and nb, then one and port (lanes_route_hop_ports_free frees multi). */
int lanes_route_hop_ports_init(struct route_hop_ports *h, const struct lanes_fabric *f,
			 struct lanes_error *err)
{
	size_t ns = f->num_switches, ne = f->adj_off[ns];

	memset(h, 0, sizeof(*h));
	h->dst = LANES_NONE;
	h->multi = malloc(sizeof(uint32_t) * (2 * (ns + 1) + ne + 1) + ns + 1 + ne + 1);
	if (!h->multi)
		return lanes_error_oom(err);
	h->moff = h->multi + ns + 1;
	h->nb = h->moff + ns + 1;
	h->one = (uint8_t *)(h->nb + ne + 1);
	h->port = h->one + ns + 1;
	for (size_t e = 0; e < ne; e++)
		h->nb[e] = f->adj[e].sw;
	return 0;
}

/*
 * The min-hop ports toward dst of every switch: one[], or multi/moff/port
 * for a switch with several. Locals throughout: the byte stores into one[]
 * and port[] could alias every field.
 */
void lanes_route_hop_ports_fill(struct route_hop_ports *h, const struct lanes_fabric *f, uint32_t dst,
			  const uint8_t *dist_to_dst)
{
	const uint32_t *off = f->adj_off, *nb = h->nb, ns = f->num_switches;
	const struct lanes_adj *adj = f->adj;
	const uint8_t *dist = dist_to_dst;
	uint8_t *one = h->one, *port = h->port;
	uint32_t *multi = h->multi, *moff = h->moff, n = 0, nmulti = 0;

	moff[0] = 0;
	for (uint32_t s = 0; s < ns; s++) {
		uint8_t want = (uint8_t)(dist[s] - 1);
		uint32_t k = 0;

		one[s] = LANES_PORT_DROP;
		if (dist[s] == 0 || dist[s] == 255)
			continue;
		for (uint32_t e = off[s]; e < off[s + 1]; e++)
			if (dist[nb[e]] == want)
				port[n + k++] = adj[e].port;
		if (k == 1) {
			one[s] = port[n];
		} else if (k > 1) {
			one[s] = 0;
			multi[nmulti++] = s;
			n += k;
			moff[nmulti] = n;
		}
	}
	h->nmulti = nmulti;
	h->dst = dst;
}

void lanes_route_hop_ports_free(struct route_hop_ports *h)
{
	if (!h)
		return;
	free(h->multi);
	memset(h, 0, sizeof(*h));
	h->dst = LANES_NONE;
}

size_t lanes_route_hop_ports_save_budget(const struct lanes_fabric *f)
{
	return ((size_t)4 << 20) + (size_t)(f->max_lid + 1) * f->num_switches / 4;
}

struct route_saved_hops *lanes_route_hop_ports_save(const struct route_hop_ports *h, uint32_t ns,
					      const uint8_t *extra, size_t *budget)
{
	size_t nm = h->nmulti, np = h->moff[nm], nx = extra ? ns : 0;
	size_t bytes = sizeof(struct route_saved_hops) + sizeof(uint32_t) * (2 * nm + 1) + ns + nx + np;
	struct route_saved_hops *sv;
	char *p;

	if (bytes > *budget || !(sv = malloc(bytes)))
		return NULL;
	*budget -= bytes;
	p = (char *)(sv + 1);
	sv->h = *h;
	sv->h.nb = NULL;
	sv->h.multi = memcpy(p, h->multi, sizeof(uint32_t) * nm);
	p += sizeof(uint32_t) * nm;
	sv->h.moff = memcpy(p, h->moff, sizeof(uint32_t) * (nm + 1));
	p += sizeof(uint32_t) * (nm + 1);
	sv->h.one = memcpy(p, h->one, ns);
	p += ns;
	sv->extra = extra ? memcpy(p, extra, ns) : NULL;
	p += nx;
	sv->h.port = np ? memcpy(p, h->port, np) : (uint8_t *)p;
	sv->tag = 0;
	return sv;
}

int lanes_route_peers_init(struct route_peers *p, const struct lanes_fabric *f,
		     const struct route_load *l, struct lanes_error *err)
{
	size_t total = l->off[f->num_switches];

	p->node = malloc(sizeof(*p->node) * (total + 1));
	p->sys = malloc(sizeof(*p->sys) * (total + 1));
	if (!p->node || !p->sys) {
		lanes_route_peers_free(p);
		return lanes_error_oom(err);
	}
	for (uint32_t s = 0; s < f->num_switches; s++) {
		const struct lanes_node *n = &f->nodes[f->switches[s]];

		for (uint32_t q = 0; q <= n->nports; q++) {
			const struct lanes_port *pt = lanes_fabric_port(f, f->switches[s], (uint8_t)q);
			const struct lanes_node *v;
			size_t i = l->off[s] + q;

			p->node[i] = pt->peer_node;
			p->sys[i] = 0;
			if (pt->peer_node == LANES_NONE)
				continue;
			v = &f->nodes[pt->peer_node];
			p->sys[i] = v->sysimage_guid ? v->sysimage_guid : v->guid;
		}
	}
	return 0;
}

void lanes_route_peers_free(struct route_peers *p)
{
	if (!p)
		return;
	free(p->node);
	free(p->sys);
	p->node = NULL;
	p->sys = NULL;
}

/*
 * OpenSM's LMC preference (osm_switch.c, osm_switch_recommend_path with
 * routing_for_lmc; osm_ucast_mgr.c, ucast_mgr_process_port). For each
 * (switch, destination end port), OpenSM keeps the remote nodes that the
 * port's LIDs routed so far (and counted) leave to, each with the number of
 * those LIDs (forwarded_to). The LIDs of one port are base, base + 1, ...
 * in that order, so that list is read back from the LFT: the ports of
 * base .. lid - 1 on this switch, their far ends in order of first use.
 *
 * The scan (ports >= start, then the others, ascending) keeps three picks,
 * each the first port with a strictly smaller count among its kind:
 *  - other_sys: its far end's system image GUID is no listed node's;
 *  - other_node: the system is listed but its node is not;
 *  - best: any port; on an equal count, a port whose node is listed (with
 *    its system) replaces best when that node's forwarded_to is below the
 *    least seen so far. That least starts at "none", drops to 0 once an
 *    other_sys or other_node pick is made, and on a strictly smaller count
 *    becomes the new port's forwarded_to only if that is smaller (OpenSM's
 *    least_forwarded_to, kept as it is).
 * The answer is other_sys, else other_node, else best. At base (an empty
 * list) every port is other_sys: the plain least-loaded choice.
 *
 * OpenSM allocates the lists afresh for each switch (alloc_ports_priv in
 * ucast_mgr_process_tbl) and adds a far end after each counted LID
 * (find_and_add_remote_sys, matching by node); switch LIDs are not counted,
 * so they never add one. The dor engine's variant is dor_choose below
 * (peers->dor). Options that change this and are off by default
 * (port_shifting, scatter_ports) are not reproduced. A list holds at most 127 LIDs (LMC <= 7, builder.c).
 */
struct lmc_used {
	uint32_t n;
	uint32_t node[128];
	uint64_t sys[128];
	uint32_t fwd[128];
};

/* The far ends of the ports of the offset LIDs before col on switch s. */
static void lmc_used_fill(struct lmc_used *u, const uint8_t *col, uint32_t ns, uint32_t s,
			  int offset, const uint32_t *pnode, const uint64_t *psys)
{
	u->n = 0;
	for (int k = offset; k > 0; k--) {
		uint8_t p = (col - (size_t)k * ns)[s];
		uint32_t i = 0;

		if (p == 0 || p == LANES_PORT_DROP || pnode[p] == LANES_NONE)
			continue;
		while (i < u->n && u->node[i] != pnode[p])
			i++;
		if (i == u->n) {
			u->node[i] = pnode[p];
			u->sys[i] = psys[p];
			u->fwd[i] = 0;
			u->n++;
		}
		u->fwd[i]++;
	}
}

struct lmc_pick {
	uint32_t least, least_sys, least_node, least_fwd;
	uint8_t best, other_sys, other_node;
};

static void lmc_consider(struct lmc_pick *k, const struct lmc_used *u, uint8_t p, uint32_t c,
			 uint32_t node, uint64_t sys)
{
	uint32_t i = 0, fwd = 0;
	int listed = 0;

	while (i < u->n && u->sys[i] != sys)
		i++;
	if (i == u->n) {
		if (c < k->least_sys) {
			k->least_sys = c;
			k->other_sys = p;
			k->least_fwd = 0;
		}
	} else {
		for (i = 0; i < u->n && u->node[i] != node; i++)
			;
		if (i == u->n && c < k->least_node) {
			k->least_node = c;
			k->other_node = p;
			k->least_fwd = 0;
		}
		listed = i < u->n;
		fwd = listed ? u->fwd[i] : 0;
	}
	if (c < k->least) {
		k->best = p;
		k->least = c;
		if (listed && fwd < k->least_fwd)
			k->least_fwd = fwd;
	} else if (listed && c == k->least && fwd < k->least_fwd) {
		k->least_fwd = fwd;
		k->best = p;
	}
}

static uint8_t lmc_choose(const uint32_t *load, const uint8_t *ports, uint32_t n, unsigned start,
			  const struct lmc_used *u, const uint32_t *pnode, const uint64_t *psys)
{
	struct lmc_pick k = { UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX, 0, 0, 0 };
	uint32_t first = 0;

	while (first < n && ports[first] < start)
		first++;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t p = ports[(first + i) % n];

		lmc_consider(&k, u, p, load[p], pnode[p], psys[p]);
	}
	return k.other_sys ? k.other_sys : k.other_node ? k.other_node : k.best;
}

/*
 * OpenSM's dor variant of the LMC preference (osm_switch_recommend_path
 * with dor; ucast_mgr_process_port leaves start_from at 1 under is_dor;
 * find_and_add_remote_sys matches node and remote port): the scan is
 * ascending from port 1, and a port's forwarded_to is the number of the
 * LIDs before col (base .. lid - 1) that this switch sends by that very
 * port. best changes on a strictly smaller count, or on an equal count
 * when the port's forwarded_to is below the least seen (OpenSM's
 * least_forwarded_to, which a smaller count lowers but never resets).
 */
static uint8_t dor_choose(const uint32_t *load, const uint8_t *ports, uint32_t n,
			  const uint8_t *col, uint32_t ns, uint32_t s, int offset)
{
	uint32_t least = UINT32_MAX, least_fwd = UINT32_MAX;
	uint8_t best = ports[0];

	for (uint32_t i = 0; i < n; i++) {
		uint32_t c = load[ports[i]], fwd = 0;

		for (int k = offset; k > 0; k--)
			fwd += (col - (size_t)k * ns)[s] == ports[i];
		if (c < least) {
			best = ports[i];
			least = c;
			least_fwd = fwd < least_fwd ? fwd : least_fwd;
		} else if (c == least && fwd < least_fwd) {
			least_fwd = fwd;
			best = ports[i];
		}
	}
	return best;
}

/*
 * offset > 0: each LID's search starts after the port of the LID before it;
 * a counted switch (add) applies OpenSM's LMC preference. An uncounted one
 * (a switch LID, an up/down completion) never enters OpenSM's list, which
 * stays empty: the plain least-loaded scan.
 */
static void fill_after_prev(uint8_t *lft, uint32_t ns, uint32_t s, uint32_t *load,
			    const uint8_t *ports, uint32_t n, const uint32_t *lids, uint32_t m,
			    uint32_t add, int offset, const uint32_t *pnode, const uint64_t *psys,
			    int dor)
{
	struct lmc_used u;

	for (uint32_t j = 0; j < m; j++) {
		uint8_t *col = lft + (size_t)lids[j] * ns, p;
		unsigned start = dor ? 1u : (col - ns)[s] + 1u;

		if (add && dor) {
			p = dor_choose(load, ports, n, col, ns, s, offset);
		} else if (add) {
			lmc_used_fill(&u, col, ns, s, offset, pnode, psys);
			p = lmc_choose(load, ports, n, start, &u, pnode, psys);
		} else {
			p = route_least_loaded(load, ports, n, start);
		}
		col[s] = p;
		load[p] += add;
	}
}

/*
 * route_least_loaded from port 1 is the first least-loaded port in list
 * order. Uncounted, every LID takes the same one. Counted, the ports at the
 * least load lo are taken in list order, each going to lo + 1, then those at
 * lo + 1 from the start again: walk on from the last pick (now at lo + 1) to
 * the next port at lo, and past the end raise lo. The ports before the walk
 * are all above lo, so a fresh start (the next chunk of columns cols) finds
 * the same port. Between two ports each LID just compares the two.
 */
static void fill_from_start(uint8_t *const *cols, uint32_t s, uint32_t *load,
			    const uint8_t *ports, uint32_t n, uint32_t m, uint32_t add)
{
	uint32_t lo = load[ports[0]], c = 0;

	if (n == 2 && add) { /* two ports (tori, meshes): one comparison per LID */
		for (uint32_t j = 0; j < m; j++) {
			uint8_t p = load[ports[1]] < load[ports[0]] ? ports[1] : ports[0];

			cols[j][s] = p;
			load[p]++;
		}
		return;
	}
	for (uint32_t q = 1; q < n; q++)
		if (load[ports[q]] < lo) {
			lo = load[ports[q]];
			c = q;
		}
	if (!add) {
		for (uint32_t j = 0; j < m; j++)
			cols[j][s] = ports[c];
		return;
	}
	for (uint32_t j = 0; j < m; j++) {
		uint8_t p;

		while (load[p = ports[c]] != lo)
			if (++c == n) {
				c = 0;
				lo++;
			}
		cols[j][s] = p;
		load[p] = lo + 1;
		if (++c == n) {
			c = 0;
			lo++;
		}
	}
}

/*
 * A switch's choices read only its own counters (and, for offset > 0, its
 * own entries for the LIDs before): the multi switches are taken one at a
 * time, those of the range only. (Locals: the byte stores into lft could
 * alias h.)
 */
void lanes_route_fill_lids(uint8_t *lft, uint32_t ns, struct route_switch_range range,
			   const struct route_hop_ports *h, const struct route_load *load,
			   const struct route_peers *peers, const uint32_t *lids, uint32_t m, int offset,
			   uint32_t ncount)
{
	const uint32_t *multi = h->multi, *moff = h->moff, *loff = load->off, nmulti = h->nmulti;
	const uint8_t *port = h->port, *one = h->one + range.first;
	const size_t width = range.end - range.first;
	uint32_t *count = load->count;
	uint8_t *cols[64];

	if (offset) {
		for (uint32_t j = 0; j < m; j++)
			memcpy(lft + (size_t)lids[j] * ns + range.first, one, width);
		for (uint32_t i = 0; i < nmulti; i++)
			if (multi[i] >= range.first && multi[i] < range.end)
				fill_after_prev(lft, ns, multi[i], count + loff[multi[i]], port + moff[i],
						moff[i + 1] - moff[i], lids, m, i < ncount, offset,
						peers->node + loff[multi[i]], peers->sys + loff[multi[i]],
						peers->dor);
		return;
	}
	for (uint32_t j0 = 0; j0 < m; j0 += 64) { /* 64 columns at a time */
		uint32_t k = m - j0 < 64 ? m - j0 : 64;

		for (uint32_t j = 0; j < k; j++) {
			cols[j] = lft + (size_t)lids[j0 + j] * ns;
			memcpy(cols[j] + range.first, one, width);
		}
		for (uint32_t i = 0; i < nmulti; i++)
			if (multi[i] >= range.first && multi[i] < range.end)
				fill_from_start(cols, multi[i], count + loff[multi[i]], port + moff[i],
						moff[i + 1] - moff[i], k, i < ncount);
	}
}
