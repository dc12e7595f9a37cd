/*
 * registry.c - the table of fabric formats, recognising a format from a
 * file's content, and whole-file read and write.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

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

int lanes_io_slurp(const char *path, char **out, size_t *len, struct lanes_error *err)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;
	int rc = 0;

	*out = NULL;
	*len = 0;
	if (!fp) {
		rc = lanes_error_set(err, LANES_EIO, "%s: %s", path, strerror(errno));
		if (err)
			err->sys_errno = errno;
		return rc;
	}
	for (;;) {
		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 65536);

			if (!nb) {
				rc = lanes_error_set(err, LANES_ENOMEM, "%s: out of memory", path);
				goto out;
			}
			buf = nb;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, fp);

		n += got;
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		rc = lanes_error_set(err, LANES_EIO, "%s: read error", path);
		goto out;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	buf = NULL;
out:
	free(buf);
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
		rc = lanes_error_parse(err, path, 0,
				       "not a fabric file this tool can read (ibnetdiscover, ibsim net or opensm-subnet.lst)");
	else
		rc = fmt->read(data, len, path, out, err);
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
