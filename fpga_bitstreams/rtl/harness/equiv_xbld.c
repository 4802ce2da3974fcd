// SPDX-License-Identifier: GPL-2.0
/*
 * The C side of the unit harness's frame builders (equiv_xbld.h).
 */
#include "equiv_xbld.h"
#include "equiv_traffic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link/link_internal.h"
#include "link/link_wire.h"
#include "link_harness.h"

const unsigned int xbld_body_max = LINK_BODY_MAX;

/* What the frame builder reads and writes of a link unit, at one moment. */
struct xbld_state {
	bool valid;
	enum link_state state;
	unsigned int lanes_n, q_count;
	bool carrier, carrier_in;
	bool train_due, train_answer, lane_notice_due, poll_answer_due, maint_full;
	uint16_t maint_len;
	uint64_t train_retry, status_deadline, credit_progress;
	struct gbn_tx gbn;
	struct gbn_rx rxg;
	struct link_credit credit;
	struct link_pkt head;
	uint8_t maint[LINK_BODY_MAX];
};

struct xbld_model {
	struct lh_pair x;
	uint64_t rng;
	/* this phase: maintenance frames (percent of cycles), cable cuts (per 10000 cycles) */
	unsigned int p_maint, p_cut;
	unsigned int cut_left;		/* cycles the cable stays cut */
	bool free;			/* the probe: a frame may start */
	struct xbld_state mid;		/* a's state between its parts (the probe) */
	struct xbld_state post;		/* and after its edge */
	unsigned int n;			/* frames a built in this cycle */
	struct link_txframe frame;	/* the first */
	uint8_t maint_body[LINK_BODY_MAX];
	uint8_t head_body[LINK_BODY_MAX];
	uint64_t counts[XBLD_COUNTS];
};
_Static_assert(offsetof(struct xbld_model, x) == 0, "eq_pair_new() builds the pair first");

static void xbld_read(struct xbld_state *s, const struct link_unit *l)
{
	const struct link_xmit *x = &l->tx;

	s->valid = true;
	s->state = l->state;
	s->lanes_n = l->lanes.n;
	s->q_count = x->q_count;
	s->carrier = l->carrier;
	s->carrier_in = l->carrier_in;
	s->train_due = x->train_due;
	s->train_answer = x->train_answer;
	s->lane_notice_due = x->lane_notice_due;
	s->poll_answer_due = x->poll_answer_due;
	s->maint_full = x->maint_full;
	s->maint_len = x->maint_len;
	s->train_retry = x->train_retry;
	s->status_deadline = x->status_deadline;
	s->credit_progress = x->credit_progress;
	s->gbn = x->gbn;
	s->rxg = l->rx.gbn;
	s->credit = l->credit;
	if (x->q_count)
		memcpy(&s->head, &x->queue[x->q_head], sizeof(s->head));
	memcpy(s->maint, x->maint, sizeof(s->maint));
}

/* a's state after its receive half, before it builds frames */
static void xbld_probe(void *ctx, const struct link_unit *l, bool free)
{
	struct xbld_model *m = ctx;

	m->free = free;
	xbld_read(&m->mid, l);
}

/* a's frames as they enter the wire, before its faults */
static bool xbld_grab(void *ctx, unsigned int dir, struct link_txframe *tf)
{
	struct xbld_model *m = ctx;

	if (dir == 0 && m->n++ == 0)
		m->frame = *tf;
	return true;
}

struct xbld_model *xbld_new(unsigned int lanes, unsigned int lane_bytes, unsigned int vcs,
			    unsigned int flit_bytes, unsigned int replay, unsigned int timeout,
			    unsigned int delay, unsigned int threshold, uint64_t seed, char *err,
			    size_t len)
{
	struct xbld_model *m;
	struct link_params lp;

	eq_params(&lp, lanes, lane_bytes, vcs, flit_bytes, threshold);
	lp.replay_frames = replay;
	lp.ack_timeout = timeout;
	lp.coalesce_delay = delay;
	if (!eq_one_frame_a_cycle(lanes, lane_bytes, err, len))
		return NULL;
	m = eq_pair_new(sizeof(*m), &lp, seed, err, len);
	if (!m)
		return NULL;
	m->rng = seed ^ 0x78626c6400000000ull;
	m->x.a.tx.probe = xbld_probe;
	m->x.a.tx.probe_ctx = m;
	m->x.w.tamper = xbld_grab;
	m->x.w.tamper_ctx = m;
	return m;
}

void xbld_free(struct xbld_model *m)
{
	eq_pair_free(m);
}

void xbld_phase(struct xbld_model *m)
{
	static const double bers[] = { 0, 1e-6, 1e-5, 1e-4, 1e-3 };
	static const unsigned int maint[] = { 0, 0, 1, 5, 30 }, cut[] = { 0, 0, 0, 3, 20 };

	eq_traffic_phase(&m->rng, &m->x, bers);
	m->p_maint = maint[eq_below(&m->rng, 5)];
	m->p_cut = cut[eq_below(&m->rng, 5)];
}

