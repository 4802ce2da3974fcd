// SPDX-License-Identifier: GPL-2.0
/*
 * LOOM_CMD_PORT_GET and LOOM_CMD_PORT_SET of the "loom" family: status,
 * peer and counters of the card's network ports (the PORTS register block,
 * through loom_hw_ports.c), and the fault mask (CTRL.DISABLE).
 * The block is optional for the driver: a card without it answers
 * -EOPNOTSUPP here and works otherwise.
 */
#include <linux/kernel.h>
#include <linux/minmax.h>

#include "loom_drv.h"
#include "loom_genl.h"

static const int loom_port_counter_attrs[LOOM_HW_PORT_N_COUNTERS] = {
	[LOOM_HW_PORT_TX_FRAMES] = LOOM_ATTR_PORT_TX_FRAMES,
	[LOOM_HW_PORT_RX_FRAMES] = LOOM_ATTR_PORT_RX_FRAMES,
	[LOOM_HW_PORT_TX_BYTES] = LOOM_ATTR_PORT_TX_BYTES,
	[LOOM_HW_PORT_RX_BYTES] = LOOM_ATTR_PORT_RX_BYTES,
	[LOOM_HW_PORT_CRC_ERRORS] = LOOM_ATTR_PORT_CRC_ERRORS,
	[LOOM_HW_PORT_SEQ_ERRORS] = LOOM_ATTR_PORT_SEQ_ERRORS,
	[LOOM_HW_PORT_DROPS] = LOOM_ATTR_PORT_DROPS,
	[LOOM_HW_PORT_RETRIES] = LOOM_ATTR_PORT_RETRIES,
	[LOOM_HW_PORT_NAKS_SENT] = LOOM_ATTR_PORT_NAKS_SENT,
	[LOOM_HW_PORT_REPLAYED] = LOOM_ATTR_PORT_REPLAYED,
	[LOOM_HW_PORT_ACK_TIMEOUTS] = LOOM_ATTR_PORT_ACK_TIMEOUTS,
};

/**
 * loom_genl_fill_port() - DEV_INDEX and the PORT nest of one port
 * @skb: the message
 * @ldev: the card, alive
 * @port: the port, < loom_hw_ports_count()
 * @status: the port's STATUS, as read by the caller (loom_hw_port_status())
 *
 * Return: 0, -EMSGSIZE, or -EIO when the card failed.
 */
int loom_genl_fill_port(struct sk_buff *skb, struct loom_dev *ldev, u32 port,
			u32 status)
{
	struct loom_hw_port p;
	struct nlattr *nest;
	int err;

	err = loom_hw_port_read(ldev, port, status, &p);
	if (err)
		return err;
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
	    nla_put_u32(skb, LOOM_ATTR_PORT_PEER_NODE, p.peer_node) ||
	    nla_put_u32(skb, LOOM_ATTR_PORT_PEER_PORT, p.peer_port))
		goto cancel;
	if (loom_genl_put_counters(skb, loom_port_counter_attrs, p.counters,
				   LOOM_HW_PORT_N_COUNTERS, LOOM_ATTR_PORT_PAD))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int loom_genl_fill_port_now(struct sk_buff *skb, struct loom_dev *ldev,
				   u32 port)
{
	u32 status;
	int err;

	err = loom_hw_port_status(ldev, port, &status);
	return err ? err : loom_genl_fill_port(skb, ldev, port, status);
}

/*
 * The PORT nest of a request: parsed into @tb, its INDEX checked against
 * the card's ports.
 */
static int loom_genl_port_parse(struct loom_dev *ldev, struct genl_info *info,
				struct nlattr **tb, u32 *port)
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
	n = loom_hw_ports_count(ldev);
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
	u32 port;
	int err;

	err = loom_genl_port_parse(ldev, info, tb, &port);
	return err ? err : loom_genl_fill_port_now(msg, ldev, port);
}

int loom_genl_port_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return loom_genl_reply(info, LOOM_CMD_PORT_GET, loom_genl_port_reply_fill);
}

static int loom_genl_port_dump_fill(struct sk_buff *skb, struct loom_dev *ldev,
				    u32 port, const void *unused)
{
	return loom_genl_fill_port_now(skb, ldev, port);
}

/* cb->args[0]: next port */
int loom_genl_port_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct loom_dev *ldev;
	int err;

	ldev = loom_genl_dev_lock(info->attrs, cb->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	err = loom_genl_dump_entries(skb, cb, ldev, LOOM_CMD_PORT_GET,
				     loom_hw_ports_count(ldev),
				     loom_genl_port_dump_fill, NULL);
	loom_genl_dev_unlock(ldev);
	return loom_genl_dump_done(skb, cb, loom_genl_card_failed(err, cb->extack));
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
	bool enabled;
	u32 port;
	int err;

	ldev = loom_genl_dev_lock(info->attrs, info->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	err = loom_genl_port_parse(ldev, info, tb, &port);
	if (err)
		goto out;
	if (!tb[LOOM_ATTR_PORT_ENABLED]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[LOOM_ATTR_PORT],
				    "missing LOOM_ATTR_PORT_ENABLED: nothing to change");
		err = -EINVAL;
		goto out;
	}
	enabled = nla_get_u8(tb[LOOM_ATTR_PORT_ENABLED]);
	err = loom_genl_card_alive(ldev, info->extack);
	if (!err)
		err = loom_genl_card_failed(loom_hw_port_set_enabled(ldev, port,
								     enabled),
					    info->extack);
	if (!err)
		loom_hw_commit(ldev);
out:
	loom_genl_dev_unlock(ldev);
	return err;
}
