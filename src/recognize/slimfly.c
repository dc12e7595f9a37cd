/*
 * slimfly.c - recognise a Slim Fly (an MMS graph) from its switch graph and
 * give every switch its coordinates (t, x, y).
 *
 * The Slim Fly of Besta and Hoefler ("Slim Fly: a cost effective
 * low-diameter network topology", SC14, Sec. 3.1) is the graph of McKay,
 * Miller and Siran ("A note on large graphs of diameter two and given
 * maximum degree", JCTB 1998) for a prime power q = 4w + delta, delta in
 * {-1, 0, 1}: 2q^2 switches (t, x, y), t in {0, 1}, x and y in GF(q);
 * (t, x, y) - (t, x, y') when y - y' is in X_t ("y-links"), (0, x, y) -
 * (1, m, c) when y = m x + c ("t-links"); every switch has (3q - delta)/2
 * neighbours. src/topo/gf.c builds it, with the field, the primitive element
 * and the sets X_0 = X, X_1 = X' of Hafner's construction.
 *
 * What is looked for. Switch indices, names and ports say nothing, and the
 * graph has many automorphisms, so the coordinates are not unique: any
 * labelling under which every cable is an MMS link and every MMS link is a
 * cable is right. Such a labelling is an isomorphism from the fabric's
 * switch graph onto the MMS graph that gf.c builds for the same q, with the
 * same X and X' that the slimfly engine's formulas use; the coordinates of
 * a switch are those of its image.
 *
 * Why not from local counts alone. A t-link lies in no triangle, and in a
 * large Slim Fly most y-links lie in many, but not in small ones: for q = 4
 * and q = 5 no y-link lies in a triangle either, and q = 5 is the Hoffman-
 * Singleton graph, whose automorphisms take any cable to any other: no count
 * on the graph can tell its t-links from its y-links, only a choice can.
 * Recovering GF(q) coordinates from the t-links, which are the point-line
 * incidence of an affine plane without its vertical lines ("Early
 * evaluation of direct large-scale InfiniBand networks with adaptive
 * routing", Sec. 1.5), would need a coordinatisation of that plane as well.
 * So the isomorphism is found by the general method:
 *
 * 1. Cheap refusals: the number of switches must be 2q^2 for an MMS prime
 *    power q (gf.c's lanes_mms_check_q), and every switch must have exactly
 *    (3q - delta)/2 distinct neighbour switches (parallel cables count once).
 * 2. Individualisation and refinement (McKay, "Practical graph isomorphism",
 *    Congressus Numerantium 30, 1981, the method of nauty), run on the two
 *    graphs side by side. Colour refinement gives every switch of either
 *    graph the colour of (its colour, the multiset of (neighbour's colour,
 *    common neighbours of the two)) until the number of colours stops
 *    growing; the common-neighbour count of a cable is 0 on every t-link and
 *    on most y-links of large Slim Flies it is not, which helps. An
 *    isomorphism maps each colour class onto the class of the same colour,
 *    so a class of different sizes in the two graphs ends the branch. While
 *    classes of more than one switch remain, the largest (first by colour;
 *    it splits the most, and measured on shuffled Slim Flies it needs far
 *    fewer tries than the smallest: 59 instead of 200 for q = 8, 243 instead
 *    of 776 for q = 16) is split: its lowest-index fabric switch gets a
 *    colour of its own, together with each reference vertex of the class in
 *    turn (ascending), and the search goes on from each such pair until one
 *    leads to single-switch classes. Colours are named by the rank of a
 *    64-bit hash of what defines them; a collision could only merge classes,
 *    which makes refinement weaker, never wrong, since step 3 checks.
 *    The first split is special: fabric switch 0 is tried against (0, 0, 0)
 *    and (1, 0, 0) only. The translations (x, y) -> (x + a, y + b) of the
 *    plane, which take the line (1, m, c) to (1, m, c + b - m a), keep every
 *    y-link (same column, same difference) and every t-link (y = m x + c iff
 *    y + b = m (x + a) + c + b - m a), so they are automorphisms moving
 *    (t, 0, 0) to any (t, x, y): if switch 0 has an image in half t, it has
 *    one at (t, 0, 0). Both are needed: in gf.c's graphs for q = 7, 11
 *    and 27 (delta = -1), measured, no automorphism swaps the halves, and
 *    switch 0 has images in one half only.
 * 3. Verification: when every class holds one switch of each graph, the
 *    classes pair them up, and every cable of the fabric must be an MMS link
 *    between the images. The two graphs have the same number of switches
 *    and, being regular of one degree, of links, so the map is then a
 *    bijection on links and every non-cable is a non-link: the fabric IS the
 *    MMS graph under these coordinates. Otherwise the branch fails.
 *
 * Cost: intact Slim Flies take 2 to 4 refinements for most q, a few hundred
 * for some (q = 16, 27: 0.06 s and 0.8 s for 512 and 1458 switches), each
 * O(switches * degree) plus a sort. A graph that is not a Slim Fly fails in
 * step 1 or at the first refinements (different distance profiles); the
 * search is bounded (SEARCH_BUDGET_*) and gives up with a reason rather
 * than run long.
 *
 * Faults. Missing cables: a switch with more than (3q - delta)/2 neighbours
 * is refused, and fewer are taken as missing cable ends. Up to
 * MAX_MISSING_CABLES missing cables, the short switches (one entry per
 * missing end) are paired up in every way that adds no cable twice and no
 * cable that is there (at most MAX_COMPLETIONS ways, all sharing one
 * refinement budget), and each completed graph goes through steps 2 and 3
 * until one is the MMS graph. Its labelling makes every surviving cable an
 * MMS link, and exactly the added cables are the MMS links without a cable;
 * s->note counts them. Any completion that works will do: the coordinates
 * are consistent with every surviving cable, which is all that is asked.
 * Engines that need every cable check for them. Missing switches (2q^2 - r
 * switches) are refused: their places would have to be guessed too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "recognize/recognize.h"
#include "topo/gf.h"

/* Refinements the search may make: per fabric switch, plus a floor. */
#define SEARCH_BUDGET_PER_SWITCH 4
#define SEARCH_BUDGET_FLOOR 256
/* Missing cables looked for, and the ways of adding them back tried. */
#define MAX_MISSING_CABLES 4
#define MAX_COMPLETIONS 128

