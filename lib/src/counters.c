// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libloom counters: the context's counters page, which the card writes as
 * counted puts land, read directly; waits sleep on the device (poll() on a
 * COUNTER_WAIT completion, or LOOM_URING_WAIT_COUNTER in io_uring mode).
 */
#include <errno.h>

#include <linux/loom.h>

#include <loom.h>

#include "ctx_internal.h"

/* Longest sleep between two looks at the page when no completion comes. */
#define COUNTER_RECHECK_MS	50

static uint64_t counter_load(const struct loom_ctx *ctx, uint32_t id)
{
	return __atomic_load_n(&ctx->counters[id], __ATOMIC_ACQUIRE);
}

static int counter_check(const struct loom_ctx *ctx, uint32_t id)
{
	if (!ctx)
		return -EINVAL;
	if (!ctx->counters)
		return -EOPNOTSUPP;
	return id < ctx->n_counters ? 0 : -EINVAL;
}

int loom_counter_read(const struct loom_ctx *ctx, uint32_t id, uint64_t *value)
{
	int err = counter_check(ctx, id);

	if (err)
		return err;
	if (!value)
		return -EINVAL;
	*value = counter_load(ctx, id);
	return 0;
}

int loom_counter_notify(struct loom_ctx *ctx, uint32_t id, uint64_t threshold, uint64_t tag)
{
	struct loom_cmd *cmd;
	int err = counter_check(ctx, id);

	if (err)
		return err;
	if ((tag & LOOM_TAG_RESERVED) == LOOM_TAG_RESERVED)
		return -EINVAL;
	cmd = loom_next_cmd(ctx);
	if (!cmd)
		return -EAGAIN;
	cmd->opcode = LOOM_OP_COUNTER_WAIT;
	cmd->tag = tag;
	cmd->aux = id;
	cmd->operand = threshold;
	loom_post_cmd(ctx, cmd);
	return 0;
}

/*
 * Completion mode io_uring: LOOM_URING_WAIT_COUNTER sleeps in the kernel
 * until the counter is >= @value (the card raises the context's vector
 * after each counter write-back once the kernel asked it to), in slices
 * of at most a second.
 */
static int counter_wait_uring(struct loom_ctx *ctx, uint32_t id, uint64_t value,
			      int timeout_ms)
{
	int64_t deadline = timeout_ms < 0 ? -1 :
			   (loom_now_ms() + timeout_ms) * 1000000;

	for (;;) {
		uint64_t slice = loom_uring_slice(deadline);
		uint64_t uid;
		struct loom_uring_wait_counter w;
		int r;

		if (counter_load(ctx, id) >= value)
			return 0;
		if (!slice)
			return -ETIMEDOUT;
		uid = loom_uring_next_id(ctx->uring);
		w = (struct loom_uring_wait_counter){
			.ctx_index = ctx->index,
			.timeout_ns = slice,
			.user_id = uid,
			.counter = id,
			.value = value,
		};
		r = loom_uring_cmd(ctx->uring, ctx->dev->fd, LOOM_URING_WAIT_COUNTER, uid, &w,
				   sizeof(w));
		switch (r) {
		case 0:		/* reached */
		case -ETIME:	/* the slice ended */
		case -ECANCELED:
			continue;
		default:
			return r;	/* -EIO: the card went away */
		}
	}
}

int loom_counter_wait(struct loom_ctx *ctx, uint32_t id, uint64_t value, int timeout_ms)
{
	int64_t deadline = timeout_ms < 0 ? -1 : loom_now_ms() + timeout_ms;
	bool armed = false;
	int err = counter_check(ctx, id);

	if (err)
		return err;
	if (ctx->uring)
		return counter_wait_uring(ctx, id, value, timeout_ms);
	for (;;) {
		int64_t left;
		int wait;

		if (counter_load(ctx, id) >= value)
			return 0;
		/* ask the card for a completion when the counter gets there */
		if (!armed && ctx->cmd_credits) {
			struct loom_cmd *cmd = loom_next_cmd(ctx);

			cmd->opcode = LOOM_OP_COUNTER_WAIT;
			cmd->tag = LOOM_TAG_INTERNAL(++ctx->internal_seq);
			cmd->aux = id;
			cmd->operand = value;
			loom_post_cmd(ctx, cmd);
			armed = true;
		}
		/* keep the ring drained so that the device's POLLIN means news */
		err = loom_stash_reap(ctx);
		if (err)
			return err;
		if (counter_load(ctx, id) >= value)
			return 0;
		left = deadline < 0 ? COUNTER_RECHECK_MS : deadline - loom_now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		wait = left < COUNTER_RECHECK_MS ? (int)left : COUNTER_RECHECK_MS;
		err = loom_sleep_cq(ctx, wait);
		if (err)
			return err;
	}
}
