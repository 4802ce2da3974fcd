/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmap tokens: the opaque, page-aligned offsets LOOM_IOC_CTX_CREATE hands
 * out.  A token names (open file, context slot, region):
 *
 *   bits 62..32  cookie of the open file (never 0)
 *   bits 31..16  context slot in that file
 *   bits 15..12  region (enum loom_region)
 *   bits 11..0   zero (page aligned)
 *
 * The cookie makes a token of another file (or a stale one) fail with
 * -EINVAL instead of naming a context of the caller by accident.
 */
#ifndef LOOM_TOKEN_H
#define LOOM_TOKEN_H

#include <linux/bits.h>
#include <linux/types.h>

#define LOOM_TOKEN_COOKIE_SHIFT		32
#define LOOM_TOKEN_COOKIE_MASK		GENMASK(30, 0)
#define LOOM_TOKEN_SLOT_SHIFT		16
#define LOOM_TOKEN_SLOT_MAX		0xffffu
#define LOOM_TOKEN_REGION_SHIFT		12
#define LOOM_TOKEN_REGION_MASK		0xfu
#define LOOM_TOKEN_LOW_MASK		GENMASK_ULL(11, 0)

static inline u64 loom_token_make(u32 cookie, u32 slot, unsigned int region)
{
	return (u64)cookie << LOOM_TOKEN_COOKIE_SHIFT |
	       (u64)slot << LOOM_TOKEN_SLOT_SHIFT |
	       (u64)region << LOOM_TOKEN_REGION_SHIFT;
}

/* Returns false when @token cannot be one the driver issued. */
static inline bool loom_token_parse(u64 token, u32 *cookie, u32 *slot,
				    unsigned int *region)
{
	if (token & LOOM_TOKEN_LOW_MASK)
		return false;
	if ((token >> LOOM_TOKEN_COOKIE_SHIFT) & ~(u64)LOOM_TOKEN_COOKIE_MASK)
		return false;
	*cookie = token >> LOOM_TOKEN_COOKIE_SHIFT;
	*slot = (token >> LOOM_TOKEN_SLOT_SHIFT) & LOOM_TOKEN_SLOT_MAX;
	*region = (token >> LOOM_TOKEN_REGION_SHIFT) & LOOM_TOKEN_REGION_MASK;
	return true;
}

#endif /* LOOM_TOKEN_H */
