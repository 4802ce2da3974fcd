// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring passthrough (file_operations.uring_cmd): LOOM_URING_WAIT_CQ
 * completes when a context's completion ring has an entry to consume,
 * LOOM_URING_WAIT_BSU when a granted BSU's page meets a condition,
 * LOOM_URING_WAIT_COUNTER when a counter reaches a threshold,
 * LOOM_URING_CANCEL cancels waits by user_id, LOOM_URING_SUBMIT copies a
 * command descriptor into a context's ring and rings the doorbell once per
 * batch.
 *
 * A waiting command is a struct loom_uwait on its file's list.  Whoever
 * takes it off the list (under lf->uring_lock) owns its completion: the
 * completion-interrupt scan, its timer, a cancel, the context's
 * destruction, the file's release or the card's removal.  The owner
 * records the result and hands the command to the submitter's task
 * (io_uring_cmd_complete_in_task()), where the timer is cancelled
 * synchronously, the wait freed and the CQE posted.
 *
 * Every kind of wait is tested by loom_uwait_test() under ldev->lock, at
 * submission (after it is on the list) and by the scan that the completion
 * interrupt (CQ and counter waits: the card raises the context's vector
 * after a counter write-back once LOOM_CTXR_RINGS_CNT_IRQ is set) or the
 * event interrupt (BSU waits) queues.
 *
 * The io_uring contract of Linux 6.1, which every command here keeps:
 * ->uring_cmd() returns 0 or a negative errno when the command is done, or
 * -EIOCBQUEUED and later calls io_uring_cmd_done() exactly once.  Never a
 * positive result: io_uring's inline issue path then fails the request
 * (which breaks its link chain), and its worker threads (IOSQE_ASYNC, or a
 * request linked behind one) drop it without a completion, so the
 * process can never finish exiting.  LOOM_URING_CANCEL hands its count to
 * the submitter's task and completes from there, like LOOM_URING_SUBMIT.
 *
 * io_uring on 6.1 cannot cancel a command the driver holds: a ring torn
 * down, a process exiting and an execve() wait for every outstanding
 * wait.  The wait's timer therefore fires at least every
 * LOOM_UWAIT_EXIT_CHECK_NS and completes the wait with -ECANCELED as soon
 * as the process that submitted it is exiting or in execve()
 * (loom_uwait_owner_gone()): a process with waits outstanding can always
 * be killed, and its execve() goes on within one check.  The same check
 * completes a wait whose ring is torn down (loom_uwait_ring_dying()),
 * which otherwise would keep the file, its contexts and the module until
 * the wait's timeout.
 */
#include <linux/hrtimer.h>
#include <linux/io_uring.h>
#include <linux/io_uring_types.h>
#include <linux/percpu-refcount.h>
#include <linux/rculist.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <loom_hw/ring.h>

#include "loom_drv.h"

/* bytes of sqe->cmd with IORING_SETUP_SQE128 */
#define LOOM_URING_CMD_BYTES	80
/* how often a wait looks whether its process is exiting or its ring torn down */
#define LOOM_UWAIT_EXIT_CHECK_NS	(100 * NSEC_PER_MSEC)

enum loom_uwait_kind {
	LOOM_UWAIT_CQ,
	LOOM_UWAIT_BSU,
	LOOM_UWAIT_COUNTER,
};

/**
 * struct loom_uwait - one outstanding wait command
 * @node: entry in lf->uring_waits, then in the claimer's private list
 * @lf: the file it was submitted on
 * @cmd: the io_uring command to complete
 * @timer: fires the timeout, and every LOOM_UWAIT_EXIT_CHECK_NS before it
 * @deadline: when the timeout expires (CLOCK_MONOTONIC)
 * @since: when it went on the list (CLOCK_MONOTONIC)
 * @owner: leader of the submitting process (a reference): the wait ends
 *	when that process exits
 * @user_id: LOOM_URING_CANCEL selects by it
 * @ctx_index: card index of the context waited on
 * @kind: what is waited for
 * @unit: BSU waits: the unit
 * @cond: BSU waits: LOOM_BSU_COND_*
 * @id: counter waits: the counter
 * @value: BSU waits: the value @cond compares with; counter waits: the
 *	threshold
 * @res: result, set by the owner that claimed it
 * @claimed: taken off lf->uring_waits (under lf->uring_lock)
 */
