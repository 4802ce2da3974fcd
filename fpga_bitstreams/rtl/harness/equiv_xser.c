// SPDX-License-Identifier: GPL-2.0
/*
 * The C side of the unit harness's frame serialisers (equiv_xser.h).
 */
#include "equiv_xser.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link/link_unit.h"
#include "link/link_wire.h"
#include "link_harness.h"
#include "tap.h"

TAP_DEFINE;	/* the link unit tests' harness reports through TAP diagnostics */

const unsigned int xser_hdr_size = LOOM_FRAME_HDR_SIZE;
const unsigned int xser_body_max = LINK_BODY_MAX;
const unsigned int xser_frame_max = LOOM_FRAME_MAX;
const unsigned int xser_payload_max = LOOM_PKT_MAX_PAYLOAD;

/* Frames a may start in one cycle and then some (the outbox). */
#define XSER_STARTED	LINK_OUTBOX

struct xser_pair {
	struct lh_pair x;
	unsigned int n;				/* frames a started in this cycle */
	struct link_txframe started[XSER_STARTED];
};

/* a's frames as they enter the wire, before its faults */
static bool xser_grab(void *ctx, unsigned int dir, struct link_txframe *tf)
{
	struct xser_pair *p = ctx;

	if (dir == 0 && p->n < XSER_STARTED)
		p->started[p->n++] = *tf;
	return true;
}

struct xser_pair *xser_pair_new(unsigned int lanes, unsigned int lane_bytes,
				unsigned int flit_bytes, unsigned int lane_threshold,
				uint64_t seed, char *err, size_t len)
{
	struct xser_pair *p = calloc(1, sizeof(*p));
	struct link_params lp;

	if (!p) {
		snprintf(err, len, "no memory for a link pair");
		return NULL;
	}
	link_params_default(&lp);
	lp.lanes = lanes;
	lp.lane_bytes = lane_bytes;
	lp.flit_bytes = flit_bytes;
	lp.lane_threshold = lane_threshold;
	if (!link_params_check(&lp, err, len)) {
		free(p);
		return NULL;
	}
	if (!lh_pair_init(&p->x, &lp, seed)) {
		snprintf(err, len, "the link pair did not build");
		free(p);
		return NULL;
	}
	p->x.w.tamper = xser_grab;
	p->x.w.tamper_ctx = p;
	return p;
}

void xser_pair_free(struct xser_pair *p)
{
	if (!p)
		return;
	lh_pair_free(&p->x);
	free(p);
}

unsigned int xser_pair_vcs(const struct xser_pair *p)
{
	return p->x.p.vcs;
}

void xser_pair_traffic(struct xser_pair *p, unsigned int end, uint32_t count, uint16_t payload,
		       uint32_t vc_mask, double ber)
{
	lh_send(&p->x, end, count, payload, vc_mask);
	fault_set_ber(link_wire_fault(&p->x.w, end), ber);
}

unsigned int xser_pair_cycle(struct xser_pair *p, bool *flush, unsigned int *lanes,
			     struct xser_frame *frames, unsigned int max)
{
	struct link_unit *a = &p->x.a;

	*flush = a->carrier_in != a->carrier;
	p->n = 0;
	lh_pair_cycle(&p->x);
	*lanes = a->lanes.n;
	for (unsigned int i = 0; i < p->n && i < max; i++) {
		const struct link_txframe *tf = &p->started[i];
		struct loom_frame_hdr h;
		struct xser_frame *f = &frames[i];

		memcpy(&h, tf->bytes, sizeof(h));
		f->first_cycle = tf->first_cycle;
		f->phase = tf->phase;
		f->rate = (unsigned int)tf->lanes * tf->lane_bytes;
		f->len = tf->len;
		f->type = h.type;
		f->vc = h.vc;
		f->credit_vc = h.credit_vc;
		f->flags = h.flags;
		f->seq = h.seq;
		f->ack = h.ack;
		f->credit = h.credit;
		f->body_len = h.len;
		f->bytes = tf->bytes;
	}
	return p->n;
}
