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

/*
 * OpenSM's cl_heap as sssp_osm_dijkstra.c describes it, written plainly: a
 * 4-ary heap of (key, id); sifting up passes parents with strictly greater
 * keys; sifting down goes below the least child, the last of equal least
 * children, while that child is strictly smaller.
 */
struct model {
	uint64_t key[N];
	uint32_t id[N], at[N], n;
};

static void model_swap(struct model *m, uint32_t a, uint32_t b)
{
	uint64_t k = m->key[a];
	uint32_t v = m->id[a];

	m->key[a] = m->key[b];
	m->id[a] = m->id[b];
	m->key[b] = k;
	m->id[b] = v;
	m->at[m->id[a]] = a;
	m->at[m->id[b]] = b;
}

static void model_up(struct model *m, uint32_t i)
{
	while (i && m->key[(i - 1) / 4] > m->key[i]) {
		model_swap(m, i, (i - 1) / 4);
		i = (i - 1) / 4;
	}
}

static uint32_t model_pop(struct model *m)
{
	uint32_t top = m->id[0], i = 0;

	model_swap(m, 0, --m->n);
	for (;;) {
		uint32_t best = UINT32_MAX;

		for (uint32_t c = 4 * i + 1; c <= 4 * i + 4 && c < m->n; c++)
			if (best == UINT32_MAX || m->key[c] <= m->key[best])
				best = c;
		if (best == UINT32_MAX || !(m->key[best] < m->key[i]))
			return top;
		model_swap(m, i, best);
		i = best;
	}
}

/* The sssp engines' use: all ids at one key, then lowered keys and pops in turn (many ties). */
static void test_last_of_equal_children_is_cl_heap(void **state)
{
	static struct lanes_heap_entry room[N];
	static uint32_t pos[N], first_rule[N];
	static struct model m;
	struct lanes_heap_entry e = { 0, 0, 0 };
	uint64_t r = 0x9E3779B97F4A7C15ULL;
	int differs = 0;

	(void)state;
	for (int last = 1; last >= 0; last--) {
		struct lanes_heap h;

		lanes_heap_init(&h, room, pos, 2);
		h.last_of_equal_children = last;
		m.n = 0;
		for (uint32_t i = 0; i < N; i++) {
			lanes_heap_push(&h, 1000, 0, i); /* equal keys: the array stays in push order */
			m.key[m.n] = 1000;
			m.id[m.n] = i;
			m.at[i] = m.n++;
		}
		for (uint32_t popped = 0; popped < N; popped++) {
			for (int j = 0; j < 3; j++) { /* lower some keys still in the heap */
				uint32_t id = (uint32_t)(next_random(&r) % N);
				uint64_t key = next_random(&r) % 8;

				if (pos[id] != LANES_HEAP_ABSENT && key < h.entry[pos[id]].key) {
					lanes_heap_offer(&h, key, 0, id);
					m.key[m.at[id]] = key;
					model_up(&m, m.at[id]);
				}
			}
			assert_true(lanes_heap_pop(&h, &e));
			if (last)
				assert_int_equal(e.id, model_pop(&m));
			else
				differs |= e.id != first_rule[popped];
			first_rule[popped] = e.id;
		}
		r = 0x9E3779B97F4A7C15ULL; /* the same offers for the other rule */
	}
	assert_true(differs); /* the rule matters here, so the check above can fail */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lazy_pops_in_order),
		cmocka_unit_test(test_indexed_decrease_key),
		cmocka_unit_test(test_compare_is_lexicographic),
		cmocka_unit_test(test_last_of_equal_children_is_cl_heap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
