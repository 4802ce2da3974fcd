// SPDX-License-Identifier: GPL-2.0
/*
 * Training, cable cuts, maintenance frames and idle skipping of the
 * cycle-level link unit: a lost TRAIN frame is repaired by the training
 * retry and the answer it gets; a cut takes both ends down and loses what
 * the transmitter held, a restored cable trains again and carries traffic
 * with fresh credits; maintenance frames bypass sequence numbers and
 * credits, one slot each way; a cable back while the peer's buffer holds
 * packets never overruns it; and a pair stepped only at the cycles
 * link_unit_next_event() names does exactly what a pair stepped every
 * cycle does, timers included.
 */
#include "link_harness.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>

TAP_DEFINE;

static struct lh_pair x, y;

static void setup_with(struct lh_pair *p, bool train, uint32_t flit_bytes, uint32_t tx_queue)
{
	struct link_params lp;

	link_params_default(&lp);
	lp.flit_bytes = flit_bytes;
	lp.tx_queue = tx_queue;
	if (!lh_pair_init(p, &lp, 31) || (train && !lh_pair_train(p, 1000)))
		exit(1);
}

static void setup(struct lh_pair *p, bool train)
{
	setup_with(p, train, 16, 3);
}

/* Wire tamper: lose a's first TRAIN frame. */
static bool drop_first_train(void *arg, unsigned int dir, struct link_txframe *tf)
{
	bool *done = arg;

	if (*done || dir || tf->type != LOOM_FRAME_TRAIN)
		return true;
	*done = true;
	return false;
}

static void lost_train(void)
{
	bool done = false, ok;
	uint64_t b_up = 0, granted;

	setup(&x, false);
	x.w.tamper = drop_first_train;
	x.w.tamper_ctx = &done;
	while (!b_up && x.now < 10000) {
		lh_pair_cycle(&x);
		if (link_unit_up(&x.b))
			b_up = x.now;
	}
	ok = done && link_unit_up(&x.a) && b_up > x.p.ack_timeout && b_up < x.p.ack_timeout + 100;
	/* b's transmitter may send once it holds a's grants */
	while (!link_credit_peer_has(&x.b.credit, 2, x.p.buf_depth) && x.now < b_up + 3000)
		lh_pair_cycle(&x);
	granted = x.now - b_up;
	lh_send(&x, 0, 10, 64, 1);
	lh_send(&x, 1, 10, 64, 4);
	ok = ok && lh_pair_drain(&x, 100000) && x.sink[0].packets == 10 && x.sink[1].packets == 10;
	lh_pair_run(&x, 300);
	tap_ok(ok && x.a.cnt.trains == 1 && x.b.cnt.trains == 1 && granted < 50 &&
	       x.src[1].credits[2] == x.p.buf_depth && x.src[0].credits[0] == x.p.buf_depth,
	       "a's TRAIN lost: a comes up on b's, b retries after ack_timeout and a answers it with its TRAIN and credits; b up at cycle %llu with a's grants %llu cycles later, then traffic both ways, all credits back",
	       (unsigned long long)b_up, (unsigned long long)granted);
	if (!ok)
		lh_pair_diag(&x);
	lh_pair_free(&x);
}

static void cut(void)
{
	uint64_t lost, delivered, t;
	bool ok;

	setup(&x, true);
	lh_send(&x, 0, 100000, 128, 1);
	lh_pair_run(&x, 500);
	link_wire_cut(&x.w);
	lh_pair_cycle(&x);
	/* what a router does with a dead port: it stops sending on it */
	x.src[0].busy = false;
	x.src[0].out.valid = false;
	x.src[0].limit = x.src[0].next_id;
	lost = x.a.cnt.lost_frames;
	ok = x.a.state == LINK_DOWN && x.b.state == LINK_DOWN && !x.a.out.back.ready &&
	     !x.b.out.back.ready && lost > 0;
	tap_ok(ok, "a cut takes both ends down at the next edge: not ready, the %llu packets the transmitter held (unacknowledged or waiting) are dropped",
	       (unsigned long long)lost);
	lh_pair_run(&x, 2000);
	delivered = x.sink[0].packets;
	t = x.now;
	lh_pair_run(&x, 2000);
	ok = x.sink[0].packets == delivered && x.a.state == LINK_DOWN &&
	     !x.sink[0].errors && !x.sink[0].overflows;
	tap_ok(ok, "while cut nothing more arrives (%llu packets delivered before, none in %llu cycles)",
	       (unsigned long long)delivered, (unsigned long long)(x.now - t));
	link_wire_restore(&x.w);
	ok = lh_pair_train(&x, 1000);
	x.sink[0].next_id = x.src[0].next_id;	/* what was lost stays lost */
	delivered = x.sink[0].packets;
	lh_send(&x, 0, 50, 128, 1);
	lh_pair_run(&x, 3000);
	ok = ok && x.sink[0].packets == delivered + 50 && !x.sink[0].errors &&
	     !x.sink[0].overflows && !x.b.cnt.credit_overruns && x.a.cnt.trains == 2 &&
	     x.b.cnt.trains == 2 && !gbn_tx_held(&x.a.tx.gbn);
	if (!ok || x.src[0].credits[0] != x.p.buf_depth)
		lh_pair_diag(&x);
	tap_ok(ok && x.src[0].credits[0] == x.p.buf_depth,
	       "restored: both train again, 50 new packets arrive in order, credits start over and all come back (%u)",
	       x.src[0].credits[0]);
	lh_pair_free(&x);
}

