// SPDX-License-Identifier: GPL-2.0
/*
 * Native test of the admin RESET command: two cards cabled as a ring
 * (fabric_start_ring: routes and a dateline VC table from the command
 * line).  Card 0 gets a port declared DEAD by its forward-progress timer
 * (card 1 frozen with SIGSTOP under a stream of puts), a port disabled by
 * its fault mask, and every other register software may configure changed:
 * routing table, LOGICAL_ID, VC table, FP_TIMEOUT_MS, lane settings, BSU
 * trees, a running context.  RESET through the admin mailbox must bring
 * back the power-on values of Documentation/hw/registers.rst ("RESET"),
 * keep the statistics counters and the links, and the two ports must carry
 * traffic again.
 */
#include "card.h"
#include "fabric.h"
#include "tap.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TAP_DEFINE;

#define CTX		1
#define KEY		0x7e5e0000u	/* one partition: every context */
#define SEG		(256u << 10)
#define BSU_TREE(b, f)	(CARD_OFF_BSU + LOOM_BSU_TREE_BASE + (b) * LOOM_BSU_TREE_SIZE + (f))
#define RT_WORDS	(CARD_RT_ENTRIES * 2)
#define VCT_WORDS	((LOOM_VCT_SIZE - LOOM_VCT_PORT_CFG) / 4)

static struct fabric f;

struct snapshot {
	uint32_t rt[RT_WORDS];
	uint32_t vct[VCT_WORDS];
	uint32_t tree[LOOM_BSU_COUNT][2];	/* CHILDREN, PARENT */
	uint32_t logical, fp, lane_threshold, lane_window, ctrl[2];
	uint32_t tx_frames[2], drops_dead;
};

static void snap(struct fakehost *fh, struct snapshot *s)
{
	for (unsigned int w = 0; w < RT_WORDS; w++)
		s->rt[w] = fh_rd32(fh, CARD_OFF_ROUTER + LOOM_ROUTER_RT + 4 * w);
	for (unsigned int w = 0; w < VCT_WORDS; w++)
		s->vct[w] = fh_rd32(fh, CARD_OFF_VCT + LOOM_VCT_PORT_CFG + 4 * w);
	for (unsigned int b = 0; b < LOOM_BSU_COUNT; b++) {
		s->tree[b][0] = fh_rd32(fh, BSU_TREE(b, LOOM_BSUT_CHILDREN));
		s->tree[b][1] = fh_rd32(fh, BSU_TREE(b, LOOM_BSUT_PARENT));
	}
	s->logical = fh_rd32(fh, CARD_OFF_ROUTER + LOOM_ROUTER_LOGICAL_ID);
	s->fp = fh_rd32(fh, CARD_OFF_PORTS + LOOM_PORTS_FP_TIMEOUT_MS);
	s->lane_threshold = fh_rd32(fh, CARD_OFF_LINK + LOOM_LINK_LANE_THRESHOLD);
	s->lane_window = fh_rd32(fh, CARD_OFF_LINK + LOOM_LINK_LANE_WINDOW_MS);
	s->drops_dead = 0;
	for (unsigned int p = 0; p < 2; p++) {
		s->ctrl[p] = fh_rd32(fh, fh_port_reg(fh, p, LOOM_PORT_CTRL));
		s->tx_frames[p] = fh_rd32(fh, fh_port_reg(fh, p, LOOM_PORT_TX_FRAMES));
		for (unsigned int v = 0; v < LOOM_NUM_VCS; v++)
			s->drops_dead += fh_rd32(fh, card_cnt_reg(p, v, LOOM_CNTR_DROPS_DEAD));
	}
}

static uint32_t port_status(unsigned int card, unsigned int port)
{
	return fh_rd32(&f.fh[card], fh_port_reg(&f.fh[card], port, LOOM_PORT_STATUS));
}

/* Wait until port @port of card @card has (@want) or lacks (!@want) @bits. */
static bool wait_status(unsigned int card, unsigned int port, uint32_t bits, bool want,
			int timeout_ms)
{
	uint64_t deadline = fh_now_ms() + (uint64_t)timeout_ms;

	while (!!(port_status(card, port) & bits) != want) {
		if (fh_now_ms() > deadline)
			return false;
		usleep(5000);
	}
	return true;
}

