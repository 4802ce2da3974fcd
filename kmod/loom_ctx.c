// SPDX-License-Identifier: GPL-2.0
/*
 * Contexts: a command ring, a completion ring and a memory segment in host
 * memory (pages mapped for the card, loom_dma_alloc()), a context record on the card pointing at
 * them, and a doorbell page.  Once the record is programmed, the memory of
 * a context is freed only when the card has acknowledged CTX_DISABLE as
 * done (it then guarantees no more DMA) or the card is quiet (bus
 * mastering off, at removal).  A context whose disable times out, is
 * refused, or cannot be sent because the card failed becomes an orphan of
 * the card: its index stays taken and its memory stays allocated until
 * then.
 *
 * ldev->lock is never held across the DMA allocations or an admin command
 * (a wait for the card of up to admin_timeout_ms), so that one process
 * creating or destroying a context never stalls the others: creation
 * reserves the card index and the file's slot under the lock (the slot
 * holds no context yet: nothing can find it), allocates and waits for
 * CTX_ENABLE without it, and publishes the context in the slot only once
 * the card runs it.  Destruction and release take the context out of its
 * file under the lock, wait for CTX_DISABLE without it, and free it (or
 * hand it to ldev->orphans) under the lock again.  Admin commands are
 * serialised by ldev->admin_lock alone.  Removal's RESET is the exception
 * (loom_ctx_hw_stop_all()).
 *
 * While a thread works on contexts outside their file and ldev->orphans
 * (creating, destroying, releasing), it holds them (ldev->ctx_held), and
 * removal waits until no thread does before it frees any context's memory:
 * each context is then freed or kept by exactly one path, under ldev->lock,
 * and no DMA memory outlives the device's binding.
 *
 * The memory is charged to the creating user's caps (loom_quota.c) and
 * pinned-memory limits (loom_pin.c); the kernel allocations made for a
 * context are charged to its memory cgroup (GFP_KERNEL_ACCOUNT).
 */
#include <linux/bitops.h>
#include <linux/cred.h>
#include <linux/dma-mapping.h>
#include <linux/log2.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include <loom_hw/ring.h>

#include "loom_drv.h"
#include "loom_token.h"

#define LOOM_SEG_MIN	SZ_4K
#define LOOM_SEG_MAX	SZ_4M

/* module-wide: what contexts of every card hold now (debugfs "memory") */
atomic_long_t loom_mem_contexts = ATOMIC_LONG_INIT(0);
atomic_long_t loom_mem_dma_bytes = ATOMIC_LONG_INIT(0);
/* module-wide: memory of removed cards' contexts kept for good (loom_dma_keep()) */
atomic_long_t loom_mem_kept_bytes = ATOMIC_LONG_INIT(0);

/*
 * Contexts of removed cards that may still write their memory: kept for
 * good (loom_ctx_free_dead()), reachable from here so nothing calls them
 * a leak.
 */
static LIST_HEAD(loom_kept);
static DEFINE_MUTEX(loom_kept_lock);

/**
 * loom_dma_alloc() - memory for the card, charged to the caller
 * @ldev: the card
 * @b: filled in
 * @size: bytes (rounded up to pages)
 *
 * Pages of the page allocator with a streaming mapping (DMA_BIDIRECTIONAL)
 * rather than dma_alloc_coherent(): the mapping can be undone while the
 * pages stay allocated, which is what loom_dma_keep() does for memory the
 * card may still write.  The rings and counters are shared by the CPU, the
 * card and user space at once, so the mapping must need no syncs: a device
 * whose mapping does (bounce buffers, or a device that is not cache
 * coherent; never the case for a PCI card on x86 without swiotlb=force)
 * gets -EIO with one line.
 *
 * Return: 0, -ENOMEM, or -EIO when the card cannot reach the memory
 * directly.
 */
