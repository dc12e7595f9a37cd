/*
 * sssp_paths.c - the paths of OpenSM 3.3.23's SSSP and DFSSSP engines (seed
 * 002, "DFSSSP and SSSP Routing Algorithm", steps 1 and 2), shared by the
 * sssp and dfsssp engines. Facts from osm_ucast_dfsssp.c (dfsssp_build_graph,
 * dijkstra, update_lft, update_weights, dfsssp_do_dijkstra_routing); no code
 * taken from it.
 *
 * OpenSM routes one destination LID at a time. Dijkstra runs from the
 * destination over the switch graph; a channel weighs P^2 (P: every CA and
 * switch LID of the subnet, "to force shortest paths") plus the routes
 * already placed on it; each switch's LFT entry is its edge of the resulting
 * tree. Then every switch s adds num_hca(s) (the LIDs of the CA ports behind
 * it plus its own LIDs) to each channel on its path to the destination, so
 * later trees avoid loaded channels. Destinations come in this order: the
 * end ports behind the switches sorted by num_hca, most first, ties in the
 * switch GUID map order (a stable qsort of that map), each switch's end
 * ports in port order and each port's LIDs in turn; then every switch's own
 * LIDs, switches in the same order. Switch destinations add weights too.
 *
 * Ties. OpenSM's Dijkstra breaks them with its 4-ary heap (cl_heap): of
 * the candidates with the least sum, the one its heap releases first,
 * which for equal keys depends on every heap operation before. For dfsssp
 * (replay set), route_sssp first hands the destinations to route_sssp_osm
 * (sssp_osm.c, sssp_osm_dijkstra.c), which replays OpenSM's Dijkstra and
 * heap operation for operation: its LFTs equal OpenSM's entry for entry
 * (tests/interop/sssp_vs_opensm.sh; on the DGX SuperPOD file max routes per
 * channel 2,289 both sides, where the rule below gives 2,386 and lowest-port ties 2,475).
 * It declines where OpenSM's own arithmetic fails: its keys are 64-bit sums
 * compared with 0x7FFFFFFF, so with P^2 (P: the subnet's CA and switch
 * LIDs) at or above that (P > 46,340, e.g. the 114,582-endpoint dragonfly)
 * or with a switch it would leave unreached, OpenSM routes nothing, and the
 * rule below routes the whole fabric instead. The sssp engine (replay 0)
 * always takes the rule below: the replay costs 2 to 5 times its time (a
 * heap per destination LID instead of one pass per destination switch;
 * DGX 19 ms against 6 ms, a 10x10 torus 2.3 ms against 0.5), which would
 * leave it under 10 times OpenSM's speed; for dfsssp that time is small
 * next to the layering.
 *
 * That rule (this file): distances compare as (hops, load sum): the P^2
 * term is made exact, so every path is a shortest path (OpenSM's P^2 can in
 * principle be outweighed by loads; its document and seed 000 call the
 * engine minimal). A switch's
 * candidates are its min-hop ports toward the destination switch t, found
 * once per t by a BFS from t (no distance matrix; a switch that has end
 * ports keeps them for its switch LIDs, within a memory budget, when there
 * is no second thread). A tree is one pass over the switches
 * in hop order, up to the farthest switch with several candidates. Ties on
 * the load sum: for sssp, to the less loaded channel, then the lowest
 * port; for dfsssp (where the replay declined), to the lowest port. The
 * less loaded channel balances better (max routes per channel on the DGX
 * SuperPOD file 2,386, within 5% of OpenSM's 2,289, where the lowest port
 * gives 2,475), but its less regular paths made dfsssp need 9 VLs instead
 * of 8 on the 114,582-endpoint dragonfly, where the replay declines.
 * Where every switch has one candidate, the tree cannot depend on the
 * loads: all the LIDs behind t share it and its weights are added once,
 * times their number.
 *
 * The candidates do not depend on the loads, so a second thread finds them
 * for the next destination switch while this one is routed (two buffers;
 * without the thread the same work is done in turn). The result does not
 * depend on the thread.
 *
 * Differences from OpenSM: router ports are routed like CA ports (OpenSM
 * skips them, but they are destinations); no compute/I-O node GUID files.
 * Unreachable destinations stay LANES_PORT_DROP. opts->switch_lids = 0
 * leaves switch LIDs out (each switch still keeps its own on port 0); they
 * come after every CA LID, so CA entries do not change.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lanes/route.h"
#include "lanes/routing.h"
#include "route_internal.h"

/* The candidates toward one destination switch t. */
struct dest {
	uint32_t t;
	uint8_t *row;               /* per switch: hops to t (255: unreachable or too far) */
	uint32_t *order, norder;    /* switches that reach t, by hops (BFS order), t first */
	uint32_t *pick;             /* per switch: adjacency entry toward t */
	uint8_t *col;               /* per switch: its port if it has one candidate,
				       0 if several, LANES_PORT_DROP if none */
	uint32_t *multi, nmulti;    /* switches with several candidates, in hop order */
	uint32_t *moff, *mcand;     /* their candidates (adjacency entries) */
};

