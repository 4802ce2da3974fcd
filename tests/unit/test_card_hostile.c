// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile mode of the card (fpga_bitstreams/hostif/hostile.c), in memory: a card
 * over a calloc'd register window and "guest RAM" with a context running,
 * service rounds on a card clock the test advances.  The same seed draws
 * the same misbehaviours and another seed others; every kind happens; a
 * stopped hostile mode leaves every register as it was; an admin command
 * is never answered OK unless the card executed it; the control socket's
 * one-shot refusal and ignore, and its 'hostile' command.  All under
 * ASan/UBSan, so the card survives its own hostility.
 */
#include "admin.h"
#include "card.h"
#include "ctl.h"
#include "hostile.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

TAP_DEFINE;

#define REGS_SIZE	LOOM_LAB_SHM_SIZE
#define RAM_SIZE	(8u << 20)
#define CMDQ		0x100000u
#define CQ		0x110000u
#define SEG		0x200000u
#define SEG_SIZE	0x10000u
#define COUNTERS	0x300000u

static struct card card;
static struct hostile hostile;
static struct guest_mem gm;
static uint8_t *regs, *ram;
static uint32_t seq;		/* the "driver's" admin sequence number */

static void wr(uint32_t off, uint32_t v) { memcpy(regs + off, &v, 4); }
static uint32_t rd(uint32_t off) { uint32_t v; memcpy(&v, regs + off, 4); return v; }

/* one service round, hostile mode around it, 1 ms of card time later */
/* Let @ms of card time pass: the card steps where it has work, skips the rest. */
static void advance_ms(unsigned int ms)
{
	uint64_t target = card.now + card_ms_cycles(&card, ms);

	while (card.now < target) {
		uint64_t next = card_next_event(&card);

		if (next >= target) {
			card_skip_to(&card, target);
			break;
		}
		card_skip_to(&card, next);
		card_step(&card);
	}
}

static void round1(void)
{
	advance_ms(1);
	hostile_before(&hostile, &card);
	card_service(&card);
	hostile_after(&hostile, &card);
	card.vectors_pending = 0;
	card.more_work = false;
}

/* post an admin command as a driver does; the sequence number it used */
static uint32_t admin_post(uint32_t cmd, uint32_t arg0)
{
	if (!++seq)
		++seq;
	wr(CARD_OFF_ADMIN + LOOM_ADMIN_CMD, cmd);
	wr(CARD_OFF_ADMIN + LOOM_ADMIN_ARG0, arg0);
	wr(CARD_OFF_ADMIN + LOOM_ADMIN_SEQ, seq);
	return seq;
}

/* run rounds until @s is acknowledged (its result) or @ms pass (~0u) */
static uint32_t admin_wait(uint32_t s, unsigned int ms)
{
	for (unsigned int i = 0; i < ms; i++) {
		round1();
		if (rd(CARD_OFF_ADMIN + LOOM_ADMIN_ACK) == s)
			return rd(CARD_OFF_ADMIN + LOOM_ADMIN_RESULT);
	}
	return ~0u;
}

static void ctx0_record(void)
{
	wr(card_ctx_reg(0, LOOM_CTXR_CMDQ_LO), CMDQ);
	wr(card_ctx_reg(0, LOOM_CTXR_CQ_LO), CQ);
	wr(card_ctx_reg(0, LOOM_CTXR_SEG_LO), SEG);
	wr(card_ctx_reg(0, LOOM_CTXR_SEG_SIZE_LO), SEG_SIZE);
	wr(card_ctx_reg(0, LOOM_CTXR_RINGS), 4 | 4 << 8);
	wr(card_ctx_reg(0, LOOM_CTXR_VECTOR), LOOM_VEC_CQ);
	wr(card_ctx_reg(0, LOOM_CTXR_CNT_LO), COUNTERS);
}

