// SPDX-License-Identifier: GPL-2.0
/*
 * The C side of the unit harness's link units (equiv_link.h).
 */
#include "equiv_link.h"
#include "equiv_traffic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link/link_internal.h"
#include "link/link_wire.h"
#include "link_harness.h"

const unsigned int linku_body_max = LINK_BODY_MAX;

/* LANE_BYTES is at most 16 (link_params.h) */
_Static_assert(LINKU_RATE_MAX >= LANES_MAX * 16, "a cycle's bytes fit");
_Static_assert(FLIT_BYTES_MAX <= 64, "a flit fits");

/* A frame a started, on the lanes from its first cycle to its last. */
struct linku_frame {
	uint64_t first, last;
	unsigned int phase, rate, len;
	uint8_t bytes[LOOM_FRAME_MAX];
};

#define LINKU_FLIGHT	8	/* a's frames whose bytes are on the lanes from the next cycle */

struct linku_model {
	struct lh_pair x;
	uint64_t rng;
	/* this phase: maintenance frames offered and taken, the router input
	 * not ready (percent of cycles), cable cuts (per 10000 cycles) */
	unsigned int p_maint, p_pop, p_stall, p_cut;
	unsigned int cut_left;
	unsigned int fl_head, fl_count;
	struct linku_frame flight[LINKU_FLIGHT];
	unsigned int started;		/* frames a started in this cycle (in flight's tail) */
	bool overflow;
	uint8_t maint_body[LINK_BODY_MAX];
	struct link_unit shadow;
	bool shadow_ok;
};
_Static_assert(offsetof(struct linku_model, x) == 0, "eq_pair_new() builds the pair first");

/* a's frames as they enter the wire, before its faults */
static bool linku_grab(void *ctx, unsigned int dir, struct link_txframe *tf)
{
	struct linku_model *m = ctx;
	struct linku_frame *f;

	if (dir != 0)
		return true;
	if (m->fl_count == LINKU_FLIGHT) {
		m->overflow = true;
		return true;
	}
	f = &m->flight[(m->fl_head + m->fl_count++) % LINKU_FLIGHT];
	f->first = tf->first_cycle;
	f->last = tf->last_cycle;
	f->phase = tf->phase;
	f->rate = (unsigned int)tf->lanes * tf->lane_bytes;
	f->len = tf->len;
	memcpy(f->bytes, tf->bytes, tf->len);
	m->started++;
	return true;
}

struct linku_model *linku_new(unsigned int lanes, unsigned int lane_bytes, unsigned int vcs,
			      unsigned int flit_bytes, unsigned int threshold, uint64_t seed, char *err,
			      size_t len)
{
	struct linku_model *m;
	struct link_params lp;

	eq_params(&lp, lanes, lane_bytes, vcs, flit_bytes, threshold);
	lp.rx_frames = 1;
	if (!eq_one_frame_a_cycle(lanes, lane_bytes, err, len))
		return NULL;
	m = eq_pair_new(sizeof(*m), &lp, seed, err, len);
	if (!m)
		return NULL;
	if (!link_unit_init(&m->shadow, &lp, err, len)) {
		eq_pair_free(m);
		return NULL;
	}
	link_unit_set_identity(&m->shadow, m->x.a.node, m->x.a.port);
	m->shadow_ok = true;
	m->rng = seed ^ 0x6c696e6b00000000ull;
	m->x.w.tamper = linku_grab;
	m->x.w.tamper_ctx = m;
	return m;
}

void linku_free(struct linku_model *m)
{
	if (m)
		link_unit_free(&m->shadow);
	eq_pair_free(m);
}

void linku_phase(struct linku_model *m)
{
	static const double bers[] = { 0, 0, 1e-6, 1e-5, 1e-4 };
	static const unsigned int maint[] = { 0, 0, 1, 5, 30 }, pop[] = { 1, 10, 50, 90, 100 };
	static const unsigned int stall[] = { 0, 0, 10, 50, 90 }, cut[] = { 0, 0, 0, 3, 20 };

	eq_traffic_phase(&m->rng, &m->x, bers);
	m->p_maint = maint[eq_below(&m->rng, 5)];
	m->p_pop = pop[eq_below(&m->rng, 5)];
	m->p_stall = stall[eq_below(&m->rng, 5)];
	m->p_cut = cut[eq_below(&m->rng, 5)];
}

/*
 * The bytes of a frame whose first byte is in cycle @first at offset
 * @phase, @rate bytes a cycle, that fall in cycle @t: put at their offsets
 * in @out (*n: the end of the last); @at(k) is byte k.
 */
