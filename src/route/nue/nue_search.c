/*
 * nue_search.c - one destination of the nue engine; see nue_search.h.
 *
 * Search (Domke et al. HPDC 2016, section 4; OpenSM 3.3.23
 * osm_ucast_nue.c): a Dijkstra-like search on the layer's CDG from the
 * destination switch t backward. A popped channel (x -> u) routes switch x,
 * provided the dependency from it onto u's channel is used already or can be
 * used without closing a cycle (lanes_cdg_add_dep); then the channels into x are
 * offered to their switches. Distance: the sum of channel weights, each w0
 * (OpenSM: P^2, P the destination LIDs) plus the routes placed on it. Each
 * switch is routed once, so the LFT column is a tree toward t. The heap
 * holds one entry per unrouted switch, its best channel so far (ties: the
 * lower channel number); when that one is refused, the switch is offered
 * its best remaining channel into a routed switch. This pops channels in
 * the same order as a heap of every channel with lazy deletion (OpenSM's
 * way; the only difference: after a local backtracking step a switch may be
 * offered again a channel into a switch that moved), with one entry per
 * switch instead of one per channel.
 *
 * Local backtracking (Domke's thesis, section 6.2.6.2), for each switch x
 * the search left unreached: x may enter a routed neighbour u if u moves to
 * another routed neighbour v (whose path avoids u) such that the
 * dependencies of x, of u's routed predecessors and of u itself on the new
 * channel can all be used; then the search goes on from x.
 *
 * Impasse: the switches still unreached take their escape paths (the tree
 * path to t: up to the common ancestor, then down; nue_escape.c), and so does
 * every switch on those paths, so the set E on escape paths is closed under
 * the tree path and no forwarding loop can form. A routed switch whose next
 * hop joins E keeps its route if its dependency onto the escape channel can
 * be used, else it joins E too. At worst every switch uses its escape path,
 * whose dependencies the layer used up front.
 *
 * At the end the dependencies this search added that the final tree does not
 * use are given back, so the CDG holds exactly the union of the trees (and
 * the escape paths). Deterministic: heap ties by channel number, switches in
 * index order.
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "route/nue/nue_search.h"

int lanes_nue_search_init(struct nue_search *s, const struct lanes_fabric *f, struct lanes_cdg *cdg,
			  const struct route_channels *ch, const struct nue_escape *x, int use_fast,
			  struct route_arena *a, struct lanes_error *err)
{
	size_t ns = (size_t)f->num_switches + 1, E = (size_t)f->adj_off[f->num_switches] + 1;

	memset(s, 0, sizeof(*s));
	s->f = f;
	s->cdg = cdg;
	s->ch = ch;
	s->x = x;
	s->ns = f->num_switches;
	s->use_fast = use_fast;
	s->heap.entry = route_alloc(a, sizeof(*s->heap.entry) * ns);
	s->heap.pos = route_alloc(a, sizeof(*s->heap.pos) * ns);
	s->via = route_alloc(a, sizeof(*s->via) * ns);
	s->seen = route_zalloc(a, sizeof(*s->seen) * ns);
	s->order = route_alloc(a, sizeof(*s->order) * ns);
	s->sub = route_alloc(a, sizeof(*s->sub) * ns);
	s->dist = route_alloc(a, sizeof(*s->dist) * ns);
	s->anc = route_zalloc(a, sizeof(*s->anc) * ns);
	s->esc = route_zalloc(a, sizeof(*s->esc) * ns);
	s->toward = route_alloc(a, sizeof(*s->toward) * ns);
	s->q = route_alloc(a, sizeof(*s->q) * ns);
	s->pend = route_alloc(a, sizeof(*s->pend) * ns);
	s->link = route_alloc(a, sizeof(*s->link) * E);
	s->tail = route_alloc(a, sizeof(*s->tail) * E);
	/* added[]: room for one dependency per switch, a search's usual most; it grows past that */
	s->added_cap = 2 * ns;
	s->added = malloc(sizeof(*s->added) * s->added_cap);
	if (!s->heap.entry || !s->heap.pos || !s->via || !s->seen || !s->order || !s->sub || !s->dist ||
	    !s->anc || !s->esc || !s->toward || !s->q || !s->pend || !s->link || !s->tail || !s->added ||
	    lanes_nue_fast_init(&s->fast, f, ch->rev, a))
		return lanes_error_oom(err);
	memset(s->heap.pos, 0xff, sizeof(*s->heap.pos) * ns); /* LANES_HEAP_ABSENT */
	lanes_heap_init(&s->heap, s->heap.entry, s->heap.pos, 2); /* 4-ary */
	for (uint32_t sw = 0; sw < s->ns; sw++) {
		uint32_t a0 = f->adj_off[sw], deg = f->adj_off[sw + 1] - a0;

		for (uint32_t e = a0; e < a0 + deg; e++) {
			s->link[e] = (struct nue_link){ f->adj[e].sw, ch->rev[e] };
			s->tail[e] = sw;
		}
	}
	return 0;
}