enum search_result { SEARCH_NONE = 0, SEARCH_FOUND = 1, SEARCH_GAVE_UP = 2 };

/* A vertex's colour signature, for ranking. */
struct colour_key {
	uint64_t hash;
	uint32_t vertex;
};

/*
 * The fabric's switch graph (vertices 0..n-1) and the MMS reference graph
 * (vertices n..2n-1) as one disjoint union, with the search's scratch.
 */
struct sf_search {
	uint32_t n;                  /* switches per graph */
	uint32_t *off, *nbr;         /* CSR over the 2n vertices */
	uint32_t *triangles;         /* per CSR entry: common neighbours of its two ends */
	const struct mms *reference; /* the MMS graph of gf.c */
	uint64_t *hash;              /* 2n: this round's signatures */
	struct colour_key *keys;     /* 2n: for ranking */
	uint32_t *class_size;        /* 2 * 2n: per colour, fabric then reference */
	uint32_t refinements_left;
	uint32_t *reference_of;      /* result: per fabric switch, its MMS vertex */
};

/* The refinements one recognition may make (all the completions of one fabric together). */
static uint32_t search_budget(uint32_t num_switches)
{
	return SEARCH_BUDGET_FLOOR + SEARCH_BUDGET_PER_SWITCH * num_switches;
}

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int cmp_key(const void *a, const void *b)
{
	const struct colour_key *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->vertex < y->vertex ? -1 : x->vertex > y->vertex;
}

