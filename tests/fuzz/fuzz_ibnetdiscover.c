/*
 * fuzz_ibnetdiscover.c - fuzz target for the ibnetdiscover reader and writer.
 *
 * Any input must either fail with an error or give a fabric that the writer
 * writes and the reader reads back with the same nodes, cables and no
 * warnings; writing that second fabric must give the same bytes again (the
 * writer lists switches, CAs, routers each in node order, and the reader
 * keeps that order). The only write failure allowed is LANES_EINVAL for two
 * nodes sharing a GUID (possible when the builder invents one for GUID 0).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanes/io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The fabric written to memory; NULL after an allowed failure. */
static char *write_mem(const struct lanes_format *fmt, const struct lanes_fabric *f, size_t *len)
{
	struct lanes_error err;
	char *buf = NULL;
	FILE *mem = open_memstream(&buf, len);
	int rc;

	if (!mem)
		abort();
	rc = fmt->write(f, mem, &err);
	fclose(mem);
	if (rc && rc != LANES_EINVAL)
		abort();
	if (rc) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int same_counts(const struct lanes_fabric *f, const struct lanes_fabric *g)
{
	return f->num_nodes == g->num_nodes && f->num_switches == g->num_switches &&
	       f->num_cas == g->num_cas && f->num_routers == g->num_routers &&
	       f->num_links == g->num_links && f->num_self_loops == g->num_self_loops &&
	       f->max_lid == g->max_lid && g->num_warnings == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct lanes_format *fmt = lanes_format_find("ibnetdiscover");
	struct lanes_fabric *f = NULL, *g = NULL;
	struct lanes_error err;
	char *text, *again = NULL;
	size_t len = 0, len2 = 0;

	if (fmt->read((const char *)data, size, "fuzz", &f, &err))
		return 0;
	if (!(text = write_mem(fmt, f, &len))) {
		lanes_fabric_free(f);
		return 0;
	}
	if (fmt->read(text, len, "rewritten", &g, &err) || !same_counts(f, g))
		abort();
	if (!(again = write_mem(fmt, g, &len2)) || len2 != len || memcmp(text, again, len))
		abort();
	lanes_fabric_free(g);
	lanes_fabric_free(f);
	free(text);
	free(again);
	return 0;
}
