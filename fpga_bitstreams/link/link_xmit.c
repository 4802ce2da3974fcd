// SPDX-License-Identifier: GPL-2.0
/*
 * The link unit's transmit half: assembles the packets the router sends
 * flit by flit, frames them with a sequence number and the piggy-backed
 * acknowledgement and credit count, keeps them for go-back-N replay, and
 * serialises frames back to back onto the lanes; control frames (TRAIN,
 * MAINT, NAK, ACK_CREDIT) take their turn by priority.
 */
#include "link/link_internal.h"

#include <string.h>

void link_xmit_reset(struct link_unit *l)
{
	struct link_xmit *x = &l->tx;

	gbn_tx_init(&x->gbn, 0, l->p.replay_frames, l->p.ack_timeout);
	x->q_head = x->q_count = x->q_tail = 0;
	x->ready_before = false;
	x->assembling = 0;
	x->discarding = 0;
	x->cur_rem = 0;
	x->ob_head = x->ob_count = 0;
	x->train_due = false;
	x->train_answer = false;
	x->train_retry = 0;
	x->lane_notice_due = false;
	x->poll_answer_due = false;
	x->status_deadline = 0;
	x->credit_progress = l->now;
	x->maint_full = false;
}

/* ---- flits from the router ---- */

/*
 * The router's output port may interleave the flits of packets on
 * different VCs (one output VC per packet, flits by switch arbitration),
 * so each VC's packet is assembled in its own buffer and joins the
 * transmit queue whole, when its tail arrives.
 */

/* Drop @flits flits of VC @vc the router sent: their credits go back to it. */
static void link_xmit_drop(struct link_unit *l, unsigned int vc, unsigned int flits)
{
	if (vc < l->p.vcs)
		link_credit_refund(&l->credit, vc, flits);
}

/* Drop the packet being assembled on @vc (malformed). */
static void link_xmit_abort(struct link_unit *l, unsigned int vc)
{
	struct link_xmit *x = &l->tx;

	l->cnt.tx_malformed++;
	link_xmit_drop(l, vc, x->asmb[vc].flits);
	x->assembling &= ~(1u << vc);
}

/* A malformed flit sequence: drop the packet and the flits up to its tail. */
static void link_xmit_malformed(struct link_unit *l, const struct flit *f)
{
	struct link_xmit *x = &l->tx;

	if (f->vc < l->p.vcs && (x->assembling & (1u << f->vc)))
		link_xmit_abort(l, f->vc);
	else
		l->cnt.tx_malformed++;
	link_xmit_drop(l, f->vc, 1);
	if (f->vc < l->p.vcs && !f->tail)
		x->discarding |= 1u << f->vc;
}

static void link_xmit_head(struct link_unit *l, const struct flit *f)
{
	struct link_xmit *x = &l->tx;
	struct link_pkt *p = &x->asmb[f->vc];
	uint16_t plen;

	link_copy_flit(p->bytes, f->data, l->p.flit_bytes);
	memcpy(&plen, p->bytes + offsetof(struct loom_pkt_hdr, len), sizeof(plen));
	if (plen > LOOM_PKT_MAX_PAYLOAD) {
		link_xmit_malformed(l, f);
		return;
	}
	p->len = (uint16_t)(LOOM_PKT_HDR_SIZE + plen);
	p->vc = f->vc;
	p->flits = 1;
	x->asm_expect[f->vc] = (uint8_t)link_flits(&l->p, p->len);
	x->assembling |= 1u << f->vc;
}

static void link_xmit_take(struct link_unit *l, const struct flit *f)
{
	struct link_xmit *x = &l->tx;
	uint32_t bit = 1u << f->vc;
	struct link_pkt *p;

	if (l->state != LINK_UP) {
		link_xmit_drop(l, f->vc, 1);	/* the cable went down under it */
		return;
	}
	if (f->vc >= l->p.vcs) {
		link_xmit_malformed(l, f);	/* no such VC */
		return;
	}
	if (f->head) {
		if (x->assembling & bit)
			link_xmit_abort(l, f->vc);	/* the last packet had no tail */
		x->discarding &= ~bit;
		link_xmit_head(l, f);
	} else if (x->discarding & bit) {
		link_xmit_drop(l, f->vc, 1);
		if (f->tail)
			x->discarding &= ~bit;
		return;
	} else if (!(x->assembling & bit)) {
		link_xmit_malformed(l, f);	/* body flit without a head */
		return;
	} else {
		p = &x->asmb[f->vc];
		if (p->flits >= x->asm_expect[f->vc]) {
			link_xmit_malformed(l, f);
			return;
		}
		link_copy_flit(p->bytes + p->flits * l->p.flit_bytes, f->data, l->p.flit_bytes);
		p->flits++;
	}
	if (!(x->assembling & bit))
		return;
	l->cnt.tx_flits++;
	if (!f->tail)
		return;
	p = &x->asmb[f->vc];
	/* the tail is in the packet already: dropping the packet refunds it */
	if (p->flits != x->asm_expect[f->vc]) {
		link_xmit_abort(l, f->vc);	/* shorter than its header says */
		return;
	}
	if (x->q_count >= l->p.tx_queue) {
		link_xmit_abort(l, f->vc);	/* sent while not ready: no room */
		return;
	}
	x->assembling &= ~bit;
	memcpy(&x->queue[x->q_tail], p, offsetof(struct link_pkt, bytes) +
	       (size_t)p->flits * l->p.flit_bytes);
	x->q_count++;
	x->q_tail = link_ring_next(x->q_tail, l->p.tx_queue);
	l->cnt.tx_packets++;
}