/* Destination switches in routing order; dests are prepared ahead in turn. */
struct pipe {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t worker;
	int threaded;
	int ready[2];               /* buffer i holds seq[j] with j % 2 == i */
	uint32_t *seq, nseq;
	uint32_t ngroups;           /* seq[0..ngroups): end-port groups */
};

struct sssp {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	struct lanes_routing *r;
	struct route_endports eps;  /* CA and router ports, grouped by switch */
	uint32_t *rank;             /* switches in OpenSM's destination order */
	uint32_t *ep_first;         /* per switch: its first end port in eps, or LANES_NONE */
	uint64_t *hca;              /* per switch: OpenSM's num_hca */
	uint64_t *load;             /* per adjacency entry: routes on that channel */
	uint32_t *nb;               /* per adjacency entry: the neighbour (a compact copy) */
	uint64_t *wd, *sub;         /* per switch: load sum to t; LIDs below it */
	int less_loaded;            /* 1: ties go to the less loaded channel; 0: to the lowest port */
	const struct sssp_progress *prog; /* told of each end-port group routed, or NULL */
	unsigned key_shift;         /* choose()'s key: load sum << key_shift | channel load
				       (64 or more: 128-bit keys) */
	struct dest buf[2];
	struct dest *cur;           /* the destination switch being routed */
	struct dest **kept;         /* without the thread: per switch, its candidates
				       kept from its end ports for its switch LIDs */
	size_t keep_left;           /* bytes kept copies may still take */
	struct pipe pipe;
};

/* ------------------------------------------------------------ set-up */

static int oom(struct lanes_error *err)
{
	return lanes_error_set(err, LANES_ENOMEM, "out of memory");
}

static uint64_t switch_lids(const struct lanes_fabric *f, uint32_t s)
{
	const struct lanes_port *p0 = lanes_fabric_port(f, f->switches[s], 0);

	return p0->lid ? (uint64_t)1 << p0->lmc : 0;
}

/* num_hca per switch and the first end port of each switch. */
static void count_hca(struct sssp *m)
{
	for (uint32_t s = 0; s < m->f->num_switches; s++) {
		m->hca[s] = switch_lids(m->f, s);
		m->ep_first[s] = LANES_NONE;
	}
	for (uint32_t i = m->eps.n; i-- > 0;) {
		const struct route_endport *ep = &m->eps.ep[i];

		m->hca[ep->sw] += (uint64_t)1 << ep->lmc;
		m->ep_first[ep->sw] = i;
	}
}

struct rank_key {
	uint64_t hca, key;
	uint32_t sw;
};

static int by_hca(const void *pa, const void *pb)
{
	const struct rank_key *a = pa, *b = pb;

	if (a->hca != b->hca)
		return a->hca > b->hca ? -1 : 1;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->sw < b->sw ? -1 : a->sw > b->sw;
}

/* Switches by num_hca, most first, ties in OpenSM's GUID map order. */
static int rank_switches(struct sssp *m, struct lanes_error *err)
{
	uint32_t ns = m->f->num_switches;
	struct rank_key *k = malloc(sizeof(*k) * (ns + 1));

	if (!k)
		return oom(err);
	for (uint32_t s = 0; s < ns; s++) {
		k[s].hca = m->hca[s];
		k[s].key = route_osm_guid_key(m->f->nodes[m->f->switches[s]].guid);
		k[s].sw = s;
	}
	qsort(k, ns, sizeof(*k), by_hca);
	for (uint32_t i = 0; i < ns; i++)
		m->rank[i] = k[i].sw;
	free(k);
	return 0;
}

