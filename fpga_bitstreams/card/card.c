// SPDX-License-Identifier: GPL-2.0
/*
 * The card's top: parameters, the register window's block chain, the
 * blocks it instantiates, admin RESET, the service round after a doorbell
 * and the packet paths between the blocks.  The clock is card_clock.c.
 */
#include "card.h"
#include "card_router.h"
#include "admin.h"
#include "mcast.h"
#include "perf.h"
#include "rma_target.h"
#include "router/route.h"
#include "router/router.h"

#include <stdio.h>
#include <stdlib.h>
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

/* ---- parameters --------------------------------------------------------- */

void card_params_default(struct card_params *p, unsigned int node, unsigned int n_ports)
{
	memset(p, 0, sizeof(*p));
	p->node = node;
	p->n_ports = n_ports;
	p->clock_khz = CARD_CLOCK_KHZ;
	p->op_timeout_ms = HIF_OP_TIMEOUT_MS;
	/* a card without network ports still has a router: one port, never cabled */
	router_preset_card(&p->router, n_ports ? n_ports : 1);
	p->router.buf_depth = CARD_VC_PACKETS * router_max_packet_flits(p->router.flit_bytes);
	link_params_default(&p->link);
	p->link.lanes = CARD_LANES;
	p->link.lane_bytes = CARD_LANE_BYTES;
}

int card_params_check(struct card_params *p, char *err, size_t errlen)
{
	unsigned int net = p->n_ports ? p->n_ports : 1;

	if (p->n_ports > LOOM_MAX_PORTS) {
		snprintf(err, errlen, "ports = %u: a card has at most %d network ports", p->n_ports,
			 LOOM_MAX_PORTS);
		return -1;
	}
	if (p->node >= CARD_RT_ENTRIES) {
		snprintf(err, errlen, "node = %u: node ids are 0..%d", p->node, CARD_RT_ENTRIES - 1);
		return -1;
	}
	if (!p->clock_khz || p->clock_khz > CARD_CLOCK_KHZ_MAX) {
		snprintf(err, errlen, "clock = %u kHz: the nominal clock is 1 kHz .. %u MHz",
			 p->clock_khz, CARD_CLOCK_KHZ_MAX / 1000);
		return -1;
	}
	if (!p->op_timeout_ms || p->op_timeout_ms > HIF_OP_TIMEOUT_MAX_MS) {
		snprintf(err, errlen, "operation timeout = %u ms: expected 1..%d ms",
			 p->op_timeout_ms, HIF_OP_TIMEOUT_MAX_MS);
		return -1;
	}
	if (p->router.ports != net + 1 || p->router.host_ports != 1 || p->router.vc_model != 1) {
		snprintf(err, errlen,
			 "router parameter PORTS = %u, HOST_PORTS = %u, VC_MODEL = %u: the card's router has its %u network ports and one host port (PORTS = %u, HOST_PORTS = 1) and the card's VCs (VC_MODEL = 1)",
			 p->router.ports, p->router.host_ports, p->router.vc_model, net, net + 1);
		return -1;
	}
	if (router_params_check(&p->router, err, errlen))
		return -1;
	/* the links carry what the router's ports carry */
	p->link.flit_bytes = p->router.flit_bytes;
	p->link.vcs = p->router.vcs;
	p->link.buf_depth = p->router.buf_depth;
	return link_params_check(&p->link, err, errlen) ? 0 : -1;
}

/* ---- register window ------------------------------------------------------ */

void card_blk(struct card *c, uint32_t off, uint32_t type, uint32_t version, uint32_t next,
	      uint32_t size)
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

static void card_init_regs(struct card *c)
{
	unsigned int n_ports = c->n_ports;

	card_blk(c, CARD_OFF_ADMIN, LOOM_BLK_ADMIN, LOOM_ADMIN_VERSION, CARD_OFF_ROUTER,
		 LOOM_ADMIN_SIZE);
	card_wr32(c, CARD_OFF_ADMIN + LOOM_ADMIN_N_CTX, CARD_N_CTX);
	card_wr32(c, CARD_OFF_ADMIN + LOOM_ADMIN_N_VECTORS, LOOM_NUM_VECTORS);

	card_blk(c, CARD_OFF_ROUTER, LOOM_BLK_ROUTER, LOOM_ROUTER_VERSION, CARD_OFF_PORTS,
		 CARD_ROUTER_SIZE);
	card_wr32(c, CARD_OFF_ROUTER + LOOM_ROUTER_NODE_ID, c->node);
	card_wr32(c, CARD_OFF_ROUTER + LOOM_ROUTER_LOGICAL_ID, c->node);
	card_wr32(c, CARD_OFF_ROUTER + LOOM_ROUTER_N_PORTS, n_ports);
	card_wr32(c, CARD_OFF_ROUTER + LOOM_ROUTER_RT_ENTRIES, CARD_RT_ENTRIES);
	card_set_route(c, c->node, LOOM_RT_PORT_HOST);

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
	mr_init(c, CARD_OFF_MR, CARD_OFF_PERF);
	perf_init(c, CARD_OFF_PERF, CARD_OFF_MCAST);
	mcast_init(c, CARD_OFF_MCAST, 0);
}

