/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Credit counter: the sender's count of free flit buffers at the receiver
 * for one VC (or one internal buffer).  Registers: @avail, and @max (the
 * receiver's depth, set at configuration).  A flit sent takes one credit;
 * a virtual cut-through packet takes all of its flits at VC allocation.
 * Credits that come back are added at the clock edge that samples them,
 * so they are usable from the next cycle on.  A return beyond @max (a
 * peer that returns credits it never got) is refused and counted by the
 * caller, never trusted.
 */
#ifndef LOOM_ROUTER_CREDIT_H
#define LOOM_ROUTER_CREDIT_H

#include <stdbool.h>
#include <stdint.h>

struct credit {
	uint16_t avail;
	uint16_t max;
};

static inline void credit_init(struct credit *c, unsigned int max)
{
	c->avail = (uint16_t)max;
	c->max = (uint16_t)max;
}

static inline bool credit_has(const struct credit *c, unsigned int n)
{
	return c->avail >= n;
}

static inline void credit_take(struct credit *c, unsigned int n)
{
	c->avail = (uint16_t)(c->avail - n);
}

/* @n credits came back; false (nothing changed) if that is more than were out. */
static inline bool credit_give(struct credit *c, unsigned int n)
{
	if (n > (unsigned int)(c->max - c->avail))
		return false;
	c->avail = (uint16_t)(c->avail + n);
	return true;
}

#endif