int loom_dma_alloc(struct loom_dev *ldev, struct loom_dma_buf *b, size_t size)
{
	struct device *dev = &ldev->pdev->dev;

	b->size = PAGE_ALIGN(size);
	b->kept = false;
	/*
	 * a user asked for it: charged to its memory cgroup, and ENOMEM
	 * rather than a stack trace when it cannot be had
	 */
	b->va = alloc_pages_exact(b->size, GFP_KERNEL_ACCOUNT | __GFP_ZERO |
				  __GFP_NOWARN);
	if (!b->va)
		return -ENOMEM;
	b->dma = dma_map_single(dev, b->va, b->size, DMA_BIDIRECTIONAL);
	if (dma_mapping_error(dev, b->dma)) {
		free_pages_exact(b->va, b->size);
		b->va = NULL;
		return -ENOMEM;
	}
	if (dma_need_sync(dev, b->dma)) {
		dev_err_once(dev, "the card reaches host memory only through bounce buffers or without cache coherence; its rings need direct, coherent DMA (check swiotlb= and the IOMMU mode)\n");
		dma_unmap_single(dev, b->dma, b->size, DMA_BIDIRECTIONAL);
		free_pages_exact(b->va, b->size);
		b->va = NULL;
		return -EIO;
	}
	atomic_long_add(b->size, &loom_mem_dma_bytes);
	return 0;
}

/**
 * loom_dma_free() - free what loom_dma_alloc() gave, if anything
 * @ldev: the card
 * @b: the buffer; emptied, unless loom_dma_keep() kept it (never freed)
 */
void loom_dma_free(struct loom_dev *ldev, struct loom_dma_buf *b)
{
	if (!b->va || b->kept)
		return;
	dma_unmap_single(&ldev->pdev->dev, b->dma, b->size, DMA_BIDIRECTIONAL);
	free_pages_exact(b->va, b->size);
	atomic_long_sub(b->size, &loom_mem_dma_bytes);
	b->va = NULL;
}

/**
 * loom_dma_keep() - the card is going and may still write @b: undo the
 *	mapping, keep the pages for good
 * @ldev: the card, being removed
 * @b: the buffer; loom_dma_free() leaves it alone from here on
 *
 * The device's mappings end with its binding; the pages do not, since a
 * card that never acknowledged its stop may write them at any time (by the
 * bus address it was given, which is the physical address without an
 * IOMMU).  They are never freed, counted in loom_mem_kept_bytes.
 *
 * Return: the bytes kept (0 for an empty buffer or one kept already).
 */
size_t loom_dma_keep(struct loom_dev *ldev, struct loom_dma_buf *b)
{
	if (!b->va || b->kept)
		return 0;
	dma_unmap_single(&ldev->pdev->dev, b->dma, b->size, DMA_BIDIRECTIONAL);
	b->kept = true;
	atomic_long_sub(b->size, &loom_mem_dma_bytes);
	atomic_long_add(b->size, &loom_mem_kept_bytes);
	return b->size;
}

/* Free the memory of a context and give back its charge (loom_pin.c). */
static void loom_ctx_free_mem(struct loom_dev *ldev, struct loom_ctx *ctx)
{
	loom_dma_free(ldev, &ctx->counters);
	loom_dma_free(ldev, &ctx->seg);
	loom_dma_free(ldev, &ctx->cq);
	loom_dma_free(ldev, &ctx->cmdq);
	loom_pin_uncharge(ldev, &ctx->pin);
}

/*
 * The card is removed and may still write the memory of @ctx: unmap it and
 * keep it for good (loom_dma_keep()); caller holds ldev->lock.  Returns the
 * bytes kept.
 */
static size_t loom_ctx_keep_mem(struct loom_dev *ldev, struct loom_ctx *ctx)
{
	return loom_dma_keep(ldev, &ctx->cmdq) + loom_dma_keep(ldev, &ctx->cq) +
	       loom_dma_keep(ldev, &ctx->seg) +
	       loom_dma_keep(ldev, &ctx->counters) +
	       loom_mr_keep_all(ldev, ctx);
}

/* Pages the memory of a context takes: rings, segment, counters page. */
static unsigned long loom_ctx_pages(int cmdq_log2, int cq_log2, u64 seg_size)
{
	return (PAGE_ALIGN((size_t)LOOM_CMD_SIZE << cmdq_log2) +
		PAGE_ALIGN((size_t)LOOM_CQE_SIZE << cq_log2) +
		PAGE_ALIGN(seg_size) +
		PAGE_ALIGN(LOOM_CTX_COUNTERS * sizeof(u64))) >> PAGE_SHIFT;
}

/* Give back what @ctx holds of its user's caps (loom_quota.c). */
static void loom_ctx_uncharge_user(struct loom_dev *ldev, struct loom_ctx *ctx)
{
	if (!ctx->charged)
		return;
	loom_quota_uncharge(ldev, ctx->uid, hweight32(ctx->bsu_mask),
			    ctx->pages);
	ctx->charged = false;
}

