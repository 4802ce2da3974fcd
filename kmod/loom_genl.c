// SPDX-License-Identifier: GPL-2.0
/*
 * The "loom" generic netlink family: its policies, operations and
 * multicast group, the lookup of a card by LOOM_ATTR_DEV_INDEX, and
 * LOOM_CMD_DEV_GET.  Routes, ports, card settings, VC tables, counters,
 * partition keys and multicast groups are in loom_genl_route.c,
 * loom_genl_port.c, loom_genl_dev.c, loom_genl_vc.c, loom_genl_stats.c,
 * loom_keys.c and loom_genl_mcast.c.
 * Registered after the PCI driver, unregistered before it; handlers reach
 * registers only under ldev->lock with the card alive.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "loom_drv.h"
#include "loom_genl.h"

const struct nla_policy loom_genl_route_policy[LOOM_ATTR_ROUTE_MAX + 1] = {
	[LOOM_ATTR_ROUTE_DEST] = NLA_POLICY_MAX(NLA_U32, LOOM_MAX_NODES - 1),
	[LOOM_ATTR_ROUTE_PORT] = NLA_POLICY_MAX(NLA_U32, LOOM_ROUTE_PORT_HOST),
	[LOOM_ATTR_ROUTE_PHYS_DEST] = NLA_POLICY_MAX(NLA_U32, LOOM_MAX_NODES - 1),
	[LOOM_ATTR_ROUTE_ADAPTIVE] = { .type = NLA_FLAG },
	[LOOM_ATTR_ROUTE_VALID] = { .type = NLA_FLAG },
};

const struct nla_policy loom_genl_port_policy[LOOM_ATTR_PORT_MAX + 1] = {
	[LOOM_ATTR_PORT_INDEX] = NLA_POLICY_MAX(NLA_U32, LOOM_MAX_PORTS - 1),
	[LOOM_ATTR_PORT_CABLED] = { .type = NLA_FLAG },
	[LOOM_ATTR_PORT_UP] = { .type = NLA_FLAG },
	[LOOM_ATTR_PORT_PEER_NODE] = { .type = NLA_U32 },
	[LOOM_ATTR_PORT_PEER_PORT] = { .type = NLA_U32 },
	[LOOM_ATTR_PORT_TX_FRAMES] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_RX_FRAMES] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_TX_BYTES] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_RX_BYTES] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_CRC_ERRORS] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_SEQ_ERRORS] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_DROPS] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_ENABLED] = NLA_POLICY_MAX(NLA_U8, 1),
	[LOOM_ATTR_PORT_DEAD] = { .type = NLA_FLAG },
	[LOOM_ATTR_PORT_DISABLED] = { .type = NLA_FLAG },
	[LOOM_ATTR_PORT_LANES] = { .type = NLA_U32 },
	[LOOM_ATTR_PORT_RETRIES] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_NAKS_SENT] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_REPLAYED] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_ACK_TIMEOUTS] = { .type = NLA_U64 },
};

const struct nla_policy loom_genl_vct_policy[LOOM_ATTR_VCT_MAX + 1] = {
	[LOOM_ATTR_VCT_PORT_INDEX] = NLA_POLICY_MAX(NLA_U32, LOOM_MAX_PORTS - 1),
	[LOOM_ATTR_VCT_PORT_DIM] = NLA_POLICY_MAX(NLA_U32, LOOM_VCT_DIM_NONE),
	[LOOM_ATTR_VCT_PORT_DATELINE] = NLA_POLICY_MAX(NLA_U8, 1),
};

const struct nla_policy loom_genl_key_policy[LOOM_ATTR_KEY_MAX + 1] = {
	[LOOM_ATTR_KEY_VALUE] = { .type = NLA_U32 },
	[LOOM_ATTR_KEY_UID] = { .type = NLA_U32 },
	[LOOM_ATTR_KEY_GID] = { .type = NLA_U32 },
};

/* forward-progress timeout: up to an hour (0 = off) */
static struct netlink_range_validation loom_genl_fp_timeout_range = {
	.max = 3600000,
};

