// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test: the 16-card 4x4 torus of test_torus16 with a
 * deliberately cyclic VC configuration (every port in no dimension, no
 * dateline: all traffic on VC0 around the rings) and 1 buffer per VC.
 * A saturating all-to-all of 8 KiB puts deadlocks the rings; the
 * forward-progress timers (300 ms) declare ports DEAD and raise port
 * events, and every put still completes, the stuck ones with an error.
 */
#include "alltoall.h"
#include "tap.h"
#include "torus2d.h"

TAP_DEFINE;

int main(void)
{
	/* shifted: every card sends the same distance at once, every ring's cycle fills */
	const struct alltoall_cfg a2a = { .len = 8u << 10, .rounds = 1, .shifted = true,
					  .timeout_ms = 60000 };

	tap_plan(3);
	torus2d_vc_test(4, 4, true, &a2a, 1);
	return tap_exit_status();
}
