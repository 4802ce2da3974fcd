// SPDX-License-Identifier: GPL-2.0
/*
 * The C side of the unit harness's frame checkers (equiv_rcv.h).
 */
#include "equiv_rcv.h"
#include "equiv_traffic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link/link_internal.h"
#include "link/link_wire.h"
#include "link_harness.h"

const unsigned int rcv_frame_bytes = LOOM_FRAME_MAX - LOOM_FRAME_CRC_SIZE;
const unsigned int rcv_body_max = LINK_BODY_MAX;

/* The counters behind each c_events bit of loom_link_recv. */
#define RCV_EVENT_FIELDS(X) \
	X(rx_frames) X(crc_errors) X(bad_type) X(bad_length) X(bad_ack) X(bad_credit) \
	X(not_up_drops) X(duplicates) X(seq_errors) X(bad_vc) X(credit_overruns) \
	X(rx_packets) X(naks_received) X(polls_received) X(maint_lost) X(trains)
#define RCV_NAME(f) #f,
const char *const rcv_event_names[RCV_EVENTS] = { RCV_EVENT_FIELDS(RCV_NAME) };
#undef RCV_NAME

/* What the frame checker reads and writes of a link unit, at one moment. */
struct rcv_state {
	bool valid;
	uint64_t now;
	enum link_state state;
	struct gbn_tx gbn;
	struct gbn_rx rxg;
	struct link_credit credit;
	struct lanes lanes;
	bool train_due, train_answer, poll_answer_due, lane_notice_due;
	uint64_t credit_progress;
	unsigned int q_count, q_tail;
	bool lane_flagged;
	uint32_t lane_flags;
	struct link_counters cnt;
};

struct rcv_model {
	struct lh_pair x;
	uint64_t rng;
	/* this phase: b's frames made bad (percent), b's maintenance frames, a's
	 * slot emptied and a's router input not ready (percent of cycles), cable
	 * cuts (per 10000 cycles) */
	unsigned int p_bad, p_maint, p_pop, p_stall, p_cut;
	unsigned int cut_left;
	struct rcv_state start;		/* a's receive half as it starts (the probe) */
	struct rcv_state after;		/* and after it checked the cycle's frames */
	uint8_t frame[LOOM_FRAME_MAX];	/* the frame it checked: header and body */
	uint8_t maint_pre[LINK_BODY_MAX];
	uint8_t dlv[LINK_BODY_MAX];
	uint64_t counts[RCV_COUNTS];
};
_Static_assert(offsetof(struct rcv_model, x) == 0, "eq_pair_new() builds the pair first");

static void rcv_read(struct rcv_state *s, const struct link_unit *l)
{
	const struct link_xmit *x = &l->tx;

	s->valid = true;
	s->now = l->now;
	s->state = l->state;
	s->gbn = x->gbn;
	s->rxg = l->rx.gbn;
	s->credit = l->credit;
	s->lanes = l->lanes;
	s->train_due = x->train_due;
	s->train_answer = x->train_answer;
	s->poll_answer_due = x->poll_answer_due;
	s->lane_notice_due = x->lane_notice_due;
	s->credit_progress = x->credit_progress;
	s->q_count = l->rx.q_count;
	s->q_tail = l->rx.q_tail;
	s->lane_flagged = l->rx.lane_flagged;
	s->lane_flags = l->rx.lane_flags;
	s->cnt = l->cnt;
}

static void rcv_probe(void *ctx, const struct link_unit *l, bool checked)
{
	struct rcv_model *m = ctx;
	const struct link_frame *f;

	if (!checked) {
		rcv_read(&m->start, l);
		return;
	}
	rcv_read(&m->after, l);
	/* the frame checked: parsed into the slot at the queue's tail, taken or not */
	f = &l->rx.queue[m->start.q_tail];
	memset(m->frame, 0, sizeof(m->frame));
	if (l->cnt.rx_frames != m->start.cnt.rx_frames) {
		memcpy(m->frame, &f->hdr, LOOM_FRAME_HDR_SIZE);
		memcpy(m->frame + LOOM_FRAME_HDR_SIZE, f->body, f->hdr.len);
		memcpy(m->dlv, f->body, sizeof(m->dlv));
	}
}

