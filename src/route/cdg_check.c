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
};

int route_cdg_check_new(const struct lanes_fabric *f, struct route_cdg_check **out,
			struct lanes_error *err)
{
	struct route_cdg_check *k = calloc(1, sizeof(*k));
	int rc;

	*out = NULL;
	if (!k)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
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

int route_cdg_check_lid(struct route_cdg_check *k, const struct lanes_routing *r, uint32_t lid)
{
	const struct route_channels *c = &k->g.ch;
	const uint8_t *col = lanes_routing_column(r, lid);

	for (uint32_t u = 0; u < c->f->num_switches && !k->cyclic; u++) {
		uint32_t in = route_channel_at(c, u, col[u]), x, out;

		if (in == LANES_NONE)
			continue;
		x = c->f->adj[in].sw;
		if ((out = route_channel_at(c, x, col[x])) != LANES_NONE)
			k->cyclic = nue_cdg_add(&k->g, in, out);
	}
	return !k->cyclic;
}

int route_cdg_check_cyclic(const struct route_cdg_check *k)
{
	return k->cyclic;
}
