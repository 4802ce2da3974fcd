// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile mode: the card misbehaving on purpose (hostile.h says how).
 */
#include "hostile.h"
#include "card.h"

#include <stdio.h>
#include <string.h>

#include <loom_hw/ring.h>
#include <loom_util/prng.h>

#define HOSTILE_GAP_MIN_MS	10	/* between two misbehaviours */
#define HOSTILE_GAP_SPAN_MS	190
#define HOSTILE_PATCH_MAX_MS	2000	/* a register reads bad this long at most */
#define HOSTILE_STORM_MAX_MS	300
#define HOSTILE_HOLD_MAX_MS	800	/* a wrong ACK before the right one */

static const char *const hostile_names[HOSTILE_N_KINDS] = {
	[HOSTILE_REGISTER] = "register",
	[HOSTILE_COMPLETION] = "completion",
	[HOSTILE_COUNTERS] = "counters",
	[HOSTILE_STORM] = "storm",
	[HOSTILE_ADMIN] = "admin",
	[HOSTILE_MAINT] = "maint",
	[HOSTILE_PORT] = "port",
};

const char *hostile_kind_name(unsigned int kind)
{
	return kind < HOSTILE_N_KINDS ? hostile_names[kind] : "?";
}

/* ---- the PRNG: splitmix64 to seed, xorshift64* to draw ---------------- */

static uint64_t hostile_next(struct hostile *h)
{
	return loom_xorshift64s(&h->rng);
}

/* uniform in [0, n), n > 0 */
static uint32_t hostile_rnd(struct hostile *h, uint32_t n)
{
	return (uint32_t)(((hostile_next(h) >> 32) * n) >> 32);
}

static uint32_t hostile_rnd32(struct hostile *h)
{
	return (uint32_t)(hostile_next(h) >> 32);
}

static void hostile_seed(struct hostile *h, uint64_t seed)
{
	uint64_t z = loom_splitmix64(&seed);

	h->rng = z ? z : 1;
}

/* ---- bookkeeping ------------------------------------------------------- */

static void hostile_note(struct hostile *h, struct card *c, enum hostile_kind kind,
			 unsigned int variant, uint32_t where, uint32_t value)
{
	struct hostile_event *e = &h->trace[h->n_trace % HOSTILE_TRACE];

	e->kind = (uint8_t)kind;
	e->variant = (uint8_t)variant;
	e->where = where;
	e->value = value;
	h->n_trace++;
	h->count[kind]++;
	if (h->verbose)
		card_log(c, "hostile: %s (variant %u) at 0x%x value 0x%x", hostile_names[kind],
			 variant, where, value);
}

/* ---- register: a read-only register reads wrong for a while ------------ */

static const uint32_t hostile_blocks[] = {
	CARD_OFF_FWID, CARD_OFF_ADMIN, CARD_OFF_ROUTER, CARD_OFF_PORTS, CARD_OFF_CTX,
	CARD_OFF_DOORBELL, CARD_OFF_VCT, CARD_OFF_COUNTERS, CARD_OFF_LINK, CARD_OFF_MAINT,
	CARD_OFF_BSU, CARD_OFF_PERF,
};

#define HOSTILE_PICK(h, array) ((array)[hostile_rnd((h), sizeof(array) / sizeof((array)[0]))])

