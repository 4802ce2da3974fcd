// SPDX-License-Identifier: GPL-2.0
/*
 * The router core: input buffers per (port, VC), routing decision with the
 * VC model and adaptive choice, output arbitration, credits, fault masks
 * and the forward-progress timer.  No I/O (see tile.h).
 */
#include "tile.h"
#include "card.h"
#include "router/route.h"

#include <stdlib.h>
#include <string.h>

#define TILE_LEVELS	3
#define TILE_HOST_LEVEL_Q(tp, lvl) \
	((lvl) == 0 ? &(tp)->host_bar : (lvl) == 1 ? &(tp)->host_resp : &(tp)->host_req)

/* ---- packet FIFOs ------------------------------------------------------ */

bool tile_q_init(struct tile_q *q, unsigned int cap)
{
	q->v = calloc(cap, sizeof(*q->v));
	q->cap = cap;
	q->head = 0;
	q->count = 0;
	return q->v != NULL;
}

void tile_q_free(struct tile_q *q)
{
	free(q->v);
	q->v = NULL;
	q->cap = q->count = q->head = 0;
}

bool tile_q_push(struct tile_q *q, const struct loom_pkt_hdr *h, const void *payload)
{
	struct tile_pkt *e;
	unsigned int tail;

	if (q->count == q->cap)
		return false;
	tail = q->head + q->count;
	if (tail >= q->cap)
		tail -= q->cap;
	e = &q->v[tail];
	e->h = *h;
	if (h->len)
		memcpy(e->payload, payload, h->len);
	q->count++;
	return true;
}

struct tile_pkt *tile_q_head(struct tile_q *q)
{
	return q->count ? &q->v[q->head] : NULL;
}

void tile_q_pop(struct tile_q *q)
{
	if (!q->count)
		return;
	if (++q->head == q->cap)
		q->head = 0;
	q->count--;
}

/* ---- credits ------------------------------------------------------------ */

bool credit_update(struct credit_tx *c, uint32_t value, uint32_t max_buffers)
{
	uint32_t gain = value - c->granted;

	/* newer (modulo 2^32), and never more free buffers than exist */
	if (gain == 0 || gain > 0x7fffffffu || value - c->sent > max_buffers)
		return false;
	c->granted = value;
	return true;
}

/* ---- state -------------------------------------------------------------- */

bool tile_init(struct tile *t, struct card *c, unsigned int n_ports, unsigned int bufs)
{
	memset(t, 0, sizeof(*t));
	t->card = c;
	t->n_ports = n_ports;
	t->bufs = bufs;
	t->credit_refresh_period_ms = 20;
	for (unsigned int p = 0; p < n_ports; p++) {
		struct tile_port *tp = &t->port[p];

		for (unsigned int v = 0; v < LOOM_NUM_VCS; v++)
			if (!tile_q_init(&tp->in[v], bufs) || !tile_q_init(&tp->out[v], bufs))
				return false;
		if (!tile_q_init(&tp->host_req, TILE_HOST_REQ_CAP) ||
		    !tile_q_init(&tp->host_resp, TILE_HOST_RESP_CAP) ||
		    !tile_q_init(&tp->host_bar, TILE_HOST_BAR_CAP))
			return false;
	}
	return true;
}

void tile_free(struct tile *t)
{
	for (unsigned int p = 0; p < LOOM_MAX_PORTS; p++) {
		struct tile_port *tp = &t->port[p];

		for (unsigned int v = 0; v < LOOM_NUM_VCS; v++) {
			tile_q_free(&tp->in[v]);
			tile_q_free(&tp->out[v]);
		}
		tile_q_free(&tp->host_req);
		tile_q_free(&tp->host_resp);
		tile_q_free(&tp->host_bar);
	}
}

/*
 * Throw away packet @h that cannot go on out of @port (or -1): requests
 * are answered with @status, everything is counted.
 */
