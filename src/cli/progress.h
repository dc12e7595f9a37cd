/*
 * progress.h - the progress line of long commands (progress.c).
 */
#ifndef LANES_CLI_PROGRESS_H
#define LANES_CLI_PROGRESS_H

#include <pthread.h>

#include "lanes/progress.h"

struct cli_progress {
	struct lanes_progress p; /* what the library and the command store */
	const char *cmd;         /* "verify" */
	char prefix[96];         /* "[2/5 dfsssp] ", or empty */
	double start, after, every, phase_start;
	const char *last_phase;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int running, stop, drawn;
};

/* Start drawing after 2 s, on a terminal, unless quiet. Give &pr->p to the library. */
void cli_progress_start(struct cli_progress *pr, const char *cmd, int quiet);
/* Erase the line and stop. */
void cli_progress_stop(struct cli_progress *pr);
/* Erase the line now (before the command prints to the terminal); it comes back. */
void cli_progress_clear(struct cli_progress *pr);
/* The same for the line being drawn, if any: before any message to stderr. */
void cli_progress_clear_active(void);
/* Text before the phase ("[2/5 dfsssp] "), set by the command. */
void cli_progress_prefix(struct cli_progress *pr, const char *text);

#endif
