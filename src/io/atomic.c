/*
 * atomic.c - output files that appear whole or not at all.
 *
 * Writes go to a mkstemp() file in the target's directory, so the final
 * rename() is atomic on one file system; a failure leaves the old file (if
 * any) untouched and removes the temporary one.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/util.h"
#include "lanes/io.h"

static int io_error(struct lanes_error *err, const char *path, const char *what)
{
	int e = errno;

	lanes_error_set(err, LANES_EIO, "%s: %s: %s", path, what, strerror(e));
	if (err)
		err->sys_errno = e;
	return LANES_EIO;
}

int lanes_atomic_open(struct lanes_atomic *a, const char *path, struct lanes_error *err)
{
	int fd;

	memset(a, 0, sizeof(*a));
	a->path = lanes_strndup(path, strlen(path));
	a->tmp = lanes_aprintf("%s.tmp.XXXXXX", path);
	if (!a->path || !a->tmp) {
		lanes_atomic_abort(a);
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	}
	fd = mkstemp(a->tmp);
	if (fd < 0) {
		free(a->tmp);
		a->tmp = NULL;
		io_error(err, path, "cannot create a temporary file");
		lanes_atomic_abort(a);
		return LANES_EIO;
	}
	fchmod(fd, 0644);
	a->fp = fdopen(fd, "w");
	if (!a->fp) {
		close(fd);
		io_error(err, path, "cannot open");
		lanes_atomic_abort(a);
		return LANES_EIO;
	}
	return 0;
}

int lanes_atomic_commit(struct lanes_atomic *a, struct lanes_error *err)
{
	int bad = ferror(a->fp) | fflush(a->fp);

	bad |= fclose(a->fp);
	a->fp = NULL;
	if (bad) {
		io_error(err, a->path, "write failed");
		lanes_atomic_abort(a);
		return LANES_EIO;
	}
	if (rename(a->tmp, a->path)) {
		io_error(err, a->path, "cannot rename into place");
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
