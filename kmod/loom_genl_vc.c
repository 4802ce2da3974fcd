// SPDX-License-Identifier: GPL-2.0
/*
 * LOOM_CMD_VC_GET and LOOM_CMD_VC_SET of the "loom" family: the card's
 * virtual-channel table (VCT block), i.e. per port its dimension and
 * whether it is a dateline, and per logical destination the VC a packet
 * starts on (the START_VC1 bitmap).  The bitmap travels as bytes: bit d is
 * bit d % 8 of byte d / 8 (the card's little-endian words, as they are).
 * VC_SET checks the whole request before it writes anything.
 */
#include <linux/kernel.h>
#include <linux/minmax.h>

#include "loom_drv.h"
#include "loom_genl.h"

#define LOOM_VCT_BITMAP_BYTES	(LOOM_MAX_NODES / 8)

static int loom_vct_present(struct loom_dev *ldev,
			    struct netlink_ext_ack *extack)
{
	if (!ldev->blk_vct.size) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the card has no VCT register block: no VC table");
		return -EOPNOTSUPP;
	}
	return 0;
}

static int loom_genl_vc_fill(struct sk_buff *msg, struct loom_dev *ldev,
			     struct genl_info *info)
{
	u32 n = loom_hw_vct_ports(ldev), port, i, cfg, word;
	__le32 *bitmap;
	struct nlattr *nest, *bits;
	int err;

	err = loom_vct_present(ldev, info->extack);
	if (err)
		return err;
	if (nla_put_u32(msg, LOOM_ATTR_DEV_INDEX, ldev->minor))
		return -EMSGSIZE;
	for (port = 0; port < n; port++) {
		err = loom_hw_vct_port_cfg(ldev, port, &cfg);
		if (err)
			return err;
		nest = nla_nest_start(msg, LOOM_ATTR_VCT_PORT);
		if (!nest ||
		    nla_put_u32(msg, LOOM_ATTR_VCT_PORT_INDEX, port) ||
		    nla_put_u32(msg, LOOM_ATTR_VCT_PORT_DIM,
				cfg & LOOM_VCT_PORT_DIM_MASK) ||
		    nla_put_u8(msg, LOOM_ATTR_VCT_PORT_DATELINE,
			       !!(cfg & LOOM_VCT_PORT_DATELINE)))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	bits = nla_reserve(msg, LOOM_ATTR_VCT_START_VC1, LOOM_VCT_BITMAP_BYTES);
	if (!bits)
		return -EMSGSIZE;
	bitmap = nla_data(bits);
	for (i = 0; i < LOOM_HW_VCT_WORDS; i++) {
		err = loom_hw_vct_start_vc1(ldev, i, &word);
		if (err)
			return err;
		bitmap[i] = cpu_to_le32(word);
	}
	return 0;
}

int loom_genl_vc_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return loom_genl_reply(info, LOOM_CMD_VC_GET, loom_genl_vc_fill);
}

/* What a VC_SET request changes, checked and ready to be written. */
struct loom_vc_change {
	u32 port_mask;			/* ports whose cfg changes */
	u32 cfg[LOOM_MAX_PORTS];
	const u8 *bitmap;		/* whole START_VC1, or NULL */
	bool one_dest;			/* dest below gets vc below */
	u32 dest;
	u32 vc;
};

static int loom_genl_vc_port(struct loom_dev *ldev, struct nlattr *nest,
			     struct loom_vc_change *c,
			     struct netlink_ext_ack *extack)
{
	struct nlattr *tb[LOOM_ATTR_VCT_MAX + 1];
	u32 n = loom_hw_vct_ports(ldev), port;
	int err;

