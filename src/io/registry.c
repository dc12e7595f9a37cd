/*
 * registry.c - the table of fabric formats, recognising a format from a
 * file's content, and whole-file read and write.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats.h"
#include "stream.h"

static const struct lanes_format *const formats[] = {
	&lanes_format_ibnetdiscover,
	&lanes_format_ibsim,
	&lanes_format_dot,
	&lanes_format_opensm_subnet,
};

#define NUM_FORMATS (sizeof(formats) / sizeof(formats[0]))

const struct lanes_format *lanes_format_at(size_t i)
{
	return i < NUM_FORMATS ? formats[i] : NULL;
}

const struct lanes_format *lanes_format_find(const char *name)
{
	for (size_t i = 0; i < NUM_FORMATS; i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

const struct lanes_format *lanes_format_sniff(const char *data, size_t len)
{
	const struct lanes_format *best = NULL;
	int best_score = 0;

	for (size_t i = 0; i < NUM_FORMATS; i++) {
		int score = formats[i]->read && formats[i]->sniff ? formats[i]->sniff(data, len) : 0;

		if (score > best_score) {
			best = formats[i];
			best_score = score;
		}
	}
	return best;
}

static int sys_error(struct lanes_error *err, const char *path, int e)
{
	int rc = lanes_error_set(err, LANES_EIO, "%s: %s", path,
				 e == EBADMSG ? "corrupt or cut compressed data" : strerror(e));

	if (err)
		err->sys_errno = e;
	return rc;
}

static int too_big(struct lanes_error *err, const char *path)
{
	return lanes_error_set(err, LANES_EINVAL,
			       "%s: larger than %d GiB, the most lanes reads as a fabric file",
			       path, (int)(LANES_IO_MAX_BYTES >> 30));
}

/* Refuse what cannot be a fabric file before reading: a directory, a huge file. */
static int check_input(const char *path, const char *shown, struct lanes_error *err)
{
	struct stat st;

	if (!strcmp(path, "-"))
		return 0;
	if (stat(path, &st))
		return sys_error(err, shown, errno);
	if (S_ISDIR(st.st_mode))
		return sys_error(err, path, EISDIR);
	if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > LANES_IO_MAX_BYTES)
		return too_big(err, path);
	return 0;
}

/*
 * Whole file into a growing buffer. Devices and pipes have no size, so the
 * cap is also enforced while reading: the buffer never grows beyond
 * LANES_IO_MAX_BYTES + 2 (`topo info /dev/zero` stops there).
 */
static int read_all(FILE *fp, const char *path, char **out, size_t *len,
		    struct lanes_error *err)
{
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	do {
		if (n + 1 >= cap) {
			size_t want = cap ? cap * 2 : 65536;
			char *nb;

			if (n > LANES_IO_MAX_BYTES)
				break;
			want = want > LANES_IO_MAX_BYTES + 2 ? LANES_IO_MAX_BYTES + 2 : want;
			if (!(nb = realloc(buf, want))) {
				free(buf);
				return lanes_error_set(err, LANES_ENOMEM, "%s: out of memory", path);
			}
			buf = nb;
			cap = want;
		}
		n += got = fread(buf + n, 1, cap - n - 1, fp);
	} while (got);
	if (n > LANES_IO_MAX_BYTES || ferror(fp)) {
		int e = errno;

		free(buf);
		return n > LANES_IO_MAX_BYTES ? too_big(err, path) : sys_error(err, path, e);
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

const char *lanes_io_shown_name(const char *path)
{
	return strcmp(path, "-") ? path : "(standard input)";
}

int lanes_io_slurp(const char *path, char **out, size_t *len, struct lanes_error *err)
{
	const char *name = lanes_io_shown_name(path);
	FILE *fp;
	int rc;

	*out = NULL;
	*len = 0;
	if ((rc = check_input(path, name, err)))
		return rc;
	if (!(fp = lanes_stream_open_read(path, name, NULL, err)))
		return LANES_EIO;
	rc = read_all(fp, name, out, len, err);
	fclose(fp);
	return rc;
}

int lanes_io_read_file(const char *path, const char *format, struct lanes_fabric **out,
		       struct lanes_error *err)
{
	const struct lanes_format *fmt = NULL;
	char *data;
	size_t len;
	int rc;

	*out = NULL;
	if (format && (!(fmt = lanes_format_find(format)) || !fmt->read))
		return lanes_error_set(err, LANES_ENOTFOUND, "no reader for format '%s'", format);
	if ((rc = lanes_io_slurp(path, &data, &len, err)))
		return rc;
	if (!fmt && !(fmt = lanes_format_sniff(data, len)))
		rc = lanes_error_parse(err, lanes_io_shown_name(path), 0,
				       "not a fabric file this tool can read (ibnetdiscover, ibsim net or opensm-subnet.lst)");
	else
		rc = fmt->read(data, len, lanes_io_shown_name(path), out, err);
	free(data);
	return rc;
}

int lanes_io_write_file(const char *path, const char *format, const struct lanes_fabric *f,
			struct lanes_error *err)
{
	const struct lanes_format *fmt = lanes_format_find(format);
	struct lanes_atomic a;
	int rc;

	if (!fmt || !fmt->write)
		return lanes_error_set(err, LANES_ENOTFOUND, "no writer for format '%s'", format);
	if ((rc = lanes_atomic_open(&a, path, err)))
		return rc;
	if ((rc = fmt->write(f, a.fp, err))) {
		lanes_atomic_abort(&a);
		return rc;
	}
	return lanes_atomic_commit(&a, err);
}
