/*
 * text.c - bounded line and token scanning for the text readers.
 */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "text.h"

#include <stdio.h>

#include "lanes/error.h"
#include "lanes/fabric.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void lanes_lines_init(struct lanes_lines *l, const char *data, size_t len, const char *file)
{
	memset(l, 0, sizeof(*l));
	l->p = data;
	l->end = data + len;
	l->file = file;
	if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))
		l->p += 3;
}

void lanes_lines_init_stream(struct lanes_lines *l, FILE *fp, const char *file)
{
	memset(l, 0, sizeof(*l));
	l->fp = fp;
	l->file = file;
}

void lanes_lines_free(struct lanes_lines *l)
{
	free(l->buf);
	l->buf = NULL;
	l->cap = 0;
}

/* The next line of the buffer; 0 at its end. */
static int buffer_line(struct lanes_lines *l, const char **s, size_t *len)
{
	const char *nl;

	if (l->p >= l->end)
		return 0;
	nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
	*s = l->p;
	*len = (size_t)((nl ? nl : l->end) - l->p);
	l->p = nl ? nl + 1 : l->end;
	l->cut = !nl;
	return 1;
}

/* The next line of the stream; 0 at its end or when a read fails (read_errno). */
static int stream_line(struct lanes_lines *l, const char **s, size_t *len)
{
	ssize_t n;

	errno = 0;
	if ((n = getline(&l->buf, &l->cap, l->fp)) < 0) {
		l->read_errno = ferror(l->fp) ? (errno ? errno : EIO) : 0;
		return 0;
	}
	*s = l->buf;
	*len = (size_t)n;
	l->cut = !n || l->buf[n - 1] != '\n';
	if (!l->cut)
		(*len)--;
	if (!l->lineno && *len >= 3 && !memcmp(*s, "\xEF\xBB\xBF", 3)) {
		*s += 3;
		*len -= 3;
	}
	return 1;
}

int lanes_lines_next(struct lanes_lines *l, const char **s, size_t *len)
{
	if (l->again) {
		l->again = 0;
	} else if (!(l->fp ? stream_line(l, &l->last, &l->last_len)
			   : buffer_line(l, &l->last, &l->last_len))) {
		return 0;
	}
	*s = l->last;
	*len = l->last_len;
	if (*len && (*s)[*len - 1] == '\r')
		(*len)--;
	l->lineno++;
	return 1;
}

void lanes_lines_unget(struct lanes_lines *l)
{
	l->again = 1;
	l->lineno--;
}

void lanes_scan_ws(struct lanes_scan *sc)
{
	while (sc->p < sc->end && (*sc->p == ' ' || *sc->p == '\t' || *sc->p == '\r'))
		sc->p++;
}

int lanes_scan_at_end(struct lanes_scan *sc)
{
	lanes_scan_ws(sc);
	return sc->p >= sc->end;
}

