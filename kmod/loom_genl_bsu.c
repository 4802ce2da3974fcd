// SPDX-License-Identifier: GPL-2.0
/*
 * LOOM_CMD_BSU_GET and LOOM_CMD_BSU_SET of the "loom" family: the tree
 * register of each barrier/eureka unit (children, parent, arrived set),
 * the unit's state and counters, and who holds it.  The tree is what the
 * fabric manager or "loomctl bsu set" configures; the units themselves are
 * driven from user space through their mapped pages.
 */
#include <linux/kernel.h>

#include "loom_drv.h"
#include "loom_genl.h"

const struct nla_policy loom_genl_bsu_policy[LOOM_ATTR_BSU_MAX + 1] = {
	[LOOM_ATTR_BSU_INDEX] = NLA_POLICY_MAX(NLA_U32, LOOM_BSU_COUNT - 1),
	[LOOM_ATTR_BSU_PARENT] = NLA_POLICY_MAX(NLA_U32, LOOM_BSU_PARENT_ROOT),
	[LOOM_ATTR_BSU_CHILDREN] = NLA_POLICY_MASK(NLA_U32, LOOM_BSU_CHILDREN_MASK),
	[LOOM_ATTR_BSU_ARRIVED] = { .type = NLA_U32 },
	[LOOM_ATTR_BSU_EUREKA] = { .type = NLA_FLAG },
	[LOOM_ATTR_BSU_STATE] = { .type = NLA_U32 },
	[LOOM_ATTR_BSU_COMPLETIONS] = { .type = NLA_U32 },
	[LOOM_ATTR_BSU_EUREKAS] = { .type = NLA_U32 },
	[LOOM_ATTR_BSU_ILLEGAL] = { .type = NLA_U32 },
	[LOOM_ATTR_BSU_GRANTED] = { .type = NLA_FLAG },
	[LOOM_ATTR_BSU_CTX] = { .type = NLA_U32 },
};

static int loom_genl_fill_bsu(struct sk_buff *skb, struct loom_dev *ldev,
			      u32 bsu)
{
	struct nlattr *nest;
	u32 flags, owner;

	if (nla_put_u32(skb, LOOM_ATTR_DEV_INDEX, ldev->minor))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, LOOM_ATTR_BSU);
	if (!nest)
		return -EMSGSIZE;
	flags = loom_rd(ldev, loom_bsu_tree_reg(ldev, bsu, LOOM_BSUT_FLAGS));
	if (nla_put_u32(skb, LOOM_ATTR_BSU_INDEX, bsu) ||
	    nla_put_u32(skb, LOOM_ATTR_BSU_PARENT,
			loom_rd(ldev, loom_bsu_tree_reg(ldev, bsu, LOOM_BSUT_PARENT))) ||
	    nla_put_u32(skb, LOOM_ATTR_BSU_CHILDREN,
			loom_rd(ldev, loom_bsu_tree_reg(ldev, bsu, LOOM_BSUT_CHILDREN))) ||
	    nla_put_u32(skb, LOOM_ATTR_BSU_ARRIVED,
			loom_rd(ldev, loom_bsu_tree_reg(ldev, bsu, LOOM_BSUT_ARRIVED))) ||
	    ((flags & LOOM_BSUT_F_EUREKA) &&
	     nla_put_flag(skb, LOOM_ATTR_BSU_EUREKA)) ||
	    nla_put_u32(skb, LOOM_ATTR_BSU_STATE,
			loom_rd(ldev, loom_bsu_page_reg(ldev, bsu, LOOM_BSUP_STATE))) ||
	    nla_put_u32(skb, LOOM_ATTR_BSU_COMPLETIONS,
			loom_rd(ldev, loom_bsu_page_reg(ldev, bsu, LOOM_BSUP_COMPLETIONS))) ||
	    nla_put_u32(skb, LOOM_ATTR_BSU_EUREKAS,
			loom_rd(ldev, loom_bsu_page_reg(ldev, bsu, LOOM_BSUP_EUREKAS))) ||
	    nla_put_u32(skb, LOOM_ATTR_BSU_ILLEGAL,
			loom_rd(ldev, loom_bsu_page_reg(ldev, bsu, LOOM_BSUP_ILLEGAL))))
		goto cancel;
	if (loom_bsu_owner(ldev, bsu, &owner) &&
	    (nla_put_flag(skb, LOOM_ATTR_BSU_GRANTED) ||
	     (owner != U32_MAX && nla_put_u32(skb, LOOM_ATTR_BSU_CTX, owner))))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* The BSU nest of a request, parsed into @tb, its INDEX checked. */
static int loom_genl_bsu_parse(struct loom_dev *ldev, struct genl_info *info,
			       struct nlattr **tb, u32 *bsu)
{
	struct nlattr *attr = info->attrs[LOOM_ATTR_BSU];
	int err;