/* A register the card owns (software never writes it), at random. */
static uint32_t hostile_pick_register(struct hostile *h, const struct card *c)
{
	static const uint32_t fwid[] = {
		LOOM_FWID_MAGIC, LOOM_FWID_DESIGN_VERSION, LOOM_FWID_BUILD_ID, LOOM_FWID_FLAGS,
		LOOM_FWID_DESC, LOOM_FWID_DESC + 4,
	};
	static const uint32_t router[] = {
		LOOM_ROUTER_NODE_ID, LOOM_ROUTER_LOGICAL_ID, LOOM_ROUTER_N_PORTS,
		LOOM_ROUTER_RT_ENTRIES,
	};
	static const uint32_t ports[] = {
		LOOM_PORTS_COUNT, LOOM_PORTS_STRIDE, LOOM_PORTS_EVENTS,
	};
	static const uint32_t port[] = {
		LOOM_PORT_STATUS, LOOM_PORT_PEER_NODE, LOOM_PORT_PEER_PORT, LOOM_PORT_TX_FRAMES,
	};
	static const uint32_t ctx[] = { LOOM_CTXR_STATE, LOOM_CTXR_ERROR, LOOM_CTXR_CMD_CI };
	static const uint32_t geometry[] = {
		CARD_OFF_CTX + LOOM_CTX_COUNT, CARD_OFF_CTX + LOOM_CTX_STRIDE,
		CARD_OFF_DOORBELL + LOOM_DOORBELL_AREA, CARD_OFF_DOORBELL + LOOM_DOORBELL_STRIDE,
		CARD_OFF_DOORBELL + LOOM_DOORBELL_COUNT, CARD_OFF_VCT + LOOM_VCT_N_PORTS,
		CARD_OFF_COUNTERS + LOOM_CNT_N_PORTS, CARD_OFF_COUNTERS + LOOM_CNT_N_VCS,
		CARD_OFF_COUNTERS + LOOM_CNT_STRIDE, CARD_OFF_LINK + LOOM_LINK_N_LANES,
		CARD_OFF_BSU + LOOM_BSU_N_UNITS, CARD_OFF_BSU + LOOM_BSU_PAGE_AREA,
		CARD_OFF_BSU + LOOM_BSU_PAGE_STRIDE, CARD_OFF_ADMIN + LOOM_ADMIN_STATUS,
		CARD_OFF_ADMIN + LOOM_ADMIN_N_CTX, CARD_OFF_MAINT + LOOM_MAINT_REQ_ACK,
		CARD_OFF_MAINT + LOOM_MAINT_RESP_PI, CARD_OFF_PERF + LOOM_PERF_N_PORTS,
		CARD_OFF_PERF + LOOM_PERF_N_VCS, CARD_OFF_PERF + LOOM_PERF_SNAP_ACK,
	};
	static const uint32_t bsu_page[] = {
		LOOM_BSUP_STATE, LOOM_BSUP_COMPLETIONS, LOOM_BSUP_EUREKAS,
	};
	unsigned int p = c->n_ports ? hostile_rnd(h, c->n_ports) : 0;

	switch (hostile_rnd(h, 8)) {
	case 0:
		return CARD_OFF_FWID + HOSTILE_PICK(h, fwid);
	case 1:
		return HOSTILE_PICK(h, hostile_blocks) + 4 * hostile_rnd(h, 4);
	case 2:
		return CARD_OFF_ROUTER + HOSTILE_PICK(h, router);
	case 3:
		return CARD_OFF_PORTS + HOSTILE_PICK(h, ports);
	case 4:
		return card_port_reg(p, HOSTILE_PICK(h, port));
	case 5:
		return card_ctx_reg(hostile_rnd(h, c->n_ctx), HOSTILE_PICK(h, ctx));
	case 6:
		return CARD_BSU_AREA + hostile_rnd(h, LOOM_BSU_COUNT) * LOOM_BSU_PAGE_SIZE +
		       HOSTILE_PICK(h, bsu_page);
	default:
		return HOSTILE_PICK(h, geometry);
	}
}

/* A value @old should not have: out of range, or just different. */
static uint32_t hostile_bad_value(struct hostile *h, uint32_t old)
{
	uint32_t v;

	switch (hostile_rnd(h, 8)) {
	case 0:
		v = 0;
		break;
	case 1:
		v = UINT32_MAX;
		break;
	case 2:
		v = hostile_rnd32(h);
		break;
	case 3:
		v = old + 1 + hostile_rnd(h, 64);
		break;
	case 4:
		v = old ^ (1u << hostile_rnd(h, 32));
		break;
	case 5:
		v = old - 1 - hostile_rnd(h, 64);
		break;
	case 6:
		v = LOOM_MAX_PORTS + 1 + hostile_rnd(h, 250);	/* just above a limit */
		break;
	default:
		v = hostile_rnd(h, 512) * 4096u;	/* a page offset anywhere */
		break;
	}
	return v == old ? ~old : v;
}