static void tile_discard(struct tile *t, const struct loom_pkt_hdr *h, int port, int vc,
			 uint32_t counter, uint8_t status)
{
	struct card *c = t->card;

	if (port >= 0 && vc >= 0 && counter)
		card_cnt_add(c, (unsigned int)port, (unsigned int)vc, counter, 1);
	if (c->verbose)
		card_log(c, "discard: type %u class %u %u.%u -> %u.%u op %u toward port %d: status %u",
			 h->type, h->class, h->src_node, h->src_ctx, h->dst_node, h->dst_ctx,
			 h->op_id, port, status);
	if (h->class == LOOM_CLASS_REQ)
		card_respond(c, h, status);
}

/* Empty everything waiting to leave on @port; requests answered with @status. */
static void tile_flush_port(struct tile *t, unsigned int port, uint32_t counter, uint8_t status)
{
	struct tile_port *tp = &t->port[port];
	struct tile_q *hq[3] = { &tp->host_bar, &tp->host_resp, &tp->host_req };
	struct tile_pkt *e;

	for (unsigned int v = 0; v < LOOM_NUM_VCS; v++) {
		while ((e = tile_q_head(&tp->out[v]))) {
			struct loom_pkt_hdr h = e->h;

			tile_q_pop(&tp->out[v]);
			tile_discard(t, &h, (int)port, (int)v, counter, status);
		}
	}
	for (unsigned int i = 0; i < 3; i++) {
		while ((e = tile_q_head(hq[i]))) {
			struct loom_pkt_hdr h = e->h;
			int vc = route_vc_of(h.class, false, false);

			tile_q_pop(hq[i]);
			tile_discard(t, &h, (int)port, vc, counter, status);
		}
	}
}

void tile_link_up(struct tile *t, unsigned int port)
{
	struct tile_port *tp = &t->port[port];

	tp->up = true;
	tp->dead = false;
	for (unsigned int v = 0; v < LOOM_NUM_VCS; v++) {
		tp->tx[v].sent = 0;
		tp->tx[v].granted = 0;
		tp->stall_since[v] = 0;
		/* the peer may fill what is free now; 0 differs from "never sent" */
		tp->rx_granted[v] = t->bufs - tp->in[v].count;
		tp->rx_advertised[v] = tp->rx_granted[v] - 1;
	}
	tp->credit_refresh_ms = 0;
	card_port_status(t->card, port, LOOM_PORT_ST_DEAD, 0);
}

void tile_link_down(struct tile *t, unsigned int port)
{
	struct tile_port *tp = &t->port[port];

	tp->up = false;
	tile_flush_port(t, port, LOOM_CNTR_DROPS_DEAD, LOOM_CQE_ST_LINK);
}

/* ---- the ports' side ------------------------------------------------------ */

enum tile_rx_result tile_rx(struct tile *t, unsigned int port, unsigned int vc,
			    const struct loom_pkt_hdr *h, const void *payload)
{
	struct tile_port *tp = &t->port[port];

	if (vc >= LOOM_NUM_VCS || route_class_of_vc(vc) != h->class)
		return TILE_RX_BAD_VC;
	if (!tile_q_push(&tp->in[vc], h, payload))
		return TILE_RX_FULL;
	card_cnt_add(t->card, port, vc, LOOM_CNTR_RX_PKTS, 1);
	return TILE_RX_OK;
}

void tile_credit_rx(struct tile *t, unsigned int port, unsigned int vc, uint32_t value)
{
	struct tile_port *tp = &t->port[port];

	if (vc >= LOOM_NUM_VCS || vc == LOOM_VC_MAINT)
		return;
	if (credit_update(&tp->tx[vc], value, TILE_BUFS_MAX))
		tp->stall_since[vc] = 0;	/* progress: the timer restarts */
}

bool tile_credit_due(struct tile *t, unsigned int port, unsigned int *vc, uint32_t *value)
{
	struct tile_port *tp = &t->port[port];

	if (!tp->up)
		return false;
	for (unsigned int v = 0; v < LOOM_NUM_VCS; v++) {
		if (v == LOOM_VC_MAINT || tp->rx_granted[v] == tp->rx_advertised[v])
			continue;
		tp->rx_advertised[v] = tp->rx_granted[v];
		*vc = v;
		*value = tp->rx_granted[v];
		return true;
	}
	return false;
}

