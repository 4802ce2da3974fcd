// SPDX-License-Identifier: GPL-2.0
/*
 * Card state, register space initialisation and packet switching glue.
 */
#include "card.h"
#include "admin.h"
#include "rma_target.h"
#include "router/route.h"

#include <stdio.h>
#include <string.h>

#ifndef LOOM_BUILD_ID
#define LOOM_BUILD_ID 0
#endif
#ifndef LOOM_BUILD_TIME
#define LOOM_BUILD_TIME 0
#endif

void card_log(const struct card *c, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "loom-card[%u]: %s\n", c->node, line);
}

static void card_blk(struct card *c, uint32_t off, uint32_t type, uint32_t version,
		     uint32_t next, uint32_t size)
{
	card_wr32(c, off + LOOM_BLK_TYPE, type);
	card_wr32(c, off + LOOM_BLK_VERSION, version);
	card_wr32(c, off + LOOM_BLK_NEXT, next);
	card_wr32(c, off + LOOM_BLK_SIZE, size);
}

static void card_init_fwid(struct card *c)
{
	char desc[LOOM_FWID_DESC_LEN] = CARD_DESC;

	card_blk(c, CARD_OFF_FWID, LOOM_BLK_FWID, LOOM_FWID_VERSION, CARD_OFF_ADMIN,
		 LOOM_FWID_SIZE);
	card_wr32(c, CARD_OFF_FWID + LOOM_FWID_DESIGN_VERSION, CARD_DESIGN_VERSION);
	card_wr32(c, CARD_OFF_FWID + LOOM_FWID_BUILD_ID, (uint32_t)LOOM_BUILD_ID);
	card_wr32(c, CARD_OFF_FWID + LOOM_FWID_BUILD_TIME, (uint32_t)LOOM_BUILD_TIME);
	card_wr32(c, CARD_OFF_FWID + LOOM_FWID_FLAGS, LOOM_FWID_F_EMULATED);
	memcpy(c->regs + CARD_OFF_FWID + LOOM_FWID_DESC, desc, sizeof(desc));
	/* the magic last: a reader that sees it sees a complete block */
	card_wr32(c, CARD_OFF_FWID + LOOM_FWID_MAGIC, LOOM_MAGIC);
}

