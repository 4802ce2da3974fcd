// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The loom provider's data calls: fi_send*, fi_recv*, fi_tsend*, fi_trecv*
 * and their inject and data forms.  A send is queued at its peer and sent
 * in fragments by progress.c; a receive first looks at the unexpected
 * messages, else waits in the posted queue.
 */
#include <stdlib.h>
#include <string.h>

#include "lofi.h"

/* the send side's state towards the endpoint @a; the lock is held */
static struct lofi_txpeer *peer_get(struct lofi_ep *ep, const struct lofi_addr *a)
{
	uint64_t key = lofi_peer_key(a->node, a->ctx);
	struct lofi_txpeer *p, **peers;
	uint32_t i;

	for (i = 0; i < ep->n_peers; i++)
		if (ep->peers[i]->key == key)
			return ep->peers[i];
	if (ep->n_peers == LOFI_MAX_TX_PEERS)
		return NULL;
	if (!(ep->n_peers & (ep->n_peers - 1))) {	/* 0 or a power of two */
		peers = realloc(ep->peers, (ep->n_peers ? ep->n_peers * 2 : 8) * sizeof(*peers));
		if (!peers)
			return NULL;
		ep->peers = peers;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->addr = *a;
	p->key = key;
	p->cell = ep->n_peers;
	p->state = LOFI_PEER_NEW;
	lofi_list_init(&p->queue);
	lofi_list_init(&p->active);
	ep->peers[ep->n_peers++] = p;
	return p;
}

void lofi_txop_finish(struct lofi_ep *ep, struct lofi_txop *op)
{
	uint64_t cq_flags = (op->fi_flags & (FI_TAGGED | FI_MSG)) | FI_SEND;
	struct lofi_cntr *cntr = ep->tx_cntr;

	if (op->fi_flags & FI_RMA) {	/* the notice that ends fi_writedata() */
		cq_flags = FI_RMA | FI_WRITE;
		cntr = ep->wr_cntr;
	}
	if (op->err) {
		/* an inject has no context to report: its counter and the log tell */
		if (ep->tx_cq && !(op->fi_flags & FI_INJECT))
			lofi_cq_push_err(ep->tx_cq, op->context, cq_flags, 0, NULL,
					 0, op->tag, 0, op->err, op->card_status,
					 FI_ADDR_NOTAVAIL);
		else if (op->fi_flags & FI_INJECT)
			LOFI_WARN(FI_LOG_EP_DATA, "an inject of %llu bytes failed: %s\n",
				  (unsigned long long)op->len, fi_strerror(op->err));
		if (cntr)
			cntr->err++;
	} else {
		if (ep->tx_cq && (op->fi_flags & FI_COMPLETION))
			lofi_cq_push(ep->tx_cq, op->context, cq_flags, 0, NULL, 0,
				     0, FI_ADDR_NOTAVAIL);
		if (cntr)
			cntr->value++;
	}
	lofi_txop_release(ep, op);
	free(op->owned);
	free(op);
}

/* queue @op to the peer @dest and push what the window allows; the lock is held */
static int queue_op(struct lofi_ep *ep, fi_addr_t dest, struct lofi_txop *op)
{
	struct lofi_txpeer *p;
	struct lofi_addr a;
	int ret;

	ret = lofi_av_get(ep->av, dest, &a);
	if (ret)
		return ret;
	p = peer_get(ep, &a);
	if (!p)
		return -FI_ENOMEM;
	op->cookie = LOFI_NONE;
	if (lofi_rdv_threshold && op->len >= lofi_rdv_threshold &&
	    !(op->fi_flags & FI_INJECT) && !(op->wire_flags & LOFI_F_RMA) &&
	    !lofi_rdv_prepare(ep, op))
		ep->rdv_peer[op->cookie] = p;
	lofi_list_add_tail(&p->queue, &op->link);
	lofi_peer_kick(ep, p);
	lofi_ep_push(ep);
	return 0;
}

static ssize_t send_common(struct fid_ep *fep, const void *buf, size_t len,
			   fi_addr_t dest, uint64_t tag, uint64_t data,
			   void *context, uint64_t flags)
{
	struct lofi_ep *ep = lofi_container_of(fep, struct lofi_ep, ep);
	struct lofi_txop *op;
	int ret;

	if (!buf && len)
		return -FI_EINVAL;
	if (len > LOFI_MAX_MSG)
		return -FI_EMSGSIZE;
	if ((flags & FI_INJECT) && len > lofi_slot_payload(ep->lay.slot_size))
		return -FI_EMSGSIZE;
	op = calloc(1, sizeof(*op));
	if (!op)
		return -FI_ENOMEM;
	if (flags & FI_INJECT) {
		op->owned = malloc(len ? len : 1);
		if (!op->owned) {
			free(op);
			return -FI_ENOMEM;
		}
		memcpy(op->owned, buf, len);
		op->buf = op->owned;
	} else {
		op->buf = buf;
	}
	op->context = context;
	op->len = len;
	op->tag = tag;
	op->data = data;
	op->fi_flags = flags;
	op->wire_flags = (flags & FI_TAGGED ? LOFI_F_TAGGED : 0) |
			 (flags & FI_REMOTE_CQ_DATA ? LOFI_F_DATA : 0);

	pthread_mutex_lock(&ep->dom->lock);
	if (!ep->enabled)
		ret = -FI_EOPBADSTATE;
	else
		ret = queue_op(ep, dest, op);
	pthread_mutex_unlock(&ep->dom->lock);
	if (ret) {
		free(op->owned);
		free(op);
	}
	return ret;
}

int lofi_send_notice(struct lofi_ep *ep, fi_addr_t dest, uint64_t data,
		     void *context, uint64_t fi_flags)
{
	struct lofi_txop *op = calloc(1, sizeof(*op));
	int ret;

	if (!op)
		return -FI_ENOMEM;
	op->context = context;
	op->data = data;
	op->fi_flags = FI_RMA | (fi_flags & FI_COMPLETION);
	op->wire_flags = LOFI_F_RMA | LOFI_F_DATA;
	ret = queue_op(ep, dest, op);
	if (ret)
		free(op);
	return ret;
}

/* FI_COMPLETION unless the CQ was bound with FI_SELECTIVE_COMPLETION */
static uint64_t tx_comp(struct fid_ep *fep)
{
	struct lofi_ep *ep = lofi_container_of(fep, struct lofi_ep, ep);

	return ep->selective_tx ? ep->tx_flags & FI_COMPLETION : FI_COMPLETION;
}

static ssize_t one_iov(const struct iovec *iov, size_t count, const void **buf,
		       size_t *len)
{
	if (count > 1 || (count && !iov))
		return -FI_EINVAL;
	*buf = count ? iov[0].iov_base : NULL;
	*len = count ? iov[0].iov_len : 0;
	return 0;
}

/* fi_sendmsg() and fi_tsendmsg(): @kind is FI_MSG or FI_TAGGED */
static ssize_t sendmsg_common(struct fid_ep *ep, const struct iovec *iov,
			      size_t count, fi_addr_t dest, uint64_t tag,
			      uint64_t data, void *context, uint64_t kind,
			      uint64_t flags)
{
	const void *buf;
	size_t len;

	if (one_iov(iov, count, &buf, &len))
		return -FI_EINVAL;
	flags &= FI_COMPLETION | FI_INJECT | FI_REMOTE_CQ_DATA |
		 FI_TRANSMIT_COMPLETE | FI_DELIVERY_COMPLETE | FI_INJECT_COMPLETE;
	if (!lofi_container_of(ep, struct lofi_ep, ep)->selective_tx)
		flags |= FI_COMPLETION;
	return send_common(ep, buf, len, dest, tag, data, context, kind | flags);
}

/* ---- untagged sends ---------------------------------------------------- */

static ssize_t lofi_send(struct fid_ep *ep, const void *buf, size_t len,
			 void *desc, fi_addr_t dest, void *context)
{
	(void)desc;
	return send_common(ep, buf, len, dest, 0, 0, context, FI_MSG | tx_comp(ep));
}

static ssize_t lofi_sendv(struct fid_ep *ep, const struct iovec *iov,
			  void **desc, size_t count, fi_addr_t dest,
			  void *context)
{
	const void *buf;
	size_t len;

	(void)desc;
	if (one_iov(iov, count, &buf, &len))
		return -FI_EINVAL;
	return lofi_send(ep, buf, len, NULL, dest, context);
}

static ssize_t lofi_sendmsg(struct fid_ep *ep, const struct fi_msg *msg,
			    uint64_t flags)
{
	if (!msg)
		return -FI_EINVAL;
	return sendmsg_common(ep, msg->msg_iov, msg->iov_count, msg->addr, 0,
			      msg->data, msg->context, FI_MSG, flags);
}

static ssize_t lofi_inject(struct fid_ep *ep, const void *buf, size_t len,
			   fi_addr_t dest)
{
	return send_common(ep, buf, len, dest, 0, 0, NULL, FI_MSG | FI_INJECT);
}

static ssize_t lofi_senddata(struct fid_ep *ep, const void *buf, size_t len,
			     void *desc, uint64_t data, fi_addr_t dest,
			     void *context)
{
	(void)desc;
	return send_common(ep, buf, len, dest, 0, data, context,
			   FI_MSG | FI_REMOTE_CQ_DATA | tx_comp(ep));
}

static ssize_t lofi_injectdata(struct fid_ep *ep, const void *buf, size_t len,
			       uint64_t data, fi_addr_t dest)
{
	return send_common(ep, buf, len, dest, 0, data, NULL,
			   FI_MSG | FI_INJECT | FI_REMOTE_CQ_DATA);
}

/* ---- tagged sends ------------------------------------------------------ */

static ssize_t lofi_tsend(struct fid_ep *ep, const void *buf, size_t len,
			  void *desc, fi_addr_t dest, uint64_t tag,
			  void *context)
{
	(void)desc;
	return send_common(ep, buf, len, dest, tag, 0, context,
			   FI_TAGGED | tx_comp(ep));
}

static ssize_t lofi_tsendv(struct fid_ep *ep, const struct iovec *iov,
			   void **desc, size_t count, fi_addr_t dest,
			   uint64_t tag, void *context)
{
	const void *buf;
	size_t len;

	(void)desc;
	if (one_iov(iov, count, &buf, &len))
		return -FI_EINVAL;
	return lofi_tsend(ep, buf, len, NULL, dest, tag, context);
}

static ssize_t lofi_tsendmsg(struct fid_ep *ep, const struct fi_msg_tagged *msg,
			     uint64_t flags)
{
	if (!msg)
		return -FI_EINVAL;
	return sendmsg_common(ep, msg->msg_iov, msg->iov_count, msg->addr,
			      msg->tag, msg->data, msg->context, FI_TAGGED, flags);
}

static ssize_t lofi_tinject(struct fid_ep *ep, const void *buf, size_t len,
			    fi_addr_t dest, uint64_t tag)
{
	return send_common(ep, buf, len, dest, tag, 0, NULL, FI_TAGGED | FI_INJECT);
}

static ssize_t lofi_tsenddata(struct fid_ep *ep, const void *buf, size_t len,
			      void *desc, uint64_t data, fi_addr_t dest,
			      uint64_t tag, void *context)
{
	(void)desc;
	return send_common(ep, buf, len, dest, tag, data, context,
			   FI_TAGGED | FI_REMOTE_CQ_DATA | tx_comp(ep));
}

static ssize_t lofi_tinjectdata(struct fid_ep *ep, const void *buf, size_t len,
				uint64_t data, fi_addr_t dest, uint64_t tag)
{
	return send_common(ep, buf, len, dest, tag, data, NULL,
			   FI_TAGGED | FI_INJECT | FI_REMOTE_CQ_DATA);
}

/* ---- receives ---------------------------------------------------------- */

/* FI_PEEK, optionally with FI_CLAIM; the lock is held */
static void peek(struct lofi_ep *ep, struct lofi_matchq *q,
		 const struct lofi_recv *want)
{
	struct lofi_unexp *u = lofi_find_unexp(q, want);
	uint64_t flags = FI_RECV | (want->flags & (FI_TAGGED | FI_MSG));

	if (!ep->rx_cq)
		return;
	if (!u) {
		lofi_cq_push_err(ep->rx_cq, want->context, flags, 0, NULL, 0,
				 want->tag, 0, FI_ENOMSG, 0, FI_ADDR_NOTAVAIL);
		return;
	}
	if (want->flags & FI_CLAIM)
		u->claim_context = want->context;
	if (u->wire_flags & LOFI_F_DATA)
		flags |= FI_REMOTE_CQ_DATA;
	lofi_cq_push(ep->rx_cq, want->context, flags, u->total_len, NULL,
		     u->data, u->tag, lofi_av_reverse(ep->av, u->src));
}

static ssize_t recv_common(struct fid_ep *fep, void *buf, size_t len,
			   fi_addr_t src, uint64_t tag, uint64_t ignore,
			   void *context, uint64_t flags)
{
	struct lofi_ep *ep = lofi_container_of(fep, struct lofi_ep, ep);
	struct lofi_matchq *q = flags & FI_TAGGED ? &ep->tagged : &ep->untagged;
	struct lofi_unexp *u;
	struct lofi_recv *r;
	struct lofi_addr a;
	int ret = 0;

	if (!buf && len)
		return -FI_EINVAL;
	if ((flags & FI_CLAIM) && !(flags & FI_TAGGED))
		return -FI_EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -FI_ENOMEM;
	r->context = context;
	r->buf = buf;
	r->len = len;
	r->tag = flags & FI_TAGGED ? tag : 0;
	r->ignore = flags & FI_TAGGED ? ignore : ~0ull;
	r->flags = flags;
	r->src_addr = src;

	pthread_mutex_lock(&ep->dom->lock);
	if (!ep->enabled) {
		ret = -FI_EOPBADSTATE;
		goto out_free;
	}
	/* without FI_DIRECTED_RECV the source address is ignored */
	if (src == FI_ADDR_UNSPEC || src == FI_ADDR_NOTAVAIL ||
	    !(ep->caps & FI_DIRECTED_RECV)) {
		r->src = LOFI_SRC_ANY;
	} else {
		ret = lofi_av_get(ep->av, src, &a);
		if (ret)
			goto out_free;
		r->src = lofi_peer_key(a.node, a.ctx);
	}
	/* a message may be waiting in the card's ring: take it first */
	lofi_ep_progress(ep);
	if (flags & FI_PEEK) {
		peek(ep, q, r);
		goto out_free;
	}
	if (flags & FI_CLAIM) {
		u = lofi_find_claimed(q, context);
		if (!u) {
			ret = -FI_EINVAL;
			goto out_free;
		}
		lofi_list_del(&u->link);
		if (flags & FI_DISCARD)
			r->len = 0;
		lofi_recv_from_unexp(ep, r, u);
		goto out;
	}
	u = lofi_find_unexp(q, r);
	if (u) {
		lofi_list_del(&u->link);
		lofi_recv_from_unexp(ep, r, u);
		goto out;
	}
	lofi_list_add_tail(&q->posted, &r->link);
out:
	pthread_mutex_unlock(&ep->dom->lock);
	return 0;
out_free:
	pthread_mutex_unlock(&ep->dom->lock);
	free(r);
	return ret;
}

static ssize_t lofi_recv(struct fid_ep *ep, void *buf, size_t len, void *desc,
			 fi_addr_t src, void *context)
{
	(void)desc;
	return recv_common(ep, buf, len, src, 0, 0, context, FI_MSG | FI_RECV);
}

static ssize_t lofi_recvv(struct fid_ep *ep, const struct iovec *iov,
			  void **desc, size_t count, fi_addr_t src,
			  void *context)
{
	const void *buf;
	size_t len;

	(void)desc;
	if (one_iov(iov, count, &buf, &len))
		return -FI_EINVAL;
	return lofi_recv(ep, (void *)buf, len, NULL, src, context);
}

static ssize_t lofi_recvmsg(struct fid_ep *ep, const struct fi_msg *msg,
			    uint64_t flags)
{
	const void *buf;
	size_t len;

	if (!msg || one_iov(msg->msg_iov, msg->iov_count, &buf, &len))
		return -FI_EINVAL;
	if (flags & (FI_MULTI_RECV | FI_PEEK | FI_CLAIM))
		return -FI_EINVAL;
	return recv_common(ep, (void *)buf, len, msg->addr, 0, 0, msg->context,
			   FI_MSG | FI_RECV);
}

static ssize_t lofi_trecv(struct fid_ep *ep, void *buf, size_t len, void *desc,
			  fi_addr_t src, uint64_t tag, uint64_t ignore,
			  void *context)
{
	(void)desc;
	return recv_common(ep, buf, len, src, tag, ignore, context,
			   FI_TAGGED | FI_RECV);
}

static ssize_t lofi_trecvv(struct fid_ep *ep, const struct iovec *iov,
			   void **desc, size_t count, fi_addr_t src,
			   uint64_t tag, uint64_t ignore, void *context)
{
	const void *buf;
	size_t len;

	(void)desc;
	if (one_iov(iov, count, &buf, &len))
		return -FI_EINVAL;
	return lofi_trecv(ep, (void *)buf, len, NULL, src, tag, ignore, context);
}

static ssize_t lofi_trecvmsg(struct fid_ep *ep, const struct fi_msg_tagged *msg,
			     uint64_t flags)
{
	const void *buf;
	size_t len;

	if (!msg || one_iov(msg->msg_iov, msg->iov_count, &buf, &len))
		return -FI_EINVAL;
	if (flags & FI_MULTI_RECV)
		return -FI_EINVAL;
	if ((flags & FI_DISCARD) && !(flags & (FI_PEEK | FI_CLAIM)))
		return -FI_EINVAL;
	return recv_common(ep, (void *)buf, len, msg->addr, msg->tag,
			   msg->ignore, msg->context,
			   FI_TAGGED | FI_RECV |
			   (flags & (FI_PEEK | FI_CLAIM | FI_DISCARD)));
}

struct fi_ops_msg lofi_msg_ops = {
	.size = sizeof(struct fi_ops_msg),
	.recv = lofi_recv,
	.recvv = lofi_recvv,
	.recvmsg = lofi_recvmsg,
	.send = lofi_send,
	.sendv = lofi_sendv,
	.sendmsg = lofi_sendmsg,
	.inject = lofi_inject,
	.senddata = lofi_senddata,
	.injectdata = lofi_injectdata,
};

struct fi_ops_tagged lofi_tagged_ops = {
	.size = sizeof(struct fi_ops_tagged),
	.recv = lofi_trecv,
	.recvv = lofi_trecvv,
	.recvmsg = lofi_trecvmsg,
	.send = lofi_tsend,
	.sendv = lofi_tsendv,
	.sendmsg = lofi_tsendmsg,
	.inject = lofi_tinject,
	.senddata = lofi_tsenddata,
	.injectdata = lofi_tinjectdata,
};
