// SPDX-License-Identifier: GPL-2.0
/*
 * Partitions: the network key a context carries decides which remote
 * segments it may reach, so who may create a context with which key is a
 * privilege.  Each card keeps a small table of grants (key -> user or
 * group), changed with LOOM_CMD_KEY_GRANT/KEY_REVOKE and listed with
 * LOOM_CMD_KEY_GET (all three need CAP_NET_ADMIN).  A context is created
 * with key K only when the process holds CAP_NET_ADMIN, or a grant of K
 * names its fsuid or one of its groups, or the module parameter
 * open_partition is set.  Revoking a grant does not stop contexts already
 * created with it.  The key goes into the context's record on the card,
 * and into the BSU units granted to the context: the card stamps it on
 * every request and barrier packet and refuses those of other partitions
 * (Documentation/hw/partitions.rst).
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/module.h>

#include "loom_drv.h"
#include "loom_genl.h"

bool loom_open_partition;
module_param_named(open_partition, loom_open_partition, bool, 0644);
MODULE_PARM_DESC(open_partition,
		 "Let every user create contexts with any key, as if every key were granted to everyone (default N: unprivileged users need a grant, see loomctl key grant)");

static bool loom_grant_matches_me(const struct loom_key_grant *g)
{
	if (g->is_group)
		return in_group_p(g->gid);
	return uid_eq(g->uid, current_fsuid());
}

/**
 * loom_keys_check() - may the current process create a context with @key?
 * @ldev: the card; caller holds ldev->lock
 * @key: the context's network key
 *
 * Return: 0, or -EACCES when it holds no grant of @key, no CAP_NET_ADMIN
 * and open_partition is off.
 */
int loom_keys_check(struct loom_dev *ldev, u32 key)
{
	const struct loom_keys *k = &ldev->keys;
	unsigned int i;

	if (READ_ONCE(loom_open_partition))
		return 0;
	for (i = 0; i < k->n; i++)
		if (k->grant[i].key == key && loom_grant_matches_me(&k->grant[i]))
			return 0;
	if (ns_capable_noaudit(&init_user_ns, CAP_NET_ADMIN))
		return 0;
	return -EACCES;
}

/**
 * loom_keys_bsu_grant() - put a new context's BSUs in its partition
 * @ldev: the card, locked
 * @ctx: the context being programmed; its units are granted already
 *
 * Writes each granted unit's LOOM_BSU_KEY word with the context's key,
 * then the OWNED bits (loom_keys_bsu_sync()): from then on the card
 * refuses barrier packets of other partitions for these units.
 */
void loom_keys_bsu_grant(struct loom_dev *ldev, struct loom_ctx *ctx)
{
	unsigned long mask = ctx->bsu_mask;
	unsigned int bsu;

	lockdep_assert_held(&ldev->lock);
	if (!mask || ldev->dead)
		return;
	for_each_set_bit(bsu, &mask, LOOM_BSU_COUNT)
		if (loom_hw_bsu_set_partition(ldev, bsu, ctx->key))
			return;	/* a card without partitions, or failed */
	loom_keys_bsu_sync(ldev);
}

/**
 * loom_keys_bsu_sync() - tell the card which BSUs belong to a partition
 * @ldev: the card, locked
 *
 * LOOM_BSU_OWNED gets exactly the granted units: a unit released is no
 * longer checked (it only passes barriers on, if its tree says so).
 */
void loom_keys_bsu_sync(struct loom_dev *ldev)
{
	lockdep_assert_held(&ldev->lock);
	if (!ldev->dead && !loom_hw_bsu_set_owned(ldev, ldev->bsu_busy))
		loom_hw_commit(ldev);
}

