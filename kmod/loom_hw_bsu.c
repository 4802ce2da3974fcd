// SPDX-License-Identifier: GPL-2.0
/*
 * The BSU block (optional): a tree record per barrier/eureka unit in the
 * block, and a user page per unit in the page area.  N_UNITS, PAGE_STRIDE
 * and PAGE_AREA are read once at probe and kept: the page area decides
 * which physical page a process gets mapped, so it is never read again
 * (whether it overlaps another block is checked by loom_regs.c).  A unit's
 * STATE is checked at every read; its counters take any value; the tree
 * is what software wrote, reported through its defined fields.
 */
#include <linux/mm.h>
#include <linux/pci.h>

#include "loom_drv.h"

/**
 * loom_hw_bsu_probe() - read and check the BSU block's geometry
 * @ldev: the card
 *
 * Sets ldev->geo.n_bsu (0 without a BSU block) and ldev->geo.bsu_area.
 *
 * Return: 0, or -EPROTO (logged).
 */
int loom_hw_bsu_probe(struct loom_dev *ldev)
{
	const struct loom_blk *b = &ldev->blk_bsu;
	u32 off, n, stride, area;
	int err;

	ldev->geo.n_bsu = 0;
	if (!b->size)
		return 0;
	err = loom_hw_probe_size(ldev, "BSU", b, LOOM_BSU_TREE_BASE);
	if (err)
		return err;
	off = b->off + LOOM_BSU_N_UNITS;
	n = loom_rd(ldev, off);
	if (!n || n > LOOM_BSU_COUNT ||
	    (u64)n * LOOM_BSU_TREE_SIZE > b->size - LOOM_BSU_TREE_BASE)
		return loom_hw_refuse(ldev, "BSU", "N_UNITS", -1, off, n,
				      "1..%u (LOOM_BSU_COUNT), with a tree record each inside the %#x-byte block",
				      LOOM_BSU_COUNT, b->size);
	off = b->off + LOOM_BSU_PAGE_STRIDE;
	stride = loom_rd(ldev, off);
	if (stride != LOOM_BSU_PAGE_SIZE || LOOM_BSU_PAGE_SIZE != PAGE_SIZE)
		return loom_hw_refuse(ldev, "BSU", "PAGE_STRIDE", -1, off, stride,
				      "exactly %#x, the page size (%#lx)",
				      LOOM_BSU_PAGE_SIZE, PAGE_SIZE);
	err = loom_hw_probe_pages(ldev, "BSU", "PAGE_AREA",
				  b->off + LOOM_BSU_PAGE_AREA, n, &area);
	if (err)
		return err;
	ldev->geo.n_bsu = n;
	ldev->geo.bsu_area = area;
	return 0;
}

/**
 * loom_hw_bsu_count() - units the driver can offer
 * @ldev: the card
 *
 * Return: 0..LOOM_BSU_COUNT, as checked at probe.
 */
u32 loom_hw_bsu_count(struct loom_dev *ldev)
{
	return ldev->geo.n_bsu;
}

/**
 * loom_hw_bsu_page_off() - register-space offset of a unit's user page
 * @ldev: the card
 * @unit: below loom_hw_bsu_count()
 *
 * Return: the offset, page aligned, inside the register space and apart
 * from every other block (as checked at probe).
 */
u32 loom_hw_bsu_page_off(struct loom_dev *ldev, u32 unit)
{
	return ldev->geo.bsu_area + unit * LOOM_BSU_PAGE_SIZE;
}

static u32 loom_hw_bsu_tree_reg(struct loom_dev *ldev, u32 unit, u32 field)
{
	return ldev->blk_bsu.off + LOOM_BSU_TREE_BASE +
	       unit * LOOM_BSU_TREE_SIZE + field;
}

/**
 * loom_hw_bsu_tree() - a unit's tree record
 * @ldev: the card, alive
 * @unit: below loom_hw_bsu_count()
 * @t: set to its fields
 *
 * Return: 0, -EIO or -EINVAL.
 */
int loom_hw_bsu_tree(struct loom_dev *ldev, u32 unit,
		     struct loom_hw_bsu_tree *t)
{
	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(unit >= loom_hw_bsu_count(ldev)))
		return -EINVAL;
	t->children = loom_rd(ldev, loom_hw_bsu_tree_reg(ldev, unit,
							 LOOM_BSUT_CHILDREN)) &
		      LOOM_BSU_CHILDREN_MASK;
	t->parent = loom_rd(ldev, loom_hw_bsu_tree_reg(ldev, unit,
						       LOOM_BSUT_PARENT)) & 0xf;
	t->arrived = loom_rd(ldev, loom_hw_bsu_tree_reg(ldev, unit,
							LOOM_BSUT_ARRIVED)) &
		     LOOM_BSU_CHILDREN_MASK;
	t->eureka = loom_rd(ldev, loom_hw_bsu_tree_reg(ldev, unit,
						       LOOM_BSUT_FLAGS)) &
		    LOOM_BSUT_F_EUREKA;
	return 0;
}

