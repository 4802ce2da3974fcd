// SPDX-License-Identifier: GPL-2.0
/*
 * Host interface: command fetch, packetisation, operation tracking,
 * target-side writes, arrival accounting and completion posting.
 */
#include "host_if.h"
#include "card.h"
#include "desc_check.h"
#include "mcast.h"
#include "rma_target.h"
#include "router/route.h"

#include <stdlib.h>
#include <string.h>

/* ---- completions ------------------------------------------------------ */

/*
 * Take what software last wrote to LOOM_DB_CQ_CI (a write-only register)
 * and show it in LOOM_DB_CQ_CI_SEEN, where the driver reads it.
 */
static void hif_take_cq_ci(struct card *c, unsigned int idx)
{
	struct hif_ctx *x = &c->ctx[idx];

	if (strict_take_wo(c, card_db_reg(idx, LOOM_DB_CQ_CI), &x->cq_ci))
		card_wr32(c, card_db_reg(idx, LOOM_DB_CQ_CI_SEEN), x->cq_ci);
}

/*
 * Write @e at the completion producer index if the ring has room (never
 * over an entry software has not returned via LOOM_DB_CQ_CI), phase bit
 * last.  Returns 1 written, 0 ring full, -1 DMA fault.
 */
static int hif_write_cqe(struct card *c, unsigned int idx, struct loom_cqe e)
{
	struct hif_ctx *x = &c->ctx[idx];
	uint32_t entries = 1u << x->p.cq_log2;
	uint8_t *slot;

	hif_take_cq_ci(c, idx);
	/* free-running: used > entries means CI ran ahead of us; wait */
	if (x->cq_pi - x->cq_ci >= entries)
		return 0;
	slot = guest_mem_ptr(c->gm, x->p.cq + (uint64_t)(x->cq_pi & (entries - 1)) * LOOM_CQE_SIZE,
			     LOOM_CQE_SIZE);
	if (!slot)
		return -1;
	e.flags = loom_cq_phase(x->cq_pi, x->p.cq_log2);
	memcpy(slot, &e, offsetof(struct loom_cqe, flags));
	/* the phase bit last: software sees a complete entry */
	__atomic_store_n((uint32_t *)(void *)(slot + offsetof(struct loom_cqe, flags)), e.flags,
			 __ATOMIC_RELEASE);
	x->cq_pi++;
	c->vectors_pending |= 1u << x->p.vector;
	return 1;
}

static void hif_flush_cqes(struct card *c, unsigned int idx)
{
	struct hif_ctx *x = &c->ctx[idx];

	while (x->pend_count) {
		int r = hif_write_cqe(c, idx, x->pend[x->pend_head]);

		if (r < 0) {
			hif_ctx_fault(c, idx, LOOM_CQE_ST_BAD_DESC, "completion ring outside host memory");
			return;
		}
		if (r == 0) {
			c->stalled = true;
			return;
		}
		x->pend_head = (x->pend_head + 1) % HIF_PEND_CAP;
		x->pend_count--;
	}
}

void hif_post(struct card *c, unsigned int idx, const struct loom_cqe *e)
{
	struct hif_ctx *x = &c->ctx[idx];

	if (x->state != LOOM_CTX_ST_RUNNING)
		return;
	if (x->pend_count == HIF_PEND_CAP) {
		if (!x->warned_pend_full)
			card_log(c, "context %u: %u completions wait for ring space (LOOM_DB_CQ_CI not advancing); dropping new ones (first: kind %u tag 0x%llx status %u)",
				 idx, HIF_PEND_CAP, e->kind, (unsigned long long)e->tag, e->status);
		x->warned_pend_full = true;
		return;
	}
	if (!x->pend_count)
		x->warned_pend_full = false;
	x->pend[(x->pend_head + x->pend_count) % HIF_PEND_CAP] = *e;
	x->pend_count++;
	hif_flush_cqes(c, idx);
}

static void hif_post_local(struct card *c, unsigned int idx, const struct loom_cmd *cmd,
			   uint8_t status, uint64_t value)
{
	struct loom_cqe e = {
		.tag = cmd->tag,
		.value = value,
		.src_node = cmd->dst_node,
		.src_ctx = cmd->dst_ctx,
		.kind = LOOM_CQE_LOCAL,
		.status = status,
		.opcode = cmd->opcode,
	};

	hif_post(c, idx, &e);
}

/* ---- context life cycle ---------------------------------------------- */

_Static_assert(CARD_N_CTX <= 64, "ctx_running holds a bit per context");

