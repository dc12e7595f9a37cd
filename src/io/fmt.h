/*
 * fmt.h - fast text output for the big table writers (opensm_lfts.c,
 * opensm_sl2vl.c, path_sl.c).
 *
 * fprintf parses its format string for every call; with one call per LFT
 * entry or SL2VL value it cost more than routing. Here a writer formats
 * numbers with the small routines below straight into a buffer and writes
 * it with fwrite when it fills. Each routine prints exactly what the printf
 * conversion named next to it prints, and returns the byte after the text
 * (nothing is NUL-terminated). Usage, for a line of at most 100 bytes:
 *
 *   char *p = lanes_fmt_room(&o, 100);
 *   p = lanes_fmt_hex0(p, lid, 4);       (as "%04x")
 *   *p++ = '\n';
 *   lanes_fmt_done(&o, p);
 *
 * Errors stay with the FILE: check ferror() after lanes_fmt_flush().
 */
#ifndef LANES_IO_FMT_H
#define LANES_IO_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Longest text of one uint64_t: 20 decimal digits. */
#define LANES_FMT_U64 20
#define LANES_FMT_BUF 32768

struct lanes_fmt {
	FILE *file;
	size_t len; /* bytes of buf in use */
	char buf[LANES_FMT_BUF];
};

void lanes_fmt_init(struct lanes_fmt *o, FILE *file);
/* Write out what the buffer holds. */
void lanes_fmt_flush(struct lanes_fmt *o);

/* Where to write the next n bytes (n <= LANES_FMT_BUF), flushing first if needed. */
static inline char *lanes_fmt_room(struct lanes_fmt *o, size_t n)
{
	if (o->len + n > sizeof(o->buf))
		lanes_fmt_flush(o);
	return o->buf + o->len;
}

/* Keep what was written from lanes_fmt_room()'s pointer up to p. */
static inline void lanes_fmt_done(struct lanes_fmt *o, const char *p)
{
	o->len = (size_t)(p - o->buf);
}

/* The bytes of s without its NUL ("%s"); the caller makes room for them. */
static inline char *lanes_fmt_str(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

/*
 * Numbers: each routine prints what the printf conversion beside it prints
 * for the same value and width. The number is written last digit first into
 * a field as wide as its digits or the width, whichever is more; once the
 * number runs out, the rest of the field gets zeros, which is the padding
 * of "%0*". "%-*" pads with spaces after the digits instead. They are
 * inline so that a constant width unrolls: called, with a memset for the
 * padding, they cost twice as much.
 */

/* The number of digits of v in base 10 or 16 (at least 1). */
static inline unsigned lanes_fmt_dec_len(uint64_t v)
{
	unsigned n = 1;

	for (; v >= 10; v /= 10)
		n++;
	return n;
}

static inline unsigned lanes_fmt_hex_len(uint64_t v)
{
	unsigned n = 1;

	while (v >>= 4)
		n++;
	return n;
}

/* The last n digits of v, zeros where v has fewer: @return the byte after them */
static inline char *lanes_fmt_dec_field(char *p, uint64_t v, unsigned n)
{
	for (unsigned i = n; i--; v /= 10)
		p[i] = (char)('0' + v % 10);
	return p + n;
}

static inline char *lanes_fmt_hex_field(char *p, uint64_t v, unsigned n)
{
	static const char hex[] = "0123456789abcdef";

	for (unsigned i = n; i--; v >>= 4)
		p[i] = hex[v & 15];
	return p + n;
}

static inline unsigned lanes_fmt_max(unsigned a, unsigned b)
{
	return a > b ? a : b;
}

/* "%llu" */
static inline char *lanes_fmt_dec(char *p, uint64_t v)
{
	return lanes_fmt_dec_field(p, v, lanes_fmt_dec_len(v));
}

/* "%0*llu" */
static inline char *lanes_fmt_dec0(char *p, uint64_t v, unsigned width)
{
	return lanes_fmt_dec_field(p, v, lanes_fmt_max(lanes_fmt_dec_len(v), width));
}

/* "%-*llu" */
static inline char *lanes_fmt_dec_left(char *p, uint64_t v, unsigned width)
{
	unsigned n = lanes_fmt_dec_len(v);

	p = lanes_fmt_dec_field(p, v, n);
	for (; n < width; n++)
		*p++ = ' ';
	return p;
}

/* "%0*llx" */
static inline char *lanes_fmt_hex0(char *p, uint64_t v, unsigned width)
{
	return lanes_fmt_hex_field(p, v, lanes_fmt_max(lanes_fmt_hex_len(v), width));
}

#endif
