/*
 * dfsssp_cdg.c - the channel dependency graph of the dfsssp engine's path
 * units (dfsssp/dfsssp.c; Domke, Hoefler, Nagel, "Deadlock-Free Oblivious
 * Routing for Arbitrary Topologies", IPDPS 2011; OpenSM 3.3.23
 * osm_ucast_dfsssp.c). Facts only, no code taken. Shared state: dfsssp_internal.h.
 *
 * Each dependency keeps the units that make it (OpenSM keeps LID pairs)
 * and its LID pairs per layer. Dependencies are numbered by (switch, in
 * port, out port), so a channel's out-edges are one run of numbers.
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
	uint8_t *mark;   /* pass 1: the dense dependencies it makes, or NULL: into d->dep_number */
	uint32_t *count; /* pass 2: its references per dependency; then where its next unit goes */
	uint64_t *cnt;   /* pass 3: its LID pairs per dependency */
	uint64_t paths;  /* pass 3: its LID pairs */
};

/* Pass 1: mark the dense dependencies the part's units make. */
static void mark_used(struct part *p, size_t j0, size_t j1)
{
	const uint32_t *dep = p->d->unit_deps;

	uint8_t *mark = p->mark;

	if (!mark) {
		for (size_t j = j0; j < j1; j++)
			p->d->dep_number[dep[j]] = 1;
		return;
	}
	for (size_t j = j0; j < j1; j++)
		mark[dep[j]] = 1;
}

/*
 * Pass 2: dense numbers to dependency numbers, counted (the other part
 * renumbers its own references meanwhile).
 */
static void renumber(struct part *p, size_t j0, size_t j1)
{
	uint32_t *dep = p->d->unit_deps;
	const uint32_t *eid = p->d->dep_number;

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

/* Number the dependencies some unit makes, in dense order, with their channels. */
static int number_dependencies(struct dfsssp *d, struct part *a, struct part *b,
			       struct lanes_error *err)
{
	const struct lanes_fabric *f = d->f;
	size_t nd = d->ch.dense_off[d->ns];

	if (!(d->dep_number = route_zalloc(&d->arena, sizeof(*d->dep_number) * (nd + 1))) ||
	    !(d->chan_deps_off = route_alloc(&d->arena, sizeof(*d->chan_deps_off) * ((size_t)d->ch.E + 1))) ||
	    (b->u0 < b->u1 && !(b->mark = calloc(nd + 1, 1))))
		return lanes_error_oom(err);
	run_pass(a, b, 1);
	for (size_t i = 0; b->mark && i < nd; i++)
		d->dep_number[i] |= b->mark[i];
	for (size_t i = 0; i < nd; i++)
		d->ndeps += d->dep_number[i];
	d->dep_in = route_alloc(&d->arena, sizeof(*d->dep_in) * ((size_t)d->ndeps + 1));
	d->dep_out = route_alloc(&d->arena, sizeof(*d->dep_out) * ((size_t)d->ndeps + 1));
	if (!d->dep_in || !d->dep_out)
		return lanes_error_oom(err);
	for (uint32_t x = 0, k = 0; x < d->ns; x++) {
		uint32_t a0 = f->adj_off[x], deg = f->adj_off[x + 1] - a0;

		for (uint32_t i = 0; i < deg; i++) {
			d->chan_deps_off[a0 + i] = k;
			for (uint32_t o = 0; o < deg; o++) {
				uint32_t *id = &d->dep_number[d->ch.dense_off[x] + (size_t)i * deg + o];

				if (!*id) {
					*id = LANES_NONE;
					continue;
				}
				d->dep_in[k] = d->ch.rev[a0 + i];
				d->dep_out[k] = a0 + o;
				*id = k++;
			}
		}
	}
	d->chan_deps_off[d->ch.E] = d->ndeps;
	return 0;
}

/* Each dependency's first place in dep_units; where each part lists its units from. */
static void place_lists(struct dfsssp *d, struct part *a, struct part *b)
{
	for (uint32_t k = 0; k < d->ndeps; k++) {
		uint32_t na = a->count[k], nb = b->count ? b->count[k] : 0;

		d->dep_units_off[k + 1] = d->dep_units_off[k] + na + nb;
		a->count[k] = (uint32_t)d->dep_units_off[k];
		if (b->count)
			b->count[k] = (uint32_t)d->dep_units_off[k] + na;
	}
}

static int alloc_lists(struct dfsssp *d, struct part *a, struct part *b, struct lanes_error *err)
{
	size_t n = (size_t)d->ndeps + 1;

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
	for (uint32_t k = 0; b->cnt && k < d->ndeps; k++)
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
	free(b.mark);
	free(b.cnt);
	return rc;
}
