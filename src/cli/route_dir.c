/*
 * route_dir.c - `lanes route -o DIR`: a routing's files appear in DIR as one
 * thing, whole or not at all.
 *
 * The files are written into a new temporary directory beside DIR
 * (".DIR.lanes-XXXXXX", mkdtemp) and only then put in place: renamed to DIR
 * when there is none, or exchanged with the old DIR in one step
 * (renameat2 RENAME_EXCHANGE; on a file system without it, two renames)
 * and the old files removed. A run that fails, runs out of space (a full
 * disk, a file-size limit: SIGXFSZ is ignored meanwhile, so the write fails
 * and is reported) or is interrupted (SIGINT, SIGTERM, SIGHUP: cleanup.c)
 * removes its temporary directory and leaves the old DIR as it was, so a
 * directory never mixes the LFTs of one fabric with the SL2VL maps or path
 * SLs of another.
 *
 * What "DIR" is, as lanes_atomic (src/io/atomic.c) has it for files:
 *
 *  - A symbolic link is followed, link by link, and the directory it names
 *    is replaced, with the temporary directory beside that directory; the
 *    link stays a link. A dangling link's target is created. Exchanging the
 *    link itself would turn it into a directory and leave the old target
 *    emptied.
 *  - DIR may exist only as a directory holding nothing but what `lanes
 *    route` writes: replacing it must not delete a user's other files.
 *  - A replaced directory keeps its permission bits (and, when the process
 *    may set them, its owner and group); a new one gets 0777 & ~umask, as
 *    mkdir would give it (mkdtemp's are 0700).
 *
 * A route killed by SIGKILL (or the OOM killer) cannot remove its temporary
 * directory. A later route into DIR names such leftovers on stderr but never
 * removes them: each route holds an flock() on its own temporary directory
 * while it writes, so a temporary directory that can be locked is a
 * leftover, and one that cannot is another route's, still writing.
 */
#define _GNU_SOURCE /* renameat2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "cli.h"
#include "progress.h"
#include "route_dir.h"

/* The longest temporary directory name; DIR may be a little shorter. */
#define ROUTE_DIR_PATH 4096
/* Links followed before giving up, as the kernel's own limit (ELOOP). */
#define MAX_LINKS 40
/* mkdtemp's "XXXXXX" */
#define TEMP_RANDOM 6

static const char *const route_files[ROUTE_DIR_FILES] = {
	"opensm-lfts.dump", "opensm-sl2vl.dump", "lanes-path-sl.txt", "report.json",
};

/* The dumps may be compressed (route --compress): these endings are route's too. */
static const char *const route_suffixes[ROUTE_DIR_SUFFIXES] = { "", ".gz", ".zst" };

/* The names of a routing directory's files, as route_dir_write() may write them. */
#define NUM_NAMES (ROUTE_DIR_FILES * ROUTE_DIR_SUFFIXES)

/* Remove the files of a routing directory and the directory; rmdir()'s result. */
static int remove_route_dir(const char *dir)
{
	char path[ROUTE_DIR_PATH + 32];

	for (int i = 0; i < NUM_NAMES; i++) {
		snprintf(path, sizeof(path), "%s/%s%s", dir, route_files[i / ROUTE_DIR_SUFFIXES],
			 route_suffixes[i % ROUTE_DIR_SUFFIXES]);
		unlink(path);
	}
	return rmdir(dir);
}

static int is_route_file(const char *name)
{
	char full[64];

	for (int i = 0; i < NUM_NAMES; i++) {
		snprintf(full, sizeof(full), "%s%s", route_files[i / ROUTE_DIR_SUFFIXES],
			 route_suffixes[i % ROUTE_DIR_SUFFIXES]);
		if (!strcmp(name, full))
			return 1;
	}
	return 0;
}