	if (!attr) {
		NL_SET_ERR_MSG_MOD(info->extack, "missing LOOM_ATTR_BSU");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, LOOM_ATTR_BSU_MAX, attr, loom_genl_bsu_policy,
			       info->extack);
	if (err)
		return err;
	if (!tb[LOOM_ATTR_BSU_INDEX]) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "missing LOOM_ATTR_BSU_INDEX");
		return -EINVAL;
	}
	*bsu = nla_get_u32(tb[LOOM_ATTR_BSU_INDEX]);
	if (!loom_bsu_count(ldev)) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "the card has no BSU register block");
		return -EOPNOTSUPP;
	}
	if (*bsu >= loom_bsu_count(ldev)) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[LOOM_ATTR_BSU_INDEX],
				    "no such BSU on this card");
		return -ERANGE;
	}
	return 0;
}

static int loom_genl_bsu_reply_fill(struct sk_buff *msg, struct loom_dev *ldev,
				    struct genl_info *info)
{
	struct nlattr *tb[LOOM_ATTR_BSU_MAX + 1];
	u32 bsu;
	int err;

	err = loom_genl_bsu_parse(ldev, info, tb, &bsu);
	return err ? err : loom_genl_fill_bsu(msg, ldev, bsu);
}

int loom_genl_bsu_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return loom_genl_reply(info, LOOM_CMD_BSU_GET, loom_genl_bsu_reply_fill);
}

static int loom_genl_bsu_dump_fill(struct sk_buff *skb, struct loom_dev *ldev,
				   u32 bsu, const void *unused)
{
	return loom_genl_fill_bsu(skb, ldev, bsu);
}

/* cb->args[0]: next unit */
int loom_genl_bsu_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct loom_dev *ldev;
	int err;

	ldev = loom_genl_dev_lock(info->attrs, cb->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	err = loom_genl_dump_entries(skb, cb, ldev, LOOM_CMD_BSU_GET,
				     loom_bsu_count(ldev),
				     loom_genl_bsu_dump_fill, NULL);
	loom_genl_dev_unlock(ldev);
	return loom_genl_dump_done(skb, cb, err);
}

/*
 * BSU_SET: BSU{INDEX, [PARENT], [CHILDREN]}.  The tree register is read by
 * the card at every barrier event: change it while the unit is idle on
 * every card of the tree.
 */
int loom_genl_bsu_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[LOOM_ATTR_BSU_MAX + 1];
	struct loom_dev *ldev;
	u32 bsu, parent, children, ports_mask;
	int err;

	ldev = loom_genl_dev_lock(info->attrs, info->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	err = loom_genl_bsu_parse(ldev, info, tb, &bsu);
	if (err)
		goto out;
	if (!tb[LOOM_ATTR_BSU_PARENT] && !tb[LOOM_ATTR_BSU_CHILDREN]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[LOOM_ATTR_BSU],
				    "missing LOOM_ATTR_BSU_PARENT and LOOM_ATTR_BSU_CHILDREN: nothing to change");
		err = -EINVAL;
		goto out;
	}
	parent = tb[LOOM_ATTR_BSU_PARENT] ?
		 nla_get_u32(tb[LOOM_ATTR_BSU_PARENT]) :
		 loom_rd(ldev, loom_bsu_tree_reg(ldev, bsu, LOOM_BSUT_PARENT));
	children = tb[LOOM_ATTR_BSU_CHILDREN] ?
		   nla_get_u32(tb[LOOM_ATTR_BSU_CHILDREN]) :
		   loom_rd(ldev, loom_bsu_tree_reg(ldev, bsu, LOOM_BSUT_CHILDREN));
	ports_mask = GENMASK(ldev->n_ports, 0) >> 1;	/* n_ports may be 0 */
	if (parent != LOOM_BSU_PARENT_ROOT && parent >= ldev->n_ports) {
		loom_genl_err_attr(info->extack, tb[LOOM_ATTR_BSU_PARENT],
				   loom_genl_port_range_msg(parent, ldev->n_ports));
		err = -ERANGE;
		goto out;
	}
	if (children & ~LOOM_BSU_CHILDREN_HOST & ~ports_mask) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[LOOM_ATTR_BSU_CHILDREN],
				    "a child port the card does not have");
		err = -ERANGE;
		goto out;
	}
	if (parent != LOOM_BSU_PARENT_ROOT && (children & BIT(parent))) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "the parent port cannot also be a child");
		err = -EINVAL;
		goto out;
	}
	err = loom_genl_card_alive(ldev, info->extack);
	if (err)
		goto out;
	loom_wr(ldev, loom_bsu_tree_reg(ldev, bsu, LOOM_BSUT_CHILDREN), children);
	loom_wr(ldev, loom_bsu_tree_reg(ldev, bsu, LOOM_BSUT_PARENT), parent);
	ldev->hal->kick(ldev, LOOM_KICK_ADMIN);
out:
	loom_genl_dev_unlock(ldev);
	return err;
}
