// SPDX-License-Identifier: GPL-2.0
/*
 * Descriptor validation and the host interface, in memory: a card over a
 * calloc'd register window and "guest RAM", driven through its registers
 * exactly as a driver would (minus kicks: the test runs service rounds).
 * Covers desc_check(), admin_check_ctx(), error completions that leave the
 * context running, puts to self (LOCAL + ARRIVAL), key/bounds/no-context
 * refusals that do not write, unreachable and link-down destinations,
 * partitions (a context of another partition refuses PUT, GET, ATOMIC and
 * COUNTED_PUT and nothing moves; the descriptor's key is ignored),
 * SIGNAL, completion-ring back-pressure and a runaway producer index.
 */
#include "admin.h"
#include "card.h"
#include "desc_check.h"
#include "lockstep.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

TAP_DEFINE;

#define RAM_SIZE	(8u << 20)
#define CMDQ		0x100000u
#define CQ		0x110000u
#define SEG		0x200000u
#define SEG_SIZE	0x10000u
#define KEY		0xabcd1234u
#define OP_TIMEOUT_MS	3000u	/* not the default: the card must use the parameter */
/* context 2: another partition, rings and segment of its own */
#define CMDQ2		0x120000u
#define CQ2		0x130000u
#define SEG2		0x300000u
#define KEY2		(KEY ^ 0x100)

/*
 * Card 0 (node 0) under test; card 1 (node 1) is cabled to its port 1 and
 * only used as a far end that can be made to swallow every DATA frame.
 */
static struct lockstep ls;
static uint8_t *regs, *ram;
static uint32_t pi, ci;
#define C0	(&ls.c[0]->card)

static bool swallow;		/* the cable from card 0 loses every DATA frame */
static unsigned int swallowed;

static bool tamper(void *ctx, unsigned int dir, struct link_txframe *tf)
{
	(void)ctx;
	if (swallow && dir == 0 && tf->type == LOOM_FRAME_DATA) {
		swallowed++;
		return false;
	}
	return true;
}

/* Run the fabric until nothing moves (or a bound of cycles). */
static void settle(void)
{
	ls_run(&ls, 200000, true);
}

static void wr(uint32_t off, uint32_t v) { memcpy(regs + off, &v, 4); }
static uint32_t rd(uint32_t off) { uint32_t v; memcpy(&v, regs + off, 4); return v; }

static uint32_t admin(uint32_t cmd, uint32_t arg0)
{
	uint32_t seq = rd(CARD_OFF_ADMIN + LOOM_ADMIN_ACK) + 1;

	wr(CARD_OFF_ADMIN + LOOM_ADMIN_CMD, cmd);
	wr(CARD_OFF_ADMIN + LOOM_ADMIN_ARG0, arg0);
	wr(CARD_OFF_ADMIN + LOOM_ADMIN_SEQ, seq);
	card_service(C0);
	settle();
	return rd(CARD_OFF_ADMIN + LOOM_ADMIN_ACK) == seq ? rd(CARD_OFF_ADMIN + LOOM_ADMIN_RESULT) : 0xffff;
}

static void ctx_record(unsigned int idx, uint64_t cmdq, uint64_t cq, uint64_t seg, uint64_t seg_size,
		       unsigned int cmdq_log2, unsigned int cq_log2, uint32_t key, uint32_t vector)
{
	wr(card_ctx_reg(idx, LOOM_CTXR_CMDQ_LO), (uint32_t)cmdq);
	wr(card_ctx_reg(idx, LOOM_CTXR_CMDQ_HI), (uint32_t)(cmdq >> 32));
	wr(card_ctx_reg(idx, LOOM_CTXR_CQ_LO), (uint32_t)cq);
	wr(card_ctx_reg(idx, LOOM_CTXR_CQ_HI), (uint32_t)(cq >> 32));
	wr(card_ctx_reg(idx, LOOM_CTXR_SEG_LO), (uint32_t)seg);
	wr(card_ctx_reg(idx, LOOM_CTXR_SEG_HI), (uint32_t)(seg >> 32));
	wr(card_ctx_reg(idx, LOOM_CTXR_SEG_SIZE_LO), (uint32_t)seg_size);
	wr(card_ctx_reg(idx, LOOM_CTXR_SEG_SIZE_HI), (uint32_t)(seg_size >> 32));
	wr(card_ctx_reg(idx, LOOM_CTXR_RINGS), cmdq_log2 | cq_log2 << 8);
	wr(card_ctx_reg(idx, LOOM_CTXR_KEY), key);
	wr(card_ctx_reg(idx, LOOM_CTXR_VECTOR), vector);
}

