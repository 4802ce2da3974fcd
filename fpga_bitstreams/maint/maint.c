// SPDX-License-Identifier: GPL-2.0
/*
 * Maintenance network: mailbox, directed-route forwarding, register access
 * at the target and the response ring at the requester.
 *
 * Hop accounting (struct loom_maint_payload): the requester is card 0 of
 * the path and sends on route[0] with hop 0.  A card receiving a request
 * records its input port in ret[hop] and increments hop; it is the target
 * when hop == route_len, else it sends on route[hop].  The target answers
 * on ret[route_len - 1] with hop = route_len - 1: a response's hop is the
 * index on the path of the card it travels to.  Card h > 0 receiving a
 * response sends it on ret[h - 1] with hop h - 1; card 0 (hop 0) is the
 * requester.
 */
#include "maint.h"
#include "card.h"

#include <string.h>

#define MAINT_REG(off)		(CARD_OFF_MAINT + (off))
#define MAINT_LOST_REG		(CARD_OFF_COUNTERS + LOOM_CNT_MAINT_LOST)

/* ---- register access at the target ----------------------------------- */

static bool in_range(uint32_t addr, uint32_t lo, uint32_t hi)
{
	return addr >= lo && addr < hi;
}

/* Blocks and fields software may change through the maintenance network. */
static bool maint_writable(const struct card *c, uint32_t a)
{
	const uint32_t rtr = CARD_OFF_ROUTER, prt = CARD_OFF_PORTS;

	if (a == rtr + LOOM_ROUTER_LOGICAL_ID ||
	    in_range(a, rtr + LOOM_ROUTER_RT, rtr + CARD_ROUTER_SIZE))
		return true;
	if (a == prt + LOOM_PORTS_FP_TIMEOUT_MS)
		return true;
	if (in_range(a, prt + LOOM_PORTS_BASE, prt + LOOM_PORTS_BASE +
		     c->n_ports * LOOM_PORT_REC_SIZE) &&
	    (a - prt - LOOM_PORTS_BASE) % LOOM_PORT_REC_SIZE == LOOM_PORT_CTRL)
		return true;
	if (in_range(a, CARD_OFF_VCT + LOOM_VCT_PORT_CFG,
		     CARD_OFF_VCT + LOOM_VCT_PORT_CFG + 4 * LOOM_MAX_PORTS) ||
	    in_range(a, CARD_OFF_VCT + LOOM_VCT_START_VC1, CARD_OFF_VCT + LOOM_VCT_SIZE))
		return true;
	if (in_range(a, CARD_OFF_COUNTERS + LOOM_CNT_DROP_KEY,
		     CARD_OFF_COUNTERS + CARD_COUNTERS_SIZE))
		return true;
	if (a == CARD_OFF_LINK + LOOM_LINK_LANE_THRESHOLD ||
	    a == CARD_OFF_LINK + LOOM_LINK_LANE_WINDOW_MS)
		return true;
	if (in_range(a, CARD_OFF_MCAST + LOOM_MCAST_TABLE, CARD_OFF_MCAST + CARD_MCAST_SIZE))
		return true;
	/* the BSU block, once the card has one: everything after its header */
	if (card_rd32(c, CARD_OFF_BSU + LOOM_BLK_TYPE) == LOOM_BLK_BSU &&
	    in_range(a, CARD_OFF_BSU + 0x10,
		     CARD_OFF_BSU + card_rd32(c, CARD_OFF_BSU + LOOM_BLK_SIZE)))
		return true;
	return false;
}

uint8_t maint_execute(struct card *c, uint8_t op, uint32_t addr, uint32_t *value)
{
	if (op != LOOM_MAINT_OP_READ && op != LOOM_MAINT_OP_WRITE)
		return LOOM_MAINT_ST_BAD_OP;
	if (addr % 4 || addr >= c->regs_size || c->regs_size - addr < 4)
		return LOOM_MAINT_ST_BAD_ADDR;
	c->maint.executed++;
	if (op == LOOM_MAINT_OP_READ) {
		*value = card_rd32(c, addr);
		return LOOM_MAINT_ST_OK;
	}
	if (!maint_writable(c, addr))
		return LOOM_MAINT_ST_READ_ONLY;
	/* the router reads its table and logical id from the registers: at once */
	card_wr32(c, addr, *value);
	return LOOM_MAINT_ST_OK;
}

