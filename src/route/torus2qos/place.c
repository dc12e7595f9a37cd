/*
 * place.c - where each switch of a torus sits, for torus-2qos
 * (torus2qos.h).
 *
 * From recognition: lanes_recognize_torus() (src/recognize/torus.c) on an
 * intact torus or mesh. A ring of 4 comes back from it as two dimensions
 * of extent 2 (the graphs are the same); these are paired, in order, into
 * rings of 4, coordinates (0,0) (1,0) (1,1) (0,1) around the ring. More
 * than three dimensions after that are refused (torus-2QoS is for 2D and 3D
 * tori).
 *
 * From a torus-2QoS.conf, as OpenSM's torus-2QoS does it ("Torus Topology
 * Discovery" in doc/current-routing.txt; build_torus in osm_torus.c): the
 * size comes from the file, and the seed switch and its xp/yp/zp (and
 * xm/ym/zm) neighbours fix the directions. The seed switch sits at
 * -dateline in each dimension (0 by default), its + neighbours at 1. The
 * rest is grown by squares of cables. OpenSM examines cubes of eight
 * positions; here the same idea with squares and lines:
 *   - a square: switch A at p, switches B at p+v and C at p+u+v placed
 *     (u, v unit steps in different dimensions): the switch at p+u is the
 *     one switch not placed yet that is cabled to both A and C, other than B;
 *   - a line, when no square places anything more: A at p and P at p-u
 *     placed; the switch at p+u is A's one unplaced neighbour that is
 *     cabled to P (a ring of 3), or that shares no neighbour but A with P
 *     (extent 5 and more, or a mesh);
 *   - a ring of 4 (where lines cannot tell straight on from a turn, which
 *     is why OpenSM asks for both xp_link and xm_link there): switches at
 *     q-u and q+u placed, the one at q is their other common neighbour.
 * Missing switches and cables leave holes that squares around them fill
 * from other sides. A switch that never finds a place is refused with its
 * name; cables that join no neighbouring positions are refused by the
 * engine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "lanes/recognize.h"
#include "route/torus2qos/torus2qos.h"

int lanes_t2q_torus_alloc(struct t2q_torus *t, uint32_t num_switches, struct lanes_error *err)
{
	t->num_positions = t->extent[0] * t->extent[1] * t->extent[2];
	t->at = malloc(((size_t)t->num_positions + 1) * sizeof(*t->at));
	t->coord = malloc(((size_t)num_switches * T2Q_DIMS + 1) * sizeof(*t->coord));
	if (!t->at || !t->coord)
		return lanes_error_oom(err);
	memset(t->at, 0xff, (size_t)t->num_positions * sizeof(*t->at));
	memset(t->coord, 0xff, (size_t)num_switches * T2Q_DIMS * sizeof(*t->coord));
	return 0;
}

void lanes_t2q_torus_free(struct t2q_torus *t)
{
	free(t->at);
	free(t->coord);
	t->at = t->coord = NULL;
}

static uint32_t position(const struct t2q_torus *t, const uint32_t c[T2Q_DIMS])
{
	return c[0] + t->extent[0] * (c[1] + t->extent[1] * c[2]);
}

void lanes_t2q_torus_put(struct t2q_torus *t, uint32_t sw, const uint32_t c[T2Q_DIMS])
{
	t->at[position(t, c)] = sw;
	memcpy(t->coord + (size_t)sw * T2Q_DIMS, c, T2Q_DIMS * sizeof(*c));
}

/* ------------------------------------------------------------ recognition */

int lanes_t2q_place_recognized(const struct lanes_fabric *f, struct t2q_torus *t,
			       struct lanes_error *err)
{
	struct lanes_structure s;
	struct lanes_error why;
	int rc;

