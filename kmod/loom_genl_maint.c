// SPDX-License-Identifier: GPL-2.0
/*
 * LOOM_CMD_MAINT: one register access on any card of the fabric through
 * the maintenance network (directed routes, no routing table needed), and
 * LOOM_EVENT_MAINT_RESP for every response the card delivers.
 *
 * The card's MAINT block is a mailbox for one request and a ring of
 * LOOM_MAINT_RESP_SLOTS responses.  A request is issued by writing the
 * mailbox, then a new REQ_SEQ (then a kick in the lab); the response lands
 * in the ring and the card raises LOOM_VEC_EVENT.  Maintenance packets are
 * not flow controlled: one that meets a busy, down or nonexistent port is
 * lost, so each attempt waits TIMEOUT_MS and the next one goes out with a
 * new sequence id.  A response to an abandoned attempt arrives late: no
 * one waits for its sequence id and it is only multicast.
 *
 * One request is in flight per card (maint.req_lock).  The wait does not
 * hold ldev->lock: every register access takes it and checks that the
 * card is still there.  The family has parallel_ops (loom_genl.c), so this
 * sleep of up to 10 s per attempt does not hold genl_mutex and stall every
 * other generic netlink family of the system.
 *
 * Every request is answered.  The waits are killable, not interruptible:
 * netlink sends no answer at all for -EINTR, so a signal the caller
 * handles must not end the wait.  A fatal signal does, with -ECANCELED
 * and an extack that says whether a request had gone out to the card
 * (then the access may have been performed: a write may have taken
 * effect) or not (nothing was accessed).
 *
 * What maintenance reads return is privileged (the command needs
 * CAP_NET_ADMIN), so LOOM_EVENT_MAINT_RESP goes to the "maint" multicast
 * group, which only CAP_NET_ADMIN may join.  A kernel whose generic
 * netlink cannot restrict a group (no GENL_MCAST_CAP_NET_ADMIN) gets no
 * maintenance multicast: each response then reaches its requester only.
 */
#include <linux/jiffies.h>
#include <linux/pci.h>
#include <linux/sched/signal.h>
#include <linux/wait.h>

#include "loom_drv.h"
#include "loom_genl.h"

#define LOOM_MAINT_TIMEOUT_DEFAULT_MS	100
#define LOOM_MAINT_TIMEOUT_MAX_MS	10000
#define LOOM_MAINT_RETRIES_DEFAULT	3
#define LOOM_MAINT_RETRIES_MAX		100

/* the "maint" group can be kept from unprivileged listeners */
#ifdef LOOM_HAVE_GENL_MCAST_CAP
#define LOOM_MAINT_MULTICAST		true
#else
#define LOOM_MAINT_MULTICAST		false
#endif

const struct nla_policy loom_genl_maint_policy[LOOM_ATTR_MAINT_MAX + 1] = {
	[LOOM_ATTR_MAINT_OP] = { .type = NLA_U8 },
	[LOOM_ATTR_MAINT_ROUTE] = { .type = NLA_BINARY },
	[LOOM_ATTR_MAINT_ADDR] = { .type = NLA_U32 },
	[LOOM_ATTR_MAINT_VALUE] = { .type = NLA_U32 },
	[LOOM_ATTR_MAINT_TIMEOUT_MS] = { .type = NLA_U32 },
	[LOOM_ATTR_MAINT_RETRIES] = { .type = NLA_U32 },
	[LOOM_ATTR_MAINT_STATUS] = {
		.type = NLA_REJECT,
		.reject_message = "LOOM_ATTR_MAINT_STATUS is set by the reply only",
	},
	[LOOM_ATTR_MAINT_SEQ] = {
		.type = NLA_REJECT,
		.reject_message = "LOOM_ATTR_MAINT_SEQ is set by the reply only",
	},
	[LOOM_ATTR_MAINT_NODE] = {
		.type = NLA_REJECT,
		.reject_message = "LOOM_ATTR_MAINT_NODE is set by the reply only",
	},
	[LOOM_ATTR_MAINT_ATTEMPTS] = {
		.type = NLA_REJECT,
		.reject_message = "LOOM_ATTR_MAINT_ATTEMPTS is set by the reply only",
	},
};