/* A header field's value for a frame of b that a's checks should refuse or find odd. */
static void rcv_spoil(struct rcv_model *m, struct link_txframe *tf)
{
	const struct link_unit *a = &m->x.a, *b = &m->x.b;
	struct loom_frame_hdr h = lh_frame_hdr(tf);
	struct loom_frame_credits cr;
	uint8_t body[LINK_BODY_MAX];
	unsigned int blen = h.len <= LINK_BODY_MAX ? h.len : 0, v = eq_below(&m->rng, CHAN_VCS_MAX);
	uint32_t depth = a->p.buf_depth;
	size_t n;

	memcpy(body, tf->bytes + LOOM_FRAME_HDR_SIZE, blen);
	switch (eq_below(&m->rng, 12)) {
	case 0:		/* a flag no frame has */
		h.flags |= (uint8_t)(4u << eq_below(&m->rng, 6));
		break;
	case 1:		/* a type no frame has */
		h.type = (uint8_t)(eq_percent(&m->rng, 50) ? 0 : 8 + eq_below(&m->rng, 248));
		break;
	case 2:		/* one past the last frame a sent, or older than its window */
		h.ack = eq_percent(&m->rng, 60) ? a->tx.gbn.next :
			a->tx.gbn.base - 2 - eq_below(&m->rng, 3);
		break;
	case 3:		/* a credit count possible or not, on any VC or none */
		h.credit_vc = (uint8_t)(eq_percent(&m->rng, 80) ? v : CHAN_VCS_MAX + eq_below(&m->rng, 4));
		h.credit = eq_percent(&m->rng, 25) ? a->credit.granted[v] - 1 :
			   a->credit.sent[v] + depth + eq_below(&m->rng, 2);
		break;
	case 4:		/* a sequence number a few off */
		h.seq += eq_below(&m->rng, 7) - 3;
		break;
	case 5:		/* a DATA frame on another VC: one the link does not carry, or a's fullest */
		h.vc = (uint8_t)eq_below(&m->rng, CHAN_VCS_MAX + 2);
		if (eq_percent(&m->rng, 50))
			for (unsigned int w = 0; w < a->p.vcs; w++)
				if (a->credit.grant[w] - a->credit.received[w] <
				    a->credit.grant[h.vc % a->p.vcs] - a->credit.received[h.vc % a->p.vcs])
					h.vc = (uint8_t)w;
		if (h.type == LOOM_FRAME_DATA && blen >= LOOM_PKT_HDR_SIZE && eq_percent(&m->rng, 50)) {
			/* and a maximal packet, more than its grant may hold */
			uint16_t pl = LOOM_PKT_MAX_PAYLOAD;

			memset(body + blen, 0, sizeof(body) - blen);
			memcpy(body + offsetof(struct loom_pkt_hdr, len), &pl, sizeof(pl));
			blen = LINK_BODY_MAX;
		}
		break;
	case 6:		/* a body shorter than a packet header, or a packet length off */
		if (h.type == LOOM_FRAME_DATA && eq_percent(&m->rng, 50))
			blen = eq_below(&m->rng, LOOM_PKT_HDR_SIZE);
		else if (blen > LOOM_PKT_HDR_SIZE)
			body[offsetof(struct loom_pkt_hdr, len)] ^= (uint8_t)(1u << eq_below(&m->rng, 8));
		break;
	case 7: {	/* another type with the same body */
		static const uint8_t types[] = { LOOM_FRAME_ACK, LOOM_FRAME_NAK, LOOM_FRAME_ACK_CREDIT,
						 LOOM_FRAME_MAINT, LOOM_FRAME_TRAIN, LOOM_FRAME_DATA };

		h.type = types[eq_below(&m->rng, sizeof(types))];
		break;
	}
	case 8:		/* b's ACK_CREDIT, its sequence number, flags and grants off now and then */
		memset(&cr, 0, sizeof(cr));
		for (unsigned int w = 0; w < b->p.vcs; w++)
			cr.credit[w] = b->credit.grant[w];
		if (eq_percent(&m->rng, 20))
			cr.credit[v] += eq_percent(&m->rng, 50) ? depth + 1 : 5;
		h.type = LOOM_FRAME_ACK_CREDIT;
		h.seq = b->tx.gbn.next + eq_below(&m->rng, 4) - 1;
		h.ack = b->rx.gbn.expected - 1;
		h.credit_vc = eq_percent(&m->rng, 90) ? LOOM_FRAME_NO_CREDIT : 0;
		h.flags = eq_percent(&m->rng, 50) ? LOOM_FRAME_F_POLL : 0;
		blen = eq_percent(&m->rng, 90) ? sizeof(cr) : 16;
		memcpy(body, &cr, sizeof(cr));
		break;
	case 9: {	/* a TRAIN: b's identity or another's, a lane notice, a peer still training */
		static const uint8_t lanes[] = { 0, 0, 0, 1, 2, 4, 3, 8 };

		h.type = LOOM_FRAME_TRAIN;
		h.vc = lanes[eq_below(&m->rng, sizeof(lanes))];
		h.flags = eq_percent(&m->rng, 50) ? LOOM_FRAME_F_TRAINED : 0;
		h.seq = eq_percent(&m->rng, 50) ? b->node : (uint32_t)eq_next(&m->rng);
		h.ack = eq_percent(&m->rng, 50) ? b->port : (uint32_t)eq_next(&m->rng);
		h.credit_vc = LOOM_FRAME_NO_CREDIT;
		blen = eq_percent(&m->rng, 90) ? 0 : 4;
		break;
	}
	default:	/* b's ACK or NAK, with a credit count of b's */
		h.type = eq_percent(&m->rng, 50) ? LOOM_FRAME_ACK : LOOM_FRAME_NAK;
		h.ack = b->rx.gbn.expected - 1;
		h.credit_vc = v < b->p.vcs ? (uint8_t)v : LOOM_FRAME_NO_CREDIT;
		h.credit = v < b->p.vcs ? b->credit.grant[v] : 0;
		h.flags = 0;
		blen = eq_percent(&m->rng, 90) ? 0 : 4;
		break;
	}
	n = link_encode_hdr(tf->bytes, sizeof(tf->bytes), &h, body, blen, NULL, 0);
	if (n)
		tf->len = (uint16_t)n;
}

