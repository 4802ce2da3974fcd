// SPDX-License-Identifier: GPL-2.0
/*
 * What happens when the card hands the driver a value out of range: at
 * probe the card is not bound (loom_hw_refuse()); afterwards it is marked
 * failed (loom_hw_fail()).  Either way one log line says which block,
 * which register (and which record of it), the value and the limit.
 *
 * A failed card is treated as if it had been removed, except that bus
 * mastering stays on until it really is: the register accessors answer
 * -EIO at once, a work item then marks it dead under ldev->lock and cuts
 * its open files off (loom_files_kill(): -EIO, SIGBUS, io_uring waits
 * completed), and the memory of its contexts is kept until unbind turns
 * bus mastering off (loom_ctx.c).  The work is needed because a value may
 * be found bad with ldev->lock held, or in the interrupt thread.
 */
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/workqueue.h>

#include "loom_drv.h"

static void loom_hw_fail_work(struct work_struct *work)
{
	struct loom_dev *ldev = container_of(work, struct loom_dev, fail_work);

	loom_files_kill(ldev);
}

/**
 * loom_hw_init() - failure state of a card being probed
 * @ldev: the card
 */
void loom_hw_init(struct loom_dev *ldev)
{
	INIT_WORK(&ldev->fail_work, loom_hw_fail_work);
}

/**
 * loom_hw_stop() - wait for a failure being handled; nothing of it runs
 *	afterwards
 * @ldev: the card, being removed; nothing reads its registers any more
 */
void loom_hw_stop(struct loom_dev *ldev)
{
	cancel_work_sync(&ldev->fail_work);
}

/**
 * loom_hw_failed() - has the card handed the driver a value out of range?
 * @ldev: the card
 *
 * Return: true once loom_hw_fail() was called.
 */
bool loom_hw_failed(struct loom_dev *ldev)
{
	return test_bit(LOOM_HW_F_FAILED, &ldev->hw_flags);
}

/* "register N_PORTS" or "register CMD_CI[3]", then the limit @fmt */
static void loom_hw_vlog(struct loom_dev *ldev, const char *what,
			 const char *block, const char *reg, int index, u32 off,
			 u32 value, const char *then, const char *fmt,
			 va_list *ap)
{
	struct va_format limit = { .fmt = fmt, .va = ap };

	if (index >= 0)
		dev_err(&ldev->pdev->dev, "%sblock %s register %s[%d] (offset 0x%x) reads %u (0x%x), limit: %pV: %s\n",
			what, block, reg, index, off, value, value, &limit, then);
	else
		dev_err(&ldev->pdev->dev, "%sblock %s register %s (offset 0x%x) reads %u (0x%x), limit: %pV: %s\n",
			what, block, reg, off, value, value, &limit, then);
}

/**
 * loom_hw_fail() - the card gave a value out of range: stop using it
 * @ldev: the card
 * @block: register block, e.g. "CTX"
 * @reg: register, e.g. "CMD_CI"
 * @index: record of the register (context, port, unit), or -1
 * @off: register-space offset of the register
 * @value: what was read
 * @limit: printf format of the limit the value broke, e.g. "at most %u"
 *
 * Callable from any context, with or without ldev->lock.  Only the first
 * failure of a card is logged:
 * "card failed: block CTX register CMD_CI[3] (offset 0x24f4) reads ...".
 */
void loom_hw_fail(struct loom_dev *ldev, const char *block, const char *reg,
		  int index, u32 off, u32 value, const char *limit, ...)
{
	va_list ap;

	if (test_and_set_bit(LOOM_HW_F_FAILED, &ldev->hw_flags))
		return;
	va_start(ap, limit);
	loom_hw_vlog(ldev, "card failed: ", block, reg, index, off, value,
		     "no longer using the card (unbind and bind it, or reload loom, to try again)",
		     limit, &ap);
	va_end(ap);
	schedule_work(&ldev->fail_work);
}

