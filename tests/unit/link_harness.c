// SPDX-License-Identifier: GPL-2.0
/*
 * Test harness for the cycle-level link unit (see link_harness.h).
 */
#include "link_harness.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>

void lh_packet(struct link_pkt *pkt, uint32_t id, uint16_t payload, uint8_t vc)
{
	struct loom_pkt_hdr h = {
		.type = LOOM_PKT_PUT,
		.class = LOOM_CLASS_REQ,
		.len = payload,
		.op_id = id,
		.aux = 0x1234567800000000ull | id,
	};

	memset(pkt, 0, sizeof(*pkt));
	memcpy(pkt->bytes, &h, sizeof(h));
	for (unsigned int i = 0; i < payload; i++)
		pkt->bytes[LOOM_PKT_HDR_SIZE + i] = (uint8_t)(id * 31 + i * 7 + 1);
	pkt->len = (uint16_t)(LOOM_PKT_HDR_SIZE + payload);
	pkt->vc = vc;
}

void lh_source_init(struct lh_source *s, const struct link_params *p)
{
	memset(s, 0, sizeof(*s));
	s->p = p;
	s->vc_mask = 1;
	lh_source_reset_credits(s);
}

void lh_source_reset_credits(struct lh_source *s)
{
	for (unsigned int v = 0; v < CHAN_VCS_MAX; v++)
		s->credits[v] = s->p->buf_depth;
}

void lh_source_edge(struct lh_source *s, const struct link_out *lo, uint64_t t)
{
	unsigned int fb = s->p->flit_bytes;

	for (unsigned int v = 0; v < CHAN_VCS_MAX; v++)
		s->credits[v] += lo->back.credits[v];
	/* ready is registered: a flit driven was allowed, and is taken */
	if (s->out.valid) {
		s->flits++;
		if (s->out.head)
			s->last_head_cycle = t;
		if (s->out.tail) {
			s->busy = false;
			s->packets++;
			s->last_tail_cycle = t;
		} else {
			s->flit++;
		}
		s->out.valid = false;
	}
	if (!lo->back.ready)
		return;		/* no flit in the next cycle */
	if (!s->busy && s->next_id < s->limit && s->vc_mask) {
		unsigned int vc = s->vc_next, n;

		while (!(s->vc_mask & (1u << vc)))
			vc = (vc + 1) % CHAN_VCS_MAX;
		n = link_flits(s->p, LOOM_PKT_HDR_SIZE + s->payload);
		if (s->credits[vc] >= n) {	/* virtual cut-through: room for all of it */
			s->credits[vc] -= n;
			lh_packet(&s->pkt, s->next_id++, s->payload, (uint8_t)vc);
			s->busy = true;
			s->flit = 0;
			s->vc_next = (vc + 1) % CHAN_VCS_MAX;
		}
	}
	if (!s->busy)
		return;
	memcpy(s->out.data, s->pkt.bytes + s->flit * fb, fb);
	s->out.valid = true;
	s->out.head = s->flit == 0;
	s->out.tail = (s->flit + 1) * fb >= s->pkt.len;
	s->out.vc = s->pkt.vc;
}

void lh_sink_init(struct lh_sink *k, const struct link_params *p)
{
	memset(k, 0, sizeof(*k));
	k->p = p;
	k->drain = true;
	k->hold = 1;
	k->back.ready = true;
	k->ready_before = true;
}

static void lh_sink_error(struct lh_sink *k, const char *what, uint32_t id)
{
	if (k->errors++ < 5 && !k->quiet)
		tap_diag("sink: packet %u (expected %u): %s", id, k->next_id, what);
}

static void lh_sink_packet(struct lh_sink *k)
{
	struct loom_pkt_hdr h;
	struct link_pkt want;

	memcpy(&h, k->bytes, sizeof(h));
	if (h.op_id != k->next_id) {
		lh_sink_error(k, "out of order", h.op_id);
		k->next_id = h.op_id;
	}
	lh_packet(&want, h.op_id, h.len, k->vc);
	if (h.len > LOOM_PKT_MAX_PAYLOAD || k->flits != link_flits(k->p, want.len) ||
	    memcmp(want.bytes, k->bytes, want.len))
		lh_sink_error(k, "bytes differ from what was sent", h.op_id);
	k->next_id++;
	k->packets++;
}

