/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Go-back-N reliable delivery over one cable, as pure logic (no I/O, no
 * clock of its own): the sender's replay window and ack timer, and the
 * receiver's expected sequence number and NAK episode.  The caller owns
 * the frames; this only says which sequence number goes out next, what an
 * ACK or a NAK frees or rewinds, and what the receiver does with a DATA
 * frame.  Times are in the caller's unit (milliseconds in the emulator's
 * cable ports, clock cycles in the cycle-level link unit).
 *
 * Sequence numbers are 32 bits and wrap: every comparison is modulo 2^32
 * (a window never holds 2^31 frames).  An acknowledgement value is the
 * last sequence number received in order ("cumulative"): ack = a frees
 * every frame up to and including a.  A NAK carrying a additionally asks
 * for go-back-N from a + 1.
 */
#ifndef LOOM_CARD_GBN_H
#define LOOM_CARD_GBN_H

#include <stdbool.h>
#include <stdint.h>

#define GBN_WINDOW_MAX		4096u	/* frames a replay buffer may hold */
#define GBN_WINDOW_DEFAULT	64u
#define GBN_TIMEOUT_DEFAULT_MS	50u

struct gbn_tx {
	uint32_t base;		/* oldest unacknowledged sequence number */
	uint32_t next;		/* sequence number of the next new frame */
	uint32_t resend;	/* next frame to put on the wire (base..next) */
	unsigned int window;	/* replay buffer capacity in frames */
	unsigned int base_slot;	/* replay slot of base */
	unsigned int timeout;	/* ack timeout, in the caller's time unit */
	uint64_t deadline;	/* ack timer; 0 = not running */
};

/* Sender starting at sequence number @first with @window slots. */
void gbn_tx_init(struct gbn_tx *tx, uint32_t first, unsigned int window, unsigned int timeout);
/* Frames in the replay buffer (sent or queued for resend, not acked). */
static inline unsigned int gbn_tx_held(const struct gbn_tx *tx)
{
	return tx->next - tx->base;
}
/* Room for a new frame?  A full replay buffer back-pressures the queue. */
static inline bool gbn_tx_room(const struct gbn_tx *tx)
{
	return gbn_tx_held(tx) < tx->window;
}
/* Replay slot (0..window-1) that holds sequence number @seq. */
unsigned int gbn_tx_slot(const struct gbn_tx *tx, uint32_t seq);
/* Is a held frame due for retransmission (after a rewind)? */
static inline bool gbn_tx_resend_due(const struct gbn_tx *tx)
{
	return tx->resend != tx->next;
}
/*
 * Take the next frame to transmit at time @now: a retransmission if one
 * is due (returns true, *seq = its number), else a new frame if there is
 * room (returns false, *seq = the number to give it; the caller stores
 * the frame in gbn_tx_slot(*seq) first).  Call gbn_tx_room() or
 * gbn_tx_resend_due() before.
 */
bool gbn_tx_take(struct gbn_tx *tx, uint32_t *seq, uint64_t now);
/*
 * Could the receiver send @ack now?  True for base - 1 (nothing new: a
 * duplicate) up to the last frame sent; anything else is outside the
 * window: stale or impossible.
 */
static inline bool gbn_tx_ack_in_window(const struct gbn_tx *tx, uint32_t ack)
{
	return (uint32_t)(ack + 1 - tx->base) <= gbn_tx_held(tx);
}
/*
 * Cumulative acknowledgement @ack at time @now: frees every held frame up
 * to @ack.  Returns the number of frames freed; an old, duplicate or
 * impossible value (not inside the window) frees nothing.
 */
unsigned int gbn_tx_ack(struct gbn_tx *tx, uint32_t ack, uint64_t now);
/*
 * NAK @ack: acknowledge up to @ack, then go back to the first
 * unacknowledged frame.  Returns true if something will be retransmitted
 * (false for a NAK outside the window or with nothing in flight).
 */
bool gbn_tx_nak(struct gbn_tx *tx, uint32_t ack, uint64_t now);
/*
 * Ack timer: when frames are in flight and no acknowledgement progressed
 * for the timeout, go back to the first unacknowledged frame.  Returns true
 * when it fired.
 */
bool gbn_tx_timer(struct gbn_tx *tx, uint64_t now);

enum gbn_rx_verdict {
	GBN_RX_ACCEPT = 0,	/* the expected frame: deliver it */
	GBN_RX_DUPLICATE,	/* already delivered (a retransmission): discard */
	GBN_RX_OUT_OF_ORDER,	/* ahead of the expected one (a loss): discard */
};

struct gbn_rx {
	uint32_t expected;	/* sequence number of the next in-order frame */
	bool in_recovery;	/* a NAK was sent; silent until @expected arrives */
	bool seen_valid;	/* @last_seen holds a frame of this episode */
	uint32_t last_seen;	/* last out-of-order sequence number seen */
	bool nak_due;		/* send a NAK (ack = expected - 1) */
	bool ack_due;		/* send an acknowledgement (ACK or piggy-backed) */
};

void gbn_rx_init(struct gbn_rx *rx, uint32_t first);
/*
 * A DATA frame with a good CRC and sequence number @seq arrived.  In
 * recovery, one NAK per episode -- except when the sequence numbers go
 * back (the sender replayed) and the expected frame still did not come:
 * the replayed copy was lost too, so it NAKs again instead of waiting for
 * the sender's timer.
 */
enum gbn_rx_verdict gbn_rx_data(struct gbn_rx *rx, uint32_t seq);
/* A corrupt frame arrived (CRC, length or magic): ask for a replay once. */
void gbn_rx_error(struct gbn_rx *rx);
/* The acknowledgement value to send now: last in-order sequence number. */
static inline uint32_t gbn_rx_ack_value(const struct gbn_rx *rx)
{
	return rx->expected - 1;
}

#endif
