/*
 * test_core.c - the core utilities: the string map (keys are byte strings
 * that may hold NUL bytes: a fuzzer found a leak when they collided) and the
 * seeded random number generator.
 */
#include "testutil.h"

#include "core/util.h"
#include "io/text.h"
#include "lanes/rng.h"

static void test_strmap_keys_with_nul_bytes(void **state)
{
	struct lanes_strmap m;
	char key[8] = { 'k', '\0', 0, 0 };

	(void)state;
	lanes_strmap_init(&m);
	/* 300 keys that all read "k" as C strings: distinct, and must all survive rehashing */
	for (uint32_t i = 0; i < 300; i++) {
		key[2] = (char)(i & 0xff);
		key[3] = (char)(i >> 8);
		assert_int_equal(lanes_strmap_put(&m, key, 4, i), 0);
	}
	assert_int_equal(m.count, 300);
	for (uint32_t i = 0; i < 300; i++) {
		key[2] = (char)(i & 0xff);
		key[3] = (char)(i >> 8);
		assert_int_equal(lanes_strmap_get(&m, key, 4), i);
	}
	assert_int_equal(lanes_strmap_get(&m, "k", 1), UINT32_MAX);
	assert_int_equal(lanes_strmap_put(&m, "k", 1, 7), 0);
	assert_int_equal(lanes_strmap_get(&m, "k", 1), 7);
	assert_int_equal(lanes_strmap_put(&m, "k", 1, 8), 0); /* overwrite, no new key */
	assert_int_equal(m.count, 301);
	lanes_strmap_clear(&m); /* ASan's leak check sees a lost key here */
}

static void test_rng_is_seeded_and_bounded(void **state)
{
	struct lanes_rng a, b;
	uint32_t hist[7] = { 0 };

	(void)state;
	lanes_rng_seed(&a, 12345);
	lanes_rng_seed(&b, 12345);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(lanes_rng_next(&a), lanes_rng_next(&b));
	lanes_rng_seed(&b, 12346);
	assert_int_not_equal(lanes_rng_next(&a), lanes_rng_next(&b));
	for (int i = 0; i < 70000; i++) {
		uint64_t v = lanes_rng_below(&a, 7);
		double d = lanes_rng_double(&a);

		assert_true(v < 7);
		assert_true(d >= 0.0 && d < 1.0);
		hist[v]++;
	}
	/* each bucket expects 10000; 5 sigma is about 460 */
	for (int k = 0; k < 7; k++)
		assert_true(hist[k] > 9500 && hist[k] < 10500);
	assert_int_equal(lanes_rng_below(&a, 1), 0);
}

static void test_error_format(void **state)
{
	struct lanes_error err;
	char buf[256];

	(void)state;
	lanes_error_parse(&err, "fabric.txt", 12, "bad port %d", 3);
	assert_int_equal(err.code, LANES_EPARSE);
	assert_string_equal(lanes_error_format(&err, buf, sizeof(buf)), "fabric.txt:12: bad port 3");
	assert_int_equal(lanes_error_set(&err, LANES_EINVAL, "parameter 'a'"), LANES_EINVAL);
	assert_string_equal(lanes_error_format(&err, buf, sizeof(buf)), "parameter 'a'");
	assert_int_equal(lanes_error_set(NULL, LANES_ENOMEM, "x"), LANES_ENOMEM);
}

/* lanes_scan_uint() on s with a bound: 1 and the value, or 0 (nothing consumed). */
static int scan_uint(const char *s, uint64_t max, uint64_t *v)
{
	struct lanes_scan sc = lanes_scan_of(s, strlen(s));

	return lanes_scan_uint(&sc, max, v);
}

static void test_scan_uint_bounds(void **state)
{
	uint64_t v = 0;

	(void)state;
	/* a bound below 9 must not wrap: "9" was accepted for max 7 */
	assert_false(scan_uint("9", 7, &v));
	assert_false(scan_uint("8", 7, &v));
	assert_true(scan_uint("7", 7, &v) && v == 7);
	assert_false(scan_uint("1", 0, &v));
	assert_true(scan_uint("0", 0, &v) && v == 0);
	assert_true(scan_uint("000", 0, &v) && v == 0);
	assert_false(scan_uint("10", 9, &v));
	assert_true(scan_uint("254", 254, &v) && v == 254);
	assert_false(scan_uint("255", 254, &v));
	assert_false(scan_uint("260", 254, &v));
	assert_true(scan_uint("18446744073709551615", UINT64_MAX, &v) && v == UINT64_MAX);
	assert_false(scan_uint("18446744073709551616", UINT64_MAX, &v));
	assert_false(scan_uint("x", 10, &v));
}

/* Both branches of lanes_sort_few give qsort's order: every permutation of 1..6, and 40 values. */
static void test_sort_few_matches_qsort(void **state)
{
	uint64_t a[40], b[40];
	int perm[6] = { 0, 1, 2, 3, 4, 5 };

	(void)state;
	for (int n = 0; n < 720; n++) {
		int k = n, used = 0;

		for (int i = 0; i < 6; i++) { /* the n-th permutation, factorial base */
			int pick = k % (6 - i), c = -1;

			k /= 6 - i;
			while (pick >= 0)
				if (!(used & (1 << ++c)))
					pick--;
			used |= 1 << c;
			perm[i] = c;
		}
		for (int i = 0; i < 6; i++)
			a[i] = (uint64_t)perm[i] * 1000003u;
		lanes_sort_few(a, 6, sizeof(*a), 16, lanes_cmp_u64);
		for (int i = 0; i < 6; i++)
			assert_int_equal(a[i], (uint64_t)i * 1000003u);
	}
	for (int i = 0; i < 40; i++)
		a[i] = b[i] = (uint64_t)((i * 7919) % 40) << 33;
	lanes_sort_few(a, 40, sizeof(*a), 16, lanes_cmp_u64); /* over few: qsort */
	lanes_sort_few(b, 40, sizeof(*b), 64, lanes_cmp_u64); /* insertion */
	for (int i = 0; i < 40; i++) {
		assert_int_equal(a[i], (uint64_t)i << 33);
		assert_int_equal(b[i], (uint64_t)i << 33);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strmap_keys_with_nul_bytes),
		cmocka_unit_test(test_rng_is_seeded_and_bounded),
		cmocka_unit_test(test_error_format),
		cmocka_unit_test(test_scan_uint_bounds),
		cmocka_unit_test(test_sort_few_matches_qsort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