/* Name the colours of this round by rank of signature; returns how many there are. */
static uint32_t rank_colours(struct sf_search *s, uint32_t *colour)
{
	uint32_t total = 2 * s->n, ranks = 0;

	for (uint32_t v = 0; v < total; v++) {
		s->keys[v].hash = s->hash[v];
		s->keys[v].vertex = v;
	}
	qsort(s->keys, total, sizeof(*s->keys), cmp_key);
	for (uint32_t i = 0; i < total; i++) {
		if (i && s->keys[i].hash != s->keys[i - 1].hash)
			ranks++;
		colour[s->keys[i].vertex] = ranks;
	}
	return ranks + 1;
}

/* Same class sizes in both graphs? */
static int classes_match(struct sf_search *s, const uint32_t *colour, uint32_t colours)
{
	uint32_t *fabric_side = s->class_size, *reference_side = s->class_size + colours;

	memset(s->class_size, 0, 2 * (size_t)colours * sizeof(*s->class_size));
	for (uint32_t v = 0; v < s->n; v++) {
		fabric_side[colour[v]]++;
		reference_side[colour[s->n + v]]++;
	}
	return !memcmp(fabric_side, reference_side, colours * sizeof(*s->class_size));
}

/*
 * Colour refinement of both graphs until stable. *colours: the number of
 * colours in, and out. @return 1, or 0 when a class differs in size
 */
static int refine(struct sf_search *s, uint32_t *colour, uint32_t *colours)
{
	for (;;) {
		uint32_t before = *colours;

		for (uint32_t v = 0; v < 2 * s->n; v++) {
			uint64_t around = 0;

			for (uint32_t e = s->off[v]; e < s->off[v + 1]; e++)
				around += mix64(mix64(colour[s->nbr[e]] + 1) + s->triangles[e]);
			s->hash[v] = mix64(mix64(colour[v]) ^ around);
		}
		*colours = rank_colours(s, colour);
		if (!classes_match(s, colour, *colours))
			return 0;
		if (*colours == before)
			return 1;
	}
}

/* With one switch per class: pair them, and check every cable. @return 1 if an isomorphism */
static int pair_and_check(struct sf_search *s, const uint32_t *colour)
{
	uint32_t n = s->n, *fabric_of = s->class_size; /* per colour (all n are used) */

	for (uint32_t v = 0; v < n; v++)
		fabric_of[colour[v]] = v;
	for (uint32_t r = 0; r < n; r++)
		s->reference_of[fabric_of[colour[n + r]]] = r;
	for (uint32_t u = 0; u < n; u++)
		for (uint32_t e = s->off[u]; e < s->off[u + 1]; e++)
			if (lanes_mms_port(s->reference, s->reference_of[u],
					   s->reference_of[s->nbr[e]]) == UINT32_MAX)
				return 0;
	return 1;
}

/* The largest class of more than one switch (first by colour). */
static uint32_t class_to_split(struct sf_search *s, const uint32_t *colour, uint32_t colours)
{
	uint32_t best = UINT32_MAX, best_size = UINT32_MAX;

	classes_match(s, colour, colours);
	for (uint32_t c = 0; c < colours; c++)
		if (s->class_size[c] > 1 && (best == UINT32_MAX || s->class_size[c] > best_size)) {
			best = c;
			best_size = s->class_size[c];
		}
	return best;
}

static int search(struct sf_search *s, const uint32_t *colour, uint32_t colours);

/* Give fabric switch u and reference vertex r a colour of their own, refine, go on. */
static int try_pair(struct sf_search *s, const uint32_t *colour, uint32_t colours, uint32_t u,
		    uint32_t r, uint32_t *child)
{
	uint32_t child_colours = colours + 1;

	if (!s->refinements_left)
		return SEARCH_GAVE_UP;
	s->refinements_left--;
	memcpy(child, colour, 2 * (size_t)s->n * sizeof(*child));
	child[u] = child[r] = colours;
	if (!refine(s, child, &child_colours))
		return SEARCH_NONE;
	return search(s, child, child_colours);
}

