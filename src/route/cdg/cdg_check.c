/*
 * cdg_check.c - do the routes to CA LIDs of a routing being built stay free
 * of credit loops? An incremental check for engines that keep a routing
 * only when it is (dnup keeps minhop's tables, as OpenSM's DNUP gives them,
 * where they are). It is not the verifier: no witness, no metrics, one VL.
 *
 * Dally and Seitz's condition: a routing is deadlock-free when its channel
 * dependency graph (CDG) is acyclic. A channel u->x is taken to carry
 * traffic to LID d when u's entry for d leads to x, so "u->x, then x->y" is
 * a used dependency when x's entry leads on to y (one look per switch and
 * LID). That counts every switch as a source: where a switch sends no CA
 * traffic itself and none passes it, the check may see a cycle the CA
 * traffic does not close (the caller then drops the routing), never the
 * other way round. Channels into a CA have no dependencies out and cannot
 * be on a cycle.
 *
 * Method: each LID's dependencies are marked in a byte per dependency
 * number (channels.h), a dependency set of cycles.h. The set is tested in
 * batches: whenever the new dependencies outnumber those already tested or
 * the LIDs checked reach a power of two, and once at the end
 * (lanes_route_cdg_check_finish): listed and searched for a cycle by
 * cdg_cycles.c. The answer depends only on the set, never on when it is
 * tested; testing at doublings keeps the search work within a few times
 * the dependencies' while a cycle still ends the caller's work early
 * (minhop stops routing once the check is cyclic). Deterministic.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/routing.h"
#include "route/cdg/channels.h"
#include "route/cdg/cycles.h"
#include "route/cdg/cdg.h"
#include "core/util.h"

struct route_cdg_check {
	const struct lanes_fabric *f;
	struct route_channels ch;
	struct route_deps deps;     /* the used dependencies, listed for a test */
	struct route_cycles cycles; /* the test */
	int cyclic;
	uint32_t nd, tested;  /* dependencies used, and how many of them were tested */
	uint32_t nlids;       /* LIDs checked */
	uint32_t *base;       /* per switch: its first fabric port slot */
	uint32_t *nports;     /* per switch: its ports */
	uint32_t *chan;       /* per switch: the channel its entry for the LID leaves by */
	uint32_t *row;        /* per channel in: the number of the dependency "in, then out" - out */
	uint8_t *used;        /* per dependency number: used */
};

/* The per-switch and per-channel lookups; LANES_EINTERNAL where a cable is one-sided. */
static int fill_tables(struct route_cdg_check *k, struct lanes_error *err)
{
	const struct lanes_fabric *f = k->f;

	for (uint32_t s = 0; s < f->num_switches; s++) {
		k->base[s] = f->nodes[f->switches[s]].port_base;
		k->nports[s] = f->nodes[f->switches[s]].nports;
	}
	for (uint32_t e = 0; e < k->ch.E; e++) { /* e enters y by y's entry rev */
		uint32_t y = f->adj[e].sw, a = f->adj_off[y], deg = f->adj_off[y + 1] - a;

		if (k->ch.rev[e] == LANES_NONE)
			return lanes_error_set(err, LANES_EINTERNAL,
					       "credit-loop check: internal: switch adjacency is not symmetric");
		k->row[e] = (uint32_t)(k->ch.dense_off[y] + (size_t)(k->ch.rev[e] - a) * deg - a);
	}
	return 0;
}

int lanes_route_cdg_check_new(const struct lanes_fabric *f, struct route_cdg_check **out,
			struct lanes_error *err)
{
	struct route_cdg_check *k = calloc(1, sizeof(*k));
	size_t ns = f->num_switches;
	int rc;

	*out = NULL;
	if (!k)
		return lanes_error_oom(err);
	k->f = f;
	if ((rc = lanes_route_channels_init(&k->ch, f, "credit-loop check", err)) ||
	    (rc = lanes_route_cycles_init(&k->cycles, &k->ch, err)) ||
	    (rc = lanes_route_deps_reserve(&k->deps, &k->ch, k->ch.ndeps, 0, err)))
		goto fail;
	k->base = malloc(sizeof(uint32_t) * (3 * (ns + 1) + k->ch.E + 1));
	k->used = calloc(k->ch.ndeps + 1, 1);
	if (!k->base || !k->used) {
		rc = lanes_error_oom(err);
		goto fail;
	}
	k->nports = k->base + ns + 1;
	k->chan = k->nports + ns + 1;
	k->row = k->chan + ns + 1;
	if (!(rc = fill_tables(k, err))) {
		*out = k;
		return 0;
	}
fail:
	lanes_route_cdg_check_free(k);
	return rc;
}

void lanes_route_cdg_check_free(struct route_cdg_check *k)
{
	if (!k)
		return;
	lanes_route_deps_free(&k->deps);
	lanes_route_cycles_free(&k->cycles);
	lanes_route_channels_free(&k->ch);
	free(k->base); /* nports, chan and row are in its block */
	free(k->used);
	free(k);
}

/* Is there a cycle through the dependencies used so far? @return 1 a cycle, else 0 */
static int search(struct route_cdg_check *k)
{
	k->tested = k->nd;
	lanes_route_deps_list(&k->deps, &k->ch, k->used, 0, NULL); /* room reserved: cannot fail */
	return lanes_route_cycles_any(&k->cycles, &k->deps);
}

/*
 * Each switch's channel for lid first, then the dependencies in switch
 * order, the new ones marked. A port past the switch's last
 * (LANES_PORT_DROP) reads as port 0, which, like a port to a CA, has no
 * channel.
 */
int lanes_route_cdg_check_lid(struct route_cdg_check *k, const struct lanes_routing *r, uint32_t lid)
{
	const struct lanes_adj *adj = k->f->adj;
	const uint32_t *base = k->base, *nports = k->nports, *ent = k->ch.port_ent, *row = k->row;
	const uint8_t *col = lanes_routing_column(r, lid);
	uint32_t ns = k->f->num_switches, *chan = k->chan, nd = k->nd;
	uint8_t *used = k->used;

	if (k->cyclic)
		return 0;
	for (uint32_t u = 0; u < ns; u++) {
		uint32_t p = col[u];

		chan[u] = ent[base[u] + (p <= nports[u] ? p : 0)];
	}
	for (uint32_t u = 0; u < ns; u++) {
		uint32_t in = chan[u], out, d;

		if (in == LANES_NONE || (out = chan[adj[in].sw]) == LANES_NONE || used[d = row[in] + out])
			continue;
		used[d] = 1;
		nd++;
	}
	k->nd = nd;
	k->nlids++;
	if (nd > k->tested && (nd - k->tested > k->tested || !(k->nlids & (k->nlids - 1))) &&
	    (k->cyclic = search(k)))
		return 0;
	return 1;
}

int lanes_route_cdg_check_finish(struct route_cdg_check *k)
{
	if (!k->cyclic && k->nd > k->tested)
		k->cyclic = search(k);
	return k->cyclic;
}

int lanes_route_cdg_check_cyclic(const struct route_cdg_check *k)
{
	return k->cyclic;
}
