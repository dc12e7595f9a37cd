/*
 * text.h - line and token scanning shared by the text format readers.
 *
 * Everything works on (pointer, end) ranges, never on NUL-terminated
 * strings, so a reader cannot run past its buffer whatever the bytes are
 * (the fuzzers feed arbitrary data). Lines end at \n; a trailing \r is
 * dropped; a UTF-8 byte-order mark at the start of the buffer is skipped.
 *
 * Lines come from a buffer, or from a stream (routing files of any size,
 * compressed or not: memory is one line, not the file). A stream's line
 * lives until the next call.
 */
#ifndef LANES_IO_TEXT_H
#define LANES_IO_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

struct lanes_lines {
	const char *p, *end;  /* a buffer's lines */
	const char *file;
	unsigned long lineno; /* number of the line last returned */
	FILE *fp;             /* a stream's lines (not owned), else NULL */
	char *buf;            /* the stream's current line */
	size_t cap;
	const char *last;     /* the line last returned, for lanes_lines_unget */
	size_t last_len;
	int again;            /* return the last line once more */
	int cut;              /* the line last returned ended the input without a \n */
	int read_errno;       /* a stream read failed: lines stop, this says why */
};

void lanes_lines_init(struct lanes_lines *l, const char *data, size_t len, const char *file);
/* Lines read from fp as they are asked for; lanes_lines_free() after. */
void lanes_lines_init_stream(struct lanes_lines *l, FILE *fp, const char *file);
void lanes_lines_free(struct lanes_lines *l);
/* 1 and the line in (*s, *len) without its end of line; 0 at the end (or a read error). */
int lanes_lines_next(struct lanes_lines *l, const char **s, size_t *len);
/* The next lanes_lines_next returns the same line again (once). */
void lanes_lines_unget(struct lanes_lines *l);

struct lanes_error;
/*
 * rc, or, when rc is a parse error (LANES_EPARSE) on the input's last line
 * and that line ended without a \n, the same error said as truncation:
 * "truncated: the file ends inside line N (what was wrong)". For lines that
 * were read (streamed or not), and for a buffer read by other means.
 */
int lanes_lines_truncated(const struct lanes_lines *l, int rc, struct lanes_error *err);
int lanes_text_truncated(const char *data, size_t len, int rc, struct lanes_error *err);

struct lanes_builder;
/*
 * A buffer whose last line (not blank) ends without a \n was perhaps cut
 * there, and the line still parsed: a warning on b, "file:N: the last line
 * has no newline: the file may be cut". Every writer ends its lines.
 */
void lanes_text_warn_cut(struct lanes_builder *b, const char *data, size_t len, const char *file);

/* A cursor over one line. */
struct lanes_scan {
	const char *p, *end;
};

static inline struct lanes_scan lanes_scan_of(const char *s, size_t len)
{
	struct lanes_scan sc = { s, s + len };
	return sc;
}

void lanes_scan_ws(struct lanes_scan *sc);              /* skip blanks (space, tab) */
int lanes_scan_at_end(struct lanes_scan *sc);           /* only blanks left */
int lanes_scan_char(struct lanes_scan *sc, char c);     /* consume c after blanks: 1/0 */
int lanes_scan_word(struct lanes_scan *sc, const char *word); /* consume a whole word: 1/0 */
/* A decimal number after blanks, at most max: 1, or 0 if none or too big. */
int lanes_scan_uint(struct lanes_scan *sc, uint64_t max, uint64_t *out);
/* Hex digits, with an optional 0x: 1 or 0 (more than 16 digits is 0). */
int lanes_scan_hex(struct lanes_scan *sc, uint64_t *out);
/* A "quoted string" (no escapes): 1 with the inside in (*s, *len), or 0. */
int lanes_scan_quoted(struct lanes_scan *sc, const char **s, size_t *len);
/* The next run of non-blank characters: 1, or 0 at the end. */
int lanes_scan_token(struct lanes_scan *sc, const char **s, size_t *len);
/* Does the range start with prefix (after blanks, not consumed)? */
int lanes_scan_peek(struct lanes_scan *sc, const char *prefix);

/* Does the buffer contain needle somewhere in its first `limit` bytes? */
int lanes_text_contains(const char *data, size_t len, size_t limit, const char *needle);

#endif