/* one maintenance access as asked for */
struct loom_maint_req {
	u8 op;
	u8 route_len;
	u8 route[LOOM_MAINT_MAX_HOPS];
	u32 addr;
	u32 value;
	u32 timeout_ms;
	u32 retries;
};

static u32 loom_maint_reg(struct loom_dev *ldev, u32 field)
{
	return ldev->maint.off + field;
}

/* ---- events ------------------------------------------------------------ */

static int loom_maint_fill(struct sk_buff *msg, struct loom_dev *ldev,
			   const struct loom_maint_req *req,
			   const struct loom_maint_resp *resp, u32 attempts)
{
	struct nlattr *nest;

	if (nla_put_u32(msg, LOOM_ATTR_DEV_INDEX, ldev->minor))
		return -EMSGSIZE;
	nest = nla_nest_start(msg, LOOM_ATTR_MAINT);
	if (!nest)
		return -EMSGSIZE;
	if (req &&
	    (nla_put_u8(msg, LOOM_ATTR_MAINT_OP, req->op) ||
	     nla_put(msg, LOOM_ATTR_MAINT_ROUTE, req->route_len, req->route) ||
	     nla_put_u32(msg, LOOM_ATTR_MAINT_ADDR, req->addr)))
		goto cancel;
	if (nla_put_u32(msg, LOOM_ATTR_MAINT_VALUE, resp->value) ||
	    nla_put_u32(msg, LOOM_ATTR_MAINT_STATUS, resp->status) ||
	    nla_put_u32(msg, LOOM_ATTR_MAINT_SEQ, resp->seq) ||
	    nla_put_u32(msg, LOOM_ATTR_MAINT_NODE, resp->node))
		goto cancel;
	if (attempts && nla_put_u32(msg, LOOM_ATTR_MAINT_ATTEMPTS, attempts))
		goto cancel;
	nla_nest_end(msg, nest);
	return 0;
cancel:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

/*
 * Multicast one response to the "maint" group; @req is the request when it
 * is the awaited one.
 */
static void loom_maint_notify(struct loom_dev *ldev,
			      const struct loom_maint_req *req,
			      const struct loom_maint_resp *resp)
{
	struct sk_buff *msg;
	void *hdr;

	if (!LOOM_MAINT_MULTICAST ||
	    !genl_has_listeners(&loom_genl_family, &init_net,
				LOOM_GENL_MCGRP_MAINT_ID))
		return;
	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &loom_genl_family, 0,
			  LOOM_EVENT_MAINT_RESP);
	if (!hdr || loom_maint_fill(msg, ldev, req, resp, 0)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast(&loom_genl_family, msg, 0, LOOM_GENL_MCGRP_MAINT_ID,
			  GFP_KERNEL);
}

/*
 * Consume the response ring: hand the awaited response to its waiter,
 * multicast every one.  Registers must be mapped; maint.scan_lock held.
 */
static void loom_maint_scan(struct loom_dev *ldev)
{
	struct loom_maint *m = &ldev->maint;
	u32 pi = loom_rd(ldev, loom_maint_reg(ldev, LOOM_MAINT_RESP_PI));
	bool woke = false;

	if (pi == m->ci)
		return;
	/* the entries were written before RESP_PI */
	rmb();
	if (pi - m->ci > LOOM_MAINT_RESP_SLOTS) {
		dev_warn_ratelimited(&ldev->pdev->dev,
				     "maintenance response ring overrun: %u responses not seen\n",
				     pi - m->ci - LOOM_MAINT_RESP_SLOTS);
		m->ci = pi - LOOM_MAINT_RESP_SLOTS;
	}
	for (; m->ci != pi; m->ci++) {
		u32 e = loom_maint_reg(ldev, LOOM_MAINT_RESP_BASE) +
			(m->ci % LOOM_MAINT_RESP_SLOTS) * LOOM_MAINT_RESP_SIZE;
		struct loom_maint_req req = {
			.op = m->op, .route_len = m->route_len, .addr = m->addr,
		};
		struct loom_maint_resp r;
		bool mine;

		r.seq = loom_rd(ldev, e + LOOM_MAINTR_SEQ);
		r.status = loom_rd(ldev, e + LOOM_MAINTR_STATUS);
		r.value = loom_rd(ldev, e + LOOM_MAINTR_VALUE);
		r.node = loom_rd(ldev, e + LOOM_MAINTR_NODE);
		mine = m->want && r.seq == m->want && !m->got;
		if (mine) {
			m->resp = r;
			m->got = true;
			woke = true;
			memcpy(req.route, m->route, sizeof(req.route));
		}
		loom_maint_notify(ldev, mine ? &req : NULL, &r);
	}
	if (woke)
		wake_up_all(&m->wq);
}

/**
 * loom_maint_event() - vector LOOM_VEC_EVENT: read the response ring
 * @ldev: the card; called from the interrupt thread, registers mapped
 */
void loom_maint_event(struct loom_dev *ldev)
{
	struct loom_maint *m = &ldev->maint;

	if (!m->off)
		return;
	mutex_lock(&m->scan_lock);
	loom_maint_scan(ldev);
	mutex_unlock(&m->scan_lock);
}

/**
 * loom_maint_setup() - start after the card's state
 * @ldev: the card, its register blocks found (ldev->blk_maint)
 *
 * Called before the event interrupt is requested.  The sequence id starts
 * at the card's last acknowledged request and the ring at its producer
 * index, so a reloaded driver neither reuses an id nor replays responses.
 */
void loom_maint_setup(struct loom_dev *ldev)
{
	struct loom_maint *m = &ldev->maint;
	const struct loom_blk *b = &ldev->blk_maint;

	mutex_init(&m->req_lock);
	mutex_init(&m->scan_lock);
	init_waitqueue_head(&m->wq);
	m->off = 0;
	/* found (version checked, inside the register space) by loom_regs.c */
	if (!b->size)
		return;
	if (b->size < LOOM_MAINT_SIZE) {
		dev_warn(&ldev->pdev->dev,
			 "maintenance block at %#x has %#x bytes, fewer than its %#x: maintenance access disabled\n",
			 b->off, b->size, LOOM_MAINT_SIZE);
		return;
	}
	m->off = b->off;
	m->seq = loom_rd(ldev, loom_maint_reg(ldev, LOOM_MAINT_REQ_ACK));
	m->ci = loom_rd(ldev, loom_maint_reg(ldev, LOOM_MAINT_RESP_PI));
}

/* ---- LOOM_CMD_MAINT ----------------------------------------------------- */

static int loom_maint_parse(struct genl_info *info, struct loom_maint_req *req)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[LOOM_ATTR_MAINT_MAX + 1];
	struct nlattr *nest = info->attrs[LOOM_ATTR_MAINT];
	unsigned int i;
	int err;

	if (!nest) {
		NL_SET_ERR_MSG_MOD(extack, "missing LOOM_ATTR_MAINT");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, LOOM_ATTR_MAINT_MAX, nest,
			       loom_genl_maint_policy, extack);
	if (err)
		return err;
	if (!tb[LOOM_ATTR_MAINT_OP]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "missing LOOM_ATTR_MAINT_OP (1 read, 2 write)");
		return -EINVAL;
	}
	req->op = nla_get_u8(tb[LOOM_ATTR_MAINT_OP]);
	if (req->op != LOOM_MAINT_OP_READ && req->op != LOOM_MAINT_OP_WRITE) {
		NL_SET_ERR_MSG_ATTR(extack, tb[LOOM_ATTR_MAINT_OP],
				    "bad LOOM_ATTR_MAINT_OP: 1 (read) or 2 (write)");
		return -EINVAL;
	}
	if (!tb[LOOM_ATTR_MAINT_ROUTE]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "missing LOOM_ATTR_MAINT_ROUTE (empty for this card)");
		return -EINVAL;
	}
	if (nla_len(tb[LOOM_ATTR_MAINT_ROUTE]) > LOOM_MAINT_MAX_HOPS) {
		NL_SET_ERR_MSG_ATTR(extack, tb[LOOM_ATTR_MAINT_ROUTE],
				    "route longer than 16 hops (LOOM_MAINT_MAX_HOPS)");
		return -EINVAL;
	}
	req->route_len = nla_len(tb[LOOM_ATTR_MAINT_ROUTE]);
	memset(req->route, 0, sizeof(req->route));
	nla_memcpy(req->route, tb[LOOM_ATTR_MAINT_ROUTE], sizeof(req->route));
	for (i = 0; i < req->route_len; i++) {
		if (req->route[i] >= LOOM_MAX_PORTS) {
			NL_SET_ERR_MSG_ATTR(extack, tb[LOOM_ATTR_MAINT_ROUTE],
					    "route names a port above 7: no card has it");
			return -EINVAL;
		}
	}
	if (!tb[LOOM_ATTR_MAINT_ADDR]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "missing LOOM_ATTR_MAINT_ADDR (register offset at the target)");
		return -EINVAL;
	}
	req->addr = nla_get_u32(tb[LOOM_ATTR_MAINT_ADDR]);
	if (req->op == LOOM_MAINT_OP_WRITE && !tb[LOOM_ATTR_MAINT_VALUE]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "a write needs LOOM_ATTR_MAINT_VALUE");
		return -EINVAL;
	}
	req->value = tb[LOOM_ATTR_MAINT_VALUE] ?
		     nla_get_u32(tb[LOOM_ATTR_MAINT_VALUE]) : 0;
	req->timeout_ms = LOOM_MAINT_TIMEOUT_DEFAULT_MS;
	if (tb[LOOM_ATTR_MAINT_TIMEOUT_MS]) {
		req->timeout_ms = nla_get_u32(tb[LOOM_ATTR_MAINT_TIMEOUT_MS]);
		if (!req->timeout_ms ||
		    req->timeout_ms > LOOM_MAINT_TIMEOUT_MAX_MS) {
			NL_SET_ERR_MSG_ATTR(extack, tb[LOOM_ATTR_MAINT_TIMEOUT_MS],
					    "timeout per attempt must be 1..10000 ms");
			return -EINVAL;
		}
	}
	req->retries = LOOM_MAINT_RETRIES_DEFAULT;
	if (tb[LOOM_ATTR_MAINT_RETRIES]) {
		req->retries = nla_get_u32(tb[LOOM_ATTR_MAINT_RETRIES]);
		if (req->retries > LOOM_MAINT_RETRIES_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, tb[LOOM_ATTR_MAINT_RETRIES],
					    "at most 100 retries");
			return -EINVAL;
		}
	}
	return 0;
}

