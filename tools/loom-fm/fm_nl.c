// SPDX-License-Identifier: GPL-2.0
/* loom-fm: maintenance accesses and port events over generic netlink (fm_nl.h). */
#include "fm_nl.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <linux/loom_netlink.h>

struct fm_nl {
	struct fm_maint m;		/* first: the maintenance handle */
	struct nl_sock *sk;		/* requests */
	struct nl_sock *ev;		/* events, once joined */
	int family;
	uint32_t dev, timeout_ms, retries;
	int events_seen;
};

struct maint_req {
	bool done;
	int err;			/* negative errno from the kernel */
	bool have_value;
	uint32_t value, status, node;
};

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct maint_req *r = arg;

	(void)who;
	r->err = e->error;
	r->done = true;
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct maint_req *r = arg;

	(void)msg;
	r->done = true;
	return NL_STOP;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct maint_req *r = arg;
	struct nlattr *tb[LOOM_ATTR_MAX + 1], *mt[LOOM_ATTR_MAINT_MAX + 1];

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, LOOM_ATTR_MAX, NULL) < 0 ||
	    !tb[LOOM_ATTR_MAINT] ||
	    nla_parse_nested(mt, LOOM_ATTR_MAINT_MAX, tb[LOOM_ATTR_MAINT], NULL) < 0)
		return NL_SKIP;
	if (mt[LOOM_ATTR_MAINT_VALUE]) {
		r->value = nla_get_u32(mt[LOOM_ATTR_MAINT_VALUE]);
		r->have_value = true;
	}
	if (mt[LOOM_ATTR_MAINT_STATUS])
		r->status = nla_get_u32(mt[LOOM_ATTR_MAINT_STATUS]);
	if (mt[LOOM_ATTR_MAINT_NODE])
		r->node = nla_get_u32(mt[LOOM_ATTR_MAINT_NODE]);
	return NL_OK;
}

static const char *maint_status_text(uint32_t st)
{
	switch (st) {
	case LOOM_MAINT_ST_BAD_ADDR: return "bad address (outside the space or unaligned)";
	case LOOM_MAINT_ST_READ_ONLY: return "register not writable by maintenance";
	case LOOM_MAINT_ST_BAD_OP: return "bad operation";
	default: return "unknown status";
	}
}

static int maint_access(struct fm_nl *nl, uint8_t op, const struct fm_path *path,
			uint32_t addr, uint32_t value, uint32_t *out)
{
	struct maint_req r = { 0 };
	struct nl_msg *msg = nlmsg_alloc();
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	struct nlattr *nest;
	int err = -ENOMEM;

	nl->m.err[0] = 0;
	if (!msg || !cb)
		goto out;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, 0, LOOM_CMD_MAINT,
			 LOOM_GENL_VERSION) ||
	    nla_put_u32(msg, LOOM_ATTR_DEV_INDEX, nl->dev) < 0)
		goto out;
	nest = nla_nest_start(msg, LOOM_ATTR_MAINT);
	if (!nest || nla_put_u8(msg, LOOM_ATTR_MAINT_OP, op) < 0 ||
	    nla_put(msg, LOOM_ATTR_MAINT_ROUTE, path->hops, path->port) < 0 ||
	    nla_put_u32(msg, LOOM_ATTR_MAINT_ADDR, addr) < 0 ||
	    (op == LOOM_MAINT_OP_WRITE && nla_put_u32(msg, LOOM_ATTR_MAINT_VALUE, value) < 0) ||
	    (nl->timeout_ms && nla_put_u32(msg, LOOM_ATTR_MAINT_TIMEOUT_MS, nl->timeout_ms) < 0) ||
	    (nl->retries && nla_put_u32(msg, LOOM_ATTR_MAINT_RETRIES, nl->retries) < 0))
		goto out;
	nla_nest_end(msg, nest);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &r);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &r);
	err = nl_send_auto(nl->sk, msg);
	if (err < 0) {
		snprintf(nl->m.err, sizeof(nl->m.err), "cannot send: %s", nl_geterror(err));
		err = -EIO;
		goto out;
	}
	while (!r.done) {
		err = nl_recvmsgs(nl->sk, cb);
		if (err < 0 && !r.done) {
			snprintf(nl->m.err, sizeof(nl->m.err), "cannot read the answer: %s",
				 nl_geterror(err));
			err = -EIO;
			goto out;
		}
	}
	err = r.err;
	if (err == -EOPNOTSUPP)
		snprintf(nl->m.err, sizeof(nl->m.err), "loom.ko does not implement LOOM_CMD_MAINT "
			 "(too old a module?)");
	else if (err == -EPERM)
		snprintf(nl->m.err, sizeof(nl->m.err), "maintenance needs CAP_NET_ADMIN (run as root)");
	if (!err && r.status != LOOM_MAINT_ST_OK) {
		snprintf(nl->m.err, sizeof(nl->m.err), "card answered status %u: %s", r.status,
			 maint_status_text(r.status));
		err = -EIO;
	}
	if (!err && op == LOOM_MAINT_OP_READ) {
		if (!r.have_value) {
			snprintf(nl->m.err, sizeof(nl->m.err), "the answer carries no value");
			err = -EPROTO;
		} else {
			*out = r.value;
		}
	}
