// SPDX-License-Identifier: GPL-2.0
/*
 * LOOM_CMD_PORT_GET and LOOM_CMD_PORT_SET of the "loom" family: status,
 * peer and counters of the card's network ports, read from the PORTS
 * register block (one record per port), and the fault mask (CTRL.DISABLE).
 * The block is optional for the driver: a card without it answers
 * -EOPNOTSUPP here and works otherwise.
 */
#include <linux/kernel.h>
#include <linux/minmax.h>

#include "loom_drv.h"
#include "loom_genl.h"

/**
 * loom_ports_usable() - ports with a record inside the PORTS block
 * @ldev: the card, alive
 * @stride: set to the record stride when the result is > 0
 *
 * Return: the number of ports whose records can be read.
 */
u32 loom_ports_usable(struct loom_dev *ldev, u32 *stride)
{
	const struct loom_blk *b = &ldev->blk_ports;
	u32 n;

	if (b->size < LOOM_PORTS_BASE)
		return 0;
	n = min(loom_rd(ldev, b->off + LOOM_PORTS_COUNT), ldev->n_ports);
	*stride = loom_rd(ldev, b->off + LOOM_PORTS_STRIDE);
	if (*stride < LOOM_PORT_REC_SIZE || *stride % 4)
		return 0;
	return min_t(u64, n, (b->size - LOOM_PORTS_BASE) / *stride);
}

static const struct loom_genl_counter loom_port_counters[] = {
	{ LOOM_PORT_TX_FRAMES, LOOM_ATTR_PORT_TX_FRAMES },
	{ LOOM_PORT_RX_FRAMES, LOOM_ATTR_PORT_RX_FRAMES },
	{ LOOM_PORT_TX_BYTES, LOOM_ATTR_PORT_TX_BYTES },
	{ LOOM_PORT_RX_BYTES, LOOM_ATTR_PORT_RX_BYTES },
	{ LOOM_PORT_CRC_ERRORS, LOOM_ATTR_PORT_CRC_ERRORS },
	{ LOOM_PORT_SEQ_ERRORS, LOOM_ATTR_PORT_SEQ_ERRORS },
	{ LOOM_PORT_DROPS, LOOM_ATTR_PORT_DROPS },
	{ LOOM_PORT_RETRIES, LOOM_ATTR_PORT_RETRIES },
	{ LOOM_PORT_NAKS_SENT, LOOM_ATTR_PORT_NAKS_SENT },
	{ LOOM_PORT_REPLAYED, LOOM_ATTR_PORT_REPLAYED },
	{ LOOM_PORT_ACK_TIMEOUTS, LOOM_ATTR_PORT_ACK_TIMEOUTS },
};

/* The record of @port; the caller checked it with loom_ports_usable(). */
static u32 loom_port_rec(struct loom_dev *ldev, u32 port, u32 stride)
{
	return ldev->blk_ports.off + LOOM_PORTS_BASE + port * stride;
}

/**
 * loom_genl_fill_port() - DEV_INDEX and the PORT nest of one port
 * @skb: the message
 * @ldev: the card, alive
 * @port: the port, < loom_ports_usable()
 * @stride: record stride from loom_ports_usable()
 * @status: the port's STATUS register, as read by the caller
 *
 * Return: 0 or -EMSGSIZE.
 */
int loom_genl_fill_port(struct sk_buff *skb, struct loom_dev *ldev, u32 port,
			u32 stride, u32 status)
{
	u32 rec = loom_port_rec(ldev, port, stride);
	struct nlattr *nest;

	if (nla_put_u32(skb, LOOM_ATTR_DEV_INDEX, ldev->minor))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, LOOM_ATTR_PORT);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, LOOM_ATTR_PORT_INDEX, port) ||
	    ((status & LOOM_PORT_ST_CABLED) &&
	     nla_put_flag(skb, LOOM_ATTR_PORT_CABLED)) ||
	    ((status & LOOM_PORT_ST_UP) && nla_put_flag(skb, LOOM_ATTR_PORT_UP)) ||
	    ((status & LOOM_PORT_ST_DEAD) &&
	     nla_put_flag(skb, LOOM_ATTR_PORT_DEAD)) ||
	    ((status & LOOM_PORT_ST_DISABLED) &&
	     nla_put_flag(skb, LOOM_ATTR_PORT_DISABLED)) ||
	    nla_put_u32(skb, LOOM_ATTR_PORT_LANES,
			(status & LOOM_PORT_ST_LANES_MASK) >>
			LOOM_PORT_ST_LANES_SHIFT) ||
	    nla_put_u32(skb, LOOM_ATTR_PORT_PEER_NODE,
			loom_rd(ldev, rec + LOOM_PORT_PEER_NODE)) ||
	    nla_put_u32(skb, LOOM_ATTR_PORT_PEER_PORT,
			loom_rd(ldev, rec + LOOM_PORT_PEER_PORT)))
		goto cancel;
	if (loom_genl_put_counters(skb, ldev, rec, loom_port_counters,
				   ARRAY_SIZE(loom_port_counters),
				   LOOM_ATTR_PORT_PAD))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int loom_genl_fill_port_now(struct sk_buff *skb, struct loom_dev *ldev,
				   u32 port, u32 stride)
{
	u32 rec = loom_port_rec(ldev, port, stride);

	return loom_genl_fill_port(skb, ldev, port, stride,
				   loom_rd(ldev, rec + LOOM_PORT_STATUS));
}