/* ---- loss, sending, delivery ----------------------------------------- */

void maint_link_lost(struct card *c, unsigned int port, uint32_t n)
{
	card_wr32(c, MAINT_LOST_REG, card_rd32(c, MAINT_LOST_REG) + n);
	if (c->verbose)
		card_log(c, "maint: %u frame%s lost by the link unit of port %u (slot busy or link not up)",
			 n, n == 1 ? "" : "s", port);
}

static void maint_lost(struct card *c, const struct loom_maint_payload *p, const char *why,
		       int port)
{
	card_wr32(c, MAINT_LOST_REG, card_rd32(c, MAINT_LOST_REG) + 1);
	if (c->verbose)
		card_log(c, "maint: packet seq %u (hop %u of %u) lost at port %d: %s", p->seq,
			 p->hop, p->route_len, port, why);
}

/* Put a packet into @port's maintenance slot, or lose it. */
static void maint_send(struct card *c, unsigned int port, uint8_t type,
		       const struct loom_maint_payload *p)
{
	struct maint_slot *s;

	if (port >= c->n_ports) {
		maint_lost(c, p, "no such port", (int)port);
		return;
	}
	s = &c->maint.out[port];
	if (!card_port_up(c, port)) {
		if (s->busy) {	/* queued before the link went down */
			s->busy = false;
			maint_lost(c, &s->p, "port went down", (int)port);
		}
		maint_lost(c, p, "port down", (int)port);
		return;
	}
	if (s->busy) {
		maint_lost(c, p, "maintenance slot busy", (int)port);
		return;
	}
	memset(&s->h, 0, sizeof(s->h));
	s->h.type = type;
	s->h.class = LOOM_CLASS_MAINT;
	s->h.len = LOOM_MAINT_PAYLOAD_SIZE;
	s->h.src_node = card_logical_id(c);
	s->p = *p;
	s->busy = true;
}

/* The requester: the response ring entry, then RESP_PI, then the vector. */
static void maint_deliver(struct card *c, const struct loom_maint_payload *p)
{
	uint32_t pi = card_rd32(c, MAINT_REG(LOOM_MAINT_RESP_PI));
	uint32_t e = MAINT_REG(LOOM_MAINT_RESP_BASE) +
		     (pi % LOOM_MAINT_RESP_SLOTS) * LOOM_MAINT_RESP_SIZE;

	card_wr32(c, e + LOOM_MAINTR_SEQ, p->seq);
	card_wr32(c, e + LOOM_MAINTR_STATUS, p->status);
	card_wr32(c, e + LOOM_MAINTR_VALUE, p->value);
	card_wr32(c, e + LOOM_MAINTR_NODE, p->node);
	card_wr32(c, MAINT_REG(LOOM_MAINT_RESP_PI), pi + 1);
	c->vectors_pending |= 1u << LOOM_VEC_EVENT;
}

/* This card is the target of @p: execute, then answer back along ret[]. */
static void maint_answer(struct card *c, struct loom_maint_payload *p)
{
	p->status = maint_execute(c, p->op, p->addr, &p->value);
	p->node = c->node;
	if (p->route_len == 0) {
		maint_deliver(c, p);
		return;
	}
	p->hop = (uint8_t)(p->route_len - 1);
	maint_send(c, p->ret[p->hop], LOOM_PKT_MAINT_RESP, p);
}

/* ---- mailbox ---------------------------------------------------------- */

