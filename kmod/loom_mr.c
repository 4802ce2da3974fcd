// SPDX-License-Identifier: GPL-2.0
/*
 * Memory regions: user memory registered with the card.
 *
 * Registration pins the pages (pin_user_pages_fast() with FOLL_LONGTERM,
 * FOLL_WRITE when any write right is asked), charges them as the memory
 * of contexts is charged (loom_pin.c: RLIMIT_MEMLOCK, max_pinned_kb;
 * loom_quota.c: the context user's max_pinned_kb_per_user), maps them for
 * the card's DMA, writes their bus addresses into a two-level page list in
 * memory mapped for the card (loom_dma_alloc(); a directory page of list
 * pages), fills the region's record on the card and enables it with an
 * admin command.
 * The key (lkey and rkey are the same value) is the card's record index
 * plus a random generation, new at every registration of the index.
 *
 * A region belongs to a context; ldev->lock protects the context's list
 * of regions and the card's index bitmap, and is never held across the
 * pinning, the DMA allocations or an admin command: a context with a
 * registration or deregistration under way counts it in mr_busy, and
 * LOOM_IOC_CTX_DESTROY answers -EBUSY meanwhile.
 *
 * Deregistration takes the region off its context, asks the card to drop
 * it (MR_DISABLE) and unpins once the card confirms.  Without that
 * confirmation the region stays on its context, revoked (no key finds it)
 * and pinned: the card drops every region of a context when the context
 * stops, so its pages are freed with the context's memory
 * (loom_ctx_free(), loom_ctx_free_dead()), after the card confirmed
 * CTX_DISABLE or went quiet.
 */
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/random.h>
#include <linux/sched/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "loom_drv.h"

/* module-wide: regions of every card and the pages they pin (debugfs "memory") */
atomic_long_t loom_mem_mrs = ATOMIC_LONG_INIT(0);
atomic_long_t loom_mem_mr_pages = ATOMIC_LONG_INIT(0);

#define LOOM_MR_WRITE_RIGHTS	(LOOM_MR_ACCESS_LOCAL_WRITE | \
				 LOOM_MR_ACCESS_REMOTE_WRITE | \
				 LOOM_MR_ACCESS_REMOTE_ATOMIC)

/**
 * struct loom_mr - one registered region
 * @node: entry in its context's @mrs
 * @index: record index on the card
 * @key: lkey and rkey
 * @access: LOOM_MR_ACCESS_*
 * @addr: first byte (user address)
 * @length: bytes
 * @npages: pages pinned
 * @pages: the pinned pages
 * @sgt: their DMA mapping, when @mapped
 * @mapped: @sgt is mapped
 * @dir: page directory the card reads
 * @lists: page-list pages the card reads
 * @n_lists: entries of @lists
 * @pin: RLIMIT_MEMLOCK and max_pinned_kb charge
 * @uid: user whose max_pinned_kb_per_user holds @npages (its context's)
 * @quota: @uid is charged
 * @revoked: deregistration asked, the card did not confirm it
 */
struct loom_mr {
	struct list_head node;
	u32 index;
	u32 key;
	u32 access;
	u64 addr;
	u64 length;
	unsigned long npages;
	struct page **pages;
	struct sg_table sgt;
	bool mapped;
	struct loom_dma_buf dir;
	struct loom_dma_buf *lists;
	unsigned int n_lists;
	struct loom_pin pin;
	kuid_t uid;
	bool quota;
	bool revoked;
};

static bool loom_mr_writable(const struct loom_mr *mr)
{
	return mr->access & LOOM_MR_WRITE_RIGHTS;
}

/*
 * A region the card may only read is mapped for the device to read: an
 * IOMMU then refuses the card's writes to it, and the DMA API allows
 * several such mappings of one page (a read-only region of untouched
 * anonymous memory is the zero page, once for every page).
 */
