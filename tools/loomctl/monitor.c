// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl monitor: subscribe to the family's "events" multicast group (and
 * its "maint" group when the caller may join it) and print every route and
 * port change and maintenance response until SIGINT or SIGTERM.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>

#include <netlink/genl/ctrl.h>

#include "loomctl.h"

const char lc_monitor_usage[] =
"NAME\n"
"    loomctl monitor - follow changes of loom cards as they happen\n"
"\n"
"SYNOPSIS\n"
"    loomctl [-j] monitor\n"
"    loomctl monitor help\n"
"\n"
"DESCRIPTION\n"
"    Joins the \"events\" multicast group of the loom netlink family and\n"
"    prints one line per event until interrupted (SIGINT or SIGTERM, exit\n"
"    status 0).  Events of every card are shown; -d is ignored.\n"
"\n"
"    route changed: loom0 dest 1 port 0 phys 1 [adaptive] [invalid]\n"
"        a route set or del; the entry as it is now (\"invalid\" after a\n"
"        del).  With -j, one JSON object per line with the keys event\n"
"        (\"route_changed\"), dev, dest, port, phys_dest, adaptive, valid.\n"
"\n"
"    route table loaded: loom0\n"
"        a route load replaced the whole table (read it with route show).\n"
"        JSON: {\"event\":\"route_table_loaded\",\"dev\":\"loom0\"}.\n"
"\n"
"    port changed: loom0 port 1: cabled up peer node 1 port 0 [disabled] [dead]\n"
"        a port's state changed: link up or down, a lane dropped, declared\n"
"        dead, enabled or disabled (port show has its counters).\n"
"        JSON: {\"event\":\"port_changed\",\"port\":{...}} with\n"
"        the object of port show -j.  The card reports changes at once;\n"
"        loom.ko also looks every second, so an event may come up to a\n"
"        second late.\n"
"\n"
"    maint response: loom0 seq 7 node 1 status ok value 1 (0x00000001) for read 0x90 via 0\n"
"        a maintenance response reached the card: the one a maint command\n"
"        waits for (with its request), or a late one nobody waits for any\n"
"        more (\"late or not awaited\").  JSON: {\"event\":\"maint_resp\",\n"
"        \"dev\", \"seq\", \"node\", \"status\", \"value\"[, \"op\", \"addr\", \"route\"]}.\n"
"        These come from the \"maint\" group, which only CAP_NET_ADMIN may\n"
"        join: without it monitor says so once and shows the other events.\n"
"\n"
"    \"listening for loom events\" is printed on standard error once the\n"
"    subscription is in place.  When loom.ko is unloaded the family goes\n"
"    away: monitor says so and exits with status 1.\n";

static volatile sig_atomic_t lc_stop;

static void lc_on_signal(int sig)
{
	(void)sig;
	lc_stop = 1;
}

struct lc_monitor {
	const struct lc_opts *o;
	int family;
	bool gone;		/* the family was unregistered */
};

/* nlctrl's notification that the loom family went away */
static int lc_monitor_ctrl(struct lc_monitor *m, struct nlmsghdr *h)
{
	struct genlmsghdr *g = nlmsg_data(h);
	struct nlattr *tb[CTRL_ATTR_MAX + 1];

	if (g->cmd != CTRL_CMD_DELFAMILY ||
	    genlmsg_parse(h, 0, tb, CTRL_ATTR_MAX, NULL) < 0 ||
	    !tb[CTRL_ATTR_FAMILY_ID] || nla_len(tb[CTRL_ATTR_FAMILY_ID]) < 2 ||
	    nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]) != m->family)
		return NL_SKIP;
	m->gone = true;
	lc_stop = 1;
	return NL_STOP;
}

