// SPDX-License-Identifier: GPL-2.0
/* loom-lab agent protocol: frame encoding and resynchronising decoding. */
#include <string.h>

#include "frame.h"

#define MAGIC0 'L'
#define MAGIC1 'F'

const char *lab_frame_type_name(uint8_t type)
{
	switch (type) {
	case LAB_FRAME_RUN: return "RUN";
	case LAB_FRAME_STDIN: return "STDIN";
	case LAB_FRAME_STDIN_EOF: return "STDIN-EOF";
	case LAB_FRAME_STDOUT: return "STDOUT";
	case LAB_FRAME_STDERR: return "STDERR";
	case LAB_FRAME_EXIT: return "EXIT";
	case LAB_FRAME_KILL: return "KILL";
	case LAB_FRAME_READY: return "READY";
	case LAB_FRAME_ERROR: return "ERROR";
	}
	return "UNKNOWN";
}

void lab_put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

uint32_t lab_get_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

uint32_t lab_crc32(uint32_t crc, const void *data, size_t len)
{
	static uint32_t table[256];
	const uint8_t *p = data;

	if (!table[1]) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	}
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static uint8_t header_check(const uint8_t *h)
{
	uint32_t crc = lab_crc32(0, h, 3);

	return (uint8_t)lab_crc32(crc, h + 4, LAB_FRAME_HDR_SIZE - 4);
}

size_t lab_frame_encode(uint8_t *out, uint8_t type, uint32_t chan,
			const void *payload, uint32_t len)
{
	if (len > LAB_FRAME_MAX_PAYLOAD)
		len = LAB_FRAME_MAX_PAYLOAD;
	out[0] = MAGIC0;
	out[1] = MAGIC1;
	out[2] = type;
	lab_put_u32(out + 4, chan);
	lab_put_u32(out + 8, len);
	out[3] = header_check(out);
	if (len)
		memcpy(out + LAB_FRAME_HDR_SIZE, payload, len);
	lab_put_u32(out + LAB_FRAME_HDR_SIZE + len,
		    lab_crc32(0, out, LAB_FRAME_HDR_SIZE + len));
	return LAB_FRAME_HDR_SIZE + len + LAB_FRAME_TRAILER_SIZE;
}

void lab_decoder_init(struct lab_decoder *d)
{
	d->fill = 0;
	d->start = 0;
	d->dropped = 0;
}

uint8_t *lab_decoder_space(struct lab_decoder *d, size_t *room)
{
	if (d->start) {
		memmove(d->buf, d->buf + d->start, d->fill - d->start);
		d->fill -= d->start;
		d->start = 0;
	}
	*room = sizeof(d->buf) - d->fill;
	return d->buf + d->fill;
}

void lab_decoder_commit(struct lab_decoder *d, size_t n)
{
	d->fill += n;
}

int lab_decoder_next(struct lab_decoder *d, struct lab_frame *f)
{
	for (;;) {
		const uint8_t *p = d->buf + d->start;
		size_t avail = d->fill - d->start;
		uint32_t len;

		if (avail < 2 && avail && p[0] != MAGIC0) {
			d->start++;
			d->dropped++;
			continue;
		}
		if (avail < LAB_FRAME_HDR_SIZE) {
			if (avail >= 2 && (p[0] != MAGIC0 || p[1] != MAGIC1))
				goto skip;
			return 0;
		}
		len = lab_get_u32(p + 8);
		if (p[0] != MAGIC0 || p[1] != MAGIC1 || p[3] != header_check(p) ||
		    len > LAB_FRAME_MAX_PAYLOAD)
			goto skip;
		if (avail < LAB_FRAME_HDR_SIZE + len + LAB_FRAME_TRAILER_SIZE)
			return 0;
		if (lab_crc32(0, p, LAB_FRAME_HDR_SIZE + len) !=
		    lab_get_u32(p + LAB_FRAME_HDR_SIZE + len))
			goto skip;
		f->type = p[2];
		f->chan = lab_get_u32(p + 4);
		f->len = len;
		f->payload = p + LAB_FRAME_HDR_SIZE;
		d->start += LAB_FRAME_HDR_SIZE + len + LAB_FRAME_TRAILER_SIZE;
		return 1;
skip:
		d->start++;
		d->dropped++;
	}
}