static enum dma_data_direction loom_mr_dma_dir(const struct loom_mr *mr)
{
	return loom_mr_writable(mr) ? DMA_BIDIRECTIONAL : DMA_TO_DEVICE;
}

/*
 * The card reads and writes a region at any time while it is registered,
 * as an RDMA adapter does, so what the CPU sees of it rests on cache-coherent
 * DMA, not on the cache maintenance of mapping and unmapping.  Regions may
 * overlap (MPI and libfabric register one buffer several times), and the DMA
 * API refuses overlapping mappings the device writes unless their owner
 * does the cache maintenance: so a region is mapped and unmapped with
 * DMA_ATTR_SKIP_CPU_SYNC and synced here, once each way, as a plain map and
 * unmap would.
 */
static int loom_mr_map(struct device *dev, struct loom_mr *mr)
{
	int err;

	err = dma_map_sgtable(dev, &mr->sgt, loom_mr_dma_dir(mr),
			      DMA_ATTR_SKIP_CPU_SYNC);
	if (err)
		return err;
	dma_sync_sgtable_for_device(dev, &mr->sgt, loom_mr_dma_dir(mr));
	mr->mapped = true;
	return 0;
}

static void loom_mr_unmap(struct device *dev, struct loom_mr *mr)
{
	if (!mr->mapped)
		return;
	dma_sync_sgtable_for_cpu(dev, &mr->sgt, loom_mr_dma_dir(mr));
	dma_unmap_sgtable(dev, &mr->sgt, loom_mr_dma_dir(mr),
			  DMA_ATTR_SKIP_CPU_SYNC);
	mr->mapped = false;
}

/* Give back what @mr holds of its user's caps and limits; lock held. */
static void loom_mr_uncharge(struct loom_dev *ldev, struct loom_mr *mr)
{
	if (mr->quota)
		loom_quota_uncharge_pages(ldev, mr->uid, mr->npages);
	mr->quota = false;
	loom_pin_uncharge(ldev, &mr->pin);
}

/* Free a region the card no longer reaches; caller holds ldev->lock. */
static void loom_mr_free(struct loom_dev *ldev, struct loom_mr *mr)
{
	unsigned int i;

	for (i = 0; i < mr->n_lists; i++)
		loom_dma_free(ldev, &mr->lists[i]);
	kfree(mr->lists);
	loom_dma_free(ldev, &mr->dir);
	loom_mr_unmap(&ldev->pdev->dev, mr);
	sg_free_table(&mr->sgt);
	if (mr->pages) {
		unpin_user_pages_dirty_lock(mr->pages, mr->npages,
					    loom_mr_writable(mr));
		atomic_long_sub(mr->npages, &loom_mem_mr_pages);
		kvfree(mr->pages);
	}
	loom_mr_uncharge(ldev, mr);
	if (mr->index < LOOM_MR_MAX_ENTRIES)
		clear_bit(mr->index, ldev->mr_busy);
	kfree(mr);
	atomic_long_dec(&loom_mem_mrs);
}

/**
 * loom_mr_free_all() - free the regions of a context the card no longer runs
 * @ldev: the card; caller holds ldev->lock
 * @ctx: the context (disabled with the card's confirmation, or the card
 *	quiet): the card dropped its regions with it
 */
void loom_mr_free_all(struct loom_dev *ldev, struct loom_ctx *ctx)
{
	struct loom_mr *mr, *tmp;

	lockdep_assert_held(&ldev->lock);
	list_for_each_entry_safe(mr, tmp, &ctx->mrs, node) {
		list_del(&mr->node);
		loom_mr_free(ldev, mr);
	}
}

/**
 * loom_mr_uncharge_all() - a context is kept for good: its regions' pages
 *	stay pinned but are no longer charged to their users
 * @ldev: the card; caller holds ldev->lock
 * @ctx: the context
 */
