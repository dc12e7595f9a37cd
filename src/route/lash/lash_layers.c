/*
 * lash_layers.c - the virtual layers of the lash engine (lash/lash.c):
 * the switch pairs in layers whose channel dependency graphs stay acyclic,
 * in OpenSM's order or longest paths first, and OpenSM's balancing (seed
 * 002, "LASH Routing Algorithm"; OpenSM 3.3.23 osm_ucast_lash.c; Skeie,
 * Lysne, Theiss, IPDPS 2002). Facts and algorithm only, no code taken.
 * Shared state: lash_internal.h.
 *
 * Acyclicity is kept incrementally: each layer holds a topological order of
 * its channels (Pearce and Kelly, "A dynamic topological sort algorithm for
 * directed acyclic graphs", JEA 2006). A new dependency u->v that agrees with
 * the order costs nothing; otherwise a search bounded by the order either
 * finds the cycle (v reaches u) or reorders the few channels in between.
 * Removing dependencies never breaks the order, so undoing a pair that does
 * not fit, or moving one away, is just counting down. OpenSM searches the
 * whole layer from the path's first channel for every try. The searches are
 * here (they read the layer's counts); the reordering is cdg_order.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "route/lash/lash_internal.h"
#include "route/cdg/channels.h"
#include "route/cdg/cdg.h"

#define BALANCE_LIMIT 3 /* pairs; OpenSM's limit of 6 counts each pair twice */
#define OVER (LASH_MAX_LAYERS + 1) /* more layers needed than SLs exist */

static int oom(struct lanes_error *err)
{
	return lanes_error_set(err, LANES_ENOMEM, "out of memory");
}

/* ------------------------------------------------------------ pair paths */

/* Is there a path between switches s != t? */
static int joined(const struct lash *l, uint32_t s, uint32_t t)
{
	return l->port[(size_t)t * l->ns + s] != LANES_PORT_DROP;
}

/* The channels of the path s -> t into chan; @return their number. */
static uint32_t path(struct lash *l, uint32_t s, uint32_t t)
{
	const uint8_t *row = l->port + (size_t)t * l->ns;
	uint32_t n = 0;

	for (uint32_t x = s; x != t; x = l->f->adj[l->chan[n - 1]].sw)
		l->chan[n++] = route_channel_at(&l->ch, x, row[x]);
	return n;
}

/* --------------------------------------------- acyclic layers (Pearce-Kelly) */

int lanes_lash_open_layer(struct lash *l, uint32_t k, struct lanes_error *err)
{
	struct lash_layer *y = &l->L[k];

	if (!y->cnt) { /* one block: cnt, then ord (release() frees cnt) */
		y->cnt = malloc(sizeof(uint32_t) * (l->ch.ndeps + 1 + (size_t)l->ch.E + 1));
		if (!y->cnt)
			return oom(err);
		y->ord = y->cnt + l->ch.ndeps + 1;
	}
	memset(y->cnt, 0, sizeof(*y->cnt) * (l->ch.ndeps + 1));
	for (uint32_t c = 0; c < l->ch.E; c++)
		y->ord[c] = c;
	y->pairs = 0;
	if (l->nlayers < k + 1)
		l->nlayers = k + 1;
	return 0;
}

static void next_stamp(struct lash *l)
{
	if (++l->stamp == 0) {
		memset(l->seen, 0, sizeof(*l->seen) * ((size_t)l->ch.E + 1));
		l->stamp = 1;
	}
}

/*
 * The channels that v reaches in layer y through channels placed before ub,
 * into fwd as (place, channel). @return 1 as soon as it reaches the channel
 * at ub itself: a cycle.
 */
static int reach_forward(struct lash *l, const struct lash_layer *y, uint32_t v, uint32_t ub)
{
	const struct lanes_fabric *f = l->f;
	uint32_t sp = 0;

	l->nfwd = 0;
	l->seen[v] = l->stamp;
	l->stk[sp++] = v;
	while (sp) {
		uint32_t c = l->stk[--sp], x = f->adj[c].sw, a = f->adj_off[x];
		uint32_t deg = f->adj_off[x + 1] - a;
		const uint32_t *cnt = y->cnt + l->ch.dense_off[x] + (size_t)(l->ch.rev[c] - a) * deg;

		l->fwd[l->nfwd++] = (uint64_t)y->ord[c] << 32 | c;
		for (uint32_t i = 0; i < deg; i++) {
			uint32_t w = a + i;

			if (!cnt[i] || l->seen[w] == l->stamp || y->ord[w] > ub)
				continue;
			if (y->ord[w] == ub)
				return 1;
			l->seen[w] = l->stamp;
			l->stk[sp++] = w;
		}
	}
	return 0;
}

