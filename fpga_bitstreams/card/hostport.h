/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host port: the router port of the card's host interface.  Packets
 * the DMA engines make (requests, the target's responses, the BSUs'
 * barrier packets) wait in one queue per class and enter the router's host
 * input one flit per cycle, a whole packet at a time, under the router's
 * credits (virtual cut-through: a packet starts only when its VC holds
 * credits for all of its flits).  Packets the router delivers to the host
 * port are reassembled per VC in an ejection buffer the router holds
 * credits for, and handed to the host interface or the BSUs one packet per
 * cycle; their credits go back as they leave the buffer.  A request is
 * taken only while the response queue has room for its answer, so the
 * request class can never block the responses it causes (protocol
 * deadlock).  Documented in Documentation/hw/card.rst.
 */
#ifndef LOOM_CARD_HOSTPORT_H
#define LOOM_CARD_HOSTPORT_H

#include <stdbool.h>
#include <stdint.h>

#include <loom_hw/packet.h>

#include "router/chan.h"

#define HOSTPORT_REQ_Q		8	/* requests waiting to enter the router */
#define HOSTPORT_RESP_Q		256	/* responses (and drop answers) waiting */
#define HOSTPORT_BAR_Q		64	/* barrier packets waiting */
#define HOSTPORT_LEVELS		3	/* 0 barrier, 1 responses, 2 requests */
/* each level's VC and class, in level order (the RTL's come from these too) */
#define HOSTPORT_LEVEL_VCS	{ LOOM_VC_BARRIER, LOOM_VC_RESP0, LOOM_VC_REQ0 }
#define HOSTPORT_LEVEL_CLASSES	{ LOOM_CLASS_BARRIER, LOOM_CLASS_RESP, LOOM_CLASS_REQ }
#define HOSTPORT_PKT_MAX	(LOOM_PKT_HDR_SIZE + LOOM_PKT_MAX_PAYLOAD)

struct card;

/* A packet as the host port holds it: header and payload, whole flits. */
struct hostport_pkt {
	uint16_t len;		/* header + payload bytes */
	uint8_t flits;
	uint8_t vc;
	uint8_t bytes[HOSTPORT_PKT_MAX + FLIT_BYTES_MAX];
};

struct hostport_q {
	struct hostport_pkt *v;
	unsigned int cap, head, count;
};

/* The ejection buffer of one VC the router delivers on. */
struct hostport_sink {
	struct hostport_q done;		/* complete packets, oldest first */
	struct hostport_pkt cur;	/* the packet being reassembled */
	unsigned int cur_flits;		/* flits of it received */
	bool open;			/* a head arrived, its tail not yet */
};

struct hostport {
	unsigned int flit_bytes;
	unsigned int depth;		/* ejection buffer per VC, flits */
	/* source: host interface -> router host input */
	struct hostport_q q[HOSTPORT_LEVELS];
	uint32_t credits[CHAN_VCS_MAX];	/* toward the router's host input buffers */
	int cur;			/* level of the packet on the wire, -1 none */
	unsigned int cur_flit;
	struct flit out;		/* registered: the router samples it next cycle */
	/* sink: router host output -> host interface */
	struct hostport_sink sink[HOSTPORT_LEVELS];
	struct chan_back back;		/* registered: credits freed, ready */
	uint64_t malformed;		/* flits the router delivered out of order */
	uint64_t injected, delivered;	/* packets */
};

/* Build the queues; @depth is the router's BUF_DEPTH for its host output. */
bool hostport_init(struct hostport *hp, unsigned int flit_bytes, unsigned int buf_depth,
		   unsigned int depth);
void hostport_free(struct hostport *hp);

/* Queue @h (+ @payload, h->len bytes) by its class; false when that queue is full. */
bool hostport_send(struct hostport *hp, const struct loom_pkt_hdr *h, const void *payload);
/* Room for one more packet of @class? */
bool hostport_room(const struct hostport *hp, uint8_t class);

/*
 * One clock edge: sample the router's host output flit @in and the
 * credits @credits it freed at its host input; deliver at most one
 * complete packet to @c (card_host_deliver); drive hp->out and hp->back
 * for the next cycle.
 */
void hostport_step(struct hostport *hp, struct card *c, const struct flit *in,
		   const uint8_t *credits);
/* Work for the next edge (a packet can move or is being delivered)? */
bool hostport_busy(const struct hostport *hp);

#endif