/*
 * Free everything of a context the card no longer reaches (disabled, or
 * the card quiet), from its card index on (loom_ctx_reserve() takes that
 * first); caller holds ldev->lock.
 */
static void loom_ctx_free(struct loom_dev *ldev, struct loom_ctx *ctx)
{
	/* the card dropped the context's regions when it stopped it */
	loom_mr_free_all(ldev, ctx);
	loom_ctx_uncharge_user(ldev, ctx);
	loom_ctx_free_mem(ldev, ctx);
	loom_bsu_release(ldev, ctx);
	loom_keys_bsu_sync(ldev);
	clear_bit(ctx->index, ldev->ctx_busy);
	kfree(ctx);
	atomic_long_dec(&loom_mem_contexts);
}

/*
 * Keep a context the card may still reach until the card is quiet; its
 * file may be gone.  Caller holds ldev->lock.
 */
static void loom_ctx_orphan(struct loom_dev *ldev, struct loom_ctx *ctx,
			    const char *why)
{
	dev_warn(&ldev->pdev->dev, "context %u: %s; its memory is kept until the card is unbound, and for good if the card may still write it then\n",
		 ctx->index, why);
	ctx->lf = NULL;
	list_add_tail(&ctx->orphan_node, &ldev->orphans);
}

/*
 * Drop a context that is in no file any more: free it, unless the card may
 * still run it (enabled, and the card not quiet): then it becomes an
 * orphan, for @why.  Caller holds ldev->lock.
 */
static void loom_ctx_retire(struct loom_dev *ldev, struct loom_ctx *ctx,
			    const char *why)
{
	if (ctx->enabled && !ldev->quiet)
		loom_ctx_orphan(ldev, ctx, why);
	else
		loom_ctx_free(ldev, ctx);
}

/*
 * The calling thread holds contexts outside their file and the orphans
 * (ldev->ctx_held); caller holds ldev->lock.
 */
static void loom_ctx_hold(struct loom_dev *ldev)
{
	lockdep_assert_held(&ldev->lock);
	WRITE_ONCE(ldev->ctx_held, ldev->ctx_held + 1);
}

/*
 * The calling thread has put what it held back into the file, made it an
 * orphan or freed it; caller holds ldev->lock.
 */
static void loom_ctx_unhold(struct loom_dev *ldev)
{
	lockdep_assert_held(&ldev->lock);
	WRITE_ONCE(ldev->ctx_held, ldev->ctx_held - 1);
	if (!ldev->ctx_held)
		wake_up_all(&ldev->ctx_held_wq);
}

/**
 * loom_ctx_wait_held() - removal: wait until no thread holds a context
 *	outside its file and the orphans
 * @ldev: the card, dead, its admin mailbox stopped (loom_admin_stop())
 *
 * Dead, the card takes no new context; its mailbox stopped, no admin
 * command waits any more: a thread creating, destroying or releasing
 * contexts finishes at once, and under ldev->lock puts each back into its
 * file, makes it an orphan or frees it, where loom_ctx_free_dead() finds
 * it.  Not killable: the holders end without waiting for anything.
 */
void loom_ctx_wait_held(struct loom_dev *ldev)
{
	wait_event(ldev->ctx_held_wq, !READ_ONCE(ldev->ctx_held));
}

static int loom_ring_log2(u32 entries)
{
	if (!entries || !is_power_of_2(entries))
		return -EINVAL;
	if (ilog2(entries) < LOOM_RING_LOG2_MIN ||
	    ilog2(entries) > LOOM_RING_LOG2_MAX)
		return -EINVAL;
	return ilog2(entries);
}

static void loom_ctx_program(struct loom_dev *ldev, struct loom_ctx *ctx)
{
	struct loom_hw_ctx_rec rec = {
		.cmdq = ctx->cmdq.dma,
		.cq = ctx->cq.dma,
		.seg = ctx->seg.dma,
		.seg_size = ctx->seg.size,
		.cmdq_log2 = ctx->cmdq_log2,
		.cq_log2 = ctx->cq_log2,
		.key = ctx->key,
		.vector = LOOM_VEC_CQ,
		/* zeroed by loom_dma_alloc(): every counter starts at 0 */
		.counters = ctx->counters.dma,
	};

	loom_hw_ctx_program(ldev, ctx->index, &rec);
	/* the partition: checked by loom_keys_check(), enforced by the card */
	loom_keys_bsu_grant(ldev, ctx);
}

