/*
 * prep_pipe.c - the helper thread of prep_pipe.h: it prepares the items of
 * a sequence in order, item j into buffer j % 2, each as soon as the caller
 * is done with item j - 2; the caller waits for item j only if the helper
 * is behind. The callers start the helper only as opts->threads allows
 * (lanes_threads_wanted: with threads 0 from SSSP_THREAD_WORTH switches,
 * below which an item takes microseconds and the hand-over would cost more
 * than it saves; never with threads 1; always with 2 or more); without it
 * lanes_prep_pipe_next calls the same callback in turn (sssp_cands.c then
 * prepares the item its own way, to reuse kept copies).
 * Used by the sssp paths (sssp_cands.c) and OpenSM's Dijkstra replayed
 * (sssp_osm_prep.c); the pattern is this project's own, not OpenSM's.
 */
#include "route/common/prep_pipe.h"

static void *prepare_ahead(void *arg)
{
	struct prep_pipe *p = arg;

	for (uint32_t j = 0; j < p->n; j++) {
		int stop;

		pthread_mutex_lock(&p->mu);
		while (p->ready[j & 1] && !p->stop)
			pthread_cond_wait(&p->cv, &p->mu);
		stop = p->stop;
		pthread_mutex_unlock(&p->mu);
		if (stop)
			break;
		p->prepare(p->ctx, j);
		pthread_mutex_lock(&p->mu);
		p->ready[j & 1] = 1;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
	return NULL;
}

void lanes_prep_pipe_start(struct prep_pipe *p, uint32_t n, int use_thread, prep_pipe_fn prepare,
		     void *ctx)
{
	p->prepare = prepare;
	p->ctx = ctx;
	p->n = n;
	p->threaded = p->stop = p->ready[0] = p->ready[1] = 0;
	if (n < 2 || !use_thread || pthread_mutex_init(&p->mu, NULL))
		return;
	if (pthread_cond_init(&p->cv, NULL)) {
		pthread_mutex_destroy(&p->mu);
		return;
	}
	p->threaded = !pthread_create(&p->worker, NULL, prepare_ahead, p);
	if (!p->threaded) {
		pthread_cond_destroy(&p->cv);
		pthread_mutex_destroy(&p->mu);
	}
}

void lanes_prep_pipe_next(struct prep_pipe *p, uint32_t j)
{
	if (!p->threaded) {
		p->prepare(p->ctx, j);
		return;
	}
	pthread_mutex_lock(&p->mu);
	while (!p->ready[j & 1])
		pthread_cond_wait(&p->cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

void lanes_prep_pipe_done(struct prep_pipe *p, uint32_t j)
{
	if (!p->threaded)
		return;
	pthread_mutex_lock(&p->mu);
	p->ready[j & 1] = 0;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

void lanes_prep_pipe_stop(struct prep_pipe *p)
{
	if (!p->threaded)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->worker, NULL);
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
}
