/*
 * nue_dests.c - the destinations of the nue engine (engines/nue.c) and their
 * virtual layers; see nue_dests.h.
 *
 * Destinations: the CA and router LIDs only (OpenSM's default
 * nue_include_switches FALSE); engines/nue.c routes switch LIDs outside
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
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "nue_dests.h"

#define METIS_SEED 1

static int oom(struct lanes_error *err)
{
	return lanes_error_set(err, LANES_ENOMEM, "out of memory");
}

static int add_dest(struct nue_dests *d, size_t *cap, uint32_t lid, uint32_t sw, uint8_t port,
		    struct lanes_error *err)
{
	if (d->nd == *cap) {
		size_t c = *cap;

		if (lanes_grow((void **)&d->lid, &c, d->nd + 1, sizeof(*d->lid)) ||
		    lanes_grow((void **)&d->sw, cap, d->nd + 1, sizeof(*d->sw)))
			return oom(err);
		uint8_t *grown = realloc(d->port, *cap);

		if (!grown)
			return oom(err);
		d->port = grown;
	}
	d->lid[d->nd] = lid;
	d->sw[d->nd] = sw;
	d->port[d->nd] = port;
	d->nd++;
	return 0;
}

/*
 * Order the destinations in rounds: the lowest LID behind each switch, by
 * LID, then the second lowest behind each switch, and so on.
 */
static int sort_dests(struct nue_dests *d, struct lanes_error *err)
{
	const struct lanes_fabric *f = d->f;
	uint32_t *at = malloc(sizeof(*at) * ((size_t)f->max_lid + 1));
	uint32_t *cnt = calloc((size_t)f->num_switches + 1, sizeof(*cnt));
	uint64_t *key = malloc(sizeof(*key) * 2 * ((size_t)d->nd + 1)); /* and radix scratch */
	uint32_t *l = malloc(sizeof(*l) * ((size_t)d->nd + 1));
	uint32_t *s = malloc(sizeof(*s) * ((size_t)d->nd + 1));
	uint8_t *p = malloc((size_t)d->nd + 1);
	uint32_t m = 0, lb = 0, rb = 0; /* bits of a LID; of a round and a LID */
	uint64_t all = 0;

	if (!at || !cnt || !key || !l || !s || !p) {
		free(at), free(cnt), free(key), free(l), free(s), free(p);
		return oom(err);
	}
	for (uint32_t i = 0; i <= f->max_lid; i++)
		at[i] = LANES_NONE;
	for (uint32_t i = 0; i < d->nd; i++)
		at[d->lid[i]] = i;
	while (lb < 32 && f->max_lid >> lb)
		lb++;
	for (uint32_t lid = 0; lid <= f->max_lid; lid++)
		if (at[lid] != LANES_NONE) {
			uint64_t round = cnt[d->sw[at[lid]]]++;

			key[m] = round << lb | lid;
			all |= key[m++];
		}
	while (rb < 64 && all >> rb)
		rb++;
	/* the keys are distinct: any sort gives this order; only the bits in use */
	route_sort_u64(key, m, key + m, 0, rb);
	for (uint32_t i = 0; i < m; i++) {
		uint32_t j = at[(uint32_t)(key[i] & ((1ull << lb) - 1))];

		l[i] = d->lid[j];
		s[i] = d->sw[j];
		p[i] = d->port[j];
	}
	free(at), free(cnt), free(key), free(d->lid), free(d->sw), free(d->port);
	d->lid = l, d->sw = s, d->port = p;
	return 0;
}

/* Every end-port LID; source weights. */
static int list_dests(struct nue_dests *d, const struct route_endports *eps,
		      struct lanes_error *err)
{
	size_t cap = 0;
	int rc;

	for (uint32_t i = 0; i < eps->n; i++)
		for (uint32_t l = 0; l < (1u << eps->ep[i].lmc); l++) {
			if ((rc = add_dest(d, &cap, eps->ep[i].lid + l, eps->ep[i].sw,
					   eps->ep[i].sw_port, err)))
				return rc;
			d->hca[eps->ep[i].sw]++;
		}
	return sort_dests(d, err);
}

/* --------------------------------------------------------------- METIS */

/*
 * METIS graph: vertices are the switches, then the end ports; edges the
 * cables (parallel cables once). part[] receives each vertex's part.
 */
static int metis_parts(struct nue_dests *d, const struct route_endports *eps, idx_t *part,
		       struct lanes_error *err)
{
	const struct lanes_fabric *f = d->f;
	idx_t nv = (idx_t)(f->num_switches + eps->n), ncon = 1, nparts = (idx_t)d->k, objval = 0;
	idx_t *xadj = calloc((size_t)nv + 1, sizeof(*xadj));
	idx_t *adj = malloc(sizeof(*adj) * ((size_t)f->adj_off[f->num_switches] + 2 * (size_t)eps->n + 1));
	uint32_t *last = malloc(sizeof(*last) * ((size_t)f->num_switches + 1));
	uint32_t *epoff = calloc((size_t)f->num_switches + 2, sizeof(*epoff));
	uint32_t *eplist = malloc(sizeof(*eplist) * ((size_t)eps->n + 1));
	idx_t options[METIS_NOPTIONS], m = 0;
	int rc = 0, ret;

	if (!xadj || !adj || !last || !epoff || !eplist) {
		rc = oom(err);
		goto out;
	}
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
		rc = lanes_error_set(err, LANES_EINTERNAL, "nue: METIS partitioning failed (%d)", ret);
out:
	free(xadj), free(adj), free(last), free(epoff), free(eplist);
	return rc;
}

/* Each destination LID's layer. */
static int assign_layers(struct nue_dests *d, const struct route_endports *eps,
			 struct lanes_error *err)
{
	const struct lanes_fabric *f = d->f;
	uint32_t nv = f->num_switches + eps->n, *lid_part;
	idx_t *part;
	int rc;

	d->layer = calloc((size_t)d->nd + 1, 1);
	if (!d->layer)
		return oom(err);
	if (d->k > nv)
		d->k = nv;
	if (d->k <= 1) {
		d->k = 1;
		return 0;
	}
	part = calloc((size_t)nv + 1, sizeof(*part));
	lid_part = malloc(sizeof(*lid_part) * ((size_t)f->max_lid + 1));
	if (!part || !lid_part) {
		free(part), free(lid_part);
		return oom(err);
	}
	if (!(rc = metis_parts(d, eps, part, err))) {
		for (uint32_t j = 0; j < eps->n; j++)
			for (uint32_t l = 0; l < (1u << eps->ep[j].lmc); l++)
				lid_part[eps->ep[j].lid + l] = (uint32_t)part[f->num_switches + j];
		for (uint32_t i = 0; i < d->nd; i++)
			d->layer[i] = (uint8_t)lid_part[d->lid[i]];
	}
	free(part), free(lid_part);
	return rc;
}

int nue_dests_build(struct nue_dests *d, const struct lanes_fabric *f,
		    const struct route_endports *eps, uint32_t k, struct lanes_error *err)
{
	int rc;

	memset(d, 0, sizeof(*d));
	d->f = f;
	d->k = k;
	d->hca = calloc((size_t)f->num_switches + 1, sizeof(*d->hca));
	if (!d->hca)
		return oom(err);
	if ((rc = list_dests(d, eps, err)))
		return rc;
	return assign_layers(d, eps, err);
}

void nue_dests_free(struct nue_dests *d)
{
	free(d->lid), free(d->sw), free(d->port), free(d->layer), free(d->hca);
	memset(d, 0, sizeof(*d));
}
