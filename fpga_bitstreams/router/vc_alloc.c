// SPDX-License-Identifier: GPL-2.0
/*
 * VC allocator: separable, input first.
 *
 * Stage 1, per input port: every routed VC (state ROUTING, va_at reached)
 * forms one request: the adaptive VC of the least loaded usable minimal
 * port (route_adaptive_pick over the ports whose adaptive VC is free and
 * has credits for the whole packet: T3E whole-packet admission), else its
 * deterministic output VC if that is free (and, for virtual cut-through,
 * has credits for the whole packet).  The input arbiter (ARB_VA_IN) picks
 * one request per input port.  With generic VCs (VC_MODEL 0) the VCs
 * form two classes, even (before a dateline) and odd (past one), and a
 * packet may take any free VC of its class (one VC: one class); a Valiant
 * route on a torus has four, VC mod 4 = 2 x phase + past a dateline
 * (route_vc_step).
 *
 * Stage 2, per output VC: its arbiter (ARB_VA_OUT, over the input ports)
 * grants one of the requests that name it.  The input VC may use the
 * switch LAT_VA cycles after the allocation cycle.
 *
 * Crossbar: a grant makes the output VC owned by that input VC until the
 * packet's tail has crossed the switch, so no output VC is ever held by
 * two packets; virtual cut-through takes the packet's credits at the
 * grant.  Tiles: the grant chooses the output VC (a free one of its class
 * if any); the subswitch owns each column buffer VC and the output mux
 * each output VC from a head to its tail, and the output mux takes the
 * virtual cut-through credits when the head wins it (tile.c), as
 * BlackWidow's split of VC allocation into local and global parts.
 *
 * A DimWAR route (route_dimwar_pick) weighs its minimal port against the
 * deroute ports of the dimension whose VC1 is free with room for the
 * packet: a deroute that wins is requested like an adaptive VC, else the
 * minimal port's VC0 as a deterministic route.
 *
 * An OmniWAR route (route_omniwar_pick) weighs its W0 port against the
 * other minimal ports and the deroute ports whose VC of the packet's next
 * distance class is free with room for the packet; another port that wins
 * is requested like an adaptive VC, else the W0 port's VC as a
 * deterministic route, on that VC alone.
 *
 * An adaptive up-route (route_uproute_pick) takes the up port with the
 * fewest flits outstanding among those with a free VC of its class that
 * has room for the packet, requested like an adaptive VC; when that is
 * the W0 port, the request is the deterministic one.
 *
 * A UGAL route (va_ugal) first chooses, once, between its minimal route
 * and the Valiant one by occupancy x hops, then requests the chosen VC as
 * a deterministic route.
 *
 * A packet whose route is a drop, or whose output is down, dead or
 * disabled with no adaptive alternative, goes to the drop interface
 * instead (state DROPPING).
 */
#include "router_int.h"

struct va_req {
	uint8_t vc;		/* requesting input VC */
	uint8_t o, ovc;		/* requested output VC */
	bool adaptive;
};

/* Start draining (@port, @vc) to the drop interface. */
static void va_drop(struct router *r, unsigned int port, struct in_vc *iv, enum route_drop why)
{
	struct in_port *ip = &r->in[port];

	iv->rt.drop = (uint8_t)why;
	iv->state = IVC_DROPPING;
	ip->routing &= ~(1u << (iv - ip->vc));
	in_port_routed(r, port);
	iv->sa_at = r->now + 1;
	r->changed = true;
}

/*
 * A free VC of class @ovc's (@ovc itself with the card's VCs) on output
 * @o with room for @flits, or -1.
 */
static int va_free_vc(struct router *r, unsigned int o, unsigned int ovc, unsigned int flits)
{
	for (unsigned int c = ovc; c < r->p.vcs; c += r->vc_step) {
		const struct out_vc *av = &r->out[o].vc[c];

		if (av->owner < 0 && credit_has(&av->cred, flits))
			return (int)c;
	}
	return -1;
}

/* Flits output @o has sent downstream and not had credited back, all VCs. */
static uint32_t va_occupancy(const struct router *r, unsigned int o)
{
	uint32_t n = 0;

	for (unsigned int c = 0; c < r->p.vcs; c++)
		n += (uint32_t)(r->out[o].vc[c].cred.max - r->out[o].vc[c].cred.avail);
	return n;
}

/* A choice other than the W0 port @port: request @pick's free VC; else false. */
static bool va_choose(struct va_req *q, unsigned int pick, unsigned int port, const int *free_vc)
{
	if (pick == port)
		return false;
	q->o = (uint8_t)pick;
	q->ovc = (uint8_t)free_vc[pick];
	q->adaptive = true;
	return true;
}

