// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/loomN file operations: open/release, the ioctls of
 * include/uapi/linux/loom.h, mmap (loom_mmap.c) and poll, plus what
 * happens to open files when their card goes away.
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/poll.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <loom_hw/packet.h>

#include "loom_drv.h"
#include "loom_token.h"

static atomic_t loom_next_cookie = ATOMIC_INIT(0);

static u32 loom_new_cookie(void)
{
	u32 c;

	do {
		c = (u32)atomic_inc_return(&loom_next_cookie) &
		    LOOM_TOKEN_COOKIE_MASK;
	} while (!c);
	return c;
}

static int loom_open(struct inode *inode, struct file *file)
{
	struct loom_dev *ldev;
	struct loom_file *lf;

	ldev = loom_dev_get_by_minor(iminor(inode));
	if (!ldev)
		return -ENODEV;

	lf = kzalloc(sizeof(*lf), GFP_KERNEL_ACCOUNT);
	if (!lf) {
		loom_dev_put(ldev);
		return -ENOMEM;
	}
	lf->ldev = ldev;
	lf->mapping = file->f_mapping;
	lf->cookie = loom_new_cookie();
	xa_init_flags(&lf->ctxs, XA_FLAGS_ALLOC);
	loom_uring_file_init(lf);

	mutex_lock(&ldev->lock);
	if (ldev->dead) {
		mutex_unlock(&ldev->lock);
		kfree(lf);
		loom_dev_put(ldev);
		return -ENODEV;
	}
	list_add_tail_rcu(&lf->node, &ldev->files);
	mutex_unlock(&ldev->lock);

	file->private_data = lf;
	return nonseekable_open(inode, file);
}

static int loom_release(struct inode *inode, struct file *file)
{
	struct loom_file *lf = file->private_data;
	struct loom_dev *ldev = lf->ldev;

	loom_uring_file_release(lf);
	loom_ctx_release_all(lf);
	mutex_lock(&ldev->lock);
	list_del_rcu(&lf->node);
	mutex_unlock(&ldev->lock);
	xa_destroy(&lf->ctxs);
	kfree_rcu(lf, rcu);
	loom_dev_put(ldev);
	return 0;
}

/**
 * loom_arg_in() - copy an ioctl argument in
 * @karg: kernel copy
 * @ksize: its size
 * @minsz: smallest argsz accepted
 * @uarg: user address
 * @argsz: set to the argsz the caller passed
 *
 * argsz (the first word) must cover at least @minsz bytes and at most a
 * page; bytes beyond what the driver knows must be zero.
 *
 * Return: 0, -EFAULT, -EINVAL (argsz too small) or -E2BIG.
 */
int loom_arg_in(void *karg, size_t ksize, size_t minsz, void __user *uarg,
		u32 *argsz)
{
	if (get_user(*argsz, (u32 __user *)uarg))
		return -EFAULT;
	if (*argsz < minsz)
		return -EINVAL;
	if (*argsz > PAGE_SIZE)
		return -E2BIG;
	return copy_struct_from_user(karg, ksize, uarg, *argsz);
}

/**
 * loom_arg_out() - copy an ioctl result back: at most @argsz bytes, so
 *	that older callers get a prefix
 * @uarg: user address
 * @karg: kernel copy
 * @ksize: its size
 * @argsz: what the caller passed
 *
 * Return: 0 or -EFAULT.
 */
int loom_arg_out(void __user *uarg, const void *karg, size_t ksize, u32 argsz)
{
	return copy_to_user(uarg, karg, min_t(size_t, ksize, argsz)) ?
	       -EFAULT : 0;
}

static long loom_ioc_dev_info(struct loom_file *lf, void __user *uarg)
{
	struct loom_dev *ldev = lf->ldev;
	struct loom_dev_info info;
	u32 argsz;
	int err;

	err = loom_arg_in(&info, sizeof(info), sizeof(info), uarg, &argsz);
	if (err)
		return err;
	if (info.flags)
		return -EINVAL;

	mutex_lock(&ldev->lock);
	if (ldev->dead) {
		mutex_unlock(&ldev->lock);
		return -EIO;
	}
	info.node_id = ldev->geo.node_id;
	err = loom_hw_logical_id(ldev, &info.logical_id);
	mutex_unlock(&ldev->lock);
	if (err)
		return err;
	info.n_ports = ldev->n_ports;
	info.n_contexts = ldev->n_ctx;
	info.design_version = ldev->fwid.design_version;
	info.build_id = ldev->fwid.build_id;
	info.hw_flags = ldev->fwid.flags & LOOM_FWID_F_EMULATED ?
			LOOM_DEV_HW_EMULATED : 0;
	info.max_payload = LOOM_PKT_MAX_PAYLOAD;
	return loom_arg_out(uarg, &info, sizeof(info), argsz);
}

