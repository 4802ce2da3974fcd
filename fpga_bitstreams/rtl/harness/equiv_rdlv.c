// SPDX-License-Identifier: GPL-2.0
/*
 * The C side of the unit harness's delivery queues (equiv_rdlv.h).
 */
#include "equiv_rdlv.h"
#include "equiv_traffic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link/link_internal.h"
#include "link/link_wire.h"
#include "link_harness.h"

const unsigned int rdlv_body_max = LINK_BODY_MAX;

struct rdlv_model {
	struct lh_pair x;
	uint64_t rng;
	/* this phase: the router's input not ready (percent of cycles), cable cuts (per 10000) */
	unsigned int p_stall, p_cut;
	unsigned int cut_left;
	uint64_t counts[3];
};
_Static_assert(offsetof(struct rdlv_model, x) == 0, "eq_pair_new() builds the pair first");

struct rdlv_model *rdlv_new(unsigned int lanes, unsigned int lane_bytes, unsigned int flit_bytes,
			    unsigned int rx_queue, unsigned int rx_frames, uint64_t seed, char *err,
			    size_t len)
{
	struct rdlv_model *m;
	struct link_params lp;

	link_params_default(&lp);
	lp.lanes = lanes;
	lp.lane_bytes = lane_bytes;
	lp.flit_bytes = flit_bytes;
	lp.rx_queue = rx_queue;
	lp.rx_frames = rx_frames;
	lp.lane_threshold = 0;
	if (flit_bytes > RDLV_FLIT_MAX || (rx_frames < rx_queue ? rx_frames : rx_queue) > RDLV_ACC_MAX) {
		snprintf(err, len, "FLIT_BYTES %u or min(RX_FRAMES, RX_QUEUE) %u is beyond the "
			 "harness's %u or %u", flit_bytes, rx_frames < rx_queue ? rx_frames : rx_queue,
			 RDLV_FLIT_MAX, RDLV_ACC_MAX);
		return NULL;
	}
	m = eq_pair_new(sizeof(*m), &lp, seed, err, len);
	if (!m)
		return NULL;
	m->rng = seed ^ 0x72646c7600000000ull;
	return m;
}

void rdlv_free(struct rdlv_model *m)
{
	eq_pair_free(m);
}

void rdlv_phase(struct rdlv_model *m)
{
	static const double bers[] = { 0, 0, 1e-6, 1e-5, 1e-4 };
	static const unsigned int stall[] = { 0, 0, 10, 50, 90 }, cut[] = { 0, 0, 0, 0, 5 };

	eq_traffic_phase(&m->rng, &m->x, bers);
	m->p_stall = stall[eq_below(&m->rng, 5)];
	m->p_cut = cut[eq_below(&m->rng, 5)];
}

void rdlv_step(struct rdlv_model *m, struct rdlv_cycle *c)
{
	struct link_unit *a = &m->x.a;
	struct link_recv *r = &a->rx;
	uint64_t packets = a->cnt.rx_packets, flits = a->cnt.rx_flits;
	unsigned int tail = r->q_tail;

	memset(c, 0, sizeof(*c));
	c->q_count = r->q_count;
	c->flit_idx = r->flit;
	c->flit_valid = a->out.flit.valid;
	c->flit_head = a->out.flit.head;
	c->flit_tail = a->out.flit.tail;
	c->flit_vc = a->out.flit.vc;
	memcpy(c->flit_data, a->out.flit.data, a->p.flit_bytes);
	c->in_ready = m->x.sink[1].back.ready;

	eq_cable_cycle(&m->rng, &m->x, &m->cut_left, m->p_cut, 300);
	lh_pair_cycle(&m->x);

	c->acc_n = (unsigned int)(a->cnt.rx_packets - packets);
	if (c->acc_n > RDLV_ACC_MAX) {
		c->error = "more frames accepted in a cycle than the harness takes";
		c->acc_n = RDLV_ACC_MAX;
	}
	for (unsigned int i = 0; i < c->acc_n; i++) {
		const struct link_frame *f = &r->queue[(tail + i) % a->p.rx_queue];

		c->acc_vc[i] = f->hdr.vc;
		c->acc_len[i] = f->hdr.len;
		c->acc_body[i] = f->body;
	}
	c->rx_flit = a->cnt.rx_flits != flits;
	m->counts[0] += c->acc_n;
	m->counts[1] += c->rx_flit;
	m->counts[2] += !c->in_ready;
	/* the router's input in the next cycle: not ready now and then (link_harness.h) */
	m->x.sink[1].back.ready = !(m->p_stall && eq_percent(&m->rng, m->p_stall));
}

void rdlv_counts(const struct rdlv_model *m, uint64_t counts[3])
{
	memcpy(counts, m->counts, sizeof(m->counts));
}
