/*
 * numfmt.h - numbers as text without printf: decimal and hex, plain or in a
 * field, each exactly as the printf conversion named beside it. For the
 * big table writers (io/fmt.h) and the notes the engines make on every call
 * (core/strbuf.c), where printf's format parsing cost more than the work.
 */
#ifndef LANES_CORE_NUMFMT_H
#define LANES_CORE_NUMFMT_H

#include <stdint.h>

/* Longest text of one uint64_t: 20 decimal digits. */
#define LANES_FMT_U64 20

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
