// SPDX-License-Identifier: GPL-2.0
/*
 * Switch allocator: separable, input first.
 *
 * Input stage (every organisation): per input port, the VCs that may send
 * a flit this cycle request: active VCs whose next flit is visible, whose
 * SA stage has come (sa_at) and whose next buffer has room, and dropping
 * VCs (they drain into the drop interface).  The input arbiter
 * (ARB_SA_IN) grants up to SPEEDUP of them.
 *
 * TILED: a granted flit goes on the input's row bus into the row buffer of
 * its input VC at the subswitch where the row meets the output's column
 * (visible there LAT_SA + LAT_ROW cycles later); the input holds one
 * credit per row buffer and VC, so the row bus needs no output stage.
 *
 * XBAR: the output stage arbiter of each output port (ARB_SA_OUT, over
 * the input ports) grants one of the inputs that chose it (SPEEDUP with an
 * output buffer), and the flit crosses the crossbar into the output
 * register stage, on the wire LAT_SA + LAT_ST + LAT_LT cycles later.
 * Inputs that lose do not retry in the same cycle.
 *
 * A head flit leaving toward a network port gets its hops incremented and
 * its VC1/ADAPTIVE flags set here.  When a tail leaves, an unused part of
 * a virtual cut-through reservation goes back to the credit counter, and
 * the next packet of the same input VC takes over the output VC at once
 * if it was routed to the same one, nobody else asked for it and it has
 * the credits (no allocation bubble between packets of one stream).
 */
#include "router_int.h"

/* May the next packet of (@port, @vc) keep the output VC its predecessor had? */
static bool sa_chain(struct router *r, unsigned int port, struct in_vc *iv)
{
	const struct fifo_meta *m;
	struct route_result rt;
	struct out_vc *ov;
	unsigned int step;

	if (fifo_empty(&iv->buf))
		return false;
	m = &r->pool.meta[fifo_front(&iv->buf)];
	if (m->ready_at + r->p.lat_rc > r->now + 1)
		return false;
	route_unpack(m->route, &rt);
	route_unpack_ext(m->route_ext, &rt);
	route_unpack_up(m->route_up, &rt);
	ov = &r->out[iv->out_port].vc[iv->out_vc];
	step = route_vc_step(&rt, r->vc_step, r->p.vcs);
	/* no chaining past a multicast copy or a UGAL packet (it chooses at VA) */
	if (rt.drop || rt.mcast || rt.ugal || rt.port != iv->out_port ||
	    rt.vc % step != iv->out_vc % step ||
	    (rt.omniwar && rt.vc != iv->out_vc) ||
	    rt.vc > iv->out_vc || !out_usable(r, iv->out_port))
		return false;
	if (r->p.org == ROUTER_ORG_XBAR &&
	    (ov->wanted || !out_vct_fits(r, ov, iv->out_vc, rt.flits)))
		return false;
	rt.forward = (m->flags & FM_FWD) != 0;
	if (r->p.org == ROUTER_ORG_XBAR) {
		if (!vc_wormhole(r, iv->out_vc))
			credit_take(&ov->cred, rt.flits);
		ov->pkts++;
	}
	iv->rt = rt;
	{
		struct fifo_meta f = { .word = iv->fwd };

		f.len = rt.flits;
		iv->fwd = f.word;
	}
	iv->sent = 0;
	iv->drop_bytes = 0;
	iv->sa_at = r->now + 1;
	if (rt.counted)
		r->pcnt[iv->out_port].deterministic++;
	(void)port;
	return true;
}

/* The tail of the front packet of (@port, @vc) left the input buffer. */
static void sa_packet_done(struct router *r, unsigned int port, unsigned int vc)
{
	struct in_vc *iv = &r->in[port].vc[vc];

	if (iv->state == IVC_DROPPING) {
		router_emit_drop(r, (enum route_drop)iv->rt.drop, port,
				 iv->rt.drop <= ROUTE_DROP_MALFORMED ? 0xff : iv->rt.port, vc,
				 input_drop_hdr(r, port, vc), iv->drop_bytes);
		input_front_next(r, port, vc);
		return;
	}
	if (r->p.org == ROUTER_ORG_XBAR && !vc_wormhole(r, iv->out_vc) && iv->sent < iv->rt.flits)
		credit_give(&r->out[iv->out_port].vc[iv->out_vc].cred,
			    (unsigned int)(iv->rt.flits - iv->sent));
	{
		unsigned int o = iv->out_port, ovc = iv->out_vc;

		if (iv->mc_left)
			input_mc_next(r, port, vc);	/* the next multicast copy */
		else if (!sa_chain(r, port, iv))
			input_front_next(r, port, vc);
		if (r->p.org == ROUTER_ORG_XBAR)
			output_release(r, o, ovc);
	}
}

