/*
 * params.h - an engine's parameters (lanes_route_opts.params): words
 * "key=value" separated by commas or blanks, handed one by one to the
 * engine's own parser (dfdn, ecube, hyperx, ftree).
 */
#ifndef LANES_ROUTE_COMMON_PARAMS_H
#define LANES_ROUTE_COMMON_PARAMS_H

#include <stddef.h>

#include "lanes/error.h"

/** One word (len bytes at w, not terminated); 0 or a LANES_E* code with err set. */
typedef int (*lanes_route_param_fn)(void *ctx, const char *w, size_t len, struct lanes_error *err);

/** Call word() for each non-empty word of params (NULL: none); stops at the first error. */
int lanes_route_each_param(const char *params, lanes_route_param_fn word, void *ctx,
			   struct lanes_error *err);

#endif
