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

static const char lc_monitor_usage[] =
"DESCRIPTION\n"
"    Joins the \"events\" multicast group of the loom netlink family and\n"
"    prints one record per event until interrupted (SIGINT or SIGTERM,\n"
"    exit status 0): every event (all, the default), or only those of\n"
"    route, port or maint.  Events of every card are shown unless\n"
"    \"dev DEV\" names one.  With -j, one JSON object per line.\n"
"\n"
"    event route_changed: a route set or del; the entry as it is now\n"
"        (\"invalid\" after a del), with the fields of route show.\n"
"    event route_table_loaded: a route load replaced the whole table\n"
"        (read it with route show); fields event, dev.\n"
"    event port_changed: a port's state changed: link up or down, a lane\n"
"        dropped, declared dead, enabled or disabled; the status fields of\n"
"        port show (port show has its counters).  The card reports\n"
"        changes at once; loom.ko also looks every second, so an event may\n"
"        come up to a second late.\n"
"    event maint_resp: a maintenance response reached the card: the one a\n"
"        maint command waits for (with its request: op, addr, route), or a\n"
"        late one nobody waits for any more (\"late or not awaited\").\n"
"        These come from the \"maint\" group, which only CAP_NET_ADMIN may\n"
"        join: without it, monitor (all) says so once and shows the other\n"
"        events, and monitor maint fails.\n"
"\n"
"FIELDS (text and JSON)\n"
"    event, then those of the event's kind: route_changed as route show;\n"
"    route_table_loaded: dev; port_changed: dev port cabled up disabled\n"
"    dead lanes peer_node peer_port; maint_resp: dev seq node status value\n"
"    op addr route\n"
"\n"
"    Text:  event route_changed dev loom0 dest 1 port 0 phys_dest 1 valid\n"
"           event port_changed dev loom0 port 1 cabled up lanes 4 peer_node 1 peer_port 0\n"
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

/* which events a monitor command prints */
enum lc_monitor_kind {
	LC_MON_ALL,
	LC_MON_ROUTE,
	LC_MON_PORT,
	LC_MON_MAINT,
};

struct lc_monitor {
	const struct lc_opts *o;
	enum lc_monitor_kind kind;
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
	if (o->dev_given && dev != o->dev)
		return NL_SKIP;
	if (g->cmd == LOOM_EVENT_PORT_CHANGED &&
	    (m->kind == LC_MON_ALL || m->kind == LC_MON_PORT)) {
		lc_port_print_entry(dev, tb[LOOM_ATTR_PORT], "port_changed");
	} else if (g->cmd == LOOM_EVENT_MAINT_RESP &&
		   (m->kind == LC_MON_ALL || m->kind == LC_MON_MAINT)) {
		lc_maint_print_event(dev, tb[LOOM_ATTR_MAINT]);
	} else if (g->cmd == LOOM_EVENT_ROUTE_CHANGED &&
		   (m->kind == LC_MON_ALL || m->kind == LC_MON_ROUTE)) {
		if (tb[LOOM_ATTR_ROUTE]) {
			lc_route_print_entry(dev, tb[LOOM_ATTR_ROUTE], "route_changed");
		} else {
			char name[24];

			snprintf(name, sizeof(name), "loom%u", dev);
			lc_print_open_object(NULL);
			lc_print_str(LC_PRINT_ANY, "event", "route_table_loaded");
			lc_print_str(LC_PRINT_ANY, "dev", name);
			lc_print_close_object();
		}
	} else {
		return NL_SKIP;
	}
	lc_print_end();
	return NL_OK;
}

static int lc_monitor_run(struct lc_opts *o, int argc, char **argv,
			  enum lc_monitor_kind kind)
{
	struct lc_monitor m = { .o = o, .kind = kind };
	struct sigaction sa;
	struct lc_nl nl;
	int grp, ctrl_grp, maint_grp, err;

	if (argc > 0)
		return lc_usage_error("monitor: unexpected argument \"%s\": usage: loomctl [-j] monitor [all|route|port|maint] [dev DEV]",
				      argv[0]);
	err = lc_nl_open(&nl, o);
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
	if (kind == LC_MON_ALL || kind == LC_MON_MAINT) {
		maint_grp = genl_ctrl_resolve_grp(nl.sk, LOOM_GENL_NAME, LOOM_GENL_MCGRP_MAINT);
		err = maint_grp < 0 ? maint_grp : nl_socket_add_membership(nl.sk, maint_grp);
		if (err < 0 && kind == LC_MON_MAINT) {
			fprintf(stderr, "loomctl: monitor maint: cannot join the \"%s\" group: %s (it needs CAP_NET_ADMIN)\n",
				LOOM_GENL_MCGRP_MAINT, nl_geterror(err));
			lc_nl_close(&nl);
			return LC_EXIT_KERNEL;
		}
		if (err < 0)
			fprintf(stderr, "loomctl: monitor: not showing maintenance responses: joining the \"%s\" group needs CAP_NET_ADMIN\n",
				LOOM_GENL_MCGRP_MAINT);
	}

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

static int lc_monitor_all(struct lc_opts *o, int argc, char **argv)
{
	return lc_monitor_run(o, argc, argv, LC_MON_ALL);
}

static int lc_monitor_route(struct lc_opts *o, int argc, char **argv)
{
	return lc_monitor_run(o, argc, argv, LC_MON_ROUTE);
}

static int lc_monitor_port(struct lc_opts *o, int argc, char **argv)
{
	return lc_monitor_run(o, argc, argv, LC_MON_PORT);
}

static int lc_monitor_maint(struct lc_opts *o, int argc, char **argv)
{
	return lc_monitor_run(o, argc, argv, LC_MON_MAINT);
}

static const struct lc_cmd lc_monitor_cmds[] = {
	{ "all", lc_monitor_all, "", "print every event until interrupted", NULL, true },
	{ "route", lc_monitor_route, "", "print route changes until interrupted", NULL, true },
	{ "port", lc_monitor_port, "", "print port changes until interrupted", NULL, true },
	{ "maint", lc_monitor_maint, "", "print maintenance responses until interrupted",
	  NULL, true },
	{ NULL },
};

const struct lc_object lc_obj_monitor = {
	.name = "monitor",
	.summary = "follow route, port and maintenance events as they happen",
	.usage = lc_monitor_usage,
	.cmds = lc_monitor_cmds,
};
