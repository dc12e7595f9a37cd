/* pending_dump.c - TEMPORARY weak definitions until src/io/opensm_*.c land; removed then. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "lanes/dump.h"

#define PENDING(name, ...)                                                                  \
	__attribute__((weak)) int name(__VA_ARGS__, struct lanes_error *err)                 \
	{                                                                                      \
		return lanes_error_set(err, LANES_EINVAL, #name " is being written");        \
	}
PENDING(lanes_lfts_write, const struct lanes_fabric *f, const struct lanes_routing *r, FILE *o)
PENDING(lanes_sl2vl_write, const struct lanes_fabric *f, const struct lanes_routing *r, FILE *o)
PENDING(lanes_path_sl_write, const struct lanes_fabric *f, const struct lanes_routing *r, FILE *o)
PENDING(lanes_lfts_read, const char *d, size_t n, const char *file, const struct lanes_fabric *f,
	struct lanes_routing *r)
PENDING(lanes_sl2vl_read, const char *d, size_t n, const char *file, const struct lanes_fabric *f,
	struct lanes_routing *r)
PENDING(lanes_path_sl_read, const char *d, size_t n, const char *file,
	const struct lanes_fabric *f, struct lanes_routing *r)
