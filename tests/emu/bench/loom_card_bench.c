// SPDX-License-Identifier: GPL-2.0
/*
 * loom-card-bench: figures for the card emulator, not a pass/fail test.
 *
 * 1. Forwarding rate: two loom-card processes (the optimised build, not
 *    the sanitizer one) on one cable with the link layer on; card 0's fake
 *    host keeps its command ring full of 64-byte puts to card 1 (one
 *    64-byte request packet and one acknowledgement each) and the rate of
 *    completed puts is printed, for the default and for 64 buffers per VC.
 * 2. Memory: resident set size of a card with 8 ports (uncabled) after
 *    start-up.
 *
 * Build and run: make -C fpga_bitstreams bench && build/bin/loom-card-bench
 */
#include "fabric.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TAP_DEFINE;

#define CTX		6
#define KEY1		0xbe7c4u
#define PKT		64
#define SIGNAL_EVERY	64
#define PUTS		(1u << 19)

static long rss_kib(pid_t pid)
{
	char path[64], line[256];
	long kib = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmRSS:", 6))
			kib = strtol(line + 6, NULL, 10);
	fclose(f);
	return kib;
}

static int forward_rate(const char *bufs)
{
	const char *more[] = { "--vc-buffers", bufs, NULL };
	struct fabric f;
	struct fh_ctx src, dst;
	uint32_t submitted = 0, done = 0;
	uint64_t t0, ms;

	if (fabric_init(&f, 300) || fabric_start_ring_ctl(&f, 2, more) ||
	    fh_ctx_create(&f.fh[0], &src, CTX, 0x1111, 12, 12, 1u << 16) != LOOM_ADMIN_E_OK ||
	    fh_ctx_create(&f.fh[1], &dst, CTX, KEY1, 6, 6, 1u << 16) != LOOM_ADMIN_E_OK) {
		fprintf(stderr, "loom-card-bench: fabric setup failed\n");
		fabric_stop();
		return -1;
	}
	t0 = fh_now_ms();
	while (done < PUTS && fh_now_ms() - t0 < 120000) {
		struct loom_cqe e;

		while (submitted < PUTS) {
			struct loom_cmd c = {
				.opcode = LOOM_OP_PUT, .dst_ctx = CTX, .dst_node = 1,
				.tag = submitted, .length = PKT, .key = KEY1,
				.remote_off = (submitted % 256) * PKT,
				.flags = (submitted + 1) % SIGNAL_EVERY ? 0 : LOOM_CMD_F_SIGNAL,
			};

			if (!fh_submit(&src, &c))
				break;
			submitted++;
		}
		while (fh_wait_cqe(&src, &e, submitted == PUTS ? 20 : 0) == 1) {
			if (e.status != LOOM_CQE_ST_OK) {
				fprintf(stderr, "loom-card-bench: put %llu failed with status %u\n",
					(unsigned long long)e.tag, e.status);
				fabric_stop();
				return -1;
			}
			done += SIGNAL_EVERY;
		}
	}
	ms = fh_now_ms() - t0;
	printf("forwarding, 1 cable, link layer on, --vc-buffers %s: %u puts of %d B in %llu ms = %.0f packets/s each way (%.1f MB/s payload)\n",
	       bufs, done, PKT, (unsigned long long)ms, ms ? done * 1000.0 / (double)ms : 0.0,
	       ms ? done * (double)PKT / 1000.0 / (double)ms : 0.0);
	fabric_stop();
	return done == PUTS ? 0 : -1;
}

static int memory(void)
{
	const char *extra[] = { "--ports", "8", NULL };
	struct fabric f;
	long kib;

	if (fabric_init(&f, 60) || fabric_start_card(&f, 0, extra) || fabric_attach(&f, 0)) {
		fabric_stop();
		return -1;
	}
	kib = rss_kib(f.pid[0]);
	printf("memory: a card with 8 ports, RSS %ld KiB after start-up\n", kib);
	fabric_stop();
	return kib > 0 ? 0 : -1;
}

int main(void)
{
	int rc = 0;

	if (!getenv("LOOM_CARD")) {
		/* the optimised loom-card beside this program ($(BUILD)/bin) */
		char self[512], *slash;
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 16);

		if (n > 0) {
			self[n] = 0;
			slash = strrchr(self, '/');
			if (slash) {
				strcpy(slash + 1, "loom-card");
				setenv("LOOM_CARD", self, 1);
			}
		}
	}
	rc |= forward_rate("8");
	rc |= forward_rate("64");
	rc |= memory();
	return rc ? 1 : 0;
}
