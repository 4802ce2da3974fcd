// SPDX-License-Identifier: GPL-2.0
/*
 * Link framing: CRC-32C check value, round trip, partial reads, bad CRC,
 * bad magic, oversize length, garbage then resynchronisation.
 */
#include "crc32c.h"
#include "link.h"
#include "tap.h"

#include <string.h>

TAP_DEFINE;

/* Encode a DATA frame carrying a packet of @plen payload bytes filled with @fill. */
static size_t make_frame(uint8_t *out, size_t cap, uint32_t seq, uint16_t plen, uint8_t fill)
{
	struct loom_pkt_hdr h = { .type = LOOM_PKT_PUT, .len = plen, .op_id = seq };
	uint8_t payload[LOOM_PKT_MAX_PAYLOAD];

	memset(payload, fill, sizeof(payload));
	return link_encode(out, cap, LOOM_FRAME_DATA, 0, seq, 0, &h, sizeof(h), payload, plen);
}

/* Pull every frame/error out of @rx, counting them. */
static void drain(struct link_rx *rx, int *frames, int *errors, uint32_t *last_seq)
{
	struct link_frame f;
	enum link_rx_status st;

	while ((st = link_rx_next(rx, &f)) != LINK_RX_MORE) {
		if (st == LINK_RX_FRAME) {
			(*frames)++;
			*last_seq = f.hdr.seq;
		} else {
			(*errors)++;
		}
	}
}

static int frame_ok(const struct link_frame *f, uint32_t seq, uint16_t plen, uint8_t fill)
{
	struct loom_pkt_hdr h;

	if (f->hdr.magic != LOOM_FRAME_MAGIC || f->hdr.type != LOOM_FRAME_DATA ||
	    f->hdr.seq != seq || f->hdr.len != LOOM_PKT_HDR_SIZE + plen)
		return 0;
	memcpy(&h, f->body, sizeof(h));
	if (h.len != plen)
		return 0;
	for (unsigned int i = 0; i < plen; i++)
		if (f->body[LOOM_PKT_HDR_SIZE + i] != fill)
			return 0;
	return 1;
}