/* enable context 0 with 16-entry rings */
static uint32_t ctx0_enable(void)
{
	memset(ram + CQ, 0, 16 * LOOM_CQE_SIZE);
	pi = ci = 0;
	ctx_record(0, CMDQ, CQ, SEG, SEG_SIZE, 4, 4, KEY, LOOM_VEC_CQ);
	return admin(LOOM_ADMIN_CMD_CTX_ENABLE, 0);
}

static void submit(const struct loom_cmd *cmd)
{
	memcpy(ram + CMDQ + (pi & 15) * LOOM_CMD_SIZE, cmd, sizeof(*cmd));
	pi++;
	wr(card_db_reg(0, LOOM_DB_CMD_PI), pi);
	card_service(C0);
	settle();
}

/* next completion of context 0, or NULL */
static const struct loom_cqe *reap(void)
{
	static struct loom_cqe e;

	memcpy(&e, ram + CQ + (ci & 15) * LOOM_CQE_SIZE, sizeof(e));
	if ((e.flags & LOOM_CQE_PHASE) != loom_cq_phase(ci, 4))
		return NULL;
	ci++;
	wr(card_db_reg(0, LOOM_DB_CQ_CI), ci);
	return &e;
}

static struct loom_cmd put(uint32_t node, uint16_t ctx, uint64_t loff, uint64_t roff, uint64_t len,
			   uint32_t key, uint8_t flags, uint64_t tag)
{
	struct loom_cmd c = {
		.opcode = LOOM_OP_PUT, .flags = flags, .dst_ctx = ctx, .dst_node = node, .tag = tag,
		.local_off = loff, .remote_off = roff, .length = len, .key = key,
	};

	return c;
}

/* submit @cmd, expect exactly one LOCAL completion with @status and @tag */
static int one_local(const struct loom_cmd *cmd, uint8_t status)
{
	const struct loom_cqe *e;

	submit(cmd);
	e = reap();
	if (!e || e->kind != LOOM_CQE_LOCAL || e->status != status || e->tag != cmd->tag ||
	    e->opcode != cmd->opcode) {
		if (e)
			tap_diag("got kind %u status %u tag 0x%llx opcode %u", e->kind, e->status,
				 (unsigned long long)e->tag, e->opcode);
		else
			tap_diag("no completion");
		return 0;
	}
	return reap() == NULL;
}

/*
 * Context 2 in another partition: PUT, GET, ATOMIC and COUNTED_PUT from
 * context 0 (its descriptors naming context 2's key) are refused with
 * REMOTE_KEY, touch neither segment nor counter, count DROP_KEY once per
 * packet; an answer that does not carry the requester's key is ignored.
 */
