/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-lab agent protocol: the framed byte stream spoken on the guest's
 * second serial port (agent <-> supervisor) and on the exec sockets
 * (exec client <-> supervisor).
 *
 * A frame is a 12-byte header, a payload and a 4-byte CRC-32 trailer:
 *
 *   0  u8  magic0 'L'     4  u32 channel id (little endian)
 *   1  u8  magic1 'F'     8  u32 payload length (<= LAB_FRAME_MAX_PAYLOAD)
 *   2  u8  type (enum lab_frame_type)
 *   3  u8  header check: low byte of the CRC-32 of bytes 0-2 and 4-11
 *   12 payload bytes, then u32 CRC-32 of header and payload.
 *
 * Payloads are arbitrary bytes.  A receiver that meets a bad magic, a bad
 * header check, an oversize length or a wrong CRC drops one byte and
 * searches for the next magic, so noise on the line costs the damaged frame
 * only; the header check keeps a fake header in the noise from making the
 * receiver wait for a payload that never comes.
 */
#ifndef LOOM_LAB_FRAME_H
#define LOOM_LAB_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define LAB_FRAME_HDR_SIZE	12
#define LAB_FRAME_TRAILER_SIZE	4
#define LAB_FRAME_MAX_PAYLOAD	4096
#define LAB_FRAME_MAX_SIZE \
	(LAB_FRAME_HDR_SIZE + LAB_FRAME_MAX_PAYLOAD + LAB_FRAME_TRAILER_SIZE)

enum lab_frame_type {
	LAB_FRAME_RUN = 1,	 /* start a command: payload = u32 timeout ms + cmd */
	LAB_FRAME_STDIN = 2,	 /* bytes for the command's stdin */
	LAB_FRAME_STDIN_EOF = 3, /* no more stdin */
	LAB_FRAME_STDOUT = 4,	 /* bytes the command wrote to stdout */
	LAB_FRAME_STDERR = 5,	 /* bytes the command wrote to stderr */
	LAB_FRAME_EXIT = 6,	 /* command ended: payload = i32 exit status */
	LAB_FRAME_KILL = 7,	 /* kill the command (timeout, client gone) */
	LAB_FRAME_READY = 8,	 /* agent is up: payload = kernel release */
	LAB_FRAME_ERROR = 9,	 /* lab error for an exec client: payload = text */
};

struct lab_frame {
	uint8_t type;
	uint32_t chan;
	uint32_t len;
	const uint8_t *payload;	/* valid until the next decoder call */
};

/* Incremental decoder for one byte stream. */
struct lab_decoder {
	uint8_t buf[2 * LAB_FRAME_MAX_SIZE];
	size_t fill;
	size_t start;
	unsigned long dropped;	/* bytes skipped while resynchronising */
};

const char *lab_frame_type_name(uint8_t type);

/* Encodes a frame into out (LAB_FRAME_MAX_SIZE bytes); returns its size. */
size_t lab_frame_encode(uint8_t *out, uint8_t type, uint32_t chan,
			const void *payload, uint32_t len);

void lab_decoder_init(struct lab_decoder *d);
/* Space where the next read() may put bytes, and how many it may put. */
uint8_t *lab_decoder_space(struct lab_decoder *d, size_t *room);
void lab_decoder_commit(struct lab_decoder *d, size_t n);
/* 1 and fills *f when a whole valid frame is buffered, 0 otherwise. */
int lab_decoder_next(struct lab_decoder *d, struct lab_frame *f);

uint32_t lab_crc32(uint32_t crc, const void *data, size_t len);
void lab_put_u32(uint8_t *p, uint32_t v);
uint32_t lab_get_u32(const uint8_t *p);

#endif