void loom_mr_uncharge_all(struct loom_dev *ldev, struct loom_ctx *ctx)
{
	struct loom_mr *mr;

	lockdep_assert_held(&ldev->lock);
	list_for_each_entry(mr, &ctx->mrs, node)
		loom_mr_uncharge(ldev, mr);
}

/**
 * loom_mr_keep_all() - the card is removed and may still reach the regions
 *	of @ctx: undo their mappings, keep everything they point at for good
 * @ldev: the card; caller holds ldev->lock
 * @ctx: the context, kept (loom_ctx_free_dead())
 *
 * The user pages stay pinned and the page lists allocated (loom_dma_keep()):
 * the card may still write the former and read the latter.
 *
 * Return: the bytes of page lists kept.
 */
size_t loom_mr_keep_all(struct loom_dev *ldev, struct loom_ctx *ctx)
{
	struct loom_mr *mr;
	size_t bytes = 0;
	unsigned int i;

	lockdep_assert_held(&ldev->lock);
	list_for_each_entry(mr, &ctx->mrs, node) {
		loom_mr_unmap(&ldev->pdev->dev, mr);
		for (i = 0; i < mr->n_lists; i++)
			bytes += loom_dma_keep(ldev, &mr->lists[i]);
		bytes += loom_dma_keep(ldev, &mr->dir);
	}
	return bytes;
}

/**
 * loom_mr_forget_all() - module unload: drop the descriptions of the
 *	regions of a kept context
 * @ctx: the context, kept for good and no longer on any card
 *
 * The pinned pages stay pinned and the page lists allocated: only the
 * structures that describe them go.
 */
void loom_mr_forget_all(struct loom_ctx *ctx)
{
	struct loom_mr *mr, *tmp;

	list_for_each_entry_safe(mr, tmp, &ctx->mrs, node) {
		list_del(&mr->node);
		kfree(mr->lists);
		sg_free_table(&mr->sgt);
		kvfree(mr->pages);
		atomic_long_sub(mr->npages, &loom_mem_mr_pages);
		kfree(mr);
		atomic_long_dec(&loom_mem_mrs);
	}
}

/*
 * Why did pinning [addr, addr + len) fail with -EFAULT: a hole (-EFAULT)
 * or, for @write, memory the process cannot write (-EACCES)?
 */
static int loom_mr_why_fault(u64 addr, u64 len, bool write, u64 *where)
{
	struct mm_struct *mm = current->mm;
	u64 pos = addr, end = addr + len;
	int err = -EFAULT;

	*where = addr;
	if (!mm)
		return -EFAULT;
	mmap_read_lock(mm);
	while (pos < end) {
		struct vm_area_struct *vma = vma_lookup(mm, pos);

		*where = pos;
		if (!vma)
			goto out;
		if (write && !(vma->vm_flags & VM_WRITE)) {
			err = -EACCES;
			goto out;
		}
		pos = vma->vm_end;
	}
	/* every byte mapped and writable: a failure of the pages themselves */
	*where = addr;
out:
	mmap_read_unlock(mm);
	return err;
}

static int loom_mr_pin(struct loom_dev *ldev, struct loom_mr *mr)
{
	unsigned int gup = FOLL_LONGTERM |
			   (loom_mr_writable(mr) ? FOLL_WRITE : 0);
	const char *why = "the pages could not be pinned";
	unsigned long done = 0;
	u64 where = mr->addr;
	int n = 0;

	mr->pages = kvmalloc_array(mr->npages, sizeof(*mr->pages),
				   GFP_KERNEL_ACCOUNT);
	if (!mr->pages)
		return -ENOMEM;
	while (done < mr->npages) {
		n = pin_user_pages_fast((PAGE_MASK & mr->addr) + done * PAGE_SIZE,
					min_t(unsigned long, mr->npages - done,
					      INT_MAX / PAGE_SIZE),
					gup, mr->pages + done);
		if (n <= 0)
			break;
		done += n;
	}
	atomic_long_add(done, &loom_mem_mr_pages);
	if (done == mr->npages)
		return 0;
	if (done)
		unpin_user_pages(mr->pages, done);
	atomic_long_sub(done, &loom_mem_mr_pages);
	kvfree(mr->pages);
	mr->pages = NULL;
	if (n == 0 || n == -EFAULT)
		n = loom_mr_why_fault(mr->addr, mr->length,
				      loom_mr_writable(mr), &where);
	if (n == -EACCES)
		why = "write access asked for memory the process cannot write";
	else if (n == -EFAULT)
		why = "memory not mapped";
	dev_notice_ratelimited(&ldev->pdev->dev,
			       "pid %d: memory region %#llx+%#llx refused: %s at %#llx (%d)\n",
			       task_pid_nr(current), mr->addr, mr->length, why,
			       where, n);
	return n;
}

