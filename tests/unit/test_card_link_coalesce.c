// SPDX-License-Identifier: GPL-2.0
/*
 * Acknowledgements and credits ride on reverse traffic: the cycle-level
 * link unit sends a standalone ACK_CREDIT frame only after what it owes
 * waited coalesce_delay cycles without a DATA frame to ride on, and then
 * one frame carries the acknowledgement and every VC's credits.  Counted
 * on two units back to back: one packet or one short burst costs exactly
 * one such frame per idle period, sent exactly coalesce_delay cycles after
 * the first packet arrived; streams in both directions cost none; a
 * one-way stream costs one per coalescing period.
 */
#include "link_harness.h"
#include "tap.h"

#include <stdio.h>

TAP_DEFINE;

static struct lh_pair x;

static void setup(uint32_t coalesce_delay)
{
	struct link_params p;

	link_params_default(&p);
	p.coalesce_delay = coalesce_delay;
	if (!lh_pair_init(&x, &p, 7) || !lh_pair_train(&x, 1000))
		exit(1);
	lh_pair_run(&x, 200);	/* the grants of training have crossed */
}

/* Send @n packets a -> b; returns the edge that accepted the first and the one that built b's status frame. */
static bool burst(uint32_t n, uint64_t *accepted, uint64_t *status_built, uint64_t *status_frames)
{
	uint64_t rx0 = x.b.cnt.rx_packets, st0 = x.b.cnt.status_frames;

	*accepted = *status_built = 0;
	lh_send(&x, 0, n, 64, 1);
	for (unsigned int i = 0; i < 5000; i++) {
		uint64_t t = x.now;

		lh_pair_cycle(&x);
		if (!*accepted && x.b.cnt.rx_packets != rx0)
			*accepted = t;
		if (!*status_built && x.b.cnt.status_frames != st0)
			*status_built = t;
	}
	*status_frames = x.b.cnt.status_frames - st0;
	return x.sink[0].packets == x.src[0].packets && !x.sink[0].errors;
}

static void one_packet(uint32_t d)
{
	uint64_t acc, built, n, tx0;
	bool ok;

	setup(d);
	tx0 = x.b.cnt.tx_frames;
	ok = burst(1, &acc, &built, &n);
	tap_ok(ok && n == 1 && x.b.cnt.tx_frames - tx0 == 1 && built == acc + d &&
	       x.src[0].credits[0] == x.p.buf_depth && !gbn_tx_held(&x.a.tx.gbn) &&
	       x.b.cnt.acks_standalone == 1 && x.b.cnt.credits_standalone == 2,
	       "coalesce_delay %u: one packet, no reverse traffic: b sends exactly one ACK_CREDIT (%llu), starting %llu cycles after the packet's edge; it acknowledged the frame and returned all %u credits",
	       d, (unsigned long long)n, (unsigned long long)(built + 1 - acc),
	       x.src[0].credits[0]);
	lh_pair_free(&x);
}

/* No coalescing: each acknowledgement and credit return goes out at once. */
static void no_delay(void)
{
	uint64_t acc, built, n;
	bool ok;

	setup(0);
	ok = burst(1, &acc, &built, &n);
	tap_ok(ok && built == acc && n > 1 && x.src[0].credits[0] == x.p.buf_depth,
	       "coalesce_delay 0: the first ACK_CREDIT starts the cycle after the packet's edge, and each later credit return costs another (%llu frames)",
	       (unsigned long long)n);
	lh_pair_free(&x);
}

static void bursts(void)
{
	uint64_t acc, built, n1, n2, d = 32;
	bool ok;

	setup((uint32_t)d);
	ok = burst(3, &acc, &built, &n1);
	ok = ok && x.src[0].credits[0] == x.p.buf_depth && !gbn_tx_held(&x.a.tx.gbn);
	ok = burst(2, &acc, &built, &n2) && ok;
	tap_ok(ok && n1 == 1 && n2 == 1 && x.src[0].credits[0] == x.p.buf_depth &&
	       !gbn_tx_held(&x.a.tx.gbn),
	       "a burst of 3 packets within the delay costs exactly one coalesced ACK_CREDIT (%llu), the next burst after an idle period one more (%llu); each returned every credit",
	       (unsigned long long)n1, (unsigned long long)n2);
	lh_pair_free(&x);
}

