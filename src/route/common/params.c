/*
 * params.c - splitting an engine's parameters into words (common/params.h).
 */
#include <string.h>

#include "route/common/params.h"

int lanes_route_each_param(const char *params, lanes_route_param_fn word, void *ctx,
			   struct lanes_error *err)
{
	const char *p = params;
	int rc;

	while (p && *p) {
		size_t len = strcspn(p, ", \t");

		if (len && (rc = word(ctx, p, len, err)))
			return rc;
		p += len;
		p += strspn(p, ", \t");
	}
	return 0;
}
