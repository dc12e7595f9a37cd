/*
 * util.c - growing arrays, string copies, and the string hash map.
 *
 * The map keeps its load factor under 1/2 so probe sequences stay short; it
 * only ever grows, which is all the readers need.
 */
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lanes_grow(void **ptr, size_t *cap, size_t need, size_t elem)
{
	size_t ncap = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / elem)
			return -1;
		ncap *= 2;
	}
	p = realloc(*ptr, ncap * elem);
	if (!p)
		return -1;
	*ptr = p;
	*cap = ncap;
	return 0;
}

int lanes_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

int lanes_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

void lanes_sort_few(void *base, size_t n, size_t size, size_t few,
		    int (*cmp)(const void *, const void *))
{
	unsigned char *b = base, x[64];

	if (n > few || size > sizeof(x)) {
		qsort(base, n, size, cmp);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		size_t j = i;

		memcpy(x, b + i * size, size);
		while (j > 0 && cmp(b + (j - 1) * size, x) > 0)
			j--;
		memmove(b + (j + 1) * size, b + j * size, (i - j) * size);
		memcpy(b + j * size, x, size);
	}
}

/* lanes_lower_bound and lanes_lower_bound64: one binary search for two element types. */
#define LOWER_BOUND(name, type)                                   \
	uint32_t name(const type *a, uint32_t n, type v)          \
	{                                                         \
		uint32_t lo = 0, hi = n;                          \
								  \
		while (lo < hi) {                                 \
			uint32_t mid = lo + (hi - lo) / 2;        \
								  \
			if (a[mid] < v)                           \
				lo = mid + 1;                     \
			else                                      \
				hi = mid;                         \
		}                                                 \
		return lo;                                        \
	}

LOWER_BOUND(lanes_lower_bound, uint32_t)
LOWER_BOUND(lanes_lower_bound64, uint64_t)

char *lanes_strndup(const char *s, size_t len)
{
	char *p = malloc(len + 1);

	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *lanes_aprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	p = malloc((size_t)n + 1);
	if (!p)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

static uint64_t fnv1a(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h;
}

void lanes_strmap_init(struct lanes_strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void lanes_strmap_clear(struct lanes_strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->lens);
	free(m->values);
	lanes_strmap_init(m);
}

static size_t slot_of(const struct lanes_strmap *m, const char *key, size_t len)
{
	size_t i = (size_t)fnv1a(key, len) & (m->cap - 1);

	while (m->keys[i] && (m->lens[i] != len || memcmp(m->keys[i], key, len)))
		i = (i + 1) & (m->cap - 1);
	return i;
}

uint32_t lanes_strmap_get(const struct lanes_strmap *m, const char *key, size_t len)
{
	size_t i;

	if (!m->cap)
		return UINT32_MAX;
	i = slot_of(m, key, len);
	return m->keys[i] ? m->values[i] : UINT32_MAX;
}

static int rehash(struct lanes_strmap *m, size_t ncap)
{
	struct lanes_strmap n = { calloc(ncap, sizeof(char *)), calloc(ncap, sizeof(size_t)),
				  calloc(ncap, sizeof(uint32_t)), ncap, m->count };

	if (!n.keys || !n.lens || !n.values) {
		free(n.keys);
		free(n.lens);
		free(n.values);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (m->keys[i]) {
			size_t j = slot_of(&n, m->keys[i], m->lens[i]);

			n.keys[j] = m->keys[i];
			n.lens[j] = m->lens[i];
			n.values[j] = m->values[i];
		}
	}
	free(m->keys);
	free(m->lens);
	free(m->values);
	*m = n;
	return 0;
}

int lanes_strmap_put(struct lanes_strmap *m, const char *key, size_t len, uint32_t value)
{
	size_t i;

	if ((m->count + 1) * 2 > m->cap && rehash(m, m->cap ? m->cap * 2 : 64))
		return -1;
	i = slot_of(m, key, len);
	if (!m->keys[i]) {
		m->keys[i] = lanes_strndup(key, len);
		if (!m->keys[i])
			return -1;
		m->lens[i] = len;
		m->count++;
	}
	m->values[i] = value;
	return 0;
}