int lanes_scan_char(struct lanes_scan *sc, char c)
{
	lanes_scan_ws(sc);
	if (sc->p < sc->end && *sc->p == c) {
		sc->p++;
		return 1;
	}
	return 0;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

int lanes_scan_word(struct lanes_scan *sc, const char *word)
{
	size_t n = strlen(word);

	lanes_scan_ws(sc);
	if ((size_t)(sc->end - sc->p) < n || memcmp(sc->p, word, n))
		return 0;
	if (sc->p + n < sc->end && !is_blank(sc->p[n]))
		return 0;
	sc->p += n;
	return 1;
}

int lanes_scan_peek(struct lanes_scan *sc, const char *prefix)
{
	size_t n = strlen(prefix);

	lanes_scan_ws(sc);
	return (size_t)(sc->end - sc->p) >= n && !memcmp(sc->p, prefix, n);
}

int lanes_scan_uint(struct lanes_scan *sc, uint64_t max, uint64_t *out)
{
	const char *p;
	uint64_t v = 0;

	lanes_scan_ws(sc);
	p = sc->p;
	if (p >= sc->end || *p < '0' || *p > '9')
		return 0;
	while (p < sc->end && *p >= '0' && *p <= '9') {
		uint64_t d = (uint64_t)(*p - '0');

		/* v * 10 + d <= max, without wrapping when max < 9 or near UINT64_MAX */
		if (d > max || v > (max - d) / 10)
			return 0;
		v = v * 10 + d;
		p++;
	}
	sc->p = p;
	*out = v;
	return 1;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int lanes_scan_hex(struct lanes_scan *sc, uint64_t *out)
{
	const char *p;
	uint64_t v = 0;
	int digits = 0;

	lanes_scan_ws(sc);
	p = sc->p;
	if (sc->end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; p < sc->end && hexval(*p) >= 0; p++, digits++) {
		if (digits == 16)
			return 0;
		v = v << 4 | (uint64_t)hexval(*p);
	}
	if (!digits)
		return 0;
	sc->p = p;
	*out = v;
	return 1;
}

int lanes_scan_quoted(struct lanes_scan *sc, const char **s, size_t *len)
{
	const char *q;

	lanes_scan_ws(sc);
	if (sc->p >= sc->end || *sc->p != '"')
		return 0;
	q = memchr(sc->p + 1, '"', (size_t)(sc->end - sc->p - 1));
	if (!q)
		return 0;
	*s = sc->p + 1;
	*len = (size_t)(q - sc->p - 1);
	sc->p = q + 1;
	return 1;
}

int lanes_scan_token(struct lanes_scan *sc, const char **s, size_t *len)
{
	lanes_scan_ws(sc);
	if (sc->p >= sc->end)
		return 0;
	*s = sc->p;
	while (sc->p < sc->end && !is_blank(*sc->p))
		sc->p++;
	*len = (size_t)(sc->p - *s);
	return 1;
}

int lanes_text_contains(const char *data, size_t len, size_t limit, const char *needle)
{
	size_t n = strlen(needle), stop = len < limit ? len : limit;

	for (size_t i = 0; i + n <= stop; i++)
		if (!memcmp(data + i, needle, n))
			return 1;
	return 0;
}

/* A parse error on line `last`, the input's last line, which ended without a
 * \n: the file was cut inside that line, and the message says so first. */
static int truncated(unsigned long last, int rc, struct lanes_error *err)
{
	char msg[sizeof(err->message)];
	char file[sizeof(err->file)];

	if (rc != LANES_EPARSE || !err || !last || err->line != last ||
	    !strncmp(err->message, "truncated", 9))
		return rc;
	memcpy(msg, err->message, sizeof(msg));
	memcpy(file, err->file, sizeof(file));
	return lanes_error_parse(err, file, last, "truncated: the file ends inside line %lu (%s)",
				 last, msg);
}

int lanes_lines_truncated(const struct lanes_lines *l, int rc, struct lanes_error *err)
{
	return l->cut && !l->again ? truncated(l->lineno, rc, err) : rc;
}

int lanes_text_truncated(const char *data, size_t len, int rc, struct lanes_error *err)
{
	unsigned long lines = 1;

	if (rc != LANES_EPARSE || !len || data[len - 1] == '\n')
		return rc;
	for (const char *p = data; (p = memchr(p, '\n', (size_t)(data + len - p))); p++)
		lines++;
	return truncated(lines, rc, err);
}

void lanes_text_warn_cut(struct lanes_builder *b, const char *data, size_t len, const char *file)
{
	unsigned long lines = 1;
	size_t start = len;
	struct lanes_scan sc;

	if (!len || data[len - 1] == '\n')
		return;
	while (start && data[start - 1] != '\n')
		start--;
	sc = lanes_scan_of(data + start, len - start);
	if (lanes_scan_at_end(&sc))
		return;
	for (const char *p = data; (p = memchr(p, '\n', (size_t)(data + start - p))); p++)
		lines++;
	lanes_builder_warn(b, "%s:%lu: the last line has no newline: the file may be cut",
			   file ? file : "<input>", lines);
}
