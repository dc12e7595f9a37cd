/*
 * stream.c - files read and written through gzip (zlib) or zstd (libzstd)
 * where their bytes or names say so, as plain stdio streams (fopencookie),
 * so every reader and writer handles compressed files without knowing.
 *
 * Reading: the first bytes decide, whatever the name: 1f 8b is gzip
 * (concatenated members too, as gzip writes them), 28 b5 2f fd is zstd,
 * xz, bzip2 and lz4 are refused by name, anything else is read as it is.
 * Corrupt compressed data, or a file cut inside a compressed frame, is a
 * read error (EBADMSG), never a silently short file. Writing: by the name's
 * extension, .gz or .zst (lanes_atomic refuses .xz, .bz2 and .lz4 rather
 * than write plain text under such a name).
 */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "lanes/progress.h"
#include "core/util.h"
#include "stream.h"
#include "text.h"

#define CHUNK (1 << 16)

struct reader {
	FILE *raw;
	int kind;               /* enum lanes_compress */
	unsigned char in[CHUNK];
	size_t in_len, in_pos;
	int raw_eof;
	z_stream z;             /* gzip */
	int z_end;              /* the last gzip member ended (another may follow) */
	ZSTD_DStream *zd;       /* zstd */
	size_t zd_hint;         /* 0: the zstd frame ended */
	struct lanes_progress *progress; /* the file's bytes read, or NULL */
};

/* More raw bytes when all are used; 0 at the end of the file, -1 on error. */
static int fill(struct reader *r)
{
	if (r->in_pos < r->in_len)
		return 1;
	if (r->raw_eof)
		return 0;
	r->in_len = fread(r->in, 1, CHUNK, r->raw);
	r->in_pos = 0;
	lanes_progress_add(r->progress, r->in_len);
	if (r->in_len < CHUNK) {
		if (ferror(r->raw))
			return -1;
		r->raw_eof = 1;
	}
	return r->in_len > 0;
}

static ssize_t read_plain(struct reader *r, char *buf, size_t size)
{
	int more = fill(r);
	size_t n;

	if (more <= 0)
		return more;
	n = r->in_len - r->in_pos < size ? r->in_len - r->in_pos : size;
	memcpy(buf, r->in + r->in_pos, n);
	r->in_pos += n;
	return (ssize_t)n;
}

static ssize_t read_gzip(struct reader *r, char *buf, size_t size)
{
	const uInt want = (uInt)(size > CHUNK ? CHUNK : size);

	r->z.next_out = (unsigned char *)buf;
	r->z.avail_out = want;
	while (r->z.avail_out == want) { /* until some bytes come out */
		int more = fill(r), rc;

		if (more < 0)
			return -1;
		if (!more)
			return r->z_end ? 0 : (errno = EBADMSG, -1); /* cut inside a member */
		if (r->z_end) { /* a next member: gzip files may be concatenations */
			inflateReset(&r->z);
			r->z_end = 0;
		}
		r->z.next_in = r->in + r->in_pos;
		r->z.avail_in = (uInt)(r->in_len - r->in_pos);
		rc = inflate(&r->z, Z_NO_FLUSH);
		r->in_pos = r->in_len - r->z.avail_in;
		if (rc == Z_STREAM_END)
			r->z_end = 1;
		else if (rc != Z_OK && rc != Z_BUF_ERROR)
			return errno = EBADMSG, -1;
	}
	return (ssize_t)(want - r->z.avail_out);
}

static ssize_t read_zstd(struct reader *r, char *buf, size_t size)
{
	ZSTD_outBuffer out = { buf, size, 0 };

	while (!out.pos) {
		int more = fill(r);
		ZSTD_inBuffer in;

		if (more < 0)
			return -1;
		if (!more)
			return r->zd_hint ? (errno = EBADMSG, -1) : 0; /* cut inside a frame */
		in = (ZSTD_inBuffer){ r->in + r->in_pos, r->in_len - r->in_pos, 0 };
		r->zd_hint = ZSTD_decompressStream(r->zd, &out, &in);
		r->in_pos += in.pos;
		if (ZSTD_isError(r->zd_hint))
			return errno = EBADMSG, -1;
	}
	return (ssize_t)out.pos;
}

