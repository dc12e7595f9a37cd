/*
 * progress.c - the progress line of long commands: on a terminal, after 2 s,
 * "lanes verify: credit loops 45% (12 s, about 15 s left)" on stderr,
 * redrawn twice a second and erased at the end. The library and the command
 * store the phase and counts into a struct lanes_progress
 * (lanes/progress.h); a thread of this file only reads it. Nothing is
 * drawn when stderr is not a terminal or --quiet is given, and nothing of
 * it goes to stdout.
 *
 * LANES_PROGRESS_AFTER (seconds, default 2) moves the start and
 * LANES_PROGRESS_EVERY (default 0.5) the redraws, for tests.
 *
 * The one piece of process state: the line being drawn, so that any
 * message the command prints to stderr erases it first
 * (cli_progress_clear_active(), called by cli_fail and the warnings).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"

static struct cli_progress *_Atomic active;

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "12 s" or "3 min 5 s". */
static void span(double s, char *buf, size_t n)
{
	if (s < 60)
		snprintf(buf, n, "%.0f s", s);
	else
		snprintf(buf, n, "%.0f min %.0f s", s / 60 - 0.5, s - 60 * (double)(long)(s / 60));
}

/* The terminal's width less one (a full line would wrap, and \r\e[K clears one row); 79 unknown. */
static size_t line_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) || ws.ws_col < 2)
		return 79;
	return ws.ws_col - 1;
}

/* One redraw: the phase, its fraction and the time left in it when known, cut to the line. */
static void draw(struct cli_progress *pr, double now)
{
	const char *phase = atomic_load_explicit(&pr->p.phase, memory_order_acquire);
	uint64_t done = atomic_load_explicit(&pr->p.done, memory_order_relaxed);
	uint64_t total = atomic_load_explicit(&pr->p.total, memory_order_relaxed);
	char elapsed[32], left[32], share[16] = "", line[512];

	if (phase != pr->last_phase) {
		pr->last_phase = phase;
		pr->phase_start = now;
	}
	span(now - pr->start, elapsed, sizeof(elapsed));
	left[0] = 0;
	if (total && done && done <= total) {
		double f = (double)done / (double)total;

		snprintf(share, sizeof(share), " %.0f%%", 100 * f);
		span((now - pr->phase_start) * (1 - f) / f, left, sizeof(left));
	}
	snprintf(line, sizeof(line), "lanes %s: %s%s%s (%s%s%s)", pr->cmd, pr->prefix,
		 phase ? phase : "", share, elapsed, left[0] ? ", about " : "",
		 left[0] ? strcat(left, " left") : "");
	fprintf(stderr, "\r\033[K%.*s", (int)line_width(), line);
	fflush(stderr);
	pr->drawn = 1;
}

static void *run(void *arg)
{
	struct cli_progress *pr = arg;
	struct timespec wake;

	pthread_mutex_lock(&pr->mu);
	clock_gettime(CLOCK_REALTIME, &wake);
	for (double next = pr->after; !pr->stop;) {
		double t = mono_now() - pr->start;

		if (t >= next) {
			draw(pr, mono_now());
			next = t + pr->every;
		}
		wake.tv_nsec += pr->every < 0.1 ? (long)(pr->every * 1e9) + 1 : 100 * 1000 * 1000;
		if (wake.tv_nsec >= 1000000000L) {
			wake.tv_sec++;
			wake.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&pr->cv, &pr->mu, &wake);
	}
	if (pr->drawn)
		fputs("\r\033[K", stderr);
	pthread_mutex_unlock(&pr->mu);
	return NULL;
}

void cli_progress_start(struct cli_progress *pr, const char *cmd, int quiet)
{
	const char *after = getenv("LANES_PROGRESS_AFTER"), *every = getenv("LANES_PROGRESS_EVERY");

	memset(pr, 0, sizeof(*pr));
	pr->cmd = cmd;
	pr->start = mono_now();
	pr->after = after ? atof(after) : 2.0;
	pr->every = every && atof(every) > 0.001 ? atof(every) : 0.5;
	if (quiet || !isatty(STDERR_FILENO))
		return;
	pthread_mutex_init(&pr->mu, NULL);
	pthread_cond_init(&pr->cv, NULL);
	pr->running = !pthread_create(&pr->thread, NULL, run, pr);
	if (pr->running)
		active = pr;
}

void cli_progress_stop(struct cli_progress *pr)
{
	if (!pr->running)
		return;
	active = NULL;
	pthread_mutex_lock(&pr->mu);
	pr->stop = 1;
	pthread_cond_signal(&pr->cv);
	pthread_mutex_unlock(&pr->mu);
	pthread_join(pr->thread, NULL);
	pthread_mutex_destroy(&pr->mu);
	pthread_cond_destroy(&pr->cv);
	pr->running = 0;
}

void cli_progress_clear(struct cli_progress *pr)
{
	if (!pr->running)
		return;
	pthread_mutex_lock(&pr->mu);
	if (pr->drawn)
		fputs("\r\033[K", stderr);
	pr->drawn = 0;
	pthread_mutex_unlock(&pr->mu);
}

void cli_progress_clear_active(void)
{
	struct cli_progress *pr = active;

	if (pr)
		cli_progress_clear(pr);
}

void cli_progress_prefix(struct cli_progress *pr, const char *text)
{
	if (pr->running)
		pthread_mutex_lock(&pr->mu);
	snprintf(pr->prefix, sizeof(pr->prefix), "%s", text);
	if (pr->running)
		pthread_mutex_unlock(&pr->mu);
}
