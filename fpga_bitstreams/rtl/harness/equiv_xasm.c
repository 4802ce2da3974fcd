// SPDX-License-Identifier: GPL-2.0
/*
 * The C side of the unit harness's packet assemblers (equiv_xasm.h).
 */
#include "equiv_xasm.h"
#include "equiv_traffic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "link/link_internal.h"
#include "link/link_wire.h"
#include "link_harness.h"

const unsigned int xasm_pkt_max = LINK_PKT_MAX;

struct xasm_model {
	struct lh_pair x;
	uint64_t rng;
	/* this phase: malformed flits (percent of cycles), cable cuts (per 10000 cycles) */
	unsigned int p_bad, p_cut;
	unsigned int cut_left;		/* cycles the cable stays cut */
	struct flit seen;		/* the flit a took in this cycle */
	struct link_pkt head;		/* the packet a DATA frame took */
	uint64_t counts[4];
};
_Static_assert(offsetof(struct xasm_model, x) == 0, "eq_pair_new() builds the pair first");

/* A header's payload length in a flit: any, a valid one, or one past the largest. */
static void xasm_set_len(struct xasm_model *m, struct flit *f)
{
	unsigned int k = eq_below(&m->rng, 4);
	uint16_t len = k == 0 ? (uint16_t)eq_next(&m->rng) :
		       k == 1 ? (uint16_t)(LOOM_PKT_MAX_PAYLOAD + 1) :
				(uint16_t)eq_below(&m->rng, LOOM_PKT_MAX_PAYLOAD + 1);

	memcpy(f->data + offsetof(struct loom_pkt_hdr, len), &len, sizeof(len));
}

/* What a's router drives, now and then made malformed: a's input only. */
static void xasm_tamper(void *ctx, unsigned int end, struct flit *f)
{
	struct xasm_model *m = ctx;
	unsigned int vcs = m->x.p.vcs, fb = m->x.p.flit_bytes;

	if (end != 0)
		return;
	if (m->p_bad && eq_percent(&m->rng, m->p_bad)) {
		if (!f->valid) {
			/* a flit out of nowhere, maybe while ready was low */
			f->valid = true;
			f->head = eq_percent(&m->rng, 50);
			f->tail = eq_percent(&m->rng, 50);
			f->vc = (uint8_t)(eq_percent(&m->rng, 80) ? eq_below(&m->rng, vcs) :
					  eq_below(&m->rng, CHAN_VCS_MAX));
			for (unsigned int i = 0; i < fb; i++)
				f->data[i] = (uint8_t)eq_next(&m->rng);
			xasm_set_len(m, f);
		} else {
			switch (eq_below(&m->rng, 6)) {
			case 0: f->head = !f->head; break;
			case 1: f->tail = !f->tail; break;
			case 2: f->vc = (uint8_t)eq_below(&m->rng, CHAN_VCS_MAX); break;
			case 3: xasm_set_len(m, f); break;
			case 4: f->valid = false; break;	/* lost */
			default: f->head = f->tail = true; xasm_set_len(m, f); break;
			}
		}
	}
	m->seen = *f;
}

struct xasm_model *xasm_new(unsigned int vcs, unsigned int flit_bytes, unsigned int tx_queue,
			    uint64_t seed, char *err, size_t len)
{
	struct xasm_model *m;
	struct link_params lp;

	link_params_default(&lp);
	lp.vcs = vcs;
	lp.flit_bytes = flit_bytes;
	lp.tx_queue = tx_queue;
	lp.lane_threshold = 0;
	if (flit_bytes > XASM_FLIT_MAX) {
		snprintf(err, len, "FLIT_BYTES %u is beyond the harness's %u", flit_bytes,
			 XASM_FLIT_MAX);
		return NULL;
	}
	m = eq_pair_new(sizeof(*m), &lp, seed, err, len);
	if (!m)
		return NULL;
	m->rng = seed ^ 0x7861736d00000000ull;
	m->x.flit_tamper = xasm_tamper;
	m->x.flit_tamper_ctx = m;
	return m;
}

void xasm_free(struct xasm_model *m)
{
	eq_pair_free(m);
}

