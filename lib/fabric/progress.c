// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The loom provider's progress engine: reaps the card's completions of an
 * endpoint's context and runs the protocol of proto.h.
 *
 * Sending: a peer is first "connected" by a fetch-and-add on its region
 * allocator word, which gives this endpoint a receive region there.  Each
 * fragment is copied into a staging buffer of my segment and put into
 * slot seq % slots of that region with an arrival event; at most `slots`
 * fragments are outstanding until the peer returns credits.
 * Receiving: an arrival names the slot; fragments of a region are taken in
 * sequence order (the card may deliver them in any order), matched at
 * their first fragment and copied out, which frees the slot; every half
 * region consumed, the count is put back into the sender's credit cell
 * (with an arrival event, which wakes the sender up).
 * Everything here runs under the domain lock.
 */
#include <stdlib.h>
#include <string.h>

#include "lofi.h"

/* what a LOCAL completion's tag names: bits 40..47, index below */
#define TAG_TX		(1ull << 40)	/* a fragment from staging buffer N */
#define TAG_CREDIT	(2ull << 40)	/* a credit return of region N */
#define TAG_CONNECT	(3ull << 40)	/* the region claim at peer N */
#define TAG_FIN		(4ull << 40)	/* a rendezvous read's FIN */
#define TAG_KIND(t)	((t) & (0xffull << 40))
#define TAG_INDEX(t)	((uint32_t)(t))

#define BATCH	64

static struct loom_remote remote_of(uint32_t node, uint32_t ctx)
{
	return (struct loom_remote){ .node = node, .ctx = ctx, .key = 0 };
}

void lofi_peer_kick(struct lofi_ep *ep, struct lofi_txpeer *p)
{
	if (!p->on_active && !lofi_list_empty(&p->queue)) {
		lofi_list_add_tail(&ep->active_peers, &p->active);
		p->on_active = 1;
	}
}

static uint32_t txbuf_get(struct lofi_ep *ep)
{
	uint32_t i = ep->free_txbuf;

	if (i != LOFI_NONE)
		ep->free_txbuf = ep->txbufs[i].next_free;
	return i;
}

static void txbuf_put(struct lofi_ep *ep, uint32_t i)
{
	ep->txbufs[i].op = NULL;
	ep->txbufs[i].peer = NULL;
	ep->txbufs[i].next_free = ep->free_txbuf;
	ep->free_txbuf = i;
}

/* fail every queued send of @p; those with fragments in flight finish later */
static void peer_fail(struct lofi_ep *ep, struct lofi_txpeer *p, int err,
		      int status)
{
	if (p->state != LOFI_PEER_FAILED)
		LOFI_WARN(FI_LOG_EP_DATA, "peer %u:%u unusable: %s (%s)\n",
			  p->addr.node, p->addr.ctx, fi_strerror(err),
			  status ? loom_strerror(status) : "no receive region left");
	p->state = LOFI_PEER_FAILED;
	p->fail_err = err;
	p->fail_status = status;
	while (!lofi_list_empty(&p->queue)) {
		struct lofi_txop *op = lofi_container_of(p->queue.next, struct lofi_txop, link);

		lofi_list_del(&op->link);
		if (!op->err) {
			op->err = err;
			op->card_status = status;
		}
		op->queued_all = 1;
		lofi_txop_release(ep, op);
		if (!op->inflight)
			lofi_txop_finish(ep, op);
	}
}

