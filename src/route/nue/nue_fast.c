/*
 * nue_fast.c - a shortcut for nue's per-destination search (nue_search.c)
 * that gives the same tree, the same CDG and so the same tables with less
 * heap work, where it can tell that it does. Its reference is the heap
 * search; nue_fast.h gives the figure that keeps it, test_nue.c checks
 * that the tables are byte-identical with and without it. No paper: a
 * speed-up of OpenSM's search that OpenSM does not have.
 *
 * The search pops switches by distance d (each channel weighs w0 plus its
 * routes, w0 = P^2 large), ties to the lower channel number; a popped switch
 * takes its best channel into a routed switch if the dependency onto that
 * switch's channel keeps the CDG acyclic (channels whose dependency is
 * already blocked are never offered). Levels: t is at 0, and a switch is at
 * h + 1 when h is the lowest level of a neighbour it can enter (a channel
 * not blocked). Say a switch at h + 1 is "short" when its best channel into
 * level h leaves d < (h + 2) * w0: its channels' routes sum to less than w0.
 * If every switch up to level h is short, each one pops before any at a
 * higher level (a path of h + 2 hops weighs at least (h + 2) * w0) and with
 * that best channel, as long as the CDG takes every dependency. So a BFS
 * over the enterable channels finds the search's tree, level by level
 * (levels()), and each level's dependencies go in in the heap's pop order,
 * sorted by (d, channel), up to the first refusal, which then is the
 * search's own (the same dependencies in before it; it stays blocked).
 *
 * Whether the CDG takes a level's dependencies does not depend on their
 * order (a set is acyclic or not), so a level goes in BFS order first and
 * is sorted only when one is refused (its adds taken back, the refused one
 * unblocked: it was refused against another set). If all go in, the BFS
 * goes on to the next level. At a refusal, or at a level with a switch that
 * is not short, the switches before it in pop order are routed, the heap
 * gets the offers their settling would have made (hand_over()), and the
 * search goes on from there; a level's dependencies are only added once
 * the levels before it are in, so no work past that level is lost. A level
 * whose dependencies are all used already needs no adds, so the BFS takes
 * the next at once (take_levels()).
 *
 * Parallel cables: a switch offers one channel per neighbour, its bundle's
 * best open one (nue_bundles_fast.c), the one the entries' minimum would
 * pick.
 */
#include <stdlib.h>
#include <string.h>

#include "route/cdg/cdg.h"
#include "route/nue/nue_search.h"

int lanes_nue_fast_init(struct nue_fast *v, const struct lanes_fabric *f, const uint32_t *rev,
			struct route_arena *a)
{
	size_t n1 = (size_t)f->num_switches + 1;

	memset(v, 0, sizeof(*v));
	v->node = route_alloc(a, sizeof(*v->node) * n1);
	v->level = route_alloc(a, sizeof(*v->level) * n1);
	v->keys = route_alloc(a, sizeof(*v->keys) * n1);
	v->packed = route_alloc(a, sizeof(*v->packed) * 2 * n1);
	if (!v->node || !v->level || !v->keys || !v->packed)
		return -1;
	return lanes_nue_bundles_init(v, f, rev, a);
}

/* (d1, c1) before (d2, c2): the heap's order (core/heap.h). */
static int pops_before(uint64_t d1, uint32_t c1, uint64_t d2, uint32_t c2)
{
	return d1 != d2 ? d1 < d2 : c1 < c2;
}

static uint32_t level_of(const struct nue_fast *v, uint32_t y)
{
	return v->level[y] - v->base;
}

/*
 * A fresh base below every level of the searches before (the bases go
 * down): a switch is done when its level is below the one being
 * discovered, and not yet discovered when above it (one comparison in
 * offer_bundles()). At the bottom every level goes back to the top.
 */
static uint32_t next_base(struct nue_search *s, struct nue_fast *v)
{
	if (v->base < 2 * (s->ns + 1)) {
		for (uint32_t y = 0; y < s->ns; y++)
			v->level[y] = UINT32_MAX;
		v->base = UINT32_MAX;
	}
	v->base -= s->ns + 1;
	return v->base;
}

