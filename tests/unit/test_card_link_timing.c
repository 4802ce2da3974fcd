// SPDX-License-Identifier: GPL-2.0
/*
 * The cycle-level link unit's timing, two units back to back on a wire of
 * latency L: training takes one TRAIN frame's serialisation plus L; a
 * packet's head leaves the far link exactly serialisation + L + 1 cycles
 * after its tail entered the near one; a stream keeps the lanes busy, so
 * the flits per cycle are the configured lanes x lane width times the
 * frame's share of packet bytes; a lane dropped for errors halves that
 * rate, in both directions; and the wire hands each byte over in the cycle
 * it arrives, so a frame whose first byte is bad is a framing error as
 * that byte arrives, not when the frame's last one does.
 */
#include "link_harness.h"
#include "tap.h"

#include <math.h>
#include <stdio.h>

TAP_DEFINE;

static unsigned int ser(unsigned int bytes, unsigned int rate)
{
	return (bytes + rate - 1) / rate;
}

static unsigned int frame_bytes(unsigned int payload)
{
	return LOOM_FRAME_HDR_SIZE + LOOM_PKT_HDR_SIZE + payload + LOOM_FRAME_CRC_SIZE;
}

static struct lh_pair x;

static void training(void)
{
	struct link_params p;
	bool up;

	link_params_default(&p);
	if (!lh_pair_init(&x, &p, 1))
		exit(1);
	up = lh_pair_train(&x, 1000);
	tap_ok(up && x.now == ser(LINK_FRAME_MIN, link_rate(&p, p.lanes)) + p.wire_latency + 1 &&
	       x.a.peer_node == 20 && x.a.peer_port == 2 && x.b.peer_node == 10 &&
	       x.b.peer_port == 1 && x.a.cnt.trains == 1 && x.b.cnt.trains == 1,
	       "both ends up after one TRAIN frame's serialisation + L + 1 = %u cycles (took %llu), each knows the other's node and port",
	       ser(LINK_FRAME_MIN, link_rate(&p, p.lanes)) + p.wire_latency + 1,
	       (unsigned long long)x.now);
	lh_pair_free(&x);
}

/* One packet on an idle link: tail in -> head out is serialisation + L + 1. */
static void latency(unsigned int lanes, unsigned int latency_cycles, unsigned int payload)
{
	struct link_params p;
	unsigned int s, n, want;
	uint64_t got, burst;
	bool ok;

	link_params_default(&p);
	p.lanes = lanes;
	p.wire_latency = latency_cycles;
	if (!lh_pair_init(&x, &p, 2) || !lh_pair_train(&x, 10000))
		exit(1);
	lh_pair_run(&x, 100 + 3 * latency_cycles);	/* the first grants have crossed */
	lh_send(&x, 0, 1, (uint16_t)payload, 1);
	ok = lh_pair_drain(&x, 100000) && x.sink[0].packets == 1 && !x.sink[0].errors;
	s = ser(frame_bytes(payload), link_rate(&p, lanes));
	n = link_flits(&p, LOOM_PKT_HDR_SIZE + payload);
	want = s + latency_cycles + 1;
	got = x.sink[0].last_head_cycle - x.src[0].last_tail_cycle;
	burst = x.src[0].last_tail_cycle - x.src[0].last_head_cycle + 1;
	tap_ok(ok && got == want && burst == n &&
	       x.sink[0].last_tail_cycle - x.sink[0].last_head_cycle + 1 == n,
	       "%u lanes, L = %u, %u-byte payload: tail in -> head out %llu cycles = serialisation %u + L + 1; %u flits in and out back to back",
	       lanes, latency_cycles, payload, (unsigned long long)got, s, n);
	lh_pair_free(&x);
}

/*
 * Stream @payload-byte packets a -> b; measure flits delivered per cycle
 * between the @from-th and the @to-th packet.
 */
static double stream_rate(uint32_t from, uint32_t to, uint64_t *bytes_on_lanes, uint64_t *cycles)
{
	uint64_t c0 = 0, f0 = 0, b0 = 0;

	while (x.sink[0].packets < to) {
		if (x.sink[0].packets == from && !c0) {
			c0 = x.now;
			f0 = x.sink[0].flit_count;
			b0 = x.a.cnt.tx_bytes;
		}
		lh_pair_cycle(&x);
		if (x.now > 50000000)
			return 0;
	}
	*cycles = x.now - c0;
	*bytes_on_lanes = x.a.cnt.tx_bytes - b0;
	return (double)(x.sink[0].flit_count - f0) / (double)*cycles;
}