/* @return enum search_result, or LANES_ENOMEM */
static int search(struct sf_search *s, const uint32_t *colour, uint32_t colours)
{
	uint32_t split, u = 0, *child;
	int rc = SEARCH_NONE;

	if (colours == s->n)
		return pair_and_check(s, colour) ? SEARCH_FOUND : SEARCH_NONE;
	split = class_to_split(s, colour, colours);
	while (colour[u] != split)
		u++;
	child = malloc(2 * (size_t)s->n * sizeof(*child));
	if (!child)
		return LANES_ENOMEM;
	for (uint32_t r = s->n; r < 2 * s->n && rc == SEARCH_NONE; r++)
		if (colour[r] == split)
			rc = try_pair(s, colour, colours, u, r, child);
	free(child);
	return rc;
}

/* Common neighbours of every linked pair, by merging their sorted lists. */
static void count_triangles(struct sf_search *s)
{
	for (uint32_t u = 0; u < 2 * s->n; u++)
		for (uint32_t e = s->off[u]; e < s->off[u + 1]; e++) {
			uint32_t v = s->nbr[e], i = s->off[u], j = s->off[v], common = 0;

			while (i < s->off[u + 1] && j < s->off[v + 1])
				if (s->nbr[i] == s->nbr[j]) {
					common++;
					i++;
					j++;
				} else if (s->nbr[i] < s->nbr[j]) {
					i++;
				} else {
					j++;
				}
			s->triangles[e] = common;
		}
}

/* The disjoint union of the switch graph and the reference, and the scratch. */
static int search_init(struct sf_search *s, const struct lanes_switch_graph *g,
		       const struct mms *reference, struct lanes_error *err)
{
	uint32_t n = g->num_switches, k = reference->degree;
	size_t edges = (size_t)g->off[n] + (size_t)n * k;

	s->n = n;
	s->reference = reference;
	s->off = malloc((2 * (size_t)n + 1) * sizeof(*s->off));
	s->nbr = malloc((edges + 1) * sizeof(*s->nbr));
	s->hash = malloc(2 * (size_t)n * sizeof(*s->hash));
	s->keys = malloc(2 * (size_t)n * sizeof(*s->keys));
	s->class_size = malloc(4 * (size_t)n * sizeof(*s->class_size));
	s->reference_of = malloc((size_t)n * sizeof(*s->reference_of));
	s->triangles = malloc((edges + 1) * sizeof(*s->triangles));
	if (!s->triangles || !s->off || !s->nbr || !s->hash || !s->keys || !s->class_size ||
	    !s->reference_of)
		return lanes_error_oom(err);
	memcpy(s->off, g->off, ((size_t)n + 1) * sizeof(*s->off));
	memcpy(s->nbr, g->nbr, (size_t)g->off[n] * sizeof(*s->nbr));
	for (uint32_t r = 0; r < n; r++) {
		uint32_t *list = s->nbr + g->off[n] + (size_t)r * k;

		s->off[n + r + 1] = g->off[n] + (r + 1) * k;
		for (uint32_t i = 0; i < k; i++)
			list[i] = n + reference->nbr[(size_t)r * k + i];
	}
	count_triangles(s);
	return 0;
}

static void search_free(struct sf_search *s)
{
	free(s->off);
	free(s->nbr);
	free(s->hash);
	free(s->keys);
	free(s->class_size);
	free(s->reference_of);
	free(s->triangles);
}

/* What step 1 found: q, and the cable ends missing from the degrees. */
struct sf_counts {
	unsigned q;
	uint32_t degree;        /* (3q - delta)/2 */
	uint32_t missing_ends;  /* sum over switches of degree minus its neighbours */
	uint32_t short_switch;  /* the first switch with fewer, or LANES_NONE */
};

/* Step 1: q from the switch count, then the degree of every switch. */
static int check_counts(const struct lanes_fabric *f, const struct lanes_switch_graph *g,
			struct sf_counts *c, struct lanes_error *err)
{
	uint32_t n = f->num_switches, q = 1;
	struct lanes_error why;
	int delta;

