// SPDX-License-Identifier: GPL-2.0
/*
 * The lane pacer (lanes.h) as pure logic on a simulated clock: unpaced
 * means never held; a saturated sender gets lanes x rate within 1%; 1 lane
 * is a quarter of 4; an idle link saves up at most its 4 ms bucket; the
 * wait it announces is exact.
 */
#include "lanes.h"
#include "tap.h"

TAP_DEFINE;

#define FRAME	324	/* a DATA frame with a 256-byte payload */

/* Bytes a sender that always has frames gets through in @ns at @lanes. */
static uint64_t saturate(struct lane_pacer *pc, unsigned int lanes, uint64_t t0, uint64_t ns,
			 uint64_t step_ns)
{
	uint64_t bytes = 0;

	for (uint64_t t = t0; t < t0 + ns; t += step_ns) {
		lane_pacer_refill(pc, lanes, t);
		while (lane_pacer_may_send(pc)) {
			lane_pacer_charge(pc, FRAME);
			bytes += FRAME;
		}
	}
	return bytes;
}

int main(void)
{
	struct lane_pacer pc;
	uint64_t b4, b1, burst, ns;
	double want4 = 4 * 100e6 / 8;	/* bytes per second at 4 lanes of 100 Mbit/s */

	tap_plan(6);

	lane_pacer_init(&pc, 0, 0);
	lane_pacer_charge(&pc, 1u << 20);
	tap_ok(lane_pacer_may_send(&pc) && lane_pacer_wait_ns(&pc, 4) == 0,
	       "unpaced (lane rate 0): never held, no wait");

	lane_pacer_init(&pc, 100, 0);
	b4 = saturate(&pc, 4, 0, 1000000000u, 10000);
	tap_ok(b4 > want4 * 0.99 && b4 < want4 * 1.01,
	       "4 lanes of 100 Mbit/s, 1 s saturated in 10 us steps: %llu bytes (%.0f expected)",
	       (unsigned long long)b4, want4);

	lane_pacer_init(&pc, 100, 0);
	b1 = saturate(&pc, 1, 0, 1000000000u, 1000000);
	tap_ok(b1 > want4 / 4 * 0.99 && b1 < want4 / 4 * 1.01,
	       "1 lane, 1 s in 1 ms steps (the event loop's granularity): %llu bytes (%.0f expected)",
	       (unsigned long long)b1, want4 / 4);
	tap_ok(b4 > 3.9 * (double)b1 && b4 < 4.1 * (double)b1, "4 lanes / 1 lane = %.3f",
	       (double)b4 / (double)b1);

	/* idle for a second, then send as much as possible at one instant */
	lane_pacer_init(&pc, 100, 0);
	lane_pacer_refill(&pc, 4, 1000000000u);
	burst = 0;
	while (lane_pacer_may_send(&pc)) {
		lane_pacer_charge(&pc, FRAME);
		burst += FRAME;
	}
	tap_ok(burst <= want4 * 0.004 + FRAME && burst >= want4 * 0.004,
	       "an idle link saves up 4 ms of traffic, no more: %llu bytes at once",
	       (unsigned long long)burst);

	ns = lane_pacer_wait_ns(&pc, 4);
	lane_pacer_refill(&pc, 4, 1000000000u + ns - 1);
	{
		bool early = lane_pacer_may_send(&pc);

		lane_pacer_refill(&pc, 4, 1000000000u + ns);
		tap_ok(ns > 0 && !early && lane_pacer_may_send(&pc),
		       "in debt: may send exactly after the announced wait (%llu ns), not 1 ns before",
		       (unsigned long long)ns);
	}
	return tap_exit_status();
}
