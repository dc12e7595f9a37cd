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
 * Method: each LID's dependencies are looked up in a byte per dependency
 * (route_channels numbers them); a new one is appended to a list that
 * doubles as per-channel successor lists. The set is tested in batches:
 * whenever the new dependencies outnumber those already tested or the LIDs
 * checked reach a power of two, and once at the end
 * (route_cdg_check_finish). The tested set is acyclic, so a cycle
 * goes through a new dependency and is reachable from its head: one
 * depth-first search (white, grey, black; Tarjan's back-edge test) from
 * those heads decides. The answer depends only on the set, never on when
 * it is tested; testing at doublings keeps the search work linear in the
 * dependencies while a cycle still ends the caller's work early (minhop
 * stops routing once the check is cyclic). Deterministic.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/routing.h"
#include "nue_cdg.h"
#include "route_internal.h"

struct route_cdg_check {
	struct route_channels ch;
	int cyclic;
	uint32_t nd, tested; /* dependencies used, and how many of them were tested */
	uint32_t nlids;      /* LIDs checked */
	uint32_t stamp;      /* grey in the current search; stamp + 1 black */
	/* per switch: its first port slot and port count (route_channel_at's
	 * lookups, kept dense), and the channel its entry for the LID leaves by */
	uint32_t *first, *nports, *chan;
	uint32_t *drow;      /* per channel in: the dependency number of "in, then out" - out */
	uint32_t *succ;      /* per channel: its last used dependency (list index), or LANES_NONE */
	uint32_t *mark;      /* per channel: the search's colour */
	uint32_t *stk, *it;  /* the search's stack: channels and their next dependency */
	uint32_t *dout, *dnext; /* per used dependency: its head channel, the tail's previous one */
	uint8_t *used;       /* per dependency number: used */
};

/* The dependency numbers per channel (route_dependency without the lookups). */
static void fill_drow(struct route_cdg_check *k)
{
	const struct lanes_fabric *f = k->ch.f;

	for (uint32_t e = 0; e < k->ch.E; e++) { /* e enters y by y's entry rev[e] */
		uint32_t y = f->adj[e].sw, a = f->adj_off[y], deg = f->adj_off[y + 1] - a;

		k->drow[e] = (uint32_t)(k->ch.dense_off[y] + (size_t)(k->ch.rev[e] - a) * deg) - a;
		k->succ[e] = LANES_NONE;
	}
}

int route_cdg_check_new(const struct lanes_fabric *f, struct route_cdg_check **out,
			struct lanes_error *err)
{
	size_t ns = f->num_switches, E, nd;
	struct route_cdg_check *k = calloc(1, sizeof(*k));
	int rc;

	*out = NULL;
	if (!k)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	if ((rc = route_channels_init(&k->ch, f, "credit-loop check", err))) {
		route_cdg_check_free(k);
		return rc;
	}
	E = k->ch.E;
	nd = k->ch.ndeps;
	/* one block: 3 per switch, 5 per channel, 2 per dependency, then the bytes */
	k->first = malloc(sizeof(uint32_t) * (3 * (ns + 1) + 5 * (E + 1) + 2 * (nd + 1)) + nd + 1);
	if (!k->first) {
		route_cdg_check_free(k);
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	}
	k->nports = k->first + ns + 1;
	k->chan = k->nports + ns + 1;
	k->drow = k->chan + ns + 1;
	k->succ = k->drow + E + 1;
	k->mark = k->succ + E + 1;
	k->stk = k->mark + E + 1;
	k->it = k->stk + E + 1;
	k->dout = k->it + E + 1;
	k->dnext = k->dout + nd + 1;
	k->used = (uint8_t *)(k->dnext + nd + 1);
	memset(k->mark, 0, sizeof(uint32_t) * E);
	memset(k->used, 0, nd + 1);
	for (size_t s = 0; s < ns; s++) {
		const struct lanes_node *n = &f->nodes[f->switches[s]];

		k->first[s] = n->port_base;
		k->nports[s] = n->nports;
	}
	fill_drow(k);
	*out = k;
	return 0;
}

void route_cdg_check_free(struct route_cdg_check *k)
{
	if (!k)
		return;
	route_channels_free(&k->ch);
	free(k->first);
	free(k);
}

/*
 * Is there a cycle through the dependencies tested .. nd? An iterative
 * depth-first search from their heads: a dependency into a grey channel
 * (one on the stack) closes a cycle. @return 1 a cycle, else 0
 */
static int search(struct route_cdg_check *k)
{
	uint32_t *mark = k->mark, *stk = k->stk, *it = k->it, *dout = k->dout, *dnext = k->dnext;
	uint32_t grey, black;

	if (k->stamp >= UINT32_MAX - 2) {
		memset(mark, 0, sizeof(uint32_t) * k->ch.E);
		k->stamp = 0;
	}
	grey = k->stamp += 2, black = grey + 1;
	for (uint32_t i = k->tested; i < k->nd; i++) {
		uint32_t top = 0, s = dout[i];

		if (mark[s] == grey || mark[s] == black)
			continue;
		mark[s] = grey, stk[top] = s, it[top++] = k->succ[s];
		while (top) {
			uint32_t e = it[top - 1], y;

			if (e == LANES_NONE) {
				mark[stk[--top]] = black;
				continue;
			}
			it[top - 1] = dnext[e];
			if (mark[y = dout[e]] == grey)
				return 1;
			if (mark[y] != black)
				mark[y] = grey, stk[top] = y, it[top++] = k->succ[y];
		}
	}
	k->tested = k->nd;
	return 0;
}

/*
 * Each switch's channel for lid first, then the dependencies in switch
 * order, the new ones into the list. A port past the switch's last
 * (LANES_PORT_DROP) reads as port 0, which, like a port to a CA, has no
 * channel.
 */
int route_cdg_check_lid(struct route_cdg_check *k, const struct lanes_routing *r, uint32_t lid)
{
	const struct lanes_adj *adj = k->ch.f->adj;
	const uint32_t *first = k->first, *nports = k->nports, *port_ent = k->ch.port_ent;
	const uint32_t *drow = k->drow;
	const uint8_t *col = lanes_routing_column(r, lid);
	uint32_t ns = k->ch.f->num_switches, *chan = k->chan, nd = k->nd;
	uint8_t *used = k->used;

	if (k->cyclic)
		return 0;
	for (uint32_t u = 0; u < ns; u++) {
		uint32_t p = col[u];

		chan[u] = port_ent[first[u] + (p <= nports[u] ? p : 0)];
	}
	for (uint32_t u = 0; u < ns; u++) {
		uint32_t in = chan[u], out, d;

		if (in == LANES_NONE || (out = chan[adj[in].sw]) == LANES_NONE ||
		    used[d = (uint32_t)(drow[in] + out)])
			continue;
		used[d] = 1;
		k->dout[nd] = out;
		k->dnext[nd] = k->succ[in];
		k->succ[in] = nd++;
	}
	k->nd = nd;
	k->nlids++;
	if (nd > k->tested && (nd - k->tested > k->tested || !(k->nlids & (k->nlids - 1))) &&
	    (k->cyclic = search(k)))
		return 0;
	return 1;
}

int route_cdg_check_finish(struct route_cdg_check *k)
{
	if (!k->cyclic && k->nd > k->tested)
		k->cyclic = search(k);
	return k->cyclic;
}

int route_cdg_check_cyclic(const struct route_cdg_check *k)
{
	return k->cyclic;
}
