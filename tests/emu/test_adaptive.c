// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test of minimal adaptive routing on a ring of 4 cards
 * (a one-dimensional torus with datelines).  Every routing entry gets
 * LOOM_RT_W0_ADAPTIVE; the entry for the node half way round names both
 * ports in its adaptive port mask (both are minimal).
 *
 * A 1 MiB put from card 0 to card 2 spreads over both ports' adaptive VC
 * (TX_PKTS of REQ_ADAPT > 0 on port 0 and on port 1) and lands
 * byte-exact; ADAPTIVE and DETERMINISTIC choices are both counted.  An
 * ORDERED put never adapts: the ADAPTIVE counters do not move.  A
 * saturating all-to-all with adaptive entries everywhere completes.
 */
#include "alltoall.h"
#include "card.h"
#include "fabric.h"
#include "tap.h"

#include <string.h>

TAP_DEFINE;

#define RING	4
#define CTX	4
#define KEY1	0xada97u
#define LEN	(1u << 20)

static struct fabric f;

static void make_adaptive(void)
{
	for (unsigned int i = 0; i < RING; i++) {
		for (unsigned int d = 0; d < RING; d++) {
			uint32_t off = CARD_OFF_ROUTER + LOOM_ROUTER_RT + d * LOOM_ROUTER_RT_ENTRY_SIZE;
			uint32_t w0 = fh_rd32(&f.fh[i], off), w1 = d;

			if (d == i)
				continue;
			if ((d + RING - i) % RING == RING / 2)
				w1 |= 3u << LOOM_RT_W1_ADAPT_PORTS_SHIFT;	/* both ways are minimal */
			fh_wr32(&f.fh[i], off + 4, w1);
			fh_wr32(&f.fh[i], off, w0 | LOOM_RT_W0_ADAPTIVE);
		}
	}
}

/* Sum of a (port, VC) counter of card @i over @ports and @vcs (bitmaps). */
static uint32_t cnt(unsigned int i, uint32_t ports, uint32_t vcs, uint32_t field)
{
	uint32_t sum = 0;

	for (unsigned int p = 0; p < 2; p++)
		for (unsigned int v = 0; v < LOOM_NUM_VCS; v++)
			if ((ports >> p & 1) && (vcs >> v & 1))
				sum += fh_rd32(&f.fh[i], card_cnt_reg(p, v, field));
	return sum;
}

static int put(struct fh_ctx *src, uint8_t flags, uint64_t tag)
{
	struct loom_cmd c = {
		.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL | flags, .dst_ctx = CTX,
		.dst_node = RING / 2, .tag = tag, .length = LEN,
	};
	struct loom_cqe e;

	if (!fh_submit(src, &c) || fh_wait_cqe(src, &e, 20000) != 1 || e.tag != tag ||
	    e.status != LOOM_CQE_ST_OK) {
		tap_diag("put 0x%llx did not complete OK", (unsigned long long)tag);
		return -1;
	}
	return 0;
}

int main(void)
{
	static const char *const more[] = { "--vc-buffers", "4", NULL };
	const uint32_t all = (1u << LOOM_NUM_VCS) - 1, adapt = 1u << LOOM_VC_REQ_ADAPT;
	struct fh_ctx src, dst;
	struct alltoall r;
	uint32_t a0, a1, ad, de, ad2;
	bool ok;

	tap_plan(6);
	ok = fabric_init(&f, 120) == 0 && fabric_start_ring_ctl(&f, RING, more) == 0 &&
	     fh_ctx_create(&f.fh[0], &src, CTX, KEY1, 6, 8, LEN) == LOOM_ADMIN_E_OK &&
	     fh_ctx_create(&f.fh[RING / 2], &dst, CTX, KEY1, 6, 8, LEN) == LOOM_ADMIN_E_OK;
	if (!tap_ok(ok, "ring of %d with adaptive routing entries: cards up", RING)) {
		fabric_stop();
		return tap_exit_status();
	}
	make_adaptive();
	for (uint32_t o = 0; o < LEN; o++)
		src.segp[o] = (uint8_t)(o * 7 + (o >> 8));
	ok = put(&src, 0, 1) == 0 && !memcmp(src.segp, dst.segp, LEN);
	a0 = cnt(0, 1, adapt, LOOM_CNTR_TX_PKTS);
	a1 = cnt(0, 2, adapt, LOOM_CNTR_TX_PKTS);
	tap_diag("card 0: REQ_ADAPT packets on port 0 %u, on port 1 %u", a0, a1);
	tap_ok(ok, "a 1 MiB put half way round lands byte-exact");
	tap_ok(a0 > 0 && a1 > 0, "it spread over both minimal ports' adaptive VC");
	ad = cnt(0, 3, all, LOOM_CNTR_ADAPTIVE);
	de = cnt(0, 3, all, LOOM_CNTR_DETERMINISTIC);
	tap_diag("card 0: %u adaptive, %u deterministic choices", ad, de);
	tap_ok(ad > 0 && de > 0, "adaptive and deterministic choices are both counted");
	memset(dst.segp, 0, LEN);
	ok = put(&src, LOOM_CMD_F_ORDERED, 2) == 0 && !memcmp(src.segp, dst.segp, LEN);
	ad2 = cnt(0, 3, all, LOOM_CNTR_ADAPTIVE) + cnt(1, 3, all, LOOM_CNTR_ADAPTIVE) +
	      cnt(RING - 1, 3, all, LOOM_CNTR_ADAPTIVE);
	ad += cnt(1, 3, all, LOOM_CNTR_ADAPTIVE) + cnt(RING - 1, 3, all, LOOM_CNTR_ADAPTIVE);
	tap_ok(ok && ad2 == ad && cnt(0, 3, adapt, LOOM_CNTR_TX_PKTS) == a0 + a1,
	       "an ORDERED put lands and never takes the adaptive VC (adaptive choices %u -> %u)",
	       ad, ad2);
	ok = alltoall_run(&f, RING, 128u << 10, 60000, &r) == 0;
	tap_ok(ok && alltoall_perfect(&r, RING),
	       "adaptive all-to-all of 128 KiB puts completes, byte-exact (%llu ms)",
	       (unsigned long long)r.elapsed_ms);
	fabric_stop();
	return tap_exit_status();
}