static bool hostile_register(struct hostile *h, struct card *c)
{
	struct hostile_patch *slot = NULL;
	uint32_t off = hostile_pick_register(h, c);
	uint32_t bad = hostile_bad_value(h, card_rd32(c, off));
	uint32_t ms = 1 + hostile_rnd(h, HOSTILE_PATCH_MAX_MS);

	for (unsigned int i = 0; i < HOSTILE_PATCHES; i++) {
		if (h->patch[i].used && h->patch[i].off == off)
			return false;	/* its saved value would be a bad one */
		if (!h->patch[i].used && !slot)
			slot = &h->patch[i];
	}
	if (!slot)
		return false;
	*slot = (struct hostile_patch){
		.used = true, .off = off, .saved = card_rd32(c, off), .bad = bad,
		.until_ms = c->now_ms + ms,
	};
	card_wr32(c, off, bad);
	hostile_note(h, c, HOSTILE_REGISTER, 0, off, bad);
	return true;
}

/* Patches whose time is up, or all: the old value, unless the card moved on. */
static void hostile_restore(struct hostile *h, struct card *c, bool all)
{
	for (unsigned int i = 0; i < HOSTILE_PATCHES; i++) {
		struct hostile_patch *p = &h->patch[i];

		if (!p->used || (!all && c->now_ms < p->until_ms))
			continue;
		if (card_rd32(c, p->off) == p->bad)
			card_wr32(c, p->off, p->saved);
		p->used = false;
	}
}

/* ---- completions and counters ------------------------------------------ */

/* A running context at random, or -1. */
static int hostile_pick_ctx(struct hostile *h, const struct card *c, bool counters)
{
	unsigned int start = hostile_rnd(h, c->n_ctx);

	for (unsigned int k = 0; k < c->n_ctx; k++) {
		unsigned int i = (start + k) % c->n_ctx;

		if (c->ctx[i].state == LOOM_CTX_ST_RUNNING && (!counters || c->ctx[i].p.counters))
			return (int)i;
	}
	return -1;
}

static bool hostile_completion(struct hostile *h, struct card *c)
{
	int idx = hostile_pick_ctx(h, c, false);
	unsigned int variant = hostile_rnd(h, 3);
	struct loom_cqe e;
	struct hif_ctx *x;
	uint32_t entries, mask, ci, pi, slot, flags;
	uint8_t *p;

	if (idx < 0)
		return false;
	x = &c->ctx[idx];
	entries = 1u << x->p.cq_log2;
	mask = entries - 1;
	pi = x->cq_pi;
	/* LOOM_DB_CQ_CI is write-only: what the card took of it */
	strict_take_wo(c, card_db_reg((unsigned int)idx, LOOM_DB_CQ_CI), &x->cq_ci);
	ci = x->cq_ci;
	memset(&e, 0, sizeof(e));
	e.tag = hostile_next(h);
	e.value = hostile_next(h) | 1ull << 40;	/* more than any segment */
	e.src_node = hostile_rnd32(h);
	e.src_ctx = (uint16_t)hostile_rnd32(h);
	e.kind = (uint8_t)hostile_rnd32(h);
	e.status = (uint8_t)hostile_rnd32(h);
	e.opcode = (uint8_t)hostile_rnd32(h);
	flags = loom_cq_phase(pi, x->p.cq_log2);
	if (variant == 0) {		/* the wrong phase at the producer index */
		slot = pi & mask;
		flags ^= LOOM_CQE_PHASE;
	} else if (variant == 1) {	/* a valid-looking entry at the wrong index */
		slot = (pi + 1 + hostile_rnd(h, entries - 1)) & mask;
	} else {			/* impossible contents, consumed as an entry */
		slot = pi & mask;
	}
	if (variant != 1 && pi - ci >= entries)
		return false;		/* no free slot at the producer index */
	p = guest_mem_ptr(c->gm, x->p.cq + (uint64_t)slot * LOOM_CQE_SIZE, LOOM_CQE_SIZE);
	if (!p)
		return false;
	memcpy(p, &e, offsetof(struct loom_cqe, flags));
	__atomic_store_n((uint32_t *)(void *)(p + offsetof(struct loom_cqe, flags)), flags,
			 __ATOMIC_RELEASE);
	if (variant == 2)
		x->cq_pi++;
	c->vectors_pending |= 1u << x->p.vector;
	hostile_note(h, c, HOSTILE_COMPLETION, variant, (uint32_t)idx, slot);
	return true;
}