static void hif_set_state(struct card *c, unsigned int idx, uint32_t state)
{
	c->ctx[idx].state = state;
	if (state == LOOM_CTX_ST_RUNNING)
		c->ctx_running |= 1ull << idx;
	else
		c->ctx_running &= ~(1ull << idx);
	card_wr32(c, card_ctx_reg(idx, LOOM_CTXR_STATE), state);
}

/* Forget everything context @idx had, except the op_id sequence. */
static void hif_ctx_clear(struct card *c, unsigned int idx)
{
	struct hif_ctx *x = &c->ctx[idx];
	uint32_t next_op_id = x->next_op_id;

	free(x->pend);
	free(x->arr);
	free(x->cnt);
	memset(x, 0, sizeof(*x));
	c->ctx_running &= ~(1ull << idx);	/* the state is DISABLED (0) */
	x->next_op_id = next_op_id;
	x->seg_slot = -1;
}

bool hif_ctx_start(struct card *c, unsigned int idx, const struct hif_ctx_params *p)
{
	struct hif_ctx *x = &c->ctx[idx];

	hif_ctx_clear(c, idx);
	x->pend = calloc(HIF_PEND_CAP, sizeof(*x->pend));
	x->arr = calloc(HIF_ARR_CAP, sizeof(*x->arr));
	if (p->counters)
		x->cnt = calloc(LOOM_CTX_COUNTERS, sizeof(*x->cnt));
	if (!x->pend || !x->arr || (p->counters && !x->cnt)) {
		free(x->pend);
		free(x->arr);
		free(x->cnt);
		x->pend = NULL;
		x->arr = NULL;
		x->cnt = NULL;
		card_log(c, "context %u: out of memory for completion, arrival and counter tables",
			 idx);
		return false;
	}
	x->p = *p;
	card_wr32(c, card_db_reg(idx, LOOM_DB_CMD_PI), 0);
	card_wr32(c, card_db_reg(idx, LOOM_DB_CQ_CI), 0);
	card_wr32(c, card_db_reg(idx, LOOM_DB_CQ_CI_SEEN), 0);
	card_wr32(c, card_ctx_reg(idx, LOOM_CTXR_CMD_CI), 0);
	card_wr32(c, card_ctx_reg(idx, LOOM_CTXR_ERROR), 0);
	hif_set_state(c, idx, LOOM_CTX_ST_RUNNING);
	if (c->verbose)
		card_log(c, "context %u: running, cmdq 0x%llx (2^%u), cq 0x%llx (2^%u), segment 0x%llx+0x%llx, vector %u",
			 idx, (unsigned long long)p->cmdq, p->cmdq_log2,
			 (unsigned long long)p->cq, p->cq_log2, (unsigned long long)p->seg,
			 (unsigned long long)p->seg_size, p->vector);
	return true;
}

static void hif_ctx_release(struct card *c, unsigned int idx, uint32_t state)
{
	mr_ctx_gone(c, idx);
	hif_ctx_clear(c, idx);
	hif_set_state(c, idx, state);
}

void hif_ctx_stop(struct card *c, unsigned int idx)
{
	if (c->ctx[idx].state != LOOM_CTX_ST_DISABLED && c->verbose)
		card_log(c, "context %u: disabled", idx);
	hif_ctx_release(c, idx, LOOM_CTX_ST_DISABLED);
}

void hif_ctx_fault(struct card *c, unsigned int idx, uint8_t status, const char *why)
{
	struct loom_cqe e = { .kind = LOOM_CQE_LOCAL, .status = status };

	card_log(c, "context %u: FAULTED (status %u): %s", idx, status, why);
	card_wr32(c, card_ctx_reg(idx, LOOM_CTXR_ERROR), status);
	/* one error completion if the ring has room and is reachable */
	if (c->ctx[idx].state == LOOM_CTX_ST_RUNNING && hif_write_cqe(c, idx, e) <= 0)
		c->vectors_pending |= 1u << c->ctx[idx].p.vector;
	hif_ctx_release(c, idx, LOOM_CTX_ST_FAULTED);
}

/* ---- source side ------------------------------------------------------ */

/* Where would a packet for @dst_node leave this card now? */
static struct router_decision hif_route(const struct card *c, uint32_t dst_node)
{
	struct loom_pkt_hdr h = { .dst_node = (uint16_t)dst_node };

	return card_route(c, &h);
}

/*
 * A multicast put starts at its group's root: the group's entry here must
 * be valid, with the members whose acknowledgements complete it (in
 * @members).  Otherwise it completes UNREACHABLE at once (false).  Copies
 * toward a port that is down are dropped by the router; the put then
 * fails with LINK when its timer expires or the port's loss is seen.
 */