/* The destination switches in routing order: end-port groups, then switch LIDs. */
static int make_sequence(struct sssp *m, struct lanes_error *err)
{
	uint32_t ns = m->f->num_switches;

	if (!(m->pipe.seq = malloc(sizeof(*m->pipe.seq) * (2 * (size_t)ns + 1))))
		return oom(err);
	for (uint32_t i = 0; i < ns; i++)
		if (m->ep_first[m->rank[i]] != LANES_NONE)
			m->pipe.seq[m->pipe.nseq++] = m->rank[i];
	for (uint32_t i = 0; i < ns && m->opts->switch_lids; i++)
		if (switch_lids(m->f, m->rank[i]))
			m->pipe.seq[m->pipe.nseq++] = m->rank[i];
	return 0;
}

static int alloc_dest(struct dest *d, size_t ns, size_t ne)
{
	d->row = malloc(ns + 1);
	d->order = malloc(sizeof(*d->order) * (ns + 1));
	d->pick = malloc(sizeof(*d->pick) * (ns + 1));
	d->col = malloc(ns + 1);
	d->multi = malloc(sizeof(*d->multi) * (ns + 1));
	d->moff = malloc(sizeof(*d->moff) * (ns + 1));
	d->mcand = malloc(sizeof(*d->mcand) * (ne + 1));
	return d->row && d->order && d->pick && d->col && d->multi && d->moff && d->mcand ? 0 : -1;
}

static void free_dest(struct dest *d)
{
	free(d->row);
	free(d->order);
	free(d->pick);
	free(d->col);
	free(d->multi);
	free(d->moff);
	free(d->mcand);
}

/* What the order of the destinations needs (the replay's input too). */
static int alloc_order(struct sssp *m, struct lanes_error *err)
{
	size_t ns = m->f->num_switches;

	m->rank = malloc(sizeof(*m->rank) * (ns + 1));
	m->ep_first = malloc(sizeof(*m->ep_first) * (ns + 1));
	m->hca = malloc(sizeof(*m->hca) * (ns + 1));
	return m->rank && m->ep_first && m->hca ? 0 : oom(err);
}

/* What the rule needs, only when it routes. */
static int alloc_rule(struct sssp *m, struct lanes_error *err)
{
	size_t ns = m->f->num_switches, ne = m->f->adj_off[ns];

	m->load = calloc(ne + 1, sizeof(*m->load));
	m->nb = malloc(sizeof(*m->nb) * (ne + 1));
	m->wd = malloc(sizeof(*m->wd) * (ns + 1));
	m->sub = malloc(sizeof(*m->sub) * (ns + 1));
	m->kept = calloc(ns + 1, sizeof(*m->kept));
	/* kept candidates: at most 4 MB and a quarter of the LFTs' size */
	m->keep_left = ((size_t)4 << 20) + (size_t)(m->f->max_lid + 1) * ns / 4;
	if (!m->kept || !m->load || !m->nb || !m->wd || !m->sub || alloc_dest(&m->buf[0], ns, ne) ||
	    alloc_dest(&m->buf[1], ns, ne))
		return oom(err);
	for (size_t e = 0; e < ne; e++)
		m->nb[e] = m->f->adj[e].sw;
	return 0;
}

static unsigned bits(uint64_t x)
{
	unsigned b = 0;

	for (; x; x >>= 1)
		b++;
	return b;
}

/*
 * choose()'s keys. A channel's load is at most P^2 (P: the LIDs, the sum of
 * num_hca; each destination LID adds at most P to it), a load sum at most
 * 255 P^2; the key packs both into 64 bits where they fit.
 */
int sssp_wide_keys;

static void set_key_shift(struct sssp *m)
{
	uint64_t p = 0;

	for (uint32_t s = 0; s < m->f->num_switches; s++)
		p += m->hca[s];
	m->key_shift = 64;
	if (!m->less_loaded)
		m->key_shift = 0;
	else if (!sssp_wide_keys && p < (1u << 24) && bits(255 * p * p) + bits(p * p) <= 64)
		m->key_shift = bits(p * p);
}

static int prepare(struct sssp *m, struct lanes_error *err)
{
	int rc;

	if ((rc = route_endports_osm_order(m->f, &m->eps, err)) || (rc = alloc_order(m, err)))
		return rc;
	count_hca(m);
	set_key_shift(m);
	if ((rc = rank_switches(m, err)))
		return rc;
	return make_sequence(m, err);
}

static void release(struct sssp *m)
{
	for (uint32_t s = 0; m->kept && s < m->f->num_switches; s++)
		if (m->kept[s]) {
			free_dest(m->kept[s]);
			free(m->kept[s]);
		}
	free(m->kept);
	void *p[] = { m->rank, m->ep_first, m->hca,	  m->load,
		      m->nb,   m->wd,	m->sub,	     m->pipe.seq };

	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		free(p[i]);
	free_dest(&m->buf[0]);
	free_dest(&m->buf[1]);
	route_endports_free(&m->eps);
}

