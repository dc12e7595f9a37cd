/*
 * test_bits.c - the portable fallbacks of src/core/bits.h (compiled here
 * with LANES_PORTABLE_BITS) against the compiler's builtins, on single bits,
 * neighbouring pairs and pseudo-random words.
 */
#define LANES_PORTABLE_BITS
#include "core/bits.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

static void check_word(uint64_t x)
{
	assert_int_equal(lanes_popcount64(x), __builtin_popcountll(x));
	assert_true(lanes_bswap64(x) == __builtin_bswap64(x));
	if (!x)
		return;
	assert_int_equal(lanes_ctz64(x), __builtin_ctzll(x));
	assert_int_equal(lanes_msb64(x), 63 - __builtin_clzll(x));
}

static void test_fallbacks_agree(void **state)
{
	uint64_t r = 0x9E3779B97F4A7C15ULL;

	(void)state;
	check_word(0);
	check_word(UINT64_MAX);
	for (int i = 0; i < 64; i++) {
		check_word(1ULL << i);
		check_word(3ULL << i);
	}
	for (int i = 0; i < 1000; i++) {
		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		check_word(r);
		check_word(r & (r >> 9));
	}
	assert_true(lanes_bswap64(0x0102030405060708ULL) == 0x0807060504030201ULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_fallbacks_agree) };

	return cmocka_run_group_tests(tests, NULL, NULL);
}
