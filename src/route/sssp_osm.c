/*
 * sssp_osm.c - OpenSM 3.3.23's SSSP Dijkstra step for step, so that the
 * sssp and dfsssp paths equal OpenSM's entry for entry wherever OpenSM can
 * route (facts from osm_ucast_dfsssp.c and complib/cl_heap.c; no code taken
 * from them). sssp_paths.c calls route_sssp_osm() first and routes with its
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
 * switches with one CA each, torus k=101 p=1, does it; seeds 000 and 002
 * call the engine minimal, and dfsssp's path units count on it); the fast
 * rule then routes the whole fabric from scratch. These outcomes depend
 * only on the fabric.
 *
 * A helper thread prepares the next destination switch's hops, runs and
 * heap start (sssp_osm_dijkstra.c) while this one is routed (from 512
 * switches); none of it depends on the loads, so the result does not
 * depend on the thread. A switch with end ports keeps what was prepared
 * for them, packed, for its own LIDs (they come after every end port).
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/route.h"
#include "lanes/routing.h"
#include "route_internal.h"
#include "sssp_osm.h"

/* ------------------------------------------------------- one LID's tree */

/* After a full step: the LFT column of lid; port is t's own entry. */
static void write_column(struct emu *h, uint32_t lid, uint8_t port)
{
	uint8_t *col = h->r->lft + (size_t)lid * h->ns;

	memset(col, LANES_PORT_DROP, h->ns);
	for (uint32_t k = 1; k < h->nord; k++)
		col[h->ord[k]] = h->f->adj[h->used[h->ord[k]]].port;
	col[h->d->t] = port;
}

/* After a full step: every switch adds its LIDs to each channel on its path. */
static void add_load(struct emu *h)
{
	for (uint32_t k = 0; k < h->nord; k++)
		h->sub[h->ord[k]] = h->hca[h->ord[k]];
	for (uint32_t k = h->nord; k-- > 1;) { /* children first */
		uint32_t s = h->ord[k], e = h->used[s];

		h->load[e] += h->sub[s];
		h->max_load = h->load[e] > h->max_load ? h->load[e] : h->max_load;
		h->sub[h->nb[e]] += h->sub[s];
		emu_run_update(h, h->run_of[h->rev[e]]);
	}
}

/*
 * The same after a fast step, in one pass from the leaves: each switch's
 * entry from its run (used_i), its LIDs on that channel and on to its
 * parent, the run's load.
 */
static void finish_fast(struct emu *h, uint32_t lid, uint8_t port, const uint32_t *ord)
{
	uint8_t *col = h->r->lft + (size_t)lid * h->ns;
	const struct lanes_adj *adj = h->f->adj;
	const uint32_t *run_e0 = h->run_e0, *dl = h->d->dl, *used_i = h->used_i;
	const uint32_t *run_best = h->run_best, *nb = h->nb;
	uint64_t *sub = h->sub, *load = h->load, *run_load = h->run_load, max = h->max_load;

	memset(col, LANES_PORT_DROP, h->ns);
	memcpy(sub, h->hca, sizeof(*sub) * h->ns);
	for (uint32_t k = h->nord; k-- > 1;) {
		uint32_t s = ord[k], run = dl[used_i[s]], e = run_best[run];
		uint64_t x = sub[s], l = load[e] + x;

		col[s] = adj[e].port;
		load[e] = l;
		max = l > max ? l : max;
		sub[nb[e]] += x;
		if (run_e0[run + 1] - run_e0[run] == 1)
			run_load[run] = l;
		else
			emu_run_update(h, run);
	}
	h->max_load = max;
	col[h->d->t] = port;
}

/* After a full step: does every switch's path take its fewest hops? */
static int all_shortest(const struct emu *h)
{
	const uint32_t *row = h->d->row;

	for (uint32_t k = 1; k < h->nord; k++) {
		uint32_t s = h->ord[k];

		if (row[h->nb[h->used[s]]] + 1 != row[s])
			return 0;
	}
	return 1;
}

/*
 * One LID: 1 when OpenSM would reach every switch of t's component by
 * shortest paths, else 0.
 */
static int route_lid(struct emu *h, uint32_t lid, uint8_t port)
{
	if (emu_fast_ok(h)) {
		emu_dijkstra_fast(h);
		h->nord = h->d->nbfs;
		finish_fast(h, lid, port, h->d->bfs);
		return 1;
	}
	if (emu_dijkstra_full(h) != h->d->nbfs || !all_shortest(h))
		return 0;
	write_column(h, lid, port);
	add_load(h);
	return 1;
}