/* Put @len bytes from card 0 to card 1 with tag @tag; the LOCAL status, or -1. */
static int put_status(struct fh_ctx *c0, uint32_t len, uint64_t tag, int timeout_ms)
{
	struct loom_cmd cmd = {
		.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX, .dst_node = 1,
		.tag = tag, .length = len,
	};
	struct loom_cqe e;

	if (!fh_submit(c0, &cmd))
		return -1;
	while (fh_wait_cqe(c0, &e, timeout_ms) == 1)
		if (e.kind == LOOM_CQE_LOCAL && e.tag == tag)
			return e.status;
	return -1;
}

/* Freeze card 1 under a stream of puts until card 0's port 0 is DEAD. */
static bool make_port_dead(struct fh_ctx *c0)
{
	struct loom_cqe e;
	unsigned int done = 0, sent = 0;
	bool dead;

	fh_wr32(&f.fh[0], CARD_OFF_PORTS + LOOM_PORTS_FP_TIMEOUT_MS, 200);
	kill(f.pid[1], SIGSTOP);
	for (unsigned int k = 0; k < 8; k++) {
		struct loom_cmd cmd = {
			.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX,
			.dst_node = 1, .tag = 100 + k, .length = 64u << 10,
		};

		sent += fh_submit(c0, &cmd);
	}
	dead = wait_status(0, 0, LOOM_PORT_ST_DEAD, true, 10000);
	kill(f.pid[1], SIGCONT);
	/* every put ends (discarded by the dead port, or later by the op timer) */
	while (done < sent && fh_wait_cqe(c0, &e, 15000) == 1)
		done += e.kind == LOOM_CQE_LOCAL;
	tap_diag("card 1 frozen: port 0 of card 0 %s; %u of %u puts ended", dead ? "DEAD" : "not dead",
		 done, sent);
	return dead && done == sent;
}

