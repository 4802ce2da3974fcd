/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cycle-level link unit: one end of a cable, between a router port and
 * the lanes.  Pure logic with an explicit clock: link_unit_step() is the
 * clock edge at the end of cycle now; it samples the inputs of that cycle
 * and sets the registered outputs of cycle now + 1.  No I/O, no wall
 * clock, no allocation after link_unit_init().
 *
 * Router side (router/chan.h), per cycle:
 *   in.flit   router output port -> link: a flit to send; the router
 *             drives one only in a cycle after one in which out.back.ready
 *             was set, and the link takes it;
 *   out.back  link -> router output port: ready, and the credits the peer
 *             freed beyond the BUF_DEPTH per VC the port starts with;
 *   out.flit  link -> router input port: a received flit, driven only in a
 *             cycle after one in which in.back.ready was set;
 *   in.back   router input port -> link: credits (flits freed, per VC),
 *             which the link returns to the peer.
 *
 * Cable side: frames.  The transmitter frames whole packets (header,
 * packet, CRC-32C), numbers DATA frames and keeps them for go-back-N
 * replay, and serialises frames back to back at lanes x lane_bytes bytes
 * per cycle.  Each frame that starts on the lanes is put in an outbox with
 * the cycles of its first and last byte (link_unit_tx_peek/pop); an
 * in-process wire (link_wire.h) delivers it wire_latency cycles after its
 * last byte, a stream transport writes its bytes to a socket.  Received
 * bytes go into the receiver's framer (link_unit_rx_bytes, or
 * link_unit_rx_tail/commit to read in place); the next edge checks every
 * complete frame.  The receiver forwards a packet only after its whole
 * frame's CRC was checked: a corrupt frame never reaches the router.
 *
 * Acknowledgements and credit counts ride in the headers of DATA frames
 * going the other way; an ACK_CREDIT frame carrying all of them is sent
 * only when they waited coalesce_delay cycles without one.  Documented in
 * Documentation/hw/link.rst.
 */
#ifndef LOOM_LINK_UNIT_H
#define LOOM_LINK_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gbn.h"
#include "lanes.h"
#include "link.h"
#include "link/link_counters.h"
#include "link/link_credit.h"
#include "link/link_params.h"
#include "router/chan.h"

/* Frames that may start in one cycle, and then some: the outbox. */
#define LINK_OUTBOX	16

enum link_state {
	LINK_DOWN = 0,		/* no carrier on the cable */
	LINK_TRAINING,		/* TRAIN sent, waiting for the peer's */
	LINK_UP,
};

/* Router-side wires the unit samples at the clock edge. */
struct link_in {
	struct flit flit;		/* from the router's output port */
	struct chan_back back;		/* from the router's input port */
};

/* Router-side wires the unit drives (registers). */
struct link_out {
	struct flit flit;		/* to the router's input port */
	struct chan_back back;		/* to the router's output port */
};

/* A packet inside the link: header and payload, whole flits. */
struct link_pkt {
	uint16_t len;			/* bytes: header + payload */
	uint8_t vc;
	uint8_t flits;
	uint8_t bytes[LINK_PKT_MAX + FLIT_BYTES_MAX];
};

/* A frame that starts on the lanes. */
struct link_txframe {
	uint64_t first_cycle;		/* its first byte is on the lanes */
	uint64_t last_cycle;		/* its last byte is on the lanes */
	uint16_t len;
	uint8_t phase;			/* byte offset of its start in first_cycle */
	uint8_t lanes;			/* lanes in use */
	uint8_t lane_bytes;
	uint8_t type;			/* LOOM_FRAME_* */
	uint8_t bytes[LOOM_FRAME_MAX];
};

struct link_unit;

/* Transmit half; the buffers last, the state a clock edge touches first. */
struct link_xmit {
	unsigned int q_head, q_count;	/* complete packets */
	unsigned int q_tail;		/* slot after the last complete packet */
	uint32_t assembling;		/* VCs whose packet is being assembled */
	bool ready_before;		/* ready in the previous cycle: a flit may come */
	uint32_t discarding;		/* VCs dropping flits up to a tail */
	bool train_due;			/* TRAIN (vc 0) to send */
	bool train_answer;		/* ... carrying LOOM_FRAME_F_TRAINED */
	bool lane_notice_due;
	bool poll_answer_due;		/* the peer polled: ACK_CREDIT now */
	bool maint_full;
	uint8_t asm_expect[CHAN_VCS_MAX];	/* flits each VC's packet header announces */
	unsigned int cur_rem;		/* bytes of the frame on the lanes still to go */
	unsigned int cur_rate;		/* its bytes per cycle */
	unsigned int ob_head, ob_count;
	uint64_t train_retry;		/* cycle to send TRAIN again while training */
	uint64_t status_deadline;	/* ACK_CREDIT may start in this cycle; 0: none */
	uint64_t credit_progress;	/* last cycle credits moved (poll timer) */
	struct gbn_tx gbn;
	struct link_pkt *queue;		/* tx_queue packets from the router */
	struct link_pkt *asmb;		/* per VC: the packet being assembled */
	struct link_pkt *replay;	/* replay_frames slots */
	uint16_t maint_len;
	uint8_t maint[LINK_BODY_MAX];	/* maintenance frame slot */
	/*
	 * If set: called in every clock edge that serialises, after the rest
	 * of the frame on the lanes and before new frames are built; @free
	 * tells that one may start.  What the RTL's equivalence harness reads
	 * the transmitter's state through, between its parts (a test seam).
	 */
	void (*probe)(void *ctx, const struct link_unit *l, bool free);
	void *probe_ctx;
	struct link_txframe outbox[LINK_OUTBOX];
};

