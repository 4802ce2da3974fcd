// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring passthrough (file_operations.uring_cmd): LOOM_URING_WAIT_CQ
 * completes when a context's completion ring has an entry to consume,
 * LOOM_URING_CANCEL cancels waits by user_id.
 *
 * A waiting command is a struct loom_uwait on its file's list.  Whoever
 * takes it off the list (under lf->uring_lock) owns its completion: the
 * completion-interrupt scan, its timer, a cancel, the context's
 * destruction, the file's release or the card's removal.  The owner
 * records the result and hands the command to the submitter's task
 * (io_uring_cmd_complete_in_task()), where the timer is cancelled
 * synchronously, the wait freed and the CQE posted.
 */
#include <linux/hrtimer.h>
#include <linux/io_uring.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "loom_drv.h"

/* bytes of sqe->cmd with IORING_SETUP_SQE128 */
#define LOOM_URING_CMD_BYTES	80

/**
 * struct loom_uwait - one outstanding LOOM_URING_WAIT_CQ
 * @node: entry in lf->uring_waits, then in the claimer's private list
 * @lf: the file it was submitted on
 * @cmd: the io_uring command to complete
 * @timer: fires the timeout
 * @user_id: LOOM_URING_CANCEL selects by it
 * @ctx_index: card index of the context waited on
 * @res: result, set by the owner that claimed it
 * @claimed: taken off lf->uring_waits (under lf->uring_lock)
 */
struct loom_uwait {
	struct list_head node;
	struct loom_file *lf;
	struct io_uring_cmd *cmd;
	struct hrtimer timer;
	u64 user_id;
	u32 ctx_index;
	int res;
	bool claimed;
};

struct loom_uring_pdu {
	struct loom_uwait *wait;
};

static struct loom_uring_pdu *loom_uring_pdu(struct io_uring_cmd *cmd)
{
	BUILD_BUG_ON(sizeof(struct loom_uring_pdu) > sizeof(cmd->pdu));
	return (struct loom_uring_pdu *)cmd->pdu;
}

/* Take @w off its file's list with result @res; lf->uring_lock held. */
static void loom_uwait_claim(struct loom_file *lf, struct loom_uwait *w,
			     int res)
{
	list_del_init(&w->node);
	w->claimed = true;
	lf->n_uring_waits--;
	atomic_dec(&lf->ldev->uring_waits);
	w->res = res;
}

/* In the submitter's task: stop the timer, free the wait, post the CQE. */
static void loom_uwait_task(struct io_uring_cmd *cmd, unsigned int issue_flags)
{
	struct loom_uwait *w = loom_uring_pdu(cmd)->wait;
	int res;

	hrtimer_cancel(&w->timer);
	res = w->res;
	kfree(w);
	io_uring_cmd_done(cmd, res, 0, issue_flags);
}

/* Complete every claimed wait on @claimed (linked by their node). */
static void loom_uwait_finish_list(struct list_head *claimed, bool sync_timers)
{
	struct loom_uwait *w, *tmp;

	list_for_each_entry_safe(w, tmp, claimed, node) {
		list_del_init(&w->node);
		/* the file may be freed next: no timer may touch it after */
		if (sync_timers)
			hrtimer_cancel(&w->timer);
		io_uring_cmd_complete_in_task(w->cmd, loom_uwait_task);
	}
}

static enum hrtimer_restart loom_uwait_timeout(struct hrtimer *timer)
{
	struct loom_uwait *w = container_of(timer, struct loom_uwait, timer);
	struct loom_file *lf = w->lf;
	unsigned long flags;
	bool mine;

	spin_lock_irqsave(&lf->uring_lock, flags);
	mine = !w->claimed;
	if (mine)
		loom_uwait_claim(lf, w, -ETIME);
	spin_unlock_irqrestore(&lf->uring_lock, flags);
	if (mine)
		io_uring_cmd_complete_in_task(w->cmd, loom_uwait_task);
	return HRTIMER_NORESTART;
}

/* Context @index of @lf, or NULL; ldev->lock held. */
static struct loom_ctx *loom_uring_find_ctx(struct loom_file *lf, u32 index)
{
	struct loom_ctx *ctx;
	unsigned long slot;

	xa_for_each(&lf->ctxs, slot, ctx)
		if (ctx->index == index)
			return ctx;
	return NULL;
}

/*
 * Claim the waits of @lf that @match selects (all when @match is NULL)
 * with result @res onto @claimed.  Returns how many.
 */