/* queue what the window, the staging buffers and the ring allow to @p */
static int peer_push(struct lofi_ep *ep, struct lofi_txpeer *p)
{
	struct loom_remote dst = remote_of(p->addr.node, p->addr.ctx);
	uint32_t cell = p->cell, payload;
	uint64_t credit;
	int ret;

	if (p->state == LOFI_PEER_NEW) {
		ret = loom_atomic(ep->lctx, &dst, 0, LOOM_ATOMIC_FETCH_ADD, 1, 0,
				  TAG_CONNECT | cell);
		if (ret == -EAGAIN)
			return -EAGAIN;
		if (ret) {
			peer_fail(ep, p, FI_EINVAL, 0);
			return 0;
		}
		p->state = LOFI_PEER_CONNECTING;
		return 0;
	}
	if (p->state != LOFI_PEER_READY)
		return 0;
	payload = lofi_slot_payload(p->addr.slot_size);
	if (payload > lofi_slot_payload(ep->lay.slot_size))
		payload = lofi_slot_payload(ep->lay.slot_size);
	credit = __atomic_load_n((uint64_t *)(ep->seg + LOFI_CREDIT_IN + 8ull * cell),
				 __ATOMIC_ACQUIRE);
	while (!lofi_list_empty(&p->queue)) {
		struct lofi_txop *op = lofi_container_of(p->queue.next, struct lofi_txop, link);
		uint64_t frag = op->len - op->sent;
		struct lofi_hdr *h;
		uint32_t b;
		int rdv;

		if (!lofi_window_open(p->seq, (uint32_t)credit, p->addr.slots))
			return 0;
		b = txbuf_get(ep);
		if (b == LOFI_NONE)
			return -EAGAIN;
		if (frag > payload)
			frag = payload;
		rdv = !!(op->wire_flags & LOFI_F_RDV);
		if (rdv)	/* one fragment that says where the message is */
			frag = sizeof(op->rts);
		h = (struct lofi_hdr *)(ep->seg + ep->lay.tx_base +
					(uint64_t)b * ep->lay.slot_size);
		*h = (struct lofi_hdr){
			.magic = LOFI_HDR_MAGIC,
			.seq = p->seq,
			.tag = op->tag,
			.data = op->data,
			.total_len = op->len,
			.frag_len = (uint32_t)frag,
			.flags = op->wire_flags |
				 (op->sent == 0 ? LOFI_F_FIRST : 0) |
				 (rdv || op->sent + frag == op->len ? LOFI_F_LAST : 0),
			.credit_cell = cell,
		};
		if (rdv)
			memcpy(h + 1, &op->rts, sizeof(op->rts));
		else
			memcpy(h + 1, op->buf + op->sent, frag);
		ret = loom_put(ep->lctx, &dst,
			       lofi_slot_offset(&p->addr, p->region, p->seq % p->addr.slots),
			       ep->lay.tx_base + (uint64_t)b * ep->lay.slot_size,
			       sizeof(*h) + frag, LOOM_PUT_REMOTE_EVENT, TAG_TX | b);
		if (ret) {
			txbuf_put(ep, b);
			if (ret == -EAGAIN)
				return -EAGAIN;
			LOFI_WARN(FI_LOG_EP_DATA, "put to %u:%u refused: %s\n",
				  p->addr.node, p->addr.ctx, loom_strerror(ret));
			peer_fail(ep, p, FI_EIO, 0);
			return 0;
		}
		ep->txbufs[b].op = op;
		ep->txbufs[b].peer = p;
		p->seq++;
		op->sent = rdv ? op->len : op->sent + frag;
		op->inflight++;
		if (op->sent == op->len) {
			op->queued_all = 1;
			lofi_list_del(&op->link);
		}
	}
	return 0;
}

void lofi_ep_push(struct lofi_ep *ep)
{
	struct lofi_list *pos, *next;

	ep->ring_full = 0;
	for (pos = ep->active_peers.next; pos != &ep->active_peers; pos = next) {
		struct lofi_txpeer *p = lofi_container_of(pos, struct lofi_txpeer, active);

		next = pos->next;
		if (p->state == LOFI_PEER_FAILED)
			peer_fail(ep, p, p->fail_err, p->fail_status);
		else if (peer_push(ep, p) == -EAGAIN) {
			ep->ring_full = 1;
			break;
		}
		if (lofi_list_empty(&p->queue)) {
			lofi_list_del(&p->active);
			p->on_active = 0;
		}
	}
}