/* The router block: one router, its tables read live from the register window. */
static bool card_init_router(struct card *c, char *err, size_t errlen)
{
	c->view.rt = (const uint32_t *)(const void *)(c->regs + CARD_OFF_ROUTER + LOOM_ROUTER_RT);
	c->view.rt_entries = CARD_RT_ENTRIES;
	c->view.port_cfg = (const uint32_t *)(const void *)(c->regs + CARD_OFF_VCT +
							    LOOM_VCT_PORT_CFG);
	c->view.start_vc1 = (const uint32_t *)(const void *)(c->regs + CARD_OFF_VCT +
							     LOOM_VCT_START_VC1);
	c->view.start_vc1_bits = LOOM_MAX_NODES;
	c->view.mc = mcast_table(c);
	c->view.mc_entries = CARD_MCAST_GROUPS;
	c->router = router_new(&c->p.router, &c->view, err, errlen);
	if (!c->router)
		return false;
	for (unsigned int p = 0; p < c->p.router.ports; p++) {
		c->wire_in[p] = router_in(c->router, p);
		c->wire_out[p] = router_out(c->router, p);
	}
	if (c->p.rtl_plugin && !card_router_open_rtl(c, c->p.rtl_plugin, err, errlen))
		return false;
	c->host_port = c->p.router.ports - 1;
	for (unsigned int v = 0; v < c->p.router.vcs; v++)
		card_router_set_out_depth(c, c->host_port, v, c->p.router.buf_depth);
	/* ports are down until their links train */
	for (unsigned int p = 0; p + 1 < c->p.router.ports; p++)
		card_router_set_port_up(c, p, false);
	return true;
}

bool card_init(struct card *c, uint8_t *regs, size_t regs_size, const struct card_params *p,
	       struct guest_mem *gm, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->p = *p;
	if (card_params_check(&c->p, err, errlen))
		return false;
	if (regs_size < CARD_REGS_MIN) {
		snprintf(err, errlen, "register window of %zu bytes: the card's layout needs %u",
			 regs_size, CARD_REGS_MIN);
		return false;
	}
	c->regs = regs;
	c->regs_size = regs_size;
	c->node = p->node;
	c->n_ports = p->n_ports;
	c->n_ctx = CARD_N_CTX;
	c->gm = gm;
	for (unsigned int i = 0; i < CARD_N_CTX; i++)
		c->ctx[i].seg_slot = -1;
	card_init_regs(c);
	if (!card_init_router(c, err, errlen))
		goto fail;
	if (!hostport_init(&c->hp, c->p.router.flit_bytes, c->p.router.buf_depth,
			   c->p.router.buf_depth)) {
		snprintf(err, errlen, "no memory for the host port's queues");
		goto fail;
	}
	for (unsigned int i = 0; i < c->n_ports; i++)
		if (!netport_init(c, i, err, errlen))
			goto fail;
	c->fp_timeout_ms = ~0u;	/* applied by the first service round */
	c->lane_threshold = ~0u;
	card_service(c);
	card_save_boot_config(c);
	card_init_fwid(c);
	card_wr32(c, CARD_OFF_ADMIN + LOOM_ADMIN_STATUS, LOOM_ADMIN_ST_READY);
	return true;
fail:
	card_free(c);
	return false;
}

void card_free(struct card *c)
{
	for (unsigned int i = 0; i < c->n_ctx; i++)
		hif_ctx_stop(c, i);
	for (unsigned int i = 0; i < c->n_ports; i++)
		netport_free(&c->port[i]);
	hostport_free(&c->hp);
	card_router_close_rtl(c);
	router_free(c->router);
	c->router = NULL;
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
		if (p < c->n_ports)	/* the router block follows in this service round */
			card_port_status(c, p, LOOM_PORT_ST_DEAD | LOOM_PORT_ST_DISABLED, 0);
	}
	mcast_reset(c);
	c->resets++;
	bsu_reset(c);
}

