// SPDX-License-Identifier: GPL-2.0
/*
 * Multicast group-table commands of the "loom" family: LOOM_CMD_MCAST_GET
 * (one entry, or a dump of the valid ones, one message each),
 * LOOM_CMD_MCAST_SET and LOOM_CMD_MCAST_DEL (CAP_NET_ADMIN).  The table
 * lives in the MCAST block (loom_hw_mcast.c); a card without it answers
 * -EOPNOTSUPP.  A write is followed by a kick so the lab's emulator
 * rescans.
 */
#include <linux/kernel.h>

#include "loom_drv.h"
#include "loom_genl.h"

/*
 * Group ids, port masks, contexts and member counts are 16 bits; 65535
 * does not fit the policy's own (s16) maximum, so a range structure.
 */
static struct netlink_range_validation loom_genl_mcast_u16 = {
	.max = 0xffff,
};

const struct nla_policy loom_genl_mcast_policy[LOOM_ATTR_MCAST_MAX + 1] = {
	[LOOM_ATTR_MCAST_GROUP] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &loom_genl_mcast_u16),
	[LOOM_ATTR_MCAST_PORTS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &loom_genl_mcast_u16),
	[LOOM_ATTR_MCAST_HOST_CTX] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &loom_genl_mcast_u16),
	[LOOM_ATTR_MCAST_MEMBERS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &loom_genl_mcast_u16),
	[LOOM_ATTR_MCAST_VALID] = { .type = NLA_FLAG },
};

static int loom_genl_fill_mcast(struct sk_buff *skb, struct loom_dev *ldev,
				u32 group, const struct loom_hw_mcast *e)
{
	struct nlattr *nest;

	if (nla_put_u32(skb, LOOM_ATTR_DEV_INDEX, ldev->minor))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, LOOM_ATTR_MCAST);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, LOOM_ATTR_MCAST_GROUP, group) ||
	    nla_put_u32(skb, LOOM_ATTR_MCAST_PORTS, e->ports) ||
	    (e->host &&
	     nla_put_u32(skb, LOOM_ATTR_MCAST_HOST_CTX, e->host_ctx)) ||
	    nla_put_u32(skb, LOOM_ATTR_MCAST_MEMBERS, e->members) ||
	    (e->valid && nla_put_flag(skb, LOOM_ATTR_MCAST_VALID))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Does the card have a group table?  Say so when it has none. */
static int loom_genl_mcast_present(struct loom_dev *ldev,
				   struct netlink_ext_ack *extack)
{
	if (loom_hw_mcast_groups(ldev))
		return 0;
	NL_SET_ERR_MSG_MOD(extack,
			   "this card has no multicast group table (no MCAST block): multicast needs a card design that has one");
	return -EOPNOTSUPP;
}

/* Parse LOOM_ATTR_MCAST of a request and check its group. */
static int loom_genl_mcast_parse(struct loom_dev *ldev, struct genl_info *info,
				 struct nlattr **tb, u32 *group)
{
	struct nlattr *attr = info->attrs[LOOM_ATTR_MCAST];
	int err;

	err = loom_genl_mcast_present(ldev, info->extack);
	if (err)
		return err;
	if (!attr) {
		NL_SET_ERR_MSG_MOD(info->extack, "missing LOOM_ATTR_MCAST");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, LOOM_ATTR_MCAST_MAX, attr,
			       loom_genl_mcast_policy, info->extack);
	if (err)
		return err;
	if (!tb[LOOM_ATTR_MCAST_GROUP]) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "missing LOOM_ATTR_MCAST_GROUP");
		return -EINVAL;
	}
	*group = nla_get_u32(tb[LOOM_ATTR_MCAST_GROUP]);
	if (*group >= loom_hw_mcast_groups(ldev)) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[LOOM_ATTR_MCAST_GROUP],
				    "group out of range: beyond the card's group table (see N_GROUPS in the kernel log or loomctl mcast show)");
		return -ERANGE;
	}
	return 0;
}

static int loom_genl_mcast_reply_fill(struct sk_buff *msg,
				      struct loom_dev *ldev,
				      struct genl_info *info)
{
	struct nlattr *tb[LOOM_ATTR_MCAST_MAX + 1];
	struct loom_hw_mcast e;
	u32 group;
	int err;