/* lane errors per window that drop a lane */
static struct netlink_range_validation loom_genl_lane_threshold_range = {
	.min = 1,
	.max = 65535,
};

static const struct nla_policy loom_genl_policy[LOOM_ATTR_MAX + 1] = {
	[LOOM_ATTR_DEV_INDEX] = NLA_POLICY_MAX(NLA_U32, LOOM_MAX_DEVS - 1),
	[LOOM_ATTR_DEV_PCI_NAME] = { .type = NLA_NUL_STRING, .len = 32 },
	[LOOM_ATTR_DEV_NODE_ID] = { .type = NLA_U32 },
	[LOOM_ATTR_DEV_LOGICAL_ID] = NLA_POLICY_MAX(NLA_U32, LOOM_MAX_NODES - 1),
	[LOOM_ATTR_DEV_N_PORTS] = { .type = NLA_U32 },
	[LOOM_ATTR_DEV_N_CONTEXTS] = { .type = NLA_U32 },
	[LOOM_ATTR_DEV_RT_ENTRIES] = { .type = NLA_U32 },
	[LOOM_ATTR_DEV_FW_VERSION] = { .type = NLA_U32 },
	[LOOM_ATTR_DEV_FW_BUILD_ID] = { .type = NLA_U32 },
	[LOOM_ATTR_DEV_FW_BUILD_TIME] = { .type = NLA_U64 },
	[LOOM_ATTR_DEV_FW_DESC] = { .type = NLA_NUL_STRING,
				    .len = LOOM_FWID_DESC_LEN },
	[LOOM_ATTR_DEV_EMULATED] = { .type = NLA_FLAG },
	[LOOM_ATTR_ROUTE] = NLA_POLICY_NESTED(loom_genl_route_policy),
	[LOOM_ATTR_PORT] = NLA_POLICY_NESTED(loom_genl_port_policy),
	[LOOM_ATTR_MAINT] = NLA_POLICY_NESTED(loom_genl_maint_policy),
	[LOOM_ATTR_DEV_FP_TIMEOUT_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &loom_genl_fp_timeout_range),
	[LOOM_ATTR_DEV_LANE_THRESHOLD] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &loom_genl_lane_threshold_range),
	[LOOM_ATTR_ROUTE_TABLE] = NLA_POLICY_NESTED_ARRAY(loom_genl_route_policy),
	[LOOM_ATTR_VCT_PORT] = NLA_POLICY_NESTED(loom_genl_vct_policy),
	[LOOM_ATTR_VCT_START_VC1] = NLA_POLICY_EXACT_LEN(LOOM_MAX_NODES / 8),
	[LOOM_ATTR_VCT_DEST] = NLA_POLICY_MAX(NLA_U32, LOOM_MAX_NODES - 1),
	[LOOM_ATTR_VCT_VC] = NLA_POLICY_MAX(NLA_U32, 1),
	[LOOM_ATTR_KEY] = NLA_POLICY_NESTED(loom_genl_key_policy),
	[LOOM_ATTR_BSU] = NLA_POLICY_NESTED(loom_genl_bsu_policy),
	[LOOM_ATTR_MCAST] = NLA_POLICY_NESTED(loom_genl_mcast_policy),
};

/*
 * Extack messages must outlive the request and 6.1 cannot format them, so
 * the few that carry numbers are written once at module init.
 */
#define LOOM_GENL_MSG_LEN	64
static char loom_genl_nodev_msg[LOOM_MAX_DEVS][LOOM_GENL_MSG_LEN];
static char loom_genl_port_msg[LOOM_ROUTE_PORT_HOST + 1][LOOM_MAX_PORTS + 1]
			      [LOOM_GENL_MSG_LEN];

static void loom_genl_msgs_init(void)
{
	unsigned int i, j;

	for (i = 0; i < LOOM_MAX_DEVS; i++)
		snprintf(loom_genl_nodev_msg[i], LOOM_GENL_MSG_LEN,
			 "no loom device with index %u", i);
	for (i = 0; i <= LOOM_ROUTE_PORT_HOST; i++)
		for (j = 0; j <= LOOM_MAX_PORTS; j++)
			snprintf(loom_genl_port_msg[i][j], LOOM_GENL_MSG_LEN,
				 "port %u out of range: card has %u port%s",
				 i, j, j == 1 ? "" : "s");
}

