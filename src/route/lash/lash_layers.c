/*
 * lash_layers.c - the virtual layers of the lash engine (lash/lash.c): the
 * switch pairs go into layers whose channel dependency graphs stay acyclic,
 * in OpenSM's order or longest paths first, and OpenSM's balancing moves
 * them about (Skeie, Lysne, Theiss, "Layered Shortest Path (LASH) Routing
 * in Irregular System Area Networks", IPDPS 2002, as OpenSM 3.3.23's
 * osm_ucast_lash.c does it). Shared state: lash_internal.h.
 *
 * The graphs are cdg/cdg.c's, one layer each: a pair is tried in a layer
 * as one transaction of its two paths, kept when both fit and undone when
 * not. Before anything is added, the try asks whether the layer is known
 * to refuse one of the pair's dependencies (lanes_cdg_known_refused), which
 * ends most tries in full layers at once; the paths themselves are found
 * once per pair, not once per layer. OpenSM builds each path's
 * dependencies into the layer and searches the whole layer for a cycle on
 * every try; the answers, and so the layers, are the same.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/progress.h"
#include "route/lash/lash_internal.h"
#include "route/cdg/channels.h"
#include "route/cdg/cdg.h"

#define BALANCE_LIMIT 3 /* pairs; OpenSM's limit of 6 counts each pair twice */
#define OVER (LASH_MAX_LAYERS + 1) /* more layers needed than SLs exist */

/* ------------------------------------------------------------ pair paths */

/* Is there a path between switches s != t? */
static int joined(const struct lash *l, uint32_t s, uint32_t t)
{
	return l->port[(size_t)t * l->ns + s] != LANES_PORT_DROP;
}

/* The channels of the path s -> t into chan; @return their number. */
static uint32_t path(const struct lash *l, uint32_t s, uint32_t t, uint32_t *chan)
{
	const uint8_t *row = l->port + (size_t)t * l->ns;
	uint32_t n = 0;

	for (uint32_t x = s; x != t; x = l->f->adj[chan[n - 1]].sw)
		chan[n++] = route_channel_at(&l->ch, x, row[x]);
	return n;
}

/* The paths of the pair {s, t}, both ways, into l->there and l->back. */
static void load_pair(struct lash *l, uint32_t s, uint32_t t)
{
	l->n_there = path(l, s, t, l->there);
	l->n_back = path(l, t, s, l->back);
}

/* ------------------------------------------------------------ the layers */

int lanes_lash_open_layer(struct lash *l, uint32_t k, struct lanes_error *err)
{
	int rc;

	if ((rc = lanes_cdg_open_layer(l->cdg, k, err)))
		return rc;
	l->pairs[k] = 0;
	if (l->nlayers < k + 1)
		l->nlayers = k + 1;
	return 0;
}

/*
 * Layer k takes the loaded pair (load_pair) if it stays acyclic with both
 * paths; else it is left as it was. A dependency the layer is known to
 * refuse (cdg.h) ends the try before anything is added.
 * @return 1 taken, 0 not, or a negative error
 */
static int try_pair(struct lash *l, uint32_t k, struct lanes_error *err)
{
	int rc;

	if (lanes_cdg_known_refused(l->cdg, k, l->there, l->n_there) ||
	    lanes_cdg_known_refused(l->cdg, k, l->back, l->n_back))
		return 0;
	rc = lanes_cdg_add_path(l->cdg, k, l->there, l->n_there, err);
	if (rc == 1)
		rc = lanes_cdg_add_path(l->cdg, k, l->back, l->n_back, err);
	if (rc != 1) {
		lanes_cdg_undo(l->cdg);
		return rc;
	}
	lanes_cdg_keep(l->cdg);
	l->pairs[k]++;
	return 1;
}

/* Take the loaded pair out of layer k (an acyclic graph minus edges stays acyclic). */
static void drop_pair(struct lash *l, uint32_t k)
{
	lanes_cdg_remove_path(l->cdg, k, l->there, l->n_there);
	lanes_cdg_remove_path(l->cdg, k, l->back, l->n_back);
	l->pairs[k]--;
}

/* ---------------------------------------------------------------- layering */

static void set_layer(struct lash *l, uint32_t s, uint32_t t, uint32_t k)
{
	uint32_t a = l->id[s], b = l->id[t];

	l->lay[(size_t)t * l->ns + s] = (uint8_t)k;
	l->lay[(size_t)s * l->ns + t] = (uint8_t)k;
	l->pair_layer[a < b ? (size_t)a * l->ns + b : (size_t)b * l->ns + a] = (uint8_t)k;
}

/* The pair {s, t} into the first layer that takes it, or a new one; 1 when none is left. */
static int place(struct lash *l, uint32_t s, uint32_t t, struct lanes_error *err)
{
	uint32_t k = 0;
	int rc = 0;

	load_pair(l, s, t);
	while (k < l->nlayers && !(rc = try_pair(l, k, err)))
		k++;
	if (rc < 0)
		return rc;
	if (k == l->nlayers) {
		if (k == LASH_MAX_LAYERS)
			return 1;
		if ((rc = lanes_lash_open_layer(l, k, err)) || (rc = try_pair(l, k, err)) < 0)
			return rc; /* both paths are simple: an empty layer takes them */
	}
	set_layer(l, s, t, k);
	return 0;
}