/*
 * DMA-map the pages and write their bus addresses into the page list.  The
 * card reads pages, not segments, but the DMA API maps no segment longer
 * than the device's maximum (64 KiB unless the device says otherwise), so
 * contiguous pages are merged up to that length only.
 */
static int loom_mr_build(struct loom_dev *ldev, struct loom_mr *mr)
{
	struct device *dev = &ldev->pdev->dev;
	struct sg_dma_page_iter it;
	unsigned long i = 0;
	__le64 *dir;
	int err;

	err = sg_alloc_table_from_pages_segment(&mr->sgt, mr->pages, mr->npages,
						0, mr->npages << PAGE_SHIFT,
						dma_get_max_seg_size(dev),
						GFP_KERNEL_ACCOUNT);
	if (err)
		return err;
	err = loom_mr_map(dev, mr);
	if (err)
		return err;
	mr->n_lists = DIV_ROUND_UP(mr->npages, LOOM_MR_PGL_ENTRIES);
	mr->lists = kcalloc(mr->n_lists, sizeof(*mr->lists),
			    GFP_KERNEL_ACCOUNT);
	if (!mr->lists)
		return -ENOMEM;
	err = loom_dma_alloc(ldev, &mr->dir, LOOM_MR_PAGE_SIZE);
	if (err)
		return err;
	dir = mr->dir.va;
	for (i = 0; i < mr->n_lists; i++) {
		err = loom_dma_alloc(ldev, &mr->lists[i], LOOM_MR_PAGE_SIZE);
		if (err)
			return err;
		dir[i] = cpu_to_le64(mr->lists[i].dma);
	}
	i = 0;
	for_each_sgtable_dma_page(&mr->sgt, &it, 0) {
		__le64 *list = mr->lists[i / LOOM_MR_PGL_ENTRIES].va;

		list[i % LOOM_MR_PGL_ENTRIES] =
			cpu_to_le64(sg_page_iter_dma_address(&it));
		i++;
	}
	/* the card reads the lists after MR_ENABLE, which orders them */
	return 0;
}

/* A new key for record @index: a random generation unlike the last one. */
static u32 loom_mr_new_key(struct loom_dev *ldev, u32 index)
{
	u32 gen;

	do {
		gen = get_random_u32() >> LOOM_MR_KEY_INDEX_BITS;
	} while (!gen || gen == ldev->mr_gen[index]);
	ldev->mr_gen[index] = gen;
	return gen << LOOM_MR_KEY_INDEX_BITS | index;
}

/*
 * Under ldev->lock: find the context, take a card record and the user's
 * quota for @mr.  The context's mr_busy holds it until the caller is done.
 */
static int loom_mr_reserve(struct loom_file *lf, u32 ctx_index,
			   struct loom_mr *mr, struct loom_ctx **ctxp)
{
	struct loom_dev *ldev = lf->ldev;
	struct loom_ctx *ctx;
	unsigned long index;
	int err;

