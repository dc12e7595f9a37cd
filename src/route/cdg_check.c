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
 * Each new dependency goes into Pearce and Kelly's dynamic topological order
 * (cdg_order.c): against the order, a forward search from its head through
 * places below its tail finds a cycle or the set F, a backward search from
 * its tail the set B, and route_pk_reorder() moves them. The first cycle
 * ends the check, so a caller learns early that a routing will not do.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/routing.h"
#include "route_internal.h"

struct route_cdg_check {
	struct route_channels c;
	uint32_t *base;          /* per switch: its port_base */
	uint32_t *to;            /* per port slot: the switch its channel leads to */
	uint32_t *first;         /* per port slot: dense_off[x] + in * deg at that switch x */
	uint32_t *offset;        /* per port slot: its channel's place among its switch's */
	uint8_t *used;           /* per dependency */
	uint32_t *ord;           /* per channel: its place */
	uint8_t *seen;           /* per channel: in F or B of the current search */
	uint32_t *stack;
	uint64_t *fwd, *bwd;     /* (place << 32 | channel) */
	uint32_t nf, nb;
	struct route_pk_scratch pk;
	int cyclic;
};

static int slots_init(struct route_cdg_check *k)
{
	const struct route_channels *c = &k->c;
	const struct lanes_fabric *f = c->f;

	for (uint32_t s = 0; s < f->num_switches; s++)
		k->base[s] = f->nodes[f->switches[s]].port_base;
	for (uint32_t i = 0; i < f->num_port_slots; i++) {
		uint32_t ch = c->port_ent[i], x, a;

		k->first[i] = k->offset[i] = k->to[i] = LANES_NONE;
		if (ch == LANES_NONE || c->rev[ch] == LANES_NONE)
			continue;
		x = f->adj[ch].sw;
		a = f->adj_off[x];
		k->to[i] = x;
		k->first[i] =
			(uint32_t)(c->dense_off[x] + (size_t)(c->rev[ch] - a) * (f->adj_off[x + 1] - a));
		k->offset[i] = ch - f->adj_off[f->adj[c->rev[ch]].sw];
	}
	for (uint32_t ch = 0; ch < c->E; ch++)
		k->ord[ch] = ch;
	return 0;
}

int route_cdg_check_new(const struct lanes_fabric *f, struct route_cdg_check **out,
			struct lanes_error *err)
{
	struct route_cdg_check *k = calloc(1, sizeof(*k));
	size_t E, slots = (size_t)f->num_port_slots + 1;
	int rc;

	*out = NULL;
	if (!k)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	if ((rc = route_channels_init(&k->c, f, "credit-loop check", err))) {
		route_cdg_check_free(k);
		return rc;
	}
	E = (size_t)k->c.E + 1;
	k->base = malloc(sizeof(*k->base) * ((size_t)f->num_switches + 1));
	k->to = malloc(sizeof(*k->to) * slots);
	k->first = malloc(sizeof(*k->first) * slots);
	k->offset = malloc(sizeof(*k->offset) * slots);
	k->used = calloc(k->c.ndeps + 1, 1);
	k->ord = malloc(sizeof(*k->ord) * E);
	k->seen = calloc(E, 1);
	k->stack = malloc(sizeof(*k->stack) * E);
	k->fwd = malloc(sizeof(*k->fwd) * E);
	k->bwd = malloc(sizeof(*k->bwd) * E);
	k->pk.tmp = malloc(sizeof(*k->pk.tmp) * E);
	k->pk.slots = malloc(sizeof(*k->pk.slots) * E);
	if (!k->base || !k->to || !k->first || !k->offset || !k->used || !k->ord || !k->seen ||
	    !k->stack || !k->fwd || !k->bwd || !k->pk.tmp || !k->pk.slots) {
		route_cdg_check_free(k);
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	}
	slots_init(k);
	*out = k;
	return 0;
}

void route_cdg_check_free(struct route_cdg_check *k)
{
	if (!k)
		return;
	route_channels_free(&k->c);
	free(k->base);
	free(k->to);
	free(k->first);
	free(k->offset);
	free(k->used);
	free(k->ord);
	free(k->seen);
	free(k->stack);
	free(k->fwd);
	free(k->bwd);
	free(k->pk.tmp);
	free(k->pk.slots);
	free(k);
}

