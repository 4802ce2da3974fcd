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
 * Return: 0, -EMSGSIZE, or -EIO when the card failed.  Attributes whose
 * block the card lacks are left out.
 */
int loom_genl_fill_dev_settings(struct sk_buff *skb, struct loom_dev *ldev)
{
	u32 v;
	int err;

	if (ldev->blk_ports.size) {
		err = loom_hw_fp_timeout(ldev, &v);
		if (err)
			return err;
		if (nla_put_u32(skb, LOOM_ATTR_DEV_FP_TIMEOUT_MS, v))
			return -EMSGSIZE;
	}
	if (loom_hw_link_present(ldev)) {
		err = loom_hw_lane_threshold(ldev, &v);
		if (err)
			return err;
		if (nla_put_u32(skb, LOOM_ATTR_DEV_LANE_THRESHOLD, v))
			return -EMSGSIZE;
	}
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
	if (logical && nla_get_u32(logical) >= ldev->geo.rt_entries) {
		NL_SET_ERR_MSG_ATTR(info->extack, logical,
				    "logical id out of range: beyond the card's routing table");
		err = -ERANGE;
		goto out;
	}
	if (fp && !ldev->blk_ports.size) {
		NL_SET_ERR_MSG_ATTR(info->extack, fp,
				    "the card has no PORTS register block: no forward-progress timer");
		err = -EOPNOTSUPP;
		goto out;
	}
	if (lanes && !loom_hw_link_present(ldev)) {
		NL_SET_ERR_MSG_ATTR(info->extack, lanes,
				    "the card has no LINK register block: no lane threshold");
		err = -EOPNOTSUPP;
		goto out;
	}
	err = loom_genl_card_alive(ldev, info->extack);
	if (!err && logical)
		err = loom_hw_set_logical_id(ldev, nla_get_u32(logical));
	if (!err && fp)
		err = loom_hw_set_fp_timeout(ldev, nla_get_u32(fp));
	if (!err && lanes)
		err = loom_hw_set_lane_threshold(ldev, nla_get_u32(lanes));
	if (!err)
		loom_hw_commit(ldev);
out:
	loom_genl_dev_unlock(ldev);
	return loom_genl_card_failed(err, info->extack);
}
