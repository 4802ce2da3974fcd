// SPDX-License-Identifier: GPL-2.0
/*
 * The loom-lab agent protocol's framing (tools/loom-lab/frame.c): frames
 * carry every byte value, survive being split into single bytes, and the
 * decoder resynchronises after garbage, corrupted frames and absurd
 * lengths, losing only the damaged frame.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"

static int test_no, failures;

static void check(int cond, const char *what)
{
	test_no++;
	printf("%sok %d - %s\n", cond ? "" : "not ", test_no, what);
	if (!cond)
		failures++;
}

struct sink {
	struct lab_decoder dec;
	int frames;
	uint8_t type[64];
	uint32_t chan[64];
	uint32_t len[64];
	uint8_t data[64][LAB_FRAME_MAX_PAYLOAD];
};

static void feed(struct sink *s, const uint8_t *p, size_t len, size_t step)
{
	while (len) {
		size_t room, n = len < step ? len : step;
		uint8_t *space = lab_decoder_space(&s->dec, &room);
		struct lab_frame f;

		if (n > room)
			n = room;
		memcpy(space, p, n);
		lab_decoder_commit(&s->dec, n);
		p += n;
		len -= n;
		while (lab_decoder_next(&s->dec, &f)) {
			if (s->frames < 64) {
				s->type[s->frames] = f.type;
				s->chan[s->frames] = f.chan;
				s->len[s->frames] = f.len;
				memcpy(s->data[s->frames], f.payload, f.len);
			}
			s->frames++;
		}
	}
}

static struct sink *new_sink(void)
{
	struct sink *s = calloc(1, sizeof(*s));

	if (!s)
		exit(1);
	lab_decoder_init(&s->dec);
	return s;
}

int main(void)
{
	static uint8_t stream[16 * LAB_FRAME_MAX_SIZE], all[LAB_FRAME_MAX_PAYLOAD];
	size_t n = 0, f1, f2;
	struct sink *s;
	int ok;

	printf("1..8\n");
	for (size_t i = 0; i < sizeof(all); i++)
		all[i] = (uint8_t)(i * 7 + (i >> 8));
	/* plenty of fake magics inside the payload */
	for (size_t i = 0; i + 1 < 64; i += 2) {
		all[i] = 'L';
		all[i + 1] = 'F';
	}

	/* 1: round trip of sizes 0, 1 and the maximum, every byte value */
	n += lab_frame_encode(stream + n, LAB_FRAME_RUN, 1, NULL, 0);
	n += lab_frame_encode(stream + n, LAB_FRAME_STDOUT, 2, all, 1);
	n += lab_frame_encode(stream + n, LAB_FRAME_STDERR, 0xfffffffeu, all,
			      LAB_FRAME_MAX_PAYLOAD);
	s = new_sink();
	feed(s, stream, n, n);
	ok = s->frames == 3 && s->type[0] == LAB_FRAME_RUN && s->len[0] == 0 &&
	     s->chan[1] == 2 && s->len[1] == 1 && s->data[1][0] == all[0] &&
	     s->type[2] == LAB_FRAME_STDERR && s->chan[2] == 0xfffffffeu &&
	     s->len[2] == LAB_FRAME_MAX_PAYLOAD &&
	     !memcmp(s->data[2], all, LAB_FRAME_MAX_PAYLOAD) && s->dec.dropped == 0;
	check(ok, "frames of 0, 1 and 4096 bytes round-trip with every byte value");
	free(s);

	/* 2: the same stream fed one byte at a time */
	s = new_sink();
	feed(s, stream, n, 1);
	check(s->frames == 3 && !memcmp(s->data[2], all, LAB_FRAME_MAX_PAYLOAD),
	      "a stream split into single bytes decodes the same");
	free(s);

	/* 3: garbage (with fake magics and headers) before the frames */
	{
		static uint8_t g[8192];
		size_t gn = 0;

		for (int i = 0; i < 500; i++)
			g[gn++] = (uint8_t)(rand() & 0xff);
		memcpy(g + gn, "LF\x04\x00\x01\x00\x00\x00\x10\x00\x00\x00", 12);
		gn += 12;	/* a header whose payload and CRC never come right */
		g[gn++] = 'L';
		memcpy(g + gn, stream, n);
		gn += n;
		s = new_sink();
		feed(s, g, gn, 97);
		check(s->frames == 3 && s->len[2] == LAB_FRAME_MAX_PAYLOAD &&
		      !memcmp(s->data[2], all, LAB_FRAME_MAX_PAYLOAD) && s->dec.dropped > 0,
		      "garbage before the frames is skipped and every frame survives");
		free(s);
	}

	/* 4: a corrupted frame costs that frame only */
	n = 0;
	f1 = lab_frame_encode(stream, LAB_FRAME_STDOUT, 5, all, 300);
	n += f1;
	f2 = lab_frame_encode(stream + n, LAB_FRAME_EXIT, 5, "\x07\0\0\0", 4);
	n += f2;
	stream[LAB_FRAME_HDR_SIZE + 17] ^= 0x40;
	s = new_sink();
	feed(s, stream, n, 13);
	check(s->frames == 1 && s->type[0] == LAB_FRAME_EXIT && s->chan[0] == 5 &&
	      lab_get_u32(s->data[0]) == 7,
	      "a frame with a flipped payload bit is dropped, the next one decodes");
	free(s);

	/* 5: a header claiming an absurd length does not swallow the stream */
	n = 0;
	memcpy(stream, "LF\x06\x00\x01\x00\x00\x00\xff\xff\xff\x7f", 12);
	n += 12;
	n += lab_frame_encode(stream + n, LAB_FRAME_READY, 0, "6.1.0", 5);
	s = new_sink();
	feed(s, stream, n, n);
	check(s->frames == 1 && s->type[0] == LAB_FRAME_READY && s->len[0] == 5 &&
	      !memcmp(s->data[0], "6.1.0", 5),
	      "an oversize length field is skipped, the following frame decodes");
	free(s);

	/* 6: a truncated frame waits for the rest instead of misparsing */
	n = lab_frame_encode(stream, LAB_FRAME_STDOUT, 9, all, 100);
	s = new_sink();
	feed(s, stream, n - 1, n);
	ok = s->frames == 0;
	feed(s, stream + n - 1, 1, 1);
	check(ok && s->frames == 1 && s->len[0] == 100,
	      "an incomplete frame is held until its last byte arrives");
	free(s);

	/* 7: many frames back to back keep their order and channels */
	n = 0;
	for (uint32_t i = 0; i < 40; i++)
		n += lab_frame_encode(stream + n, LAB_FRAME_STDOUT, i, all + i, i);
	s = new_sink();
	feed(s, stream, n, 4099);
	ok = s->frames == 40;
	for (int i = 0; ok && i < 40; i++)
		ok = s->chan[i] == (uint32_t)i && s->len[i] == (uint32_t)i &&
		     !memcmp(s->data[i], all + i, (size_t)i);
	check(ok, "40 frames back to back decode in order with their channels");
	free(s);

	/* 8: a fake header with a plausible length at the end of the noise does
	 * not hold back the real frame that follows it */
	n = 0;
	memcpy(stream, "LF\x04\x00\x01\x00\x00\x00\x00\x10\x00\x00", 12);
	n += 12;
	n += lab_frame_encode(stream + n, LAB_FRAME_READY, 0, "up", 2);
	s = new_sink();
	feed(s, stream, n, n);
	check(s->frames == 1 && s->type[0] == LAB_FRAME_READY,
	      "a fake header in the noise does not delay the next frame");
	free(s);

	return failures ? 1 : 0;
}
