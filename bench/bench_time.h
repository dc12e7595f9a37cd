/*
 * bench_time.h - the wall clock of the benchmark programs: seconds on the
 * monotonic clock (include after defining _POSIX_C_SOURCE).
 */
#ifndef LANES_BENCH_TIME_H
#define LANES_BENCH_TIME_H

#include <time.h>

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
