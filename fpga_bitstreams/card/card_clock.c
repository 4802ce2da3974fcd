// SPDX-License-Identifier: GPL-2.0
/*
 * The card's clock: one edge of every block (router, link units, host
 * port), the wires between them, the router's drop interface, the
 * counters that watch the router's port wires, and idle skipping.
 */
#include "card.h"
#include "card_router.h"
#include "rma_target.h"
#include "router/router.h"

#include <string.h>

/* ---- counters watching the router's network port wires ---------------- */

/* A head flit leaves the router on network port @p. */
static void card_count_out(struct card *c, unsigned int p, const struct flit *f)
{
	struct route_hdr h;

	route_hdr_read(f->data, &h);
	card_cnt_add(c, p, f->vc, LOOM_CNTR_TX_PKTS, 1);
	card_cnt_add(c, p, f->vc, LOOM_CNTR_TX_BYTES, LOOM_PKT_HDR_SIZE + h.len);
	if (h.flags & LOOM_PKT_F_ADAPTIVE) {
		card_cnt_add(c, p, f->vc, LOOM_CNTR_ADAPTIVE, 1);
	} else if ((h.class == LOOM_CLASS_REQ || h.class == LOOM_CLASS_RESP) &&
		   !(h.flags & LOOM_PKT_F_ORDERED) && h.dst_node < CARD_RT_ENTRIES &&
		   (c->view.rt[2 * h.dst_node] & (LOOM_RT_W0_VALID | LOOM_RT_W0_ADAPTIVE)) ==
		   (LOOM_RT_W0_VALID | LOOM_RT_W0_ADAPTIVE)) {
		/* its table entry allowed the adaptive VC; it took the table's */
		card_cnt_add(c, p, f->vc, LOOM_CNTR_DETERMINISTIC, 1);
	}
}

/*
 * A head flit enters the router from network port @p: counted, and a
 * barrier packet gets its arrival port in dst_node (the BSUs need it; the
 * sender's dst_node named the port it left by).
 */
static void card_ingress(struct card *c, unsigned int p, struct flit *f)
{
	if (f->vc < LOOM_NUM_VCS)
		card_cnt_add(c, p, f->vc, LOOM_CNTR_RX_PKTS, 1);
	if (f->vc == LOOM_VC_BARRIER) {
		f->data[4] = (uint8_t)p;
		f->data[5] = 0;
	}
}

/* ---- the drop interface ------------------------------------------------- */

/* Count a packet the router dropped and answer it if it is a request. */
static void card_drop(struct card *c, const struct router_drop *d)
{
	struct loom_pkt_hdr h;
	uint8_t status = 0;
	uint32_t counter = 0;

	memset(&h, 0, sizeof(h));
	memcpy(&h, d->hdr, d->hdr_bytes < sizeof(h) ? d->hdr_bytes : sizeof(h));
	switch (d->reason) {
	case ROUTE_DROP_NO_ROUTE:
		card_drop_count(c, LOOM_CNT_DROP_NO_ROUTE);
		status = LOOM_CQE_ST_UNREACHABLE;
		break;
	case ROUTE_DROP_HOP_LIMIT:
		card_drop_count(c, LOOM_CNT_DROP_HOP_LIMIT);
		status = LOOM_CQE_ST_UNREACHABLE;
		break;
	case ROUTE_DROP_DOWN:
		counter = LOOM_CNTR_DROPS_DEAD;
		status = LOOM_CQE_ST_LINK;
		break;
	case ROUTE_DROP_DEAD:
		counter = LOOM_CNTR_DROPS_DEAD;
		status = LOOM_CQE_ST_DISCARDED;
		break;
	case ROUTE_DROP_DISABLED:
		counter = LOOM_CNTR_DROPS_DISABLED;
		status = LOOM_CQE_ST_DISCARDED;
		break;
	default:	/* malformed: nobody to answer with any confidence */
		card_drop_count(c, LOOM_CNT_DROP_MALFORMED);
		break;
	}
	if (counter && d->out_port < c->n_ports && d->vc < LOOM_NUM_VCS)
		card_cnt_add(c, d->out_port, d->vc, counter, 1);
	if (d->in_port < c->n_ports) {
		/* the port's DROPS register counts it at once, as the hardware's would */
		c->port[d->in_port].drops++;
		netport_publish(c, d->in_port);
	} else {
		c->host_drops++;
	}
	if (c->verbose)
		card_log(c, "drop (%s): type %u class %u %u.%u -> %u.%u op %u from %s %d toward port %d",
			 route_drop_name(d->reason), h.type, h.class, h.src_node, h.src_ctx,
			 h.dst_node, h.dst_ctx, h.op_id, d->in_port < c->n_ports ? "port" : "host",
			 d->in_port < c->n_ports ? d->in_port : -1,
			 d->out_port == 0xff ? -1 : d->out_port);
	if (status && d->hdr_bytes >= LOOM_PKT_HDR_SIZE && h.class == LOOM_CLASS_REQ &&
	    rma_is_request(h.type))
		card_respond(c, &h, status);
}

/* Take drop events while their answers find room in the response queue. */
static void card_drops(struct card *c)
{
	for (;;) {
		if (!c->drop_held) {
			if (!card_router_drop_pop(c, &c->drop))
				return;
			c->drop_held = true;
		}
		if (!hostport_room(&c->hp, LOOM_CLASS_RESP))
			return;
		c->drop_held = false;
		card_drop(c, &c->drop);
	}
}

