/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers of the guest-side libfabric test programs: time and data patterns. */
#ifndef OFI_UTIL_H
#define OFI_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

static inline int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000ll + t.tv_nsec / 1000000;
}

static inline unsigned char pat(int seed, size_t i)
{
	return (unsigned char)(seed * 29 + i * 7 + (i >> 9));
}

static inline void fill(unsigned char *b, size_t n, int seed)
{
	for (size_t i = 0; i < n; i++)
		b[i] = pat(seed, i);
}

/* the first byte of @b that is not pattern @seed, or -1 */
static inline long bad_byte(const unsigned char *b, size_t n, int seed)
{
	for (size_t i = 0; i < n; i++)
		if (b[i] != pat(seed, i))
			return (long)i;
	return -1;
}

#endif /* OFI_UTIL_H */