/*
 * A cable that comes back while the peer's input buffer still holds
 * packets: the peer grants only its free space, the router starts with
 * BUF_DEPTH again, and the link holds packets until the grant covers them.
 */
static void dirty_retrain(void)
{
	uint64_t held, before;
	bool ok;

	setup(&x, true);
	x.sink[0].drain = false;
	lh_send(&x, 0, 4, 256, 1);
	lh_pair_run(&x, 500);
	held = x.sink[0].occupied[0];
	link_wire_cut(&x.w);
	lh_pair_run(&x, 10);
	link_wire_restore(&x.w);
	ok = lh_pair_train(&x, 1000) && held == 4 * 19;
	before = x.sink[0].packets;
	lh_send(&x, 0, 20, 256, 1);
	lh_pair_run(&x, 3000);
	ok = ok && x.sink[0].packets == before + 4 && !x.sink[0].overflows &&
	     !x.b.cnt.credit_overruns && x.a.credit.granted[0] == x.p.buf_depth - held;
	tap_ok(ok, "a cable back while the peer's buffer holds %llu flits: the peer grants %u, the router starts with %u again, the link sends only what the grant covers (%llu packets, no overrun) and holds the rest",
	       (unsigned long long)held, x.a.credit.granted[0], x.p.buf_depth,
	       (unsigned long long)(x.sink[0].packets - before));
	x.sink[0].drain = true;
	ok = lh_pair_drain(&x, 100000) && x.sink[0].packets == before + 20 &&
	     !x.sink[0].overflows && !x.sink[0].errors;
	lh_pair_run(&x, 300);
	tap_ok(ok && x.src[0].credits[0] == x.p.buf_depth,
	       "once the old packets leave the buffer the rest follows, and the router's credits come back to %u",
	       x.src[0].credits[0]);
	lh_pair_free(&x);
}

static void maint(void)
{
	uint8_t body[LOOM_PKT_HDR_SIZE + LOOM_MAINT_PAYLOAD_SIZE];
	const uint8_t *got;
	uint32_t next_a, expected_b;
	size_t len = 0;
	bool ok;

	setup(&x, true);
	lh_pair_run(&x, 200);
	for (size_t i = 0; i < sizeof(body); i++)
		body[i] = (uint8_t)(i ^ 0x5a);
	next_a = x.a.tx.gbn.next;
	expected_b = x.b.rx.gbn.expected;
	ok = link_unit_maint_send(&x.a, body, sizeof(body));
	ok = ok && !link_unit_maint_send(&x.a, body, sizeof(body)) && x.a.cnt.maint_lost == 1;
	lh_pair_run(&x, 50);
	got = link_unit_maint_peek(&x.b, &len);
	tap_ok(ok && got && len == sizeof(body) && !memcmp(got, body, len) &&
	       x.a.tx.gbn.next == next_a && x.b.rx.gbn.expected == expected_b &&
	       !x.b.cnt.rx_packets,
	       "a maintenance frame crosses outside the sequence (no sequence number, no ack, no credit); a second one while the slot is busy is lost and counted");
	ok = link_unit_maint_send(&x.a, body, sizeof(body));
	lh_pair_run(&x, 50);
	ok = ok && x.b.cnt.maint_lost == 1;
	link_unit_maint_pop(&x.b);
	ok = ok && !link_unit_maint_peek(&x.b, &len);
	/* in a stream it goes ahead of the DATA frames waiting */
	lh_send(&x, 0, 200, 256, 1);
	lh_pair_run(&x, 300);
	ok = ok && link_unit_maint_send(&x.a, body, sizeof(body));
	lh_pair_run(&x, 30 + 21 + x.p.wire_latency);
	ok = ok && link_unit_maint_peek(&x.b, &len);
	tap_ok(ok, "a maintenance frame arriving at a full slot is lost on the far side; in a stream the next one leaves at the next frame boundary, ahead of DATA");
	lh_pair_free(&x);
}