int main(void)
{
	struct fakehost *fh = &f.fh[0];
	struct snapshot boot, before, after;
	struct fh_ctx c0, c1;
	bool ok, same;
	int st;

	tap_plan(13);
	ok = fabric_init(&f, 120) == 0 && fabric_start_ring(&f, 2) == 0;
	if (!tap_ok(ok, "two cards cabled as a ring, links up")) {
		tap_diag("nothing else can be tested");
		return 1;
	}
	snap(fh, &boot);
	tap_ok(boot.vct[0] == 0 && boot.vct[1] == (0 | LOOM_VCT_PORT_DATELINE) &&
	       boot.fp == CARD_FP_TIMEOUT_MS && boot.lane_threshold == CARD_LANE_THRESHOLD &&
	       boot.lane_window == CARD_LANE_WINDOW_MS && boot.logical == 0 &&
	       (boot.rt[2] & LOOM_RT_W0_VALID) && !boot.ctrl[0] && !boot.ctrl[1],
	       "boot state: --vct in PORT_CFG (port 1 a dateline), --route in RT, FP %u ms, lanes %u/%u ms",
	       boot.fp, boot.lane_threshold, boot.lane_window);

	ok = fh_ctx_create(&f.fh[0], &c0, CTX, KEY, 6, 8, SEG) == LOOM_ADMIN_E_OK &&
	     fh_ctx_create(&f.fh[1], &c1, CTX, KEY, 6, 8, SEG) == LOOM_ADMIN_E_OK;
	tap_ok(ok && make_port_dead(&c0),
	       "card 1 frozen under puts: card 0's forward-progress timer declares port 0 DEAD");

	/* change everything software can configure */
	fh_wr32(fh, CARD_OFF_ROUTER + LOOM_ROUTER_RT + 8 * 1, 0);	/* route to 1: invalid */
	fh_wr32(fh, CARD_OFF_ROUTER + LOOM_ROUTER_RT + 8 * 9, LOOM_RT_W0_VALID | 1);
	fh_wr32(fh, CARD_OFF_ROUTER + LOOM_ROUTER_RT + 8 * 9 + 4, 9);
	fh_wr32(fh, CARD_OFF_ROUTER + LOOM_ROUTER_LOGICAL_ID, 77);
	fh_wr32(fh, CARD_OFF_VCT + LOOM_VCT_PORT_CFG, LOOM_VCT_PORT_DIM_NONE);
	fh_wr32(fh, CARD_OFF_VCT + LOOM_VCT_PORT_CFG + 4, 2);
	fh_wr32(fh, CARD_OFF_VCT + LOOM_VCT_START_VC1, 0xffffffffu);
	fh_wr32(fh, CARD_OFF_PORTS + LOOM_PORTS_FP_TIMEOUT_MS, 0);
	fh_wr32(fh, CARD_OFF_LINK + LOOM_LINK_LANE_THRESHOLD, 3);
	fh_wr32(fh, CARD_OFF_LINK + LOOM_LINK_LANE_WINDOW_MS, 50);
	fh_wr32(fh, BSU_TREE(3, LOOM_BSUT_CHILDREN), LOOM_BSU_CHILD_HOST | 3);
	fh_wr32(fh, BSU_TREE(3, LOOM_BSUT_PARENT), 1);
	fh_wr32(fh, fh_port_reg(fh, 1, LOOM_PORT_CTRL), LOOM_PORT_CTRL_DISABLE);
	fh_kick(fh, LOOM_KICK_ADMIN);
	tap_ok(wait_status(0, 1, LOOM_PORT_ST_DISABLED, true, 5000) &&
	       fh_rd32(fh, fh_ctx_reg(fh, CTX, LOOM_CTXR_STATE)) == LOOM_CTX_ST_RUNNING,
	       "port 1 disabled by its fault mask, context %u running", CTX);

	snap(fh, &before);
	st = fh_admin(fh, LOOM_ADMIN_CMD_RESET, 0, 5000);
	snap(fh, &after);
	tap_ok(st == LOOM_ADMIN_E_OK, "RESET through the admin mailbox: result %d", st);

	same = true;
	for (unsigned int off = 0; off < LOOM_CTX_REC_SIZE; off += 4)
		same &= fh_rd32(fh, fh_ctx_reg(fh, CTX, off)) == 0;
	/* the doorbells themselves are write-only: the card's view of them */
	tap_ok(same && fh_rd32(fh, fh->db_area + CTX * LOOM_DB_PAGE_SIZE + LOOM_DB_CQ_CI_SEEN) == 0,
	       "context record all zero (STATE DISABLED), CQ_CI_SEEN zero");
	tap_ok(!memcmp(after.rt, boot.rt, sizeof(boot.rt)) && after.logical == 0,
	       "routing table as booted (--route), LOGICAL_ID = node");
	tap_ok(!memcmp(after.vct, boot.vct, sizeof(boot.vct)),
	       "VC table as booted (--vct: PORT_CFG and START_VC1)");
	tap_ok(after.fp == CARD_FP_TIMEOUT_MS && after.lane_threshold == CARD_LANE_THRESHOLD &&
	       after.lane_window == CARD_LANE_WINDOW_MS,
	       "FP_TIMEOUT_MS %u, LANE_THRESHOLD %u, LANE_WINDOW_MS %u: the reset values",
	       after.fp, after.lane_threshold, after.lane_window);
	tap_ok(!memcmp(after.tree, boot.tree, sizeof(boot.tree)),
	       "BSU trees at their power-on values (host alone, root)");
	tap_ok(!after.ctrl[0] && !after.ctrl[1] &&
	       !(port_status(0, 0) & (LOOM_PORT_ST_DEAD | LOOM_PORT_ST_DISABLED)) &&
	       !(port_status(0, 1) & (LOOM_PORT_ST_DEAD | LOOM_PORT_ST_DISABLED)) &&
	       (port_status(0, 0) & LOOM_PORT_ST_UP) && (port_status(0, 1) & LOOM_PORT_ST_UP),
	       "fault masks clear, DEAD and DISABLED cleared, both links still up (0x%x, 0x%x)",
	       port_status(0, 0), port_status(0, 1));
	tap_ok(after.tx_frames[0] >= before.tx_frames[0] && before.tx_frames[0] > 0 &&
	       after.drops_dead == before.drops_dead && before.drops_dead > 0,
	       "statistics kept: TX_FRAMES %u -> %u, DROPS_DEAD %u -> %u (not cleared)",
	       before.tx_frames[0], after.tx_frames[0], before.drops_dead, after.drops_dead);

	/* both ports carry traffic again: port 0 by the boot route, port 1 by a new one */
	ok = fh_ctx_create(fh, &c0, CTX, KEY, 6, 8, SEG) == LOOM_ADMIN_E_OK;
	st = ok ? put_status(&c0, 5000, 1, 10000) : -1;
	fh_wr32(fh, CARD_OFF_ROUTER + LOOM_ROUTER_RT + 8 * 1, LOOM_RT_W0_VALID | 1);
	fh_kick(fh, LOOM_KICK_ADMIN);
	tap_ok(st == LOOM_CQE_ST_OK && put_status(&c0, 5000, 2, 10000) == LOOM_CQE_ST_OK,
	       "after RESET, puts to card 1 through the once dead port 0 and the once disabled port 1 complete OK");
	fabric_stop();
	return tap_exit_status();
}