static bool hif_mcast_root(struct card *c, unsigned int idx, const struct loom_cmd *cmd,
			   uint16_t *members)
{
	struct mcast_entry e = { 0 };

	if (mcast_entry(c, cmd->dst_node, &e) && e.valid && e.members) {
		*members = e.members;
		return true;
	}
	card_drop_count(c, LOOM_CNT_DROP_NO_ROUTE);
	if (c->verbose)
		card_log(c, "context %u: multicast put to group %u refused: %s", idx, cmd->dst_node,
			 cmd->dst_node >= CARD_MCAST_GROUPS ? "beyond the group table" :
			 !e.valid ? "entry not valid" : "entry has no members");
	hif_post_local(c, idx, cmd, LOOM_CQE_ST_UNREACHABLE, 0);
	return false;
}

/* Start the staged command; false if it must wait (fence, op slot busy). */
static bool hif_start_staged(struct card *c, unsigned int idx)
{
	struct hif_ctx *x = &c->ctx[idx];
	const struct loom_cmd *cmd = &x->staged;
	struct router_decision d;
	struct hif_op *op;
	unsigned int slot;
	uint16_t members = 0;

	if ((cmd->flags & LOOM_CMD_F_FENCE) && x->ops_busy)
		return false;
	if (cmd->opcode == LOOM_OP_NOP) {
		x->has_staged = false;
		if (cmd->flags & LOOM_CMD_F_SIGNAL)
			hif_post_local(c, idx, cmd, LOOM_CQE_ST_OK, 0);
		return true;
	}
	if (cmd->opcode == LOOM_OP_COUNTER_WAIT) {
		x->has_staged = false;
		rma_counter_wait(c, idx, cmd);
		return true;
	}
	slot = x->next_op_id % HIF_MAX_OPS;
	if (x->ops[slot].busy)
		return false;
	x->has_staged = false;
	if (cmd->flags & LOOM_CMD_F_LOCAL_MR) {
		uint8_t st = mr_check_local(c, idx, (uint32_t)cmd->compare, cmd->local_off,
					    cmd->length, cmd->opcode == LOOM_OP_GET);

		if (st != LOOM_CQE_ST_OK) {
			mr_count_refusal(c);
			hif_post_local(c, idx, cmd, st, 0);
			return true;
		}
	}
	if (cmd->flags & LOOM_CMD_F_MCAST) {
		if (!hif_mcast_root(c, idx, cmd, &members))
			return true;
	} else {
		/*
		 * The DMA engine looks up the op's exit in the routing table
		 * before it segments it: no route, or a link that is down,
		 * fails the op at once instead of sending every packet of it
		 * into the router's drop interface.  The packets themselves
		 * are routed by the router alone.
		 */
		d = hif_route(c, cmd->dst_node);
		if (d.verdict != ROUTE_HOST && d.verdict != ROUTE_PORT) {
			/* refused before segmenting: its first packet is the one dropped */
			card_drop_count(c, LOOM_CNT_DROP_NO_ROUTE);
			hif_post_local(c, idx, cmd, LOOM_CQE_ST_UNREACHABLE, 0);
			return true;
		}
		if (d.verdict == ROUTE_PORT && !card_port_up(c, d.port)) {
			hif_post_local(c, idx, cmd, LOOM_CQE_ST_LINK, 0);
			return true;
		}
	}
	op = &x->ops[slot];
	memset(op, 0, sizeof(*op));
	op->busy = true;
	op->opcode = cmd->opcode;
	op->flags = cmd->flags;
	op->dst_ctx = cmd->dst_ctx;
	op->dst_node = cmd->dst_node;
	op->op_id = x->next_op_id++;
	op->tag = cmd->tag;
	op->local_off = cmd->local_off;
	op->remote_off = cmd->remote_off;
	op->len = cmd->length;
	op->aux = cmd->aux;
	op->operand = cmd->operand;
	op->compare = cmd->compare;
	op->lkey = (uint32_t)cmd->compare;
	op->rkey = cmd->key;
	op->progress_ms = c->now_ms;
	op->members = members;
	x->ops_busy++;
	x->seg_slot = (int)slot;
	return true;
}