	lanes_error_clear(&why);
	if ((rc = lanes_recognize_torus(f, &s, &why)))
		return rc != LANES_EINVAL ? lanes_error_set(err, rc, "%s", why.message)
			: lanes_error_set(err, LANES_EREFUSED, T2Q_ENGINE ": %s (nor does any switch "
					  "seed a torus with failed cables or switches; config=FILE, "
					  "an OpenSM torus-2QoS.conf, gives its size and seed)",
					  why.message);
	lanes_structure_pair_rings4(&s);
	if (s.num_dims > T2Q_DIMS) {
		rc = lanes_error_set(err, LANES_EREFUSED, T2Q_ENGINE ": a torus of %u dimensions; "
				     "torus-2QoS routes 2D and 3D tori", s.num_dims);
		goto out;
	}
	for (unsigned d = 0; d < T2Q_DIMS; d++) {
		t->extent[d] = d < s.num_dims ? s.extent[d] : 1;
		t->mesh[d] = d < s.num_dims ? !s.wrap[d] || s.extent[d] < 3 : 1;
	}
	if ((rc = lanes_t2q_torus_alloc(t, f->num_switches, err)))
		goto out;
	for (uint32_t sw = 0; sw < f->num_switches; sw++) {
		uint32_t c[T2Q_DIMS] = { 0, 0, 0 };

		for (uint32_t d = 0; d < s.num_dims; d++)
			c[d] = s.coord[(size_t)sw * s.num_dims + d];
		lanes_t2q_torus_put(t, sw, c);
	}
out:
	lanes_structure_free(&s);
	return rc;
}

/* ------------------------------------------------------------ growing from a seed */

struct grow {
	const struct lanes_fabric *f;
	struct t2q_torus *t;
};

static int cabled(const struct lanes_fabric *f, uint32_t u, uint32_t v)
{
	for (uint32_t e = f->adj_off[u]; e < f->adj_off[u + 1]; e++)
		if (f->adj[e].sw == v)
			return 1;
	return 0;
}

static int placed(const struct grow *g, uint32_t sw)
{
	return g->t->coord[(size_t)sw * T2Q_DIMS] != LANES_NONE;
}

/* The position one step (way +1/-1) from c in d, into n; 0 off the edge of a mesh. */
static int step_to(const struct t2q_torus *t, const uint32_t c[T2Q_DIMS], unsigned d, int way,
		   uint32_t n[T2Q_DIMS])
{
	uint32_t k = t->extent[d];

	memcpy(n, c, T2Q_DIMS * sizeof(*c));
	if (k < 2 || (t->mesh[d] && ((way < 0 && c[d] == 0) || (way > 0 && c[d] + 1 == k))))
		return 0;
	n[d] = (c[d] + k + (uint32_t)way) % k;
	return 1;
}

static uint32_t at(const struct grow *g, const uint32_t c[T2Q_DIMS])
{
	return g->t->at[position(g->t, c)];
}

/* The one unplaced neighbour of a cabled to b (b may be LANES_NONE: any), not `not`. */
static uint32_t only_common(const struct grow *g, uint32_t a, uint32_t b, uint32_t not)
{
	const struct lanes_fabric *f = g->f;
	uint32_t found = LANES_NONE;

	for (uint32_t e = f->adj_off[a]; e < f->adj_off[a + 1]; e++) {
		uint32_t w = f->adj[e].sw;

		if (w == a || w == not || w == found || placed(g, w) || (b != LANES_NONE && !cabled(f, w, b)))
			continue;
		if (found != LANES_NONE)
			return LANES_NONE; /* two candidates: not sure */
		found = w;
	}
	return found;
}

/* Square rule for the empty position q one step (d, way) from A at c. */
static uint32_t by_square(const struct grow *g, const uint32_t c[T2Q_DIMS], unsigned d,
			  const uint32_t q[T2Q_DIMS])
{
	uint32_t a = at(g, c), bc[T2Q_DIMS], cc[T2Q_DIMS];

	for (unsigned e = 0; e < T2Q_DIMS; e++)
		for (int side = -1; e != d && side <= 1; side += 2) {
			uint32_t w;

			if (!step_to(g->t, c, e, side, bc) || !step_to(g->t, q, e, side, cc) ||
			    at(g, bc) == LANES_NONE || at(g, cc) == LANES_NONE)
				continue;
			w = only_common(g, a, at(g, cc), at(g, bc));
			if (w != LANES_NONE)
				return w;
		}
	return LANES_NONE;
}