void lanes_nue_search_free(struct nue_search *s)
{
	free(s->added); /* the other arrays are the arena's */
	memset(s, 0, sizeof(*s));
}

static uint64_t weight(const struct nue_search *s, uint32_t e)
{
	return s->w0 + s->load[e];
}

int lanes_nue_search_grow_added(struct nue_search *s, struct lanes_error *err)
{
	if (lanes_grow((void **)&s->added, &s->added_cap, s->nadded + 2, sizeof(*s->added)))
		return lanes_error_oom(err);
	return 0;
}

void lanes_nue_search_offer(struct nue_search *s, uint32_t x)
{
	const struct nue_link *link = s->link + s->f->adj_off[x];
	const uint32_t *seen = s->seen, stamp = s->stamp, c = s->via[x];
	const uint32_t deg = s->f->adj_off[x + 1] - s->f->adj_off[x];
	const uint64_t *load = s->load, dw = s->dist[x] + s->w0;
	struct lanes_cdg_onto onto;

	if (c != LANES_NONE) /* the dependencies onto x's channel: the entries' channels back */
		lanes_cdg_onto(s->cdg, NUE_LAYER, c, &onto);
	for (uint32_t i = 0; i < deg; i++) {
		if (seen[link[i].sw] == stamp || (c != LANES_NONE && lanes_cdg_onto_refused(&onto, i)))
			continue;
		lanes_heap_offer(&s->heap, dw + load[link[i].back], link[i].back, link[i].sw);
	}
}

/* Route switch x by channel c (x -> next), then offer its unrouted neighbours. */
static void settle(struct nue_search *s, uint32_t x, uint32_t c, uint64_t d)
{
	s->seen[x] = s->stamp;
	s->via[x] = c;
	s->dist[x] = d;
	s->order[s->norder++] = x;
	lanes_nue_search_offer(s, x);
}

/* y's best channel into a routed switch whose dependency is not known to close a cycle. */
static void reoffer(struct nue_search *s, uint32_t y)
{
	const struct lanes_fabric *f = s->f;

	for (uint32_t e = f->adj_off[y]; e < f->adj_off[y + 1]; e++) {
		uint32_t x = f->adj[e].sw;

		if (s->seen[x] != s->stamp ||
		    (s->via[x] != LANES_NONE && lanes_cdg_refused(s->cdg, NUE_LAYER, e, s->via[x])))
			continue;
		lanes_heap_offer(&s->heap, s->dist[x] + weight(s, e), e, y);
	}
}

/*
 * Pop switches until the heap is empty: each is routed by its best channel
 * if the dependency onto the next hop's channel may be used, else it is
 * offered its next best.
 */
static int run_heap(struct nue_search *s, struct lanes_error *err)
{
	struct lanes_heap_entry h;
	int rc;

	while (lanes_heap_pop(&s->heap, &h)) {
		uint32_t y = h.id, c = h.tie, par = s->via[s->f->adj[c].sw];

		if (par != LANES_NONE && !lanes_cdg_used(s->cdg, NUE_LAYER, c, par)) {
			if (!lanes_cdg_add_dep(s->cdg, NUE_LAYER, c, par)) {
				reoffer(s, y);
				continue;
			}
			if ((rc = nue_search_remember(s, c, par, err)))
				return rc;
		}
		settle(s, y, c, h.key);
	}
	return 0;
}

/* Use dependencies in->out[i] (all or none); the new ones are remembered. */
static int use_all(struct nue_search *s, const uint32_t *in, const uint32_t *out, uint32_t cnt,
		   struct lanes_error *err, int *rc)
{
	uint32_t i, mark = s->nadded;

	for (i = 0; i < cnt; i++) {
		if (lanes_cdg_used(s->cdg, NUE_LAYER, in[i], out[i]))
			continue;
		if (!lanes_cdg_add_dep(s->cdg, NUE_LAYER, in[i], out[i]))
			break;
		if ((*rc = nue_search_remember(s, in[i], out[i], err)))
			return 0;
	}
	if (i == cnt)
		return 1;
	while (s->nadded > mark) {
		s->nadded -= 2;
		lanes_cdg_remove_dep(s->cdg, NUE_LAYER, s->added[s->nadded], s->added[s->nadded + 1]);
	}
	return 0;
}

