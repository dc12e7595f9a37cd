/*
 * sssp_osm.c - OpenSM 3.3.23's SSSP Dijkstra step for step, so that the
 * sssp and dfsssp paths equal OpenSM's entry for entry wherever OpenSM can
 * route (facts from osm_ucast_dfsssp.c and complib/cl_heap.c; no code taken
 * from them). sssp_paths.c calls lanes_route_sssp_osm() first and routes with its
 * own faster rule when this declines.
 *
 * What decides OpenSM's ties (all of it is reproduced here):
 *  - The graph: vertex i is the i-th switch of the switch GUID map (key:
 *    the GUID in network byte order); each switch's links are its cables
 *    to other switches in port order. A link u->v weighs P^2 plus the
 *    routes already placed on the channel v->u over that cable (P: every
 *    CA port LID and switch LID of the subnet).
 *  - One Dijkstra per destination LID, from the destination. A CA LID adds
 *    a vertex for the CA after the switches, with one link of weight 1 to
 *    its switch; a switch LID starts at the switch itself.
 *  - The heap: a 4-ary min-heap (cl_heap) filled with every vertex at
 *    "infinity" 0x7FFFFFFF in vertex order (so the array is that order);
 *    the source's key is then set to 0. Sifting up moves an element past
 *    parents with strictly greater keys; sifting down moves it below the
 *    smallest child, the last of equal smallest children, while that child
 *    is strictly smaller. Extracting the root moves the last element to
 *    the root and sifts it down.
 *  - Relaxation: when u is extracted, its links are scanned in order and
 *    a vertex not yet extracted takes the link if dist(u) + weight is
 *    strictly smaller than its key (the key then sifts up). So among equal
 *    distances the first vertex extracted wins, and of its parallel cables
 *    the lowest port.
 *  - After each LID every switch adds its number of LIDs (its own and its
 *    CA ports') to each channel on its path.
 * Keys are OpenSM's 64-bit sums compared with 0x7FFFFFFF, so once the
 * sums reach it OpenSM leaves switches unrouted (it refuses the fabric
 * when that shows in its first Dijkstra). This file declines when P^2
 * alone reaches it and stops (declines) when any Dijkstra leaves a switch
 * of the destination's component unreached, or gives a switch a path
 * longer than its fewest hops (the loads outweighing P^2: a ring of 101
 * switches with one CA each, torus k=101 p=1, does it; the engine is meant to be
 * minimal, and dfsssp's path units count on it); the fast
 * rule then routes the whole fabric from scratch. These outcomes depend
 * only on the fabric.
 *
 * This file sets the replay up and routes the destination switches in
 * turn. One LID's tree, column and loads: sssp_osm_lid.c; the Dijkstra
 * and heap: sssp_osm_dijkstra.c. What a destination switch needs that
 * does not depend on the loads is prepared ahead, on a helper thread on large
 * fabrics, and kept for a switch's own LIDs: sssp_osm_prep.c.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "core/util.h"
#include "lanes/route.h"
#include "lanes/routing.h"
#include "route/common/endports.h"
#include "route/sssp/sssp.h"
#include "route/sssp/sssp_osm.h"

/* ------------------------------------------------------------- set-up */

/*
 * By GUID map key, then by switch index: the order of a stable sort by key
 * (as glibc 2.36's qsort, a merge sort, gave), on any libc.
 */
static int by_guid_key(const void *pa, const void *pb)
{
	const uint64_t *a = pa, *b = pb;

	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

/* Switches in GUID map order; the reverse of every adjacency entry. */
static void set_order(struct emu *h)
{
	const struct lanes_fabric *f = h->f;
	uint64_t *k = h->gkey;
	uint32_t *first = h->port_e;

	for (uint32_t s = 0; s < h->ns; s++) {
		k[2 * s] = lanes_route_osm_guid_key(f->nodes[f->switches[s]].guid);
		k[2 * s + 1] = s;
	}
	lanes_sort_few(k, h->ns, 2 * sizeof(*k), 16, by_guid_key); /* a total order */
	for (uint32_t i = 0; i < h->ns; i++)
		h->gorder[i] = (uint32_t)k[2 * i + 1];
	/* first[port slot of (s, port)]: s's adjacency entry on that port */
	for (uint32_t s = 0; s < h->ns; s++)
		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++)
			first[f->nodes[f->switches[s]].port_base + f->adj[e].port] = e;
	for (uint32_t e = 0; e < f->adj_off[h->ns]; e++) {
		h->nb[e] = f->adj[e].sw;
		h->reverse[e] = first[f->nodes[f->switches[f->adj[e].sw]].port_base + f->adj[e].peer_port];
	}
}

/* OpenSM's P: the LIDs of every CA port that has a link, and of every switch. */
static uint64_t count_lids(const struct lanes_fabric *f)
{
	uint64_t p = 0;

	for (uint32_t i = 0; i < f->num_nodes; i++) {
		const struct lanes_node *n = &f->nodes[i];

		if (n->type == LANES_NODE_SWITCH) {
			const struct lanes_port *p0 = &f->ports[n->port_base];

			p += p0->lid ? (uint64_t)1 << p0->lmc : 0;
			continue;
		}
		if (n->type != LANES_NODE_CA)
			continue;
		for (unsigned q = 1; q <= n->nports; q++) {
			const struct lanes_port *pt = &f->ports[n->port_base + q];

			if (pt->lid && pt->peer_node != LANES_NONE)
				p += (uint64_t)1 << pt->lmc;
		}
	}
	return p;
}