static bool hostile_counters(struct hostile *h, struct card *c)
{
	int idx = hostile_pick_ctx(h, c, true);
	unsigned int n = 1 + hostile_rnd(h, 4);
	struct hif_ctx *x;

	if (idx < 0)
		return false;
	x = &c->ctx[idx];
	for (unsigned int k = 0; k < n; k++) {
		uint32_t id = hostile_rnd(h, LOOM_CTX_COUNTERS);
		uint64_t v = hostile_next(h);

		guest_mem_write(c->gm, x->p.counters + (uint64_t)id * 8, &v, 8);
	}
	c->vectors_pending |= 1u << x->p.vector;
	hostile_note(h, c, HOSTILE_COUNTERS, 0, (uint32_t)idx, n);
	return true;
}

/* ---- admin -------------------------------------------------------------- */

/* An error the card answers with: a defined code, or none it defines. */
static uint32_t hostile_admin_error(struct hostile *h)
{
	if (hostile_rnd(h, 2))
		return LOOM_ADMIN_E_UNKNOWN_CMD + hostile_rnd(h, LOOM_ADMIN_E_BUSY);
	return LOOM_ADMIN_E_BUSY + 1 + hostile_rnd32(h) % 0xfffffff0u;
}

static bool hostile_admin_arm(struct hostile *h, struct card *c)
{
	if (h->admin != HOSTILE_ADMIN_NONE)
		return false;
	h->admin = (enum hostile_admin)(HOSTILE_ADMIN_IGNORE + hostile_rnd(h, 4));
	h->admin_result = hostile_admin_error(h);
	hostile_note(h, c, HOSTILE_ADMIN, h->admin, 0, h->admin_result);
	return true;
}

/* Do @what to the command pending in the mailbox (sequence @seq). */
static void hostile_admin_apply(struct hostile *h, struct card *c, enum hostile_admin what,
				uint32_t result, uint32_t seq, uint32_t ack)
{
	const uint32_t a = CARD_OFF_ADMIN;

	switch (what) {
	case HOSTILE_ADMIN_IGNORE:
		/* the command vanishes: the card never sees it */
		card_wr32(c, a + LOOM_ADMIN_SEQ, ack);
		break;
	case HOSTILE_ADMIN_REFUSE:
		card_wr32(c, a + LOOM_ADMIN_RESULT, result);
		card_wr32(c, a + LOOM_ADMIN_ACK, seq);
		c->vectors_pending |= 1u << LOOM_VEC_ADMIN;
		break;
	case HOSTILE_ADMIN_LIE:
		h->lying = true;
		h->lie_seq = seq;
		h->admin_result = result;
		break;
	case HOSTILE_ADMIN_WRONG_ACK:
		/* an old sequence number: never one software will issue next */
		h->holding = true;
		h->hold_seq = seq;
		h->hold_wrong = seq - 2 - hostile_rnd(h, 1000);
		h->hold_until_ms = c->now_ms + 1 + hostile_rnd(h, HOSTILE_HOLD_MAX_MS);
		card_wr32(c, a + LOOM_ADMIN_ACK, h->hold_wrong);
		card_wr32(c, a + LOOM_ADMIN_SEQ, h->hold_wrong);
		c->vectors_pending |= 1u << LOOM_VEC_ADMIN;
		break;
	case HOSTILE_ADMIN_NONE:
		break;
	}
}

static void hostile_admin_before(struct hostile *h, struct card *c)
{
	const uint32_t a = CARD_OFF_ADMIN;
	uint32_t seq = card_rd32(c, a + LOOM_ADMIN_SEQ), ack = card_rd32(c, a + LOOM_ADMIN_ACK);
	uint32_t cmd;

	if (h->holding && c->now_ms >= h->hold_until_ms) {
		/* still untouched by software: let the card see it now */
		if (seq == h->hold_wrong)
			card_wr32(c, a + LOOM_ADMIN_SEQ, h->hold_seq);
		h->holding = false;
		return;
	}
	if (seq == ack || h->lying)
		return;
	cmd = card_rd32(c, a + LOOM_ADMIN_CMD);
	if (h->once && cmd == h->once_cmd) {
		h->once = false;
		card_log(c, "hostile: admin command %u seq %u %s (control socket)", cmd, seq,
			 h->once_what == HOSTILE_ADMIN_IGNORE ? "ignored" :
			 h->once_what == HOSTILE_ADMIN_LIE ? "executed, answered with an error" :
			 "refused");
		hostile_admin_apply(h, c, h->once_what, h->once_result, seq, ack);
		return;
	}
	if (h->on && h->admin != HOSTILE_ADMIN_NONE) {
		enum hostile_admin what = h->admin;

		h->admin = HOSTILE_ADMIN_NONE;
		if (h->verbose)
			card_log(c, "hostile: admin command %u seq %u: misbehaviour %u result %u", cmd,
				 seq, what, h->admin_result);
		hostile_admin_apply(h, c, what, h->admin_result, seq, ack);
	}
}