/* a fresh card with context 0 running, hostile mode off */
static void setup(void)
{
	struct card_params p;
	char err[256];

	if (card.regs) {
		for (unsigned int i = 0; i < card.n_ctx; i++)
			hif_ctx_stop(&card, i);
		card_free(&card);
	}
	memset(regs, 0, REGS_SIZE);
	memset(ram, 0, RAM_SIZE);
	memset(&hostile, 0, sizeof(hostile));
	card_params_default(&p, 3, 2);	/* node 3, two ports without cables */
	if (!card_init(&card, regs, REGS_SIZE, &p, &gm, err, sizeof(err))) {
		tap_diag("card_init: %s", err);
		abort();
	}
	card.hostile = &hostile;
	advance_ms(1000);
	seq = 0;
	ctx0_record();
	if (admin_wait(admin_post(LOOM_ADMIN_CMD_CTX_ENABLE, 0), 10) != LOOM_ADMIN_E_OK)
		abort();
}

/*
 * @ms of card time under hostile mode with @seed and @kinds, a NOP every
 * 50 ms (so admin misbehaviours have commands to hit) and context 0
 * enabled again whenever it is not running.
 */
static void run_hostile(uint64_t seed, unsigned int kinds, unsigned int ms)
{
	hostile_start(&hostile, &card, seed, kinds);
	for (unsigned int t = 0; t < ms; t++) {
		if (t % 50 == 0 && rd(CARD_OFF_ADMIN + LOOM_ADMIN_SEQ) ==
				   rd(CARD_OFF_ADMIN + LOOM_ADMIN_ACK)) {
			if (card.ctx[0].state != LOOM_CTX_ST_RUNNING) {
				ctx0_record();
				admin_post(LOOM_ADMIN_CMD_CTX_ENABLE, 0);
			} else {
				admin_post(LOOM_ADMIN_CMD_NOP, 0);
			}
		}
		round1();
	}
}

struct outcome {
	uint64_t count[HOSTILE_N_KINDS];
	uint64_t skipped;
	unsigned int n_trace;
	struct hostile_event trace[HOSTILE_TRACE];
};

static struct outcome outcome_of(uint64_t seed, unsigned int kinds, unsigned int ms)
{
	struct outcome o;

	setup();
	run_hostile(seed, kinds, ms);
	hostile_stop(&hostile, &card);
	memcpy(o.count, hostile.count, sizeof(o.count));
	o.skipped = hostile.skipped;
	o.n_trace = hostile.n_trace;
	memcpy(o.trace, hostile.trace, sizeof(o.trace));
	return o;
}

static void show(const char *what, const struct outcome *o)
{
	char line[512];
	int n = snprintf(line, sizeof(line), "%s: %u events, skipped %llu:", what, o->n_trace,
			 (unsigned long long)o->skipped);

	for (unsigned int k = 0; k < HOSTILE_N_KINDS && n > 0 && (size_t)n < sizeof(line); k++)
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %s %llu", hostile_kind_name(k),
			      (unsigned long long)o->count[k]);
	tap_diag("%s", line);
}

static void test_seeds(void)
{
	struct outcome a = outcome_of(42, HOSTILE_ALL_KINDS, 20000);
	struct outcome b = outcome_of(42, HOSTILE_ALL_KINDS, 20000);
	struct outcome c = outcome_of(43, HOSTILE_ALL_KINDS, 20000);
	bool all = true;

	show("seed 42", &a);
	show("seed 42 again", &b);
	show("seed 43", &c);
	tap_ok(a.n_trace > 50 && !memcmp(&a, &b, sizeof(a)),
	       "the same seed draws the same misbehaviours (%u and %u events)", a.n_trace, b.n_trace);
	tap_ok(memcmp(&a, &c, sizeof(a)) != 0, "another seed draws other misbehaviours");
	for (unsigned int k = 0; k < HOSTILE_N_KINDS; k++) {
		if (!a.count[k]) {
			tap_diag("seed 42 never did '%s'", hostile_kind_name(k));
			all = false;
		}
	}
	tap_ok(all, "every kind of misbehaviour happens in 20 s of card time");
}

