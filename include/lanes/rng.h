/*
 * lanes/rng.h - the only source of randomness in liblanes.
 *
 * xoshiro256** seeded through splitmix64 (Blackman and Vigna). Every
 * randomised step takes a struct lanes_rng passed in by the caller, so a run
 * is reproducible from its seed and the library has no hidden state.
 */
#ifndef LANES_RNG_H
#define LANES_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Generator state; copy it to fork a reproducible stream. */
struct lanes_rng {
	uint64_t s[4];
};

/** Seed a generator. @param rng state to fill @param seed any value */
void lanes_rng_seed(struct lanes_rng *rng, uint64_t seed);

/** @return the next 64 random bits */
uint64_t lanes_rng_next(struct lanes_rng *rng);

/** @return a uniform integer in [0, bound); bound must be > 0 */
uint64_t lanes_rng_below(struct lanes_rng *rng, uint64_t bound);

/** @return a uniform double in [0, 1) */
double lanes_rng_double(struct lanes_rng *rng);

#ifdef __cplusplus
}
#endif
#endif