/* ---- receiving ----------------------------------------------------------- */

void lofi_recv_complete(struct lofi_ep *ep, struct lofi_recv *r,
			uint64_t src_key, uint64_t tag, uint64_t data,
			uint32_t wire_flags, uint64_t total)
{
	uint64_t flags = FI_RECV | (r->flags & (FI_TAGGED | FI_MSG));
	fi_addr_t src = lofi_av_reverse(ep->av, src_key);
	size_t len = total < r->len ? (size_t)total : r->len;

	if (wire_flags & LOFI_F_DATA)
		flags |= FI_REMOTE_CQ_DATA;
	if (total > r->len && !(r->flags & FI_DISCARD)) {
		if (ep->rx_cq)
			lofi_cq_push_err(ep->rx_cq, r->context, flags, len, r->buf,
					 data, tag, total - r->len, FI_ETRUNC, 0, src);
		if (ep->rx_cntr)
			ep->rx_cntr->err++;
	} else {
		if (ep->rx_cq)
			lofi_cq_push(ep->rx_cq, r->context, flags, len, r->buf,
				     data, tag, src);
		if (ep->rx_cntr)
			ep->rx_cntr->value++;
	}
	free(r);
}

static void unexp_deliver(struct lofi_ep *ep, struct lofi_recv *r,
			  struct lofi_unexp *u)
{
	if (u->rdv) {
		lofi_rdv_read(ep, r, u->src, u->node, u->ctx, &u->rts, u->tag, u->data,
			      u->wire_flags, u->total_len);
	} else if (u->failed) {
		if (ep->rx_cq)
			lofi_cq_push_err(ep->rx_cq, r->context,
					 FI_RECV | (r->flags & (FI_TAGGED | FI_MSG)),
					 0, r->buf, u->data, u->tag, u->total_len,
					 FI_ENOMEM, 0, lofi_av_reverse(ep->av, u->src));
		if (ep->rx_cntr)
			ep->rx_cntr->err++;
		free(r);
	} else {
		if (!(r->flags & FI_DISCARD))
			memcpy(r->buf, u->buf, u->total_len < r->len ?
			       (size_t)u->total_len : r->len);
		lofi_recv_complete(ep, r, u->src, u->tag, u->data, u->wire_flags,
				   u->total_len);
	}
	free(u->buf);
	free(u);
}

void lofi_recv_from_unexp(struct lofi_ep *ep, struct lofi_recv *r,
			  struct lofi_unexp *u)
{
	if (u->complete)
		unexp_deliver(ep, r, u);
	else
		u->recv = r;	/* the region finishes it with the last fragment */
}

/* a rendezvous fragment: read the message once there is a receive */
static void deliver_rdv(struct lofi_ep *ep, struct lofi_rxregion *reg,
			const struct lofi_hdr *h, const uint8_t *payload)
{
	int tagged = !!(h->flags & LOFI_F_TAGGED);
	struct lofi_matchq *q = tagged ? &ep->tagged : &ep->untagged;
	uint32_t wire_flags = h->flags & (LOFI_F_TAGGED | LOFI_F_DATA);
	uint64_t tag = tagged ? h->tag : 0;
	struct lofi_recv *r;
	struct lofi_unexp *u;
	struct lofi_rts rts;

	memcpy(&rts, payload, sizeof(rts));
	reg->in_message = 0;
	r = lofi_take_posted(q, reg->key, tag);
	if (r) {
		lofi_rdv_read(ep, r, reg->key, reg->node, reg->ctx, &rts, tag, h->data,
			      wire_flags, h->total_len);
		return;
	}
	u = calloc(1, sizeof(*u));
	if (!u) {
		LOFI_WARN(FI_LOG_EP_DATA, "no memory for an unexpected rendezvous from %u:%u: dropped\n",
			  reg->node, reg->ctx);
		lofi_send_fin(ep, reg->node, reg->ctx, rts.fin_off, LOOM_STATUS_BAD_DESC);
		return;
	}
	u->src = reg->key;
	u->tag = tag;
	u->data = h->data;
	u->wire_flags = wire_flags;
	u->total_len = h->total_len;
	u->complete = 1;
	u->rdv = 1;
	u->rts = rts;
	u->node = reg->node;
	u->ctx = reg->ctx;
	lofi_list_add_tail(&q->unexp, &u->link);
}

