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

/* "register N_PORTS" or "register CMD_CI[3]" */
static void loom_hw_log(struct loom_dev *ldev, const char *what,
			const char *block, const char *reg, int index, u32 off,
			u32 value, struct va_format *limit, const char *then)
{
	if (index >= 0)
		dev_err(&ldev->pdev->dev, "%sblock %s register %s[%d] (offset %#x) reads %u (%#x), limit: %pV: %s\n",
			what, block, reg, index, off, value, value, limit, then);
	else
		dev_err(&ldev->pdev->dev, "%sblock %s register %s (offset %#x) reads %u (%#x), limit: %pV: %s\n",
			what, block, reg, off, value, value, limit, then);
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
	struct va_format vaf;
	va_list ap;

	if (test_and_set_bit(LOOM_HW_F_FAILED, &ldev->hw_flags))
		return;
	va_start(ap, limit);
	vaf.fmt = limit;
	vaf.va = &ap;
	loom_hw_log(ldev, "card failed: ", block, reg, index, off, value, &vaf,
		    "no longer using the card (unbind and bind it, or reload loom, to try again)");
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
	struct va_format vaf;
	va_list ap;

	va_start(ap, limit);
	vaf.fmt = limit;
	vaf.va = &ap;
	loom_hw_log(ldev, "", block, reg, index, off, value, &vaf,
		    "not binding the card");
	va_end(ap);
	return -EPROTO;
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