void tile_credit_refresh(struct tile *t, unsigned int port)
{
	struct tile_port *tp = &t->port[port];

	for (unsigned int v = 0; v < LOOM_NUM_VCS; v++)
		tp->rx_advertised[v] = tp->rx_granted[v] - 1;
}

int tile_next_timer(const struct tile *t, uint64_t now)
{
	uint32_t timeout = card_rd32(t->card, CARD_OFF_PORTS + LOOM_PORTS_FP_TIMEOUT_MS);
	int next = -1;

	if (!timeout)
		return -1;
	for (unsigned int p = 0; p < t->n_ports; p++) {
		for (unsigned int v = 0; v < LOOM_NUM_VCS; v++) {
			uint64_t since = t->port[p].stall_since[v], due;
			int wait;

			if (!since || t->port[p].dead)
				continue;
			due = since + timeout;
			wait = due > now ? (int)(due - now) : 0;
			if (next < 0 || wait < next)
				next = wait;
		}
	}
	return next;
}

bool tile_tx_next(struct tile *t, unsigned int port, struct tile_pkt *out, unsigned int *vc)
{
	static const unsigned char order[TILE_LEVELS][3] = {
		{ LOOM_VC_BARRIER, LOOM_VC_BARRIER, LOOM_VC_BARRIER },
		{ LOOM_VC_RESP0, LOOM_VC_RESP1, LOOM_VC_RESP_ADAPT },
		{ LOOM_VC_REQ0, LOOM_VC_REQ1, LOOM_VC_REQ_ADAPT },
	};
	struct tile_port *tp = &t->port[port];

	for (unsigned int l = 0; l < TILE_LEVELS; l++) {
		for (unsigned int i = 0; i < 3; i++) {
			unsigned int v = order[l][(tp->out_rr + i) % 3];
			struct tile_pkt *e = tile_q_head(&tp->out[v]);

			if (!e)
				continue;
			out->h = e->h;
			memcpy(out->payload, e->payload, e->h.len);
			tile_q_pop(&tp->out[v]);
			*vc = v;
			tp->out_rr++;
			return true;
		}
	}
	return false;
}

bool tile_host_send(struct tile *t, unsigned int port, const struct loom_pkt_hdr *h,
		    const void *payload)
{
	struct tile_port *tp = &t->port[port];

	switch (h->class) {
	case LOOM_CLASS_REQ:
		return tile_q_push(&tp->host_req, h, payload);
	case LOOM_CLASS_RESP:
		return tile_q_push(&tp->host_resp, h, payload);
	case LOOM_CLASS_BARRIER:
		return tile_q_push(&tp->host_bar, h, payload);
	}
	return false;
}

bool tile_host_can_inject(const struct tile *t, unsigned int port)
{
	const struct tile_port *tp = &t->port[port];

	/* the host's own input buffer toward this port, as deep as a VC's */
	return tp->host_req.count < t->bufs;
}

uint32_t tile_port_status(const struct tile *t, unsigned int port)
{
	return (t->port[port].dead ? LOOM_PORT_ST_DEAD : 0) |
	       (t->port[port].disabled ? LOOM_PORT_ST_DISABLED : 0);
}

/* ---- switching ------------------------------------------------------------ */

enum tile_move {
	TILE_MOVED,
	TILE_BLOCKED,
};

static unsigned int tile_port_dim(const struct card *c, int port)
{
	if (port < 0)
		return LOOM_VCT_PORT_DIM_NONE;
	return card_rd32(c, CARD_OFF_VCT + LOOM_VCT_PORT_CFG + 4 * (unsigned int)port) &
	       LOOM_VCT_PORT_DIM_MASK;
}

static bool tile_port_dateline(const struct card *c, unsigned int port)
{
	return card_rd32(c, CARD_OFF_VCT + LOOM_VCT_PORT_CFG + 4 * port) & LOOM_VCT_PORT_DATELINE;
}

static bool tile_start_vc1(const struct card *c, unsigned int dst)
{
	if (dst >= LOOM_MAX_NODES)
		return false;
	return (card_rd32(c, CARD_OFF_VCT + LOOM_VCT_START_VC1 + 4 * (dst / 32)) >> (dst % 32)) & 1;
}