/*
 * 0 when the card has acknowledged that the context is stopped (or it was
 * never enabled); -ETIMEDOUT when the card did not answer, -EIO when it
 * refused (which fails it) or has failed, -ENODEV when the card is being
 * removed: the context may still run.  Called without ldev->lock, on a
 * context no other path reaches.
 */
static int loom_ctx_hw_disable(struct loom_dev *ldev, struct loom_ctx *ctx,
			       unsigned int timeout_ms)
{
	int err;

	if (!ctx->enabled)
		return 0;
	err = loom_admin_cmd(ldev, LOOM_ADMIN_CMD_CTX_DISABLE, ctx->index,
			     timeout_ms);
	if (!err)
		ctx->enabled = false;
	return err;
}

/**
 * loom_token() - mmap token of one region of a context
 * @ctx: the context
 * @region: which region
 *
 * Return: the token (a page-aligned mmap offset).
 */
u64 loom_token(const struct loom_ctx *ctx, enum loom_region region)
{
	return loom_token_make(ctx->lf->cookie, ctx->slot, region);
}

static int loom_ctx_check_args(struct loom_dev *ldev,
			       struct loom_ctx_create *req, int *cmdq_log2,
			       int *cq_log2)
{
	if (req->flags & ~LOOM_CTX_F_INDEX)
		return -EINVAL;
	*cmdq_log2 = loom_ring_log2(req->cmdq_entries);
	*cq_log2 = loom_ring_log2(req->cq_entries);
	if (*cmdq_log2 < 0 || *cq_log2 < 0)
		return -EINVAL;
	if (req->seg_size < LOOM_SEG_MIN || req->seg_size > LOOM_SEG_MAX)
		return -EINVAL;
	if ((req->flags & LOOM_CTX_F_INDEX) && req->index >= ldev->n_ctx)
		return -EINVAL;
	return 0;
}

/* Caller holds ldev->lock; picks and reserves a card context index. */
static int loom_ctx_pick_index(struct loom_dev *ldev,
			       const struct loom_ctx_create *req, u32 *index)
{
	unsigned long i;

	if (req->flags & LOOM_CTX_F_INDEX) {
		if (test_bit(req->index, ldev->ctx_busy))
			return -EBUSY;
		i = req->index;
	} else {
		i = find_first_zero_bit(ldev->ctx_busy, ldev->n_ctx);
		if (i >= ldev->n_ctx)
			return -EBUSY;
	}
	set_bit(i, ldev->ctx_busy);
	*index = i;
	return 0;
}

static void loom_ctx_fill_out(struct loom_ctx *ctx, struct loom_ctx_create *req,
			      u32 node_id)
{
	struct loom_dev *ldev = ctx->lf->ldev;
	phys_addr_t kick = ldev->hal->kick_phys(ldev);

	req->index = ctx->index;
	req->seg_size = ctx->seg.size;
	req->cmdq_token = loom_token(ctx, LOOM_REGION_CMDQ);
	req->cq_token = loom_token(ctx, LOOM_REGION_CQ);
	req->doorbell_token = loom_token(ctx, LOOM_REGION_DOORBELL);
	req->seg_token = loom_token(ctx, LOOM_REGION_SEGMENT);
	req->out_flags = 0;
	req->kick_token = 0;
	req->kick_offset = 0;
	req->kick_value = 0;
	if (kick) {
		req->out_flags |= LOOM_CTX_OUT_KICK;
		req->kick_token = loom_token(ctx, LOOM_REGION_KICK);
		req->kick_offset = offset_in_page(kick);
		req->kick_value = LOOM_IVSHMEM_PEER_CARD << 16 |
				  LOOM_KICK_DOORBELL;
	}
	req->node_id = node_id;
	req->bsu_token = ctx->bsu_mask ? loom_token(ctx, LOOM_REGION_BSU) : 0;
	req->counters_token = loom_token(ctx, LOOM_REGION_COUNTERS);
	req->n_counters = LOOM_CTX_COUNTERS;
}

/*
 * Take a context whose creation failed out of its file's slot and free it,
 * or keep it as an orphan when the card may run it (enabled).
 */
static void loom_ctx_abort(struct loom_file *lf, struct loom_ctx *ctx,
			   const char *why)
{
	struct loom_dev *ldev = lf->ldev;

	mutex_lock(&ldev->lock);
	xa_erase(&lf->ctxs, ctx->slot);
	lf->n_ctxs--;
	loom_ctx_retire(ldev, ctx, why);
	loom_ctx_unhold(ldev);
	mutex_unlock(&ldev->lock);
}