out:
	nl_cb_put(cb);
	nlmsg_free(msg);
	return err;
}

static int nl_read(struct fm_maint *m, const struct fm_path *path, uint32_t addr,
		   uint32_t *value)
{
	return maint_access((struct fm_nl *)m, LOOM_MAINT_OP_READ, path, addr, 0, value);
}

static int nl_write(struct fm_maint *m, const struct fm_path *path, uint32_t addr,
		    uint32_t value)
{
	return maint_access((struct fm_nl *)m, LOOM_MAINT_OP_WRITE, path, addr, value, NULL);
}

static struct nl_sock *connect_sock(int *family, char *err, size_t errlen)
{
	struct nl_sock *sk = nl_socket_alloc();
	int rc;

	if (!sk) {
		snprintf(err, errlen, "cannot allocate a netlink socket: out of memory");
		return NULL;
	}
	rc = genl_connect(sk);
	if (rc < 0) {
		snprintf(err, errlen, "cannot open a generic netlink socket: %s", nl_geterror(rc));
		nl_socket_free(sk);
		return NULL;
	}
	*family = genl_ctrl_resolve(sk, LOOM_GENL_NAME);
	if (*family < 0) {
		snprintf(err, errlen, *family == -NLE_OBJ_NOTFOUND ?
			 "the %s netlink family is not registered: is loom.ko loaded?" :
			 "cannot look up the %s netlink family", LOOM_GENL_NAME);
		nl_socket_free(sk);
		return NULL;
	}
	return sk;
}

struct fm_nl *fm_nl_open(uint32_t dev, uint32_t timeout_ms, uint32_t retries, char *err,
			 size_t errlen)
{
	struct fm_nl *nl = calloc(1, sizeof(*nl));

	if (!nl) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	nl->sk = connect_sock(&nl->family, err, errlen);
	if (!nl->sk) {
		free(nl);
		return NULL;
	}
	nl->dev = dev;
	nl->timeout_ms = timeout_ms;
	nl->retries = retries;
	nl->m.read = nl_read;
	nl->m.write = nl_write;
	return nl;
}

void fm_nl_close(struct fm_nl *nl)
{
	if (!nl)
		return;
	if (nl->ev)
		nl_socket_free(nl->ev);
	nl_socket_free(nl->sk);
	free(nl);
}

struct fm_maint *fm_nl_maint(struct fm_nl *nl)
{
	return &nl->m;
}

static int on_event(struct nl_msg *msg, void *arg)
{
	struct fm_nl *nl = arg;
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct genlmsghdr *g = nlmsg_data(h);
	struct nlattr *tb[LOOM_ATTR_MAX + 1];

	if (g->cmd != LOOM_EVENT_PORT_CHANGED ||
	    genlmsg_parse(h, 0, tb, LOOM_ATTR_MAX, NULL) < 0 || !tb[LOOM_ATTR_DEV_INDEX] ||
	    nla_get_u32(tb[LOOM_ATTR_DEV_INDEX]) != nl->dev)
		return NL_SKIP;
	nl->events_seen++;
	return NL_OK;
}

int fm_nl_events(struct fm_nl *nl, char *err, size_t errlen)
{
	int family, grp, rc;

	nl->ev = connect_sock(&family, err, errlen);
	if (!nl->ev)
		return -1;
	grp = genl_ctrl_resolve_grp(nl->ev, LOOM_GENL_NAME, LOOM_GENL_MCGRP_EVENTS);
	if (grp < 0) {
		snprintf(err, errlen, "the loom family has no \"%s\" group: %s",
			 LOOM_GENL_MCGRP_EVENTS, nl_geterror(grp));
		return -1;
	}
	nl_socket_disable_seq_check(nl->ev);
	nl_socket_modify_cb(nl->ev, NL_CB_VALID, NL_CB_CUSTOM, on_event, nl);
	rc = nl_socket_add_membership(nl->ev, grp);
	if (rc < 0) {
		snprintf(err, errlen, "cannot join the events group: %s", nl_geterror(rc));
		return -1;
	}
	nl_socket_set_nonblocking(nl->ev);
	return 0;
}

int fm_nl_wait_port_event(struct fm_nl *nl, int timeout_ms, char *err, size_t errlen)
{
	struct pollfd pfd = { .fd = nl->ev ? nl_socket_get_fd(nl->ev) : -1, .events = POLLIN };
	int n;

	nl->events_seen = 0;
	n = poll(&pfd, 1, timeout_ms);
	if (n < 0) {
		if (errno == EINTR)
			return 0;
		snprintf(err, errlen, "poll on the events socket: %s", strerror(errno));
		return -1;
	}
	if (n == 0 || !nl->ev)
		return 0;
	for (;;) {
		int rc = nl_recvmsgs_default(nl->ev);

		if (rc == -NLE_AGAIN)
			break;
		if (rc >= 0 || rc == -NLE_INTR)
			continue;
		/* lost events (ENOBUFS) still mean "something changed" */
		if (rc == -NLE_NOMEM)
			return 1;
		snprintf(err, errlen, "cannot read events: %s", nl_geterror(rc));
		return -1;
	}
	return nl->events_seen > 0;
}
