// SPDX-License-Identifier: GPL-2.0
/*
 * The VC table block (optional): per port its dimension and dateline bit,
 * per logical destination the VC a packet starts on (the START_VC1
 * bitmap).  N_PORTS is read once at probe and must equal the router's;
 * the table is what software wrote, reported through its defined fields.
 */
#include <linux/pci.h>

#include "loom_drv.h"

/**
 * loom_hw_vct_probe() - check the VC table block
 * @ldev: the card, loom_hw_router_probe() done
 *
 * Return: 0, or -EPROTO (logged).
 */
int loom_hw_vct_probe(struct loom_dev *ldev)
{
	const struct loom_blk *b = &ldev->blk_vct;
	u32 off, n;
	int err;

	if (!b->size)
		return 0;
	err = loom_hw_probe_size(ldev, "VCT", b, LOOM_VCT_SIZE);
	if (err)
		return err;
	off = b->off + LOOM_VCT_N_PORTS;
	n = loom_rd(ldev, off);
	if (n != ldev->n_ports)
		return loom_hw_refuse(ldev, "VCT", "N_PORTS", -1, off, n,
				      "exactly %u (ROUTER N_PORTS)",
				      ldev->n_ports);
	return 0;
}

/**
 * loom_hw_vct_ports() - entries of PORT_CFG
 * @ldev: the card
 *
 * Return: ldev->n_ports, or 0 without a VCT block.
 */
u32 loom_hw_vct_ports(struct loom_dev *ldev)
{
	return ldev->blk_vct.size ? ldev->n_ports : 0;
}

static u32 loom_hw_vct_port_reg(struct loom_dev *ldev, u32 port)
{
	return ldev->blk_vct.off + LOOM_VCT_PORT_CFG + port * 4;
}

static u32 loom_hw_vct_bitmap_reg(struct loom_dev *ldev, u32 word)
{
	return ldev->blk_vct.off + LOOM_VCT_START_VC1 + word * 4;
}

/**
 * loom_hw_vct_port_cfg() - a port's entry of the VC table
 * @ldev: the card, alive
 * @port: below loom_hw_vct_ports()
 * @cfg: set to its LOOM_VCT_PORT_DIM_MASK and LOOM_VCT_PORT_DATELINE bits
 *
 * Return: 0, -EIO or -EINVAL.
 */
int loom_hw_vct_port_cfg(struct loom_dev *ldev, u32 port, u32 *cfg)
{
	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(port >= loom_hw_vct_ports(ldev)))
		return -EINVAL;
	*cfg = loom_rd(ldev, loom_hw_vct_port_reg(ldev, port)) &
	       (LOOM_VCT_PORT_DIM_MASK | LOOM_VCT_PORT_DATELINE);
	return 0;
}

/**
 * loom_hw_vct_set_port_cfg() - write a port's entry of the VC table
 * @ldev: the card, alive
 * @port: below loom_hw_vct_ports()
 * @cfg: LOOM_VCT_PORT_DIM_MASK and LOOM_VCT_PORT_DATELINE bits
 *
 * Return: 0, -EIO or -EINVAL.
 */
int loom_hw_vct_set_port_cfg(struct loom_dev *ldev, u32 port, u32 cfg)
{
	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(port >= loom_hw_vct_ports(ldev)))
		return -EINVAL;
	loom_wr(ldev, loom_hw_vct_port_reg(ldev, port),
		cfg & (LOOM_VCT_PORT_DIM_MASK | LOOM_VCT_PORT_DATELINE));
	return 0;
}

/**
 * loom_hw_vct_start_vc1() - one word of the START_VC1 bitmap
 * @ldev: the card, alive, with a VCT block
 * @word: below LOOM_HW_VCT_WORDS; bit d is destination word * 32 + d
 * @bits: set to it
 *
 * Return: 0, -EIO or -EINVAL.
 */
int loom_hw_vct_start_vc1(struct loom_dev *ldev, u32 word, u32 *bits)
{
	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(word >= LOOM_HW_VCT_WORDS || !ldev->blk_vct.size))
		return -EINVAL;
	*bits = loom_rd(ldev, loom_hw_vct_bitmap_reg(ldev, word));
	return 0;
}

/**
 * loom_hw_vct_set_start_vc1() - write one word of the START_VC1 bitmap
 * @ldev: the card, alive, with a VCT block
 * @word: below LOOM_HW_VCT_WORDS
 * @bits: the word
 *
 * Return: 0, -EIO or -EINVAL.
 */
int loom_hw_vct_set_start_vc1(struct loom_dev *ldev, u32 word, u32 bits)
{
	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(word >= LOOM_HW_VCT_WORDS || !ldev->blk_vct.size))
		return -EINVAL;
	loom_wr(ldev, loom_hw_vct_bitmap_reg(ldev, word), bits);
	return 0;
}