/*
 * A head flit leaving toward a network port: hops, the VC1/ADAPTIVE flags
 * and UGAL's choice (Valiant: the phase flag; minimal: the intermediate
 * cleared from dst_node).
 */
static void sa_head_update(struct router *r, const struct in_vc *iv, uint8_t *data)
{
	struct route_hdr h;

	route_hdr_read(data, &h);
	h.hops++;
	h.flags &= (uint8_t)~(LOOM_PKT_F_VC1 | LOOM_PKT_F_ADAPTIVE);
	if (iv->rt.vc1)
		h.flags |= LOOM_PKT_F_VC1;
	if (r->rcfg.card_vcs && route_vc_adaptive(iv->out_vc))
		h.flags |= LOOM_PKT_F_ADAPTIVE;
	if (iv->rt.ugal == ROUTE_UGAL_VAL)
		h.flags |= LOOM_PKT_F_VAL_PHASE;
	else if (iv->rt.ugal == ROUTE_UGAL_MIN)
		data[5] = 0;
	route_hdr_write(data, &h);
}

/* The front flit of dropping (@port, @vc) drained into the drop collector. */
static void sa_drain(struct router *r, unsigned int port, unsigned int vc, uint32_t s)
{
	input_collect_drop(r, port, vc, pool_data(&r->pool, s));
	pool_put(&r->pool, s);
}

/*
 * Take the front flit of (@port, @vc) out of the input buffer: credit
 * upstream, header update, tail handling.  Returns its pool slot if it
 * goes on into the switch, ROUTER_NO_SLOT if it was drained to the drop
 * interface; @flags gets its FM_* flags either way.
 */
static inline __attribute__((always_inline)) uint32_t
sa_take(struct router *r, unsigned int port, unsigned int vc, uint8_t *flags)
{
	struct in_vc *iv = &r->in[port].vc[vc];
	uint32_t s = iv->mc_left ? input_mc_copy_flit(r, iv) : fifo_pop(&iv->buf);
	struct fifo_meta *m = &r->pool.meta[s];

	VISIT(sa_moved);
	r->in[port].moved |= 1u << vc;
	*flags = m->flags;
	if (!iv->mc_left) {	/* a multicast copy but the last leaves its flit */
		r->wires[port].in.back.credits[vc]++;
		r->in_credited |= 1ull << port;
	}
	r->changed = true;
	if (iv->state != IVC_ACTIVE) {
		sa_drain(r, port, vc, s);
		s = ROUTER_NO_SLOT;
	} else {
		if ((*flags & FM_HEAD) && iv->rt.forward)
			sa_head_update(r, iv, pool_data(&r->pool, s));
		iv->sent++;
		fifo_meta_forward(m, iv->fwd);
	}
	if (*flags & FM_TAIL)
		sa_packet_done(r, port, vc);
	return s;
}

/*
 * Requests of input @p's switching (active or dropping) VCs.  TILED: an
 * active VC needs a credit of its row buffer; XBAR: room in the output
 * stage and, wormhole, a credit of its output VC.
 */
