/*
 * dfsssp_split.c - the dfsssp engine's work per destination switch on the
 * threads opts->threads allows (dfsssp/dfsssp.c: the path SLs; shared
 * state: dfsssp_internal.h), and the views that dfsssp_overlap.c uses too.
 * What is done toward one destination switch t reads the LFTs, the switch
 * distances and the layers, and writes only t's own cells (its units, its
 * SL cells), so the destinations split in ranges of about as many end-port
 * LIDs each: the first on the calling thread with its own state, each
 * other one on a "view", a copy of the state that shares every read-only
 * field and has its own scratch and its own unit lists. Each cell is
 * written by one range whatever the ranges, so the output is the same for
 * any thread count.
 */
#include <stdlib.h>
#include <string.h>

#include "route/dfsssp/dfsssp_internal.h"
#include "core/util.h"

/* One worker's destinations [t0, t1), on its own view v. */
struct range {
	struct dfsssp *v;
	uint32_t t0, t1;
	int rc;
	struct lanes_error err;
};

struct ranges {
	struct range *r;
	dfsssp_dest_fn fn;
	void *arg;
};

static void run_range(void *ctx, unsigned k)
{
	const struct ranges *all = ctx;
	struct range *r = &all->r[k];

	for (uint32_t t = r->t0; t < r->t1 && !r->rc; t++)
		if (dfsssp_lids_at(r->v, t))
			r->rc = all->fn(r->v, t, all->arg, &r->err);
}

/* The first destination of range k of n: k / n of the end-port LIDs lie before it. */
static uint32_t range_start(const struct dfsssp *d, unsigned k, unsigned n)
{
	uint64_t total = d->dst_off[d->ns];
	uint32_t t = 0;

	if (!k)
		return 0;
	while (t < d->ns && (uint64_t)n * d->dst_off[t + 1] <= k * total)
		t++;
	return t;
}

/* w: d's read-only fields, fresh scratch from its own arena, no units of its own. */
int lanes_dfsssp_view_init(struct dfsssp *w, const struct dfsssp *d, struct lanes_error *err)
{
	*w = *d;
	lanes_route_arena_init(&w->arena, NULL, 0);
	w->q = NULL;
	w->unit = NULL;
	w->unit_deps = NULL;
	w->nunits = 0;
	w->u_cap = w->dep_cap = w->ndep_refs = 0;
	memset(w->paths, 0, sizeof(w->paths));
	return lanes_dfsssp_alloc_scratch(w, err);
}

void lanes_dfsssp_view_free(struct dfsssp *w)
{
	free(w->unit);
	free(w->unit_deps);
	lanes_route_arena_free(&w->arena);
	memset(w, 0, sizeof(*w));
}

/*
 * fn(v, t, arg) for every destination switch t with end ports: on d, and on
 * views of d on more threads when the fabric takes them (workers). The
 * first error in destination order wins.
 */
int lanes_dfsssp_split(struct dfsssp *d, dfsssp_dest_fn fn, void *arg, struct lanes_error *err)
{
	unsigned n = dfsssp_workers(d), k;
	struct range *r = calloc(n, sizeof(*r));
	struct dfsssp *views = calloc(n, sizeof(*views));
	struct ranges all = { r, fn, arg };
	int rc = 0;

	if (!r || !views) {
		free(r);
		free(views);
		return lanes_error_oom(err);
	}
	for (k = 0; k < n && !rc; k++) {
		r[k].v = k ? &views[k] : d;
		r[k].t0 = range_start(d, k, n);
		r[k].t1 = k + 1 < n ? range_start(d, k + 1, n) : d->ns;
		if (k)
			rc = lanes_dfsssp_view_init(&views[k], d, err);
	}
	if (!rc)
		lanes_parallel_run(n, run_range, &all);
	for (k = 0; k < n && !rc; k++)
		if ((rc = r[k].rc))
			*err = r[k].err;
	for (k = 1; k < n; k++)
		lanes_dfsssp_view_free(&views[k]);
	free(views);
	free(r);
	return rc;
}