/* What -o DIR names, and the temporary directory that replaces it. */
struct target {
	const char *dir;           /* as given to -o */
	char path[ROUTE_DIR_PATH]; /* DIR with its links followed, without a trailing '/' */
	char tmp[ROUTE_DIR_PATH];  /* the temporary directory beside path */
	struct stat st;            /* path's, when it exists */
	int exists;
	int links; /* links followed from DIR to path */
	int lock;  /* an fd on tmp holding its flock(), or -1 */
};

/* The length of path without trailing slashes ("out/" names out; "/" stays). */
static size_t trimmed_len(const char *path)
{
	size_t len = strlen(path);

	while (len > 1 && path[len - 1] == '/')
		len--;
	return len;
}

/* For messages: " (a link to PATH)" when DIR is a link, "" when not. */
static const char *link_note(const struct target *t, char *buf, size_t n)
{
	buf[0] = '\0'; /* the callers print buf itself */
	if (t->links)
		snprintf(buf, n, " (a link to %s)", t->path);
	return buf;
}

/* Replace the link path with what it names, relative to the link's directory. 0 or an errno. */
static int follow_link(char *path, size_t n)
{
	char buf[ROUTE_DIR_PATH], next[ROUTE_DIR_PATH];
	const char *slash = strrchr(path, '/');
	ssize_t len = readlink(path, buf, sizeof(buf) - 1);
	int dir_len = slash ? (int)(slash - path + 1) : 0;

	if (len < 0)
		return errno;
	buf[len] = '\0';
	buf[trimmed_len(buf)] = '\0';
	if (buf[0] == '/')
		dir_len = 0;
	if ((size_t)len >= sizeof(buf) - 1 ||
	    (size_t)snprintf(next, sizeof(next), "%.*s%s", dir_len, path, buf) >= n)
		return ENAMETOOLONG;
	memcpy(path, next, strlen(next) + 1);
	return 0;
}

/* t->path: DIR with its links followed, link by link (the last name need not exist). */
static int resolve(struct target *t)
{
	size_t len = trimmed_len(t->dir);
	struct stat st;
	int e;

	if (len + 1 >= sizeof(t->path))
		return cli_usage_error("-o %s: the path is too long", t->dir);
	snprintf(t->path, sizeof(t->path), "%.*s", (int)len, t->dir);
	for (t->links = 0; !lstat(t->path, &st) && S_ISLNK(st.st_mode); t->links++)
		if ((e = t->links == MAX_LINKS ? ELOOP : follow_link(t->path, sizeof(t->path))))
			return cli_usage_error("-o %s: cannot follow the link %s: %s", t->dir, t->path,
					       strerror(e));
	return 0;
}

/* An existing DIR holds only what route writes: replacing it deletes nothing else. */
static int check_contents(const struct target *t, const char *note)
{
	struct dirent *d;
	DIR *dp;
	int rc = 0;

	if (!(dp = opendir(t->path)))
		return cli_usage_error("-o %s%s: %s", t->dir, note, strerror(errno));
	while (!rc && (d = readdir(dp)))
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..") && !is_route_file(d->d_name))
			rc = cli_usage_error("-o %s%s: the directory holds '%s', which `lanes route` "
					     "does not write; give a new directory or one of an "
					     "earlier route", t->dir, note, d->d_name);
	closedir(dp);
	return rc;
}

/* What t->path is now: nothing (a new directory), or a directory route may replace. */
static int check_target(struct target *t)
{
	char note[ROUTE_DIR_PATH + 32];
	int e;

	link_note(t, note, sizeof(note));
	if (lstat(t->path, &t->st)) {
		e = errno;
		return e == ENOENT ? 0 : cli_usage_error("-o %s%s: %s", t->dir, note, strerror(e));
	}
	t->exists = 1;
	if (!S_ISDIR(t->st.st_mode))
		return cli_usage_error("-o %s%s: exists and is not a directory", t->dir, note);
	/* its old files are removed once the new ones are in place */
	if (access(t->path, W_OK | X_OK))
		return cli_usage_error("-o %s%s: cannot replace its files: %s", t->dir, note,
				       strerror(errno));
	return check_contents(t, note);
}