/* ------------------------------------------------------------- set-up */

static int by_guid_key(const void *pa, const void *pb)
{
	const uint64_t *a = pa, *b = pb;

	return a[0] < b[0] ? -1 : a[0] > b[0];
}

/* Switches in GUID map order; the reverse of every adjacency entry. */
static int set_order(struct emu *h)
{
	const struct lanes_fabric *f = h->f;
	uint64_t *k = malloc(sizeof(*k) * 2 * (h->ns + 1));
	uint32_t *first = malloc(sizeof(*first) * ((size_t)f->num_port_slots + 1));

	if (!k || !first) {
		free(k);
		free(first);
		return -1;
	}
	for (uint32_t s = 0; s < h->ns; s++) {
		k[2 * s] = route_osm_guid_key(f->nodes[f->switches[s]].guid);
		k[2 * s + 1] = s;
	}
	qsort(k, h->ns, 2 * sizeof(*k), by_guid_key);
	for (uint32_t i = 0; i < h->ns; i++)
		h->gorder[i] = (uint32_t)k[2 * i + 1];
	/* first[port slot of (s, port)]: s's adjacency entry on that port */
	for (uint32_t s = 0; s < h->ns; s++)
		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++)
			first[f->nodes[f->switches[s]].port_base + f->adj[e].port] = e;
	for (uint32_t e = 0; e < f->adj_off[h->ns]; e++) {
		h->nb[e] = f->adj[e].sw;
		h->rev[e] = first[f->nodes[f->switches[f->adj[e].sw]].port_base + f->adj[e].peer_port];
	}
	free(k);
	free(first);
	return 0;
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
	X(gorder, ns + 1) X(rev, ne + 1) X(nb, ne + 1) X(load, ne + 1) X(run_off, ns + 1)           \
	X(run_v, ne + 1) X(run_e0, ne + 1) X(run_load, ne + 1) X(run_best, ne + 1)                  \
	X(run_of, ne + 1) X(twice, ns + 1) X(hp.he, ns + 2) X(hp.pos, ns + 2) X(dist, ns + 2)        \
	X(used, ns + 1) X(used_i, ns + 1) X(done, ns + 2) X(ord, ns + 1) X(sub, ns + 1)             \
	X(hit, ne + 1) X(hitw, ne + 1) X(start.he, ns + 2) X(start.pos, ns + 2)    \
	X(kept_at, ns + 1)
#define DEST_ARRAYS(Y)                                                                            \
	Y(row, ns + 1) Y(bfs, ns + 1) Y(dl_lo, ns + 1) Y(dl_hi, ns + 1) Y(dl, ne + 1) Y(dl_v, ne + 1) \
	Y(tpl.he, ns + 2) Y(tpl.pos, ns + 2) Y(below, ns + 2)

/* Bytes of an array of n elements of a, in 64-byte lines. */
#define LINES(a, n) (((sizeof(*(a)) * (n)) + 63) & ~(size_t)63)

static void emu_free(struct emu *h)
{
	free(h->block);
	free(h->kept);
}

/*
 * Every array in one block (malloc'd: each is written before it is read,
 * except the loads, done and used_i, cleared here).
 */
static int emu_alloc(struct emu *h)
{
	size_t ns = h->ns, ne = h->f->adj_off[ns], size = 0;
	char *p;

#define SIZE(a, n) size += LINES(h->a, n);
#define SIZE_D(a, n) size += 2 * LINES(h->buf[0].a, n);
	EMU_ARRAYS(SIZE)
	DEST_ARRAYS(SIZE_D)
#undef SIZE
#undef SIZE_D
	if (!(h->block = p = malloc(size)))
		return -1;
#define CARVE(a, n) h->a = (void *)p, p += LINES(h->a, n);
#define CARVE_D(a, n) h->buf[0].a = (void *)p, p += LINES(h->buf[0].a, n);
#define CARVE_D1(a, n) h->buf[1].a = (void *)p, p += LINES(h->buf[1].a, n);
	EMU_ARRAYS(CARVE)
	DEST_ARRAYS(CARVE_D)
	DEST_ARRAYS(CARVE_D1)
#undef CARVE
#undef CARVE_D
#undef CARVE_D1
	memset(h->load, 0, sizeof(*h->load) * (ne + 1));
	memset(h->done, 0, sizeof(*h->done) * (ns + 2));
	memset(h->used_i, 0, sizeof(*h->used_i) * (ns + 1));
	return 0;
}

