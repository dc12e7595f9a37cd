/*
 * route_dir.c - `lanes route -o DIR`: a routing's files appear in DIR as one
 * thing, whole or not at all.
 *
 * The files are written into a new temporary directory beside DIR
 * (".DIR.lanes-XXXXXX", mkdtemp) and only then put in place: renamed to DIR
 * when there is none, or exchanged with the old DIR in one step
 * (renameat2 RENAME_EXCHANGE; on a file system without it, two renames)
 * and the old files removed. A run that fails, runs out of space or is
 * interrupted (SIGINT, SIGTERM, SIGHUP, SIGXFSZ) removes its temporary
 * directory and leaves the old DIR as it was, so a directory never mixes the
 * LFTs of one fabric with the SL2VL maps or path SLs of another.
 *
 * DIR may exist only as a directory holding nothing but what `lanes route`
 * writes: replacing it must not delete a user's other files.
 */
#define _GNU_SOURCE /* renameat2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "route_dir.h"

/* The longest temporary directory name; DIR may be a little shorter. */
#define ROUTE_DIR_PATH 4096

static const char *const route_files[ROUTE_DIR_FILES] = {
	"opensm-lfts.dump", "opensm-sl2vl.dump", "lanes-path-sl.txt", "report.json",
};

/* The dumps may be compressed (route --compress): these endings are route's too. */
static const char *const route_suffixes[ROUTE_DIR_SUFFIXES] = { "", ".gz", ".zst" };

/*
 * The one piece of process state: the files a signal handler must remove.
 * Set before the handlers are installed and cleared after they are removed;
 * the handler only calls unlink(), rmdir() and raise(), which are
 * async-signal-safe.
 */
static char cleanup_paths[ROUTE_DIR_FILES * ROUTE_DIR_SUFFIXES + 1][ROUTE_DIR_PATH + 32];
#define NUM_CLEANUP (ROUTE_DIR_FILES * ROUTE_DIR_SUFFIXES)
static volatile sig_atomic_t cleanup_armed;

static const int caught_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGXFSZ };
#define NUM_CAUGHT (sizeof(caught_signals) / sizeof(caught_signals[0]))

static void remove_temp_files(void)
{
	for (int i = 0; i < NUM_CLEANUP; i++)
		unlink(cleanup_paths[i]);
	rmdir(cleanup_paths[NUM_CLEANUP]);
}

static void on_signal(int sig)
{
	if (cleanup_armed)
		remove_temp_files();
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Catch the signals that end a process, except those ignored on entry (a
 * shell's `trap '' XFSZ` wants write() to fail with EFBIG, which is
 * reported as an error and cleaned up the ordinary way).
 */
static void arm_cleanup(const char *tmp, struct sigaction *saved)
{
	struct sigaction sa;

	for (int i = 0; i < NUM_CLEANUP; i++)
		snprintf(cleanup_paths[i], sizeof(cleanup_paths[i]), "%s/%s%s", tmp,
			 route_files[i / ROUTE_DIR_SUFFIXES], route_suffixes[i % ROUTE_DIR_SUFFIXES]);
	snprintf(cleanup_paths[NUM_CLEANUP], sizeof(cleanup_paths[0]), "%s", tmp);
	cleanup_armed = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NUM_CAUGHT; i++) {
		sigaction(caught_signals[i], NULL, &saved[i]);
		if (saved[i].sa_handler != SIG_IGN)
			sigaction(caught_signals[i], &sa, NULL);
	}
}

static void disarm_cleanup(const struct sigaction *saved)
{
	for (size_t i = 0; i < NUM_CAUGHT; i++)
		sigaction(caught_signals[i], &saved[i], NULL);
	cleanup_armed = 0;
}

/* Remove the files of a routing directory and the directory. */
static void remove_route_dir(const char *dir)
{
	char path[ROUTE_DIR_PATH + 32];

	for (int i = 0; i < NUM_CLEANUP; i++) {
		snprintf(path, sizeof(path), "%s/%s%s", dir, route_files[i / ROUTE_DIR_SUFFIXES],
			 route_suffixes[i % ROUTE_DIR_SUFFIXES]);
		unlink(path);
	}
	rmdir(dir);
}

