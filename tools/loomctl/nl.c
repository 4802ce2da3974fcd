// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl's side of the "loom" generic netlink family: one socket, one
 * request at a time (a doit or a dump), replies handed to a callback, and
 * refusals reported with the errno text and the kernel's extended ack
 * message.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/msg.h>

#include "loomctl.h"

/* largest request: 1024 routes of 36 bytes fit with room to spare */
#define LC_NL_MSG_MAX	(128 * 1024)

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

struct lc_dev_list {
	uint32_t idx[8];
	unsigned int n;
};

static int lc_dev_list_add(struct nlattr **tb, uint8_t cmd, void *arg)
{
	struct lc_dev_list *l = arg;

	if (cmd == LOOM_CMD_DEV_GET && tb[LOOM_ATTR_DEV_INDEX]) {
		if (l->n < 8)
			l->idx[l->n] = nla_get_u32(tb[LOOM_ATTR_DEV_INDEX]);
		l->n++;
	}
	return 0;
}

/* the card a command acts on when none is named: the only one there is */
static int lc_nl_pick_dev(struct lc_nl *nl, struct lc_opts *o)
{
	struct lc_dev_list l = { .n = 0 };
	char names[80];
	size_t used = 0;
	int err;

	err = lc_nl_request(nl, LOOM_CMD_DEV_GET, true, NULL, NULL, lc_dev_list_add, &l);
	if (err)
		return lc_nl_refused(nl, err, "listing the cards", NULL);
	if (l.n == 1) {
		o->dev = l.idx[0];
		return 0;
	}
	if (!l.n) {
		fprintf(stderr, "loomctl: loom.ko has no card bound (\"loomctl dev\" lists the cards on the PCI bus)\n");
		return LC_EXIT_KERNEL;
	}
	names[0] = '\0';
	for (unsigned int i = 0; i < l.n && i < 8 && used < sizeof(names); i++)
		used += (size_t)snprintf(names + used, sizeof(names) - used, "%sloom%u",
					 i ? ", " : "", l.idx[i]);
	return lc_usage_error("there are %u cards (%s%s): name one with \"dev loomN\" after the command",
			      l.n, names, l.n > 8 ? ", ..." : "");
}

/**
 * lc_nl_open() - connect to the kernel, find the "loom" family, pick the card
 * @nl: filled in
 * @o: the command's options; when no card was named and the command does
 *     not cover every card, @o->dev becomes the only card bound (NULL: no
 *     card is needed)
 *
 * Return: 0, or an exit code after printing what failed and what to do
 * (LC_EXIT_USAGE when there are several cards and none was named).
 */
int lc_nl_open(struct lc_nl *nl, struct lc_opts *o)
{
	int one = 1, err;

	memset(nl, 0, sizeof(*nl));
	nl->sk = nl_socket_alloc();
	if (!nl->sk) {
		fprintf(stderr, "loomctl: cannot allocate a netlink socket: out of memory\n");
		return LC_EXIT_KERNEL;
	}
	err = genl_connect(nl->sk);
	if (err < 0) {
		fprintf(stderr, "loomctl: cannot open a generic netlink socket: %s\n",
			nl_geterror(err));
		goto fail;
	}
	/* ask for the kernel's explanation of a refusal, without the echo
	 * of our request
	 */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	nl->family = genl_ctrl_resolve(nl->sk, LOOM_GENL_NAME);
	if (nl->family < 0) {
		if (nl->family == -NLE_OBJ_NOTFOUND)
			fprintf(stderr, "loomctl: the %s netlink family is not registered: is loom.ko loaded? (modprobe loom)\n",
				LOOM_GENL_NAME);
		else
			fprintf(stderr, "loomctl: cannot look up the %s netlink family: %s\n",
				LOOM_GENL_NAME, nl_geterror(nl->family));
		goto fail;
	}
	if (o && !o->dev_given && !o->all_devs) {
		err = lc_nl_pick_dev(nl, o);
		if (err) {
			lc_nl_close(nl);
			return err;
		}
	}
	return 0;

fail:
	nl_socket_free(nl->sk);
	nl->sk = NULL;
	return LC_EXIT_KERNEL;
}