static void linku_spread(uint64_t first, unsigned int phase, unsigned int rate, unsigned int len,
			 uint64_t t, const uint8_t *ring, uint32_t off, uint32_t mask, uint8_t *out,
			 unsigned int *n)
{
	uint64_t c0, k0, k1;

	if (t < first || !rate)
		return;
	c0 = (t - first) * rate;	/* the cycle's first byte, counted from the phase */
	k0 = c0 > phase ? c0 - phase : 0;
	k1 = c0 + rate - phase < len ? c0 + rate - phase : len;
	for (uint64_t k = k0; k < k1; k++) {
		unsigned int at = (unsigned int)(phase + k - c0);

		out[at] = ring[(off + k) & mask];
		if (at + 1 > *n)
			*n = at + 1;
	}
}

/* The bytes and lane flags the cable brings a in cycle @t: b's frames on the wire. */
static void linku_rx(const struct linku_model *m, uint64_t t, struct linku_cycle *c)
{
	const struct link_wire_dir *d = &m->x.w.dir[1];

	for (uint32_t i = 0; i < d->rec_count; i++) {
		const struct link_wire_rec *r = &d->rec[(d->rec_head + i) % d->rec_cap];

		if (r->first > t)
			break;
		linku_spread(r->first, r->phase, r->rate, r->len, t, d->ring, r->off,
			     d->ring_cap - 1, c->rx_data, &c->rx_n);
		if (r->arrive == t)
			c->rx_lane_flags |= r->lanes_hit;
	}
}

/* a's lanes in cycle @t: the frames in flight; those that ended before it leave. */
static void linku_tx(struct linku_model *m, uint64_t t, struct linku_cycle *c)
{
	while (m->fl_count && m->flight[m->fl_head].last < t) {
		m->fl_head = (m->fl_head + 1) % LINKU_FLIGHT;
		m->fl_count--;
	}
	for (unsigned int i = 0; i < m->fl_count; i++) {
		const struct linku_frame *f = &m->flight[(m->fl_head + i) % LINKU_FLIGHT];

		linku_spread(f->first, f->phase, f->rate, f->len, t, f->bytes, 0,
			     UINT32_MAX, c->tx_data, &c->tx_n);
	}
}

void linku_step(struct linku_model *m, struct linku_cycle *c)
{
	struct link_unit *a = &m->x.a;
	uint64_t t = a->now;

	memset(c, 0, sizeof(*c));
	/* a's user takes the maintenance frame now and then, and offers one */
	if (a->rx.maint_full && eq_percent(&m->rng, m->p_pop)) {
		link_unit_maint_pop(a);
		c->maint_pop = true;
	}
	memset(m->maint_body, 0, sizeof(m->maint_body));
	if (m->p_maint && eq_percent(&m->rng, m->p_maint)) {
		unsigned int len = eq_maint_body(&m->rng, m->maint_body);

		c->maint_offer = true;
		c->maint_offer_len = len;
		c->maint_taken = link_unit_maint_send(a, m->maint_body, len);
	}
	c->maint_offer_body = m->maint_body;
	/* b sends some too */
	eq_maint_offer(&m->rng, &m->x.b, m->p_maint);
	eq_cable_cycle(&m->rng, &m->x, &m->cut_left, m->p_cut, 300);
	c->carrier = a->carrier_in;
	linku_rx(m, t, c);
	c->in_valid = m->x.src[0].out.valid;
	c->in_head = m->x.src[0].out.head;
	c->in_tail = m->x.src[0].out.tail;
	c->in_vc = m->x.src[0].out.vc;
	memcpy(c->in_data, m->x.src[0].out.data, a->p.flit_bytes);
	memcpy(c->in_credits, m->x.sink[1].back.credits, sizeof(c->in_credits));
	c->in_ready = m->x.sink[1].back.ready;

	m->started = 0;
	lh_pair_cycle(&m->x);
	if (m->overflow)
		c->error = "more frames on a's lanes than the harness keeps";

	linku_tx(m, t + 1, c);
	c->out_valid = a->out.flit.valid;
	c->out_head = a->out.flit.head;
	c->out_tail = a->out.flit.tail;
	c->out_vc = a->out.flit.vc;
	memcpy(c->out_data, a->out.flit.data, a->p.flit_bytes);
	c->out_ready = a->out.back.ready;
	memcpy(c->out_credits, a->out.back.credits, sizeof(c->out_credits));
	c->state = a->state;
	c->lanes_n = a->lanes.n;
	c->peer_node = a->peer_node;
	c->peer_port = a->peer_port;
	/* a's router input in the next cycle: not ready now and then, so its buffers fill */
	m->x.sink[1].back.ready = !(m->p_stall && eq_percent(&m->rng, m->p_stall));
}

