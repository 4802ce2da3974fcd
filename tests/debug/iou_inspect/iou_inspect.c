// SPDX-License-Identifier: GPL-2.0
/*
 * iou_inspect.ko: a debugging aid of the debug-kernel campaign, for Linux
 * 6.1 only.  Loading it logs, for every thread that has used io_uring,
 * what io_uring holds for it -- its pending task work, its in-flight
 * count, and every ring it has used with that ring's state (torn down or
 * not, references left, deferred and fallback work) -- and then refuses to
 * stay loaded (-ECANCELED).  It logs as well every ring whose teardown a
 * kworker is running (io_ring_exit_work()): its references left (or
 * "switch_pending" while the kill's switch to atomic mode, an RCU
 * callback, has not run), its deferred and fallback work, and every
 * thread that has used it.  It reads io_uring's private structures
 * (struct io_tctx_node is io_uring/tctx.h's) without io_uring's locks,
 * so it is built for the kernel it inspects and for nothing else, and a
 * ring freed while it looks is read after its free (KASAN says so).
 */
#include <linux/io_uring_types.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
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

/* the head of kernel/workqueue_internal.h's struct worker (6.1) */
struct iou_worker_head {
	union {
		struct list_head entry;
		struct hlist_node hentry;
	};
	struct work_struct *current_work;
	work_func_t current_func;
};

/* lib/percpu-refcount.c's: a ref in per-CPU mode keeps it in its atomic count */
#define IOU_PERCPU_COUNT_BIAS	(1LU << (BITS_PER_LONG - 1))

/*
 * A ring's references: "live" before its kill; once killed, the count,
 * exact only after the switch to atomic mode, which an RCU callback makes
 * ("switch pending": the count still holds PERCPU_COUNT_BIAS, and what was
 * taken or dropped since the kill is shown apart).
 */
static const char *iou_ref_show(struct percpu_ref *ref, char *buf, size_t len)
{
	long count;

	if (!percpu_ref_is_dying(ref) || !ref->data)
		return "live";
	count = atomic_long_read(&ref->data->count);
	if (READ_ONCE(ref->data->confirm_switch))
		snprintf(buf, len, "switch_pending(%+ld)", (long)(count - IOU_PERCPU_COUNT_BIAS));
	else
		snprintf(buf, len, "%ld", count);
	return buf;
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
		char refs[48];

		pr_info("iou_inspect:   ring %px flags %#x %s refs %s work_llist %s fallback %s submitter %d sq %s\n",
			ctx, ctx->flags,
			percpu_ref_is_dying(&ctx->refs) ? "TORN DOWN" : "live",
			iou_ref_show(&ctx->refs, refs, sizeof(refs)),
			llist_empty(&ctx->work_llist) ? "empty" : "PENDING",
			llist_empty(&ctx->fallback_llist) ? "empty" : "PENDING",
			ctx->submitter_task ? task_pid_nr(ctx->submitter_task) : 0,
			ctx->sq_data ? "yes" : "no");
	}
}

/* a kworker running io_ring_exit_work(): the ring it tears down */
static void iou_inspect_exit_work(struct task_struct *t)
{
	struct iou_worker_head *w = kthread_data(t);
	struct io_tctx_node *node;
	struct io_ring_ctx *ctx;
	char func[KSYM_SYMBOL_LEN], refs[48];

	if (!w || !READ_ONCE(w->current_work))
		return;
	snprintf(func, sizeof(func), "%ps", READ_ONCE(w->current_func));
	if (strcmp(func, "io_ring_exit_work"))
		return;
	ctx = container_of(READ_ONCE(w->current_work), struct io_ring_ctx, exit_work);
	pr_info("iou_inspect: kworker %d tears down ring %px flags %#x refs %s work_llist %s fallback %s iopoll %s submitter %d sq %s\n",
		task_pid_nr(t), ctx, ctx->flags, iou_ref_show(&ctx->refs, refs, sizeof(refs)),
		llist_empty(&ctx->work_llist) ? "empty" : "PENDING",
		llist_empty(&ctx->fallback_llist) ? "empty" : "PENDING",
		READ_ONCE(ctx->iopoll_list.first) ? "PENDING" : "empty",
		ctx->submitter_task ? task_pid_nr(ctx->submitter_task) : 0,
		ctx->sq_data ? "yes" : "no");
	list_for_each_entry(node, &ctx->tctx_list, ctx_node)
		pr_info("iou_inspect:   used by %d/%d (%s) state %c%s task_list %s\n",
			task_tgid_nr(node->task), task_pid_nr(node->task), node->task->comm,
			task_state_to_char(node->task),
			node->task->flags & PF_EXITING ? " exiting" : "",
			node->task->io_uring && !llist_empty(&node->task->io_uring->task_list) ?
			"PENDING" : "empty");
}

static int __init iou_inspect_init(void)
{
	struct task_struct *p, *t;
	int n = 0;

	rcu_read_lock();
	for_each_process_thread(p, t) {
		if (t->flags & PF_WQ_WORKER)
			iou_inspect_exit_work(t);
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