static bool tile_port_usable(const struct tile *t, unsigned int port)
{
	const struct tile_port *tp = &t->port[port];

	return tp->up && !tp->dead && !tp->disabled;
}

/* Can this card take the response a request delivered to its host causes? */
static bool tile_resp_room(struct tile *t, uint16_t src_node)
{
	struct loom_pkt_hdr probe = { .dst_node = src_node };
	struct router_decision d = card_route(t->card, &probe);
	struct tile_q *q;

	if (d.verdict != ROUTE_PORT || d.port >= t->n_ports)
		return true;
	q = &t->port[d.port].host_resp;
	return q->count + TILE_RESP_RESERVE <= q->cap;
}

/* Note that an input head waits for a credit of (@port, @vc). */
static void tile_stall(struct tile *t, unsigned int port, unsigned int vc, bool *counted,
		       uint32_t *stalled_now)
{
	struct tile_port *tp = &t->port[port];

	if (!*counted) {
		*counted = true;
		card_cnt_add(t->card, port, vc, LOOM_CNTR_CREDIT_STALLS, 1);
	}
	if (!tp->stall_since[vc])
		tp->stall_since[vc] = t->now_ms ? t->now_ms : 1;
	stalled_now[port] |= 1u << vc;
}

/*
 * Barrier packets go hop by hop, never table routed: from the network to
 * the BSUs, from the BSUs out of the port they named (@host_port).
 */
static enum tile_move tile_move_barrier(struct tile *t, int in_port, unsigned int host_port,
					struct tile_pkt *e, bool *counted, uint32_t *stalled_now)
{
	struct tile_port *op = &t->port[host_port];

	if (in_port >= 0) {
		card_switch(t->card, &e->h, e->payload, in_port);	/* to the BSUs */
		return TILE_MOVED;
	}
	if (!op->up || op->dead || op->disabled) {
		card_cnt_add(t->card, host_port, LOOM_VC_BARRIER,
			     op->disabled ? LOOM_CNTR_DROPS_DISABLED : LOOM_CNTR_DROPS_DEAD, 1);
		return TILE_MOVED;
	}
	if (!credit_avail(&op->tx[LOOM_VC_BARRIER])) {
		tile_stall(t, host_port, LOOM_VC_BARRIER, counted, stalled_now);
		return TILE_BLOCKED;
	}
	if (!tile_q_push(&op->out[LOOM_VC_BARRIER], &e->h, e->payload))
		return TILE_BLOCKED;
	op->tx[LOOM_VC_BARRIER].sent++;
	card_cnt_add(t->card, host_port, LOOM_VC_BARRIER, LOOM_CNTR_TX_PKTS, 1);
	card_cnt_add(t->card, host_port, LOOM_VC_BARRIER, LOOM_CNTR_TX_BYTES,
		     LOOM_PKT_HDR_SIZE + e->h.len);
	return TILE_MOVED;
}

/*
 * Try to move the packet at the head of an input: @in_port is the arrival
 * port or -1 for this card's host (then @host_port is the port the host
 * sent it to); @in_vc its VC (host: ignored).
 */
