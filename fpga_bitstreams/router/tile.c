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

/* May the head flit @m of row buffer @b cross the subswitch now (room, ownership)? */
static inline bool sub_can(const struct tile *t, unsigned int b, const struct fifo_meta *m)
{
	const struct col_vc *c = &t->colvc[m->sub_k];

	if (!c->cred.avail)
		return false;
	return (m->flags & FM_HEAD) ? c->own < 0 : c->own == (int)b;
}

/* Grant row buffer @w of tile @t down its column: returns the flit's FM_TAIL. */
static inline bool sub_grant(struct router *r, struct tile *t, unsigned int w, uint64_t col_at,
			     uint64_t ret_at)
{
	struct flit_fifo *q = &t->rowbuf[w];
	uint32_t fs = fifo_pop(q);
	struct fifo_meta *m = &r->pool.meta[fs];
	struct col_vc *c = &t->colvc[m->sub_k];
	struct tile *ot = &r->tiles[m->port];
	bool tail = m->flags & FM_TAIL;

	c->cred.avail--;
	c->own = tail ? -1 : (int16_t)w;
	m->ready_at = col_at;
	fifo_push(&ot->colbuf[m->col_slot], fs);
	ot->col_nonempty |= 1ull << m->col_slot;
	r->cols_nonempty |= 1ull << m->port;
	if (!q->count)
		t->row_nonempty &= ~(1ull << w);
	credit_line_push(&r->row_ret, ret_at, t->row_src[w]);
	return tail;
}

void tile_subswitch(struct router *r)
{
	const unsigned int speedup = r->p.speedup;
	const uint64_t now = r->now, col_at = now + r->p.lat_sub + r->p.lat_col;
	const uint64_t ret_at = now + r->p.lat_row;

	for (uint64_t gm = r->rows_nonempty; gm; gm &= gm - 1) {
		unsigned int g = (unsigned int)__builtin_ctzll(gm);
		struct tile *t = &r->tiles[g];
		uint64_t req[ROUTER_ROWS_MAX], pat = 0;
		bool iwa = t->sub_arb[0].kind == ARB_IWA;
		uint32_t outs = 0;

		VISIT(sub_tiles);
		/* requests: visible heads whose column buffer VC has room and is theirs */
		for (uint64_t bm = t->row_nonempty; bm; bm &= bm - 1) {
			unsigned int b = (unsigned int)__builtin_ctzll(bm);
			const struct flit_fifo *q = &t->rowbuf[b];
			const struct fifo_meta *m = &r->pool.meta[q->slot[q->head]];
			unsigned int ro;

			VISIT(sub_heads);
			if (m->ready_at > now) {
				VISIT(sub_unseen);
				router_wake(r, m->ready_at);
				continue;
			}
			if (!sub_can(t, b, m)) {
				VISIT(sub_blocked);
				continue;
			}
			VISIT(sub_req);
			ro = m->sub_out;
			if (!(outs & (1u << ro))) {
				outs |= 1u << ro;
				req[ro] = 0;
			}
			req[ro] |= 1ull << b;
			if (iwa && (m->flags & FM_PAT))
				pat |= 1ull << b;
		}
		if (!outs) {
			VISIT(sub_tiles_idle);
			continue;
		}
		r->changed = true;
		/* each subswitch output: up to SPEEDUP grants down its column channel */
		do {
			unsigned int ro = (unsigned int)__builtin_ctz(outs);
			struct arbiter *a = &t->sub_arb[ro];
			uint64_t all = req[ro], left = all;
			unsigned int s = 0;
			int w = arb_pick(a, left);

			r->cnt.sa_conflicts += (all & (all - 1)) != 0;
			for (;;) {
				bool tail = sub_grant(r, t, (unsigned int)w, col_at, ret_at);

				VISIT(sub_moved);
				arb_update(a, w, all, pat, !tail);
				left &= ~(1ull << w);
				if (++s == speedup)
					break;
				/* more grants: a flit granted before may have taken the room */
				for (w = arb_pick(a, left); w >= 0; w = arb_pick(a, left)) {
					const struct flit_fifo *q = &t->rowbuf[w];

					if (sub_can(t, (unsigned int)w, &r->pool.meta[q->slot[q->head]]))
						break;
					left &= ~(1ull << w);
				}
				if (w < 0)
					break;
			}
			outs &= outs - 1;
		} while (outs);
		if (!t->row_nonempty)
			r->rows_nonempty &= ~(1ull << g);
	}
}