static ssize_t cookie_read(void *c, char *buf, size_t size)
{
	struct reader *r = c;

	return r->kind == LANES_COMPRESS_GZIP ? read_gzip(r, buf, size)
	       : r->kind == LANES_COMPRESS_ZSTD ? read_zstd(r, buf, size)
						: read_plain(r, buf, size);
}

static int cookie_close_reader(void *c)
{
	struct reader *r = c;
	int rc = r->raw == stdin ? 0 : fclose(r->raw);

	if (r->kind == LANES_COMPRESS_GZIP)
		inflateEnd(&r->z);
	ZSTD_freeDStream(r->zd);
	free(r);
	return rc;
}

/* The kind the first bytes say; the bytes stay in r->in for the decoder. */
static int sniff(struct reader *r)
{
	if (fill(r) <= 0 || r->in_len < 2)
		return LANES_COMPRESS_NONE;
	if (r->in[0] == 0x1f && r->in[1] == 0x8b)
		return LANES_COMPRESS_GZIP;
	if (r->in_len >= 4 && !memcmp(r->in, "\x28\xb5\x2f\xfd", 4))
		return LANES_COMPRESS_ZSTD;
	return LANES_COMPRESS_NONE;
}

const char *lanes_compression_unread(const void *data, size_t len)
{
	const unsigned char *b = data;

	if (len >= 6 && !memcmp(b, "\xfd" "7zXZ\0", 6))
		return "xz";
	if (len >= 4 && !memcmp(b, "BZh", 3) && b[3] >= '1' && b[3] <= '9')
		return "bzip2";
	if (len >= 4 && !memcmp(b, "\x04\x22\x4d\x18", 4))
		return "lz4";
	return NULL;
}

int lanes_text_compressed(const char *data, size_t len, const char *file, struct lanes_error *err)
{
	const char *what = lanes_compression_unread(data, len);

	if (!what)
		return 0;
	return lanes_error_parse(err, file, 0,
				 "compressed with %s, which lanes cannot read (gzip and zstd only)",
				 what);
}

static FILE *refuse_compression(struct reader *r, const char *shown, const char *what,
				struct lanes_error *err)
{
	cookie_close_reader(r);
	lanes_error_set(err, LANES_EIO,
			"%s: compressed with %s, which lanes cannot read (gzip and zstd only)",
			shown, what);
	return NULL;
}

/* Phase "reading", its total the file's size (0, not known, for a pipe). */
static void start_progress(struct reader *r, struct lanes_progress *progress)
{
	struct stat st;

	r->progress = progress;
	lanes_progress_phase(progress, "reading",
			     !fstat(fileno(r->raw), &st) && S_ISREG(st.st_mode) ? (uint64_t)st.st_size
										   : 0);
}

FILE *lanes_stream_open_read(const char *path, const char *shown, struct lanes_progress *progress,
			     struct lanes_error *err)
{
	cookie_io_functions_t io = { cookie_read, NULL, NULL, cookie_close_reader };
	struct reader *r = calloc(1, sizeof(*r));
	FILE *fp;

	if (!r)
		return lanes_error_oom(err), NULL;
	if (!(r->raw = strcmp(path, "-") ? fopen(path, "rb") : stdin)) {
		int e = errno;

		lanes_error_set(err, LANES_EIO, "%s: %s", shown, strerror(e));
		if (err)
			err->sys_errno = e;
		free(r);
		return NULL;
	}
	start_progress(r, progress);
	r->kind = sniff(r);
	if (lanes_compression_unread(r->in, r->in_len))
		return refuse_compression(r, shown, lanes_compression_unread(r->in, r->in_len), err);
	if ((r->kind == LANES_COMPRESS_GZIP && inflateInit2(&r->z, 16 + MAX_WBITS) != Z_OK) ||
	    (r->kind == LANES_COMPRESS_ZSTD && !(r->zd = ZSTD_createDStream()))) {
		cookie_close_reader(r);
		return lanes_error_oom(err), NULL;
	}
	r->zd_hint = 1;
	if (!(fp = fopencookie(r, "r", io))) {
		cookie_close_reader(r);
		return lanes_error_oom(err), NULL;
	}
	return fp;
}

int lanes_io_read_lines(const char *path, lanes_lines_parser parse, void *ctx,
			struct lanes_progress *progress, struct lanes_error *err)
{
	const char *shown = lanes_io_shown_name(path);
	FILE *fp = lanes_stream_open_read(path, shown, progress, err);
	struct lanes_lines lines;
	int rc;