/* Does the path from v toward the destination pass through u? */
static int passes(const struct nue_search *s, uint32_t v, uint32_t u)
{
	for (uint32_t hop = 0; v != u && s->via[v] != LANES_NONE && hop <= s->ns; hop++)
		v = s->f->adj[s->via[v]].sw;
	return v == u;
}

/* Does v come before u in order (so that order stays a settle order when u moves to v)? */
static int before(const struct nue_search *s, uint32_t v, uint32_t u)
{
	for (uint32_t j = 0; j < s->norder; j++)
		if (s->order[j] == v || s->order[j] == u)
			return s->order[j] == v;
	return 0;
}

/* One step of local backtracking for the unreached switch x; @return 1 when x is routed. */
static int backtrack(struct nue_search *s, uint32_t x, struct lanes_error *err, int *rc)
{
	const struct lanes_fabric *f = s->f;
	uint32_t in[LANES_PORTS_MAX + 2], out[LANES_PORTS_MAX + 2];

	for (uint32_t e = f->adj_off[x]; e < f->adj_off[x + 1]; e++) {
		uint32_t u = f->adj[e].sw;

		if (s->seen[u] != s->stamp || s->via[u] == LANES_NONE)
			continue;
		for (uint32_t e2 = f->adj_off[u]; e2 < f->adj_off[u + 1]; e2++) {
			uint32_t v = f->adj[e2].sw, cnt = 0;

			if (s->seen[v] != s->stamp || v == x || e2 == s->via[u] || passes(s, v, u))
				continue;
			if (s->via[v] != LANES_NONE)
				in[cnt] = e2, out[cnt++] = s->via[v];
			in[cnt] = e, out[cnt++] = e2;
			for (uint32_t e3 = f->adj_off[u]; e3 < f->adj_off[u + 1]; e3++) {
				uint32_t y = f->adj[e3].sw;

				if (s->seen[y] == s->stamp && s->via[y] == s->ch->rev[e3])
					in[cnt] = s->ch->rev[e3], out[cnt++] = e2;
			}
			if (!use_all(s, in, out, cnt, err, rc))
				continue;
			s->via[u] = e2;
			s->walked |= !before(s, v, u);
			settle(s, x, e, s->dist[v] + weight(s, e2) + weight(s, e));
			return 1;
		}
	}
	return 0;
}

/* The search toward t, then backtracking; @return 1 when t's component is routed. */
static int search(struct nue_search *s, uint32_t t, struct lanes_error *err, int *rc)
{
	uint32_t want = s->csize[s->comp[t]];
	int progress = 1;

	*rc = 0;
	s->norder = 0;
	if (s->use_fast && (lanes_nue_fast_search(s, t, err, rc) || *rc))
		return !*rc;
	if (!s->norder)
		settle(s, t, LANES_NONE, 0);
	if ((*rc = run_heap(s, err)))
		return 0;
	while (s->norder < want && progress) {
		progress = 0;
		for (uint32_t x = 0; x < s->ns && s->norder < want; x++) {
			if (s->comp[x] != s->comp[t] || s->seen[x] == s->stamp)
				continue;
			if (backtrack(s, x, err, rc)) {
				progress = 1;
				s->backtracks++;
				if ((*rc = run_heap(s, err)))
					return 0;
			}
			if (*rc)
				return 0;
		}
	}
	return s->norder == want;
}

/* The escape channel of x toward t: down when x is an ancestor of t, else up. */
static uint32_t escape_channel(const struct nue_search *s, uint32_t x)
{
	return s->anc[x] == s->stamp ? s->toward[x] : s->ch->rev[s->x->down[x]];
}

static void put_on_escape(struct nue_search *s, uint32_t x, uint32_t t)
{
	if (x == t || s->esc[x] == s->stamp)
		return;
	s->esc[x] = s->stamp;
	s->q[s->nq++] = x;
	s->escaped++;
}