	err = nla_parse_nested(tb, LOOM_ATTR_VCT_MAX, nest,
			       loom_genl_vct_policy, extack);
	if (err)
		return err;
	if (!tb[LOOM_ATTR_VCT_PORT_INDEX]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "missing LOOM_ATTR_VCT_PORT_INDEX");
		return -EINVAL;
	}
	port = nla_get_u32(tb[LOOM_ATTR_VCT_PORT_INDEX]);
	if (port >= n) {
		loom_genl_err_attr(extack, tb[LOOM_ATTR_VCT_PORT_INDEX],
				   loom_genl_port_range_msg(port, n));
		return -ERANGE;
	}
	if (c->port_mask & BIT(port)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[LOOM_ATTR_VCT_PORT_INDEX],
				    "the request names this port twice");
		return -EINVAL;
	}
	if (!tb[LOOM_ATTR_VCT_PORT_DIM] && !tb[LOOM_ATTR_VCT_PORT_DATELINE]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "nothing to set for this port: give LOOM_ATTR_VCT_PORT_DIM or LOOM_ATTR_VCT_PORT_DATELINE");
		return -EINVAL;
	}
	err = loom_genl_card_failed(loom_hw_vct_port_cfg(ldev, port,
							 &c->cfg[port]),
				    extack);
	if (err)
		return err;
	if (tb[LOOM_ATTR_VCT_PORT_DIM]) {
		c->cfg[port] &= ~LOOM_VCT_PORT_DIM_MASK;
		c->cfg[port] |= nla_get_u32(tb[LOOM_ATTR_VCT_PORT_DIM]);
	}
	if (tb[LOOM_ATTR_VCT_PORT_DATELINE]) {
		if (nla_get_u8(tb[LOOM_ATTR_VCT_PORT_DATELINE]))
			c->cfg[port] |= LOOM_VCT_PORT_DATELINE;
		else
			c->cfg[port] &= ~LOOM_VCT_PORT_DATELINE;
	}
	c->port_mask |= BIT(port);
	return 0;
}

static int loom_genl_vc_check(struct loom_dev *ldev, struct genl_info *info,
			      struct loom_vc_change *c)
{
	struct nlattr **attrs = info->attrs, *a;
	int rem, err;

	nla_for_each_attr(a, genlmsg_data(info->genlhdr),
			  genlmsg_len(info->genlhdr), rem) {
		if (nla_type(a) != LOOM_ATTR_VCT_PORT)
			continue;
		err = loom_genl_vc_port(ldev, a, c, info->extack);
		if (err)
			return err;
	}
	if (attrs[LOOM_ATTR_VCT_START_VC1] &&
	    (attrs[LOOM_ATTR_VCT_DEST] || attrs[LOOM_ATTR_VCT_VC])) {
		NL_SET_ERR_MSG_ATTR(info->extack, attrs[LOOM_ATTR_VCT_START_VC1],
				    "give either the whole LOOM_ATTR_VCT_START_VC1 or one LOOM_ATTR_VCT_DEST with LOOM_ATTR_VCT_VC, not both");
		return -EINVAL;
	}
	if (!attrs[LOOM_ATTR_VCT_DEST] != !attrs[LOOM_ATTR_VCT_VC]) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "LOOM_ATTR_VCT_DEST and LOOM_ATTR_VCT_VC go together");
		return -EINVAL;
	}
	if (attrs[LOOM_ATTR_VCT_START_VC1])
		c->bitmap = nla_data(attrs[LOOM_ATTR_VCT_START_VC1]);
	if (attrs[LOOM_ATTR_VCT_DEST]) {
		c->one_dest = true;
		c->dest = nla_get_u32(attrs[LOOM_ATTR_VCT_DEST]);
		c->vc = nla_get_u32(attrs[LOOM_ATTR_VCT_VC]);
	}
	if (!c->port_mask && !c->bitmap && !c->one_dest) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "nothing to set: give LOOM_ATTR_VCT_PORT, LOOM_ATTR_VCT_START_VC1 or LOOM_ATTR_VCT_DEST with LOOM_ATTR_VCT_VC");
		return -EINVAL;
	}
	return 0;
}

int loom_genl_vc_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct loom_vc_change c = {};
	struct loom_dev *ldev;
	u32 port, i, word;
	int err;

	ldev = loom_genl_dev_lock(info->attrs, info->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	err = loom_vct_present(ldev, info->extack);
	if (!err)
		err = loom_genl_vc_check(ldev, info, &c);
	if (!err)
		err = loom_genl_card_alive(ldev, info->extack);
	if (err)
		goto out;
	for (port = 0; port < LOOM_MAX_PORTS && !err; port++)
		if (c.port_mask & BIT(port))
			err = loom_hw_vct_set_port_cfg(ldev, port, c.cfg[port]);
	for (i = 0; c.bitmap && i < LOOM_HW_VCT_WORDS && !err; i++) {
		const u8 *b = c.bitmap + i * 4;

		err = loom_hw_vct_set_start_vc1(ldev, i, b[0] | b[1] << 8 |
						b[2] << 16 | (u32)b[3] << 24);
	}
	if (c.one_dest && !err)
		err = loom_hw_vct_start_vc1(ldev, c.dest / 32, &word);
	if (c.one_dest && !err) {
		if (c.vc)
			word |= BIT(c.dest % 32);
		else
			word &= ~BIT(c.dest % 32);
		err = loom_hw_vct_set_start_vc1(ldev, c.dest / 32, word);
	}
	loom_hw_commit(ldev);
out:
	loom_genl_dev_unlock(ldev);
	return loom_genl_card_failed(err, info->extack);
}
