// SPDX-License-Identifier: GPL-2.0
/*
 * BSUs (barrier/eureka units, Documentation/hw/bsu.rst): the grant of units
 * to contexts at LOOM_IOC_CTX_CREATE (each unit to one context of the card
 * at a time), the mmap of exactly the granted units' user pages, and their
 * release when the context is freed.  The BSU block is optional: a card
 * without it grants nothing (-EINVAL for any bsu_mask).
 */
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/pci.h>

#include "loom_drv.h"

/**
 * loom_bsu_count() - units the driver can offer on this card
 * @ldev: the card, alive
 *
 * Return: 0 when the card has no usable BSU block (none, pages not
 * page-sized, or outside the register space), else at most LOOM_BSU_COUNT.
 */
u32 loom_bsu_count(struct loom_dev *ldev)
{
	const struct loom_blk *b = &ldev->blk_bsu;
	u32 n, area;

	if (b->size < LOOM_BSU_TREE_BASE)
		return 0;
	n = min_t(u32, loom_rd(ldev, b->off + LOOM_BSU_N_UNITS), LOOM_BSU_COUNT);
	n = min_t(u32, n, (b->size - LOOM_BSU_TREE_BASE) / LOOM_BSU_TREE_SIZE);
	area = loom_rd(ldev, b->off + LOOM_BSU_PAGE_AREA);
	if (loom_rd(ldev, b->off + LOOM_BSU_PAGE_STRIDE) != PAGE_SIZE ||
	    !PAGE_ALIGNED(area) || area > ldev->regs_len ||
	    (u64)n * PAGE_SIZE > ldev->regs_len - area)
		return 0;
	return n;
}

/**
 * loom_bsu_tree_reg() - register offset of a field of a unit's tree record
 * @ldev: the card
 * @bsu: unit, < loom_bsu_count()
 * @field: LOOM_BSUT_*
 *
 * Return: the offset.
 */
u32 loom_bsu_tree_reg(struct loom_dev *ldev, u32 bsu, u32 field)
{
	return ldev->blk_bsu.off + LOOM_BSU_TREE_BASE + bsu * LOOM_BSU_TREE_SIZE +
	       field;
}

/**
 * loom_bsu_page_reg() - register offset of a field of a unit's user page
 * @ldev: the card
 * @bsu: unit, < loom_bsu_count()
 * @field: LOOM_BSUP_*
 *
 * Return: the offset.
 */
u32 loom_bsu_page_reg(struct loom_dev *ldev, u32 bsu, u32 field)
{
	return loom_rd(ldev, ldev->blk_bsu.off + LOOM_BSU_PAGE_AREA) +
	       bsu * PAGE_SIZE + field;
}

/**
 * loom_bsu_grant() - give a new context the units it asked for
 * @ldev: the card, locked and alive
 * @ctx: the context being created
 * @mask: bit n = unit n
 *
 * Return: 0; -EINVAL for a unit the card does not have; -EBUSY when one
 * of them belongs to another context.
 */
int loom_bsu_grant(struct loom_dev *ldev, struct loom_ctx *ctx, u32 mask)
{
	u32 n = loom_bsu_count(ldev);
	u32 valid = n >= 32 ? ~0u : (1u << n) - 1;

	lockdep_assert_held(&ldev->lock);
	if (!mask)
		return 0;
	if (mask & ~valid)
		return -EINVAL;
	if (mask & ldev->bsu_busy)
		return -EBUSY;
	ldev->bsu_busy |= mask;
	ctx->bsu_mask = mask;
	return 0;
}

/**
 * loom_bsu_release() - the context is being freed: its units are free again
 * @ldev: the card, locked
 * @ctx: the context
 *
 * A unit keeps its state (the card has no per-unit reset): its next owner
 * reads STATE before its first op.
 */
void loom_bsu_release(struct loom_dev *ldev, struct loom_ctx *ctx)
{
	lockdep_assert_held(&ldev->lock);
	ldev->bsu_busy &= ~ctx->bsu_mask;
	ctx->bsu_mask = 0;
}

/**
 * loom_bsu_owner() - index of the context holding a unit
 * @ldev: the card, locked
 * @bsu: the unit
 * @index: set to the context's card index when it is held
 *
 * Return: true when a context holds @bsu.
 */
bool loom_bsu_owner(struct loom_dev *ldev, u32 bsu, u32 *index)
{
	struct loom_file *lf;
	struct loom_ctx *ctx;
	unsigned long slot;

	lockdep_assert_held(&ldev->lock);
	if (!(ldev->bsu_busy & BIT(bsu)))
		return false;
	list_for_each_entry(lf, &ldev->files, node) {
		xa_for_each(&lf->ctxs, slot, ctx) {
			if (ctx->bsu_mask & BIT(bsu)) {
				*index = ctx->index;
				return true;
			}
		}
	}
	*index = U32_MAX;	/* an orphaned context still holds it */
	return true;
}

/**
 * loom_bsu_mmap() - map the user pages of a context's units
 * @ldev: the card, locked and alive
 * @ctx: the context
 * @vma: at most one page per unit of the card, page n = unit n
 *
 * Only the pages of granted units get page-table entries; the vma has no
 * fault handler, so touching any other page raises SIGBUS: a process
 * reaches no unit it was not granted.
 *
 * Return: 0; -EINVAL when the context holds no unit or @vma is larger
 * than the card's units; an io_remap_pfn_range() error.
 */
int loom_bsu_mmap(struct loom_dev *ldev, struct loom_ctx *ctx,
		  struct vm_area_struct *vma)
{
	unsigned long pages = vma_pages(vma);
	phys_addr_t base;
	unsigned long b;
	int err;

	if (!ctx->bsu_mask || pages > loom_bsu_count(ldev))
		return -EINVAL;
	base = ldev->hal->regs_phys(ldev) + loom_bsu_page_reg(ldev, 0, 0);
	vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
	for (b = 0; b < pages; b++) {
		if (!(ctx->bsu_mask & BIT(b)))
			continue;
		err = io_remap_pfn_range(vma, vma->vm_start + b * PAGE_SIZE,
					 PHYS_PFN(base + b * PAGE_SIZE),
					 PAGE_SIZE, vma->vm_page_prot);
		if (err)
			return err;
	}
	return 0;
}
