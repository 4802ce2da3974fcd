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
 *    LAT_COL cycles after a flit leaves.  An output VC belongs to one
 *    packet at a time, so its flits never interleave in a column buffer.
 *  - Output mux: the output's arbiter (ARB_OUT) over the ROWS x VCS column
 *    buffers whose head may leave (wormhole: a downstream credit; virtual
 *    cut-through: reserved at VC allocation) while the output stage has
 *    room; the winner is on the wire LAT_OUT + LAT_LT cycles later.  The
 *    tail passing the mux frees its output VC.
 *
 * A packet therefore crosses the grid in at most one row hop and one
 * column hop.  With ROWS = 1 the organisation is the fully buffered
 * crossbar: row buffers are the crosspoint buffers of the input row.
 */
#include "router_int.h"

void tile_subswitch(struct router *r)
{
	unsigned int cols = r->p.cols, vcs = r->p.vcs, rows = r->p.rows;

	for (uint64_t gm = r->rows_nonempty; gm; gm &= gm - 1) {
		unsigned int g = (unsigned int)__builtin_ctzll(gm);
		struct tile *t = &r->tiles[g];
		uint64_t req[ROUTER_ROWS_MAX] = { 0 }, pat = 0;
		uint32_t outs = 0;

		for (uint64_t bm = t->row_nonempty; bm; bm &= bm - 1) {
			unsigned int b = (unsigned int)__builtin_ctzll(bm);
			const struct flit_fifo *q = &t->rowbuf[b];
			const struct fifo_meta *m = fifo_front(q);
			unsigned int ro;

			if (m->ready_at > r->now) {
				router_wake(r, m->ready_at);
				continue;
			}
			ro = m->port / cols;
			if (!credit_has(&t->colcred[ro * vcs + m->vc], 1))
				continue;
			req[ro] |= 1ull << b;
			outs |= 1u << ro;
			if (m->flags & FM_PAT)
				pat |= 1ull << b;
		}
		for (; outs; outs &= outs - 1) {
			unsigned int ro = (unsigned int)__builtin_ctz(outs);
			struct arbiter *a = &t->sub_arb[ro];
			uint64_t all = req[ro], left = all;

			for (unsigned int s = 0; s < r->p.speedup && left; s++) {
				int w = arb_pick(a, left);
				struct flit_fifo *q = &t->rowbuf[w];
				struct fifo_meta m = *fifo_front(q);
				unsigned int og = ro * cols + t->col, ci = (unsigned int)w / vcs;
				struct tile *ot = &r->tiles[og];
				unsigned int slot = t->row * vcs + m.vc;

				if (s == 0)
					r->cnt.sa_conflicts += (unsigned int)__builtin_popcountll(left) - 1;
				left &= ~(1ull << w);
				credit_take(&t->colcred[ro * vcs + m.vc], 1);
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
	(void)rows;
}

void tile_output_mux(struct router *r)
{
	unsigned int cols = r->p.cols, vcs = r->p.vcs;

	for (uint64_t gm = r->cols_nonempty; gm; gm &= gm - 1) {
		unsigned int o = (unsigned int)__builtin_ctzll(gm);
		struct tile *t = &r->tiles[o];
		struct out_port *op = &r->out[o];
		bool usable = out_usable(r, o);
		uint64_t req = 0, pat = 0;
		int w;

		for (uint64_t bm = t->col_nonempty; bm; bm &= bm - 1) {
			unsigned int b = (unsigned int)__builtin_ctzll(bm);
			const struct fifo_meta *m = fifo_front(&t->colbuf[b]);

			if (m->ready_at > r->now) {
				router_wake(r, m->ready_at);
				continue;
			}
			if (usable) {
				if (fifo_full(&op->pipe))
					continue;
				if (vc_wormhole(r, m->vc) && !credit_has(&op->vc[m->vc].cred, 1)) {
					output_wait(r, o, m->vc);
					continue;
				}
			}
			req |= 1ull << b;
			if (m->flags & FM_PAT)
				pat |= 1ull << b;
		}
		w = arb_pick(&op->mux_arb, req);
		if (w >= 0) {
			struct flit_fifo *q = &t->colbuf[w];
			struct fifo_meta m = *fifo_front(q);
			unsigned int ri = (unsigned int)w / vcs;

			r->cnt.sa_conflicts += (unsigned int)__builtin_popcountll(req) - 1;
			if (!usable) {
				output_discard(r, o, &m, fifo_front_data(q));
			} else {
				if (vc_wormhole(r, m.vc))
					credit_take(&op->vc[m.vc].cred, 1);
				m.ready_at = r->now + r->p.lat_out + r->p.lat_lt;
				fifo_push(&op->pipe, &m, fifo_front_data(q));
				r->pipes_nonempty |= 1ull << o;
				router_wake(r, m.ready_at - 1);
			}
			fifo_pop(q);
			if (fifo_empty(q))
				t->col_nonempty &= ~(1ull << w);
			credit_line_push(&r->col_ret, r->now + r->p.lat_col,
					 &r->tiles[ri * cols + t->col].colcred[t->row * vcs + m.vc]);
			if (m.flags & FM_TAIL)
				output_release(r, o, m.vc);
			arb_update(&op->mux_arb, w, req, pat, !(m.flags & FM_TAIL));
			r->changed = true;
		}
		if (!t->col_nonempty)
			r->cols_nonempty &= ~(1ull << o);
	}
}
