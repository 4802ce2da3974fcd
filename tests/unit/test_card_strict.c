// SPDX-License-Identifier: GPL-2.0
/*
 * Strict register checking in memory: the access map (write-only
 * doorbells, read-only status, read-write configuration), write-only
 * registers consumed and replaced by poison (never by a value software
 * may write next), read-only registers that software overwrote counted,
 * logged and restored, the card's own writes never counted, and without
 * --strict-registers nothing of it.
 */
#include "card.h"
#include "strict_regs.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TAP_DEFINE;

#define RAM_SIZE	(4u << 20)
#define CMDQ		0x100000u
#define CQ		0x110000u
#define SEG		0x200000u

static struct card card;
static struct guest_mem gm;
static uint8_t *regs, *ram;

static void wr(uint32_t off, uint32_t v) { memcpy(regs + off, &v, 4); }
static uint32_t rd(uint32_t off) { uint32_t v; memcpy(&v, regs + off, 4); return v; }

/* context 0 with 16-entry rings, started as CTX_ENABLE would */
static bool ctx0_enable(void)
{
	const struct hif_ctx_params p = {
		.cmdq = CMDQ, .cq = CQ, .seg = SEG, .seg_size = 0x10000,
		.cmdq_log2 = 4, .cq_log2 = 4, .vector = LOOM_VEC_CQ,
	};

	return hif_ctx_start(&card, 0, &p);
}

/* Run the check with the card's log captured; returns what it found. */
static unsigned int check_logged(char *log, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(2);
	unsigned int n;
	size_t got;

	fflush(stderr);
	dup2(fileno(tmp), 2);
	n = strict_regs_check(&card);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	got = fread(log, 1, len - 1, tmp);
	log[got] = 0;
	fclose(tmp);
	return n;
}

static void test_map(void)
{
	bool ok;

	ok = strict_regs_access(card_db_reg(3, LOOM_DB_CMD_PI)) == STRICT_WO &&
	     strict_regs_access(card_db_reg(3, LOOM_DB_CQ_CI)) == STRICT_WO &&
	     strict_regs_access(card_db_reg(3, LOOM_DB_CQ_CI_SEEN)) == STRICT_RO &&
	     strict_regs_access(card_db_reg(3, 0x100)) == STRICT_RESERVED;
	tap_ok(ok, "map: doorbell page CMD_PI and CQ_CI write-only, CQ_CI_SEEN read-only, the rest reserved");
	ok = strict_regs_access(card_ctx_reg(5, LOOM_CTXR_STATE)) == STRICT_RO &&
	     strict_regs_access(card_ctx_reg(5, LOOM_CTXR_ERROR)) == STRICT_RO &&
	     strict_regs_access(card_ctx_reg(5, LOOM_CTXR_CMD_CI)) == STRICT_RO &&
	     strict_regs_access(card_ctx_reg(5, LOOM_CTXR_KEY)) == STRICT_RW &&
	     strict_regs_access(card_ctx_reg(5, LOOM_CTXR_RINGS)) == STRICT_RW &&
	     strict_regs_access(card_port_reg(2, LOOM_PORT_STATUS)) == STRICT_RO &&
	     strict_regs_access(card_port_reg(2, LOOM_PORT_CTRL)) == STRICT_RW &&
	     strict_regs_access(CARD_OFF_ADMIN + LOOM_ADMIN_SEQ) == STRICT_RW &&
	     strict_regs_access(CARD_OFF_ADMIN + LOOM_ADMIN_ACK) == STRICT_RO &&
	     strict_regs_access(CARD_OFF_ROUTER + LOOM_ROUTER_NODE_ID) == STRICT_RO &&
	     strict_regs_access(CARD_OFF_ROUTER + LOOM_ROUTER_RT + 80) == STRICT_RW &&
	     strict_regs_access(CARD_OFF_COUNTERS + LOOM_CNT_DROP_KEY) == STRICT_RO &&
	     strict_regs_access(CARD_OFF_BSU + LOOM_BSU_OWNED) == STRICT_RW &&
	     strict_regs_access(CARD_OFF_BSU + LOOM_BSU_KEY_BASE + 8) == STRICT_RW &&
	     strict_regs_access(CARD_OFF_BSU + LOOM_BSU_TREE_BASE + LOOM_BSUT_ARRIVED) == STRICT_RO &&
	     strict_regs_access(CARD_BSU_AREA + 4096 + LOOM_BSUP_OP) == STRICT_RW &&
	     strict_regs_access(CARD_BSU_AREA + 4096 + LOOM_BSUP_REFUSED) == STRICT_RO &&
	     strict_regs_access(CARD_OFF_MAINT + LOOM_MAINT_REQ_SEQ) == STRICT_RW &&
	     strict_regs_access(CARD_OFF_MAINT + LOOM_MAINT_RESP_PI) == STRICT_RO &&
	     strict_regs_access(CARD_OFF_FWID + LOOM_FWID_MAGIC) == STRICT_RO &&
	     strict_regs_access(CARD_OFF_VCT + LOOM_BLK_TYPE) == STRICT_RO;
	tap_ok(ok, "map: context, port, admin, router, counters, BSU, maintenance and FWID registers as regs.h says");
	{
		static const struct { uint32_t off; const char *name; } names[] = {
			{ CARD_OFF_CTX + LOOM_CTX_BASE + 3 * LOOM_CTX_REC_SIZE + LOOM_CTXR_STATE,
			  "CTX 3 +0x2c" },
			{ CARD_OFF_PORTS + LOOM_PORTS_BASE + 2 * LOOM_PORT_REC_SIZE + LOOM_PORT_CTRL,
			  "PORTS port 2 +0x3c" },
			{ CARD_OFF_COUNTERS + LOOM_CNT_DROP_KEY, "COUNTERS +0x020" },
			{ CARD_OFF_BSU + LOOM_BSU_KEY_BASE + 8, "BSU +0x248" },
			{ CARD_OFF_BSU + LOOM_BSU_TREE_BASE + 31 * LOOM_BSU_TREE_SIZE + 8, "BSU tree 31 +0x08" },
			{ CARD_DB_AREA + 5 * LOOM_DB_PAGE_SIZE + LOOM_DB_CQ_CI, "doorbell page 5 +0x04" },
		};
		char got[48];

		ok = true;
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			strict_regs_name(names[i].off, got, sizeof(got));
			if (strcmp(got, names[i].name)) {
				tap_diag("register 0x%05x is named \"%s\", want \"%s\"", names[i].off, got,
					 names[i].name);
				ok = false;
			}
		}
		tap_ok(ok, "names in the log say block, record and offset");
	}
}