static void deliver_fragment(struct lofi_ep *ep, struct lofi_rxregion *reg,
			     const struct lofi_hdr *h, const uint8_t *payload)
{
	if (h->flags & LOFI_F_RMA) {
		/* fi_writedata() finished: its data, no receive consumed */
		if (ep->rx_cq)
			lofi_cq_push(ep->rx_cq, NULL,
				     FI_RMA | FI_REMOTE_WRITE | FI_REMOTE_CQ_DATA,
				     0, NULL, h->data, 0,
				     lofi_av_reverse(ep->av, reg->key));
		return;
	}
	if (h->flags & LOFI_F_RDV) {
		deliver_rdv(ep, reg, h, payload);
		return;
	}
	if (h->flags & LOFI_F_FIRST) {
		int tagged = !!(h->flags & LOFI_F_TAGGED);
		struct lofi_matchq *q = tagged ? &ep->tagged : &ep->untagged;

		reg->in_message = 1;
		reg->total = h->total_len;
		reg->remaining = h->total_len;
		reg->offset = 0;
		reg->tag = tagged ? h->tag : 0;
		reg->data = h->data;
		reg->wire_flags = h->flags & (LOFI_F_TAGGED | LOFI_F_DATA);
		reg->recv = lofi_take_posted(q, reg->key, reg->tag);
		reg->unexp = NULL;
		if (!reg->recv) {
			struct lofi_unexp *u = calloc(1, sizeof(*u));

			if (!u) {
				/* nothing to queue it in: the message is lost */
				LOFI_WARN(FI_LOG_EP_DATA, "no memory for an unexpected message of %llu bytes from %u:%u: dropped\n",
					  (unsigned long long)reg->total, reg->node, reg->ctx);
			} else {
				u->src = reg->key;
				u->tag = reg->tag;
				u->data = reg->data;
				u->wire_flags = reg->wire_flags;
				u->total_len = reg->total;
				u->buf = malloc(reg->total ? reg->total : 1);
				u->failed = !u->buf;
				lofi_list_add_tail(&q->unexp, &u->link);
				reg->unexp = u;
			}
		}
	}
	if (reg->recv) {
		if (reg->offset < reg->recv->len) {
			uint64_t n = reg->recv->len - reg->offset;

			memcpy((uint8_t *)reg->recv->buf + reg->offset, payload,
			       n < h->frag_len ? n : h->frag_len);
		}
	} else if (reg->unexp && !reg->unexp->failed) {
		memcpy((uint8_t *)reg->unexp->buf + reg->offset, payload, h->frag_len);
		reg->unexp->received += h->frag_len;
	}
	reg->offset += h->frag_len;
	reg->remaining -= h->frag_len;
	if (!(h->flags & LOFI_F_LAST))
		return;
	reg->in_message = 0;
	if (reg->recv) {
		lofi_recv_complete(ep, reg->recv, reg->key, reg->tag, reg->data,
				   reg->wire_flags, reg->total);
		reg->recv = NULL;
	} else if (reg->unexp) {
		struct lofi_unexp *u = reg->unexp;

		reg->unexp = NULL;
		u->complete = 1;
		if (u->recv)	/* taken off the queue when the receive came */
			unexp_deliver(ep, u->recv, u);
	}
}

