// SPDX-License-Identifier: GPL-2.0
/*
 * loom.ko module entry points: module parameters, the "loom" device class,
 * the /dev/loomN character device region and the lifetime of the per-card
 * structure (a kref shared by the PCI binding and the open files).
 */
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "loom_compat.h"
#include "loom_drv.h"
#include "loom_genl.h"

unsigned int loom_admin_timeout_ms = 5000;
module_param_named(admin_timeout_ms, loom_admin_timeout_ms, uint, 0644);
MODULE_PARM_DESC(admin_timeout_ms,
		 "How long to wait for the card to acknowledge an admin command, in ms (default 5000; the VM lab is 10-100x slower than hardware)");

unsigned int loom_admin_poll_ms = 20;
module_param_named(admin_poll_ms, loom_admin_poll_ms, uint, 0644);
MODULE_PARM_DESC(admin_poll_ms,
		 "Interval at which an admin command's acknowledgment is polled when no interrupt arrives, in ms (default 20)");

unsigned int loom_max_ctx_per_file = 16;
module_param_named(max_ctx_per_file, loom_max_ctx_per_file, uint, 0644);
MODULE_PARM_DESC(max_ctx_per_file,
		 "Most contexts one open file of /dev/loomN may hold (default 16)");

unsigned int loom_max_pinned_kb;
module_param_named(max_pinned_kb, loom_max_pinned_kb, uint, 0644);
MODULE_PARM_DESC(max_pinned_kb,
		 "Most memory, in KiB, the contexts of one card may pin (rings, segments, counters pages); 0 (default): no device-wide cap, only each user's RLIMIT_MEMLOCK. Beyond it CTX_CREATE fails with ENOSPC");

static dev_t loom_devt;
static struct class *loom_class;
static struct cdev loom_cdev;
static DEFINE_IDA(loom_minor_ida);
/* minor -> struct loom_dev; the mutex orders lookups against removal */
static DEFINE_XARRAY(loom_minors);
static DEFINE_MUTEX(loom_minors_lock);

static void loom_dev_release(struct kref *kref)
{
	struct loom_dev *ldev = container_of(kref, struct loom_dev, kref);

	WARN_ON(!list_empty(&ldev->files));
	loom_ctx_keep_orphans(ldev);
	loom_quota_destroy(ldev);
	bitmap_free(ldev->ctx_busy);
	pci_dev_put(ldev->pdev);
	kfree(ldev);
}

/**
 * loom_dev_put() - drop a reference to a card
 * @ldev: the card
 *
 * The last reference frees the structure; the PCI device it points to is
 * released then too.
 */
void loom_dev_put(struct loom_dev *ldev)
{
	kref_put(&ldev->kref, loom_dev_release);
}

/**
 * loom_dev_get_by_minor() - find the card behind /dev/loomN
 * @minor: N
 *
 * Return: the card with a new reference, or NULL when no card (or a card
 * already being removed) has that minor.
 */
struct loom_dev *loom_dev_get_by_minor(unsigned int minor)
{
	struct loom_dev *ldev;

	mutex_lock(&loom_minors_lock);
	ldev = xa_load(&loom_minors, minor);
	if (ldev)
		kref_get(&ldev->kref);
	mutex_unlock(&loom_minors_lock);
	return ldev;
}

/**
 * loom_dev_get_next() - walk the cards in order of their minor
 * @index: in: the first minor to look at; out: the minor of the card found
 *
 * Return: the card with a new reference, or NULL when no card has a
 * minor at or above *@index.
 */
struct loom_dev *loom_dev_get_next(unsigned long *index)
{
	struct loom_dev *ldev;

	mutex_lock(&loom_minors_lock);
	ldev = xa_find(&loom_minors, index, LOOM_MAX_DEVS - 1, XA_PRESENT);
	if (ldev)
		kref_get(&ldev->kref);
	mutex_unlock(&loom_minors_lock);
	return ldev;
}

/**
 * loom_dev_register() - give a probed card its /dev/loomN
 * @ldev: the card, fully initialised
 *
 * Return: 0 or a negative errno (with a message).
 */
