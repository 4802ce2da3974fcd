// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The loom provider's endpoints (FI_EP_RDM): one libloom context each,
 * its segment laid out as proto.h says; binding to completion queues,
 * counters, an address vector and an event queue; fi_getname(), fi_cancel().
 */
#include <stdlib.h>
#include <string.h>

#include "lofi.h"
#include "stubs.h"

static void free_unexp_list(struct lofi_list *h)
{
	while (!lofi_list_empty(h)) {
		struct lofi_unexp *u = lofi_container_of(h->next, struct lofi_unexp, link);

		lofi_list_del(&u->link);
		free(u->recv);
		free(u->buf);
		free(u);
	}
}

static void free_recv_list(struct lofi_list *h)
{
	while (!lofi_list_empty(h)) {
		struct lofi_recv *r = lofi_container_of(h->next, struct lofi_recv, link);

		lofi_list_del(&r->link);
		free(r);
	}
}

static void free_txops(struct lofi_ep *ep)
{
	uint32_t i;

	/* ops still queued at a peer, then those only the staging buffers hold */
	for (i = 0; i < ep->n_peers; i++) {
		struct lofi_list *h = &ep->peers[i]->queue;

		while (!lofi_list_empty(h)) {
			struct lofi_txop *op = lofi_container_of(h->next, struct lofi_txop, link);

			lofi_list_del(&op->link);
			if (op->inflight)	/* freed with its last buffer below */
				continue;
			lofi_txop_release(ep, op);
			free(op->owned);
			free(op);
		}
		free(ep->peers[i]);
	}
	for (i = 0; i < ep->lay.tx_bufs; i++) {
		struct lofi_txop *op = ep->txbufs[i].op;
		uint32_t j;

		if (!op)
			continue;
		for (j = i; j < ep->lay.tx_bufs; j++)
			if (ep->txbufs[j].op == op)
				ep->txbufs[j].op = NULL;
		lofi_txop_release(ep, op);
		free(op->owned);
		free(op);
	}
	/* rendezvous sends whose fragment is out and whose FIN never came */
	for (i = 0; i < LOFI_MAX_RDV; i++) {
		struct lofi_txop *op = ep->rdv[i];

		if (!op)
			continue;
		lofi_txop_release(ep, op);
		free(op->owned);
		free(op);
	}
}

static void free_regions(struct lofi_ep *ep)
{
	uint32_t i;

	for (i = 0; i < ep->lay.regions; i++) {
		struct lofi_rxregion *reg = &ep->regions[i];

		free(reg->recv);
		/* a partly received unexpected message is on its queue */
		if (reg->unexp && reg->unexp->recv)
			lofi_list_add_tail(&ep->tagged.unexp, &reg->unexp->link);
	}
}

static int lofi_ep_close(struct fid *fid)
{
	struct lofi_ep *ep = lofi_container_of(fid, struct lofi_ep, ep.fid);
	struct lofi_domain *d = ep->dom;

	pthread_mutex_lock(&d->lock);
	if (ep->tx_cq)
		lofi_epset_del(&ep->tx_cq->set, &ep->tx_cq->refs, ep);
	if (ep->rx_cq && ep->rx_cq != ep->tx_cq)
		lofi_epset_del(&ep->rx_cq->set, &ep->rx_cq->refs, ep);
	if (ep->tx_cntr)
		lofi_epset_del(&ep->tx_cntr->set, &ep->tx_cntr->refs, ep);
	if (ep->rx_cntr && ep->rx_cntr != ep->tx_cntr)
		lofi_epset_del(&ep->rx_cntr->set, &ep->rx_cntr->refs, ep);
	if (ep->wr_cntr && ep->wr_cntr != ep->tx_cntr && ep->wr_cntr != ep->rx_cntr)
		lofi_epset_del(&ep->wr_cntr->set, &ep->wr_cntr->refs, ep);
	if (ep->rd_cntr && ep->rd_cntr != ep->tx_cntr && ep->rd_cntr != ep->rx_cntr &&
	    ep->rd_cntr != ep->wr_cntr)
		lofi_epset_del(&ep->rd_cntr->set, &ep->rd_cntr->refs, ep);
	/* one-sided operations still at the card complete without it */
	lofi_rma_ep_gone(d, ep);
	if (ep->av)
		ep->av->refs--;
	if (ep->eq)
		ep->eq->refs--;
	/* the card does no more DMA into the segment after this */
	loom_ctx_destroy(ep->lctx);
	free_txops(ep);
	free_regions(ep);
	free_recv_list(&ep->tagged.posted);
	free_recv_list(&ep->untagged.posted);
	free_unexp_list(&ep->tagged.unexp);
	free_unexp_list(&ep->untagged.unexp);
	d->refs--;
	pthread_mutex_unlock(&d->lock);
	if (ep->protocol_errors)
		LOFI_WARN(FI_LOG_EP_DATA, "endpoint %u:%u dropped %d malformed fragments\n",
			  ep->self.node, ep->self.ctx, ep->protocol_errors);
	free(ep->fins);
	free(ep->peers);
	free(ep->regions);
	free(ep->txbufs);
	free(ep);
	return 0;
}