/* end a message cut short by a malformed fragment */
static void abort_message(struct lofi_ep *ep, struct lofi_rxregion *reg)
{
	if (!reg->in_message)
		return;
	reg->in_message = 0;
	if (reg->recv) {
		struct lofi_recv *r = reg->recv;

		if (ep->rx_cq)
			lofi_cq_push_err(ep->rx_cq, r->context,
					 FI_RECV | (r->flags & (FI_TAGGED | FI_MSG)),
					 0, r->buf, reg->data, reg->tag, 0, FI_EIO, 0,
					 lofi_av_reverse(ep->av, reg->key));
		if (ep->rx_cntr)
			ep->rx_cntr->err++;
		free(r);
		reg->recv = NULL;
	} else if (reg->unexp) {
		struct lofi_unexp *u = reg->unexp;

		reg->unexp = NULL;
		u->failed = 1;
		u->complete = 1;
		if (u->recv)
			unexp_deliver(ep, u->recv, u);
	}
}

static int fin_put(struct lofi_ep *ep, const struct lofi_fin *f)
{
	struct loom_remote dst = remote_of(f->node, f->ctx);
	uint32_t v = f->status <= 0 ? 0 : f->status < (int)LOFI_FIN_VALUES ?
		     (uint32_t)f->status : LOFI_FIN_VALUES - 1;
	int ret;

	ret = loom_put(ep->lctx, &dst, f->fin_off, ep->lay.fin_src + 8ull * v, 8,
		       LOOM_PUT_REMOTE_EVENT, TAG_FIN);
	if (ret && ret != -EAGAIN)
		LOFI_WARN(FI_LOG_EP_DATA, "the FIN of a rendezvous to %u:%u: %s (the send there does not complete)\n",
			  f->node, f->ctx, loom_strerror(ret));
	return ret;
}

/* put a FIN now, or (the command ring full) with the next progress */
void lofi_send_fin(struct lofi_ep *ep, uint32_t node, uint32_t ctx,
		   uint64_t fin_off, int status)
{
	struct lofi_fin f = { .node = node, .ctx = ctx, .fin_off = fin_off, .status = status };
	struct lofi_fin *more;

	if (!ep->n_fins && fin_put(ep, &f) != -EAGAIN)
		return;
	if (ep->n_fins == ep->cap_fins) {
		more = realloc(ep->fins, (ep->cap_fins ? 2 * ep->cap_fins : 16) * sizeof(*more));
		if (!more) {
			LOFI_WARN(FI_LOG_EP_DATA, "no memory to keep the FIN of a rendezvous to %u:%u\n",
				  node, ctx);
			return;
		}
		ep->fins = more;
		ep->cap_fins = ep->cap_fins ? 2 * ep->cap_fins : 16;
	}
	ep->fins[ep->n_fins++] = f;
}

/* the FINs that found the ring full, in order */
static void fins_retry(struct lofi_ep *ep)
{
	uint32_t i = 0;

	while (i < ep->n_fins && fin_put(ep, &ep->fins[i]) != -EAGAIN)
		i++;
	memmove(ep->fins, ep->fins + i, (ep->n_fins - i) * sizeof(*ep->fins));
	ep->n_fins -= i;
}

static void credit_return(struct lofi_ep *ep, uint32_t r)
{
	struct lofi_rxregion *reg = &ep->regions[r];
	struct loom_remote dst = remote_of(reg->node, reg->ctx);
	uint64_t cell = ep->lay.credit_out + 8ull * r;
	int ret;

	__atomic_store_n((uint64_t *)(ep->seg + cell), (uint64_t)reg->consumed,
			 __ATOMIC_RELEASE);
	ret = loom_put(ep->lctx, &dst, LOFI_CREDIT_IN + 8ull * reg->credit_cell,
		       cell, 8, LOOM_PUT_REMOTE_EVENT, TAG_CREDIT | r);
	if (ret == -EAGAIN) {
		if (!reg->credit_pending)
			ep->credits_pending++;
		reg->credit_pending = 1;
		return;
	}
	if (ret)
		LOFI_WARN(FI_LOG_EP_DATA, "credit return to %u:%u refused: %s\n",
			  reg->node, reg->ctx, loom_strerror(ret));
	if (reg->credit_pending)
		ep->credits_pending--;
	reg->credit_pending = 0;
	reg->returned = reg->consumed;
}

