// SPDX-License-Identifier: GPL-2.0
/*
 * MSI-X interrupts: vector LOOM_VEC_ADMIN wakes admin command waiters,
 * vector LOOM_VEC_CQ wakes poll() sleepers and schedules the scan of
 * io_uring waits (loom_uring.c), vector LOOM_VEC_EVENT (when the card
 * has it) reads maintenance responses (loom_genl_maint.c) in the interrupt
 * thread, since it multicasts them, and wakes BSU waiters (loom_bsu.c).
 * Interrupts coalesce, so the handlers only wake or rescan; the sleepers
 * re-read shared state.
 */
#include <linux/interrupt.h>
#include <linux/pci.h>

#include "loom_drv.h"

static irqreturn_t loom_irq_admin(int irq, void *data)
{
	struct loom_dev *ldev = data;

	wake_up_all(&ldev->admin_wq);
	return IRQ_HANDLED;
}

static irqreturn_t loom_irq_cq(int irq, void *data)
{
	struct loom_dev *ldev = data;

	wake_up_all(&ldev->cq_wq);
	if (!loom_hw_failed(ldev))
		loom_uring_irq(ldev);
	return IRQ_HANDLED;
}

/*
 * interrupt thread: what it reads is multicast, which may sleep.  A failed
 * card's interrupts (a storm, maybe) are taken and otherwise ignored.
 */
static irqreturn_t loom_irq_event(int irq, void *data)
{
	struct loom_dev *ldev = data;

	if (loom_hw_failed(ldev))
		return IRQ_HANDLED;
	loom_maint_event(ldev);
	loom_port_event(ldev);
	loom_bsu_event(ldev);
	return IRQ_HANDLED;
}

/**
 * loom_irq_setup() - allocate MSI-X vectors and install the handlers
 * @ldev: the card; bus mastering must be enabled or no MSI-X arrives
 *
 * Return: 0 or a negative errno (logged).
 */
int loom_irq_setup(struct loom_dev *ldev)
{
	struct pci_dev *pdev = ldev->pdev;
	int n, err;

	n = pci_alloc_irq_vectors(pdev, LOOM_VEC_CQ + 1, LOOM_NUM_VECTORS,
				  PCI_IRQ_MSIX);
	if (n < 0) {
		dev_err(&pdev->dev, "cannot allocate %d..%d MSI-X vectors: %d (in the lab: start ivshmem-doorbell with vectors=%d)\n",
			LOOM_VEC_CQ + 1, LOOM_NUM_VECTORS, n, LOOM_NUM_VECTORS);
		return n;
	}
	ldev->n_vectors = n;
	INIT_WORK(&ldev->uring_work, loom_uring_scan);

	err = request_irq(pci_irq_vector(pdev, LOOM_VEC_ADMIN), loom_irq_admin,
			  0, "loom-admin", ldev);
	if (err) {
		dev_err(&pdev->dev, "cannot request the admin interrupt: %d\n", err);
		goto err_vectors;
	}
	err = request_irq(pci_irq_vector(pdev, LOOM_VEC_CQ), loom_irq_cq, 0,
			  "loom-cq", ldev);
	if (err) {
		dev_err(&pdev->dev, "cannot request the completion interrupt: %d\n",
			err);
		goto err_admin;
	}
	loom_maint_setup(ldev);
	if (n > LOOM_VEC_EVENT) {
		err = request_threaded_irq(pci_irq_vector(pdev, LOOM_VEC_EVENT),
					   NULL, loom_irq_event, IRQF_ONESHOT,
					   "loom-event", ldev);
		if (err) {
			dev_err(&pdev->dev, "cannot request the event interrupt: %d\n",
				err);
			goto err_cq;
		}
	}
	return 0;

err_cq:
	free_irq(pci_irq_vector(pdev, LOOM_VEC_CQ), ldev);
err_admin:
	free_irq(pci_irq_vector(pdev, LOOM_VEC_ADMIN), ldev);
err_vectors:
	pci_free_irq_vectors(pdev);
	ldev->n_vectors = 0;
	return err;
}

/**
 * loom_irq_teardown() - undo loom_irq_setup()
 * @ldev: the card
 */
void loom_irq_teardown(struct loom_dev *ldev)
{
	struct pci_dev *pdev = ldev->pdev;

	if (!ldev->n_vectors)
		return;
	if (ldev->n_vectors > LOOM_VEC_EVENT)
		free_irq(pci_irq_vector(pdev, LOOM_VEC_EVENT), ldev);
	free_irq(pci_irq_vector(pdev, LOOM_VEC_CQ), ldev);
	free_irq(pci_irq_vector(pdev, LOOM_VEC_ADMIN), ldev);
	/* the interrupt queued it; ldev may be freed after this */
	cancel_work_sync(&ldev->uring_work);
	pci_free_irq_vectors(pdev);
	ldev->n_vectors = 0;
}
