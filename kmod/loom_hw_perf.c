// SPDX-License-Identifier: GPL-2.0
/*
 * The performance counters block (optional): the router's 64-bit
 * counters, copied by the card into the registers as one snapshot when the
 * driver writes SNAP_SEQ.  N_PORTS, N_VCS, PORT_STRIDE and HOST_PORT are
 * read once at probe and checked against the router's geometry; a port or
 * VC beyond them is never addressed.  The counters take any value and are
 * reported as read.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/pci.h>
#include <linux/sched/signal.h>

#include <loom_hw/packet.h>

#include "loom_drv.h"

/**
 * loom_hw_perf_probe() - read and check the PERF block's geometry
 * @ldev: the card, loom_hw_router_probe() done
 *
 * Sets ldev->geo.perf_n_vcs (0 without a PERF block) and
 * ldev->geo.perf_stride.
 *
 * Return: 0, or -EPROTO (logged).
 */
int loom_hw_perf_probe(struct loom_dev *ldev)
{
	const struct loom_blk *b = &ldev->blk_perf;
	u32 off, ports, vcs, host, stride;
	int err;

	ldev->geo.perf_n_vcs = 0;
	if (!b->size)
		return 0;
	err = loom_hw_probe_size(ldev, "PERF", b, LOOM_PERF_PORT_BASE);
	if (err)
		return err;
	off = b->off + LOOM_PERF_N_PORTS;
	ports = loom_rd(ldev, off);
	if (ports != ldev->n_ports + 1)
		return loom_hw_refuse(ldev, "PERF", "N_PORTS", -1, off, ports,
				      "exactly %u (ROUTER N_PORTS + the host port)",
				      ldev->n_ports + 1);
	off = b->off + LOOM_PERF_HOST_PORT;
	host = loom_rd(ldev, off);
	if (host != ldev->n_ports)
		return loom_hw_refuse(ldev, "PERF", "HOST_PORT", -1, off, host,
				      "exactly %u (the last record)",
				      ldev->n_ports);
	off = b->off + LOOM_PERF_N_VCS;
	vcs = loom_rd(ldev, off);
	if (!vcs || vcs > LOOM_NUM_VCS)
		return loom_hw_refuse(ldev, "PERF", "N_VCS", -1, off, vcs,
				      "1..%u (LOOM_NUM_VCS)", LOOM_NUM_VCS);
	err = loom_hw_probe_stride(ldev, "PERF", b, LOOM_PERF_PORT_STRIDE,
				   LOOM_PERF_PORT_BASE,
				   LOOM_PERFP_VC_BASE +
				   vcs * LOOM_PERF_VC_REC_SIZE,
				   ports, &stride);
	if (err)
		return err;
	ldev->geo.perf_n_vcs = vcs;
	ldev->geo.perf_stride = stride;
	return 0;
}

/**
 * loom_hw_perf_vcs() - VCs per port of the PERF block
 * @ldev: the card
 *
 * Return: N_VCS, 0 without a PERF block.
 */
u32 loom_hw_perf_vcs(struct loom_dev *ldev)
{
	return ldev->geo.perf_n_vcs;
}

static u64 loom_hw_perf_rd64(struct loom_dev *ldev, u32 off)
{
	u32 lo = loom_rd(ldev, off);

	return (u64)loom_rd(ldev, off + 4) << 32 | lo;
}

static u32 loom_hw_perf_port_reg(struct loom_dev *ldev, u32 port, u32 field)
{
	return ldev->blk_perf.off + LOOM_PERF_PORT_BASE +
	       port * ldev->geo.perf_stride + field;
}

/**
 * loom_hw_perf_snapshot() - have the card copy its counters into the block
 * @ldev: the card, alive, with a PERF block
 * @timeout_ms: how long to wait for SNAP_ACK
 *
 * Writes SNAP_SEQ (one more than SNAP_ACK), kicks the card and polls
 * SNAP_ACK until it equals it.
 *
 * Return: 0, -ETIMEDOUT, -ECANCELED on a fatal signal, -EIO or -EINVAL.
 */
