/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "loom" generic netlink family (include/uapi/linux/loom_netlink.h):
 * what its files share.  Every handler finds its card with
 * loom_genl_dev_lock(), which returns the card locked and alive.
 */
#ifndef LOOM_GENL_H
#define LOOM_GENL_H

#include <net/genetlink.h>

#include <linux/loom_netlink.h>

struct loom_dev;

extern struct genl_family loom_genl_family;

int loom_genl_init(void);
void loom_genl_exit(void);

struct loom_dev *loom_genl_dev_lock(struct nlattr **attrs,
				    struct netlink_ext_ack *extack);
void loom_genl_dev_unlock(struct loom_dev *ldev);
int loom_genl_card_alive(struct loom_dev *ldev, struct netlink_ext_ack *extack);
int loom_genl_card_failed(int err, struct netlink_ext_ack *extack);
const char *loom_genl_port_range_msg(u32 port, u32 n_ports);
void loom_genl_err_attr(struct netlink_ext_ack *extack,
			const struct nlattr *attr, const char *msg);
void *loom_genl_put_hdr(struct sk_buff *skb, struct netlink_callback *cb,
			u8 cmd);
int loom_genl_reply(struct genl_info *info, u8 cmd,
		    int (*fill)(struct sk_buff *msg, struct loom_dev *ldev,
				struct genl_info *info));

/* Puts entry @idx of a table into a dump message (loom_genl_dump_entries). */
typedef int (*loom_genl_entry_fill_t)(struct sk_buff *skb,
				      struct loom_dev *ldev, u32 idx,
				      const void *arg);
int loom_genl_dump_done(struct sk_buff *skb, struct netlink_callback *cb,
			int err);
int loom_genl_dump_entries(struct sk_buff *skb, struct netlink_callback *cb,
			   struct loom_dev *ldev, u8 cmd, u32 n,
			   loom_genl_entry_fill_t fill, const void *arg);
int loom_genl_put_counters(struct sk_buff *skb, const int *attrs,
			   const u32 *vals, size_t n, int pad);

/* loom_genl_route.c */
int loom_genl_route_get_doit(struct sk_buff *skb, struct genl_info *info);
int loom_genl_route_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb);
int loom_genl_route_set_doit(struct sk_buff *skb, struct genl_info *info);
int loom_genl_route_del_doit(struct sk_buff *skb, struct genl_info *info);

/* loom_genl_port.c */
int loom_genl_port_get_doit(struct sk_buff *skb, struct genl_info *info);
int loom_genl_port_get_dumpit(struct sk_buff *skb,
			      struct netlink_callback *cb);

/* loom_genl_maint.c */
int loom_genl_maint_doit(struct sk_buff *skb, struct genl_info *info);
extern const struct nla_policy loom_genl_maint_policy[LOOM_ATTR_MAINT_MAX + 1];
int loom_genl_port_set_doit(struct sk_buff *skb, struct genl_info *info);
int loom_genl_fill_port(struct sk_buff *skb, struct loom_dev *ldev, u32 port,
			u32 status);

/* loom_genl_route.c: the whole table */
int loom_genl_route_load_doit(struct sk_buff *skb, struct genl_info *info);

/* loom_genl_dev.c */
int loom_genl_dev_set_doit(struct sk_buff *skb, struct genl_info *info);
int loom_genl_fill_dev_settings(struct sk_buff *skb, struct loom_dev *ldev);

/* loom_genl_vc.c */
int loom_genl_vc_get_doit(struct sk_buff *skb, struct genl_info *info);
int loom_genl_vc_set_doit(struct sk_buff *skb, struct genl_info *info);

/* loom_genl_stats.c */
int loom_genl_stats_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb);
int loom_genl_stats_get_done(struct netlink_callback *cb);

/* loom_keys.c */
int loom_genl_key_grant_doit(struct sk_buff *skb, struct genl_info *info);
int loom_genl_key_revoke_doit(struct sk_buff *skb, struct genl_info *info);
int loom_genl_key_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

/* loom_genl_bsu.c */
int loom_genl_bsu_get_doit(struct sk_buff *skb, struct genl_info *info);
int loom_genl_bsu_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int loom_genl_bsu_set_doit(struct sk_buff *skb, struct genl_info *info);
extern const struct nla_policy loom_genl_bsu_policy[LOOM_ATTR_BSU_MAX + 1];

/* loom_genl_mcast.c */
int loom_genl_mcast_get_doit(struct sk_buff *skb, struct genl_info *info);
int loom_genl_mcast_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb);
int loom_genl_mcast_set_doit(struct sk_buff *skb, struct genl_info *info);
int loom_genl_mcast_del_doit(struct sk_buff *skb, struct genl_info *info);
extern const struct nla_policy loom_genl_mcast_policy[LOOM_ATTR_MCAST_MAX + 1];

/* loom_genl.c: policies of the nests, used by the handlers' parsers */
extern const struct nla_policy loom_genl_route_policy[];
extern const struct nla_policy loom_genl_port_policy[];
extern const struct nla_policy loom_genl_vct_policy[];
extern const struct nla_policy loom_genl_key_policy[];

enum loom_genl_mcgrp {
	LOOM_GENL_MCGRP_EVENTS_ID,
	LOOM_GENL_MCGRP_MAINT_ID,
};

#endif /* LOOM_GENL_H */
