// SPDX-License-Identifier: GPL-2.0
/*
 * The native harness in lockstep: cards, wires and fake hosts in one
 * process, one clock.
 */
#include "lockstep.h"
#include "router/route.h"
#include "router/router.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A doorbell: the card's service round runs at the current cycle. */
static void ls_kick(void *opaque, unsigned int vector)
{
	struct ls_card *lc = opaque;

	(void)vector;
	card_service(&lc->card);
}

/* Every card jumps over the idle cycles up to @cycle. */
static void ls_skip_to(struct lockstep *ls, uint64_t cycle)
{
	for (unsigned int i = 0; i < ls->n; i++)
		card_skip_to(&ls->c[i]->card, cycle);
	ls->cycle = cycle;
}

/*
 * The host waits for an interrupt: the fabric runs until card @lc raises
 * @vector, everything is idle, or about @ms pass at the card's clock.
 */
static void ls_wait(void *opaque, unsigned int vector, int ms)
{
	struct ls_card *lc = opaque;
	struct lockstep *ls = lc->ls;
	uint64_t end = ls->cycle + card_ms_cycles(&lc->card, (uint64_t)(ms > 0 ? ms : 1));

	while (ls->cycle < end && !(lc->card.vectors_pending & (1u << vector))) {
		uint64_t next = ls_next_event(ls);

		if (next == UINT64_MAX)
			break;
		if (next > ls->cycle) {
			if (next > end)
				next = end;
			ls_skip_to(ls, next);
			continue;
		}
		ls_step(ls);
	}
	lc->card.vectors_pending &= ~(1u << vector);
}

/*
 * The VC the host port's ejection buffer of @class takes (card/hostport.c):
 * the class's first deterministic VC, the request VC for another class.
 */
static unsigned int hostport_vc_of(uint8_t class)
{
	int vc = route_vc_of(class, false, false);

	return vc < 0 ? LOOM_VC_REQ0 : (unsigned int)vc;
}

/* After card @lc's edge: a tail on its router's host output wires is there this cycle. */
static void ls_watch_tail(struct ls_card *lc)
{
	const struct card *c = &lc->card;
	const struct flit *f = &router_out(c->router, c->host_port)->fwd;
	struct ls_tails *t;

	if (!f->valid || !f->tail || f->vc >= CHAN_VCS_MAX)
		return;
	t = &lc->tails[f->vc];
	if (t->count < LS_TAILS)
		t->cycle[(t->head + t->count++) % LS_TAILS] = c->now;
}

static void ls_trace_fn(void *opaque, const struct card *c, const uint8_t *pkt, bool delivered)
{
	struct lockstep *ls = opaque;
	struct loom_pkt_hdr h;
	struct ls_packet *p;

	memcpy(&h, pkt, sizeof(h));
	if (h.class == LOOM_CLASS_BARRIER)
		return;
	if (!delivered) {
		if (ls->n_pkts == ls->cap_pkts)
			return;
		p = &ls->pkts[ls->n_pkts++];
		memset(p, 0, sizeof(*p));
		p->src_node = h.src_node;
		p->dst_node = h.dst_node;
		p->src_ctx = h.src_ctx;
		p->type = h.type;
		p->op_id = h.op_id;
		p->offset = h.offset;
		p->injected = c->now;
		/* hostport_source drives the head at this edge: the router samples it at the next */
		p->head_in = c->now + 1;
		p->in_card = (uint16_t)c->node;
		memcpy(p->hdr, pkt, sizeof(p->hdr));
		return;
	}
	/* the oldest undelivered record of this packet */
	for (unsigned int i = 0; i < ls->n_pkts; i++) {
		p = &ls->pkts[i];
		if (!p->delivered && p->src_node == h.src_node && p->dst_node == h.dst_node &&
		    p->src_ctx == h.src_ctx && p->type == h.type && p->op_id == h.op_id &&
		    p->offset == h.offset) {
			struct ls_tails *t = &ls->c[c->node]->tails[hostport_vc_of(h.class)];

			p->delivered = c->now;
			p->out_card = (uint16_t)c->node;
			if (t->count) {
				p->tail_out = t->cycle[t->head];
				t->head = (t->head + 1) % LS_TAILS;
				t->count--;
			}
			return;
		}
	}
}

void ls_trace(struct lockstep *ls, unsigned int cap)
{
	free(ls->pkts);
	ls->pkts = calloc(cap, sizeof(*ls->pkts));
	ls->cap_pkts = ls->pkts ? cap : 0;
	ls->n_pkts = 0;
	for (unsigned int i = 0; i < ls->n; i++) {
		ls->c[i]->card.trace = ls_trace_fn;
		ls->c[i]->card.trace_opaque = ls;
	}
}

int ls_init(struct lockstep *ls, unsigned int n, unsigned int ports, uint64_t ram_size,
	    const struct card_params *p, char *err, size_t errlen)
{
	memset(ls, 0, sizeof(*ls));
	if (n > LS_MAX_CARDS) {
		snprintf(err, errlen, "%u cards: the lockstep harness holds %d", n, LS_MAX_CARDS);
		return -1;
	}
	for (unsigned int i = 0; i < n; i++) {
		struct ls_card *lc = calloc(1, sizeof(*lc));
		struct card_params cp;

		if (!lc) {
			snprintf(err, errlen, "no memory for card %u", i);
			ls_free(ls);
			return -1;
		}
		ls->c[i] = lc;
		ls->n = i + 1;
		lc->ls = ls;
		lc->idx = i;
		if (p)
			cp = *p;
		else
			card_params_default(&cp, i, ports);
		cp.node = i;
		cp.n_ports = ports;
		lc->regs = calloc(1, LOOM_LAB_SHM_SIZE);
		lc->ram = calloc(1, ram_size);
		lc->ram_size = ram_size;
		if (!lc->regs || !lc->ram) {
			snprintf(err, errlen, "no memory for card %u's window and host memory", i);
			ls_free(ls);
			return -1;
		}
		guest_mem_attach(&lc->gm, lc->ram, ram_size);
		if (!card_init(&lc->card, lc->regs, LOOM_LAB_SHM_SIZE, &cp, &lc->gm, err, errlen) ||
		    fh_attach_local(&lc->fh, lc->regs, LOOM_LAB_SHM_SIZE, lc->ram, ram_size, ls_kick,
				    ls_wait, lc, err, errlen)) {
			ls_free(ls);
			return -1;
		}
	}
	return 0;
}

