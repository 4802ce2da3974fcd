/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C side of the unit harness's frame builders and replay buffers: the
 * frames link unit a (link/link_xmit.c) builds, cabled to its peer b by
 * the in-process wire, both with their routers' sources and sinks (the
 * link unit tests' harness, tests/unit/link_harness.h), under traffic both
 * ways, bit errors (NAKs, replays, lost acknowledgements and credits, lane
 * drops), maintenance frames, and the cable cut and restored (training).
 * The transmitter's state is read between its parts through the link
 * unit's probe (struct link_xmit).  A C interface, so the C++ harness
 * needs none of the packet headers.
 */
#ifndef LOOM_RTL_EQUIV_XBLD_H
#define LOOM_RTL_EQUIV_XBLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of a frame's body at most (a packet: header and largest payload). */
extern const unsigned int xbld_body_max;

/* One cycle of unit a's frame builder. */
struct xbld_cycle {
	/* the builder's inputs */
	bool flush, carrier;		/* a's carrier changed at this edge; it is on */
	bool set_train_due, set_train_answer, set_poll_answer, set_lane_notice, progress;
	bool maint_wr;			/* a maintenance frame accepted into the slot */
	unsigned int maint_wr_len;
	const uint8_t *maint_wr_body;	/* xbld_body_max bytes */
	bool training, up;
	unsigned int lanes_n;
	uint32_t node, port;
	bool resend_due, room, held_any;
	uint32_t take_seq, gbn_next;
	unsigned int take_slot;
	bool ack_due, nak_due;
	uint32_t ack_value;
	bool head_valid, head_has;
	unsigned int head_vc, head_len;
	const uint8_t *head_bytes;	/* xbld_body_max bytes, zero past head_len */
	uint32_t pending;
	bool deficit_any;
	unsigned int pick_vc;
	uint32_t pick_value;
	bool pick_was_pending;
	uint32_t grant[8];
	bool lanes_free;		/* the C model built frames at this edge (may have) */
	/* the C model's registers in this cycle, before its edge */
	bool train_due, train_answer, lane_notice_due, poll_answer_due, maint_full;
	unsigned int maint_len;
	uint64_t train_left;		/* train_retry - (now + 1), at least 0 */
	bool status_run;
	uint64_t status_left;		/* status_deadline - (now + 1), at least 0 */
	uint64_t progress_age;		/* now - credit_progress, at most ACK_TIMEOUT */
	/* the frame it built at this edge */
	bool built;
	uint8_t type, vc, credit_vc, flags;
	uint32_t seq, ack, credit;
	unsigned int body_len;
	const uint8_t *body;
	/* counters of this edge: replayed, tx_data_frames, acks_piggybacked,
	 * credits_piggybacked, acks_standalone, credits_standalone,
	 * status_frames, polls_sent, naks_sent, lane_notices */
	unsigned int counts[10];
	const char *error;		/* not NULL: what the harness itself got wrong */
};

/* What the RTL's frame asked of the other units at this edge. */
struct xbld_ops {
	bool take, pop, pick, adv, clr_ack, clr_nak;
};

struct xbld_model;

/*
 * Units a and b with LANES @lanes, LANE_BYTES @lane_bytes, VCS @vcs,
 * FLIT_BYTES @flit_bytes, REPLAY_FRAMES @replay, ACK_TIMEOUT @timeout,
 * COALESCE_DELAY @delay and LANE_THRESHOLD @threshold; lanes x lane bytes
 * at most the smallest frame (one frame built a cycle).
 */
struct xbld_model *xbld_new(unsigned int lanes, unsigned int lane_bytes, unsigned int vcs,
			    unsigned int flit_bytes, unsigned int replay, unsigned int timeout,
			    unsigned int delay, unsigned int threshold, uint64_t seed, char *err,
			    size_t len);
void xbld_free(struct xbld_model *m);
/* A new phase of the stimuli: traffic, bit errors, maintenance frames, cable cuts. */
void xbld_phase(struct xbld_model *m);
/* One cycle of both ends and the wire; *c gets a's frame builder in it. */
void xbld_step(struct xbld_model *m, struct xbld_cycle *c);
/*
 * The operations @o applied with the C model's functions to a's state
 * before its frame of this cycle give its state after it: NULL, or the
 * first part that differs, with its value so (*rtl) and the C model's
 * (*model).
 */
const char *xbld_check_ops(const struct xbld_model *m, const struct xbld_ops *o, uint64_t *rtl,
			   uint64_t *model);
/*
 * The run so far: frames built; of them DATA replays, NAK, TRAIN (lane
 * notices included), ACK_CREDIT, polls among them, maintenance frames.
 */
#define XBLD_COUNTS	7
void xbld_counts(const struct xbld_model *m, uint64_t counts[XBLD_COUNTS]);

#ifdef __cplusplus
}
#endif

#endif
