// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The loom provider's RMA (fi_read*, fi_write*, fi_inject_write,
 * fi_writedata) and atomics (fi_atomic*, fi_fetch_atomic*,
 * fi_compare_atomic*).  Every operation goes to the card from the domain's
 * RMA context (mr.c) as one loom_put_mr(), loom_get_mr() or
 * loom_atomic_mr() naming the target's key and offset; the target card
 * checks key, partition, rights and bounds before it touches memory and
 * answers a protection error otherwise, which completes the operation
 * with an error entry.  The local side is the application's registered
 * buffer when its descriptor covers it (no copy), a bounce buffer for up
 * to LOFI_BOUNCE_CHUNK bytes, or else a registration for the operation
 * alone.  fi_writedata() sends the remote CQ data as a notice through the
 * message protocol once the bytes are in the target's memory.  Everything
 * runs under the domain lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fi_atomic.h>
#include <rdma/fi_rma.h>

#include "lofi.h"
#include "rmaproto.h"

#define BATCH	64

struct lofi_rma_op *lofi_rma_op_get(struct lofi_rma *rma, uint32_t *idx)
{
	uint32_t i = rma->free_op;

	if (i == LOFI_NONE)
		return NULL;
	rma->free_op = rma->ops[i].next_free;
	memset(&rma->ops[i], 0, sizeof(rma->ops[i]));
	rma->ops[i].chunk = -1;
	rma->ops[i].busy = 1;
	*idx = i;
	return &rma->ops[i];
}

void lofi_rma_op_put(struct lofi_rma *rma, uint32_t i)
{
	struct lofi_rma_op *op = &rma->ops[i];

	if (op->chunk >= 0)
		rma->chunk_free |= 1u << op->chunk;
	if (op->tmp)
		loom_mr_dereg(op->tmp);
	op->tmp = NULL;
	op->chunk = -1;
	op->busy = 0;
	op->next_free = rma->free_op;
	rma->free_op = i;
}

static int chunk_get(struct lofi_rma *rma)
{
	int c;

	if (!rma->chunk_free)
		return -1;
	c = __builtin_ctz(rma->chunk_free);
	rma->chunk_free &= ~(1u << c);
	return c;
}

/* an RMA or atomic finished (@err a positive FI_E*, 0) at the initiator */
static void report(struct lofi_ep *ep, const struct lofi_rma_op *op, int err,
		   int status)
{
	struct lofi_cntr *cntr = op->cq_flags & FI_READ ? ep->rd_cntr : ep->wr_cntr;

	if (err) {
		/* an inject has no context to report: its counter and the log tell */
		if (ep->tx_cq && !(op->op_flags & FI_INJECT))
			lofi_cq_push_err(ep->tx_cq, op->context, op->cq_flags, 0,
					 NULL, 0, 0, 0, err, status, FI_ADDR_NOTAVAIL);
		else if (op->op_flags & FI_INJECT)
			LOFI_WARN(FI_LOG_EP_DATA, "an inject RMA failed: %s\n",
				  fi_strerror(err));
		if (cntr)
			cntr->err++;
		return;
	}
	if (ep->tx_cq && (op->op_flags & FI_COMPLETION))
		lofi_cq_push(ep->tx_cq, op->context, op->cq_flags, 0, NULL, 0, 0,
			     FI_ADDR_NOTAVAIL);
	if (cntr)
		cntr->value++;
}

static void finish(struct lofi_rma *rma, uint32_t i, int status, uint64_t value)
{
	struct lofi_rma_op *op = &rma->ops[i];
	struct lofi_ep *ep = op->ep;
	int err = status ? lofi_errno_from_status(status) : 0;

	if (op->rdv) {
		lofi_rdv_read_done(rma, op, status);
		lofi_rma_op_put(rma, i);
		rma->inflight--;
		return;
	}
	if (!err && op->copy_to) {
		if (op->chunk >= 0)
			memcpy(op->copy_to, rma->bounce + (size_t)op->chunk * LOFI_BOUNCE_CHUNK,
			       op->len);
		else if (op->cq_flags & FI_ATOMIC)
			memcpy(op->copy_to, &value, LOFI_ATOMIC_SIZE);
	}
	if (ep && !err && (op->op_flags & FI_REMOTE_CQ_DATA)) {
		/* the bytes are in the target's memory: now tell it */
		int ret = lofi_send_notice(ep, op->dest, op->data, op->context,
					   op->op_flags & FI_COMPLETION);

		if (!ret)
			ep = NULL;	/* the notice's completion reports it */
		else
			err = -ret;
	}
	if (ep)
		report(ep, op, err, status);
	lofi_rma_op_put(rma, i);
	rma->inflight--;
}