	if (!fp)
		return LANES_EIO;
	lanes_lines_init_stream(&lines, fp, shown);
	rc = lanes_lines_truncated(&lines, parse(&lines, ctx, err), err);
	if (lines.read_errno) /* the parser saw an early end: say why */
		rc = lanes_error_set(err, LANES_EIO, "%s: read failed after line %lu: %s", shown,
				     lines.lineno, lines.read_errno == EBADMSG
				     ? "corrupt or cut compressed data" : strerror(lines.read_errno));
	lanes_lines_free(&lines);
	fclose(fp);
	return rc;
}

/* ---- writing ---- */

struct writer {
	FILE *raw;
	int kind;
	z_stream z;
	ZSTD_CStream *zc;
	unsigned char out[CHUNK];
};

/* Compressed bytes to the raw file; 0 or -1. */
static int put(struct writer *w, size_t n)
{
	return fwrite(w->out, 1, n, w->raw) == n ? 0 : -1;
}

static int deflate_some(struct writer *w, const char *buf, size_t size, int flush)
{
	int rc;

	w->z.next_in = (unsigned char *)(uintptr_t)buf;
	w->z.avail_in = (uInt)size;
	do {
		w->z.next_out = w->out;
		w->z.avail_out = CHUNK;
		rc = deflate(&w->z, flush);
		if (rc == Z_STREAM_ERROR || put(w, CHUNK - w->z.avail_out))
			return -1;
	} while (w->z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
	return 0;
}

static int zstd_some(struct writer *w, const char *buf, size_t size, ZSTD_EndDirective end)
{
	ZSTD_inBuffer in = { buf, size, 0 };
	size_t left;

	do {
		ZSTD_outBuffer out = { w->out, CHUNK, 0 };

		left = ZSTD_compressStream2(w->zc, &out, &in, end);
		if (ZSTD_isError(left) || put(w, out.pos))
			return -1;
	} while (end == ZSTD_e_end ? left != 0 : in.pos < in.size);
	return 0;
}

static ssize_t cookie_write(void *c, const char *buf, size_t size)
{
	struct writer *w = c;
	int rc = w->kind == LANES_COMPRESS_GZIP ? deflate_some(w, buf, size, Z_NO_FLUSH)
						: zstd_some(w, buf, size, ZSTD_e_continue);

	return rc ? (errno = errno ? errno : EIO, -1) : (ssize_t)size;
}

static int cookie_close_writer(void *c)
{
	struct writer *w = c;
	int rc = w->kind == LANES_COMPRESS_GZIP ? deflate_some(w, "", 0, Z_FINISH)
						: zstd_some(w, "", 0, ZSTD_e_end);
	int e = errno;

	if (w->kind == LANES_COMPRESS_GZIP)
		deflateEnd(&w->z);
	ZSTD_freeCStream(w->zc);
	if (fclose(w->raw) || rc) {
		free(w);
		errno = rc ? (e ? e : EIO) : errno;
		return EOF;
	}
	free(w);
	return 0;
}

FILE *lanes_io_compress(FILE *raw, int kind, struct lanes_error *err)
{
	cookie_io_functions_t io = { NULL, cookie_write, NULL, cookie_close_writer };
	struct writer *w = calloc(1, sizeof(*w));
	FILE *fp;

	if (!w)
		return lanes_error_oom(err), NULL;
	w->raw = raw;
	w->kind = kind;
	if ((kind == LANES_COMPRESS_GZIP &&
	     deflateInit2(&w->z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) ||
	    (kind == LANES_COMPRESS_ZSTD && !(w->zc = ZSTD_createCStream())) ||
	    !(fp = fopencookie(w, "w", io))) {
		if (kind == LANES_COMPRESS_GZIP)
			deflateEnd(&w->z);
		ZSTD_freeCStream(w->zc);
		free(w);
		return lanes_error_oom(err), NULL;
	}
	return fp;
}

int lanes_compress_of_path(const char *path)
{
	size_t n = strlen(path);

	if (n > 3 && !strcmp(path + n - 3, ".gz"))
		return LANES_COMPRESS_GZIP;
	if (n > 4 && !strcmp(path + n - 4, ".zst"))
		return LANES_COMPRESS_ZSTD;
	return LANES_COMPRESS_NONE;
}
