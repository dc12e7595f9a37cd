/*
 * test_fmt.c - the number formatters and output buffer of src/io/fmt.h.
 *
 * Each formatter claims to print what a printf conversion prints. The
 * expected strings below are written out from printf's definition of that
 * conversion ("%04x" of 0xbfff is "bfff", "%-3u" of 15 is "15 ", ...), and a
 * sweep compares against snprintf itself over edge values and widths.
 */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <inttypes.h>

#include "io/fmt.h"

/* NUL-terminate what a formatter wrote from buf up to end, and compare. */
static void expect(const char *want, char *buf, const char *end)
{
	assert_true(end >= buf && end - buf < 64);
	buf[end - buf] = '\0';
	assert_string_equal(buf, want);
}

static void test_dec(void **state)
{
	char b[64];

	(void)state;
	expect("0", b, lanes_fmt_dec(b, 0));
	expect("9", b, lanes_fmt_dec(b, 9));
	expect("10", b, lanes_fmt_dec(b, 10));
	expect("255", b, lanes_fmt_dec(b, 255));
	expect("65535", b, lanes_fmt_dec(b, 0xffff));
	expect("4294967295", b, lanes_fmt_dec(b, UINT32_MAX));
	expect("18446744073709551615", b, lanes_fmt_dec(b, UINT64_MAX));
}

/* "%0*llu": zeros before, never cut. */
static void test_dec_zero_padded(void **state)
{
	char b[64];

	(void)state;
	expect("000", b, lanes_fmt_dec0(b, 0, 3));
	expect("007", b, lanes_fmt_dec0(b, 7, 3));
	expect("042", b, lanes_fmt_dec0(b, 42, 3));
	expect("255", b, lanes_fmt_dec0(b, 255, 3));
	expect("1000", b, lanes_fmt_dec0(b, 1000, 3));
	expect("0", b, lanes_fmt_dec0(b, 0, 0));
	expect("00000000000000000001", b, lanes_fmt_dec0(b, 1, 20));
	expect("018446744073709551615", b, lanes_fmt_dec0(b, UINT64_MAX, 21));
}

/* "%-*llu": spaces after, never cut. */
static void test_dec_left_justified(void **state)
{
	char b[64];

	(void)state;
	expect("0  ", b, lanes_fmt_dec_left(b, 0, 3));
	expect("15 ", b, lanes_fmt_dec_left(b, 15, 3));
	expect("254", b, lanes_fmt_dec_left(b, 254, 3));
	expect("1000", b, lanes_fmt_dec_left(b, 1000, 3));
	expect("9 ", b, lanes_fmt_dec_left(b, 9, 2));
	expect("15", b, lanes_fmt_dec_left(b, 15, 2));
	expect("100", b, lanes_fmt_dec_left(b, 100, 2));
	expect("5", b, lanes_fmt_dec_left(b, 5, 0));
	expect("18446744073709551615 ", b, lanes_fmt_dec_left(b, UINT64_MAX, 21));
}

/* "%0*llx": lower-case hex, zeros before, never cut (LIDs above 0xffff keep 5 digits). */
static void test_hex_zero_padded(void **state)
{
	char b[64];

	(void)state;
	expect("0000", b, lanes_fmt_hex0(b, 0, 4));
	expect("0001", b, lanes_fmt_hex0(b, 1, 4));
	expect("00ff", b, lanes_fmt_hex0(b, 0xff, 4));
	expect("bfff", b, lanes_fmt_hex0(b, 0xbfff, 4));
	expect("ffff", b, lanes_fmt_hex0(b, 0xffff, 4));
	expect("10000", b, lanes_fmt_hex0(b, 0x10000, 4));
	expect("1e204", b, lanes_fmt_hex0(b, 0x1e204, 4));
	expect("0", b, lanes_fmt_hex0(b, 0, 0));
	expect("abcdef", b, lanes_fmt_hex0(b, 0xabcdef, 1));
	expect("0000000000000000", b, lanes_fmt_hex0(b, 0, 16));
	expect("0002c90300a1b2c3", b, lanes_fmt_hex0(b, 0x0002c90300a1b2c3ull, 16));
	expect("8000000000000000", b, lanes_fmt_hex0(b, 0x8000000000000000ull, 16));
	expect("ffffffffffffffff", b, lanes_fmt_hex0(b, UINT64_MAX, 16));
	expect("0ffffffffffffffff", b, lanes_fmt_hex0(b, UINT64_MAX, 17));
}

