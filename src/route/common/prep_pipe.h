/*
 * prep_pipe.h - a helper thread that prepares item j + 1 of a sequence while
 * the caller works on item j (prep_pipe.c), with two buffers. The sssp
 * paths (sssp_cands.c: a destination switch's candidates) and OpenSM's
 * Dijkstra replayed (sssp_osm_prep.c: a destination switch's hops, runs
 * and heap start) use it. Not public API.
 *
 * The caller owns the buffers; item j goes into buffer j % 2, and the
 * prepare callback fills it from data that the caller's work on other items
 * does not change, so the result does not depend on the thread.
 */
#ifndef LANES_PREP_PIPE_H
#define LANES_PREP_PIPE_H

#include <pthread.h>
#include <stdint.h>

/* Fill buffer j % 2 with item j (on the helper thread, or in turn). */
typedef void (*prep_pipe_fn)(void *ctx, uint32_t j);

struct prep_pipe {
	prep_pipe_fn prepare;
	void *ctx;
	uint32_t n;                 /* items 0 .. n - 1 */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t worker;
	int threaded;               /* the helper runs (else items are prepared in turn) */
	int stop;                   /* the caller stopped before the last item */
	int ready[2];               /* buffer i holds item j with j % 2 == i */
};

/*
 * Start the helper for items 0 .. n - 1 when use_thread and n > 1; without
 * it (or when no thread can be made) lanes_prep_pipe_next prepares each in turn.
 */
void lanes_prep_pipe_start(struct prep_pipe *p, uint32_t n, int use_thread, prep_pipe_fn prepare,
		     void *ctx);

/* Item j is in buffer j % 2 on return (prepared now when there is no helper). */
void lanes_prep_pipe_next(struct prep_pipe *p, uint32_t j);

/* The caller is done with item j: its buffer may take item j + 2. */
void lanes_prep_pipe_done(struct prep_pipe *p, uint32_t j);

/* Stop the helper (after any item) and wait for it. */
void lanes_prep_pipe_stop(struct prep_pipe *p);

#endif
