// SPDX-License-Identifier: GPL-2.0
/*
 * mmap of a context's regions by token.  The rings and the segment are
 * coherent DMA memory (dma_mmap_coherent), the doorbell page and the lab's
 * kick page are device memory (io_remap_pfn_range, uncached).  Every vma
 * counts as a mapping of its context (CTX_DESTROY answers -EBUSY while one
 * exists).  There is deliberately no fault handler: once the device is
 * removed its mappings are zapped and any further access raises SIGBUS.
 *
 * No mapping is copied into a child by fork() (VM_DONTCOPY, as if
 * madvise(MADV_DONTFORK) had been called): a context has one producer of
 * its command ring, and a child that only means to exec() must not keep
 * the parent's contexts mapped (CTX_DESTROY would answer -EBUSY until it
 * does).  The child shares the open file, so it may map the regions again
 * by their tokens if it is meant to use them.
 */
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/pci.h>

#include "loom_compat.h"
#include "loom_drv.h"
#include "loom_token.h"

static void loom_vm_open(struct vm_area_struct *vma)
{
	struct loom_ctx *ctx = vma->vm_private_data;

	atomic_inc(&ctx->map_count);
}

static void loom_vm_close(struct vm_area_struct *vma)
{
	struct loom_ctx *ctx = vma->vm_private_data;

	atomic_dec(&ctx->map_count);
}

static const struct vm_operations_struct loom_vm_ops = {
	.open = loom_vm_open,
	.close = loom_vm_close,
};

static struct loom_dma_buf *loom_region_buf(struct loom_ctx *ctx,
					    unsigned int region)
{
	switch (region) {
	case LOOM_REGION_CMDQ:
		return &ctx->cmdq;
	case LOOM_REGION_CQ:
		return &ctx->cq;
	case LOOM_REGION_SEGMENT:
		return &ctx->seg;
	case LOOM_REGION_COUNTERS:
		return &ctx->counters;
	default:
		return NULL;
	}
}

static int loom_mmap_dma(struct loom_dev *ldev, struct vm_area_struct *vma,
			 struct loom_dma_buf *buf)
{
	unsigned long pgoff = vma->vm_pgoff;
	int err;

	if (!buf->va)
		return -EIO;
	if (vma->vm_end - vma->vm_start > buf->size)
		return -EINVAL;
	/* dma_mmap_coherent() reads the offset into the buffer from vm_pgoff */
	vma->vm_pgoff = 0;
	err = dma_mmap_coherent(&ldev->pdev->dev, vma, buf->va, buf->dma,
				buf->size);
	vma->vm_pgoff = pgoff;
	return err;
}

static int loom_mmap_io(struct vm_area_struct *vma, phys_addr_t page)
{
	if (vma->vm_end - vma->vm_start > PAGE_SIZE)
		return -EINVAL;
	vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
	return io_remap_pfn_range(vma, vma->vm_start, PHYS_PFN(page), PAGE_SIZE,
				  vma->vm_page_prot);
}

static int loom_mmap_region(struct loom_dev *ldev, struct loom_ctx *ctx,
			    unsigned int region, struct vm_area_struct *vma)
{
	phys_addr_t phys;

	switch (region) {
	case LOOM_REGION_CMDQ:
	case LOOM_REGION_CQ:
	case LOOM_REGION_SEGMENT:
		return loom_mmap_dma(ldev, vma, loom_region_buf(ctx, region));
	case LOOM_REGION_COUNTERS:
		/* the card owns the counters: user space only reads them */
		if (vma->vm_flags & VM_WRITE)
			return -EPERM;
		loom_vma_clear_flags(vma, VM_MAYWRITE);
		return loom_mmap_dma(ldev, vma, &ctx->counters);
	case LOOM_REGION_BSU:
		return loom_bsu_mmap(ldev, ctx, vma);
	case LOOM_REGION_DOORBELL:
		phys = ldev->hal->regs_phys(ldev) +
		       loom_hw_db_page(ldev, ctx->index);
		return loom_mmap_io(vma, phys);
	case LOOM_REGION_KICK:
		phys = ldev->hal->kick_phys(ldev);
		if (!phys)
			return -EINVAL;
		return loom_mmap_io(vma, phys & PAGE_MASK);
	default:
		return -EINVAL;
	}
}

/**
 * loom_mmap() - map one region of a context by its token
 * @file: an open /dev/loomN
 * @vma: offset = a token from LOOM_IOC_CTX_CREATE on this file, length <=
 *	the region's size, MAP_SHARED
 *
 * Return: 0; -EINVAL for a token that is not this file's, a length larger
 * than the region or a private mapping; -EPERM for a writable mapping of
 * the counters page; -EIO when the card is gone.
 */
int loom_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct loom_file *lf = file->private_data;
	struct loom_dev *ldev = lf->ldev;
	u64 token = (u64)vma->vm_pgoff << PAGE_SHIFT;
	unsigned int region;
	struct loom_ctx *ctx;
	u32 cookie, slot;
	int err;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (!loom_token_parse(token, &cookie, &slot, &region) ||
	    region >= LOOM_REGION_COUNT)
		return -EINVAL;

	mutex_lock(&ldev->lock);
	if (ldev->dead) {
		err = -EIO;
		goto out;
	}
	ctx = cookie == lf->cookie ? xa_load(&lf->ctxs, slot) : NULL;
	if (!ctx) {
		err = -EINVAL;
		goto out;
	}

	/* not inherited by fork(): see "fork" in Documentation/abi/chardev.rst */
	loom_vma_set_flags(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_ops = &loom_vm_ops;
	vma->vm_private_data = ctx;
	err = loom_mmap_region(ldev, ctx, region, vma);
	if (!err)
		atomic_inc(&ctx->map_count);
out:
	mutex_unlock(&ldev->lock);
	return err;
}