	if (ldev->dead)
		return -EIO;
	ctx = loom_file_find_ctx(lf, ctx_index);
	if (!ctx)
		return -EINVAL;
	if (!ldev->geo.n_mr)
		return -EOPNOTSUPP;
	index = find_first_zero_bit(ldev->mr_busy, ldev->geo.n_mr);
	if (index >= ldev->geo.n_mr) {
		dev_notice_ratelimited(&ldev->pdev->dev,
				       "all %u memory-region records of loom%d are in use: registration refused (ENOSPC)\n",
				       ldev->geo.n_mr, ldev->minor);
		return -ENOSPC;
	}
	err = loom_quota_charge_pages(ldev, ctx->uid, mr->npages);
	if (err)
		return err;
	mr->uid = ctx->uid;
	mr->quota = true;
	set_bit(index, ldev->mr_busy);
	mr->index = index;
	mr->key = loom_mr_new_key(ldev, index);
	ctx->mr_busy++;
	*ctxp = ctx;
	return 0;
}

/**
 * loom_mr_reg() - LOOM_IOC_MR_REG
 * @lf: the open file
 * @req: the request; lkey and rkey are filled in on success
 *
 * Return: 0 or a negative errno (see struct loom_mr_reg).
 */
int loom_mr_reg(struct loom_file *lf, struct loom_mr_reg *req)
{
	struct loom_dev *ldev = lf->ldev;
	struct loom_hw_mr_rec rec;
	struct loom_ctx *ctx;
	struct loom_mr *mr;
	bool on_card = false;
	int err;

	BUILD_BUG_ON(PAGE_SIZE != LOOM_MR_PAGE_SIZE);
	if (req->flags || req->access & ~LOOM_MR_ACCESS_ALL || !req->length ||
	    req->length > LOOM_MR_MAX_LENGTH || req->addr + req->length < req->addr)
		return -EINVAL;
	mr = kzalloc(sizeof(*mr), GFP_KERNEL_ACCOUNT);
	if (!mr)
		return -ENOMEM;
	atomic_long_inc(&loom_mem_mrs);
	INIT_LIST_HEAD(&mr->node);
	mr->index = LOOM_MR_MAX_ENTRIES;
	mr->access = req->access;
	mr->addr = req->addr;
	mr->length = req->length;
	mr->npages = PAGE_ALIGN(offset_in_page(req->addr) + req->length) >>
		     PAGE_SHIFT;

	mutex_lock(&ldev->lock);
	err = loom_mr_reserve(lf, req->ctx_index, mr, &ctx);
	if (err) {
		loom_mr_free(ldev, mr);
		mutex_unlock(&ldev->lock);
		return err;
	}
	rec = (struct loom_hw_mr_rec){
		.key = mr->key,
		.access = mr->access,
		.first_off = offset_in_page(mr->addr),
		.ctx = ctx->index,
		.pkey = ctx->key,
		.length = mr->length,
	};
	mutex_unlock(&ldev->lock);

	err = loom_pin_charge(ldev, &mr->pin, mr->npages);
	if (!err)
		err = loom_mr_pin(ldev, mr);
	if (!err)
		err = loom_mr_build(ldev, mr);
	if (!err) {
		rec.pgl = mr->dir.dma;
		mutex_lock(&ldev->lock);
		if (ldev->dead)
			err = -EIO;
		else
			loom_hw_mr_program(ldev, mr->index, &rec);
		mutex_unlock(&ldev->lock);
	}
	if (!err) {
		err = loom_admin_cmd(ldev, LOOM_ADMIN_CMD_MR_ENABLE, mr->index,
				     loom_admin_timeout_ms);
		/* unanswered: the card may serve it; the context keeps it */
		on_card = !err || err == -ETIMEDOUT || err == -ENODEV;
	}

	mutex_lock(&ldev->lock);
	ctx->mr_busy--;
	/* a quiet card (removed meanwhile) reaches nothing: free it now */
	if (on_card && !ldev->quiet) {
		mr->revoked = err != 0;
		list_add_tail(&mr->node, &ctx->mrs);
	} else {
		loom_mr_free(ldev, mr);
	}
	mutex_unlock(&ldev->lock);
	if (!err) {
		req->lkey = rec.key;
		req->rkey = rec.key;
	}
	return err;
}

