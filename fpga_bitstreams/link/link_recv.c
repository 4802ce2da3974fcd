// SPDX-License-Identifier: GPL-2.0
/*
 * The link unit's receive half: checks every frame the framer completes,
 * takes acknowledgements and credits from their headers, accepts DATA
 * frames in sequence (go-back-N receiver), forwards accepted packets to
 * the router one flit per cycle, charges errors to lanes, and turns the
 * credits the router frees into grants for the peer.
 */
#include "link/link_internal.h"

#include <string.h>

#define LINK_FLAGS_KNOWN	(LOOM_FRAME_F_POLL | LOOM_FRAME_F_TRAINED)

_Static_assert(LINK_RX_BUF == 32768, "RX_WINDOW's maximum (link_params.h) is the framer's buffer");
_Static_assert(sizeof(((struct chan_back *)0)->credits) == sizeof(uint64_t),
	       "the credit wires of all VCs are tested as one word");

void link_recv_reset(struct link_unit *l)
{
	struct link_recv *r = &l->rx;

	link_rx_init(&r->framer);
	gbn_rx_init(&r->gbn, 0);
	r->fed = false;
	r->lane_flags = 0;
	r->lane_flagged = false;
}

static void link_recv_lane_error(struct link_unit *l, unsigned int lane)
{
	if (lanes_error_on(&l->lanes, lane, l->now, l->p.lane_threshold, l->p.lane_window))
		link_unit_lane_dropped(l);
}

/* Lanes the line decoder flagged in the bytes that arrived (per-lane parity). */
static void link_recv_lane_flags(struct link_unit *l)
{
	uint32_t m = l->rx.lane_flags;

	l->rx.lane_flags = 0;
	l->rx.lane_flagged = true;
	for (unsigned int i = 0; i < l->lanes.n; i++)
		if (m & (1u << i))
			link_recv_lane_error(l, i);
}

static void link_recv_framing_error(struct link_unit *l)
{
	l->cnt.crc_errors++;
	/* no lane flagged: charge the lane the expected frame would stripe to */
	if (!l->rx.lane_flagged && l->lanes.n)
		link_recv_lane_error(l, l->rx.gbn.expected % l->lanes.n);
	if (l->state == LINK_UP)
		gbn_rx_error(&l->rx.gbn);
}

/* The acknowledgement and credit count every sequenced header may carry. */
static bool link_recv_hdr_ok(struct link_unit *l, const struct loom_frame_hdr *h)
{
	if (!gbn_tx_ack_in_window(&l->tx.gbn, h->ack)) {
		l->cnt.bad_ack++;
		return false;
	}
	if (h->credit_vc != LOOM_FRAME_NO_CREDIT &&
	    !link_credit_valid(&l->credit, h->credit_vc, h->credit)) {
		l->cnt.bad_credit++;
		return false;
	}
	return true;
}

static void link_recv_credit(struct link_unit *l, unsigned int vc, uint32_t value)
{
	if (link_credit_update(&l->credit, vc, value))
		l->tx.credit_progress = l->now;
}

static void link_recv_hdr_apply(struct link_unit *l, const struct loom_frame_hdr *h)
{
	gbn_tx_ack(&l->tx.gbn, h->ack, l->now);
	if (h->credit_vc != LOOM_FRAME_NO_CREDIT)
		link_recv_credit(l, h->credit_vc, h->credit);
}

/* Something we sent may have been lost: send our acknowledgement and credits again. */
static void link_recv_resend_status(struct link_unit *l)
{
	l->rx.gbn.ack_due = true;
	link_credit_repeat(&l->credit);
}

/*
 * A DATA frame; true when its packet joins the delivery queue.  An
 * acknowledgement or credit count outside what the peer could send is
 * ignored (and counted), not the packet: it is judged on its own.  A frame
 * taken in sequence is acknowledged whatever it carries, so a malformed
 * packet (VC, length) is dropped here once, never replayed for ever.
 */
static bool link_recv_data(struct link_unit *l, const struct link_frame *f)
{
	const struct loom_frame_hdr *h = &f->hdr;
	struct loom_pkt_hdr ph;
	unsigned int flits;

	if (link_recv_hdr_ok(l, h))
		link_recv_hdr_apply(l, h);
	switch (gbn_rx_data(&l->rx.gbn, h->seq)) {
	case GBN_RX_ACCEPT:
		break;
	case GBN_RX_DUPLICATE:
		/* the sender replays what we have: gbn_rx acknowledges again */
		l->cnt.duplicates++;
		return false;
	case GBN_RX_OUT_OF_ORDER:
		l->cnt.seq_errors++;
		return false;
	}
	if (h->vc >= l->p.vcs) {
		l->cnt.bad_vc++;
		return false;
	}
	if (h->len < LOOM_PKT_HDR_SIZE) {
		l->cnt.bad_length++;
		return false;
	}
	memcpy(&ph, f->body, sizeof(ph));
	if (ph.len != h->len - LOOM_PKT_HDR_SIZE) {
		l->cnt.bad_length++;
		return false;
	}
	flits = link_flits(&l->p, h->len);
	if (!link_credit_may_accept(&l->credit, h->vc, flits)) {
		l->cnt.credit_overruns++;
		return false;
	}
	link_credit_accepted(&l->credit, h->vc, flits);
	l->cnt.rx_packets++;
	return true;
}

