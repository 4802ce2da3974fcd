// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libloom memory regions: registration (one ioctl) and the operations
 * that name registered memory by key (LOOM_CMD_F_LOCAL_MR, _REMOTE_MR).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>

#include <linux/loom.h>
#include <loom.h>

#include "ctx_internal.h"

struct loom_mr {
	struct loom_ctx *ctx;
	void *addr;
	size_t len;
	uint32_t access;
	uint32_t key;
};

/* the library's rights are the kernel's and the card's */
_Static_assert(LOOM_MR_LOCAL_WRITE == LOOM_MR_ACCESS_LOCAL_WRITE &&
		       LOOM_MR_REMOTE_READ == LOOM_MR_ACCESS_REMOTE_READ &&
		       LOOM_MR_REMOTE_WRITE == LOOM_MR_ACCESS_REMOTE_WRITE &&
		       LOOM_MR_REMOTE_ATOMIC == LOOM_MR_ACCESS_REMOTE_ATOMIC,
	       "access bits");
_Static_assert(LOOM_MR_ACCESS_ALL == LOOM_MR_ACC_MASK, "access bits of the card");
_Static_assert(LOOM_STATUS_MR_KEY == LOOM_CQE_ST_MR_KEY &&
		       LOOM_STATUS_MR_BOUNDS == LOOM_CQE_ST_MR_BOUNDS &&
		       LOOM_STATUS_MR_ACCESS == LOOM_CQE_ST_MR_ACCESS,
	       "statuses");

int loom_mr_reg(struct loom_ctx *ctx, void *addr, size_t len, uint32_t access,
		struct loom_mr **mrp)
{
	struct loom_mr_reg req = {
		.argsz = sizeof(req),
		.ctx_index = ctx ? ctx->index : 0,
		.access = access,
		.addr = (uintptr_t)addr,
		.length = len,
	};
	struct loom_mr *mr;

	if (!ctx || !addr || !mrp || !len || len > LOOM_MR_MAX_LENGTH ||
	    access & ~LOOM_MR_ACCESS_ALL)
		return -EINVAL;
	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return -ENOMEM;
	if (ioctl(ctx->dev->fd, LOOM_IOC_MR_REG, &req)) {
		int err = -errno;

		free(mr);
		return err;
	}
	mr->ctx = ctx;
	mr->addr = addr;
	mr->len = len;
	mr->access = access;
	mr->key = req.lkey;
	*mrp = mr;
	return 0;
}

int loom_mr_dereg(struct loom_mr *mr)
{
	struct loom_mr_dereg req = { .argsz = sizeof(req) };
	int err = 0;

	if (!mr)
		return 0;
	req.ctx_index = mr->ctx->index;
	req.lkey = mr->key;
	if (ioctl(mr->ctx->dev->fd, LOOM_IOC_MR_DEREG, &req))
		err = -errno;
	free(mr);
	return err;
}

uint32_t loom_mr_lkey(const struct loom_mr *mr)
{
	return mr->key;
}

uint32_t loom_mr_rkey(const struct loom_mr *mr)
{
	return mr->key;
}

void *loom_mr_addr(const struct loom_mr *mr)
{
	return mr->addr;
}

size_t loom_mr_length(const struct loom_mr *mr)
{
	return mr->len;
}

/* Claim a command naming the remote region @rkey on @node. */
static struct loom_cmd *claim_mr_cmd(struct loom_ctx *ctx, uint8_t opcode, uint32_t node,
				     uint32_t rkey, uint64_t remote_off, uint64_t tag)
{
	const struct loom_remote peer = { .node = node };
	struct loom_cmd *cmd = loom_claim_remote_cmd(ctx, opcode, &peer, tag);

	if (!cmd)
		return NULL;
	cmd->flags |= LOOM_CMD_F_REMOTE_MR;
	cmd->key = rkey;
	cmd->remote_off = remote_off;
	return cmd;
}

