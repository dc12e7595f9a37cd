/*
 * fuzz_ibsim.c - fuzz target for the ibsim net reader.
 *
 * Any input must either fail with an error or give a fabric that the writer
 * writes and the reader reads back with the same nodes and cables.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lanes/io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct lanes_format *fmt = lanes_format_find("ibsim");
	struct lanes_fabric *f = NULL, *g = NULL;
	struct lanes_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	if (fmt->read((const char *)data, size, "fuzz", &f, &err))
		return 0;
	mem = open_memstream(&buf, &len);
	if (!mem || fmt->write(f, mem, &err))
		abort();
	fclose(mem);
	if (fmt->read(buf, len, "rewritten", &g, &err) || g->num_nodes != f->num_nodes ||
	    g->num_links != f->num_links)
		abort();
	lanes_fabric_free(g);
	lanes_fabric_free(f);
	free(buf);
	return 0;
}
