// SPDX-License-Identifier: GPL-2.0
/*
 * Go-back-N and credit repair in the cycle-level link unit, two units back
 * to back: a corrupted DATA frame is NAKed, replayed and delivered once,
 * in order; a lost acknowledgement is repaired by the ack timer exactly
 * ack_timeout cycles after the frame left; credits lost with an
 * ACK_CREDIT frame come back through the NAK the loss causes, or, when
 * the frame vanished without a trace, through a credit poll; and under
 * random bit errors both ways every packet still arrives exactly once.
 */
#include "link_harness.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>

TAP_DEFINE;

static struct lh_pair x;

static void setup(void)
{
	struct link_params p;

	link_params_default(&p);
	if (!lh_pair_init(&x, &p, 11) || !lh_pair_train(&x, 1000))
		exit(1);
	lh_pair_run(&x, 200);
}

/* ---- a corrupted DATA frame ---- */

struct corrupt_ctx {
	uint32_t seq;
	bool done;
};

/* Wire tamper: flip a payload bit of a's DATA frame @seq, the first time. */
static bool corrupt_data(void *arg, unsigned int dir, struct link_txframe *tf)
{
	struct corrupt_ctx *c = arg;
	struct loom_frame_hdr h = lh_frame_hdr(tf);

	if (!c->done && !dir && h.type == LOOM_FRAME_DATA && h.seq == c->seq) {
		tf->bytes[LOOM_FRAME_HDR_SIZE + LOOM_PKT_HDR_SIZE + 3] ^= 0x10;
		c->done = true;
	}
	return true;
}

static void corrupted_frame(void)
{
	struct corrupt_ctx c = { .seq = 4 };
	bool ok;

	setup();
	x.w.tamper = corrupt_data;
	x.w.tamper_ctx = &c;
	lh_send(&x, 0, 20, 64, 1);
	ok = lh_pair_drain(&x, 100000);
	tap_ok(ok && c.done && x.sink[0].packets == 20 && x.b.cnt.rx_packets == 20 &&
	       !x.sink[0].errors && x.b.cnt.crc_errors == 1 && x.b.cnt.naks_sent == 1 &&
	       x.a.cnt.naks_received == 1 && x.a.cnt.retries == 1 && x.a.cnt.replayed >= 1 &&
	       !x.a.cnt.ack_timeouts,
	       "DATA frame 4 corrupted on the wire: b counts a CRC error and NAKs once, a goes back (%llu frames replayed), the 20 packets arrive once each, in order, intact",
	       (unsigned long long)x.a.cnt.replayed);
	if (!ok)
		lh_pair_diag(&x);
	lh_pair_free(&x);
}

/* ---- a lost acknowledgement ---- */

struct drop_ctx {
	unsigned int dir;	/* 0: a -> b, 1: b -> a */
	uint8_t type;
	unsigned int left;	/* frames of that type still to drop */
	bool corrupt;		/* flip a bit instead of dropping */
	uint64_t dropped_at;
};

/* Wire tamper: lose (or damage) the next @left frames of a type in one direction. */
static bool drop_frames(void *arg, unsigned int dir, struct link_txframe *tf)
{
	struct drop_ctx *d = arg;

	if (!d->left || dir != d->dir || tf->type != d->type)
		return true;
	d->left--;
	d->dropped_at = tf->first_cycle;
	if (!d->corrupt)
		return false;
	tf->bytes[LOOM_FRAME_HDR_SIZE + 2] ^= 0x01;
	return true;
}

static void lost_ack(void)
{
	struct drop_ctx d;
	uint64_t first = 0, replay = 0, n0;
	bool ok;

	setup();
	d = (struct drop_ctx){ .dir = 1, .type = LOOM_FRAME_ACK_CREDIT, .left = 1 };
	x.w.tamper = drop_frames;
	x.w.tamper_ctx = &d;
	lh_send(&x, 0, 1, 64, 1);
	n0 = x.a.cnt.tx_data_frames;
	for (unsigned int i = 0; i < 5000; i++) {
		uint64_t t = x.now;

		lh_pair_cycle(&x);
		if (!first && x.a.cnt.tx_data_frames == n0 + 1)
			first = t + 1;
		if (!replay && x.a.cnt.tx_data_frames == n0 + 2)
			replay = t + 1;
	}
	ok = !d.left && x.sink[0].packets == 1 && !x.sink[0].errors && !gbn_tx_held(&x.a.tx.gbn);
	tap_ok(ok && x.a.cnt.ack_timeouts == 1 && x.a.cnt.replayed == 1 &&
	       replay == first + x.p.ack_timeout + 1 && x.b.cnt.duplicates == 1 &&
	       x.src[0].credits[0] == x.p.buf_depth,
	       "the ACK_CREDIT acknowledging a frame is lost: a's ack timer replays the frame %llu cycles after it left (ack_timeout %u + 1), b discards the duplicate and acknowledges again; delivered once, replay buffer empty, credits back (%u)",
	       (unsigned long long)(replay - first), x.p.ack_timeout, x.src[0].credits[0]);
	if (!ok)
		lh_pair_diag(&x);
	lh_pair_free(&x);
}