/*
 * A frame of a to b granting b the whole of a's buffer on a VC (as much as
 * b takes as possible): b then sends more than a's buffer holds while its
 * packets wait for a's router, and a's frame checks see credit overruns.
 */
static void rcv_overgrant(struct rcv_model *m, struct link_txframe *tf)
{
	const struct link_unit *b = &m->x.b;
	struct loom_frame_hdr h = lh_frame_hdr(tf);
	uint8_t body[LINK_BODY_MAX];
	unsigned int blen = h.len <= LINK_BODY_MAX ? h.len : 0;
	size_t n;

	if (h.type != LOOM_FRAME_DATA || h.credit_vc >= b->p.vcs)
		return;
	memcpy(body, tf->bytes + LOOM_FRAME_HDR_SIZE, blen);
	h.credit = b->credit.sent[h.credit_vc] + b->p.buf_depth;
	n = link_encode_hdr(tf->bytes, sizeof(tf->bytes), &h, body, blen, NULL, 0);
	if (n)
		tf->len = (uint16_t)n;
}

/* b's frames to a as they enter the wire: now and then one made bad, sealed with a good CRC */
static bool rcv_tamper(void *ctx, unsigned int dir, struct link_txframe *tf)
{
	struct rcv_model *m = ctx;

	if (dir == 0) {
		if (m->p_bad && eq_percent(&m->rng, 50))
			rcv_overgrant(m, tf);
		return true;
	}
	if (!m->p_bad || !eq_percent(&m->rng, m->p_bad))
		return true;
	rcv_spoil(m, tf);
	m->counts[2]++;
	return true;
}

