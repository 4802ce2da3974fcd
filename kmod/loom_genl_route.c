// SPDX-License-Identifier: GPL-2.0
/*
 * Routing-table commands of the "loom" family: LOOM_CMD_ROUTE_GET (one
 * entry, or a dump of the valid ones, one message each so that a full
 * table spans several buffers), LOOM_CMD_ROUTE_SET and LOOM_CMD_ROUTE_DEL
 * (CAP_NET_ADMIN), and the LOOM_EVENT_ROUTE_CHANGED notification that
 * follows every change.  The table lives in the router block; a write is
 * followed by a kick so the lab's emulator rescans.
 */
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/slab.h>

#include "loom_drv.h"
#include "loom_genl.h"

static int loom_genl_fill_route(struct sk_buff *skb, struct loom_dev *ldev,
				u32 dest, const struct loom_hw_route *r)
{
	struct nlattr *nest;

	if (nla_put_u32(skb, LOOM_ATTR_DEV_INDEX, ldev->minor))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, LOOM_ATTR_ROUTE);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, LOOM_ATTR_ROUTE_DEST, dest) ||
	    nla_put_u32(skb, LOOM_ATTR_ROUTE_PORT, r->port) ||
	    nla_put_u32(skb, LOOM_ATTR_ROUTE_PHYS_DEST, r->phys) ||
	    (r->adaptive && nla_put_flag(skb, LOOM_ATTR_ROUTE_ADAPTIVE)) ||
	    (r->valid && nla_put_flag(skb, LOOM_ATTR_ROUTE_VALID))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* The entry as the card has it now, into @skb. */
static int loom_genl_fill_route_now(struct sk_buff *skb, struct loom_dev *ldev,
				    u32 dest)
{
	struct loom_hw_route r;
	int err;

	err = loom_hw_route_get(ldev, dest, &r);
	return err ? err : loom_genl_fill_route(skb, ldev, dest, &r);
}

/* Parse LOOM_ATTR_ROUTE of a request and check its destination. */
static int loom_genl_route_parse(struct loom_dev *ldev, struct genl_info *info,
				 struct nlattr **tb, u32 *dest)
{
	struct nlattr *attr = info->attrs[LOOM_ATTR_ROUTE];
	int err;

	if (!attr) {
		NL_SET_ERR_MSG_MOD(info->extack, "missing LOOM_ATTR_ROUTE");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, LOOM_ATTR_ROUTE_MAX, attr,
			       loom_genl_route_policy, info->extack);
	if (err)
		return err;
	if (!tb[LOOM_ATTR_ROUTE_DEST]) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "missing LOOM_ATTR_ROUTE_DEST");
		return -EINVAL;
	}
	*dest = nla_get_u32(tb[LOOM_ATTR_ROUTE_DEST]);
	if (*dest >= ldev->geo.rt_entries) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[LOOM_ATTR_ROUTE_DEST],
				    "dest out of range: beyond the card's routing table");
		return -ERANGE;
	}
	return 0;
}

static int loom_genl_route_reply_fill(struct sk_buff *msg,
				      struct loom_dev *ldev,
				      struct genl_info *info)
{
	struct nlattr *tb[LOOM_ATTR_ROUTE_MAX + 1];
	u32 dest;
	int err;

	err = loom_genl_route_parse(ldev, info, tb, &dest);
	return err ? err : loom_genl_fill_route_now(msg, ldev, dest);
}

int loom_genl_route_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return loom_genl_reply(info, LOOM_CMD_ROUTE_GET,
			       loom_genl_route_reply_fill);
}

/* cb->args[0]: next destination to look at */
int loom_genl_route_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct loom_hw_route r;
	struct loom_dev *ldev;
	u32 dest, n;
	int err = 0;

	ldev = loom_genl_dev_lock(info->attrs, cb->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	n = ldev->geo.rt_entries;
	for (dest = cb->args[0]; dest < n; dest++) {
		void *hdr;

		err = loom_hw_route_get(ldev, dest, &r);
		if (err)
			break;
		if (!r.valid)
			continue;
		hdr = loom_genl_put_hdr(skb, cb, LOOM_CMD_ROUTE_GET);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		err = loom_genl_fill_route(skb, ldev, dest, &r);
		if (err) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	loom_genl_dev_unlock(ldev);
	cb->args[0] = dest;
	return loom_genl_dump_done(skb, cb, loom_genl_card_failed(err, cb->extack));
}

/* Tell the "events" group what the entry is now; called with the lock. */
static struct sk_buff *loom_genl_route_event(struct loom_dev *ldev, u32 dest)
{
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(&loom_genl_family, &init_net,
				LOOM_GENL_MCGRP_EVENTS_ID))
		return NULL;
	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return NULL;
	hdr = genlmsg_put(msg, 0, 0, &loom_genl_family, 0,
			  LOOM_EVENT_ROUTE_CHANGED);
	if (!hdr || loom_genl_fill_route_now(msg, ldev, dest)) {
		nlmsg_free(msg);
		return NULL;
	}
	genlmsg_end(msg, hdr);
	return msg;
}

