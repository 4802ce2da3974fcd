// SPDX-License-Identifier: GPL-2.0
/*
 * BSUs (barrier/eureka units, Documentation/hw/bsu.rst): the grant of units
 * to contexts at LOOM_IOC_CTX_CREATE (each unit to one context of the card
 * at a time), the page frames of exactly the granted units' user pages for
 * the mmap fault handler, their release when the context is freed, and
 * the sleeping wait for a granted unit's condition (LOOM_IOC_BSU_WAIT; the
 * io_uring one is in loom_uring.c).
 * The BSU block is optional: a card without it grants nothing (-EINVAL for
 * any bsu_mask).
 */
#include <linux/hrtimer.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/sched/signal.h>
#include <linux/wait.h>

#include "loom_drv.h"

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
	u32 n = loom_hw_bsu_count(ldev);
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
	if (ctx->bsu_mask) {
		/* LOOM_IOC_BSU_WAIT sleepers on it re-test and find it gone */
		atomic_inc(&ldev->bsu_events);
		wake_up_all(&ldev->bsu_wq);
	}
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
 * loom_bsu_mmap_check() - may @vma map the user pages of a context's units?
 * @ldev: the card, locked and alive
 * @ctx: the context
 * @vma: at most one page per unit of the card, page n = unit n
 *
 * The pages are filled in by the fault handler (loom_bsu_pfn()).
 *
 * Return: 0; -EINVAL when the context holds no unit or @vma is larger
 * than the card's units.
 */
int loom_bsu_mmap_check(struct loom_dev *ldev, struct loom_ctx *ctx,
			struct vm_area_struct *vma)
{
	lockdep_assert_held(&ldev->lock);
	if (!ctx->bsu_mask || vma_pages(vma) > loom_hw_bsu_count(ldev))
		return -EINVAL;
	return 0;
}

/**
 * loom_bsu_pfn() - the page frame of a granted unit's user page
 * @ldev: the card, locked and alive
 * @ctx: the context
 * @unit: page @unit of its BSU mapping
 * @pfn: set to the frame
 *
 * Only the units granted to @ctx have a page, so a process reaches no unit
 * it was not granted.
 *
 * Return: true; false for a unit the context does not hold.
 */
bool loom_bsu_pfn(struct loom_dev *ldev, struct loom_ctx *ctx,
		  unsigned long unit, unsigned long *pfn)
{
	lockdep_assert_held(&ldev->lock);
	if (unit >= BITS_PER_TYPE(ctx->bsu_mask) ||
	    unit >= loom_hw_bsu_count(ldev) || !(ctx->bsu_mask & BIT(unit)))
		return false;
	/* the page area as checked at probe, never read again */
	*pfn = PHYS_PFN(ldev->hal->regs_phys(ldev) +
			loom_hw_bsu_page_off(ldev, unit));
	return true;
}

/**
 * loom_bsu_wait_check() - may a context wait on a unit, and for that?
 * @ldev: the card, locked and alive
 * @ctx: a context of the caller's file
 * @unit: the unit
 * @cond: LOOM_BSU_COND_*
 *
 * Return: 0; -EINVAL for an unknown @cond or a unit the card does not
 * have; -EACCES when @unit is not granted to @ctx.
 */
int loom_bsu_wait_check(struct loom_dev *ldev, struct loom_ctx *ctx, u32 unit,
			u32 cond)
{
	lockdep_assert_held(&ldev->lock);
	if (cond > LOOM_BSU_COND_STATE_NE || unit >= loom_hw_bsu_count(ldev))
		return -EINVAL;
	return ctx->bsu_mask & BIT(unit) ? 0 : -EACCES;
}

/**
 * loom_bsu_cond_met() - does a unit's user page meet a condition now?
 * @ldev: the card, alive
 * @unit: the unit, checked by loom_bsu_wait_check()
 * @cond: LOOM_BSU_COND_*
 * @value: what @cond compares with
 *
 * Return: 1 when it does, 0 when not, -EIO when the card failed.
 */
