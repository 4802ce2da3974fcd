/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parameters of the cycle-level link unit, in one table (LINK_PARAMS) that
 * the defaults, the validation, the documentation check and the RTL read,
 * in the style of the router's (router/params.h).  Each parameter has one
 * name: NAME is the RTL parameter and the name in messages, field its
 * lower-case form in struct link_params.  FLIT_BYTES, VCS and BUF_DEPTH
 * are the router's parameters of the same names: a card builds its links
 * with its router's values.  Both ends of a cable are built with the same
 * parameters.
 */
#ifndef LOOM_LINK_PARAMS_H
#define LOOM_LINK_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <loom_hw/packet.h>

/* X(NAME, field, default, min, max, description) */
#define LINK_PARAMS(X) \
	X(LANES, lanes, 4, 1, 4, \
	  "lanes the link trains to: 1, 2 or 4; a noisy lane halves it") \
	X(LANE_BYTES, lane_bytes, 4, 1, 16, \
	  "bytes one lane carries per cycle (the lane width)") \
	X(FLIT_BYTES, flit_bytes, 16, 8, 64, \
	  "flit width of the router ports, a multiple of 8") \
	X(VCS, vcs, 8, 1, 8, \
	  "virtual channels the link carries (0 .. VCS - 1)") \
	X(BUF_DEPTH, buf_depth, 152, 1, 4096, \
	  "input buffer depth per VC in flits at either end (at least one packet)") \
	X(WIRE_LATENCY, wire_latency, 8, 1, 4096, \
	  "cycles from a byte leaving the lanes to its arrival at the far end") \
	X(REPLAY_FRAMES, replay_frames, 64, 1, 4096, \
	  "replay buffer: DATA frames sent and not yet acknowledged") \
	X(ACK_TIMEOUT, ack_timeout, 1024, 1, 2147483647, \
	  "cycles without acknowledgement progress before a go-back-N replay") \
	X(COALESCE_DELAY, coalesce_delay, 32, 0, 65536, \
	  "cycles pending acks and credits wait for a DATA frame to ride on") \
	X(LANE_THRESHOLD, lane_threshold, 16, 0, 65536, \
	  "errors of one lane within LANE_WINDOW that drop it (0: never)") \
	X(LANE_WINDOW, lane_window, 1048576, 1, 1073741824, \
	  "cycles over which lane errors are counted") \
	X(TX_QUEUE, tx_queue, 3, 1, 16, \
	  "packets taken from the router and waiting for the serialiser") \
	X(RX_QUEUE, rx_queue, 4, 1, 64, \
	  "received packets waiting for delivery to the router") \
	X(RX_WINDOW, rx_window, 32768, LOOM_FRAME_MAX, 32768, \
	  "bytes the framer examines per cycle from where it stands (at least one maximal frame; 32768: its whole buffer)") \
	X(RX_FRAMES, rx_frames, 64, 1, 64, \
	  "frames and framing errors the framer completes per cycle")

struct link_params {
#define LINK_PARAM_FIELD(NAME, field, def, min, max, desc) uint32_t field;
	LINK_PARAMS(LINK_PARAM_FIELD)
#undef LINK_PARAM_FIELD
};

/* One row of the table, for validation, documentation and generators. */
struct link_param_desc {
	const char *name;	/* NAME */
	size_t offset;		/* of the field in struct link_params */
	uint32_t def, min, max;
	const char *desc;
};

extern const struct link_param_desc link_param_table[];
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
 * failure write "link parameter NAME = VALUE: why (limit)" to @err and
 * return false.
 */
bool link_params_check(const struct link_params *p, char *err, size_t len);
/* Set parameter @name (NAME, any case) to @value; false for no such parameter. */
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
 * ACK_CREDIT frame back.  ACK_TIMEOUT must exceed it.
 */
unsigned int link_ack_round_trip(const struct link_params *p);

#endif
