/*
 * util.h - small internal helpers shared by every module: the out-of-memory
 * error, growing arrays, string copies, and a string-to-index hash map used
 * by the readers.
 */
#ifndef LANES_CORE_UTIL_H
#define LANES_CORE_UTIL_H

#include <stddef.h>
#include <stdint.h>

struct lanes_error;

/* Record "out of memory" in err; returns LANES_ENOMEM, for `return lanes_error_oom(err);`. */
int lanes_error_oom(struct lanes_error *err);

/* Grow *ptr (of elements of size elem) so that it holds at least need; 0 or -1. */
int lanes_grow(void **ptr, size_t *cap, size_t need, size_t elem);

/*
 * Several arrays carved out of one malloc'ed block, for the per-call scratch
 * of an engine (one malloc and one free instead of a dozen, which on a tiny
 * fabric cost more than the routing). A function lists the arrays once,
 * each with lanes_carve(); run over a carver with base NULL it only adds up
 * the bytes (and returns NULLs), then over a block of that many bytes it
 * hands out the arrays, each aligned for any type. Nothing is zeroed.
 */
struct lanes_carver {
	char *base;  /* the block, or NULL to measure */
	size_t used; /* bytes handed out so far */
};

static inline void *lanes_carve(struct lanes_carver *c, size_t bytes)
{
	const size_t align = _Alignof(max_align_t);
	void *p = c->base ? c->base + c->used : NULL;

	c->used += (bytes + align - 1) / align * align;
	return p;
}

/* qsort() comparators for ascending uint32_t and uint64_t. */
int lanes_cmp_u32(const void *a, const void *b);
int lanes_cmp_u64(const void *a, const void *b);

/*
 * qsort(), or on n <= few elements an insertion sort, where qsort's set-up
 * costs more than the sorting. For total orders (no equal elements), where
 * every sort gives the one result; elements of up to 64 bytes.
 */
void lanes_sort_few(void *base, size_t n, size_t size, size_t few,
		    int (*cmp)(const void *, const void *));

/* First index i in the sorted a[0..n) with a[i] >= v (n when there is none). */
uint32_t lanes_lower_bound(const uint32_t *a, uint32_t n, uint32_t v);
/** The same over 64-bit values (GUID lists). */
uint32_t lanes_lower_bound64(const uint64_t *a, uint32_t n, uint64_t v);

/* malloc'ed copy of s[0..len), NUL-terminated; NULL on failure. */
char *lanes_strndup(const char *s, size_t len);

/* malloc'ed printf; NULL on failure. */
char *lanes_aprintf(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;

/*
 * A map from strings to uint32_t values, open addressing with FNV-1a.
 * Keys are byte strings with a length (they may hold NUL bytes) and are
 * copied. Lookups of missing keys return LANES_NONE (UINT32_MAX).
 */
struct lanes_strmap {
	char **keys;
	size_t *lens;
	uint32_t *values;
	size_t cap, count;
};

void lanes_strmap_init(struct lanes_strmap *m);
void lanes_strmap_clear(struct lanes_strmap *m);
uint32_t lanes_strmap_get(const struct lanes_strmap *m, const char *key, size_t len);
/* Insert or overwrite; 0 or -1 (out of memory). */
int lanes_strmap_put(struct lanes_strmap *m, const char *key, size_t len, uint32_t value);

#endif