/* NUE_DEP_* of the dependency of x's i-th entry onto the channel of onto. */
static uint8_t dep_state(const struct lanes_cdg_onto *onto, uint32_t i)
{
	if (lanes_cdg_onto_refused(onto, i))
		return NUE_DEP_BLOCKED;
	return lanes_cdg_onto_used(onto, i) ? NUE_DEP_USED : NUE_DEP_UNUSED;
}

/*
 * The best open channel back of bundle b of switch x (onto: the
 * dependencies onto x's channel, lanes_cdg_onto()): least (load, number)
 * among the bundle's channels whose dependency is not blocked. @return it
 * (*state: its dependency's), or LANES_NONE
 */
static uint32_t open_best(const struct nue_search *s, uint32_t x, const struct nue_bundle *b,
			  const struct lanes_cdg_onto *onto, uint8_t *state)
{
	uint32_t best = LANES_NONE;

	for (uint32_t i = b->first; i < b->first + b->count; i++) {
		uint32_t e = s->fast.entry[i], at = e - s->f->adj_off[x];
		const struct nue_link *l = &s->link[e];

		if (lanes_cdg_onto_refused(onto, at))
			continue;
		if (best == LANES_NONE || s->load[l->back] < s->load[best] ||
		    (s->load[l->back] == s->load[best] && l->back < best))
			best = l->back, *state = dep_state(onto, at);
	}
	return best;
}

/*
 * Switch x (routed by via[x], at distance node[x].dist, level next - 1)
 * offers each neighbour its bundle's best open channel: a neighbour not yet
 * discovered takes it (and level next), one already at level next keeps the
 * better of the two; the others (x's own next hop among them) are at
 * levels next - 2 and next - 1. A neighbour's dep_state follows its
 * channel (USED at t, which has no channel), so take_level() need not look
 * it up again: the CDG changes between the two only by the adds of x's
 * level, which are other dependencies. @return n, plus the switches
 * discovered (appended to order)
 */
static uint32_t offer_bundles(struct nue_search *s, uint32_t x, uint32_t next, uint32_t n)
{
	const struct nue_fast *v = &s->fast;
	const struct nue_bundle *b = v->bundle + v->bundle_off[x], *end = v->bundle + v->bundle_off[x + 1];
	const uint64_t dw = v->node[x].dist + s->w0;
	const int onto_any = s->via[x] != LANES_NONE; /* t has no channel: nothing onto it */
	struct lanes_cdg_onto onto;

	if (onto_any)
		lanes_cdg_onto(s->cdg, NUE_LAYER, s->via[x], &onto);
	for (; b < end; b++) {
		uint32_t in = s->link[b->best].back;
		uint8_t state = NUE_DEP_USED;
		uint64_t d;

		if (v->level[b->neighbour] < next) /* done (an older base is above: not discovered) */
			continue;
		if (onto_any && (state = dep_state(&onto, b->best - s->f->adj_off[x])) == NUE_DEP_BLOCKED &&
		    (in = open_best(s, x, b, &onto, &state)) == LANES_NONE)
			continue;
		d = dw + s->load[in];
		if (v->level[b->neighbour] != next) {
			v->level[b->neighbour] = next;
			s->order[n++] = b->neighbour;
		} else if (!pops_before(d, in, v->node[b->neighbour].dist, v->node[b->neighbour].channel)) {
			continue;
		}
		v->node[b->neighbour].dist = d;
		v->node[b->neighbour].channel = in;
		v->node[b->neighbour].dep_state = state;
	}
	return n;
}

/*
 * The level lvl, order[i..j): each switch takes its best channel (final:
 * every switch of the level above has offered its entries) and offers its
 * own entries, which discovers the next level (appended to order, *n
 * counts them). @return 1 when some of its switches need a dependency not
 * used yet (dep_state, from the offers of the level above: unused, as none
 * is blocked, else it would not have been offered), 0 when none does, or
 * LANES_NONE when a switch is not short
 */