static inline __attribute__((always_inline)) uint64_t
sa_requests(struct router *r, unsigned int p)
{
	const struct in_port *ip = &r->in[p];
	const uint64_t now = r->now;
	const bool tiled = r->p.org == ROUTER_ORG_TILED;
	uint64_t req = 0;

	for (uint32_t vm = ip->busy & ~ip->routing; vm; vm &= vm - 1) {
		unsigned int v = (unsigned int)__builtin_ctz(vm);
		const struct in_vc *iv = &ip->vc[v];
		uint64_t at;
		uint32_t s;

		VISIT(sa_heads);
		if (iv->sa_at > now) {
			VISIT(sa_unseen);
			router_wake(r, iv->sa_at);
			continue;
		}
		s = in_next_slot(iv);
		if (s == ROUTER_NO_SLOT) {
			VISIT(sa_unseen);
			continue;	/* the next flit has not arrived */
		}
		at = r->pool.meta[s].ready_at;
		if (at > now) {
			VISIT(sa_unseen);
			router_wake(r, at);
			continue;
		}
		if (iv->state == IVC_ACTIVE) {
			unsigned int o = iv->out_port;

			if (tiled) {
				if (!ip->rowcred[iv->row_k].avail) {
					VISIT(sa_blocked);
					continue;
				}
			} else if (out_usable(r, o)) {
				struct out_port *op = &r->out[o];

				if (fifo_full(&op->pipe)) {
					VISIT(sa_blocked);
					continue;
				}
				if (vc_wormhole(r, iv->out_vc) &&
				    !credit_has(&op->vc[iv->out_vc].cred, 1)) {
					VISIT(sa_blocked);
					output_wait(r, o, iv->out_vc);
					continue;
				}
			}
		}
		VISIT(sa_req);
		req |= 1ull << v;
	}
	return req;
}

/* Arbitration pattern of the requesters (IWA weights): their route's VC class. */
static uint64_t sa_pattern(const struct in_port *ip, uint64_t req)
{
	uint64_t pat = 0;

	if (ip->sa_arb.kind != ARB_IWA)
		return 0;	/* only the inverse-weighted arbiter reads it */
	for (uint64_t m = req; m; m &= m - 1) {
		unsigned int v = (unsigned int)__builtin_ctzll(m);

		if (ip->vc[v].rt.vc & 1)
			pat |= 1ull << v;
	}
	return pat;
}

static void sa_tiled(struct router *r)
{
	const unsigned int speedup = r->p.speedup;
	const uint64_t row_at = r->now + r->p.lat_sa + r->p.lat_row;
	struct fifo_meta *const meta = r->pool.meta;

	for (uint64_t pm = r->sa_ports; pm; pm &= pm - 1) {
		unsigned int p = (unsigned int)__builtin_ctzll(pm);
		struct in_port *ip = &r->in[p];
		uint64_t req = sa_requests(r, p), pat;

		VISIT(sa_ports);
		if (!req) {
			VISIT(sa_ports_idle);
			continue;
		}
		pat = sa_pattern(ip, req);
		r->cnt.sa_conflicts += (req & (req - 1)) != 0;
		for (unsigned int s = 0; s < speedup && req; s++) {
			int w = arb_pick(&ip->sa_arb, req);
			struct in_vc *iv = &ip->vc[w];
			bool copy = iv->mc_left != 0;
			uint32_t fs = copy ? input_mc_copy_flit(r, iv) : fifo_pop(&iv->buf);
			struct fifo_meta *m = &meta[fs];
			uint8_t flags = m->flags;

			VISIT(sa_moved);
			ip->moved |= 1u << w;
			req &= ~(1ull << w);
			/* its buffer slot is free: the credit goes upstream */
			if (!copy) {
				r->wires[p].in.back.credits[w]++;
				r->in_credited |= 1ull << p;
			}
			r->changed = true;
			if (iv->state == IVC_ACTIVE) {
				/* on the row bus into its row buffer at the subswitch */
				struct tile *t = &r->tiles[iv->row_tile];
				unsigned int b = ip->row_slot + (unsigned int)w;

				if ((flags & FM_HEAD) && iv->rt.forward)
					sa_head_update(r, iv, pool_data(&r->pool, fs));
				iv->sent++;
				fifo_meta_forward(m, iv->fwd);
				m->ready_at = row_at;
				ip->rowcred[iv->row_k].avail--;
				fifo_push(&t->rowbuf[b], fs);
				t->row_nonempty |= 1ull << b;
				r->rows_nonempty |= 1ull << iv->row_tile;
			} else {
				sa_drain(r, p, (unsigned int)w, fs);
			}
			if (flags & FM_TAIL)
				sa_packet_done(r, p, (unsigned int)w);
			arb_update(&ip->sa_arb, w, req | 1ull << w, pat, !(flags & FM_TAIL));
		}
	}
}