int main(void)
{
	uint8_t buf[4 * LOOM_FRAME_MAX], junk[300];
	struct link_rx rx;
	struct link_frame f;
	size_t n, n2;
	int frames, errors, ok;
	uint32_t last;

	tap_plan(16);

	tap_ok(crc32c(0, "123456789", 9) == 0xe3069283u, "CRC-32C check value of '123456789'");
	tap_ok(crc32c(crc32c(0, "1234", 4), "56789", 5) == 0xe3069283u,
	       "CRC-32C continues across calls");

	n = make_frame(buf, sizeof(buf), 7, LOOM_PKT_MAX_PAYLOAD, 0xab);
	tap_ok(n == LOOM_FRAME_MAX, "a maximal frame is LOOM_FRAME_MAX (%d) bytes", LOOM_FRAME_MAX);
	link_rx_init(&rx);
	link_rx_feed(&rx, buf, n);
	ok = link_rx_next(&rx, &f) == LINK_RX_FRAME && frame_ok(&f, 7, LOOM_PKT_MAX_PAYLOAD, 0xab) &&
	     link_rx_next(&rx, &f) == LINK_RX_MORE;
	tap_ok(ok, "round trip of a maximal DATA frame");

	{
		uint8_t big[LINK_BODY_MAX + 1] = { 0 };

		tap_ok(link_encode(buf, sizeof(buf), LOOM_FRAME_DATA, 0, 0, 0, big, sizeof(big), NULL, 0) == 0,
		       "encoder refuses a body longer than a packet");
	}

	/* partial reads: one byte at a time, two frames back to back */
	n = make_frame(buf, sizeof(buf), 1, 100, 0x11);
	n2 = make_frame(buf + n, sizeof(buf) - n, 2, 0, 0);
	link_rx_init(&rx);
	frames = errors = 0;
	ok = 1;
	for (size_t i = 0; i < n + n2; i++) {
		enum link_rx_status st;

		link_rx_feed(&rx, buf + i, 1);
		while ((st = link_rx_next(&rx, &f)) != LINK_RX_MORE) {
			if (st != LINK_RX_FRAME)
				errors++;
			else if (!frame_ok(&f, frames + 1, frames ? 0 : 100, 0x11))
				ok = 0;
			else
				frames++;
			if (st == LINK_RX_FRAME && i != (frames == 1 ? n - 1 : n + n2 - 1))
				ok = 0;	/* a frame must appear exactly when its last byte arrives */
		}
	}
	tap_ok(ok && frames == 2 && errors == 0,
	       "byte-at-a-time feeding yields both frames when complete (%d frames, %d errors)",
	       frames, errors);

	/* bad CRC: flip a payload bit; the next good frame still arrives */
	n = make_frame(buf, sizeof(buf), 3, 64, 0x22);
	buf[LOOM_FRAME_HDR_SIZE + LOOM_PKT_HDR_SIZE + 5] ^= 0x01;
	n2 = make_frame(buf + n, sizeof(buf) - n, 4, 64, 0x33);
	link_rx_init(&rx);
	link_rx_feed(&rx, buf, n + n2);
	tap_ok(link_rx_next(&rx, &f) == LINK_RX_BAD_CRC, "corrupted frame is reported as bad CRC");
	frames = errors = 0;
	drain(&rx, &frames, &errors, &last);
	tap_ok(frames == 1 && last == 4 && errors == 0,
	       "the frame after a bad CRC is received (%d frames, last seq %u, %d more errors)",
	       frames, last, errors);

	/* bad magic: garbage first, counted once, then resync */
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 37 + 11);
	junk[0] = 0x00;
	link_rx_init(&rx);
	link_rx_feed(&rx, junk, sizeof(junk));
	n = make_frame(buf, sizeof(buf), 9, 200, 0x44);
	link_rx_feed(&rx, buf, n);
	tap_ok(link_rx_next(&rx, &f) != LINK_RX_FRAME, "garbage before a frame is reported as an error");
	frames = 0;
	errors = 1;
	drain(&rx, &frames, &errors, &last);
	tap_ok(frames == 1 && last == 9,
	       "resynchronised on the frame after %zu garbage bytes (%d errors reported)",
	       sizeof(junk), errors);

	/* oversize length with the right magic */
	{
		struct loom_frame_hdr h = { .magic = LOOM_FRAME_MAGIC, .type = LOOM_FRAME_DATA,
					    .len = LINK_BODY_MAX + 1 };

		link_rx_init(&rx);
		link_rx_feed(&rx, &h, sizeof(h));
		tap_ok(link_rx_next(&rx, &f) == LINK_RX_BAD_LENGTH,
		       "a header claiming %d body bytes is rejected at once", LINK_BODY_MAX + 1);
		n = make_frame(buf, sizeof(buf), 10, 1, 0x55);
		link_rx_feed(&rx, buf, n);
		frames = errors = 0;
		drain(&rx, &frames, &errors, &last);
		tap_ok(frames == 1 && last == 10 && errors == 0,
		       "and the next frame is received (%d frames, %d errors)", frames, errors);
	}

	/* garbage containing magic bytes, fed in odd chunks, then 3 frames */
	{
		uint8_t stream[4096];
		size_t len = 0, off = 0;

		for (int i = 0; i < 200; i++) {
			stream[len++] = (uint8_t)(LOOM_FRAME_MAGIC & 0xff);
			stream[len++] = (uint8_t)(LOOM_FRAME_MAGIC >> 8);
			stream[len++] = (uint8_t)i;
		}
		for (uint32_t s = 20; s < 23; s++)
			len += make_frame(stream + len, sizeof(stream) - len, s, 150, (uint8_t)s);
		link_rx_init(&rx);
		frames = errors = 0;
		while (off < len) {
			size_t chunk = 13;

			if (chunk > len - off)
				chunk = len - off;
			off += link_rx_feed(&rx, stream + off, chunk);
			drain(&rx, &frames, &errors, &last);
		}
		tap_ok(frames == 3 && last == 22 && errors == 1,
		       "false magics in garbage: one error episode, all 3 later frames received (%d frames, %d errors)",
		       frames, errors);
	}
	/* a false header whose claimed length swallows the next real frame */
	{
		struct loom_frame_hdr fake = { .magic = LOOM_FRAME_MAGIC, .type = LOOM_FRAME_DATA,
					       .len = 60 };
		uint8_t stream[1024];
		size_t len = 0;

		memcpy(stream, &fake, sizeof(fake));
		len = sizeof(fake);
		len += make_frame(stream + len, sizeof(stream) - len, 30, 10, 0x66);
		len += make_frame(stream + len, sizeof(stream) - len, 31, 10, 0x77);
		link_rx_init(&rx);
		link_rx_feed(&rx, stream, len);
		frames = errors = 0;
		drain(&rx, &frames, &errors, &last);
		tap_ok(frames == 2 && last == 31 && errors == 1,
		       "a false header covering a real frame costs one error, not the frame (%d frames, %d errors)",
		       frames, errors);
	}
	/*
	 * receiving in place: a burst of 64-byte-packet frames read straight
	 * into the buffer (as port.c does), a frame split across two reads,
	 * and the buffer's room coming back once the frames are parsed
	 */
	{
		static uint8_t stream[LINK_RX_BUF];
		size_t len = 0, room, first = 0, nframes = 0;
		uint8_t *tail;

		while (len + LOOM_FRAME_MAX <= sizeof(stream) / 2) {
			len += make_frame(stream + len, sizeof(stream) - len, (uint32_t)(100 + nframes),
					  64, (uint8_t)nframes);
			nframes++;
		}
		link_rx_init(&rx);
		tail = link_rx_tail(&rx, &room);
		ok = room == LINK_RX_BUF;
		first = len - 50;		/* the last frame arrives in two reads */
		memcpy(tail, stream, first);
		link_rx_commit(&rx, first);
		frames = errors = 0;
		drain(&rx, &frames, &errors, &last);
		ok &= (size_t)frames == nframes - 1 && errors == 0;
		tail = link_rx_tail(&rx, &room);
		ok &= room >= LINK_RX_BUF - LOOM_FRAME_MAX;
		memcpy(tail, stream + first, len - first);
		link_rx_commit(&rx, len - first);
		drain(&rx, &frames, &errors, &last);
		tap_ok(ok && (size_t)frames == nframes && errors == 0 && last == 100 + nframes - 1,
		       "in place: %zu frames of 64-byte packets from one buffer, the last split over two reads (%d frames, %d errors)",
		       nframes, frames, errors);
		link_rx_tail(&rx, &room);
		tap_ok(room == LINK_RX_BUF && LINK_RX_BUF >= 16 * 1024,
		       "all parsed: the whole %d-byte buffer is free again", LINK_RX_BUF);
	}
	return tap_exit_status();
}
