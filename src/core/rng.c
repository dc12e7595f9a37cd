/*
 * rng.c - xoshiro256** (Blackman and Vigna, 2018), seeded with splitmix64.
 *
 * Chosen for speed and a well-studied output; lanes_rng_below() rejects
 * the few values that would bias a bounded draw.
 */
#include "lanes/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void lanes_rng_seed(struct lanes_rng *rng, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&seed);
}

uint64_t lanes_rng_next(struct lanes_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t lanes_rng_below(struct lanes_rng *rng, uint64_t bound)
{
	/* Reject the low values that would make r % bound biased. */
	uint64_t threshold = -bound % bound;

	for (;;) {
		uint64_t r = lanes_rng_next(rng);

		if (r >= threshold)
			return r % bound;
	}
}

double lanes_rng_double(struct lanes_rng *rng)
{
	return (double)(lanes_rng_next(rng) >> 11) * 0x1.0p-53;
}
