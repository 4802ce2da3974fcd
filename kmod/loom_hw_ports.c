// SPDX-License-Identifier: GPL-2.0
/*
 * The ports block (optional): one record per network port, with its
 * status, its peer and its counters, the fault mask (CTRL) and the
 * forward-progress timeout.  COUNT and STRIDE are read once at probe: the
 * block holds exactly the router's N_PORTS records.  A peer is checked at
 * every read (a node id, a port number); counters wrap and take any value.
 */
#include <linux/pci.h>

#include "loom_drv.h"

/* register offset of each enum loom_hw_port_counter */
static const u32 loom_hw_port_counter_reg[LOOM_HW_PORT_N_COUNTERS] = {
	[LOOM_HW_PORT_TX_FRAMES] = LOOM_PORT_TX_FRAMES,
	[LOOM_HW_PORT_RX_FRAMES] = LOOM_PORT_RX_FRAMES,
	[LOOM_HW_PORT_TX_BYTES] = LOOM_PORT_TX_BYTES,
	[LOOM_HW_PORT_RX_BYTES] = LOOM_PORT_RX_BYTES,
	[LOOM_HW_PORT_CRC_ERRORS] = LOOM_PORT_CRC_ERRORS,
	[LOOM_HW_PORT_SEQ_ERRORS] = LOOM_PORT_SEQ_ERRORS,
	[LOOM_HW_PORT_DROPS] = LOOM_PORT_DROPS,
	[LOOM_HW_PORT_RETRIES] = LOOM_PORT_RETRIES,
	[LOOM_HW_PORT_NAKS_SENT] = LOOM_PORT_NAKS_SENT,
	[LOOM_HW_PORT_REPLAYED] = LOOM_PORT_REPLAYED,
	[LOOM_HW_PORT_ACK_TIMEOUTS] = LOOM_PORT_ACK_TIMEOUTS,
};

static u32 loom_hw_port_reg(struct loom_dev *ldev, u32 port, u32 field)
{
	return ldev->blk_ports.off + LOOM_PORTS_BASE +
	       port * ldev->geo.port_stride + field;
}

/**
 * loom_hw_ports_probe() - read and check the ports block's geometry
 * @ldev: the card, loom_hw_router_probe() done
 *
 * Sets ldev->geo.port_stride (0 without a PORTS block).
 *
 * Return: 0, or -EPROTO (logged).
 */
int loom_hw_ports_probe(struct loom_dev *ldev)
{
	const struct loom_blk *b = &ldev->blk_ports;
	u32 count, stride, off;
	int err;

	ldev->geo.port_stride = 0;
	if (!b->size)
		return 0;
	err = loom_hw_probe_size(ldev, "PORTS", b, LOOM_PORTS_BASE);
	if (err)
		return err;
	off = b->off + LOOM_PORTS_COUNT;
	count = loom_rd(ldev, off);
	if (count != ldev->n_ports)
		return loom_hw_refuse(ldev, "PORTS", "COUNT", -1, off, count,
				      "exactly %u (ROUTER N_PORTS)",
				      ldev->n_ports);
	err = loom_hw_probe_stride(ldev, "PORTS", b, LOOM_PORTS_STRIDE,
				   LOOM_PORTS_BASE, LOOM_PORT_REC_SIZE, count,
				   &stride);
	if (!err)
		ldev->geo.port_stride = stride;
	return err;
}

/**
 * loom_hw_ports_count() - ports whose records the driver reads
 * @ldev: the card
 *
 * Return: ldev->n_ports (at most LOOM_MAX_PORTS), or 0 without a PORTS
 * block.
 */
u32 loom_hw_ports_count(struct loom_dev *ldev)
{
	return ldev->geo.port_stride ? ldev->n_ports : 0;
}

static bool loom_hw_port_ok(struct loom_dev *ldev, u32 port)
{
	return !WARN_ON_ONCE(port >= loom_hw_ports_count(ldev));
}

/**
 * loom_hw_port_status() - STATUS of one port
 * @ldev: the card, alive
 * @port: below loom_hw_ports_count()
 * @status: set to LOOM_PORT_ST_* (undefined bits cleared)
 *
 * Return: 0, -EIO, or -EINVAL for a port the card lacks.
 */
