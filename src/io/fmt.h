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
 * The numbers' routines are in core/numfmt.h (the engines' notes use them
 * too, through core/strbuf.c).
 *
 * Errors stay with the FILE: check ferror() after lanes_fmt_flush().
 */
#ifndef LANES_IO_FMT_H
#define LANES_IO_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../core/numfmt.h"

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

#endif