/*
 * DimWAR: weigh the minimal port against the deroute ports whose VC1 is
 * free with room for the whole packet (route_dimwar_pick); true with @q
 * set when a deroute wins.
 */
static bool va_dimwar(struct router *r, const struct route_result *rt, struct va_req *q)
{
	uint32_t occ[32] = { 0 }, usable = 0;
	int free_vc[32];
	unsigned int pick;

	if (rt->port < 32 && out_usable(r, rt->port)) {
		usable |= 1u << rt->port;
		occ[rt->port] = va_occupancy(r, rt->port);
	}
	for (uint32_t m = rt->adapt_mask; m; m &= m - 1) {
		unsigned int a = (unsigned int)__builtin_ctz(m);

		if (a >= r->n_net || !out_usable(r, a))
			continue;
		free_vc[a] = va_free_vc(r, a, rt->adapt_vc, rt->flits);
		if (free_vc[a] < 0)
			continue;
		usable |= 1u << a;
		occ[a] = va_occupancy(r, a);
	}
	pick = route_dimwar_pick(rt->port, rt->adapt_mask, usable, occ, rt->flits,
				 rt->hops_left, r->n_net, r->va_rr);
	return va_choose(q, pick, rt->port, free_vc);
}

/*
 * OmniWAR: weigh the W0 port against the other minimal ports and the
 * deroutes whose VC of the packet's distance class is free with room for
 * the whole packet (route_omniwar_pick); true with @q set when another
 * port wins.
 */
static bool va_omniwar(struct router *r, const struct route_result *rt, struct va_req *q)
{
	uint32_t occ[32] = { 0 }, usable = 0, others;
	int free_vc[32];
	unsigned int pick;

	if (rt->port < 32 && out_usable(r, rt->port)) {
		usable |= 1u << rt->port;
		occ[rt->port] = va_occupancy(r, rt->port);
	}
	others = (uint32_t)(rt->min_mask | rt->adapt_mask) & ~(rt->port < 32 ? 1u << rt->port : 0u);
	for (uint32_t m = others; m; m &= m - 1) {
		unsigned int a = (unsigned int)__builtin_ctz(m);
		const struct out_vc *av;

		if (a >= r->n_net || !out_usable(r, a))
			continue;
		av = &r->out[a].vc[rt->vc];
		if (av->owner >= 0 || !credit_has(&av->cred, rt->flits))
			continue;
		free_vc[a] = rt->vc;
		usable |= 1u << a;
		occ[a] = va_occupancy(r, a);
	}
	pick = route_omniwar_pick(rt->port, rt->min_mask, rt->adapt_mask, usable, occ, rt->flits,
				  rt->hops_left, r->n_net, r->va_rr);
	return va_choose(q, pick, rt->port, free_vc);
}

/*
 * Adaptive up-route: the least occupied up port with a free VC of the
 * class with room for the packet (route_uproute_pick); true with @q set
 * when it is not the W0 port.
 */
static bool va_uproute(struct router *r, const struct route_result *rt, struct va_req *q)
{
	uint32_t occ[ROUTER_PORTS_MAX] = { 0 };
	int free_vc[ROUTER_PORTS_MAX];
	uint64_t usable = 0;
	unsigned int pick;

	/* the up ports and the W0 port: usable with a free VC of the class */
	for (unsigned int a = rt->up_first; a <= r->n_net; a++) {
		unsigned int o = a < r->n_net ? a : rt->port;

		if (o >= r->n_net || (usable >> o & 1) || !out_usable(r, o))
			continue;
		free_vc[o] = va_free_vc(r, o, rt->vc, rt->flits);
		if (free_vc[o] < 0)
			continue;
		usable |= 1ull << o;
		occ[o] = va_occupancy(r, o);
	}
	pick = route_uproute_pick(rt->port, rt->up_first, usable, occ, r->n_net, r->va_rr);
	return va_choose(q, pick, rt->port, free_vc);
}

/*
 * UGAL, once per packet at its first VC allocation: the minimal route
 * (RC's port, on VC1) against the Valiant one toward the intermediate the
 * head flit carries in dst_node bits 15:8 (on VC0), whose port and hops RC
 * read from the intermediate's entry, weighed by route_ugal_pick with the
 * Valiant hops estimated as the hops to the intermediate plus the minimal
 * hops.  The choice rewrites the route; switch allocation writes it into
 * the header (sa_head_update).
 */
