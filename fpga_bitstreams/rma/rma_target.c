// SPDX-License-Identifier: GPL-2.0
/*
 * Target side of GET, ATOMIC and COUNTED_PUT; per-context counters and
 * counter thresholds (COUNTER_WAIT).
 */
#include "rma_target.h"
#include "card.h"
#include "host_if.h"

#include <string.h>

bool rma_is_request(uint8_t type)
{
	return type == LOOM_PKT_PUT || type == LOOM_PKT_GET_REQ || type == LOOM_PKT_AMO_REQ ||
	       type == LOOM_PKT_COUNTED_PUT;
}

void rma_response_hdr(uint16_t self, const struct loom_pkt_hdr *req, uint8_t status,
		      struct loom_pkt_hdr *resp)
{
	memset(resp, 0, sizeof(*resp));
	resp->class = LOOM_CLASS_RESP;
	resp->src_node = self;
	resp->dst_node = req->src_node;
	resp->src_ctx = req->dst_ctx;
	resp->dst_ctx = req->src_ctx;
	resp->op_id = req->op_id;
	resp->key = req->key;	/* the initiator accepts answers of its partition */
	resp->status = status;
	resp->op_len = req->op_len;
	switch (req->type) {
	case LOOM_PKT_GET_REQ:
		resp->type = LOOM_PKT_GET_RESP;
		resp->offset = req->aux;	/* where the requester wants the bytes */
		resp->aux = req->op_len;	/* bytes this answer covers */
		break;
	case LOOM_PKT_AMO_REQ:
		resp->type = LOOM_PKT_AMO_RESP;
		resp->offset = req->offset;
		resp->aux = 8;
		break;
	default:
		resp->type = LOOM_PKT_PUT_ACK;
		resp->offset = req->offset;
		resp->aux = req->len;		/* bytes this ack covers */
	}
}

void rma_count_drop(struct card *c, uint8_t status)
{
	uint32_t off;

	switch (status) {
	case LOOM_CQE_ST_REMOTE_KEY:
		off = LOOM_CNT_DROP_KEY;
		break;
	case LOOM_CQE_ST_REMOTE_BOUNDS:
	case LOOM_CQE_ST_COUNTER:
		off = LOOM_CNT_DROP_BOUNDS;
		break;
	case LOOM_CQE_ST_NO_CTX:
		off = LOOM_CNT_DROP_NO_CTX;
		break;
	case LOOM_CQE_ST_BAD_DESC:
		off = LOOM_CNT_DROP_MALFORMED;
		break;
	case LOOM_CQE_ST_MR_KEY:
	case LOOM_CQE_ST_MR_BOUNDS:
	case LOOM_CQE_ST_MR_ACCESS:
		mr_count_refusal(c);
		return;
	default:
		return;
	}
	off += CARD_OFF_COUNTERS;
	card_wr32(c, off, card_rd32(c, off) + 1);
}

static void rma_refused(struct card *c, const struct loom_pkt_hdr *h, uint8_t st)
{
	rma_count_drop(c, st);
	if (c->verbose)
		card_log(c, "type %u from %u.%u op %u to context %u offset 0x%llx refused: status %u",
			 h->type, h->src_node, h->src_ctx, h->op_id, h->dst_ctx,
			 (unsigned long long)h->offset, st);
}

void rma_target_get(struct card *c, const struct loom_pkt_hdr *h)
{
	uint8_t buf[LOOM_PKT_MAX_PAYLOAD];
	struct loom_pkt_hdr r;
	uint8_t st = LOOM_CQE_ST_BAD_DESC;

	if (h->len == 0 && h->op_len && h->op_len <= LOOM_PKT_MAX_PAYLOAD)
		st = hif_target_check(c, h, h->offset, h->op_len, h->offset, h->op_len);
	if (st == LOOM_CQE_ST_OK && !rma_tgt_read(c, h, h->offset, buf, h->op_len)) {
		hif_ctx_fault(c, rma_tgt_ctx(c, h), LOOM_CQE_ST_REMOTE_BOUNDS,
			      "segment or memory region outside host memory");
		st = LOOM_CQE_ST_NO_CTX;
	}
	if (st != LOOM_CQE_ST_OK)
		rma_refused(c, h, st);
	rma_response_hdr(card_logical_id(c), h, st, &r);
	if (st == LOOM_CQE_ST_OK)
		r.len = (uint16_t)h->op_len;
	r.flags = h->flags & LOOM_PKT_F_ORDERED;
	card_inject(c, &r, st == LOOM_CQE_ST_OK ? buf : NULL);
}

/* Execute LOOM_AMO_* @op on *@p; returns the value before. */
static uint64_t rma_amo_exec(uint64_t *p, uint64_t op, uint64_t operand, uint64_t compare)
{
	uint64_t old = compare;

	switch (op) {
	case LOOM_AMO_FETCH_ADD:
		return __atomic_fetch_add(p, operand, __ATOMIC_SEQ_CST);
	case LOOM_AMO_SWAP:
		return __atomic_exchange_n(p, operand, __ATOMIC_SEQ_CST);
	default:	/* LOOM_AMO_CSWAP: the old value whether or not it swapped */
		__atomic_compare_exchange_n(p, &old, operand, false, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST);
		return old;
	}
}

