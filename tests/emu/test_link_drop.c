// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test of the link layer under frame loss: a ring of 4
 * cards, one cable (card 0 port 0 <-> card 1 port 1) dropping 1% of the
 * frames it carries in both directions (drop PORT RATE on both ends),
 * all-to-all 1 MiB puts.  Every operation must complete exactly once with
 * status OK, arrive once and land byte-exact; the lossy cable's ends must
 * show the drops and the replays that repaired them, the clean cables no
 * sequence errors.
 */
#include "alltoall.h"
#include "fabric.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TAP_DEFINE;

#define NCARDS	4
#define PUT_LEN	(1u << 20)

static struct fabric f;

int main(void)
{
	const char *seed = getenv("LOOM_LINK_SEED") ? getenv("LOOM_LINK_SEED") : "1";
	const char *extra[] = { "--seed", seed, NULL };
	char reply[1024], s0[1024] = "", s1[1024] = "";
	struct alltoall r;
	long long clean_seq = 0;
	bool ok, alive = true;

	tap_plan(5);
	tap_diag("cards' --seed %s (LOOM_LINK_SEED overrides)", seed);
	ok = fabric_init(&f, 120) == 0 && fabric_start_ring_ctl(&f, NCARDS, extra) == 0 &&
	     fabric_ctl(&f, 0, "drop 0 0.01", reply, sizeof(reply)) == 0 &&
	     !strcmp(reply, "ok port 0 drop 0.01") &&
	     fabric_ctl(&f, 1, "drop 1 1e-2", reply, sizeof(reply)) == 0 &&
	     !strcmp(reply, "ok port 1 drop 0.01");
	ok = ok && alltoall_run(&f, NCARDS, PUT_LEN, 60000, &r) == 0;
	if (!tap_ok(ok, "ring of %d, 1%% frame drops on the cable between cards 0 and 1", NCARDS)) {
		tap_diag("last control answer: '%s'", reply);
		fabric_dump_log(&f, 0);
		return 1;
	}
	tap_ok(alltoall_perfect(&r, NCARDS),
	       "all %d puts of 1 MiB completed once OK (%u LOCAL, %u bad), arrived once (%u, %u bad), data %s",
	       NCARDS * NCARDS, r.local_ok, r.local_bad, r.arrival_ok, r.arrival_bad,
	       r.data_ok ? "byte-exact" : "CORRUPT");
	fabric_ctl(&f, 0, "stats 0", s0, sizeof(s0));
	fabric_ctl(&f, 1, "stats 1", s1, sizeof(s1));
	tap_diag("card 0 %s", s0);
	tap_diag("card 1 %s", s1);
	tap_diag("%d MiB in %llu ms (%.1f MiB/s over the fabric)", NCARDS * NCARDS,
		 (unsigned long long)r.elapsed_ms,
		 r.elapsed_ms ? NCARDS * NCARDS * 1000.0 / (double)r.elapsed_ms : 0.0);
	tap_ok(fabric_stat(s0, "dropped_frames") > 0 && fabric_stat(s1, "dropped_frames") > 0 &&
	       fabric_stat(s0, "injected") == fabric_stat(s0, "dropped_frames") &&
	       fabric_stat(s0, "retries") > 0 && fabric_stat(s1, "retries") > 0 &&
	       fabric_stat(s0, "seq_errors") > 0 && fabric_stat(s1, "seq_errors") > 0 &&
	       fabric_stat(s0, "crc_errors") == 0 &&
	       fabric_stat(s0, "ack_timeouts") * 4 < fabric_stat(s0, "retries") &&
	       fabric_stat(s1, "ack_timeouts") * 4 < fabric_stat(s1, "retries"),
	       "both ends dropped frames (%lld, %lld), saw the gaps (%lld, %lld) and replayed (%lld, %lld retries, %lld, %lld by the ack timer); no CRC errors",
	       fabric_stat(s0, "dropped_frames"), fabric_stat(s1, "dropped_frames"),
	       fabric_stat(s1, "seq_errors"), fabric_stat(s0, "seq_errors"),
	       fabric_stat(s0, "retries"), fabric_stat(s1, "retries"),
	       fabric_stat(s0, "ack_timeouts"), fabric_stat(s1, "ack_timeouts"));
	for (unsigned int i = 0; i < NCARDS; i++) {
		for (unsigned int p = 0; p < 2; p++) {
			char cmd[32];

			if ((i == 0 && p == 0) || (i == 1 && p == 1))
				continue;
			snprintf(cmd, sizeof(cmd), "stats %u", p);
			if (fabric_ctl(&f, i, cmd, reply, sizeof(reply)))
				alive = false;
			clean_seq += fabric_stat(reply, "seq_errors") + fabric_stat(reply, "crc_errors") +
				     fabric_stat(reply, "injected");
		}
	}
	tap_ok(clean_seq == 0, "the other cables saw no loss, CRC error or injected fault (%lld)",
	       clean_seq);
	for (unsigned int i = 0; i < NCARDS; i++)
		alive &= fabric_card_alive(&f, i);
	tap_ok(alive, "every card still running and answering");
	if (tap.failed)
		for (unsigned int i = 0; i < NCARDS; i++)
			fabric_dump_log(&f, i);
	fabric_stop();
	return tap_exit_status();
}