/* Checks of a transfer from or to [local_off, +len) of my region @mr. */
static int check_local(const struct loom_ctx *ctx, const struct loom_mr *mr, uint64_t local_off,
		       uint64_t len)
{
	if (!ctx || !mr || mr->ctx != ctx || !len)
		return -EINVAL;
	if (local_off > mr->len || len > mr->len - local_off)
		return -ERANGE;
	return 0;
}

/* A transfer between my region and a remote one. */
static int post_transfer(struct loom_ctx *ctx, uint8_t opcode, uint32_t node, uint32_t rkey,
			 uint64_t remote_off, const struct loom_mr *mr, uint64_t local_off,
			 uint64_t len, uint32_t flags, uint32_t counter, uint64_t tag)
{
	struct loom_cmd *cmd = claim_mr_cmd(ctx, opcode, node, rkey, remote_off, tag);

	if (!cmd)
		return -EAGAIN;
	cmd->flags |= LOOM_CMD_F_LOCAL_MR;
	if (flags & LOOM_PUT_REMOTE_EVENT)
		cmd->flags |= LOOM_CMD_F_REMOTE_CQE;
	cmd->compare = mr->key;
	cmd->local_off = local_off;
	cmd->length = len;
	cmd->aux = counter;
	loom_post_cmd(ctx, cmd);
	return 0;
}

int loom_put_mr(struct loom_ctx *ctx, uint32_t node, uint32_t rkey, uint64_t remote_off,
		const struct loom_mr *mr, uint64_t local_off, uint64_t len, uint32_t flags,
		uint64_t tag)
{
	int err = check_local(ctx, mr, local_off, len);

	if (err)
		return err;
	if (flags & ~LOOM_PUT_REMOTE_EVENT)
		return -EINVAL;
	return post_transfer(ctx, LOOM_OP_PUT, node, rkey, remote_off, mr, local_off, len, flags,
			     0, tag);
}

int loom_get_mr(struct loom_ctx *ctx, uint32_t node, uint32_t rkey, uint64_t remote_off,
		const struct loom_mr *mr, uint64_t local_off, uint64_t len, uint32_t flags,
		uint64_t tag)
{
	int err = check_local(ctx, mr, local_off, len);

	if (err)
		return err;
	if (flags || !(mr->access & LOOM_MR_LOCAL_WRITE))
		return -EINVAL;
	return post_transfer(ctx, LOOM_OP_GET, node, rkey, remote_off, mr, local_off, len, 0, 0,
			     tag);
}

int loom_put_counted_mr(struct loom_ctx *ctx, uint32_t node, uint32_t rkey,
			uint64_t remote_off, const struct loom_mr *mr, uint64_t local_off,
			uint64_t len, uint32_t counter, uint32_t flags, uint64_t tag)
{
	int err = check_local(ctx, mr, local_off, len);

	if (err)
		return err;
	if (!loom_counted_args_ok(flags, counter, remote_off))
		return -EINVAL;
	return post_transfer(ctx, LOOM_OP_PUT_COUNTED, node, rkey, remote_off, mr, local_off,
			     len, flags, counter, tag);
}

int loom_atomic_mr(struct loom_ctx *ctx, uint32_t node, uint32_t rkey, uint64_t remote_off,
		   uint32_t op, uint64_t operand, uint64_t compare, uint64_t tag)
{
	struct loom_cmd *cmd;

	/* the word's alignment in memory is the target card's to check */
	if (!ctx || op < LOOM_ATOMIC_FETCH_ADD || op > LOOM_ATOMIC_CSWAP)
		return -EINVAL;
	cmd = claim_mr_cmd(ctx, LOOM_OP_ATOMIC, node, rkey, remote_off, tag);
	if (!cmd)
		return -EAGAIN;
	cmd->length = 8;
	cmd->aux = op;
	cmd->operand = operand;
	cmd->compare = compare;
	loom_post_cmd(ctx, cmd);
	return 0;
}