/* --------------------------------------------------- kept fills */

/*
 * A switch with end ports is a destination twice: for them, and after
 * every such switch, for its own LIDs. Its fill does not depend on the
 * loads, so the first time keeps it for the second, packed: nbfs, ecc,
 * nscan, nd; bfs; below; where each scanned switch's runs start in dl,
 * then nd; dl. Hops, dl_v and the heap follow from those. The records
 * take at most KEPT_BYTES plus a quarter of the LFTs' size; a switch
 * whose record does not fit is filled again.
 */
#define KEPT_BYTES ((size_t)4 << 20)

static void kept_alloc(struct emu *h)
{
	size_t ns = h->ns, record = 4 + 3 * ns + 3 + h->run_off[ns];
	size_t budget = (KEPT_BYTES + (size_t)(h->f->max_lid + 1) * ns / 4) / sizeof(*h->kept);

	memset(h->kept_at, 0xFF, sizeof(*h->kept_at) * ns);
	h->kept_cap = record * h->ngroups < budget ? record * h->ngroups : budget;
	h->kept = h->kept_cap ? malloc(sizeof(*h->kept) * h->kept_cap) : NULL;
}

static void keep_fill(struct emu *h, const struct emu_dest *d)
{
	uint32_t nd = d->nscan ? d->dl_hi[d->bfs[d->nscan - 1]] : 0, *w;
	size_t need = 4 + d->nbfs + d->ecc + 2 + d->nscan + 1 + nd;

	if (!h->kept || h->kept_used + need > h->kept_cap)
		return;
	h->kept_at[d->t] = (uint32_t)h->kept_used;
	w = h->kept + h->kept_used;
	h->kept_used += need;
	w[0] = d->nbfs;
	w[1] = d->ecc;
	w[2] = d->nscan;
	w[3] = nd;
	w += 4;
	memcpy(w, d->bfs, sizeof(*w) * d->nbfs);
	w += d->nbfs;
	memcpy(w, d->below, sizeof(*w) * (d->ecc + 2));
	w += d->ecc + 2;
	for (uint32_t i = 0; i < d->nscan; i++)
		w[i] = d->dl_lo[d->bfs[i]];
	w[d->nscan] = nd;
	memcpy(w + d->nscan + 1, d->dl, sizeof(*w) * nd);
}

/* d for t's own LIDs from t's record; 0 when t has none. */
static int restore_fill(const struct emu *h, struct emu_dest *d, uint32_t t)
{
	const uint32_t *w;
	uint32_t nd;

	if (!h->kept || h->kept_at[t] == UINT32_MAX)
		return 0;
	w = h->kept + h->kept_at[t];
	d->t = t;
	d->ca = 0;
	d->nbfs = w[0];
	d->ecc = w[1];
	d->nscan = w[2];
	nd = w[3];
	w += 4;
	memcpy(d->bfs, w, sizeof(*w) * d->nbfs);
	w += d->nbfs;
	memcpy(d->below, w, sizeof(*w) * (d->ecc + 2));
	w += d->ecc + 2;
	memset(d->row, 0xFF, sizeof(*d->row) * h->ns);
	for (uint32_t hops = 0; hops <= d->ecc; hops++)
		for (uint32_t i = d->below[hops]; i < d->below[hops + 1]; i++)
			d->row[d->bfs[i]] = hops;
	for (uint32_t i = 0; i < d->nscan; i++) {
		d->dl_lo[d->bfs[i]] = w[i];
		d->dl_hi[d->bfs[i]] = w[i + 1];
	}
	w += d->nscan + 1;
	memcpy(d->dl, w, sizeof(*w) * nd);
	for (uint32_t i = 0; i < nd; i++)
		d->dl_v[i] = h->run_v[w[i]];
	emu_dest_heap(h, d);
	return 1;
}

/* Destination j into d: restored when kept, else filled (and kept when it has end ports). */
static void prepare(struct emu *h, struct emu_dest *d, uint32_t j)
{
	int ca = j < h->ngroups;

	if (!ca && restore_fill(h, d, h->seq[j]))
		return;
	emu_dest_fill(h, d, h->seq[j], ca);
	if (ca)
		keep_fill(h, d);
}

/* ------------------------------------------------------------ pipeline */