static void rx_drain(struct lofi_ep *ep, uint32_t r)
{
	struct lofi_rxregion *reg = &ep->regions[r];
	uint32_t slots = ep->lay.slots;

	for (;;) {
		uint32_t s = reg->expect % slots;
		const uint8_t *slot;
		struct lofi_hdr h;
		int ret;

		if (!(reg->arrived & (1ull << s)))
			break;
		reg->arrived &= ~(1ull << s);
		slot = ep->seg + ep->lay.rx_base +
		       ((uint64_t)r * slots + s) * ep->lay.slot_size;
		memcpy(&h, slot, sizeof(h));
		ret = lofi_hdr_check(&h, reg->arrived_len[s], ep->lay.slot_size,
				     reg->expect, reg->in_message, reg->remaining,
				     LOFI_MAX_MSG);
		if (ret) {
			ep->protocol_errors++;
			LOFI_WARN(FI_LOG_EP_DATA,
				  "malformed fragment from %u:%u in slot %u of region %u (seq %u expected, %u found, magic %#x, %u bytes, flags %#x): %s; dropped\n",
				  reg->node, reg->ctx, s, r, reg->expect, h.seq, h.magic,
				  h.frag_len, h.flags, fi_strerror(-ret));
			abort_message(ep, reg);
		} else {
			reg->credit_cell = h.credit_cell;
			deliver_fragment(ep, reg, &h, slot + sizeof(h));
		}
		reg->expect++;
		reg->consumed++;
	}
	if (lofi_credit_due(reg->consumed, reg->returned, slots))
		credit_return(ep, r);
}

static void on_arrival(struct lofi_ep *ep, const struct loom_completion *c)
{
	uint64_t off = c->tag;
	uint32_t r, s;

	if (off >= LOFI_CREDIT_IN && off < LOFI_CREDIT_IN + 8ull * LOFI_MAX_TX_PEERS) {
		uint32_t cell = (uint32_t)((off - LOFI_CREDIT_IN) / 8);

		if (cell < ep->n_peers)
			lofi_peer_kick(ep, ep->peers[cell]);
		return;
	}
	if (!lofi_fin_locate(&ep->lay, off, &s)) {
		lofi_rdv_fin(ep, s, c->node, c->ctx);
		return;
	}
	if (lofi_slot_locate(&ep->lay, off, &r, &s)) {
		ep->protocol_errors++;
		LOFI_WARN(FI_LOG_EP_DATA, "arrival from %u:%u at offset %#llx, not a slot: ignored\n",
			  c->node, c->ctx, (unsigned long long)off);
		return;
	}
	if (!ep->regions[r].bound) {
		ep->regions[r].bound = 1;
		ep->regions[r].node = c->node;
		ep->regions[r].ctx = c->ctx;
		ep->regions[r].key = lofi_peer_key(c->node, c->ctx);
	} else if (ep->regions[r].key != lofi_peer_key(c->node, c->ctx)) {
		ep->protocol_errors++;
		LOFI_WARN(FI_LOG_EP_DATA, "arrival from %u:%u in region %u of %u:%u: ignored\n",
			  c->node, c->ctx, r, ep->regions[r].node, ep->regions[r].ctx);
		return;
	}
	ep->regions[r].arrived |= 1ull << s;
	ep->regions[r].arrived_len[s] = c->value;
	rx_drain(ep, r);
}

