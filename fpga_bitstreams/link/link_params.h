/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parameters of the cycle-level link unit, in one table (LINK_PARAMS) that
 * the defaults, the validation, the documentation check and the RTL read.
 * Each parameter has one name: the C field (lower case) and the RTL
 * parameter (upper case) are the same word.  Both ends of a cable are
 * built with the same parameters.
 */
#ifndef LOOM_LINK_PARAMS_H
#define LOOM_LINK_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <loom_hw/packet.h>

/* X(field, RTL_NAME, default, min, max, description) */
#define LINK_PARAMS(X) \
	X(lanes, LANES, 4, 1, 4, \
	  "lanes the link trains to: 1, 2 or 4; a noisy lane halves it") \
	X(lane_bytes, LANE_BYTES, 4, 1, 16, \
	  "bytes one lane carries per cycle (the lane width)") \
	X(flit_bytes, FLIT_BYTES, 16, 8, 64, \
	  "flit width of the attached router ports, a power of two") \
	X(vcs, VCS, 8, 1, 8, \
	  "virtual channels the link carries (0 .. vcs - 1)") \
	X(vc_buf_flits, VC_BUF_FLITS, 152, 1, 65536, \
	  "input buffer of each VC at either end, flits (at least one packet)") \
	X(wire_latency, WIRE_LATENCY, 8, 1, 4096, \
	  "cycles from a byte leaving the lanes to its arrival at the far end") \
	X(replay_frames, REPLAY_FRAMES, 64, 1, 4096, \
	  "replay buffer: DATA frames sent and not yet acknowledged") \
	X(ack_timeout, ACK_TIMEOUT, 1024, 1, 16777216, \
	  "cycles without acknowledgement progress before a go-back-N replay") \
	X(coalesce_delay, COALESCE_DELAY, 32, 0, 65536, \
	  "cycles pending acks and credits wait for a DATA frame to ride on") \
	X(lane_threshold, LANE_THRESHOLD, 16, 0, 65536, \
	  "errors of one lane within lane_window that drop it (0: never)") \
	X(lane_window, LANE_WINDOW, 1048576, 1, 1073741824, \
	  "cycles over which lane errors are counted") \
	X(tx_queue, TX_QUEUE, 2, 1, 16, \
	  "packets taken from the router and waiting for the serialiser") \
	X(rx_queue, RX_QUEUE, 4, 1, 64, \
	  "received packets waiting for delivery to the router")

struct link_params {
#define LINK_PARAM_FIELD(f, N, d, lo, hi, desc) uint32_t f;
	LINK_PARAMS(LINK_PARAM_FIELD)
#undef LINK_PARAM_FIELD
};

struct link_param_info {
	const char *name;	/* field and RTL parameter, lower case */
	const char *rtl;	/* RTL parameter name */
	uint32_t def, min, max;
	const char *desc;
	size_t offset;		/* of the field in struct link_params */
};

extern const struct link_param_info link_param_table[];
extern const unsigned int link_param_count;

/* Bytes of a packet the link carries: header and payload. */
#define LINK_PKT_MAX		(LOOM_PKT_HDR_SIZE + LOOM_PKT_MAX_PAYLOAD)
/* Bytes of an ACK_CREDIT frame. */
#define LINK_STATUS_FRAME	(LOOM_FRAME_HDR_SIZE + LOOM_FRAME_CREDITS_SIZE + LOOM_FRAME_CRC_SIZE)
/* The smallest frame: a header and its CRC. */
#define LINK_FRAME_MIN		(LOOM_FRAME_HDR_SIZE + LOOM_FRAME_CRC_SIZE)

void link_params_default(struct link_params *p);
/*
 * Check every parameter against its limits and against each other; on
 * failure write "PARAM VALUE: why (limit)" to @err and return false.
 */
bool link_params_check(const struct link_params *p, char *err, size_t len);
/* Set parameter @name to @value (limits checked by link_params_check()). */
bool link_params_set(struct link_params *p, const char *name, uint32_t value);

/* Flits of a packet of @bytes bytes. */
static inline unsigned int link_flits(const struct link_params *p, unsigned int bytes)
{
	return (bytes + p->flit_bytes - 1) / p->flit_bytes;
}

/* Bytes the lanes carry per cycle with @lanes lanes in use. */
static inline unsigned int link_rate(const struct link_params *p, unsigned int lanes)
{
	return lanes * p->lane_bytes;
}

/*
 * The longest time an acknowledgement may take with the link at one lane:
 * a maximal DATA frame serialised, the wire, the receiver's edge, the
 * frame the acknowledgement waits behind, the coalescing delay and an
 * ACK_CREDIT frame back.  ack_timeout must exceed it.
 */
unsigned int link_ack_round_trip(const struct link_params *p);

#endif
