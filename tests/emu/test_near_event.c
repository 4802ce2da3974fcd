// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test of the emulator's time in its own time (no
 * --lane-mbps): a card does not sleep in wall time for an event a few
 * cycles ahead (a coalesced acknowledgement, a credit on its wire, a
 * pipeline stage), it jumps to it.  2 cards exchange ping-pong puts; the
 * control socket's "clock" command then shows, per card, the jumps to near
 * events (> 0) and the wall-time waits for near events (none) and for far
 * ones (timers).  No wall time is measured for the verdict; the mean round
 * trip is printed for the reader.
 */
#include "fabric.h"
#include "tap.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

TAP_DEFINE;

#define CTX		3
#define KEY		0x4ea7e5u
#define SEG		(1u << 16)
#define ROUNDS		300
#define PUT_LEN		64

struct clock_reading {
	unsigned long long cycle, khz, jumps, near_waits, far_waits;
	int realtime;
};

/* "clock" on card @i, parsed; false with a diagnostic. */
static bool read_clock(struct fabric *f, unsigned int i, struct clock_reading *r)
{
	char reply[256];

	if (fabric_ctl(f, i, "clock", reply, sizeof(reply)) != 0) {
		tap_diag("card %u: no answer to 'clock' on its control socket", i);
		fabric_dump_log(f, i);
		return false;
	}
	if (sscanf(reply, "ok cycle %llu khz %llu realtime %d jumps %llu near_waits %llu far_waits %llu",
		   &r->cycle, &r->khz, &r->realtime, &r->jumps, &r->near_waits, &r->far_waits) != 6) {
		tap_diag("card %u: 'clock' answered '%s', expected 'ok cycle N khz K realtime 0|1 jumps J near_waits W far_waits F'",
			 i, reply);
		return false;
	}
	return true;
}

/* Card @from puts PUT_LEN bytes to card @to and waits for its completion. */
static bool put_once(struct fh_ctx *from, unsigned int to, uint32_t tag)
{
	struct loom_cmd c = {
		.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX,
		.dst_node = to, .tag = tag, .length = PUT_LEN,
	};
	struct loom_cqe e;

	if (!fh_submit(from, &c) || fh_wait_cqe(from, &e, 20000) != 1) {
		tap_diag("put %u to card %u: no completion", tag, to);
		return false;
	}
	if (e.status != LOOM_CQE_ST_OK) {
		tap_diag("put %u to card %u: completion status %u, expected OK", tag, to, e.status);
		return false;
	}
	return true;
}

int main(void)
{
	static struct fabric f;
	static const char *const no_more[] = { NULL };	/* its own time: no --lane-mbps */
	struct fh_ctx ctx[2];
	struct clock_reading r[2];
	struct timespec t0, t1;
	unsigned int done = 0;
	double us;
	bool ok;

	tap_plan(4);
	ok = fabric_init(&f, 120) == 0 && fabric_start_ring_ctl(&f, 2, no_more) == 0 &&
	     fh_ctx_create(&f.fh[0], &ctx[0], CTX, KEY, 6, 8, SEG) == LOOM_ADMIN_E_OK &&
	     fh_ctx_create(&f.fh[1], &ctx[1], CTX, KEY, 6, 8, SEG) == LOOM_ADMIN_E_OK;
	if (!tap_ok(ok, "2 cards up in their own time, contexts enabled")) {
		for (unsigned int i = 0; i < 3; i++)
			tap_ok(0, "skipped after setup failure");
		fabric_stop();
		return tap_exit_status();
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (ok = true; ok && done < ROUNDS; done++)
		ok = put_once(&ctx[0], 1, 2 * done) && put_once(&ctx[1], 0, 2 * done + 1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	us = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / 1e3;
	tap_ok(ok, "%u ping-pong rounds of %u-byte puts completed OK (mean round %.0f us)",
	       done, PUT_LEN, done ? us / done : 0.0);

	ok = read_clock(&f, 0, &r[0]) && read_clock(&f, 1, &r[1]);
	for (unsigned int i = 0; ok && i < 2; i++)
		tap_diag("card %u: cycle %llu khz %llu realtime %d jumps %llu near_waits %llu far_waits %llu",
			 i, r[i].cycle, r[i].khz, r[i].realtime, r[i].jumps, r[i].near_waits,
			 r[i].far_waits);
	tap_ok(ok && r[0].realtime == 0 && r[1].realtime == 0 && r[0].jumps > 0 && r[1].jumps > 0,
	       "both cards jumped to near events instead of waiting (jumps %llu and %llu, realtime %d %d)",
	       ok ? r[0].jumps : 0, ok ? r[1].jumps : 0, ok ? r[0].realtime : -1,
	       ok ? r[1].realtime : -1);
	tap_ok(ok && r[0].near_waits == 0 && r[1].near_waits == 0,
	       "no card waited in wall time for a near event (near_waits %llu and %llu, expected 0)",
	       ok ? r[0].near_waits : 0, ok ? r[1].near_waits : 0);
	fabric_stop();
	return tap_exit_status();
}