static void test_partition(void)
{
	static uint8_t seg2_before[0x1000], seg0_before[0x1000];
	uint32_t drops0 = rd(CARD_OFF_COUNTERS + LOOM_CNT_DROP_KEY);
	struct loom_pkt_hdr forged;
	struct loom_cmd c;
	int ok, same;

	ctx_record(2, CMDQ2, CQ2, SEG2, SEG_SIZE, 4, 4, KEY2, LOOM_VEC_CQ);
	wr(card_ctx_reg(2, LOOM_CTXR_CNT_LO), 0x140000u);
	ok = admin(LOOM_ADMIN_CMD_CTX_ENABLE, 2) == LOOM_ADMIN_E_OK;
	for (unsigned int i = 0; i < sizeof(seg2_before); i++)
		ram[SEG2 + i] = (uint8_t)(i * 13 + 5);
	memcpy(seg2_before, ram + SEG2, sizeof(seg2_before));
	memset(ram + SEG + 0xb000, 0x77, 0x1000);
	memcpy(seg0_before, ram + SEG + 0xb000, sizeof(seg0_before));

	c = put(0, 2, 0, 0, 600, KEY2, LOOM_CMD_F_SIGNAL | LOOM_CMD_F_REMOTE_CQE, 30);
	ok &= one_local(&c, LOOM_CQE_ST_REMOTE_KEY);
	c = put(0, 2, 0xb000, 0x100, 200, KEY2, LOOM_CMD_F_SIGNAL, 31);
	c.opcode = LOOM_OP_GET;
	ok &= one_local(&c, LOOM_CQE_ST_REMOTE_KEY);
	c = put(0, 2, 0, 0x200, 8, KEY2, LOOM_CMD_F_SIGNAL, 32);
	c.opcode = LOOM_OP_ATOMIC;
	c.aux = LOOM_AMO_SWAP;
	c.operand = 0x1122334455667788ull;
	ok &= one_local(&c, LOOM_CQE_ST_REMOTE_KEY);
	c = put(0, 2, 0, 0x300, 300, KEY2, LOOM_CMD_F_SIGNAL, 33);
	c.opcode = LOOM_OP_PUT_COUNTED;
	c.aux = 7;
	ok &= one_local(&c, LOOM_CQE_ST_REMOTE_KEY);
	same = !memcmp(ram + SEG2, seg2_before, sizeof(seg2_before)) &&
	       !memcmp(ram + SEG + 0xb000, seg0_before, sizeof(seg0_before));
	for (unsigned int i = 0; i < LOOM_CTX_COUNTERS * 8; i++)
		same &= ram[0x140000u + i] == 0;
	tap_ok(ok && same && rd(CARD_OFF_COUNTERS + LOOM_CNT_DROP_KEY) - drops0 == 7,
	       "another partition: PUT, GET, ATOMIC, COUNTED_PUT -> REMOTE_KEY; both segments and the counters page byte-identical; DROP_KEY +7 (one per packet): +%u",
	       rd(CARD_OFF_COUNTERS + LOOM_CNT_DROP_KEY) - drops0);

	/* a put into the void (port 1 swallows it) waits for its ack */
	swallow = true;
	card_set_route(C0, 3, 1);
	c = put(3, 0, 0, 0, 100, 0, LOOM_CMD_F_SIGNAL, 40);
	submit(&c);
	memset(&forged, 0, sizeof(forged));
	forged.type = LOOM_PKT_PUT_ACK;
	forged.class = LOOM_CLASS_RESP;
	forged.src_node = 3;
	forged.dst_ctx = 0;
	forged.op_id = C0->ctx[0].next_op_id - 1;
	forged.aux = 100;
	forged.key = KEY2;	/* an answer of another partition */
	{
		uint64_t stale = C0->stale_acks;
		const struct loom_cqe *e;

		card_host_deliver(C0, &forged, NULL, 0);
		settle();
		ok = C0->stale_acks == stale + 1 && !reap();
		forged.key = KEY;
		card_host_deliver(C0, &forged, NULL, 0);
		settle();
		e = reap();
		ok &= e && e->tag == 40 && e->status == LOOM_CQE_ST_OK && C0->stale_acks == stale + 1;
		tap_ok(ok, "an answer carrying another partition's key is ignored (stale); with the op's key it completes it");
	}
	swallow = false;
	swallowed = 0;
	admin(LOOM_ADMIN_CMD_CTX_DISABLE, 2);
}