/*
 * Registers software writes that the blocks latch: fault masks, the
 * forward-progress timeout, lane settings, and the dead flags an admin
 * RESET clears.
 */
static void card_apply_registers(struct card *c)
{
	uint32_t fp = card_rd32(c, CARD_OFF_PORTS + LOOM_PORTS_FP_TIMEOUT_MS);
	uint32_t thr = card_rd32(c, CARD_OFF_LINK + LOOM_LINK_LANE_THRESHOLD);
	uint32_t win = card_rd32(c, CARD_OFF_LINK + LOOM_LINK_LANE_WINDOW_MS);

	if (c->resets_seen != c->resets) {
		c->resets_seen = c->resets;
		card_router_clear_dead(c);
	}
	if (fp != c->fp_timeout_ms) {
		uint64_t cycles = card_ms_cycles(c, fp);

		c->fp_timeout_ms = fp;
		/* the timer's register holds 31 bits of cycles */
		card_router_set_fp_timeout(c, cycles > 0x7fffffffu ? 0x7fffffffu : (uint32_t)cycles);
	}
	if (thr != c->lane_threshold || win != c->lane_window_ms) {
		c->lane_threshold = thr;
		c->lane_window_ms = win;
		for (unsigned int p = 0; p < c->n_ports; p++)
			netport_lane_settings(c, p, thr, win);
	}
	for (unsigned int p = 0; p < c->n_ports; p++) {
		bool dis = card_rd32(c, card_port_reg(p, LOOM_PORT_CTRL)) & LOOM_PORT_CTRL_DISABLE;

		if (dis == !!(c->disabled & (1u << p)))
			continue;
		c->disabled ^= 1u << p;
		card_router_set_port_disabled(c, p, dis);
		card_log(c, "port %u: %s by CTRL.DISABLE", p, dis ? "disabled" : "enabled");
		card_port_status(c, p, LOOM_PORT_ST_DISABLED, dis ? LOOM_PORT_ST_DISABLED : 0);
	}
	card_router_sync(c);
}

void card_service(struct card *c)
{
	c->now_ms = c->now / c->p.clock_khz;
	admin_poll(c);
	maint_poll(c);
	perf_poll(c);
	card_apply_registers(c);
	hif_service(c);
	bsu_service(c);
}

/* ---- packet paths ------------------------------------------------------- */

bool card_port_up(const struct card *c, unsigned int port)
{
	return port < c->n_ports && c->port[port].up;
}

void card_port_carrier(struct card *c, unsigned int port, bool on)
{
	if (port >= c->n_ports)
		return;
	c->port[port].cabled = on;
	link_unit_carrier(&c->port[port].link, on);
	card_port_status(c, port, LOOM_PORT_ST_CABLED, on ? LOOM_PORT_ST_CABLED : 0);
}

bool card_inject(struct card *c, const struct loom_pkt_hdr *h, const void *payload)
{
	if (hostport_send(&c->hp, h, payload))
		return true;
	c->host_drops++;
	if (c->verbose)
		card_log(c, "host port: class %u queue full, type %u %u.%u -> %u.%u op %u dropped",
			 h->class, h->type, h->src_node, h->src_ctx, h->dst_node, h->dst_ctx,
			 h->op_id);
	return false;
}

bool card_can_inject(const struct card *c)
{
	return hostport_room(&c->hp, LOOM_CLASS_REQ);
}

void card_respond(struct card *c, const struct loom_pkt_hdr *req, uint8_t status)
{
	struct loom_pkt_hdr ack;

	/* PUT_ACK, GET_RESP or AMO_RESP, by the request's type */
	rma_response_hdr(card_logical_id(c), req, status, &ack);
	card_inject(c, &ack, NULL);
}

void card_host_deliver(struct card *c, const struct loom_pkt_hdr *h, const void *payload,
		       unsigned int avail)
{
	if (h->class == LOOM_CLASS_BARRIER) {
		/* the network port it came in on stamped its number into dst_node */
		bsu_receive(c, h, h->dst_node < c->n_ports ? (int)h->dst_node : -1);
		return;
	}
	if (h->len > avail) {	/* the router delivers whole packets: never */
		card_drop_count(c, LOOM_CNT_DROP_MALFORMED);
		return;
	}
	c->hif_wake = true;	/* an answer frees window, a request causes one */
	c->now_ms = c->now / c->p.clock_khz;
	hif_deliver(c, h, payload);
}

struct router_decision card_route(const struct card *c, const struct loom_pkt_hdr *h)
{
	return router_decide(&c->view, c->n_ports, h);
}
