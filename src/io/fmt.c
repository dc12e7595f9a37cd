/*
 * fmt.c - the output buffer of fmt.h (its formatters are inline there).
 */
#include "fmt.h"

void lanes_fmt_init(struct lanes_fmt *o, FILE *file)
{
	o->file = file;
	o->len = 0;
}

void lanes_fmt_flush(struct lanes_fmt *o)
{
	if (o->len)
		fwrite(o->buf, 1, o->len, o->file);
	o->len = 0;
}