/* The channels that reach u in layer y through channels placed after lb, into bwd. */
static void reach_backward(struct lash *l, const struct lash_layer *y, uint32_t u, uint32_t lb)
{
	const struct lanes_fabric *f = l->f;
	uint32_t sp = 0;

	l->nbwd = 0;
	l->seen[u] = l->stamp;
	l->stk[sp++] = u;
	while (sp) {
		uint32_t c = l->stk[--sp], x = f->adj[l->ch.rev[c]].sw, a = f->adj_off[x];
		uint32_t deg = f->adj_off[x + 1] - a;
		const uint32_t *cnt = y->cnt + l->ch.dense_off[x] + (c - a);

		l->bwd[l->nbwd++] = (uint64_t)y->ord[c] << 32 | c;
		for (uint32_t i = 0; i < deg; i++) {
			uint32_t w = l->ch.rev[a + i];

			if (!cnt[(size_t)i * deg] || l->seen[w] == l->stamp || y->ord[w] <= lb)
				continue;
			l->seen[w] = l->stamp;
			l->stk[sp++] = w;
		}
	}
}

/* Count dependency dep (channel u, then v) in layer y; 0 if it would close a cycle. */
static int add_dep(struct lash *l, struct lash_layer *y, uint32_t u, uint32_t v, uint32_t dep)
{
	if (y->cnt[dep] || y->ord[u] < y->ord[v]) {
		y->cnt[dep]++;
		return 1;
	}
	next_stamp(l);
	if (reach_forward(l, y, v, y->ord[u]))
		return 0;
	next_stamp(l);
	reach_backward(l, y, u, y->ord[v]);
	lanes_route_pk_reorder(y->ord, l->ch.E, l->bwd, l->nbwd, l->fwd, l->nfwd, &l->pk);
	y->cnt[dep] = 1;
	return 1;
}

/* Add the path s -> t to layer y, recording each dependency counted. */
static int add_path(struct lash *l, struct lash_layer *y, uint32_t s, uint32_t t)
{
	uint32_t n = path(l, s, t);

	for (uint32_t i = 1; i < n; i++) {
		uint32_t dep = route_dependency(&l->ch, l->chan[i - 1], l->chan[i]);

		if (!add_dep(l, y, l->chan[i - 1], l->chan[i], dep))
			return 0;
		l->journal[l->njournal++] = dep;
	}
	return 1;
}

/* Layer k takes the pair {s, t} if it stays acyclic; else it is left as it was. */
static int try_pair(struct lash *l, uint32_t k, uint32_t s, uint32_t t)
{
	struct lash_layer *y = &l->L[k];

	l->njournal = 0;
	if (add_path(l, y, s, t) && add_path(l, y, t, s)) {
		y->pairs++;
		return 1;
	}
	while (l->njournal)
		y->cnt[l->journal[--l->njournal]]--;
	return 0;
}

/* Take the pair {s, t} out of layer k (an acyclic graph minus edges keeps its order). */
static void drop_pair(struct lash *l, uint32_t k, uint32_t s, uint32_t t)
{
	struct lash_layer *y = &l->L[k];

	for (int dir = 0; dir < 2; dir++) {
		uint32_t n = dir ? path(l, t, s) : path(l, s, t);

		for (uint32_t i = 1; i < n; i++)
			y->cnt[route_dependency(&l->ch, l->chan[i - 1], l->chan[i])]--;
	}
	y->pairs--;
}

/* ---------------------------------------------------------------- layering */

static void set_layer(struct lash *l, uint32_t s, uint32_t t, uint32_t k)
{
	l->lay[(size_t)t * l->ns + s] = (uint8_t)k;
	l->lay[(size_t)s * l->ns + t] = (uint8_t)k;
}

/* The pair {s, t} into the first layer that takes it, or a new one; 1 when none is left. */
static int place(struct lash *l, uint32_t s, uint32_t t, struct lanes_error *err)
{
	uint32_t k = 0;
	int rc;

	while (k < l->nlayers && !try_pair(l, k, s, t))
		k++;
	if (k == l->nlayers) {
		if (k == LASH_MAX_LAYERS)
			return 1;
		if ((rc = lanes_lash_open_layer(l, k, err)))
			return rc;
		try_pair(l, k, s, t); /* both paths are simple: an empty layer takes them */
	}
	set_layer(l, s, t, k);
	return 0;
}

static int clear_layers(struct lash *l, struct lanes_error *err)
{
	uint32_t n = l->nlayers;
	int rc;

	memset(l->lay, 0, (size_t)l->ns * l->ns);
	l->nlayers = 1;
	for (uint32_t k = 0; k < n; k++)
		if ((rc = lanes_lash_open_layer(l, k, err)))
			return rc;
	l->nlayers = 1;
	return 0;
}