/**
 * loom_genl_err_attr() - explain a rejection with a message built at init
 * @extack: the request's extended ack, may be NULL
 * @attr: the offending attribute
 * @msg: the message, with static storage
 *
 * NL_SET_ERR_MSG_ATTR() takes only string literals.
 */
void loom_genl_err_attr(struct netlink_ext_ack *extack,
			const struct nlattr *attr, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	extack->bad_attr = attr;
}

/**
 * loom_genl_port_range_msg() - extack text for a port the card lacks
 * @port: the port asked for (at most LOOM_ROUTE_PORT_HOST)
 * @n_ports: network ports of the card
 *
 * Return: a message with static storage.
 */
const char *loom_genl_port_range_msg(u32 port, u32 n_ports)
{
	if (port > LOOM_ROUTE_PORT_HOST || n_ports > LOOM_MAX_PORTS)
		return "port out of range";
	return loom_genl_port_msg[port][n_ports];
}

/**
 * loom_genl_dev_lock() - the card named by LOOM_ATTR_DEV_INDEX, locked
 * @attrs: the request's parsed attributes
 * @extack: where rejections are explained
 *
 * Return: the card with a reference and ldev->lock held, alive (its
 * registers mapped), or an ERR_PTR: -EINVAL without the attribute,
 * -ENODEV when no card has that index or it is being removed, -EIO when
 * it failed (loom_hw.c).
 */
struct loom_dev *loom_genl_dev_lock(struct nlattr **attrs,
				    struct netlink_ext_ack *extack)
{
	struct nlattr *attr = attrs[LOOM_ATTR_DEV_INDEX];
	struct loom_dev *ldev;
	u32 index;

	if (!attr) {
		NL_SET_ERR_MSG_MOD(extack, "missing LOOM_ATTR_DEV_INDEX");
		return ERR_PTR(-EINVAL);
	}
	index = nla_get_u32(attr);
	ldev = loom_dev_get_by_minor(index);
	if (!ldev) {
		loom_genl_err_attr(extack, attr, loom_genl_nodev_msg[index]);
		return ERR_PTR(-ENODEV);
	}
	mutex_lock(&ldev->lock);
	if (loom_hw_failed(ldev)) {
		mutex_unlock(&ldev->lock);
		loom_dev_put(ldev);
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "the loom card failed (a register read out of range, see the kernel log): unbind and bind it to try again");
		return ERR_PTR(-EIO);
	}
	if (ldev->dead) {
		mutex_unlock(&ldev->lock);
		loom_dev_put(ldev);
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "the loom device is being removed");
		return ERR_PTR(-ENODEV);
	}
	return ldev;
}

/**
 * loom_genl_card_alive() - does the card still answer?  Checked before a
 *	change is written
 * @ldev: the card, locked
 * @extack: where a dead card is explained
 *
 * Return: 0, or -EIO when the firmware-id magic reads back wrong (which
 * fails the card) or the card failed before.
 */
int loom_genl_card_alive(struct loom_dev *ldev, struct netlink_ext_ack *extack)
{
	if (loom_hw_fwid_check(ldev)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the card's registers read back wrong (see the kernel log): is the card (or its emulator) still there?");
		return -EIO;
	}
	return 0;
}

/**
 * loom_genl_card_failed() - explain an -EIO from a register accessor
 * @err: what the accessor returned
 * @extack: where it is explained
 *
 * Return: @err.
 */
int loom_genl_card_failed(int err, struct netlink_ext_ack *extack)
{
	if (err == -EIO)
		NL_SET_ERR_MSG_MOD(extack,
				   "the loom card failed (a register read out of range, see the kernel log): unbind and bind it to try again");
	return err;
}

/**
 * loom_genl_dev_unlock() - undo loom_genl_dev_lock()
 * @ldev: the card
 */