static uint32_t take_level(struct nue_search *s, uint32_t i, uint32_t j, uint32_t lvl, uint32_t *n)
{
	const struct nue_fast *v = &s->fast;
	/* d >= lvl w0 at level lvl (a hop weighs w0 at least): short is d < limit */
	const uint64_t limit = (uint64_t)(lvl + 1) * s->w0;
	uint32_t need = 0;

	for (uint32_t k = i; k < j; k++) {
		uint32_t x = s->order[k];
		const struct nue_fast_node *p = &v->node[x];

		if (p->dist >= limit)
			return LANES_NONE;
		s->via[x] = p->channel; /* dist[x] only at a hand-over: routed() */
		need |= p->dep_state != NUE_DEP_USED;
		*n = offer_bundles(s, x, v->base + lvl + 1, *n);
	}
	return need;
}

/*
 * take_level() for the levels from *lvl on, order[*i..*n): on while a
 * level's dependencies are all used already (nothing to add). @return 0
 * when none is left; else what take_level() returned for level *lvl,
 * order[*i..*j)
 */
static uint32_t take_levels(struct nue_search *s, uint32_t *i, uint32_t *j, uint32_t *lvl, uint32_t *n)
{
	uint32_t need = 0;

	for (; *i < *n; *i = *j, ++*lvl) {
		*j = *n;
		need = take_level(s, *i, *j, *lvl, n);
		if (need)
			break;
	}
	return need;
}

/*
 * Add the dependencies of order[i..n) in turn up to the first the CDG
 * refuses (left blocked). @return its index, or n
 */
static uint32_t add_upto(struct nue_search *s, uint32_t i, uint32_t n, struct lanes_error *err, int *rc)
{
	for (; i < n; i++) {
		uint32_t c = s->via[s->order[i]], par = s->via[s->f->adj[c].sw];

		if (par == LANES_NONE || lanes_cdg_used(s->cdg, NUE_LAYER, c, par))
			continue;
		if (!lanes_cdg_add_dep(s->cdg, NUE_LAYER, c, par))
			break;
		if ((*rc = nue_search_remember(s, c, par, err)))
			break;
	}
	return i;
}

/* Take back what the search added since mark, and unblock the refused dependency of order[i]. */
static void take_back(struct nue_search *s, uint32_t i, uint32_t mark)
{
	uint32_t c = s->via[s->order[i]];

	lanes_cdg_forget_refusal(s->cdg, NUE_LAYER, c, s->via[s->f->adj[c].sw]);
	while (s->nadded > mark) {
		s->nadded -= 2;
		lanes_cdg_remove_dep(s->cdg, NUE_LAYER, s->added[s->nadded], s->added[s->nadded + 1]);
	}
}

static int by_key(const void *pa, const void *pb)
{
	const struct nue_sort_key *a = pa, *b = pb;

	return pops_before(a->dist, a->channel, b->dist, b->channel) ? -1
	       : pops_before(b->dist, b->channel, a->dist, a->channel);
}

static unsigned bit_length(uint64_t x)
{
	unsigned bits = 0;

	for (; x; x >>= 1)
		bits++;
	return bits;
}

/*
 * Level lvl, order[i..j), by (distance, channel). A short switch at level
 * h has h w0 <= d < (h + 1) w0, so (d - h w0, channel) packs into one
 * number when w0 and the channel numbers leave room (a radix sort); else
 * qsort.
 */
static void sort_level(struct nue_search *s, uint32_t i, uint32_t j, uint32_t lvl)
{
	struct nue_fast *v = &s->fast;
	unsigned cb = bit_length(s->ch->E), bits = bit_length(s->w0 - 1) + cb;
	uint64_t base = (uint64_t)lvl * s->w0, *a = v->packed;

	if (bits > 64) {
		for (uint32_t k = i; k < j; k++)
			v->keys[k] = (struct nue_sort_key){ v->node[s->order[k]].dist, s->via[s->order[k]],
							    s->order[k] };
		qsort(v->keys + i, j - i, sizeof(*v->keys), by_key);
		for (uint32_t k = i; k < j; k++)
			s->order[k] = v->keys[k].sw;
		return;
	}
	for (uint32_t k = i; k < j; k++)
		a[k - i] = (v->node[s->order[k]].dist - base) << cb | s->via[s->order[k]];
	lanes_route_sort_u64(a, j - i, v->packed + (j - i), 0, bits);
	for (uint32_t k = i; k < j; k++)
		s->order[k] = s->tail[(uint32_t)(a[k - i] & ((1ull << cb) - 1))];
}

