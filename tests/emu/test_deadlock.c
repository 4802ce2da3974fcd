// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test of the VC model and the forward-progress timer on a
 * ring of 8 cards (a one-dimensional torus: routes the shorter way round,
 * up to 4 hops, so the channels of each direction form a cycle).
 *
 * 1. Datelines on the wrap-around channels (VCT block, as loom-fm's dor
 *    engine sets them) and 2 buffers per VC: a saturating all-to-all of
 *    puts runs to completion, every byte checked, no port declared dead.
 * 2. The same ring with a deliberately cyclic VC configuration (no
 *    datelines: everything on VC0) and 1 buffer per VC deadlocks; the
 *    forward-progress timer (PORTS_FP_TIMEOUT_MS = 300) declares a port
 *    DEAD, counts PORTS_EVENTS, and the stuck packets are discarded and
 *    answered, so every put completes (with an error) -- nothing wedges
 *    (an operation whose answers were dropped ends by its --op-timeout).
 */
#include "alltoall.h"
#include "card.h"
#include "fabric.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>

TAP_DEFINE;

#define RING		8
#define PUT_LEN		(64u << 10)

static unsigned int dead_ports(struct fabric *f, uint32_t *events)
{
	unsigned int dead = 0;

	*events = 0;
	for (unsigned int i = 0; i < RING; i++) {
		*events += fh_rd32(&f->fh[i], CARD_OFF_PORTS + LOOM_PORTS_EVENTS);
		for (unsigned int p = 0; p < 2; p++)
			if (fh_rd32(&f->fh[i], fh_port_reg(&f->fh[i], p, LOOM_PORT_STATUS)) &
			    LOOM_PORT_ST_DEAD)
				dead++;
	}
	return dead;
}

static void with_datelines(void)
{
	static const char *const more[] = { "--vc-buffers", "2", NULL };
	struct fabric f;
	struct alltoall r;
	unsigned int dead;
	uint32_t ev0, ev1;
	bool ok;

	ok = fabric_init(&f, 120) == 0 && fabric_start_ring_ctl(&f, RING, more) == 0;
	if (!tap_ok(ok, "ring of %d with datelines, 2 buffers per VC: cards up", RING)) {
		tap_ok(0, "skipped");
		tap_ok(0, "skipped");
		fabric_stop();
		return;
	}
	dead_ports(&f, &ev0);
	ok = alltoall_run(&f, RING, PUT_LEN, 60000, &r) == 0;
	tap_diag("with datelines: %u/%u puts OK, %u arrivals OK in %llu ms", r.local_ok,
		 RING * RING, r.arrival_ok, (unsigned long long)r.elapsed_ms);
	tap_ok(ok && alltoall_perfect(&r, RING),
	       "datelines: saturating all-to-all of %u KiB puts completes, data byte-exact",
	       PUT_LEN >> 10);
	dead = dead_ports(&f, &ev1);
	tap_ok(dead == 0 && ev1 == ev0,
	       "datelines: no port declared dead, no port events (%u -> %u)", ev0, ev1);
	fabric_stop();
}

static void cyclic(void)
{
	/* the answers dropped at the dead port end their operations in 1 s, not 10 */
	static const char *const more[] = { "--vc-buffers", "1", "--op-timeout", "1000", NULL };
	struct fabric f;
	struct alltoall r;
	unsigned int dead;
	uint32_t ev0, ev1;
	bool ok;

	ok = fabric_init(&f, 120) == 0 && fabric_start_ring_ctl(&f, RING, more) == 0;
	for (unsigned int i = 0; ok && i < RING; i++) {
		/* no dimensions, no datelines: every hop on VC0, a cycle per direction */
		for (unsigned int p = 0; p < 2; p++)
			fh_wr32(&f.fh[i], CARD_OFF_VCT + LOOM_VCT_PORT_CFG + 4 * p,
				LOOM_VCT_PORT_DIM_NONE);
		fh_wr32(&f.fh[i], CARD_OFF_PORTS + LOOM_PORTS_FP_TIMEOUT_MS, 300);
	}
	if (!tap_ok(ok, "ring of %d, all VC0, 1 buffer per VC: cards up", RING)) {
		tap_ok(0, "skipped");
		tap_ok(0, "skipped");
		fabric_stop();
		return;
	}
	dead_ports(&f, &ev0);
	ok = alltoall_run(&f, RING, PUT_LEN, 60000, &r) == 0;
	dead = dead_ports(&f, &ev1);
	tap_diag("cyclic: %u puts OK, %u failed, %u ports dead, port events %u -> %u in %llu ms",
		 r.local_ok, r.local_bad, dead, ev0, ev1, (unsigned long long)r.elapsed_ms);
	tap_ok(ok && dead > 0 && ev1 > ev0,
	       "cyclic VCs: the deadlock is detected (a port declared DEAD, PORTS_EVENTS counted)");
	tap_ok(ok && r.local_ok + r.local_bad == RING * RING && r.local_bad > 0,
	       "cyclic VCs: every put completes, the stuck ones with an error (nothing wedged)");
	fabric_stop();
}

int main(void)
{
	tap_plan(6);
	with_datelines();
	cyclic();
	return tap_exit_status();
}
