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

void output_discard(struct router *r, unsigned int o, const struct fifo_meta *m,
		    const uint8_t *data)
{
	struct out_vc *ov = &r->out[o].vc[m->vc];
	unsigned int n;

	if (m->flags & FM_HEAD)
		ov->drop_bytes = 0;
	n = LOOM_PKT_HDR_SIZE - ov->drop_bytes;
	if (n > r->p.flit_bytes)
		n = r->p.flit_bytes;
	memcpy(ov->drop_hdr + ov->drop_bytes, data, n);
	ov->drop_bytes = (uint8_t)(ov->drop_bytes + n);
	if (m->flags & FM_TAIL)
		router_emit_drop(r, out_drop_reason(r, o), 0xff, o, m->vc, ov->drop_hdr,
				 ov->drop_bytes);
}

void output_drive(struct router *r)
{
	for (uint64_t pm = r->pipes_nonempty; pm; pm &= pm - 1) {
		unsigned int o = (unsigned int)__builtin_ctzll(pm);
		struct out_port *op = &r->out[o];
		const struct fifo_meta *m = fifo_front(&op->pipe);
		struct flit *f = &r->out_wires[o].fwd;

		if (m->ready_at > r->now + 1) {
			router_wake(r, m->ready_at - 1);
			continue;
		}
		if (!op->ready)
			continue;	/* blocked until the receiver is ready */
		f->valid = true;
		f->head = (m->flags & FM_HEAD) != 0;
		f->tail = (m->flags & FM_TAIL) != 0;
		f->vc = m->vc;
		memcpy(f->data, fifo_front_data(&op->pipe), r->p.flit_bytes);
		r->out_driven |= 1ull << o;
		r->pcnt[o].flits_out++;
		if (f->tail)
			r->pcnt[o].pkts_out++;
		fifo_pop(&op->pipe);
		if (fifo_empty(&op->pipe))
			r->pipes_nonempty &= ~(1ull << o);
		r->changed = true;
	}
}

static void output_apply_credits(struct router *r, unsigned int o)
{
	struct out_port *op = &r->out[o];

	for (unsigned int v = 0; v < r->p.vcs; v++) {
		unsigned int n = op->credits_in[v];

		if (!n)
			continue;
		if (!credit_give(&op->vc[v].cred, n))
			r->pcnt[o].credit_errors++;
		else if (op->stalled & (1u << v))
			op->vc[v].stall_since = r->now + 1;	/* progress: restart */
	}
	memset(op->credits_in, 0, sizeof(op->credits_in));
	op->credits_pending = false;
	r->changed = true;
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
		if (!(op->stalled & (1u << v))) {
			op->stalled |= 1u << v;
			ov->stall_since = r->now;
			r->changed = true;
		}
		if (!t || op->dead)
			continue;
		if (r->now + 1 - ov->stall_since >= t) {
			op->dead = true;
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
	while (l->count) {
		struct credit_ret *e = &l->v[l->head];

		if (e->at > r->now + 1) {
			router_wake(r, e->at - 1);
			break;
		}
		credit_give(e->c, 1);
		if (++l->head == l->cap)
			l->head = 0;
		l->count--;
		r->changed = true;
	}
}

void output_commit(struct router *r)
{
	for (unsigned int o = 0; o < r->p.ports; o++)
		if (r->out[o].credits_pending)
			output_apply_credits(r, o);
	for (uint64_t pm = r->fp_ports; pm; pm &= pm - 1)
		output_fp(r, (unsigned int)__builtin_ctzll(pm));
	credit_line_apply(r, &r->row_ret);
	credit_line_apply(r, &r->col_ret);
}
