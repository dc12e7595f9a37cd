/*
 * nue_dests.c - the destinations of the nue engine (nue/nue.c) and their
 * virtual layers; see nue_dests.h.
 *
 * Destinations: the CA and router LIDs only (OpenSM's default
 * nue_include_switches FALSE); nue/nue.c routes switch LIDs outside
 * the CDG.
 *
 * Order: in rounds, the lowest LID behind each switch (switches by that
 * LID), then the second lowest behind each, and so on. OpenSM sorts by LID,
 * which puts the LIDs behind one switch next to each other: their searches
 * then run back to back toward the same switch, and the first trees, routed
 * while the CDG is still empty, all lead into a few switches and fix
 * dependencies that later trees must live with. Rounds spread the first
 * trees over every destination switch. On the 1,056-CA dragonfly file of
 * bench/opensm_compare.sh (a=8 p=4 h=4) max routes per channel 21,624 in
 * LID order, 9,488 in rounds (OpenSM: 17,648); DGX SuperPOD 28,640 and
 * 24,983; on the 4-ary 3-trees 124 and 184 (OpenSM: 192 and 200).
 *
 * Layers: METIS_PartGraphKway cuts the graph of switches and end ports
 * (vertices), cables (edges), unit weights, fixed seed, into k parts; a
 * LID's layer is its port's part. No METIS when k = 1.
 */
#include <metis.h>
#include <string.h>

#include "core/util.h"
#include "route/nue/nue_dests.h"
#include "route/common/endports.h"

#define METIS_SEED 1

/*
 * Order the destinations in rounds: the lowest LID behind each switch, by
 * LID, then the second lowest behind each switch, and so on. u: the nd
 * destinations as listed (lid, sw, port); the order goes into d's arrays.
 * A counting sort by round over the LIDs in increasing order (stable: by
 * LID within a round). Scratch from a.
 */
static int sort_dests(struct nue_dests *d, const uint32_t *ulid, const uint32_t *usw,
		      const uint8_t *uport, struct route_arena *a, struct lanes_error *err)
{
	const struct lanes_fabric *f = d->f;
	size_t nd1 = (size_t)d->nd + 1;
	uint32_t *at = route_alloc(a, sizeof(*at) * ((size_t)f->max_lid + 1));
	uint32_t *cnt = route_zalloc(a, sizeof(*cnt) * ((size_t)f->num_switches + 1));
	uint32_t *by = route_alloc(a, sizeof(*by) * nd1);  /* the listed indices by LID */
	uint32_t *rd = route_alloc(a, sizeof(*rd) * nd1);  /* and their rounds */
	uint32_t *off = route_zalloc(a, sizeof(*off) * (nd1 + 1)); /* per round: where it starts */
	uint32_t m = 0, rounds = 0;

	if (!at || !cnt || !by || !rd || !off)
		return lanes_error_oom(err);
	for (uint32_t i = 0; i <= f->max_lid; i++)
		at[i] = LANES_NONE;
	for (uint32_t i = 0; i < d->nd; i++)
		at[ulid[i]] = i;
	for (uint32_t lid = 0; lid <= f->max_lid; lid++)
		if (at[lid] != LANES_NONE) {
			by[m] = at[lid];
			rd[m] = cnt[usw[at[lid]]]++;
			rounds = rd[m] + 1 > rounds ? rd[m] + 1 : rounds;
			off[rd[m++] + 1]++;
		}
	for (uint32_t r = 0; r < rounds; r++)
		off[r + 1] += off[r];
	for (uint32_t i = 0; i < m; i++) {
		uint32_t k = off[rd[i]]++, j = by[i];

		d->lid[k] = ulid[j];
		d->sw[k] = usw[j];
		d->port[k] = uport[j];
	}
	return 0;
}

/* Every end-port LID, in order (its arrays from a, the listing's scratch given back); source weights. */
static int list_dests(struct nue_dests *d, const struct route_endports *eps, struct route_arena *a,
		      struct lanes_error *err)
{
	struct route_arena_mark mark;
	uint32_t *ulid, *usw;
	uint8_t *uport;
	size_t n = 0;
	int rc;

	for (uint32_t i = 0; i < eps->n; i++)
		n += (size_t)1 << eps->ep[i].lmc;
	d->lid = route_alloc(a, sizeof(*d->lid) * (n + 1));
	d->sw = route_alloc(a, sizeof(*d->sw) * (n + 1));
	d->port = route_alloc(a, n + 1);
	mark = route_arena_mark(a);
	ulid = route_alloc(a, sizeof(*ulid) * (n + 1));
	usw = route_alloc(a, sizeof(*usw) * (n + 1));
	uport = route_alloc(a, n + 1);
	if (!d->lid || !d->sw || !d->port || !ulid || !usw || !uport)
		return lanes_error_oom(err);
	for (uint32_t i = 0; i < eps->n; i++)
		for (uint32_t l = 0; l < (1u << eps->ep[i].lmc); l++) {
			ulid[d->nd] = eps->ep[i].lid + l;
			usw[d->nd] = eps->ep[i].sw;
			uport[d->nd++] = eps->ep[i].sw_port;
			d->hca[eps->ep[i].sw]++;
		}
	rc = sort_dests(d, ulid, usw, uport, a, err);
	lanes_route_arena_release(a, mark);
	return rc;
}