void lc_nl_close(struct lc_nl *nl)
{
	if (nl->sk)
		nl_socket_free(nl->sk);
	nl->sk = NULL;
}

struct lc_req {
	struct lc_nl *nl;
	lc_reply_fn reply;
	void *reply_arg;
	int err;		/* negative errno from the kernel */
	int cb_err;		/* first error of the reply callback */
	bool done;
};

static const char *const lc_attr_names[LOOM_ATTR_MAX + 1] = {
	[LOOM_ATTR_DEV_INDEX] = "LOOM_ATTR_DEV_INDEX",
	[LOOM_ATTR_ROUTE] = "LOOM_ATTR_ROUTE",
	[LOOM_ATTR_PORT] = "LOOM_ATTR_PORT",
	[LOOM_ATTR_DEV_LOGICAL_ID] = "LOOM_ATTR_DEV_LOGICAL_ID",
	[LOOM_ATTR_DEV_FP_TIMEOUT_MS] = "LOOM_ATTR_DEV_FP_TIMEOUT_MS",
	[LOOM_ATTR_DEV_LANE_THRESHOLD] = "LOOM_ATTR_DEV_LANE_THRESHOLD",
	[LOOM_ATTR_ROUTE_TABLE] = "LOOM_ATTR_ROUTE_TABLE",
	[LOOM_ATTR_VCT_PORT] = "LOOM_ATTR_VCT_PORT",
	[LOOM_ATTR_VCT_START_VC1] = "LOOM_ATTR_VCT_START_VC1",
	[LOOM_ATTR_VCT_DEST] = "LOOM_ATTR_VCT_DEST",
	[LOOM_ATTR_VCT_VC] = "LOOM_ATTR_VCT_VC",
	[LOOM_ATTR_KEY] = "LOOM_ATTR_KEY",
};

static const char *const lc_route_attr_names[LOOM_ATTR_ROUTE_MAX + 1] = {
	[LOOM_ATTR_ROUTE_DEST] = "LOOM_ATTR_ROUTE_DEST",
	[LOOM_ATTR_ROUTE_PORT] = "LOOM_ATTR_ROUTE_PORT",
	[LOOM_ATTR_ROUTE_PHYS_DEST] = "LOOM_ATTR_ROUTE_PHYS_DEST",
	[LOOM_ATTR_ROUTE_ADAPTIVE] = "LOOM_ATTR_ROUTE_ADAPTIVE",
	[LOOM_ATTR_ROUTE_VALID] = "LOOM_ATTR_ROUTE_VALID",
};

static const char *const lc_port_attr_names[LOOM_ATTR_PORT_MAX + 1] = {
	[LOOM_ATTR_PORT_INDEX] = "LOOM_ATTR_PORT_INDEX",
	[LOOM_ATTR_PORT_ENABLED] = "LOOM_ATTR_PORT_ENABLED",
};

static const char *const lc_vct_attr_names[LOOM_ATTR_VCT_MAX + 1] = {
	[LOOM_ATTR_VCT_PORT_INDEX] = "LOOM_ATTR_VCT_PORT_INDEX",
	[LOOM_ATTR_VCT_PORT_DIM] = "LOOM_ATTR_VCT_PORT_DIM",
	[LOOM_ATTR_VCT_PORT_DATELINE] = "LOOM_ATTR_VCT_PORT_DATELINE",
};

static const char *const lc_key_attr_names[LOOM_ATTR_KEY_MAX + 1] = {
	[LOOM_ATTR_KEY_VALUE] = "LOOM_ATTR_KEY_VALUE",
	[LOOM_ATTR_KEY_UID] = "LOOM_ATTR_KEY_UID",
	[LOOM_ATTR_KEY_GID] = "LOOM_ATTR_KEY_GID",
};

/* ROUTE_TABLE (route load): its ROUTE nests and their attributes. */
static const char *lc_attr_in_table(struct nlmsghdr *h, struct nlattr *table,
				    uint32_t off)
{
	struct nlattr *r, *n;
	int rrem, nrem;

	nla_for_each_nested(r, table, rrem) {
		if ((uint32_t)((char *)r - (char *)h) == off)
			return "LOOM_ATTR_ROUTE";
		nla_for_each_nested(n, r, nrem) {
			if ((uint32_t)((char *)n - (char *)h) == off)
				return nla_type(n) <= LOOM_ATTR_ROUTE_MAX ?
				       lc_route_attr_names[nla_type(n)] : NULL;
		}
	}
	return NULL;
}

