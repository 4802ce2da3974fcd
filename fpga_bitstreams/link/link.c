// SPDX-License-Identifier: GPL-2.0
/*
 * Link layer framing: encoder and incremental, resynchronising parser.
 */
#include "link.h"
#include "crc32c.h"

#include <string.h>

size_t link_encode_hdr(uint8_t *out, size_t cap, const struct loom_frame_hdr *h,
		       const void *a, size_t alen, const void *b, size_t blen)
{
	struct loom_frame_hdr wire = *h;
	size_t body = alen + blen;
	size_t total = LOOM_FRAME_HDR_SIZE + body + LOOM_FRAME_CRC_SIZE;
	uint32_t crc;

	if (body > LINK_BODY_MAX || cap < total)
		return 0;
	wire.magic = LOOM_FRAME_MAGIC;
	wire.len = (uint16_t)body;
	memcpy(out, &wire, sizeof(wire));
	if (alen)
		memcpy(out + LOOM_FRAME_HDR_SIZE, a, alen);
	if (blen)
		memcpy(out + LOOM_FRAME_HDR_SIZE + alen, b, blen);
	crc = crc32c(0, out, LOOM_FRAME_HDR_SIZE + body);
	memcpy(out + LOOM_FRAME_HDR_SIZE + body, &crc, sizeof(crc));
	return total;
}

size_t link_encode(uint8_t *out, size_t cap, uint8_t type, uint8_t vc,
		   uint32_t seq, uint32_t ack,
		   const void *a, size_t alen, const void *b, size_t blen)
{
	struct loom_frame_hdr h = {
		.type = type,
		.vc = vc,
		.credit_vc = LOOM_FRAME_NO_CREDIT,
		.seq = seq,
		.ack = ack,
	};

	return link_encode_hdr(out, cap, &h, a, alen, b, blen);
}

void link_rx_init(struct link_rx *rx)
{
	rx->start = 0;
	rx->end = 0;
	rx->lim = SIZE_MAX;
	rx->in_garbage = 0;
}

void link_rx_window(struct link_rx *rx, size_t bytes)
{
	rx->lim = bytes > SIZE_MAX - rx->start ? SIZE_MAX : rx->start + bytes;
}

/* One past the last byte the parser may look at. */
static size_t link_rx_end(const struct link_rx *rx)
{
	return rx->end < rx->lim ? rx->end : rx->lim;
}

static void link_rx_compact(struct link_rx *rx)
{
	if (rx->start == 0)
		return;
	if (rx->lim != SIZE_MAX)
		rx->lim -= rx->start;	/* the window moves with the bytes */
	if (rx->start == rx->end) {
		rx->start = rx->end = 0;
		return;
	}
	memmove(rx->buf, rx->buf + rx->start, rx->end - rx->start);
	rx->end -= rx->start;
	rx->start = 0;
}

size_t link_rx_space(struct link_rx *rx)
{
	link_rx_compact(rx);
	return sizeof(rx->buf) - rx->end;
}

size_t link_rx_feed(struct link_rx *rx, const void *data, size_t len)
{
	size_t room = link_rx_space(rx);

	if (len > room)
		len = room;
	memcpy(rx->buf + rx->end, data, len);
	rx->end += len;
	return len;
}

uint8_t *link_rx_tail(struct link_rx *rx, size_t *room)
{
	*room = link_rx_space(rx);
	return rx->buf + rx->end;
}

void link_rx_commit(struct link_rx *rx, size_t len)
{
	if (len > sizeof(rx->buf) - rx->end)
		len = sizeof(rx->buf) - rx->end;
	rx->end += len;
}

static int link_magic_at(const uint8_t *p)
{
	return p[0] == (LOOM_FRAME_MAGIC & 0xff) && p[1] == (LOOM_FRAME_MAGIC >> 8);
}

/*
 * Skip to the next byte position that could start a frame (the first
 * magic byte followed by the second, or a lone first byte at the very end
 * of the buffer or window).  Returns 1 if something was skipped.
 */
static int link_rx_skip_to_magic(struct link_rx *rx)
{
	size_t from = rx->start, end = link_rx_end(rx);

	while (rx->start < end) {
		if (end - rx->start >= 2) {
			if (link_magic_at(rx->buf + rx->start))
				break;
		} else if (rx->buf[rx->start] == (LOOM_FRAME_MAGIC & 0xff)) {
			break;
		}
		rx->start++;
	}
	return rx->start != from;
}

enum link_rx_status link_rx_next(struct link_rx *rx, struct link_frame *out)
{
	struct loom_frame_hdr h;
	size_t avail, total;
	uint32_t crc_wire, crc_calc;

	for (;;) {
		avail = link_rx_end(rx) - rx->start;
		if (avail < 2)
			return LINK_RX_MORE;
		if (!link_magic_at(rx->buf + rx->start)) {
			int first = !rx->in_garbage;

			link_rx_skip_to_magic(rx);
			rx->in_garbage = 1;
			if (first)
				return LINK_RX_BAD_MAGIC;
			continue;
		}
		if (avail < LOOM_FRAME_HDR_SIZE)
			return LINK_RX_MORE;
		memcpy(&h, rx->buf + rx->start, sizeof(h));
		if (h.len > LINK_BODY_MAX) {
			/* a false magic inside garbage, or a corrupt header */
			int first = !rx->in_garbage;

			rx->start++;
			rx->in_garbage = 1;
			link_rx_skip_to_magic(rx);
			if (first)
				return LINK_RX_BAD_LENGTH;
			continue;
		}
		total = LOOM_FRAME_HDR_SIZE + h.len + LOOM_FRAME_CRC_SIZE;
		if (avail < total)
			return LINK_RX_MORE;
		memcpy(&crc_wire, rx->buf + rx->start + LOOM_FRAME_HDR_SIZE + h.len,
		       sizeof(crc_wire));
		crc_calc = crc32c(0, rx->buf + rx->start, LOOM_FRAME_HDR_SIZE + h.len);
		if (crc_wire != crc_calc) {
			/*
			 * Drop one byte only: the real frame may start inside
			 * what this header claimed to cover.
			 */
			int first = !rx->in_garbage;

			rx->start++;
			rx->in_garbage = 1;
			link_rx_skip_to_magic(rx);
			if (first)
				return LINK_RX_BAD_CRC;
			continue;
		}
		out->hdr = h;
		memcpy(out->body, rx->buf + rx->start + LOOM_FRAME_HDR_SIZE, h.len);
		rx->start += total;
		rx->in_garbage = 0;
		return LINK_RX_FRAME;
	}
}

const char *link_rx_status_name(enum link_rx_status st)
{
	switch (st) {
	case LINK_RX_MORE: return "need more bytes";
	case LINK_RX_FRAME: return "frame";
	case LINK_RX_BAD_MAGIC: return "bad magic";
	case LINK_RX_BAD_LENGTH: return "bad length";
	case LINK_RX_BAD_CRC: return "bad CRC";
	}
	return "?";
}
