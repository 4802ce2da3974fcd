/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A source of PUT packets on one input port of a card's router, on its
 * wires (router_in()): packets of @payload bytes to node @dst, back to
 * back on VC REQ0 as far as the input buffer's credits allow, one flit a
 * cycle.  Used where a card's router block is clocked alone
 * (card_router_cycle()), the model's or the RTL's.
 */
#ifndef LOOM_TESTS_PUT_SOURCE_H
#define LOOM_TESTS_PUT_SOURCE_H

#include <stdbool.h>
#include <string.h>

#include "card.h"
#include "router/router.h"

struct put_source {
	unsigned int port, dst, payload;
	unsigned int flit, flits;	/* the next flit of the packet, and its flits */
	unsigned int credits;		/* VC REQ0 room at the router's input */
	bool idle;			/* sends nothing (its credits still come back) */
};

static inline void put_source_init(struct put_source *s, const struct card *c,
				   unsigned int port, unsigned int dst, unsigned int payload)
{
	unsigned int fb = c->p.router.flit_bytes;

	memset(s, 0, sizeof(*s));
	s->port = port;
	s->dst = dst;
	s->payload = payload;
	s->flits = (LOOM_PKT_HDR_SIZE + payload + fb - 1) / fb;
	s->credits = c->p.router.buf_depth;
}

/* This cycle's flit on the input wires, if there is room; the credits returned taken. */
static inline void put_source_drive(struct card *c, struct put_source *s)
{
	struct chan *in = router_in(c->router, s->port);
	struct loom_pkt_hdr h;
	uint8_t pkt[LOOM_PKT_HDR_SIZE];
	unsigned int fb = c->p.router.flit_bytes;

	memset(&in->fwd, 0, sizeof(in->fwd));
	s->credits += in->back.credits[LOOM_VC_REQ0];
	if (s->idle || !s->credits)
		return;
	in->fwd.valid = true;
	in->fwd.vc = LOOM_VC_REQ0;
	in->fwd.head = s->flit == 0;
	in->fwd.tail = s->flit + 1 == s->flits;
	if (s->flit * fb < LOOM_PKT_HDR_SIZE) {
		memset(&h, 0, sizeof(h));
		h.type = LOOM_PKT_PUT;
		h.class = LOOM_CLASS_REQ;
		h.len = (uint16_t)s->payload;
		h.dst_node = (uint16_t)s->dst;
		memcpy(pkt, &h, sizeof(h));
		memcpy(in->fwd.data, pkt + s->flit * fb, fb);
	}
	s->credits--;
	s->flit = (s->flit + 1) % s->flits;
}

#endif