/* --------------------------------------------------------------- METIS */

/*
 * METIS graph: vertices are the switches, then the end ports; edges the
 * cables (parallel cables once). part[] receives each vertex's part.
 */
static int metis_parts(struct nue_dests *d, const struct route_endports *eps, idx_t *part,
		       struct route_arena *a, struct lanes_error *err)
{
	const struct lanes_fabric *f = d->f;
	idx_t nv = (idx_t)(f->num_switches + eps->n), ncon = 1, nparts = (idx_t)d->k, objval = 0;
	idx_t *xadj = route_zalloc(a, sizeof(*xadj) * ((size_t)nv + 1));
	idx_t *adj = route_alloc(a, sizeof(*adj) * ((size_t)f->adj_off[f->num_switches] + 2 * (size_t)eps->n + 1));
	uint32_t *last = route_alloc(a, sizeof(*last) * ((size_t)f->num_switches + 1));
	uint32_t *epoff = route_zalloc(a, sizeof(*epoff) * ((size_t)f->num_switches + 2));
	uint32_t *eplist = route_alloc(a, sizeof(*eplist) * ((size_t)eps->n + 1));
	idx_t options[METIS_NOPTIONS], m = 0;
	int ret;

	if (!xadj || !adj || !last || !epoff || !eplist)
		return lanes_error_oom(err);
	for (uint32_t s = 0; s < f->num_switches; s++)
		last[s] = LANES_NONE;
	for (uint32_t i = 0; i < eps->n; i++)
		epoff[eps->ep[i].sw + 1]++;
	for (uint32_t s = 0; s < f->num_switches; s++)
		epoff[s + 1] += epoff[s];
	for (uint32_t i = 0; i < eps->n; i++)
		eplist[epoff[eps->ep[i].sw]++] = i;
	for (uint32_t s = f->num_switches; s-- > 0;) /* back to starts */
		epoff[s + 1] = epoff[s];
	epoff[0] = 0;
	for (uint32_t s = 0; s < f->num_switches; s++) {
		xadj[s] = m;
		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++)
			if (f->adj[e].sw != s && last[f->adj[e].sw] != s) {
				last[f->adj[e].sw] = s;
				adj[m++] = (idx_t)f->adj[e].sw;
			}
		for (uint32_t i = epoff[s]; i < epoff[s + 1]; i++)
			adj[m++] = (idx_t)(f->num_switches + eplist[i]);
	}
	for (uint32_t j = 0; j < eps->n; j++) {
		xadj[f->num_switches + j] = m;
		adj[m++] = (idx_t)eps->ep[j].sw;
	}
	xadj[nv] = m;
	METIS_SetDefaultOptions(options);
	options[METIS_OPTION_SEED] = METIS_SEED;
	options[METIS_OPTION_NUMBERING] = 0;
	ret = METIS_PartGraphKway(&nv, &ncon, xadj, adj, NULL, NULL, NULL, &nparts, NULL, NULL,
				  options, &objval, part);
	if (ret != METIS_OK)
		return lanes_error_set(err, LANES_EINTERNAL, "nue: METIS partitioning failed (%d)", ret);
	return 0;
}

/* Each destination LID's layer. */
static int assign_layers(struct nue_dests *d, const struct route_endports *eps,
			 struct route_arena *a, struct lanes_error *err)
{
	const struct lanes_fabric *f = d->f;
	uint32_t nv = f->num_switches + eps->n, *lid_part;
	struct route_arena_mark mark;
	idx_t *part;
	int rc;

	d->layer = route_zalloc(a, (size_t)d->nd + 1);
	if (!d->layer)
		return lanes_error_oom(err);
	if (d->k > nv)
		d->k = nv;
	if (d->k <= 1) {
		d->k = 1;
		return 0;
	}
	mark = route_arena_mark(a); /* the rest is scratch */
	part = route_zalloc(a, sizeof(*part) * ((size_t)nv + 1));
	lid_part = route_alloc(a, sizeof(*lid_part) * ((size_t)f->max_lid + 1));
	if (!part || !lid_part)
		rc = lanes_error_oom(err);
	else if (!(rc = metis_parts(d, eps, part, a, err))) {
		for (uint32_t j = 0; j < eps->n; j++)
			for (uint32_t l = 0; l < (1u << eps->ep[j].lmc); l++)
				lid_part[eps->ep[j].lid + l] = (uint32_t)part[f->num_switches + j];
		for (uint32_t i = 0; i < d->nd; i++)
			d->layer[i] = (uint8_t)lid_part[d->lid[i]];
	}
	lanes_route_arena_release(a, mark);
	return rc;
}

int lanes_nue_dests_build(struct nue_dests *d, const struct lanes_fabric *f,
		    const struct route_endports *eps, uint32_t k, struct route_arena *a,
		    struct lanes_error *err)
{
	int rc;

	memset(d, 0, sizeof(*d));
	d->f = f;
	d->k = k;
	d->hca = route_zalloc(a, sizeof(*d->hca) * ((size_t)f->num_switches + 1));
	if (!d->hca)
		return lanes_error_oom(err);
	if ((rc = list_dests(d, eps, a, err)))
		return rc;
	return assign_layers(d, eps, a, err);
}
