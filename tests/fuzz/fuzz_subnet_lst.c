/*
 * fuzz_subnet_lst.c - fuzz target for the opensm-subnet.lst reader.
 *
 * Any input must either fail with an error or give a fabric whose summary
 * numbers (lanes_fabric_stats: BFS over the switch graph) can be computed,
 * and that the ibnetdiscover writer can write.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lanes/io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct lanes_format *fmt = lanes_format_find("opensm-subnet");
	const struct lanes_format *ibnd = lanes_format_find("ibnetdiscover");
	struct lanes_fabric *f = NULL;
	struct lanes_fabric_stats st;
	struct lanes_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	if (fmt->read((const char *)data, size, "fuzz", &f, &err))
		return 0;
	if (lanes_fabric_stats(f, &st, &err) || st.switches != f->num_switches)
		abort();
	mem = open_memstream(&buf, &len);
	if (!mem)
		abort();
	ibnd->write(f, mem, &err); /* may refuse duplicate GUIDs; must not crash */
	fclose(mem);
	free(buf);
	lanes_fabric_free(f);
	return 0;
}