	while ((uint64_t)2 * (q + 1) * (q + 1) <= n)
		q++;
	if ((uint64_t)2 * q * q != n || lanes_mms_check_q("slimfly", q, &delta, &why))
		return lanes_error_set(err, LANES_EINVAL,
				       "not a Slim Fly: %u switches is not 2q^2 for a prime power "
				       "q = 4w + delta, |delta| <= 1 (3, 4, 5, 7, 8, 9, 11, 13, ...; "
				       "missing switches are not recognised)",
				       n);
	c->q = q;
	c->degree = (uint32_t)(3 * (int)q - delta) / 2;
	c->missing_ends = 0;
	c->short_switch = LANES_NONE;
	for (uint32_t u = 0; u < n; u++) {
		uint32_t d = g->off[u + 1] - g->off[u];

		if (d > c->degree)
			return lanes_error_set(err, LANES_EINVAL,
					       "not a Slim Fly: switch %u ('%.60s') has %u neighbour "
					       "switches, the Slim Fly of q=%u has %u",
					       u, f->nodes[f->switches[u]].desc, d, q, c->degree);
		if (d < c->degree && c->short_switch == LANES_NONE)
			c->short_switch = u;
		c->missing_ends += c->degree - d;
	}
	return 0;
}

/*
 * Steps 2 and 3: an isomorphism onto the reference, into s->reference_of.
 * Fabric switch 0 goes to (0, 0, 0) or (1, 0, 0) (translations, see the
 * header).
 */
static int find_labelling(struct sf_search *s, unsigned q, struct lanes_error *err)
{
	uint32_t *colour = calloc(2 * (size_t)s->n, sizeof(*colour));
	uint32_t *child = malloc(2 * (size_t)s->n * sizeof(*child)), colours = 1;
	int rc = SEARCH_NONE;

	if (!colour || !child) {
		free(colour);
		free(child);
		return lanes_error_oom(err);
	}
	if (refine(s, colour, &colours))
		for (uint32_t t = 0; t < 2 && rc == SEARCH_NONE; t++)
			if (colour[0] == colour[s->n + t * q * q])
				rc = try_pair(s, colour, colours, 0, s->n + t * q * q, child);
	free(colour);
	free(child);
	if (rc == LANES_ENOMEM)
		return lanes_error_oom(err);
	if (rc == SEARCH_GAVE_UP)
		return lanes_error_set(err, LANES_EINVAL,
				       "not recognised as a Slim Fly: no MMS labelling for q=%u found "
				       "within %u refinements",
				       q, search_budget(s->n));
	if (rc == SEARCH_NONE)
		return lanes_error_set(err, LANES_EINVAL,
				       "not a Slim Fly: %u switches of degree %u, but not the MMS "
				       "graph of q=%u",
				       s->n, s->off[1] - s->off[0], q);
	return 0;
}

/*
 * Steps 2 and 3 on g: an MMS labelling into reference_of, within and
 * from *refinements_left. 0, LANES_EINVAL or LANES_ENOMEM
 */
static int label_graph(const struct lanes_switch_graph *g, const struct mms *reference,
		       uint32_t *reference_of, uint32_t *refinements_left,
		       struct lanes_error *err)
{
	struct sf_search search_state = { 0 };
	int rc;

	search_state.refinements_left = *refinements_left;
	if (!(rc = search_init(&search_state, g, reference, err)) &&
	    !(rc = find_labelling(&search_state, reference->q, err)))
		memcpy(reference_of, search_state.reference_of,
		       (size_t)g->num_switches * sizeof(*reference_of));
	*refinements_left = search_state.refinements_left;
	search_free(&search_state);
	return rc;
}

/* ------------------------------------------------------------ missing cables */

/*
 * A Slim Fly with a few missing cables: its short switches, one entry per
 * missing cable end (ascending), are paired up in every way that adds no
 * cable twice, and each completed graph is labelled until one is an MMS
 * graph. The labelling then holds for the surviving cables too.
 */
struct sf_completion {
	const struct lanes_switch_graph *g;
	const struct mms *reference;
	uint32_t *end;        /* per missing cable end: its switch */
	uint32_t *partner;    /* per end: the end it is paired with, or LANES_NONE */
	uint32_t num_ends;
	uint32_t completions_left;
	uint32_t refinements_left; /* shared by all completions */
	uint32_t *reference_of; /* the result */
};