void loom_genl_dev_unlock(struct loom_dev *ldev)
{
	mutex_unlock(&ldev->lock);
	loom_dev_put(ldev);
}

/**
 * loom_genl_put_hdr() - start one message of a dump
 * @skb: the dump's buffer
 * @cb: the dump
 * @cmd: command of the message
 *
 * Return: the user header, or NULL when @skb is full.
 */
void *loom_genl_put_hdr(struct sk_buff *skb, struct netlink_callback *cb,
			u8 cmd)
{
	return genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			   &loom_genl_family, NLM_F_MULTI, cmd);
}

/**
 * loom_genl_put_counters() - put card counters as 64-bit attributes
 * @skb: the message
 * @attrs: attribute of each counter
 * @vals: the counters, as the card's block file read them
 * @n: entries in @attrs and @vals
 * @pad: the padding attribute of the enclosing nest
 *
 * Return: 0, or -EMSGSIZE when @skb is full (the caller cancels its nest).
 */
int loom_genl_put_counters(struct sk_buff *skb, const int *attrs,
			   const u32 *vals, size_t n, int pad)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (nla_put_u64_64bit(skb, attrs[i], vals[i], pad))
			return -EMSGSIZE;
	return 0;
}

/**
 * loom_genl_dump_entries() - one dump message per entry of a card table
 * @skb: the dump's buffer
 * @cb: the dump; cb->args[0] is the next entry, left at the first not put
 * @ldev: the card, locked
 * @cmd: command of the messages
 * @n: entries in the table
 * @fill: puts entry @idx into @skb
 * @arg: passed to @fill
 *
 * Return: 0 when every entry is in, -EMSGSIZE when @skb is full, or what
 * @fill returned.
 */