void ls_free(struct lockstep *ls)
{
	for (unsigned int w = 0; w < ls->n_wires; w++)
		link_wire_free(&ls->wire[w]);
	for (unsigned int i = 0; i < ls->n; i++) {
		struct ls_card *lc = ls->c[i];

		if (!lc)
			continue;
		if (lc->card.router)
			card_free(&lc->card);
		free(lc->regs);
		free(lc->ram);
		free(lc);
		ls->c[i] = NULL;
	}
	free(ls->pkts);
	ls->pkts = NULL;
	ls->n = ls->n_wires = 0;
}

int ls_cable(struct lockstep *ls, unsigned int a, unsigned int pa, unsigned int b,
	     unsigned int pb, uint64_t seed, char *err, size_t errlen)
{
	struct card *ca, *cb;

	if (ls->n_wires == LS_MAX_WIRES || a >= ls->n || b >= ls->n) {
		snprintf(err, errlen, "cable %u.%u - %u.%u: no such card or too many wires", a, pa,
			 b, pb);
		return -1;
	}
	ca = &ls->c[a]->card;
	cb = &ls->c[b]->card;
	if (pa >= ca->n_ports || pb >= cb->n_ports) {
		snprintf(err, errlen, "cable %u.%u - %u.%u: no such port", a, pa, b, pb);
		return -1;
	}
	if (!link_wire_init(&ls->wire[ls->n_wires], card_port_link(ca, pa), card_port_link(cb, pb),
			    seed, err, errlen))
		return -1;
	ls->n_wires++;
	card_port_carrier(ca, pa, true);
	card_port_carrier(cb, pb, true);
	return 0;
}

int ls_ring(struct lockstep *ls, char *err, size_t errlen)
{
	unsigned int n = ls->n;

	for (unsigned int i = 0; i < n; i++) {
		struct card *c = &ls->c[i]->card;

		if (n > 1 && ls_cable(ls, i, 0, (i + 1) % n, 1, 0x5eed0000u + i, err, errlen))
			return -1;
		/* one dimension; the wrap-around channels are datelines */
		card_wr32(c, CARD_OFF_VCT + LOOM_VCT_PORT_CFG,
			  0 | (i == n - 1 ? LOOM_VCT_PORT_DATELINE : 0));
		card_wr32(c, CARD_OFF_VCT + LOOM_VCT_PORT_CFG + 4,
			  0 | (i == 0 ? LOOM_VCT_PORT_DATELINE : 0));
		for (unsigned int d = 0; d < n; d++) {
			unsigned int cw = (d + n - i) % n;

			if (d != i)
				card_set_route(c, d, cw <= n / 2 ? 0 : 1);
		}
		card_save_boot_config(c);
	}
	return 0;
}

void ls_step(struct lockstep *ls)
{
	for (unsigned int w = 0; w < ls->n_wires; w++)
		link_wire_deliver(&ls->wire[w], ls->cycle);
	for (unsigned int i = 0; i < ls->n; i++) {
		card_step(&ls->c[i]->card);
		if (ls->pkts)
			ls_watch_tail(ls->c[i]);
	}
	for (unsigned int w = 0; w < ls->n_wires; w++)
		link_wire_carry(&ls->wire[w]);
	ls->cycle++;
	ls->steps++;
}

uint64_t ls_next_event(const struct lockstep *ls)
{
	uint64_t next = UINT64_MAX;

	for (unsigned int w = 0; w < ls->n_wires; w++) {
		uint64_t e = link_wire_next_event(&ls->wire[w]);

		if (e < next)
			next = e;
	}
	for (unsigned int i = 0; i < ls->n && next > ls->cycle; i++) {
		uint64_t e = card_next_event(&ls->c[i]->card);

		if (e < next)
			next = e;
	}
	return next < ls->cycle ? ls->cycle : next;
}

void ls_run(struct lockstep *ls, uint64_t cycles, bool until_idle)
{
	uint64_t end = ls->cycle + cycles;

	while (ls->cycle < end) {
		uint64_t next = ls_next_event(ls);

		if (next > ls->cycle) {
			if (next == UINT64_MAX && until_idle)
				return;
			if (next > end)
				next = end;
			ls_skip_to(ls, next);
			continue;
		}
		ls_step(ls);
	}
}

bool ls_train(struct lockstep *ls, uint64_t cycles)
{
	uint64_t end = ls->cycle + cycles;

	for (;;) {
		bool up = true;

		for (unsigned int w = 0; w < ls->n_wires; w++)
			up = up && link_unit_up(ls->wire[w].dir[0].from) &&
			     link_unit_up(ls->wire[w].dir[1].from);
		if (up) {
			/* one more edge: the cards see their links up */
			ls_run(ls, 2, false);
			return true;
		}
		if (ls->cycle >= end)
			return false;
		ls_run(ls, 1, false);
	}
}
