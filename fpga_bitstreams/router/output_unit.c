// SPDX-License-Identifier: GPL-2.0
/*
 * Output unit: per port the output register stage to the wire, and per
 * output VC its credit counter (the downstream buffer), its owner (the
 * input VC whose packet holds it) and its forward-progress timer.
 *
 * Registers: the output stage (a FIFO of LAT_LT [+ LAT_ST/LAT_OUT] + 1
 * slots: a flit leaves when its stage latency has passed and the
 * receiver's ready was high in the cycle before), credits[VCS],
 * owner[VCS], pkts[VCS], stall_since[VCS], up/dead/disabled.
 *
 * Forward progress: an output VC for which a packet waits for credits
 * (a virtual cut-through packet at VC allocation, a wormhole flit at the
 * switch or the output mux) starts its timer; a credit coming back
 * restarts it; when it reaches FP_TIMEOUT cycles the port is declared
 * dead: packets routed to it from then on leave through the drop
 * interface, and flits already inside toward it are discarded at its
 * output (also reported as drops).
 */
#include "router_int.h"

void output_wait(struct router *r, unsigned int o, unsigned int vc)
{
	r->out[o].waiting |= 1u << vc;
	r->fp_ports |= 1ull << o;
}

void output_release(struct router *r, unsigned int o, unsigned int vc)
{
	struct out_vc *ov = &r->out[o].vc[vc];

	if (ov->pkts && --ov->pkts == 0)
		ov->owner = -1;
}

void output_discard(struct router *r, unsigned int o, uint32_t slot)
{
	const struct fifo_meta *m = &r->pool.meta[slot];
	const uint8_t *data = pool_data(&r->pool, slot);
	struct out_drop *od = &r->out_drop[o * r->p.vcs + m->vc];

	if (m->flags & FM_HEAD)
		od->bytes = 0;
	drop_collect(od->hdr, &od->bytes, data, r->p.flit_bytes);
	if (m->flags & FM_TAIL)
		router_emit_drop(r, out_drop_reason(r, o), 0xff, o, m->vc, od->hdr, od->bytes);
	pool_put(&r->pool, slot);
}

void output_drive(struct router *r)
{
	const uint64_t now = r->now;
	const unsigned int fb = r->p.flit_bytes;
	struct flit_pool *pl = &r->pool;

	for (uint64_t pm = r->pipes_nonempty; pm; pm &= pm - 1) {
		unsigned int o = (unsigned int)__builtin_ctzll(pm);
		struct out_port *op = &r->out[o];
		struct chan *w = &r->wires[o].out;
		uint32_t s = fifo_front(&op->pipe);
		const struct fifo_meta *m = &pl->meta[s];

		VISIT(out_heads);
		if (m->ready_at > now + 1) {
			VISIT(out_unseen);
			router_wake(r, m->ready_at - 1);
			continue;
		}
		if (!w->back.ready) {
			VISIT(out_blocked);
			continue;	/* blocked until the receiver is ready */
		}
		VISIT(out_moved);
		w->fwd.valid = true;
		w->fwd.head = (m->flags & FM_HEAD) != 0;
		w->fwd.tail = (m->flags & FM_TAIL) != 0;
		w->fwd.vc = m->vc;
		flit_copy(w->fwd.data, pool_data(pl, s), fb);
		r->out_driven |= 1ull << o;
		r->pcnt[o].flits_out++;
		r->pcnt[o].pkts_out += w->fwd.tail;
		fifo_pop(&op->pipe);
		pool_put(pl, s);
		if (fifo_empty(&op->pipe))
			r->pipes_nonempty &= ~(1ull << o);
		r->changed = true;
	}
}

/* Credits from downstream sampled at this edge: usable from the next cycle. */
static void output_apply_credits(struct router *r, unsigned int o)
{
	struct out_port *op = &r->out[o];
	uint64_t c = r->credits_in[o] & r->vc_bytes;

	while (c) {
		unsigned int v = (unsigned int)__builtin_ctzll(c) / 8;
		unsigned int n = (unsigned int)(c >> (8 * v)) & 0xff;

		c &= ~(0xffull << (8 * v));
		if (!credit_give(&op->vc[v].cred, n))
			r->pcnt[o].credit_errors++;
		else if (op->stalled & (1u << v))
			op->vc[v].stall_since = r->now + 1;	/* progress: restart */
	}
	r->credits_in[o] = 0;
}

/* Forward-progress timers of output @o at the edge. */
static void output_fp(struct router *r, unsigned int o)
{
	struct out_port *op = &r->out[o];
	uint32_t t = r->p.fp_timeout;

	for (uint32_t m = op->waiting | op->stalled; m; m &= m - 1) {
		unsigned int v = (unsigned int)__builtin_ctz(m);
		struct out_vc *ov = &op->vc[v];

		if (!(op->waiting & (1u << v))) {
			op->stalled &= ~(1u << v);
			ov->stall_since = 0;
			r->changed = true;
			continue;
		}
		r->pcnt[o].credit_stall_cycles++;
		r->vcnt[o * r->p.vcs + v].credit_starved_cycles++;
		if (!(op->stalled & (1u << v))) {
			op->stalled |= 1u << v;
			ov->stall_since = r->now;
			r->changed = true;
		}
		if (!t || op->dead)
			continue;
		if (r->now + 1 - ov->stall_since >= t) {
			op->dead = true;
			out_usable_update(r, o);
			r->port_events |= 1ull << o;
			r->changed = true;
		} else {
			router_wake(r, ov->stall_since + t - 1);
		}
	}
	op->waiting = 0;
	if (!op->stalled)
		r->fp_ports &= ~(1ull << o);
}

static void credit_line_apply(struct router *r, struct credit_line *l)
{
	const uint64_t edge = r->now + 1;

	if (l->latency == 1) {
		/*
		 * Every credit on the line left this edge: all usable next
		 * cycle.  The line empties at every edge, so its entries
		 * start at v[0] (head stays 0) and never wrap.
		 */
		const struct credit_ret *e = l->v, *end = l->v + l->count;

		for (; e < end; e++)
			e->c->avail++;	/* never beyond the depth */
		l->count = 0;
		r->changed = true;
		return;
	}
	while (l->count) {
		struct credit_ret *e = &l->v[l->head];

		if (e->at > edge) {
			router_wake(r, e->at - 1);
			break;
		}
		e->c->avail++;
		l->head = (l->head + 1) & l->mask;
		l->count--;
		r->changed = true;
	}
}

void output_commit(struct router *r)
{
	if (r->credits_ports) {
		for (uint64_t pm = r->credits_ports; pm; pm &= pm - 1)
			output_apply_credits(r, (unsigned int)__builtin_ctzll(pm));
		r->credits_ports = 0;
		r->changed = true;
	}
	for (uint64_t pm = r->fp_ports; pm; pm &= pm - 1)
		output_fp(r, (unsigned int)__builtin_ctzll(pm));
	if (r->row_ret.count)
		credit_line_apply(r, &r->row_ret);
	if (r->col_ret.count)
		credit_line_apply(r, &r->col_ret);
}