struct rcv_model *rcv_new(unsigned int lanes, unsigned int lane_bytes, unsigned int vcs,
			  unsigned int flit_bytes, unsigned int depth, unsigned int replay,
			  unsigned int threshold, uint64_t seed, char *err, size_t len)
{
	struct rcv_model *m;
	struct link_params lp;

	eq_params(&lp, lanes, lane_bytes, vcs, flit_bytes, threshold);
	lp.buf_depth = depth;
	lp.replay_frames = replay;
	lp.rx_frames = 1;
	m = eq_pair_new(sizeof(*m), &lp, seed, err, len);
	if (!m)
		return NULL;
	m->rng = seed ^ 0x7263760000000000ull;
	m->x.a.rx.probe = rcv_probe;
	m->x.a.rx.probe_ctx = m;
	m->x.w.tamper = rcv_tamper;
	m->x.w.tamper_ctx = m;
	return m;
}

void rcv_free(struct rcv_model *m)
{
	eq_pair_free(m);
}

void rcv_phase(struct rcv_model *m)
{
	static const double bers[] = { 0, 0, 1e-6, 1e-5, 1e-4 };
	static const unsigned int bad[] = { 0, 1, 5, 20, 50 }, maint[] = { 0, 0, 1, 5, 30 };
	static const unsigned int pop[] = { 1, 10, 50, 90, 100 }, cut[] = { 0, 0, 0, 3, 20 };
	static const unsigned int stall[] = { 0, 0, 10, 50, 98 };

	eq_traffic_phase(&m->rng, &m->x, bers);
	m->p_bad = bad[eq_below(&m->rng, 5)];
	m->p_maint = maint[eq_below(&m->rng, 5)];
	m->p_pop = pop[eq_below(&m->rng, 5)];
	m->p_cut = cut[eq_below(&m->rng, 5)];
	m->p_stall = stall[eq_below(&m->rng, 5)];
}