int loom_bsu_cond_met(struct loom_dev *ldev, u32 unit, u32 cond, u32 value)
{
	u32 field, now;
	int err;

	switch (cond) {
	case LOOM_BSU_COND_COMPLETIONS_NE:
		field = LOOM_BSUP_COMPLETIONS;
		break;
	case LOOM_BSU_COND_EUREKAS_NE:
		field = LOOM_BSUP_EUREKAS;
		break;
	default:
		field = LOOM_BSUP_STATE;
		break;
	}
	err = loom_hw_bsu_page_field(ldev, unit, field, &now);
	if (err)
		return err;
	if (cond == LOOM_BSU_COND_STATE_EQ)
		return now == value;
	return now != value;
}

/*
 * Test a wait once: 1 met, 0 not yet (*seq = the event count read before
 * the test), or a negative errno.
 */
static int loom_bsu_wait_test(struct loom_file *lf,
			      const struct loom_bsu_wait *req, int *seq)
{
	struct loom_dev *ldev = lf->ldev;
	struct loom_ctx *ctx;
	int err;

	err = mutex_lock_interruptible(&ldev->lock);
	if (err)
		return err;
	if (ldev->dead) {
		err = -EIO;
		goto out;
	}
	ctx = loom_file_find_ctx(lf, req->ctx_index);
	err = ctx ? loom_bsu_wait_check(ldev, ctx, req->unit, req->cond) :
		    -EINVAL;
	if (err)
		goto out;
	*seq = atomic_read(&ldev->bsu_events);
	/* the count before the page: an event after the test changes it */
	smp_mb();
	err = loom_bsu_cond_met(ldev, req->unit, req->cond, req->value);
out:
	mutex_unlock(&ldev->lock);
	return err;
}

/* an event interrupt since @seq was read, or the card is gone */
static bool loom_bsu_moved(struct loom_dev *ldev, int seq)
{
	return atomic_read(&ldev->bsu_events) != seq || READ_ONCE(ldev->dead);
}

/* without the event vector nothing wakes a sleeper: look this often */
#define LOOM_BSU_WAIT_POLL_NS	(1 * NSEC_PER_MSEC)

/**
 * loom_bsu_wait_ioctl() - LOOM_IOC_BSU_WAIT: sleep until a condition holds
 * @lf: the caller's file
 * @req: the request, copied in
 *
 * The deadline is absolute, so a wait interrupted by a signal restarts
 * (-ERESTARTSYS) without extending it.
 *
 * Return: 0 when the condition holds; -ETIME at the deadline; -ERESTARTSYS
 * on a signal; -EIO when the card is gone; -ECANCELED when the context was
 * destroyed during the wait; -EINVAL, -EACCES as loom_bsu_wait_check() or
 * for flags.
 */
long loom_bsu_wait_ioctl(struct loom_file *lf, struct loom_bsu_wait *req)
{
	struct loom_dev *ldev = lf->ldev;
	long left;
	u64 now;
	int seq, r;

	if (req->flags)
		return -EINVAL;
	r = loom_bsu_wait_test(lf, req, &seq);
	for (;;) {
		if (r)
			return r < 0 ? r : 0;
		now = ktime_get_ns();
		if (!req->deadline_ns || now >= req->deadline_ns)
			return -ETIME;
		left = req->deadline_ns - now;
		if (ldev->n_vectors <= LOOM_VEC_EVENT)
			left = min_t(u64, left, LOOM_BSU_WAIT_POLL_NS);
		r = wait_event_interruptible_hrtimeout(ldev->bsu_wq,
						       loom_bsu_moved(ldev, seq),
						       ns_to_ktime(left));
		if (r == -ERESTARTSYS)
			return r;
		r = loom_bsu_wait_test(lf, req, &seq);
		/* the arguments were good: the context went away meanwhile */
		if (r == -EINVAL || r == -EACCES)
			return -ECANCELED;
	}
}

/**
 * loom_bsu_event() - from the event interrupt: a unit may have moved
 * @ldev: the card
 *
 * The interrupt does not say which unit: wake every sleeper and scan the
 * io_uring waits; each re-tests its own unit.
 */
void loom_bsu_event(struct loom_dev *ldev)
{
	atomic_inc(&ldev->bsu_events);
	wake_up_all(&ldev->bsu_wq);
	loom_uring_irq(ldev);
}