/* --------------------------------------- candidates toward one switch */

/*
 * Fill d for destination switch t (reads only the fabric): a BFS from t
 * gives the hops and the order, and as each switch is taken from the queue
 * every switch one hop closer is known, so its candidates come in the same
 * scan: the entries whose neighbour is one hop closer, in adjacency order.
 * (The order within one hop count does not matter: a switch's load sum
 * reads only switches one hop closer.) Hops stop at 254, as in the distance
 * matrix.
 */
static void set_destination(const struct sssp *m, struct dest *d, uint32_t t)
{
	const struct lanes_fabric *f = m->f;
	uint32_t ns = f->num_switches, n = 1, nc = 0;
	const uint32_t *nb = m->nb;
	uint8_t *row = d->row;
	uint32_t *order = d->order, *cand = d->mcand;

	d->t = t;
	d->nmulti = 0;
	d->moff[0] = 0;
	memset(row, 255, ns);
	memset(d->col, LANES_PORT_DROP, ns);
	row[t] = 0;
	order[0] = t;
	d->pick[t] = LANES_NONE;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t s = order[i], k0 = nc;
		uint8_t want = (uint8_t)(row[s] - 1), next = (uint8_t)(row[s] + 1);

		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++) {
			uint32_t v = nb[e];

			if (row[v] == 255) {
				if (next != 255) {
					row[v] = next;
					order[n++] = v;
				}
			} else if (row[v] == want) {
				cand[nc++] = e;
			}
		}
		if (!i)
			continue;
		d->pick[s] = cand[k0];
		if (nc - k0 == 1) {
			d->col[s] = f->adj[cand[k0]].port;
			nc = k0;
		} else {
			d->col[s] = 0;
			d->multi[d->nmulti] = s;
			d->moff[++d->nmulti] = nc;
		}
	}
	d->norder = n;
}

/* ------------------------------------------------------------ pipeline */

