/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom hardware-access layer: the only code that knows whether the
 * register space is the real card's BAR0 or the lab's ivshmem BAR2.
 * Everything above it is shared by both back ends.
 */
#ifndef LOOM_HAL_H
#define LOOM_HAL_H

#include <linux/types.h>

struct loom_dev;
struct pci_dev;

/**
 * struct loom_hal_ops - one back end of the hardware-access layer
 * @name: back-end name for log messages ("card" or "lab")
 * @setup: claim and map the device's BARs and check that it is a loom
 *	card; -ENODEV (with a message) when it is not
 * @teardown: undo @setup
 * @read32: read a 32-bit register at a register-space offset
 * @write32: write a 32-bit register at a register-space offset
 * @kick: tell the card that registers (LOOM_KICK_ADMIN) or a doorbell
 *	page (LOOM_KICK_DOORBELL) changed; a no-op on the real card
 * @regs_phys: physical address of the register space, from which the
 *	doorbell pages are mapped into user space
 * @kick_phys: physical address of the kick register, or 0 when the
 *	back end has none (real card)
 * @bus_master_stops_dma: turning bus mastering off stops the card's DMA
 *	(a PCI device; not the lab's emulator, which does not see it)
 */
struct loom_hal_ops {
	const char *name;
	int (*setup)(struct loom_dev *ldev);
	void (*teardown)(struct loom_dev *ldev);
	u32 (*read32)(struct loom_dev *ldev, u32 off);
	void (*write32)(struct loom_dev *ldev, u32 off, u32 val);
	void (*kick)(struct loom_dev *ldev, unsigned int vector);
	phys_addr_t (*regs_phys)(struct loom_dev *ldev);
	phys_addr_t (*kick_phys)(struct loom_dev *ldev);
	bool bus_master_stops_dma;
};

extern const struct loom_hal_ops loom_hal_card_ops;
extern const struct loom_hal_ops loom_hal_lab_ops;

/* ivshmem-doorbell registers (BAR0 of the lab device) */
#define LOOM_IVSHMEM_BAR_CTRL		0
#define LOOM_IVSHMEM_BAR_SHM		2
#define LOOM_IVSHMEM_DOORBELL		0x0c
#define LOOM_IVSHMEM_PEER_CARD		0	/* the emulator is peer 0 */
#define LOOM_IVSHMEM_VENDOR_ID		0x1af4
#define LOOM_IVSHMEM_DEVICE_ID		0x1110

#endif /* LOOM_HAL_H */