/* Values around every power of 2 and of 10, and a few others. */
static size_t edge_values(uint64_t *v)
{
	size_t n = 0;
	uint64_t p10 = 1;

	for (uint64_t i = 0; i <= 300; i++)
		v[n++] = i;
	for (int b = 1; b < 64; b++) {
		v[n++] = (1ull << b) - 1;
		v[n++] = 1ull << b;
		v[n++] = (1ull << b) + 1;
	}
	for (int d = 1; d < 20; d++) {
		p10 *= 10;
		v[n++] = p10 - 1;
		v[n++] = p10;
	}
	v[n++] = UINT64_MAX;
	v[n++] = 0x0002c90300a1b2c3ull;
	return n;
}

/* Every edge value at widths 0..22 against snprintf with the named conversion. */
static void test_against_snprintf(void **state)
{
	uint64_t v[600];
	size_t n = edge_values(v);
	char b[64], want[64];

	(void)state;
	for (size_t i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "%" PRIu64, v[i]);
		expect(want, b, lanes_fmt_dec(b, v[i]));
		for (int w = 0; w <= 22; w++) {
			snprintf(want, sizeof(want), "%0*" PRIu64, w, v[i]);
			expect(want, b, lanes_fmt_dec0(b, v[i], (unsigned)w));
			snprintf(want, sizeof(want), "%-*" PRIu64, w, v[i]);
			expect(want, b, lanes_fmt_dec_left(b, v[i], (unsigned)w));
			snprintf(want, sizeof(want), "%0*" PRIx64, w, v[i]);
			expect(want, b, lanes_fmt_hex0(b, v[i], (unsigned)w));
		}
	}
}

/* Lines through the buffer, several times its size: the file gets all of them, in order. */
static void test_buffer_flushes_in_order(void **state)
{
	char *text = NULL, line[64];
	size_t len = 0, at = 0;
	FILE *mem = open_memstream(&text, &len);
	struct lanes_fmt *o = malloc(sizeof(*o));
	const uint32_t lines = 3 * LANES_FMT_BUF / 10;

	(void)state;
	assert_non_null(mem);
	assert_non_null(o);
	lanes_fmt_init(o, mem);
	for (uint32_t i = 0; i < lines; i++) {
		char *p = lanes_fmt_room(o, 64);

		p = lanes_fmt_str(p, "0x");
		p = lanes_fmt_hex0(p, i, 4);
		*p++ = ' ';
		p = lanes_fmt_dec0(p, i % 256, 3);
		*p++ = '\n';
		lanes_fmt_done(o, p);
	}
	lanes_fmt_flush(o);
	free(o);
	assert_int_equal(fclose(mem), 0);
	for (uint32_t i = 0; i < lines; i++) {
		int n = snprintf(line, sizeof(line), "0x%04x %03u\n", i, i % 256);

		assert_true(at + (size_t)n <= len);
		assert_memory_equal(text + at, line, (size_t)n);
		at += (size_t)n;
	}
	assert_int_equal(at, len);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dec),
		cmocka_unit_test(test_dec_zero_padded),
		cmocka_unit_test(test_dec_left_justified),
		cmocka_unit_test(test_hex_zero_padded),
		cmocka_unit_test(test_against_snprintf),
		cmocka_unit_test(test_buffer_flushes_in_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
