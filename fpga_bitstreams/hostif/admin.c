// SPDX-License-Identifier: GPL-2.0
/*
 * Admin mailbox: RESET, CTX_ENABLE, CTX_DISABLE.
 */
#include "admin.h"
#include "card.h"

#include <loom_hw/ring.h>

static int admin_range_ok(uint64_t addr, uint64_t len, uint64_t ram_size)
{
	return addr <= ram_size && len <= ram_size - addr;
}

uint32_t admin_check_ctx(const struct hif_ctx_params *p, uint64_t ram_size)
{
	if (p->cmdq_log2 < LOOM_RING_LOG2_MIN || p->cmdq_log2 > LOOM_RING_LOG2_MAX ||
	    p->cq_log2 < LOOM_RING_LOG2_MIN || p->cq_log2 > LOOM_RING_LOG2_MAX)
		return LOOM_ADMIN_E_BAD_RING;
	if (p->cmdq % LOOM_CMD_SIZE || p->cq % LOOM_CQE_SIZE)
		return LOOM_ADMIN_E_BAD_RING;
	if (!admin_range_ok(p->cmdq, (uint64_t)LOOM_CMD_SIZE << p->cmdq_log2, ram_size) ||
	    !admin_range_ok(p->cq, (uint64_t)LOOM_CQE_SIZE << p->cq_log2, ram_size))
		return LOOM_ADMIN_E_BAD_RING;
	if (p->vector >= LOOM_NUM_VECTORS)
		return LOOM_ADMIN_E_BAD_RING;
	if (p->seg_size == 0 || !admin_range_ok(p->seg, p->seg_size, ram_size))
		return LOOM_ADMIN_E_BAD_SEGMENT;
	/* counters page: optional, one aligned page of LOOM_CTX_COUNTERS u64 */
	if (p->counters && (p->counters % 4096 ||
			    !admin_range_ok(p->counters, LOOM_CTX_COUNTERS * 8, ram_size)))
		return LOOM_ADMIN_E_BAD_SEGMENT;
	return LOOM_ADMIN_E_OK;
}

static uint32_t admin_ctx_enable(struct card *c, uint32_t idx)
{
	struct hif_ctx_params p;
	uint32_t rings, res;

	if (idx >= c->n_ctx)
		return LOOM_ADMIN_E_BAD_CTX;
	if (c->ctx[idx].state != LOOM_CTX_ST_DISABLED)
		return LOOM_ADMIN_E_BUSY;
	rings = card_rd32(c, card_ctx_reg(idx, LOOM_CTXR_RINGS));
	p.cmdq = card_rd64(c, card_ctx_reg(idx, LOOM_CTXR_CMDQ_LO));
	p.cq = card_rd64(c, card_ctx_reg(idx, LOOM_CTXR_CQ_LO));
	p.seg = card_rd64(c, card_ctx_reg(idx, LOOM_CTXR_SEG_LO));
	p.seg_size = card_rd64(c, card_ctx_reg(idx, LOOM_CTXR_SEG_SIZE_LO));
	p.cmdq_log2 = rings & 0xff;
	p.cq_log2 = (rings >> 8) & 0xff;
	p.key = card_rd32(c, card_ctx_reg(idx, LOOM_CTXR_KEY));
	p.vector = card_rd32(c, card_ctx_reg(idx, LOOM_CTXR_VECTOR));
	p.counters = card_rd64(c, card_ctx_reg(idx, LOOM_CTXR_CNT_LO));
	res = admin_check_ctx(&p, c->gm->size);
	if (res != LOOM_ADMIN_E_OK) {
		card_log(c, "context %u: enable refused (%s): cmdq 0x%llx 2^%u, cq 0x%llx 2^%u, segment 0x%llx+0x%llx, vector %u, counters page 0x%llx, guest RAM 0x%llx bytes",
			 idx, res == LOOM_ADMIN_E_BAD_RING ? "bad ring" : "bad segment",
			 (unsigned long long)p.cmdq, p.cmdq_log2, (unsigned long long)p.cq,
			 p.cq_log2, (unsigned long long)p.seg, (unsigned long long)p.seg_size,
			 p.vector, (unsigned long long)p.counters, (unsigned long long)c->gm->size);
		return res;
	}
	if (!hif_ctx_start(c, idx, &p))
		return LOOM_ADMIN_E_BUSY;
	return LOOM_ADMIN_E_OK;
}

static uint32_t admin_execute(struct card *c, uint32_t cmd, uint32_t arg0)
{
	switch (cmd) {
	case LOOM_ADMIN_CMD_NOP:
		return LOOM_ADMIN_E_OK;
	case LOOM_ADMIN_CMD_RESET:
		card_reset(c);
		return LOOM_ADMIN_E_OK;
	case LOOM_ADMIN_CMD_CTX_ENABLE:
		return admin_ctx_enable(c, arg0);
	case LOOM_ADMIN_CMD_CTX_DISABLE:
		if (arg0 >= c->n_ctx)
			return LOOM_ADMIN_E_BAD_CTX;
		hif_ctx_stop(c, arg0);
		return LOOM_ADMIN_E_OK;
	case LOOM_ADMIN_CMD_MR_ENABLE:
		return mr_admin_enable(c, arg0);
	case LOOM_ADMIN_CMD_MR_DISABLE:
		return mr_admin_disable(c, arg0);
	}
	return LOOM_ADMIN_E_UNKNOWN_CMD;
}

void admin_poll(struct card *c)
{
	uint32_t seq = card_rd32(c, CARD_OFF_ADMIN + LOOM_ADMIN_SEQ);
	uint32_t cmd, arg0, res;

	if (seq == card_rd32(c, CARD_OFF_ADMIN + LOOM_ADMIN_ACK))
		return;
	cmd = card_rd32(c, CARD_OFF_ADMIN + LOOM_ADMIN_CMD);
	arg0 = card_rd32(c, CARD_OFF_ADMIN + LOOM_ADMIN_ARG0);
	res = admin_execute(c, cmd, arg0);
	if (c->verbose || (res != LOOM_ADMIN_E_OK && cmd != LOOM_ADMIN_CMD_CTX_ENABLE &&
			       cmd != LOOM_ADMIN_CMD_MR_ENABLE))
		card_log(c, "admin: command %u arg %u seq %u -> result %u", cmd, arg0, seq, res);
	card_wr32(c, CARD_OFF_ADMIN + LOOM_ADMIN_RESULT, res);
	card_wr32(c, CARD_OFF_ADMIN + LOOM_ADMIN_ACK, seq);
	c->vectors_pending |= 1u << LOOM_VEC_ADMIN;
}

void admin_clear(struct card *c)
{
	card_wr32(c, CARD_OFF_ADMIN + LOOM_ADMIN_SEQ, 0);
	card_wr32(c, CARD_OFF_ADMIN + LOOM_ADMIN_ACK, 0);
	card_wr32(c, CARD_OFF_ADMIN + LOOM_ADMIN_RESULT, 0);
}