/* Name the attribute of our request at byte @off of the message. */
static const char *lc_attr_at(struct nl_msg *msg, uint32_t off)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct genlmsghdr *g = nlmsg_data(h);
	struct nlattr *a, *n;
	int rem, nrem;

	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0), rem) {
		const char *const *names = NULL;
		int max = 0, type = nla_type(a);

		if ((uint32_t)((char *)a - (char *)h) == off)
			return type <= LOOM_ATTR_MAX ? lc_attr_names[type] : NULL;
		if (type == LOOM_ATTR_ROUTE) {
			names = lc_route_attr_names;
			max = LOOM_ATTR_ROUTE_MAX;
		} else if (type == LOOM_ATTR_PORT) {
			names = lc_port_attr_names;
			max = LOOM_ATTR_PORT_MAX;
		} else if (type == LOOM_ATTR_VCT_PORT) {
			names = lc_vct_attr_names;
			max = LOOM_ATTR_VCT_MAX;
		} else if (type == LOOM_ATTR_KEY) {
			names = lc_key_attr_names;
			max = LOOM_ATTR_KEY_MAX;
		}
		if (type == LOOM_ATTR_ROUTE_TABLE)
			return lc_attr_in_table(h, a, off);
		if (!names)
			continue;
		nla_for_each_nested(n, a, nrem) {
			if ((uint32_t)((char *)n - (char *)h) == off)
				return nla_type(n) <= max ? names[nla_type(n)] : NULL;
		}
	}
	return NULL;
}

/* Keep the extack message and offset of an error or a failed dump. */
static void lc_keep_extack(struct lc_nl *nl, const struct nlattr *attrs, int len)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	struct nlattr *pol[NL_POLICY_TYPE_ATTR_MAX + 1];

	if (len <= 0 || nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)attrs,
				  len, NULL) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(nl->ext_msg, sizeof(nl->ext_msg), "%s",
			 nla_get_string(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_OFFS] && nla_len(tb[NLMSGERR_ATTR_OFFS]) >= 4)
		nl->ext_off = nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
	if (tb[NLMSGERR_ATTR_POLICY] &&
	    nla_parse_nested(pol, NL_POLICY_TYPE_ATTR_MAX, tb[NLMSGERR_ATTR_POLICY],
			     NULL) >= 0 &&
	    pol[NL_POLICY_TYPE_ATTR_MAX_VALUE_U] &&
	    nla_len(pol[NL_POLICY_TYPE_ATTR_MAX_VALUE_U]) >= 8) {
		nl->ext_max = nla_get_u64(pol[NL_POLICY_TYPE_ATTR_MAX_VALUE_U]);
		nl->ext_has_max = true;
		if (pol[NL_POLICY_TYPE_ATTR_MIN_VALUE_U] &&
		    nla_len(pol[NL_POLICY_TYPE_ATTR_MIN_VALUE_U]) >= 8)
			nl->ext_min = nla_get_u64(pol[NL_POLICY_TYPE_ATTR_MIN_VALUE_U]);
	}
}

static int lc_on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct lc_req *req = arg;
	const struct nlmsghdr *h = (const struct nlmsghdr *)((const char *)e - NLMSG_HDRLEN);
	int ack_len = sizeof(*e);

	(void)who;
	if (!(h->nlmsg_flags & NLM_F_CAPPED))
		ack_len += e->msg.nlmsg_len - NLMSG_HDRLEN;
	if (h->nlmsg_flags & NLM_F_ACK_TLVS)
		lc_keep_extack(req->nl, (const struct nlattr *)((const char *)e + ack_len),
			       (int)h->nlmsg_len - NLMSG_HDRLEN - ack_len);
	req->err = e->error;
	req->done = true;
	return NL_STOP;
}