/* Does w share a neighbour other than a with p? */
static int shares_other(const struct lanes_fabric *f, uint32_t w, uint32_t p, uint32_t a)
{
	for (uint32_t e = f->adj_off[w]; e < f->adj_off[w + 1]; e++)
		if (f->adj[e].sw != a && f->adj[e].sw != w && cabled(f, f->adj[e].sw, p))
			return 1;
	return 0;
}

/* Line rule: q one step (d, way) from A at c, A's predecessor placed. */
static uint32_t by_line(const struct grow *g, const uint32_t c[T2Q_DIMS], unsigned d, int way)
{
	const struct lanes_fabric *f = g->f;
	uint32_t pc[T2Q_DIMS], a = at(g, c), p, found = LANES_NONE;
	uint32_t k = g->t->extent[d];

	if (!step_to(g->t, c, d, -way, pc) || (p = at(g, pc)) == LANES_NONE || (k == 4 && !g->t->mesh[d]))
		return LANES_NONE;
	for (uint32_t e = f->adj_off[a]; e < f->adj_off[a + 1]; e++) {
		uint32_t w = f->adj[e].sw;
		int fits = k == 3 && !g->t->mesh[d] ? cabled(f, w, p)
						     : !cabled(f, w, p) && !shares_other(f, w, p, a);

		if (w == a || w == p || w == found || placed(g, w) || !fits)
			continue;
		if (found != LANES_NONE)
			return LANES_NONE;
		found = w;
	}
	return found;
}

/* Ring-of-4 rule for the empty position q: its two ring neighbours placed. */
static uint32_t by_ring4(const struct grow *g, const uint32_t q[T2Q_DIMS], unsigned d)
{
	uint32_t l[T2Q_DIMS], r[T2Q_DIMS], o[T2Q_DIMS];

	if (g->t->extent[d] != 4 || g->t->mesh[d] || !step_to(g->t, q, d, -1, l) ||
	    !step_to(g->t, q, d, 1, r) || !step_to(g->t, r, d, 1, o) || at(g, l) == LANES_NONE ||
	    at(g, r) == LANES_NONE)
		return LANES_NONE;
	return only_common(g, at(g, l), at(g, r), at(g, o));
}

/* One sweep over the placed switches; lines only when `lines` (then at most one placement). */
static uint32_t sweep(struct grow *g, int lines)
{
	const struct t2q_torus *t = g->t;
	uint32_t done = 0;

	for (uint32_t pos = 0; pos < t->num_positions; pos++) {
		uint32_t c[T2Q_DIMS] = { pos % t->extent[0], pos / t->extent[0] % t->extent[1],
					 pos / t->extent[0] / t->extent[1] }, q[T2Q_DIMS];

		if (t->at[pos] == LANES_NONE)
			continue;
		for (unsigned d = 0; d < T2Q_DIMS; d++)
			for (int way = -1; way <= 1; way += 2) {
				uint32_t w;

				if (!step_to(t, c, d, way, q) || at(g, q) != LANES_NONE)
					continue;
				w = lines ? by_line(g, c, d, way) : by_square(g, c, d, q);
				if (w == LANES_NONE && !lines)
					w = by_ring4(g, q, d);
				if (w == LANES_NONE)
					continue;
				lanes_t2q_torus_put(g->t, w, q);
				if (lines)
					return 1;
				done++;
			}
	}
	return done;
}

static void grow(struct grow *g)
{
	for (;;) {
		while (sweep(g, 0))
			;
		if (!sweep(g, 1))
			return;
	}
}

/* A seed switch by GUID: its index, or LANES_NONE. */
static uint32_t seed_switch(const struct lanes_fabric *f, uint64_t guid)
{
	uint32_t node = guid ? lanes_fabric_find_guid(f, guid) : LANES_NONE;

	return node == LANES_NONE || f->nodes[node].type != LANES_NODE_SWITCH ? LANES_NONE
									      : f->nodes[node].switch_index;
}

