/*
 * bits.h - bit counts on 64-bit words: the lowest set bit, the number of set
 * bits, the highest set bit, and a byte swap. GCC and Clang compile these to
 * one instruction through their builtins; any other C11 compiler gets the
 * plain loops below, which give the same answers.
 */
#ifndef LANES_CORE_BITS_H
#define LANES_CORE_BITS_H

#include <stdint.h>

/** @return the index of the lowest set bit of x; x must not be 0 */
static inline unsigned lanes_ctz64(uint64_t x)
{
#if defined(__GNUC__) && !defined(LANES_PORTABLE_BITS)
	return (unsigned)__builtin_ctzll(x);
#else
	unsigned n = 0;

	while (!(x & 1)) {
		x >>= 1;
		n++;
	}
	return n;
#endif
}

/** @return the index of the highest set bit of x; x must not be 0 */
static inline unsigned lanes_msb64(uint64_t x)
{
#if defined(__GNUC__) && !defined(LANES_PORTABLE_BITS)
	return 63u - (unsigned)__builtin_clzll(x);
#else
	unsigned n = 0;

	while (x >>= 1)
		n++;
	return n;
#endif
}

/** @return the number of set bits of x */
static inline unsigned lanes_popcount64(uint64_t x)
{
#if defined(__GNUC__) && !defined(LANES_PORTABLE_BITS)
	return (unsigned)__builtin_popcountll(x);
#else
	unsigned n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
#endif
}

/** @return x with its eight bytes in reverse order */
static inline uint64_t lanes_bswap64(uint64_t x)
{
#if defined(__GNUC__) && !defined(LANES_PORTABLE_BITS)
	return __builtin_bswap64(x);
#else
	uint64_t y = 0;

	for (int i = 0; i < 8; i++, x >>= 8)
		y = y << 8 | (x & 0xff);
	return y;
#endif
}

#endif