void lh_sink_edge(struct lh_sink *k, const struct link_out *lo, uint64_t t)
{
	const struct flit *f = &lo->flit;
	unsigned int fb = k->p->flit_bytes;
	bool allowed = k->ready_before;	/* a flit comes after a cycle the port was ready */

	k->ready_before = k->back.ready;
	memset(k->back.credits, 0, sizeof(k->back.credits));
	if (f->valid && allowed) {
		if (f->head) {
			k->flits = 0;
			k->vc = f->vc;
			k->last_head_cycle = t;
			if (!k->packets)
				k->first_head_cycle = t;
		}
		if (k->flits * fb + fb <= sizeof(k->bytes))
			memcpy(k->bytes + k->flits * fb, f->data, fb);
		k->flits++;
		k->flit_count++;
		if (k->f_count < LH_FIFO) {
			unsigned int at = (k->f_head + k->f_count++) % LH_FIFO;

			k->fifo[at].vc = f->vc;
			k->fifo[at].at = t;
		}
		if (++k->occupied[f->vc] > k->p->buf_depth)
			k->overflows++;
		if (k->occupied[f->vc] > k->max_occupied)
			k->max_occupied = k->occupied[f->vc];
		if (f->tail) {
			k->last_tail_cycle = t;
			lh_sink_packet(k);
		}
	}
	if (k->drain && k->f_count && t - k->fifo[k->f_head].at >= k->hold) {
		unsigned int vc = k->fifo[k->f_head].vc;

		k->f_head = (k->f_head + 1) % LH_FIFO;
		k->f_count--;
		k->occupied[vc]--;
		k->back.credits[vc] = 1;
	}
}

bool lh_pair_init(struct lh_pair *x, const struct link_params *p, uint64_t seed)
{
	char err[256];

	memset(x, 0, sizeof(*x));
	x->p = *p;
	if (!link_unit_init(&x->a, p, err, sizeof(err)) ||
	    !link_unit_init(&x->b, p, err, sizeof(err)) ||
	    !link_wire_init(&x->w, &x->a, &x->b, seed, err, sizeof(err))) {
		tap_diag("%s", err);
		return false;
	}
	link_unit_set_identity(&x->a, 10, 1);
	link_unit_set_identity(&x->b, 20, 2);
	for (unsigned int i = 0; i < 2; i++) {
		lh_source_init(&x->src[i], &x->p);
		lh_sink_init(&x->sink[i], &x->p);
	}
	return true;
}

void lh_pair_free(struct lh_pair *x)
{
	link_wire_free(&x->w);
	link_unit_free(&x->a);
	link_unit_free(&x->b);
}

void lh_pair_cycle(struct lh_pair *x)
{
	uint64_t t = x->now;
	struct link_out oa = x->a.out, ob = x->b.out;
	struct link_in ia = { .flit = x->src[0].out, .back = x->sink[1].back };
	struct link_in ib = { .flit = x->src[1].out, .back = x->sink[0].back };

	if (x->flit_tamper) {
		x->flit_tamper(x->flit_tamper_ctx, 0, &ia.flit);
		x->flit_tamper(x->flit_tamper_ctx, 1, &ib.flit);
	}
	link_wire_cycle(&x->w, &ia, &ib);
	lh_source_edge(&x->src[0], &oa, t);
	lh_source_edge(&x->src[1], &ob, t);
	lh_sink_edge(&x->sink[0], &ob, t);
	lh_sink_edge(&x->sink[1], &oa, t);
	/* a link that came up: its router's output credits start at BUF_DEPTH */
	if (x->a.cnt.trains != x->trains[0]) {
		x->trains[0] = x->a.cnt.trains;
		lh_source_reset_credits(&x->src[0]);
	}
	if (x->b.cnt.trains != x->trains[1]) {
		x->trains[1] = x->b.cnt.trains;
		lh_source_reset_credits(&x->src[1]);
	}
	x->now++;
}

struct loom_frame_hdr lh_frame_hdr(const struct link_txframe *tf)
{
	struct loom_frame_hdr h;

	memcpy(&h, tf->bytes, sizeof(h));
	return h;
}

void lh_pair_run(struct lh_pair *x, uint64_t n)
{
	while (n--)
		lh_pair_cycle(x);
}

bool lh_pair_train(struct lh_pair *x, uint64_t max)
{
	for (uint64_t i = 0; i < max; i++) {
		if (link_unit_up(&x->a) && link_unit_up(&x->b))
			return true;
		lh_pair_cycle(x);
	}
	return link_unit_up(&x->a) && link_unit_up(&x->b);
}

static bool lh_pair_idle(const struct lh_pair *x)
{
	for (unsigned int i = 0; i < 2; i++)
		if (x->src[i].next_id < x->src[i].limit || x->src[i].busy ||
		    x->sink[i].packets < x->src[i].packets)
			return false;
	return !gbn_tx_held(&x->a.tx.gbn) && !gbn_tx_held(&x->b.tx.gbn);
}

bool lh_pair_drain(struct lh_pair *x, uint64_t max)
{
	for (uint64_t i = 0; i < max; i++) {
		if (lh_pair_idle(x))
			return true;
		lh_pair_cycle(x);
	}
	return lh_pair_idle(x);
}

void lh_send(struct lh_pair *x, unsigned int i, uint32_t count, uint16_t payload, uint32_t vc_mask)
{
	struct lh_source *s = &x->src[i];

	s->payload = payload;
	s->vc_mask = vc_mask;
	s->limit = s->next_id + count;
}

void lh_pair_diag(const struct lh_pair *x)
{
	char buf[4096];

	link_unit_stats(&x->a, buf, sizeof(buf));
	tap_diag("a: %s", buf);
	link_unit_stats(&x->b, buf, sizeof(buf));
	tap_diag("b: %s", buf);
}