static void va_ugal(struct router *r, struct in_vc *iv)
{
	struct route_result *rt = &iv->rt;
	bool val_ok = out_usable(r, rt->ugal_port);
	uint32_t occ_min = 0, occ_val = 0;

	if (out_usable(r, rt->port))
		occ_min = va_occupancy(r, rt->port);
	if (val_ok)
		occ_val = va_occupancy(r, rt->ugal_port);
	if (!route_ugal_pick(occ_min, rt->hops_left, out_usable(r, rt->port), occ_val,
			     rt->ugal_hops + rt->hops_left, val_ok, rt->flits)) {
		rt->ugal = ROUTE_UGAL_MIN;
		return;
	}
	rt->ugal = ROUTE_UGAL_VAL;
	rt->port = rt->ugal_port;
	if (rt->val_dl) {
		/* phase 0 starts as injected: the intermediate's START_VC1 */
		rt->vc1 = rt->ugal_vc1;
		rt->vc = route_val_dl_vc(0, rt->vc1);
		return;
	}
	rt->vc1 = false;
	rt->vc = r->rcfg.card_vcs ?
		 (uint8_t)route_vc_of((uint8_t)route_class_of_vc(rt->vc), false, false) : 0;
}

/* The request of a routed VC; false if it makes none this cycle. */
static bool va_request(struct router *r, unsigned int port, unsigned int vc, struct va_req *q)
{
	struct in_vc *iv = &r->in[port].vc[vc];
	const struct route_result *rt = &iv->rt;
	unsigned int o;
	struct out_vc *ov;
	unsigned int step;

	if (rt->drop) {
		va_drop(r, port, iv, (enum route_drop)rt->drop);
		return false;
	}
	if (rt->ugal == ROUTE_UGAL_PENDING)
		va_ugal(r, iv);
	o = rt->port;
	q->vc = (uint8_t)vc;
	/* OmniWAR's distance class is one VC, never any VC of a class */
	step = route_vc_step(rt, r->vc_step, r->p.vcs);
	if (rt->omniwar) {
		if (rt->counted && va_omniwar(r, rt, q))
			return true;
	} else if (rt->dimwar) {
		if (rt->adapt_mask && va_dimwar(r, rt, q))
			return true;
	} else if (rt->uproute) {
		if (va_uproute(r, rt, q))
			return true;
	} else if (rt->adapt_mask) {
		uint32_t credits[32] = { 0 }, usable = 0;
		int pick;

		for (uint32_t m = rt->adapt_mask; m; m &= m - 1) {
			unsigned int a = (unsigned int)__builtin_ctz(m);
			const struct out_vc *av;

			if (a >= r->n_net || !out_usable(r, a))
				continue;
			usable |= 1u << a;
			av = &r->out[a].vc[rt->adapt_vc];
			if (av->owner < 0 && credit_has(&av->cred, rt->flits))
				credits[a] = av->cred.avail;
		}
		pick = route_adaptive_pick(rt->adapt_mask, usable, credits, r->n_net, (int)o,
					   r->va_rr);
		if (pick >= 0) {
			q->o = (uint8_t)pick;
			q->ovc = rt->adapt_vc;
			q->adaptive = true;
			return true;
		}
	}
	if (!out_usable(r, o)) {
		if (iv->mc_left)	/* a multicast copy: the next one goes on */
			input_mc_skip(r, port, vc, out_drop_reason(r, o));
		else
			va_drop(r, port, iv, out_drop_reason(r, o));
		return false;
	}
	if (r->p.org == ROUTER_ORG_TILED) {
		/* tiles own output VCs at the output mux: choose a free one if any */
		q->o = (uint8_t)o;
		q->ovc = rt->vc;
		q->adaptive = false;
		for (unsigned int c = rt->vc; c < r->p.vcs; c += step) {
			ov = &r->out[o].vc[c];
			if (ov->owner < 0 && out_vct_fits(r, ov, c, rt->flits)) {
				q->ovc = (uint8_t)c;
				break;
			}
		}
		return true;
	}
	/* the deterministic VC, or with generic VCs any free VC of its class */
	for (unsigned int c = rt->vc; c < r->p.vcs; c += step) {
		ov = &r->out[o].vc[c];
		if (ov->owner >= 0) {
			if (ov->owner != (int)(port * r->p.vcs + vc))
				ov->wanted = true;
			continue;
		}
		if (!out_vct_fits(r, ov, c, rt->flits)) {
			output_wait(r, o, c);
			continue;
		}
		q->o = (uint8_t)o;
		q->ovc = (uint8_t)c;
		q->adaptive = false;
		return true;
	}
	return false;
}

