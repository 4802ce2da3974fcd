// SPDX-License-Identifier: GPL-2.0
/*
 * The link block (optional): the lane-drop threshold, a setting software
 * writes and reads back.
 */
#include <linux/pci.h>

#include "loom_drv.h"

/**
 * loom_hw_link_probe() - check the link block
 * @ldev: the card
 *
 * Return: 0, or -EPROTO (logged) when it is smaller than its registers.
 */
int loom_hw_link_probe(struct loom_dev *ldev)
{
	const struct loom_blk *b = &ldev->blk_link;

	return b->size ? loom_hw_probe_size(ldev, "LINK", b, LOOM_LINK_BASE) : 0;
}

/**
 * loom_hw_link_present() - does the card have a link block?
 * @ldev: the card
 *
 * Return: true when it does.
 */
bool loom_hw_link_present(struct loom_dev *ldev)
{
	return ldev->blk_link.size;
}

/**
 * loom_hw_lane_threshold() - lane errors per window that drop a lane
 * @ldev: the card, alive, with a link block
 * @n: set to it
 *
 * Return: 0 or -EIO.
 */
int loom_hw_lane_threshold(struct loom_dev *ldev, u32 *n)
{
	if (loom_hw_failed(ldev))
		return -EIO;
	*n = loom_rd(ldev, ldev->blk_link.off + LOOM_LINK_LANE_THRESHOLD);
	return 0;
}

/**
 * loom_hw_set_lane_threshold() - change the lane-drop threshold
 * @ldev: the card, alive, with a link block
 * @n: errors per window
 *
 * Return: 0 or -EIO.
 */
int loom_hw_set_lane_threshold(struct loom_dev *ldev, u32 n)
{
	if (loom_hw_failed(ldev))
		return -EIO;
	loom_wr(ldev, ldev->blk_link.off + LOOM_LINK_LANE_THRESHOLD, n);
	return 0;
}
