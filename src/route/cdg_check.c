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
 * The dependencies go into nue's CDG (nue_cdg.c: a dynamic topological
 * order kept by two-way searches), which refuses the first one that closes
 * a cycle; that ends the check, so a caller learns early that a routing
 * will not do.
 */
#include <stdlib.h>

#include "lanes/routing.h"
#include "nue_cdg.h"
#include "route_internal.h"

struct route_cdg_check {
	struct nue_cdg g;
	int cyclic;
	/* per switch: its first port slot and port count (route_channel_at's
	 * lookups, kept dense), and the channel its entry for the LID leaves by */
	uint32_t *first, *nports, *chan;
};

int route_cdg_check_new(const struct lanes_fabric *f, struct route_cdg_check **out,
			struct lanes_error *err)
{
	size_t ns = f->num_switches;
	struct route_cdg_check *k = calloc(1, sizeof(*k) + sizeof(uint32_t) * 3 * (ns + 1));
	int rc;

	*out = NULL;
	if (!k)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	k->first = (uint32_t *)(k + 1);
	k->nports = k->first + ns + 1;
	k->chan = k->nports + ns + 1;
	for (size_t s = 0; s < ns; s++) {
		const struct lanes_node *n = &f->nodes[f->switches[s]];

		k->first[s] = n->port_base;
		k->nports[s] = n->nports;
	}
	if ((rc = nue_cdg_init(&k->g, f, "credit-loop check", err))) {
		route_cdg_check_free(k);
		return rc;
	}
	*out = k;
	return 0;
}

void route_cdg_check_free(struct route_cdg_check *k)
{
	if (!k)
		return;
	nue_cdg_free(&k->g);
	free(k);
}

/*
 * Each switch's channel for lid first, then the dependencies in switch
 * order; those already used are skipped before the call (nue_cdg_add would
 * take them as they are). A port past the switch's last (LANES_PORT_DROP)
 * reads as port 0, which, like a port to a CA, has no channel.
 */
int route_cdg_check_lid(struct route_cdg_check *k, const struct lanes_routing *r, uint32_t lid)
{
	const struct route_channels *c = &k->g.ch;
	const struct lanes_adj *adj = c->f->adj;
	const uint32_t *first = k->first, *nports = k->nports, *port_ent = c->port_ent;
	const uint32_t *drow = k->g.drow;
	const uint8_t *col = lanes_routing_column(r, lid), *dep = k->g.dep;
	uint32_t ns = c->f->num_switches, *chan = k->chan;

	if (k->cyclic)
		return 0;
	for (uint32_t u = 0; u < ns; u++) {
		uint32_t p = col[u];

		chan[u] = port_ent[first[u] + (p <= nports[u] ? p : 0)];
	}
	for (uint32_t u = 0; u < ns; u++) {
		uint32_t in = chan[u], out;

		if (in == LANES_NONE || (out = chan[adj[in].sw]) == LANES_NONE ||
		    dep[(uint32_t)(drow[in] + out)] == NUE_DEP_USED) /* nue_cdg_used */
			continue;
		if ((k->cyclic = nue_cdg_add(&k->g, in, out)))
			return 0;
	}
	return 1;
}

int route_cdg_check_cyclic(const struct route_cdg_check *k)
{
	return k->cyclic;
}