/*
 * Under ldev->lock: check the caller's rights and limits and reserve what
 * the context takes: a card index, its BSUs, the charges and a slot of the
 * file (empty until the context runs).  On success the caller holds @ctx
 * (loom_ctx_hold()); on failure @ctx is freed.
 */
static int loom_ctx_reserve(struct loom_file *lf, struct loom_ctx *ctx,
			    struct loom_ctx_create *req, u32 *node_id)
{
	struct loom_dev *ldev = lf->ldev;
	int err = 0;

	lockdep_assert_held(&ldev->lock);
	if (ldev->dead)
		err = -EIO;
	else if (lf->n_ctxs >= loom_max_ctx_per_file)
		err = -EMFILE;
	if (!err)
		err = loom_keys_check(ldev, req->key);
	if (!err)
		err = loom_hw_logical_id(ldev, node_id);
	if (!err)
		err = loom_ctx_pick_index(ldev, req, &ctx->index);
	if (err) {
		kfree(ctx);
		atomic_long_dec(&loom_mem_contexts);
		return err;
	}
	/* from here on loom_ctx_free() undoes what is done */
	err = loom_bsu_grant(ldev, ctx, req->bsu_mask);
	if (!err)
		err = loom_quota_charge(ldev, ctx->uid, hweight32(ctx->bsu_mask),
					ctx->pages);
	if (!err) {
		ctx->charged = true;
		err = loom_pin_charge(ldev, &ctx->pin, ctx->pages);
	}
	if (!err)
		err = xa_alloc(&lf->ctxs, &ctx->slot, NULL,
			       XA_LIMIT(0, LOOM_TOKEN_SLOT_MAX),
			       GFP_KERNEL_ACCOUNT);
	if (err) {
		loom_ctx_free(ldev, ctx);
		return err;
	}
	lf->n_ctxs++;
	loom_ctx_hold(ldev);
	return 0;
}

static int loom_ctx_alloc_mem(struct loom_dev *ldev, struct loom_ctx *ctx,
			      u64 seg_size)
{
	int err;

	err = loom_dma_alloc(ldev, &ctx->cmdq,
			     (size_t)LOOM_CMD_SIZE << ctx->cmdq_log2);
	if (!err)
		err = loom_dma_alloc(ldev, &ctx->cq,
				     (size_t)LOOM_CQE_SIZE << ctx->cq_log2);
	if (!err)
		err = loom_dma_alloc(ldev, &ctx->seg, seg_size);
	if (!err)
		err = loom_dma_alloc(ldev, &ctx->counters,
				     LOOM_CTX_COUNTERS * sizeof(u64));
	return err;
}

/**
 * loom_ctx_create() - LOOM_IOC_CTX_CREATE: make, program and enable a context
 * @lf: the open file that will own it
 * @req: the request, copied in; on success its out fields are filled
 *
 * ldev->lock is taken only around the bookkeeping and the register writes,
 * never across the allocations or the wait for the card.
 *
 * Return: 0; -EINVAL for bad flags, sizes or index, or a BSU the card
 * lacks; -EBUSY when the requested index is taken, the card has no free
 * context, or a BSU of @req->bsu_mask is held by another context; -EMFILE
 * when the file already holds max_ctx_per_file contexts; -EACCES when the
 * caller may not use the key (loom_keys.c); -EDQUOT when the caller's
 * user would exceed max_ctx_per_user, max_bsu_per_user or
 * max_pinned_kb_per_user (loom_quota.c, logged); -ENOMEM when the memory would
 * exceed the caller's RLIMIT_MEMLOCK (without CAP_IPC_LOCK) or cannot be
 * allocated; -ENOSPC when it would exceed the card's max_pinned_kb; -EIO when
 * the card refused the context (logged), failed or is gone; -ETIMEDOUT when
 * the card did not answer.  A context the card refused or did not answer
 * for is disabled again; when that is not acknowledged either, it becomes
 * an orphan (loom_ctx_orphan()).
 */