bool card_init(struct card *c, uint8_t *regs, size_t regs_size, unsigned int node,
	       unsigned int n_ports, struct guest_mem *gm, const struct card_io *io)
{
	memset(c, 0, sizeof(*c));
	if (regs_size < CARD_REGS_MIN || n_ports > LOOM_MAX_PORTS || node >= CARD_RT_ENTRIES)
		return false;
	c->regs = regs;
	c->regs_size = regs_size;
	c->node = node;
	c->n_ports = n_ports;
	c->n_ctx = CARD_N_CTX;
	c->gm = gm;
	c->io = *io;
	for (unsigned int i = 0; i < CARD_N_CTX; i++)
		c->ctx[i].seg_slot = -1;

	card_blk(c, CARD_OFF_ADMIN, LOOM_BLK_ADMIN, LOOM_ADMIN_VERSION, CARD_OFF_ROUTER,
		 LOOM_ADMIN_SIZE);
	card_wr32(c, CARD_OFF_ADMIN + LOOM_ADMIN_N_CTX, CARD_N_CTX);
	card_wr32(c, CARD_OFF_ADMIN + LOOM_ADMIN_N_VECTORS, LOOM_NUM_VECTORS);

	card_blk(c, CARD_OFF_ROUTER, LOOM_BLK_ROUTER, LOOM_ROUTER_VERSION, CARD_OFF_PORTS,
		 CARD_ROUTER_SIZE);
	card_wr32(c, CARD_OFF_ROUTER + LOOM_ROUTER_NODE_ID, node);
	card_wr32(c, CARD_OFF_ROUTER + LOOM_ROUTER_LOGICAL_ID, node);
	card_wr32(c, CARD_OFF_ROUTER + LOOM_ROUTER_N_PORTS, n_ports);
	card_wr32(c, CARD_OFF_ROUTER + LOOM_ROUTER_RT_ENTRIES, CARD_RT_ENTRIES);
	card_set_route(c, node, LOOM_RT_PORT_HOST);

	card_blk(c, CARD_OFF_PORTS, LOOM_BLK_PORTS, LOOM_PORTS_VERSION, CARD_OFF_CTX,
		 CARD_PORTS_SIZE);
	card_wr32(c, CARD_OFF_PORTS + LOOM_PORTS_COUNT, n_ports);
	card_wr32(c, CARD_OFF_PORTS + LOOM_PORTS_STRIDE, LOOM_PORT_REC_SIZE);

	card_wr32(c, CARD_OFF_PORTS + LOOM_PORTS_FP_TIMEOUT_MS, CARD_FP_TIMEOUT_MS);

	card_blk(c, CARD_OFF_CTX, LOOM_BLK_CTX, LOOM_CTX_VERSION, CARD_OFF_DOORBELL,
		 CARD_CTX_SIZE);
	card_wr32(c, CARD_OFF_CTX + LOOM_CTX_COUNT, CARD_N_CTX);
	card_wr32(c, CARD_OFF_CTX + LOOM_CTX_STRIDE, LOOM_CTX_REC_SIZE);

	card_blk(c, CARD_OFF_DOORBELL, LOOM_BLK_DOORBELL, LOOM_DOORBELL_VERSION, CARD_OFF_VCT,
		 CARD_DOORBELL_SIZE);
	card_wr32(c, CARD_OFF_DOORBELL + LOOM_DOORBELL_AREA, CARD_DB_AREA);
	card_wr32(c, CARD_OFF_DOORBELL + LOOM_DOORBELL_STRIDE, LOOM_DB_PAGE_SIZE);
	card_wr32(c, CARD_OFF_DOORBELL + LOOM_DOORBELL_COUNT, CARD_N_CTX);

	card_blk(c, CARD_OFF_VCT, LOOM_BLK_VCT, LOOM_VCT_VERSION, CARD_OFF_COUNTERS,
		 LOOM_VCT_SIZE);
	card_wr32(c, CARD_OFF_VCT + LOOM_VCT_N_PORTS, n_ports);
	for (unsigned int p = 0; p < LOOM_MAX_PORTS; p++)
		card_wr32(c, CARD_OFF_VCT + LOOM_VCT_PORT_CFG + 4 * p, LOOM_VCT_PORT_DIM_NONE);

	card_blk(c, CARD_OFF_COUNTERS, LOOM_BLK_COUNTERS, LOOM_COUNTERS_VERSION, CARD_OFF_LINK,
		 CARD_COUNTERS_SIZE);
	card_wr32(c, CARD_OFF_COUNTERS + LOOM_CNT_N_PORTS, n_ports);
	card_wr32(c, CARD_OFF_COUNTERS + LOOM_CNT_N_VCS, LOOM_NUM_VCS);
	card_wr32(c, CARD_OFF_COUNTERS + LOOM_CNT_STRIDE, LOOM_CNT_REC_SIZE);

	card_blk(c, CARD_OFF_LINK, LOOM_BLK_LINK, LOOM_LINK_VERSION, CARD_OFF_MAINT,
		 CARD_LINK_SIZE);
	card_wr32(c, CARD_OFF_LINK + LOOM_LINK_N_LANES, CARD_LANES);
	card_wr32(c, CARD_OFF_LINK + LOOM_LINK_LANE_THRESHOLD, CARD_LANE_THRESHOLD);
	card_wr32(c, CARD_OFF_LINK + LOOM_LINK_LANE_WINDOW_MS, CARD_LANE_WINDOW_MS);

	card_blk(c, CARD_OFF_MAINT, LOOM_BLK_MAINT, LOOM_MAINT_VERSION, CARD_OFF_BSU,
		 LOOM_MAINT_SIZE);
	bsu_init(c);
	mr_init(c, CARD_OFF_MR, 0);

	card_save_boot_config(c);
	card_init_fwid(c);
	card_wr32(c, CARD_OFF_ADMIN + LOOM_ADMIN_STATUS, LOOM_ADMIN_ST_READY);
	return true;
}

void card_set_route(struct card *c, unsigned int dst, unsigned int port)
{
	uint32_t off = CARD_OFF_ROUTER + LOOM_ROUTER_RT + dst * LOOM_ROUTER_RT_ENTRY_SIZE;

	card_wr32(c, off, LOOM_RT_W0_VALID | (port & LOOM_RT_W0_PORT_MASK));
	card_wr32(c, off + 4, dst);
}

void card_port_status(struct card *c, unsigned int port, uint32_t clear, uint32_t set)
{
	uint32_t off = card_port_reg(port, LOOM_PORT_STATUS);
	uint32_t old = card_rd32(c, off), st = (old & ~clear) | set;

	if (st == old)
		return;
	card_wr32(c, off, st);
	card_wr32(c, CARD_OFF_PORTS + LOOM_PORTS_EVENTS,
		  card_rd32(c, CARD_OFF_PORTS + LOOM_PORTS_EVENTS) + 1);
	c->vectors_pending |= 1u << LOOM_VEC_EVENT;
}

void card_save_boot_config(struct card *c)
{
	memcpy(c->boot_rt, c->regs + CARD_OFF_ROUTER + LOOM_ROUTER_RT, sizeof(c->boot_rt));
	memcpy(c->boot_vct, c->regs + CARD_OFF_VCT + LOOM_VCT_PORT_CFG, sizeof(c->boot_vct));
}

/* Copy @len bytes of boot configuration into the register window, word by word. */
static void card_restore(struct card *c, uint32_t off, const void *boot, size_t len)
{
	const uint8_t *b = boot;

	for (size_t k = 0; k + 4 <= len; k += 4) {
		uint32_t v;

		memcpy(&v, b + k, 4);
		card_wr32(c, off + (uint32_t)k, v);
	}
}

