/*
 * dfsssp_overlap.c - the dfsssp engine's path units, made while sssp still
 * routes (dfsssp/dfsssp.c, dfsssp_units.c; shared state: dfsssp_internal.h).
 *
 * lanes_route_sssp() tells each destination switch t as soon as the LFT columns
 * of the end-port LIDs behind t are final (struct sssp_progress), and t's
 * units read only those columns. On large fabrics (DFSSSP_SPLIT_MIN
 * switches) a units thread sets up the state and then makes the units of
 * each destination in that order while lanes_route_sssp goes on with the next
 * ones (its routing keeps one core busy, its helper thread the other only
 * part of the time). Once lanes_route_sssp is done, the caller takes
 * destinations from the other end of the queue, on a view of the state
 * (dfsssp_split.c), until the two meet; its units are then appended in
 * queue order. So units are numbered in sssp's routing order, whichever
 * thread made them and wherever the two met: the result does not depend on
 * the threads. On smaller fabrics the caller does it all, in the same order,
 * unless the paths need one layer (dfsssp_one_fast.c): then it makes no units.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "route/dfsssp/dfsssp_internal.h"
#include "route/sssp/sssp.h"

struct dfsssp_queue {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t thread;
	int threaded;
	uint32_t n;         /* destinations routed so far, in d->t_order (d->nt stays 0) */
	uint32_t lo, hi;    /* the units thread takes t_order[lo++], the caller t_order[--hi] */
	int done;           /* lanes_route_sssp returned: hi is set */
	int ready;          /* the units thread set up the state and the caller's view */
	int stop;           /* an error: both stop */
	int waiting;        /* the units thread waits for a destination */
	struct dfsssp w;    /* the caller's view */
	int rc;             /* the units thread's error, in err */
	struct lanes_error err;
};

/* lanes_route_sssp's progress, on small fabrics: t's end-port LIDs are routed. */
static void routed_here(void *ctx, uint32_t t)
{
	struct dfsssp *d = ctx;

	d->t_order[d->nt++] = t;
}

/* The same with the units thread, which may wait for t. */
static void routed(void *ctx, uint32_t t)
{
	struct dfsssp *d = ctx;
	struct dfsssp_queue *q = d->q;

	pthread_mutex_lock(&q->mu);
	d->t_order[q->n++] = t;
	if (q->waiting)
		pthread_cond_signal(&q->cv);
	pthread_mutex_unlock(&q->mu);
}

/* The units thread failed (rc, in q->err), or the caller stops it (0). */
static void stop_all(struct dfsssp_queue *q, int rc)
{
	pthread_mutex_lock(&q->mu);
	q->stop = 1;
	q->rc = rc;
	pthread_cond_broadcast(&q->cv);
	pthread_mutex_unlock(&q->mu);
}

/* The units thread's next destination, or LANES_NONE when there is none left. */
static uint32_t take_low(struct dfsssp *d)
{
	struct dfsssp_queue *q = d->q;
	uint32_t t = LANES_NONE;

	pthread_mutex_lock(&q->mu);
	while (!q->stop && !q->done && q->lo == q->n) {
		q->waiting = 1;
		pthread_cond_wait(&q->cv, &q->mu);
		q->waiting = 0;
	}
	if (!q->stop && q->lo < q->n && q->lo < q->hi)
		t = d->t_order[q->lo++];
	pthread_mutex_unlock(&q->mu);
	return t;
}

static void *units_thread(void *arg)
{
	struct dfsssp *d = arg;
	struct dfsssp_queue *q = d->q;
	int rc = lanes_dfsssp_units_setup(d, &q->err);

	if (!rc)
		rc = lanes_dfsssp_view_init(&q->w, d, &q->err);
	pthread_mutex_lock(&q->mu);
	q->ready = 1;
	pthread_cond_broadcast(&q->cv);
	pthread_mutex_unlock(&q->mu);
	for (uint32_t t; !rc && (t = take_low(d)) != LANES_NONE;)
		rc = lanes_dfsssp_units_to(d, t, &q->err);
	if (rc)
		stop_all(q, rc);
	return NULL;
}

/* A queue for the units thread (not started yet); 0 or an error. */
static int new_queue(struct dfsssp *d, struct lanes_error *err)
{
	struct dfsssp_queue *q = calloc(1, sizeof(*q));

	if (!q)
		return lanes_error_oom(err);
	if (pthread_mutex_init(&q->mu, NULL)) {
		free(q);
		return lanes_error_oom(err);
	}
	if (pthread_cond_init(&q->cv, NULL)) {
		pthread_mutex_destroy(&q->mu);
		free(q);
		return lanes_error_oom(err);
	}
	q->hi = UINT32_MAX;
	d->q = q;
	return 0;
}

/* Start the units thread on large fabrics; prog receives lanes_route_sssp's progress. */
int lanes_dfsssp_units_begin(struct dfsssp *d, struct sssp_progress *prog, struct lanes_error *err)
{
	int rc;

	if (!(d->t_order = route_alloc(&d->arena, sizeof(*d->t_order) * ((size_t)d->ns + 1))))
		return lanes_error_oom(err);
	*prog = (struct sssp_progress){ routed_here, d };
	if (!dfsssp_two_threads(d))
		return 0;
	if ((rc = new_queue(d, err)))
		return rc;
	d->q->threaded = !pthread_create(&d->q->thread, NULL, units_thread, d);
	if (d->q->threaded)
		*prog = (struct sssp_progress){ routed, d };
	return 0;
}