static void throughput(unsigned int lanes)
{
	struct link_params p;
	uint64_t bytes, cycles;
	double rate, want;
	unsigned int r;

	link_params_default(&p);
	p.lanes = lanes;
	if (!lh_pair_init(&x, &p, 3) || !lh_pair_train(&x, 1000))
		exit(1);
	lh_send(&x, 0, 1200, 256, 1);
	r = link_rate(&p, lanes);
	rate = stream_rate(100, 1100, &bytes, &cycles);
	want = (double)link_flits(&p, LINK_PKT_MAX) * r / frame_bytes(256);
	tap_ok(fabs(rate / want - 1) < 0.002 && fabs((double)bytes / (double)cycles - r) < 0.02 * r &&
	       !x.sink[0].errors,
	       "%u lanes x %u bytes: 256-byte packets stream at %.4f flits/cycle (%u flits per %u-byte frame at %u bytes/cycle: %.4f); lanes carry %.2f bytes/cycle",
	       lanes, p.lane_bytes, rate, link_flits(&p, LINK_PKT_MAX), frame_bytes(256), r, want,
	       (double)bytes / (double)cycles);
	lh_pair_free(&x);
}

/*
 * The router side at its tightest: TX_QUEUE 1 (and 64-byte flits, where a
 * head flit can be a whole packet).  Registered ready never lets a flit in
 * without room; every packet arrives.
 */
static void tight_queue(uint32_t flit_bytes, uint16_t payload)
{
	struct link_params p;
	bool ok;

	link_params_default(&p);
	p.tx_queue = 1;
	p.flit_bytes = flit_bytes;
	p.buf_depth = 64;
	if (!lh_pair_init(&x, &p, 5) || !lh_pair_train(&x, 1000))
		exit(1);
	lh_send(&x, 0, 500, payload, 1);
	lh_send(&x, 1, 500, 0, 4);
	ok = lh_pair_drain(&x, 200000);
	tap_ok(ok && !x.a.cnt.tx_malformed && !x.b.cnt.tx_malformed && x.sink[0].packets == 500 &&
	       x.sink[1].packets == 500 && !x.sink[0].errors && !x.sink[1].errors,
	       "TX_QUEUE 1, %u-byte flits, %u- and 0-byte packets: ready never admits a flit without room (%llu + %llu malformed), all 500 + 500 arrive",
	       flit_bytes, payload, (unsigned long long)x.a.cnt.tx_malformed,
	       (unsigned long long)x.b.cnt.tx_malformed);
	lh_pair_free(&x);
}

/* Errors on the a -> b lanes until b drops a lane; then the rate halves both ways. */
static void degrade_once(void)
{
	uint32_t drops = x.b.lanes.drops;

	fault_set_ber(link_wire_fault(&x.w, 0), 1e-4);
	while (x.b.lanes.drops == drops && x.now < 10000000)
		lh_pair_cycle(&x);
	fault_set_ber(link_wire_fault(&x.w, 0), 0);
	lh_pair_run(&x, 3000);	/* the notice crossed, the replays are over */
}

