// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware-access back end for the real loom card: registers in BAR0,
 * every register write is seen by the card itself, so a kick does nothing.
 */
#include <linux/pci.h>

#include "loom_drv.h"
#include "loom_hal_io.h"

static int loom_card_setup(struct loom_dev *ldev)
{
	struct pci_dev *pdev = ldev->pdev;
	resource_size_t len = pci_resource_len(pdev, LOOM_REG_BAR);
	u32 magic;
	int err;

	if (!(pci_resource_flags(pdev, LOOM_REG_BAR) & IORESOURCE_MEM) ||
	    len < LOOM_FWID_SIZE) {
		dev_err(&pdev->dev, "BAR%d is not a memory BAR of at least %u bytes: not a loom card\n",
			LOOM_REG_BAR, LOOM_FWID_SIZE);
		return -ENODEV;
	}

	err = pci_request_regions(pdev, LOOM_DRV_NAME);
	if (err) {
		dev_err(&pdev->dev, "cannot claim the BARs (is another driver bound?): %d\n",
			err);
		return err;
	}

	ldev->regs = pci_iomap(pdev, LOOM_REG_BAR, 0);
	if (!ldev->regs) {
		dev_err(&pdev->dev, "cannot map BAR%d\n", LOOM_REG_BAR);
		pci_release_regions(pdev);
		return -ENOMEM;
	}
	ldev->regs_len = min_t(resource_size_t, len, U32_MAX & PAGE_MASK);

	magic = ioread32(ldev->regs + LOOM_FWID_MAGIC);
	if (magic != LOOM_MAGIC) {
		dev_err(&pdev->dev, "no loom firmware signature in BAR%d (read %#x, expected %#x): is the FPGA programmed?\n",
			LOOM_REG_BAR, magic, LOOM_MAGIC);
		pci_iounmap(pdev, ldev->regs);
		ldev->regs = NULL;
		pci_release_regions(pdev);
		return -ENODEV;
	}
	return 0;
}

static void loom_card_teardown(struct loom_dev *ldev)
{
	pci_iounmap(ldev->pdev, ldev->regs);
	ldev->regs = NULL;
	pci_release_regions(ldev->pdev);
}

static void loom_card_kick(struct loom_dev *ldev, unsigned int vector)
{
	/* the card decodes register writes itself */
}

static phys_addr_t loom_card_regs_phys(struct loom_dev *ldev)
{
	return pci_resource_start(ldev->pdev, LOOM_REG_BAR);
}

static phys_addr_t loom_card_kick_phys(struct loom_dev *ldev)
{
	return 0;
}

const struct loom_hal_ops loom_hal_card_ops = {
	.name = "card",
	.setup = loom_card_setup,
	.teardown = loom_card_teardown,
	.read32 = loom_hal_mmio_read32,
	.write32 = loom_hal_mmio_write32,
	.kick = loom_card_kick,
	.regs_phys = loom_card_regs_phys,
	.kick_phys = loom_card_kick_phys,
	.bus_master_stops_dma = true,
};