static int loom_uring_claim_matching(struct loom_file *lf,
				     bool (*match)(struct loom_uwait *w,
						   u64 key),
				     u64 key, int res,
				     struct list_head *claimed)
{
	struct loom_uwait *w, *tmp;
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&lf->uring_lock, flags);
	list_for_each_entry_safe(w, tmp, &lf->uring_waits, node) {
		if (match && !match(w, key))
			continue;
		loom_uwait_claim(lf, w, res);
		list_add_tail(&w->node, claimed);
		n++;
	}
	spin_unlock_irqrestore(&lf->uring_lock, flags);
	return n;
}

static bool loom_uwait_has_user_id(struct loom_uwait *w, u64 user_id)
{
	return w->user_id == user_id;
}

static bool loom_uwait_has_ctx(struct loom_uwait *w, u64 index)
{
	return w->ctx_index == index;
}

static int loom_uring_wait(struct loom_file *lf, struct io_uring_cmd *cmd,
			   unsigned int issue_flags)
{
	struct loom_dev *ldev = lf->ldev;
	struct loom_uring_wait req;
	struct loom_uwait *w;
	struct loom_ctx *ctx;
	unsigned long flags;
	bool ready;
	int err;

	/* the SQE may be user memory: read it once */
	memcpy(&req, cmd->cmd, sizeof(req));
	if (req.flags || req.timeout_ns > LOOM_URING_MAX_TIMEOUT_NS ||
	    memchr_inv((const u8 *)cmd->cmd + sizeof(req), 0,
		       LOOM_URING_CMD_BYTES - sizeof(req)))
		return -EINVAL;

	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	w->lf = lf;
	w->cmd = cmd;
	w->user_id = req.user_id;
	w->ctx_index = req.ctx_index;
	INIT_LIST_HEAD(&w->node);
	hrtimer_init(&w->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	w->timer.function = loom_uwait_timeout;
	loom_uring_pdu(cmd)->wait = w;

	/* ldev->lock is held for seconds by admin commands: do not stall */
	if (issue_flags & IO_URING_F_NONBLOCK) {
		if (!mutex_trylock(&ldev->lock)) {
			kfree(w);
			return -EAGAIN;
		}
	} else {
		mutex_lock(&ldev->lock);
	}
	if (ldev->dead) {
		err = -EIO;
		goto err_unlock;
	}
	ctx = loom_uring_find_ctx(lf, req.ctx_index);
	if (!ctx) {
		err = -EINVAL;
		goto err_unlock;
	}
	if (!req.timeout_ns) {
		err = loom_ctx_cq_ready(ctx) ? 0 : -ETIME;
		goto err_unlock;
	}

	/*
	 * On the list before the test, in one critical section: a completion
	 * posted after the test raises the interrupt, whose scan (under
	 * ldev->lock, after us) then finds this wait.  Once the lock is
	 * dropped another owner may claim and free @w: do not touch it.
	 */
	spin_lock_irqsave(&lf->uring_lock, flags);
	if (lf->n_uring_waits >= LOOM_URING_MAX_WAITS) {
		spin_unlock_irqrestore(&lf->uring_lock, flags);
		err = -EBUSY;
		goto err_unlock;
	}
	list_add_tail(&w->node, &lf->uring_waits);
	lf->n_uring_waits++;
	atomic_inc(&ldev->uring_waits);
	/* count before the ring test; pairs with the interrupt's read */
	smp_mb__after_atomic();
	ready = loom_ctx_cq_ready(ctx);
	if (ready)
		loom_uwait_claim(lf, w, 0);
	else
		hrtimer_start(&w->timer, ns_to_ktime(req.timeout_ns),
			      HRTIMER_MODE_REL);
	spin_unlock_irqrestore(&lf->uring_lock, flags);
	mutex_unlock(&ldev->lock);
	if (ready) {
		kfree(w);
		return 0;
	}
	return -EIOCBQUEUED;

err_unlock:
	mutex_unlock(&ldev->lock);
	kfree(w);
	return err;
}

static int loom_uring_cancel(struct loom_file *lf, struct io_uring_cmd *cmd)
{
	struct loom_uring_cancel req;
	LIST_HEAD(claimed);
	int n;

	memcpy(&req, cmd->cmd, sizeof(req));
	if (req.flags || req.pad ||
	    memchr_inv((const u8 *)cmd->cmd + sizeof(req), 0,
		       LOOM_URING_CMD_BYTES - sizeof(req)))
		return -EINVAL;
	n = loom_uring_claim_matching(lf, loom_uwait_has_user_id, req.user_id,
				      -ECANCELED, &claimed);
	loom_uwait_finish_list(&claimed, false);
	return n;
}

/**
 * loom_uring_cmd() - file_operations.uring_cmd of /dev/loomN
 * @cmd: the command
 * @issue_flags: IO_URING_F_*
 *
 * Return: the result (0 or a count) when done at once, -EIOCBQUEUED when
 * the command completes later, -EAGAIN to be retried blocking, or a
 * negative errno.
 */
int loom_uring_cmd(struct io_uring_cmd *cmd, unsigned int issue_flags)
{
	struct loom_file *lf = cmd->file->private_data;

	/* without SQE128 the payload area is 16 bytes */
	if (!(issue_flags & IO_URING_F_SQE128))
		return -EINVAL;
	switch (cmd->cmd_op) {
	case LOOM_URING_WAIT_CQ:
		return loom_uring_wait(lf, cmd, issue_flags);
	case LOOM_URING_CANCEL:
		return loom_uring_cancel(lf, cmd);
	default:
		return -ENOTTY;
	}
}

/**
 * loom_uring_file_init() - io_uring state of a file being opened
 * @lf: the file
 */
void loom_uring_file_init(struct loom_file *lf)
{
	spin_lock_init(&lf->uring_lock);
	INIT_LIST_HEAD(&lf->uring_waits);
	lf->n_uring_waits = 0;
}

/**
 * loom_uring_file_release() - complete every wait of a file being closed
 * @lf: the file
 *
 * Each pending command holds the file, so normally none is left; any that
 * is completes with -ECANCELED.  Timers are stopped before returning, so
 * none touches @lf once it is freed.
 */
void loom_uring_file_release(struct loom_file *lf)
{
	LIST_HEAD(claimed);

	loom_uring_claim_matching(lf, NULL, 0, -ECANCELED, &claimed);
	loom_uwait_finish_list(&claimed, true);
}

/**
 * loom_uring_ctx_gone() - a context was destroyed: cancel its waits
 * @lf: its file
 * @index: its card index
 */
void loom_uring_ctx_gone(struct loom_file *lf, u32 index)
{
	LIST_HEAD(claimed);

	loom_uring_claim_matching(lf, loom_uwait_has_ctx, index, -ECANCELED,
				  &claimed);
	loom_uwait_finish_list(&claimed, false);
}

/**
 * loom_uring_file_kill() - the card is gone: fail a file's waits with -EIO
 * @lf: the file; ldev->lock held, ldev->dead already set
 */
void loom_uring_file_kill(struct loom_file *lf)
{
	LIST_HEAD(claimed);

	loom_uring_claim_matching(lf, NULL, 0, -EIO, &claimed);
	loom_uwait_finish_list(&claimed, false);
}

/**
 * loom_uring_scan() - work: complete the waits whose context has an entry
 * @work: ldev->uring_work, queued by the completion interrupt
 */
void loom_uring_scan(struct work_struct *work)
{
	struct loom_dev *ldev = container_of(work, struct loom_dev, uring_work);
	struct loom_uwait *w, *tmp;
	struct loom_file *lf;
	struct loom_ctx *ctx;
	unsigned long flags;
	LIST_HEAD(claimed);

	mutex_lock(&ldev->lock);
	if (ldev->dead)
		goto out;
	list_for_each_entry(lf, &ldev->files, node) {
		spin_lock_irqsave(&lf->uring_lock, flags);
		list_for_each_entry_safe(w, tmp, &lf->uring_waits, node) {
			ctx = loom_uring_find_ctx(lf, w->ctx_index);
			if (ctx && !loom_ctx_cq_ready(ctx))
				continue;
			loom_uwait_claim(lf, w, ctx ? 0 : -ECANCELED);
			list_add_tail(&w->node, &claimed);
		}
		spin_unlock_irqrestore(&lf->uring_lock, flags);
	}
out:
	mutex_unlock(&ldev->lock);
	loom_uwait_finish_list(&claimed, false);
}

/**
 * loom_uring_irq() - from the completion interrupt: scan if anyone waits
 * @ldev: the card
 */
void loom_uring_irq(struct loom_dev *ldev)
{
	if (atomic_read(&ldev->uring_waits))
		schedule_work(&ldev->uring_work);
}