/* Every switch the seed names is in the fabric (its cables may have failed, as in OpenSM). */
static int seed_usable(const struct lanes_fabric *f, const struct t2q_seed *s)
{
	for (unsigned d = 0; d < T2Q_DIMS; d++)
		for (int m = 0; m < 2; m++) {
			const uint64_t *l = m ? s->minus[d] : s->plus[d];
			uint32_t a = seed_switch(f, l[0]), b = seed_switch(f, l[1]);

			if (l[0] && (a == LANES_NONE || b == LANES_NONE))
				return 0;
		}
	return 1;
}

/* Put the seed switch at -dateline and its named neighbours one step either way. */
static int plant_seed(struct grow *g, const struct t2q_config *cf, const struct t2q_seed *s,
		      struct lanes_error *err)
{
	uint32_t origin[T2Q_DIMS], n[T2Q_DIMS], root = LANES_NONE;

	for (unsigned d = 0; d < T2Q_DIMS; d++) {
		int k = (int)cf->extent[d];

		origin[d] = (uint32_t)(((-s->dateline[d]) % k + k) % k);
		for (int m = 0; m < 2; m++) {
			const uint64_t *l = m ? s->minus[d] : s->plus[d];

			if (!l[0])
				continue;
			if (root != LANES_NONE && seed_switch(g->f, l[0]) != root)
				return lanes_error_set(err, LANES_EINVAL, T2Q_ENGINE ": the seed links "
						       "of the config do not all start at one switch "
						       "(0x%016llx)", (unsigned long long)l[0]);
			root = seed_switch(g->f, l[0]);
		}
	}
	if (root == LANES_NONE)
		return lanes_error_set(err, LANES_EINVAL, T2Q_ENGINE ": the config names no "
				       "xp_link/yp_link/zp_link seed");
	lanes_t2q_torus_put(g->t, root, origin);
	for (unsigned d = 0; d < T2Q_DIMS; d++)
		for (int m = 0; m < 2; m++) {
			const uint64_t *l = m ? s->minus[d] : s->plus[d];
			uint32_t w = seed_switch(g->f, l[1]);

			if (l[0] && step_to(g->t, origin, d, m ? -1 : 1, n) && !placed(g, w))
				lanes_t2q_torus_put(g->t, w, n);
		}
	return 0;
}

static int refuse_unplaced(const struct lanes_fabric *f, const struct t2q_torus *t, uint32_t sw,
			   struct lanes_error *err)
{
	char name[160];

	return lanes_error_set(err, LANES_EREFUSED,
			       T2Q_ENGINE ": switch %s finds no place in the %ux%ux%u torus grown "
			       "from the config's seed (too many failed cables around it, or a size "
			       "or seed that does not fit the fabric)",
			       lanes_t2q_switch_name(f, sw, name, sizeof(name)), t->extent[0], t->extent[1],
			       t->extent[2]);
}

static int check_seed_config(const struct t2q_config *c, const struct t2q_seed *s,
			     struct lanes_error *err)
{
	for (unsigned d = 0; d < T2Q_DIMS; d++) {
		if (c->extent[d] > 1 && !s->plus[d][0] && !s->minus[d][0])
			return lanes_error_set(err, LANES_EINVAL, T2Q_ENGINE ": the config gives no "
					       "%cp_link for a %c extent of %u", "xyz"[d], "xyz"[d],
					       c->extent[d]);
		if (c->extent[d] == 4 && !c->mesh[d] && !(s->plus[d][0] && s->minus[d][0]))
			return lanes_error_set(err, LANES_EINVAL, T2Q_ENGINE ": a %c ring of 4 needs "
					       "both %cp_link and %cm_link in the config (as OpenSM "
					       "asks)", "xyz"[d], "xyz"[d], "xyz"[d]);
	}
	return 0;
}