static int lc_on_finish(struct nl_msg *msg, void *arg)
{
	struct lc_req *req = arg;
	struct nlmsghdr *h = nlmsg_hdr(msg);
	int *derr = nlmsg_data(h);

	/* a dump that failed says so in NLMSG_DONE */
	if (nlmsg_datalen(h) >= (int)sizeof(int) && *derr < 0) {
		req->err = *derr;
		if (h->nlmsg_flags & NLM_F_ACK_TLVS)
			lc_keep_extack(req->nl,
				       (const struct nlattr *)((char *)derr + sizeof(int)),
				       nlmsg_datalen(h) - (int)sizeof(int));
	}
	req->done = true;
	return NL_STOP;
}

static int lc_on_ack(struct nl_msg *msg, void *arg)
{
	struct lc_req *req = arg;

	(void)msg;
	req->done = true;
	return NL_STOP;
}

static int lc_on_valid(struct nl_msg *msg, void *arg)
{
	struct lc_req *req = arg;
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct genlmsghdr *g = nlmsg_data(h);
	struct nlattr *tb[LOOM_ATTR_MAX + 1];

	if (genlmsg_parse(h, 0, tb, LOOM_ATTR_MAX, lc_policy) < 0) {
		fprintf(stderr, "loomctl: the kernel sent a message loomctl cannot parse (is loomctl older than loom.ko?)\n");
		if (!req->cb_err)
			req->cb_err = -EPROTO;
		return NL_SKIP;
	}
	req->nl->cur = h;
	if (req->reply && !req->cb_err)
		req->cb_err = req->reply(tb, g->cmd, req->reply_arg);
	req->nl->cur = NULL;
	return NL_OK;
}

/**
 * lc_nl_request() - send one request and process every reply
 * @nl: the connection
 * @cmd: LOOM_CMD_*
 * @dump: a dump (NLM_F_DUMP) rather than a doit
 * @build: adds the request's attributes (may be NULL)
 * @build_arg: its argument
 * @reply: called with the top-level attributes of each reply (may be NULL)
 * @reply_arg: its argument
 *
 * Return: 0, a negative errno the kernel answered (extack kept in @nl),
 * or the first non-zero value @reply returned.
 */
int lc_nl_request(struct lc_nl *nl, uint8_t cmd, bool dump,
		  lc_build_fn build, void *build_arg,
		  lc_reply_fn reply, void *reply_arg)
{
	struct lc_req req = { .nl = nl, .reply = reply, .reply_arg = reply_arg };
	struct nl_msg *msg;
	struct nl_cb *cb;
	int err;

	nl->ext_msg[0] = '\0';
	nl->ext_off = 0;
	nl->ext_attr = NULL;
	nl->ext_has_max = false;
	nl->ext_min = 0;
	/* a whole routing table (route load) exceeds the default page */
	msg = nlmsg_alloc_size(LC_NL_MSG_MAX);
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!msg || !cb) {
		err = -ENOMEM;
		goto out;
	}
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
			 dump ? NLM_F_DUMP : 0, cmd, LOOM_GENL_VERSION)) {
		err = -ENOMEM;
		goto out;
	}
	if (build) {
		err = build(msg, build_arg);
		if (err)
			goto out;
	}
	nl_cb_err(cb, NL_CB_CUSTOM, lc_on_error, &req);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, lc_on_finish, &req);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, lc_on_ack, &req);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, lc_on_valid, &req);

	err = nl_send_auto(nl->sk, msg);
	if (err < 0) {
		fprintf(stderr, "loomctl: cannot send the request: %s\n", nl_geterror(err));
		err = -EIO;
		goto out;
	}
	while (!req.done) {
		err = nl_recvmsgs(nl->sk, cb);
		if (err < 0 && !req.done) {
			fprintf(stderr, "loomctl: cannot read the kernel's answer: %s\n",
				nl_geterror(err));
			err = -EIO;
			goto out;
		}
	}
	err = req.err ? req.err : req.cb_err;
	if (req.err && nl->ext_off)
		nl->ext_attr = lc_attr_at(msg, nl->ext_off);
out:
	nl_cb_put(cb);
	nlmsg_free(msg);
	return err;
}