/* max(@a - @b, 0) */
static uint64_t xbld_left(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void xbld_step(struct xbld_model *m, struct xbld_cycle *c)
{
	struct link_unit *a = &m->x.a;
	struct link_counters before = a->cnt;
	struct xbld_state pre, *post = &m->post, *mid = &m->mid;
	uint64_t now = a->now;
	bool td0, ta0, ln0, pa0;

	memset(c, 0, sizeof(*c));
	/* the registers in this cycle */
	xbld_read(&pre, a);
	c->train_due = pre.train_due;
	c->train_answer = pre.train_answer;
	c->lane_notice_due = pre.lane_notice_due;
	c->poll_answer_due = pre.poll_answer_due;
	c->maint_full = pre.maint_full;
	c->maint_len = pre.maint_len;
	c->train_left = xbld_left(pre.train_retry, now + 1);
	c->status_run = pre.status_deadline != 0;
	c->status_left = xbld_left(pre.status_deadline, now + 1);
	c->progress_age = now - pre.credit_progress < a->p.ack_timeout ?
				  now - pre.credit_progress : a->p.ack_timeout;

	/* the cable: cut now and then, restored after a while */
	eq_cable_cycle(&m->rng, &m->x, &m->cut_left, m->p_cut, 300);
	/* a maintenance frame for the slot, now and then */
	if (m->p_maint && eq_percent(&m->rng, m->p_maint)) {
		unsigned int len = eq_percent(&m->rng, 20) ? LINK_BODY_MAX :
							     eq_below(&m->rng, LINK_BODY_MAX + 1);

		memset(m->maint_body, 0, sizeof(m->maint_body));
		for (unsigned int i = 0; i < len; i++)
			m->maint_body[i] = (uint8_t)eq_next(&m->rng);
		c->maint_wr = link_unit_maint_send(a, m->maint_body, len);
		c->maint_wr_len = len;
	}
	c->maint_wr_body = m->maint_body;
	c->flush = a->carrier_in != a->carrier;
	c->carrier = a->carrier_in;

	mid->valid = false;
	m->free = false;
	m->n = 0;
	lh_pair_cycle(&m->x);
	xbld_read(post, a);
	if (!mid->valid)	/* down: nothing serialised, nothing built */
		*mid = *post;

	/* what the carrier's edge and the receive half set */
	td0 = c->flush ? c->carrier : pre.train_due;
	ta0 = !c->flush && pre.train_answer;
	ln0 = !c->flush && pre.lane_notice_due;
	pa0 = !c->flush && pre.poll_answer_due;
	c->set_train_due = mid->train_due && !td0;
	c->set_train_answer = mid->train_answer && !ta0;
	c->set_lane_notice = mid->lane_notice_due && !ln0;
	c->set_poll_answer = mid->poll_answer_due && !pa0;
	c->progress = mid->credit_progress == now;
	if ((!mid->train_due && td0) || (!mid->train_answer && ta0) ||
	    (!mid->lane_notice_due && ln0) || (!mid->poll_answer_due && pa0))
		c->error = "the receive half cleared a flag of the transmitter";

	/* the other units' views before the frame */
	c->training = mid->state == LINK_TRAINING;
	c->up = mid->state == LINK_UP;
	c->lanes_n = mid->lanes_n;
	c->node = a->node;
	c->port = a->port;
	c->resend_due = gbn_tx_resend_due(&mid->gbn);
	c->room = gbn_tx_room(&mid->gbn);
	c->held_any = gbn_tx_held(&mid->gbn) != 0;
	c->take_seq = mid->gbn.resend;
	c->gbn_next = mid->gbn.next;
	c->take_slot = c->resend_due || c->room ? gbn_tx_slot(&mid->gbn, mid->gbn.resend) : 0;
	c->ack_due = mid->rxg.ack_due;
	c->nak_due = mid->rxg.nak_due;
	c->ack_value = gbn_rx_ack_value(&mid->rxg);
	c->head_valid = mid->q_count != 0;
	memset(m->head_body, 0, sizeof(m->head_body));
	if (c->head_valid) {
		c->head_vc = mid->head.vc;
		c->head_len = mid->head.len;
		c->head_has = link_credit_peer_has(&mid->credit, mid->head.vc, mid->head.flits);
		memcpy(m->head_body, mid->head.bytes, mid->head.len);
	}
	c->head_bytes = m->head_body;
	c->pending = mid->credit.pending;
	c->deficit_any = mid->credit.deficit_mask != 0;
	{
		struct link_credit picked = mid->credit;

		c->pick_vc = link_credit_pick(&picked, &c->pick_value, &c->pick_was_pending);
	}
	for (unsigned int v = 0; v < a->p.vcs; v++)
		c->grant[v] = mid->credit.grant[v];
	c->lanes_free = m->free;

	/* the frame it built */
	if (m->n > 1)
		c->error = "two frames built in one cycle (lanes wider than the smallest frame)";
	c->built = m->n != 0;
	if (c->built) {
		struct loom_frame_hdr h = lh_frame_hdr(&m->frame);

		if (!m->free)
			c->error = "a frame built while the lanes had no room";
		c->type = h.type;
		c->vc = h.vc;
		c->credit_vc = h.credit_vc;
		c->flags = h.flags;
		c->seq = h.seq;
		c->ack = h.ack;
		c->credit = h.credit;
		c->body_len = h.len;
		c->body = m->frame.bytes + LOOM_FRAME_HDR_SIZE;
		m->counts[0]++;
		m->counts[1] += h.type == LOOM_FRAME_DATA && a->cnt.replayed != before.replayed;
		m->counts[2] += h.type == LOOM_FRAME_NAK;
		m->counts[3] += h.type == LOOM_FRAME_TRAIN;
		m->counts[4] += h.type == LOOM_FRAME_ACK_CREDIT;
		m->counts[5] += h.type == LOOM_FRAME_ACK_CREDIT && (h.flags & LOOM_FRAME_F_POLL);
		m->counts[6] += h.type == LOOM_FRAME_MAINT;
	}
#define XBLD_COUNT(i, f) c->counts[i] = (unsigned int)(a->cnt.f - before.f)
	XBLD_COUNT(0, replayed);
	XBLD_COUNT(1, tx_data_frames);
	XBLD_COUNT(2, acks_piggybacked);
	XBLD_COUNT(3, credits_piggybacked);
	XBLD_COUNT(4, acks_standalone);
	XBLD_COUNT(5, credits_standalone);
	XBLD_COUNT(6, status_frames);
	XBLD_COUNT(7, polls_sent);
	XBLD_COUNT(8, naks_sent);
	XBLD_COUNT(9, lane_notices);
#undef XBLD_COUNT
}

const char *xbld_check_ops(const struct xbld_model *m, const struct xbld_ops *o, uint64_t *rtl,
			   uint64_t *model)
{
	const struct xbld_state *mid = &m->mid, *post = &m->post;
	struct gbn_tx g = mid->gbn;
	struct link_credit cr = mid->credit;
	bool ack_due = mid->rxg.ack_due, nak_due = mid->rxg.nak_due, was;
	unsigned int q = mid->q_count;
	uint32_t seq, value;

	if (o->take)	/* a.now is the cycle the frame starts */
		gbn_tx_take(&g, &seq, m->x.a.now);
	if (o->pop) {
		if (!q) {
			*rtl = 1;
			*model = 0;
			return "pop (the transmit queue was empty)";
		}
		q--;
		link_credit_sent(&cr, mid->head.vc, mid->head.flits);
	}
	if (o->pick)
		link_credit_pick(&cr, &value, &was);
	if (o->adv)
		link_credit_advertise_all(&cr);
	if (o->clr_ack)
		ack_due = false;
	if (o->clr_nak)
		nak_due = false;
#define XBLD_SAME(what, a, b) \
	do { \
		if ((a) != (b)) { \
			*rtl = (a); \
			*model = (b); \
			return what; \
		} \
	} while (0)
	XBLD_SAME("take (the go-back-N sender's resend after it)", g.resend, post->gbn.resend);
	XBLD_SAME("take (the go-back-N sender's next after it)", g.next, post->gbn.next);
	XBLD_SAME("take (the go-back-N sender's deadline after it)", g.deadline, post->gbn.deadline);
	XBLD_SAME("pop (the transmit queue's packets after it)", q, post->q_count);
	for (unsigned int v = 0; v < cr.vcs; v++) {
		XBLD_SAME("pop (the credit unit's sent of the head's VC after it)", cr.sent[v],
			  post->credit.sent[v]);
		XBLD_SAME("pick or adv (the credit unit's advertised grant of a VC after it)",
			  cr.advertised[v], post->credit.advertised[v]);
	}
	XBLD_SAME("pick or adv (the credit unit's pending mask after it)", cr.pending,
		  post->credit.pending);
	XBLD_SAME("pick (the credit unit's round-robin VC after it)", cr.rr, post->credit.rr);
	XBLD_SAME("clr_ack (the receiver's ack_due after it)", ack_due, post->rxg.ack_due);
	XBLD_SAME("clr_nak (the receiver's nak_due after it)", nak_due, post->rxg.nak_due);
#undef XBLD_SAME
	if (memcmp(&cr, &post->credit, sizeof(cr))) {
		*rtl = *model = 0;
		return "pop, pick or adv (the credit unit after them differs from the C model's)";
	}
	return NULL;
}

void xbld_counts(const struct xbld_model *m, uint64_t counts[XBLD_COUNTS])
{
	memcpy(counts, m->counts, sizeof(m->counts));
}