/* Post @req with a new sequence id; 0 or -ENODEV when the card is gone. */
static int loom_maint_issue(struct loom_dev *ldev,
			    const struct loom_maint_req *req)
{
	struct loom_maint *m = &ldev->maint;
	u32 seq, w;

	mutex_lock(&ldev->lock);
	if (ldev->dead) {
		mutex_unlock(&ldev->lock);
		return -ENODEV;
	}
	mutex_lock(&m->scan_lock);
	seq = ++m->seq;
	if (!seq)
		seq = ++m->seq;
	m->want = seq;
	m->got = false;
	m->op = req->op;
	m->addr = req->addr;
	m->route_len = req->route_len;
	memcpy(m->route, req->route, sizeof(m->route));
	mutex_unlock(&m->scan_lock);

	loom_wr(ldev, loom_maint_reg(ldev, LOOM_MAINT_OP), req->op);
	loom_wr(ldev, loom_maint_reg(ldev, LOOM_MAINT_ADDR), req->addr);
	loom_wr(ldev, loom_maint_reg(ldev, LOOM_MAINT_VALUE), req->value);
	loom_wr(ldev, loom_maint_reg(ldev, LOOM_MAINT_ROUTE_LEN), req->route_len);
	for (w = 0; w < LOOM_MAINT_MAX_HOPS / 4; w++)
		loom_wr(ldev, loom_maint_reg(ldev, LOOM_MAINT_ROUTE) + 4 * w,
			req->route[4 * w] | req->route[4 * w + 1] << 8 |
			req->route[4 * w + 2] << 16 |
			(u32)req->route[4 * w + 3] << 24);
	/* REQ_SEQ publishes the request: everything above must land first */
	wmb();
	loom_wr(ldev, loom_maint_reg(ldev, LOOM_MAINT_REQ_SEQ), seq);
	ldev->hal->kick(ldev, LOOM_KICK_ADMIN);
	mutex_unlock(&ldev->lock);
	return 0;
}

