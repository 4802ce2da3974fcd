// SPDX-License-Identifier: GPL-2.0
/*
 * The context block (one record per context) and the doorbell block (one
 * page per context).  Their counts, the record stride and the doorbell
 * area are read once at probe.  At run time the card's STATE of a context
 * and its last fault are checked at every read (a state the interface
 * does not define fails the card).  The command consumer index is only
 * ever compared with a producer index that user space writes, so any
 * value is one.
 */
#include <linux/minmax.h>
#include <linux/pci.h>

#include "loom_drv.h"

static u32 loom_hw_ctx_reg(struct loom_dev *ldev, u32 index, u32 field)
{
	return ldev->blk_ctx.off + LOOM_CTX_BASE + index * ldev->ctx_stride +
	       field;
}

/**
 * loom_hw_db_page() - register-space offset of a context's doorbell page
 * @ldev: the card
 * @index: context index, below ldev->n_ctx
 *
 * Return: the offset (page aligned, inside the register space).
 */
u32 loom_hw_db_page(struct loom_dev *ldev, u32 index)
{
	return ldev->db_area + index * LOOM_DB_PAGE_SIZE;
}

/* the CTX block's count and stride */
static int loom_hw_ctx_probe_records(struct loom_dev *ldev, u32 *n_ctx)
{
	const struct loom_blk *c = &ldev->blk_ctx;
	u32 off;
	int err;

	err = loom_hw_probe_size(ldev, "CTX", c, LOOM_CTX_BASE);
	if (err)
		return err;
	off = c->off + LOOM_CTX_COUNT;
	*n_ctx = loom_rd(ldev, off);
	if (!*n_ctx || *n_ctx > LOOM_HW_MAX_CTX)
		return loom_hw_refuse(ldev, "CTX", "COUNT", -1, off, *n_ctx,
				      "1..%u", LOOM_HW_MAX_CTX);
	return loom_hw_probe_stride(ldev, "CTX", c, LOOM_CTX_STRIDE,
				    LOOM_CTX_BASE, LOOM_CTX_REC_SIZE, *n_ctx,
				    &ldev->ctx_stride);
}

/* the DOORBELL block: one page per context, inside the register space */
static int loom_hw_ctx_probe_doorbells(struct loom_dev *ldev, u32 n_ctx)
{
	const struct loom_blk *d = &ldev->blk_db;
	u32 off, stride, count;
	int err;

	err = loom_hw_probe_size(ldev, "DOORBELL", d, LOOM_DOORBELL_COUNT + 4);
	if (err)
		return err;
	off = d->off + LOOM_DOORBELL_STRIDE;
	stride = loom_rd(ldev, off);
	if (stride != LOOM_DB_PAGE_SIZE || LOOM_DB_PAGE_SIZE != PAGE_SIZE)
		return loom_hw_refuse(ldev, "DOORBELL", "STRIDE", -1, off, stride,
				      "exactly %#x, the page size (%#lx)",
				      LOOM_DB_PAGE_SIZE, PAGE_SIZE);
	off = d->off + LOOM_DOORBELL_COUNT;
	count = loom_rd(ldev, off);
	if (count < n_ctx || count > LOOM_HW_MAX_CTX)
		return loom_hw_refuse(ldev, "DOORBELL", "COUNT", -1, off, count,
				      "%u..%u (a page for each of the CTX block's contexts)",
				      n_ctx, LOOM_HW_MAX_CTX);
	return loom_hw_probe_pages(ldev, "DOORBELL", "AREA",
				   d->off + LOOM_DOORBELL_AREA, n_ctx,
				   &ldev->db_area);
}

/**
 * loom_hw_ctx_probe() - read and check the context and doorbell geometry
 * @ldev: the card, its CTX and DOORBELL blocks found
 *
 * Sets ldev->n_ctx, ldev->ctx_stride and ldev->db_area.  Whether the
 * doorbell pages overlap another block is checked by loom_regs.c.
 *
 * Return: 0, or -EPROTO (logged).
 */
int loom_hw_ctx_probe(struct loom_dev *ldev)
{
	u32 n_ctx;
	int err;

	err = loom_hw_ctx_probe_records(ldev, &n_ctx);
	if (!err)
		err = loom_hw_ctx_probe_doorbells(ldev, n_ctx);
	if (!err)
		ldev->n_ctx = n_ctx;
	return err;
}

/**
 * loom_hw_ctx_program() - fill a disabled context's record and zero its
 *	doorbells, before CTX_ENABLE
 * @ldev: the card, alive
 * @index: context index, below ldev->n_ctx
 * @rec: what to program
 */
void loom_hw_ctx_program(struct loom_dev *ldev, u32 index,
			 const struct loom_hw_ctx_rec *rec)
{
	static const u32 pairs[][2] = {
		{ LOOM_CTXR_CMDQ_LO, offsetof(struct loom_hw_ctx_rec, cmdq) },
		{ LOOM_CTXR_CQ_LO, offsetof(struct loom_hw_ctx_rec, cq) },
		{ LOOM_CTXR_SEG_LO, offsetof(struct loom_hw_ctx_rec, seg) },
		{ LOOM_CTXR_SEG_SIZE_LO, offsetof(struct loom_hw_ctx_rec, seg_size) },
		{ LOOM_CTXR_CNT_LO, offsetof(struct loom_hw_ctx_rec, counters) },
	};
	unsigned int i;

	if (WARN_ON_ONCE(index >= ldev->n_ctx))
		return;
	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		u64 v = *(const u64 *)((const char *)rec + pairs[i][1]);

		loom_wr(ldev, loom_hw_ctx_reg(ldev, index, pairs[i][0]),
			lower_32_bits(v));
		loom_wr(ldev, loom_hw_ctx_reg(ldev, index, pairs[i][0] + 4),
			upper_32_bits(v));
	}
	loom_wr(ldev, loom_hw_ctx_reg(ldev, index, LOOM_CTXR_RINGS),
		rec->cmdq_log2 | rec->cq_log2 << 8);
	loom_wr(ldev, loom_hw_ctx_reg(ldev, index, LOOM_CTXR_KEY), rec->key);
	loom_wr(ldev, loom_hw_ctx_reg(ldev, index, LOOM_CTXR_VECTOR),
		rec->vector);
	/* a new owner starts counting from zero */
	loom_wr(ldev, loom_hw_db_page(ldev, index) + LOOM_DB_CMD_PI, 0);
	loom_wr(ldev, loom_hw_db_page(ldev, index) + LOOM_DB_CQ_CI, 0);
}