static void loom_genl_route_notify(struct sk_buff *msg)
{
	if (msg)
		genlmsg_multicast(&loom_genl_family, msg, 0,
				  LOOM_GENL_MCGRP_EVENTS_ID, GFP_KERNEL);
}

int loom_genl_route_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[LOOM_ATTR_ROUTE_MAX + 1];
	struct sk_buff *event = NULL;
	struct loom_hw_route r;
	struct loom_dev *ldev;
	u32 dest, port;
	int err;

	ldev = loom_genl_dev_lock(info->attrs, info->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	err = loom_genl_route_parse(ldev, info, tb, &dest);
	if (err)
		goto out;
	if (!tb[LOOM_ATTR_ROUTE_PORT]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[LOOM_ATTR_ROUTE],
				    "missing LOOM_ATTR_ROUTE_PORT");
		err = -EINVAL;
		goto out;
	}
	port = nla_get_u32(tb[LOOM_ATTR_ROUTE_PORT]);
	if (port != LOOM_ROUTE_PORT_HOST && port >= ldev->n_ports) {
		loom_genl_err_attr(info->extack, tb[LOOM_ATTR_ROUTE_PORT],
				   loom_genl_port_range_msg(port, ldev->n_ports));
		err = -ERANGE;
		goto out;
	}
	err = loom_genl_card_alive(ldev, info->extack);
	if (!err)
		err = loom_hw_route_get(ldev, dest, &r);
	if (err)
		goto out;
	/* the initial direction stays, the rest is the request's */
	r = (struct loom_hw_route){
		.valid = true, .port = port, .init_dir = r.init_dir,
		.adaptive = nla_get_flag(tb[LOOM_ATTR_ROUTE_ADAPTIVE]),
		.phys = tb[LOOM_ATTR_ROUTE_PHYS_DEST] ?
			nla_get_u32(tb[LOOM_ATTR_ROUTE_PHYS_DEST]) : dest,
	};
	err = loom_hw_route_set(ldev, dest, &r);
	if (err)
		goto out;
	loom_hw_commit(ldev);
	event = loom_genl_route_event(ldev, dest);
out:
	loom_genl_dev_unlock(ldev);
	loom_genl_route_notify(event);
	return loom_genl_card_failed(err, info->extack);
}

int loom_genl_route_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[LOOM_ATTR_ROUTE_MAX + 1];
	struct sk_buff *event = NULL;
	struct loom_dev *ldev;
	u32 dest;
	int err;

	ldev = loom_genl_dev_lock(info->attrs, info->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	err = loom_genl_route_parse(ldev, info, tb, &dest);
	if (!err)
		err = loom_genl_card_alive(ldev, info->extack);
	if (!err)
		err = loom_genl_card_failed(loom_hw_route_invalidate(ldev, dest),
					    info->extack);
	if (!err) {
		loom_hw_commit(ldev);
		event = loom_genl_route_event(ldev, dest);
	}
	loom_genl_dev_unlock(ldev);
	loom_genl_route_notify(event);
	return err;
}

/* Check one ROUTE nest of ROUTE_TABLE and put it in @table. */
static int loom_genl_route_load_one(struct loom_dev *ldev, struct nlattr *nest,
				    struct loom_hw_route *table, u32 n,
				    struct netlink_ext_ack *extack)
{
	struct nlattr *tb[LOOM_ATTR_ROUTE_MAX + 1];
	u32 dest, port;
	int err;