/* Every array of h (X) and of a destination buffer (Y), for allocation. */
#define EMU_ARRAYS(X)                                                                             \
	X(gorder, ns + 1) X(gkey, 2 * ns + 2) X(port_e, slots + 1) X(reverse, ne + 1) X(nb, ne + 1) X(load, ne + 1) X(run_off, ns + 1)           \
	X(run_v, ne + 1) X(run_e0, ne + 1) X(run_load, ne + 1) X(run_best, ne + 1)                  \
	X(run_of, ne + 1) X(hp.entry, ns + 2) X(hp.pos, ns + 2) X(dist, ns + 2)        \
	X(used, ns + 1) X(farther_used, ns + 1) X(done, ns + 2) X(reached, ns + 1) X(lids_below, ns + 1)             \
	X(start.entry, ns + 2) X(start.pos, ns + 2)    \
	X(kept_at, ns + 1)
#define DEST_ARRAYS(Y)                                                                            \
	Y(row, ns + 1) Y(bfs, ns + 1) Y(farther_first, ns + 1) Y(farther_end, ns + 1) Y(farther_run, ne + 1) Y(farther_nb, ne + 1) \
	Y(heap_at_start.entry, ns + 2) Y(heap_at_start.pos, ns + 2) Y(nearer_than, ns + 2)

/* Bytes of an array of n elements of a, in 64-byte lines. */
#define LINES(a, n) (((sizeof(*(a)) * (n)) + 63) & ~(size_t)63)

static void emu_free(struct emu *h)
{
	free(h->block);
	free(h->kept);
}

/*
 * Every array in one block (malloc'd: each is written before it is read,
 * except the loads, done and farther_used, cleared here).
 * @return 0, or LANES_ENOMEM
 */
static int emu_alloc(struct emu *h, struct lanes_error *err)
{
	size_t ns = h->ns, ne = h->f->adj_off[ns], slots = h->f->num_port_slots, size = 0;
	char *p;

#define SIZE(a, n) size += LINES(h->a, n);
#define SIZE_D(a, n) size += 2 * LINES(h->buf[0].a, n);
	EMU_ARRAYS(SIZE)
	DEST_ARRAYS(SIZE_D)
#undef SIZE
#undef SIZE_D
	if (!(h->block = p = malloc(size)))
		return lanes_error_oom(err);
#define CARVE(a, n) h->a = (void *)p, p += LINES(h->a, n);
#define CARVE_D(a, n) h->buf[0].a = (void *)p, p += LINES(h->buf[0].a, n);
#define CARVE_D1(a, n) h->buf[1].a = (void *)p, p += LINES(h->buf[1].a, n);
	EMU_ARRAYS(CARVE)
	DEST_ARRAYS(CARVE_D)
	DEST_ARRAYS(CARVE_D1)
#undef CARVE
#undef CARVE_D
#undef CARVE_D1
	lanes_emu_heap_init(&h->hp, h->hp.entry, h->hp.pos);
	lanes_emu_heap_init(&h->start, h->start.entry, h->start.pos);
	for (int k = 0; k < 2; k++)
		lanes_emu_heap_init(&h->buf[k].heap_at_start, h->buf[k].heap_at_start.entry,
				    h->buf[k].heap_at_start.pos);
	memset(h->load, 0, sizeof(*h->load) * (ne + 1));
	memset(h->done, 0, sizeof(*h->done) * (ns + 2));
	memset(h->farther_used, 0, sizeof(*h->farther_used) * (ns + 1));
	return 0;
}

/* ------------------------------------------------------------ routing */

int lanes_route_sssp_osm(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
			 int reference, struct lanes_routing *r, const struct sssp_osm_order *o,
			 struct lanes_error *err)
{
	struct emu h;
	uint64_t p = count_lids(f);
	int rc = 1;

	if (p * p >= OSM_INF || !f->num_switches || !o->nseq)
		return 0;
	memset(&h, 0, sizeof(h));
	h.f = f;
	h.threads = opts->threads;
	h.full_steps_only = reference;
	h.r = r;
	h.ns = f->num_switches;
	h.p2 = p * p;
	h.hca = o->hca;
	h.seq = o->seq;
	h.nseq = o->nseq;
	h.ngroups = o->ngroups;
	if (emu_alloc(&h, err)) {
		emu_free(&h);
		return LANES_ENOMEM;
	}
	set_order(&h);
	lanes_emu_set_runs(&h);
	lanes_emu_prep_start(&h);
	lanes_progress_phase(opts->progress, "routing", o->nseq);
	for (uint32_t j = 0; rc && j < o->nseq; j++) {
		h.d = &h.buf[j & 1];
		lanes_prep_pipe_next(&h.pipe, j);
		rc = lanes_emu_route_destination(&h, o, j);
		lanes_prep_pipe_done(&h.pipe, j);
		lanes_progress_add(opts->progress, 1);
	}
	lanes_prep_pipe_stop(&h.pipe);
	emu_free(&h);
	return rc;
}