/*
 * Ready in the next cycle (chan.h: registered): the router may then drive
 * a flit in the cycle after, and the flit that ready in this cycle allows
 * may come too.  Only a tail needs room (a free queue slot); so ready is
 * set while the free slots cover the tails those one or two flits can
 * bring: a VC with one flit left brings a tail in one flit, a VC with two
 * left in two, a new packet only if a flit holds a whole header.
 */
bool link_xmit_ready(const struct link_unit *l)
{
	const struct link_xmit *x = &l->tx;
	unsigned int coming = l->out.back.ready;	/* a flit may come next cycle */
	unsigned int flits = coming + 1, free_slots = l->p.tx_queue - x->q_count;
	unsigned int one = 0, two = 0, tails;
	unsigned int head_flits = link_flits(&l->p, LOOM_PKT_HDR_SIZE);

	if (l->state != LINK_UP)
		return false;
	for (uint32_t m = x->assembling; m; m &= m - 1) {
		unsigned int v = (unsigned int)__builtin_ctz(m);
		unsigned int left = x->asm_expect[v] - x->asmb[v].flits;

		one += left == 1;
		two += left == 2;
	}
	/* VCs not assembling may start a packet: its tail after head_flits flits */
	if (head_flits == 1)
		one += l->p.vcs;
	else if (head_flits == 2)
		two += l->p.vcs;
	tails = one < flits ? one : flits;
	if (tails < 1 && flits == 2 && two)
		tails = 1;
	return free_slots >= tails;
}

/* ---- frames ---- */

static void link_xmit_hdr(struct loom_frame_hdr *h, uint8_t type)
{
	memset(h, 0, sizeof(*h));
	h->type = type;
	h->credit_vc = LOOM_FRAME_NO_CREDIT;
}

/* The acknowledgement a header carries; *was_due tells whether it was owed. */
static uint32_t link_xmit_ack(struct link_unit *l, bool *was_due)
{
	*was_due = l->rx.gbn.ack_due;
	l->rx.gbn.ack_due = false;
	return gbn_rx_ack_value(&l->rx.gbn);
}

/* A replay is due, or a new packet has room in the replay buffer and credit at the peer. */
static bool link_xmit_data_ready(const struct link_unit *l)
{
	const struct link_xmit *x = &l->tx;
	const struct link_pkt *q = &x->queue[x->q_head];

	return gbn_tx_resend_due(&x->gbn) ||
	       (x->q_count && gbn_tx_room(&x->gbn) &&
		link_credit_peer_has(&l->credit, q->vc, q->flits));
}

static size_t link_xmit_data(struct link_unit *l, struct link_txframe *tf, uint64_t start)
{
	struct link_xmit *x = &l->tx;
	struct loom_frame_hdr h;
	struct link_pkt *p;
	uint32_t seq, credit;
	bool due, pending;

	if (gbn_tx_resend_due(&x->gbn)) {
		gbn_tx_take(&x->gbn, &seq, start);
		p = &x->replay[gbn_tx_slot(&x->gbn, seq)];
		l->cnt.replayed++;
	} else {
		const struct link_pkt *q = &x->queue[x->q_head];

		p = &x->replay[gbn_tx_slot(&x->gbn, x->gbn.next)];
		p->len = q->len;
		p->vc = q->vc;
		p->flits = q->flits;
		memcpy(p->bytes, q->bytes, q->len);
		x->q_head = link_ring_next(x->q_head, l->p.tx_queue);
		x->q_count--;
		gbn_tx_take(&x->gbn, &seq, start);
		link_credit_sent(&l->credit, p->vc, p->flits);
		x->credit_progress = start;
	}
	link_xmit_hdr(&h, LOOM_FRAME_DATA);
	h.vc = p->vc;
	h.seq = seq;
	h.ack = link_xmit_ack(l, &due);
	h.credit_vc = (uint8_t)link_credit_pick(&l->credit, &credit, &pending);
	h.credit = credit;
	l->cnt.acks_piggybacked += due;
	l->cnt.credits_piggybacked += pending;
	l->cnt.tx_data_frames++;
	/* reverse traffic: what is still pending waits for the next one */
	x->status_deadline = link_status_pending(l) ? start + l->p.coalesce_delay : 0;
	return link_encode_hdr(tf->bytes, sizeof(tf->bytes), &h, p->bytes, p->len, NULL, 0);
}

