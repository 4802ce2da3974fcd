// SPDX-License-Identifier: GPL-2.0
/*
 * LOOM_CMD_STATS_GET of the "loom" family: a dump of the COUNTERS block,
 * one STATS message per (port, VC) record of every port (zero or not: the
 * reader decides what to hide), then one DROPS message with the card-wide
 * drops by cause.  The COUNTERS block's counters are 32 bits wide and
 * wrap; they travel as u64 so that a wider card needs no new attribute.
 *
 * With a PERF block the dump starts with a snapshot of the router's
 * performance counters (64 bits, all taken at one clock edge): its (port,
 * VC) values ride in the STATS messages, the host port's VCs get STATS
 * messages of their own after the network ports', then one PERF_PORT
 * message per router port and one PERF message with the router-wide values
 * come before DROPS.  The snapshot's values are copied into memory the
 * dump owns (struct loom_stats_snap) as soon as the card has taken it, so
 * every message of one dump reports the same clock edge even when another
 * reader takes a newer snapshot while this dump waits for its reader.  A
 * dump that fills its buffer resumes where it stopped: cb->args[0] is the
 * next message, cb->args[1] the dump's snapshot (freed by
 * loom_genl_stats_get_done()).
 */
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/stringify.h>

#include "loom_drv.h"
#include "loom_genl.h"

/* attribute of each counter of loom_hw_cnt_record() */
static const int loom_stats_attrs[LOOM_HW_CNT_REC_WORDS] = {
	LOOM_ATTR_STATS_TX_PKTS, LOOM_ATTR_STATS_TX_BYTES,
	LOOM_ATTR_STATS_RX_PKTS, LOOM_ATTR_STATS_CREDIT_STALLS,
	LOOM_ATTR_STATS_ADAPTIVE, LOOM_ATTR_STATS_DETERMINISTIC,
	LOOM_ATTR_STATS_DROPS_DISABLED, LOOM_ATTR_STATS_DROPS_DEAD,
};

/* attribute of each counter of loom_hw_cnt_drops() */
static const int loom_stats_drop_attrs[LOOM_HW_CNT_DROPS] = {
	LOOM_ATTR_DROPS_KEY, LOOM_ATTR_DROPS_BOUNDS, LOOM_ATTR_DROPS_NO_CTX,
	LOOM_ATTR_DROPS_NO_ROUTE, LOOM_ATTR_DROPS_HOP_LIMIT,
	LOOM_ATTR_DROPS_MALFORMED, LOOM_ATTR_DROPS_MAINT_LOST,
	LOOM_ATTR_DROPS_BSU_KEY,
};

/* The messages of one dump, in order; n_* of them each. */
struct loom_stats_plan {
	u32 n_vcs;		/* COUNTERS VCs per port */
	u32 n_rec;		/* COUNTERS (port, VC) records */
	u32 perf_vcs;		/* PERF VCs per port, 0 without the block */
	u32 n_host;		/* host port STATS: perf_vcs */
	u32 n_ports;		/* PERF_PORT: network ports + host port */
	u32 n_router;		/* PERF: 1 with the block */
};

/*
 * The PERF values of one dump: @router, then @ports[port] and
 * @vcs[port * n_vcs + vc] for the router ports 0..n_ports - 1 (the host
 * port last) and the PERF VCs.
 */
struct loom_stats_snap {
	struct loom_hw_perf_router router;
	u32 n_ports;
	u32 n_vcs;
	struct loom_hw_perf_port *ports;
	struct loom_hw_perf_vc vcs[];
};

static void loom_stats_plan(struct loom_dev *ldev, struct loom_stats_plan *p)
{
	p->n_rec = loom_hw_cnt_records(ldev, &p->n_vcs);
	p->perf_vcs = loom_hw_perf_vcs(ldev);
	p->n_host = p->perf_vcs;
	p->n_ports = p->perf_vcs ? ldev->n_ports + 1 : 0;
	p->n_router = p->perf_vcs ? 1 : 0;
}

