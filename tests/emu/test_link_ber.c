// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test of the link layer under bit errors: a ring of 4
 * cards, every cable corrupting transmitted bits in both directions
 * through the control sockets (ber PORT RATE), all-to-all 1 MiB puts.
 * Every operation must complete exactly once with status OK, arrive once,
 * and land byte-exact; the link layer must have done the work (CRC errors
 * seen, NAKs sent, frames replayed).  Run at BER 1e-5 with 1 MiB puts and
 * at 1e-4 with 256 KiB ones: a frame in four is corrupt there and go-back-N
 * replays up to a window of frames for each, which the cycle-level cards
 * simulate frame by frame (0.4 MiB/s of goodput on this ring).  Prints
 * the counters and the goodput.  LOOM_LINK_SEED sets the cards' --seed,
 * LOOM_LINK_WINDOW their --replay-frames.
 */
#include "alltoall.h"
#include "fabric.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TAP_DEFINE;

#define NCARDS	4

static void run_ber(const char *rate, uint32_t put_len, const char *seed, const char *timeout_ms)
{
	const char *window = getenv("LOOM_LINK_WINDOW");
	const char *extra[] = { "--seed", seed, "--link-timeout", timeout_ms,
				window ? "--replay-frames" : NULL, window, NULL };
	long long sum[5] = { 0 };
	static const char *const keys[] = { "crc_errors", "naks_sent", "retries", "replayed",
					     "ack_timeouts" };
	struct fabric f;
	struct alltoall r;
	char cmd[64], reply[1024];
	bool ok = true, alive = true;

	ok = fabric_init(&f, 150) == 0 && fabric_start_ring_ctl(&f, NCARDS, extra) == 0;
	for (unsigned int i = 0; ok && i < NCARDS; i++) {
		for (unsigned int p = 0; ok && p < 2; p++) {
			snprintf(cmd, sizeof(cmd), "ber %u %s", p, rate);
			ok = fabric_ctl(&f, i, cmd, reply, sizeof(reply)) == 0 &&
			     !strncmp(reply, "ok ", 3);
			if (!ok)
				tap_diag("card %u: '%s' answered '%s'", i, cmd, reply);
		}
	}
	ok = ok && alltoall_run(&f, NCARDS, put_len, 50000, &r) == 0;
	if (!tap_ok(ok, "BER %s: ring of %d with bit errors on every cable, contexts enabled",
		    rate, NCARDS)) {
		for (unsigned int k = 0; k < 3; k++)
			tap_ok(0, "BER %s: skipped after setup failure", rate);
		fabric_stop();
		return;
	}
	tap_ok(alltoall_perfect(&r, NCARDS),
	       "BER %s: all %d puts of %u KiB completed once OK (%u/%u LOCAL, %u bad), arrived once (%u, %u bad), data %s",
	       rate, NCARDS * NCARDS, put_len >> 10, r.local_ok, NCARDS * NCARDS, r.local_bad, r.arrival_ok,
	       r.arrival_bad, r.data_ok ? "byte-exact" : "CORRUPT");
	for (unsigned int i = 0; i < NCARDS; i++) {
		for (unsigned int p = 0; p < 2; p++) {
			snprintf(cmd, sizeof(cmd), "stats %u", p);
			if (fabric_ctl(&f, i, cmd, reply, sizeof(reply))) {
				alive = false;
				continue;
			}
			for (unsigned int k = 0; k < 5; k++)
				sum[k] += fabric_stat(reply, keys[k]);
			if (i == 0 && p == 0)
				tap_diag("card 0 %s", reply);
		}
	}
	tap_diag("BER %s: %u KiB moved in %llu ms (%.2f MiB/s goodput over the fabric); crc_errors %lld naks_sent %lld retries %lld replayed %lld ack_timeouts %lld",
		 rate, NCARDS * NCARDS * (put_len >> 10), (unsigned long long)r.elapsed_ms,
		 r.elapsed_ms ? NCARDS * NCARDS * (put_len / 1048576.0) * 1000.0 /
				(double)r.elapsed_ms : 0.0,
		 sum[0], sum[1], sum[2], sum[3], sum[4]);
	/* NAKs, not the ack timer, must drive the recovery */
	tap_ok(sum[0] > 0 && sum[1] > 0 && sum[2] > 0 && sum[3] > 0 && sum[4] * 4 < sum[2],
	       "BER %s: the link layer worked: %lld CRC errors, %lld NAKs, %lld retries (%lld by the ack timer), %lld frames replayed",
	       rate, sum[0], sum[1], sum[2], sum[4], sum[3]);
	for (unsigned int i = 0; i < NCARDS; i++)
		if (!fabric_card_alive(&f, i)) {
			tap_diag("card %u died", i);
			alive = false;
		}
	tap_ok(alive, "BER %s: every card still running and answering", rate);
	if (tap.failed)
		for (unsigned int i = 0; i < NCARDS; i++)
			fabric_dump_log(&f, i);
	fabric_stop();
}

int main(void)
{
	const char *seed = getenv("LOOM_LINK_SEED") ? getenv("LOOM_LINK_SEED") : "1";

	tap_plan(8);
	tap_diag("cards' --seed %s (LOOM_LINK_SEED overrides)", seed);
	run_ber("1e-5", 1u << 20, seed, "50");
	/* a frame in four is corrupt: tail losses wait for the ack timer */
	run_ber("1e-4", 256u << 10, seed, "10");
	return tap_exit_status();
}