/* Fetch and dispose of one descriptor; false if there is none to take. */
static bool hif_fetch(struct card *c, unsigned int idx)
{
	struct hif_ctx *x = &c->ctx[idx];
	uint32_t entries = 1u << x->p.cmdq_log2;
	struct loom_cmd cmd;
	uint32_t pi;
	uint8_t st;

	strict_take_wo(c, card_db_reg(idx, LOOM_DB_CMD_PI), &x->cmd_pi);
	pi = x->cmd_pi;
	if (pi == x->cmd_ci || x->pend_count >= HIF_PEND_CAP / 2)
		return false;
	if (pi - x->cmd_ci > entries) {
		hif_ctx_fault(c, idx, LOOM_CQE_ST_BAD_DESC,
			      "LOOM_DB_CMD_PI is more than the ring size ahead of the commands consumed");
		return false;
	}
	if (!guest_mem_read(c->gm, x->p.cmdq + (uint64_t)(x->cmd_ci & (entries - 1)) * LOOM_CMD_SIZE,
			    &cmd, sizeof(cmd))) {
		hif_ctx_fault(c, idx, LOOM_CQE_ST_BAD_DESC, "command ring outside host memory");
		return false;
	}
	x->cmd_ci++;
	card_wr32(c, card_ctx_reg(idx, LOOM_CTXR_CMD_CI), x->cmd_ci);
	st = desc_check(&cmd, x->p.seg_size);
	if (st != LOOM_CQE_ST_OK) {
		if (c->verbose)
			card_log(c, "context %u: command %u (opcode %u flags 0x%x) rejected with status %u",
				 idx, x->cmd_ci - 1, cmd.opcode, cmd.flags, st);
		hif_post_local(c, idx, &cmd, st, 0);
		return true;
	}
	x->staged = cmd;
	x->has_staged = true;
	return true;
}

/*
 * Fill the type, length and type-specific fields of the request carrying
 * bytes [sent, sent + @n) of @op; returns its payload (NULL: none, or the
 * segment or region is out of reach when h->len is set).  Bytes of a
 * local region are gathered into @bounce.
 */
static const void *hif_request_body(struct card *c, unsigned int idx, const struct hif_op *op,
				    uint64_t n, struct loom_pkt_hdr *h, uint64_t amo[2],
				    uint8_t bounce[LOOM_PKT_MAX_PAYLOAD])
{
	switch (op->opcode) {
	case LOOM_OP_GET:
		/* ask for n bytes; the answer lands at local_off + sent */
		h->type = LOOM_PKT_GET_REQ;
		h->op_len = n;
		h->aux = op->local_off + op->sent;
		return NULL;
	case LOOM_OP_ATOMIC:
		h->type = LOOM_PKT_AMO_REQ;
		h->len = 2 * sizeof(uint64_t);
		h->op_len = 8;
		h->aux = op->aux;
		amo[0] = op->operand;
		amo[1] = op->compare;
		return amo;
	case LOOM_OP_PUT_COUNTED:
		h->type = LOOM_PKT_COUNTED_PUT;
		h->aux = rma_counted_aux(op->remote_off, op->aux);
		break;
	default:
		h->type = LOOM_PKT_PUT;
		h->aux = op->remote_off;
	}
	h->len = (uint16_t)n;
	h->op_len = op->len;
	if (op->flags & LOOM_CMD_F_LOCAL_MR)
		return mr_check_local(c, idx, op->lkey, op->local_off + op->sent, n, false) ==
				       LOOM_CQE_ST_OK &&
			       mr_read(c, op->lkey, op->local_off + op->sent, bounce, n) ?
		       bounce : NULL;
	return guest_mem_ptr(c->gm, c->ctx[idx].p.seg + op->local_off + op->sent, n);
}

static void hif_op_finish(struct card *c, unsigned int idx, struct hif_op *op, uint8_t status);

/* Packetise the current op; returns packets sent, stops at @budget. */
static unsigned int hif_pump_op(struct card *c, unsigned int idx, unsigned int budget,
				bool *blocked)
{
	struct hif_ctx *x = &c->ctx[idx];
	struct hif_op *op = &x->ops[x->seg_slot];
	uint32_t op_id = op->op_id;
	unsigned int sent = 0;
	uint8_t bounce[LOOM_PKT_MAX_PAYLOAD];
	uint64_t amo[2];

	while (op->sent < op->len && sent < budget) {
		uint64_t n = op->len - op->sent;
		const void *payload;
		struct loom_pkt_hdr h;

		if (x->pkts_out >= HIF_WINDOW || !card_can_inject(c)) {
			*blocked = true;
			return sent;
		}
		if (n > LOOM_PKT_MAX_PAYLOAD)
			n = LOOM_PKT_MAX_PAYLOAD;
		memset(&h, 0, sizeof(h));
		payload = hif_request_body(c, idx, op, n, &h, amo, bounce);
		if (!payload && h.len && op->flags & LOOM_CMD_F_LOCAL_MR) {
			/* the region went away under the op: it fails, the context lives */
			hif_op_finish(c, idx, op, LOOM_CQE_ST_MR_KEY);
			return sent;
		}
		if (!payload && h.len) {
			hif_ctx_fault(c, idx, LOOM_CQE_ST_LOCAL_BOUNDS, "segment outside host memory");
			return sent;
		}
		h.class = LOOM_CLASS_REQ;
		h.src_node = card_logical_id(c);
		h.dst_node = (uint16_t)op->dst_node;
		h.src_ctx = (uint16_t)idx;
		h.dst_ctx = op->dst_ctx;
		/* the partition is the context's, whatever the descriptor said */
		h.key = x->p.key;
		h.offset = op->remote_off + op->sent;
		h.op_id = op_id;
		h.flags = (op->flags & LOOM_CMD_F_REMOTE_CQE ? LOOM_PKT_F_REMOTE_CQE : 0) |
			  (op->flags & LOOM_CMD_F_ORDERED ? LOOM_PKT_F_ORDERED : 0);
		if (op->flags & LOOM_CMD_F_REMOTE_MR) {
			h.flags |= LOOM_PKT_F_MR;
			loom_pkt_set_rkey(&h, op->rkey);
		}
		if (op->flags & LOOM_CMD_F_MCAST)
			h.flags |= LOOM_PKT_F_MCAST;	/* dst_node is the group */
		op->sent += n;
		/* a multicast packet is answered by every member */
		op->pkts_out += op->members ? op->members : 1;
		x->pkts_out += op->members ? op->members : 1;
		sent++;
		/* into the router through the host port (room was checked) */
		card_inject(c, &h, payload);
	}
	if (op->sent == op->len)
		x->seg_slot = -1;
	return sent;
}