/* ACK and NAK: no body, the acknowledgement in the header. */
static void link_recv_ack(struct link_unit *l, const struct loom_frame_hdr *h)
{
	if (h->len) {
		l->cnt.bad_length++;
		return;
	}
	if (!link_recv_hdr_ok(l, h))
		return;
	link_recv_hdr_apply(l, h);
	if (h->type != LOOM_FRAME_NAK)
		return;
	l->cnt.naks_received++;
	if (gbn_tx_nak(&l->tx.gbn, h->ack, l->now))
		l->cnt.retries++;
	link_recv_resend_status(l);
}

/* ACK_CREDIT: the peer's acknowledgement, next sequence number and every VC's credits. */
static void link_recv_status(struct link_unit *l, const struct link_frame *f)
{
	const struct loom_frame_hdr *h = &f->hdr;
	struct loom_frame_credits body;
	int32_t ahead;

	if (h->len != LOOM_FRAME_CREDITS_SIZE) {
		l->cnt.bad_length++;
		return;
	}
	if (h->credit_vc != LOOM_FRAME_NO_CREDIT) {
		l->cnt.bad_credit++;
		return;
	}
	if (!link_recv_hdr_ok(l, h))
		return;
	ahead = (int32_t)(h->seq - l->rx.gbn.expected);
	if (ahead < 0) {
		l->cnt.bad_ack++;	/* claims fewer frames than we received */
		return;
	}
	memcpy(&body, f->body, sizeof(body));
	for (unsigned int v = 0; v < CHAN_VCS_MAX; v++) {
		bool ok = v < l->p.vcs ? link_credit_valid(&l->credit, v, body.credit[v]) :
					!body.credit[v];

		if (!ok) {
			l->cnt.bad_credit++;
			return;
		}
	}
	link_recv_hdr_apply(l, h);
	for (unsigned int v = 0; v < l->p.vcs; v++)
		link_recv_credit(l, v, body.credit[v]);
	if (ahead > 0)
		gbn_rx_error(&l->rx.gbn);	/* frames before seq never arrived: NAK */
	if (h->flags & LOOM_FRAME_F_POLL) {
		l->cnt.polls_received++;
		link_recv_resend_status(l);
		l->tx.poll_answer_due = true;
	}
}

static void link_recv_train(struct link_unit *l, const struct loom_frame_hdr *h)
{
	if (h->len) {
		l->cnt.bad_length++;
		return;
	}
	if (h->vc) {
		/* lane notice: the peer's receiver dropped lanes, both ways follow */
		if (h->vc > LANES_MAX || (h->vc & (h->vc - 1))) {
			l->cnt.bad_type++;
			return;
		}
		if (l->state != LINK_UP) {
			l->cnt.not_up_drops++;
			return;
		}
		if (h->vc < l->lanes.n)
			l->lanes.n = h->vc;
		return;
	}
	l->peer_node = h->seq;
	l->peer_port = h->ack;
	if (l->state == LINK_TRAINING) {
		link_unit_came_up(l);
	} else if (!(h->flags & LOOM_FRAME_F_TRAINED)) {
		/* the peer is still training: it missed our TRAIN and what followed */
		l->tx.train_due = true;
		l->tx.train_answer = true;
		link_recv_resend_status(l);
		l->tx.poll_answer_due = true;
	}
}

static void link_recv_maint(struct link_unit *l, const struct link_frame *f)
{
	struct link_recv *r = &l->rx;

	if (l->state != LINK_UP || r->maint_full) {
		l->cnt.maint_lost++;
		return;
	}
	memcpy(r->maint, f->body, f->hdr.len);
	r->maint_len = f->hdr.len;
	r->maint_full = true;
}