void lofi_rma_progress(struct lofi_domain *d)
{
	struct lofi_rma *rma = d->rma;
	struct loom_completion c[BATCH];
	int n, i;

	if (!rma || !rma->inflight)
		return;
	while ((n = loom_poll(rma->ctx, c, BATCH)) > 0) {
		for (i = 0; i < n; i++) {
			uint64_t t = c[i].tag;

			if (c[i].kind != LOOM_COMPLETION_LOCAL || t >= LOFI_RMA_OPS ||
			    !rma->ops[t].busy)
				continue;
			finish(rma, (uint32_t)t, c[i].status, c[i].value);
		}
		if (n < BATCH)
			break;
	}
	if (n < 0)
		LOFI_WARN(FI_LOG_EP_DATA, "reaping the RMA context's completions: %s\n",
			  loom_strerror(n));
	for (i = 0; rma->unissued && i < (int)LOFI_RMA_OPS; i++) {
		struct lofi_rma_op *op = &rma->ops[i];
		int ret;

		if (!op->busy || !op->unissued)
			continue;
		ret = lofi_rdv_issue(rma, (uint32_t)i);
		if (ret == -EAGAIN)
			break;
		op->unissued = 0;
		rma->unissued--;
		if (ret)	/* refused: complete it as the card would */
			finish(rma, (uint32_t)i, LOOM_STATUS_BAD_DESC, 0);
	}
}

int lofi_rma_busy(struct lofi_domain *d)
{
	return d->rma && d->rma->inflight;
}

int lofi_rma_wait(struct lofi_domain *d, int timeout_ms)
{
	struct lofi_rma *rma = d->rma;
	struct loom_completion c[BATCH];
	int n, i;

	n = loom_wait(rma->ctx, c, BATCH, timeout_ms);
	if (n == -ETIMEDOUT)
		return -FI_ETIMEDOUT;
	if (n < 0)
		return n == -EIO ? -FI_EIO : n;
	for (i = 0; i < n; i++) {
		uint64_t t = c[i].tag;

		if (c[i].kind == LOOM_COMPLETION_LOCAL && t < LOFI_RMA_OPS &&
		    rma->ops[t].busy)
			finish(rma, (uint32_t)t, c[i].status, c[i].value);
	}
	return 0;
}

void lofi_rma_ep_gone(struct lofi_domain *d, struct lofi_ep *ep)
{
	uint32_t i;

	if (!d->rma)
		return;
	for (i = 0; i < LOFI_RMA_OPS; i++)
		if (d->rma->ops[i].busy && d->rma->ops[i].ep == ep)
			d->rma->ops[i].ep = NULL;
}

/* ---- issuing ----------------------------------------------------------- */

/* what an RMA asks for */
struct rma_req {
	void *buf;			/* local bytes */
	size_t len;
	void *desc;			/* fi_mr_desc() or NULL */
	fi_addr_t peer;
	uint64_t addr, key;		/* offset in the target region, its key */
	void *context;
	uint64_t data;
	uint64_t op_flags;		/* FI_COMPLETION, FI_INJECT, FI_REMOTE_CQ_DATA */
	int read;
};