int loom_ctx_create(struct loom_file *lf, struct loom_ctx_create *req)
{
	struct loom_dev *ldev = lf->ldev;
	int cmdq_log2, cq_log2, err;
	struct loom_ctx *ctx;
	u32 node_id;

	err = loom_ctx_check_args(ldev, req, &cmdq_log2, &cq_log2);
	if (err)
		return err;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return -ENOMEM;
	atomic_long_inc(&loom_mem_contexts);
	INIT_LIST_HEAD(&ctx->mrs);
	ctx->lf = lf;
	ctx->key = req->key;
	ctx->cmdq_log2 = cmdq_log2;
	ctx->cq_log2 = cq_log2;
	ctx->uid = current_uid();
	ctx->pages = loom_ctx_pages(cmdq_log2, cq_log2, req->seg_size);
	atomic_set(&ctx->map_count, 0);
	INIT_LIST_HEAD(&ctx->orphan_node);

	mutex_lock(&ldev->lock);
	err = loom_ctx_reserve(lf, ctx, req, &node_id);
	mutex_unlock(&ldev->lock);
	if (err)
		return err;

	err = loom_ctx_alloc_mem(ldev, ctx, req->seg_size);
	if (!err) {
		mutex_lock(&ldev->lock);
		if (ldev->dead) {
			err = -EIO;
		} else {
			/* from here the card knows the memory: it may reach it */
			loom_ctx_program(ldev, ctx);
			ctx->enabled = true;
		}
		mutex_unlock(&ldev->lock);
	}
	if (err) {
		loom_ctx_abort(lf, ctx, NULL);
		return err;
	}

	err = loom_admin_cmd(ldev, LOOM_ADMIN_CMD_CTX_ENABLE, ctx->index,
			     loom_admin_timeout_ms);
	if (err) {
		/* timed out, refused (logged), or the card failed or went */
		if (err != -ETIMEDOUT)
			err = -EIO;
		loom_ctx_hw_disable(ldev, ctx, loom_admin_timeout_ms);
		loom_ctx_abort(lf, ctx,
			       "enable not done and the card did not acknowledge the disable that followed");
		return err;
	}

	mutex_lock(&ldev->lock);
	if (ldev->dead) {
		/* failed or removed meanwhile: the caller never learns of it */
		xa_erase(&lf->ctxs, ctx->slot);
		lf->n_ctxs--;
		loom_ctx_retire(ldev, ctx, "its card failed or is being removed");
		loom_ctx_unhold(ldev);
		mutex_unlock(&ldev->lock);
		return -EIO;
	}
	xa_store(&lf->ctxs, ctx->slot, ctx, GFP_KERNEL_ACCOUNT);
	loom_ctx_fill_out(ctx, req, node_id);
	loom_ctx_unhold(ldev);
	mutex_unlock(&ldev->lock);
	return 0;
}

/**
 * loom_ctx_destroy() - LOOM_IOC_CTX_DESTROY: disable and free a context
 * @lf: the open file owning it
 * @index: its card context index
 *
 * Return: 0; -EINVAL when this file has no context @index; -EBUSY while
 * any of its regions is mapped; -EIO when the card is gone, has failed or
 * refused the disable (which fails it); -ETIMEDOUT when the card did not
 * confirm the stop.  Unless 0, the context stays: retry, or close the
 * file (it then becomes an orphan if the card still does not confirm).
 */
int loom_ctx_destroy(struct loom_file *lf, u32 index)
{
	struct loom_dev *ldev = lf->ldev;
	struct loom_ctx *ctx;
	int err = 0;

	mutex_lock(&ldev->lock);
	ctx = ldev->dead ? NULL : loom_file_find_ctx(lf, index);
	if (ldev->dead)
		err = -EIO;
	else if (!ctx)
		err = -EINVAL;
	else if (atomic_read(&ctx->map_count) || ctx->mr_busy)
		err = -EBUSY;
	else
		/* the slot stays reserved: nothing finds the context now */
		xa_store(&lf->ctxs, ctx->slot, NULL, GFP_KERNEL);
	if (!err)
		loom_ctx_hold(ldev);
	mutex_unlock(&ldev->lock);
	if (err)
		return err;

	loom_uring_ctx_gone(lf, index);
	err = loom_ctx_hw_disable(ldev, ctx, loom_admin_timeout_ms);

	mutex_lock(&ldev->lock);
	if (err) {
		/* the card may still run it: the context stays, as it was */
		xa_store(&lf->ctxs, ctx->slot, ctx, GFP_KERNEL);
		if (err != -ETIMEDOUT)
			err = -EIO;
	} else {
		xa_erase(&lf->ctxs, ctx->slot);
		lf->n_ctxs--;
		loom_ctx_free(ldev, ctx);
	}
	loom_ctx_unhold(ldev);
	mutex_unlock(&ldev->lock);
	return err;
}