void tile_output_mux(struct router *r)
{
	const uint64_t now = r->now, pipe_at = now + r->p.lat_out + r->p.lat_lt;
	const uint64_t ret_at = now + r->p.lat_col;
	struct fifo_meta *const meta = r->pool.meta;
	const uint32_t worm_vcs = r->p.wormhole_vcs;

	for (uint64_t gm = r->cols_nonempty; gm; gm &= gm - 1) {
		unsigned int o = (unsigned int)__builtin_ctzll(gm);
		struct tile *t = &r->tiles[o];
		struct out_port *op = &r->out[o];
		bool usable = out_usable(r, o), full = usable && fifo_full(&op->pipe);
		bool iwa = op->mux_arb.kind == ARB_IWA;
		uint64_t req = 0, pat = 0;
		int w;

		VISIT(mux_outputs);
		/* requests: visible heads that may pass the mux now */
		for (uint64_t bm = t->col_nonempty; bm; bm &= bm - 1) {
			unsigned int b = (unsigned int)__builtin_ctzll(bm);
			const struct flit_fifo *q = &t->colbuf[b];
			const struct fifo_meta *m = &meta[q->slot[q->head]];

			VISIT(mux_heads);
			if (m->ready_at > now) {
				VISIT(mux_unseen);
				router_wake(r, m->ready_at);
				continue;
			}
			if (full) {
				VISIT(mux_blocked);
				continue;
			}
			if (usable) {	/* an unusable output discards: always */
				const struct out_vc *ov = &op->vc[m->vc];
				bool worm = (worm_vcs >> m->vc) & 1;

				if (m->flags & FM_HEAD) {
					/* a head needs its output VC free and, VCT, the whole packet's credits */
					if (ov->owner >= 0) {
						VISIT(mux_blocked);
						continue;
					}
					if (!worm && !credit_has(&ov->cred, m->len ? m->len : 1)) {
						VISIT(mux_blocked);
						output_wait(r, o, m->vc);
						continue;
					}
				} else if (ov->owner != (int)b) {
					VISIT(mux_blocked);
					continue;
				}
				if (worm && !ov->cred.avail) {
					VISIT(mux_blocked);
					output_wait(r, o, m->vc);
					continue;
				}
			}
			VISIT(mux_req);
			req |= 1ull << b;
			if (iwa && (m->flags & FM_PAT))
				pat |= 1ull << b;
		}
		w = arb_pick(&op->mux_arb, req);
		if (w < 0)
			VISIT(mux_outputs_idle);
		if (w >= 0) {
			VISIT(mux_moved);
			struct flit_fifo *q = &t->colbuf[w];
			uint32_t fs = fifo_pop(q);
			struct fifo_meta *m = &meta[fs];
			struct out_vc *ov = &op->vc[m->vc];
			bool worm = (worm_vcs >> m->vc) & 1;
			uint8_t flags = m->flags;
			unsigned int len = m->len;

			r->cnt.sa_conflicts += (req & (req - 1)) != 0;
			if (flags & FM_HEAD) {
				ov->owner = (int16_t)w;
				ov->sent = 0;
				if (!worm && usable)
					credit_take(&ov->cred, len);
			}
			ov->sent++;
			if (!usable) {
				output_discard(r, o, fs);
			} else {
				if (worm)
					ov->cred.avail--;
				m->ready_at = pipe_at;
				fifo_push(&op->pipe, fs);
				r->pipes_nonempty |= 1ull << o;
			}
			if (flags & FM_TAIL) {
				/* a packet shorter than it declared gives back the rest */
				if (!worm && usable && ov->sent < len)
					credit_give(&ov->cred, len - ov->sent);
				ov->owner = -1;
			}
			if (fifo_empty(q))
				t->col_nonempty &= ~(1ull << w);
			credit_line_push(&r->col_ret, ret_at, t->col_src[w]);
			arb_update(&op->mux_arb, w, req, pat, !(flags & FM_TAIL));
			r->changed = true;
		}
		if (!t->col_nonempty)
			r->cols_nonempty &= ~(1ull << o);
	}
}