/**
 * loom_hw_bsu_set_tree() - write a unit's tree record
 * @ldev: the card, alive
 * @unit: below loom_hw_bsu_count()
 * @children: LOOM_BSU_CHILDREN_MASK bits
 * @parent: parent port or LOOM_BSU_ROOT
 *
 * Return: 0, -EIO or -EINVAL.
 */
int loom_hw_bsu_set_tree(struct loom_dev *ldev, u32 unit, u32 children,
			 u32 parent)
{
	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(unit >= loom_hw_bsu_count(ldev)))
		return -EINVAL;
	loom_wr(ldev, loom_hw_bsu_tree_reg(ldev, unit, LOOM_BSUT_CHILDREN),
		children & LOOM_BSU_CHILDREN_MASK);
	loom_wr(ldev, loom_hw_bsu_tree_reg(ldev, unit, LOOM_BSUT_PARENT),
		parent & 0xf);
	return 0;
}

/* Has the block the partition words (BSU 1.1: OWNED and a KEY per unit)? */
static bool loom_hw_bsu_partitions(struct loom_dev *ldev)
{
	return ldev->blk_bsu.size >= LOOM_BSU_SIZE;
}

/**
 * loom_hw_bsu_set_partition() - write a unit's partition key
 * @ldev: the card, alive
 * @unit: below loom_hw_bsu_count()
 * @key: the partition (a context's key); it counts once the unit's bit
 *	of LOOM_BSU_OWNED is set (loom_hw_bsu_set_owned())
 *
 * Return: 0, -EIO, -EINVAL, or -EOPNOTSUPP for a BSU block without
 * partitions (before 1.1).
 */
int loom_hw_bsu_set_partition(struct loom_dev *ldev, u32 unit, u32 key)
{
	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(unit >= loom_hw_bsu_count(ldev)))
		return -EINVAL;
	if (!loom_hw_bsu_partitions(ldev))
		return -EOPNOTSUPP;
	loom_wr(ldev, ldev->blk_bsu.off + LOOM_BSU_KEY_BASE + 4 * unit, key);
	return 0;
}

/**
 * loom_hw_bsu_set_owned() - which units belong to the partition in their
 *	key word; the card refuses their barrier packets of other partitions
 * @ldev: the card, alive
 * @units: bit n = unit n, below loom_hw_bsu_count()
 *
 * The card looks at it after loom_hw_commit().
 *
 * Return: 0, -EIO, -EINVAL or -EOPNOTSUPP (no partitions in the block).
 */
int loom_hw_bsu_set_owned(struct loom_dev *ldev, u32 units)
{
	u32 n = loom_hw_bsu_count(ldev);

	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(n < 32 && units >> n))
		return -EINVAL;
	if (!loom_hw_bsu_partitions(ldev))
		return -EOPNOTSUPP;
	loom_wr(ldev, ldev->blk_bsu.off + LOOM_BSU_OWNED, units);
	return 0;
}

/**
 * loom_hw_bsu_page_field() - one register of a unit's user page
 * @ldev: the card, alive
 * @unit: below loom_hw_bsu_count()
 * @field: LOOM_BSUP_STATE, _COMPLETIONS, _EUREKAS or _ILLEGAL
 * @value: set to it; a STATE is LOOM_BSU_S_BAR..LOOM_BSU_S_EUR
 *
 * Return: 0, -EIO (a state out of range fails the card) or -EINVAL.
 */
int loom_hw_bsu_page_field(struct loom_dev *ldev, u32 unit, u32 field,
			   u32 *value)
{
	u32 off;

	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(unit >= loom_hw_bsu_count(ldev) ||
			 field == LOOM_BSUP_OP || field > LOOM_BSUP_ILLEGAL ||
			 field % 4))
		return -EINVAL;
	off = loom_hw_bsu_page_off(ldev, unit) + field;
	*value = loom_rd(ldev, off);
	if (field == LOOM_BSUP_STATE &&
	    (*value < LOOM_BSU_S_BAR || *value > LOOM_BSU_S_EUR)) {
		loom_hw_fail(ldev, "BSU", "STATE", unit, off, *value,
			     "%u..%u (LOOM_BSU_S_*)", LOOM_BSU_S_BAR,
			     LOOM_BSU_S_EUR);
		return -EIO;
	}
	return 0;
}

/**
 * loom_hw_bsu_page_read() - a unit's state and counters
 * @ldev: the card, alive
 * @unit: below loom_hw_bsu_count()
 * @p: set to them
 *
 * Return: 0, -EIO or -EINVAL.
 */
int loom_hw_bsu_page_read(struct loom_dev *ldev, u32 unit,
			  struct loom_hw_bsu_page *p)
{
	int err;

	err = loom_hw_bsu_page_field(ldev, unit, LOOM_BSUP_STATE, &p->state);
	if (!err)
		err = loom_hw_bsu_page_field(ldev, unit, LOOM_BSUP_COMPLETIONS,
					     &p->completions);
	if (!err)
		err = loom_hw_bsu_page_field(ldev, unit, LOOM_BSUP_EUREKAS,
					     &p->eurekas);
	if (!err)
		err = loom_hw_bsu_page_field(ldev, unit, LOOM_BSUP_ILLEGAL,
					     &p->illegal);
	return err;
}
