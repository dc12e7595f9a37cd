/*
 * osm_common.c - helpers for OpenSM's dump formats (opensm_lfts.c,
 * opensm_sl2vl.c, path_sl.c).
 */
#include "osm_common.h"

void lanes_osm_print_desc(const char *in, char out[64])
{
	size_t i = 0;

	for (; in[i] && i < 63; i++)
		out[i] = (unsigned char)in[i] < 0x20 || (unsigned char)in[i] > 0x7e ? ' ' : in[i];
	out[i] = '\0';
}