/**
 * loom_ctx_release_all() - free every context of a file being closed
 * @lf: the file; no mapping of it exists any more
 *
 * The contexts leave the file under ldev->lock; the card is asked to stop
 * them without it.  A context is freed when the card is quiet or
 * acknowledges its disable; otherwise (a timeout, a refusal, a failed or
 * removed card still bus mastering) it becomes an orphan of the card,
 * freed once the card is quiet.
 */
void loom_ctx_release_all(struct loom_file *lf)
{
	struct loom_dev *ldev = lf->ldev;
	struct loom_ctx *ctx, *tmp;
	unsigned long slot;
	LIST_HEAD(closing);
	bool dead;

	mutex_lock(&ldev->lock);
	xa_for_each(&lf->ctxs, slot, ctx) {
		xa_erase(&lf->ctxs, slot);
		lf->n_ctxs--;
		list_add_tail(&ctx->orphan_node, &closing);
	}
	loom_ctx_hold(ldev);
	dead = ldev->dead || ldev->quiet;
	mutex_unlock(&ldev->lock);

	if (!dead)
		list_for_each_entry(ctx, &closing, orphan_node)
			loom_ctx_hw_disable(ldev, ctx, loom_admin_timeout_ms);

	mutex_lock(&ldev->lock);
	list_for_each_entry_safe(ctx, tmp, &closing, orphan_node) {
		list_del_init(&ctx->orphan_node);
		loom_ctx_retire(ldev, ctx,
				ldev->dead ? "its card failed or is being removed" :
					     "the card did not acknowledge its disable");
	}
	loom_ctx_unhold(ldev);
	mutex_unlock(&ldev->lock);
}

/* how often removal asks the card for the RESET that stops everything */
#define LOOM_QUIESCE_TRIES	5

/**
 * loom_ctx_hw_stop_all() - stop every context of a card being removed
 * @ldev: the card, already marked dead, bus mastering still on
 *
 * When any context may be enabled (any card index is taken: a file's
 * context, an orphan, or one being created), RESET stops them all
 * (loom_admin_quiesce()), also on a card that failed, asked up to
 * LOOM_QUIESCE_TRIES times; not at all when the signature no longer reads
 * back (surprise removal).
 *
 * Return: true when no context can be running any more: none was
 * enabled, or the card acknowledged the RESET.
 */
bool loom_ctx_hw_stop_all(struct loom_dev *ldev)
{
	bool enabled, stopped;
	int err = -ENODEV, i;

	mutex_lock(&ldev->lock);
	/*
	 * every context that may run holds its card index: those of files,
	 * the orphans, and those being created (not in their file's slot yet)
	 */
	enabled = !bitmap_empty(ldev->ctx_busy, ldev->n_ctx);
	for (i = 0; enabled && err && i < LOOM_QUIESCE_TRIES &&
	     loom_hw_fwid_answers(ldev); i++)
		err = loom_admin_quiesce(ldev);
	stopped = !enabled || !err;
	if (!stopped)
		dev_warn(&ldev->pdev->dev, "card did not acknowledge the RESET that stops its contexts (%d)\n",
			 err);
	mutex_unlock(&ldev->lock);
	return stopped;
}

/**
 * loom_ctx_free_dead() - the card is removed: free its contexts' memory,
 *	or keep it for good when the card may still write it
 * @ldev: the card, dead, with interrupts and bus mastering off, and no
 *	context held outside its file and the orphans (loom_ctx_wait_held())
 * @stopped: the card acknowledged that no context runs
 *
 * The card is quiet when it stopped, or when bus mastering off stops its
 * DMA (the real card; the lab's emulator does not see bus mastering).
 * Quiet: every context's rings, segment, counters page and memory regions
 * are freed now, also while a process still holds the file and its
 * mappings: the device's DMA memory does not outlive its binding.  That is
 * safe because loom_files_kill() zapped every mapping under ldev->lock
 * after marking the card dead, and the fault handler answers SIGBUS on a
 * dead card under the same lock, so no user page table reaches these pages
 * again.  What the file still holds of a context (its structure, its card
 * index, its user's caps) goes when the file is closed; the orphans go
 * entirely.  Not quiet: every mapping of the device is undone (its
 * mappings end with its binding) but nothing is ever freed, and the
 * regions' pages stay pinned (loom_dma_keep(); one line says how much is
 * kept).
 */
