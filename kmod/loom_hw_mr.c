// SPDX-License-Identifier: GPL-2.0
/*
 * The memory-region block (optional): COUNT and STRIDE are read once at
 * probe and kept; records are written by the driver only (the card
 * latches them at MR_ENABLE), PROT_ERRORS takes any value.
 */
#include <linux/pci.h>

#include "loom_drv.h"

/**
 * loom_hw_mr_probe() - read and check the memory-region block's geometry
 * @ldev: the card
 *
 * Sets ldev->geo.n_mr (0 without the block) and ldev->geo.mr_stride.
 *
 * Return: 0, or -EPROTO (logged).
 */
int loom_hw_mr_probe(struct loom_dev *ldev)
{
	const struct loom_blk *b = &ldev->blk_mr;
	u32 off, n, stride;
	int err;

	ldev->geo.n_mr = 0;
	if (!b->size)
		return 0;
	err = loom_hw_probe_size(ldev, "MR", b, LOOM_MR_BASE);
	if (err)
		return err;
	off = b->off + LOOM_MR_COUNT;
	n = loom_rd(ldev, off);
	if (!n || n > LOOM_MR_MAX_ENTRIES)
		return loom_hw_refuse(ldev, "MR", "COUNT", -1, off, n,
				      "1..%u (LOOM_MR_MAX_ENTRIES)",
				      LOOM_MR_MAX_ENTRIES);
	err = loom_hw_probe_stride(ldev, "MR", b, LOOM_MR_STRIDE, LOOM_MR_BASE,
				   LOOM_MR_REC_SIZE, n, &stride);
	if (err)
		return err;
	ldev->geo.n_mr = n;
	ldev->geo.mr_stride = stride;
	return 0;
}

static u32 loom_hw_mr_reg(struct loom_dev *ldev, u32 index, u32 field)
{
	return ldev->blk_mr.off + LOOM_MR_BASE + index * ldev->geo.mr_stride +
	       field;
}

/**
 * loom_hw_mr_program() - fill a disabled region's record, before MR_ENABLE
 * @ldev: the card, alive
 * @index: region index, below ldev->geo.n_mr
 * @rec: what to program
 */
void loom_hw_mr_program(struct loom_dev *ldev, u32 index,
			const struct loom_hw_mr_rec *rec)
{
	if (WARN_ON_ONCE(index >= ldev->geo.n_mr))
		return;
	loom_wr(ldev, loom_hw_mr_reg(ldev, index, LOOM_MRR_KEY), rec->key);
	loom_wr(ldev, loom_hw_mr_reg(ldev, index, LOOM_MRR_ACCESS),
		(rec->access & LOOM_MR_ACC_MASK) |
		(rec->first_off << LOOM_MR_FIRST_OFF_SHIFT &
		 LOOM_MR_FIRST_OFF_MASK));
	loom_wr(ldev, loom_hw_mr_reg(ldev, index, LOOM_MRR_CTX), rec->ctx);
	loom_wr(ldev, loom_hw_mr_reg(ldev, index, LOOM_MRR_PKEY), rec->pkey);
	loom_wr(ldev, loom_hw_mr_reg(ldev, index, LOOM_MRR_LEN_LO),
		lower_32_bits(rec->length));
	loom_wr(ldev, loom_hw_mr_reg(ldev, index, LOOM_MRR_LEN_HI),
		upper_32_bits(rec->length));
	loom_wr(ldev, loom_hw_mr_reg(ldev, index, LOOM_MRR_PGL_LO),
		lower_32_bits(rec->pgl));
	loom_wr(ldev, loom_hw_mr_reg(ldev, index, LOOM_MRR_PGL_HI),
		upper_32_bits(rec->pgl));
}

/**
 * loom_hw_mr_prot_errors() - requests the card refused by a region check
 * @ldev: the card, alive, with a memory-region block
 *
 * Return: LOOM_MR_PROT_ERRORS (any value is valid; it wraps).
 */
u32 loom_hw_mr_prot_errors(struct loom_dev *ldev)
{
	return loom_rd(ldev, ldev->blk_mr.off + LOOM_MR_PROT_ERRORS);
}