static void on_local(struct lofi_ep *ep, const struct loom_completion *c)
{
	uint32_t i = TAG_INDEX(c->tag);

	switch (TAG_KIND(c->tag)) {
	case TAG_TX: {
		struct lofi_txop *op;

		if (i >= ep->lay.tx_bufs || !ep->txbufs[i].op)
			break;
		op = ep->txbufs[i].op;
		if (c->status) {
			struct lofi_txpeer *p = ep->txbufs[i].peer;

			if (!op->err) {
				op->err = lofi_errno_from_status(c->status);
				op->card_status = c->status;
			}
			/* the peer's sequence has a hole now: no more to it */
			p->state = LOFI_PEER_FAILED;
			p->fail_err = op->err;
			p->fail_status = c->status;
			lofi_peer_kick(ep, p);
			if (!lofi_list_empty(&p->queue))
				peer_fail(ep, p, op->err, c->status);
			/* a rendezvous that did not arrive gets no FIN */
			lofi_txop_release(ep, op);
		}
		txbuf_put(ep, i);
		op->inflight--;
		if (op->queued_all && !op->inflight && !op->await_fin)
			lofi_txop_finish(ep, op);
		break;
	}
	case TAG_FIN:
		if (c->status)
			LOFI_WARN(FI_LOG_EP_DATA, "a rendezvous FIN to %u:%u failed: %s\n",
				  c->node, c->ctx, loom_strerror(c->status));
		break;
	case TAG_CONNECT: {
		struct lofi_txpeer *p;

		if (i >= ep->n_peers)
			break;
		p = ep->peers[i];
		if (c->status)
			peer_fail(ep, p, lofi_errno_from_status(c->status), c->status);
		else if (c->value >= p->addr.regions)
			peer_fail(ep, p, FI_ENOSPC, 0);
		else {
			p->region = (uint32_t)c->value;
			p->state = LOFI_PEER_READY;
			lofi_peer_kick(ep, p);
		}
		break;
	}
	case TAG_CREDIT:
		if (c->status)
			LOFI_WARN(FI_LOG_EP_DATA, "credit return to %u:%u failed: %s\n",
				  c->node, c->ctx, loom_strerror(c->status));
		break;
	default:
		break;
	}
}

static void handle(struct lofi_ep *ep, const struct loom_completion *c, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (c[i].kind == LOOM_COMPLETION_ARRIVAL)
			on_arrival(ep, &c[i]);
		else if (c[i].kind == LOOM_COMPLETION_LOCAL)
			on_local(ep, &c[i]);
	}
}

static void after(struct lofi_ep *ep)
{
	uint32_t r;

	for (r = 0; ep->credits_pending && r < ep->lay.regions; r++)
			if (ep->regions[r].credit_pending)
				credit_return(ep, r);
	if (ep->n_fins)
		fins_retry(ep);
	lofi_ep_push(ep);
}

void lofi_ep_progress(struct lofi_ep *ep)
{
	struct loom_completion c[BATCH];
	int n;

	lofi_rma_progress(ep->dom);
	while ((n = loom_poll(ep->lctx, c, BATCH)) > 0) {
		handle(ep, c, n);
		if (n < BATCH)
			break;
	}
	if (n < 0)
		LOFI_WARN(FI_LOG_EP_DATA, "reaping the card's completions: %s\n",
			  loom_strerror(n));
	after(ep);
}

int lofi_ep_wait(struct lofi_ep *ep, int timeout_ms)
{
	struct loom_completion c[BATCH];
	int n;

	/* one-sided operations complete on the domain's RMA context */
	if (lofi_rma_busy(ep->dom)) {
		int ret = lofi_rma_wait(ep->dom, timeout_ms);

		lofi_ep_progress(ep);
		return ret;
	}
	n = loom_wait(ep->lctx, c, BATCH, timeout_ms);
	if (n == -ETIMEDOUT)
		return -FI_ETIMEDOUT;
	if (n < 0)
		return n == -EIO ? -FI_EIO : n;
	handle(ep, c, n);
	after(ep);
	return 0;
}