/* A frame with a good CRC; true when it is a DATA frame to deliver. */
static bool link_recv_frame(struct link_unit *l, const struct link_frame *f)
{
	const struct loom_frame_hdr *h = &f->hdr;

	l->cnt.rx_frames++;
	l->cnt.rx_bytes += LOOM_FRAME_HDR_SIZE + h->len + LOOM_FRAME_CRC_SIZE;
	if (h->flags & ~LINK_FLAGS_KNOWN) {
		l->cnt.bad_type++;
		return false;
	}
	if (h->type == LOOM_FRAME_TRAIN) {
		if (l->state == LINK_DOWN)
			l->cnt.not_up_drops++;
		else
			link_recv_train(l, h);
		return false;
	}
	if (h->type == LOOM_FRAME_MAINT) {
		link_recv_maint(l, f);
		return false;
	}
	if (l->state != LINK_UP) {
		l->cnt.not_up_drops++;
		return false;
	}
	switch (h->type) {
	case LOOM_FRAME_DATA:
		return link_recv_data(l, f);
	case LOOM_FRAME_ACK:
	case LOOM_FRAME_NAK:
		link_recv_ack(l, h);
		return false;
	case LOOM_FRAME_ACK_CREDIT:
		link_recv_status(l, f);
		return false;
	default:
		l->cnt.bad_type++;
		return false;
	}
}

/*
 * Check the complete frames the framer holds, while a DATA frame has room:
 * as hardware would, at most RX_FRAMES frames and framing errors in a
 * cycle, looking at no more than the RX_WINDOW bytes from where the framer
 * stands.  What lies beyond waits for the next edge (fed stays set).
 */
static void link_recv_frames(struct link_unit *l)
{
	struct link_recv *r = &l->rx;
	unsigned int done = 0;

	link_rx_window(&r->framer, l->p.rx_window);
	while (r->q_count < l->p.rx_queue && done < l->p.rx_frames) {
		struct link_frame *f = &r->queue[r->q_tail];
		enum link_rx_status st = link_rx_next(&r->framer, f);

		if (st == LINK_RX_MORE) {
			r->fed = link_rx_past_window(&r->framer);
			return;
		}
		done++;
		if (st != LINK_RX_FRAME) {
			link_recv_framing_error(l);
			continue;
		}
		r->lane_flagged = false;
		if (link_recv_frame(l, f)) {
			r->q_count++;
			r->q_tail = link_ring_next(r->q_tail, l->p.rx_queue);
		}
	}
}

/*
 * The flit for the router's input port in the next cycle.  Ready is
 * registered (chan.h): the input takes whatever flit it sees in a cycle
 * after one in which it was ready, so a flit driven is a flit taken, and
 * the next one is driven only while the input is ready.
 */
static void link_recv_deliver(struct link_unit *l, const struct link_in *in)
{
	struct link_recv *r = &l->rx;
	struct flit *o = &l->out.flit;
	const struct link_frame *f;
	unsigned int fb = l->p.flit_bytes, off, n;

	if (o->valid) {
		l->cnt.rx_flits++;
		o->valid = false;
		if (o->tail) {
			r->q_head = link_ring_next(r->q_head, l->p.rx_queue);
			r->q_count--;
			r->flit = 0;
		} else {
			r->flit++;
		}
	}
	if (!r->q_count || !in->back.ready)
		return;
	f = &r->queue[r->q_head];
	off = r->flit * fb;
	n = f->hdr.len - off < fb ? f->hdr.len - off : fb;
	if (n == fb) {
		link_copy_flit(o->data, f->body + off, fb);
	} else {
		memcpy(o->data, f->body + off, n);
		memset(o->data + n, 0, fb - n);
	}
	o->valid = true;
	o->head = r->flit == 0;
	o->tail = off + fb >= f->hdr.len;
	o->vc = f->hdr.vc;
}

/* Credits the router's input port freed this cycle become grants for the peer. */
static void link_recv_freed(struct link_unit *l, const struct link_in *in)
{
	uint64_t any;

	memcpy(&any, in->back.credits, sizeof(any));
	while (any) {
		unsigned int v = (unsigned int)__builtin_ctzll(any) / 8;

		any &= ~(0xffull << (8 * v));
		if (v < l->p.vcs && !link_credit_freed(&l->credit, v, in->back.credits[v]))
			l->cnt.router_credit_errors++;
	}
}

void link_recv_step(struct link_unit *l, const struct link_in *in)
{
	if (l->rx.probe)
		l->rx.probe(l->rx.probe_ctx, l, false);
	if (l->rx.lane_flags)
		link_recv_lane_flags(l);
	if (l->rx.fed)
		link_recv_frames(l);
	if (l->rx.probe)
		l->rx.probe(l->rx.probe_ctx, l, true);
	link_recv_deliver(l, in);
	link_recv_freed(l, in);
	/* credit wires to the router: pulses, cleared the cycle after */
	if (l->credit.owed_mask || l->out_credits)
		l->out_credits = link_credit_to_router(&l->credit, l->out.back.credits);
}