/* The impasse: unreached switches, and what their escape paths pull in, go on escape paths. */
static int escape_impasse(struct nue_search *s, uint32_t t, struct lanes_error *err)
{
	const struct lanes_fabric *f = s->f;
	const uint32_t *down = s->x->down;
	uint32_t in, out;
	int rc = 0;

	s->fallbacks++;
	s->walked = 1;
	for (uint32_t x = t; down[x] != LANES_NONE; x = s->tail[down[x]]) {
		s->anc[s->tail[down[x]]] = s->stamp;
		s->toward[s->tail[down[x]]] = down[x];
	}
	s->nq = 0;
	for (uint32_t x = 0; x < s->ns; x++)
		if (s->comp[x] == s->comp[t] && s->seen[x] != s->stamp)
			put_on_escape(s, x, t);
	for (uint32_t i = 0; i < s->nq; i++) {
		uint32_t x = s->q[i], c = escape_channel(s, x);

		put_on_escape(s, f->adj[c].sw, t);
		for (uint32_t e = f->adj_off[x]; e < f->adj_off[x + 1]; e++) {
			uint32_t y = f->adj[e].sw;

			in = s->ch->rev[e];
			out = c;
			if (s->seen[y] != s->stamp || s->esc[y] == s->stamp || s->via[y] != in)
				continue;
			if (!use_all(s, &in, &out, 1, err, &rc))
				put_on_escape(s, y, t);
			if (rc)
				return rc;
		}
	}
	for (uint32_t i = 0; i < s->nq; i++) {
		uint32_t x = s->q[i];

		if (s->seen[x] != s->stamp) {
			s->seen[x] = s->stamp;
			s->order[s->norder++] = x;
		}
		s->via[x] = escape_channel(s, x);
	}
	return 0;
}

/* Give back the dependencies this search added that its final tree does not use. */
static void drop_unused(struct nue_search *s, uint32_t t)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < s->nadded; i += 2) {
		uint32_t in = s->added[i], out = s->added[i + 1], x = s->tail[in];
		uint32_t y = s->f->adj[in].sw;

		if (s->via[x] == in && y != t && s->via[y] == out) {
			s->added[k++] = in;
			s->added[k++] = out;
		} else {
			lanes_cdg_remove_dep(s->cdg, NUE_LAYER, in, out);
		}
	}
	s->nadded = k;
}

int lanes_nue_search_route(struct nue_search *s, uint32_t t, struct lanes_error *err)
{
	int rc = 0, ok;

	if (++s->stamp == 0) { /* wrapped: forget every mark */
		memset(s->seen, 0, sizeof(*s->seen) * s->ns);
		memset(s->anc, 0, sizeof(*s->anc) * s->ns);
		memset(s->esc, 0, sizeof(*s->esc) * s->ns);
		s->stamp = 1;
	}
	s->norder = 0;
	s->nadded = 0;
	s->walked = 0;
	memcpy(s->sub, s->hca, sizeof(*s->sub) * s->ns); /* for place(): the sources at each switch */
	ok = search(s, t, err, &rc);
	if (rc)
		return rc;
	if (!ok && (rc = escape_impasse(s, t, err)))
		return rc;
	drop_unused(s, t);
	return 0;
}

/* The loads of a walked tree: leaves first (Kahn's order), as it has no settle order. */
static void place_walked(struct nue_search *s, uint32_t t)
{
	const struct lanes_adj *adj = s->f->adj;
	const uint32_t *order = s->order, *via = s->via, n = s->norder;
	uint32_t *pend = s->pend, *q = s->q, nq = 0;
	uint64_t *sub = s->sub, *load = s->load;

	for (uint32_t j = 0; j < n; j++)
		pend[order[j]] = 0;
	for (uint32_t j = 0; j < n; j++)
		if (order[j] != t)
			pend[adj[via[order[j]]].sw]++;
	for (uint32_t j = 0; j < n; j++)
		if (order[j] != t && !pend[order[j]])
			q[nq++] = order[j];
	for (uint32_t i = 0; i < nq; i++) {
		uint32_t x = q[i], c = via[x], y = adj[c].sw;

		load[c] += sub[x];
		sub[y] += sub[x];
		if (y != t && !--pend[y])
			q[nq++] = y;
	}
}

void lanes_nue_search_place(struct nue_search *s, struct lanes_routing *r, uint32_t t, uint32_t lid,
		      uint8_t port)
{
	const struct lanes_adj *adj = s->f->adj;
	const uint32_t *order = s->order, *via = s->via, n = s->norder;
	uint64_t *sub = s->sub, *load = s->load;
	uint8_t *col = r->lft + (size_t)lid * r->num_switches;

	col[t] = port; /* sub[] holds the source LIDs at each routed switch (settled) */
	if (s->walked) {
		for (uint32_t j = 1; j < n; j++) /* order[0] is t */
			col[order[j]] = adj[via[order[j]]].port;
		place_walked(s, t);
	} else {
		for (uint32_t j = n; j-- > 1;) { /* next hops were settled earlier */
			uint32_t x = order[j], c = via[x];
			uint64_t sx = sub[x];
			struct lanes_adj e = adj[c];

			load[c] += sx;
			sub[e.sw] += sx;
			col[x] = e.port;
		}
	}
	/* the BFS's bundles (nue_bundles_fast.c): one channel of each at most grew */
	for (uint32_t j = 1; s->use_fast && s->fast.parallel && j < n; j++)
		nue_bundle_loaded(&s->fast, via[order[j]]);
}
