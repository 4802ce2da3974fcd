// SPDX-License-Identifier: GPL-2.0
/*
 * A network port: its link unit, registers and maintenance frames.
 */
#include "netport.h"
#include "card.h"
#include "card_router.h"
#include "maint.h"
#include "router/router.h"

#include <stdio.h>
#include <string.h>

bool netport_init(struct card *c, unsigned int idx, char *err, size_t errlen)
{
	struct netport *np = &c->port[idx];

	memset(np, 0, sizeof(*np));
	if (!link_unit_init(&np->link, &c->p.link, err, errlen))
		return false;
	link_unit_set_identity(&np->link, c->node, idx);
	return true;
}

void netport_free(struct netport *np)
{
	link_unit_free(&np->link);
}

uint32_t netport_rate_mbps(const struct card *c, unsigned int idx)
{
	const struct link_unit *l = &c->port[idx].link;

	return (uint32_t)((uint64_t)l->lanes.n * l->p.lane_bytes * 8 * c->p.clock_khz / 1000);
}

void netport_lane_settings(struct card *c, unsigned int idx, uint32_t threshold,
			   uint32_t window_ms)
{
	struct link_unit *l = &c->port[idx].link;
	uint64_t window = card_ms_cycles(c, window_ms);

	l->p.lane_threshold = threshold;
	/* a window beyond the parameter's range is as good as its maximum */
	l->p.lane_window = window < 1 ? 1 : window > 0x40000000u ? 0x40000000u : (uint32_t)window;
}

/* The LINK record and STATUS.LANES from the link unit's lanes. */
static void netport_lanes_publish(struct card *c, unsigned int idx)
{
	const struct lanes *ln = &c->port[idx].link.lanes;

	for (unsigned int i = 0; i < LANES_MAX; i++)
		card_wr32(c, card_link_reg(idx, LOOM_LINKR_LANE_ERRORS + 4 * i), ln->errors[i]);
	card_wr32(c, card_link_reg(idx, LOOM_LINKR_LANES), ln->n);
	card_wr32(c, card_link_reg(idx, LOOM_LINKR_LANE_DROPS), ln->drops);
	card_wr32(c, card_link_reg(idx, LOOM_LINKR_RATE_MBPS), netport_rate_mbps(c, idx));
	card_port_status(c, idx, LOOM_PORT_ST_LANES_MASK,
			 (ln->n << LOOM_PORT_ST_LANES_SHIFT) & LOOM_PORT_ST_LANES_MASK);
}

void netport_publish(struct card *c, unsigned int idx)
{
	const struct netport *np = &c->port[idx];
	const struct link_counters *k = &np->link.cnt;
	const struct {
		uint32_t reg;
		uint64_t v;
	} regs[] = {
		{ LOOM_PORT_TX_FRAMES, k->tx_frames },
		{ LOOM_PORT_RX_FRAMES, k->rx_frames },
		{ LOOM_PORT_TX_BYTES, k->tx_bytes },
		{ LOOM_PORT_RX_BYTES, k->rx_bytes },
		{ LOOM_PORT_CRC_ERRORS, k->crc_errors },
		{ LOOM_PORT_SEQ_ERRORS, k->seq_errors },
		/* frames that crossed training (not_up_drops) lose nothing: not drops */
		{ LOOM_PORT_DROPS, np->drops + k->bad_ack + k->bad_credit + k->bad_vc +
				   k->bad_length + k->bad_type + k->credit_overruns +
				   k->rx_overflows },
		{ LOOM_PORT_RETRIES, k->retries },
		{ LOOM_PORT_NAKS_SENT, k->naks_sent },
		{ LOOM_PORT_REPLAYED, k->replayed },
		{ LOOM_PORT_ACK_TIMEOUTS, k->ack_timeouts },
	};

	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		card_wr32(c, card_port_reg(idx, regs[i].reg), (uint32_t)regs[i].v);
	netport_lanes_publish(c, idx);
}