/**
 * loom_hw_refuse() - at probe: a value out of range, the card is not bound
 * @ldev: the card
 * @block: register block
 * @reg: register
 * @index: record of the register, or -1
 * @off: register-space offset of the register
 * @value: what was read
 * @limit: printf format of the limit the value broke
 *
 * Return: -EPROTO, for probe to return.
 */
int loom_hw_refuse(struct loom_dev *ldev, const char *block, const char *reg,
		   int index, u32 off, u32 value, const char *limit, ...)
{
	va_list ap;

	va_start(ap, limit);
	loom_hw_vlog(ldev, "", block, reg, index, off, value,
		     "not binding the card", limit, &ap);
	va_end(ap);
	return -EPROTO;
}

/**
 * loom_hw_probe_size() - at probe: is a block large enough for its header?
 * @ldev: the card
 * @block: block name
 * @b: where it was found
 * @min: bytes its registers need
 *
 * Return: 0, or -EPROTO (logged).
 */
int loom_hw_probe_size(struct loom_dev *ldev, const char *block,
		       const struct loom_blk *b, u32 min)
{
	if (b->size >= min)
		return 0;
	return loom_hw_refuse(ldev, block, "SIZE", -1, b->off + LOOM_BLK_SIZE,
			      b->size, "at least %#x bytes", min);
}

/**
 * loom_hw_probe_stride() - at probe: read a record stride and check that
 *	@count records of it fit the block
 * @ldev: the card
 * @block: block name
 * @b: where it was found
 * @reg: offset of the STRIDE register in the block
 * @base: offset of record 0 in the block
 * @rec_size: bytes a record needs
 * @count: records the block must hold
 * @stride: set to the stride
 *
 * Return: 0, or -EPROTO (logged).
 */
int loom_hw_probe_stride(struct loom_dev *ldev, const char *block,
			 const struct loom_blk *b, u32 reg, u32 base,
			 u32 rec_size, u32 count, u32 *stride)
{
	*stride = loom_rd(ldev, b->off + reg);
	if (*stride >= rec_size && !(*stride % 4) &&
	    (u64)count * *stride <= b->size - base)
		return 0;
	return loom_hw_refuse(ldev, block, "STRIDE", -1, b->off + reg, *stride,
			      "a multiple of 4, at least %#x, with %u records inside the %#x-byte block",
			      rec_size, count, b->size);
}

/**
 * loom_hw_probe_pages() - at probe: read the offset of an area of pages
 *	mapped into processes (doorbells, BSU units) and check it
 * @ldev: the card
 * @block: block name
 * @reg: register name
 * @off: register-space offset of the register
 * @pages: pages of the area
 * @area: set to the area's offset: page aligned, also physically, with
 *	@pages pages inside the register space
 *
 * Whether it overlaps a block or another area is loom_regs.c's check.
 *
 * Return: 0, or -EPROTO (logged).
 */
int loom_hw_probe_pages(struct loom_dev *ldev, const char *block,
			const char *reg, u32 off, u32 pages, u32 *area)
{
	phys_addr_t start = ldev->hal->regs_phys(ldev);

	*area = loom_rd(ldev, off);
	if (!PAGE_ALIGNED(*area) || *area > ldev->regs_len ||
	    (u64)pages * PAGE_SIZE > ldev->regs_len - *area)
		return loom_hw_refuse(ldev, block, reg, -1, off, *area,
				      "page aligned, with %u pages inside the %#x-byte register space",
				      pages, ldev->regs_len);
	if ((start + *area) % PAGE_SIZE)
		return loom_hw_refuse(ldev, block, reg, -1, off, *area,
				      "page aligned in physical memory too (the register space starts at %pa)",
				      &start);
	return 0;
}

/**
 * loom_hw_commit() - registers were written: make the card look at them
 * @ldev: the card, alive
 *
 * A kick in the lab (the emulator cannot see writes), nothing on the
 * real card.
 */
void loom_hw_commit(struct loom_dev *ldev)
{
	ldev->hal->kick(ldev, LOOM_KICK_ADMIN);
}
