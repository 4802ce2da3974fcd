/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the link unit: the two halves' clock edges and what they tell
 * each other.  Not for users of the unit (link_unit.h).
 */
#ifndef LOOM_LINK_INTERNAL_H
#define LOOM_LINK_INTERNAL_H

#include <string.h>

#include "link/link_unit.h"

/* Receive half: frames, delivery to the router, credits both ways. */
void link_recv_step(struct link_unit *l, const struct link_in *in);
void link_recv_reset(struct link_unit *l);
/* Transmit half: flits from the router, timers, the lanes, ready. */
void link_xmit_step(struct link_unit *l, const struct link_in *in);
void link_xmit_reset(struct link_unit *l);
/* The ready the next edge drives (from the state and the ready driven now). */
bool link_xmit_ready(const struct link_unit *l);
/* The lanes would idle for lack of the peer's credit (a counter's condition). */
bool link_xmit_credit_starved(const struct link_unit *l);

/* The peer's TRAIN arrived while training. */
void link_unit_came_up(struct link_unit *l);
/* This end's receiver dropped a lane: tell the peer. */
void link_unit_lane_dropped(struct link_unit *l);

/* Ring index @i + 1 modulo @n (no division in the step path). */
static inline unsigned int link_ring_next(unsigned int i, unsigned int n)
{
	return i + 1 == n ? 0 : i + 1;
}

/*
 * Copy one flit's @n bytes: the widths a configuration may choose are
 * copied with constant sizes (inline moves, not a library call per flit).
 */
static inline void link_copy_flit(uint8_t *dst, const uint8_t *src, unsigned int n)
{
	switch (n) {
	case 8: memcpy(dst, src, 8); break;
	case 16: memcpy(dst, src, 16); break;
	case 32: memcpy(dst, src, 32); break;
	case 64: memcpy(dst, src, 64); break;
	default: memcpy(dst, src, n); break;
	}
}

/* Acknowledgement or credits waiting to be sent. */
static inline bool link_status_pending(const struct link_unit *l)
{
	return l->rx.gbn.ack_due || l->credit.pending;
}

#endif