static void hif_pump(struct card *c, unsigned int idx)
{
	struct hif_ctx *x = &c->ctx[idx];
	unsigned int budget = HIF_BUDGET;
	bool blocked = false;

	while (budget && !blocked && x->state == LOOM_CTX_ST_RUNNING) {
		if (x->seg_slot >= 0) {
			unsigned int n = hif_pump_op(c, idx, budget, &blocked);

			budget -= n < budget ? n : budget;
		} else if (x->has_staged) {
			if (!hif_start_staged(c, idx))
				return;
			budget--;
		} else {
			if (!hif_fetch(c, idx))
				return;
			budget--;
		}
	}
	if (!budget && x->state == LOOM_CTX_ST_RUNNING)
		c->more_work = true;
}

/*
 * Retire @op: post its LOCAL completion (on SIGNAL or error) and free its
 * slot.  @status, if not OK, overrides a clean result (link loss, timeout).
 */
static void hif_op_finish(struct card *c, unsigned int idx, struct hif_op *op, uint8_t status)
{
	struct hif_ctx *x = &c->ctx[idx];
	struct loom_cqe e = {
		.tag = op->tag,
		.value = op->opcode == LOOM_OP_ATOMIC ? op->fetched : op->ok_bytes,
		.src_node = op->dst_node,
		.src_ctx = op->dst_ctx,
		.kind = LOOM_CQE_LOCAL,
		.opcode = op->opcode,
	};

	if (op->status == LOOM_CQE_ST_OK)
		op->status = status;
	e.status = op->status;
	x->pkts_out -= op->pkts_out;
	if (x->seg_slot >= 0 && &x->ops[x->seg_slot] == op)
		x->seg_slot = -1;
	op->busy = false;
	x->ops_busy--;
	/* success is reported only when asked for; errors always */
	if ((op->flags & LOOM_CMD_F_SIGNAL) || e.status != LOOM_CQE_ST_OK)
		hif_post(c, idx, &e);
}

void hif_port_down(struct card *c, unsigned int port)
{
	for (unsigned int idx = 0; idx < c->n_ctx; idx++) {
		struct hif_ctx *x = &c->ctx[idx];

		for (unsigned int i = 0; i < HIF_MAX_OPS && x->state == LOOM_CTX_ST_RUNNING; i++) {
			struct router_decision d;

			if (!x->ops[i].busy)
				continue;
			if (x->ops[i].members) {
				struct mcast_entry e;

				/* a multicast put with a copy through the port */
				if (mcast_entry(c, x->ops[i].dst_node, &e) && e.ports >> port & 1)
					hif_op_finish(c, idx, &x->ops[i], LOOM_CQE_ST_LINK);
				continue;
			}
			d = hif_route(c, x->ops[i].dst_node);
			if (d.verdict == ROUTE_PORT && d.port == port)
				hif_op_finish(c, idx, &x->ops[i], LOOM_CQE_ST_LINK);
		}
	}
}

/*
 * Forward-progress timer: ops without an answer for op_timeout_ms fail.
 * An op starts with progress_ms at the card's time and acks only move it
 * on, so no op can fail before progress_floor_ms + op_timeout_ms, the
 * oldest progress_ms the last look saw: until then the ops are not
 * looked at.
 */
