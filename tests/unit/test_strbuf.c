/*
 * test_strbuf.c - the printf-free string builder of src/core/strbuf.h.
 *
 * The builder claims to fill a buffer exactly as snprintf(buf, size, ...)
 * does with the matching format, truncation included. Each test builds the
 * same text both ways, over edge values (0, 9, 10, UINT32_MAX, UINT64_MAX),
 * long strings, and every buffer size from 1 to past the whole text, and
 * compares all the bytes up to the NUL.
 */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <inttypes.h>

#include "core/strbuf.h"

static const uint64_t values[] = { 0, 1, 9, 10, 99, 100, 4095, 4096, 65535, 1000000,
				   UINT32_MAX, (uint64_t)UINT32_MAX + 1, 0x0123456789abcdefULL,
				   UINT64_MAX / 10, UINT64_MAX - 1, UINT64_MAX };
#define NVALUES (sizeof(values) / sizeof(values[0]))

/* Both buffers must hold the same string, and the builder's len its length. */
static void expect_same(const struct lanes_sb *b, const char *want)
{
	assert_string_equal(b->buf, want);
	assert_int_equal(b->len, strlen(want));
}

/* "%s %llu|0x%016llx|%04llx|%s" both ways, into buffers of every size. */
static void one_text(const char *s, uint64_t v, const char *tail)
{
	char want[600], got[600];
	int n = snprintf(want, sizeof(want), "%s %" PRIu64 "|0x%016" PRIx64 "|%04" PRIx64 "|%s", s, v,
			 v, v, tail);

	assert_true(n > 0 && (size_t)n < sizeof(want));
	for (size_t size = 1; size <= (size_t)n + 2; size++) {
		struct lanes_sb b;

		memset(got, 'x', sizeof(got));
		snprintf(want, size, "%s %" PRIu64 "|0x%016" PRIx64 "|%04" PRIx64 "|%s", s, v, v, v, tail);
		lanes_sb_init(&b, got, size);
		lanes_sb_str(&b, s);
		lanes_sb_mem(&b, " ", 1);
		lanes_sb_dec(&b, v);
		lanes_sb_str(&b, "|0x");
		lanes_sb_hex0(&b, v, 16);
		lanes_sb_str(&b, "|");
		lanes_sb_hex0(&b, v, 4);
		lanes_sb_str(&b, "|");
		lanes_sb_str(&b, tail);
		expect_same(&b, want);
		assert_int_equal(got[size], 'x'); /* nothing written past the buffer */
	}
}

static void test_numbers_match_snprintf(void **state)
{
	(void)state;
	for (size_t i = 0; i < NVALUES; i++)
		one_text("v", values[i], "");
}

static void test_long_strings_and_truncation(void **state)
{
	char lng[300];

	(void)state;
	memset(lng, 'a', sizeof(lng) - 1);
	lng[sizeof(lng) - 1] = '\0';
	one_text("", 0, "");
	one_text(lng, UINT64_MAX, "tail");
	one_text("head", UINT32_MAX, lng);
}

static void test_decimal_fields(void **state)
{
	char want[32], got[32];
	struct lanes_sb b;

	(void)state;
	for (size_t i = 0; i < NVALUES; i++) {
		snprintf(want, sizeof(want), "%" PRIu64, values[i]);
		lanes_sb_init(&b, got, sizeof(got));
		lanes_sb_dec(&b, values[i]);
		expect_same(&b, want);
		if (values[i] <= UINT32_MAX) {
			snprintf(want, sizeof(want), "%u", (unsigned)values[i]);
			expect_same(&b, want);
		}
	}
}

static void test_dup(void **state)
{
	char buf[16];
	struct lanes_sb b;
	char *s;

	(void)state;
	lanes_sb_init(&b, buf, sizeof(buf));
	s = lanes_sb_dup(&b);
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);
	lanes_sb_str(&b, "roots=");
	lanes_sb_dec(&b, 42);
	s = lanes_sb_dup(&b);
	assert_non_null(s);
	assert_string_equal(s, "roots=42");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_match_snprintf),
		cmocka_unit_test(test_long_strings_and_truncation),
		cmocka_unit_test(test_decimal_fields),
		cmocka_unit_test(test_dup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