static void *prepare_ahead(void *arg)
{
	struct sssp *m = arg;
	struct pipe *p = &m->pipe;

	for (uint32_t j = 0; j < p->nseq; j++) {
		pthread_mutex_lock(&p->mu);
		while (p->ready[j & 1])
			pthread_cond_wait(&p->cv, &p->mu);
		pthread_mutex_unlock(&p->mu);
		set_destination(m, &m->buf[j & 1], p->seq[j]);
		pthread_mutex_lock(&p->mu);
		p->ready[j & 1] = 1;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
	return NULL;
}

/*
 * Below this many switches a destination's candidates take microseconds and
 * handing them between threads costs more than it saves (measured on
 * torus k=10x10 p=4: 3.5 ms with the thread, see bench/RESULTS.md).
 */
#define SSSP_THREAD_MIN_SWITCHES 512

/* Start the worker; without it (no thread), next_destination works in turn. */
static void pipe_start(struct sssp *m)
{
	struct pipe *p = &m->pipe;

	if (pthread_mutex_init(&p->mu, NULL))
		return;
	if (pthread_cond_init(&p->cv, NULL)) {
		pthread_mutex_destroy(&p->mu);
		return;
	}
	p->threaded = p->nseq > 1 && m->f->num_switches >= SSSP_THREAD_MIN_SWITCHES &&
		      !pthread_create(&p->worker, NULL, prepare_ahead, m);
	if (!p->threaded) {
		pthread_cond_destroy(&p->cv);
		pthread_mutex_destroy(&p->mu);
	}
}

/* Make a kept copy current for t, if the budget and memory allow. */
static void keep(struct sssp *m, uint32_t t)
{
	size_t ns = m->f->num_switches, ne = m->f->adj_off[ns];
	size_t bytes = sizeof(struct dest) + 2 * ns + 16 * ns + 4 * ne;
	struct dest *d;

	if (bytes > m->keep_left || !(d = calloc(1, sizeof(*d))))
		return;
	if (alloc_dest(d, ns, ne)) {
		free_dest(d);
		free(d);
		return;
	}
	m->keep_left -= bytes;
	m->kept[t] = d;
	m->cur = d;
}

/* Make destination j current (its buffer freed again by done_destination). */
static void next_destination(struct sssp *m, uint32_t j)
{
	struct pipe *p = &m->pipe;

	m->cur = &m->buf[j & 1];
	if (!p->threaded) {
		uint32_t t = p->seq[j];

		if (m->kept[t]) {
			m->cur = m->kept[t];
			return;
		}
		if (j < p->ngroups && m->opts->switch_lids && switch_lids(m->f, t))
			keep(m, t);
		set_destination(m, m->cur, t);
		return;
	}
	pthread_mutex_lock(&p->mu);
	while (!p->ready[j & 1])
		pthread_cond_wait(&p->cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

static void done_destination(struct sssp *m, uint32_t j)
{
	struct pipe *p = &m->pipe;

	if (!p->threaded)
		return;
	pthread_mutex_lock(&p->mu);
	p->ready[j & 1] = 0;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

static void pipe_stop(struct sssp *m)
{
	struct pipe *p = &m->pipe;

	if (!p->threaded)
		return;
	pthread_join(p->worker, NULL);
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
}

/* ------------------------------------------------------------- a tree */

/* 128 bits (a GCC and Clang extension): a two-part key compared at once */
__extension__ typedef unsigned __int128 u128;

/*
 * The pick of candidates c0 .. c1 (adjacency order: the first is the lowest
 * port) by the least key (load sum, channel load & mask), the load sum
 * shifted by sh bits so that the key fits 64 bits; *best gets the load sum.
 */
static inline uint32_t least_packed(const uint64_t *wd, const uint64_t *load, const uint32_t *nb,
				    const uint32_t *mcand, uint32_t c0, uint32_t c1, unsigned sh,
				    uint64_t mask, uint64_t *best)
{
	uint64_t bk = UINT64_MAX;
	uint32_t be = 0;

	for (uint32_t c = c0; c < c1; c++) {
		uint32_t e = mcand[c];
		uint64_t k = (wd[nb[e]] + load[e]) << sh | (load[e] & mask);
		int lt = k < bk; /* branch-free: the outcome is a coin toss */

		bk = lt ? k : bk;
		be = lt ? e : be;
	}
	*best = bk >> sh;
	return be;
}

/* The same where the key needs more than 64 bits. */
static inline uint32_t least_wide(const uint64_t *wd, const uint64_t *load, const uint32_t *nb,
				  const uint32_t *mcand, uint32_t c0, uint32_t c1, uint64_t *best)
{
	u128 bk = ~(u128)0;
	uint32_t be = 0;

	for (uint32_t c = c0; c < c1; c++) {
		uint32_t e = mcand[c];
		u128 k = (u128)(wd[nb[e]] + load[e]) << 64 | load[e];
		int lt = k < bk;

		bk = lt ? k : bk;
		be = lt ? e : be;
	}
	*best = (uint64_t)(bk >> 64);
	return be;
}

/*
 * The picks of the multi switches: least load sum to t; of equal sums the
 * less loaded channel (m->less_loaded), then the lowest port. Load sums are
 * needed only below the farthest multi switch's hops.
 */
static void choose(struct sssp *m)
{
	struct dest *d = m->cur;
	const uint8_t *row = d->row;
	uint8_t far = row[d->multi[d->nmulti - 1]];
	/* locals: the stores to wd and pick may alias anything the structs point to */
	uint64_t *wd = m->wd;
	const uint64_t *load = m->load;
	const uint32_t *nb = m->nb, *order = d->order, *moff = d->moff, *mcand = d->mcand;
	const uint8_t *col = d->col;
	uint32_t *pick = d->pick;
	unsigned sh = m->key_shift;
	uint64_t mask = m->less_loaded ? UINT64_MAX : 0;

	wd[d->t] = 0;
	for (uint32_t i = 1, k = 0; i < d->norder && row[order[i]] <= far; i++) {
		uint32_t s = order[i];

		if (col[s]) {
			if (row[s] < far)
				wd[s] = wd[nb[pick[s]]] + load[pick[s]];
			continue;
		}
		if (sh < 64)
			pick[s] = least_packed(wd, load, nb, mcand, moff[k], moff[k + 1], sh, mask, &wd[s]);
		else
			pick[s] = least_wide(wd, load, nb, mcand, moff[k], moff[k + 1], &wd[s]);
		k++;
	}
}

/* The LFT column of lid from the current picks; port is t's own entry. */
static void write_column(struct sssp *m, uint32_t lid, uint8_t port)
{
	const struct dest *d = m->cur;
	uint8_t *col = m->r->lft + (size_t)lid * m->f->num_switches;

	memcpy(col, d->col, m->f->num_switches);
	for (uint32_t k = 0; k < d->nmulti; k++)
		col[d->multi[k]] = m->f->adj[d->pick[d->multi[k]]].port;
	col[d->t] = port;
}

/* Every switch adds k times its LIDs to each channel on its path to t. */
static void add_load(struct sssp *m, uint64_t k)
{
	const struct dest *d = m->cur;

	for (uint32_t i = 0; i < d->norder; i++)
		m->sub[d->order[i]] = m->hca[d->order[i]];
	for (uint32_t i = d->norder; i-- > 1;) {
		uint32_t s = d->order[i], e = d->pick[s];

		m->load[e] += k * m->sub[s];
		m->sub[m->nb[e]] += m->sub[s];
	}
}

/* One destination LID: its tree, its column, its weights (unless deferred). */
static void route_lid(struct sssp *m, uint32_t lid, uint8_t port, uint64_t *deferred)
{
	if (m->cur->nmulti)
		choose(m);
	write_column(m, lid, port);
	if (m->cur->nmulti)
		add_load(m, 1);
	else
		(*deferred)++;
}

/* ------------------------------------------------------------ routing */

/* Every LID of the end ports behind the current switch t, in port order. */
static void route_endports_of(struct sssp *m)
{
	uint32_t t = m->cur->t;
	uint64_t same = 0;

	for (uint32_t i = m->ep_first[t]; i < m->eps.n && m->eps.ep[i].sw == t; i++) {
		const struct route_endport *ep = &m->eps.ep[i];

		for (uint32_t l = 0; l < (1u << ep->lmc); l++)
			route_lid(m, ep->lid + l, ep->sw_port, &same);
	}
	if (same)
		add_load(m, same);
}

static void route_switch_lids(struct sssp *m)
{
	uint32_t t = m->cur->t;
	const struct lanes_port *p0 = lanes_fabric_port(m->f, m->f->switches[t], 0);
	uint64_t same = 0;

	for (uint32_t l = 0; l < (1u << p0->lmc); l++)
		route_lid(m, p0->lid + l, 0, &same);
	if (same)
		add_load(m, same);
}

/* Every switch keeps its own LIDs on port 0 (the rest may stay unrouted). */
static void own_lids(struct sssp *m)
{
	for (uint32_t s = 0; s < m->f->num_switches; s++) {
		const struct lanes_port *p0 = lanes_fabric_port(m->f, m->f->switches[s], 0);

		for (uint32_t l = 0; p0->lid && l < (1u << p0->lmc); l++)
			lanes_routing_set_port(m->r, s, p0->lid + l, 0);
	}
}

/* The rule (this file's own), every destination in turn. */
static void route_by_rule(struct sssp *m)
{
	pipe_start(m);
	for (uint32_t j = 0; j < m->pipe.nseq; j++) {
		next_destination(m, j);
		if (j < m->pipe.ngroups)
			route_endports_of(m);
		else
			route_switch_lids(m);
		if (j < m->pipe.ngroups && m->prog)
			m->prog->routed(m->prog->ctx, m->cur->t);
		done_destination(m, j);
	}
	pipe_stop(m);
}

int route_sssp(const struct lanes_fabric *f, const struct lanes_route_opts *opts, int replay,
	       const struct sssp_progress *prog, struct lanes_routing *r, struct lanes_error *err)
{
	struct sssp m;
	struct sssp_osm_order o;
	int rc;

	memset(&m, 0, sizeof(m));
	m.f = f;
	m.opts = opts;
	m.r = r;
	m.less_loaded = !replay;
	m.prog = prog;
	if ((rc = prepare(&m, err)))
		goto out;
	for (uint32_t s = 0; s < f->num_switches; s++)
		m.pipe.ngroups += m.ep_first[s] != LANES_NONE;
	o = (struct sssp_osm_order){ &m.eps, m.ep_first, m.hca, m.pipe.seq, m.pipe.ngroups, m.pipe.nseq };
	/* the replay: 1 routed, 0 declined (OpenSM could not route this fabric) */
	rc = replay ? route_sssp_osm(f, opts, r, &o, err) : 0;
	if (rc == 0 && (rc = alloc_rule(&m, err)) == 0)
		route_by_rule(&m);
	for (uint32_t j = 0; rc > 0 && prog && j < m.pipe.ngroups; j++)
		prog->routed(prog->ctx, m.pipe.seq[j]);
	if (rc >= 0) {
		own_lids(&m);
		rc = 0;
	}
out:
	release(&m);
	return rc;
}
