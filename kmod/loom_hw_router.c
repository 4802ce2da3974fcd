// SPDX-License-Identifier: GPL-2.0
/*
 * The router block: node ids, the number of network ports and the
 * routing table.  NODE_ID, N_PORTS and RT_ENTRIES are read once at probe;
 * LOGICAL_ID changes at run time (DEV_SET here, or a fabric manager's
 * maintenance write) and is checked at every read.  Routing entries are
 * what software wrote: read back only to be reported, field by field.
 */
#include <linux/minmax.h>
#include <linux/pci.h>

#include "loom_drv.h"

static u32 loom_hw_router_reg(struct loom_dev *ldev, u32 field)
{
	return ldev->blk_router.off + field;
}

static u32 loom_hw_rt_reg(struct loom_dev *ldev, u32 dest)
{
	return loom_hw_router_reg(ldev, LOOM_ROUTER_RT) +
	       dest * LOOM_ROUTER_RT_ENTRY_SIZE;
}

/**
 * loom_hw_router_probe() - read and check the router's geometry
 * @ldev: the card, its ROUTER block found
 *
 * Sets ldev->n_ports, ldev->geo.node_id and ldev->geo.rt_entries.
 *
 * Return: 0, or -EPROTO (logged) when a value is out of range.
 */
int loom_hw_router_probe(struct loom_dev *ldev)
{
	const struct loom_blk *b = &ldev->blk_router;
	u32 off, node, ports, entries, fit;
	int err;

	err = loom_hw_probe_size(ldev, "ROUTER", b, LOOM_ROUTER_RT);
	if (err)
		return err;
	off = loom_hw_router_reg(ldev, LOOM_ROUTER_NODE_ID);
	node = loom_rd(ldev, off);
	if (node >= LOOM_MAX_NODES)
		return loom_hw_refuse(ldev, "ROUTER", "NODE_ID", -1, off, node,
				      "below %u (LOOM_MAX_NODES)", LOOM_MAX_NODES);
	off = loom_hw_router_reg(ldev, LOOM_ROUTER_N_PORTS);
	ports = loom_rd(ldev, off);
	if (ports > LOOM_MAX_PORTS)
		return loom_hw_refuse(ldev, "ROUTER", "N_PORTS", -1, off, ports,
				      "at most %u (LOOM_MAX_PORTS)",
				      LOOM_MAX_PORTS);
	off = loom_hw_router_reg(ldev, LOOM_ROUTER_RT_ENTRIES);
	entries = loom_rd(ldev, off);
	fit = (b->size - LOOM_ROUTER_RT) / LOOM_ROUTER_RT_ENTRY_SIZE;
	if (!entries || entries > min_t(u32, fit, LOOM_MAX_NODES))
		return loom_hw_refuse(ldev, "ROUTER", "RT_ENTRIES", -1, off,
				      entries,
				      "1..%u (LOOM_MAX_NODES, and the %u entries the %#x-byte block holds)",
				      min_t(u32, fit, LOOM_MAX_NODES), fit,
				      b->size);
	ldev->n_ports = ports;
	ldev->geo.node_id = node;
	ldev->geo.rt_entries = entries;
	return 0;
}

/**
 * loom_hw_logical_id() - the card's logical node id now
 * @ldev: the card, alive
 * @id: set to the id, below the routing table's entries
 *
 * Return: 0 or -EIO (an id outside the routing table fails the card).
 */
int loom_hw_logical_id(struct loom_dev *ldev, u32 *id)
{
	u32 off = loom_hw_router_reg(ldev, LOOM_ROUTER_LOGICAL_ID);

	if (loom_hw_failed(ldev))
		return -EIO;
	*id = loom_rd(ldev, off);
	if (*id >= ldev->geo.rt_entries) {
		loom_hw_fail(ldev, "ROUTER", "LOGICAL_ID", -1, off, *id,
			     "below %u (RT_ENTRIES)", ldev->geo.rt_entries);
		return -EIO;
	}
	return 0;
}

