/*
 * dfsssp_cdg.c - the channel dependency graph of the dfsssp engine's path
 * units (dfsssp/dfsssp.c; Domke, Hoefler, Nagel, "Deadlock-Free Oblivious
 * Routing for Arbitrary Topologies", IPDPS 2011; OpenSM 3.3.23
 * osm_ucast_dfsssp.c). Facts only, no code taken. Shared state: dfsssp_internal.h.
 *
 * Each dependency keeps the units that make it (OpenSM keeps LID pairs)
 * and its LID pairs per layer. The dependencies some unit makes are listed
 * by cdg/cycles.h (lanes_route_deps_list, d->deps) and numbered by their
 * place there, which is by (switch, in port, out port), so a channel's
 * out-dependencies are one run of numbers.
 *
 * On large fabrics (DFSSSP_SPLIT_MIN switches) the units split in two
 * halves, one per thread, for the three passes over their references: mark
 * the dependencies used, renumber and count them, list each dependency's
 * units. The second half counts apart and lists its units after the first
 * half's, so every list is in unit order, as one thread makes it.
 */
#include <stdlib.h>

#include "core/util.h"
#include "route/dfsssp/dfsssp_internal.h"

/* One thread's units [u0, u1): their references are unit_deps[unit[u0].off .. unit[u1].off). */
struct part {
	struct dfsssp *d;
	uint32_t u0, u1;
	int pass;
	uint8_t *mark;   /* pass 1: per dependency number, 1 when one of its units makes it */
	uint32_t *count; /* pass 2: its references per dependency; then where its next unit goes */
	uint64_t *cnt;   /* pass 3: its LID pairs per dependency */
	uint64_t paths;  /* pass 3: its LID pairs */
};

/* Pass 1: mark the dependencies the part's units make (by dependency number). */
static void mark_used(struct part *p, size_t j0, size_t j1)
{
	const uint32_t *dep = p->d->unit_deps;

	for (size_t j = j0; j < j1; j++)
		p->mark[dep[j]] = 1;
}

/*
 * Pass 2: dense numbers to dependency numbers, counted (the other part
 * renumbers its own references meanwhile).
 */
static void renumber(struct part *p, size_t j0, size_t j1)
{
	uint32_t *dep = p->d->unit_deps;
	const uint32_t *eid = p->d->deps.number;

	for (size_t j = j0; j < j1; j++)
		dep[j] = eid[dep[j]];
	for (size_t j = j0; j < j1; j++)
		p->count[dep[j]]++;
}

/* Pass 3: each dependency's units, and its LID pairs. */
static void list_units(struct part *p)
{
	struct dfsssp *d = p->d;
	const uint32_t *dep = d->unit_deps;

	for (uint32_t u = p->u0; u < p->u1; u++) {
		p->paths += d->unit[u].w;
		for (uint32_t j = d->unit[u].off; j < d->unit[u + 1].off; j++) {
			d->dep_units[p->count[dep[j]]++] = u;
			p->cnt[dep[j]] += d->unit[u].w;
		}
	}
}

static void *run_part(void *arg)
{
	struct part *p = arg;
	size_t j0 = p->d->unit ? p->d->unit[p->u0].off : 0;
	size_t j1 = p->d->unit ? p->d->unit[p->u1].off : 0;

	if (p->pass == 1)
		mark_used(p, j0, j1);
	else if (p->pass == 2)
		renumber(p, j0, j1);
	else
		list_units(p);
	return NULL;
}

/* Both parts through pass n. */
static void run_pass(struct part *a, struct part *b, int n)
{
	a->pass = b->pass = n;
	lanes_run_pair(run_part, a, b, b->u0 < b->u1);
}

/* List the dependencies some unit makes (cdg/cycles.h), in dependency-number order. */
static int number_dependencies(struct dfsssp *d, struct part *a, struct part *b,
			       struct lanes_error *err)
{
	size_t nd = d->ch.ndeps;

	if (!(a->mark = calloc(nd + 1, 1)) || (b->u0 < b->u1 && !(b->mark = calloc(nd + 1, 1))))
		return lanes_error_oom(err);
	run_pass(a, b, 1);
	for (size_t i = 0; b->mark && i < nd; i++)
		a->mark[i] |= b->mark[i];
	return lanes_route_deps_list(&d->deps, &d->ch, a->mark, 1, err);
}

/* Each dependency's first place in dep_units; where each part lists its units from. */
static void place_lists(struct dfsssp *d, struct part *a, struct part *b)
{
	for (uint32_t k = 0; k < d->deps.n; k++) {
		uint32_t na = a->count[k], nb = b->count ? b->count[k] : 0;

		d->dep_units_off[k + 1] = d->dep_units_off[k] + na + nb;
		a->count[k] = (uint32_t)d->dep_units_off[k];
		if (b->count)
			b->count[k] = (uint32_t)d->dep_units_off[k] + na;
	}
}

static int alloc_lists(struct dfsssp *d, struct part *a, struct part *b, struct lanes_error *err)
{
	size_t n = (size_t)d->deps.n + 1;

	d->dep_units_off = route_zalloc(&d->arena, sizeof(*d->dep_units_off) * (n + 1));
	d->dep_units = route_alloc(&d->arena, sizeof(*d->dep_units) * (d->ndep_refs + 1));
	d->layer_pairs[0] = route_zalloc(&d->arena, sizeof(uint64_t) * n);
	d->layer = route_zalloc(&d->arena, (size_t)d->nunits + 1);
	a->count = calloc(n, sizeof(*a->count));
	a->cnt = d->layer_pairs[0];
	if (!d->dep_units_off || !d->dep_units || !d->layer_pairs[0] || !d->layer || !a->count)
		return lanes_error_oom(err);
	if (b->u0 < b->u1 && (!(b->count = calloc(n, sizeof(*b->count))) ||
			      !(b->cnt = calloc(n, sizeof(uint64_t)))))
		return lanes_error_oom(err);
	return 0;
}

static int build(struct dfsssp *d, struct part *a, struct part *b, struct lanes_error *err)
{
	int rc;

	if ((rc = number_dependencies(d, a, b, err)) || (rc = alloc_lists(d, a, b, err)))
		return rc;
	run_pass(a, b, 2);
	place_lists(d, a, b);
	run_pass(a, b, 3);
	for (uint32_t k = 0; b->cnt && k < d->deps.n; k++)
		d->layer_pairs[0][k] += b->cnt[k];
	d->paths[0] += a->paths + b->paths;
	d->nlayers = 1;
	return 0;
}

/* Dependencies by number in the units; each dependency's units; layer 0's counts. */
int lanes_dfsssp_build_cdg(struct dfsssp *d, struct lanes_error *err)
{
	struct part a = { .d = d }, b = { .d = d };
	int rc;

	a.u1 = b.u0 = dfsssp_two_threads(d) ? d->nunits / 2 : d->nunits;
	b.u1 = d->nunits;
	rc = build(d, &a, &b, err);
	free(a.count);
	free(b.count);
	free(a.mark);
	free(b.mark);
	free(b.cnt);
	return rc;
}
