/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-sim: the random numbers of a run.  xoshiro256** seeded through
 * splitmix64, one generator per terminal (seed and node), so a run is the
 * same whatever order the terminals are stepped in.
 */
#ifndef LOOM_SIM_RNG_H
#define LOOM_SIM_RNG_H

#include <stdint.h>

#include <loom_util/prng.h>

struct sim_rng {
	uint64_t s[4];
};

static inline void sim_rng_seed(struct sim_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1342543de82ef95ull);

	for (int i = 0; i < 4; i++)
		r->s[i] = loom_splitmix64(&x);
}

static inline uint64_t sim_rng_next(struct sim_rng *r)
{
	uint64_t *s = r->s;
	uint64_t x = s[1] * 5, result = ((x << 7) | (x >> 57)) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = (s[3] << 45) | (s[3] >> 19);
	return result;
}

/* Uniform in [0, 1). */
static inline double sim_rng_unit(struct sim_rng *r)
{
	return (double)(sim_rng_next(r) >> 11) * 0x1.0p-53;
}

/* Uniform in [0, n), n > 0 (multiply-shift; bias below 2^-32 for n < 2^32). */
static inline uint32_t sim_rng_below(struct sim_rng *r, uint32_t n)
{
	return (uint32_t)(((sim_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

#endif