int loom_hw_port_status(struct loom_dev *ldev, u32 port, u32 *status)
{
	const u32 known = LOOM_PORT_ST_CABLED | LOOM_PORT_ST_UP |
			  LOOM_PORT_ST_DEAD | LOOM_PORT_ST_DISABLED |
			  LOOM_PORT_ST_LANES_MASK;

	if (loom_hw_failed(ldev))
		return -EIO;
	if (!loom_hw_port_ok(ldev, port))
		return -EINVAL;
	*status = loom_rd(ldev, loom_hw_port_reg(ldev, port, LOOM_PORT_STATUS)) &
		  known;
	return 0;
}

/**
 * loom_hw_port_read() - the rest of a port's record
 * @ldev: the card, alive
 * @port: below loom_hw_ports_count()
 * @status: the port's STATUS as the caller read it (loom_hw_port_status())
 * @p: filled in
 *
 * Return: 0, -EIO (a peer node or port out of range fails the card), or
 * -EINVAL for a port the card lacks.
 */
int loom_hw_port_read(struct loom_dev *ldev, u32 port, u32 status,
		      struct loom_hw_port *p)
{
	u32 off;
	int i;

	if (loom_hw_failed(ldev))
		return -EIO;
	if (!loom_hw_port_ok(ldev, port))
		return -EINVAL;
	p->status = status;
	off = loom_hw_port_reg(ldev, port, LOOM_PORT_PEER_NODE);
	p->peer_node = loom_rd(ldev, off);
	if (p->peer_node >= LOOM_MAX_NODES) {
		loom_hw_fail(ldev, "PORTS", "PEER_NODE", port, off, p->peer_node,
			     "below %u (LOOM_MAX_NODES)", LOOM_MAX_NODES);
		return -EIO;
	}
	off = loom_hw_port_reg(ldev, port, LOOM_PORT_PEER_PORT);
	p->peer_port = loom_rd(ldev, off);
	if (p->peer_port >= LOOM_MAX_PORTS) {
		loom_hw_fail(ldev, "PORTS", "PEER_PORT", port, off, p->peer_port,
			     "below %u (LOOM_MAX_PORTS)", LOOM_MAX_PORTS);
		return -EIO;
	}
	for (i = 0; i < LOOM_HW_PORT_N_COUNTERS; i++)
		p->counters[i] = loom_rd(ldev, loom_hw_port_reg(ldev, port,
								loom_hw_port_counter_reg[i]));
	return 0;
}

/**
 * loom_hw_port_set_enabled() - set or clear a port's fault mask
 * @ldev: the card, alive
 * @port: below loom_hw_ports_count()
 * @enabled: false sets CTRL.DISABLE: the port carries nothing
 *
 * Return: 0, -EIO or -EINVAL.
 */
int loom_hw_port_set_enabled(struct loom_dev *ldev, u32 port, bool enabled)
{
	u32 off, ctrl;

	if (loom_hw_failed(ldev))
		return -EIO;
	if (!loom_hw_port_ok(ldev, port))
		return -EINVAL;
	off = loom_hw_port_reg(ldev, port, LOOM_PORT_CTRL);
	ctrl = loom_rd(ldev, off);
	if (enabled)
		ctrl &= ~LOOM_PORT_CTRL_DISABLE;
	else
		ctrl |= LOOM_PORT_CTRL_DISABLE;
	loom_wr(ldev, off, ctrl);
	return 0;
}

/**
 * loom_hw_fp_timeout() - the forward-progress timeout
 * @ldev: the card, alive, with a PORTS block
 * @ms: set to it (0 = off)
 *
 * Return: 0 or -EIO.
 */
int loom_hw_fp_timeout(struct loom_dev *ldev, u32 *ms)
{
	if (loom_hw_failed(ldev))
		return -EIO;
	*ms = loom_rd(ldev, ldev->blk_ports.off + LOOM_PORTS_FP_TIMEOUT_MS);
	return 0;
}

/**
 * loom_hw_set_fp_timeout() - change the forward-progress timeout
 * @ldev: the card, alive, with a PORTS block
 * @ms: milliseconds, 0 = off
 *
 * Return: 0 or -EIO.
 */
int loom_hw_set_fp_timeout(struct loom_dev *ldev, u32 ms)
{
	if (loom_hw_failed(ldev))
		return -EIO;
	loom_wr(ldev, ldev->blk_ports.off + LOOM_PORTS_FP_TIMEOUT_MS, ms);
	return 0;
}
