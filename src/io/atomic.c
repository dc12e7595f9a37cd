/*
 * atomic.c - output files that appear whole or not at all.
 *
 * Writes go to a temporary file beside the file they replace,
 * "FILE.tmp.XXXXXX", so the final rename() is atomic on one file system; a
 * failure leaves the old file (if any) untouched and removes the temporary
 * one. What "the file" is:
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
 *    process may set them, its owner and group); a new file gets 0666 &
 *    ~umask, as open(O_CREAT, 0666) gives it. mkstemp() cannot do that (its
 *    files are 0600, and learning the umask means setting it with umask(),
 *    which another thread creating files meanwhile would suffer from), so
 *    the temporary file is made with open(O_CREAT | O_EXCL, 0666) under a
 *    random name (getentropy), which applies the umask by itself; O_EXCL
 *    also refuses a name that exists, a symbolic link included.
 *  - A name ending in .xz, .bz2 or .lz4 asks for a compression lanes does
 *    not write: refused, rather than plain text under that name (.gz and
 *    .zst are written compressed, stream.c). An empty name is refused.
 *
 * Invariant: a->tmp is NULL exactly when writing directly (or after commit).
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* getentropy */
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../core/util.h"
#include "lanes/io.h"

/* Links followed before giving up, as the kernel's own limit (ELOOP). */
#define MAX_LINKS 40
/* Random names tried for the temporary file before giving up. */
#define TEMP_TRIES 100
/* The random part of a temporary file's name: "XXXXXX", as mkstemp's. */
#define TEMP_RANDOM 6

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
	/* only root may give a file away; others keep their own ownership */
	if (fchown(fd, old->st_uid, old->st_gid))
		errno = 0;
	fchmod(fd, old->st_mode & 07777);
}

/* Fill name's last TEMP_RANDOM characters with letters and digits at random. */
static void randomize(char *name)
{
	static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char r[TEMP_RANDOM];
	char *x = name + strlen(name) - TEMP_RANDOM;
	struct timespec ts;

	if (getentropy(r, sizeof(r))) {
		/* no entropy (an old kernel): O_EXCL still makes any name safe */
		clock_gettime(CLOCK_REALTIME, &ts);
		for (int i = 0; i < TEMP_RANDOM; i++)
			r[i] = (unsigned char)(((unsigned long)ts.tv_nsec >> (i * 5)) ^
					       ((unsigned long)getpid() >> i) ^ (unsigned char)x[i]);
	}
	for (int i = 0; i < TEMP_RANDOM; i++)
		x[i] = chars[r[i] % (sizeof(chars) - 1)];
}

/* Create a->tmp, "PATH.tmp.XXXXXX" with XXXXXX random, mode 0666 & ~umask. An fd or -1. */
static int create_temp(char *tmp)
{
	int fd = -1;

	for (int i = 0; i < TEMP_TRIES && fd < 0; i++) {
		randomize(tmp);
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	return fd;
}

static int open_temp(struct lanes_atomic *a, const struct stat *old, struct lanes_error *err)
{
	int fd;

	if (!(a->tmp = lanes_aprintf("%s.tmp.XXXXXX", a->path))) {
		lanes_atomic_abort(a);
		return lanes_error_oom(err);
	}
	if ((fd = create_temp(a->tmp)) < 0) {
		free(a->tmp);
		a->tmp = NULL;
		io_error(err, a->path, "cannot create a temporary file", errno);
		lanes_atomic_abort(a);
		return LANES_EIO;
	}
	if (old)
		copy_mode(fd, old);
	if (!(a->fp = fdopen(fd, "w"))) {
		io_error(err, a->path, "cannot open", errno);
		close(fd);
		lanes_atomic_abort(a);
		return LANES_EIO;
	}
	return 0;
}

/* "xz", "bzip2" or "lz4" when path's ending asks for a compression lanes does not write. */
static const char *unwritten_compression(const char *path)
{
	static const char *const endings[][2] = {
		{ ".xz", "xz" }, { ".bz2", "bzip2" }, { ".lz4", "lz4" },
	};
	size_t n = strlen(path);

	for (size_t i = 0; i < sizeof(endings) / sizeof(endings[0]); i++) {
		size_t len = strlen(endings[i][0]);

		if (n > len && !strcmp(path + n - len, endings[i][0]))
			return endings[i][1];
	}
	return NULL;
}

/* The file to write (links followed) asks for a compression lanes does not write. */
static int refuse_compression(struct lanes_atomic *a, const char *what, struct lanes_error *err)
{
	lanes_error_set(err, LANES_EINVAL,
			"%s: lanes does not write %s; it writes gzip (.gz) and zstd (.zst), "
			"and plain text under any other name",
			a->path, what);
	lanes_atomic_abort(a);
	return LANES_EINVAL;
}

static int open_any(struct lanes_atomic *a, const char *path, struct lanes_error *err)
{
	const char *what;
	struct stat st;
	int e;

	memset(a, 0, sizeof(*a));
	if (!*path)
		return lanes_error_set(err, LANES_EINVAL, "an empty file name cannot be written");
	if ((e = resolve(path, &a->path)))
		return e == ENOMEM ? lanes_error_oom(err)
				   : io_error(err, path, "cannot follow the link", e);
	if ((what = unwritten_compression(a->path)))
		return refuse_compression(a, what, err);
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