static void test_desc_check(void)
{
	struct loom_cmd c = put(1, 0, 0, 0, 100, 0, LOOM_CMD_F_SIGNAL, 0);
	int ok = desc_check(&c, 4096) == LOOM_CQE_ST_OK;

	c.opcode = 7;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_BAD_DESC;
	c.opcode = 255;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_BAD_DESC;
	c.opcode = LOOM_OP_PUT;
	c.flags = 0x80;	/* the first flag the card does not know */
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_BAD_DESC;
	c.flags = LOOM_CMD_F_SIGNAL | LOOM_CMD_F_FENCE | LOOM_CMD_F_ORDERED | LOOM_CMD_F_REMOTE_CQE;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_OK;
	c.length = 0;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_BAD_DESC;
	c.length = 100;
	c.dst_node = LOOM_MAX_NODES;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_BAD_DESC;
	tap_ok(ok, "desc_check: unknown opcode/flags, empty put, node beyond the table -> BAD_DESC");
	/* multicast: a PUT with dst_ctx 0; the group is checked when the op starts */
	c = put(1, 0, 0, 0, 100, 0, LOOM_CMD_F_SIGNAL | LOOM_CMD_F_MCAST, 0);
	c.dst_node = 300;
	ok = desc_check(&c, 4096) == LOOM_CQE_ST_OK;
	c.dst_ctx = 1;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_BAD_DESC;
	c.dst_ctx = 0;
	c.flags |= LOOM_CMD_F_REMOTE_MR;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_BAD_DESC;
	c.flags &= ~LOOM_CMD_F_REMOTE_MR;
	c.opcode = LOOM_OP_GET;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_BAD_DESC;
	c.opcode = LOOM_OP_PUT_COUNTED;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_BAD_DESC;
	tap_ok(ok, "desc_check: MCAST on a PUT with dst_ctx 0 (group 300 checked later) ok; dst_ctx 1, REMOTE_MR, a GET or a counted PUT -> BAD_DESC");

	c = put(1, 0, 0, 0, 100, 0, 0, 0);
	c.opcode = LOOM_OP_GET;
	ok = desc_check(&c, 4096) == LOOM_CQE_ST_OK;
	c.length = 0;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_BAD_DESC;
	c.length = 4097;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_LOCAL_BOUNDS;
	c = put(1, 0, 0, 0, 100, 0, 0, 0);
	c.opcode = LOOM_OP_PUT_COUNTED;
	c.aux = 511;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_OK;
	c.aux = 0x10000;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_BAD_DESC;
	c.aux = 0;
	c.remote_off = 1ull << 48;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_BAD_DESC;
	tap_ok(ok, "desc_check: GET and PUT_COUNTED like PUT; counter id > 0xffff, offset >= 2^48 -> BAD_DESC");

	c = put(1, 0, 0, 64, 8, 0, 0, 0);
	c.opcode = LOOM_OP_ATOMIC;
	c.local_off = 1u << 20;		/* unused by atomics */
	ok = 1;
	for (uint32_t amo = LOOM_AMO_FETCH_ADD; amo <= LOOM_AMO_CSWAP; amo++) {
		c.aux = amo;
		ok &= desc_check(&c, 4096) == LOOM_CQE_ST_OK;
	}
	c.aux = 0;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_BAD_DESC;
	c.aux = 4;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_BAD_DESC;
	c.aux = LOOM_AMO_SWAP;
	c.remote_off = 60;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_BAD_DESC;
	c.remote_off = 64;
	c.length = 4;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_BAD_DESC;
	tap_ok(ok, "desc_check: ATOMIC needs 8 bytes, 8-aligned remote_off, a known LOOM_AMO_*");

	c = put(1, 0, 0, 0, 0, 0, 0, 0);
	c.opcode = LOOM_OP_COUNTER_WAIT;
	c.aux = LOOM_CTX_COUNTERS - 1;
	ok = desc_check(&c, 4096) == LOOM_CQE_ST_OK;
	c.aux = LOOM_CTX_COUNTERS;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_COUNTER;
	c.opcode = LOOM_OP_NOP;
	c.length = 0;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_OK;
	tap_ok(ok, "desc_check: COUNTER_WAIT on a counter beyond LOOM_CTX_COUNTERS -> COUNTER; NOP ok");

	c = put(1, 0, 4000, 0, 96, 0, 0, 0);
	ok = desc_check(&c, 4096) == LOOM_CQE_ST_OK;
	c.length = 97;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_LOCAL_BOUNDS;
	c.local_off = 4097;
	c.length = 1;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_LOCAL_BOUNDS;
	c.local_off = UINT64_MAX - 10;
	c.length = 100;
	ok &= desc_check(&c, 4096) == LOOM_CQE_ST_LOCAL_BOUNDS;
	tap_ok(ok, "desc_check: local range must lie in the segment (edges, overflow)");
}

