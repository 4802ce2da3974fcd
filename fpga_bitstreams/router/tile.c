// SPDX-License-Identifier: GPL-2.0
/*
 * Tile (TILED organisation, BlackWidow's YARC): tile (row, col) holds the
 * input unit and the output unit of port row * COLS + col, the subswitch
 * where its row meets its column, and the column buffers of its output.
 *
 *  - Row buffers: at subswitch (r, c), one per input of row r (COLS of
 *    them) and input VC, ROW_DEPTH flits each, wormhole: the input holds a
 *    credit per buffer, returned LAT_ROW cycles after a flit leaves.
 *  - Subswitch: one output per row ro of the column (ROWS of them), each
 *    with its arbiter (ARB_SA_OUT) over the COLS x VCS row buffers whose
 *    head flit goes to output row ro and whose column buffer has a
 *    credit; the winner (SPEEDUP of them) crosses the column channel into
 *    the column buffer, visible LAT_SUB + LAT_COL cycles later.
 *  - Column buffers: at output tile (ro, c), one per row r (ROWS of them)
 *    and output VC, COL_DEPTH flits, credits returned to subswitch (r, c)
 *    LAT_COL cycles after a flit leaves.  The subswitch gives a column
 *    buffer VC to one packet from its head to its tail (register colown),
 *    so packets never interleave in a column buffer.
 *  - Output mux: the output's arbiter (ARB_OUT) over the ROWS x VCS column
 *    buffers whose head may leave while the output stage has room: a head
 *    needs its output VC free (and, virtual cut-through, credits for the
 *    whole packet, taken then), a body flit its packet to own the VC (and,
 *    wormhole, a credit); the winner is on the wire LAT_OUT + LAT_LT cycles
 *    later.  The tail passing the mux frees the output VC.
 *
 * A packet therefore crosses the grid in at most one row hop and one
 * column hop.  With ROWS = 1 the organisation is the fully buffered
 * crossbar: row buffers are the crosspoint buffers of the input row.
 */
#include "router_int.h"

/* May the head flit @m of row buffer @b go to its column buffer now? */
static bool sub_can(const struct tile *t, unsigned int vcs, unsigned int cols, unsigned int b,
		    const struct fifo_meta *m)
{
	unsigned int k = (m->port / cols) * vcs + m->vc;
	int own = t->colown[k];

	if (!credit_has(&t->colcred[k], 1))
		return false;
	return (m->flags & FM_HEAD) ? own < 0 : own == (int)b;
}

void tile_subswitch(struct router *r)
{
	unsigned int cols = r->p.cols, vcs = r->p.vcs;

	for (uint64_t gm = r->rows_nonempty; gm; gm &= gm - 1) {
		unsigned int g = (unsigned int)__builtin_ctzll(gm);
		struct tile *t = &r->tiles[g];
		uint64_t req[ROUTER_ROWS_MAX] = { 0 }, pat = 0;
		uint32_t outs = 0;

		for (uint64_t bm = t->row_nonempty; bm; bm &= bm - 1) {
			unsigned int b = (unsigned int)__builtin_ctzll(bm);
			const struct fifo_meta *m = fifo_front(&t->rowbuf[b]);
			unsigned int ro;

			if (m->ready_at > r->now) {
				router_wake(r, m->ready_at);
				continue;
			}
			if (!sub_can(t, vcs, cols, b, m))
				continue;
			ro = m->port / cols;
			req[ro] |= 1ull << b;
			outs |= 1u << ro;
			if (m->flags & FM_PAT)
				pat |= 1ull << b;
		}
		for (; outs; outs &= outs - 1) {
			unsigned int ro = (unsigned int)__builtin_ctz(outs);
			struct arbiter *a = &t->sub_arb[ro];
			uint64_t all = req[ro], left = all;

			r->cnt.sa_conflicts += (all & (all - 1)) != 0;
			for (unsigned int s = 0; s < r->p.speedup && left;) {
				int w = arb_pick(a, left);
				struct flit_fifo *q = &t->rowbuf[w];
				struct fifo_meta m = *fifo_front(q);
				unsigned int og = ro * cols + t->col, ci = (unsigned int)w / vcs;
				unsigned int k = ro * vcs + m.vc;
				struct tile *ot = &r->tiles[og];
				unsigned int slot = t->row * vcs + m.vc;

				left &= ~(1ull << w);
				if (!sub_can(t, vcs, cols, (unsigned int)w, &m))
					continue;	/* taken by a flit granted this cycle */
				s++;
				credit_take(&t->colcred[k], 1);
				t->colown[k] = (m.flags & FM_TAIL) ? -1 : (int8_t)w;
				m.ready_at = r->now + r->p.lat_sub + r->p.lat_col;
				fifo_push(&ot->colbuf[slot], &m, fifo_front_data(q));
				fifo_pop(q);
				if (fifo_empty(q))
					t->row_nonempty &= ~(1ull << w);
				ot->col_nonempty |= 1ull << slot;
				r->cols_nonempty |= 1ull << og;
				credit_line_push(&r->row_ret, r->now + r->p.lat_row,
						 &r->in[t->row * cols + ci].rowcred[t->col * vcs + m.in_vc]);
				router_wake(r, m.ready_at);
				arb_update(a, w, all, pat, !(m.flags & FM_TAIL));
				r->changed = true;
			}
		}
		if (!t->row_nonempty)
			r->rows_nonempty &= ~(1ull << g);
	}
}