/* the local region for [buf, buf + len): the caller's, a bounce, or a new one */
static int local_region(struct lofi_domain *d, struct lofi_rma *rma,
			struct lofi_rma_op *op, const struct rma_req *q,
			const struct loom_mr **lmr, uint64_t *loff)
{
	const struct lofi_mr *mr = q->desc;
	int ret;

	if (mr && mr->magic == LOFI_MR_MAGIC && mr->dom == d &&
	    lofi_range_inside(mr->addr, mr->len, q->buf, q->len) &&
	    (!q->read || (mr->loom_access & LOOM_MR_LOCAL_WRITE)) &&
	    !(q->op_flags & FI_INJECT)) {
		*lmr = mr->lmr;
		*loff = (uint64_t)((uint8_t *)q->buf - mr->addr);
		return 0;
	}
	if (q->len <= LOFI_BOUNCE_CHUNK) {
		op->chunk = chunk_get(rma);
		if (op->chunk < 0)
			return -FI_EAGAIN;
		*lmr = rma->bounce_mr;
		*loff = (uint64_t)op->chunk * LOFI_BOUNCE_CHUNK;
		if (q->read)
			op->copy_to = q->buf;
		else
			memcpy(rma->bounce + *loff, q->buf, q->len);
		return 0;
	}
	ret = loom_mr_reg(rma->ctx, q->buf, q->len,
			  q->read ? LOOM_MR_LOCAL_WRITE : 0, &op->tmp);
	if (ret) {
		LOFI_WARN(FI_LOG_EP_DATA, "registering the local %zu bytes at %p of an RMA: %s\n",
			  q->len, q->buf, loom_strerror(ret));
		return lofi_errno_from_neg(ret);
	}
	*lmr = op->tmp;
	*loff = 0;
	return 0;
}

/* validate, take an operation slot, and lock; returns with the lock held on 0 */
static int begin(struct lofi_ep *ep, fi_addr_t peer, struct lofi_addr *a,
		 struct lofi_rma **rmap, struct lofi_rma_op **opp, uint32_t *idx)
{
	struct lofi_domain *d = ep->dom;
	int ret;

	pthread_mutex_lock(&d->lock);
	if (!ep->enabled) {
		ret = -FI_EOPBADSTATE;
		goto fail;
	}
	ret = lofi_av_get(ep->av, peer, a);
	if (ret)
		goto fail;
	*rmap = lofi_rma_get(d);
	if (!*rmap) {
		ret = -FI_ENOMEM;
		goto fail;
	}
	lofi_rma_progress(d);
	*opp = lofi_rma_op_get(*rmap, idx);
	if (!*opp) {
		ret = -FI_EAGAIN;
		goto fail;
	}
	(*opp)->ep = ep;
	(*opp)->dest = peer;
	return 0;
fail:
	pthread_mutex_unlock(&d->lock);
	return ret;
}

/*
 * after issuing operation @idx (@ret: what the card's queue said, or 0 when
 * it completed already): count it in flight or give the slot back; unlocks
 */
static ssize_t end(struct lofi_domain *d, struct lofi_rma *rma, uint32_t idx,
		   int ret)
{
	if (ret)
		lofi_rma_op_put(rma, idx);
	else if (rma->ops[idx].busy)	/* at the card (not finished at once) */
		rma->inflight++;
	pthread_mutex_unlock(&d->lock);
	/* FI_E* and errno share their values */
	return ret ? lofi_errno_from_neg(ret) : 0;
}

/* the target key cannot be one the card gave: an error completion, no traffic */
static void bad_key(struct lofi_rma *rma, uint32_t idx)
{
	rma->inflight++;
	finish(rma, idx, LOOM_STATUS_MR_KEY, 0);
}

static ssize_t rma_issue(struct lofi_ep *ep, const struct rma_req *q)
{
	struct lofi_domain *d = ep->dom;
	const struct loom_mr *lmr = NULL;
	struct lofi_rma_op *op;
	struct lofi_rma *rma;
	struct lofi_addr a;
	uint64_t loff = 0;
	uint32_t idx;
	int ret;

	if (!q->buf && q->len)
		return -FI_EINVAL;
	if (q->len > LOFI_MAX_MSG)
		return -FI_EMSGSIZE;
	if ((q->op_flags & FI_INJECT) &&
	    (q->read || q->len > lofi_slot_payload(ep->lay.slot_size)))
		return q->read ? -FI_EINVAL : -FI_EMSGSIZE;
	ret = begin(ep, q->peer, &a, &rma, &op, &idx);
	if (ret)
		return ret;
	op->context = q->context;
	op->cq_flags = FI_RMA | (q->read ? FI_READ : FI_WRITE);
	op->op_flags = q->op_flags;
	op->len = q->len;
	op->data = q->data;
	if (!lofi_rkey_valid(q->key)) {
		bad_key(rma, idx);
		return end(d, rma, idx, 0);
	}
	if (!q->len) {		/* nothing to move: complete at once */
		rma->inflight++;
		finish(rma, idx, 0, 0);
		return end(d, rma, idx, 0);
	}
	ret = local_region(d, rma, op, q, &lmr, &loff);
	if (!ret && q->read)
		ret = loom_get_mr(rma->ctx, a.node, (uint32_t)q->key, q->addr, lmr,
				  loff, q->len, 0, idx);
	else if (!ret)
		ret = loom_put_mr(rma->ctx, a.node, (uint32_t)q->key, q->addr, lmr,
				  loff, q->len, 0, idx);
	return end(d, rma, idx, ret);
}

