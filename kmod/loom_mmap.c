// SPDX-License-Identifier: GPL-2.0
/*
 * mmap of a context's regions by token.  mmap() only checks the request
 * and marks the vma VM_IO | VM_PFNMAP; every page is filled in by the fault
 * handler under the card's lock, with vmf_insert_pfn_prot(): the rings,
 * the segment and the counters page from their pages (loom_dma_alloc()),
 * the doorbell page, the lab's kick page and the granted BSU pages from the
 * card's registers (uncached).  No vma is PAT-tracked as a whole (as
 * remap_pfn_range() would make it), so the zap of every mapping when the
 * card goes away (loom_files_kill()) may run at the same time as munmap()
 * or exit() of the process: each PTE is removed by one of them, and no
 * memtype reservation is looked up from PTEs that the other already
 * removed.  Once the card is dead the fault handler answers SIGBUS, so
 * nothing maps the card's registers again.
 *
 * Every vma counts as a mapping of its context (CTX_DESTROY answers -EBUSY
 * while one exists), so the memory a fault maps is always there while the
 * card is alive.  At removal the card is marked dead and every mapping
 * zapped under the card's lock before the DMA memory is freed
 * (loom_ctx_free_dead()), and a fault on a dead card maps nothing: no
 * process reaches freed pages.  The region of a vma comes from its vm_operations (one
 * set per region), the page from the fault's offset into the region's
 * token: both stay right when the vma is split or moved.
 *
 * No mapping is copied into a child by fork() (VM_DONTCOPY, as if
 * madvise(MADV_DONTFORK) had been called): a context has one producer of
 * its command ring, and a child that only means to exec() must not keep
 * the parent's contexts mapped (CTX_DESTROY would answer -EBUSY until it
 * does).  The child shares the open file, so it may map the regions again
 * by their tokens if it is meant to use them.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/vmalloc.h>

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

static vm_fault_t loom_vm_fault(struct vm_fault *vmf);

/*
 * One set of vm_operations per region, all alike: the index of a vma's set
 * is the region the fault handler maps.
 */
static const struct vm_operations_struct loom_vm_ops[LOOM_REGION_COUNT] = {
	[0 ... LOOM_REGION_COUNT - 1] = {
		.open = loom_vm_open,
		.close = loom_vm_close,
		.fault = loom_vm_fault,
	},
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

/* The frame of page @page of a DMA buffer, false past its end. */
static bool loom_dma_pfn(const struct loom_dma_buf *buf, unsigned long page,
			 unsigned long *pfn)
{
	void *va;

	if (!buf->va || page >= buf->size >> PAGE_SHIFT)
		return false;
	va = buf->va + (page << PAGE_SHIFT);
	/* loom_dma_alloc() memory is in the linear map */
	*pfn = page_to_pfn(virt_to_page(va));
	return true;
}

/* The frame of page @page of @region of @ctx, false for none. */
static bool loom_region_pfn(struct loom_dev *ldev, struct loom_ctx *ctx,
			    unsigned int region, unsigned long page,
			    unsigned long *pfn)
{
	phys_addr_t phys;

	switch (region) {
	case LOOM_REGION_CMDQ:
	case LOOM_REGION_CQ:
	case LOOM_REGION_SEGMENT:
	case LOOM_REGION_COUNTERS:
		return loom_dma_pfn(loom_region_buf(ctx, region), page, pfn);
	case LOOM_REGION_BSU:
		return loom_bsu_pfn(ldev, ctx, page, pfn);
	case LOOM_REGION_DOORBELL:
		phys = ldev->hal->regs_phys(ldev) +
		       loom_hw_db_page(ldev, ctx->index);
		break;
	case LOOM_REGION_KICK:
		phys = ldev->hal->kick_phys(ldev) & PAGE_MASK;
		break;
	default:
		return false;
	}
	if (page || !phys)
		return false;
	*pfn = PHYS_PFN(phys);
	return true;
}

static vm_fault_t loom_vm_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	unsigned int region = vma->vm_ops - loom_vm_ops;
	struct loom_ctx *ctx = vma->vm_private_data;
	struct loom_dev *ldev = ctx->lf->ldev;
	vm_fault_t ret = VM_FAULT_SIGBUS;
	unsigned long page, pfn;

	/* the vma starts at or after the region's token */
	page = vmf->pgoff - (loom_token(ctx, region) >> PAGE_SHIFT);
	/* the card's lock orders this fault against the zap of a dead card */
	mutex_lock(&ldev->lock);
	if (!ldev->dead && loom_region_pfn(ldev, ctx, region, page, &pfn))
		ret = vmf_insert_pfn_prot(vma, vmf->address, pfn,
					  vma->vm_page_prot);
	mutex_unlock(&ldev->lock);
	return ret;
}

/* May @vma map @region of @ctx?  Sets the protection of the region. */
static int loom_mmap_check(struct loom_dev *ldev, struct loom_ctx *ctx,
			   unsigned int region, struct vm_area_struct *vma)
{
	unsigned long size = vma->vm_end - vma->vm_start;
	struct loom_dma_buf *buf;

	switch (region) {
	case LOOM_REGION_COUNTERS:
		/* the card owns the counters: user space only reads them */
		if (vma->vm_flags & VM_WRITE)
			return -EPERM;
		loom_vma_clear_flags(vma, VM_MAYWRITE);
		fallthrough;
	case LOOM_REGION_CMDQ:
	case LOOM_REGION_CQ:
	case LOOM_REGION_SEGMENT:
		buf = loom_region_buf(ctx, region);
		if (!buf->va)
			return -EIO;
		return size > buf->size ? -EINVAL : 0;
	case LOOM_REGION_BSU:
		vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
		return loom_bsu_mmap_check(ldev, ctx, vma);
	case LOOM_REGION_KICK:
		if (!ldev->hal->kick_phys(ldev))
			return -EINVAL;
		fallthrough;
	case LOOM_REGION_DOORBELL:
		vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
		return size > PAGE_SIZE ? -EINVAL : 0;
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

	err = loom_mmap_check(ldev, ctx, region, vma);
	if (err)
		goto out;
	/* not inherited by fork(): see "fork" in Documentation/abi/chardev.rst */
	loom_vma_set_flags(vma, VM_IO | VM_PFNMAP | VM_DONTCOPY |
			   VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_ops = &loom_vm_ops[region];
	vma->vm_private_data = ctx;
	atomic_inc(&ctx->map_count);
out:
	mutex_unlock(&ldev->lock);
	return err;
}
