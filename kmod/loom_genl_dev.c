// SPDX-License-Identifier: GPL-2.0
/*
 * LOOM_CMD_DEV_SET of the "loom" family: the card-wide settings, i.e. the
 * logical node id (router block), the forward-progress timeout (PORTS
 * block) and the lane-drop threshold (LINK block).  The whole request is
 * checked before anything is written, so a refusal changes nothing.
 */
#include <linux/kernel.h>

#include "loom_drv.h"
#include "loom_genl.h"

/**
 * loom_genl_fill_dev_settings() - the DEV_SET attributes as they are now
 * @skb: the message
 * @ldev: the card, alive
 *
 * Return: 0 or -EMSGSIZE.  Attributes whose block the card lacks are left
 * out.
 */
int loom_genl_fill_dev_settings(struct sk_buff *skb, struct loom_dev *ldev)
{
	if (ldev->blk_ports.size >= LOOM_PORTS_BASE &&
	    nla_put_u32(skb, LOOM_ATTR_DEV_FP_TIMEOUT_MS,
			loom_rd(ldev, ldev->blk_ports.off +
				LOOM_PORTS_FP_TIMEOUT_MS)))
		return -EMSGSIZE;
	if (ldev->blk_link.size >= LOOM_LINK_BASE &&
	    nla_put_u32(skb, LOOM_ATTR_DEV_LANE_THRESHOLD,
			loom_rd(ldev, ldev->blk_link.off +
				LOOM_LINK_LANE_THRESHOLD)))
		return -EMSGSIZE;
	return 0;
}

int loom_genl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *logical = info->attrs[LOOM_ATTR_DEV_LOGICAL_ID];
	struct nlattr *fp = info->attrs[LOOM_ATTR_DEV_FP_TIMEOUT_MS];
	struct nlattr *lanes = info->attrs[LOOM_ATTR_DEV_LANE_THRESHOLD];
	struct loom_dev *ldev;
	int err;

	if (!logical && !fp && !lanes) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "nothing to set: give LOOM_ATTR_DEV_LOGICAL_ID, LOOM_ATTR_DEV_FP_TIMEOUT_MS or LOOM_ATTR_DEV_LANE_THRESHOLD");
		return -EINVAL;
	}
	ldev = loom_genl_dev_lock(info->attrs, info->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	if (logical && nla_get_u32(logical) >= loom_rt_entries(ldev)) {
		NL_SET_ERR_MSG_ATTR(info->extack, logical,
				    "logical id out of range: beyond the card's routing table");
		err = -ERANGE;
		goto out;
	}
	if (fp && ldev->blk_ports.size < LOOM_PORTS_BASE) {
		NL_SET_ERR_MSG_ATTR(info->extack, fp,
				    "the card has no PORTS register block: no forward-progress timer");
		err = -EOPNOTSUPP;
		goto out;
	}
	if (lanes && ldev->blk_link.size < LOOM_LINK_BASE) {
		NL_SET_ERR_MSG_ATTR(info->extack, lanes,
				    "the card has no LINK register block: no lane threshold");
		err = -EOPNOTSUPP;
		goto out;
	}
	err = loom_genl_card_alive(ldev, info->extack);
	if (err)
		goto out;
	if (logical)
		loom_wr(ldev, ldev->blk_router.off + LOOM_ROUTER_LOGICAL_ID,
			nla_get_u32(logical));
	if (fp)
		loom_wr(ldev, ldev->blk_ports.off + LOOM_PORTS_FP_TIMEOUT_MS,
			nla_get_u32(fp));
	if (lanes)
		loom_wr(ldev, ldev->blk_link.off + LOOM_LINK_LANE_THRESHOLD,
			nla_get_u32(lanes));
	ldev->hal->kick(ldev, LOOM_KICK_ADMIN);
out:
	loom_genl_dev_unlock(ldev);
	return err;
}
