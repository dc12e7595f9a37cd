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
 * (numbered as route_channels numbers them, from the switch ports alone); a
 * new one is appended to a list that doubles as per-channel successor
 * lists. The set is tested in batches:
 * whenever the new dependencies outnumber those already tested or the LIDs
 * checked reach a power of two, and once at the end
 * (lanes_route_cdg_check_finish). The tested set is acyclic, so a cycle
 * goes through a new dependency and is reachable from its head: one
 * depth-first search (white, grey, black; Tarjan's back-edge test) from
 * those heads decides. The answer depends only on the set, never on when
 * it is tested; testing at doublings keeps the search work linear in the
 * dependencies while a cycle still ends the caller's work early (minhop
 * stops routing once the check is cyclic). Deterministic.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lanes/routing.h"
#include "route/cdg/channels.h"
#include "route/cdg/cdg.h"
#include "core/util.h"

struct route_cdg_check {
	const struct lanes_fabric *f;
	int cyclic;
	uint32_t E;          /* channels: the switch adjacency entries */
	uint32_t nd, tested; /* dependencies used, and how many of them were tested */
	uint32_t nlids;      /* LIDs checked */
	uint32_t stamp;      /* grey in the current search; stamp + 1 black */
	/* per switch (first: and one past the last): its first slot in ent and
	 * its port count, and the channel its entry for the LID leaves by */
	uint32_t *first, *nports, *chan;
	uint32_t *ent;       /* per switch port (first[s] + port): its channel, or LANES_NONE */
	uint32_t *drow;      /* per channel in: the dependency number of "in, then out" - out */
	uint32_t *succ;      /* per channel: its last used dependency (list index), or LANES_NONE */
	uint32_t *mark;      /* per channel: the search's colour */
	uint32_t *stk, *it;  /* the search's stack: channels and their next dependency */
	uint32_t *dout, *dnext; /* per used dependency: its head channel, the tail's previous one */
	uint8_t *used;       /* per dependency number: used */
};

/*
 * The channels per switch port and the dependency numbers per channel, as
 * route_channels numbers them (channels.h: deg^2 per switch, by the
 * entry in, then the entry out), from the switch ports alone.
 */
static int fill_tables(struct route_cdg_check *k, struct lanes_error *err)
{
	const struct lanes_fabric *f = k->f;
	uint32_t ns = f->num_switches, *doff = k->chan, nd = 0; /* chan: scratch here */

	memset(k->ent, 0xff, sizeof(uint32_t) * k->first[ns]); /* all LANES_NONE */
	for (uint32_t s = 0; s < ns; s++) {
		uint32_t deg = f->adj_off[s + 1] - f->adj_off[s];

		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++)
			k->ent[k->first[s] + f->adj[e].port] = e;
		doff[s] = nd;
		nd += deg * deg; /* below 2^32: the caller checked */
	}
	for (uint32_t e = 0; e < k->E; e++) { /* e enters y by y's entry rev */
		uint32_t y = f->adj[e].sw, a = f->adj_off[y], deg = f->adj_off[y + 1] - a;
		uint32_t rev = f->adj[e].peer_port <= k->nports[y] ? k->ent[k->first[y] + f->adj[e].peer_port]
								    : LANES_NONE;

		if (rev == LANES_NONE)
			return lanes_error_set(err, LANES_EINTERNAL,
					       "credit-loop check: internal: switch adjacency is not symmetric");
		k->drow[e] = doff[y] + (rev - a) * deg - a;
		k->succ[e] = LANES_NONE;
		k->mark[e] = 0;
	}
	return 0;
}

int lanes_route_cdg_check_new(const struct lanes_fabric *f, struct route_cdg_check **out,
			struct lanes_error *err)
{
	size_t ns = f->num_switches, E = f->adj_off[ns], nd = 0, slots = 0;
	struct route_cdg_check *k;
	int rc;

	*out = NULL;
	for (size_t s = 0; s < ns; s++) {
		size_t deg = f->adj_off[s + 1] - f->adj_off[s];

		nd += deg * deg;
		slots += (size_t)f->nodes[f->switches[s]].nports + 1;
	}
	if (nd >= UINT32_MAX)
		return lanes_error_set(err, LANES_ERANGE, "credit-loop check: too many switch port pairs");
	/* one block: the struct, 3 per switch, 5 per channel, 2 per dependency,
	 * the bytes; the slots apart (two blocks small enough for malloc's
	 * per-thread cache on small fabrics) */
	k = malloc(sizeof(*k) + sizeof(uint32_t) * (3 * (ns + 1) + 5 * (E + 1) + 2 * (nd + 1)) + nd + 1);
	if (k && !(k->ent = malloc(sizeof(uint32_t) * slots))) {
		free(k);
		k = NULL;
	}
	if (!k)
		return lanes_error_oom(err);
	memset(k, 0, offsetof(struct route_cdg_check, ent));
	k->f = f;
	k->E = (uint32_t)E;
	k->first = (uint32_t *)(k + 1);
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
	memset(k->used, 0, nd + 1);
	k->first[0] = 0;
	for (size_t s = 0; s < ns; s++) {
		k->nports[s] = f->nodes[f->switches[s]].nports;
		k->first[s + 1] = k->first[s] + k->nports[s] + 1;
	}
	if ((rc = fill_tables(k, err))) {
		lanes_route_cdg_check_free(k);
		return rc;
	}
	*out = k;
	return 0;
}

void lanes_route_cdg_check_free(struct route_cdg_check *k)
{
	if (!k)
		return;
	free(k->ent);
	free(k); /* the rest is its block */
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
		memset(mark, 0, sizeof(uint32_t) * k->E);
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
int lanes_route_cdg_check_lid(struct route_cdg_check *k, const struct lanes_routing *r, uint32_t lid)
{
	const struct lanes_adj *adj = k->f->adj;
	const uint32_t *first = k->first, *nports = k->nports, *ent = k->ent;
	const uint32_t *drow = k->drow;
	const uint8_t *col = lanes_routing_column(r, lid);
	uint32_t ns = k->f->num_switches, *chan = k->chan, nd = k->nd;
	uint8_t *used = k->used;

	if (k->cyclic)
		return 0;
	for (uint32_t u = 0; u < ns; u++) {
		uint32_t p = col[u];

		chan[u] = ent[first[u] + (p <= nports[u] ? p : 0)];
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