static struct lofi_ep *ep_of(struct fid_ep *fep)
{
	return lofi_container_of(fep, struct lofi_ep, ep);
}

/* FI_COMPLETION unless the CQ was bound with FI_SELECTIVE_COMPLETION */
static uint64_t comp_flag(struct lofi_ep *ep)
{
	return ep->selective_tx ? ep->tx_flags & FI_COMPLETION : FI_COMPLETION;
}

static ssize_t one_rma_iov(const struct iovec *iov, void **desc, size_t count,
			   struct rma_req *q)
{
	if (count != 1 || !iov)
		return -FI_EINVAL;
	q->buf = iov[0].iov_base;
	q->len = iov[0].iov_len;
	q->desc = desc ? desc[0] : NULL;
	return 0;
}

static ssize_t lofi_read(struct fid_ep *fep, void *buf, size_t len, void *desc,
			 fi_addr_t src, uint64_t addr, uint64_t key, void *context)
{
	struct lofi_ep *ep = ep_of(fep);
	struct rma_req q = { .buf = buf, .len = len, .desc = desc, .peer = src,
			     .addr = addr, .key = key, .context = context,
			     .op_flags = comp_flag(ep), .read = 1 };

	return rma_issue(ep, &q);
}

static ssize_t lofi_readv(struct fid_ep *fep, const struct iovec *iov,
			  void **desc, size_t count, fi_addr_t src,
			  uint64_t addr, uint64_t key, void *context)
{
	struct lofi_ep *ep = ep_of(fep);
	struct rma_req q = { .peer = src, .addr = addr, .key = key,
			     .context = context, .op_flags = comp_flag(ep),
			     .read = 1 };

	if (one_rma_iov(iov, desc, count, &q))
		return -FI_EINVAL;
	return rma_issue(ep, &q);
}

/* fi_readmsg(), fi_writemsg() */
static ssize_t rma_msg(struct fid_ep *fep, const struct fi_msg_rma *msg,
		       uint64_t flags, int read)
{
	struct lofi_ep *ep = ep_of(fep);
	struct rma_req q = { .read = read };

	if (!msg || one_rma_iov(msg->msg_iov, msg->desc, msg->iov_count, &q) ||
	    msg->rma_iov_count != 1 || !msg->rma_iov ||
	    msg->rma_iov[0].len != q.len)
		return -FI_EINVAL;
	if (read && (flags & (FI_INJECT | FI_REMOTE_CQ_DATA)))
		return -FI_EINVAL;
	q.peer = msg->addr;
	q.addr = msg->rma_iov[0].addr;
	q.key = msg->rma_iov[0].key;
	q.context = msg->context;
	q.data = msg->data;
	q.op_flags = flags & (FI_COMPLETION | FI_INJECT | FI_REMOTE_CQ_DATA);
	if (!ep->selective_tx)
		q.op_flags |= FI_COMPLETION;
	return rma_issue(ep, &q);
}

static ssize_t lofi_readmsg(struct fid_ep *fep, const struct fi_msg_rma *msg,
			    uint64_t flags)
{
	return rma_msg(fep, msg, flags, 1);
}