/* g with the paired ends cabled, as a new switch graph. */
static int completed_graph(const struct sf_completion *c, struct lanes_switch_graph *h,
			   struct lanes_error *err)
{
	const struct lanes_switch_graph *g = c->g;
	uint32_t n = g->num_switches, k = 0;

	h->num_switches = n;
	h->off = malloc(((size_t)n + 1) * sizeof(*h->off));
	h->nbr = malloc(((size_t)g->off[n] + c->num_ends + 1) * sizeof(*h->nbr));
	if (!h->off || !h->nbr)
		return lanes_error_oom(err);
	for (uint32_t u = 0; u < n; u++) {
		h->off[u] = k;
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++)
			h->nbr[k++] = g->nbr[e];
		for (uint32_t i = 0; i < c->num_ends; i++)
			if (c->end[i] == u)
				h->nbr[k++] = c->end[c->partner[i]];
		qsort(h->nbr + h->off[u], k - h->off[u], sizeof(*h->nbr), lanes_cmp_u32);
	}
	h->off[n] = k;
	return 0;
}

/* May end i be paired with end j? Different, not yet cabled, not yet paired switches. */
static int may_pair(const struct sf_completion *c, uint32_t i, uint32_t j)
{
	uint32_t u = c->end[i], v = c->end[j];

	if (c->partner[j] != LANES_NONE || u == v || lanes_switch_graph_adjacent(c->g, u, v))
		return 0;
	if (j > i + 1 && c->end[j - 1] == v && c->partner[j - 1] == LANES_NONE)
		return 0; /* the same as pairing with end j - 1 */
	for (uint32_t a = 0; a < c->num_ends; a++)
		if (c->partner[a] != LANES_NONE && c->end[a] == u && c->end[c->partner[a]] == v)
			return 0;
	return 1;
}

/* Pair the remaining ends in every way. @return 0 labelled, LANES_EINVAL none, or an error */
static int complete(struct sf_completion *c, struct lanes_error *err)
{
	struct lanes_switch_graph h = { 0 };
	uint32_t i = 0;
	int rc = LANES_EINVAL;

	while (i < c->num_ends && c->partner[i] != LANES_NONE)
		i++;
	if (i == c->num_ends) {
		if (!c->completions_left)
			return LANES_EINVAL;
		c->completions_left--;
		if (!(rc = completed_graph(c, &h, err)))
			rc = label_graph(&h, c->reference, c->reference_of, &c->refinements_left,
					 err);
		lanes_switch_graph_free(&h);
		return rc;
	}
	for (uint32_t j = i + 1; j < c->num_ends && rc == LANES_EINVAL; j++) {
		if (!may_pair(c, i, j))
			continue;
		c->partner[i] = j;
		c->partner[j] = i;
		rc = complete(c, err);
		c->partner[i] = c->partner[j] = LANES_NONE;
	}
	return rc;
}

