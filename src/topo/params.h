/*
 * params.h - "key=value" generator parameters.
 *
 * Keys are checked twice. Before generating, lanes_params_check_known()
 * refuses any key that the generator's usage string does not mention as
 * "key=" (the usage string is the list of keys, so the two cannot drift
 * apart), so a typo ("hh=2") costs nothing even when the other parameters
 * describe a huge fabric. After generating, every accessor has marked its
 * key as used and lanes_params_finish() refuses keys nobody asked for, which
 * catches a usage string that names a key the generator never reads.
 * Error messages always name the generator and the parameter:
 * "dragonfly: parameter 'h' must be an integer in 1..254, not '0'".
 */
#ifndef LANES_TOPO_PARAMS_H
#define LANES_TOPO_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "lanes/error.h"
#include "lanes/topo.h"

/* Default value meaning "this parameter must be given". */
#define LANES_PARAM_REQUIRED UINT64_MAX
/* Most entries a list parameter may hold. */
#define LANES_PARAM_LIST_MAX 16

struct lanes_params {
	const char *gen;
	size_t n;
	struct lanes_kv {
		char *key, *value;
		int used;
	} *kv;
	/* lanes_topo_measure(): lanes_gen_check_lids() stores the sizes here and stops */
	struct lanes_topo_size *measure;
};

int lanes_params_parse(const char *gen, size_t nargs, const char *const *args,
		       struct lanes_params *out, struct lanes_error *err);
void lanes_params_free(struct lanes_params *p);

/* Was key given? (does not mark it used) */
int lanes_params_has(const struct lanes_params *p, const char *key);

/* An unsigned integer in [min, max], or def when absent. */
int lanes_params_uint(struct lanes_params *p, const char *key, uint64_t def, uint64_t min,
		      uint64_t max, uint64_t *out, struct lanes_error *err);

/* One of choices (a NULL-terminated list), as an index; def when absent. */
int lanes_params_choice(struct lanes_params *p, const char *key, const char *const *choices,
			int def, int *out, struct lanes_error *err);

/*
 * A list of unsigned integers separated by 'x' or ',' ("4x8x8", "2,1,1"),
 * each in [min, max]; *n = 0 when absent and not required.
 */
int lanes_params_list(struct lanes_params *p, const char *key, int required, uint64_t min,
		      uint64_t max, uint32_t *vals, size_t *n, struct lanes_error *err);

/* A raw string, or def when absent. */
const char *lanes_params_str(struct lanes_params *p, const char *key, const char *def);

/* Refuse any key that usage does not name as "key=" (call before generating). */
int lanes_params_check_known(const struct lanes_params *p, const char *usage,
			     struct lanes_error *err);

/* Refuse any key that no accessor asked for. */
int lanes_params_finish(struct lanes_params *p, const char *usage, struct lanes_error *err);

#endif