static void hif_expire_ops(struct card *c, unsigned int idx)
{
	struct hif_ctx *x = &c->ctx[idx];
	uint64_t floor = c->now_ms;

	if (c->now_ms - x->progress_floor_ms < c->p.op_timeout_ms)
		return;
	for (unsigned int i = 0; i < HIF_MAX_OPS && x->state == LOOM_CTX_ST_RUNNING; i++) {
		struct hif_op *op = &x->ops[i];

		if (!op->busy)
			continue;
		if (!op->pkts_out || c->now_ms - op->progress_ms < c->p.op_timeout_ms) {
			if (op->progress_ms < floor)
				floor = op->progress_ms;
			continue;
		}
		card_log(c, "context %u: op %u (tag 0x%llx) to %u.%u: no acknowledgement for %u ms, failing it with LINK",
			 idx, op->op_id, (unsigned long long)op->tag, op->dst_node, op->dst_ctx,
			 c->p.op_timeout_ms);
		hif_op_finish(c, idx, op, LOOM_CQE_ST_LINK);
	}
	if (x->state == LOOM_CTX_ST_RUNNING)
		x->progress_floor_ms = floor;
}

/* The answer type each opcode's requests get. */
static uint8_t hif_answer_type(uint8_t opcode)
{
	switch (opcode) {
	case LOOM_OP_GET:
		return LOOM_PKT_GET_RESP;
	case LOOM_OP_ATOMIC:
		return LOOM_PKT_AMO_RESP;
	default:
		return LOOM_PKT_PUT_ACK;
	}
}

/*
 * Take in the data of a successful GET_RESP or AMO_RESP for @op; returns
 * LOOM_CQE_ST_OK, or BAD_DESC for an answer that does not fit its request.
 */
static uint8_t hif_answer_data(struct card *c, unsigned int idx, struct hif_op *op,
			       const struct loom_pkt_hdr *h, const void *payload)
{
	if (h->type == LOOM_PKT_AMO_RESP) {
		if (h->len != sizeof(op->fetched))
			return LOOM_CQE_ST_BAD_DESC;
		memcpy(&op->fetched, payload, sizeof(op->fetched));
		return LOOM_CQE_ST_OK;
	}
	if (h->type != LOOM_PKT_GET_RESP)
		return h->len ? LOOM_CQE_ST_BAD_DESC : LOOM_CQE_ST_OK;
	/* the bytes must be those asked for: inside the op's local range */
	if (h->len != h->aux || h->offset < op->local_off || h->offset - op->local_off > op->len ||
	    h->len > op->len - (h->offset - op->local_off))
		return LOOM_CQE_ST_BAD_DESC;
	if (op->flags & LOOM_CMD_F_LOCAL_MR) {
		/* checked again: the region may have been dropped meanwhile */
		uint8_t st = mr_check_local(c, idx, op->lkey, h->offset, h->len, true);

		if (st != LOOM_CQE_ST_OK) {
			mr_count_refusal(c);
			return st;
		}
		if (!mr_write(c, op->lkey, h->offset, payload, h->len)) {
			hif_ctx_fault(c, idx, LOOM_CQE_ST_LOCAL_BOUNDS,
				      "memory region page outside host memory");
			return LOOM_CQE_ST_LOCAL_BOUNDS;
		}
		return LOOM_CQE_ST_OK;
	}
	if (!guest_mem_write(c->gm, c->ctx[idx].p.seg + h->offset, payload, h->len)) {
		hif_ctx_fault(c, idx, LOOM_CQE_ST_LOCAL_BOUNDS, "segment outside host memory");
		return LOOM_CQE_ST_LOCAL_BOUNDS;
	}
	return LOOM_CQE_ST_OK;
}

/* An answer (PUT_ACK, GET_RESP, AMO_RESP) to one of our requests. */
static void hif_source_ack(struct card *c, const struct loom_pkt_hdr *h, const void *payload)
{
	struct hif_ctx *x;
	struct hif_op *op;
	unsigned int idx = h->dst_ctx;
	uint64_t fan;
	uint8_t st;

	if (idx >= c->n_ctx || c->ctx[idx].state != LOOM_CTX_ST_RUNNING) {
		c->stale_acks++;
		return;
	}
	x = &c->ctx[idx];
	op = &x->ops[h->op_id % HIF_MAX_OPS];
	/* a multicast put: every member acknowledges every byte */
	fan = op->members ? op->members : 1;
	/* an answer carries its request's key: ours, or it is not ours */
	if (!op->busy || op->op_id != h->op_id || h->aux > op->sent * fan - op->acked ||
	    h->type != hif_answer_type(op->opcode) || h->key != x->p.key) {
		c->stale_acks++;
		return;
	}
	st = h->status;
	if (st == LOOM_CQE_ST_OK)
		st = hif_answer_data(c, idx, op, h, payload);
	if (x->state != LOOM_CTX_ST_RUNNING)
		return;
	op->acked += h->aux;
	op->progress_ms = c->now_ms;
	if (st == LOOM_CQE_ST_OK)
		op->ok_bytes += h->aux;
	else if (op->status == LOOM_CQE_ST_OK)
		op->status = st;
	if (op->pkts_out) {
		op->pkts_out--;
		x->pkts_out--;
	}
	if (op->acked == op->len * fan)
		hif_op_finish(c, idx, op, LOOM_CQE_ST_OK);
}

