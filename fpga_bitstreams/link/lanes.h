/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lanes of a link, as pure logic.  A link has CARD_LANES lanes.  An error
 * is charged to the lane it happened on when the receiver knows it
 * (lanes_error_on(): the cycle-level link unit's line decoder flags lanes);
 * else a frame's CRC error is charged to lane (seq % lanes), seq being the
 * sequence number the receiver expected (the corrupt frame's own header
 * cannot be trusted).  A lane whose errors within a window reach a
 * threshold is dropped: the link halves its lanes (4 -> 2 -> 1) and its
 * bandwidth, and never goes below one lane.  The link trains again at full
 * width.  Documented in Documentation/hw/routing.rst and
 * Documentation/hw/link.rst.
 */
#ifndef LOOM_CARD_LANES_H
#define LOOM_CARD_LANES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LANES_MAX	4

struct lanes {
	unsigned int n;			/* lanes in use: 4, 2, 1 (0: link down) */
	uint32_t errors[LANES_MAX];	/* CRC errors per lane, cumulative */
	uint64_t win_start[LANES_MAX];	/* start of the lane's error window */
	uint32_t win_count[LANES_MAX];	/* errors in that window */
	uint32_t drops;			/* lanes dropped since training */
};

/* The link trained (@n lanes) or went down (0). */
void lanes_reset(struct lanes *l, unsigned int n);
/*
 * An error on lane @lane (< n) at time @now.  Returns true when that
 * lane's errors within @window (same time unit as @now) reached
 * @threshold and the link dropped to fewer lanes.
 */
bool lanes_error_on(struct lanes *l, unsigned int lane, uint64_t now, uint32_t threshold,
		    uint32_t window);
/*
 * A CRC error on the frame expected with sequence number @seq, by a
 * receiver that cannot tell which lane failed: charged to lane
 * (@seq % lanes in use), returned in *lane; see lanes_error_on().
 */
bool lanes_error(struct lanes *l, uint32_t seq, uint64_t now, uint32_t threshold,
		 uint32_t window, unsigned int *lane);

/*
 * Emulated link bandwidth: a token bucket that lets DATA frames leave at
 * (lanes in use) x (lane rate).  Pure logic on a nanosecond clock the
 * caller passes in.  Tokens are millibits, so a rate in Mbit/s (bits per
 * microsecond) adds exactly rate tokens per nanosecond; the bucket holds
 * at most four milliseconds of traffic (the event loop sleeps in whole
 * milliseconds and may oversleep) (and never less than two maximal
 * frames), so an idle link does not save up a burst.  A frame may leave
 * while the bucket is positive and takes its size out, possibly going
 * below zero: the next frame then waits until the debt is repaid.
 */
struct lane_pacer {
	uint32_t lane_mbps;	/* per lane; 0: unpaced */
	int64_t tokens;		/* millibits */
	uint64_t last_ns;	/* time of the last refill */
};

void lane_pacer_init(struct lane_pacer *pc, uint32_t lane_mbps, uint64_t now_ns);
/* Refill for the time since the last call at @lanes lanes. */
void lane_pacer_refill(struct lane_pacer *pc, unsigned int lanes, uint64_t now_ns);
/* True when a frame may leave now (always when unpaced). */
bool lane_pacer_may_send(const struct lane_pacer *pc);
/* A frame of @bytes left. */
void lane_pacer_charge(struct lane_pacer *pc, size_t bytes);
/* Nanoseconds until lane_pacer_may_send() at @lanes lanes (0: now). */
uint64_t lane_pacer_wait_ns(const struct lane_pacer *pc, unsigned int lanes);

#endif