void rcv_step(struct rcv_model *m, struct rcv_cycle *c)
{
	struct link_unit *a = &m->x.a;
	const struct rcv_state *s = &m->start, *e = &m->after;
	uint64_t frames, errors;

	memset(c, 0, sizeof(*c));
	/* the registers in this cycle */
	c->peer_node = a->peer_node;
	c->peer_port = a->peer_port;
	c->lane_flagged = a->rx.lane_flagged;
	c->maint_full = a->rx.maint_full;
	c->maint_len = a->rx.maint_len;
	memcpy(m->maint_pre, a->rx.maint, sizeof(m->maint_pre));
	c->maint_body = m->maint_pre;
	/* a's user takes the maintenance frame now and then; b sends some */
	if (a->rx.maint_full && eq_percent(&m->rng, m->p_pop)) {
		link_unit_maint_pop(a);
		c->maint_pop = true;
	}
	eq_maint_offer(&m->rng, &m->x.b, m->p_maint);
	eq_cable_cycle(&m->rng, &m->x, &m->cut_left, m->p_cut, 300);
	c->flush = a->carrier_in != a->carrier;

	m->start.valid = m->after.valid = false;
	lh_pair_cycle(&m->x);
	if (!s->valid || !e->valid) {
		c->error = "the receive probe was not called";
		return;
	}

	/* the other units' views as the receive half starts */
	c->training = s->state == LINK_TRAINING;
	c->up = s->state == LINK_UP;
	c->lane_flags = s->lane_flags;
	c->tx_base = s->gbn.base;
	c->tx_next = s->gbn.next;
	c->rx_expected = s->rxg.expected;
	for (unsigned int v = 0; v < a->p.vcs; v++) {
		c->grant[v] = s->credit.grant[v];
		c->received[v] = s->credit.received[v];
		c->granted[v] = s->credit.granted[v];
		c->sent[v] = s->credit.sent[v];
	}

	/* the framer's result: a frame or a framing error */
	frames = e->cnt.rx_frames - s->cnt.rx_frames;
	errors = e->cnt.crc_errors - s->cnt.crc_errors;
	if (frames + errors > 1)
		c->error = "more than one result checked in a cycle (RX_FRAMES is 1)";
	c->res_valid = frames + errors != 0;
	c->res_status = frames ? 1 : errors ? 4 : 0;
	c->res_frame = m->frame;

	/* what the checks counted */
#define RCV_EVENT(f) \
	if (e->cnt.f != s->cnt.f) \
		c->events |= 1u << i; \
	i++;
	{
		unsigned int i = 0;

		RCV_EVENT_FIELDS(RCV_EVENT)
	}
#undef RCV_EVENT
	c->rx_bytes = (unsigned int)(e->cnt.rx_bytes - s->cnt.rx_bytes);
	c->dlv_valid = e->cnt.rx_packets != s->cnt.rx_packets;
	if (c->dlv_valid) {
		struct loom_frame_hdr h;

		memcpy(&h, m->frame, sizeof(h));
		c->dlv_vc = h.vc;
		c->dlv_len = h.len;
	}
	c->dlv_body = m->dlv;

	m->counts[0] += c->res_valid;
	m->counts[1] += errors;
	m->counts[3] += c->dlv_valid;
	m->counts[4] += e->cnt.bad_type + e->cnt.bad_length + e->cnt.bad_ack + e->cnt.bad_credit +
			e->cnt.bad_vc + e->cnt.not_up_drops + e->cnt.credit_overruns -
			(s->cnt.bad_type + s->cnt.bad_length + s->cnt.bad_ack + s->cnt.bad_credit +
			 s->cnt.bad_vc + s->cnt.not_up_drops + s->cnt.credit_overruns);
	m->counts[5] += e->cnt.naks_received - s->cnt.naks_received;
	m->counts[6] += e->cnt.polls_received - s->cnt.polls_received;
	m->counts[7] += e->cnt.trains - s->cnt.trains;
	/* a's router input in the next cycle: not ready now and then, so its buffers fill */
	m->x.sink[1].back.ready = !(m->p_stall && eq_percent(&m->rng, m->p_stall));
}