static int lofi_ep_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	struct lofi_ep *ep = lofi_container_of(fid, struct lofi_ep, ep.fid);
	int ret = 0;

	if (!bfid)
		return -FI_EINVAL;
	pthread_mutex_lock(&ep->dom->lock);
	if (ep->enabled) {
		ret = -FI_EOPBADSTATE;
		goto out;
	}
	switch (bfid->fclass) {
	case FI_CLASS_CQ: {
		struct lofi_cq *cq = lofi_container_of(bfid, struct lofi_cq, cq.fid);

		if (cq->dom != ep->dom ||
		    (flags & ~(uint64_t)(FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION)) ||
		    !(flags & (FI_TRANSMIT | FI_RECV))) {
			ret = -FI_EINVAL;
			break;
		}
		if (((flags & FI_TRANSMIT) && ep->tx_cq) || ((flags & FI_RECV) && ep->rx_cq)) {
			ret = -FI_EINVAL;
			break;
		}
		ret = lofi_epset_add(&cq->set, &cq->refs, ep);
		if (ret)
			break;
		if (flags & FI_TRANSMIT) {
			ep->tx_cq = cq;
			ep->selective_tx = !!(flags & FI_SELECTIVE_COMPLETION);
		}
		if (flags & FI_RECV)
			ep->rx_cq = cq;
		break;
	}
	case FI_CLASS_CNTR: {
		struct lofi_cntr *c = lofi_container_of(bfid, struct lofi_cntr, cntr.fid);

		if (c->dom != ep->dom ||
		    (flags & ~(uint64_t)(FI_SEND | FI_RECV | FI_TRANSMIT |
					 FI_WRITE | FI_READ)) || !flags ||
		    ((flags & (FI_WRITE | FI_READ)) &&
		     !(ep->caps & (FI_RMA | FI_ATOMIC)))) {
			ret = -FI_EINVAL;
			break;
		}
		if (((flags & (FI_SEND | FI_TRANSMIT)) && ep->tx_cntr) ||
		    ((flags & FI_RECV) && ep->rx_cntr) ||
		    ((flags & FI_WRITE) && ep->wr_cntr) ||
		    ((flags & FI_READ) && ep->rd_cntr)) {
			ret = -FI_EINVAL;
			break;
		}
		ret = lofi_epset_add(&c->set, &c->refs, ep);
		if (ret)
			break;
		if (flags & (FI_SEND | FI_TRANSMIT))
			ep->tx_cntr = c;
		if (flags & FI_RECV)
			ep->rx_cntr = c;
		if (flags & FI_WRITE)
			ep->wr_cntr = c;
		if (flags & FI_READ)
			ep->rd_cntr = c;
		break;
	}
	case FI_CLASS_AV: {
		struct lofi_av *av = lofi_container_of(bfid, struct lofi_av, av.fid);

		if (av->dom != ep->dom || flags || ep->av) {
			ret = -FI_EINVAL;
			break;
		}
		ep->av = av;
		av->refs++;
		break;
	}
	case FI_CLASS_EQ: {
		struct lofi_eq *eq = lofi_container_of(bfid, struct lofi_eq, eq.fid);

		if (ep->eq) {
			ret = -FI_EINVAL;
			break;
		}
		ep->eq = eq;
		eq->refs++;
		break;
	}
	default:
		ret = -FI_ENOSYS;
	}
out:
	pthread_mutex_unlock(&ep->dom->lock);
	return ret;
}