int loom_genl_dump_entries(struct sk_buff *skb, struct netlink_callback *cb,
			   struct loom_dev *ldev, u8 cmd, u32 n,
			   loom_genl_entry_fill_t fill, const void *arg)
{
	int err = 0;
	u32 idx;

	for (idx = cb->args[0]; idx < n; idx++) {
		void *hdr = loom_genl_put_hdr(skb, cb, cmd);

		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		err = fill(skb, ldev, idx, arg);
		if (err) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = idx;
	return err;
}

/**
 * loom_genl_dump_done() - what a dump callback returns
 * @skb: the dump's buffer
 * @cb: the dump
 * @err: 0 or the error that stopped this round
 *
 * A full buffer only ends the round: the dump goes on in the next one.
 * An error with nothing in the buffer ends the dump; -EMSGSIZE then means
 * one entry does not fit in an empty message, and the extack says so.
 *
 * Return: the bytes in @skb, or @err.
 */
int loom_genl_dump_done(struct sk_buff *skb, struct netlink_callback *cb,
			int err)
{
	if (!err || skb->len)
		return skb->len;
	if (err == -EMSGSIZE)
		NL_SET_ERR_MSG_MOD(cb->extack,
				   "one entry does not fit in an empty dump message");
	return err;
}

static int loom_genl_fill_dev(struct sk_buff *skb, struct loom_dev *ldev)
{
	u32 logical;
	int err;

	err = loom_hw_logical_id(ldev, &logical);
	if (err)
		return err;
	if (nla_put_u32(skb, LOOM_ATTR_DEV_INDEX, ldev->minor) ||
	    nla_put_string(skb, LOOM_ATTR_DEV_PCI_NAME, pci_name(ldev->pdev)) ||
	    nla_put_u32(skb, LOOM_ATTR_DEV_NODE_ID, ldev->geo.node_id) ||
	    nla_put_u32(skb, LOOM_ATTR_DEV_LOGICAL_ID, logical) ||
	    nla_put_u32(skb, LOOM_ATTR_DEV_N_PORTS, ldev->n_ports) ||
	    nla_put_u32(skb, LOOM_ATTR_DEV_N_CONTEXTS, ldev->n_ctx) ||
	    nla_put_u32(skb, LOOM_ATTR_DEV_RT_ENTRIES, ldev->geo.rt_entries) ||
	    nla_put_u32(skb, LOOM_ATTR_DEV_FW_VERSION,
			ldev->fwid.design_version) ||
	    nla_put_u32(skb, LOOM_ATTR_DEV_FW_BUILD_ID, ldev->fwid.build_id) ||
	    nla_put_u64_64bit(skb, LOOM_ATTR_DEV_FW_BUILD_TIME,
			      ldev->fwid.build_time, LOOM_ATTR_PAD) ||
	    nla_put_string(skb, LOOM_ATTR_DEV_FW_DESC, ldev->fwid.desc))
		return -EMSGSIZE;
	if ((ldev->fwid.flags & LOOM_FWID_F_EMULATED) &&
	    nla_put_flag(skb, LOOM_ATTR_DEV_EMULATED))
		return -EMSGSIZE;
	return loom_genl_fill_dev_settings(skb, ldev);
}

/**
 * loom_genl_reply() - answer a request with one message
 * @info: the request; its LOOM_ATTR_DEV_INDEX names the card
 * @cmd: command of the reply
 * @fill: checks the rest of the request and puts the reply's attributes;
 *        called with the card locked and alive and the reply header in place
 *
 * Return: 0 once the reply is sent, or a negative errno (the extack says
 * why, set by the card lookup or by @fill).
 */
int loom_genl_reply(struct genl_info *info, u8 cmd,
		    int (*fill)(struct sk_buff *msg, struct loom_dev *ldev,
				struct genl_info *info))
{
	struct loom_dev *ldev;
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "out of memory for the reply: try again");
		return -ENOMEM;
	}
	ldev = loom_genl_dev_lock(info->attrs, info->extack);
	if (IS_ERR(ldev)) {
		nlmsg_free(msg);
		return PTR_ERR(ldev);
	}
	hdr = genlmsg_put_reply(msg, info, &loom_genl_family, 0, cmd);
	err = hdr ? fill(msg, ldev, info) : -EMSGSIZE;
	loom_genl_dev_unlock(ldev);
	if (err) {
		if (err == -EMSGSIZE)
			NL_SET_ERR_MSG_MOD(info->extack,
					   "the reply does not fit in one message");
		else if (info->extack && !info->extack->_msg)
			loom_genl_card_failed(err, info->extack);
		nlmsg_free(msg);
		return err;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int loom_genl_dev_reply_fill(struct sk_buff *msg, struct loom_dev *ldev,
				    struct genl_info *info)
{
	return loom_genl_fill_dev(msg, ldev);
}

static int loom_genl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return loom_genl_reply(info, LOOM_CMD_DEV_GET, loom_genl_dev_reply_fill);
}

/* cb->args[0]: index of the next card to dump */
static int loom_genl_dev_get_dumpit(struct sk_buff *skb,
				    struct netlink_callback *cb)
{
	unsigned long index = cb->args[0];
	struct loom_dev *ldev;
	int err = 0;

	while ((ldev = loom_dev_get_next(&index))) {
		void *hdr;

		mutex_lock(&ldev->lock);
		if (ldev->dead || loom_hw_failed(ldev)) {
			err = 0;
			hdr = NULL;
		} else {
			hdr = loom_genl_put_hdr(skb, cb, LOOM_CMD_DEV_GET);
			err = hdr ? loom_genl_fill_dev(skb, ldev) : -EMSGSIZE;
		}
		mutex_unlock(&ldev->lock);
		loom_dev_put(ldev);
		if (err) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			break;
		}
		if (hdr)
			genlmsg_end(skb, hdr);
		index++;
	}
	cb->args[0] = index;
	/* a card too big for an empty buffer would loop forever */
	return loom_genl_dump_done(skb, cb, err);
}

