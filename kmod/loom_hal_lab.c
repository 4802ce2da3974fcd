// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware-access back end for the VM lab: a QEMU ivshmem-doorbell device
 * (1af4:1110) whose server is the loom card emulator.  BAR2 is the shared
 * memory holding the register space; the emulator cannot see writes to it,
 * so every effective write is followed by a kick: a doorbell to ivshmem
 * peer 0 (the emulator) through the Doorbell register in BAR0.
 */
#include <linux/pci.h>

#include "loom_drv.h"
#include "loom_hal_io.h"

static bool loom_lab_is_emulator(struct pci_dev *pdev)
{
	void __iomem *shm;
	u32 magic, flags;

	if (!(pci_resource_flags(pdev, LOOM_IVSHMEM_BAR_SHM) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, LOOM_IVSHMEM_BAR_SHM) < LOOM_FWID_SIZE)
		return false;

	shm = pci_iomap_range(pdev, LOOM_IVSHMEM_BAR_SHM, 0, LOOM_FWID_SIZE);
	if (!shm)
		return false;
	magic = ioread32(shm + LOOM_FWID_MAGIC);
	flags = ioread32(shm + LOOM_FWID_FLAGS);
	pci_iounmap(pdev, shm);

	return magic == LOOM_MAGIC && (flags & LOOM_FWID_F_EMULATED);
}

/*
 * The kick page handed to user space is the page holding the 256-byte
 * ivshmem register BAR.  Say so when another device's registers share
 * that page: whoever may open /dev/loomN could reach them too.
 */
static void loom_lab_check_kick_page(struct pci_dev *pdev)
{
	resource_size_t page = pci_resource_start(pdev, LOOM_IVSHMEM_BAR_CTRL) &
			       PAGE_MASK;
	struct pci_dev *other = NULL;
	int bar;

	for_each_pci_dev(other) {
		for (bar = 0; bar < PCI_STD_NUM_BARS; bar++) {
			struct resource *r = &other->resource[bar];

			if ((other == pdev && bar == LOOM_IVSHMEM_BAR_CTRL) ||
			    !(r->flags & IORESOURCE_MEM) || !r->start)
				continue;
			if (r->start < page + PAGE_SIZE && r->end >= page)
				dev_warn(&pdev->dev, "kick page %pa is shared with BAR%d of %s: processes that may open /dev/loomN can reach it\n",
					 &page, bar, pci_name(other));
		}
	}
}

static int loom_lab_setup(struct loom_dev *ldev)
{
	struct pci_dev *pdev = ldev->pdev;
	resource_size_t len;
	int err;

	if (!loom_lab_is_emulator(pdev)) {
		dev_info(&pdev->dev, "ivshmem device is not a loom card emulator (no LOOM signature at offset 0 of BAR%d): not binding it\n",
			 LOOM_IVSHMEM_BAR_SHM);
		return -ENODEV;
	}

	if (pci_resource_len(pdev, LOOM_IVSHMEM_BAR_CTRL) < LOOM_IVSHMEM_DOORBELL + 4) {
		dev_err(&pdev->dev, "ivshmem register BAR%d too small for the Doorbell register\n",
			LOOM_IVSHMEM_BAR_CTRL);
		return -ENODEV;
	}

	err = pci_request_regions(pdev, LOOM_DRV_NAME);
	if (err) {
		dev_err(&pdev->dev, "cannot claim the ivshmem BARs (is another driver, e.g. uio, bound?): %d\n",
			err);
		return err;
	}

	len = pci_resource_len(pdev, LOOM_IVSHMEM_BAR_SHM);
	ldev->regs = pci_iomap(pdev, LOOM_IVSHMEM_BAR_SHM, 0);
	ldev->ctrl = pci_iomap(pdev, LOOM_IVSHMEM_BAR_CTRL, 0);
	if (!ldev->regs || !ldev->ctrl) {
		dev_err(&pdev->dev, "cannot map the ivshmem BARs %d and %d\n",
			LOOM_IVSHMEM_BAR_SHM, LOOM_IVSHMEM_BAR_CTRL);
		err = -ENOMEM;
		goto err_unmap;
	}
	ldev->regs_len = min_t(resource_size_t, len, U32_MAX & PAGE_MASK);
	loom_lab_check_kick_page(pdev);
	return 0;

err_unmap:
	if (ldev->regs)
		pci_iounmap(pdev, ldev->regs);
	if (ldev->ctrl)
		pci_iounmap(pdev, ldev->ctrl);
	ldev->regs = NULL;
	ldev->ctrl = NULL;
	pci_release_regions(pdev);
	return err;
}

static void loom_lab_teardown(struct loom_dev *ldev)
{
	pci_iounmap(ldev->pdev, ldev->ctrl);
	pci_iounmap(ldev->pdev, ldev->regs);
	ldev->ctrl = NULL;
	ldev->regs = NULL;
	pci_release_regions(ldev->pdev);
}

static void loom_lab_kick(struct loom_dev *ldev, unsigned int vector)
{
	/* everything the kick announces must be in shared memory first */
	wmb();
	iowrite32(LOOM_IVSHMEM_PEER_CARD << 16 | vector,
		  ldev->ctrl + LOOM_IVSHMEM_DOORBELL);
}

static phys_addr_t loom_lab_regs_phys(struct loom_dev *ldev)
{
	return pci_resource_start(ldev->pdev, LOOM_IVSHMEM_BAR_SHM);
}

static phys_addr_t loom_lab_kick_phys(struct loom_dev *ldev)
{
	return pci_resource_start(ldev->pdev, LOOM_IVSHMEM_BAR_CTRL) +
	       LOOM_IVSHMEM_DOORBELL;
}

const struct loom_hal_ops loom_hal_lab_ops = {
	.name = "lab",
	.setup = loom_lab_setup,
	.teardown = loom_lab_teardown,
	.read32 = loom_hal_mmio_read32,
	.write32 = loom_hal_mmio_write32,
	.kick = loom_lab_kick,
	.regs_phys = loom_lab_regs_phys,
	.kick_phys = loom_lab_kick_phys,
	/* the emulator writes guest RAM directly: it never sees the bit */
	.bus_master_stops_dma = false,
};
