/*
 * atomic.c - output files that appear whole or not at all.
 *
 * Writes go to a mkstemp() file beside the file they replace, so the final
 * rename() is atomic on one file system; a failure leaves the old file (if
 * any) untouched and removes the temporary one. What "the file" is:
 *
 *  - A symbolic link is followed (link by link, so a dangling link works
 *    too) and the file it names is replaced, with the temporary file in that
 *    file's directory; the link stays a link. Replacing the link itself
 *    would silently cut it from its target.
 *  - An existing file that is not a regular file (a character device such as
 *    /dev/null, a FIFO, a socket) cannot be replaced meaningfully: rename()
 *    would turn /dev/null into a regular file. It is opened and written
 *    directly; "whole or nothing" does not apply to a stream anyway.
 *  - A replaced regular file keeps its permission bits (and, when the
 *    process may set them, its owner and group); a new file gets 0644.
 *
 * Invariant: a->tmp is NULL exactly when writing directly (or after commit).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/util.h"
#include "lanes/io.h"

/* Links followed before giving up, as the kernel's own limit (ELOOP). */
#define MAX_LINKS 40

/* "path: what: reason", or "path: what" when the reason is unknown (e == 0). */
static int io_error(struct lanes_error *err, const char *path, const char *what, int e)
{
	lanes_error_set(err, LANES_EIO, "%s: %s%s%s", path, what, e ? ": " : "",
			e ? strerror(e) : "");
	if (err)
		err->sys_errno = e;
	return LANES_EIO;
}

/* The target of link `path`, relative to the link's directory when not absolute. */
static char *link_target(const char *path)
{
	char buf[PATH_MAX];
	const char *slash = strrchr(path, '/');
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);

	if (n < 0)
		return NULL;
	if ((size_t)n >= sizeof(buf) - 1) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	buf[n] = '\0';
	if (buf[0] == '/' || !slash)
		return lanes_strndup(buf, (size_t)n);
	return lanes_aprintf("%.*s%s", (int)(slash - path + 1), path, buf);
}

/*
 * Follow symbolic links from path to the name of the file to write (which
 * need not exist yet). 0 with *out malloc'ed, or an errno value.
 */
static int resolve(const char *path, char **out)
{
	char *cur = lanes_strndup(path, strlen(path));
	struct stat st;

	for (int hops = 0; cur; hops++) {
		char *next;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode)) {
			*out = cur;
			return 0;
		}
		if (hops == MAX_LINKS) {
			free(cur);
			return ELOOP;
		}
		next = link_target(cur);
		free(cur);
		if (!next)
			return errno ? errno : ENOMEM;
		cur = next;
	}
	return ENOMEM;
}

/* An existing non-regular file: write straight into it. */
static int open_direct(struct lanes_atomic *a, struct lanes_error *err)
{
	if (!(a->fp = fopen(a->path, "w"))) {
		io_error(err, a->path, "cannot open", errno);
		lanes_atomic_abort(a);
		return LANES_EIO;
	}
	return 0;
}

/* Give the temporary file the mode (and owner) of the file it replaces. */
static void copy_mode(int fd, const struct stat *old)
{
	if (!old) {
		fchmod(fd, 0644);
		return;
	}
	/* only root may give a file away; others keep their own ownership */
	if (fchown(fd, old->st_uid, old->st_gid))
		errno = 0;
	fchmod(fd, old->st_mode & 07777);
}

static int open_temp(struct lanes_atomic *a, const struct stat *old, struct lanes_error *err)
{
	int fd;

	if (!(a->tmp = lanes_aprintf("%s.tmp.XXXXXX", a->path))) {
		lanes_atomic_abort(a);
		return lanes_error_oom(err);
	}
	if ((fd = mkstemp(a->tmp)) < 0) {
		free(a->tmp);
		a->tmp = NULL;
		io_error(err, a->path, "cannot create a temporary file", errno);
		lanes_atomic_abort(a);
		return LANES_EIO;
	}
	copy_mode(fd, old);
	if (!(a->fp = fdopen(fd, "w"))) {
		io_error(err, a->path, "cannot open", errno);
		close(fd);
		lanes_atomic_abort(a);
		return LANES_EIO;
	}
	return 0;
}

static int open_any(struct lanes_atomic *a, const char *path, struct lanes_error *err)
{
	struct stat st;
	int e;

	memset(a, 0, sizeof(*a));
	if ((e = resolve(path, &a->path)))
		return e == ENOMEM ? lanes_error_oom(err)
				   : io_error(err, path, "cannot follow the link", e);
	if (stat(a->path, &st))
		return open_temp(a, NULL, err);
	if (S_ISDIR(st.st_mode)) {
		io_error(err, a->path, "cannot write", EISDIR);
		lanes_atomic_abort(a);
		return LANES_EIO;
	}
	return S_ISREG(st.st_mode) ? open_temp(a, &st, err) : open_direct(a, err);
}

/* path.gz and path.zst are written compressed (stream.c). */
static int compress_by_name(struct lanes_atomic *a, struct lanes_error *err)
{
	int kind = lanes_compress_of_path(a->path);
	FILE *z;

	if (kind == LANES_COMPRESS_NONE)
		return 0;
	if (!(z = lanes_io_compress(a->fp, kind, err))) {
		lanes_atomic_abort(a);
		return LANES_ENOMEM;
	}
	a->fp = z;
	return 0;
}

int lanes_atomic_open(struct lanes_atomic *a, const char *path, struct lanes_error *err)
{
	int rc = open_any(a, path, err);

	return rc ? rc : compress_by_name(a, err);
}

int lanes_atomic_commit(struct lanes_atomic *a, struct lanes_error *err)
{
	int bad, e;

	/* a write that failed earlier set the stream's error flag; its errno is gone */
	errno = 0;
	bad = ferror(a->fp) | fflush(a->fp);
	e = errno;
	if (fclose(a->fp) && !bad) {
		bad = 1;
		e = errno;
	}
	a->fp = NULL;
	if (bad) {
		io_error(err, a->path, "write failed", e);
		lanes_atomic_abort(a);
		return LANES_EIO;
	}
	if (a->tmp && rename(a->tmp, a->path)) {
		io_error(err, a->path, "cannot rename into place", errno);
		lanes_atomic_abort(a);
		return LANES_EIO;
	}
	free(a->tmp);
	a->tmp = NULL;
	lanes_atomic_abort(a);
	return 0;
}

void lanes_atomic_abort(struct lanes_atomic *a)
{
	if (a->fp)
		fclose(a->fp);
	if (a->tmp)
		unlink(a->tmp);
	free(a->tmp);
	free(a->path);
	memset(a, 0, sizeof(*a));
}