	err = loom_genl_mcast_parse(ldev, info, tb, &group);
	if (!err)
		err = loom_hw_mcast_get(ldev, group, &e);
	return err ? err : loom_genl_fill_mcast(msg, ldev, group, &e);
}

int loom_genl_mcast_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return loom_genl_reply(info, LOOM_CMD_MCAST_GET,
			       loom_genl_mcast_reply_fill);
}

/* cb->args[0]: next group to look at */
int loom_genl_mcast_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct loom_hw_mcast e;
	struct loom_dev *ldev;
	u32 group, n;
	int err;

	ldev = loom_genl_dev_lock(info->attrs, cb->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	err = loom_genl_mcast_present(ldev, cb->extack);
	if (err) {
		loom_genl_dev_unlock(ldev);
		return err;
	}
	n = loom_hw_mcast_groups(ldev);
	for (group = cb->args[0]; group < n; group++) {
		void *hdr;

		err = loom_hw_mcast_get(ldev, group, &e);
		if (err)
			break;
		if (!e.valid)
			continue;
		hdr = loom_genl_put_hdr(skb, cb, LOOM_CMD_MCAST_GET);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		err = loom_genl_fill_mcast(skb, ldev, group, &e);
		if (err) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	loom_genl_dev_unlock(ldev);
	cb->args[0] = group;
	return loom_genl_dump_done(skb, cb, loom_genl_card_failed(err, cb->extack));
}

/* Check the fields of a SET against the card and fill @e. */
static int loom_genl_mcast_entry(struct loom_dev *ldev, struct genl_info *info,
				 struct nlattr **tb, struct loom_hw_mcast *e)
{
	struct nlattr *ports = tb[LOOM_ATTR_MCAST_PORTS];
	struct nlattr *ctx = tb[LOOM_ATTR_MCAST_HOST_CTX];

	*e = (struct loom_hw_mcast){ .valid = true };
	if (ports) {
		e->ports = nla_get_u32(ports);
		if (e->ports >> ldev->n_ports) {
			NL_SET_ERR_MSG_ATTR(info->extack, ports,
					    "ports mask names a port the card lacks (see DEV_N_PORTS)");
			return -ERANGE;
		}
	}
	if (ctx) {
		e->host = true;
		e->host_ctx = nla_get_u32(ctx);
		if (e->host_ctx >= ldev->n_ctx) {
			NL_SET_ERR_MSG_ATTR(info->extack, ctx,
					    "host context out of range: beyond the card's contexts (see DEV_N_CONTEXTS)");
			return -ERANGE;
		}
	}
	if (tb[LOOM_ATTR_MCAST_MEMBERS])
		e->members = nla_get_u32(tb[LOOM_ATTR_MCAST_MEMBERS]);
	if (!e->ports && !e->host) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[LOOM_ATTR_MCAST],
				    "the entry sends no copy: give PORTS (a non-empty mask) or HOST_CTX; MCAST_DEL clears an entry");
		return -EINVAL;
	}
	return 0;
}

/* SET (@set) writes the request's entry, valid; DEL clears it */
static int loom_genl_mcast_write(struct genl_info *info, bool set)
{
	struct nlattr *tb[LOOM_ATTR_MCAST_MAX + 1];
	struct loom_hw_mcast e = {};
	struct loom_dev *ldev;
	u32 group;
	int err;

	ldev = loom_genl_dev_lock(info->attrs, info->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	err = loom_genl_mcast_parse(ldev, info, tb, &group);
	if (!err && set)
		err = loom_genl_mcast_entry(ldev, info, tb, &e);
	if (!err)
		err = loom_genl_card_alive(ldev, info->extack);
	if (!err)
		err = loom_genl_card_failed(loom_hw_mcast_set(ldev, group, &e),
					    info->extack);
	if (!err)
		loom_hw_commit(ldev);
	loom_genl_dev_unlock(ldev);
	return err;
}

int loom_genl_mcast_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	return loom_genl_mcast_write(info, true);
}

int loom_genl_mcast_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	return loom_genl_mcast_write(info, false);
}