static ssize_t lofi_write(struct fid_ep *fep, const void *buf, size_t len,
			  void *desc, fi_addr_t dest, uint64_t addr,
			  uint64_t key, void *context)
{
	struct lofi_ep *ep = ep_of(fep);
	struct rma_req q = { .buf = (void *)buf, .len = len, .desc = desc,
			     .peer = dest, .addr = addr, .key = key,
			     .context = context, .op_flags = comp_flag(ep) };

	return rma_issue(ep, &q);
}

static ssize_t lofi_writev(struct fid_ep *fep, const struct iovec *iov,
			   void **desc, size_t count, fi_addr_t dest,
			   uint64_t addr, uint64_t key, void *context)
{
	struct lofi_ep *ep = ep_of(fep);
	struct rma_req q = { .peer = dest, .addr = addr, .key = key,
			     .context = context, .op_flags = comp_flag(ep) };

	if (one_rma_iov(iov, desc, count, &q))
		return -FI_EINVAL;
	return rma_issue(ep, &q);
}

static ssize_t lofi_writemsg(struct fid_ep *fep, const struct fi_msg_rma *msg,
			     uint64_t flags)
{
	return rma_msg(fep, msg, flags, 0);
}

static ssize_t lofi_inject_write(struct fid_ep *fep, const void *buf,
				 size_t len, fi_addr_t dest, uint64_t addr,
				 uint64_t key)
{
	struct rma_req q = { .buf = (void *)buf, .len = len, .peer = dest,
			     .addr = addr, .key = key, .op_flags = FI_INJECT };

	return rma_issue(ep_of(fep), &q);
}

static ssize_t lofi_writedata(struct fid_ep *fep, const void *buf, size_t len,
			      void *desc, uint64_t data, fi_addr_t dest,
			      uint64_t addr, uint64_t key, void *context)
{
	struct lofi_ep *ep = ep_of(fep);
	struct rma_req q = { .buf = (void *)buf, .len = len, .desc = desc,
			     .peer = dest, .addr = addr, .key = key,
			     .context = context, .data = data,
			     .op_flags = comp_flag(ep) | FI_REMOTE_CQ_DATA };

	return rma_issue(ep, &q);
}

static ssize_t lofi_inject_writedata(struct fid_ep *fep, const void *buf,
				     size_t len, uint64_t data, fi_addr_t dest,
				     uint64_t addr, uint64_t key)
{
	struct rma_req q = { .buf = (void *)buf, .len = len, .peer = dest,
			     .addr = addr, .key = key, .data = data,
			     .op_flags = FI_INJECT | FI_REMOTE_CQ_DATA };

	return rma_issue(ep_of(fep), &q);
}

struct fi_ops_rma lofi_rma_ops = {
	.size = sizeof(struct fi_ops_rma),
	.read = lofi_read,
	.readv = lofi_readv,
	.readmsg = lofi_readmsg,
	.write = lofi_write,
	.writev = lofi_writev,
	.writemsg = lofi_writemsg,
	.inject = lofi_inject_write,
	.writedata = lofi_writedata,
	.injectdata = lofi_inject_writedata,
};

/* ---- atomics ------------------------------------------------------------ */

struct atomic_req {
	enum lofi_atomic_kind kind;
	const void *operand;
	const void *compare;
	void *result;
	size_t count;
	fi_addr_t peer;
	uint64_t addr, key;
	enum fi_datatype dt;
	enum fi_op op;
	void *context;
	uint64_t op_flags;
};