/* The PERF values of (@port, @vc), if the snapshot @snap has that VC. */
static int loom_stats_put_perf_vc(struct sk_buff *skb,
				  const struct loom_stats_snap *snap,
				  u32 port, u32 vc)
{
	const struct loom_hw_perf_vc *v;

	if (!snap || vc >= snap->n_vcs || port >= snap->n_ports)
		return 0;
	v = &snap->vcs[port * snap->n_vcs + vc];
	if (nla_put_u32(skb, LOOM_ATTR_STATS_OCCUPANCY, v->occupancy) ||
	    nla_put_u32(skb, LOOM_ATTR_STATS_OCCUPANCY_MAX, v->occupancy_max) ||
	    nla_put_u64_64bit(skb, LOOM_ATTR_STATS_STALL_CYCLES, v->stall_cycles,
			      LOOM_ATTR_STATS_PAD) ||
	    nla_put_u64_64bit(skb, LOOM_ATTR_STATS_CREDIT_STARVED,
			      v->credit_starved, LOOM_ATTR_STATS_PAD))
		return -EMSGSIZE;
	return 0;
}

/* STATS of (@port, @vc): COUNTERS values for a network port, then PERF's. */
static int loom_stats_fill_rec(struct sk_buff *skb, struct loom_dev *ldev,
			       const struct loom_stats_snap *snap,
			       u32 port, u32 vc, bool host, u32 n_vcs)
{
	u32 vals[LOOM_HW_CNT_REC_WORDS];
	struct nlattr *nest;
	int err = 0;

	if (!host) {
		err = loom_hw_cnt_record(ldev, port * n_vcs + vc, vals);
		if (err)
			return err;
	}
	if (nla_put_u32(skb, LOOM_ATTR_DEV_INDEX, ldev->minor))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, LOOM_ATTR_STATS);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, LOOM_ATTR_STATS_PORT, port) ||
	    nla_put_u32(skb, LOOM_ATTR_STATS_VC, vc) ||
	    (host && nla_put_flag(skb, LOOM_ATTR_STATS_HOST)))
		err = -EMSGSIZE;
	if (!err && !host &&
	    loom_genl_put_counters(skb, loom_stats_attrs, vals,
				   LOOM_HW_CNT_REC_WORDS, LOOM_ATTR_STATS_PAD))
		err = -EMSGSIZE;
	if (!err)
		err = loom_stats_put_perf_vc(skb, snap, port, vc);
	if (err) {
		nla_nest_cancel(skb, nest);
		return err;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int loom_stats_fill_perf_port(struct sk_buff *skb,
				     struct loom_dev *ldev,
				     const struct loom_stats_snap *snap,
				     u32 port)
{
	const struct loom_hw_perf_port *p = &snap->ports[port];
	struct nlattr *nest;

	if (nla_put_u32(skb, LOOM_ATTR_DEV_INDEX, ldev->minor))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, LOOM_ATTR_PERF_PORT);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, LOOM_ATTR_PERF_PORT_INDEX, port) ||
	    (port == ldev->n_ports &&
	     nla_put_flag(skb, LOOM_ATTR_PERF_PORT_HOST)) ||
	    nla_put_u64_64bit(skb, LOOM_ATTR_PERF_PORT_FLITS_IN, p->flits_in,
			      LOOM_ATTR_PERF_PORT_PAD) ||
	    nla_put_u64_64bit(skb, LOOM_ATTR_PERF_PORT_FLITS_OUT, p->flits_out,
			      LOOM_ATTR_PERF_PORT_PAD) ||
	    nla_put_u64_64bit(skb, LOOM_ATTR_PERF_PORT_PKTS_IN, p->pkts_in,
			      LOOM_ATTR_PERF_PORT_PAD) ||
	    nla_put_u64_64bit(skb, LOOM_ATTR_PERF_PORT_PKTS_OUT, p->pkts_out,
			      LOOM_ATTR_PERF_PORT_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int loom_stats_fill_perf(struct sk_buff *skb, struct loom_dev *ldev,
				const struct loom_stats_snap *snap)
{
	const struct loom_hw_perf_router *r = &snap->router;
	struct nlattr *nest;

	if (nla_put_u32(skb, LOOM_ATTR_DEV_INDEX, ldev->minor))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, LOOM_ATTR_PERF);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, LOOM_ATTR_PERF_CYCLES, r->cycles,
			      LOOM_ATTR_PERF_PAD) ||
	    nla_put_u32(skb, LOOM_ATTR_PERF_CLOCK_KHZ, r->clock_khz) ||
	    nla_put_u64_64bit(skb, LOOM_ATTR_PERF_VA_CONFLICTS, r->va_conflicts,
			      LOOM_ATTR_PERF_PAD) ||
	    nla_put_u64_64bit(skb, LOOM_ATTR_PERF_SA_CONFLICTS, r->sa_conflicts,
			      LOOM_ATTR_PERF_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int loom_stats_fill_drops(struct sk_buff *skb, struct loom_dev *ldev)
{
	u32 vals[LOOM_HW_CNT_DROPS];
	struct nlattr *nest;
	int err;

	err = loom_hw_cnt_drops(ldev, vals);
	if (err)
		return err;
	if (nla_put_u32(skb, LOOM_ATTR_DEV_INDEX, ldev->minor))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, LOOM_ATTR_DROPS);
	if (!nest)
		return -EMSGSIZE;
	if (loom_genl_put_counters(skb, loom_stats_drop_attrs, vals,
				   LOOM_HW_CNT_DROPS, LOOM_ATTR_DROPS_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Message @i of the dump's plan into @skb (without its header). */
static int loom_stats_fill(struct sk_buff *skb, struct loom_dev *ldev,
			   const struct loom_stats_plan *p,
			   const struct loom_stats_snap *snap, u32 i)
{
	if (i < p->n_rec)
		return loom_stats_fill_rec(skb, ldev, snap, i / p->n_vcs,
					   i % p->n_vcs, false, p->n_vcs);
	i -= p->n_rec;
	if (i < p->n_host)
		return loom_stats_fill_rec(skb, ldev, snap, ldev->n_ports, i,
					   true, p->n_vcs);
	i -= p->n_host;
	if (i < p->n_ports)
		return loom_stats_fill_perf_port(skb, ldev, snap, i);
	i -= p->n_ports;
	if (i < p->n_router)
		return loom_stats_fill_perf(skb, ldev, snap);
	return loom_stats_fill_drops(skb, ldev);
}

/* One message of the dump; 0, -EMSGSIZE when @skb is full, or -EIO. */
static int loom_stats_msg(struct sk_buff *skb, struct netlink_callback *cb,
			  struct loom_dev *ldev,
			  const struct loom_stats_plan *p,
			  const struct loom_stats_snap *snap, u32 i)
{
	void *hdr = loom_genl_put_hdr(skb, cb, LOOM_CMD_STATS_GET);
	int err;

	if (!hdr)
		return -EMSGSIZE;
	err = loom_stats_fill(skb, ldev, p, snap, i);
	if (err) {
		genlmsg_cancel(skb, hdr);
		return err;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* Copy the values of the card's last snapshot into @snap. */
static int loom_stats_snap_read(struct loom_dev *ldev,
				struct loom_stats_snap *snap)
{
	u32 port, vc;
	int err;

	err = loom_hw_perf_router(ldev, &snap->router);
	for (port = 0; !err && port < snap->n_ports; port++) {
		err = loom_hw_perf_port(ldev, port, &snap->ports[port]);
		for (vc = 0; !err && vc < snap->n_vcs; vc++)
			err = loom_hw_perf_vc(ldev, port, vc,
					      &snap->vcs[port * snap->n_vcs + vc]);
	}
	return err;
}

/*
 * Have the card take a snapshot of the PERF block and copy it into memory
 * of the dump's own (*@snapp, charged to the caller); 0 or an error
 * explained.
 */
static int loom_stats_snapshot(struct loom_dev *ldev,
			       const struct loom_stats_plan *plan,
			       struct loom_stats_snap **snapp,
			       struct netlink_ext_ack *extack)
{
	size_t n_vcs = (size_t)plan->n_ports * plan->perf_vcs;
	struct loom_stats_snap *snap;
	int err;

	snap = kzalloc(size_add(struct_size(snap, vcs, n_vcs),
				array_size(plan->n_ports, sizeof(*snap->ports))),
		       GFP_KERNEL_ACCOUNT);
	if (!snap) {
		NL_SET_ERR_MSG_MOD(extack,
				   "no memory for the copy of the performance counters");
		return -ENOMEM;
	}
	snap->n_ports = plan->n_ports;
	snap->n_vcs = plan->perf_vcs;
	snap->ports = (struct loom_hw_perf_port *)&snap->vcs[n_vcs];
	err = loom_hw_perf_snapshot(ldev, LOOM_HW_PERF_SNAP_TIMEOUT_MS);
	if (!err)
		err = loom_stats_snap_read(ldev, snap);
	if (!err) {
		*snapp = snap;
		return 0;
	}
	kfree(snap);
	if (err == -ETIMEDOUT)
		NL_SET_ERR_MSG_MOD(extack,
				   "the card took no snapshot of its performance counters within "
				   __stringify(LOOM_HW_PERF_SNAP_TIMEOUT_MS)
				   " ms (PERF SNAP_ACK did not follow SNAP_SEQ): is the card running?");
	else if (err == -ECANCELED)
		NL_SET_ERR_MSG_MOD(extack,
				   "ended by a fatal signal while waiting for the counter snapshot");
	return loom_genl_card_failed(err, extack);
}

int loom_genl_stats_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct loom_stats_plan plan;
	struct loom_stats_snap *snap;
	struct loom_dev *ldev;
	u32 i, n;
	int err = 0;

	ldev = loom_genl_dev_lock(info->attrs, cb->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	loom_stats_plan(ldev, &plan);
	if (!plan.n_vcs) {
		loom_genl_dev_unlock(ldev);
		NL_SET_ERR_MSG_MOD(cb->extack,
				   "the card has no COUNTERS register block");
		return -EOPNOTSUPP;
	}
	snap = (struct loom_stats_snap *)cb->args[1];
	if (plan.perf_vcs && !snap) {
		err = loom_stats_snapshot(ldev, &plan, &snap, cb->extack);
		if (err) {
			loom_genl_dev_unlock(ldev);
			return err;
		}
		cb->args[1] = (long)snap;
	}
	if (plan.perf_vcs &&
	    (snap->n_ports != plan.n_ports || snap->n_vcs != plan.perf_vcs)) {
		loom_genl_dev_unlock(ldev);
		NL_SET_ERR_MSG_MOD(cb->extack,
				   "the card's ports or VCs changed during the dump (was it rebound?): dump again");
		return -EAGAIN;
	}
	n = plan.n_rec + plan.n_host + plan.n_ports + plan.n_router + 1;
	for (i = cb->args[0]; i < n; i++) {
		err = loom_stats_msg(skb, cb, ldev, &plan, snap, i);
		if (err)
			break;
	}
	cb->args[0] = i;
	loom_genl_dev_unlock(ldev);
	return loom_genl_dump_done(skb, cb, loom_genl_card_failed(err, cb->extack));
}

/**
 * loom_genl_stats_get_done() - free what a LOOM_CMD_STATS_GET dump kept
 * @cb: the dump, ended or abandoned
 *
 * Return: 0.
 */
int loom_genl_stats_get_done(struct netlink_callback *cb)
{
	kfree((struct loom_stats_snap *)cb->args[1]);
	cb->args[1] = 0;
	return 0;
}
