/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loomctl: what its files share.  Every object (dev, route, port, ...) is
 * one file with its help text and its table of commands (struct
 * lc_object); main.c parses the command line against those tables, nl.c
 * talks to the "loom" generic netlink family, print.c prints text or JSON.
 */
#ifndef LOOMCTL_H
#define LOOMCTL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <netlink/genl/genl.h>

#include <linux/loom_netlink.h>
#include <loom_hw/regs.h>

#include "print.h"

/* exit codes (loomctl(8), EXIT STATUS) */
#define LC_EXIT_OK	0
#define LC_EXIT_KERNEL	1	/* the kernel (or the system) refused */
#define LC_EXIT_USAGE	2

#define LC_DEV_ALL	UINT32_MAX

struct lc_opts {
	bool json;
	uint32_t dev;		/* N of /dev/loomN, or LC_DEV_ALL */
	bool dev_given;		/* named with "dev loomN" */
	bool all_devs;		/* the command covers every card without one */
};

/**
 * struct lc_cmd - one command of an object: a table entry and its handler
 * @name: the command word ("show")
 * @run: parses the words after COMMAND [dev DEV] and does the work
 * @args: the synopsis of those words, for help and the manual
 * @summary: one line saying what it does
 * @words: the keywords its arguments take (NULL-terminated), completed by
 *	   bash; NULL when none
 * @all_devs: without "dev DEV" it covers every card (else: the only card)
 */
struct lc_cmd {
	const char *name;
	int (*run)(struct lc_opts *o, int argc, char **argv);
	const char *args;
	const char *summary;
	const char *const *words;
	bool all_devs;
};

/**
 * struct lc_object - an OBJECT of loomctl OBJECT COMMAND
 * @name: the object word ("route")
 * @summary: one line saying what it is
 * @usage: its help text ("loomctl OBJECT help")
 * @cmds: its commands, the first is the default; ends with { NULL }
 */
struct lc_object {
	const char *name;
	const char *summary;
	const char *usage;
	const struct lc_cmd *cmds;
};

extern const struct lc_object lc_obj_dev, lc_obj_route, lc_obj_port, lc_obj_vc,
	lc_obj_stats, lc_obj_key, lc_obj_bsu, lc_obj_monitor, lc_obj_maint, lc_obj_mcast;

/* main.c */
int lc_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
bool lc_is_help(const char *arg);
int lc_match(const char *arg, const char *const *words);
int lc_keyword(const char *what, const char *arg, const char *const *words);
const char *lc_suggest(const char *arg, const char *const *words);
int lc_parse_u32(const char *s, uint32_t *out);
int lc_parse_dev(const char *s, uint32_t *dev);
int lc_parse_port_set(const char *arg, unsigned int n_ports, uint32_t host_bit,
		      uint32_t *mask);
void lc_print_port_set(const char *key, uint32_t mask, uint32_t host_bit);

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

int lc_nl_open(struct lc_nl *nl, struct lc_opts *o);
void lc_nl_close(struct lc_nl *nl);
int lc_nl_request(struct lc_nl *nl, uint8_t cmd, bool dump,
		  lc_build_fn build, void *build_arg,
		  lc_reply_fn reply, void *reply_arg);
int lc_nl_refused(const struct lc_nl *nl, int err, const char *what,
		  const char *hint);
int lc_nl_request_list(struct lc_nl *nl, uint8_t cmd, bool dump,
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
extern struct nla_policy lc_perf_port_policy[];
extern struct nla_policy lc_perf_policy[];
extern struct nla_policy lc_key_policy[];

/* route.c: shared with monitor.c */
int lc_route_print_entry(uint32_t dev, struct nlattr *route, const char *event);

/* port.c: shared with monitor.c */
int lc_port_print_entry(uint32_t dev, struct nlattr *port, const char *event);

/* maint.c: shared with monitor.c */
int lc_maint_print_event(uint32_t dev, struct nlattr *maint);

/* attribute helpers: 0 when absent */
uint32_t lc_get_u32(struct nlattr **tb, int attr);
uint64_t lc_get_u64(struct nlattr **tb, int attr);

#endif /* LOOMCTL_H */