int loom_hw_perf_snapshot(struct loom_dev *ldev, unsigned int timeout_ms)
{
	u32 seq_off = ldev->blk_perf.off + LOOM_PERF_SNAP_SEQ;
	u32 ack_off = ldev->blk_perf.off + LOOM_PERF_SNAP_ACK;
	unsigned long deadline = jiffies + msecs_to_jiffies(timeout_ms);
	u32 seq;

	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(!ldev->geo.perf_n_vcs))
		return -EINVAL;
	seq = loom_rd(ldev, ack_off) + 1;
	loom_wr(ldev, seq_off, seq);
	ldev->hal->kick(ldev, LOOM_KICK_ADMIN);
	for (;;) {
		if (loom_rd(ldev, ack_off) == seq)
			return 0;
		if (time_after(jiffies, deadline))
			return -ETIMEDOUT;
		if (fatal_signal_pending(current))
			return -ECANCELED;
		usleep_range(50, 200);
	}
}

/**
 * loom_hw_perf_router() - the router-wide values of the last snapshot
 * @ldev: the card, alive, with a PERF block
 * @r: filled
 *
 * Return: 0, -EIO or -EINVAL.
 */
int loom_hw_perf_router(struct loom_dev *ldev, struct loom_hw_perf_router *r)
{
	u32 base = ldev->blk_perf.off;

	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(!ldev->geo.perf_n_vcs))
		return -EINVAL;
	r->clock_khz = loom_rd(ldev, base + LOOM_PERF_CLOCK_KHZ);
	r->cycles = loom_hw_perf_rd64(ldev, base + LOOM_PERF_CYCLES);
	r->va_conflicts = loom_hw_perf_rd64(ldev, base + LOOM_PERF_VA_CONFLICTS);
	r->sa_conflicts = loom_hw_perf_rd64(ldev, base + LOOM_PERF_SA_CONFLICTS);
	return 0;
}

/**
 * loom_hw_perf_port() - one port's values of the last snapshot
 * @ldev: the card, alive, with a PERF block
 * @port: 0..ldev->n_ports (the last one is the host port)
 * @p: filled
 *
 * Return: 0, -EIO or -EINVAL.
 */
int loom_hw_perf_port(struct loom_dev *ldev, u32 port,
		      struct loom_hw_perf_port *p)
{
	u32 rec;

	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(!ldev->geo.perf_n_vcs || port > ldev->n_ports))
		return -EINVAL;
	rec = loom_hw_perf_port_reg(ldev, port, 0);
	p->flits_in = loom_hw_perf_rd64(ldev, rec + LOOM_PERFP_FLITS_IN);
	p->flits_out = loom_hw_perf_rd64(ldev, rec + LOOM_PERFP_FLITS_OUT);
	p->pkts_in = loom_hw_perf_rd64(ldev, rec + LOOM_PERFP_PKTS_IN);
	p->pkts_out = loom_hw_perf_rd64(ldev, rec + LOOM_PERFP_PKTS_OUT);
	return 0;
}

/**
 * loom_hw_perf_vc() - one (port, VC)'s values of the last snapshot
 * @ldev: the card, alive, with a PERF block
 * @port: 0..ldev->n_ports (the last one is the host port)
 * @vc: below loom_hw_perf_vcs()
 * @v: filled
 *
 * Return: 0, -EIO or -EINVAL.
 */
int loom_hw_perf_vc(struct loom_dev *ldev, u32 port, u32 vc,
		    struct loom_hw_perf_vc *v)
{
	u32 rec;

	if (loom_hw_failed(ldev))
		return -EIO;
	if (WARN_ON_ONCE(vc >= ldev->geo.perf_n_vcs || port > ldev->n_ports))
		return -EINVAL;
	rec = loom_hw_perf_port_reg(ldev, port, LOOM_PERFP_VC_BASE +
				    vc * LOOM_PERF_VC_REC_SIZE);
	v->occupancy = loom_rd(ldev, rec + LOOM_PERFV_OCCUPANCY);
	v->occupancy_max = loom_rd(ldev, rec + LOOM_PERFV_OCCUPANCY_MAX);
	v->stall_cycles = loom_hw_perf_rd64(ldev, rec + LOOM_PERFV_STALL_CYCLES);
	v->credit_starved = loom_hw_perf_rd64(ldev,
					      rec + LOOM_PERFV_CREDIT_STARVED);
	return 0;
}