/**
 * loom_hw_set_logical_id() - change the logical node id
 * @ldev: the card, alive
 * @id: below ldev->geo.rt_entries
 *
 * Return: 0 or -EIO.
 */
int loom_hw_set_logical_id(struct loom_dev *ldev, u32 id)
{
	if (loom_hw_failed(ldev))
		return -EIO;
	loom_wr(ldev, loom_hw_router_reg(ldev, LOOM_ROUTER_LOGICAL_ID), id);
	return 0;
}

/**
 * loom_hw_route_get() - one routing-table entry
 * @ldev: the card, alive
 * @dest: logical destination, below ldev->geo.rt_entries
 * @r: set to the entry's fields
 *
 * Return: 0 or -EIO.
 */
int loom_hw_route_get(struct loom_dev *ldev, u32 dest, struct loom_hw_route *r)
{
	u32 w0, w1;

	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(dest >= ldev->geo.rt_entries))
		return -EINVAL;
	w0 = loom_rd(ldev, loom_hw_rt_reg(ldev, dest));
	w1 = loom_rd(ldev, loom_hw_rt_reg(ldev, dest) + 4);
	r->valid = w0 & LOOM_RT_W0_VALID;
	r->adaptive = w0 & LOOM_RT_W0_ADAPTIVE;
	r->port = w0 & LOOM_RT_W0_PORT_MASK;
	r->init_dir = (w0 & LOOM_RT_W0_INIT_DIR_MASK) >> LOOM_RT_W0_INIT_DIR_SHIFT;
	r->phys = w1 & LOOM_RT_W1_PHYS_MASK;
	r->adapt_ports = (w1 & LOOM_RT_W1_ADAPT_PORTS_MASK) >>
			 LOOM_RT_W1_ADAPT_PORTS_SHIFT;
	return 0;
}

/**
 * loom_hw_route_set() - write one routing-table entry
 * @ldev: the card, alive
 * @dest: logical destination, below ldev->geo.rt_entries
 * @r: the entry; the physical destination is written first, so the entry
 *	turns valid last
 *
 * Return: 0 or -EIO.
 */
int loom_hw_route_set(struct loom_dev *ldev, u32 dest,
		      const struct loom_hw_route *r)
{
	u32 w0, w1;

	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(dest >= ldev->geo.rt_entries))
		return -EINVAL;
	w0 = (r->port & LOOM_RT_W0_PORT_MASK) |
	     ((r->init_dir << LOOM_RT_W0_INIT_DIR_SHIFT) &
	      LOOM_RT_W0_INIT_DIR_MASK) |
	     (r->adaptive ? LOOM_RT_W0_ADAPTIVE : 0) |
	     (r->valid ? LOOM_RT_W0_VALID : 0);
	w1 = r->phys | (u32)r->adapt_ports << LOOM_RT_W1_ADAPT_PORTS_SHIFT;
	loom_wr(ldev, loom_hw_rt_reg(ldev, dest) + 4, w1);
	loom_wr(ldev, loom_hw_rt_reg(ldev, dest), w0);
	return 0;
}

/**
 * loom_hw_route_invalidate() - clear the valid bit of an entry, keep the
 *	rest
 * @ldev: the card, alive
 * @dest: logical destination, below ldev->geo.rt_entries
 *
 * Return: 0 or -EIO.
 */
int loom_hw_route_invalidate(struct loom_dev *ldev, u32 dest)
{
	u32 w0;

	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(dest >= ldev->geo.rt_entries))
		return -EINVAL;
	w0 = loom_rd(ldev, loom_hw_rt_reg(ldev, dest));
	if (w0 & LOOM_RT_W0_VALID)
		loom_wr(ldev, loom_hw_rt_reg(ldev, dest), w0 & ~LOOM_RT_W0_VALID);
	return 0;
}
