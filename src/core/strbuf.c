/*
 * strbuf.c - the printf-free string builder of strbuf.h.
 *
 * Numbers are written last digit first into a small array and appended
 * from there, so the one truncating copy (lanes_sb_mem) serves every
 * appender; what is kept of a number cut at the end of the buffer is its
 * leading digits, as with snprintf.
 */
#include "strbuf.h"

#include <string.h>

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
	char d[20];
	size_t i = sizeof(d);

	do
		d[--i] = (char)('0' + v % 10);
	while (v /= 10);
	lanes_sb_mem(b, d + i, sizeof(d) - i);
}

void lanes_sb_hex0(struct lanes_sb *b, uint64_t v, unsigned width)
{
	static const char hex[] = "0123456789abcdef";
	char d[16];
	size_t i = sizeof(d);

	do
		d[--i] = hex[v & 15];
	while (v >>= 4);
	for (size_t n = sizeof(d) - i; n < width; n++)
		lanes_sb_mem(b, "0", 1);
	lanes_sb_mem(b, d + i, sizeof(d) - i);
}

char *lanes_sb_dup(const struct lanes_sb *b)
{
	return lanes_strndup(b->buf, b->len);
}
