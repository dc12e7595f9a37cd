/*
 * sssp_cands.c - the candidates of the sssp paths' own rule (sssp_paths.c)
 * toward one destination switch t: each switch's min-hop ports toward t,
 * found once per t by a BFS from t (OpenSM 3.3.23's osm_ucast_dfsssp.c
 * weighs each channel P^2 "to force shortest paths"; no code taken from it).
 *
 * A switch with one candidate has its LFT entry toward t fixed whatever
 * the loads (fixed_port); the others (multi) are left to choose() in sssp_tree.c,
 * which runs the program of struct dest (sssp_paths.h): the switches in
 * hop order up to the farthest multi switch.
 * The candidates do not depend on the loads, so a helper thread finds them
 * for the next destination switch while this one is routed (prep_pipe.c,
 * two buffers, from SSSP_THREAD_WORTH switches, as opts->threads allows).
 * Without the thread the same work is done in turn, and a switch that has end ports keeps its
 * candidates for its switch LIDs (they come after every end port), within
 * a memory budget. The result does not depend on the thread.
 */
#include <stdlib.h>
#include <string.h>

#include "route/sssp/sssp_paths.h"
#include "route/sssp/sssp.h"
#include "core/parallel.h"

int lanes_sssp_dest_alloc(struct dest *d, size_t ns, size_t ne)
{
	size_t n = ns + 1;
	uint32_t *w = malloc(sizeof(uint32_t) * (5 * n + ne) + 2 * n);

	if (!(d->order = w))
		return LANES_ENOMEM;
	d->pick = w + n;
	d->program = w + 2 * n; /* at most 2 words per switch and its candidates */
	d->hops = (uint8_t *)(w + 5 * n + ne);
	d->fixed_port = d->hops + n;
	return 0;
}

void lanes_sssp_dest_free(struct dest *d)
{
	free(d->order);
}

/*
 * The program without the singles of the farthest multi switch's hops
 * (from word from to end), which no one reads; returns its new length.
 */
static uint32_t prog_cut(uint32_t *prog, uint32_t from, uint32_t end)
{
	uint32_t w = from;

	for (uint32_t p = from; p < end;) {
		uint32_t len = prog[p] & SSSP_SINGLE ? 2 : 2 + prog[p + 1];

		if (!(prog[p] & SSSP_SINGLE))
			for (uint32_t k = 0; k < len; k++)
				prog[w++] = prog[p + k];
		p += len;
	}
	return w;
}

/*
 * Fill d for destination switch t (reads only the fabric): a BFS from t
 * gives the hops and the order, and as each switch is taken from the queue
 * every switch one hop closer is known, so its candidates come in the same
 * scan: the entries whose neighbour is one hop closer, in adjacency order.
 * (The order within one hop count does not matter: a switch's load sum
 * reads only switches one hop closer.) Hops stop at 254, as in the distance
 * matrix. The program takes every switch as it comes; then the singles of
 * the last multi switch's hops are cut from it (prog_cut).
 */
static void set_destination(const struct sssp *m, struct dest *d, uint32_t t)
{
	const struct lanes_fabric *f = m->f;
	/* locals: the byte stores to hops and ports may alias anything d points to */
	const uint32_t ns = f->num_switches, *nb = m->nb, *aoff = f->adj_off;
	const struct lanes_adj *adj = f->adj;
	uint8_t *hops = d->hops, *ports = d->fixed_port, hcur = 0;
	uint32_t *order = d->order, *pick = d->pick, *prog = d->program;
	uint32_t n = 1, np = 0, last = 0, nmulti = 0, lstart = 0, mstart = 0;

	memset(hops, 255, ns);
	memset(ports, LANES_PORT_DROP, ns);
	hops[t] = 0;
	order[0] = t;
	pick[t] = LANES_NONE;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t s = order[i], e1 = aoff[s + 1], *cand = prog + np + 2, nc = 0;
		uint8_t h = hops[s], want = (uint8_t)(h - 1), next = (uint8_t)(h + 1);

		for (uint32_t e = aoff[s]; e < e1; e++) {
			uint32_t v = nb[e];
			uint8_t rv = hops[v];

			if (rv == 255) {
				if (next != 255) {
					hops[v] = next;
					order[n++] = v;
				}
			} else if (rv == want) {
				cand[nc++] = e;
			}
		}
		if (!i)
			continue;
		if (h != hcur) { /* the program of hop h starts here */
			hcur = h;
			lstart = np;
		}
		pick[s] = cand[0];
		if (nc == 1) {
			ports[s] = adj[cand[0]].port;
			prog[np++] = s | SSSP_SINGLE;
			prog[np++] = cand[0];
		} else {
			ports[s] = 0;
			prog[np] = s;
			prog[np + 1] = nc;
			last = np += 2 + nc;
			mstart = lstart;
			nmulti++;
		}
	}
	d->t = t;
	d->norder = n;
	d->program_len = prog_cut(prog, mstart, last);
	d->nmulti = nmulti;
}

/* prep_pipe's callback: destination j of seq into buf[j % 2]. */
static void prepare_dest(void *arg, uint32_t j)
{
	struct sssp *m = arg;

	set_destination(m, &m->buf[j & 1], m->seq[j]);
}

void lanes_sssp_dests_start(struct sssp *m)
{
	int threaded = lanes_threads_wanted(m->opts->threads, m->f->num_switches, SSSP_THREAD_WORTH);

	lanes_prep_pipe_start(&m->pipe, m->nseq, threaded, prepare_dest, m);
}

/* Make a kept copy current for t, if the budget and memory allow. */
static void keep(struct sssp *m, uint32_t t)
{
	size_t ns = m->f->num_switches, ne = m->f->adj_off[ns];
	size_t bytes = sizeof(struct dest) + 22 * (ns + 1) + 4 * ne;
	struct dest *d;

	if (bytes > m->keep_left || !(d = calloc(1, sizeof(*d))))
		return;
	if (lanes_sssp_dest_alloc(d, ns, ne)) {
		lanes_sssp_dest_free(d);
		free(d);
		return;
	}
	m->keep_left -= bytes;
	m->kept[t] = d;
	m->cur = d;
}

/*
 * Destination j current in m->cur: from the helper, else filled here in
 * turn (not by lanes_prep_pipe_next, so that it may go into a kept copy).
 */
void lanes_sssp_dests_next(struct sssp *m, uint32_t j)
{
	uint32_t t = m->seq[j];

	m->cur = &m->buf[j & 1];
	if (m->pipe.threaded) {
		lanes_prep_pipe_next(&m->pipe, j);
		return;
	}
	if (m->kept[t]) {
		m->cur = m->kept[t];
		return;
	}
	if (j < m->ngroups && m->opts->switch_lids && sssp_switch_lids(m->f, t))
		keep(m, t);
	set_destination(m, m->cur, t);
}

void lanes_sssp_dests_done(struct sssp *m, uint32_t j)
{
	lanes_prep_pipe_done(&m->pipe, j);
}

void lanes_sssp_dests_stop(struct sssp *m)
{
	lanes_prep_pipe_stop(&m->pipe);
}
