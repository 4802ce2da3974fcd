// SPDX-License-Identifier: GPL-2.0
/*
 * An in-process cable between two link units (see link_wire.h).
 */
#include "link/link_wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t pow2_at_least(uint64_t v)
{
	uint32_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static bool link_wire_dir_init(struct link_wire_dir *d, struct link_unit *from,
			       struct link_unit *to, uint64_t seed)
{
	const struct link_params *p = &from->p;
	/* bytes in flight: the lanes' rate over the latency, and the frame on them */
	uint64_t bytes = (uint64_t)link_rate(p, p->lanes) * (p->wire_latency + 2) +
			 4 * LOOM_FRAME_MAX;

	memset(d, 0, sizeof(*d));
	d->from = from;
	d->to = to;
	fault_init(&d->fault, seed);
	d->ring_cap = pow2_at_least(bytes);
	d->rec_cap = d->ring_cap / LINK_FRAME_MIN + 4;
	d->ring = malloc(d->ring_cap);
	d->rec = calloc(d->rec_cap, sizeof(*d->rec));
	return d->ring && d->rec;
}

bool link_wire_init(struct link_wire *w, struct link_unit *a, struct link_unit *b, uint64_t seed,
		    char *err, size_t len)
{
	memset(w, 0, sizeof(*w));
	if (memcmp(&a->p, &b->p, sizeof(a->p))) {
		snprintf(err, len, "link wire: the two ends were built with different parameters");
		return false;
	}
	w->latency = a->p.wire_latency;
	if (!link_wire_dir_init(&w->dir[0], a, b, seed ^ 0x5eed0001u) ||
	    !link_wire_dir_init(&w->dir[1], b, a, seed ^ 0x5eed0002u)) {
		link_wire_free(w);
		snprintf(err, len, "link wire: no memory for a latency of %u cycles", w->latency);
		return false;
	}
	link_unit_carrier(a, true);
	link_unit_carrier(b, true);
	return true;
}

void link_wire_free(struct link_wire *w)
{
	for (unsigned int i = 0; i < 2; i++) {
		free(w->dir[i].ring);
		free(w->dir[i].rec);
		w->dir[i].ring = NULL;
		w->dir[i].rec = NULL;
	}
}

struct link_wire_hit {
	const struct link_txframe *tf;
	uint8_t lanes;
};

/* A flipped bit: flag the lane its byte travelled on. */
static void link_wire_hit(void *ctx, uint64_t bit)
{
	struct link_wire_hit *h = ctx;
	unsigned int rate = (unsigned int)h->tf->lanes * h->tf->lane_bytes;
	uint64_t at = h->tf->phase + bit / 8;

	if (rate)
		h->lanes |= (uint8_t)(1u << ((at % rate) / h->tf->lane_bytes));
}

static void link_wire_push(struct link_wire_dir *d, const struct link_txframe *tf,
			   uint64_t latency, uint8_t lanes_hit, bool damaged)
{
	struct link_wire_rec *r;
	uint32_t tail, first;

	if (d->ring_cap - d->ring_used < tf->len || d->rec_count == d->rec_cap) {
		d->dropped++;	/* cannot happen: sized for the lanes' rate */
		return;
	}
	tail = (d->ring_head + d->ring_used) & (d->ring_cap - 1);
	first = d->ring_cap - tail < tf->len ? d->ring_cap - tail : tf->len;
	memcpy(d->ring + tail, tf->bytes, first);
	memcpy(d->ring, tf->bytes + first, tf->len - first);
	d->ring_used += tf->len;
	r = &d->rec[(d->rec_head + d->rec_count) % d->rec_cap];
	r->arrive = tf->last_cycle + latency;
	r->off = tail;
	r->len = tf->len;
	r->lanes_hit = lanes_hit;
	r->phase = tf->phase;
	r->rate = (uint8_t)(tf->lanes * tf->lane_bytes);
	r->first = tf->first_cycle + latency;
	r->sent = 0;
	r->damaged = damaged || lanes_hit;
	d->rec_count++;
}

/* The test's tamper on frame @tf, if any: false to lose it; *@changed: it altered the bytes. */
static bool link_wire_tamper(struct link_wire *w, unsigned int dir, struct link_txframe *tf,
			     bool *changed)
{
	uint8_t before[LOOM_FRAME_MAX];
	uint16_t len = tf->len;
	bool keep;

	if (!w->tamper)
		return true;
	memcpy(before, tf->bytes, len);
	keep = w->tamper(w->tamper_ctx, dir, tf);
	*changed = tf->len != len || memcmp(before, tf->bytes, len) != 0;
	return keep;
}

void link_wire_carry(struct link_wire *w)
{
	for (unsigned int i = 0; i < 2; i++) {
		struct link_wire_dir *d = &w->dir[i];
		struct link_txframe *tf;

		while ((tf = link_unit_tx_peek(d->from))) {
			struct link_wire_hit hit = { .tf = tf };
			bool changed = false;

			if (w->cut || !link_wire_tamper(w, i, tf, &changed) ||
			    fault_apply_hits(&d->fault, tf->bytes, tf->len, link_wire_hit, &hit) ==
			    FAULT_DROPPED)
				d->dropped++;
			else
				link_wire_push(d, tf, w->latency, hit.lanes, changed);
			link_unit_tx_pop(d->from);
		}
	}
}

/*
 * Frame @r of direction @d may wait for its last byte and go over whole:
 * nothing of it delivered yet, intact, and the receiver's framer at a
 * frame's start (empty, or holding only frames handed over whole).
 */
static bool link_wire_whole(const struct link_wire_dir *d, const struct link_wire_rec *r)
{
	return !r->sent && !r->damaged && (!d->dirty || !link_unit_rx_holds(d->to));
}

/* The bytes of frame @r that have arrived by @cycle. */
static uint32_t link_wire_due(const struct link_wire_rec *r, uint64_t cycle)
{
	uint64_t upto;

	if (cycle >= r->arrive)
		return r->len;
	if (cycle < r->first || !r->rate)
		return 0;
	upto = (cycle - r->first + 1) * r->rate - r->phase;
	return upto < r->len ? (uint32_t)upto : r->len;
}

void link_wire_deliver(struct link_wire *w, uint64_t cycle)
{
	for (unsigned int i = 0; i < 2; i++) {
		struct link_wire_dir *d = &w->dir[i];

		while (d->rec_count) {
			struct link_wire_rec *r = &d->rec[d->rec_head];
			uint32_t due = link_wire_due(r, cycle), at, n, first;

			if (due < r->len && link_wire_whole(d, r))
				break;
			if (due > r->sent) {
				/* damaged, or its first bytes: the framer may stand anywhere */
				if (r->damaged || due < r->len)
					d->dirty = true;
				else if (!r->sent && !link_unit_rx_holds(d->to))
					d->dirty = false;
				at = (r->off + r->sent) & (d->ring_cap - 1);
				n = due - r->sent;
				first = d->ring_cap - at < n ? d->ring_cap - at : n;
				link_unit_rx_bytes(d->to, d->ring + at, first);
				if (first < n)
					link_unit_rx_bytes(d->to, d->ring, n - first);
				r->sent = (uint16_t)due;
			}
			/* a frame not complete: the ones behind it have not started */
			if (r->sent < r->len)
				break;
			if (r->lanes_hit)
				link_unit_rx_lane_errors(d->to, r->lanes_hit);
			d->frames++;
			d->bytes += r->len;
			d->ring_head = (d->ring_head + r->len) & (d->ring_cap - 1);
			d->ring_used -= r->len;
			d->rec_head = (d->rec_head + 1) % d->rec_cap;
			d->rec_count--;
		}
	}
}

void link_wire_cycle(struct link_wire *w, const struct link_in *in_a, const struct link_in *in_b)
{
	link_wire_deliver(w, w->dir[0].from->now);
	link_unit_step(w->dir[0].from, in_a);
	link_unit_step(w->dir[1].from, in_b);
	link_wire_carry(w);
}

void link_wire_cut(struct link_wire *w)
{
	if (w->cut)
		return;
	w->cut = true;
	for (unsigned int i = 0; i < 2; i++) {
		struct link_wire_dir *d = &w->dir[i];

		d->dropped += d->rec_count;
		d->rec_count = 0;
		d->ring_used = 0;
		link_unit_carrier(d->from, false);
	}
}

void link_wire_restore(struct link_wire *w)
{
	if (!w->cut)
		return;
	w->cut = false;
	link_unit_carrier(w->dir[0].from, true);
	link_unit_carrier(w->dir[1].from, true);
}

uint64_t link_wire_next_event(const struct link_wire *w)
{
	uint64_t next = UINT64_MAX;

	for (unsigned int i = 0; i < 2; i++) {
		const struct link_wire_dir *d = &w->dir[i];
		const struct link_wire_rec *r = &d->rec[d->rec_head];
		uint64_t at;

		if (!d->rec_count)
			continue;
		/* the cycle of its next byte, or of its last if it goes over whole */
		at = r->rate ? r->first + (r->phase + r->sent) / r->rate : r->arrive;
		if (at > r->arrive || link_wire_whole(d, r))
			at = r->arrive;
		if (at < next)
			next = at;
	}
	return next;
}