void card_reset(struct card *c)
{
	for (unsigned int i = 0; i < c->n_ctx; i++) {
		hif_ctx_stop(c, i);
		/* power-on record: zero, STATE DISABLED (0); doorbells zero */
		for (uint32_t off = 0; off < LOOM_CTX_REC_SIZE; off += 4)
			card_wr32(c, card_ctx_reg(i, off), 0);
		card_wr32(c, card_db_reg(i, LOOM_DB_CMD_PI), 0);
		card_wr32(c, card_db_reg(i, LOOM_DB_CQ_CI), 0);
		card_wr32(c, card_db_reg(i, LOOM_DB_CQ_CI_SEEN), 0);
	}
	card_restore(c, CARD_OFF_ROUTER + LOOM_ROUTER_RT, c->boot_rt, sizeof(c->boot_rt));
	card_wr32(c, CARD_OFF_ROUTER + LOOM_ROUTER_LOGICAL_ID, c->node);
	card_restore(c, CARD_OFF_VCT + LOOM_VCT_PORT_CFG, c->boot_vct, sizeof(c->boot_vct));
	card_wr32(c, CARD_OFF_PORTS + LOOM_PORTS_FP_TIMEOUT_MS, CARD_FP_TIMEOUT_MS);
	card_wr32(c, CARD_OFF_LINK + LOOM_LINK_LANE_THRESHOLD, CARD_LANE_THRESHOLD);
	card_wr32(c, CARD_OFF_LINK + LOOM_LINK_LANE_WINDOW_MS, CARD_LANE_WINDOW_MS);
	for (unsigned int p = 0; p < LOOM_MAX_PORTS; p++) {
		card_wr32(c, card_port_reg(p, LOOM_PORT_CTRL), 0);
		if (p < c->n_ports)	/* the router core follows in its next round */
			card_port_status(c, p, LOOM_PORT_ST_DEAD | LOOM_PORT_ST_DISABLED, 0);
	}
	c->resets++;
	bsu_reset(c);
}

void card_service(struct card *c)
{
	admin_poll(c);
	maint_poll(c);
	hif_service(c);
	bsu_service(c);
}

void card_respond(struct card *c, const struct loom_pkt_hdr *req, uint8_t status)
{
	struct loom_pkt_hdr ack;

	/* PUT_ACK, GET_RESP or AMO_RESP, by the request's type */
	rma_response_hdr(card_logical_id(c), req, status, &ack);
	card_switch(c, &ack, NULL, -1);
}

/* Drop a packet that cannot go on; tell the source when it is a request. */
static void card_reject(struct card *c, const struct loom_pkt_hdr *h, int in_port,
			uint8_t status, const char *why)
{
	if (in_port >= 0)
		card_port_count(c, (unsigned int)in_port, LOOM_PORT_DROPS, 1);
	else
		c->host_drops++;
	if (c->verbose)
		card_log(c, "drop: type %u class %u %u.%u -> %u.%u op %u from %s%d: %s",
			 h->type, h->class, h->src_node, h->src_ctx, h->dst_node, h->dst_ctx,
			 h->op_id, in_port >= 0 ? "port " : "host ", in_port, why);
	if (h->class == LOOM_CLASS_REQ && rma_is_request(h->type))
		card_respond(c, h, status);
}

struct router_decision card_route(const struct card *c, const struct loom_pkt_hdr *h)
{
	const struct route_view v = {
		.rt = (const uint32_t *)(const void *)(c->regs + CARD_OFF_ROUTER + LOOM_ROUTER_RT),
		.rt_entries = CARD_RT_ENTRIES,
	};

	return router_decide(&v, c->n_ports, h);
}

void card_switch(struct card *c, struct loom_pkt_hdr *h, const void *payload, int in_port)
{
	struct router_decision d;

	if (h->class == LOOM_CLASS_BARRIER) {	/* hop by hop, never table routed */
		bsu_receive(c, h, in_port);
		return;
	}
	d = card_route(c, h);
	switch (d.verdict) {
	case ROUTE_HOST:
		hif_deliver(c, h, payload);
		return;
	case ROUTE_PORT:
		if (!c->io.port_up(c->io.opaque, d.port)) {
			card_reject(c, h, in_port, LOOM_CQE_ST_LINK, "output port down");
			return;
		}
		h->hops++;
		if (!c->io.port_send(c->io.opaque, d.port, h, payload)) {
			h->hops--;
			card_reject(c, h, in_port, LOOM_CQE_ST_LINK, "output queue full");
		}
		return;
	case ROUTE_HOP_LIMIT:
		card_drop_count(c, LOOM_CNT_DROP_HOP_LIMIT);
		card_reject(c, h, in_port, LOOM_CQE_ST_UNREACHABLE, "hop limit");
		return;
	case ROUTE_NO_ROUTE:
		break;
	}
	card_drop_count(c, LOOM_CNT_DROP_NO_ROUTE);
	card_reject(c, h, in_port, LOOM_CQE_ST_UNREACHABLE, "no valid route");
}
