// SPDX-License-Identifier: GPL-2.0
/*
 * The cycle-level link unit: state, training, the clock edge, the cable
 * and maintenance interfaces, idle skipping and statistics.  The two
 * halves are link_xmit.c and link_recv.c; see link_unit.h.
 */
#include "link/link_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool link_unit_init(struct link_unit *l, const struct link_params *p, char *err, size_t len)
{
	memset(l, 0, sizeof(*l));
	if (!link_params_check(p, err, len))
		return false;
	l->p = *p;
	l->tx.queue = calloc(p->tx_queue, sizeof(*l->tx.queue));
	l->tx.replay = calloc(p->replay_frames, sizeof(*l->tx.replay));
	l->rx.queue = calloc(p->rx_queue, sizeof(*l->rx.queue));
	l->tx.asmb = calloc(p->vcs, sizeof(*l->tx.asmb));
	if (!l->tx.queue || !l->tx.replay || !l->rx.queue || !l->tx.asmb) {
		link_unit_free(l);
		snprintf(err, len, "link unit: no memory for %u replay frames", p->replay_frames);
		return false;
	}
	link_credit_init(&l->credit, p->vcs, p->buf_depth, link_flits(p, LINK_PKT_MAX));
	lanes_reset(&l->lanes, 0);
	link_xmit_reset(l);
	link_recv_reset(l);
	return true;
}

void link_unit_free(struct link_unit *l)
{
	free(l->tx.queue);
	free(l->tx.replay);
	free(l->rx.queue);
	free(l->tx.asmb);
	l->tx.asmb = NULL;
	l->tx.queue = NULL;
	l->tx.replay = NULL;
	l->rx.queue = NULL;
}

void link_unit_set_identity(struct link_unit *l, uint32_t node, uint32_t port)
{
	l->node = node;
	l->port = port;
}

void link_unit_carrier(struct link_unit *l, bool on)
{
	l->carrier_in = on;
}

/* Everything the transmitter held is lost with the cable. */
static void link_unit_drop_tx(struct link_unit *l)
{
	struct link_xmit *x = &l->tx;

	l->cnt.lost_frames += gbn_tx_held(&x->gbn) + x->q_count +
			    (unsigned int)__builtin_popcount(x->assembling);
	link_xmit_reset(l);
}

/* The carrier changed: train from scratch, or go down. */
static void link_unit_carrier_edge(struct link_unit *l)
{
	l->carrier = l->carrier_in;
	link_unit_drop_tx(l);
	/* accepted packets stay in the delivery queue; partial frames are lost */
	link_recv_reset(l);
	if (!l->carrier) {
		l->state = LINK_DOWN;
		lanes_reset(&l->lanes, 0);
		link_credit_down(&l->credit);
		l->out.back.ready = false;
		memset(l->out.back.credits, 0, sizeof(l->out.back.credits));
		l->out_credits = false;
		return;
	}
	l->state = LINK_TRAINING;
	lanes_reset(&l->lanes, l->p.lanes);
	link_credit_train(&l->credit);
	l->tx.train_due = true;
}

void link_unit_came_up(struct link_unit *l)
{
	l->state = LINK_UP;
	l->cnt.trains++;
	l->tx.credit_progress = l->now;
	/* the peer's router has no credit for us yet: grant it at once */
	l->tx.poll_answer_due = true;
}

void link_unit_lane_dropped(struct link_unit *l)
{
	l->tx.lane_notice_due = true;
}

void link_unit_step(struct link_unit *l, const struct link_in *in)
{
	if (l->carrier_in != l->carrier)
		link_unit_carrier_edge(l);
	link_recv_step(l, in);
	link_xmit_step(l, in);
	l->now++;
}

/* ---- cable side ---- */

void link_unit_tx_pop(struct link_unit *l)
{
	if (!l->tx.ob_count)
		return;
	l->tx.ob_head = (l->tx.ob_head + 1) % LINK_OUTBOX;
	l->tx.ob_count--;
}

size_t link_unit_rx_bytes(struct link_unit *l, const void *data, size_t len)
{
	size_t took = link_rx_feed(&l->rx.framer, data, len);

	if (took)
		l->rx.fed = true;
	l->cnt.rx_overflows += len - took;
	return took;
}

uint8_t *link_unit_rx_tail(struct link_unit *l, size_t *room)
{
	return link_rx_tail(&l->rx.framer, room);
}

void link_unit_rx_commit(struct link_unit *l, size_t len)
{
	link_rx_commit(&l->rx.framer, len);
	if (len)
		l->rx.fed = true;
}

void link_unit_rx_lane_errors(struct link_unit *l, uint32_t lanes)
{
	l->rx.lane_flags |= lanes;
}

/* ---- maintenance ---- */