/**
 * lc_nl_refused() - report a failed request
 * @nl: the connection (holds the extack message)
 * @err: negative errno
 * @what: the request, e.g. "route set 5"
 * @hint: appended when @err is -EPERM (may be NULL)
 *
 * Return: LC_EXIT_KERNEL.
 */
int lc_nl_refused(const struct lc_nl *nl, int err, const char *what,
		  const char *hint)
{
	fprintf(stderr, "loomctl: %s: %s", what, strerror(-err));
	if (nl->ext_msg[0])
		fprintf(stderr, ": %s", nl->ext_msg);
	if (nl->ext_attr && nl->ext_has_max && nl->ext_min)
		fprintf(stderr, " (%s is %llu..%llu)", nl->ext_attr,
			(unsigned long long)nl->ext_min,
			(unsigned long long)nl->ext_max);
	else if (nl->ext_attr && nl->ext_has_max)
		fprintf(stderr, " (%s is at most %llu)", nl->ext_attr,
			(unsigned long long)nl->ext_max);
	else if (nl->ext_attr)
		fprintf(stderr, " (in %s)", nl->ext_attr);
	if (err == -EPERM && hint)
		fprintf(stderr, ": %s", hint);
	fputc('\n', stderr);
	return LC_EXIT_KERNEL;
}

/**
 * lc_nl_request_list() - lc_nl_request() whose replies print a list
 * @nl: the connection
 * @cmd: LOOM_CMD_*
 * @dump: a dump rather than a doit
 * @build: adds the request's attributes (may be NULL)
 * @build_arg: its argument
 * @reply: prints one reply
 * @reply_arg: its argument
 *
 * Return: what lc_nl_request() returned.
 */
int lc_nl_request_list(struct lc_nl *nl, uint8_t cmd, bool dump,
		       lc_build_fn build, void *build_arg,
		       lc_reply_fn reply, void *reply_arg)
{
	int err;

	lc_print_open_array(LC_PRINT_JSON, NULL);
	err = lc_nl_request(nl, cmd, dump, build, build_arg, reply, reply_arg);
	lc_print_close_array(LC_PRINT_JSON);
	lc_print_end();
	return err;
}

/**
 * lc_nl_finish() - end a command: flush its output, report its failure, close
 * @nl: the connection, closed here
 * @err: what the request returned
 * @what: the request, e.g. "route set 5"
 * @hint: appended when @err is -EPERM (may be NULL)
 *
 * Return: LC_EXIT_OK, or the exit code lc_nl_refused() gave @err.
 */
int lc_nl_finish(struct lc_nl *nl, int err, const char *what,
		 const char *hint)
{
	lc_print_end();
	if (err)
		err = lc_nl_refused(nl, err, what, hint);
	lc_nl_close(nl);
	return err;
}

/**
 * lc_nl_parse_nest() - parse a nested attribute of a reply
 * @tb: max + 1 entries
 * @max: highest attribute type known
 * @nest: the nest
 * @policy: attribute types
 *
 * Return: 0, or -EPROTO after saying so.
 */
int lc_nl_parse_nest(struct nlattr **tb, int max, struct nlattr *nest,
		     struct nla_policy *policy)
{
	if (!nest || nla_parse_nested(tb, max, nest, policy) < 0) {
		fprintf(stderr, "loomctl: the kernel sent a malformed or missing nested attribute (is loomctl older than loom.ko?)\n");
		return -EPROTO;
	}
	return 0;
}

/**
 * lc_get_u32() - a u32 attribute of a reply, 0 when absent
 * @tb: parsed attributes (the policy checked the type)
 * @attr: which
 *
 * Return: the value.
 */
uint32_t lc_get_u32(struct nlattr **tb, int attr)
{
	return tb[attr] ? nla_get_u32(tb[attr]) : 0;
}

/**
 * lc_get_u64() - a u64 attribute of a reply, 0 when absent
 * @tb: parsed attributes (the policy checked the type)
 * @attr: which
 *
 * Return: the value.
 */
uint64_t lc_get_u64(struct nlattr **tb, int attr)
{
	return tb[attr] ? nla_get_u64(tb[attr]) : 0;
}