/*
 * The heap's adds for level lvl, order[i..j), in its pop order (by
 * (distance, channel)), up to the first refusal. The CDG takes a set of
 * dependencies in any order or in none, so the level goes in BFS order
 * (only the switches whose dependency is not used) and is sorted only when
 * one is refused: then its adds are taken back and made again in pop
 * order. @return the index of the first refusal (left blocked), or j
 */
static uint32_t add_level(struct nue_search *s, uint32_t i, uint32_t j, uint32_t lvl,
			  struct lanes_error *err, int *rc)
{
	uint32_t mark = s->nadded;

	for (uint32_t k = i; k < j; k++) {
		uint32_t c = s->via[s->order[k]], par = s->via[s->f->adj[c].sw];

		if (s->fast.node[s->order[k]].dep_state == NUE_DEP_USED)
			continue;
		if (lanes_cdg_add_dep(s->cdg, NUE_LAYER, c, par)) {
			if ((*rc = nue_search_remember(s, c, par, err)))
				return k;
			continue;
		}
		if (j - i < 2)
			return k;
		take_back(s, k, mark);
		sort_level(s, i, j, lvl);
		return add_upto(s, i, j, err, rc);
	}
	return j;
}

/* order[0..i) are routed: seen, and at their distances for the heap (t's node at 0). */
static void routed(struct nue_search *s, uint32_t i)
{
	s->norder = i;
	for (uint32_t j = 0; j < i; j++) {
		s->seen[s->order[j]] = s->stamp;
		s->dist[s->order[j]] = s->fast.node[s->order[j]].dist;
	}
}

/*
 * The heap's own course from here: order[0..i) are routed, the rest of
 * level h (order[i] on, if any) and beyond are not; the heap gets what
 * their settling would have offered. Only levels h - 1 and h can have a
 * neighbour left that may enter them (it would be at level h or h + 1);
 * the other routed switches' neighbours are all routed. @return 0
 */
static int hand_over(struct nue_search *s, uint32_t i, uint32_t h)
{
	routed(s, i);
	for (uint32_t j = i; j-- > 0;) {
		if (level_of(&s->fast, s->order[j]) + 1 < h)
			break;
		lanes_nue_search_offer(s, s->order[j]);
	}
	return 0;
}

/*
 * The BFS from t, level by level: a level's switches take their best
 * channels and offer their entries to the next level, then their
 * dependencies go in. A switch that is not short, or a refusal, hands the
 * rest over to the heap (the switches before it in pop order routed): up
 * to there the heap would have done the same.
 */
static int levels(struct nue_search *s, uint32_t t, struct lanes_error *err, int *rc)
{
	struct nue_fast *v = &s->fast;
	uint32_t base = next_base(s, v), n, i = 1;

	v->level[t] = base;
	v->node[t].dist = 0;
	s->order[0] = t;
	s->via[t] = LANES_NONE;
	s->dist[t] = 0;
	n = offer_bundles(s, t, base + 1, 1);
	for (uint32_t lvl = 1; i < n; lvl++) {
		uint32_t j, k, need = take_levels(s, &i, &j, &lvl, &n);

		if (need == LANES_NONE)
			return hand_over(s, i, lvl);
		if (!need)
			break; /* every level taken */
		k = add_level(s, i, j, lvl, err, rc);
		if (*rc)
			return 0;
		if (k < j)
			return hand_over(s, k, lvl);
		i = j;
	}
	s->norder = n;
	if (n == s->csize[s->comp[t]])
		return 1; /* done: nothing reads seen[] or dist[] any more */
	routed(s, n); /* the others cannot enter: nothing to offer */
	return 0;
}

int lanes_nue_fast_search(struct nue_search *s, uint32_t t, struct lanes_error *err, int *rc)
{
	*rc = 0;
	s->norder = 0;
	return levels(s, t, err, rc);
}