/* ---- maintenance responses and port events ----------------------------- */

static bool hostile_maint(struct hostile *h, struct card *c)
{
	const uint32_t m = CARD_OFF_MAINT;
	uint32_t pi = card_rd32(c, m + LOOM_MAINT_RESP_PI);
	unsigned int variant = hostile_rnd(h, 2);

	if (variant == 0) {	/* a response nobody asked for */
		uint32_t e = m + LOOM_MAINT_RESP_BASE +
			     (pi % LOOM_MAINT_RESP_SLOTS) * LOOM_MAINT_RESP_SIZE;

		card_wr32(c, e + LOOM_MAINTR_SEQ, hostile_rnd32(h));
		card_wr32(c, e + LOOM_MAINTR_STATUS, hostile_rnd32(h));
		card_wr32(c, e + LOOM_MAINTR_VALUE, hostile_rnd32(h));
		card_wr32(c, e + LOOM_MAINTR_NODE, hostile_rnd32(h));
		pi++;
	} else {		/* more responses than the ring holds */
		pi += LOOM_MAINT_RESP_SLOTS + 1 + hostile_rnd(h, 100);
	}
	card_wr32(c, m + LOOM_MAINT_RESP_PI, pi);
	c->vectors_pending |= 1u << LOOM_VEC_EVENT;
	hostile_note(h, c, HOSTILE_MAINT, variant, m + LOOM_MAINT_RESP_PI, pi);
	return true;
}

static bool hostile_port(struct hostile *h, struct card *c)
{
	unsigned int port;
	uint32_t set = hostile_rnd32(h), clear = hostile_rnd32(h);

	if (!c->n_ports)
		return false;
	port = hostile_rnd(h, c->n_ports);
	card_port_status(c, port, clear, set);
	c->vectors_pending |= 1u << LOOM_VEC_EVENT;
	hostile_note(h, c, HOSTILE_PORT, 0, port, card_rd32(c, card_port_reg(port, LOOM_PORT_STATUS)));
	return true;
}

/* ---- the schedule ------------------------------------------------------- */

static enum hostile_kind hostile_draw(struct hostile *h)
{
	unsigned int total = 0, r;

	for (unsigned int k = 0; k < HOSTILE_N_KINDS; k++)
		if (h->kinds & 1u << k)
			total += h->weight[k];
	r = hostile_rnd(h, total);
	for (unsigned int k = 0; k < HOSTILE_N_KINDS; k++) {
		if (!(h->kinds & 1u << k))
			continue;
		if (r < h->weight[k])
			return (enum hostile_kind)k;
		r -= h->weight[k];
	}
	return HOSTILE_REGISTER;
}

static void hostile_misbehave(struct hostile *h, struct card *c)
{
	enum hostile_kind k = hostile_draw(h);
	bool done = false;

	switch (k) {
	case HOSTILE_REGISTER:
		done = hostile_register(h, c);
		break;
	case HOSTILE_COMPLETION:
		done = hostile_completion(h, c);
		break;
	case HOSTILE_COUNTERS:
		done = hostile_counters(h, c);
		break;
	case HOSTILE_STORM:
		h->storm_until_ms = c->now_ms + 1 + hostile_rnd(h, HOSTILE_STORM_MAX_MS);
		hostile_note(h, c, HOSTILE_STORM, 0, 0, (uint32_t)(h->storm_until_ms - c->now_ms));
		done = true;
		break;
	case HOSTILE_ADMIN:
		done = hostile_admin_arm(h, c);
		break;
	case HOSTILE_MAINT:
		done = hostile_maint(h, c);
		break;
	case HOSTILE_PORT:
		done = hostile_port(h, c);
		break;
	case HOSTILE_N_KINDS:
		break;
	}
	if (!done)
		h->skipped++;
}