int lanes_t2q_place_config(const struct lanes_fabric *f, const struct t2q_config *c,
		     struct t2q_torus *t, struct lanes_error *err)
{
	struct grow g = { f, t };
	const struct t2q_seed *s = NULL;
	int rc;

	for (uint32_t i = 0; i < c->num_seeds && !s; i++)
		if (seed_usable(f, &c->seed[i]))
			s = &c->seed[i];
	if (!s)
		return lanes_error_set(err, LANES_EREFUSED, T2Q_ENGINE ": every seed of the config "
				       "names a switch or cable missing from the fabric");
	memcpy(t->extent, c->extent, sizeof(t->extent));
	memcpy(t->mesh, c->mesh, sizeof(t->mesh));
	if ((rc = check_seed_config(c, s, err)) || (rc = lanes_t2q_torus_alloc(t, f->num_switches, err)) ||
	    (rc = plant_seed(&g, c, s, err)))
		return rc;
	grow(&g);
	for (uint32_t sw = 0; sw < f->num_switches; sw++)
		if (!placed(&g, sw))
			return refuse_unplaced(f, t, sw, err);
	return 0;
}

/* ------------------------------------------------------------ a faulty torus without a config */

/* The one neighbour of cur straight on from prev (sharing no neighbour with prev but cur). */
static uint32_t straight(const struct lanes_fabric *f, uint32_t prev, uint32_t cur)
{
	uint32_t found = LANES_NONE;

	for (uint32_t e = f->adj_off[cur]; e < f->adj_off[cur + 1]; e++) {
		uint32_t w = f->adj[e].sw;

		if (w == prev || w == cur || w == found || shares_other(f, w, prev, cur))
			continue;
		if (found != LANES_NONE)
			return LANES_NONE;
		found = w;
	}
	return found;
}

/* Walk straight from u through a: the ring's length when it closes at u; *last: the switch
 * before u. */
static uint32_t ring_length(const struct lanes_fabric *f, uint32_t u, uint32_t a, uint32_t *last)
{
	uint32_t prev = u, cur = a, steps = 1;

	while (steps <= f->num_switches) {
		uint32_t w = straight(f, prev, cur);

		if (w == LANES_NONE)
			return 0;
		steps++;
		if (w == u) {
			*last = cur;
			return steps;
		}
		prev = cur;
		cur = w;
	}
	return 0;
}

/* u's neighbours paired into closed rings (extent 3 or 5 and more): a seed config, or 0. */
static int seed_from(const struct lanes_fabric *f, uint32_t u, struct t2q_config *c)
{
	uint32_t nbr[8], n = 0, pair[T2Q_DIMS][2], len[T2Q_DIMS], np = 0;
	uint8_t used[8] = { 0 };

	for (uint32_t e = f->adj_off[u]; e < f->adj_off[u + 1]; e++) {
		uint32_t w = f->adj[e].sw, k = 0;

		while (k < n && nbr[k] != w)
			k++;
		if (w != u && k == n && n++ == 8)
			return 0;
		nbr[k] = w;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t last = LANES_NONE, k = 0, l;

		if (used[i])
			continue;
		l = ring_length(f, u, nbr[i], &last);
		while (k < n && nbr[k] != last)
			k++;
		if (np == T2Q_DIMS || l < 3 || l == 4 || k == n || k == i || used[k])
			return 0;
		used[i] = used[k] = 1;
		pair[np][0] = nbr[i] < last ? nbr[i] : last; /* + toward the lower-numbered neighbour */
		pair[np][1] = nbr[i] < last ? last : nbr[i];
		len[np++] = l;
	}
	if (!np)
		return 0;
	memset(c, 0, sizeof(*c));
	c->num_seeds = 1;
	for (uint32_t d = 0; d < T2Q_DIMS; d++) { /* dimensions in the order of their + neighbour */
		uint32_t best = LANES_NONE;

		for (uint32_t p = 0; p < np; p++)
			if (len[p] && (best == LANES_NONE || pair[p][0] < pair[best][0]))
				best = p;
		c->extent[d] = best == LANES_NONE ? 1 : len[best];
		c->mesh[d] = best == LANES_NONE;
		if (best == LANES_NONE)
			continue;
		c->seed[0].plus[d][0] = f->nodes[f->switches[u]].guid;
		c->seed[0].plus[d][1] = f->nodes[f->switches[pair[best][0]]].guid;
		len[best] = 0;
	}
	return 1;
}

