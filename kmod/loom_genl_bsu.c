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
	struct loom_hw_bsu_tree t;
	struct loom_hw_bsu_page p;
	struct nlattr *nest;
	u32 owner;
	int err;

	err = loom_hw_bsu_tree(ldev, bsu, &t);
	if (!err)
		err = loom_hw_bsu_page_read(ldev, bsu, &p);
	if (err)
		return err;
	if (nla_put_u32(skb, LOOM_ATTR_DEV_INDEX, ldev->minor))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, LOOM_ATTR_BSU);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, LOOM_ATTR_BSU_INDEX, bsu) ||
	    nla_put_u32(skb, LOOM_ATTR_BSU_PARENT, t.parent) ||
	    nla_put_u32(skb, LOOM_ATTR_BSU_CHILDREN, t.children) ||
	    nla_put_u32(skb, LOOM_ATTR_BSU_ARRIVED, t.arrived) ||
	    (t.eureka && nla_put_flag(skb, LOOM_ATTR_BSU_EUREKA)) ||
	    nla_put_u32(skb, LOOM_ATTR_BSU_STATE, p.state) ||
	    nla_put_u32(skb, LOOM_ATTR_BSU_COMPLETIONS, p.completions) ||
	    nla_put_u32(skb, LOOM_ATTR_BSU_EUREKAS, p.eurekas) ||
	    nla_put_u32(skb, LOOM_ATTR_BSU_ILLEGAL, p.illegal))
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
	if (!loom_hw_bsu_count(ldev)) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "the card has no BSU register block");
		return -EOPNOTSUPP;
	}
	if (*bsu >= loom_hw_bsu_count(ldev)) {
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
				     loom_hw_bsu_count(ldev),
				     loom_genl_bsu_dump_fill, NULL);
	loom_genl_dev_unlock(ldev);
	return loom_genl_dump_done(skb, cb, loom_genl_card_failed(err, cb->extack));
}

/*
 * BSU_SET: BSU{INDEX, [PARENT], [CHILDREN]}.  The tree register is read by
 * the card at every barrier event: change it while the unit is idle on
 * every card of the tree.
 */
int loom_genl_bsu_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[LOOM_ATTR_BSU_MAX + 1];
	struct loom_hw_bsu_tree t;
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
	err = loom_genl_card_failed(loom_hw_bsu_tree(ldev, bsu, &t),
				    info->extack);
	if (err)
		goto out;
	parent = tb[LOOM_ATTR_BSU_PARENT] ?
		 nla_get_u32(tb[LOOM_ATTR_BSU_PARENT]) : t.parent;
	children = tb[LOOM_ATTR_BSU_CHILDREN] ?
		   nla_get_u32(tb[LOOM_ATTR_BSU_CHILDREN]) : t.children;
	/* n_ports is 0..LOOM_MAX_PORTS (loom_hw_router_probe()) */
	ports_mask = BIT(ldev->n_ports) - 1;
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
	if (!err)
		err = loom_genl_card_failed(loom_hw_bsu_set_tree(ldev, bsu, children,
								 parent),
					    info->extack);
	if (!err)
		loom_hw_commit(ldev);
out:
	loom_genl_dev_unlock(ldev);
	return err;
}
