// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test: 16 cards in a 4x4 torus (torus2d.h: dimension-order
 * routes, dateline VC tables, 2 buffers per VC).
 *
 * 1. All-to-all PUTs (each of the 256 pairs, itself included), then GETs
 *    of every card's pattern: every operation completes once OK, every put
 *    arrives once, every byte checked.
 * 2. Saturating random traffic: every card puts to every card 4 times in a
 *    random order with random lengths up to 16 KiB, all in flight at once:
 *    runs to completion (no deadlock), byte-exact.
 * 3. No port is declared dead by the forward-progress timers, no port
 *    events.
 * The cyclic counterpart is test_torus16_deadlock.
 */
#include "alltoall.h"
#include "tap.h"
#include "torus2d.h"

TAP_DEFINE;

int main(void)
{
	const struct alltoall_cfg work[] = {
		{ .len = 3000, .rounds = 1, .gets = true, .timeout_ms = 60000 },
		{ .len = 16u << 10, .rounds = 4, .seed = 0x16c0ffee, .timeout_ms = 60000 },
	};

	tap_plan(4);
	torus2d_vc_test(4, 4, false, work, 2);
	return tap_exit_status();
}