/* Step @p only at the cycles where something happens; returns the steps. */
static uint64_t run_skipping(struct lh_pair *p, uint64_t until)
{
	uint64_t steps = 0;

	while (p->now < until) {
		uint64_t next = link_unit_next_event(&p->a);
		bool quiet = true;

		for (unsigned int i = 0; i < 2; i++)
			quiet &= !p->src[i].busy && p->src[i].next_id >= p->src[i].limit &&
				 !p->src[i].out.valid && !p->sink[i].f_count;
		if (link_unit_next_event(&p->b) < next)
			next = link_unit_next_event(&p->b);
		if (link_wire_next_event(&p->w) < next)
			next = link_wire_next_event(&p->w);
		if (next > until)
			next = until;
		if (!quiet || next <= p->now) {
			lh_pair_cycle(p);
			steps++;
			continue;
		}
		link_unit_skip(&p->a, next);
		link_unit_skip(&p->b, next);
		p->now = next;
	}
	return steps;
}

struct drop_status {
	unsigned int left;
};

/* Wire tamper: lose b's next ACK_CREDIT frames. */
static bool drop_b_status(void *arg, unsigned int dir, struct link_txframe *tf)
{
	struct drop_status *d = arg;

	if (!d->left || dir != 1 || tf->type != LOOM_FRAME_ACK_CREDIT)
		return true;
	d->left--;
	return false;
}

/*
 * @flit_bytes 64 and @tx_queue 1: a flit may hold a whole packet, so an
 * idle link's registered ready alternates (room for one packet only when
 * none may come): skipping must not freeze it.
 */
static void skipping(uint32_t flit_bytes, uint32_t tx_queue)
{
	struct drop_status dx = { 1 }, dy = { 1 };
	uint64_t steps = 0, n0;
	bool ok;

	setup_with(&x, true, flit_bytes, tx_queue);
	setup_with(&y, true, flit_bytes, tx_queue);
	lh_pair_run(&x, 300);
	lh_pair_run(&y, 300);
	if (tx_queue > 1)
		tap_ok(link_unit_next_event(&y.a) == UINT64_MAX &&
		       link_unit_next_event(&y.b) == UINT64_MAX &&
		       link_wire_next_event(&y.w) == UINT64_MAX,
		       "an idle trained pair has no next event: it can sleep until input");
	/* the same story twice: a packet whose acknowledgement is lost */
	x.w.tamper = drop_b_status;
	x.w.tamper_ctx = &dx;
	y.w.tamper = drop_b_status;
	y.w.tamper_ctx = &dy;
	lh_send(&x, 0, 1, 64, 1);
	lh_send(&y, 0, 1, 64, 1);
	lh_pair_run(&x, 5000);
	n0 = y.a.cnt.tx_frames + y.b.cnt.tx_frames;
	steps = run_skipping(&y, y.now + 5000);
	ok = x.a.out.back.ready == y.a.out.back.ready;
	lh_pair_cycle(&x);	/* one cycle more: a frozen ready would now differ */
	steps += run_skipping(&y, y.now + 1);
	ok = ok && !dx.left && !dy.left && x.now == y.now &&
	     x.sink[0].last_head_cycle == y.sink[0].last_head_cycle &&
	     !memcmp(&x.a.cnt, &y.a.cnt, sizeof(x.a.cnt)) &&
	     !memcmp(&x.b.cnt, &y.b.cnt, sizeof(x.b.cnt)) && y.a.cnt.ack_timeouts == 1 &&
	     x.a.tx.gbn.base == y.a.tx.gbn.base &&
	     x.a.out.back.ready == y.a.out.back.ready && x.b.out.back.ready == y.b.out.back.ready &&
	     x.a.tx.ready_before == y.a.tx.ready_before;
	tap_ok(ok,
	       "%u-byte flits, TX_QUEUE %u: stepped only at next events (%llu steps for 5000 cycles), a lost acknowledgement and its ack-timer replay happen in the same cycles as when stepped every cycle (%llu frames; every counter and the ready wires equal)",
	       flit_bytes, tx_queue, (unsigned long long)steps,
	       (unsigned long long)(y.a.cnt.tx_frames + y.b.cnt.tx_frames - n0));
	if (!ok) {
		tap_diag("ready wires stepped every cycle: a %d b %d; stepped at events: a %d b %d",
			 x.a.out.back.ready, x.b.out.back.ready, y.a.out.back.ready,
			 y.b.out.back.ready);
		lh_pair_diag(&x);
		lh_pair_diag(&y);
	}
	lh_pair_free(&x);
	lh_pair_free(&y);
}

int main(void)
{
	tap_plan(11);
	lost_train();
	cut();
	dirty_retrain();
	maint();
	skipping(16, 3);
	skipping(64, 1);
	return tap_exit_status();
}
