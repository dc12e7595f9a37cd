/*
 * test_heap.c - src/core/heap.h against a sorted list, for arities 2, 4 and
 * 8, lazy and indexed. Compiled with LANES_PORTABLE_BITS, so the compare is
 * the portable one (the engines' tests run the 128-bit one where the
 * compiler has it); a second check compares the two compares directly.
 */
#define LANES_PORTABLE_BITS
#include "core/heap.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define N 3000

static uint64_t next_random(uint64_t *r)
{
	*r ^= *r << 13;
	*r ^= *r >> 7;
	*r ^= *r << 17;
	return *r;
}

static int by_key_tie(const void *pa, const void *pb)
{
	const struct lanes_heap_entry *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->tie > b->tie) - (a->tie < b->tie);
}

/* Lazy: every pushed (key, tie) pops, in order; few distinct keys, so many ties. */
static void test_lazy_pops_in_order(void **state)
{
	static struct lanes_heap_entry room[N], want[N];
	uint64_t r = 88172645463325252ULL;

	(void)state;
	for (unsigned k = 1; k <= 3; k++) {
		struct lanes_heap h;
		struct lanes_heap_entry e;

		lanes_heap_init(&h, room, NULL, k);
		for (uint32_t i = 0; i < N; i++) {
			want[i] = (struct lanes_heap_entry){ next_random(&r) % 50, (uint32_t)(next_random(&r) % 7), i };
			lanes_heap_push(&h, want[i].key, want[i].tie, i);
		}
		qsort(want, N, sizeof(want[0]), by_key_tie);
		for (uint32_t i = 0; i < N; i++) {
			assert_true(lanes_heap_pop(&h, &e));
			assert_true(e.key == want[i].key && e.tie == want[i].tie);
		}
		assert_false(lanes_heap_pop(&h, &e));
	}
}

/* Indexed: offers insert or lower an id's entry, never raise it; each id pops once, at its least. */
static void test_indexed_decrease_key(void **state)
{
	static struct lanes_heap_entry room[N], e;
	static uint32_t pos[N];
	static uint64_t least[N];
	uint64_t r = 0x2545F4914F6CDD1DULL;

	(void)state;
	for (unsigned k = 1; k <= 3; k++) {
		struct lanes_heap h;
		uint64_t last = 0;

		for (uint32_t i = 0; i < N; i++) {
			pos[i] = LANES_HEAP_ABSENT;
			least[i] = UINT64_MAX;
		}
		lanes_heap_init(&h, room, pos, k);
		for (int j = 0; j < 4 * N; j++) {
			uint32_t id = (uint32_t)(next_random(&r) % N);
			uint64_t key = next_random(&r) % 100000;

			lanes_heap_offer(&h, key, id, id);
			if (key < least[id])
				least[id] = key;
		}
		for (uint32_t n = 0; lanes_heap_pop(&h, &e); n++) {
			assert_true(e.key >= last);
			assert_true(e.key == least[e.id]);
			assert_int_equal(pos[e.id], LANES_HEAP_ABSENT);
			least[e.id] = UINT64_MAX - 1; /* popped: must not come again */
			last = e.key;
		}
		for (uint32_t i = 0; i < N; i++)
			assert_true(least[i] == UINT64_MAX || least[i] == UINT64_MAX - 1);
	}
}

/* The portable compare orders (key, tie) as the 128-bit number key * 2^64 + tie would. */
static void test_compare_is_lexicographic(void **state)
{
	const uint64_t keys[] = { 0, 1, UINT64_MAX - 1, UINT64_MAX };
	const uint32_t ties[] = { 0, 1, UINT32_MAX };

	(void)state;
	for (size_t a = 0; a < 4; a++)
		for (size_t b = 0; b < 4; b++)
			for (size_t s = 0; s < 3; s++)
				for (size_t t = 0; t < 3; t++) {
					struct lanes_heap_entry x = { keys[a], ties[s], 0 }, y = { keys[b], ties[t], 0 };
					int want = keys[a] < keys[b] || (keys[a] == keys[b] && ties[s] < ties[t]);

					assert_int_equal(!!lanes_heap_less(&x, &y), want);
				}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lazy_pops_in_order),
		cmocka_unit_test(test_indexed_decrease_key),
		cmocka_unit_test(test_compare_is_lexicographic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
