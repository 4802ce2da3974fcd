/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The reproducible random streams of the card, its harnesses, the tools and
 * the tests: splitmix64 to seed (and to draw, where a stream needs no more),
 * xorshift64* to draw.  Every user gets the same sequence from the same seed
 * on every machine, so a seed printed by a failing run replays it.
 */
#ifndef LOOM_UTIL_PRNG_H
#define LOOM_UTIL_PRNG_H

#include <stdint.h>

#define LOOM_PRNG_GOLDEN_GAMMA	0x9e3779b97f4a7c15ull

/* splitmix64's output function: a bijective mix of 64 bits */
static inline uint64_t loom_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* splitmix64: advance @state by the golden gamma and mix it */
static inline uint64_t loom_splitmix64(uint64_t *state)
{
	*state += LOOM_PRNG_GOLDEN_GAMMA;
	return loom_mix64(*state);
}

/* xorshift64*: @state must not be 0 (it stays nonzero) */
static inline uint64_t loom_xorshift64s(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}

#endif