/* registers only, no activity: stopping restores the window exactly */
static void test_restore(void)
{
	uint8_t *before = malloc(REGS_SIZE);
	unsigned int diffs = 0, patched = 0, k;

	setup();
	memcpy(before, regs, REGS_SIZE);
	hostile_start(&hostile, &card, 7, 1u << HOSTILE_REGISTER);
	for (k = 0; k < 20000; k++) {
		round1();
		for (unsigned int i = 0; i < HOSTILE_PATCHES; i++)
			patched += hostile.patch[i].used;
	}
	hostile_stop(&hostile, &card);
	for (uint32_t off = 0; off < REGS_SIZE; off += 4) {
		if (rd(off) == *(uint32_t *)(void *)(before + off))
			continue;
		if (diffs++ < 8)
			tap_diag("register 0x%x: 0x%x before, 0x%x after", off,
				 *(uint32_t *)(void *)(before + off), rd(off));
	}
	tap_diag("%llu registers made bad; %u patch-rounds", (unsigned long long)hostile.count[0],
		 patched);
	tap_ok(hostile.count[HOSTILE_REGISTER] > 50 && patched && !diffs,
	       "after 'hostile off' every register reads what it read before (%u differ)", diffs);
	free(before);
}

/*
 * admin misbehaviours only: CTX_DISABLE of a running context, again and
 * again; an OK answer always means the context stopped.
 */
static void test_admin_truth(void)
{
	unsigned int ok = 0, refused = 0, silent = 0, lies = 0;

	setup();
	hostile_start(&hostile, &card, 99, 1u << HOSTILE_ADMIN);
	for (unsigned int i = 0; i < 400; i++) {
		uint32_t s, r;

		if (card.ctx[0].state != LOOM_CTX_ST_RUNNING) {
			ctx0_record();
			admin_wait(admin_post(LOOM_ADMIN_CMD_CTX_ENABLE, 0), 1000);
			if (card.ctx[0].state != LOOM_CTX_ST_RUNNING)
				continue;
		}
		s = admin_post(LOOM_ADMIN_CMD_CTX_DISABLE, 0);
		r = admin_wait(s, 1000);
		if (r == ~0u) {
			silent++;
		} else if (r == LOOM_ADMIN_E_OK) {
			ok++;
			if (card.ctx[0].state != LOOM_CTX_ST_DISABLED)
				lies++;
		} else {
			refused++;
		}
		/* the card's clock moves on, so misbehaviours come due */
		for (unsigned int t = 0; t < 100; t++)
			round1();
	}
	hostile_stop(&hostile, &card);
	tap_diag("CTX_DISABLE: %u OK, %u refused, %u unanswered; %llu misbehaviours armed", ok,
		 refused, silent, (unsigned long long)hostile.count[HOSTILE_ADMIN]);
	tap_ok(!lies && ok && refused && silent,
	       "an admin command answered OK was executed (%u OK answers for a running context)",
	       lies);
}