/*
 * The names of path's temporary directories without their random part,
 * "PARENT/.NAME.lanes-", and in *dir_len the length of "PARENT/". 0, or -1
 * when a temporary name would not fit in ROUTE_DIR_PATH.
 */
static int temp_prefix(const char *path, char *out, size_t n, size_t *dir_len)
{
	const char *slash = strrchr(path, '/');
	int len;

	*dir_len = slash ? (size_t)(slash - path + 1) : 0;
	len = snprintf(out, n, "%.*s.%s.lanes-", (int)*dir_len, path, path + *dir_len);
	return (size_t)len + TEMP_RANDOM + sizeof(".old") > n ? -1 : 0;
}

/* name is ".NAME.lanes-XXXXXX", or that with ".old" (put_in_place's fallback). */
static int is_temp_name(const char *name, const char *want)
{
	size_t len = strlen(name), want_len = strlen(want);

	return !strncmp(name, want, want_len) &&
	       (len == want_len + TEMP_RANDOM ||
		(len == want_len + TEMP_RANDOM + 4 && !strcmp(name + len - 4, ".old")));
}

/* A temporary directory that no running route holds (each holds an flock() on its own). */
static int is_abandoned(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), unlocked;

	if (fd < 0)
		return errno != ENOTDIR && errno != ELOOP; /* not a directory: not route's */
	unlocked = !flock(fd, LOCK_EX | LOCK_NB);
	close(fd);
	return unlocked;
}

/* On stderr: the temporary directories of routes into DIR that were killed. Never removed. */
static void warn_leftovers(const struct target *t)
{
	char prefix[ROUTE_DIR_PATH], parent[ROUTE_DIR_PATH], path[ROUTE_DIR_PATH + 256];
	size_t dir_len, n = 0;
	struct dirent *d;
	DIR *dp;

	if (temp_prefix(t->path, prefix, sizeof(prefix), &dir_len))
		return;
	snprintf(parent, sizeof(parent), "%.*s", dir_len ? (int)dir_len : 1, dir_len ? prefix : ".");
	if (!(dp = opendir(parent)))
		return;
	while ((d = readdir(dp))) {
		snprintf(path, sizeof(path), "%.*s%s", (int)dir_len, prefix, d->d_name);
		if (!is_temp_name(d->d_name, prefix + dir_len) || !is_abandoned(path))
			continue;
		if (!n++) {
			cli_progress_clear_active();
			fputs("lanes: warning: ", stderr);
		}
		fprintf(stderr, "%s%s", n > 1 ? ", " : "", path);
	}
	closedir(dp);
	if (n)
		fprintf(stderr, " left by an interrupted route; remove %s\n", n > 1 ? "them" : "it");
}