/*
 * Below this many switches a destination takes microseconds to prepare
 * and handing it between threads costs more than it saves.
 */
#define EMU_THREAD_MIN_SWITCHES 512

static void *prepare_ahead(void *arg)
{
	struct emu *h = arg;

	for (uint32_t j = 0; j < h->nseq; j++) {
		pthread_mutex_lock(&h->mu);
		while (h->ready[j & 1] && !h->stop)
			pthread_cond_wait(&h->cv, &h->mu);
		pthread_mutex_unlock(&h->mu);
		if (h->stop)
			break;
		prepare(h, &h->buf[j & 1], j);
		pthread_mutex_lock(&h->mu);
		h->ready[j & 1] = 1;
		pthread_cond_broadcast(&h->cv);
		pthread_mutex_unlock(&h->mu);
	}
	return NULL;
}

static void pipe_start(struct emu *h)
{
	if (h->nseq < 2 || h->ns < EMU_THREAD_MIN_SWITCHES || pthread_mutex_init(&h->mu, NULL))
		return;
	if (pthread_cond_init(&h->cv, NULL)) {
		pthread_mutex_destroy(&h->mu);
		return;
	}
	h->threaded = !pthread_create(&h->worker, NULL, prepare_ahead, h);
	if (!h->threaded) {
		pthread_cond_destroy(&h->cv);
		pthread_mutex_destroy(&h->mu);
	}
}

/* Make destination j current (without the thread: prepare it now). */
static void next_destination(struct emu *h, uint32_t j)
{
	h->d = &h->buf[j & 1];
	if (!h->threaded) {
		prepare(h, h->d, j);
		return;
	}
	pthread_mutex_lock(&h->mu);
	while (!h->ready[j & 1])
		pthread_cond_wait(&h->cv, &h->mu);
	pthread_mutex_unlock(&h->mu);
}

static void done_destination(struct emu *h, uint32_t j)
{
	if (!h->threaded)
		return;
	pthread_mutex_lock(&h->mu);
	h->ready[j & 1] = 0;
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->mu);
}

static void pipe_stop(struct emu *h)
{
	if (!h->threaded)
		return;
	pthread_mutex_lock(&h->mu);
	h->stop = 1;
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->mu);
	pthread_join(h->worker, NULL);
	pthread_cond_destroy(&h->cv);
	pthread_mutex_destroy(&h->mu);
}

/* ------------------------------------------------------------ routing */

/* The LIDs of destination j in turn; 0 as soon as one leaves a switch unreached. */
static int route_destination(struct emu *h, const struct sssp_osm_order *o, uint32_t j)
{
	const struct lanes_fabric *f = h->f;
	uint32_t t = o->seq[j];

	if (j >= o->ngroups) {
		const struct lanes_port *p0 = lanes_fabric_port(f, f->switches[t], 0);

		for (uint32_t l = 0; l < (1u << p0->lmc); l++)
			if (!route_lid(h, p0->lid + l, 0))
				return 0;
		return 1;
	}
	for (uint32_t i = o->ep_first[t]; i < o->eps->n && o->eps->ep[i].sw == t; i++) {
		const struct route_endport *ep = &o->eps->ep[i];

		for (uint32_t l = 0; l < (1u << ep->lmc); l++)
			if (!route_lid(h, ep->lid + l, ep->sw_port))
				return 0;
	}
	return 1;
}

int route_sssp_osm(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		   struct lanes_routing *r, const struct sssp_osm_order *o,
		   struct lanes_error *err)
{
	struct emu h;
	uint64_t p = count_lids(f);
	int rc = 1;

	(void)opts;
	if (p * p >= OSM_INF || !f->num_switches || !o->nseq)
		return 0;
	memset(&h, 0, sizeof(h));
	h.f = f;
	h.r = r;
	h.ns = f->num_switches;
	h.p2 = p * p;
	h.hca = o->hca;
	h.seq = o->seq;
	h.nseq = o->nseq;
	h.ngroups = o->ngroups;
	if (emu_alloc(&h) || set_order(&h)) {
		emu_free(&h);
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	}
	emu_set_runs(&h);
	kept_alloc(&h);
	pipe_start(&h);
	for (uint32_t j = 0; rc && j < o->nseq; j++) {
		next_destination(&h, j);
		rc = route_destination(&h, o, j);
		done_destination(&h, j);
	}
	pipe_stop(&h);
	emu_free(&h);
	return rc;
}
