/*
 * osm_common.h - what the readers and writers of OpenSM's dump files share.
 */
#ifndef LANES_IO_OSM_COMMON_H
#define LANES_IO_OSM_COMMON_H

#include <stdint.h>

#include "../core/util.h"

/* OpenSM's print_desc(): at most 63 bytes, non-printable bytes as spaces. */
void lanes_osm_print_desc(const char *in, char out[64]);

/* Map a GUID (as an 8-byte key) to a value; 0 or -1 when out of memory. */
static inline int osm_put_guid(struct lanes_strmap *m, uint64_t guid, uint32_t value)
{
	return lanes_strmap_put(m, (const char *)&guid, 8, value);
}

/* @return the value mapped to a GUID, or UINT32_MAX */
static inline uint32_t osm_get_guid(const struct lanes_strmap *m, uint64_t guid)
{
	return lanes_strmap_get(m, (const char *)&guid, 8);
}

#endif