/*
 * Credits freed after the acknowledgement went: b's sink holds two packets,
 * then frees them; the ACK_CREDIT carrying those credits is lost
 * (@corrupt: it arrives damaged; else it vanishes).
 */
static void lost_credits(bool corrupt)
{
	struct drop_ctx d;
	uint64_t t0, t1 = 0;
	bool ok;

	setup();
	x.sink[0].drain = false;
	lh_send(&x, 0, 2, 64, 1);
	lh_pair_run(&x, 300);	/* delivered and acknowledged, credits held */
	ok = x.sink[0].packets == 2 && !gbn_tx_held(&x.a.tx.gbn) &&
	     x.src[0].credits[0] == x.p.buf_depth - 14;
	d = (struct drop_ctx){ .dir = 1, .type = LOOM_FRAME_ACK_CREDIT, .left = 1,
			       .corrupt = corrupt };
	x.w.tamper = drop_frames;
	x.w.tamper_ctx = &d;
	x.sink[0].drain = true;
	t0 = x.now;
	for (unsigned int i = 0; i < 5000 && !t1; i++) {
		lh_pair_cycle(&x);
		if (x.src[0].credits[0] == x.p.buf_depth)
			t1 = x.now;
	}
	ok = ok && !d.left && t1;
	if (corrupt)
		tap_ok(ok && x.a.cnt.crc_errors == 1 && x.a.cnt.naks_sent == 1 &&
		       !x.a.cnt.polls_sent && t1 - t0 < x.p.ack_timeout,
		       "the ACK_CREDIT returning 14 credits arrives corrupted: a NAKs, b sends its credits again; all %u back after %llu cycles, no poll",
		       x.src[0].credits[0], (unsigned long long)(t1 - t0));
	else
		tap_ok(ok && x.a.cnt.polls_sent == 1 && x.b.cnt.polls_received == 1 &&
		       t1 - t0 < x.p.ack_timeout + 100,
		       "the ACK_CREDIT returning 14 credits vanishes: a, owed credits with nothing in flight, polls ack_timeout after the credits last moved; all %u back %llu cycles after the loss",
		       x.src[0].credits[0], (unsigned long long)(t1 - d.dropped_at));
	if (!ok)
		lh_pair_diag(&x);
	x.w.tamper = NULL;
	lh_send(&x, 0, 30, 64, 1);
	ok = lh_pair_drain(&x, 100000) && x.sink[0].packets == 32 && !x.sink[0].errors;
	tap_ok(ok, "and traffic flows on with the repaired credits (%llu packets)",
	       (unsigned long long)x.sink[0].packets);
	lh_pair_free(&x);
}

/* Random bit errors both ways under mixed traffic on several VCs. */
static void noisy(void)
{
	uint32_t va = 1u << LOOM_VC_REQ0 | 1u << LOOM_VC_REQ1 | 1u << LOOM_VC_RESP0;
	uint32_t vb = 1u << LOOM_VC_RESP0 | 1u << LOOM_VC_RESP1 | 1u << LOOM_VC_BARRIER;
	bool ok, credits = true;

	setup();
	fault_set_ber(link_wire_fault(&x.w, 0), 2e-5);
	fault_set_ber(link_wire_fault(&x.w, 1), 2e-5);
	fault_set_drop(link_wire_fault(&x.w, 1), 0.002);
	lh_send(&x, 0, 1500, 200, va);
	lh_send(&x, 1, 3000, 8, vb);
	ok = lh_pair_drain(&x, 3000000);
	fault_set_ber(link_wire_fault(&x.w, 0), 0);
	fault_set_ber(link_wire_fault(&x.w, 1), 0);
	fault_set_drop(link_wire_fault(&x.w, 1), 0);
	lh_pair_run(&x, 3000);
	for (unsigned int v = 0; v < x.p.vcs; v++)
		credits &= x.src[0].credits[v] == x.p.buf_depth &&
			   x.src[1].credits[v] == x.p.buf_depth;
	tap_ok(ok && credits && x.sink[0].packets == 1500 && x.sink[1].packets == 3000 &&
	       !x.sink[0].errors && !x.sink[1].errors && !x.sink[0].overflows &&
	       !x.sink[1].overflows && x.a.cnt.crc_errors + x.b.cnt.crc_errors > 10,
	       "bit errors both ways (BER 2e-5) and 0.2%% of b's frames dropped: %llu + %llu packets on 3 VCs each way arrive once, in order, intact, never beyond a buffer; every credit returned (%llu + %llu CRC errors, %llu + %llu frames replayed)",
	       (unsigned long long)x.sink[0].packets, (unsigned long long)x.sink[1].packets,
	       (unsigned long long)x.a.cnt.crc_errors, (unsigned long long)x.b.cnt.crc_errors,
	       (unsigned long long)x.a.cnt.replayed, (unsigned long long)x.b.cnt.replayed);
	if (!ok || !credits) {
		lh_pair_diag(&x);
		for (unsigned int v = 0; v < x.p.vcs; v++)
			tap_diag("VC %u: source credits a %u b %u", v, x.src[0].credits[v],
				 x.src[1].credits[v]);
	}
	lh_pair_free(&x);
}

int main(void)
{
	tap_plan(7);
	corrupted_frame();
	lost_ack();
	lost_credits(true);
	lost_credits(false);
	noisy();
	return tap_exit_status();
}