/* ACK_CREDIT: the acknowledgement, our next sequence number, every VC's grant. */
static size_t link_xmit_status(struct link_unit *l, struct link_txframe *tf, uint64_t start,
			       bool poll)
{
	struct link_xmit *x = &l->tx;
	struct loom_frame_credits body;
	struct loom_frame_hdr h;
	bool due;

	memset(&body, 0, sizeof(body));
	for (unsigned int v = 0; v < l->p.vcs; v++)
		body.credit[v] = l->credit.grant[v];
	link_xmit_hdr(&h, LOOM_FRAME_ACK_CREDIT);
	h.seq = x->gbn.next;
	h.ack = link_xmit_ack(l, &due);
	l->cnt.acks_standalone += due;
	l->cnt.credits_standalone += link_credit_advertise_all(&l->credit);
	l->cnt.status_frames++;
	if (poll) {
		h.flags = LOOM_FRAME_F_POLL;
		l->cnt.polls_sent++;
		x->credit_progress = start;
	}
	x->poll_answer_due = false;
	x->status_deadline = 0;
	return link_encode_hdr(tf->bytes, sizeof(tf->bytes), &h, &body, sizeof(body), NULL, 0);
}

static size_t link_xmit_nak(struct link_unit *l, struct link_txframe *tf)
{
	struct loom_frame_hdr h;
	uint32_t credit;
	bool due, pending;

	link_xmit_hdr(&h, LOOM_FRAME_NAK);
	l->rx.gbn.nak_due = false;
	h.ack = link_xmit_ack(l, &due);
	h.credit_vc = (uint8_t)link_credit_pick(&l->credit, &credit, &pending);
	h.credit = credit;
	l->cnt.acks_standalone += due;
	l->cnt.naks_sent++;
	if (!link_status_pending(l))
		l->tx.status_deadline = 0;
	return link_encode_hdr(tf->bytes, sizeof(tf->bytes), &h, NULL, 0, NULL, 0);
}

/* TRAIN: our identity (lanes = 0) or a lane notice (lanes in use). */
static size_t link_xmit_train(struct link_unit *l, struct link_txframe *tf, unsigned int lanes,
			      bool answer)
{
	struct loom_frame_hdr h;

	link_xmit_hdr(&h, LOOM_FRAME_TRAIN);
	h.vc = (uint8_t)lanes;
	h.seq = l->node;
	h.ack = l->port;
	if (answer)
		h.flags = LOOM_FRAME_F_TRAINED;
	return link_encode_hdr(tf->bytes, sizeof(tf->bytes), &h, NULL, 0, NULL, 0);
}

static size_t link_xmit_maint(struct link_unit *l, struct link_txframe *tf)
{
	struct loom_frame_hdr h;

	link_xmit_hdr(&h, LOOM_FRAME_MAINT);
	h.vc = LOOM_VC_MAINT;
	l->tx.maint_full = false;
	return link_encode_hdr(tf->bytes, sizeof(tf->bytes), &h, l->tx.maint, l->tx.maint_len,
			       NULL, 0);
}

/* A credit deficit without progress for ack_timeout cycles: ask the peer. */
static bool link_xmit_poll_due(const struct link_unit *l, uint64_t start)
{
	return l->credit.deficit_mask && !gbn_tx_held(&l->tx.gbn) &&
	       start >= l->tx.credit_progress + l->p.ack_timeout;
}

/*
 * The frame that starts in cycle @start, by priority: maintenance, TRAIN
 * answers and lane notices, NAK, a poll's answer, DATA (replays first),
 * then an ACK_CREDIT whose coalescing delay ran out, then a credit poll.
 */