/* The KEY nest of a request as a grant; the ids are of the caller's ns. */
static int loom_keys_parse(struct genl_info *info, struct loom_key_grant *g)
{
	struct nlattr *attr = info->attrs[LOOM_ATTR_KEY];
	struct nlattr *tb[LOOM_ATTR_KEY_MAX + 1];
	int err;

	if (!attr) {
		NL_SET_ERR_MSG_MOD(info->extack, "missing LOOM_ATTR_KEY");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, LOOM_ATTR_KEY_MAX, attr, loom_genl_key_policy,
			       info->extack);
	if (err)
		return err;
	if (!tb[LOOM_ATTR_KEY_VALUE]) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "missing LOOM_ATTR_KEY_VALUE");
		return -EINVAL;
	}
	if (!tb[LOOM_ATTR_KEY_UID] == !tb[LOOM_ATTR_KEY_GID]) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "give exactly one of LOOM_ATTR_KEY_UID and LOOM_ATTR_KEY_GID");
		return -EINVAL;
	}
	memset(g, 0, sizeof(*g));
	g->key = nla_get_u32(tb[LOOM_ATTR_KEY_VALUE]);
	if (tb[LOOM_ATTR_KEY_GID]) {
		g->is_group = true;
		g->gid = make_kgid(current_user_ns(),
				   nla_get_u32(tb[LOOM_ATTR_KEY_GID]));
		if (!gid_valid(g->gid)) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[LOOM_ATTR_KEY_GID],
					    "not a valid group id");
			return -EINVAL;
		}
	} else {
		g->uid = make_kuid(current_user_ns(),
				   nla_get_u32(tb[LOOM_ATTR_KEY_UID]));
		if (!uid_valid(g->uid)) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[LOOM_ATTR_KEY_UID],
					    "not a valid user id");
			return -EINVAL;
		}
	}
	return 0;
}

static int loom_keys_find(const struct loom_keys *k,
			  const struct loom_key_grant *g)
{
	unsigned int i;

	for (i = 0; i < k->n; i++) {
		const struct loom_key_grant *e = &k->grant[i];

		if (e->key != g->key || e->is_group != g->is_group)
			continue;
		if (g->is_group ? gid_eq(e->gid, g->gid) : uid_eq(e->uid, g->uid))
			return i;
	}
	return -1;
}

int loom_genl_key_grant_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct loom_key_grant g;
	struct loom_dev *ldev;
	struct loom_keys *k;
	int err;

	err = loom_keys_parse(info, &g);
	if (err)
		return err;
	ldev = loom_genl_dev_lock(info->attrs, info->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	k = &ldev->keys;
	if (loom_keys_find(k, &g) >= 0) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[LOOM_ATTR_KEY],
				    "this key is already granted to this user or group");
		err = -EEXIST;
	} else if (k->n >= LOOM_KEY_GRANTS) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[LOOM_ATTR_KEY],
				    "the card's grant table is full (256 grants): revoke some, or grant to a group");
		err = -ENOSPC;
	} else {
		k->grant[k->n++] = g;
	}
	loom_genl_dev_unlock(ldev);
	return err;
}

int loom_genl_key_revoke_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct loom_key_grant g;
	struct loom_dev *ldev;
	struct loom_keys *k;
	int i, err;

	err = loom_keys_parse(info, &g);
	if (err)
		return err;
	ldev = loom_genl_dev_lock(info->attrs, info->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	k = &ldev->keys;
	i = loom_keys_find(k, &g);
	if (i < 0) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[LOOM_ATTR_KEY],
				    "no such grant: see loomctl key show");
		err = -ENOENT;
	} else {
		k->grant[i] = k->grant[--k->n];
	}
	loom_genl_dev_unlock(ldev);
	return err;
}

static int loom_keys_fill(struct sk_buff *skb, struct loom_dev *ldev,
			  const struct loom_key_grant *g)
{
	struct nlattr *nest;

	if (nla_put_u32(skb, LOOM_ATTR_DEV_INDEX, ldev->minor))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, LOOM_ATTR_KEY);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, LOOM_ATTR_KEY_VALUE, g->key) ||
	    (g->is_group ?
	     nla_put_u32(skb, LOOM_ATTR_KEY_GID,
			 from_kgid_munged(current_user_ns(), g->gid)) :
	     nla_put_u32(skb, LOOM_ATTR_KEY_UID,
			 from_kuid_munged(current_user_ns(), g->uid)))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int loom_keys_dump_fill(struct sk_buff *skb, struct loom_dev *ldev,
			       u32 i, const void *unused)
{
	return loom_keys_fill(skb, ldev, &ldev->keys.grant[i]);
}

/* cb->args[0]: next grant (the table is packed; a revoke meanwhile may
 * move the last grant into a slot already dumped)
 */
int loom_genl_key_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct loom_dev *ldev;
	int err;

	ldev = loom_genl_dev_lock(info->attrs, cb->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	err = loom_genl_dump_entries(skb, cb, ldev, LOOM_CMD_KEY_GET,
				     ldev->keys.n, loom_keys_dump_fill, NULL);
	loom_genl_dev_unlock(ldev);
	return loom_genl_dump_done(skb, cb, err);
}