const char *rcv_check_ops(const struct rcv_model *m, const struct rcv_ops *o, uint64_t *rtl,
			  uint64_t *model)
{
	const struct link_params *p = &m->x.a.p;
	const struct rcv_state *s = &m->start, *e = &m->after;
	struct rcv_state t = *s;
	uint64_t now = s->now;
	bool progress = false;

	for (unsigned int i = 0; i < t.lanes.n; i++)
		if ((o->ln_flags & (1u << i)) &&
		    lanes_error_on(&t.lanes, i, now, p->lane_threshold, p->lane_window))
			t.lane_notice_due = true;
	if (o->ln_crc_err && t.lanes.n) {
		unsigned int lane;

		if (lanes_error(&t.lanes, o->ln_crc_seq, now, p->lane_threshold, p->lane_window, &lane))
			t.lane_notice_due = true;
	}
	if (o->ln_narrow && o->ln_narrow_n < t.lanes.n)
		t.lanes.n = o->ln_narrow_n;
	if (o->ack_valid && o->ack_nak)
		gbn_tx_nak(&t.gbn, o->ack_value, now);
	else if (o->ack_valid)
		gbn_tx_ack(&t.gbn, o->ack_value, now);
	if (o->data_valid)
		gbn_rx_data(&t.rxg, o->data_seq);
	if (o->rx_error)
		gbn_rx_error(&t.rxg);
	for (unsigned int v = 0; v < p->vcs; v++)
		if ((o->upd_valid & (1u << v)) && link_credit_update(&t.credit, v, o->upd_value[v]))
			progress = true;
	if (o->acc_valid)
		link_credit_accepted(&t.credit, o->acc_vc, o->acc_flits);
	if (o->rep) {
		t.rxg.ack_due = true;
		link_credit_repeat(&t.credit);
	}
	if (o->came_up) {
		t.state = LINK_UP;
		progress = true;
	}
	t.train_due |= o->set_train_due;
	t.train_answer |= o->set_train_answer;
	t.poll_answer_due |= o->set_poll_answer;
#define RCV_SAME(what, a, b) \
	do { \
		if ((a) != (b)) { \
			*rtl = (a); \
			*model = (b); \
			return what; \
		} \
	} while (0)
	RCV_SAME("progress (credits moved or the link came up)", o->progress, progress);
	if (progress)
		t.credit_progress = now;
	for (unsigned int i = 0; i < LANES_MAX; i++) {
		RCV_SAME("ln_flags or ln_crc_err (a lane's errors after them)", t.lanes.errors[i],
			 e->lanes.errors[i]);
		RCV_SAME("ln_flags or ln_crc_err (a lane's window after them)", t.lanes.win_count[i],
			 e->lanes.win_count[i]);
	}
	RCV_SAME("ln_narrow (the lanes in use after it)", t.lanes.n, e->lanes.n);
	RCV_SAME("ln_* (the lanes dropped after them)", t.lanes.drops, e->lanes.drops);
	RCV_SAME("ack_* (the go-back-N sender's base after it)", t.gbn.base, e->gbn.base);
	RCV_SAME("ack_* (the go-back-N sender's resend after it)", t.gbn.resend, e->gbn.resend);
	RCV_SAME("ack_* (the go-back-N sender's deadline after it)", t.gbn.deadline, e->gbn.deadline);
	RCV_SAME("data_* or rx_error (the go-back-N receiver's expected after it)", t.rxg.expected,
		 e->rxg.expected);
	RCV_SAME("data_*, rx_error or rep (the go-back-N receiver's nak_due after them)",
		 t.rxg.nak_due, e->rxg.nak_due);
	RCV_SAME("data_*, rx_error or rep (the go-back-N receiver's ack_due after them)",
		 t.rxg.ack_due, e->rxg.ack_due);
	for (unsigned int v = 0; v < p->vcs; v++) {
		RCV_SAME("upd_* (the credit unit's granted of a VC after it)", t.credit.granted[v],
			 e->credit.granted[v]);
		RCV_SAME("acc_* (the credit unit's received of a VC after it)", t.credit.received[v],
			 e->credit.received[v]);
	}
	RCV_SAME("rep (the credit unit's pending mask after it)", t.credit.pending, e->credit.pending);
	RCV_SAME("came_up (the link's state after it)", t.state, e->state);
	RCV_SAME("set_train_due (train_due after it)", t.train_due, e->train_due);
	RCV_SAME("set_train_answer (train_answer after it)", t.train_answer, e->train_answer);
	RCV_SAME("set_poll_answer (poll_answer_due after it)", t.poll_answer_due, e->poll_answer_due);
	RCV_SAME("ln_* (lane_notice_due after a lane dropped)", t.lane_notice_due, e->lane_notice_due);
	RCV_SAME("progress (credit_progress after it)", t.credit_progress, e->credit_progress);
#undef RCV_SAME
	if (memcmp(&t.gbn, &e->gbn, sizeof(t.gbn)) || memcmp(&t.rxg, &e->rxg, sizeof(t.rxg)) ||
	    memcmp(&t.credit, &e->credit, sizeof(t.credit)) ||
	    memcmp(&t.lanes, &e->lanes, sizeof(t.lanes))) {
		*rtl = *model = 0;
		return "the operations (the go-back-N units, credit unit or lanes after them differ "
		       "from the C model's)";
	}
	return NULL;
}

void rcv_counts(const struct rcv_model *m, uint64_t counts[RCV_COUNTS])
{
	memcpy(counts, m->counts, sizeof(m->counts));
}
