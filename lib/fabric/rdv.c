// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The loom provider's rendezvous for large messages.  A send of at least
 * lofi_rdv_threshold bytes registers its buffer in the domain's RMA
 * context (through the registration cache, so that sending the buffer
 * again does not register it again) and sends, in the message protocol's
 * sequence, one fragment flagged LOFI_F_RDV whose payload (struct
 * lofi_rts) names the region, the offset and a FIN cell of the sender.
 * The receiver matches it like any message; once it has a receive it
 * reads the message with one loom_get_mr() straight into the receive
 * buffer (registered through the receiver's cache), completes the
 * receive, and puts the card's status into the sender's FIN cell with an
 * arrival event.  The sender's send completes with that FIN.  A send that
 * cannot be registered, or finds no free rendezvous slot, goes eagerly.
 * Everything here runs under the domain lock.
 */
#include <stdlib.h>
#include <string.h>

#include "lofi.h"

size_t lofi_rdv_threshold = 64u << 10;

int lofi_rdv_prepare(struct lofi_ep *ep, struct lofi_txop *op)
{
	struct lofi_rma *rma = lofi_rma_get(ep->dom);
	uint32_t i;
	int ret;

	if (!rma)
		return -1;
	for (i = 0; i < LOFI_MAX_RDV && ep->rdv[i]; i++)
		;
	if (i == LOFI_MAX_RDV)
		return -1;
	ret = lofi_reg_get(rma, &rma->cache, op->buf, op->len, LOOM_MR_REMOTE_READ, &op->reg);
	if (ret) {
		LOFI_INFO(FI_LOG_EP_DATA, "registering %llu bytes at %p for a rendezvous: %s; sent eagerly\n",
			  (unsigned long long)op->len, (const void *)op->buf, loom_strerror(ret));
		op->reg = NULL;
		return -1;
	}
	op->cookie = i;
	op->await_fin = 1;
	op->rts = (struct lofi_rts){
		.rkey = loom_mr_rkey(op->reg->lmr),
		.cookie = i,
		.offset = (uintptr_t)op->buf - op->reg->base,
		.fin_off = ep->lay.fin_in + 8ull * i,
	};
	__atomic_store_n((uint64_t *)(ep->seg + op->rts.fin_off), 0, __ATOMIC_RELAXED);
	op->wire_flags |= LOFI_F_RDV;
	ep->rdv[i] = op;
	return 0;
}

/* the rendezvous state of @op goes: its slot and its registration */
void lofi_txop_release(struct lofi_ep *ep, struct lofi_txop *op)
{
	if (op->cookie < LOFI_MAX_RDV && ep->rdv[op->cookie] == op) {
		ep->rdv[op->cookie] = NULL;
		ep->rdv_peer[op->cookie] = NULL;
	}
	op->await_fin = 0;
	if (op->reg)
		lofi_reg_put(&ep->dom->rma->cache, op->reg);
	op->reg = NULL;
}

/* a FIN arrived in cell @cookie from @node:@ctx */
void lofi_rdv_fin(struct lofi_ep *ep, uint32_t cookie, uint32_t node, uint32_t ctx)
{
	struct lofi_txop *op = ep->rdv[cookie];
	struct lofi_txpeer *p = ep->rdv_peer[cookie];
	uint64_t status;

	if (!op || !p || p->addr.node != node || p->addr.ctx != ctx) {
		ep->protocol_errors++;
		LOFI_WARN(FI_LOG_EP_DATA, "a FIN from %u:%u for rendezvous %u that is not its: ignored\n",
			  node, ctx, cookie);
		return;
	}
	status = __atomic_load_n((uint64_t *)(ep->seg + ep->lay.fin_in + 8ull * cookie),
				 __ATOMIC_ACQUIRE);
	if (status && !op->err) {
		op->err = status < LOFI_FIN_VALUES ? lofi_errno_from_status((int)status) : FI_EIO;
		op->card_status = status < LOFI_FIN_VALUES ? (int)status : 0;
	}
	lofi_txop_release(ep, op);
	if (op->queued_all && !op->inflight)
		lofi_txop_finish(ep, op);
}

/* complete a receive whose read could not be done, and tell the sender */
static void read_failed(struct lofi_ep *ep, struct lofi_recv *r, uint64_t src_key,
			uint32_t node, uint32_t ctx, const struct lofi_rts *rts,
			uint64_t tag, uint64_t data, int status)
{
	if (ep->rx_cq)
		lofi_cq_push_err(ep->rx_cq, r->context,
				 FI_RECV | (r->flags & (FI_TAGGED | FI_MSG)), 0, r->buf,
				 data, tag, 0, status ? lofi_errno_from_status(status) : FI_EIO,
				 status, lofi_av_reverse(ep->av, src_key));
	if (ep->rx_cntr)
		ep->rx_cntr->err++;
	free(r);
	lofi_send_fin(ep, node, ctx, rts->fin_off, status ? status : LOOM_STATUS_BAD_DESC);
}

void lofi_rdv_read(struct lofi_ep *ep, struct lofi_recv *r, uint64_t src_key,
		   uint32_t node, uint32_t ctx, const struct lofi_rts *rts,
		   uint64_t tag, uint64_t data, uint32_t wire_flags, uint64_t total)
{
	struct lofi_rma *rma = lofi_rma_get(ep->dom);
	uint64_t n = total < r->len ? total : r->len;
	struct lofi_rma_op *op;
	uint32_t idx;
	int ret;

	if (r->flags & FI_DISCARD)
		n = 0;
	if (!n) {	/* nothing to read: done */
		lofi_recv_complete(ep, r, src_key, tag, data, wire_flags, total);
		lofi_send_fin(ep, node, ctx, rts->fin_off, 0);
		return;
	}
	op = rma ? lofi_rma_op_get(rma, &idx) : NULL;
	if (!op) {
		LOFI_WARN(FI_LOG_EP_DATA, "no room to read a rendezvous of %llu bytes from %u:%u\n",
			  (unsigned long long)total, node, ctx);
		read_failed(ep, r, src_key, node, ctx, rts, tag, data, 0);
		return;
	}
	ret = lofi_reg_get(rma, &rma->cache, r->buf, n, LOOM_MR_LOCAL_WRITE, &op->reg);
	if (ret) {
		LOFI_WARN(FI_LOG_EP_DATA, "registering the receive buffer of %llu bytes at %p: %s\n",
			  (unsigned long long)n, r->buf, loom_strerror(ret));
		lofi_rma_op_put(rma, idx);
		read_failed(ep, r, src_key, node, ctx, rts, tag, data, 0);
		return;
	}
	op->ep = ep;
	op->rdv = 1;
	op->recv = r;
	op->src_key = src_key;
	op->tag = tag;
	op->data = data;
	op->wire_flags = wire_flags;
	op->total = total;
	op->node = node;
	op->ctx = ctx;
	op->fin_off = rts->fin_off;
	op->rdv_len = n;
	op->rkey = rts->rkey;
	op->roff = rts->offset;
	rma->inflight++;
	ret = lofi_rdv_issue(rma, idx);
	if (ret == -EAGAIN) {	/* the ring is full: progress issues it */
		op->unissued = 1;
		rma->unissued++;
	} else if (ret) {
		lofi_rma_op_put(rma, idx);
		rma->inflight--;
		read_failed(ep, r, src_key, node, ctx, rts, tag, data, 0);
	}
}

/* queue the read of rendezvous operation @idx; -EAGAIN: the ring is full */
int lofi_rdv_issue(struct lofi_rma *rma, uint32_t idx)
{
	struct lofi_rma_op *op = &rma->ops[idx];
	int ret;

	ret = loom_get_mr(rma->ctx, op->node, op->rkey, op->roff, op->reg->lmr,
			  (uintptr_t)op->recv->buf - op->reg->base, op->rdv_len, 0, idx);
	if (ret && ret != -EAGAIN)
		LOFI_WARN(FI_LOG_EP_DATA, "reading a rendezvous of %llu bytes from %u:%u: %s\n",
			  (unsigned long long)op->rdv_len, op->node, op->ctx, loom_strerror(ret));
	return ret;
}

void lofi_rdv_read_done(struct lofi_rma *rma, struct lofi_rma_op *op, int status)
{
	struct lofi_ep *ep = op->ep;
	struct lofi_rts rts = { .fin_off = op->fin_off };

	lofi_reg_put(&rma->cache, op->reg);
	op->reg = NULL;
	if (!ep) {		/* the endpoint closed meanwhile */
		free(op->recv);
		return;
	}
	if (status) {
		read_failed(ep, op->recv, op->src_key, op->node, op->ctx, &rts, op->tag,
			    op->data, status);
		return;
	}
	lofi_recv_complete(ep, op->recv, op->src_key, op->tag, op->data, op->wire_flags,
			   op->total);
	lofi_send_fin(ep, op->node, op->ctx, op->fin_off, 0);
}
