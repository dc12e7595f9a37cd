/*
 * jellyfish.c - Jellyfish (Singla, Hong, Popa, Godfrey, "Jellyfish:
 * networking data centers randomly", NSDI 2012, Sec. 3): a random
 * degree-regular graph of switches, p hosts per switch.
 *
 * Construction, as the paper describes it: repeatedly join a random pair of
 * switches that both have free ports and are not yet linked (we draw the two
 * switches uniformly from those with free ports; once random draws keep
 * failing, all joinable pairs are listed and one is drawn from them). When no
 * pair can be joined and a switch u still has two free ports, a uniformly
 * random existing link (x, y) is removed and (u, x), (u, y) are added. The
 * paper leaves two cases open, which we close: links (x, y) that would make a
 * parallel cable or a self-loop are never chosen; and when the free ports are
 * single ports on two switches u, v that are already linked, a link (x, y) is
 * replaced by (u, x) and (v, y). The result is a simple graph, every switch of
 * degree exactly `degree` (switches*degree even). A disconnected result, or a
 * rare dead end, is thrown away and the construction runs again with the
 * generator's next draws, up to MAX_ATTEMPTS times; so the fabric is a pure
 * function of the parameters and the seed (struct lanes_rng, xoshiro256**).
 *
 * Numbering: switch i is labelled "s<i>"; ports 1..p are hosts, ports
 * p+1..p+degree go to the switch's neighbours in ascending switch order.
 * Switches, then cables, then hosts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "gen.h"
#include "generators.h"
#include "params.h"

#define KIND "jellyfish"
#define USAGE "switches=N degree=N p=N [seed=N]"
#define MAX_ATTEMPTS 1000

struct jf {
	uint32_t n, r;
	uint32_t *nbr;    /* n*r: neighbours of each switch, deg[] of them in use */
	uint32_t *deg;    /* n */
	uint32_t *edges;  /* 2 per link */
	size_t nedges;
	uint32_t *freel;  /* switches with free ports */
	uint32_t *fpos;   /* where each switch sits in freel, or UINT32_MAX */
	uint32_t nfree;
	uint32_t *queue;  /* n: scratch for the connectivity check */
	struct lanes_rng rng;
};

static int adjacent(const struct jf *j, uint32_t u, uint32_t v)
{
	for (uint32_t i = 0; i < j->deg[u]; i++)
		if (j->nbr[(size_t)u * j->r + i] == v)
			return 1;
	return 0;
}

static void update_free(struct jf *j, uint32_t u)
{
	int want = j->deg[u] < j->r, is = j->fpos[u] != UINT32_MAX;

	if (want && !is) {
		j->fpos[u] = j->nfree;
		j->freel[j->nfree++] = u;
	} else if (!want && is) {
		uint32_t last = j->freel[--j->nfree];

		j->freel[j->fpos[u]] = last;
		j->fpos[last] = j->fpos[u];
		j->fpos[u] = UINT32_MAX;
	}
}

static void add_link(struct jf *j, uint32_t u, uint32_t v)
{
	j->nbr[(size_t)u * j->r + j->deg[u]++] = v;
	j->nbr[(size_t)v * j->r + j->deg[v]++] = u;
	j->edges[2 * j->nedges] = u;
	j->edges[2 * j->nedges + 1] = v;
	j->nedges++;
	update_free(j, u);
	update_free(j, v);
}

static void drop_nbr(struct jf *j, uint32_t u, uint32_t v)
{
	uint32_t *l = &j->nbr[(size_t)u * j->r];

	for (uint32_t i = 0; i < j->deg[u]; i++)
		if (l[i] == v) {
			l[i] = l[--j->deg[u]];
			break;
		}
	update_free(j, u);
}

static void unlink_edge(struct jf *j, size_t e)
{
	uint32_t x = j->edges[2 * e], y = j->edges[2 * e + 1];

	j->nedges--;
	j->edges[2 * e] = j->edges[2 * j->nedges];
	j->edges[2 * e + 1] = j->edges[2 * j->nedges + 1];
	drop_nbr(j, x, y);
	drop_nbr(j, y, x);
}

/* The number of joinable pairs of free switches; the k-th of them in *u, *v. */
static uint64_t joinable(const struct jf *j, uint64_t k, uint32_t *u, uint32_t *v)
{
	uint64_t count = 0;

	for (uint32_t a = 0; a < j->nfree; a++)
		for (uint32_t b = a + 1; b < j->nfree; b++)
			if (!adjacent(j, j->freel[a], j->freel[b]) && count++ == k) {
				*u = j->freel[a];
				*v = j->freel[b];
			}
	return count;
}