/**
 * loom_mr_dereg() - LOOM_IOC_MR_DEREG
 * @lf: the open file
 * @req: the request
 *
 * Return: 0 or a negative errno (see struct loom_mr_dereg).
 */
int loom_mr_dereg(struct loom_file *lf, const struct loom_mr_dereg *req)
{
	struct loom_dev *ldev = lf->ldev;
	struct loom_mr *mr = NULL, *it;
	struct loom_ctx *ctx;
	int err = -EINVAL;

	if (req->flags)
		return -EINVAL;
	mutex_lock(&ldev->lock);
	ctx = ldev->dead ? NULL : loom_file_find_ctx(lf, req->ctx_index);
	if (ldev->dead) {
		err = -EIO;
	} else if (ctx) {
		list_for_each_entry(it, &ctx->mrs, node) {
			if (it->key == req->lkey && !it->revoked) {
				mr = it;
				break;
			}
		}
	}
	if (mr) {
		list_del_init(&mr->node);
		ctx->mr_busy++;
	}
	mutex_unlock(&ldev->lock);
	if (!mr)
		return err;

	err = loom_admin_cmd(ldev, LOOM_ADMIN_CMD_MR_DISABLE, mr->index,
			     loom_admin_timeout_ms);

	mutex_lock(&ldev->lock);
	ctx->mr_busy--;
	if (!err || ldev->quiet) {
		/* dropped, or the card was removed meanwhile and is quiet */
		loom_mr_free(ldev, mr);
		if (err)
			err = -EIO;
	} else {
		mr->revoked = true;
		list_add_tail(&mr->node, &ctx->mrs);
		dev_warn(&ldev->pdev->dev,
			 "memory region %u of context %u: the card did not confirm its drop (%d); its %lu pages stay pinned until the context is destroyed\n",
			 mr->index, ctx->index, err, mr->npages);
		if (err != -ETIMEDOUT)
			err = -EIO;
	}
	mutex_unlock(&ldev->lock);
	return err;
}

/**
 * loom_mr_reg_user() - LOOM_IOC_MR_REG and LOOM_URING_MR_REG: copy the
 *	argument in, register, copy the keys back
 * @lf: the open file
 * @uarg: user address of a struct loom_mr_reg
 *
 * Return: 0 or a negative errno.
 */
int loom_mr_reg_user(struct loom_file *lf, void __user *uarg)
{
	struct loom_mr_reg req;
	u32 argsz;
	int err;

	err = loom_arg_in(&req, sizeof(req), sizeof(req), uarg, &argsz);
	if (err)
		return err;
	err = loom_mr_reg(lf, &req);
	if (err)
		return err;
	err = loom_arg_out(uarg, &req, sizeof(req), argsz);
	if (err) {
		/* the caller cannot know the keys: do not leave the region */
		struct loom_mr_dereg d = {
			.ctx_index = req.ctx_index, .lkey = req.lkey,
		};

		loom_mr_dereg(lf, &d);
	}
	return err;
}

/**
 * loom_mr_dereg_user() - LOOM_IOC_MR_DEREG and LOOM_URING_MR_DEREG
 * @lf: the open file
 * @uarg: user address of a struct loom_mr_dereg
 *
 * Return: 0 or a negative errno.
 */
int loom_mr_dereg_user(struct loom_file *lf, void __user *uarg)
{
	struct loom_mr_dereg req;
	u32 argsz;
	int err;

	err = loom_arg_in(&req, sizeof(req), sizeof(req), uarg, &argsz);
	if (err)
		return err;
	return loom_mr_dereg(lf, &req);
}