static int lc_monitor_event(struct nl_msg *msg, void *arg)
{
	struct lc_monitor *m = arg;
	const struct lc_opts *o = m->o;
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct genlmsghdr *g = nlmsg_data(h);
	struct nlattr *tb[LOOM_ATTR_MAX + 1];
	uint32_t dev;

	if (h->nlmsg_type == GENL_ID_CTRL)
		return lc_monitor_ctrl(m, h);
	if (h->nlmsg_type != m->family)
		return NL_SKIP;

	if (genlmsg_parse(h, 0, tb, LOOM_ATTR_MAX, lc_policy) < 0) {
		fprintf(stderr, "loomctl: monitor: ignoring a malformed event\n");
		return NL_SKIP;
	}
	dev = tb[LOOM_ATTR_DEV_INDEX] ? nla_get_u32(tb[LOOM_ATTR_DEV_INDEX]) : 0;
	if (g->cmd == LOOM_EVENT_PORT_CHANGED) {
		if (o->json) {
			lc_port_print_entry(true, dev, tb[LOOM_ATTR_PORT],
					    "{\"event\":\"port_changed\",\"port\":", true);
			fputs("}\n", stdout);
		} else {
			char prefix[48];

			snprintf(prefix, sizeof(prefix), "port changed: loom%u ", dev);
			lc_port_print_entry(false, dev, tb[LOOM_ATTR_PORT], prefix, true);
		}
		fflush(stdout);
		return NL_OK;
	}
	if (g->cmd == LOOM_EVENT_MAINT_RESP) {
		lc_maint_print_event(o->json, dev, tb[LOOM_ATTR_MAINT]);
		fflush(stdout);
		return NL_OK;
	}
	if (g->cmd != LOOM_EVENT_ROUTE_CHANGED)
		return NL_SKIP;
	if (!tb[LOOM_ATTR_ROUTE]) {
		if (o->json)
			printf("{\"event\":\"route_table_loaded\",\"dev\":\"loom%u\"}\n", dev);
		else
			printf("route table loaded: loom%u\n", dev);
		fflush(stdout);
		return NL_OK;
	}
	if (o->json) {
		lc_route_print_entry(true, dev, tb[LOOM_ATTR_ROUTE],
				     "{\"event\":\"route_changed\",\"entry\":");
		fputs("}\n", stdout);
	} else {
		char prefix[48];

		snprintf(prefix, sizeof(prefix), "route changed: loom%u ", dev);
		lc_route_print_entry(false, dev, tb[LOOM_ATTR_ROUTE], prefix);
	}
	fflush(stdout);
	return NL_OK;
}

int lc_monitor_run(const struct lc_opts *o, int argc, char **argv)
{
	struct lc_monitor m = { .o = o };
	struct sigaction sa;
	struct lc_nl nl;
	int grp, ctrl_grp, maint_grp, err;

	if (argc > 0 && lc_is_help(argv[0])) {
		fputs(lc_monitor_usage, stdout);
		return LC_EXIT_OK;
	}
	if (argc > 0)
		return lc_usage_error("monitor: unexpected argument \"%s\": usage: loomctl [-j] monitor",
				      argv[0]);
	err = lc_nl_open(&nl);
	if (err)
		return err;
	grp = genl_ctrl_resolve_grp(nl.sk, LOOM_GENL_NAME, LOOM_GENL_MCGRP_EVENTS);
	if (grp < 0) {
		fprintf(stderr, "loomctl: monitor: the loom family has no \"%s\" group: %s (loom.ko too old?)\n",
			LOOM_GENL_MCGRP_EVENTS, nl_geterror(grp));
		lc_nl_close(&nl);
		return LC_EXIT_KERNEL;
	}
	/* nlctrl announces the family's removal (rmmod loom) */
	ctrl_grp = genl_ctrl_resolve_grp(nl.sk, "nlctrl", "notify");
	m.family = nl.family;
	nl_socket_disable_seq_check(nl.sk);
	nl_socket_modify_cb(nl.sk, NL_CB_VALID, NL_CB_CUSTOM, lc_monitor_event, &m);
	err = nl_socket_add_membership(nl.sk, grp);
	if (!err && ctrl_grp >= 0)
		err = nl_socket_add_membership(nl.sk, ctrl_grp);
	if (err < 0) {
		fprintf(stderr, "loomctl: monitor: cannot join the events group: %s\n",
			nl_geterror(err));
		lc_nl_close(&nl);
		return LC_EXIT_KERNEL;
	}
	/* maintenance responses are privileged: joining needs CAP_NET_ADMIN */
	maint_grp = genl_ctrl_resolve_grp(nl.sk, LOOM_GENL_NAME, LOOM_GENL_MCGRP_MAINT);
	if (maint_grp >= 0 && nl_socket_add_membership(nl.sk, maint_grp) < 0)
		fprintf(stderr, "loomctl: monitor: not showing maintenance responses: joining the \"%s\" group needs CAP_NET_ADMIN\n",
			LOOM_GENL_MCGRP_MAINT);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = lc_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	fprintf(stderr, "listening for loom events\n");

	while (!lc_stop) {
		struct pollfd pfd = { .fd = nl_socket_get_fd(nl.sk), .events = POLLIN };
		int n = poll(&pfd, 1, -1);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "loomctl: monitor: poll: %s\n", strerror(errno));
			err = LC_EXIT_KERNEL;
			break;
		}
		err = nl_recvmsgs_default(nl.sk);
		if (err < 0 && err != -NLE_INTR) {
			fprintf(stderr, "loomctl: monitor: cannot read events: %s\n",
				nl_geterror(err));
			err = LC_EXIT_KERNEL;
			break;
		}
		err = 0;
	}
	if (m.gone) {
		fprintf(stderr, "loomctl: monitor: the loom netlink family went away: loom.ko was unloaded\n");
		err = LC_EXIT_KERNEL;
	}
	lc_nl_close(&nl);
	return err;
}
