/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C side of the unit harness's frame checkers: what link unit a's
 * receive half (link/link_recv.c) makes of the frames its framer
 * completes, one a cycle (RX_FRAMES 1), cabled to its peer b by the
 * in-process wire, both with their routers' sources and sinks (the link
 * unit tests' harness, tests/unit/link_harness.h), under traffic both
 * ways, bit errors (framing errors, flagged lanes, lane drops), frames of
 * b whose headers are made bad on the wire and sealed with a good CRC
 * (unknown types and flags, acknowledgements outside the window,
 * impossible credits, sequence numbers off, VCs and lengths the link does
 * not take, polls, lane notices, TRAIN frames of a peer still training,
 * maintenance frames), a's frames granting b more than a's buffer holds
 * while a's router input is not ready (credit overruns), and the cable
 * cut and restored (training).  The
 * receiver's state is read between its parts through the link unit's
 * receive probe (struct link_recv).  A C interface, so the C++ harness
 * needs none of the packet headers.
 */
#ifndef LOOM_RTL_EQUIV_RCV_H
#define LOOM_RTL_EQUIV_RCV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A result's header and body bytes, and a body's, at most. */
extern const unsigned int rcv_frame_bytes, rcv_body_max;

/* The counters the frame checker moves, in the order of its c_events bits. */
#define RCV_EVENTS	16
extern const char *const rcv_event_names[RCV_EVENTS];

/* One cycle of unit a's frame checker. */
struct rcv_cycle {
	/* the checker's inputs */
	bool flush;			/* a's carrier changed at this edge */
	bool training, up;		/* a's state after the carrier's edge */
	unsigned int lane_flags;
	bool res_valid;			/* a result of the framer checked at this edge */
	unsigned int res_status;	/* 1 a frame, 4 a framing error (any kind) */
	const uint8_t *res_frame;	/* rcv_frame_bytes bytes, zero past the frame */
	uint32_t tx_base, tx_next, rx_expected;
	uint32_t grant[8], received[8], granted[8], sent[8];
	bool maint_pop;			/* the received maintenance frame taken before the edge */
	/* the C model's registers in this cycle, before its edge */
	uint32_t peer_node, peer_port;
	bool lane_flagged, maint_full;
	unsigned int maint_len;
	const uint8_t *maint_body;	/* rcv_body_max bytes */
	/* its edge: the counters, the packet accepted */
	unsigned int rx_bytes;
	unsigned int events;		/* bit i: rcv_event_names[i] counted */
	bool dlv_valid;
	unsigned int dlv_vc, dlv_len;
	const uint8_t *dlv_body;	/* rcv_body_max bytes */
	const char *error;		/* not NULL: what the harness itself got wrong */
};

/* What the RTL's frame asked of the other units at this edge. */
struct rcv_ops {
	unsigned int ln_flags;
	bool ln_crc_err, ln_narrow;
	uint32_t ln_crc_seq;
	unsigned int ln_narrow_n;
	bool ack_valid, ack_nak;
	uint32_t ack_value;
	bool data_valid, rx_error;
	uint32_t data_seq;
	unsigned int upd_valid;		/* VC mask */
	uint32_t upd_value[8];
	bool acc_valid;
	unsigned int acc_vc;
	uint32_t acc_flits;
	bool rep, set_train_due, set_train_answer, set_poll_answer, progress, came_up;
};

struct rcv_model;

/*
 * Units a and b with LANES @lanes, LANE_BYTES @lane_bytes, VCS @vcs,
 * FLIT_BYTES @flit_bytes, BUF_DEPTH @depth, REPLAY_FRAMES @replay and
 * LANE_THRESHOLD @threshold, RX_FRAMES 1.
 */
struct rcv_model *rcv_new(unsigned int lanes, unsigned int lane_bytes, unsigned int vcs,
			  unsigned int flit_bytes, unsigned int depth, unsigned int replay,
			  unsigned int threshold, uint64_t seed, char *err, size_t len);
void rcv_free(struct rcv_model *m);
/* A new phase of the stimuli: traffic, bit errors, bad headers, maintenance, cable cuts. */
void rcv_phase(struct rcv_model *m);
/* One cycle of both ends and the wire; *c gets a's frame checker in it. */
void rcv_step(struct rcv_model *m, struct rcv_cycle *c);
/*
 * The operations @o applied with the C model's functions to a's state
 * before its frame of this cycle give its state after it: NULL, or the
 * first part that differs, with its value so (*rtl) and the C model's
 * (*model).
 */
const char *rcv_check_ops(const struct rcv_model *m, const struct rcv_ops *o, uint64_t *rtl,
			  uint64_t *model);
/*
 * The run so far: frames checked; of them framing errors, frames made bad
 * on the wire, DATA accepted, refused by a header check (the bad_* and
 * not_up_drops counters), NAKs and polls received, times the link came up.
 */
#define RCV_COUNTS	8
void rcv_counts(const struct rcv_model *m, uint64_t counts[RCV_COUNTS]);

#ifdef __cplusplus
}
#endif

#endif