static size_t link_xmit_build(struct link_unit *l, struct link_txframe *tf, uint64_t start)
{
	struct link_xmit *x = &l->tx;

	if (l->state == LINK_TRAINING) {
		if (!x->train_due && start < x->train_retry)
			return 0;
		x->train_due = false;
		x->train_retry = start + l->p.ack_timeout;
		tf->type = LOOM_FRAME_TRAIN;
		return link_xmit_train(l, tf, 0, false);
	}
	if (l->state != LINK_UP)
		return 0;
	if (x->maint_full) {
		tf->type = LOOM_FRAME_MAINT;
		return link_xmit_maint(l, tf);
	}
	if (x->train_due) {
		x->train_due = false;
		tf->type = LOOM_FRAME_TRAIN;
		return link_xmit_train(l, tf, 0, x->train_answer);
	}
	if (x->lane_notice_due) {
		x->lane_notice_due = false;
		l->cnt.lane_notices++;
		tf->type = LOOM_FRAME_TRAIN;
		return link_xmit_train(l, tf, l->lanes.n, false);
	}
	if (l->rx.gbn.nak_due) {
		tf->type = LOOM_FRAME_NAK;
		return link_xmit_nak(l, tf);
	}
	tf->type = LOOM_FRAME_ACK_CREDIT;
	if (x->poll_answer_due)
		return link_xmit_status(l, tf, start, false);
	if (link_xmit_data_ready(l)) {
		tf->type = LOOM_FRAME_DATA;
		return link_xmit_data(l, tf, start);
	}
	if (x->status_deadline && start >= x->status_deadline)
		return link_xmit_status(l, tf, start, false);
	if (link_xmit_poll_due(l, start))
		return link_xmit_status(l, tf, start, true);
	return 0;
}

/*
 * Fill the lanes of the next cycle: the rest of the frame on them, then
 * new frames back to back while bytes of the cycle are left.  A frame
 * keeps the lane count it started with; after a lane change the next one
 * starts on a fresh cycle.  Returns the bytes put on the lanes.
 */
static unsigned int link_xmit_serialise(struct link_unit *l)
{
	struct link_xmit *x = &l->tx;
	uint64_t start = l->now + 1;
	unsigned int rate = link_rate(&l->p, l->lanes.n), budget = rate, used = 0;

	if (x->cur_rem) {
		unsigned int take = x->cur_rem < x->cur_rate ? x->cur_rem : x->cur_rate;

		x->cur_rem -= take;
		used = take;
		budget = x->cur_rem || x->cur_rate != rate ? 0 : rate - take;
	}
	if (x->probe)
		x->probe(x->probe_ctx, l, budget && x->ob_count < LINK_OUTBOX);
	while (budget && x->ob_count < LINK_OUTBOX) {
		struct link_txframe *tf = &x->outbox[(x->ob_head + x->ob_count) % LINK_OUTBOX];
		size_t len = link_xmit_build(l, tf, start);

		if (!len)
			break;
		x->ob_count++;
		tf->len = (uint16_t)len;
		tf->first_cycle = start;
		tf->phase = (uint8_t)(rate - budget);
		tf->lanes = (uint8_t)l->lanes.n;
		tf->lane_bytes = (uint8_t)l->p.lane_bytes;
		l->cnt.tx_frames++;
		l->cnt.tx_bytes += len;
		if (len <= budget) {
			budget -= (unsigned int)len;
			used += (unsigned int)len;
			tf->last_cycle = start;
			continue;
		}
		used += budget;
		x->cur_rem = (unsigned int)len - budget;
		x->cur_rate = rate;
		tf->last_cycle = start + (x->cur_rem + rate - 1) / rate;
		budget = 0;
	}
	return used;
}

bool link_xmit_credit_starved(const struct link_unit *l)
{
	const struct link_xmit *x = &l->tx;
	const struct link_pkt *q = &x->queue[x->q_head];

	if (x->q_count)
		return !link_credit_peer_has(&l->credit, q->vc, q->flits);
	return !x->assembling && l->credit.low_mask;
}

void link_xmit_step(struct link_unit *l, const struct link_in *in)
{
	struct link_xmit *x = &l->tx;
	unsigned int used = 0;

	if (in->flit.valid) {
		if (x->ready_before)
			link_xmit_take(l, &in->flit);
		else
			link_xmit_malformed(l, &in->flit);	/* ready was low: no room promised */
	}
	x->ready_before = l->out.back.ready;
	if (l->state == LINK_UP) {
		if (x->gbn.deadline && l->now >= x->gbn.deadline && gbn_tx_timer(&x->gbn, l->now)) {
			l->cnt.retries++;
			l->cnt.ack_timeouts++;
		}
		if (!x->status_deadline && link_status_pending(l))
			x->status_deadline = l->now + 1 + l->p.coalesce_delay;
	}
	if (l->state != LINK_DOWN)
		used = link_xmit_serialise(l);
	l->out.back.ready = link_xmit_ready(l);
	if (l->state != LINK_UP)
		return;
	if (x->q_count && !gbn_tx_room(&x->gbn))
		l->cnt.replay_full_cycles++;
	else if (!used && link_xmit_credit_starved(l))
		l->cnt.credit_starved_cycles++;
}