/*
 * The threads lanes_route_sssp may take while the units thread runs, so
 * that the two together stay within opts->threads: one fewer than asked
 * (at least 1: no helper thread), and with threads 0 (one per core) its
 * own choice where three cores or more leave it room, else 1.
 */
unsigned lanes_dfsssp_sssp_threads(const struct dfsssp *d)
{
	if (!d->q || !d->q->threaded)
		return d->opts->threads;
	if (d->opts->threads)
		return d->opts->threads > 1 ? d->opts->threads - 1 : 1;
	return lanes_threads_for(0, d->ns) >= 3 ? 0 : 1;
}

/* The caller's share, from the top of the queue, on its view; 0 or an error. */
static int take_high(struct dfsssp *d, struct lanes_error *err)
{
	struct dfsssp_queue *q = d->q;
	int rc = 0;

	pthread_mutex_lock(&q->mu);
	while (!q->ready && !q->stop)
		pthread_cond_wait(&q->cv, &q->mu);
	while (!rc && !q->stop && q->hi > q->lo) {
		uint32_t t = d->t_order[--q->hi];

		pthread_mutex_unlock(&q->mu);
		rc = lanes_dfsssp_units_to(&q->w, t, err);
		pthread_mutex_lock(&q->mu);
	}
	q->stop |= rc != 0;
	pthread_cond_broadcast(&q->cv);
	pthread_mutex_unlock(&q->mu);
	return rc;
}

/* Append the units of t_order[p] for p from..n (the view made them from n - 1 down) after d's. */
static int append_view(struct dfsssp *d, struct dfsssp_queue *q, uint32_t from,
		       struct lanes_error *err)
{
	const struct dfsssp *w = &q->w;

	if ((size_t)d->nunits + w->nunits >= UINT32_MAX - 1 ||
	    d->ndep_refs + w->ndep_refs >= UINT32_MAX - d->ns)
		return lanes_error_set(err, LANES_ERANGE, "dfsssp: too many distinct paths");
	if (lanes_grow((void **)&d->unit, &d->u_cap, (size_t)d->nunits + w->nunits + 2,
		       sizeof(*d->unit)) ||
	    lanes_dfsssp_grow_deps(d, w->ndep_refs, err))
		return lanes_error_oom(err);
	/* t_order[p]'s units end where t_order[p - 1]'s begin (u1), or at the view's end */
	for (uint32_t p = from, u1 = w->nunits; p < q->n; p++) {
		uint32_t t = d->t_order[p], u0 = d->t_unit[t];

		d->t_unit[t] = d->nunits;
		if (u0 < u1) {
			uint32_t j0 = w->unit[u0].off, len = w->unit[u1].off - j0;

			for (uint32_t u = u0; u < u1; u++)
				d->unit[d->nunits++] = (struct dfsssp_unit){
					w->unit[u].off - j0 + (uint32_t)d->ndep_refs, w->unit[u].w
				};
			memcpy(d->unit_deps + d->ndep_refs, w->unit_deps + j0, sizeof(*d->unit_deps) * len);
			d->ndep_refs += len;
		}
		u1 = u0;
	}
	d->unit[d->nunits] = (struct dfsssp_unit){ (uint32_t)d->ndep_refs, 0 };
	d->paths[0] += w->paths[0];
	return 0;
}

/* Every destination in turn, on this thread; none when one layer does (dfsssp_one_fast.c). */
static int all_here(struct dfsssp *d, struct lanes_error *err)
{
	int rc = lanes_dfsssp_units_setup(d, err);

	if (!rc && !d->reference)
		rc = lanes_dfsssp_one_layer(d, err);
	for (uint32_t p = 0; !rc && !d->one_layer && p < d->nt; p++)
		rc = lanes_dfsssp_units_to(d, d->t_order[p], err);
	return rc;
}

/*
 * After lanes_route_sssp (which returned sssp_rc): every unit toward every
 * destination switch, numbered in routing order. @return 0 or an error
 */
int lanes_dfsssp_units_end(struct dfsssp *d, int sssp_rc, struct lanes_error *err)
{
	struct dfsssp_queue *q = d->q;
	int rc = 0;

	if (!q || !q->threaded)
		return sssp_rc ? sssp_rc : all_here(d, err);
	pthread_mutex_lock(&q->mu);
	q->done = 1;
	q->hi = q->n;
	q->stop = sssp_rc != 0;
	pthread_cond_broadcast(&q->cv);
	pthread_mutex_unlock(&q->mu);
	if (!sssp_rc)
		rc = take_high(d, err);
	pthread_join(q->thread, NULL);
	q->threaded = 0;
	if (sssp_rc || rc)
		return sssp_rc ? sssp_rc : rc;
	if (q->rc) {
		*err = q->err;
		return q->rc;
	}
	return append_view(d, q, q->lo, err);
}

/* The queue, the thread (stopped first if it still runs) and the view. */
void lanes_dfsssp_units_free(struct dfsssp *d)
{
	struct dfsssp_queue *q = d->q;

	if (!q)
		return;
	if (q->threaded) {
		stop_all(q, 0);
		pthread_join(q->thread, NULL);
	}
	pthread_cond_destroy(&q->cv);
	pthread_mutex_destroy(&q->mu);
	lanes_dfsssp_view_free(&q->w);
	free(q);
	d->q = NULL;
}
