/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The router core ("tiles"): per input port and virtual channel a buffer
 * of whole packets, a routing decision for the packet at each buffer's
 * head (VC from the VCT block, datelines, adaptive choice), output
 * arbitration (barrier, then responses, then requests; round robin over
 * the inputs), per output port and VC the credits the downstream router
 * granted, and the forward-progress timer.  Documented in
 * Documentation/hw/routing.rst.
 *
 * Plain logic: no sockets, no clock of its own.  The ports (port.c) put
 * received packets in with tile_rx(), take packets to transmit with
 * tile_tx_next(), hand over credit frames with tile_credit_rx() and send
 * the ones tile_credit_due() asks for.  tile_service() moves packets from
 * input buffers to outputs or the host; a cycle-stepped simulator could
 * call the same functions.
 *
 * Credits: a sender holds one credit per free whole-packet buffer of the
 * downstream input buffer of a VC.  The receiver advertises credits as a
 * cumulative count (buffers + packets that left the buffer since the link
 * trained) in LOOM_FRAME_CREDIT frames, so a lost credit frame is repaired
 * by the next one (they are resent periodically).  Credits restart when
 * the link trains.
 */
#ifndef LOOM_CARD_TILE_H
#define LOOM_CARD_TILE_H

#include <stdbool.h>
#include <stdint.h>

#include <loom_hw/packet.h>
#include <loom_hw/regs.h>

#include "router/route.h"

#define TILE_BUFS_DEFAULT	8	/* whole-packet buffers per input VC */
#define TILE_BUFS_MAX		1024
#define TILE_HOST_REQ_CAP	64	/* host request injection queue per port */
#define TILE_HOST_RESP_CAP	8192	/* host response injection queue per port */
#define TILE_HOST_BAR_CAP	256	/* host barrier injection queue per port */
#define TILE_RESP_RESERVE	4	/* response room a request delivery needs */

struct card;

struct tile_pkt {
	struct loom_pkt_hdr h;
	uint8_t payload[LOOM_PKT_MAX_PAYLOAD];
};

/* A FIFO of whole packets. */
struct tile_q {
	struct tile_pkt *v;
	unsigned int cap;
	unsigned int head;
	unsigned int count;
};

bool tile_q_init(struct tile_q *q, unsigned int cap);
void tile_q_free(struct tile_q *q);
bool tile_q_push(struct tile_q *q, const struct loom_pkt_hdr *h, const void *payload);
struct tile_pkt *tile_q_head(struct tile_q *q);
void tile_q_pop(struct tile_q *q);

/* ---- credits (pure arithmetic, modulo 2^32) ---- */
struct credit_tx {
	uint32_t sent;		/* packets sent on the VC since training */
	uint32_t granted;	/* cumulative credits the receiver granted */
};

static inline uint32_t credit_avail(const struct credit_tx *c)
{
	return c->granted - c->sent;
}

/*
 * A CREDIT frame carrying cumulative @value: accepted when it is newer than
 * what we hold and does not grant credit for packets never sent beyond
 * @max_buffers (a corrupt or hostile value is ignored).  True if accepted.
 */
bool credit_update(struct credit_tx *c, uint32_t value, uint32_t max_buffers);

/* ---- the router core state ---- */
struct tile_port {
	struct tile_q in[LOOM_NUM_VCS];		/* input buffers */
	struct tile_q out[LOOM_NUM_VCS];	/* credit taken, waiting for the link */
	struct tile_q host_req;			/* this card's host -> this port */
	struct tile_q host_resp;
	struct tile_q host_bar;
	struct credit_tx tx[LOOM_NUM_VCS];	/* credits toward the peer */
	uint32_t rx_granted[LOOM_NUM_VCS];	/* cumulative credits granted to the peer */
	uint32_t rx_advertised[LOOM_NUM_VCS];	/* last value sent */
	uint64_t credit_refresh_ms;		/* next periodic resend */
	uint64_t stall_since[LOOM_NUM_VCS];	/* forward progress: 0 = not stalled */
	bool head_stalled[LOOM_NUM_VCS];	/* input head counted as a stall */
	bool host_stalled[3];
	bool up;		/* link trained */
	bool dead;		/* declared dead by the forward-progress timer */
	bool disabled;		/* CTRL.DISABLE */
	unsigned int out_rr;	/* transmit round robin inside a level */
};

struct tile {
	struct card *card;
	unsigned int n_ports;
	unsigned int bufs;	/* whole-packet buffers per input VC */
	struct tile_port port[LOOM_MAX_PORTS];
	unsigned int rr;	/* arbitration round robin over inputs */
	unsigned int adapt_rr;
	uint64_t now_ms;
	uint64_t credit_refresh_period_ms;
	uint32_t resets_seen;	/* card->resets at the last round */
};

bool tile_init(struct tile *t, struct card *c, unsigned int n_ports, unsigned int bufs);
void tile_free(struct tile *t);

/* The link of @port trained: credits restart, the peer is granted our free buffers. */
void tile_link_up(struct tile *t, unsigned int port);
/*
 * The link of @port went down: packets waiting to go out on it are
 * answered (requests, LOOM_CQE_ST_LINK) or dropped.  Input buffers keep
 * their packets.
 */
void tile_link_down(struct tile *t, unsigned int port);

enum tile_rx_result {
	TILE_RX_OK,
	TILE_RX_BAD_VC,		/* VC out of range, MAINT, or not the packet's class */
	TILE_RX_FULL,		/* the sender had no credit: protocol error */
};

/* A packet arrived on @port, VC @vc: into its input buffer. */
enum tile_rx_result tile_rx(struct tile *t, unsigned int port, unsigned int vc,
			    const struct loom_pkt_hdr *h, const void *payload);
/* A CREDIT frame for @vc with cumulative @value arrived on @port. */
void tile_credit_rx(struct tile *t, unsigned int port, unsigned int vc, uint32_t value);
/* A credit frame to send on @port: true with *vc, *value set. */
bool tile_credit_due(struct tile *t, unsigned int port, unsigned int *vc, uint32_t *value);
/* Advertise every VC's credits again (frames may have been lost). */
void tile_credit_refresh(struct tile *t, unsigned int port);
/* Milliseconds until a forward-progress timer expires, or -1. */
int tile_next_timer(const struct tile *t, uint64_t now);
/* Next packet to transmit on @port (barrier, responses, requests): pops into @out. */
bool tile_tx_next(struct tile *t, unsigned int port, struct tile_pkt *out, unsigned int *vc);

/* This card's host sends @h on @port (after the card routed it there). */
bool tile_host_send(struct tile *t, unsigned int port, const struct loom_pkt_hdr *h,
		    const void *payload);
/* May the host inject one more request toward @port? */
bool tile_host_can_inject(const struct tile *t, unsigned int port);

/*
 * One switching round at card time @now: fault masks from CTRL, every
 * input head that can move moves, forward-progress timers.  Returns the
 * number of packets moved.
 */
unsigned int tile_service(struct tile *t, uint64_t now);

/* Port status bits owned by the tile (DEAD, DISABLED). */
uint32_t tile_port_status(const struct tile *t, unsigned int port);

#endif