/* Join one random joinable pair; 0 when there is none. */
static int try_join(struct jf *j)
{
	uint64_t tries = 4 * (uint64_t)j->nfree + 16, count;
	uint32_t u = 0, v = 0;

	if (j->nfree < 2)
		return 0;
	while (tries--) {
		u = j->freel[lanes_rng_below(&j->rng, j->nfree)];
		v = j->freel[lanes_rng_below(&j->rng, j->nfree)];
		if (u != v && !adjacent(j, u, v)) {
			add_link(j, u, v);
			return 1;
		}
	}
	if (!(count = joinable(j, UINT64_MAX, &u, &v)))
		return 0;
	joinable(j, lanes_rng_below(&j->rng, count), &u, &v);
	add_link(j, u, v);
	return 1;
}

/*
 * Can link e = (x, y) be replaced by (u, x), (v, y)? 1 if so, 2 if by
 * (u, y), (v, x), else 0. u == v when one switch has two free ports.
 */
static int fits(const struct jf *j, uint32_t u, uint32_t v, size_t e)
{
	uint32_t x = j->edges[2 * e], y = j->edges[2 * e + 1];

	if (x == u || x == v || y == u || y == v)
		return 0;
	if (!adjacent(j, u, x) && !adjacent(j, v, y))
		return 1;
	return !adjacent(j, u, y) && !adjacent(j, v, x) ? 2 : 0;
}

/* The number of links that fit; the k-th of them in *e. */
static uint64_t fitting(const struct jf *j, uint32_t u, uint32_t v, uint64_t k, size_t *e)
{
	uint64_t count = 0;

	for (size_t i = 0; i < j->nedges; i++)
		if (fits(j, u, v, i) && count++ == k)
			*e = i;
	return count;
}

/* Free ports that cannot be joined: rewire one random link around them. */
static int repair(struct jf *j)
{
	uint32_t u = j->freel[0], v, x, y;
	size_t e = 0;
	int how = 0, tries = 64;
	uint64_t count;

	for (uint32_t i = 0; i < j->nfree; i++)
		if (j->r - j->deg[j->freel[i]] >= 2) {
			u = j->freel[i];
			break;
		}
	if (j->r - j->deg[u] < 2 && j->nfree < 2)
		return -1; /* one free port in all: switches*degree was odd */
	v = j->r - j->deg[u] >= 2 ? u : j->freel[j->freel[0] == u ? 1 : 0];
	while (tries-- && j->nedges &&
	       !(how = fits(j, u, v, e = lanes_rng_below(&j->rng, j->nedges))))
		;
	if (!how) {
		if (!(count = fitting(j, u, v, UINT64_MAX, &e)))
			return -1;
		fitting(j, u, v, lanes_rng_below(&j->rng, count), &e);
		how = fits(j, u, v, e);
	}
	x = j->edges[2 * e + (how == 2)];
	y = j->edges[2 * e + (how != 2)];
	unlink_edge(j, e);
	add_link(j, u, x);
	add_link(j, v, y);
	return 0;
}

/* One try at a degree-regular graph (connectivity is checked apart); 0 on success. */
static int attempt(struct jf *j)
{
	memset(j->deg, 0, j->n * sizeof(*j->deg));
	j->nedges = 0;
	j->nfree = 0;
	for (uint32_t u = 0; u < j->n; u++) {
		j->fpos[u] = UINT32_MAX;
		update_free(j, u);
	}
	while (j->nfree)
		if (!try_join(j) && repair(j))
			return -1;
	return 0;
}

static int connected(struct jf *j)
{
	uint32_t head = 0, tail = 0;

	memset(j->fpos, 0, j->n * sizeof(*j->fpos)); /* reused as "seen" */
	j->queue[tail++] = 0;
	j->fpos[0] = 1;
	while (head < tail) {
		uint32_t u = j->queue[head++];

		for (uint32_t i = 0; i < j->r; i++) {
			uint32_t v = j->nbr[(size_t)u * j->r + i];

			if (!j->fpos[v]) {
				j->fpos[v] = 1;
				j->queue[tail++] = v;
			}
		}
	}
	return tail == j->n;
}

/* What no degree-regular connected graph, or no fabric, can satisfy. */
static int check_params(struct lanes_params *prm, uint64_t n, uint64_t r, uint64_t hosts, struct lanes_error *err)
{
	char what[96];
	int rc;

	if (r >= n)
		return lanes_error_set(err, LANES_EINVAL,
				       "%s: parameter 'degree' must be less than 'switches' (%llu), "
				       "not %llu",
				       KIND, (unsigned long long)n, (unsigned long long)r);
	if (n * r % 2)
		return lanes_error_set(err, LANES_EINVAL,
				       "%s: parameters 'switches' and 'degree' must have an even "
				       "product (a cable takes two ports), not %llu*%llu",
				       KIND, (unsigned long long)n, (unsigned long long)r);
	if (r == 1 && n > 2)
		return lanes_error_set(err, LANES_EINVAL,
				       "%s: parameter 'degree' must be at least 2 for more than 2 "
				       "switches (a 1-regular graph is disconnected)",
				       KIND);
	snprintf(what, sizeof(what), "parameters 'switches' and 'p' (switches=%llu p=%llu)",
		 (unsigned long long)n, (unsigned long long)hosts);
	if ((rc = lanes_gen_check_lids(prm, KIND, what, n, lanes_gen_sat_mul(n, hosts), err)))
		return rc;
	return lanes_gen_check_radix(KIND, hosts + r, "'p' hosts + 'degree' network ports", err);
}