static const struct genl_ops loom_genl_ops[] = {
	{
		.cmd = LOOM_CMD_DEV_GET,
		.doit = loom_genl_dev_get_doit,
		.dumpit = loom_genl_dev_get_dumpit,
	},
	{
		.cmd = LOOM_CMD_ROUTE_GET,
		.doit = loom_genl_route_get_doit,
		.dumpit = loom_genl_route_get_dumpit,
	},
	{
		.cmd = LOOM_CMD_ROUTE_SET,
		.doit = loom_genl_route_set_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = LOOM_CMD_ROUTE_DEL,
		.doit = loom_genl_route_del_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = LOOM_CMD_PORT_GET,
		.doit = loom_genl_port_get_doit,
		.dumpit = loom_genl_port_get_dumpit,
	},
	{
		.cmd = LOOM_CMD_MAINT,
		.doit = loom_genl_maint_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = LOOM_CMD_DEV_SET,
		.doit = loom_genl_dev_set_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = LOOM_CMD_ROUTE_LOAD,
		.doit = loom_genl_route_load_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = LOOM_CMD_PORT_SET,
		.doit = loom_genl_port_set_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = LOOM_CMD_VC_GET,
		.doit = loom_genl_vc_get_doit,
	},
	{
		.cmd = LOOM_CMD_VC_SET,
		.doit = loom_genl_vc_set_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = LOOM_CMD_STATS_GET,
		.dumpit = loom_genl_stats_get_dumpit,
		.done = loom_genl_stats_get_done,
	},
	{
		.cmd = LOOM_CMD_KEY_GRANT,
		.doit = loom_genl_key_grant_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = LOOM_CMD_KEY_REVOKE,
		.doit = loom_genl_key_revoke_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = LOOM_CMD_KEY_GET,
		.dumpit = loom_genl_key_get_dumpit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = LOOM_CMD_BSU_GET,
		.doit = loom_genl_bsu_get_doit,
		.dumpit = loom_genl_bsu_get_dumpit,
	},
	{
		.cmd = LOOM_CMD_BSU_SET,
		.doit = loom_genl_bsu_set_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = LOOM_CMD_MCAST_SET,
		.doit = loom_genl_mcast_set_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = LOOM_CMD_MCAST_DEL,
		.doit = loom_genl_mcast_del_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = LOOM_CMD_MCAST_GET,
		.doit = loom_genl_mcast_get_doit,
		.dumpit = loom_genl_mcast_get_dumpit,
	},
};

/*
 * The maintenance group carries what admin-only maintenance reads return:
 * the netlink core refuses an unprivileged join (GENL_MCAST_CAP_NET_ADMIN).
 * A kernel without that flag gets no maintenance multicast at all
 * (loom_genl_maint.c): each answer then goes to its requester only.
 */
static const struct genl_multicast_group loom_genl_mcgrps[] = {
	[LOOM_GENL_MCGRP_EVENTS_ID] = { .name = LOOM_GENL_MCGRP_EVENTS },
	[LOOM_GENL_MCGRP_MAINT_ID] = {
		.name = LOOM_GENL_MCGRP_MAINT,
#ifdef LOOM_HAVE_GENL_MCAST_CAP
		.flags = GENL_MCAST_CAP_NET_ADMIN,
#endif
	},
};

struct genl_family loom_genl_family = {
	.name = LOOM_GENL_NAME,
	.version = LOOM_GENL_VERSION,
	.maxattr = LOOM_ATTR_MAX,
	.policy = loom_genl_policy,
	.netnsok = false,
	/*
	 * No genl_mutex around the handlers: LOOM_CMD_MAINT sleeps for up to
	 * TIMEOUT_MS per attempt, which must not stall every generic netlink
	 * family of the system.  Every handler serialises on its card's
	 * ldev->lock (and the maintenance channel on its own mutex) already.
	 */
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = loom_genl_ops,
	.n_ops = ARRAY_SIZE(loom_genl_ops),
	.mcgrps = loom_genl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(loom_genl_mcgrps),
};

/**
 * loom_genl_init() - register the "loom" generic netlink family
 *
 * Return: 0 or a negative errno.
 */
int loom_genl_init(void)
{
	loom_genl_msgs_init();
	return genl_register_family(&loom_genl_family);
}

/**
 * loom_genl_exit() - unregister the family; no handler runs afterwards
 */
void loom_genl_exit(void)
{
	genl_unregister_family(&loom_genl_family);
}