unsigned int linku_counter_count(void)
{
	return link_counter_count;
}

const char *linku_counter_name(unsigned int i)
{
	return link_counter_table[i].name;
}

/* Counter @i (link_counter_table's order) of unit @l. */
static uint64_t unit_counter(const struct link_unit *l, unsigned int i)
{
	uint64_t v;

	memcpy(&v, (const char *)&l->cnt + link_counter_table[i].offset, sizeof(v));
	return v;
}

uint64_t linku_counter(const struct linku_model *m, unsigned int i)
{
	return unit_counter(&m->x.a, i);
}

const char *linku_shadow_check(struct linku_model *m, const struct linku_cycle *c, uint64_t *shadow,
			       uint64_t *model)
{
	struct link_unit *s = &m->shadow, *a = &m->x.a;
	struct link_in in;

	memset(&in, 0, sizeof(in));
	in.flit.valid = c->in_valid;
	in.flit.head = c->in_head;
	in.flit.tail = c->in_tail;
	in.flit.vc = (uint8_t)c->in_vc;
	memcpy(in.flit.data, c->in_data, s->p.flit_bytes);
	memcpy(in.back.credits, c->in_credits, sizeof(c->in_credits));
	in.back.ready = c->in_ready;
	if (c->maint_pop)
		link_unit_maint_pop(s);
	if (c->maint_offer)
		link_unit_maint_send(s, c->maint_offer_body, c->maint_offer_len);
	link_unit_carrier(s, c->carrier);
	if (c->rx_n)
		link_unit_rx_bytes(s, c->rx_data, c->rx_n);
	if (c->rx_lane_flags)
		link_unit_rx_lane_errors(s, c->rx_lane_flags);
	link_unit_step(s, &in);
	/* the frames it started: a's, byte for byte */
	for (unsigned int i = 0; i < m->started; i++) {
		const struct linku_frame *f =
			&m->flight[(m->fl_head + m->fl_count - m->started + i) % LINKU_FLIGHT];
		const struct link_txframe *tf = link_unit_tx_peek(s);

		if (!tf) {
			*shadow = 0;
			*model = 1;
			return "a frame started";
		}
		if (tf->first_cycle != f->first || tf->len != f->len ||
		    memcmp(tf->bytes, f->bytes, f->len)) {
			*shadow = tf->len;
			*model = f->len;
			return "a started frame's cycle, length or bytes";
		}
		link_unit_tx_pop(s);
	}
	if (link_unit_tx_peek(s)) {
		*shadow = 1;
		*model = 0;
		return "a frame started";
	}
#define LINKU_SAME(what, x_, y_) \
	do { \
		if ((x_) != (y_)) { \
			*shadow = (x_); \
			*model = (y_); \
			return what; \
		} \
	} while (0)
	LINKU_SAME("state", s->state, a->state);
	LINKU_SAME("lanes in use", s->lanes.n, a->lanes.n);
	LINKU_SAME("out flit valid", s->out.flit.valid, a->out.flit.valid);
	LINKU_SAME("out flit head", s->out.flit.head, a->out.flit.head);
	LINKU_SAME("out flit tail", s->out.flit.tail, a->out.flit.tail);
	LINKU_SAME("out flit vc", s->out.flit.vc, a->out.flit.vc);
	LINKU_SAME("out flit data (differs)", !!memcmp(s->out.flit.data, a->out.flit.data, s->p.flit_bytes), 0);
	LINKU_SAME("peer node", s->peer_node, a->peer_node);
	LINKU_SAME("peer port", s->peer_port, a->peer_port);
	LINKU_SAME("maintenance frame received", s->rx.maint_full, a->rx.maint_full);
	LINKU_SAME("maintenance slot to send", s->tx.maint_full, a->tx.maint_full);
	LINKU_SAME("out ready", s->out.back.ready, a->out.back.ready);
	for (unsigned int v = 0; v < CHAN_VCS_MAX; v++)
		LINKU_SAME("out credits of a VC", s->out.back.credits[v], a->out.back.credits[v]);
	LINKU_SAME("the replay window's next", s->tx.gbn.next, a->tx.gbn.next);
	LINKU_SAME("the receiver's expected", s->rx.gbn.expected, a->rx.gbn.expected);
	for (unsigned int i = 0; i < link_counter_count; i++)
		LINKU_SAME(link_counter_table[i].name, unit_counter(s, i), unit_counter(a, i));
#undef LINKU_SAME
	return NULL;
}