void hostile_start(struct hostile *h, struct card *c, uint64_t seed, unsigned int kinds)
{
	char line[256];

	if (h->on)
		hostile_stop(h, c);
	h->on = true;
	h->seed = seed;
	hostile_seed(h, seed);
	h->kinds = (kinds & HOSTILE_ALL_KINDS) ? kinds & HOSTILE_ALL_KINDS : HOSTILE_ALL_KINDS;
	/* every seed its own mix; storms are expensive: rarer */
	for (unsigned int k = 0; k < HOSTILE_N_KINDS; k++)
		h->weight[k] = 1 + hostile_rnd(h, k == HOSTILE_STORM ? 2 : 8);
	h->next_ms = c->now_ms + HOSTILE_GAP_MIN_MS + hostile_rnd(h, HOSTILE_GAP_SPAN_MS);
	h->storm_until_ms = 0;
	h->admin = HOSTILE_ADMIN_NONE;
	h->lying = false;
	memset(h->count, 0, sizeof(h->count));
	h->skipped = 0;
	h->n_trace = 0;
	hostile_describe(h, line, sizeof(line));
	card_log(c, "%s", line);
}

void hostile_stop(struct hostile *h, struct card *c)
{
	char line[256];

	if (!h->on)
		return;
	hostile_restore(h, c, true);
	if (h->holding) {
		if (card_rd32(c, CARD_OFF_ADMIN + LOOM_ADMIN_SEQ) == h->hold_wrong)
			card_wr32(c, CARD_OFF_ADMIN + LOOM_ADMIN_SEQ, h->hold_seq);
		h->holding = false;
	}
	h->admin = HOSTILE_ADMIN_NONE;
	h->storm_until_ms = 0;
	h->on = false;
	hostile_describe(h, line, sizeof(line));
	card_log(c, "%s", line);
}

void hostile_before(struct hostile *h, struct card *c)
{
	if (!h->on && !h->once && !h->holding)
		return;
	if (h->on)
		hostile_restore(h, c, false);
	hostile_admin_before(h, c);
	if (h->on && c->now_ms >= h->next_ms) {
		hostile_misbehave(h, c);
		h->next_ms = c->now_ms + HOSTILE_GAP_MIN_MS + hostile_rnd(h, HOSTILE_GAP_SPAN_MS);
	}
}

void hostile_after(struct hostile *h, struct card *c)
{
	if (h->lying && card_rd32(c, CARD_OFF_ADMIN + LOOM_ADMIN_ACK) == h->lie_seq) {
		/* executed, and now said refused */
		card_wr32(c, CARD_OFF_ADMIN + LOOM_ADMIN_RESULT, h->admin_result);
		h->lying = false;
	}
	if (h->on && c->now_ms < h->storm_until_ms) {
		c->vectors_pending |= (1u << LOOM_NUM_VECTORS) - 1;
		c->more_work = true;
	}
}

int hostile_poll_ms(const struct hostile *h)
{
	return h->on || h->holding ? HOSTILE_POLL_MS : -1;
}

void hostile_admin_once(struct hostile *h, uint32_t cmd, enum hostile_admin what, uint32_t result)
{
	h->once = true;
	h->once_cmd = cmd;
	h->once_what = what;
	h->once_result = result;
}

void hostile_describe(const struct hostile *h, char *out, size_t len)
{
	int n = snprintf(out, len, "hostile %s seed %llu:", h->on ? "on" : "off",
			 (unsigned long long)h->seed);

	for (unsigned int k = 0; k < HOSTILE_N_KINDS && n > 0 && (size_t)n < len; k++)
		n += snprintf(out + n, len - (size_t)n, " %s %llu/w%u", hostile_names[k],
			      (unsigned long long)h->count[k], (h->kinds & 1u << k) ? h->weight[k] : 0);
	if (n > 0 && (size_t)n < len)
		snprintf(out + n, len - (size_t)n, ", skipped %llu", (unsigned long long)h->skipped);
}