/* May the head of column buffer @b (flit @m) pass the output mux of @o now? */
static bool mux_can(struct router *r, unsigned int o, unsigned int b, const struct fifo_meta *m)
{
	struct out_port *op = &r->out[o];
	struct out_vc *ov = &op->vc[m->vc];

	if (!out_usable(r, o))
		return true;	/* discarded */
	if (fifo_full(&op->pipe))
		return false;
	if (m->flags & FM_HEAD) {
		if (ov->owner >= 0)
			return false;
		if (!out_vct_fits(r, ov, m->vc, m->route ? m->route : 1)) {
			output_wait(r, o, m->vc);
			return false;
		}
		if (!vc_wormhole(r, m->vc))
			return true;
	} else if (ov->owner != (int)b) {
		return false;
	}
	if (vc_wormhole(r, m->vc) && !credit_has(&ov->cred, 1)) {
		output_wait(r, o, m->vc);
		return false;
	}
	return true;
}

void tile_output_mux(struct router *r)
{
	unsigned int cols = r->p.cols, vcs = r->p.vcs;

	for (uint64_t gm = r->cols_nonempty; gm; gm &= gm - 1) {
		unsigned int o = (unsigned int)__builtin_ctzll(gm);
		struct tile *t = &r->tiles[o];
		struct out_port *op = &r->out[o];
		uint64_t req = 0, pat = 0;
		int w;

		for (uint64_t bm = t->col_nonempty; bm; bm &= bm - 1) {
			unsigned int b = (unsigned int)__builtin_ctzll(bm);
			const struct fifo_meta *m = fifo_front(&t->colbuf[b]);

			if (m->ready_at > r->now) {
				router_wake(r, m->ready_at);
				continue;
			}
			if (!mux_can(r, o, b, m))
				continue;
			req |= 1ull << b;
			if (m->flags & FM_PAT)
				pat |= 1ull << b;
		}
		w = arb_pick(&op->mux_arb, req);
		if (w >= 0) {
			struct flit_fifo *q = &t->colbuf[w];
			struct fifo_meta m = *fifo_front(q);
			struct out_vc *ov = &op->vc[m.vc];
			unsigned int ri = (unsigned int)w / vcs;

			r->cnt.sa_conflicts += (req & (req - 1)) != 0;
			if (m.flags & FM_HEAD) {
				ov->owner = (int16_t)w;
				ov->sent = 0;
				if (!vc_wormhole(r, m.vc) && out_usable(r, o))
					credit_take(&ov->cred, m.route);
			}
			ov->sent++;
			if (!out_usable(r, o)) {
				output_discard(r, o, &m, fifo_front_data(q));
			} else {
				if (vc_wormhole(r, m.vc))
					credit_take(&ov->cred, 1);
				m.ready_at = r->now + r->p.lat_out + r->p.lat_lt;
				fifo_push(&op->pipe, &m, fifo_front_data(q));
				r->pipes_nonempty |= 1ull << o;
				router_wake(r, m.ready_at - 1);
			}
			if (m.flags & FM_TAIL) {
				/* a packet shorter than it declared gives back the rest */
				if (!vc_wormhole(r, m.vc) && out_usable(r, o) && ov->sent < m.route)
					credit_give(&ov->cred, m.route - ov->sent);
				ov->owner = -1;
			}
			fifo_pop(q);
			if (fifo_empty(q))
				t->col_nonempty &= ~(1ull << w);
			credit_line_push(&r->col_ret, r->now + r->p.lat_col,
					 &r->tiles[ri * cols + t->col].colcred[t->row * vcs + m.vc]);
			arb_update(&op->mux_arb, w, req, pat, !(m.flags & FM_TAIL));
			r->changed = true;
		}
		if (!t->col_nonempty)
			r->cols_nonempty &= ~(1ull << o);
	}
}
