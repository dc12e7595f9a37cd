/*
 * cleanup.c - remove a command's temporary files when a signal ends it.
 *
 * The handler cannot be given an argument, so what it removes is reached
 * through the one piece of process state, `armed`: a lock-free atomic
 * pointer to the caller's struct cli_cleanup, set once the struct is filled
 * in and cleared before the struct goes away. It must be static (a handler
 * sees nothing else), and atomic rather than volatile because the signal may
 * be handled in another thread (the progress line's) than the one arming
 * it. The handler only loads that pointer and calls open(), unlinkat(),
 * close(), rmdir(), signal() and raise(), all async-signal-safe.
 *
 * SIGXFSZ is not caught but ignored: a write past `ulimit -f` then fails
 * with EFBIG, and the command reports it as the failed write it is
 * ("FILE: write failed: File too large", exit 2) and removes its temporary
 * files the ordinary way, instead of dying with no message.
 *
 * A signal between creating a temporary file and arming (or between
 * disarming and removing it) still leaves that file: the window is a few
 * system calls long.
 */
#include <assert.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"

static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "the signal handler needs a lock-free pointer");

static const int caught_signals[CLI_CLEANUP_SIGNALS] = { SIGINT, SIGTERM, SIGHUP, SIGXFSZ };

static const struct cli_cleanup *_Atomic armed;

static void remove_files(const struct cli_cleanup *c)
{
	int fd = c->dir ? open(c->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : AT_FDCWD;

	if (fd >= 0 || fd == AT_FDCWD)
		for (size_t i = 0; i < c->num_names; i++)
			unlinkat(fd, c->names[i], 0);
	if (fd >= 0)
		close(fd);
	if (c->dir)
		rmdir(c->dir);
}

static void on_signal(int sig)
{
	const struct cli_cleanup *c = atomic_load(&armed);

	if (c)
		remove_files(c);
	signal(sig, SIG_DFL);
	raise(sig); /* delivered, to end the process, once the handler returns */
}

void cli_cleanup_arm(struct cli_cleanup *c)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask); /* one handler at a time: a second signal waits */
	for (size_t i = 0; i < CLI_CLEANUP_SIGNALS; i++)
		sigaddset(&sa.sa_mask, caught_signals[i]);
	atomic_store(&armed, c);
	for (size_t i = 0; i < CLI_CLEANUP_SIGNALS; i++) {
		sa.sa_handler = caught_signals[i] == SIGXFSZ ? SIG_IGN : on_signal;
		sigaction(caught_signals[i], NULL, &c->saved[i]);
		if (c->saved[i].sa_handler != SIG_IGN)
			sigaction(caught_signals[i], &sa, NULL);
	}
}

void cli_cleanup_disarm(struct cli_cleanup *c)
{
	for (size_t i = 0; i < CLI_CLEANUP_SIGNALS; i++)
		sigaction(caught_signals[i], &c->saved[i], NULL);
	atomic_store(&armed, NULL);
}
