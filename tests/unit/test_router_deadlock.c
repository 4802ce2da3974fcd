// SPDX-License-Identifier: GPL-2.0
/*
 * Datelines: a loaded unidirectional ring of 4 routers (every node sends
 * long wormhole packets 3 hops around) deadlocks with one VC, and the
 * deadlock is detected, not hung: every router reports itself blocked
 * (no next event) with packets inside and nothing delivered any more.
 * The same ring with two VCs and a dateline on the wrap-around link
 * delivers everything.
 */
#include "router_fabric.h"
#include "tap.h"

TAP_DEFINE;

#define RING	4

struct outcome {
	bool deadlocked;	/* every router blocked, packets left, no progress */
	unsigned int delivered, sent;
	uint64_t cycle;
};

static struct outcome ring(unsigned int vcs, bool dateline)
{
	struct router_params p;
	struct outcome o = { 0 };
	struct fab *f;

	router_preset_xbar(&p, 3, vcs);
	p.wormhole_vcs = (1u << vcs) - 1;
	p.buf_depth = 4;
	f = fab_new(RING, &p);
	for (unsigned int i = 0; i < RING; i++) {
		/* port 0: to i + 1 (clockwise), port 1: from i - 1, port 2: terminal */
		fab_terminal(f, i, 2, i);
		for (unsigned int d = 0; d < RING; d++)
			fab_route(f, i, d, d == i ? 2 : 0);
		f->port_cfg[i][0] = 0 | (dateline && i == RING - 1 ? LOOM_VCT_PORT_DATELINE : 0);
		f->port_cfg[i][1] = 0;
		fab_link(f, i, 0, (i + 1) % RING, 1, 2);
	}
	for (unsigned int k = 0; k < 40; k++)
		for (unsigned int i = 0; i < RING; i++)
			fab_send(f, i, (i + 3) % RING, 0, LOOM_CLASS_REQ, 256, 0);
	o.sent = f->n_pkts;
	o.deadlocked = fab_run_deadlock(f, 50000);
	o.delivered = f->delivered;
	o.cycle = f->now;
	if (f->errors)
		tap_diag("fabric error: %s", f->err);
	fab_free(f);
	return o;
}

int main(void)
{
	struct outcome one, two;

	tap_plan(2);
	one = ring(1, false);
	tap_ok(one.deadlocked && one.delivered < one.sent,
	       "ring without dateline (1 VC): deadlock %s at cycle %llu, %u of %u packets delivered",
	       one.deadlocked ? "detected (every router blocked)" : "not detected",
	       (unsigned long long)one.cycle, one.delivered, one.sent);
	two = ring(2, true);
	tap_ok(!two.deadlocked && two.delivered == two.sent,
	       "ring with a dateline (2 VCs): %u of %u packets delivered by cycle %llu, deadlock %s",
	       two.delivered, two.sent, (unsigned long long)two.cycle,
	       two.deadlocked ? "detected" : "none");
	return tap_exit_status();
}