struct loom_uwait {
	struct list_head node;
	struct loom_file *lf;
	struct io_uring_cmd *cmd;
	struct hrtimer timer;
	ktime_t deadline;
	ktime_t since;
	struct task_struct *owner;
	u64 user_id;
	u32 ctx_index;
	enum loom_uwait_kind kind;
	u32 unit;
	u32 cond;
	u32 id;
	u64 value;
	int res;
	bool claimed;
};

struct loom_uring_pdu {
	struct loom_uwait *wait;	/* wait commands */
	u32 ctx_index;			/* LOOM_URING_SUBMIT */
	int count;			/* LOOM_URING_CANCEL */
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

static void loom_uwait_free(struct loom_uwait *w)
{
	if (w->owner)
		put_task_struct(w->owner);
	kfree(w);
}

/* In the submitter's task: stop the timer, free the wait, post the CQE. */
static void loom_uwait_task(struct io_uring_cmd *cmd, unsigned int issue_flags)
{
	struct loom_uwait *w = loom_uring_pdu(cmd)->wait;
	int res;

	hrtimer_cancel(&w->timer);
	res = w->res;
	loom_uwait_free(w);
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

/*
 * Is the process that submitted @w exiting, or replacing itself (exec)?
 * @w->owner is the leader of its thread group at submission.  An exit or
 * fatal signal sets SIGNAL_GROUP_EXIT at once.  An execve() in a thread
 * other than the leader sets group_exec_task while it kills the other
 * threads, the leader among them, and then takes the leader's place: the
 * old leader is no longer its own group leader.  An execve() in the
 * leader (always in a single-threaded process) shows only in the
 * leader's in_execve, set from the start of execve() to its end; io_uring
 * waits for the caller's requests in the middle (io_uring_task_cancel()).
 */
static bool loom_uwait_owner_gone(const struct loom_uwait *w)
{
	struct task_struct *owner = w->owner;
	const struct signal_struct *sig = owner->signal;

	return (READ_ONCE(sig->flags) & SIGNAL_GROUP_EXIT) ||
	       READ_ONCE(sig->group_exec_task) ||
	       READ_ONCE(owner->group_leader) != owner ||
	       /* a bit the task writes itself: stale, it costs one check */
	       data_race(owner->in_execve != 0);
}

/*
 * Is the ring @w was submitted on torn down (its last file closed)?  Its
 * teardown kills the ring's reference count, which nothing else on 6.1
 * does, and then waits for every request to end: io_uring has no way to
 * tell a driver (io_uring_cmd_mark_cancelable() came later).  The request
 * holds a reference to the ring, so the ring is there to look at.
 */
static bool loom_uwait_ring_dying(const struct loom_uwait *w)
{
	return percpu_ref_is_dying(&cmd_to_io_kiocb(w->cmd)->ctx->refs);
}

/**
 * loom_uring_waits_show() - debugfs loomN/uring: the card's waits
 * @s: the file
 * @ldev: the card
 *
 * One line per wait command on an open file's list: its operation, how
 * long it has waited, and whether its ring is torn down; then the totals.
 * A wait on a torn-down ring ends within LOOM_UWAIT_EXIT_CHECK_NS.  Walks
 * the files under RCU and each file's waits under its uring_lock.
 */
void loom_uring_waits_show(struct seq_file *s, struct loom_dev *ldev)
{
	unsigned long n = 0, torn = 0, flags;
	ktime_t now = ktime_get();
	struct loom_file *lf;
	struct loom_uwait *w;

	/* not ldev->lock: a busy card's commands would keep a reader out */
	rcu_read_lock();
	list_for_each_entry_rcu(lf, &ldev->files, node) {
		spin_lock_irqsave(&lf->uring_lock, flags);
		list_for_each_entry(w, &lf->uring_waits, node) {
			bool dying = loom_uwait_ring_dying(w);

			seq_printf(s, "cmd %#x waiting %lld ms ring %s\n",
				   w->cmd->cmd_op, ktime_ms_delta(now, w->since),
				   dying ? "torn_down" : "live");
			n++;
			torn += dying;
		}
		spin_unlock_irqrestore(&lf->uring_lock, flags);
	}
	rcu_read_unlock();
	seq_printf(s, "waiting %lu torn_down %lu\n", n, torn);
}

/* When the timer fires next: the deadline, or the next check before it. */
static ktime_t loom_uwait_next_tick(const struct loom_uwait *w, ktime_t now)
{
	ktime_t tick = ktime_add_ns(now, LOOM_UWAIT_EXIT_CHECK_NS);

	return ktime_before(tick, w->deadline) ? tick : w->deadline;
}

static enum hrtimer_restart loom_uwait_timeout(struct hrtimer *timer)
{
	struct loom_uwait *w = container_of(timer, struct loom_uwait, timer);
	struct loom_file *lf = w->lf;
	ktime_t now = ktime_get();
	unsigned long flags;
	int res = 0;
	bool mine;

	if (!ktime_before(now, w->deadline))
		res = -ETIME;
	else if (loom_uwait_owner_gone(w) || loom_uwait_ring_dying(w))
		res = -ECANCELED;
	if (!res) {
		hrtimer_set_expires(timer, loom_uwait_next_tick(w, now));
		return HRTIMER_RESTART;
	}
	spin_lock_irqsave(&lf->uring_lock, flags);
	mine = !w->claimed;
	if (mine)
		loom_uwait_claim(lf, w, res);
	spin_unlock_irqrestore(&lf->uring_lock, flags);
	if (mine)
		io_uring_cmd_complete_in_task(w->cmd, loom_uwait_task);
	return HRTIMER_NORESTART;
}

/**
 * loom_file_find_ctx() - a context of a file by its card index
 * @lf: the file
 * @index: card index
 *
 * Caller holds ldev->lock.
 *
 * Return: the context, or NULL when @lf has none with that index.
 */
struct loom_ctx *loom_file_find_ctx(struct loom_file *lf, u32 index)
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

/*
 * Is what @w waits for there?  1 yes, 0 not yet, -EIO the card failed.
 * @ctx is its context; ldev->lock held, card alive.
 */
static int loom_uwait_test(struct loom_ctx *ctx, struct loom_uwait *w)
{
	struct loom_dev *ldev = ctx->lf->ldev;
	const __le64 *cnt;

	switch (w->kind) {
	case LOOM_UWAIT_BSU:
		return loom_bsu_cond_met(ldev, w->unit, w->cond, (u32)w->value);
	case LOOM_UWAIT_COUNTER:
		cnt = ctx->counters.va;
		return le64_to_cpu(READ_ONCE(cnt[w->id])) >= w->value;
	default:
		return loom_ctx_cq_ready(ctx);
	}
}

/*
 * Check what a wait names against its context and make sure an interrupt
 * will tell when it may be met.  ldev->lock held, card alive.
 */
static int loom_uwait_prepare(struct loom_ctx *ctx, struct loom_uwait *w)
{
	struct loom_dev *ldev = ctx->lf->ldev;
	int err;

	switch (w->kind) {
	case LOOM_UWAIT_BSU:
		return loom_bsu_wait_check(ldev, ctx, w->unit, w->cond);
	case LOOM_UWAIT_COUNTER:
		if (!ctx->counters.va || w->id >= LOOM_CTX_COUNTERS)
			return -EINVAL;
		/* the card raises the vector after each counter write-back */
		err = loom_hw_ctx_arm_counter_irq(ldev, ctx->index,
						  ctx->cmdq_log2, ctx->cq_log2);
		if (err)
			return err;
		/* armed before the counter is read; the card pairs with it */
		mb();
		return 0;
	default:
		return 0;
	}
}

/* Read the payload of @cmd into @w (the SQE may be user memory: once). */
static int loom_uwait_parse(struct io_uring_cmd *cmd, struct loom_uwait *w,
			    u64 *timeout_ns)
{
	const u8 *raw = (const u8 *)cmd->cmd;
	struct loom_uring_wait_counter cw;
	struct loom_uring_wait_bsu bw;
	struct loom_uring_wait req;
	size_t len;

	switch (cmd->cmd_op) {
	case LOOM_URING_WAIT_BSU:
		memcpy(&bw, raw, sizeof(bw));
		if (bw.flags || bw.pad)
			return -EINVAL;
		w->kind = LOOM_UWAIT_BSU;
		w->ctx_index = bw.ctx_index;
		w->user_id = bw.user_id;
		w->unit = bw.unit;
		w->cond = bw.cond;
		w->value = bw.value;
		*timeout_ns = bw.timeout_ns;
		len = sizeof(bw);
		break;
	case LOOM_URING_WAIT_COUNTER:
		memcpy(&cw, raw, sizeof(cw));
		if (cw.flags || cw.pad)
			return -EINVAL;
		w->kind = LOOM_UWAIT_COUNTER;
		w->ctx_index = cw.ctx_index;
		w->user_id = cw.user_id;
		w->id = cw.counter;
		w->value = cw.value;
		*timeout_ns = cw.timeout_ns;
		len = sizeof(cw);
		break;
	default:
		memcpy(&req, raw, sizeof(req));
		if (req.flags)
			return -EINVAL;
		w->kind = LOOM_UWAIT_CQ;
		w->ctx_index = req.ctx_index;
		w->user_id = req.user_id;
		*timeout_ns = req.timeout_ns;
		len = sizeof(req);
		break;
	}
	if (*timeout_ns > LOOM_URING_MAX_TIMEOUT_NS ||
	    memchr_inv(raw + len, 0, LOOM_URING_CMD_BYTES - len))
		return -EINVAL;
	return 0;
}

static int loom_uring_wait(struct loom_file *lf, struct io_uring_cmd *cmd,
			   unsigned int issue_flags)
{
	struct loom_dev *ldev = lf->ldev;
	struct loom_uwait *w;
	struct loom_ctx *ctx;
	unsigned long flags;
	u64 timeout_ns;
	int err, ready;

	BUILD_BUG_ON(sizeof(struct loom_uring_wait_bsu) > LOOM_URING_CMD_BYTES);
	BUILD_BUG_ON(sizeof(struct loom_uring_wait_counter) >
		     LOOM_URING_CMD_BYTES);
	w = kzalloc(sizeof(*w), GFP_KERNEL_ACCOUNT);
	if (!w)
		return -ENOMEM;
	err = loom_uwait_parse(cmd, w, &timeout_ns);
	if (err) {
		kfree(w);
		return err;
	}
	/* io-wq and SQPOLL threads belong to the submitting process too */
	w->owner = get_task_struct(current->group_leader);
	w->lf = lf;
	w->cmd = cmd;
	INIT_LIST_HEAD(&w->node);
	hrtimer_init(&w->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	w->timer.function = loom_uwait_timeout;
	loom_uring_pdu(cmd)->wait = w;

	/* ldev->lock is held for seconds by admin commands: do not stall */
	if (issue_flags & IO_URING_F_NONBLOCK) {
		if (!mutex_trylock(&ldev->lock)) {
			loom_uwait_free(w);
			return -EAGAIN;
		}
	} else {
		mutex_lock(&ldev->lock);
	}
	if (ldev->dead) {
		err = -EIO;
		goto err_unlock;
	}
	ctx = loom_file_find_ctx(lf, w->ctx_index);
	if (!ctx) {
		err = -EINVAL;
		goto err_unlock;
	}
	err = loom_uwait_prepare(ctx, w);
	if (err)
		goto err_unlock;
	if (!timeout_ns) {
		ready = loom_uwait_test(ctx, w);
		err = ready < 0 ? ready : ready ? 0 : -ETIME;
		goto err_unlock;
	}

	/*
	 * On the list before the test, in one critical section: an event
	 * after the test raises an interrupt, whose scan (under ldev->lock,
	 * after us) then finds this wait.  Once the lock is dropped another
	 * owner may claim and free @w: do not touch it.
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
	/* count before the test; pairs with the interrupt's read */
	smp_mb__after_atomic();
	ready = loom_uwait_test(ctx, w);
	if (ready) {
		loom_uwait_claim(lf, w, min(ready, 0));
	} else {
		ktime_t now = ktime_get();

		w->deadline = ktime_add_ns(now, timeout_ns);
		w->since = now;
		hrtimer_start(&w->timer, loom_uwait_next_tick(w, now),
			      HRTIMER_MODE_ABS);
	}
	spin_unlock_irqrestore(&lf->uring_lock, flags);
	mutex_unlock(&ldev->lock);
	if (ready) {
		loom_uwait_free(w);
		return min(ready, 0);
	}
	return -EIOCBQUEUED;

err_unlock:
	mutex_unlock(&ldev->lock);
	loom_uwait_free(w);
	return err;
}

/* In the submitter's task: post the count of a LOOM_URING_CANCEL. */
static void loom_ucancel_task(struct io_uring_cmd *cmd,
			      unsigned int issue_flags)
{
	io_uring_cmd_done(cmd, loom_uring_pdu(cmd)->count, 0, issue_flags);
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
	if (!n)
		return 0;
	/* a positive result is never returned from here: see the top */
	loom_uring_pdu(cmd)->count = n;
	io_uring_cmd_complete_in_task(cmd, loom_ucancel_task);
	return -EIOCBQUEUED;
}

/* What the card would refuse in @d, as an errno; @ctx gives the segment. */
static int loom_usubmit_check(const struct loom_ctx *ctx,
			      const struct loom_cmd *d)
{
	const u8 known = LOOM_CMD_F_SIGNAL | LOOM_CMD_F_FENCE |
			 LOOM_CMD_F_ORDERED | LOOM_CMD_F_REMOTE_CQE |
			 LOOM_CMD_F_LOCAL_MR | LOOM_CMD_F_REMOTE_MR;
	bool transfer = false;

	if (d->flags & ~known)
		return -EINVAL;
	switch (d->opcode) {
	case LOOM_OP_NOP:
		return 0;
	case LOOM_OP_PUT_COUNTED:
		/* the counter id and remote offset share the packet's aux */
		if (d->aux > 0xffff || d->remote_off >= BIT_ULL(48))
			return -EINVAL;
		fallthrough;
	case LOOM_OP_PUT:
	case LOOM_OP_GET:
		transfer = true;
		break;
	case LOOM_OP_ATOMIC:
		/* in a region, alignment is the memory's: the card checks it */
		if (d->length != 8 ||
		    (d->remote_off % 8 && !(d->flags & LOOM_CMD_F_REMOTE_MR)) ||
		    d->aux < LOOM_AMO_FETCH_ADD || d->aux > LOOM_AMO_CSWAP)
			return -EINVAL;
		break;
	case LOOM_OP_COUNTER_WAIT:
		return d->aux < LOOM_CTX_COUNTERS ? 0 : -EINVAL;
	case LOOM_OP_BARRIER:
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
	if (d->dst_node >= LOOM_MAX_NODES)
		return -EINVAL;
	if (transfer && !d->length)
		return -EINVAL;
	/* a local region's bounds are the card's to check (its table) */
	if (transfer && !(d->flags & LOOM_CMD_F_LOCAL_MR) &&
	    (d->local_off > ctx->seg.size ||
	     d->length > ctx->seg.size - d->local_off))
		return -ERANGE;
	return 0;
}

/*
 * Publish the descriptors the kernel wrote into context @index's ring:
 * one doorbell (and kick) however many there are.
 */
static int loom_usubmit_publish(struct loom_file *lf, u32 index)
{
	struct loom_dev *ldev = lf->ldev;
	struct loom_ctx *ctx;
	int err = 0;

	mutex_lock(&ldev->lock);
	if (ldev->dead) {
		err = -EIO;
		goto out;
	}
	ctx = loom_file_find_ctx(lf, index);
	if (!ctx) {
		err = -ECANCELED;
		goto out;
	}
	if (ctx->uring_pi_pending) {
		/* the descriptors before the producer index that names them */
		wmb();
		loom_hw_db_set_cmd_pi(ldev, index, ctx->uring_pi);
		ctx->uring_pi_pending = false;
	}
out:
	mutex_unlock(&ldev->lock);
	return err;
}

/*
 * In the submitter's task, after io_uring_enter() issued all its SQEs: the
 * first of a batch rings the doorbell, the others find nothing pending.
 */
static void loom_usubmit_task(struct io_uring_cmd *cmd,
			      unsigned int issue_flags)
{
	struct loom_file *lf = cmd->file->private_data;

	io_uring_cmd_done(cmd,
			  loom_usubmit_publish(lf, loom_uring_pdu(cmd)->ctx_index),
			  0, issue_flags);
}

static int loom_uring_submit(struct loom_file *lf, struct io_uring_cmd *cmd,
			     unsigned int issue_flags)
{
	struct loom_dev *ldev = lf->ldev;
	struct loom_uring_submit req;
	struct loom_cmd desc;
	struct loom_ctx *ctx;
	u32 pi, ci, mask;
	int err;

	BUILD_BUG_ON(sizeof(req) != LOOM_URING_CMD_BYTES);
	BUILD_BUG_ON(sizeof(desc) != sizeof(req.desc));
	/* the SQE may be user memory: read it once */
	memcpy(&req, cmd->cmd, sizeof(req));
	if (req.flags || req.reserved)
		return -EINVAL;
	memcpy(&desc, req.desc, sizeof(desc));

	if (issue_flags & IO_URING_F_NONBLOCK) {
		if (!mutex_trylock(&ldev->lock))
			return -EAGAIN;
	} else {
		mutex_lock(&ldev->lock);
	}
	if (ldev->dead) {
		err = -EIO;
		goto out;
	}
	ctx = loom_file_find_ctx(lf, req.ctx_index);
	if (!ctx || !ctx->cmdq.va) {
		err = -EINVAL;
		goto out;
	}
	err = loom_usubmit_check(ctx, &desc);
	if (err)
		goto out;
	/* CMD_PI is write-only: the kernel's copy of what it wrote */
	pi = ctx->uring_pi;
	err = loom_hw_ctx_cmd_ci(ldev, ctx->index, &ci);
	if (err)
		goto out;
	/* descriptors stored through the mapping and consumed: go on after them */
	if (!ctx->uring_pi_pending && (s32)(ci - pi) > 0)
		pi = ci;
	mask = (1u << ctx->cmdq_log2) - 1;
	/* free-running indices: the card has not fetched a ring's worth */
	if (pi - ci > mask) {
		err = -ENOBUFS;
		goto out;
	}
	memcpy((struct loom_cmd *)ctx->cmdq.va + (pi & mask), &desc,
	       sizeof(desc));
	ctx->uring_pi = pi + 1;
	ctx->uring_pi_pending = true;
	loom_uring_pdu(cmd)->ctx_index = ctx->index;
	io_uring_cmd_complete_in_task(cmd, loom_usubmit_task);
	err = -EIOCBQUEUED;
out:
	mutex_unlock(&ldev->lock);
	return err;
}

/*
 * LOOM_URING_MR_REG/DEREG: the ioctl's work, which pins pages and waits
 * for the card, so never in a non-blocking issue: io-wq retries it.
 */
static int loom_uring_mr(struct loom_file *lf, struct io_uring_cmd *cmd,
			 unsigned int issue_flags)
{
	struct loom_uring_mr req;
	void __user *uarg;

	BUILD_BUG_ON(sizeof(req) > LOOM_URING_CMD_BYTES);
	memcpy(&req, cmd->cmd, sizeof(req));
	if (req.flags || req.pad ||
	    memchr_inv((const u8 *)cmd->cmd + sizeof(req), 0,
		       LOOM_URING_CMD_BYTES - sizeof(req)))
		return -EINVAL;
	if (issue_flags & IO_URING_F_NONBLOCK)
		return -EAGAIN;
	uarg = u64_to_user_ptr(req.arg);
	if (cmd->cmd_op == LOOM_URING_MR_REG)
		return loom_mr_reg_user(lf, uarg);
	return loom_mr_dereg_user(lf, uarg);
}

/**
 * loom_uring_cmd() - file_operations.uring_cmd of /dev/loomN
 * @cmd: the command
 * @issue_flags: IO_URING_F_*
 *
 * Return: 0 when done at once, -EIOCBQUEUED when the command completes
 * later (io_uring_cmd_done() is then called exactly once), -EAGAIN to be
 * retried blocking, or a negative errno.  Never a positive value (see the
 * top of this file).
 */
int loom_uring_cmd(struct io_uring_cmd *cmd, unsigned int issue_flags)
{
	struct loom_file *lf = cmd->file->private_data;

	/* without SQE128 the payload area is 16 bytes */
	if (!(issue_flags & IO_URING_F_SQE128))
		return -EINVAL;
	switch (cmd->cmd_op) {
	case LOOM_URING_WAIT_CQ:
	case LOOM_URING_WAIT_BSU:
	case LOOM_URING_WAIT_COUNTER:
		return loom_uring_wait(lf, cmd, issue_flags);
	case LOOM_URING_CANCEL:
		return loom_uring_cancel(lf, cmd);
	case LOOM_URING_SUBMIT:
		return loom_uring_submit(lf, cmd, issue_flags);
	case LOOM_URING_MR_REG:
	case LOOM_URING_MR_DEREG:
		return loom_uring_mr(lf, cmd, issue_flags);
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
 * loom_uring_scan() - work: complete the waits that are met
 * @work: ldev->uring_work, queued by the completion or event interrupt
 */
void loom_uring_scan(struct work_struct *work)
{
	struct loom_dev *ldev = container_of(work, struct loom_dev, uring_work);
	struct loom_uwait *w, *tmp;
	struct loom_file *lf;
	struct loom_ctx *ctx;
	unsigned long flags;
	LIST_HEAD(claimed);
	int ready;

	mutex_lock(&ldev->lock);
	if (ldev->dead)
		goto out;
	list_for_each_entry(lf, &ldev->files, node) {
		spin_lock_irqsave(&lf->uring_lock, flags);
		list_for_each_entry_safe(w, tmp, &lf->uring_waits, node) {
			ctx = loom_file_find_ctx(lf, w->ctx_index);
			ready = ctx ? loom_uwait_test(ctx, w) : -ECANCELED;
			if (!ready)
				continue;
			loom_uwait_claim(lf, w, min(ready, 0));
			list_add_tail(&w->node, &claimed);
		}
		spin_unlock_irqrestore(&lf->uring_lock, flags);
	}
out:
	mutex_unlock(&ldev->lock);
	loom_uwait_finish_list(&claimed, false);
}

/**
 * loom_uring_irq() - from an interrupt: scan if anyone waits
 * @ldev: the card
 */
void loom_uring_irq(struct loom_dev *ldev)
{
	if (atomic_read(&ldev->uring_waits))
		schedule_work(&ldev->uring_work);
}