/*
 * Ports the forward-progress timer declared dead since the last edge.  In
 * the live lab a neighbour that has not been heard lately may only be
 * starved of CPU by its host: the verdict is deferred (the port's timers
 * restart, nothing is dropped) until the neighbour is heard again or the
 * emulator's watchdog gives up on it.
 */
static void card_port_events(struct card *c)
{
	uint64_t ev = card_router_take_port_events(c);

	for (unsigned int p = 0; ev && p < c->n_ports; p++, ev >>= 1) {
		if (!(ev & 1) || !card_router_port_dead(c, p))
			continue;
		if (c->peer_heard && !c->peer_heard(c->peer_opaque, p)) {
			if (!c->fp_deferred++)
				card_log(c, "port %u: no progress for %u ms, but the neighbour is silent (starved, not stuck?): verdict deferred",
					 p, c->fp_timeout_ms);
			card_router_clear_port_dead(c, p);
			continue;
		}
		card_log(c, "port %u: a VC made no progress for %u ms with packets waiting: port declared dead",
			 p, c->fp_timeout_ms);
		card_port_status(c, p, 0, LOOM_PORT_ST_DEAD);
	}
}

/* ---- the clock ------------------------------------------------------------ */

_Static_assert(CHAN_VCS_MAX == 8, "card_step reads a wire's credits as one word");

void card_step(struct card *c)
{
	struct link_in lin[LOOM_MAX_PORTS];
	struct chan *ho = c->wire_out[c->host_port], *hi = c->wire_in[c->host_port];
	uint8_t hcred[CHAN_VCS_MAX];
	struct flit hin;

	/* the wires of this cycle: every block's registered outputs */
	for (unsigned int p = 0; p < c->n_ports; p++) {
		struct chan *ro = c->wire_out[p], *ri = c->wire_in[p];
		struct link_unit *l = &c->port[p].link;

		/* the link reads a flit's fields only when it is valid */
		lin[p].flit.valid = ro->fwd.valid;
		if (ro->fwd.valid) {
			lin[p].flit = ro->fwd;
			if (ro->fwd.head)
				card_count_out(c, p, &ro->fwd);
		}
		lin[p].back = ri->back;
		ri->fwd = l->out.flit;
		if (ri->fwd.valid && ri->fwd.head)
			card_ingress(c, p, &ri->fwd);
		ro->back = l->out.back;
	}
	hin = ho->fwd;
	memcpy(hcred, hi->back.credits, sizeof(hcred));
	hi->fwd = c->hp.out;
	ho->back = c->hp.back;

	/* the edge */
	card_router_cycle(c);
	for (unsigned int p = 0; p < c->n_ports; p++) {
		struct link_unit *l = &c->port[p].link;
		uint64_t cr;

		/*
		 * A link unit given nothing (no flit, no credits) with nothing
		 * due at this edge skips it, exactly as card_skip_to() skips
		 * an idle card's units.
		 */
		memcpy(&cr, lin[p].back.credits, sizeof(cr));
		if (!lin[p].flit.valid && !cr && link_unit_next_event(l) > l->now)
			link_unit_skip(l, l->now + 1);
		else
			link_unit_step(l, &lin[p]);
	}
	hostport_step(&c->hp, c, &hin, hcred);
	c->now++;

	/* what the blocks' new state asks of the card */
	for (unsigned int p = 0; p < c->n_ports; p++)
		netport_after_edge(c, p);
	card_drops(c);
	card_port_events(c);
	if (c->hif_wake || c->more_work) {
		c->hif_wake = false;
		c->now_ms = c->now / c->p.clock_khz;
		hif_service(c);
		bsu_service(c);
	}
}

uint64_t card_next_event(const struct card *c)
{
	uint64_t next = card_router_next_event(c);

	if (c->hif_wake || c->more_work || hostport_busy(&c->hp) ||
	    (c->drop_held && hostport_room(&c->hp, LOOM_CLASS_RESP)))
		return c->now;
	for (unsigned int p = 0; p < c->n_ports && next > c->now; p++) {
		uint64_t e;

		if (netport_busy(c, p))
			return c->now;
		e = link_unit_next_event(&c->port[p].link);
		if (e < next)
			next = e;
	}
	return next < c->now ? c->now : next;
}

void card_skip_to(struct card *c, uint64_t cycle)
{
	if (cycle <= c->now)
		return;
	if (!card_router_skip_to(c, cycle))
		card_log(c, "clock: router refused to skip from cycle %llu to %llu",
			 (unsigned long long)c->now, (unsigned long long)cycle);
	for (unsigned int p = 0; p < c->n_ports; p++)
		link_unit_skip(&c->port[p].link, cycle);
	c->now = cycle;
}

void card_publish(struct card *c)
{
	for (unsigned int p = 0; p < c->n_ports; p++) {
		const struct router_port_counters *rc = card_router_port_counters(c, p);

		netport_publish(c, p);
		/* the router counts stalls per output port: in the record of VC 0 */
		card_wr32(c, card_cnt_reg(p, 0, LOOM_CNTR_CREDIT_STALLS),
			  (uint32_t)rc->credit_stall_cycles);
	}
}