/*
 * Wait up to @timeout_ms for the response to the request just issued.
 * The event interrupt delivers it; the ring is also read every
 * admin_poll_ms in case the interrupt is missing.  1 when it arrived, 0 on
 * timeout, -ENODEV when the card went away, -ECANCELED on a fatal signal.
 */
static int loom_maint_wait(struct loom_dev *ldev, u32 timeout_ms)
{
	struct loom_maint *m = &ldev->maint;
	unsigned long deadline = jiffies + msecs_to_jiffies(timeout_ms);
	unsigned long slice = msecs_to_jiffies(max(loom_admin_poll_ms, 1u));
	long left;

	for (;;) {
		left = wait_event_killable_timeout(m->wq, READ_ONCE(m->got),
						   slice);
		if (left < 0)
			return -ECANCELED;
		if (READ_ONCE(m->got))
			return 1;
		mutex_lock(&ldev->lock);
		if (ldev->dead) {
			mutex_unlock(&ldev->lock);
			return -ENODEV;
		}
		mutex_lock(&m->scan_lock);
		loom_maint_scan(ldev);
		mutex_unlock(&m->scan_lock);
		mutex_unlock(&ldev->lock);
		if (READ_ONCE(m->got))
			return 1;
		if (time_after(jiffies, deadline))
			return 0;
	}
}