bool link_unit_maint_send(struct link_unit *l, const void *body, size_t len)
{
	if (l->state != LINK_UP || l->tx.maint_full || len > LINK_BODY_MAX) {
		l->cnt.maint_lost++;
		return false;
	}
	memcpy(l->tx.maint, body, len);
	l->tx.maint_len = (uint16_t)len;
	l->tx.maint_full = true;
	return true;
}

const uint8_t *link_unit_maint_peek(const struct link_unit *l, size_t *len)
{
	if (!l->rx.maint_full)
		return NULL;
	*len = l->rx.maint_len;
	return l->rx.maint;
}

void link_unit_maint_pop(struct link_unit *l)
{
	l->rx.maint_full = false;
}

/* ---- time ---- */

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Work for the very next edge, whatever the timers say. */
static bool link_unit_busy(const struct link_unit *l)
{
	const struct link_xmit *x = &l->tx;
	const struct link_recv *r = &l->rx;

	if (l->carrier_in != l->carrier || r->fed || r->lane_flags || r->q_count ||
	    l->out.flit.valid || l->credit.owed_mask || x->cur_rem)
		return true;
	/* ready (registered) must settle before cycles can be skipped */
	if (x->ready_before != l->out.back.ready || l->out.back.ready != link_xmit_ready(l))
		return true;
	if (l->out_credits)
		return true;
	/*
	 * Every frame starts in the outbox: while the cable has not taken
	 * the ones there (a peer that does not read), no frame can start,
	 * and the unit waits for the cable, not for a cycle.
	 */
	if (x->ob_count == LINK_OUTBOX)
		return false;
	if (l->state == LINK_TRAINING)
		return x->train_due;
	if (l->state != LINK_UP)
		return false;
	/* a queued packet the peer has no credit for waits for a frame, not a cycle */
	return x->maint_full || x->train_due || x->lane_notice_due || r->gbn.nak_due ||
	       x->poll_answer_due || gbn_tx_resend_due(&x->gbn) ||
	       (x->q_count && gbn_tx_room(&x->gbn) && !link_xmit_credit_starved(l)) ||
	       (!x->status_deadline && link_status_pending(l));
}

uint64_t link_unit_next_event(const struct link_unit *l)
{
	const struct link_xmit *x = &l->tx;
	uint64_t next = UINT64_MAX;

	if (link_unit_busy(l))
		return l->now;
	/* a frame may start in cycle c: the edge of cycle c - 1 builds it */
	if (l->state == LINK_TRAINING)
		next = x->train_retry - 1;
	if (l->state != LINK_UP)
		return next < l->now ? l->now : next;
	if (x->status_deadline)
		next = min_u64(next, x->status_deadline - 1);
	if (x->gbn.deadline && gbn_tx_held(&x->gbn))
		next = min_u64(next, x->gbn.deadline);
	if (l->credit.deficit_mask && !gbn_tx_held(&x->gbn))
		next = min_u64(next, x->credit_progress + l->p.ack_timeout - 1);
	return next < l->now ? l->now : next;
}

void link_unit_skip(struct link_unit *l, uint64_t cycle)
{
	const struct link_xmit *x = &l->tx;
	uint64_t n;

	if (cycle <= l->now)
		return;
	n = cycle - l->now;
	if (l->state == LINK_UP) {
		if (x->q_count && !gbn_tx_room(&x->gbn))
			l->cnt.replay_full_cycles += n;
		else if (link_xmit_credit_starved(l))
			l->cnt.credit_starved_cycles += n;
	}
	l->now = cycle;
}

/* ---- statistics ---- */

static const char *link_state_name(enum link_state s)
{
	switch (s) {
	case LINK_DOWN: return "down";
	case LINK_TRAINING: return "training";
	case LINK_UP: return "up";
	}
	return "?";
}

size_t link_unit_stats(const struct link_unit *l, char *out, size_t len)
{
	size_t used;

	used = (size_t)snprintf(out, len,
				"state=%s cycle=%llu lanes=%u lane_drops=%u peer_node=%u peer_port=%u replay_held=%u",
				link_state_name(l->state), (unsigned long long)l->now, l->lanes.n,
				l->lanes.drops, l->peer_node, l->peer_port, gbn_tx_held(&l->tx.gbn));
	for (unsigned int i = 0; i < LANES_MAX && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%u", i ? "," : " lane_errors=",
					 l->lanes.errors[i]);
	for (unsigned int i = 0; i < link_counter_count && used < len; i++) {
		const struct link_counter_info *ci = &link_counter_table[i];
		uint64_t v;

		memcpy(&v, (const char *)&l->cnt + ci->offset, sizeof(v));
		used += (size_t)snprintf(out + used, len - used, " %s=%llu", ci->name,
					 (unsigned long long)v);
	}
	return used < len ? used : len;
}