/* Streams both ways: no standalone frame while both run, one each at the end. */
static void both_ways(uint16_t pa, uint32_t va, uint32_t na, uint16_t pb, uint32_t vb,
		      uint32_t nb, bool same_end)
{
	uint64_t sa0, sb0, sa1, sb1, pig;
	bool ok;

	setup(32);
	sa0 = x.a.cnt.status_frames;
	sb0 = x.b.cnt.status_frames;
	lh_send(&x, 0, na, pa, va);
	lh_send(&x, 1, nb, pb, vb);
	while (x.src[0].next_id < x.src[0].limit && x.src[1].next_id < x.src[1].limit)
		lh_pair_cycle(&x);
	sa1 = x.a.cnt.status_frames;
	sb1 = x.b.cnt.status_frames;
	ok = lh_pair_drain(&x, 1000000);
	lh_pair_run(&x, 200);
	pig = x.a.cnt.acks_piggybacked + x.b.cnt.acks_piggybacked;
	ok = ok && !x.sink[0].errors && !x.sink[1].errors && !x.sink[0].overflows &&
	     !x.sink[1].overflows;
	if (same_end)
		ok = ok && x.a.cnt.status_frames - sa1 == 1 && x.b.cnt.status_frames - sb1 == 1;
	tap_ok(ok && sa1 == sa0 && sb1 == sb0 && pig > na &&
	       x.a.cnt.credits_piggybacked > na / 2 && x.b.cnt.credits_piggybacked > nb / 2,
	       "streams both ways (%u-byte packets on VCs %#x, %u-byte on VCs %#x): no ACK_CREDIT frame while both run (a %llu, b %llu), %llu acks and %llu+%llu credit counts rode on DATA; afterwards a %llu, b %llu",
	       pa, va, pb, vb, (unsigned long long)(sa1 - sa0), (unsigned long long)(sb1 - sb0),
	       (unsigned long long)pig, (unsigned long long)x.a.cnt.credits_piggybacked,
	       (unsigned long long)x.b.cnt.credits_piggybacked,
	       (unsigned long long)(x.a.cnt.status_frames - sa1),
	       (unsigned long long)(x.b.cnt.status_frames - sb1));
	if (!ok)
		lh_pair_diag(&x);
	lh_pair_free(&x);
}

/* One way only: the receiver owes acks and credits all the time, one frame per period. */
static void one_way(void)
{
	uint64_t s0, c0, frames, cycles, d = 32;

	setup((uint32_t)d);
	lh_send(&x, 0, 3000, 64, 1);
	lh_pair_run(&x, 500);
	s0 = x.b.cnt.status_frames;
	c0 = x.now;
	lh_pair_run(&x, 20000);
	frames = x.b.cnt.status_frames - s0;
	cycles = x.now - c0;
	tap_ok(frames <= cycles / (d + 1) + 1 && frames >= cycles / (d + 2) &&
	       !x.b.cnt.acks_piggybacked && x.b.cnt.replay_full_cycles == 0 &&
	       x.a.cnt.credit_starved_cycles < 20,
	       "a one-way stream: the receiver sends one ACK_CREDIT per coalescing period (%llu in %llu cycles, delay %llu) and the sender never waits for acks or credits (%llu replay-full, %llu credit-starved cycles)",
	       (unsigned long long)frames, (unsigned long long)cycles, (unsigned long long)d,
	       (unsigned long long)x.a.cnt.replay_full_cycles,
	       (unsigned long long)x.a.cnt.credit_starved_cycles);
	lh_pair_free(&x);
}

int main(void)
{
	tap_plan(7);
	one_packet(32);
	one_packet(100);
	no_delay();
	bursts();
	/* equal streams end together: one ACK_CREDIT each at the end */
	both_ways(64, 1, 2000, 64, 1u << LOOM_VC_RESP0, 2000, true);
	/* several VCs each way, 256-byte requests against 64-byte responses */
	both_ways(256, 1u << LOOM_VC_REQ0 | 1u << LOOM_VC_REQ1 | 1u << LOOM_VC_REQ_ADAPT, 1000, 64,
		  1u << LOOM_VC_RESP0 | 1u << LOOM_VC_RESP1, 2000, false);
	one_way();
	return tap_exit_status();
}
