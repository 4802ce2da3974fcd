/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lanes of a link, as pure logic.  A link has CARD_LANES lanes; frames are
 * striped over the lanes in use, so a frame's CRC error is charged to lane
 * (seq % lanes), seq being the sequence number the receiver expected (the
 * corrupt frame's own header cannot be trusted).  A lane whose errors
 * within a window reach a threshold is dropped: the link halves its lanes
 * (4 -> 2 -> 1) and its bandwidth, and never goes below one lane.  The
 * link trains again at full width.  Documented in
 * Documentation/hw/routing.rst.
 */
#ifndef LOOM_CARD_LANES_H
#define LOOM_CARD_LANES_H

#include <stdbool.h>
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
 * A CRC error on the frame expected with sequence number @seq at time
 * @now.  Charges it to a lane (*lane); returns true when that lane's
 * errors within @window_ms reached @threshold and the link dropped to
 * fewer lanes.
 */
bool lanes_error(struct lanes *l, uint32_t seq, uint64_t now, uint32_t threshold,
		 uint32_t window_ms, unsigned int *lane);

#endif
