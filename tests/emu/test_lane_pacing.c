// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test of lane pacing, 2 cards started with --lane-mbps:
 * a link's DATA frames leave at (lanes in use) x (lane rate).  A long put
 * at 4 lanes runs at about the paced rate; bit errors then degrade the
 * link to 1 lane (the receiving port drops lanes and tells the sender,
 * whose port follows, RATE_MBPS too), and the same kind of put runs about
 * 4x slower.  The figures are printed; the ratio is asserted generously
 * (> 2), as the machine may be loaded.
 */
#include "card.h"
#include "fabric.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

TAP_DEFINE;

#define CTX		5
#define KEY1		0x1a4e5u
/*
 * The card's clock follows the lane rate (one byte per lane and cycle):
 * 1 Mbit/s lanes keep it at 125 k cycles/s, which a loaded machine still
 * runs in real time, so the paced rates are what the test measures.
 */
#define LANE_MBPS	1		/* 4 Mbit/s at 4 lanes, 1 Mbit/s at 1 */
#define LANE_MBPS_S	"1"
#define LEN4		(1u << 18)	/* about 0.7 s at 4 lanes */
#define LEN1		(1u << 16)	/* about 0.7 s at 1 lane */
#define SEG		(1u << 20)

static struct fabric f;
static struct fh_ctx src, dst;

static uint32_t link_reg(unsigned int card, unsigned int port, uint32_t field)
{
	return fh_rd32(&f.fh[card], card_link_reg(port, field));
}

/* One put of @len bytes card 0 -> card 1; MB/s of payload, or -1. */
static double timed_put(uint32_t len, uint32_t tag)
{
	struct loom_cmd c = {
		.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX,
		.dst_node = 1, .tag = tag, .length = len,
	};
	struct loom_cqe e;
	struct timespec t0, t1;
	double s;

	for (uint32_t o = 0; o < len; o++)
		src.segp[o] = (uint8_t)(o * 7 + tag);
	memset(dst.segp, 0, len);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!fh_submit(&src, &c) || fh_wait_cqe(&src, &e, 60000) != 1 ||
	    e.status != LOOM_CQE_ST_OK) {
		tap_diag("put %u of %u bytes did not complete OK", tag, len);
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (memcmp(src.segp, dst.segp, len)) {
		tap_diag("put %u of %u bytes: data differ at the target", tag, len);
		return -1;
	}
	s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	return s > 0 ? (double)len / 1e6 / s : -1;
}

int main(void)
{
	static const char *const more[] = { "--lane-mbps", LANE_MBPS_S, NULL };
	/* payload share of a DATA frame: 256 of 16 + 48 + 256 + 4 bytes */
	const double paced4 = 4.0 * LANE_MBPS / 8.0 * 256.0 / 324.0;	/* MB/s */
	double mb4, mb1;
	char reply[256];
	unsigned int puts = 0;
	bool ok;

	tap_plan(6);
	ok = fabric_init(&f, 180) == 0 && fabric_start_ring_ctl(&f, 2, more) == 0 &&
	     fh_ctx_create(&f.fh[0], &src, CTX, KEY1, 6, 8, SEG) == LOOM_ADMIN_E_OK &&
	     fh_ctx_create(&f.fh[1], &dst, CTX, KEY1, 6, 8, SEG) == LOOM_ADMIN_E_OK;
	if (!tap_ok(ok, "2 cards up with --lane-mbps %d, contexts enabled", LANE_MBPS)) {
		fabric_stop();
		return tap_exit_status();
	}
	tap_ok(link_reg(0, 0, LOOM_LINKR_LANES) == CARD_LANES &&
	       link_reg(0, 0, LOOM_LINKR_RATE_MBPS) == CARD_LANES * LANE_MBPS,
	       "trained: %u lanes, RATE_MBPS %u (lanes x --lane-mbps)",
	       link_reg(0, 0, LOOM_LINKR_LANES), link_reg(0, 0, LOOM_LINKR_RATE_MBPS));

	mb4 = timed_put(LEN4, 1);
	tap_diag("4 lanes: %u KiB in one put at %.3f MB/s of payload (paced rate %.3f MB/s)",
		 LEN4 >> 10, mb4, paced4);
	tap_ok(mb4 > 0 && mb4 < 1.25 * paced4,
	       "a put at 4 lanes lands byte-exact, no faster than the paced rate");

	/* bit errors toward card 1 until its port drops to one lane */
	ok = fabric_ctl(&f, 0, "ber 0 0.0002", reply, sizeof(reply)) == 0 &&
	     !strncmp(reply, "ok", 2);
	for (uint64_t end = fh_now_ms() + 60000; ok && link_reg(1, 1, LOOM_LINKR_LANES) > 1 &&
	     fh_now_ms() < end; puts++) {
		struct loom_cmd c = {
			.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX,
			.dst_node = 1, .tag = 100 + puts, .length = 1u << 14,
		};
		struct loom_cqe e;

		if (!fh_submit(&src, &c) || fh_wait_cqe(&src, &e, 60000) != 1 ||
		    e.status != LOOM_CQE_ST_OK)
			ok = false;
	}
	ok = fabric_ctl(&f, 0, "ber 0 0", reply, sizeof(reply)) == 0 && ok;
	/* the sender learns the width from the receiver's TRAIN frame */
	for (uint64_t end = fh_now_ms() + 10000; link_reg(0, 0, LOOM_LINKR_LANES) != 1 &&
	     fh_now_ms() < end; )
		usleep(10000);
	tap_ok(ok && link_reg(1, 1, LOOM_LINKR_LANES) == 1 && link_reg(0, 0, LOOM_LINKR_LANES) == 1 &&
	       link_reg(0, 0, LOOM_LINKR_RATE_MBPS) == LANE_MBPS,
	       "bit errors degrade the link to 1 lane at both ends after %u puts (receiver %u, sender %u lanes, sender RATE_MBPS %u)",
	       puts, link_reg(1, 1, LOOM_LINKR_LANES), link_reg(0, 0, LOOM_LINKR_LANES),
	       link_reg(0, 0, LOOM_LINKR_RATE_MBPS));

	mb1 = timed_put(LEN1, 2);
	tap_diag("1 lane: %u KiB in one put at %.3f MB/s of payload (paced rate %.3f MB/s)",
		 LEN1 >> 10, mb1, paced4 / 4);
	tap_ok(mb1 > 0, "a put at 1 lane lands byte-exact");
	tap_ok(mb4 > 0 && mb1 > 0 && mb4 / mb1 > 2.0,
	       "throughput drops with the lanes: 4 lanes / 1 lane = %.2f (4 expected, > 2 required)",
	       mb1 > 0 ? mb4 / mb1 : 0.0);
	fabric_stop();
	return tap_exit_status();
}
