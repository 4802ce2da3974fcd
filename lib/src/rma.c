// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libloom remote memory operations beyond put: get, counted put, atomics,
 * fence and quiet.
 */
#include <errno.h>

#include <loom.h>

#include "ctx_internal.h"

/* Checks shared by the operations that move bytes of my segment. */
static int check_transfer(const struct loom_ctx *ctx, const struct loom_remote *peer,
			  uint64_t local_off, uint64_t len)
{
	if (!ctx || !peer || !len || peer->ctx > UINT16_MAX)
		return -EINVAL;
	if (local_off > ctx->segment_size || len > ctx->segment_size - local_off)
		return -ERANGE;
	return 0;
}

int loom_get(struct loom_ctx *ctx, const struct loom_remote *src, uint64_t remote_off,
	     uint64_t local_off, uint64_t len, uint32_t flags, uint64_t tag)
{
	struct loom_cmd *cmd;
	int err = check_transfer(ctx, src, local_off, len);

	if (err)
		return err;
	if (flags)
		return -EINVAL;
	cmd = loom_claim_remote_cmd(ctx, LOOM_OP_GET, src, tag);
	if (!cmd)
		return -EAGAIN;
	cmd->local_off = local_off;
	cmd->remote_off = remote_off;
	cmd->length = len;
	loom_post_cmd(ctx, cmd);
	return 0;
}

int loom_put_counted(struct loom_ctx *ctx, const struct loom_remote *dst, uint64_t remote_off,
		     uint64_t local_off, uint64_t len, uint32_t counter, uint32_t flags,
		     uint64_t tag)
{
	struct loom_cmd *cmd;
	int err = check_transfer(ctx, dst, local_off, len);

	if (err)
		return err;
	if (!loom_counted_args_ok(flags, counter, remote_off))
		return -EINVAL;
	cmd = loom_claim_remote_cmd(ctx, LOOM_OP_PUT_COUNTED, dst, tag);
	if (!cmd)
		return -EAGAIN;
	if (flags & LOOM_PUT_REMOTE_EVENT)
		cmd->flags |= LOOM_CMD_F_REMOTE_CQE;
	cmd->local_off = local_off;
	cmd->remote_off = remote_off;
	cmd->length = len;
	cmd->aux = counter;
	loom_post_cmd(ctx, cmd);
	return 0;
}

int loom_atomic(struct loom_ctx *ctx, const struct loom_remote *dst, uint64_t remote_off,
		uint32_t op, uint64_t operand, uint64_t compare, uint64_t tag)
{
	struct loom_cmd *cmd;

	if (!ctx || !dst || dst->ctx > UINT16_MAX || remote_off % 8 ||
	    op < LOOM_ATOMIC_FETCH_ADD || op > LOOM_ATOMIC_CSWAP)
		return -EINVAL;
	cmd = loom_claim_remote_cmd(ctx, LOOM_OP_ATOMIC, dst, tag);
	if (!cmd)
		return -EAGAIN;
	cmd->remote_off = remote_off;
	cmd->length = 8;
	cmd->aux = op;
	cmd->operand = operand;
	cmd->compare = compare;
	loom_post_cmd(ctx, cmd);
	return 0;
}

int loom_fence(struct loom_ctx *ctx)
{
	if (!ctx)
		return -EINVAL;
	ctx->fence_next = true;
	return 0;
}

/* Post a library-internal command, reaping into the stash while the ring is full. */
static int post_internal(struct loom_ctx *ctx, uint8_t opcode, uint32_t flags, uint32_t aux,
			 uint64_t operand, int64_t deadline, uint32_t *seq)
{
	for (;;) {
		struct loom_cmd *cmd = loom_next_cmd(ctx);
		int err;

		if (cmd) {
			*seq = ++ctx->internal_seq;
			cmd->opcode = opcode;
			cmd->flags = (uint8_t)(LOOM_CMD_F_SIGNAL | flags);
			cmd->tag = LOOM_TAG_INTERNAL(*seq);
			cmd->aux = aux;
			cmd->operand = operand;
			loom_post_cmd(ctx, cmd);
			return 0;
		}
		err = loom_stash_reap(ctx);
		if (err)
			return err;
		if (ctx->cmd_credits)
			continue;
		if (deadline >= 0 && loom_now_ms() >= deadline)
			return -ETIMEDOUT;
		err = loom_sleep_cq(ctx, deadline < 0 ? -1 : (int)(deadline - loom_now_ms()));
		if (err)
			return err;
	}
}

int loom_quiet(struct loom_ctx *ctx, int timeout_ms)
{
	int64_t deadline = timeout_ms < 0 ? -1 : loom_now_ms() + timeout_ms;
	uint32_t seq;
	int err;

	if (!ctx)
		return -EINVAL;
	/*
	 * A fenced NOP starts once every earlier operation has completed, and
	 * the card posts completions in order: when its completion is seen,
	 * every earlier operation's is in the ring (and now in the stash).
	 */
	ctx->fence_next = false;
	err = post_internal(ctx, LOOM_OP_NOP, LOOM_CMD_F_FENCE, 0, 0, deadline, &seq);
	for (; !err;) {
		int64_t left;

		err = loom_stash_reap(ctx);
		if (err || (int32_t)(ctx->quiet_done - seq) >= 0)
			break;
		left = deadline < 0 ? -1 : deadline - loom_now_ms();
		if (deadline >= 0 && left <= 0)
			return -ETIMEDOUT;
		err = loom_sleep_cq(ctx, (int)left);
	}
	return err;
}