static int lofi_ep_control(struct fid *fid, int command, void *arg)
{
	struct lofi_ep *ep = lofi_container_of(fid, struct lofi_ep, ep.fid);
	uint64_t *flags = arg;
	int ret = 0;

	pthread_mutex_lock(&ep->dom->lock);
	switch (command) {
	case FI_ENABLE:
		if (!ep->av)
			ret = -FI_ENOAV;
		else if ((!ep->tx_cq && !ep->tx_cntr && !ep->wr_cntr && !ep->rd_cntr) ||
			 (!ep->rx_cq && !ep->rx_cntr))
			ret = -FI_ENOCQ;
		else
			ep->enabled = 1;
		break;
	case FI_GETOPSFLAG:
		if (!flags || !(*flags & (FI_TRANSMIT | FI_RECV)) ||
		    (*flags & FI_TRANSMIT && *flags & FI_RECV))
			ret = -FI_EINVAL;
		else
			*flags = *flags & FI_TRANSMIT ? ep->tx_flags : ep->rx_flags;
		break;
	case FI_SETOPSFLAG:
		if (!flags || !(*flags & (FI_TRANSMIT | FI_RECV)))
			ret = -FI_EINVAL;
		else if (*flags & FI_TRANSMIT)
			ep->tx_flags = *flags & ~(uint64_t)FI_TRANSMIT;
		else
			ep->rx_flags = *flags & ~(uint64_t)FI_RECV;
		break;
	default:
		ret = -FI_ENOSYS;
	}
	pthread_mutex_unlock(&ep->dom->lock);
	return ret;
}

static ssize_t lofi_ep_cancel(fid_t fid, void *context)
{
	struct lofi_ep *ep = lofi_container_of(fid, struct lofi_ep, ep.fid);
	struct lofi_recv *r;

	pthread_mutex_lock(&ep->dom->lock);
	r = lofi_take_by_context(&ep->tagged, context);
	if (!r)
		r = lofi_take_by_context(&ep->untagged, context);
	if (r && ep->rx_cq)
		lofi_cq_push_err(ep->rx_cq, r->context, r->flags & (FI_RECV | FI_TAGGED | FI_MSG),
				 0, r->buf, 0, r->tag, 0, FI_ECANCELED, 0, FI_ADDR_NOTAVAIL);
	pthread_mutex_unlock(&ep->dom->lock);
	if (!r)
		return -FI_ENOENT;
	free(r);
	return 0;
}

static int lofi_ep_getopt(fid_t fid, int level, int optname, void *optval,
			  size_t *optlen)
{
	(void)fid; (void)optval; (void)optlen;
	if (level != FI_OPT_ENDPOINT)
		return -FI_ENOPROTOOPT;
	(void)optname;
	return -FI_ENOPROTOOPT;
}

static int lofi_ep_setopt(fid_t fid, int level, int optname,
			  const void *optval, size_t optlen)
{
	(void)fid; (void)optval; (void)optlen;
	if (level != FI_OPT_ENDPOINT)
		return -FI_ENOPROTOOPT;
	(void)optname;
	return -FI_ENOPROTOOPT;
}

static int no_tx_ctx(struct fid_ep *sep, int index, struct fi_tx_attr *attr,
		     struct fid_ep **tx_ep, void *context)
{
	(void)sep; (void)index; (void)attr; (void)tx_ep; (void)context;
	return -FI_ENOSYS;
}

static int no_rx_ctx(struct fid_ep *sep, int index, struct fi_rx_attr *attr,
		     struct fid_ep **rx_ep, void *context)
{
	(void)sep; (void)index; (void)attr; (void)rx_ep; (void)context;
	return -FI_ENOSYS;
}

static ssize_t lofi_size_left(struct fid_ep *ep)
{
	(void)ep;
	return LOFI_QUEUE_SIZE;
}

static int lofi_ep_getname(fid_t fid, void *addr, size_t *addrlen)
{
	struct lofi_ep *ep = lofi_container_of(fid, struct lofi_ep, ep.fid);
	size_t n;

	if (!addrlen || (!addr && *addrlen))
		return -FI_EINVAL;
	n = *addrlen;
	*addrlen = sizeof(ep->self);
	if (n < sizeof(ep->self))
		return -FI_ETOOSMALL;
	memcpy(addr, &ep->self, sizeof(ep->self));
	return 0;
}

static struct fi_ops lofi_ep_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = lofi_ep_close,
	.bind = lofi_ep_bind,
	.control = lofi_ep_control,
	.ops_open = lofi_no_ops_open,
};

static struct fi_ops_ep lofi_ep_ops = {
	.size = sizeof(struct fi_ops_ep),
	.cancel = lofi_ep_cancel,
	.getopt = lofi_ep_getopt,
	.setopt = lofi_ep_setopt,
	.tx_ctx = no_tx_ctx,
	.rx_ctx = no_rx_ctx,
	.rx_size_left = lofi_size_left,
	.tx_size_left = lofi_size_left,
};

static struct fi_ops_cm lofi_ep_cm_ops;