/* ---- target side ------------------------------------------------------ */

static unsigned int hif_arr_hash(uint16_t node, uint16_t ctx, uint32_t op_id)
{
	uint32_t k = op_id * 0x9e3779b1u ^ ((uint32_t)node << 16 | ctx) * 0x85ebca6bu;

	return (k ^ (k >> 15)) & (HIF_ARR_CAP - 1);
}

static void hif_arr_remove(struct hif_ctx *x, unsigned int i)
{
	unsigned int j = i;

	/* backward-shift deletion keeps linear probing chains intact */
	for (;;) {
		unsigned int k;

		j = (j + 1) & (HIF_ARR_CAP - 1);
		if (!x->arr[j].used)
			break;
		k = hif_arr_hash(x->arr[j].src_node, x->arr[j].src_ctx, x->arr[j].op_id);
		if ((j > i && (k <= i || k > j)) || (j < i && k <= i && k > j)) {
			x->arr[i] = x->arr[j];
			i = j;
		}
	}
	x->arr[i].used = false;
	x->arr_count--;
}

void hif_arrival(struct card *c, unsigned int idx, const struct loom_pkt_hdr *h, uint64_t base,
		 uint8_t opcode)
{
	struct hif_ctx *x = &c->ctx[idx];
	unsigned int i = hif_arr_hash(h->src_node, h->src_ctx, h->op_id);
	struct hif_arrival *a;

	for (;;) {
		a = &x->arr[i];
		if (!a->used || (a->src_node == h->src_node && a->src_ctx == h->src_ctx &&
				 a->op_id == h->op_id))
			break;
		i = (i + 1) & (HIF_ARR_CAP - 1);
	}
	if (!a->used) {
		if (x->arr_count >= HIF_ARR_CAP - 1) {
			if (!x->warned_arr_full)
				card_log(c, "context %u: %u operations arriving at once; no arrival entries for new ones (first: op %u from %u.%u)",
					 idx, x->arr_count, h->op_id, h->src_node, h->src_ctx);
			x->warned_arr_full = true;
			return;
		}
		if (!x->arr_count)
			x->warned_arr_full = false;
		memset(a, 0, sizeof(*a));
		a->used = true;
		a->src_node = h->src_node;
		a->src_ctx = h->src_ctx;
		a->op_id = h->op_id;
		a->base = base;
		a->op_len = h->op_len;
		x->arr_count++;
	}
	a->landed += h->len;
	if (a->landed >= a->op_len) {
		struct loom_cqe e = {
			.tag = a->base,
			.value = a->op_len,
			.src_node = a->src_node,
			.src_ctx = a->src_ctx,
			.kind = LOOM_CQE_ARRIVAL,
			.status = LOOM_CQE_ST_OK,
			.opcode = opcode,
		};

		hif_arr_remove(x, i);
		hif_post(c, idx, &e);
	}
}

uint8_t hif_target_check(const struct card *c, const struct loom_pkt_hdr *h, uint64_t base,
			 uint64_t op_len, uint64_t off, uint64_t len)
{
	const struct hif_ctx *x;
	uint64_t seg_size;
	unsigned int owner;

	if (h->flags & LOOM_PKT_F_MR)
		return mr_check_remote(c, h, base, op_len, off, len, &owner);
	if (h->dst_ctx >= c->n_ctx || c->ctx[h->dst_ctx].state != LOOM_CTX_ST_RUNNING)
		return LOOM_CQE_ST_NO_CTX;
	x = &c->ctx[h->dst_ctx];
	/* the partition table: each context record's key */
	if (h->key != x->p.key)
		return LOOM_CQE_ST_REMOTE_KEY;
	seg_size = x->p.seg_size;
	/* the whole op inside the segment, and this packet inside the op */
	if (base > seg_size || op_len > seg_size - base || off < base || len > op_len ||
	    off - base > op_len - len)
		return LOOM_CQE_ST_REMOTE_BOUNDS;
	return LOOM_CQE_ST_OK;
}

