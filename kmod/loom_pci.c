// SPDX-License-Identifier: GPL-2.0
/*
 * The PCI driver: binds the real card (its own ids, registers in BAR0) and
 * the VM lab's card emulator (ivshmem-doorbell with the loom signature in
 * BAR2).  The back end is chosen by the id table; everything else is
 * shared.  remove() may run while files are open: it cuts them off
 * (loom_files_kill: dead, every mapping zapped), stops the card, turns bus
 * mastering off and only then frees the device's DMA memory, mapped or
 * not; what the files still hold besides goes when the last one is
 * closed.
 */
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "loom_drv.h"

static void loom_hw_release(struct loom_dev *ldev)
{
	struct pci_dev *pdev = ldev->pdev;

	loom_irq_teardown(ldev);
	pci_clear_master(pdev);
	ldev->hal->teardown(ldev);
	pci_disable_device(pdev);
}

static int loom_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct loom_dev *ldev;
	int err;

	ldev = kzalloc(sizeof(*ldev), GFP_KERNEL);
	if (!ldev)
		return -ENOMEM;
	kref_init(&ldev->kref);
	ldev->pdev = pci_dev_get(pdev);
	ldev->hal = (const struct loom_hal_ops *)id->driver_data;
	mutex_init(&ldev->lock);
	mutex_init(&ldev->admin_lock);
	INIT_LIST_HEAD(&ldev->files);
	INIT_LIST_HEAD(&ldev->orphans);
	xa_init(&ldev->quota);
	init_waitqueue_head(&ldev->admin_wq);
	init_waitqueue_head(&ldev->ctx_held_wq);
	init_waitqueue_head(&ldev->cq_wq);
	init_waitqueue_head(&ldev->bsu_wq);
	loom_hw_init(ldev);

	err = pci_enable_device(pdev);
	if (err) {
		dev_err(&pdev->dev, "cannot enable the PCI device: %d\n", err);
		goto err_put;
	}
	err = ldev->hal->setup(ldev);
	if (err)
		goto err_disable;
	err = loom_regs_discover(ldev);
	if (err)
		goto err_hal;

	ldev->ctx_busy = bitmap_zalloc(ldev->n_ctx, GFP_KERNEL);
	if (!ldev->ctx_busy) {
		err = -ENOMEM;
		goto err_hal;
	}
	err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (err) {
		dev_err(&pdev->dev, "no usable 64-bit DMA: %d\n", err);
		goto err_hal;
	}
	/* without bus mastering no MSI-X message reaches the CPU */
	pci_set_master(pdev);
	err = loom_irq_setup(ldev);
	if (err)
		goto err_master;

	err = loom_admin_wait_ready(ldev);
	if (!err)
		err = loom_admin_cmd(ldev, LOOM_ADMIN_CMD_RESET, 0,
				     loom_admin_timeout_ms);
	if (err)
		goto err_irq;

	pci_set_drvdata(pdev, ldev);
	err = loom_dev_register(ldev);
	if (err)
		goto err_irq;
	loom_events_start(ldev);
	loom_debugfs_add(ldev);

	dev_info(&pdev->dev, "loom%d: %s back end, node %u, %u contexts, %u ports, %d MSI-X vectors\n",
		 ldev->minor, ldev->hal->name, ldev->geo.node_id,
		 ldev->n_ctx, ldev->n_ports, ldev->n_vectors);
	return 0;

err_irq:
	pci_set_drvdata(pdev, NULL);
	loom_irq_teardown(ldev);
err_master:
	pci_clear_master(pdev);
err_hal:
	ldev->hal->teardown(ldev);
err_disable:
	pci_disable_device(pdev);
err_put:
	/* the RESET may have failed the card: its work must not outlive it */
	loom_hw_stop(ldev);
	loom_dev_put(ldev);
	return err;
}

static void loom_remove(struct pci_dev *pdev)
{
	struct loom_dev *ldev = pci_get_drvdata(pdev);
	bool stopped;

	loom_debugfs_remove(ldev);
	/* no new opens, sysfs gone */
	loom_dev_unregister(ldev);
	/* open files: -EIO, POLLHUP, mappings zapped */
	loom_files_kill(ldev);
	/* ask the card to stop every context */
	stopped = loom_ctx_hw_stop_all(ldev);
	/* nobody's admin command touches the registers from here on */
	loom_admin_stop(ldev);
	/* every context is in a file or an orphan: free_dead() reaches it */
	loom_ctx_wait_held(ldev);
	loom_hw_release(ldev);
	/* interrupts freed: nothing queues the event work any more */
	loom_events_stop(ldev);
	/* nothing reads registers any more: nothing fails the card */
	loom_hw_stop(ldev);
	/* stopped, or bus mastering off: the card can no longer write memory */
	loom_ctx_free_dead(ldev, stopped);

	pci_set_drvdata(pdev, NULL);
	dev_info(&pdev->dev, "loom%d removed\n", ldev->minor);
	loom_dev_put(ldev);
}

static const struct pci_device_id loom_pci_ids[] = {
	{ PCI_DEVICE(LOOM_PCI_VENDOR_ID, LOOM_PCI_DEVICE_ID),
	  .driver_data = (kernel_ulong_t)&loom_hal_card_ops },
	{ PCI_DEVICE(LOOM_IVSHMEM_VENDOR_ID, LOOM_IVSHMEM_DEVICE_ID),
	  .driver_data = (kernel_ulong_t)&loom_hal_lab_ops },
	{ }
};
MODULE_DEVICE_TABLE(pci, loom_pci_ids);

static struct pci_driver loom_pci_driver = {
	.name = LOOM_DRV_NAME,
	.id_table = loom_pci_ids,
	.probe = loom_probe,
	.remove = loom_remove,
};

/**
 * loom_pci_register() - register the PCI driver
 *
 * Return: 0 or a negative errno.
 */
int loom_pci_register(void)
{
	return pci_register_driver(&loom_pci_driver);
}

/**
 * loom_pci_unregister() - unregister the PCI driver (removes every card)
 */
void loom_pci_unregister(void)
{
	pci_unregister_driver(&loom_pci_driver);
}