static enum tile_move tile_move(struct tile *t, int in_port, unsigned int in_vc,
				unsigned int host_port, struct tile_pkt *e, bool *counted,
				uint32_t *stalled_now)
{
	struct card *c = t->card;
	struct loom_pkt_hdr *h = &e->h;
	struct router_decision d;
	struct route_vc_in vin;
	struct tile_port *op;
	unsigned int out;
	int vc, det_vc;
	bool vc1, adaptive = false;

	if (h->class == LOOM_CLASS_BARRIER)
		return tile_move_barrier(t, in_port, host_port, e, counted, stalled_now);
	d = card_route(c, h);
	switch (d.verdict) {
	case ROUTE_HOST:
		if (h->class == LOOM_CLASS_REQ && !tile_resp_room(t, h->src_node))
			return TILE_BLOCKED;
		hif_deliver(c, h, e->payload);
		return TILE_MOVED;
	case ROUTE_NO_ROUTE:
		card_drop_count(c, LOOM_CNT_DROP_NO_ROUTE);
		tile_discard(t, h, -1, -1, 0, LOOM_CQE_ST_UNREACHABLE);
		return TILE_MOVED;
	case ROUTE_HOP_LIMIT:
		card_drop_count(c, LOOM_CNT_DROP_HOP_LIMIT);
		tile_discard(t, h, -1, -1, 0, LOOM_CQE_ST_UNREACHABLE);
		return TILE_MOVED;
	case ROUTE_PORT:
		break;
	}
	out = d.port;
	vin.class = h->class;
	vin.injected = in_port < 0 || in_vc == LOOM_VC_REQ_ADAPT || in_vc == LOOM_VC_RESP_ADAPT;
	vin.vc1_now = (h->flags & LOOM_PKT_F_VC1) != 0;
	vin.in_dim = tile_port_dim(c, in_port);
	vin.out_dim = tile_port_dim(c, (int)out);
	vin.start_vc1 = tile_start_vc1(c, h->dst_node);
	vin.dateline = tile_port_dateline(c, out);
	vc1 = route_vc1(&vin);
	det_vc = route_vc_of(h->class, vc1, false);
	if (det_vc < 0) {
		card_drop_count(c, LOOM_CNT_DROP_MALFORMED);
		return TILE_MOVED;
	}
	if (d.adaptive && !(h->flags & LOOM_PKT_F_ORDERED) &&
	    (h->class == LOOM_CLASS_REQ || h->class == LOOM_CLASS_RESP)) {
		int avc = route_vc_of(h->class, false, true), pick;
		uint32_t credits[LOOM_MAX_PORTS] = { 0 }, usable = 0;

		for (unsigned int p = 0; p < t->n_ports; p++) {
			credits[p] = credit_avail(&t->port[p].tx[avc]);
			if (tile_port_usable(t, p))
				usable |= 1u << p;
		}
		pick = route_adaptive_pick(d.adapt_ports, usable, credits, t->n_ports, (int)out,
					  t->adapt_rr++);
		if (pick >= 0) {
			out = (unsigned int)pick;
			vc = avc;
			adaptive = true;
		}
	}
	op = &t->port[out];
	if (!adaptive) {
		vc = det_vc;
		if (!op->up || op->dead || op->disabled) {
			tile_discard(t, h, (int)out, vc,
				     op->disabled ? LOOM_CNTR_DROPS_DISABLED : LOOM_CNTR_DROPS_DEAD,
				     op->disabled || op->dead ? LOOM_CQE_ST_DISCARDED : LOOM_CQE_ST_LINK);
			return TILE_MOVED;
		}
		if (!credit_avail(&op->tx[vc])) {
			tile_stall(t, out, (unsigned int)vc, counted, stalled_now);
			return TILE_BLOCKED;
		}
	}
	h->hops++;
	h->flags &= (uint8_t)~(LOOM_PKT_F_VC1 | LOOM_PKT_F_ADAPTIVE);
	if (vc1)
		h->flags |= LOOM_PKT_F_VC1;
	if (adaptive)
		h->flags |= LOOM_PKT_F_ADAPTIVE;
	if (!tile_q_push(&op->out[vc], h, e->payload)) {
		/* cannot happen: out[vc] holds at most the credits granted */
		h->hops--;
		tile_stall(t, out, (unsigned int)vc, counted, stalled_now);
		return TILE_BLOCKED;
	}
	op->tx[vc].sent++;
	card_cnt_add(c, out, (unsigned int)vc, LOOM_CNTR_TX_PKTS, 1);
	card_cnt_add(c, out, (unsigned int)vc, LOOM_CNTR_TX_BYTES, LOOM_PKT_HDR_SIZE + h->len);
	if (d.adaptive && !(h->flags & LOOM_PKT_F_ORDERED))
		card_cnt_add(c, out, (unsigned int)vc,
			     adaptive ? LOOM_CNTR_ADAPTIVE : LOOM_CNTR_DETERMINISTIC, 1);
	return TILE_MOVED;
}

/*
 * After an admin RESET (card_reset cleared STATUS.DEAD): every port may
 * carry traffic again and its forward-progress timers start afresh.
 */
