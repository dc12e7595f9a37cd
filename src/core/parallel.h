/*
 * parallel.h - running independent jobs on the threads the caller asked for.
 *
 * The library starts threads only as its caller's options say (`threads` in
 * struct lanes_route_opts and struct lanes_verify_opts: 0 one per online
 * core, 1 none, N at most N). Work is cut into jobs whose results do not
 * depend on which thread runs them or when, and is merged in job order, so
 * output is identical for any thread count. A thread that cannot be started
 * is not an error: its job runs on the calling thread instead.
 */
#ifndef LANES_CORE_PARALLEL_H
#define LANES_CORE_PARALLEL_H

#include <stddef.h>

/**
 * How many workers to use for `work` independent items when the caller asked
 * for `requested` threads (0: one per online core): at least 1, at most
 * `work` and at most LANES_MAX_THREADS.
 */
unsigned lanes_threads_for(unsigned requested, size_t work);

/**
 * Should a job of `work` items (switches, destinations) take threads?
 * requested 0 (automatic): from `worth` items on, below which handing work
 * between threads costs more than it saves; requested 1: never; requested
 * 2 or more: always, so that a caller (a test) can make a small fabric take
 * the threaded path.
 */
int lanes_threads_wanted(unsigned requested, size_t work, size_t worth);

/*
 * fn(a) on the calling thread and fn(b) on a second one, when threaded and a
 * thread can be had; else fn(a), then fn(b). Returns when both are done.
 */
void lanes_run_pair(void *(*fn)(void *), void *a, void *b, int threaded);

/*
 * Bytes between the states of two workers that sit side by side in an array
 * (a padding member at the end of the worker's struct): two cache lines, so
 * that one worker's writes never invalidate a line the next one reads.
 */
#define LANES_FALSE_SHARING_GAP 128

/** The most workers the library starts for one call. */
#define LANES_MAX_THREADS 256

/**
 * Run job(ctx, k) for every k in 0..n-1, up to n at a time: job 0 on the
 * calling thread, the others on threads of their own (or, where a thread
 * cannot be had, on the calling thread after job 0). Returns when all are
 * done. n is at most LANES_MAX_THREADS.
 */
void lanes_parallel_run(unsigned n, void (*job)(void *ctx, unsigned k), void *ctx);

#endif