static int is_route_file(const char *name)
{
	char full[64];

	for (int i = 0; i < NUM_CLEANUP; i++) {
		snprintf(full, sizeof(full), "%s%s", route_files[i / ROUTE_DIR_SUFFIXES],
			 route_suffixes[i % ROUTE_DIR_SUFFIXES]);
		if (!strcmp(name, full))
			return 1;
	}
	return 0;
}

/* An existing DIR must be a directory of route files only; *exists says whether it is there. */
static int check_target(const char *dir, int *exists)
{
	struct stat st;
	struct dirent *d;
	DIR *dp;

	*exists = !stat(dir, &st);
	if (!*exists)
		return errno == ENOENT ? 0 : cli_usage_error("%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cli_usage_error("-o %s: exists and is not a directory", dir);
	if (!(dp = opendir(dir)))
		return cli_usage_error("%s: %s", dir, strerror(errno));
	while ((d = readdir(dp)))
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..") && !is_route_file(d->d_name)) {
			cli_usage_error("-o %s: the directory holds '%s', which `lanes route` does "
					"not write; give a new directory or one of an earlier route",
					dir, d->d_name);
			closedir(dp);
			return EXIT_USAGE;
		}
	closedir(dp);
	return 0;
}

/* ".NAME.lanes-XXXXXX" in DIR's parent directory: the same file system, so rename works. */
static int make_temp_dir(const char *dir, char *tmp, size_t n)
{
	const char *slash;
	size_t len = strlen(dir);

	while (len > 1 && dir[len - 1] == '/') /* "out/" names out */
		len--;
	slash = memrchr(dir, '/', len);
	if (slash)
		snprintf(tmp, n, "%.*s/.%.*s.lanes-XXXXXX", (int)(slash - dir), dir,
			 (int)(len - (size_t)(slash - dir) - 1), slash + 1);
	else
		snprintf(tmp, n, ".%.*s.lanes-XXXXXX", (int)len, dir);
	if (strlen(tmp) + 1 >= n)
		return cli_usage_error("-o %s: the path is too long", dir);
	if (!mkdtemp(tmp))
		return cli_usage_error("-o %s: cannot create a temporary directory beside it: %s",
				       dir, strerror(errno));
	chmod(tmp, 0755);
	return 0;
}

/* Put the finished temporary directory in DIR's place; the old DIR's files go. */
static int put_in_place(const char *tmp, const char *dir, int exists)
{
	if (!exists) {
		if (rename(tmp, dir))
			return cli_usage_error("-o %s: cannot rename %s into place: %s", dir, tmp,
					       strerror(errno));
		return 0;
	}
	if (!renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE)) {
		remove_route_dir(tmp); /* now the old files */
		return 0;
	}
	if (errno != EINVAL && errno != ENOSYS)
		return cli_usage_error("-o %s: cannot put %s in its place: %s", dir, tmp,
				       strerror(errno));
	/* no atomic exchange here: the old directory moves aside first */
	char old[ROUTE_DIR_PATH + 8];

	snprintf(old, sizeof(old), "%s.old", tmp);
	if (rename(dir, old) || rename(tmp, dir)) {
		int e = errno;

		rename(old, dir);
		return cli_usage_error("-o %s: cannot put %s in its place: %s", dir, tmp, strerror(e));
	}
	remove_route_dir(old);
	return 0;
}

int route_dir_write(const char *dir, route_dir_writer write, void *ctx)
{
	char tmp[ROUTE_DIR_PATH];
	struct sigaction saved[NUM_CAUGHT];
	int exists, rc;

	if ((rc = check_target(dir, &exists)) || (rc = make_temp_dir(dir, tmp, sizeof(tmp))))
		return rc;
	arm_cleanup(tmp, saved);
	rc = write(tmp, route_files, ctx);
	if (!rc)
		rc = put_in_place(tmp, dir, exists);
	if (rc)
		remove_route_dir(tmp);
	disarm_cleanup(saved);
	return rc;
}
