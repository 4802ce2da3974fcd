// SPDX-License-Identifier: GPL-2.0
/*
 * LOOM_CMD_PORT_GET of the "loom" family: status, peer and counters of the
 * card's network ports, read from the PORTS register block (one record per
 * port).  The block is optional for the driver: a card without it answers
 * -EOPNOTSUPP here and works otherwise.
 */
#include <linux/kernel.h>
#include <linux/minmax.h>

#include "loom_drv.h"
#include "loom_genl.h"

/* Ports with a record inside the PORTS block; *stride set when > 0. */
static u32 loom_ports_usable(struct loom_dev *ldev, u32 *stride)
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

static const struct {
	u32 reg;
	int attr;
} loom_port_counters[] = {
	{ LOOM_PORT_TX_FRAMES, LOOM_ATTR_PORT_TX_FRAMES },
	{ LOOM_PORT_RX_FRAMES, LOOM_ATTR_PORT_RX_FRAMES },
	{ LOOM_PORT_TX_BYTES, LOOM_ATTR_PORT_TX_BYTES },
	{ LOOM_PORT_RX_BYTES, LOOM_ATTR_PORT_RX_BYTES },
	{ LOOM_PORT_CRC_ERRORS, LOOM_ATTR_PORT_CRC_ERRORS },
	{ LOOM_PORT_SEQ_ERRORS, LOOM_ATTR_PORT_SEQ_ERRORS },
	{ LOOM_PORT_DROPS, LOOM_ATTR_PORT_DROPS },
};

static int loom_genl_fill_port(struct sk_buff *skb, struct loom_dev *ldev,
			       u32 port, u32 stride)
{
	u32 rec = ldev->blk_ports.off + LOOM_PORTS_BASE + port * stride;
	u32 status = loom_rd(ldev, rec + LOOM_PORT_STATUS);
	struct nlattr *nest;
	unsigned int i;

	if (nla_put_u32(skb, LOOM_ATTR_DEV_INDEX, ldev->minor))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, LOOM_ATTR_PORT);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, LOOM_ATTR_PORT_INDEX, port) ||
	    ((status & LOOM_PORT_ST_CABLED) &&
	     nla_put_flag(skb, LOOM_ATTR_PORT_CABLED)) ||
	    ((status & LOOM_PORT_ST_UP) && nla_put_flag(skb, LOOM_ATTR_PORT_UP)) ||
	    nla_put_u32(skb, LOOM_ATTR_PORT_PEER_NODE,
			loom_rd(ldev, rec + LOOM_PORT_PEER_NODE)) ||
	    nla_put_u32(skb, LOOM_ATTR_PORT_PEER_PORT,
			loom_rd(ldev, rec + LOOM_PORT_PEER_PORT)))
		goto cancel;
	for (i = 0; i < ARRAY_SIZE(loom_port_counters); i++) {
		if (nla_put_u64_64bit(skb, loom_port_counters[i].attr,
				      loom_rd(ldev, rec + loom_port_counters[i].reg),
				      LOOM_ATTR_PORT_PAD))
			goto cancel;
	}
	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* PORT_GET: check the requested port, then describe it */
static int loom_genl_port_reply_fill(struct sk_buff *msg, struct loom_dev *ldev,
				     struct genl_info *info)
{
	struct nlattr *tb[LOOM_ATTR_PORT_MAX + 1];
	struct nlattr *attr = info->attrs[LOOM_ATTR_PORT];
	u32 port, n, stride = 0;
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
	port = nla_get_u32(tb[LOOM_ATTR_PORT_INDEX]);
	n = loom_ports_usable(ldev, &stride);
	if (!ldev->blk_ports.size) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "the card has no PORTS register block");
		return -EOPNOTSUPP;
	}
	if (port >= n) {
		loom_genl_err_attr(info->extack, tb[LOOM_ATTR_PORT_INDEX],
				   loom_genl_port_range_msg(port, n));
		return -ERANGE;
	}
	return loom_genl_fill_port(msg, ldev, port, stride);
}

int loom_genl_port_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return loom_genl_reply(info, LOOM_CMD_PORT_GET, loom_genl_port_reply_fill);
}

/* cb->args[0]: next port */
int loom_genl_port_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct loom_dev *ldev;
	u32 port, n, stride = 0;
	int err = 0;

	ldev = loom_genl_dev_lock(info->attrs, cb->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	n = loom_ports_usable(ldev, &stride);
	for (port = cb->args[0]; port < n; port++) {
		void *hdr = loom_genl_put_hdr(skb, cb, LOOM_CMD_PORT_GET);

		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		err = loom_genl_fill_port(skb, ldev, port, stride);
		if (err) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	loom_genl_dev_unlock(ldev);
	cb->args[0] = port;
	if (err && !skb->len)
		return err;
	return skb->len;
}
