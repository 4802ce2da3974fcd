/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The draws of the unit harness's C stimuli: a splitmix64 stream per
 * model (loom_util/prng.h), so a seed replays them.
 */
#ifndef LOOM_RTL_EQUIV_DRAW_H
#define LOOM_RTL_EQUIV_DRAW_H

#include <stdbool.h>
#include <stdint.h>

#include <loom_util/prng.h>

static inline uint64_t eq_next(uint64_t *rng)
{
	return loom_splitmix64(rng);
}

/* 0 .. @n - 1 */
static inline unsigned int eq_below(uint64_t *rng, unsigned int n)
{
	return (unsigned int)(eq_next(rng) % n);
}

/* true in @p cases of a hundred */
static inline bool eq_percent(uint64_t *rng, unsigned int p)
{
	return eq_below(rng, 100) < p;
}

#endif