static int clear_layers(struct lash *l, struct lanes_error *err)
{
	uint32_t n = l->nlayers;
	int rc;

	memset(l->lay, 0, (size_t)l->ns * l->ns);
	memset(l->pair_layer, LASH_NO_LAYER, (size_t)l->ns * l->ns);
	l->nlayers = 1;
	for (uint32_t k = 0; k < n; k++)
		if ((rc = lanes_lash_open_layer(l, k, err)))
			return rc;
	l->nlayers = 1;
	return 0;
}

/*
 * OpenSM's order: pairs by ids, (0,1), (0,2), ... *needed: layers, or OVER.
 * Progress: phase "VL layers", every switch pair (joined or not) a unit,
 * counted row by row.
 */
int lanes_lash_layer_osm_order(struct lash *l, uint32_t *needed, struct lanes_error *err)
{
	int rc;

	*needed = OVER;
	lanes_progress_phase(l->opts->progress, "VL layers", (uint64_t)l->ns * (l->ns - 1) / 2);
	for (uint32_t a = 0; a < l->ns; a++) {
		for (uint32_t b = a + 1; b < l->ns; b++)
			if (joined(l, l->osm[a], l->osm[b]) &&
			    (rc = place(l, l->osm[a], l->osm[b], err)))
				return rc < 0 ? rc : 0;
		lanes_progress_add(l->opts->progress, l->ns - a - 1);
	}
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

/* The joined pairs that the longest-first layering places (hops 1 and more). */
static uint64_t pairs_placed(const uint64_t hist[256])
{
	uint64_t n = 0;

	for (int h = 1; h < 256; h++)
		n += hist[h];
	return n;
}

/*
 * First fit, longest paths first, then OpenSM's order. Progress: phase
 * "VL layers again", a unit per joined pair placed.
 */
int lanes_lash_layer_longest_first(struct lash *l, uint32_t *needed, struct lanes_error *err)
{
	uint64_t hist[256];
	uint8_t *hops = NULL;
	int rc;

	*needed = OVER;
	if ((rc = clear_layers(l, err)) || (rc = pair_hops(l, &hops, hist, err)))
		goto out;
	lanes_progress_phase(l->opts->progress, "VL layers again", pairs_placed(hist));
	for (int h = 255; h > 0; h--)
		for (uint32_t a = 0; hist[h] && a < l->ns; a++)
			for (uint32_t b = a + 1; b < l->ns; b++) {
				uint32_t s = l->osm[a], t = l->osm[b];

				if (hops[(size_t)s * l->ns + t] != h || !joined(l, s, t))
					continue;
				if ((rc = place(l, s, t, err)))
					goto out;
				lanes_progress_add(l->opts->progress, 1);
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
		if (l->pairs[k] < l->pairs[*lo])
			*lo = k;
		if (l->pairs[k] > l->pairs[*hi])
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
	} while (l->pair_layer[(size_t)*a * l->ns + *b] != k);
}

/*
 * OpenSM's balance_virtual_lanes over the layers needed: pairs of the
 * fullest layer move to the emptiest while that stays acyclic, until the
 * two differ by less than BALANCE_LIMIT or as many tries as the fullest
 * layer holds have failed since the extremes last changed. A failed try costs
 * a cycle search, and on dense fabrics (dragonflies) most tries fail, so the
 * failures are also bounded by the number of pairs in all (a bound on time
 * that depends only on the input). Progress: phase "balancing", a unit per
 * failed try out of that bound, the rest added when the layers are balanced
 * sooner.
 */
int lanes_lash_balance(struct lash *l, struct lanes_error *err)
{
	uint32_t lo, hi, a = 0, b = 0;
	uint64_t trials, fails_left = 0;
	int rc;

	for (uint32_t k = 0; k < l->nlayers; k++)
		fails_left += l->pairs[k];
	lanes_progress_phase(l->opts->progress, "balancing", fails_left);
	extremes(l, &lo, &hi);
	trials = l->pairs[hi];
	while (trials && fails_left && l->pairs[hi] - l->pairs[lo] >= BALANCE_LIMIT) {
		uint32_t olo = lo, ohi = hi, s, t;

		next_in_layer(l, hi, &a, &b);
		s = l->osm[a];
		t = l->osm[b];
		load_pair(l, s, t);
		rc = try_pair(l, lo, err);
		if (rc < 0)
			return rc;
		if (rc) {
			drop_pair(l, hi);
			set_layer(l, s, t, lo);
		} else {
			trials--;
			fails_left--;
			lanes_progress_add(l->opts->progress, 1);
		}
		extremes(l, &lo, &hi);
		if (lo != olo || hi != ohi)
			trials = l->pairs[hi];
	}
	lanes_progress_add(l->opts->progress, fails_left);
	return 0;
}