/* Forward from v through used dependencies and places below ub. @return 1 on reaching u */
static int search_fwd(struct route_cdg_check *k, uint32_t v, uint32_t u, uint32_t ub)
{
	const struct lanes_fabric *f = k->c.f;
	uint32_t sp = 0;

	k->nf = 0;
	k->seen[v] = 1;
	k->stack[sp++] = v;
	while (sp) {
		uint32_t ch = k->stack[--sp], x = f->adj[ch].sw, a = f->adj_off[x];
		uint32_t deg = f->adj_off[x + 1] - a;
		const uint8_t *dep = k->used + k->c.dense_off[x] + (size_t)(k->c.rev[ch] - a) * deg;

		k->fwd[k->nf++] = (uint64_t)k->ord[ch] << 32 | ch;
		for (uint32_t j = 0; j < deg; j++) {
			uint32_t w = a + j;

			if (!dep[j] || k->seen[w])
				continue;
			if (w == u)
				return 1;
			if (k->ord[w] < ub) {
				k->seen[w] = 1;
				k->stack[sp++] = w;
			}
		}
	}
	return 0;
}

/* Backward from u through used dependencies and places above lb. */
static void search_bwd(struct route_cdg_check *k, uint32_t u, uint32_t lb)
{
	const struct lanes_fabric *f = k->c.f;
	uint32_t sp = 0;

	k->nb = 0;
	k->seen[u] = 2;
	k->stack[sp++] = u;
	while (sp) {
		uint32_t ch = k->stack[--sp], s = f->adj[k->c.rev[ch]].sw, a = f->adj_off[s];
		uint32_t deg = f->adj_off[s + 1] - a, out = ch - a;

		k->bwd[k->nb++] = (uint64_t)k->ord[ch] << 32 | ch;
		for (uint32_t i = 0; i < deg; i++) {
			uint32_t w = k->c.rev[a + i]; /* the channel into s from its i-th neighbour */

			if (w == LANES_NONE || !k->used[k->c.dense_off[s] + (size_t)i * deg + out] ||
			    k->seen[w] || k->ord[w] <= lb)
				continue;
			k->seen[w] = 2;
			k->stack[sp++] = w;
		}
	}
}

static void unsee(struct route_cdg_check *k)
{
	for (uint32_t i = 0; i < k->nf; i++)
		k->seen[(uint32_t)k->fwd[i]] = 0;
	for (uint32_t i = 0; i < k->nb; i++)
		k->seen[(uint32_t)k->bwd[i]] = 0;
}

/* Add the dependency u -> v (dep its number). @return 0, or 1 on a cycle */
static int add(struct route_cdg_check *k, uint32_t dep, uint32_t u, uint32_t v)
{
	k->used[dep] = 1;
	if (k->ord[u] < k->ord[v])
		return 0;
	if (u == v || search_fwd(k, v, u, k->ord[u])) {
		k->nb = 0;
		unsee(k);
		return 1;
	}
	search_bwd(k, u, k->ord[v]);
	unsee(k);
	route_pk_reorder(k->ord, k->c.E, k->bwd, k->nb, k->fwd, k->nf, &k->pk);
	return 0;
}

int route_cdg_check_lid(struct route_cdg_check *k, const struct lanes_routing *r, uint32_t lid)
{
	const struct lanes_fabric *f = k->c.f;
	const uint8_t *col = lanes_routing_column(r, lid);

	for (uint32_t u = 0; u < f->num_switches && !k->cyclic; u++) {
		uint32_t i = k->base[u] + col[u], x, o, dep;

		if (col[u] == LANES_PORT_DROP || k->first[i] == LANES_NONE)
			continue;
		x = k->to[i];
		if (col[x] == LANES_PORT_DROP || (o = k->offset[k->base[x] + col[x]]) == LANES_NONE)
			continue;
		dep = k->first[i] + o;
		if (!k->used[dep])
			k->cyclic = add(k, dep, k->c.port_ent[i], f->adj_off[x] + o);
	}
	return !k->cyclic;
}

int route_cdg_check_cyclic(const struct route_cdg_check *k)
{
	return k->cyclic;
}
