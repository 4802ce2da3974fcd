/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loomctl: what its files share.  Every object (dev, route, port, monitor)
 * is one file with a run function and a help text; nl.c talks to the
 * "loom" generic netlink family; json.c prints JSON.
 */
#ifndef LOOMCTL_H
#define LOOMCTL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <netlink/genl/genl.h>

#include <linux/loom_netlink.h>
#include <loom_hw/regs.h>

/* exit codes */
#define LC_EXIT_OK	0
#define LC_EXIT_KERNEL	1	/* the kernel (or the system) refused */
#define LC_EXIT_USAGE	2

struct lc_opts {
	bool json;
	uint32_t dev;		/* N of /dev/loomN */
};

/* main.c */
int lc_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
bool lc_is_help(const char *arg);
int lc_match(const char *arg, const char *const *words);
int lc_parse_u32(const char *s, uint32_t *out);
int lc_subcommand(const char *obj, int argc, char **argv,
		  const char *const *cmds, const char *listed,
		  const char *usage, int *cmd);

/* pci.c: loom cards on the PCI bus (libpci) */
enum lc_pci_sig {
	LC_SIG_CARD,		/* the real card's ids */
	LC_SIG_LAB,		/* ivshmem with the loom signature */
	LC_SIG_UNCHECKED,	/* ivshmem whose BAR2 could not be read */
	LC_SIG_NONE,		/* ivshmem of something else: not listed */
};

struct lc_pci_card {
	char addr[16];		/* DDDD:BB:DD.F */
	char driver[32];	/* bound driver, "" when none */
	uint16_t vendor, device;
	enum lc_pci_sig sig;
	bool seen;		/* the module reported it */
};

#define LC_PCI_MAX_CARDS	64

int lc_pci_scan(struct lc_pci_card *cards, unsigned int max, unsigned int *n);
const char *lc_pci_kind(const struct lc_pci_card *c);

/* nl.c */
struct lc_nl {
	struct nl_sock *sk;
	int family;
	char ext_msg[256];	/* extack text of the last refusal */
	uint32_t ext_off;	/* offset of the offending attribute, or 0 */
	const char *ext_attr;	/* its name, found in the request, or NULL */
	bool ext_has_max;	/* the policy's maximum came with the refusal */
	uint64_t ext_max;
	uint64_t ext_min;	/* the policy's minimum (0 when none) */
	struct nlmsghdr *cur;	/* the reply being handed to a callback */
};

typedef int (*lc_build_fn)(struct nl_msg *msg, void *arg);
typedef int (*lc_reply_fn)(struct nlattr **tb, uint8_t cmd, void *arg);

int lc_nl_open(struct lc_nl *nl);
void lc_nl_close(struct lc_nl *nl);
int lc_nl_request(struct lc_nl *nl, uint8_t cmd, bool dump,
		  lc_build_fn build, void *build_arg,
		  lc_reply_fn reply, void *reply_arg);
int lc_nl_refused(const struct lc_nl *nl, int err, const char *what,
		  const char *hint);
int lc_nl_request_list(struct lc_nl *nl, bool json, uint8_t cmd, bool dump,
		       lc_build_fn build, void *build_arg,
		       lc_reply_fn reply, void *reply_arg);
int lc_nl_finish(struct lc_nl *nl, int err, const char *what,
		 const char *hint);
int lc_nl_parse_nest(struct nlattr **tb, int max, struct nlattr *nest,
		     struct nla_policy *policy);

/* policy.c */
extern struct nla_policy lc_policy[];
extern struct nla_policy lc_route_policy[];
extern struct nla_policy lc_port_policy[];
extern struct nla_policy lc_vct_policy[];
extern struct nla_policy lc_stats_policy[];
extern struct nla_policy lc_drops_policy[];
extern struct nla_policy lc_key_policy[];

/* json.c */
void lc_json_str(FILE *f, const char *s);

/* route.c: shared with monitor.c */
int lc_route_print_entry(bool json, uint32_t dev, struct nlattr *route,
			 const char *prefix);

/* port.c: shared with monitor.c */
int lc_port_print_entry(bool json, uint32_t dev, struct nlattr *port,
			const char *prefix, bool brief);

/* maint.c: shared with monitor.c */
int lc_maint_print_event(bool json, uint32_t dev, struct nlattr *maint);

/* attribute helpers: 0 when absent */
uint32_t lc_get_u32(struct nlattr **tb, int attr);
uint64_t lc_get_u64(struct nlattr **tb, int attr);

/* objects */
int lc_dev_run(const struct lc_opts *o, int argc, char **argv);
int lc_route_run(const struct lc_opts *o, int argc, char **argv);
int lc_port_run(const struct lc_opts *o, int argc, char **argv);
int lc_monitor_run(const struct lc_opts *o, int argc, char **argv);
int lc_maint_run(const struct lc_opts *o, int argc, char **argv);
int lc_vc_run(const struct lc_opts *o, int argc, char **argv);
int lc_stats_run(const struct lc_opts *o, int argc, char **argv);
int lc_key_run(const struct lc_opts *o, int argc, char **argv);
int lc_bsu_run(const struct lc_opts *o, int argc, char **argv);

extern const char lc_dev_usage[];
extern const char lc_route_usage[];
extern const char lc_port_usage[];
extern const char lc_monitor_usage[];
extern const char lc_maint_usage[];
extern const char lc_vc_usage[];
extern const char lc_stats_usage[];
extern const char lc_key_usage[];
extern const char lc_bsu_usage[];

#endif /* LOOMCTL_H */
