/*
 * params.c - parsing and checking "key=value" generator parameters.
 */
#include "params.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/util.h"

int lanes_params_parse(const char *gen, size_t nargs, const char *const *args,
		       struct lanes_params *out, struct lanes_error *err)
{
	memset(out, 0, sizeof(*out));
	out->gen = gen;
	out->kv = calloc(nargs + 1, sizeof(*out->kv));
	if (!out->kv)
		return lanes_error_oom(err);
	for (size_t i = 0; i < nargs; i++) {
		const char *eq = strchr(args[i], '=');
		struct lanes_kv *kv = &out->kv[out->n];

		if (!eq || eq == args[i]) {
			lanes_params_free(out);
			return lanes_error_set(err, LANES_EINVAL,
					       "%s: expected key=value, got '%s'", gen, args[i]);
		}
		kv->key = lanes_strndup(args[i], (size_t)(eq - args[i]));
		kv->value = lanes_strndup(eq + 1, strlen(eq + 1));
		out->n++;
		if (!kv->key || !kv->value) {
			lanes_params_free(out);
			return lanes_error_oom(err);
		}
		for (size_t j = 0; j + 1 < out->n; j++)
			if (!strcasecmp(out->kv[j].key, kv->key)) {
				lanes_error_set(err, LANES_EINVAL, "%s: parameter '%s' given twice",
						gen, kv->key);
				lanes_params_free(out);
				return LANES_EINVAL;
			}
	}
	return 0;
}

void lanes_params_free(struct lanes_params *p)
{
	for (size_t i = 0; p->kv && i < p->n; i++) {
		free(p->kv[i].key);
		free(p->kv[i].value);
	}
	free(p->kv);
	p->kv = NULL;
	p->n = 0;
}

/*
 * Keys match whatever their case: one spelling per idea across generators
 * (k= the dimension sizes of torus, mesh, hyperx and sfxff; L= parallel
 * cables), and the other case still read (hyperx K=4x4, as it was written).
 */
static struct lanes_kv *lookup(const struct lanes_params *p, const char *key)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcasecmp(p->kv[i].key, key))
			return &p->kv[i];
	return NULL;
}

int lanes_params_has(const struct lanes_params *p, const char *key)
{
	return lookup(p, key) != NULL;
}

static int parse_uint(const char *s, const char **end, uint64_t *out)
{
	uint64_t v = 0;

	if (*s < '0' || *s > '9')
		return 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return 0;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*end = s;
	*out = v;
	return 1;
}

static int range_error(const struct lanes_params *p, const char *key, const char *value,
		       uint64_t min, uint64_t max, struct lanes_error *err)
{
	return lanes_error_set(err, LANES_EINVAL,
			       "%s: parameter '%s' must be an integer in %llu..%llu, not '%s'",
			       p->gen, key, (unsigned long long)min, (unsigned long long)max,
			       value);
}

int lanes_params_uint(struct lanes_params *p, const char *key, uint64_t def, uint64_t min,
		      uint64_t max, uint64_t *out, struct lanes_error *err)
{
	struct lanes_kv *kv = lookup(p, key);
	const char *end;
	uint64_t v;

	if (!kv) {
		if (def == LANES_PARAM_REQUIRED)
			return lanes_error_set(err, LANES_EINVAL, "%s: parameter '%s' is required",
					       p->gen, key);
		*out = def;
		return 0;
	}
	kv->used = 1;
	if (!parse_uint(kv->value, &end, &v) || *end || v < min || v > max)
		return range_error(p, key, kv->value, min, max, err);
	*out = v;
	return 0;
}

int lanes_params_choice(struct lanes_params *p, const char *key, const char *const *choices,
			int def, int *out, struct lanes_error *err)
{
	struct lanes_kv *kv = lookup(p, key);
	char list[256] = "";

	*out = def;
	if (!kv)
		return 0;
	kv->used = 1;
	for (int i = 0; choices[i]; i++) {
		if (!strcmp(kv->value, choices[i])) {
			*out = i;
			return 0;
		}
		strncat(list, i ? "|" : "", sizeof(list) - strlen(list) - 1);
		strncat(list, choices[i], sizeof(list) - strlen(list) - 1);
	}
	return lanes_error_set(err, LANES_EINVAL, "%s: parameter '%s' must be one of %s, not '%s'",
			       p->gen, key, list, kv->value);
}

int lanes_params_list(struct lanes_params *p, const char *key, int required, uint64_t min,
		      uint64_t max, uint32_t *vals, size_t *n, struct lanes_error *err)
{
	struct lanes_kv *kv = lookup(p, key);
	const char *s;

	*n = 0;
	if (!kv)
		return required ? lanes_error_set(err, LANES_EINVAL,
						  "%s: parameter '%s' is required", p->gen, key)
				: 0;
	kv->used = 1;
	for (s = kv->value;;) {
		uint64_t v;
		const char *end;

		if (*n == LANES_PARAM_LIST_MAX)
			return lanes_error_set(err, LANES_EINVAL,
					       "%s: parameter '%s' has more than %d entries",
					       p->gen, key, LANES_PARAM_LIST_MAX);
		if (!parse_uint(s, &end, &v) || v < min || v > max ||
		    (*end && *end != 'x' && *end != ','))
			return lanes_error_set(
				err, LANES_EINVAL,
				"%s: parameter '%s' must be integers in %llu..%llu separated by 'x' or ',', not '%s'",
				p->gen, key, (unsigned long long)min, (unsigned long long)max,
				kv->value);
		vals[(*n)++] = (uint32_t)v;
		if (!*end)
			return 0;
		s = end + 1;
	}
}

const char *lanes_params_str(struct lanes_params *p, const char *key, const char *def)
{
	struct lanes_kv *kv = lookup(p, key);

	if (!kv)
		return def;
	kv->used = 1;
	return kv->value;
}

static int is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* Does usage contain "key=" with key not preceded by another key character? */
static int usage_names(const char *usage, const char *key)
{
	size_t n = strlen(key);

	for (const char *s = usage; *s; s++)
		if (!strncasecmp(s, key, n) && s[n] == '=' && (s == usage || !is_key_char(s[-1])))
			return 1;
	return 0;
}

static int unknown_key(const struct lanes_params *p, const char *key, const char *usage,
		       struct lanes_error *err)
{
	return lanes_error_set(err, LANES_EINVAL, "%s: unknown parameter '%s' (usage: %s %s)",
			       p->gen, key, p->gen, usage);
}

int lanes_params_check_known(const struct lanes_params *p, const char *usage,
			     struct lanes_error *err)
{
	for (size_t i = 0; i < p->n; i++)
		if (!usage_names(usage, p->kv[i].key))
			return unknown_key(p, p->kv[i].key, usage, err);
	return 0;
}

int lanes_params_finish(struct lanes_params *p, const char *usage, struct lanes_error *err)
{
	for (size_t i = 0; i < p->n; i++)
		if (!p->kv[i].used)
			return unknown_key(p, p->kv[i].key, usage, err);
	return 0;
}
