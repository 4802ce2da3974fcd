// SPDX-License-Identifier: GPL-2.0
/*
 * iou_inspect.ko: a debugging aid of the debug-kernel campaign, for Linux
 * 6.1 only.  Loading it logs, for every thread that has used io_uring,
 * what io_uring holds for it -- its pending task work, its in-flight
 * count, and every ring it has used with that ring's state (torn down or
 * not, references left, deferred and fallback work) -- and then refuses to
 * stay loaded (-ECANCELED).  It reads io_uring's private structures
 * (struct io_tctx_node is io_uring/tctx.h's), so it is built for the
 * kernel it inspects and for nothing else.
 */
#include <linux/io_uring_types.h>
#include <linux/module.h>
#include <linux/percpu-refcount.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/task_work.h>
#include <linux/xarray.h>

/* io_uring/tctx.h (6.1) */
struct io_tctx_node {
	struct list_head ctx_node;
	struct task_struct *task;
	struct io_ring_ctx *ctx;
};

static long iou_ref_count(struct percpu_ref *ref)
{
	/* a killed ref is in atomic mode: its count is exact */
	if (!percpu_ref_is_dying(ref) || !ref->data)
		return -1;
	return atomic_long_read(&ref->data->count);
}

static void iou_inspect_task(struct task_struct *t)
{
	struct io_uring_task *tctx = t->io_uring;
	struct io_tctx_node *node;
	unsigned long index;

	pr_info("iou_inspect: task %d/%d (%s) state %c%s%s%s: in_idle %d inflight %lld tracked %d task_list %s io_wq %s\n",
		task_tgid_nr(t), task_pid_nr(t), t->comm, task_state_to_char(t),
		t->flags & PF_EXITING ? " exiting" : "",
		test_tsk_thread_flag(t, TIF_NOTIFY_SIGNAL) ? " notify_signal" : "",
		READ_ONCE(t->task_works) ? " task_works" : "",
		atomic_read(&tctx->in_idle), percpu_counter_sum(&tctx->inflight),
		atomic_read(&tctx->inflight_tracked),
		llist_empty(&tctx->task_list) ? "empty" : "PENDING",
		tctx->io_wq ? "yes" : "no");
	xa_for_each(&tctx->xa, index, node) {
		struct io_ring_ctx *ctx = node->ctx;

		pr_info("iou_inspect:   ring %px flags %#x %s refs %ld work_llist %s fallback %s submitter %d sq %s\n",
			ctx, ctx->flags,
			percpu_ref_is_dying(&ctx->refs) ? "TORN DOWN" : "live",
			iou_ref_count(&ctx->refs),
			llist_empty(&ctx->work_llist) ? "empty" : "PENDING",
			llist_empty(&ctx->fallback_llist) ? "empty" : "PENDING",
			ctx->submitter_task ? task_pid_nr(ctx->submitter_task) : 0,
			ctx->sq_data ? "yes" : "no");
	}
}

static int __init iou_inspect_init(void)
{
	struct task_struct *p, *t;
	int n = 0;

	rcu_read_lock();
	for_each_process_thread(p, t) {
		if (!t->io_uring)
			continue;
		iou_inspect_task(t);
		n++;
	}
	rcu_read_unlock();
	pr_info("iou_inspect: %d threads with io_uring state\n", n);
	return -ECANCELED;
}
module_init(iou_inspect_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("log what io_uring holds for each thread (debugging aid, Linux 6.1)");