static void degradation(void)
{
	struct link_params p;
	uint64_t bytes, cycles;
	double r4, r2, r1;
	bool ok;

	link_params_default(&p);
	if (!lh_pair_init(&x, &p, 4) || !lh_pair_train(&x, 1000))
		exit(1);
	lh_send(&x, 0, 100000, 256, 1);
	r4 = stream_rate(50, 300, &bytes, &cycles);
	degrade_once();
	ok = x.a.lanes.n == 2 && x.b.lanes.n == 2 && x.b.lanes.drops == 1 &&
	     x.b.cnt.lane_notices == 1 && x.b.cnt.crc_errors > 0;
	r2 = stream_rate(x.sink[0].packets + 10, x.sink[0].packets + 260, &bytes, &cycles);
	tap_ok(ok && fabs(r2 / r4 - 0.5) < 0.005,
	       "a lane reaching %u errors drops: both ends run 2 lanes (a %u, b %u), the rate halves: %.4f -> %.4f flits/cycle (ratio %.4f)",
	       p.lane_threshold, x.a.lanes.n, x.b.lanes.n, r4, r2, r2 / r4);
	degrade_once();
	ok = x.a.lanes.n == 1 && x.b.lanes.n == 1 && x.b.lanes.drops == 2;
	r1 = stream_rate(x.sink[0].packets + 10, x.sink[0].packets + 130, &bytes, &cycles);
	tap_ok(ok && fabs(r1 / r4 - 0.25) < 0.005,
	       "a second drop: one lane, a quarter of the rate: %.4f flits/cycle (ratio %.4f)", r1,
	       r1 / r4);
	{
		uint32_t errors = 0;

		fault_set_ber(link_wire_fault(&x.w, 0), 1e-4);
		lh_pair_run(&x, 50000);
		fault_set_ber(link_wire_fault(&x.w, 0), 0);
		for (unsigned int i = 0; i < LANES_MAX; i++)
			errors += x.b.lanes.errors[i];
		tap_ok(x.a.lanes.n == 1 && x.b.lanes.n == 1 && x.b.lanes.drops == 2 &&
		       x.b.lanes.errors[0] > 2 * p.lane_threshold,
		       "never below one lane: %u errors on lane 0 later, a %u and b %u lanes",
		       x.b.lanes.errors[0], x.a.lanes.n, x.b.lanes.n);
	}
	x.src[0].limit = x.src[0].next_id;
	ok = lh_pair_drain(&x, 2000000);
	tap_ok(ok && x.sink[0].packets == x.src[0].packets && !x.sink[0].errors &&
	       !x.sink[0].overflows,
	       "through the errors every packet arrived once, in order, intact (%llu packets, %llu CRC errors repaired by %llu replays)",
	       (unsigned long long)x.sink[0].packets, (unsigned long long)x.b.cnt.crc_errors,
	       (unsigned long long)x.a.cnt.replayed);
	if (!ok)
		lh_pair_diag(&x);
	lh_pair_free(&x);
}

/* The DATA frame a sends next: its magic spoilt, its cycles on the lanes. */
struct spoil {
	bool armed, done;
	uint64_t first, last;
};

static bool spoil_magic(void *ctx, unsigned int dir, struct link_txframe *tf)
{
	struct spoil *sp = ctx;

	if (dir == 0 && sp->armed && !sp->done && lh_frame_hdr(tf).type == LOOM_FRAME_DATA) {
		tf->bytes[0] ^= 0xff;
		sp->first = tf->first_cycle;
		sp->last = tf->last_cycle;
		sp->done = true;
	}
	return true;
}

static void bytes_as_they_arrive(void)
{
	struct link_params p;
	struct spoil sp = { 0 };
	uint64_t errors, seen = 0;

	link_params_default(&p);
	if (!lh_pair_init(&x, &p, 3) || !lh_pair_train(&x, 10000))
		exit(1);
	lh_pair_run(&x, 100);
	x.w.tamper = spoil_magic;
	x.w.tamper_ctx = &sp;
	sp.armed = true;
	x.sink[0].quiet = true;
	lh_send(&x, 0, 1, 256, 1);
	errors = x.b.cnt.crc_errors;
	for (unsigned int i = 0; i < 1000 && !seen; i++) {
		uint64_t t = x.now;

		lh_pair_cycle(&x);
		if (x.b.cnt.crc_errors != errors)
			seen = t;
	}
	tap_ok(sp.done && sp.last > sp.first && seen == sp.first + p.wire_latency,
	       "a frame whose magic is bad: a framing error in the cycle its first byte arrives, %llu (its first cycle on the lanes %llu + L %u), not its last byte's %llu: saw it in cycle %llu",
	       (unsigned long long)(sp.first + p.wire_latency), (unsigned long long)sp.first,
	       p.wire_latency, (unsigned long long)(sp.last + p.wire_latency),
	       (unsigned long long)seen);
	lh_pair_free(&x);
}

int main(void)
{
	static const unsigned int lat[][3] = {
		{ 4, 1, 0 }, { 4, 1, 64 }, { 4, 8, 64 }, { 4, 8, 256 }, { 4, 100, 256 },
		{ 2, 8, 64 }, { 1, 8, 64 }, { 1, 30, 256 },
	};

	tap_plan(1 + 8 + 3 + 2 + 4 + 1);
	training();
	for (unsigned int i = 0; i < 8; i++)
		latency(lat[i][0], lat[i][1], lat[i][2]);
	throughput(4);
	throughput(2);
	throughput(1);
	tight_queue(16, 64);
	tight_queue(64, 8);
	degradation();
	bytes_as_they_arrive();
	return tap_exit_status();
}