static int loom_maint_reply(struct genl_info *info, struct loom_dev *ldev,
			    const struct loom_maint_req *req,
			    const struct loom_maint_resp *resp, u32 attempts)
{
	struct sk_buff *msg;
	void *hdr;

	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &loom_genl_family, 0, LOOM_CMD_MAINT);
	if (!hdr || loom_maint_fill(msg, ldev, req, resp, attempts)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/**
 * loom_genl_maint_doit() - LOOM_CMD_MAINT: one maintenance access
 * @skb: the request
 * @info: its attributes: DEV_INDEX, MAINT{OP, ROUTE, ADDR, [VALUE],
 *	[TIMEOUT_MS], [RETRIES]}
 *
 * Return: 0 after the reply (whatever the card's status), -ETIMEDOUT when
 * every attempt timed out, -ECANCELED when a fatal signal ended the wait
 * (the extack says whether a request had gone out), or another negative
 * errno with an extack.  Never -EINTR, which netlink would not answer.
 */
int loom_genl_maint_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct loom_maint_req req;
	struct loom_maint_resp resp;
	struct loom_dev *ldev;
	struct loom_maint *m;
	u32 attempts = 0;
	int err;

	err = loom_maint_parse(info, &req);
	if (err)
		return err;
	ldev = loom_genl_dev_lock(info->attrs, info->extack);
	if (IS_ERR(ldev))
		return PTR_ERR(ldev);
	m = &ldev->maint;
	/* the waits below take ldev->lock only around register accesses */
	mutex_unlock(&ldev->lock);
	if (!m->off) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "this card has no maintenance block (update its firmware)");
		err = -EOPNOTSUPP;
		goto out_put;
	}
	if (mutex_lock_killable(&m->req_lock)) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "ended by a fatal signal while waiting for another maintenance request of this card: no request went out, nothing was accessed");
		err = -ECANCELED;
		goto out_put;
	}
	err = 0;
	while (attempts <= req.retries) {
		attempts++;
		err = loom_maint_issue(ldev, &req);
		if (!err)
			err = loom_maint_wait(ldev, req.timeout_ms);
		if (err)
			break;
	}
	mutex_lock(&m->scan_lock);
	m->want = 0;
	/* a response that beat the signal is still the answer */
	if (err == -ECANCELED && m->got)
		err = 1;
	resp = m->resp;
	mutex_unlock(&m->scan_lock);
	mutex_unlock(&m->req_lock);

	if (err == 1) {
		err = loom_maint_reply(info, ldev, &req, &resp, attempts);
	} else if (err == 0) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "no maintenance response to any attempt: the route crosses a down or nonexistent port or a card that is not running (check the route; raise the timeout or retries if the fabric is only slow)");
		err = -ETIMEDOUT;
	} else if (err == -ENODEV) {
		NL_SET_ERR_MSG_MOD(info->extack, "the loom device was removed");
	} else if (err == -ECANCELED) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "ended by a fatal signal while waiting for the maintenance response: the request went out, so the access may have been performed (a write may have taken effect)");
	}
out_put:
	loom_dev_put(ldev);
	return err;
}