static void sa_xbar(struct router *r)
{
	uint64_t out_req[ROUTER_PORTS_MAX], outs = 0;	/* out_req[o]: set once o is in outs */
	uint8_t in_vc_of[ROUTER_PORTS_MAX][ROUTER_SPEEDUP_MAX];
	uint64_t in_req[ROUTER_PORTS_MAX], in_pat[ROUTER_PORTS_MAX];
	uint8_t n_picks[ROUTER_PORTS_MAX];
	unsigned int room[ROUTER_PORTS_MAX];

	/* input stage */
	for (uint64_t pm = r->sa_ports; pm; pm &= pm - 1) {
		unsigned int p = (unsigned int)__builtin_ctzll(pm);
		struct in_port *ip = &r->in[p];
		uint64_t req = sa_requests(r, p), left = req, used = 0;

		VISIT(sa_ports);
		if (!req)
			VISIT(sa_ports_idle);
		in_req[p] = req;
		in_pat[p] = sa_pattern(ip, req);
		n_picks[p] = 0;
		for (unsigned int s = 0; s < r->p.speedup && left; s++) {
			int w = arb_pick(&ip->sa_arb, left);
			struct in_vc *iv = &ip->vc[w];

			left &= ~(1ull << w);
			if (iv->state == IVC_DROPPING) {
				uint8_t flags;

				sa_take(r, p, (unsigned int)w, &flags);
				arb_update(&ip->sa_arb, w, req, in_pat[p], !(flags & FM_TAIL));
				continue;
			}
			if (used & (1ull << iv->out_port)) {
				s--;	/* one flit per output per input and cycle */
				continue;
			}
			used |= 1ull << iv->out_port;
			in_vc_of[p][n_picks[p]++] = (uint8_t)w;
			if (!(outs & (1ull << iv->out_port)))
				out_req[iv->out_port] = 0;
			out_req[iv->out_port] |= 1ull << p;
			outs |= 1ull << iv->out_port;
		}
	}
	/* output stage */
	for (uint64_t om = outs; om; om &= om - 1) {
		unsigned int o = (unsigned int)__builtin_ctzll(om);
		struct out_port *op = &r->out[o];
		uint64_t req = out_req[o];
		struct fifo_meta *m;

		VISIT(sao_outputs);
		VISITS(sao_req, (uint64_t)__builtin_popcountll(req));
		room[o] = op->pipe.cap - op->pipe.count;
		if (room[o] > r->p.speedup)
			room[o] = r->p.speedup;
		if (!out_usable(r, o))
			room[o] = r->p.speedup;
		for (unsigned int s = 0; s < room[o] && req; s++) {
			int g = arb_pick(&op->sa_arb, req);
			unsigned int p = (unsigned int)g, v = 0;
			uint32_t fs;
			uint8_t flags;

			req &= ~(1ull << g);
			for (unsigned int k = 0; k < n_picks[p]; k++) {
				v = in_vc_of[p][k];
				if (r->in[p].vc[v].state == IVC_ACTIVE && r->in[p].vc[v].out_port == o)
					break;
			}
			fs = sa_take(r, p, v, &flags);
			arb_update(&op->sa_arb, g, out_req[o], 0, !(flags & FM_TAIL));
			arb_update(&r->in[p].sa_arb, (int)v, in_req[p], in_pat[p], !(flags & FM_TAIL));
			if (!out_usable(r, o)) {
				output_discard(r, o, fs);
				continue;
			}
			m = &r->pool.meta[fs];
			if (vc_wormhole(r, m->vc))
				credit_take(&op->vc[m->vc].cred, 1);
			m->ready_at = r->now + r->p.lat_sa + r->p.lat_st + r->p.lat_lt;
			fifo_push(&op->pipe, fs);
			r->pipes_nonempty |= 1ull << o;
		}
		r->cnt.sa_conflicts += req != 0;
	}
}

void sw_alloc(struct router *r)
{
	if (r->p.org == ROUTER_ORG_TILED)
		sa_tiled(r);
	else
		sa_xbar(r);
}
