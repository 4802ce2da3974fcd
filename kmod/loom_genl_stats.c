// SPDX-License-Identifier: GPL-2.0
/*
 * LOOM_CMD_STATS_GET of the "loom" family: a dump of the COUNTERS block,
 * one STATS message per (port, VC) record of every port (zero or not: the
 * reader decides what to hide), then one DROPS message with the card-wide
 * drops by cause.  A dump that fills its buffer resumes where it stopped:
 * cb->args[0] is the next record, cb->args[1] is set once DROPS is sent.
 * The card's counters are 32 bits wide and wrap; they travel as u64 so
 * that a wider card needs no new attribute.
 */
#include <linux/kernel.h>
#include <linux/minmax.h>

#include "loom_drv.h"
#include "loom_genl.h"

/* attribute of each counter of loom_hw_cnt_record() */
static const int loom_stats_attrs[LOOM_HW_CNT_REC_WORDS] = {
	LOOM_ATTR_STATS_TX_PKTS, LOOM_ATTR_STATS_TX_BYTES,
	LOOM_ATTR_STATS_RX_PKTS, LOOM_ATTR_STATS_CREDIT_STALLS,
	LOOM_ATTR_STATS_ADAPTIVE, LOOM_ATTR_STATS_DETERMINISTIC,
	LOOM_ATTR_STATS_DROPS_DISABLED, LOOM_ATTR_STATS_DROPS_DEAD,
};

/* attribute of each counter of loom_hw_cnt_drops() */
static const int loom_stats_drop_attrs[LOOM_HW_CNT_DROPS] = {
	LOOM_ATTR_DROPS_KEY, LOOM_ATTR_DROPS_BOUNDS, LOOM_ATTR_DROPS_NO_CTX,
	LOOM_ATTR_DROPS_NO_ROUTE, LOOM_ATTR_DROPS_HOP_LIMIT,
	LOOM_ATTR_DROPS_MALFORMED, LOOM_ATTR_DROPS_MAINT_LOST,
	LOOM_ATTR_DROPS_BSU_KEY,
};

static int loom_stats_fill_rec(struct sk_buff *skb, struct loom_dev *ldev,
			       u32 rec, u32 n_vcs)
{
	u32 vals[LOOM_HW_CNT_REC_WORDS];
	struct nlattr *nest;
	int err;

	err = loom_hw_cnt_record(ldev, rec, vals);
	if (err)
		return err;
	if (nla_put_u32(skb, LOOM_ATTR_DEV_INDEX, ldev->minor))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, LOOM_ATTR_STATS);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, LOOM_ATTR_STATS_PORT, rec / n_vcs) ||
	    nla_put_u32(skb, LOOM_ATTR_STATS_VC, rec % n_vcs))
		goto cancel;
	if (loom_genl_put_counters(skb, loom_stats_attrs, vals,
				   LOOM_HW_CNT_REC_WORDS, LOOM_ATTR_STATS_PAD))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int loom_stats_fill_drops(struct sk_buff *skb, struct loom_dev *ldev)
{
	u32 vals[LOOM_HW_CNT_DROPS];
	struct nlattr *nest;
	int err;

	err = loom_hw_cnt_drops(ldev, vals);
	if (err)
		return err;
	if (nla_put_u32(skb, LOOM_ATTR_DEV_INDEX, ldev->minor))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, LOOM_ATTR_DROPS);
	if (!nest)
		return -EMSGSIZE;
	if (loom_genl_put_counters(skb, loom_stats_drop_attrs, vals,
				   LOOM_HW_CNT_DROPS, LOOM_ATTR_DROPS_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* One message of the dump; 0, -EMSGSIZE when @skb is full, or -EIO. */
static int loom_stats_msg(struct sk_buff *skb, struct netlink_callback *cb,
			  struct loom_dev *ldev, bool drops, u32 rec, u32 n_vcs)
{
	void *hdr = loom_genl_put_hdr(skb, cb, LOOM_CMD_STATS_GET);
	int err;

	if (!hdr)
		return -EMSGSIZE;
	err = drops ? loom_stats_fill_drops(skb, ldev) :
		      loom_stats_fill_rec(skb, ldev, rec, n_vcs);
	if (err) {
		genlmsg_cancel(skb, hdr);
		return err;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

int loom_genl_stats_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	u32 rec, n, n_vcs;
	struct loom_dev *ldev;
	int err = 0;

	ldev = loom_genl_dev_lock(info->attrs, cb->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	n = loom_hw_cnt_records(ldev, &n_vcs);
	if (!n_vcs) {
		loom_genl_dev_unlock(ldev);
		NL_SET_ERR_MSG_MOD(cb->extack,
				   "the card has no COUNTERS register block");
		return -EOPNOTSUPP;
	}
	for (rec = cb->args[0]; rec < n; rec++) {
		err = loom_stats_msg(skb, cb, ldev, false, rec, n_vcs);
		if (err)
			break;
	}
	cb->args[0] = rec;
	if (!err && !cb->args[1]) {
		err = loom_stats_msg(skb, cb, ldev, true, 0, 0);
		if (!err)
			cb->args[1] = 1;
	}
	loom_genl_dev_unlock(ldev);
	return loom_genl_dump_done(skb, cb, loom_genl_card_failed(err, cb->extack));
}