static void tile_after_reset(struct tile *t)
{
	if (t->resets_seen == t->card->resets)
		return;
	t->resets_seen = t->card->resets;
	for (unsigned int p = 0; p < t->n_ports; p++) {
		t->port[p].dead = false;
		memset(t->port[p].stall_since, 0, sizeof(t->port[p].stall_since));
	}
}

/* Read CTRL.DISABLE of every port; a newly disabled port drops its queues. */
static void tile_fault_masks(struct tile *t)
{
	for (unsigned int p = 0; p < t->n_ports; p++) {
		struct tile_port *tp = &t->port[p];
		bool dis = card_rd32(t->card, card_port_reg(p, LOOM_PORT_CTRL)) & LOOM_PORT_CTRL_DISABLE;

		if (dis == tp->disabled)
			continue;
		tp->disabled = dis;
		card_log(t->card, "port %u: %s by CTRL.DISABLE", p, dis ? "disabled" : "enabled");
		if (dis)
			tile_flush_port(t, p, LOOM_CNTR_DROPS_DISABLED, LOOM_CQE_ST_DISCARDED);
		card_port_status(t->card, p, LOOM_PORT_ST_DISABLED, dis ? LOOM_PORT_ST_DISABLED : 0);
	}
}

/* Forward progress: a VC stalled without credits for FP_TIMEOUT_MS kills its port. */
static void tile_fp_timers(struct tile *t, const uint32_t *stalled_now)
{
	uint32_t timeout = card_rd32(t->card, CARD_OFF_PORTS + LOOM_PORTS_FP_TIMEOUT_MS);

	for (unsigned int p = 0; p < t->n_ports; p++) {
		struct tile_port *tp = &t->port[p];

		for (unsigned int v = 0; v < LOOM_NUM_VCS; v++) {
			if (!(stalled_now[p] & (1u << v))) {
				tp->stall_since[v] = 0;
				continue;
			}
			if (!timeout || tp->dead || !tp->stall_since[v] ||
			    t->now_ms - tp->stall_since[v] < timeout)
				continue;
			tp->dead = true;
			card_log(t->card, "port %u: VC %u made no progress for %u ms with packets waiting: port declared dead",
				 p, v, timeout);
			tile_flush_port(t, p, LOOM_CNTR_DROPS_DEAD, LOOM_CQE_ST_DISCARDED);
			card_port_status(t->card, p, 0, LOOM_PORT_ST_DEAD);
		}
	}
}

unsigned int tile_service(struct tile *t, uint64_t now)
{
	uint32_t stalled_now[LOOM_MAX_PORTS];
	unsigned int moved = 0, n = t->n_ports;
	bool progress = true;

	t->now_ms = now;
	tile_after_reset(t);
	tile_fault_masks(t);
	while (progress) {
		progress = false;
		memset(stalled_now, 0, sizeof(stalled_now));
		for (unsigned int lvl = 0; lvl < TILE_LEVELS; lvl++) {
			for (unsigned int i = 0; i < n; i++) {
				unsigned int p = (t->rr + i) % n;
				struct tile_port *tp = &t->port[p];
				struct tile_q *hq = TILE_HOST_LEVEL_Q(tp, lvl);
				struct tile_pkt *e;

				for (unsigned int v = 0; v < LOOM_NUM_VCS; v++) {
					struct tile_q *q = &tp->in[v];

					if (v == LOOM_VC_MAINT || route_vc_level(v) != lvl ||
					    !(e = tile_q_head(q)))
						continue;
					if (tile_move(t, (int)p, v, p, e, &tp->head_stalled[v],
						      stalled_now) == TILE_BLOCKED)
						continue;
					tp->head_stalled[v] = false;
					tile_q_pop(q);
					tp->rx_granted[v]++;
					progress = true;
					moved++;
				}
				if ((e = tile_q_head(hq)) &&
				    tile_move(t, -1, 0, p, e, &tp->host_stalled[lvl],
					      stalled_now) == TILE_MOVED) {
					tp->host_stalled[lvl] = false;
					tile_q_pop(hq);
					progress = true;
					moved++;
				}
			}
		}
	}
	t->rr++;
	tile_fp_timers(t, stalled_now);
	return moved;
}