void xasm_phase(struct xasm_model *m)
{
	static const double bers[] = { 0, 0, 1e-6, 1e-5, 1e-4 };
	static const unsigned int bad[] = { 0, 0, 1, 5, 20 }, cut[] = { 0, 0, 0, 5, 30 };

	eq_traffic_phase(&m->rng, &m->x, bers);
	m->p_bad = bad[eq_below(&m->rng, 5)];
	m->p_cut = cut[eq_below(&m->rng, 5)];
}

/*
 * The flits the transmitter refunded to the router in this edge, from the
 * credit unit before (@mid: after the carrier's edge) and after it: what
 * owed gained beyond the grants it took (link_credit_update) and the
 * credits handed to the router (link_credit_to_router).
 */
static const char *xasm_refund(const struct link_unit *a, const struct link_credit *mid,
			       struct xasm_cycle *c)
{
	const struct link_credit *post = &a->credit;

	c->ref_vc = 0;
	c->ref_flits = 0;
	for (unsigned int v = 0; v < a->p.vcs; v++) {
		uint32_t gain = (post->granted[v] - mid->granted[v]) -
				(mid->withheld[v] - post->withheld[v]);
		uint32_t ref = post->owed[v] - mid->owed[v] + a->out.back.credits[v] - gain;

		if (!ref)
			continue;
		if (c->ref_flits)
			return "refunds on two VCs in one cycle";
		c->ref_vc = v;
		c->ref_flits = ref;
	}
	return NULL;
}

void xasm_step(struct xasm_model *m, struct xasm_cycle *c)
{
	struct link_unit *a = &m->x.a;
	struct link_xmit *x = &a->tx;
	struct link_counters before = a->cnt;
	struct link_credit mid = a->credit;
	unsigned int q_mid, pop;

	memset(c, 0, sizeof(*c));
	/* the cable: cut now and then, restored after a while */
	m->counts[3] += eq_cable_cycle(&m->rng, &m->x, &m->cut_left, m->p_cut, 60);
	/* the registers in this cycle */
	c->ready = a->out.back.ready;
	c->ready_before = x->ready_before;
	c->assembling = x->assembling;
	c->discarding = x->discarding;
	c->q_count = x->q_count;
	if (x->q_count) {
		const struct link_pkt *q = &x->queue[x->q_head];

		c->q_vc = q->vc;
		c->q_flits = q->flits;
		c->q_peer_has = link_credit_peer_has(&a->credit, q->vc, q->flits);
	}
	c->low_any = a->credit.low_mask != 0;
	c->starved = link_xmit_credit_starved(a);
	c->flush = a->carrier_in != a->carrier;
	if (c->flush) {
		if (a->carrier_in)
			link_credit_train(&mid);
		else
			link_credit_down(&mid);
	}
	q_mid = c->flush ? 0 : x->q_count;

	memset(&m->seen, 0, sizeof(m->seen));
	lh_pair_cycle(&m->x);

	c->up = a->state == LINK_UP;
	c->flit_valid = m->seen.valid;
	c->flit_head = m->seen.head;
	c->flit_tail = m->seen.tail;
	c->flit_vc = m->seen.vc;
	memcpy(c->flit_data, m->seen.data, a->p.flit_bytes);
	c->malformed = (unsigned int)(a->cnt.tx_malformed - before.tx_malformed);
	c->flit_counted = a->cnt.tx_flits != before.tx_flits;
	c->queued = a->cnt.tx_packets != before.tx_packets;
	c->error = xasm_refund(a, &mid, c);
	pop = q_mid + c->queued - x->q_count;
	if (pop > 1 || (pop && a->cnt.tx_data_frames - before.tx_data_frames != 1))
		c->error = "a packet left the transmit queue without one DATA frame";
	c->pop = pop;
	if (pop) {
		/* the packet the DATA frame took, in its replay slot */
		m->head = x->replay[gbn_tx_slot(&x->gbn, x->gbn.next - 1)];
		c->head_valid = true;
	} else if (x->q_count) {
		m->head = x->queue[x->q_head];
		c->head_valid = true;
	}
	if (c->head_valid) {
		c->head_vc = m->head.vc;
		c->head_flits = m->head.flits;
		c->head_len = m->head.len;
		c->head_bytes = m->head.bytes;
	}
	m->counts[0] += c->queued;
	m->counts[1] += c->malformed;
	m->counts[2] += c->ref_flits;
}

void xasm_counts(const struct xasm_model *m, uint64_t counts[4])
{
	memcpy(counts, m->counts, sizeof(m->counts));
}
