// SPDX-License-Identifier: GPL-2.0
/*
 * The MCAST block (optional): the multicast group table, one entry per
 * group, saying what this router does with a packet of that group: the
 * network ports a copy leaves by, whether its host gets a copy (into which
 * context) and, at the group's root, how many members acknowledge a put.
 * N_GROUPS is read once at probe and kept; entries are what software
 * wrote, read back only to be reported, field by field.
 */
#include <linux/minmax.h>
#include <linux/pci.h>

#include "loom_drv.h"

static u32 loom_hw_mcast_reg(struct loom_dev *ldev, u32 group)
{
	return ldev->blk_mcast.off + LOOM_MCAST_TABLE +
	       group * LOOM_MCAST_ENTRY_SIZE;
}

/**
 * loom_hw_mcast_probe() - read and check the multicast block's geometry
 * @ldev: the card
 *
 * Sets ldev->geo.n_groups (0 without a MCAST block: no multicast).
 *
 * Return: 0, or -EPROTO (logged) when N_GROUPS is 0, beyond
 * LOOM_HW_MCAST_MAX_GROUPS or beyond the entries the block holds.
 */
int loom_hw_mcast_probe(struct loom_dev *ldev)
{
	const struct loom_blk *b = &ldev->blk_mcast;
	u32 off, n, fit, limit;
	int err;

	ldev->geo.n_groups = 0;
	if (!b->size)
		return 0;
	err = loom_hw_probe_size(ldev, "MCAST", b, LOOM_MCAST_TABLE);
	if (err)
		return err;
	off = b->off + LOOM_MCAST_N_GROUPS;
	n = loom_rd(ldev, off);
	fit = (b->size - LOOM_MCAST_TABLE) / LOOM_MCAST_ENTRY_SIZE;
	limit = min_t(u32, fit, LOOM_HW_MCAST_MAX_GROUPS);
	if (!n || n > limit)
		return loom_hw_refuse(ldev, "MCAST", "N_GROUPS", -1, off, n,
				      "1..%u (LOOM_HW_MCAST_MAX_GROUPS, and the %u entries the %#x-byte block holds)",
				      limit, fit, b->size);
	ldev->geo.n_groups = n;
	return 0;
}

/**
 * loom_hw_mcast_groups() - entries of the group table
 * @ldev: the card
 *
 * Return: 0 (no multicast) .. LOOM_HW_MCAST_MAX_GROUPS, as checked at probe.
 */
u32 loom_hw_mcast_groups(struct loom_dev *ldev)
{
	return ldev->geo.n_groups;
}

/**
 * loom_hw_mcast_get() - one entry of the group table
 * @ldev: the card, alive
 * @group: below loom_hw_mcast_groups()
 * @e: set to the entry's fields
 *
 * Return: 0, -EIO or -EINVAL.
 */
int loom_hw_mcast_get(struct loom_dev *ldev, u32 group,
		      struct loom_hw_mcast *e)
{
	u32 w0, w1;

	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(group >= loom_hw_mcast_groups(ldev)))
		return -EINVAL;
	w0 = loom_rd(ldev, loom_hw_mcast_reg(ldev, group));
	w1 = loom_rd(ldev, loom_hw_mcast_reg(ldev, group) + 4);
	e->valid = w0 & LOOM_MCAST_W0_VALID;
	e->host = w0 & LOOM_MCAST_W0_HOST;
	e->ports = w0 & LOOM_MCAST_W0_PORTS_MASK;
	e->host_ctx = w1 & LOOM_MCAST_W1_HOST_CTX_MASK;
	e->members = (w1 & LOOM_MCAST_W1_MEMBERS_MASK) >>
		     LOOM_MCAST_W1_MEMBERS_SHIFT;
	return 0;
}

/**
 * loom_hw_mcast_set() - write one entry of the group table
 * @ldev: the card, alive
 * @group: below loom_hw_mcast_groups()
 * @e: the entry; word 1 is written first, so the entry turns valid last
 *	(and, cleared, turns invalid first)
 *
 * Return: 0, -EIO or -EINVAL.
 */
int loom_hw_mcast_set(struct loom_dev *ldev, u32 group,
		      const struct loom_hw_mcast *e)
{
	u32 w0, w1, reg;

	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(group >= loom_hw_mcast_groups(ldev)))
		return -EINVAL;
	reg = loom_hw_mcast_reg(ldev, group);
	w0 = (e->ports & LOOM_MCAST_W0_PORTS_MASK) |
	     (e->host ? LOOM_MCAST_W0_HOST : 0) |
	     (e->valid ? LOOM_MCAST_W0_VALID : 0);
	w1 = (e->host_ctx & LOOM_MCAST_W1_HOST_CTX_MASK) |
	     ((u32)e->members << LOOM_MCAST_W1_MEMBERS_SHIFT &
	      LOOM_MCAST_W1_MEMBERS_MASK);
	if (!e->valid)
		loom_wr(ldev, reg, w0);
	loom_wr(ldev, reg + 4, w1);
	if (e->valid)
		loom_wr(ldev, reg, w0);
	return 0;
}
