/*
 * strbuf.c - the printf-free string builder of strbuf.h.
 *
 * Numbers are written into a small array by core/numfmt.h (the routines of
 * the table writers) and appended from there, so the one truncating copy
 * (lanes_sb_mem) serves every appender; what is kept of a number cut at the
 * end of the buffer is its leading digits, as with snprintf.
 */
#include "strbuf.h"

#include <string.h>

#include "numfmt.h"
#include "util.h"

void lanes_sb_init(struct lanes_sb *b, char *buf, size_t size)
{
	b->buf = buf;
	b->size = size;
	b->len = 0;
	buf[0] = '\0';
}

void lanes_sb_dec(struct lanes_sb *b, uint64_t v)
{
	char d[LANES_FMT_U64];

	lanes_sb_mem(b, d, (size_t)(lanes_fmt_dec(d, v) - d));
}

void lanes_sb_hex0(struct lanes_sb *b, uint64_t v, unsigned width)
{
	char d[16];

	for (unsigned n = lanes_fmt_hex_len(v); n < width; n++) /* any width, as "%0*llx" */
		lanes_sb_mem(b, "0", 1);
	lanes_sb_mem(b, d, (size_t)(lanes_fmt_hex0(d, v, 0) - d));
}

char *lanes_sb_dup(const struct lanes_sb *b)
{
	return lanes_strndup(b->buf, b->len);
}