/* Label a Slim Fly whose cable ends counts->missing_ends are missing. */
static int label_with_missing(const struct lanes_fabric *f, const struct lanes_switch_graph *g,
			      const struct mms *reference, const struct sf_counts *counts,
			      uint32_t *reference_of, struct lanes_error *err)
{
	struct sf_completion c = { g,
				   reference,
				   NULL,
				   NULL,
				   counts->missing_ends,
				   MAX_COMPLETIONS,
				   search_budget(g->num_switches),
				   reference_of };
	uint32_t u = counts->short_switch, k = 0;
	int rc;

	if (counts->missing_ends % 2 || counts->missing_ends > 2 * MAX_MISSING_CABLES)
		return lanes_error_set(
			err, LANES_EINVAL,
			"not a Slim Fly: switch %u ('%.60s') has %u neighbour switches, the Slim Fly "
			"of q=%u has %u on every switch; %u cable ends are missing, at most %u "
			"missing cables are looked for",
			u, f->nodes[f->switches[u]].desc, g->off[u + 1] - g->off[u], counts->q,
			counts->degree, counts->missing_ends, MAX_MISSING_CABLES);
	c.end = malloc(counts->missing_ends * sizeof(*c.end));
	c.partner = malloc(counts->missing_ends * sizeof(*c.partner));
	if (!c.end || !c.partner) {
		rc = lanes_error_oom(err);
		goto out;
	}
	for (uint32_t v = 0; v < g->num_switches; v++)
		for (uint32_t d = g->off[v + 1] - g->off[v]; d < counts->degree; d++)
			c.end[k++] = v;
	for (uint32_t i = 0; i < c.num_ends; i++)
		c.partner[i] = LANES_NONE;
	rc = complete(&c, err);
	if (rc == LANES_EINVAL)
		rc = lanes_error_set(err, LANES_EINVAL,
				     "not a Slim Fly: %u cables short of the MMS graph of q=%u (switch "
				     "%u ('%.60s') has %u of %u neighbours), and %s",
				     c.num_ends / 2, counts->q, u, f->nodes[f->switches[u]].desc,
				     g->off[u + 1] - g->off[u], counts->degree,
				     c.completions_left && c.refinements_left
					     ? "no way of adding them back gives it"
					     : "no way of adding them back that was tried gives it "
					       "(the search gave up)");
out:
	free(c.end);
	free(c.partner);
	return rc;
}

/* ------------------------------------------------------------ the structure */

/* The structure from the labelling: coordinates of each switch's image. */
static int fill_structure(struct lanes_structure *s, uint32_t n, const uint32_t *reference_of,
			  const struct mms *reference, uint32_t missing_cables,
			  struct lanes_error *err)
{
	s->coord = malloc(3 * (size_t)n * sizeof(*s->coord));
	if (!s->coord)
		return lanes_error_oom(err);
	s->kind = LANES_STRUCTURE_SLIMFLY;
	s->num_switches = n;
	s->num_dims = 3;
	s->extent[0] = 2;
	s->extent[1] = s->extent[2] = reference->q;
	s->slimfly_q = reference->q;
	for (uint32_t u = 0; u < n; u++) {
		unsigned t, x, y;

		mms_coords(reference, reference_of[u], &t, &x, &y);
		s->coord[3 * (size_t)u + 0] = t;
		s->coord[3 * (size_t)u + 1] = x;
		s->coord[3 * (size_t)u + 2] = y;
	}
	snprintf(s->note, sizeof(s->note),
		 "Slim Fly (MMS graph) of q=%u, delta %d: %u switches, %u MMS links not cabled",
		 reference->q, reference->delta, n, missing_cables);
	return 0;
}

int lanes_recognize_slimfly(const struct lanes_fabric *f, struct lanes_structure *s,
			    struct lanes_error *err)
{
	struct lanes_switch_graph g = { 0 };
	struct mms reference = { 0 };
	struct sf_counts counts = { 0 };
	uint32_t *reference_of = NULL, budget;
	int rc;

	memset(s, 0, sizeof(*s));
	if ((rc = lanes_switch_graph_build(f, &g, err)) ||
	    (rc = check_counts(f, &g, &counts, err)) ||
	    (rc = lanes_mms_build(&reference, counts.q, err)))
		goto out;
	if (!(reference_of = malloc((size_t)f->num_switches * sizeof(*reference_of)))) {
		rc = lanes_error_oom(err);
		goto out;
	}
	budget = search_budget(g.num_switches);
	rc = counts.missing_ends
		     ? label_with_missing(f, &g, &reference, &counts, reference_of, err)
		     : label_graph(&g, &reference, reference_of, &budget, err);
	if (!rc)
		rc = fill_structure(s, f->num_switches, reference_of, &reference,
				    counts.missing_ends / 2, err);
out:
	if (rc)
		lanes_structure_free(s);
	free(reference_of);
	lanes_mms_free(&reference);
	lanes_switch_graph_free(&g);
	return rc;
}