int lofi_ep_open(struct fid_domain *domain, struct fi_info *info,
		 struct fid_ep **epp, void *context)
{
	struct lofi_domain *d = lofi_container_of(domain, struct lofi_domain, domain);
	struct loom_ctx_attr cattr = { 0 };
	struct lofi_ep *ep;
	size_t seg_size;
	uint32_t i;
	int ret;

	if (!info || !epp)
		return -FI_EINVAL;
	if (info->ep_attr && info->ep_attr->type != FI_EP_RDM &&
	    info->ep_attr->type != FI_EP_UNSPEC)
		return -FI_EINVAL;
	if (info->caps & ~LOFI_CAPS)
		return -FI_EINVAL;
	ep = calloc(1, sizeof(*ep));
	if (!ep)
		return -FI_ENOMEM;
	ret = lofi_layout_init(&ep->lay, lofi_params.seg_size,
			       (uint32_t)lofi_params.slot_size,
			       (uint32_t)lofi_params.slots,
			       (uint32_t)lofi_params.tx_bufs);
	if (ret) {
		free(ep);
		return -FI_EINVAL;
	}
	cattr.segment_size = ep->lay.seg_size;
	ret = loom_ctx_create(d->dev, &cattr, &ep->lctx);
	if (ret) {
		LOFI_WARN(FI_LOG_EP_CTRL, "cannot create a context on the card: %s\n",
			  loom_strerror(ret));
		free(ep);
		return ret == -EBUSY ? -FI_EBUSY : ret == -ENOMEM ? -FI_ENOMEM : ret;
	}
	ep->seg = loom_ctx_segment(ep->lctx, &seg_size);
	if (seg_size < ep->lay.seg_size) {
		LOFI_WARN(FI_LOG_EP_CTRL, "the card gave a segment of %zu bytes, %llu asked\n",
			  seg_size, (unsigned long long)ep->lay.seg_size);
		loom_ctx_destroy(ep->lctx);
		free(ep);
		return -FI_ENOMEM;
	}
	memset(ep->seg, 0, ep->lay.rx_base);
	for (i = 0; i < LOFI_FIN_VALUES; i++)	/* the statuses a FIN puts */
		((uint64_t *)(ep->seg + ep->lay.fin_src))[i] = i;
	ep->regions = calloc(ep->lay.regions, sizeof(*ep->regions));
	ep->txbufs = calloc(ep->lay.tx_bufs, sizeof(*ep->txbufs));
	if (!ep->regions || !ep->txbufs) {
		loom_ctx_destroy(ep->lctx);
		free(ep->regions);
		free(ep->txbufs);
		free(ep);
		return -FI_ENOMEM;
	}
	for (i = 0; i < ep->lay.tx_bufs; i++)
		ep->txbufs[i].next_free = i + 1 < ep->lay.tx_bufs ? i + 1 : LOFI_NONE;
	ep->free_txbuf = 0;
	ep->self = (struct lofi_addr){
		.magic = LOFI_ADDR_MAGIC,
		.node = loom_ctx_node(ep->lctx),
		.ctx = loom_ctx_index(ep->lctx),
		.slot_size = ep->lay.slot_size,
		.slots = ep->lay.slots,
		.regions = ep->lay.regions,
		.rx_base = ep->lay.rx_base,
	};
	lofi_matchq_init(&ep->tagged);
	lofi_matchq_init(&ep->untagged);
	lofi_list_init(&ep->active_peers);
	ep->dom = d;
	ep->caps = info->caps ? info->caps : LOFI_CAPS;
	if (info->tx_attr)
		ep->tx_flags = info->tx_attr->op_flags;
	if (info->rx_attr)
		ep->rx_flags = info->rx_attr->op_flags;
	lofi_ep_cm_ops = lofi_cm_ops;
	lofi_ep_cm_ops.getname = lofi_ep_getname;
	ep->ep.fid.fclass = FI_CLASS_EP;
	ep->ep.fid.context = context;
	ep->ep.fid.ops = &lofi_ep_fi_ops;
	ep->ep.ops = &lofi_ep_ops;
	ep->ep.cm = &lofi_ep_cm_ops;
	ep->ep.msg = &lofi_msg_ops;
	ep->ep.tagged = &lofi_tagged_ops;
	ep->ep.rma = ep->caps & FI_RMA ? &lofi_rma_ops : &lofi_no_rma_ops;
	ep->ep.atomic = ep->caps & FI_ATOMIC ? &lofi_atomic_ops : &lofi_no_atomic_ops;
	ep->ep.collective = &lofi_no_collective_ops;
	pthread_mutex_lock(&d->lock);
	d->refs++;
	pthread_mutex_unlock(&d->lock);
	*epp = &ep->ep;
	return 0;
}