static void hif_target_put(struct card *c, const struct loom_pkt_hdr *h, const void *payload)
{
	uint8_t st = hif_target_check(c, h, h->aux, h->op_len, h->offset, h->len);

	if (st == LOOM_CQE_ST_OK) {
		unsigned int tgt = rma_tgt_ctx(c, h);

		if (!rma_tgt_write(c, h, h->offset, payload, h->len)) {
			hif_ctx_fault(c, tgt, LOOM_CQE_ST_REMOTE_BOUNDS,
				      "segment or memory region outside host memory");
			st = LOOM_CQE_ST_NO_CTX;
		} else if (h->flags & LOOM_PKT_F_REMOTE_CQE) {
			hif_arrival(c, tgt, h, h->aux, LOOM_OP_PUT);
		}
	} else {
		rma_count_drop(c, st);
	}
	if (st != LOOM_CQE_ST_OK && c->verbose) {
		card_log(c, "put from %u.%u op %u to context %u offset 0x%llx len %u refused: status %u",
			 h->src_node, h->src_ctx, h->op_id, h->dst_ctx,
			 (unsigned long long)h->offset, h->len, st);
	}
	card_respond(c, h, st);
}

/*
 * A multicast copy for this card's host: a PUT request of a group whose
 * entry here is valid and has HOST; it lands in the entry's HOST_CTX with
 * the checks of a unicast put, and the root gets the acknowledgement.
 * Anything else is counted and dropped.
 */
static void hif_target_mcast(struct card *c, const struct loom_pkt_hdr *h, const void *payload)
{
	struct loom_pkt_hdr t;
	struct mcast_entry e;

	if (h->type != LOOM_PKT_PUT || h->class != LOOM_CLASS_REQ || h->flags & LOOM_PKT_F_MR) {
		card_drop_count(c, LOOM_CNT_DROP_MALFORMED);
		if (c->verbose)
			card_log(c, "multicast packet of type %u class %u flags 0x%x from %u: only PUT requests are multicast; dropped",
				 h->type, h->class, h->flags, h->src_node);
		return;
	}
	if (!mcast_entry(c, h->dst_node, &e) || !e.valid || !e.host) {
		card_drop_count(c, LOOM_CNT_DROP_NO_ROUTE);
		if (c->verbose)
			card_log(c, "multicast put of group %u from %u: no valid entry with a host copy here; dropped",
				 h->dst_node, h->src_node);
		return;
	}
	t = *h;
	t.dst_ctx = e.host_ctx;
	hif_target_put(c, &t, payload);
}

void hif_deliver(struct card *c, const struct loom_pkt_hdr *h, const void *payload)
{
	if (h->flags & LOOM_PKT_F_MCAST) {
		hif_target_mcast(c, h, payload);
		return;
	}
	switch (h->type) {
	case LOOM_PKT_PUT:
		hif_target_put(c, h, payload);
		return;
	case LOOM_PKT_COUNTED_PUT:
		rma_target_counted(c, h, payload);
		return;
	case LOOM_PKT_GET_REQ:
		rma_target_get(c, h);
		return;
	case LOOM_PKT_AMO_REQ:
		rma_target_amo(c, h, payload);
		return;
	case LOOM_PKT_PUT_ACK:
	case LOOM_PKT_GET_RESP:
	case LOOM_PKT_AMO_RESP:
		hif_source_ack(c, h, payload);
		return;
	default:
		c->host_drops++;
		if (c->verbose)
			card_log(c, "packet type %u from %u not handled by this design; dropped",
				 h->type, h->src_node);
	}
}

bool hif_cq_unreturned(const struct card *c)
{
	for (uint64_t m = c->ctx_running; m; m &= m - 1) {
		unsigned int i = (unsigned int)__builtin_ctzll(m);

		if (c->ctx[i].cq_pi != c->ctx[i].cq_ci)
			return true;
	}
	return false;
}

/* ---- one service round ---------------------------------------------- */

void hif_service(struct card *c)
{
	c->more_work = false;
	c->stalled = false;
	/* the running contexts in order, as they are when the round reaches them */
	for (unsigned int i = 0; i < c->n_ctx; i++) {
		uint64_t later = c->ctx_running >> i;

		if (!later)
			break;
		i += (unsigned int)__builtin_ctzll(later);
		if (i >= c->n_ctx)
			break;
		if (c->ctx[i].state != LOOM_CTX_ST_RUNNING)
			continue;
		/* CQ_CI comes without a kick: keep CQ_CI_SEEN current */
		hif_take_cq_ci(c, i);
		hif_flush_cqes(c, i);
		if (c->ctx[i].ops_busy)
			hif_expire_ops(c, i);
		hif_pump(c, i);
	}
}
