// SPDX-License-Identifier: GPL-2.0
/*
 * A link unit whose cable does not take its frames (the peer's emulator
 * stopped reading: its outbox stays full) asks for no cycle: every frame
 * it could start (data, a replay after the ack timeout, a poll) needs an
 * outbox slot, so link_unit_next_event() lies in the future and the
 * emulator waits on the cable instead of stepping in vain.  As soon as
 * the cable takes a frame the unit is busy again.
 */
#include "link_harness.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>

TAP_DEFINE;

static struct lh_pair x;

/* One cycle of unit a and its source alone: the wire is not stepped. */
static void a_alone(void)
{
	struct link_out oa = x.a.out;
	struct link_in ia = { .flit = x.src[0].out, .back = x.sink[1].back };

	link_unit_step(&x.a, &ia);
	lh_source_edge(&x.src[0], &oa, x.now);
	x.now++;
}

int main(void)
{
	struct link_params p;
	uint64_t next, cycles = 0;
	bool full = false, resend = false;

	tap_plan(2);
	link_params_default(&p);
	if (!lh_pair_init(&x, &p, 5) || !lh_pair_train(&x, 1000)) {
		tap_diag("the pair did not train");
		return 1;
	}
	lh_pair_run(&x, 200);
	lh_send(&x, 0, 60, 64, 1);
	/* past the ack timeout: the frames sent are due for replay */
	while (cycles < 3 * p.ack_timeout) {
		a_alone();
		cycles++;
	}
	full = x.a.tx.ob_count == LINK_OUTBOX;
	resend = gbn_tx_resend_due(&x.a.tx.gbn);
	next = link_unit_next_event(&x.a);
	tap_ok(full && resend && next > x.a.now,
	       "outbox full (%u of %u frames), a replay due (%d): next event %llu, after the current cycle %llu",
	       x.a.tx.ob_count, LINK_OUTBOX, resend, (unsigned long long)next,
	       (unsigned long long)x.a.now);

	link_unit_tx_pop(&x.a);
	next = link_unit_next_event(&x.a);
	tap_ok(next == x.a.now,
	       "the cable took a frame: the unit is busy again (next event %llu, current cycle %llu)",
	       (unsigned long long)next, (unsigned long long)x.a.now);
	lh_pair_free(&x);
	return tap_exit_status();
}