static void test_wo(void)
{
	uint32_t pi_reg = card_db_reg(0, LOOM_DB_CMD_PI), ci_reg = card_db_reg(0, LOOM_DB_CQ_CI);
	struct loom_cmd nop = { .opcode = LOOM_OP_NOP, .flags = LOOM_CMD_F_SIGNAL, .tag = 0x77 };
	struct loom_cqe e;
	uint32_t taken = 0, spare = card_db_reg(9, LOOM_DB_CMD_PI);

	memcpy(ram + CMDQ, &nop, sizeof(nop));
	wr(pi_reg, 1);
	card_service(&card);
	memcpy(&e, ram + CQ, sizeof(e));
	tap_ok(e.tag == 0x77 && (e.flags & LOOM_CQE_PHASE) && rd(pi_reg) == LOOM_REG_POISON,
	       "CMD_PI: the card took 1 (the NOP completed) and left poison 0x%08x: read back 0x%08x",
	       LOOM_REG_POISON, rd(pi_reg));
	wr(ci_reg, 1);
	card_service(&card);
	tap_ok(rd(ci_reg) == LOOM_REG_POISON && rd(card_db_reg(0, LOOM_DB_CQ_CI_SEEN)) == 1,
	       "CQ_CI: taken without a kick, poisoned (0x%08x), and shown in CQ_CI_SEEN (%u)",
	       rd(ci_reg), rd(card_db_reg(0, LOOM_DB_CQ_CI_SEEN)));
	/* a second NOP: the card sees the write over its poison */
	memcpy(ram + CMDQ + LOOM_CMD_SIZE, &nop, sizeof(nop));
	wr(pi_reg, 2);
	card_service(&card);
	memcpy(&e, ram + CQ + LOOM_CQE_SIZE, sizeof(e));
	tap_ok(e.tag == 0x77 && (e.flags & LOOM_CQE_PHASE) && rd(pi_reg) == LOOM_REG_POISON &&
	       rd(card_ctx_reg(0, LOOM_CTXR_CMD_CI)) == 2,
	       "a new CMD_PI over the poison is taken: 2 commands consumed");

	/* near the poison value the other poison is used */
	wr(spare, LOOM_REG_POISON - 5);
	{
		bool fresh = strict_take_wo(&card, spare, &taken);
		bool again = strict_take_wo(&card, spare, &taken);

		tap_ok(fresh && !again && taken == LOOM_REG_POISON - 5 && rd(spare) == LOOM_REG_POISON_ALT,
		       "a value within 2^16 of the poison is replaced by the other poison (0x%08x); taking again finds nothing new",
		       rd(spare));
	}
	wr(spare, LOOM_REG_POISON_ALT + 3);
	tap_ok(strict_take_wo(&card, spare, &taken) && taken == LOOM_REG_POISON_ALT + 3 &&
	       rd(spare) == LOOM_REG_POISON,
	       "and the other way round: a value next to the second poison gets the first");
}