/* The link trained or went down: the router, STATUS and the host interface follow. */
static void netport_link_change(struct card *c, unsigned int idx, bool up)
{
	struct netport *np = &c->port[idx];
	struct link_unit *l = &np->link;

	np->up = up;
	card_router_set_port_up(c, idx, up);
	if (up) {
		card_router_clear_port_dead(c, idx);
		card_wr32(c, card_port_reg(idx, LOOM_PORT_PEER_NODE), l->peer_node);
		card_wr32(c, card_port_reg(idx, LOOM_PORT_PEER_PORT), l->peer_port);
		card_port_status(c, idx, LOOM_PORT_ST_DEAD, LOOM_PORT_ST_UP);
		c->hif_wake = true;	/* BSU packets may have waited for the port */
		card_log(c, "port %u: link up to node %u port %u (%u lanes)", idx, l->peer_node,
			 l->peer_port, l->lanes.n);
	} else {
		card_port_status(c, idx, LOOM_PORT_ST_UP, 0);
		card_log(c, "port %u: link down (%llu packets held by the link lost so far)", idx,
			 (unsigned long long)l->cnt.lost_frames);
		/* this card's own operations through the port: their packets are lost */
		hif_port_down(c, idx);
	}
	np->lanes_seen = (uint16_t)l->lanes.n;
	netport_publish(c, idx);
}

/* The maintenance network's frame for port @idx into its link unit's slot. */
static __attribute__((noinline)) void netport_maint_send(struct card *c, unsigned int idx)
{
	uint8_t buf[LINK_BODY_MAX];
	size_t len = maint_tx_body(c, idx, buf, sizeof(buf));

	if (len)
		link_unit_maint_send(&c->port[idx].link, buf, len);
}

/* The maintenance frame port @idx's link unit received, to the maintenance network. */
static __attribute__((noinline)) void netport_maint_receive(struct card *c, unsigned int idx)
{
	struct link_unit *l = &c->port[idx].link;
	size_t len;
	const uint8_t *body = link_unit_maint_peek(l, &len);

	if (body) {
		maint_receive(c, idx, body, len);
		link_unit_maint_pop(l);
	}
}

/*
 * Every edge: the few tests here are all a port without news costs (the
 * maintenance frames' buffers are on the stack of the functions above
 * only when there is one).
 */
void netport_after_edge(struct card *c, unsigned int idx)
{
	struct netport *np = &c->port[idx];
	struct link_unit *l = &np->link;

	if (link_unit_up(l) != np->up)
		netport_link_change(c, idx, !np->up);
	/* packets the link dropped as malformed count with the router's */
	while (np->malformed_seen != l->cnt.bad_vc + l->cnt.bad_length) {
		card_drop_count(c, LOOM_CNT_DROP_MALFORMED);
		np->malformed_seen++;
	}
	if (np->maint_lost_seen != l->cnt.maint_lost) {
		maint_link_lost(c, idx, (uint32_t)(l->cnt.maint_lost - np->maint_lost_seen));
		np->maint_lost_seen = l->cnt.maint_lost;
	}
	if (l->lanes.n != np->lanes_seen && np->up) {
		card_log(c, "port %u: link degraded to %u lane%s (%u Mb/s)%s", idx, l->lanes.n,
			 l->lanes.n == 1 ? "" : "s", netport_rate_mbps(c, idx),
			 l->lanes.drops ? ": lane errors reached the threshold" : " by the peer");
		np->lanes_seen = (uint16_t)l->lanes.n;
		netport_lanes_publish(c, idx);
	}
	/* maintenance frames bypass the router: one slot each way */
	if (c->maint.out[idx].busy && np->up && !l->tx.maint_full)
		netport_maint_send(c, idx);
	if (l->rx.maint_full)
		netport_maint_receive(c, idx);
}

bool netport_busy(const struct card *c, unsigned int idx)
{
	const struct netport *np = &c->port[idx];

	return link_unit_up(&np->link) != np->up ||
	       (c->maint.out[idx].busy && np->up && !np->link.tx.maint_full) ||
	       np->link.rx.maint_full;
}