/*
 * The frame recognition gives an intact torus: switch 0 at the origin,
 * dimensions in the order of switch 0's lowest-numbered neighbour in each,
 * + toward the lower-numbered of its two neighbours. So the dateline, and
 * every path SL, stays where it is on the intact torus when a cable or
 * switch fails (as long as switch 0 and its neighbours are there).
 */
static void reanchor(struct t2q_torus *t, uint32_t num_switches)
{
	uint32_t o[T2Q_DIMS], key[T2Q_DIMS], perm[T2Q_DIMS] = { 0, 1, 2 }, extent[T2Q_DIMS];
	uint8_t flip[T2Q_DIMS] = { 0, 0, 0 }, mesh[T2Q_DIMS];

	memcpy(o, t->coord, sizeof(o));
	for (unsigned d = 0; d < T2Q_DIMS; d++) {
		uint32_t plus[T2Q_DIMS], minus[T2Q_DIMS], p = LANES_NONE, m = LANES_NONE;

		if (step_to(t, o, d, 1, plus))
			p = t->at[position(t, plus)];
		if (step_to(t, o, d, -1, minus))
			m = t->at[position(t, minus)];
		flip[d] = m < p;
		key[d] = m < p ? m : p;
	}
	for (unsigned i = 1; i < T2Q_DIMS; i++) /* insertion sort of the dimensions by key */
		for (unsigned j = i; j > 0 && key[perm[j]] < key[perm[j - 1]]; j--) {
			uint32_t x = perm[j];

			perm[j] = perm[j - 1];
			perm[j - 1] = x;
		}
	for (unsigned d = 0; d < T2Q_DIMS; d++) {
		extent[d] = t->extent[perm[d]];
		mesh[d] = t->mesh[perm[d]];
	}
	memcpy(t->extent, extent, sizeof(extent));
	memcpy(t->mesh, mesh, sizeof(mesh));
	memset(t->at, 0xff, (size_t)t->num_positions * sizeof(*t->at));
	for (uint32_t sw = 0; sw < num_switches; sw++) {
		uint32_t *c = t->coord + (size_t)sw * T2Q_DIMS, n[T2Q_DIMS];

		for (unsigned d = 0; d < T2Q_DIMS; d++) {
			uint32_t e = perm[d], k = t->extent[d];

			n[d] = flip[e] ? (o[e] + k - c[e]) % k : (c[e] + k - o[e]) % k;
		}
		lanes_t2q_torus_put(t, sw, n);
	}
}

int lanes_t2q_place_auto(const struct lanes_fabric *f, struct t2q_torus *t, struct lanes_error *err)
{
	uint32_t tried = 0;

	for (uint32_t u = 0; u < f->num_switches && tried < 8; u++) {
		struct t2q_config c;
		uint64_t size;
		int rc;

		if (!seed_from(f, u, &c))
			continue;
		tried++;
		size = (uint64_t)c.extent[0] * c.extent[1] * c.extent[2];
		if (size < f->num_switches || size > (uint64_t)f->num_switches * 2)
			continue;
		memset(t, 0, sizeof(*t));
		if (!(rc = lanes_t2q_place_config(f, &c, t, err))) {
			reanchor(t, f->num_switches);
			return 0;
		}
		lanes_t2q_torus_free(t);
		if (rc != LANES_EREFUSED && rc != LANES_EINVAL)
			return rc;
	}
	return lanes_error_set(err, LANES_EREFUSED, T2Q_ENGINE ": no switch whose rings all close "
			       "could seed a torus");
}