static ssize_t atomic_issue(struct lofi_ep *ep, const struct atomic_req *q)
{
	struct lofi_domain *d = ep->dom;
	uint64_t operand = 0, compare = 0;
	struct lofi_rma_op *op;
	struct lofi_rma *rma;
	struct lofi_addr a;
	uint32_t loom_op, idx;
	int zero, ret;

	if (lofi_atomic_map(q->kind, q->op, q->dt, &loom_op, &zero))
		return -FI_EOPNOTSUPP;
	if (q->count != 1 || (!zero && !q->operand) ||
	    (q->kind != LOFI_ATOMIC_WRITE && !q->result) ||
	    (q->kind == LOFI_ATOMIC_COMPARE && !q->compare))
		return -FI_EINVAL;
	if (!zero)
		memcpy(&operand, q->operand, LOFI_ATOMIC_SIZE);
	if (q->compare)
		memcpy(&compare, q->compare, LOFI_ATOMIC_SIZE);
	ret = begin(ep, q->peer, &a, &rma, &op, &idx);
	if (ret)
		return ret;
	op->context = q->context;
	op->cq_flags = FI_ATOMIC | (q->kind == LOFI_ATOMIC_WRITE ? FI_WRITE : FI_READ);
	op->op_flags = q->op_flags;
	op->copy_to = q->kind == LOFI_ATOMIC_WRITE ? NULL : q->result;
	op->len = LOFI_ATOMIC_SIZE;
	if (!lofi_rkey_valid(q->key)) {
		bad_key(rma, idx);
		return end(d, rma, idx, 0);
	}
	ret = loom_atomic_mr(rma->ctx, a.node, (uint32_t)q->key, q->addr, loom_op,
			     operand, compare, idx);
	return end(d, rma, idx, ret);
}

static ssize_t lofi_atomic_write(struct fid_ep *fep, const void *buf,
				 size_t count, void *desc, fi_addr_t dest,
				 uint64_t addr, uint64_t key,
				 enum fi_datatype dt, enum fi_op op,
				 void *context)
{
	struct lofi_ep *ep = ep_of(fep);
	struct atomic_req q = { .kind = LOFI_ATOMIC_WRITE, .operand = buf,
				.count = count, .peer = dest, .addr = addr,
				.key = key, .dt = dt, .op = op,
				.context = context, .op_flags = comp_flag(ep) };

	(void)desc;
	return atomic_issue(ep, &q);
}

static ssize_t lofi_atomic_writev(struct fid_ep *fep, const struct fi_ioc *iov,
				  void **desc, size_t count, fi_addr_t dest,
				  uint64_t addr, uint64_t key,
				  enum fi_datatype dt, enum fi_op op,
				  void *context)
{
	if (count != 1 || !iov)
		return -FI_EINVAL;
	return lofi_atomic_write(fep, iov[0].addr, iov[0].count,
				 desc ? desc[0] : NULL, dest, addr, key, dt, op,
				 context);
}

/* the fi_msg_atomic of the *msg forms: one ioc, one remote ioc */
static int msg_atomic(struct lofi_ep *ep, const struct fi_msg_atomic *msg,
		      uint64_t flags, struct atomic_req *q)
{
	if (!msg || msg->iov_count != 1 || !msg->msg_iov ||
	    msg->rma_iov_count != 1 || !msg->rma_iov ||
	    msg->rma_iov[0].count != msg->msg_iov[0].count)
		return -FI_EINVAL;
	q->operand = msg->msg_iov[0].addr;
	q->count = msg->msg_iov[0].count;
	q->peer = msg->addr;
	q->addr = msg->rma_iov[0].addr;
	q->key = msg->rma_iov[0].key;
	q->dt = msg->datatype;
	q->op = msg->op;
	q->context = msg->context;
	q->op_flags = flags & FI_COMPLETION;
	if (!ep->selective_tx)
		q->op_flags |= FI_COMPLETION;
	return 0;
}

static ssize_t lofi_atomic_writemsg(struct fid_ep *fep,
				    const struct fi_msg_atomic *msg,
				    uint64_t flags)
{
	struct lofi_ep *ep = ep_of(fep);
	struct atomic_req q = { .kind = LOFI_ATOMIC_WRITE };

	if (msg_atomic(ep, msg, flags, &q))
		return -FI_EINVAL;
	return atomic_issue(ep, &q);
}

static ssize_t lofi_atomic_inject(struct fid_ep *fep, const void *buf,
				  size_t count, fi_addr_t dest, uint64_t addr,
				  uint64_t key, enum fi_datatype dt,
				  enum fi_op op)
{
	struct atomic_req q = { .kind = LOFI_ATOMIC_WRITE, .operand = buf,
				.count = count, .peer = dest, .addr = addr,
				.key = key, .dt = dt, .op = op };

	return atomic_issue(ep_of(fep), &q);
}