int loom_dev_register(struct loom_dev *ldev)
{
	struct device *parent = &ldev->pdev->dev;
	int minor, err;

	minor = ida_alloc_max(&loom_minor_ida, LOOM_MAX_DEVS - 1, GFP_KERNEL);
	if (minor < 0) {
		dev_err(parent, "no free /dev/loomN minor (at most %d cards): %d\n",
			LOOM_MAX_DEVS, minor);
		return minor;
	}
	ldev->minor = minor;

	mutex_lock(&loom_minors_lock);
	err = xa_err(xa_store(&loom_minors, minor, ldev, GFP_KERNEL));
	mutex_unlock(&loom_minors_lock);
	if (err)
		goto err_ida;

	ldev->class_dev = device_create_with_groups(loom_class, parent,
						    MKDEV(MAJOR(loom_devt), minor),
						    ldev, loom_dev_groups,
						    "loom%d", minor);
	if (IS_ERR(ldev->class_dev)) {
		err = PTR_ERR(ldev->class_dev);
		ldev->class_dev = NULL;
		dev_err(parent, "cannot create /dev/loom%d: %d\n", minor, err);
		goto err_xa;
	}
	return 0;

err_xa:
	mutex_lock(&loom_minors_lock);
	xa_erase(&loom_minors, minor);
	mutex_unlock(&loom_minors_lock);
err_ida:
	ida_free(&loom_minor_ida, minor);
	return err;
}

/**
 * loom_dev_unregister() - remove /dev/loomN; open files keep working
 *	until they see the card is dead
 * @ldev: the card
 */
void loom_dev_unregister(struct loom_dev *ldev)
{
	mutex_lock(&loom_minors_lock);
	xa_erase(&loom_minors, ldev->minor);
	mutex_unlock(&loom_minors_lock);

	if (ldev->class_dev) {
		device_destroy(loom_class, MKDEV(MAJOR(loom_devt), ldev->minor));
		ldev->class_dev = NULL;
	}
	ida_free(&loom_minor_ida, ldev->minor);
}

static int __init loom_init(void)
{
	int err;

	err = alloc_chrdev_region(&loom_devt, 0, LOOM_MAX_DEVS, LOOM_DRV_NAME);
	if (err) {
		pr_err("loom: cannot allocate a character device region: %d\n", err);
		return err;
	}

	loom_class = loom_class_create(LOOM_DRV_NAME);
	if (IS_ERR(loom_class)) {
		err = PTR_ERR(loom_class);
		pr_err("loom: cannot create the device class: %d\n", err);
		goto err_region;
	}

	cdev_init(&loom_cdev, &loom_fops);
	loom_cdev.owner = THIS_MODULE;
	err = cdev_add(&loom_cdev, loom_devt, LOOM_MAX_DEVS);
	if (err) {
		pr_err("loom: cannot add the character device: %d\n", err);
		goto err_class;
	}

	loom_debugfs_init();
	err = loom_pci_register();
	if (err) {
		pr_err("loom: cannot register the PCI driver: %d\n", err);
		goto err_cdev;
	}

	err = loom_genl_init();
	if (err) {
		pr_err("loom: cannot register the \"%s\" generic netlink family: %d\n",
		       LOOM_GENL_NAME, err);
		goto err_pci;
	}
	return 0;

err_pci:
	loom_pci_unregister();
err_cdev:
	loom_debugfs_exit();
	cdev_del(&loom_cdev);
err_class:
	class_destroy(loom_class);
err_region:
	unregister_chrdev_region(loom_devt, LOOM_MAX_DEVS);
	return err;
}

static void __exit loom_exit(void)
{
	loom_genl_exit();
	loom_pci_unregister();
	loom_ctx_kept_exit();
	loom_debugfs_exit();
	cdev_del(&loom_cdev);
	class_destroy(loom_class);
	unregister_chrdev_region(loom_devt, LOOM_MAX_DEVS);
	ida_destroy(&loom_minor_ida);
	xa_destroy(&loom_minors);
}

module_init(loom_init);
module_exit(loom_exit);

MODULE_DESCRIPTION("loom router card (and its VM-lab emulator)");
MODULE_AUTHOR("The loom project");
MODULE_LICENSE("GPL");