void rma_target_amo(struct card *c, const struct loom_pkt_hdr *h, const void *payload)
{
	uint64_t ops[2], fetched = 0;
	struct loom_pkt_hdr r;
	uint8_t st = LOOM_CQE_ST_BAD_DESC;

	if (h->len == sizeof(ops) && h->op_len == 8 && h->aux >= LOOM_AMO_FETCH_ADD &&
	    h->aux <= LOOM_AMO_CSWAP)
		st = hif_target_check(c, h, h->offset, 8, h->offset, 8);
	if (st == LOOM_CQE_ST_OK) {
		uint64_t *p = rma_tgt_ptr8(c, h, h->offset, &st);

		if (st == LOOM_CQE_ST_NO_CTX) {
			hif_ctx_fault(c, rma_tgt_ctx(c, h), LOOM_CQE_ST_REMOTE_BOUNDS,
				      "segment or memory region outside host memory");
		} else if (p) {
			memcpy(ops, payload, sizeof(ops));
			fetched = rma_amo_exec(p, h->aux, ops[0], ops[1]);
		}
	}
	if (st != LOOM_CQE_ST_OK)
		rma_refused(c, h, st);
	rma_response_hdr(card_logical_id(c), h, st, &r);
	if (st == LOOM_CQE_ST_OK)
		r.len = sizeof(fetched);
	r.flags = h->flags & LOOM_PKT_F_ORDERED;
	card_inject(c, &r, st == LOOM_CQE_ST_OK ? &fetched : NULL);
}

void rma_target_counted(struct card *c, const struct loom_pkt_hdr *h, const void *payload)
{
	uint64_t base = h->aux & RMA_COUNTED_BASE_MASK;
	unsigned int id = (unsigned int)(h->aux >> RMA_COUNTED_ID_SHIFT);
	uint8_t st = hif_target_check(c, h, base, h->op_len, h->offset, h->len);
	unsigned int tgt = rma_tgt_ctx(c, h);

	if (st == LOOM_CQE_ST_OK && (!c->ctx[tgt].cnt || id >= LOOM_CTX_COUNTERS))
		st = LOOM_CQE_ST_COUNTER;
	if (st == LOOM_CQE_ST_OK) {
		if (!rma_tgt_write(c, h, h->offset, payload, h->len)) {
			hif_ctx_fault(c, tgt, LOOM_CQE_ST_REMOTE_BOUNDS,
				      "segment or memory region outside host memory");
			st = LOOM_CQE_ST_NO_CTX;
		} else {
			/* data first, then the counter that announces it */
			rma_counter_add(c, tgt, id, h->len);
			if (h->flags & LOOM_PKT_F_REMOTE_CQE &&
			    c->ctx[tgt].state == LOOM_CTX_ST_RUNNING)
				hif_arrival(c, tgt, h, base, LOOM_OP_PUT_COUNTED);
		}
	} else {
		rma_refused(c, h, st);
	}
	card_respond(c, h, st);
}

/* ---- counters ---------------------------------------------------------- */

static void rma_post_counter(struct card *c, unsigned int idx, uint64_t tag, unsigned int id,
			     uint64_t value)
{
	struct loom_cqe e = {
		.tag = tag,
		.value = value,
		.src_node = card_logical_id(c),
		.src_ctx = (uint16_t)id,
		.kind = LOOM_CQE_COUNTER,
		.status = LOOM_CQE_ST_OK,
		.opcode = LOOM_OP_COUNTER_WAIT,
	};

	hif_post(c, idx, &e);
}

void rma_counter_add(struct card *c, unsigned int idx, unsigned int id, uint64_t n)
{
	struct hif_ctx *x = &c->ctx[idx];
	uint64_t *slot = guest_mem_ptr(c->gm, x->p.counters + (uint64_t)id * 8, 8);
	uint64_t v = x->cnt[id] + n;

	x->cnt[id] = v;
	if (!slot) {	/* checked at enable; only a shrinking guest RAM gets here */
		hif_ctx_fault(c, idx, LOOM_CQE_ST_BAD_DESC, "counters page outside host memory");
		return;
	}
	__atomic_store_n(slot, v, __ATOMIC_RELEASE);
	/*
	 * A driver sleeping on a counter sets CNT_IRQ, then reads the counter;
	 * we write the counter, then read CNT_IRQ: with a full barrier on both
	 * sides one of us sees the other's write, so no wake-up is lost.
	 */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (card_rd32(c, card_ctx_reg(idx, LOOM_CTXR_RINGS)) & LOOM_CTXR_RINGS_CNT_IRQ)
		c->vectors_pending |= 1u << x->p.vector;
	for (unsigned int i = 0; i < x->n_waits;) {
		struct hif_cwait w = x->waits[i];

		if (w.id != id || v < w.threshold) {
			i++;
			continue;
		}
		x->waits[i] = x->waits[--x->n_waits];
		rma_post_counter(c, idx, w.tag, id, v);
	}
}

void rma_counter_wait(struct card *c, unsigned int idx, const struct loom_cmd *cmd)
{
	struct hif_ctx *x = &c->ctx[idx];
	struct loom_cqe e = {
		.tag = cmd->tag,
		.src_node = card_logical_id(c),
		.src_ctx = (uint16_t)cmd->aux,
		.kind = LOOM_CQE_LOCAL,
		.opcode = cmd->opcode,
	};

	if (!x->cnt || cmd->aux >= LOOM_CTX_COUNTERS) {
		e.status = LOOM_CQE_ST_COUNTER;
	} else if (x->cnt[cmd->aux] >= cmd->operand) {
		rma_post_counter(c, idx, cmd->tag, cmd->aux, x->cnt[cmd->aux]);
		return;
	} else if (x->n_waits == HIF_MAX_WAITS) {
		e.status = LOOM_CQE_ST_BUSY;
	} else {
		x->waits[x->n_waits++] = (struct hif_cwait){
			.tag = cmd->tag, .threshold = cmd->operand, .id = (uint16_t)cmd->aux,
		};
		return;
	}
	hif_post(c, idx, &e);
}
