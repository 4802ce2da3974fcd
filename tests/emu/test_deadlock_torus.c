// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test of the VC model on a 4x2 torus of 8 cards, cabled and
 * routed as loom-fm's dor engine does: node = x + 4y, port d goes +d and
 * port 2 + d goes -d (d = 0 X, 1 Y), dimension order X then Y, the shorter
 * way round (a tie goes +), PORT_CFG dimension = port % 2, a dateline on
 * the wrap-around channels of every ring (x = 3 going +X, x = 0 going -X,
 * and likewise in Y).  Packets change dimension, so the "new dimension
 * starts from START_VC1" rule is exercised, not only datelines.
 *
 * 1. Datelines, 2 buffers per VC: a saturating all-to-all completes
 *    byte-exact, no port is declared dead.
 * 2. No dimensions and no datelines (everything on VC0), 1 buffer per VC:
 *    the X rings deadlock; the forward-progress timer declares ports DEAD
 *    and every put completes, the stuck ones with an error.
 */
#include "alltoall.h"
#include "tap.h"
#include "torus2d.h"

TAP_DEFINE;

#define KX		4
#define KY		2
#define PUT_LEN		(64u << 10)

int main(void)
{
	/* shifted: every card sends 2 hops +X at once, the X rings' cycle fills */
	const struct alltoall_cfg a2a = { .len = PUT_LEN, .rounds = 1, .shifted = true,
					  .timeout_ms = 60000 };

	tap_plan(6);
	torus2d_vc_test(KX, KY, false, &a2a, 1);
	torus2d_vc_test(KX, KY, true, &a2a, 1);
	return tap_exit_status();
}