void loom_ctx_free_dead(struct loom_dev *ldev, bool stopped)
{
	struct loom_ctx *ctx, *tmp;
	struct loom_file *lf;
	unsigned long slot;
	size_t bytes = 0;
	unsigned int n = 0;

	mutex_lock(&ldev->lock);
	if (!stopped && !ldev->hal->bus_master_stops_dma) {
		list_for_each_entry(lf, &ldev->files, node) {
			xa_for_each(&lf->ctxs, slot, ctx) {
				bytes += loom_ctx_keep_mem(ldev, ctx);
				n++;
			}
		}
		list_for_each_entry(ctx, &ldev->orphans, orphan_node) {
			bytes += loom_ctx_keep_mem(ldev, ctx);
			n++;
		}
		if (n)
			dev_warn(&ldev->pdev->dev, "keeping the memory of %u contexts (%zu bytes) for good: the card may still write it, and bus mastering off does not stop its DMA\n",
				 n, bytes);
		mutex_unlock(&ldev->lock);
		return;
	}
	ldev->quiet = true;
	list_for_each_entry(lf, &ldev->files, node) {
		xa_for_each(&lf->ctxs, slot, ctx) {
			ctx->enabled = false;
			loom_mr_free_all(ldev, ctx);
			loom_ctx_free_mem(ldev, ctx);
		}
	}
	list_for_each_entry_safe(ctx, tmp, &ldev->orphans, orphan_node) {
		list_del(&ctx->orphan_node);
		loom_ctx_free(ldev, ctx);
	}
	mutex_unlock(&ldev->lock);
}

/**
 * loom_ctx_keep_orphans() - the card's structure goes: keep its orphans
 * @ldev: the card, removed, its last file closed
 *
 * Orphans are left only when the card was not quiet at removal: their
 * memory stays allocated for good, but is no longer charged to the users
 * who pinned it (their card is gone, the memory is the kernel's now).
 */
void loom_ctx_keep_orphans(struct loom_dev *ldev)
{
	struct loom_ctx *ctx;

	mutex_lock(&ldev->lock);
	list_for_each_entry(ctx, &ldev->orphans, orphan_node) {
		loom_pin_uncharge(ldev, &ctx->pin);
		loom_mr_uncharge_all(ldev, ctx);
		loom_ctx_uncharge_user(ldev, ctx);
	}
	mutex_unlock(&ldev->lock);
	mutex_lock(&loom_kept_lock);
	list_splice_init(&ldev->orphans, &loom_kept);
	mutex_unlock(&loom_kept_lock);
}

/**
 * loom_ctx_kept_exit() - module unload: forget the kept contexts
 *
 * Their memory stays allocated and their regions' pages pinned (a card may
 * still write them; loom_dma_keep()); only the structures that describe
 * them go.
 */
void loom_ctx_kept_exit(void)
{
	struct loom_ctx *ctx, *tmp;

	list_for_each_entry_safe(ctx, tmp, &loom_kept, orphan_node) {
		list_del(&ctx->orphan_node);
		loom_mr_forget_all(ctx);
		kfree(ctx);
		atomic_long_dec(&loom_mem_contexts);
	}
}

/**
 * loom_ctx_cq_ready() - does a context have a completion to consume?
 * @ctx: the context; caller holds ldev->lock and the card is alive
 *
 * Reads the consumer index the card took from the doorbell page
 * (LOOM_DB_CQ_CI_SEEN: CQ_CI itself is write-only) and checks the phase
 * bit of the entry there (the index is masked to the ring: whatever the
 * page holds, no entry outside it is read).
 *
 * Return: true when the entry at the consumer index is valid.
 */
bool loom_ctx_cq_ready(struct loom_ctx *ctx)
{
	struct loom_dev *ldev = ctx->lf->ldev;
	const struct loom_cqe *cqe;
	u32 ci, flags;

	if (!ctx->cq.va || loom_hw_db_cq_ci_seen(ldev, ctx->index, &ci))
		return false;
	cqe = (const struct loom_cqe *)ctx->cq.va +
	      (ci & ((1u << ctx->cq_log2) - 1));
	flags = READ_ONCE(cqe->flags);
	return (flags & LOOM_CQE_PHASE) == loom_cq_phase(ci, ctx->cq_log2);
}