static void test_admin_check(void)
{
	struct hif_ctx_params p = {
		.cmdq = 0x1000, .cq = 0x2000, .seg = 0x10000, .seg_size = 0x1000,
		.cmdq_log2 = 4, .cq_log2 = 4, .vector = 1,
	};
	struct hif_ctx_params q;
	int ok = admin_check_ctx(&p, RAM_SIZE) == LOOM_ADMIN_E_OK;

	q = p; q.cmdq_log2 = 3; ok &= admin_check_ctx(&q, RAM_SIZE) == LOOM_ADMIN_E_BAD_RING;
	q = p; q.cq_log2 = 16; ok &= admin_check_ctx(&q, RAM_SIZE) == LOOM_ADMIN_E_BAD_RING;
	q = p; q.cmdq = 0x1020; ok &= admin_check_ctx(&q, RAM_SIZE) == LOOM_ADMIN_E_BAD_RING;
	q = p; q.cq = 0x2010; ok &= admin_check_ctx(&q, RAM_SIZE) == LOOM_ADMIN_E_BAD_RING;
	q = p; q.cmdq = RAM_SIZE - 512; ok &= admin_check_ctx(&q, RAM_SIZE) == LOOM_ADMIN_E_BAD_RING;
	q = p; q.cq = UINT64_MAX - 63; ok &= admin_check_ctx(&q, RAM_SIZE) == LOOM_ADMIN_E_BAD_RING;
	q = p; q.vector = LOOM_NUM_VECTORS; ok &= admin_check_ctx(&q, RAM_SIZE) == LOOM_ADMIN_E_BAD_RING;
	q = p; q.seg_size = 0; ok &= admin_check_ctx(&q, RAM_SIZE) == LOOM_ADMIN_E_BAD_SEGMENT;
	q = p; q.seg = RAM_SIZE - 0x800; ok &= admin_check_ctx(&q, RAM_SIZE) == LOOM_ADMIN_E_BAD_SEGMENT;
	q = p; q.seg = 8; q.seg_size = UINT64_MAX; ok &= admin_check_ctx(&q, RAM_SIZE) == LOOM_ADMIN_E_BAD_SEGMENT;
	tap_ok(ok, "admin_check_ctx: ring sizes, alignment, ranges (with overflow), vector, segment");
}