	err = nla_parse_nested(tb, LOOM_ATTR_ROUTE_MAX, nest,
			       loom_genl_route_policy, extack);
	if (err)
		return err;
	if (!tb[LOOM_ATTR_ROUTE_DEST] || !tb[LOOM_ATTR_ROUTE_PORT]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "a route of the table lacks LOOM_ATTR_ROUTE_DEST or LOOM_ATTR_ROUTE_PORT");
		return -EINVAL;
	}
	dest = nla_get_u32(tb[LOOM_ATTR_ROUTE_DEST]);
	if (dest >= n) {
		NL_SET_ERR_MSG_ATTR(extack, tb[LOOM_ATTR_ROUTE_DEST],
				    "dest out of range: beyond the card's routing table");
		return -ERANGE;
	}
	if (table[dest].valid) {
		NL_SET_ERR_MSG_ATTR(extack, tb[LOOM_ATTR_ROUTE_DEST],
				    "the table lists this dest twice");
		return -EINVAL;
	}
	port = nla_get_u32(tb[LOOM_ATTR_ROUTE_PORT]);
	if (port != LOOM_ROUTE_PORT_HOST && port >= ldev->n_ports) {
		loom_genl_err_attr(extack, tb[LOOM_ATTR_ROUTE_PORT],
				   loom_genl_port_range_msg(port, ldev->n_ports));
		return -ERANGE;
	}
	table[dest].valid = true;
	table[dest].port = port;
	table[dest].adaptive = nla_get_flag(tb[LOOM_ATTR_ROUTE_ADAPTIVE]);
	table[dest].phys = tb[LOOM_ATTR_ROUTE_PHYS_DEST] ?
			   nla_get_u32(tb[LOOM_ATTR_ROUTE_PHYS_DEST]) : dest;
	return 0;
}

/* DEV_INDEX only: "the table was replaced, read it again" */
static struct sk_buff *loom_genl_route_load_event(struct loom_dev *ldev)
{
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(&loom_genl_family, &init_net,
				LOOM_GENL_MCGRP_EVENTS_ID))
		return NULL;
	msg = nlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return NULL;
	hdr = genlmsg_put(msg, 0, 0, &loom_genl_family, 0,
			  LOOM_EVENT_ROUTE_CHANGED);
	if (!hdr || nla_put_u32(msg, LOOM_ATTR_DEV_INDEX, ldev->minor)) {
		nlmsg_free(msg);
		return NULL;
	}
	genlmsg_end(msg, hdr);
	return msg;
}

/*
 * ROUTE_LOAD: the whole table is checked and built first; only then is it
 * written, each listed entry physical destination first and valid last,
 * every other entry invalidated.  A refused table changes nothing.
 */
int loom_genl_route_load_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *list = info->attrs[LOOM_ATTR_ROUTE_TABLE];
	struct loom_hw_route *table, old;
	struct sk_buff *event = NULL;
	struct loom_dev *ldev;
	struct nlattr *nest;
	u32 n, dest;
	int rem, err = 0;

	if (!list) {
		NL_SET_ERR_MSG_MOD(info->extack, "missing LOOM_ATTR_ROUTE_TABLE");
		return -EINVAL;
	}
	table = kvcalloc(LOOM_MAX_NODES, sizeof(*table), GFP_KERNEL);
	if (!table) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "out of memory for the table being loaded: try again");
		return -ENOMEM;
	}
	ldev = loom_genl_dev_lock(info->attrs, info->extack);
	if (IS_ERR(ldev)) {
		kvfree(table);
		return PTR_ERR(ldev);
	}
	n = ldev->geo.rt_entries;
	nla_for_each_nested(nest, list, rem) {
		if (nla_type(nest) != LOOM_ATTR_ROUTE) {
			NL_SET_ERR_MSG_ATTR(info->extack, nest,
					    "LOOM_ATTR_ROUTE_TABLE holds only LOOM_ATTR_ROUTE nests");
			err = -EINVAL;
			goto out;
		}
		err = loom_genl_route_load_one(ldev, nest, table, n,
					       info->extack);
		if (err)
			goto out;
	}
	err = loom_genl_card_alive(ldev, info->extack);
	if (err)
		goto out;
	for (dest = 0; dest < n && !err; dest++) {
		if (!table[dest].valid) {
			err = loom_hw_route_invalidate(ldev, dest);
			continue;
		}
		err = loom_hw_route_get(ldev, dest, &old);
		table[dest].init_dir = old.init_dir;
		if (!err)
			err = loom_hw_route_set(ldev, dest, &table[dest]);
	}
	loom_hw_commit(ldev);
	if (!err)
		event = loom_genl_route_load_event(ldev);
out:
	loom_genl_dev_unlock(ldev);
	kvfree(table);
	loom_genl_route_notify(event);
	return loom_genl_card_failed(err, info->extack);
}