/* OpenSM's order: pairs by ids, (0,1), (0,2), ... *needed: layers, or OVER. */
int lanes_lash_layer_osm_order(struct lash *l, uint32_t *needed, struct lanes_error *err)
{
	int rc;

	*needed = OVER;
	for (uint32_t a = 0; a < l->ns; a++)
		for (uint32_t b = a + 1; b < l->ns; b++)
			if (joined(l, l->osm[a], l->osm[b]) &&
			    (rc = place(l, l->osm[a], l->osm[b], err)))
				return rc < 0 ? rc : 0;
	*needed = l->nlayers;
	return 0;
}

/* Hops of every joined pair (255 and more: 255), and how many pairs have each. */
static int pair_hops(struct lash *l, uint8_t **hops, uint64_t hist[256], struct lanes_error *err)
{
	int rc;

	if ((rc = lanes_fabric_switch_distances(l->f, hops, err)))
		return rc;
	memset(hist, 0, sizeof(uint64_t) * 256);
	for (uint32_t s = 0; s < l->ns; s++)
		for (uint32_t t = s + 1; t < l->ns; t++)
			if (joined(l, s, t))
				hist[(*hops)[(size_t)s * l->ns + t]]++;
	return 0;
}

/* First fit, longest paths first, then OpenSM's order. */
int lanes_lash_layer_longest_first(struct lash *l, uint32_t *needed, struct lanes_error *err)
{
	uint64_t hist[256];
	uint8_t *hops = NULL;
	int rc;

	*needed = OVER;
	if ((rc = clear_layers(l, err)) || (rc = pair_hops(l, &hops, hist, err)))
		goto out;
	for (int h = 255; h > 0; h--)
		for (uint32_t a = 0; hist[h] && a < l->ns; a++)
			for (uint32_t b = a + 1; b < l->ns; b++) {
				uint32_t s = l->osm[a], t = l->osm[b];

				if (hops[(size_t)s * l->ns + t] != h || !joined(l, s, t))
					continue;
				if ((rc = place(l, s, t, err)))
					goto out;
			}
	*needed = l->nlayers;
out:
	free(hops);
	return rc < 0 ? rc : 0;
}

/* --------------------------------------------------------------- balance */

/* The first layer with the fewest pairs and the first with the most. */
static void extremes(const struct lash *l, uint32_t *lo, uint32_t *hi)
{
	*lo = *hi = 0;
	for (uint32_t k = 1; k < l->nlayers; k++) {
		if (l->L[k].pairs < l->L[*lo].pairs)
			*lo = k;
		if (l->L[k].pairs > l->L[*hi].pairs)
			*hi = k;
	}
}

/* Move the cursor (a, b), a < b in id order, to the next pair of layer k. */
static void next_in_layer(const struct lash *l, uint32_t k, uint32_t *a, uint32_t *b)
{
	do {
		if (++*b >= l->ns) {
			*a = *a + 2 < l->ns ? *a + 1 : 0;
			*b = *a + 1;
		}
	} while (l->lay[(size_t)l->osm[*b] * l->ns + l->osm[*a]] != k ||
		 !joined(l, l->osm[*a], l->osm[*b]));
}

/*
 * OpenSM's balance_virtual_lanes over the layers needed: pairs of the
 * fullest layer move to the emptiest while that stays acyclic, until the
 * two differ by less than BALANCE_LIMIT or as many tries as the fullest
 * layer holds have failed since the extremes last changed. A failed try costs
 * a cycle search, and on dense fabrics (dragonflies) most tries fail, so the
 * failures are also bounded by the number of pairs in all (a bound on time
 * that depends only on the input).
 */
void lanes_lash_balance(struct lash *l)
{
	uint32_t lo, hi, a = 0, b = 0;
	uint64_t trials, fails_left = 0;

	for (uint32_t k = 0; k < l->nlayers; k++)
		fails_left += l->L[k].pairs;
	extremes(l, &lo, &hi);
	trials = l->L[hi].pairs;
	while (trials && fails_left && l->L[hi].pairs - l->L[lo].pairs >= BALANCE_LIMIT) {
		uint32_t olo = lo, ohi = hi, s, t;

		next_in_layer(l, hi, &a, &b);
		s = l->osm[a];
		t = l->osm[b];
		if (try_pair(l, lo, s, t)) {
			drop_pair(l, hi, s, t);
			set_layer(l, s, t, lo);
		} else {
			trials--;
			fails_left--;
		}
		extremes(l, &lo, &hi);
		if (lo != olo || hi != ohi)
			trials = l->L[hi].pairs;
	}
}
