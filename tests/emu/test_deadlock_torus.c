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
#include "card.h"
#include "fabric.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>

TAP_DEFINE;

#define KX		4
#define KY		2
#define CARDS		(KX * KY)
#define PUT_LEN		(64u << 10)

static unsigned int node_of(unsigned int x, unsigned int y)
{
	return x % KX + KX * (y % KY);
}

/* DOR output port at (x, y) toward dest: X first, shorter way, tie +. */
static int dor_port(unsigned int x, unsigned int y, unsigned int dest)
{
	unsigned int tx = dest % KX, ty = dest / KX, fwd;

	if (tx != x) {
		fwd = (tx + KX - x) % KX;
		return fwd <= KX - fwd ? 0 : 2;
	}
	if (ty != y) {
		fwd = (ty + KY - y) % KY;
		return fwd <= KY - fwd ? 1 : 3;
	}
	return -1;
}

static int start_torus(struct fabric *f, const char *bufs)
{
	for (unsigned int i = 0; i < CARDS; i++) {
		unsigned int x = i % KX, y = i / KX;
		char args[24][96];
		const char *extra[48];
		int k = 0, a = 0;

		extra[k++] = "--ports";
		extra[k++] = "4";
		extra[k++] = "--vc-buffers";
		extra[k++] = bufs;
		for (unsigned int d = 0; d < 2; d++) {
			unsigned int back = d == 0 ? node_of(x + KX - 1, y) : node_of(x, y + KY - 1);
			bool wrap_plus = d == 0 ? x == KX - 1 : y == KY - 1;
			bool wrap_minus = d == 0 ? x == 0 : y == 0;

			/* +d listens; -d connects to the +d port of the node behind */
			snprintf(args[a], sizeof(args[a]), "%u=listen:%s/c%u-%u.sock", d, f->dir, i, d);
			extra[k++] = "--cable";
			extra[k++] = args[a++];
			snprintf(args[a], sizeof(args[a]), "%u=connect:%s/c%u-%u.sock", 2 + d, f->dir,
				 back, d);
			extra[k++] = "--cable";
			extra[k++] = args[a++];
			snprintf(args[a], sizeof(args[a]), "%u=%u%s", d, d, wrap_plus ? ",dateline" : "");
			extra[k++] = "--vct";
			extra[k++] = args[a++];
			snprintf(args[a], sizeof(args[a]), "%u=%u%s", 2 + d, d,
				 wrap_minus ? ",dateline" : "");
			extra[k++] = "--vct";
			extra[k++] = args[a++];
		}
		for (unsigned int dst = 0; dst < CARDS; dst++) {
			if (dst == i)
				continue;
			snprintf(args[a], sizeof(args[a]), "%u=%d", dst, dor_port(x, y, dst));
			extra[k++] = "--route";
			extra[k++] = args[a++];
		}
		extra[k] = NULL;
		if (fabric_start_card(f, i, extra))
			return -1;
	}
	for (unsigned int i = 0; i < CARDS; i++)
		if (fabric_attach(f, i))
			return -1;
	for (unsigned int i = 0; i < CARDS; i++)
		for (unsigned int p = 0; p < 4; p++)
			if (fabric_wait_link(f, i, p, 20000))
				return -1;
	return 0;
}

static unsigned int dead_ports(struct fabric *f, uint32_t *events)
{
	unsigned int dead = 0;

	*events = 0;
	for (unsigned int i = 0; i < CARDS; i++) {
		*events += fh_rd32(&f->fh[i], CARD_OFF_PORTS + LOOM_PORTS_EVENTS);
		for (unsigned int p = 0; p < 4; p++)
			if (fh_rd32(&f->fh[i], fh_port_reg(&f->fh[i], p, LOOM_PORT_STATUS)) &
			    LOOM_PORT_ST_DEAD)
				dead++;
	}
	return dead;
}

static void run(bool cyclic)
{
	const char *what = cyclic ? "cyclic VCs (all VC0), 1 buffer" : "datelines, 2 buffers";
	struct fabric f;
	struct alltoall r;
	unsigned int dead;
	uint32_t ev0, ev1;
	bool ok;

	ok = fabric_init(&f, 120) == 0 && start_torus(&f, cyclic ? "1" : "2") == 0;
	for (unsigned int i = 0; ok && cyclic && i < CARDS; i++) {
		for (unsigned int p = 0; p < 4; p++)
			fh_wr32(&f.fh[i], CARD_OFF_VCT + LOOM_VCT_PORT_CFG + 4 * p,
				LOOM_VCT_PORT_DIM_NONE);
		fh_wr32(&f.fh[i], CARD_OFF_PORTS + LOOM_PORTS_FP_TIMEOUT_MS, 300);
	}
	if (!tap_ok(ok, "4x2 torus, %s: cards up, links trained", what)) {
		tap_ok(0, "skipped");
		tap_ok(0, "skipped");
		fabric_stop();
		return;
	}
	dead_ports(&f, &ev0);
	ok = alltoall_run(&f, CARDS, PUT_LEN, 60000, &r) == 0;
	dead = dead_ports(&f, &ev1);
	tap_diag("%s: %u puts OK, %u failed, %u arrivals, %u ports dead, events %u -> %u, %llu ms",
		 what, r.local_ok, r.local_bad, r.arrival_ok, dead, ev0, ev1,
		 (unsigned long long)r.elapsed_ms);
	if (!cyclic) {
		tap_ok(ok && alltoall_perfect(&r, CARDS),
		       "datelines: saturating all-to-all of %u KiB puts completes, byte-exact",
		       PUT_LEN >> 10);
		tap_ok(dead == 0 && ev1 == ev0, "datelines: no port declared dead, no port events");
	} else {
		tap_ok(ok && dead > 0 && ev1 > ev0,
		       "cyclic VCs: the deadlock is detected (ports DEAD, PORTS_EVENTS counted)");
		tap_ok(ok && r.local_ok + r.local_bad == CARDS * CARDS && r.local_bad > 0,
		       "cyclic VCs: every put completes, the stuck ones with an error");
	}
	fabric_stop();
}

int main(void)
{
	tap_plan(6);
	run(false);
	run(true);
	return tap_exit_status();
}
