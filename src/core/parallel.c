/*
 * parallel.c - the worker count and the fork-join of parallel.h. No pool: a
 * call starts its threads and joins them, which costs tens of microseconds,
 * nothing beside a routing that is worth splitting.
 */
#include "parallel.h"

#include <pthread.h>
#include <unistd.h>

unsigned lanes_threads_for(unsigned requested, size_t work)
{
	long n = requested ? (long)requested : sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		n = 1;
	if (n > LANES_MAX_THREADS)
		n = LANES_MAX_THREADS;
	if ((size_t)n > work)
		n = work ? (long)work : 1;
	return (unsigned)n;
}

int lanes_threads_wanted(unsigned requested, size_t work, size_t worth)
{
	if (requested == 0)
		return work >= worth && lanes_threads_for(0, work) > 1;
	return requested > 1;
}

struct worker {
	void (*job)(void *ctx, unsigned k);
	void *ctx;
	unsigned k;
	pthread_t tid;
	int started;
};

static void *run_worker(void *arg)
{
	struct worker *w = arg;

	w->job(w->ctx, w->k);
	return NULL;
}

void lanes_parallel_run(unsigned n, void (*job)(void *ctx, unsigned k), void *ctx)
{
	struct worker w[LANES_MAX_THREADS];

	if (n > LANES_MAX_THREADS)
		n = LANES_MAX_THREADS;
	for (unsigned k = 1; k < n; k++) {
		w[k] = (struct worker){ .job = job, .ctx = ctx, .k = k };
		w[k].started = !pthread_create(&w[k].tid, NULL, run_worker, &w[k]);
	}
	if (n)
		job(ctx, 0);
	for (unsigned k = 1; k < n; k++) {
		if (w[k].started)
			pthread_join(w[k].tid, NULL);
		else
			job(ctx, k);
	}
}

struct pair {
	void *(*fn)(void *);
	void *arg[2];
};

static void pair_job(void *ctx, unsigned k)
{
	struct pair *p = ctx;

	p->fn(p->arg[k]);
}

void lanes_run_pair(void *(*fn)(void *), void *a, void *b, int threaded)
{
	struct pair p = { fn, { a, b } };

	if (!threaded) {
		fn(a);
		fn(b);
		return;
	}
	lanes_parallel_run(2, pair_job, &p);
}