/**
 * loom_hw_ctx_arm_counter_irq() - have the card raise the context's vector
 *	after each counter write-back (LOOM_CTXR_RINGS_CNT_IRQ)
 * @ldev: the card, alive
 * @index: context index, below ldev->n_ctx
 * @cmdq_log2: the ring sizes the record was programmed with (RINGS is
 *	written whole, never read back)
 * @cq_log2: see @cmdq_log2
 *
 * Return: 0 or -EIO.
 */
int loom_hw_ctx_arm_counter_irq(struct loom_dev *ldev, u32 index,
				u32 cmdq_log2, u32 cq_log2)
{
	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(index >= ldev->n_ctx))
		return -EINVAL;
	loom_wr(ldev, loom_hw_ctx_reg(ldev, index, LOOM_CTXR_RINGS),
		cmdq_log2 | cq_log2 << 8 | LOOM_CTXR_RINGS_CNT_IRQ);
	return 0;
}

/**
 * loom_hw_ctx_state() - the card's state of a context and its last fault
 * @ldev: the card, alive
 * @index: context index, below ldev->n_ctx
 * @state: set to LOOM_CTX_ST_*
 * @error: set to the last LOOM_CQE_ST_* fault (an 8-bit status)
 *
 * Return: 0 or -EIO (a state or status out of range fails the card).
 */
int loom_hw_ctx_state(struct loom_dev *ldev, u32 index, u32 *state, u32 *error)
{
	u32 off;

	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(index >= ldev->n_ctx))
		return -EINVAL;
	off = loom_hw_ctx_reg(ldev, index, LOOM_CTXR_STATE);
	*state = loom_rd(ldev, off);
	if (*state > LOOM_CTX_ST_FAULTED) {
		loom_hw_fail(ldev, "CTX", "STATE", index, off, *state,
			     "0..%u (LOOM_CTX_ST_*)", LOOM_CTX_ST_FAULTED);
		return -EIO;
	}
	off = loom_hw_ctx_reg(ldev, index, LOOM_CTXR_ERROR);
	*error = loom_rd(ldev, off);
	if (*error > U8_MAX) {
		loom_hw_fail(ldev, "CTX", "ERROR", index, off, *error,
			     "0..%u (a completion status)", U8_MAX);
		return -EIO;
	}
	return 0;
}

/**
 * loom_hw_ctx_cmd_ci() - commands the card has consumed from a ring
 * @ldev: the card, alive
 * @index: context index, below ldev->n_ctx
 * @ci: set to the free-running consumer index
 *
 * Any value is one: the producer index it is compared with is written by
 * the context's process through its doorbell page, so no relation between
 * the two can be required of the card; whoever compares them indexes the
 * ring modulo its size.
 *
 * Return: 0 or -EIO.
 */
int loom_hw_ctx_cmd_ci(struct loom_dev *ldev, u32 index, u32 *ci)
{
	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(index >= ldev->n_ctx))
		return -EINVAL;
	*ci = loom_rd(ldev, loom_hw_ctx_reg(ldev, index, LOOM_CTXR_CMD_CI));
	return 0;
}

/**
 * loom_hw_db_cq_ci_seen() - the completion consumer index the card took
 * @ldev: the card, alive
 * @index: context index, below ldev->n_ctx
 * @ci: set to it: LOOM_DB_CQ_CI_SEEN, the card's copy of what the
 *	context's process last wrote to LOOM_DB_CQ_CI (any 32-bit count)
 *
 * CMD_PI and CQ_CI themselves are write-only and never read: a real card
 * returns poison for them, and so does the lab card with
 * --strict-registers.
 *
 * Return: 0 or -EIO.
 */
int loom_hw_db_cq_ci_seen(struct loom_dev *ldev, u32 index, u32 *ci)
{
	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(index >= ldev->n_ctx))
		return -EINVAL;
	*ci = loom_rd(ldev, loom_hw_db_page(ldev, index) + LOOM_DB_CQ_CI_SEEN);
	return 0;
}

/**
 * loom_hw_db_set_cmd_pi() - publish commands: write the producer index
 *	and tell the card
 * @ldev: the card, alive
 * @index: context index, below ldev->n_ctx
 * @pi: the new producer index
 */
void loom_hw_db_set_cmd_pi(struct loom_dev *ldev, u32 index, u32 pi)
{
	if (loom_hw_failed(ldev) || WARN_ON_ONCE(index >= ldev->n_ctx))
		return;
	loom_wr(ldev, loom_hw_db_page(ldev, index) + LOOM_DB_CMD_PI, pi);
	ldev->hal->kick(ldev, LOOM_KICK_DOORBELL);
}
