/*
 * swar.h - byte-wise compares in 64-bit words ("SIMD within a register"),
 * for the min-hop tests that take eight destination switches at once
 * (minhop_swlids.c). Every operation stays inside its byte
 * (no carry or borrow crosses one), so a word read with memcpy gives the
 * same bytes back whatever the machine's byte order. Not public API.
 */
#ifndef LANES_SWAR_H
#define LANES_SWAR_H

#include <stdint.h>
#include <string.h>

#define SWAR_LO7 0x7f7f7f7f7f7f7f7fULL
#define SWAR_ONES 0x0101010101010101ULL
#define SWAR_HIGH (SWAR_ONES << 7)

/* The high bit of each zero byte of x, exactly (no borrow between bytes). */
static inline uint64_t swar_zero_bytes(uint64_t x)
{
	return ~(((x & SWAR_LO7) + SWAR_LO7) | x | SWAR_LO7);
}

/* Each byte of x plus one, modulo 256 (no carry between bytes). */
static inline uint64_t swar_inc_bytes(uint64_t x)
{
	return ((x & SWAR_LO7) + SWAR_ONES) ^ (x & SWAR_HIGH);
}

/* Eight bytes from p (any alignment). */
static inline uint64_t swar_word(const uint8_t *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
	return x;
}

/* High bits of the bytes where rv + 1 == rs: v one hop closer than s, per destination. */
static inline uint64_t swar_one_closer(const uint8_t *rv, const uint8_t *rs)
{
	return swar_zero_bytes(swar_inc_bytes(swar_word(rv)) ^ swar_word(rs));
}

/* High bits of the bytes of hops that are neither 0 nor 255 (unreachable). */
static inline uint64_t swar_between(const uint8_t *rs)
{
	uint64_t x = swar_word(rs);

	return (swar_zero_bytes(x) | swar_zero_bytes(~x)) ^ SWAR_HIGH;
}

#endif