/* Receive half; the framer's buffer last. */
struct link_recv {
	struct gbn_rx gbn;
	unsigned int q_head, q_count;
	unsigned int q_tail;		/* slot the next frame is parsed into */
	unsigned int flit;		/* next flit of the head packet */
	bool fed;			/* bytes arrived since the framer ran dry */
	bool lane_flagged;		/* since the last good frame */
	bool maint_full;
	uint32_t lane_flags;		/* lanes the line decoder flagged */
	struct link_frame *queue;	/* rx_queue frames: accepted DATA */
	/*
	 * If set: called in every clock edge, after the carrier's edge as the
	 * receive half starts (@checked false) and after it checked the frames
	 * of the cycle, before delivery (@checked true).  What the RTL's
	 * equivalence harness reads the receiver's state through (a test seam).
	 */
	void (*probe)(void *ctx, const struct link_unit *l, bool checked);
	void *probe_ctx;
	uint16_t maint_len;
	uint8_t maint[LINK_BODY_MAX];	/* received maintenance frame */
	struct link_rx framer;		/* bytes from the cable, resynchronising */
};

struct link_unit {
	struct link_params p;
	uint64_t now;			/* the current cycle */
	enum link_state state;
	bool carrier;			/* the cable's carrier, as last sampled */
	bool carrier_in;		/* the carrier input, sampled at the next edge */
	bool out_credits;		/* out.back.credits holds some */
	uint32_t node, port;		/* our identity in TRAIN frames */
	uint32_t peer_node, peer_port;	/* the peer's, from its TRAIN */
	struct link_out out;
	struct link_credit credit;
	struct lanes lanes;		/* lanes in use, errors per lane */
	struct link_counters cnt;
	struct link_xmit tx;
	struct link_recv rx;		/* last: the framer's 32 KiB */
};

/*
 * Build a link unit with parameters @p (checked: on error a message
 * naming the parameter is written to @err and false returned).  The
 * cable is down until link_unit_carrier().
 */
bool link_unit_init(struct link_unit *l, const struct link_params *p, char *err, size_t len);
void link_unit_free(struct link_unit *l);
/* Node and port number this end announces in its TRAIN frames. */
void link_unit_set_identity(struct link_unit *l, uint32_t node, uint32_t port);
/*
 * The cable's carrier came (@on) or went.  Coming: the link trains (both
 * ends start at sequence number 0, all lanes).  Going: the link is down;
 * the packets it held for transmission are lost (lost_frames).
 */
void link_unit_carrier(struct link_unit *l, bool on);

/* One clock edge: the inputs of cycle now, the outputs of cycle now + 1. */
void link_unit_step(struct link_unit *l, const struct link_in *in);
static inline const struct link_out *link_unit_out(const struct link_unit *l)
{
	return &l->out;
}
static inline bool link_unit_up(const struct link_unit *l)
{
	return l->state == LINK_UP;
}

/* ---- cable side ---- */
/* The oldest frame in the outbox, or NULL (its bytes may be altered: faults). */
static inline struct link_txframe *link_unit_tx_peek(struct link_unit *l)
{
	return l->tx.ob_count ? &l->tx.outbox[l->tx.ob_head] : NULL;
}
void link_unit_tx_pop(struct link_unit *l);
/* Bytes received from the cable; returns how many the framer took. */
size_t link_unit_rx_bytes(struct link_unit *l, const void *data, size_t len);
/* Receive in place: where the next bytes go and their room, then commit. */
uint8_t *link_unit_rx_tail(struct link_unit *l, size_t *room);
void link_unit_rx_commit(struct link_unit *l, size_t len);
/* The framer holds bytes it has not parsed yet (a frame's first bytes, garbage). */
static inline bool link_unit_rx_holds(const struct link_unit *l)
{
	return l->rx.framer.end != l->rx.framer.start;
}
/* Lanes (bit n = lane n) the line decoder flagged in bytes just received. */
void link_unit_rx_lane_errors(struct link_unit *l, uint32_t lanes);

/* ---- maintenance frames (outside sequence numbers and credits) ---- */
/* Queue one for sending; false (and maint_lost) when the slot is busy or the link is down. */
bool link_unit_maint_send(struct link_unit *l, const void *body, size_t len);
/* The maintenance frame received, or NULL; link_unit_maint_pop() frees the slot. */
const uint8_t *link_unit_maint_peek(const struct link_unit *l, size_t *len);
void link_unit_maint_pop(struct link_unit *l);

/* ---- time ---- */
/*
 * The first cycle >= now whose edge changes something without new input
 * (frames on the lanes, packets to deliver, credits to hand over, timers),
 * or UINT64_MAX.  New input (a router flit, credits freed, bytes from the
 * cable) needs a step in the cycle it arrives.
 */
uint64_t link_unit_next_event(const struct link_unit *l);
/* Jump to cycle @cycle (<= link_unit_next_event()) without stepping. */
void link_unit_skip(struct link_unit *l, uint64_t cycle);

/* Write "name=value ..." of the state and every counter to @out. */
size_t link_unit_stats(const struct link_unit *l, char *out, size_t len);

#endif