static void va_grant(struct router *r, unsigned int port, const struct va_req *q)
{
	struct in_vc *iv = &r->in[port].vc[q->vc];
	struct out_vc *ov = &r->out[q->o].vc[q->ovc];

	VISIT(va_granted);
	if (r->p.org == ROUTER_ORG_XBAR) {
		ov->owner = (int16_t)(port * r->p.vcs + q->vc);
		ov->pkts = 1;
		ov->wanted = false;
		if (!vc_wormhole(r, q->ovc))
			credit_take(&ov->cred, iv->rt.flits);
	}
	iv->state = IVC_ACTIVE;
	r->in[port].routing &= ~(1u << q->vc);
	in_port_routed(r, port);
	iv->out_port = q->o;
	iv->out_vc = q->ovc;
	/*
	 * TILED: the row buffer at the subswitch where the row meets the
	 * output's column, the subswitch output and column buffer VC it asks
	 * for there, and the column buffer it fills at the output's tile.
	 */
	iv->row_tile = (uint8_t)(r->port_row[port] * r->p.cols + r->port_col[q->o]);
	iv->row_k = (uint8_t)(r->port_col[q->o] * r->p.vcs + q->vc);
	{
		struct fifo_meta f = { .word = 0 };

		f.vc = q->ovc;
		f.port = q->o;
		f.len = iv->rt.flits;
		f.sub_out = r->port_row[q->o];
		f.sub_k = (uint8_t)(r->port_row[q->o] * r->p.vcs + q->ovc);
		f.col_slot = (uint8_t)(r->port_row[port] * r->p.vcs + q->ovc);
		iv->fwd = f.word;
	}
	iv->sa_at = r->now + r->p.lat_va;
	if (iv->rt.counted) {
		if (q->adaptive)
			r->pcnt[q->o].adaptive++;
		else
			r->pcnt[q->o].deterministic++;
	}
	if (q->adaptive)
		r->va_rr++;
	r->changed = true;
}

void vc_alloc(struct router *r)
{
	struct va_req win[ROUTER_PORTS_MAX];
	uint8_t win_port[ROUTER_PORTS_MAX];
	uint16_t win_key[ROUTER_PORTS_MAX];	/* the output VC it asks for */
	uint64_t win_req[ROUTER_PORTS_MAX], left;
	unsigned int n_win = 0;
	const uint64_t now = r->now;

	/* stage 1: one request per input port */
	for (uint64_t pm = r->va_ports; pm; pm &= pm - 1) {
		unsigned int p = (unsigned int)__builtin_ctzll(pm);
		struct in_port *ip = &r->in[p];
		struct va_req reqs[CHAN_VCS_MAX];
		uint64_t req = 0;
		int w;

		VISIT(va_ports);
		for (uint32_t vm = ip->routing; vm; vm &= vm - 1) {
			unsigned int v = (unsigned int)__builtin_ctz(vm);
			uint64_t at = ip->vc[v].va_at;

			VISIT(va_vcs);
			if (at > now) {
				VISIT(va_unseen);
				router_wake(r, at);
				continue;
			}
			if (va_request(r, p, v, &reqs[v])) {
				VISIT(va_req);
				req |= 1ull << v;
			}
		}
		w = arb_pick(&ip->va_arb, req);
		if (w < 0) {
			VISIT(va_ports_idle);
			continue;
		}
		win[n_win] = reqs[w];
		win_port[n_win] = (uint8_t)p;
		win_key[n_win] = (uint16_t)(reqs[w].o * CHAN_VCS_MAX + reqs[w].ovc);
		win_req[n_win] = req;
		n_win++;
	}
	/* stage 2: one grant per output VC, output VCs in the order first asked for */
	left = n_win >= 64 ? ~0ull : (1ull << n_win) - 1;
	while (left) {
		unsigned int i = (unsigned int)__builtin_ctzll(left), key = win_key[i];
		struct arbiter *oa = &r->out[win[i].o].vc[win[i].ovc].va_arb;
		uint64_t group = 0, req = 0;
		unsigned int members = 0;
		int g;

		for (uint64_t m = left; m; m &= m - 1) {
			unsigned int j = (unsigned int)__builtin_ctzll(m);

			if (win_key[j] == key) {
				group |= 1ull << j;
				req |= 1ull << win_port[j];
				members++;
			}
		}
		g = arb_pick(oa, req);
		/* the input ports asking are distinct: one of them wins */
		for (uint64_t m = group; m; m &= m - 1) {
			unsigned int j = (unsigned int)__builtin_ctzll(m);

			if (win_port[j] == g) {
				va_grant(r, win_port[j], &win[j]);
				arb_update(&r->in[win_port[j]].va_arb, win[j].vc, win_req[j], 0, false);
				break;
			}
		}
		r->cnt.va_conflicts += members - 1;
		arb_update(oa, g, req, 0, false);
		left &= ~group;
	}
}