static void test_once(void)
{
	uint32_t r;

	setup();
	hostile_admin_once(&hostile, LOOM_ADMIN_CMD_CTX_DISABLE, HOSTILE_ADMIN_REFUSE, 77);
	r = admin_wait(admin_post(LOOM_ADMIN_CMD_NOP, 0), 10);
	tap_ok(r == LOOM_ADMIN_E_OK, "a one-shot refusal of CTX_DISABLE leaves a NOP alone (%u)", r);
	r = admin_wait(admin_post(LOOM_ADMIN_CMD_CTX_DISABLE, 0), 10);
	tap_ok(r == 77 && card.ctx[0].state == LOOM_CTX_ST_RUNNING,
	       "the next CTX_DISABLE is answered 77 and not executed (result %u, state %u)", r,
	       card.ctx[0].state);
	r = admin_wait(admin_post(LOOM_ADMIN_CMD_CTX_DISABLE, 0), 10);
	tap_ok(r == LOOM_ADMIN_E_OK && card.ctx[0].state == LOOM_CTX_ST_DISABLED,
	       "only once: the one after is executed (result %u, state %u)", r, card.ctx[0].state);
	hostile_admin_once(&hostile, LOOM_ADMIN_CMD_RESET, HOSTILE_ADMIN_IGNORE, 0);
	r = admin_wait(admin_post(LOOM_ADMIN_CMD_RESET, 0), 500);
	tap_ok(r == ~0u, "an ignored RESET is never acknowledged");
	r = admin_wait(admin_post(LOOM_ADMIN_CMD_NOP, 0), 10);
	tap_ok(r == LOOM_ADMIN_E_OK, "the command after it is (%u)", r);
	ctx0_record();
	hostile_admin_once(&hostile, LOOM_ADMIN_CMD_CTX_ENABLE, HOSTILE_ADMIN_LIE, 5);
	r = admin_wait(admin_post(LOOM_ADMIN_CMD_CTX_ENABLE, 0), 10);
	tap_ok(r == 5 && card.ctx[0].state == LOOM_CTX_ST_RUNNING,
	       "a lie: CTX_ENABLE executed and answered 5 (result %u, state %u)", r,
	       card.ctx[0].state);
}

static void test_ctl(void)
{
	static struct port_set ps;
	char out[CTL_REPLY_MAX];

	setup();
	ps.port[0].card = &card;
	ctl_execute(&ps, NULL, "hostile 5", out, sizeof(out));
	tap_ok(!strcmp(out, "ok hostile on seed 5") && hostile.on, "'hostile 5': %s", out);
	ctl_execute(&ps, NULL, "hostile", out, sizeof(out));
	tap_ok(!strncmp(out, "ok hostile on seed 5:", 21), "'hostile' reports: %s", out);
	ctl_execute(&ps, NULL, "hostile off", out, sizeof(out));
	tap_ok(!strcmp(out, "ok hostile off") && !hostile.on, "'hostile off': %s", out);
	ctl_execute(&ps, NULL, "hostile refuse ctx_enable 4", out, sizeof(out));
	tap_ok(!strncmp(out, "ok ", 3) && hostile.once && hostile.once_cmd == 2 &&
	       hostile.once_result == 4, "'hostile refuse ctx_enable 4': %s", out);
	ctl_execute(&ps, NULL, "hostile ignore 3", out, sizeof(out));
	tap_ok(!strncmp(out, "ok ", 3) && hostile.once_cmd == 3 &&
	       hostile.once_what == HOSTILE_ADMIN_IGNORE, "'hostile ignore 3': %s", out);
	ctl_execute(&ps, NULL, "hostile refuse launch 1", out, sizeof(out));
	tap_ok(!strncmp(out, "error: ", 7), "an unknown admin command is refused: %s", out);
	ctl_execute(&ps, NULL, "hostile -1", out, sizeof(out));
	tap_ok(!strncmp(out, "error: ", 7) && !hostile.on, "a bad seed is refused: %s", out);
	card.hostile = NULL;
	ctl_execute(&ps, NULL, "hostile 1", out, sizeof(out));
	tap_ok(!strncmp(out, "error: ", 7), "a card without hostile mode says so: %s", out);
	card.hostile = &hostile;
}

int main(void)
{
	regs = calloc(1, REGS_SIZE);
	ram = calloc(1, RAM_SIZE);
	if (!regs || !ram)
		return 1;
	guest_mem_attach(&gm, ram, RAM_SIZE);
	tap_plan(19);
	test_seeds();
	test_restore();
	test_admin_truth();
	test_once();
	test_ctl();
	for (unsigned int i = 0; i < card.n_ctx; i++)
		hif_ctx_stop(&card, i);
	card_free(&card);
	free(regs);
	free(ram);
	return tap_exit_status();
}
