// SPDX-License-Identifier: GPL-2.0
/*
 * The counters block (optional): one record per (port, VC) and the
 * card-wide drops by cause.  N_PORTS, N_VCS and STRIDE are read once at
 * probe; the counters themselves are 32-bit and wrap: any value is one.
 */
#include <linux/pci.h>

#include <loom_hw/packet.h>

#include "loom_drv.h"

static const u32 loom_hw_cnt_rec_reg[LOOM_HW_CNT_REC_WORDS] = {
	LOOM_CNTR_TX_PKTS, LOOM_CNTR_TX_BYTES, LOOM_CNTR_RX_PKTS,
	LOOM_CNTR_CREDIT_STALLS, LOOM_CNTR_ADAPTIVE, LOOM_CNTR_DETERMINISTIC,
	LOOM_CNTR_DROPS_DISABLED, LOOM_CNTR_DROPS_DEAD,
};

static const u32 loom_hw_cnt_drop_reg[LOOM_HW_CNT_DROPS] = {
	LOOM_CNT_DROP_KEY, LOOM_CNT_DROP_BOUNDS, LOOM_CNT_DROP_NO_CTX,
	LOOM_CNT_DROP_NO_ROUTE, LOOM_CNT_DROP_HOP_LIMIT,
	LOOM_CNT_DROP_MALFORMED, LOOM_CNT_MAINT_LOST, LOOM_CNT_DROP_BSU_KEY,
};

/**
 * loom_hw_counters_probe() - read and check the counters block's geometry
 * @ldev: the card, loom_hw_router_probe() done
 *
 * Sets ldev->geo.cnt_n_vcs (0 without a COUNTERS block) and
 * ldev->geo.cnt_stride.
 *
 * Return: 0, or -EPROTO (logged).
 */
int loom_hw_counters_probe(struct loom_dev *ldev)
{
	const struct loom_blk *b = &ldev->blk_cnt;
	u32 off, ports, vcs, stride;
	int err;

	ldev->geo.cnt_n_vcs = 0;
	if (!b->size)
		return 0;
	err = loom_hw_probe_size(ldev, "COUNTERS", b, LOOM_CNT_BASE);
	if (err)
		return err;
	off = b->off + LOOM_CNT_N_PORTS;
	ports = loom_rd(ldev, off);
	if (ports != ldev->n_ports)
		return loom_hw_refuse(ldev, "COUNTERS", "N_PORTS", -1, off, ports,
				      "exactly %u (ROUTER N_PORTS)",
				      ldev->n_ports);
	off = b->off + LOOM_CNT_N_VCS;
	vcs = loom_rd(ldev, off);
	if (!vcs || vcs > LOOM_NUM_VCS)
		return loom_hw_refuse(ldev, "COUNTERS", "N_VCS", -1, off, vcs,
				      "1..%u (LOOM_NUM_VCS)", LOOM_NUM_VCS);
	err = loom_hw_probe_stride(ldev, "COUNTERS", b, LOOM_CNT_STRIDE,
				   LOOM_CNT_BASE, LOOM_CNT_REC_SIZE, ports * vcs,
				   &stride);
	if (err)
		return err;
	ldev->geo.cnt_n_vcs = vcs;
	ldev->geo.cnt_stride = stride;
	return 0;
}

/**
 * loom_hw_cnt_records() - (port, VC) records of the counters block
 * @ldev: the card
 * @n_vcs: set to the VCs per port (record = port * n_vcs + vc)
 *
 * Return: the number of records, 0 without a COUNTERS block.
 */
u32 loom_hw_cnt_records(struct loom_dev *ldev, u32 *n_vcs)
{
	*n_vcs = ldev->geo.cnt_n_vcs;
	return ldev->n_ports * ldev->geo.cnt_n_vcs;
}

/**
 * loom_hw_cnt_record() - the counters of one (port, VC) record
 * @ldev: the card, alive
 * @rec: below loom_hw_cnt_records()
 * @vals: set to LOOM_CNTR_TX_PKTS .. LOOM_CNTR_DROPS_DEAD, in that order
 *
 * Return: 0, -EIO or -EINVAL.
 */
int loom_hw_cnt_record(struct loom_dev *ldev, u32 rec,
		       u32 vals[LOOM_HW_CNT_REC_WORDS])
{
	u32 n_vcs, base, i;

	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(rec >= loom_hw_cnt_records(ldev, &n_vcs)))
		return -EINVAL;
	base = ldev->blk_cnt.off + LOOM_CNT_BASE + rec * ldev->geo.cnt_stride;
	for (i = 0; i < LOOM_HW_CNT_REC_WORDS; i++)
		vals[i] = loom_rd(ldev, base + loom_hw_cnt_rec_reg[i]);
	return 0;
}

/**
 * loom_hw_cnt_drops() - the card-wide drops by cause
 * @ldev: the card, alive, with a COUNTERS block
 * @vals: set to LOOM_CNT_DROP_KEY .. LOOM_CNT_MAINT_LOST, in that order
 *
 * Return: 0, -EIO or -EINVAL.
 */
int loom_hw_cnt_drops(struct loom_dev *ldev, u32 vals[LOOM_HW_CNT_DROPS])
{
	u32 i;

	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(!ldev->geo.cnt_n_vcs))
		return -EINVAL;
	for (i = 0; i < LOOM_HW_CNT_DROPS; i++)
		vals[i] = loom_rd(ldev, ldev->blk_cnt.off + loom_hw_cnt_drop_reg[i]);
	return 0;
}
