/* SPDX-License-Identifier: GPL-2.0 */
/* Position-dependent test pattern: misplaced or stale bytes are detected. */
#ifndef LOOM_XFER_PATTERN_H
#define LOOM_XFER_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include <loom_util/prng.h>

static inline uint64_t pattern_word(uint64_t seed, uint64_t index)
{
	return loom_mix64(seed + LOOM_PRNG_GOLDEN_GAMMA * (index + 1));
}

static inline uint8_t pattern_byte(uint64_t seed, uint64_t off)
{
	return (uint8_t)(pattern_word(seed, off / 8) >> (8 * (off % 8)));
}

static inline void pattern_fill(uint8_t *buf, size_t len, uint64_t seed)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = pattern_byte(seed, i);
}

/* Returns the offset of the first wrong byte, or len if all are right. */
static inline size_t pattern_check(const uint8_t *buf, size_t len, uint64_t seed,
				   size_t *bad_count)
{
	size_t first = len, bad = 0;

	for (size_t i = 0; i < len; i++) {
		if (buf[i] != pattern_byte(seed, i)) {
			if (first == len)
				first = i;
			bad++;
		}
	}
	*bad_count = bad;
	return first;
}

#endif
