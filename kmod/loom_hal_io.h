/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Register accessors shared by both HAL back ends: the register space is
 * MMIO in both cases (a BAR), only its BAR number and the kick differ.
 */
#ifndef LOOM_HAL_IO_H
#define LOOM_HAL_IO_H

#include <linux/io.h>

#include "loom_drv.h"

static inline u32 loom_hal_mmio_read32(struct loom_dev *ldev, u32 off)
{
	if (WARN_ON_ONCE(off > ldev->regs_len - 4))
		return ~0u;
	return ioread32(ldev->regs + off);
}

static inline void loom_hal_mmio_write32(struct loom_dev *ldev, u32 off,
					 u32 val)
{
	if (WARN_ON_ONCE(off > ldev->regs_len - 4))
		return;
	iowrite32(val, ldev->regs + off);
}

#endif /* LOOM_HAL_IO_H */