static void test_ro(void)
{
	char log[2048];
	unsigned int n;
	bool ok;

	n = check_logged(log, sizeof(log));
	tap_ok(n == 0 && !card.strict.violations && !card.strict.user_writes && !log[0],
	       "the card's own writes (status, counters, completions) are never counted: %u found", n);
	wr(card_ctx_reg(0, LOOM_CTXR_STATE), 7);
	wr(CARD_OFF_COUNTERS + LOOM_CNT_DROP_KEY, 99);
	wr(card_port_reg(1, LOOM_PORT_CTRL), LOOM_PORT_CTRL_DISABLE);	/* RW: fine */
	wr(card_db_reg(0, 0x200), 5);					/* reserved: fine */
	n = check_logged(log, sizeof(log));
	ok = n == 2 && card.strict.violations == 2 && !card.strict.user_writes &&
	     rd(card_ctx_reg(0, LOOM_CTXR_STATE)) == LOOM_CTX_ST_RUNNING &&
	     rd(CARD_OFF_COUNTERS + LOOM_CNT_DROP_KEY) == 0 &&
	     strstr(log, "strict-registers: violation: software wrote 0x00000007 to read-only register") &&
	     strstr(log, "(CTX 0 +0x2c)");
	tap_ok(ok, "driver writes to read-only STATE and a counter: 2 violations, logged, both restored; RW and reserved writes not counted");
	if (!ok)
		tap_diag("found %u, violations %llu, log: %s", n,
			 (unsigned long long)card.strict.violations, log);
	wr(card_db_reg(0, LOOM_DB_CQ_CI_SEEN), 12345);
	n = check_logged(log, sizeof(log));
	ok = n == 1 && card.strict.violations == 2 && card.strict.user_writes == 1 &&
	     rd(card_db_reg(0, LOOM_DB_CQ_CI_SEEN)) == 1 && strstr(log, "of a page it maps") &&
	     !strstr(log, "violation");
	tap_ok(ok, "a process writing CQ_CI_SEEN of its own page: counted apart (not a driver violation), restored");
	if (!ok)
		tap_diag("found %u, user writes %llu, log: %s", n,
			 (unsigned long long)card.strict.user_writes, log);
}

int main(void)
{
	struct card_params p;
	char err[256];
	uint32_t ci_reg;

	tap_plan(13);
	regs = calloc(1, LOOM_LAB_SHM_SIZE);
	ram = calloc(1, RAM_SIZE);
	guest_mem_attach(&gm, ram, RAM_SIZE);
	card_params_default(&p, 0, 2);	/* node 0, two ports without cables */
	if (!regs || !ram)
		tap_skip_all("out of memory for an in-memory card");
	if (!card_init(&card, regs, LOOM_LAB_SHM_SIZE, &p, &gm, err, sizeof(err))) {
		tap_diag("card_init: %s", err);
		abort();
	}

	/* without --strict-registers a doorbell reads back what was written */
	ctx0_enable();
	ci_reg = card_db_reg(0, LOOM_DB_CQ_CI);
	wr(ci_reg, 0);
	card_service(&card);
	tap_ok(rd(ci_reg) == 0 && !card.strict.shadow && strict_regs_check(&card) == 0,
	       "without strict checking nothing is poisoned or checked");
	hif_ctx_stop(&card, 0);

	if (!strict_regs_enable(&card))
		tap_skip_all("out of memory for the strict register shadow");
	tap_ok(card.strict.n_ro > 100, "strict checking on: %u read-only ranges", card.strict.n_ro);
	test_map();
	ctx0_enable();
	test_wo();
	test_ro();
	strict_regs_disable(&card);
	card_reset(&card);
	card_free(&card);
	free(regs);
	free(ram);
	return tap_exit_status();
}