/* ".NAME.lanes-XXXXXX" in DIR's parent directory: the same file system, so rename works. */
static int make_temp_dir(struct target *t)
{
	char note[ROUTE_DIR_PATH + 32];
	size_t dir_len;

	link_note(t, note, sizeof(note));
	if (temp_prefix(t->path, t->tmp, sizeof(t->tmp), &dir_len))
		return cli_usage_error("-o %s%s: the path is too long", t->dir, note);
	strcat(t->tmp, "XXXXXX");
	if (!mkdtemp(t->tmp))
		return cli_usage_error("-o %s%s: cannot create a temporary directory beside it: %s",
				       t->dir, note, strerror(errno));
	/* held until route ends: a later route tells this directory from a leftover */
	if ((t->lock = open(t->tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0)
		flock(t->lock, LOCK_EX | LOCK_NB);
	return 0;
}

/*
 * The finished temporary directory gets the old DIR's mode and owner (the
 * owner only where the process may give it), or a new directory's mode:
 * 0777 & ~umask, and the set-group-ID bit a parent passes on. Set after the
 * files are written: a mode of 0500 would not let them be.
 */
static void set_mode(const struct target *t)
{
	struct stat st;
	mode_t mask;

	if (t->exists) {
		if (chown(t->tmp, t->st.st_uid, t->st.st_gid))
			errno = 0;
		chmod(t->tmp, t->st.st_mode & 07777);
		return;
	}
	mask = umask(0);
	umask(mask);
	chmod(t->tmp, (0777 & ~mask) | (stat(t->tmp, &st) ? 0 : st.st_mode & S_ISGID));
}

/* The old DIR's files, moved aside: removed, or named when they cannot be. */
static int remove_old(const char *old)
{
	if (remove_route_dir(old)) {
		cli_progress_clear_active();
		fprintf(stderr, "lanes: warning: cannot remove the old routing, now %s: %s\n", old,
			strerror(errno));
	}
	return 0;
}

/* Exchange the temporary directory with the old DIR; the old files go. */
static int exchange(const struct target *t, const char *note)
{
	char old[ROUTE_DIR_PATH + 8];
	int e;

	if (!renameat2(AT_FDCWD, t->tmp, AT_FDCWD, t->path, RENAME_EXCHANGE))
		return remove_old(t->tmp); /* now the old files */
	if (errno != EINVAL && errno != ENOSYS)
		return cli_usage_error("-o %s%s: cannot put %s in its place: %s", t->dir, note,
				       t->tmp, strerror(errno));
	/* no atomic exchange here: the old directory moves aside first */
	snprintf(old, sizeof(old), "%s.old", t->tmp);
	if (rename(t->path, old) || rename(t->tmp, t->path)) {
		e = errno;
		rename(old, t->path);
		return cli_usage_error("-o %s%s: cannot put %s in its place: %s", t->dir, note,
				       t->tmp, strerror(e));
	}
	return remove_old(old);
}

/* Put the finished temporary directory in DIR's place (through DIR's links). */
static int put_in_place(const struct target *t)
{
	char note[ROUTE_DIR_PATH + 32];
	int old_lock, rc;

	link_note(t, note, sizeof(note));
	set_mode(t);
	if (!t->exists) {
		if (rename(t->tmp, t->path))
			return cli_usage_error("-o %s%s: cannot rename %s into place: %s", t->dir,
					       note, t->tmp, strerror(errno));
		return 0;
	}
	/* the old DIR, under the temporary name until it is removed, is no leftover */
	if ((old_lock = open(t->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0)
		flock(old_lock, LOCK_EX | LOCK_NB);
	rc = exchange(t, note);
	if (old_lock >= 0)
		close(old_lock);
	return rc;
}

/* What a signal removes: the files route may have written in tmp, then tmp. */
static void name_files(char names[][32], const char **list, struct cli_cleanup *c, const char *tmp)
{
	for (int i = 0; i < NUM_NAMES; i++) {
		snprintf(names[i], 32, "%s%s", route_files[i / ROUTE_DIR_SUFFIXES],
			 route_suffixes[i % ROUTE_DIR_SUFFIXES]);
		list[i] = names[i];
	}
	c->names = list;
	c->num_names = NUM_NAMES;
	c->dir = tmp;
}

int route_dir_write(const char *dir, route_dir_writer write, void *ctx)
{
	struct target t = { .dir = dir, .lock = -1 };
	char names[NUM_NAMES][32];
	const char *list[NUM_NAMES];
	struct cli_cleanup c;
	int rc;

	if ((rc = resolve(&t)) || (rc = check_target(&t)))
		return rc;
	warn_leftovers(&t);
	if ((rc = make_temp_dir(&t)))
		return rc;
	name_files(names, list, &c, t.tmp);
	cli_cleanup_arm(&c);
	rc = write(t.tmp, route_files, ctx);
	if (!rc)
		rc = put_in_place(&t);
	if (rc)
		remove_route_dir(t.tmp);
	cli_cleanup_disarm(&c);
	if (t.lock >= 0)
		close(t.lock);
	return rc;
}
