/*
 * cleanup.h - a command's temporary files removed when a signal ends it
 * (cleanup.c); shared by `route -o DIR` (route_dir.c) and `topo gen|convert
 * -o FILE` (cmd_topo.c).
 */
#ifndef LANES_CLI_CLEANUP_H
#define LANES_CLI_CLEANUP_H

#include <signal.h>
#include <stddef.h>

/* SIGINT, SIGTERM, SIGHUP (caught) and SIGXFSZ (ignored) */
#define CLI_CLEANUP_SIGNALS 4

/*
 * What a signal removes: names[0..num_names) with unlink(), relative to dir
 * when dir is not NULL, then dir itself with rmdir(). The strings are the
 * caller's and must outlive the time the cleanup is armed.
 */
struct cli_cleanup {
	const char *const *names;
	size_t num_names;
	const char *dir;
	struct sigaction saved[CLI_CLEANUP_SIGNALS]; /* the dispositions before arming */
};

/*
 * From now until cli_cleanup_disarm(): SIGINT, SIGTERM or SIGHUP removes
 * c's files and then ends the process by the same signal, as it would have
 * without lanes; SIGXFSZ is ignored, so that writing past a file-size limit
 * (ulimit -f) fails with EFBIG and is reported and cleaned up as any failed
 * write (exit 2). A signal ignored on entry stays ignored. One cleanup is
 * armed at a time; c must stay in place until disarmed.
 */
void cli_cleanup_arm(struct cli_cleanup *c);
/* Restore the signal dispositions saved by cli_cleanup_arm(). */
void cli_cleanup_disarm(struct cli_cleanup *c);

#endif