static ssize_t lofi_atomic_readwrite(struct fid_ep *fep, const void *buf,
				     size_t count, void *desc, void *result,
				     void *result_desc, fi_addr_t dest,
				     uint64_t addr, uint64_t key,
				     enum fi_datatype dt, enum fi_op op,
				     void *context)
{
	struct lofi_ep *ep = ep_of(fep);
	struct atomic_req q = { .kind = LOFI_ATOMIC_FETCH, .operand = buf,
				.result = result, .count = count, .peer = dest,
				.addr = addr, .key = key, .dt = dt, .op = op,
				.context = context, .op_flags = comp_flag(ep) };

	(void)desc; (void)result_desc;
	return atomic_issue(ep, &q);
}

static ssize_t lofi_atomic_readwritev(struct fid_ep *fep,
				      const struct fi_ioc *iov, void **desc,
				      size_t count, struct fi_ioc *resultv,
				      void **result_desc, size_t result_count,
				      fi_addr_t dest, uint64_t addr,
				      uint64_t key, enum fi_datatype dt,
				      enum fi_op op, void *context)
{
	(void)desc; (void)result_desc;
	if (count != 1 || !iov || result_count != 1 || !resultv)
		return -FI_EINVAL;
	if (resultv[0].count != iov[0].count)
		return -FI_EINVAL;
	return lofi_atomic_readwrite(fep, iov[0].addr, iov[0].count, NULL,
				     resultv[0].addr, NULL, dest, addr, key,
				     dt, op, context);
}

static ssize_t lofi_atomic_readwritemsg(struct fid_ep *fep,
					const struct fi_msg_atomic *msg,
					struct fi_ioc *resultv,
					void **result_desc,
					size_t result_count, uint64_t flags)
{
	struct lofi_ep *ep = ep_of(fep);
	struct atomic_req q = { .kind = LOFI_ATOMIC_FETCH };

	(void)result_desc;
	if (msg && msg->op == FI_ATOMIC_READ && msg->msg_iov && msg->iov_count == 1 &&
	    !msg->msg_iov[0].addr) {
		/* FI_ATOMIC_READ may come without an operand buffer */
		static const uint64_t none;
		struct fi_msg_atomic m = *msg;
		struct fi_ioc ioc = { .addr = (void *)&none, .count = msg->msg_iov[0].count };

		m.msg_iov = &ioc;
		if (msg_atomic(ep, &m, flags, &q))
			return -FI_EINVAL;
	} else if (msg_atomic(ep, msg, flags, &q)) {
		return -FI_EINVAL;
	}
	if (result_count != 1 || !resultv || resultv[0].count != q.count)
		return -FI_EINVAL;
	q.result = resultv[0].addr;
	return atomic_issue(ep, &q);
}

static ssize_t lofi_atomic_compwrite(struct fid_ep *fep, const void *buf,
				     size_t count, void *desc,
				     const void *compare, void *compare_desc,
				     void *result, void *result_desc,
				     fi_addr_t dest, uint64_t addr,
				     uint64_t key, enum fi_datatype dt,
				     enum fi_op op, void *context)
{
	struct lofi_ep *ep = ep_of(fep);
	struct atomic_req q = { .kind = LOFI_ATOMIC_COMPARE, .operand = buf,
				.compare = compare, .result = result,
				.count = count, .peer = dest, .addr = addr,
				.key = key, .dt = dt, .op = op,
				.context = context, .op_flags = comp_flag(ep) };

	(void)desc; (void)compare_desc; (void)result_desc;
	return atomic_issue(ep, &q);
}

static ssize_t lofi_atomic_compwritev(struct fid_ep *fep,
				      const struct fi_ioc *iov, void **desc,
				      size_t count,
				      const struct fi_ioc *comparev,
				      void **compare_desc,
				      size_t compare_count,
				      struct fi_ioc *resultv,
				      void **result_desc, size_t result_count,
				      fi_addr_t dest, uint64_t addr,
				      uint64_t key, enum fi_datatype dt,
				      enum fi_op op, void *context)
{
	(void)desc; (void)compare_desc; (void)result_desc;
	if (count != 1 || !iov || compare_count != 1 || !comparev ||
	    result_count != 1 || !resultv || comparev[0].count != iov[0].count ||
	    resultv[0].count != iov[0].count)
		return -FI_EINVAL;
	return lofi_atomic_compwrite(fep, iov[0].addr, iov[0].count, NULL,
				     comparev[0].addr, NULL, resultv[0].addr,
				     NULL, dest, addr, key, dt, op, context);
}