int main(void)
{
	struct card_params cp;
	const struct loom_cqe *e;
	struct loom_cmd c;
	char err[256];
	uint64_t end;
	int ok;

	tap_plan(31);
	test_desc_check();
	test_admin_check();

	/* a slow clock and a long ack timeout: the operation timeout in few cycles */
	card_params_default(&cp, 0, 2);
	cp.clock_khz = 1000;
	cp.op_timeout_ms = OP_TIMEOUT_MS;
	cp.link.ack_timeout = 100000;
	if (ls_init(&ls, 2, 2, RAM_SIZE, &cp, err, sizeof(err)) ||
	    ls_cable(&ls, 0, 1, 1, 0, 1, err, sizeof(err)) || !ls_train(&ls, 1000000)) {
		tap_diag("%s", err);
		tap_skip_all("cannot set up an in-memory card");
	}
	ls.wire[0].tamper = tamper;
	regs = ls.c[0]->regs;
	ram = ls.c[0]->ram;
	card_set_route(C0, 1, 0);	/* node 1 via port 0, which is down */

	tap_ok(ctx0_enable() == LOOM_ADMIN_E_OK && rd(card_ctx_reg(0, LOOM_CTXR_STATE)) == LOOM_CTX_ST_RUNNING,
	       "CTX_ENABLE: context 0 running");
	tap_ok(admin(LOOM_ADMIN_CMD_CTX_ENABLE, 0) == LOOM_ADMIN_E_BUSY &&
	       admin(LOOM_ADMIN_CMD_CTX_ENABLE, CARD_N_CTX) == LOOM_ADMIN_E_BAD_CTX &&
	       admin(77, 0) == LOOM_ADMIN_E_UNKNOWN_CMD,
	       "admin: enabling twice BUSY, index out of range BAD_CTX, unknown command");
	ctx_record(1, CMDQ, CQ, RAM_SIZE - 0x1000, 0x2000, 4, 4, 0, 1);
	tap_ok(admin(LOOM_ADMIN_CMD_CTX_ENABLE, 1) == LOOM_ADMIN_E_BAD_SEGMENT &&
	       rd(card_ctx_reg(1, LOOM_CTXR_STATE)) == LOOM_CTX_ST_DISABLED,
	       "CTX_ENABLE with a segment past guest RAM: BAD_SEGMENT, stays disabled");

	c = put(0, 0, 0, 0, 1, KEY, LOOM_CMD_F_SIGNAL, 1);
	c.opcode = 42;
	ok = one_local(&c, LOOM_CQE_ST_BAD_DESC);
	c = put(0, 0, 0, 0, 8, KEY, LOOM_CMD_F_SIGNAL | 0x80, 2);
	ok &= one_local(&c, LOOM_CQE_ST_BAD_DESC);
	c = put(0, 0, 0, 0, 0, KEY, LOOM_CMD_F_SIGNAL, 3);
	ok &= one_local(&c, LOOM_CQE_ST_BAD_DESC);
	tap_ok(ok, "bad opcode, unknown flag, empty put: BAD_DESC completions");
	c = put(0, 0, 0, 4, 8, KEY, LOOM_CMD_F_SIGNAL, 4);
	c.opcode = LOOM_OP_ATOMIC;
	c.aux = LOOM_AMO_FETCH_ADD;
	ok = one_local(&c, LOOM_CQE_ST_BAD_DESC);
	c.opcode = LOOM_OP_GET;
	c.length = 0;
	c.tag = 5;
	ok &= one_local(&c, LOOM_CQE_ST_BAD_DESC);
	tap_ok(ok, "misaligned ATOMIC and empty GET: BAD_DESC completions");
	c = put(0, 0, SEG_SIZE - 10, 0, 11, KEY, LOOM_CMD_F_SIGNAL, 6);
	tap_ok(one_local(&c, LOOM_CQE_ST_LOCAL_BOUNDS), "local range past the segment: LOCAL_BOUNDS");
	tap_ok(rd(card_ctx_reg(0, LOOM_CTXR_STATE)) == LOOM_CTX_ST_RUNNING &&
	       rd(card_ctx_reg(0, LOOM_CTXR_CMD_CI)) == pi,
	       "after bad descriptors the context still runs and consumed all %u", pi);

	/* put to self: 1000 bytes from offset 0 to offset 0x8000 with an arrival */
	for (unsigned int i = 0; i < 1000; i++)
		ram[SEG + i] = (uint8_t)(i * 7 + 1);
	c = put(0, 0, 0, 0x8000, 1000, KEY, LOOM_CMD_F_SIGNAL | LOOM_CMD_F_REMOTE_CQE, 7);
	submit(&c);
	{
		int local = 0, arrival = 0;

		while ((e = reap())) {
			if (e->kind == LOOM_CQE_LOCAL && e->tag == 7 && e->status == 0 && e->value == 1000 &&
			    e->src_node == 0 && e->src_ctx == 0)
				local++;
			else if (e->kind == LOOM_CQE_ARRIVAL && e->tag == 0x8000 && e->value == 1000 &&
				 e->src_node == 0 && e->src_ctx == 0 && e->status == 0)
				arrival++;
			else
				tap_diag("unexpected kind %u tag 0x%llx", e->kind, (unsigned long long)e->tag);
		}
		tap_ok(local == 1 && arrival == 1 && !memcmp(ram + SEG, ram + SEG + 0x8000, 1000),
		       "put to self: data copied, one LOCAL (1000 bytes) and one ARRIVAL (tag = remote offset)");
	}

	/* the descriptor's key means nothing: the put carries context 0's */
	c = put(0, 0, 0, 0xa000, 100, KEY ^ 1, LOOM_CMD_F_SIGNAL, 20);
	tap_ok(one_local(&c, LOOM_CQE_ST_OK) && !memcmp(ram + SEG, ram + SEG + 0xa000, 100),
	       "a put to my own partition with another key in the descriptor lands: the key field is ignored");
	test_partition();

	memset(ram + SEG + 0x9000, 0x5a, 0x1000);
	c = put(0, 0, 0, SEG_SIZE - 100, 600, KEY, LOOM_CMD_F_SIGNAL, 9);
	ok = one_local(&c, LOOM_CQE_ST_REMOTE_BOUNDS);
	c = put(0, 0, 0, UINT64_MAX - 100, 600, KEY, LOOM_CMD_F_SIGNAL, 10);
	ok &= one_local(&c, LOOM_CQE_ST_REMOTE_BOUNDS);
	{
		int untouched = 1;

		for (unsigned int i = 0; i < 0x1000; i++)
			untouched &= ram[SEG + 0x9000 + i] == 0x5a;
		for (unsigned int i = SEG_SIZE - 100; i < SEG_SIZE; i++)
			untouched &= ram[SEG + i] == 0;
		tap_ok(ok && untouched, "beyond the segment: REMOTE_BOUNDS; nothing written");
	}
	c = put(0, 5, 0, 0, 10, KEY, LOOM_CMD_F_SIGNAL, 11);
	tap_ok(one_local(&c, LOOM_CQE_ST_NO_CTX), "put to a disabled context: NO_CTX");
	c = put(2, 0, 0, 0, 10, KEY, LOOM_CMD_F_SIGNAL, 12);
	tap_ok(one_local(&c, LOOM_CQE_ST_UNREACHABLE), "put to a node without a route: UNREACHABLE");
	c = put(1, 0, 0, 0, 10, KEY, LOOM_CMD_F_SIGNAL, 13);
	tap_ok(one_local(&c, LOOM_CQE_ST_LINK), "put routed to a port that is down: LINK");

	c = put(0, 0, 0, 0x100, 10, KEY, 0, 14);
	submit(&c);
	c = (struct loom_cmd){ .opcode = LOOM_OP_NOP, .flags = LOOM_CMD_F_SIGNAL, .tag = 15 };
	submit(&c);
	e = reap();
	tap_ok(e && e->tag == 15 && !reap(), "a put without SIGNAL completes silently; the NOP after it signals");

	/* completion back-pressure: 16-entry ring, 20 signalled NOPs, nothing reaped */
	for (unsigned int i = 0; i < 20; i++) {
		c = (struct loom_cmd){ .opcode = LOOM_OP_NOP, .flags = LOOM_CMD_F_SIGNAL, .tag = 100 + i };
		if (i == 16) {	/* the command ring holds 16: let the card consume first */
			card_service(C0);
	settle();
		}
		submit(&c);
	}
	{
		uint32_t start = ci, seen = 0;
		int order = 1;

		/* the ring is full: the card must hold the rest */
		for (unsigned int i = 0; i < 16; i++) {
			struct loom_cqe raw;

			memcpy(&raw, ram + CQ + ((start + i) & 15) * LOOM_CQE_SIZE, sizeof(raw));
			if ((raw.flags & LOOM_CQE_PHASE) == loom_cq_phase(start + i, 4))
				seen++;
		}
		tap_ok(seen == 16 && C0->stalled, "completion ring full: 16 entries posted, the rest held (stalled)");
		for (unsigned int i = 0; i < 20; i++) {
			e = reap();
			if (!e) {
				card_service(C0);
	settle();
				e = reap();
			}
			if (!e || e->tag != 100 + i)
				order = 0;
		}
		tap_ok(order && !reap(), "after the consumer index advances all 20 arrive in order, none lost");
	}

	/* forward progress: packets that are never acknowledged */
	swallow = true;
	card_set_route(C0, 3, 1);
	c = put(3, 0, 0, 0, 1000, KEY, LOOM_CMD_F_SIGNAL, 16);
	end = C0->now + card_ms_cycles(C0, OP_TIMEOUT_MS - 1);
	submit(&c);
	ls_run(&ls, end - C0->now, false);
	card_service(C0);
	ok = swallowed >= 4 && !reap();
	ls_run(&ls, card_ms_cycles(C0, 2), false);
	card_service(C0);
	settle();
	e = reap();
	if (!ok || !e || e->tag != 16 || e->status != LOOM_CQE_ST_LINK)
		tap_diag("before the timeout: %s; after it: %s tag %llu status %u",
			 ok ? "nothing" : "a completion", e ? "completion" : "none",
			 e ? (unsigned long long)e->tag : 0ull, e ? e->status : 0);
	tap_ok(ok && e && e->tag == 16 && e->status == LOOM_CQE_ST_LINK && e->value == 0 && !reap(),
	       "a put whose packets are never acked (%u DATA frames lost) fails with LINK after %u ms (its op_timeout_ms), not before",
	       swallowed, OP_TIMEOUT_MS);
	c = put(3, 0, 0, 0, 300, KEY, LOOM_CMD_F_SIGNAL, 17);
	submit(&c);
	ok = !reap();
	link_wire_cut(&ls.wire[0]);
	ls_run(&ls, 100, false);
	e = reap();
	tap_ok(ok && e && e->tag == 17 && e->status == LOOM_CQE_ST_LINK && !reap(),
	       "when the port goes down, its operations in flight fail with LINK at once");
	c = put(0, 0, 0, 0x100, 10, KEY, LOOM_CMD_F_SIGNAL, 18);
	tap_ok(one_local(&c, LOOM_CQE_ST_OK), "and the context keeps working");

	/* disable, then a runaway producer index faults the context */
	tap_ok(admin(LOOM_ADMIN_CMD_CTX_DISABLE, 0) == LOOM_ADMIN_E_OK &&
	       rd(card_ctx_reg(0, LOOM_CTXR_STATE)) == LOOM_CTX_ST_DISABLED,
	       "CTX_DISABLE: state DISABLED");
	ctx0_enable();
	wr(card_db_reg(0, LOOM_DB_CMD_PI), 17);
	card_service(C0);
	settle();
	tap_ok(rd(card_ctx_reg(0, LOOM_CTXR_STATE)) == LOOM_CTX_ST_FAULTED &&
	       rd(card_ctx_reg(0, LOOM_CTXR_ERROR)) == LOOM_CQE_ST_BAD_DESC &&
	       (e = reap()) && e->status == LOOM_CQE_ST_BAD_DESC,
	       "producer index more than a ring ahead: FAULTED, ERROR set, one error completion");
	tap_ok(admin(LOOM_ADMIN_CMD_RESET, 0) == LOOM_ADMIN_E_OK &&
	       rd(card_ctx_reg(0, LOOM_CTXR_STATE)) == LOOM_CTX_ST_DISABLED && ctx0_enable() == LOOM_ADMIN_E_OK,
	       "RESET clears the fault; the context can be enabled again");
	card_reset(C0);
	ls_free(&ls);
	return tap_exit_status();
}