static int read_params(struct lanes_params *prm, struct jf *j, unsigned *p, uint64_t *seed,
		       struct lanes_error *err)
{
	uint64_t n, r, hosts;
	int rc;

	if ((rc = lanes_params_uint(prm, "switches", LANES_PARAM_REQUIRED, 2,
				    LANES_LID_MAX, &n, err)) ||
	    (rc = lanes_params_uint(prm, "degree", LANES_PARAM_REQUIRED, 1, 254, &r, err)) ||
	    (rc = lanes_params_uint(prm, "p", LANES_PARAM_REQUIRED, 0, 254, &hosts, err)) ||
	    (rc = lanes_params_uint(prm, "seed", 0, 0, UINT64_MAX - 1, seed, err)) ||
	    (rc = check_params(prm, n, r, hosts, err)))
		return rc;
	j->n = (uint32_t)n;
	j->r = (uint32_t)r;
	*p = (unsigned)hosts;
	return 0;
}

static int alloc_graph(struct jf *j, struct lanes_error *err)
{
	j->nbr = malloc((size_t)j->n * j->r * sizeof(*j->nbr));
	j->edges = malloc((size_t)j->n * j->r * sizeof(*j->edges));
	j->deg = malloc(j->n * sizeof(*j->deg));
	j->freel = malloc(j->n * sizeof(*j->freel));
	j->fpos = malloc(j->n * sizeof(*j->fpos));
	j->queue = malloc(j->n * sizeof(*j->queue));
	if (!j->nbr || !j->edges || !j->deg || !j->freel || !j->fpos || !j->queue)
		return lanes_error_oom(err);
	return 0;
}

static void free_graph(struct jf *j)
{
	free(j->nbr);
	free(j->edges);
	free(j->deg);
	free(j->freel);
	free(j->fpos);
	free(j->queue);
}

static int build_graph(struct jf *j, uint64_t seed, struct lanes_error *err)
{
	lanes_rng_seed(&j->rng, seed);
	for (int i = 0; i < MAX_ATTEMPTS; i++)
		if (!attempt(j) && connected(j))
			return 0;
	return lanes_error_set(err, LANES_EINVAL,
			       "%s: no connected %u-regular graph on %u switches in %d attempts "
			       "from 'seed' %llu; try another 'seed' or a larger 'degree'",
			       KIND, j->r, j->n, MAX_ATTEMPTS, (unsigned long long)seed);
}

/* Index of v in u's sorted neighbour list. */
static uint32_t port_index(const struct jf *j, uint32_t u, uint32_t v)
{
	return lanes_lower_bound(&j->nbr[(size_t)u * j->r], j->r, v);
}

static int add_fabric(struct jf *j, struct gen *g, unsigned p, struct lanes_error *err)
{
	uint32_t first = 0, node;
	char label[32];
	int rc;

	for (uint32_t u = 0; u < j->n; u++) {
		qsort(&j->nbr[(size_t)u * j->r], j->r, sizeof(uint32_t), lanes_cmp_u32);
		snprintf(label, sizeof(label), "s%u", u);
		if ((rc = lanes_gen_switch(g, p + j->r, label, &node, err)))
			return rc;
		first = u ? first : node;
	}
	for (uint32_t u = 0; u < j->n; u++)
		for (uint32_t i = 0; i < j->r; i++) {
			uint32_t v = j->nbr[(size_t)u * j->r + i];

			if (v > u && (rc = lanes_gen_cable(g, first + u, p + 1 + i, first + v,
						     p + 1 + port_index(j, v, u), err)))
				return rc;
		}
	for (uint32_t u = 0; u < j->n; u++)
		if ((rc = lanes_gen_hosts(g, first + u, 1, p, err)))
			return rc;
	return 0;
}

static int generate(struct lanes_params *prm, struct lanes_builder *b, struct lanes_error *err)
{
	struct jf j;
	struct gen g;
	unsigned p = 0;
	uint64_t seed = 0;
	int rc;

	memset(&j, 0, sizeof(j));
	lanes_gen_init(&g, b, KIND);
	if ((rc = read_params(prm, &j, &p, &seed, err)) || (rc = alloc_graph(&j, err)) ||
	    (rc = build_graph(&j, seed, err)))
		goto out;
	rc = add_fabric(&j, &g, p, err);
out:
	free_graph(&j);
	return rc;
}

const struct lanes_generator lanes_gen_jellyfish = {
	.name = "jellyfish",
	.summary = "random degree-regular switch graph, reproducible from a seed",
	.usage = USAGE,
	.source = "Singla, Hong, Popa, Godfrey, NSDI 2012 (Sec. 3)",
	.generate = generate,
};
