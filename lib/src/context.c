// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* libloom: creating a context and mapping its rings, doorbell and segment. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/loom.h>
#include <loom.h>

#include "ctx_internal.h"

#define DEFAULT_CMDQ_ENTRIES	256
#define DEFAULT_CQ_ENTRIES	1024
#define DEFAULT_SEGMENT_SIZE	(1u << 20)

static int log2_exact(uint32_t v)
{
	int l = 0;

	if (!v || (v & (v - 1)))
		return -1;
	while ((1u << l) != v)
		l++;
	return l;
}

static void *map_region(int fd, size_t len, uint64_t token)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       (off_t)token);

	return p == MAP_FAILED ? NULL : p;
}

static void unmap_all(struct loom_ctx *ctx)
{
	if (ctx->cmdq)
		munmap(ctx->cmdq, ctx->cmdq_bytes);
	if (ctx->cq)
		munmap(ctx->cq, ctx->cq_bytes);
	if (ctx->doorbell)
		munmap((void *)ctx->doorbell, LOOM_DB_PAGE_SIZE);
	if (ctx->segment)
		munmap(ctx->segment, ctx->segment_size);
	if (ctx->kick_page)
		munmap(ctx->kick_page, LOOM_DB_PAGE_SIZE);
	if (ctx->counters)
		munmap((void *)ctx->counters, (size_t)ctx->n_counters * sizeof(uint64_t));
}

static void destroy_kernel_ctx(struct loom_ctx *ctx)
{
	struct loom_ctx_destroy d = {
		.argsz = sizeof(d),
		.index = ctx->index,
	};

	(void)ioctl(ctx->dev->fd, LOOM_IOC_CTX_DESTROY, &d);
}

int loom_ctx_create(struct loom_dev *dev, const struct loom_ctx_attr *attr,
		    struct loom_ctx **ctxp)
{
	struct loom_ctx_create req = { .argsz = sizeof(req) };
	struct loom_ctx *ctx;
	int err, cmdq_log2, cq_log2;

	if (!dev || !ctxp)
		return -EINVAL;
	if (attr && (attr->flags & ~(LOOM_CTX_ATTR_INDEX | LOOM_CTX_ATTR_URING)))
		return -EINVAL;
	req.cmdq_entries = attr && attr->cmdq_entries ? attr->cmdq_entries : DEFAULT_CMDQ_ENTRIES;
	req.cq_entries = attr && attr->cq_entries ? attr->cq_entries : DEFAULT_CQ_ENTRIES;
	req.seg_size = attr && attr->segment_size ? attr->segment_size : DEFAULT_SEGMENT_SIZE;
	req.key = attr ? attr->key : 0;
	if (attr && (attr->flags & LOOM_CTX_ATTR_INDEX)) {
		req.flags |= LOOM_CTX_F_INDEX;
		req.index = attr->index;
	}
	cmdq_log2 = log2_exact(req.cmdq_entries);
	cq_log2 = log2_exact(req.cq_entries);
	if (cmdq_log2 < 0 || cq_log2 < 0)
		return -EINVAL;

	if (ioctl(dev->fd, LOOM_IOC_CTX_CREATE, &req) < 0)
		return -errno;

	ctx = calloc(1, sizeof(*ctx));
	if (!ctx) {
		err = -ENOMEM;
		goto err_kernel;
	}
	ctx->dev = dev;
	err = loom_busy_poll_init(ctx);
	if (err) {
		free(ctx);
		goto err_kernel;
	}
	ctx->index = req.index;
	ctx->node = req.node_id;
	ctx->cmdq_log2 = (uint32_t)cmdq_log2;
	ctx->cq_log2 = (uint32_t)cq_log2;
	ctx->cmd_credits = req.cmdq_entries;
	ctx->cmdq_bytes = (size_t)req.cmdq_entries * LOOM_CMD_SIZE;
	ctx->cq_bytes = (size_t)req.cq_entries * LOOM_CQE_SIZE;
	ctx->segment_size = req.seg_size;

	ctx->cmdq = map_region(dev->fd, ctx->cmdq_bytes, req.cmdq_token);
	ctx->cq = map_region(dev->fd, ctx->cq_bytes, req.cq_token);
	ctx->doorbell = map_region(dev->fd, LOOM_DB_PAGE_SIZE, req.doorbell_token);
	ctx->segment = map_region(dev->fd, ctx->segment_size, req.seg_token);
	if (!ctx->cmdq || !ctx->cq || !ctx->doorbell || !ctx->segment) {
		err = -errno;
		goto err_unmap;
	}
	if (req.out_flags & LOOM_CTX_OUT_KICK) {
		if (req.kick_offset > LOOM_DB_PAGE_SIZE - sizeof(uint32_t) ||
		    (req.kick_offset & 3)) {
			err = -EPROTO;
			goto err_unmap;
		}
		ctx->kick_page = map_region(dev->fd, LOOM_DB_PAGE_SIZE, req.kick_token);
		if (!ctx->kick_page) {
			err = -errno;
			goto err_unmap;
		}
		ctx->kick = (volatile uint32_t *)((char *)ctx->kick_page + req.kick_offset);
		ctx->kick_value = req.kick_value;
	}
	/* ABI 0.2 kernels: the counters page, read-only (the card writes it) */
	if (req.n_counters && req.counters_token) {
		void *p = mmap(NULL, (size_t)req.n_counters * sizeof(uint64_t), PROT_READ,
			       MAP_SHARED, dev->fd, (off_t)req.counters_token);

		if (p == MAP_FAILED) {
			err = -errno;
			goto err_unmap;
		}
		ctx->counters = p;
		ctx->n_counters = req.n_counters;
	}
	if (attr && (attr->flags & LOOM_CTX_ATTR_URING)) {
		err = loom_uring_open(ctx);
		if (err)
			goto err_unmap;
	}
	*ctxp = ctx;
	return 0;

err_unmap:
	unmap_all(ctx);
	free(ctx);
err_kernel:
	{
		struct loom_ctx tmp = { .dev = dev, .index = req.index };

		destroy_kernel_ctx(&tmp);
	}
	return err;
}

void loom_ctx_destroy(struct loom_ctx *ctx)
{
	if (!ctx)
		return;
	loom_uring_close(ctx);
	unmap_all(ctx);
	destroy_kernel_ctx(ctx);
	free(ctx->stash);
	free(ctx);
}

uint32_t loom_ctx_index(const struct loom_ctx *ctx)
{
	return ctx->index;
}

uint32_t loom_ctx_node(const struct loom_ctx *ctx)
{
	return ctx->node;
}

void *loom_ctx_segment(const struct loom_ctx *ctx, size_t *size)
{
	if (size)
		*size = ctx->segment_size;
	return ctx->segment;
}

uint32_t loom_ctx_counters(const struct loom_ctx *ctx)
{
	return ctx->n_counters;
}

int loom_ctx_fd(const struct loom_ctx *ctx)
{
	return ctx->dev->fd;
}