void maint_poll(struct card *c)
{
	uint32_t seq = card_rd32(c, MAINT_REG(LOOM_MAINT_REQ_SEQ));
	uint32_t op, route_len;
	struct loom_maint_payload p;

	if (seq == card_rd32(c, MAINT_REG(LOOM_MAINT_REQ_ACK)))
		return;
	op = card_rd32(c, MAINT_REG(LOOM_MAINT_OP));
	route_len = card_rd32(c, MAINT_REG(LOOM_MAINT_ROUTE_LEN));
	memset(&p, 0, sizeof(p));
	p.seq = seq;
	p.addr = card_rd32(c, MAINT_REG(LOOM_MAINT_ADDR));
	p.value = card_rd32(c, MAINT_REG(LOOM_MAINT_VALUE));
	if (route_len > LOOM_MAINT_MAX_HOPS ||
	    (op != LOOM_MAINT_OP_READ && op != LOOM_MAINT_OP_WRITE)) {
		/* never leaves the card, never hangs the requester */
		p.op = (uint8_t)op;
		p.status = LOOM_MAINT_ST_BAD_OP;
		p.node = c->node;
		if (c->verbose)
			card_log(c, "maint: request seq %u refused: op %u, route of %u hops (max %d)",
				 seq, op, route_len, LOOM_MAINT_MAX_HOPS);
		maint_deliver(c, &p);
	} else {
		p.op = (uint8_t)op;
		p.route_len = (uint8_t)route_len;
		memcpy(p.route, c->regs + MAINT_REG(LOOM_MAINT_ROUTE), route_len);
		if (c->verbose)
			card_log(c, "maint: request seq %u op %u addr 0x%x over %u hops", seq, op,
				 p.addr, route_len);
		if (route_len == 0)
			maint_answer(c, &p);
		else
			maint_send(c, p.route[0], LOOM_PKT_MAINT_REQ, &p);
	}
	card_wr32(c, MAINT_REG(LOOM_MAINT_REQ_ACK), seq);
}

void maint_clear(struct card *c)
{
	memset(&c->maint.out, 0, sizeof(c->maint.out));
	for (uint32_t off = LOOM_MAINT_OP; off < LOOM_MAINT_SIZE; off += 4)
		card_wr32(c, MAINT_REG(off), 0);
}

/* ---- the port path ---------------------------------------------------- */

void maint_receive(struct card *c, unsigned int in_port, const void *body, size_t len)
{
	struct loom_pkt_hdr h;
	struct loom_maint_payload p;

	if (len != LOOM_PKT_HDR_SIZE + LOOM_MAINT_PAYLOAD_SIZE) {
		memset(&p, 0, sizeof(p));
		maint_lost(c, &p, "frame body of the wrong size", (int)in_port);
		return;
	}
	memcpy(&h, body, sizeof(h));
	memcpy(&p, (const uint8_t *)body + LOOM_PKT_HDR_SIZE, sizeof(p));
	if (h.class != LOOM_CLASS_MAINT || h.len != LOOM_MAINT_PAYLOAD_SIZE ||
	    p.route_len == 0 || p.route_len > LOOM_MAINT_MAX_HOPS) {
		maint_lost(c, &p, "malformed header or route", (int)in_port);
		return;
	}
	if (h.type == LOOM_PKT_MAINT_REQ) {
		if (p.hop >= p.route_len) {
			maint_lost(c, &p, "request past the end of its route", (int)in_port);
			return;
		}
		p.ret[p.hop] = (uint8_t)in_port;
		p.hop++;
		if (p.hop == p.route_len)
			maint_answer(c, &p);
		else
			maint_send(c, p.route[p.hop], LOOM_PKT_MAINT_REQ, &p);
		return;
	}
	if (h.type == LOOM_PKT_MAINT_RESP) {
		/* card h sent the request on route[h]: the answer comes back there */
		if (p.hop >= p.route_len || p.route[p.hop] != in_port) {
			maint_lost(c, &p, "response off its route", (int)in_port);
			return;
		}
		if (p.hop == 0) {
			maint_deliver(c, &p);
			return;
		}
		p.hop--;
		maint_send(c, p.ret[p.hop], LOOM_PKT_MAINT_RESP, &p);
		return;
	}
	maint_lost(c, &p, "not a maintenance packet type", (int)in_port);
}

size_t maint_tx_body(struct card *c, unsigned int port, uint8_t *out, size_t cap)
{
	struct maint_slot *s;

	if (port >= LOOM_MAX_PORTS || !c->maint.out[port].busy)
		return 0;
	s = &c->maint.out[port];
	s->busy = false;
	if (cap < sizeof(s->h) + sizeof(s->p)) {
		maint_lost(c, &s->p, "frame does not fit the transmit buffer", (int)port);
		return 0;
	}
	memcpy(out, &s->h, sizeof(s->h));
	memcpy(out + sizeof(s->h), &s->p, sizeof(s->p));
	return sizeof(s->h) + sizeof(s->p);
}