static long loom_ioc_ctx_create(struct loom_file *lf, void __user *uarg)
{
	struct loom_ctx_create req;
	u32 argsz;
	int err;

	/* ABI 0.1 callers pass the shorter structure: the rest reads as 0 */
	err = loom_arg_in(&req, sizeof(req), LOOM_CTX_CREATE_SIZE_V1, uarg,
			  &argsz);
	if (err)
		return err;
	err = loom_ctx_create(lf, &req);
	if (err)
		return err;
	err = loom_arg_out(uarg, &req, sizeof(req), argsz);
	if (err)
		/* the caller cannot know the context: do not leave it behind */
		loom_ctx_destroy(lf, req.index);
	return err;
}

static long loom_ioc_ctx_destroy(struct loom_file *lf, void __user *uarg)
{
	struct loom_ctx_destroy req;
	u32 argsz;
	int err;

	err = loom_arg_in(&req, sizeof(req), sizeof(req), uarg, &argsz);
	if (err)
		return err;
	if (req.flags || req.pad)
		return -EINVAL;
	return loom_ctx_destroy(lf, req.index);
}

/*
 * LOOM_IOC_CTX_CREATE's number encodes the structure's size, which grew in
 * ABI 0.2: any read-write command of type LOOM_IOC_MAGIC, number 0x01 and a
 * size of at least the ABI 0.1 structure is CTX_CREATE (argsz says how
 * much the caller really passes).
 */
static bool loom_ioc_is_ctx_create(unsigned int cmd)
{
	return _IOC_TYPE(cmd) == LOOM_IOC_MAGIC &&
	       _IOC_NR(cmd) == _IOC_NR(LOOM_IOC_CTX_CREATE) &&
	       _IOC_DIR(cmd) == (_IOC_READ | _IOC_WRITE) &&
	       _IOC_SIZE(cmd) >= LOOM_CTX_CREATE_SIZE_V1;
}

static long loom_ioc_bsu_wait(struct loom_file *lf, void __user *uarg)
{
	struct loom_bsu_wait req;
	u32 argsz;
	int err;

	err = loom_arg_in(&req, sizeof(req), sizeof(req), uarg, &argsz);
	if (err)
		return err;
	return loom_bsu_wait_ioctl(lf, &req);
}

static long loom_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct loom_file *lf = file->private_data;
	void __user *uarg = (void __user *)arg;

	if (loom_ioc_is_ctx_create(cmd))
		return loom_ioc_ctx_create(lf, uarg);
	switch (cmd) {
	case LOOM_IOC_DEV_INFO:
		return loom_ioc_dev_info(lf, uarg);
	case LOOM_IOC_CTX_DESTROY:
		return loom_ioc_ctx_destroy(lf, uarg);
	case LOOM_IOC_BSU_WAIT:
		return loom_ioc_bsu_wait(lf, uarg);
	case LOOM_IOC_MR_REG:
		return loom_mr_reg_user(lf, uarg);
	case LOOM_IOC_MR_DEREG:
		return loom_mr_dereg_user(lf, uarg);
	default:
		return -ENOTTY;
	}
}

static __poll_t loom_poll(struct file *file, poll_table *wait)
{
	struct loom_file *lf = file->private_data;
	struct loom_dev *ldev = lf->ldev;
	struct loom_ctx *ctx;
	unsigned long slot;
	__poll_t mask = 0;

	poll_wait(file, &ldev->cq_wq, wait);

	mutex_lock(&ldev->lock);
	if (ldev->dead) {
		mask = EPOLLERR | EPOLLHUP;
	} else {
		xa_for_each(&lf->ctxs, slot, ctx) {
			if (loom_ctx_cq_ready(ctx)) {
				mask = EPOLLIN | EPOLLRDNORM;
				break;
			}
		}
	}
	mutex_unlock(&ldev->lock);
	return mask;
}

const struct file_operations loom_fops = {
	.owner = THIS_MODULE,
	.open = loom_open,
	.release = loom_release,
	.unlocked_ioctl = loom_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = loom_mmap,
	.poll = loom_poll,
	.uring_cmd = loom_uring_cmd,
	.llseek = no_llseek,
};

/**
 * loom_files_kill() - the card is going away: cut off its open files
 * @ldev: the card
 *
 * Marks the card dead (ioctl -> -EIO, poll -> EPOLLERR | EPOLLHUP, mmap ->
 * -EIO), zaps every user mapping of every open file (a later access raises
 * SIGBUS), completes every io_uring wait with -EIO and wakes all sleepers.
 */
void loom_files_kill(struct loom_dev *ldev)
{
	struct loom_file *lf;

	mutex_lock(&ldev->lock);
	ldev->dead = true;
	list_for_each_entry(lf, &ldev->files, node) {
		unmap_mapping_range(lf->mapping, 0, 0, 1);
		loom_uring_file_kill(lf);
	}
	mutex_unlock(&ldev->lock);

	wake_up_all(&ldev->cq_wq);
	wake_up_all(&ldev->bsu_wq);
	wake_up_all(&ldev->admin_wq);
}