static ssize_t lofi_atomic_compwritemsg(struct fid_ep *fep,
					const struct fi_msg_atomic *msg,
					const struct fi_ioc *comparev,
					void **compare_desc,
					size_t compare_count,
					struct fi_ioc *resultv,
					void **result_desc,
					size_t result_count, uint64_t flags)
{
	struct lofi_ep *ep = ep_of(fep);
	struct atomic_req q = { .kind = LOFI_ATOMIC_COMPARE };

	(void)compare_desc; (void)result_desc;
	if (msg_atomic(ep, msg, flags, &q) || compare_count != 1 || !comparev ||
	    result_count != 1 || !resultv || comparev[0].count != q.count ||
	    resultv[0].count != q.count)
		return -FI_EINVAL;
	q.compare = comparev[0].addr;
	q.result = resultv[0].addr;
	return atomic_issue(ep, &q);
}

/* fi_atomicvalid() and its fetch and compare forms: one element at a time */
static int valid(enum lofi_atomic_kind kind, enum fi_datatype dt,
		 enum fi_op op, size_t *count)
{
	uint32_t loom_op;
	int zero;

	if (lofi_atomic_map(kind, op, dt, &loom_op, &zero)) {
		if (count)
			*count = 0;
		return -FI_EOPNOTSUPP;
	}
	if (count)
		*count = 1;
	return 0;
}

static int lofi_atomic_valid(struct fid_ep *ep, enum fi_datatype dt,
			     enum fi_op op, size_t *count)
{
	(void)ep;
	return valid(LOFI_ATOMIC_WRITE, dt, op, count);
}

static int lofi_atomic_fetch_valid(struct fid_ep *ep, enum fi_datatype dt,
				   enum fi_op op, size_t *count)
{
	(void)ep;
	return valid(LOFI_ATOMIC_FETCH, dt, op, count);
}

static int lofi_atomic_compare_valid(struct fid_ep *ep, enum fi_datatype dt,
				     enum fi_op op, size_t *count)
{
	(void)ep;
	return valid(LOFI_ATOMIC_COMPARE, dt, op, count);
}

int lofi_query_atomic(struct fid_domain *domain, enum fi_datatype dt,
		      enum fi_op op, struct fi_atomic_attr *attr, uint64_t flags)
{
	enum lofi_atomic_kind kind = LOFI_ATOMIC_WRITE;
	size_t count;
	int ret;

	(void)domain;
	if (!attr || (flags & ~(uint64_t)(FI_FETCH_ATOMIC | FI_COMPARE_ATOMIC)) ||
	    (flags & FI_FETCH_ATOMIC && flags & FI_COMPARE_ATOMIC))
		return -FI_EINVAL;
	if (flags & FI_FETCH_ATOMIC)
		kind = LOFI_ATOMIC_FETCH;
	else if (flags & FI_COMPARE_ATOMIC)
		kind = LOFI_ATOMIC_COMPARE;
	ret = valid(kind, dt, op, &count);
	if (ret)
		return ret;
	attr->count = count;
	attr->size = LOFI_ATOMIC_SIZE;
	return 0;
}

struct fi_ops_atomic lofi_atomic_ops = {
	.size = sizeof(struct fi_ops_atomic),
	.write = lofi_atomic_write,
	.writev = lofi_atomic_writev,
	.writemsg = lofi_atomic_writemsg,
	.inject = lofi_atomic_inject,
	.readwrite = lofi_atomic_readwrite,
	.readwritev = lofi_atomic_readwritev,
	.readwritemsg = lofi_atomic_readwritemsg,
	.compwrite = lofi_atomic_compwrite,
	.compwritev = lofi_atomic_compwritev,
	.compwritemsg = lofi_atomic_compwritemsg,
	.writevalid = lofi_atomic_valid,
	.readwritevalid = lofi_atomic_fetch_valid,
	.compwritevalid = lofi_atomic_compare_valid,
};
