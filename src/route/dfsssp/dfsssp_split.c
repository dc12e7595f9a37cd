/*
 * dfsssp_split.c - the dfsssp engine's work per destination switch on two
 * threads (dfsssp/dfsssp.c: the path SLs; shared state: dfsssp_internal.h),
 * and the views that dfsssp_overlap.c uses too. What is done toward one
 * destination switch t reads the LFTs, the switch distances and the layers,
 * and writes only t's own cells (its units, its SL cells), so the
 * destinations split in two ranges: the first on the calling thread with
 * its own state, the second on a "view", a copy of the state that shares
 * every read-only field and has its own scratch and its own unit lists.
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "route/dfsssp/dfsssp_internal.h"


/* One thread's destinations [t0, t1). */
struct half {
	struct dfsssp *v;
	uint32_t t0, t1;
	dfsssp_dest_fn fn;
	void *arg;
	int rc;
	struct lanes_error err;
};

static void *run_half(void *p)
{
	struct half *h = p;

	for (uint32_t t = h->t0; t < h->t1 && !h->rc; t++)
		if (dfsssp_lids_at(h->v, t))
			h->rc = h->fn(h->v, t, h->arg, &h->err);
	return NULL;
}

/* The first destination of the second range: half the end-port LIDs lie before it. */
static uint32_t middle(const struct dfsssp *d)
{
	uint32_t total = d->dst_off[d->ns], t = 0;

	while (t < d->ns && 2 * (uint64_t)d->dst_off[t + 1] <= total)
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
 * a second thread on a view of d (from the middle on) when the fabric takes
 * two threads. The first error in destination order wins.
 */
int lanes_dfsssp_split(struct dfsssp *d, dfsssp_dest_fn fn, void *arg, struct lanes_error *err)
{
	struct half a = { .v = d, .t0 = 0, .t1 = d->ns, .fn = fn, .arg = arg }, b = a;
	struct dfsssp w;
	int rc;

	if (!dfsssp_two_threads(d)) {
		run_half(&a);
		if (a.rc)
			*err = a.err;
		return a.rc;
	}
	if ((rc = lanes_dfsssp_view_init(&w, d, err))) {
		lanes_dfsssp_view_free(&w);
		return rc;
	}
	a.t1 = b.t0 = middle(d);
	b.v = &w;
	lanes_run_pair(run_half, &a, &b, b.t0 < b.t1);
	lanes_dfsssp_view_free(&w);
	if (a.rc)
		*err = a.err;
	else if (b.rc)
		*err = b.err;
	return a.rc ? a.rc : b.rc;
}