/*
 * The PORT nest of a request: parsed into @tb, its INDEX checked against
 * the card's ports.
 */
static int loom_genl_port_parse(struct loom_dev *ldev, struct genl_info *info,
				struct nlattr **tb, u32 *port, u32 *stride)
{
	struct nlattr *attr = info->attrs[LOOM_ATTR_PORT];
	u32 n;
	int err;

	if (!attr) {
		NL_SET_ERR_MSG_MOD(info->extack, "missing LOOM_ATTR_PORT");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, LOOM_ATTR_PORT_MAX, attr,
			       loom_genl_port_policy, info->extack);
	if (err)
		return err;
	if (!tb[LOOM_ATTR_PORT_INDEX]) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "missing LOOM_ATTR_PORT_INDEX");
		return -EINVAL;
	}
	*port = nla_get_u32(tb[LOOM_ATTR_PORT_INDEX]);
	n = loom_ports_usable(ldev, stride);
	if (!ldev->blk_ports.size) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "the card has no PORTS register block");
		return -EOPNOTSUPP;
	}
	if (*port >= n) {
		loom_genl_err_attr(info->extack, tb[LOOM_ATTR_PORT_INDEX],
				   loom_genl_port_range_msg(*port, n));
		return -ERANGE;
	}
	return 0;
}

/* PORT_GET: check the requested port, then describe it */
static int loom_genl_port_reply_fill(struct sk_buff *msg, struct loom_dev *ldev,
				     struct genl_info *info)
{
	struct nlattr *tb[LOOM_ATTR_PORT_MAX + 1];
	u32 port, stride = 0;
	int err;

	err = loom_genl_port_parse(ldev, info, tb, &port, &stride);
	return err ? err : loom_genl_fill_port_now(msg, ldev, port, stride);
}

int loom_genl_port_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return loom_genl_reply(info, LOOM_CMD_PORT_GET, loom_genl_port_reply_fill);
}

static int loom_genl_port_dump_fill(struct sk_buff *skb, struct loom_dev *ldev,
				    u32 port, const void *stride)
{
	return loom_genl_fill_port_now(skb, ldev, port, *(const u32 *)stride);
}

/* cb->args[0]: next port */
int loom_genl_port_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct loom_dev *ldev;
	u32 n, stride = 0;
	int err;

	ldev = loom_genl_dev_lock(info->attrs, cb->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	n = loom_ports_usable(ldev, &stride);
	err = loom_genl_dump_entries(skb, cb, ldev, LOOM_CMD_PORT_GET, n,
				     loom_genl_port_dump_fill, &stride);
	loom_genl_dev_unlock(ldev);
	return loom_genl_dump_done(skb, cb, err);
}

/*
 * PORT_SET: PORT{INDEX, ENABLED}.  ENABLED 0 sets the fault mask
 * (CTRL.DISABLE): the port carries nothing and what is routed to it is
 * discarded and counted.  The card reflects it in STATUS.DISABLED and
 * counts a port event; loom_events.c announces the change.
 */
int loom_genl_port_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[LOOM_ATTR_PORT_MAX + 1];
	struct loom_dev *ldev;
	u32 port, stride = 0, ctrl;
	int err;

	ldev = loom_genl_dev_lock(info->attrs, info->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	err = loom_genl_port_parse(ldev, info, tb, &port, &stride);
	if (err)
		goto out;
	if (!tb[LOOM_ATTR_PORT_ENABLED]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[LOOM_ATTR_PORT],
				    "missing LOOM_ATTR_PORT_ENABLED: nothing to change");
		err = -EINVAL;
		goto out;
	}
	err = loom_genl_card_alive(ldev, info->extack);
	if (err)
		goto out;
	ctrl = loom_rd(ldev, loom_port_rec(ldev, port, stride) + LOOM_PORT_CTRL);
	if (nla_get_u8(tb[LOOM_ATTR_PORT_ENABLED]))
		ctrl &= ~LOOM_PORT_CTRL_DISABLE;
	else
		ctrl |= LOOM_PORT_CTRL_DISABLE;
	loom_wr(ldev, loom_port_rec(ldev, port, stride) + LOOM_PORT_CTRL, ctrl);
	ldev->hal->kick(ldev, LOOM_KICK_ADMIN);
out:
	loom_genl_dev_unlock(ldev);
	return err;
}
