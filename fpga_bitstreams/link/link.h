/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Link layer framing over a byte stream: frame header + body + CRC-32C.
 *
 * The encoder writes complete frames into a caller's buffer.  The receiver
 * is incremental: feed it whatever the socket returned, then pull frames
 * out until it needs more bytes.  Framing errors (bad magic, impossible
 * length, CRC mismatch) are reported once per error episode (from the
 * first bad byte to the next good frame) and the parser resynchronises by
 * scanning for LOOM_FRAME_MAGIC, one byte past the failed start.  Sequence checking,
 * acknowledgements and retransmission live above this layer.
 */
#ifndef LOOM_CARD_LINK_H
#define LOOM_CARD_LINK_H

#include <stddef.h>
#include <stdint.h>

#include <loom_hw/packet.h>

#define LINK_BODY_MAX	(LOOM_PKT_HDR_SIZE + LOOM_PKT_MAX_PAYLOAD)

struct link_frame {
	struct loom_frame_hdr hdr;
	uint8_t body[LINK_BODY_MAX];	/* hdr.len bytes valid */
};

/*
 * Encode a frame with header @h (its magic and len are filled in here)
 * whose body is @a (@alen bytes) followed by @b (@blen bytes) into @out.
 * Returns the frame's size, or 0 when the body is longer than
 * LINK_BODY_MAX or @cap is too small.
 */
size_t link_encode_hdr(uint8_t *out, size_t cap, const struct loom_frame_hdr *h,
		       const void *a, size_t alen, const void *b, size_t blen);
/* The same for a header without a credit count (credit_vc = LOOM_FRAME_NO_CREDIT). */
size_t link_encode(uint8_t *out, size_t cap, uint8_t type, uint8_t vc,
		   uint32_t seq, uint32_t ack,
		   const void *a, size_t alen, const void *b, size_t blen);

enum link_rx_status {
	LINK_RX_MORE = 0,	/* no complete frame buffered */
	LINK_RX_FRAME,		/* *out holds a frame with a good CRC */
	LINK_RX_BAD_MAGIC,	/* garbage skipped up to the next magic */
	LINK_RX_BAD_LENGTH,	/* header with an impossible length */
	LINK_RX_BAD_CRC,	/* complete frame, CRC mismatch */
};

/*
 * Receive buffer: room for many frames, so one read() of the cable brings
 * in a burst (about 300 frames of 64-byte packets) and the parser walks it
 * without another system call; at least two maximal frames in any case.
 */
#define LINK_RX_BUF	(32 * 1024)
_Static_assert(LINK_RX_BUF >= 2 * LOOM_FRAME_MAX, "link rx buffer below two frames");

struct link_rx {
	uint8_t buf[LINK_RX_BUF];
	size_t start;		/* first unparsed byte */
	size_t end;		/* one past the last buffered byte */
	size_t lim;		/* the parser looks at no byte from here on (its window) */
	int in_garbage;		/* inside an error episode already reported */
};

void link_rx_init(struct link_rx *rx);
/* Free space in bytes; link_rx_feed() accepts at most this much. */
size_t link_rx_space(struct link_rx *rx);
/* Append received bytes; returns how many were taken. */
size_t link_rx_feed(struct link_rx *rx, const void *data, size_t len);
/*
 * Receive in place: link_rx_tail() returns where the next bytes go and
 * their room (*room, as link_rx_space()); read into it, then
 * link_rx_commit() the bytes actually received (at most *room).
 */
uint8_t *link_rx_tail(struct link_rx *rx, size_t *room);
void link_rx_commit(struct link_rx *rx, size_t len);
/*
 * Bound what the parser examines until the next call of this function to
 * the @bytes bytes from where it stands: link_rx_next() treats the end of
 * that window as the end of the buffer (a hardware framer's window of a
 * cycle).  SIZE_MAX, as link_rx_init() sets, bounds nothing.
 */
void link_rx_window(struct link_rx *rx, size_t bytes);
/* Bytes lie beyond the window: the parser stopped at its window, not for want of bytes. */
static inline int link_rx_past_window(const struct link_rx *rx)
{
	return rx->end > rx->lim;
}
/* Pull the next frame or error; call until it returns LINK_RX_MORE. */
enum link_rx_status link_rx_next(struct link_rx *rx, struct link_frame *out);

const char *link_rx_status_name(enum link_rx_status st);

#endif
