/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Transmit-side fault injection on one cable: bit errors at a given bit
 * error rate and whole-frame drops, applied to a frame after its CRC was
 * computed, so the receiver sees real corruption.  Pure logic with its own
 * deterministic random stream (xorshift64* seeded by splitmix64), so a run
 * with the same seed injects the same faults into the same byte stream.
 */
#ifndef LOOM_CARD_FAULT_H
#define LOOM_CARD_FAULT_H

#include <stddef.h>
#include <stdint.h>

struct fault {
	double ber;		/* probability that a transmitted bit flips */
	double drop;		/* probability that a frame is not sent */
	double corrupt;		/* probability that one bit of a frame flips */
	uint64_t rng;
	uint64_t gap;		/* bits to pass before the next flip (ber > 0) */
	uint64_t flipped_bits;
	uint64_t corrupted_frames;
	uint64_t dropped_frames;
};

enum fault_verdict {
	FAULT_NONE = 0,
	FAULT_CORRUPTED,	/* one or more bits of the frame were flipped */
	FAULT_DROPPED,		/* the frame must not be sent */
};

/* No faults; random stream from @seed (any value). */
void fault_init(struct fault *f, uint64_t seed);
/* Set the bit error rate; 0 <= @rate <= 1 (the caller checks). */
void fault_set_ber(struct fault *f, double rate);
void fault_set_drop(struct fault *f, double rate);
/* Flip one random bit of a frame with probability @rate per frame. */
void fault_set_corrupt(struct fault *f, double rate);
/* Apply the faults to one frame of @len bytes about to be transmitted. */
enum fault_verdict fault_apply(struct fault *f, uint8_t *frame, size_t len);
/*
 * The same, calling @hit(@ctx, bit) for every bit it flips (bit = byte
 * offset * 8 + bit number), so a wire can tell which lanes were hit.
 */
enum fault_verdict fault_apply_hits(struct fault *f, uint8_t *frame, size_t len,
				    void (*hit)(void *ctx, uint64_t bit), void *ctx);

#endif
