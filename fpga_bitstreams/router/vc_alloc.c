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
 * packet may take any free VC of its class (one VC: one class).
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
	iv->rt.drop = (uint8_t)why;
	iv->state = IVC_DROPPING;
	iv->sa_at = r->now + 1;
	r->changed = true;
	(void)port;
}

/* The request of a routed VC; false if it makes none this cycle. */
static bool va_request(struct router *r, unsigned int port, unsigned int vc, struct va_req *q)
{
	struct in_vc *iv = &r->in[port].vc[vc];
	const struct route_result *rt = &iv->rt;
	unsigned int o = rt->port;
	struct out_vc *ov;

	if (rt->drop) {
		va_drop(r, port, iv, (enum route_drop)rt->drop);
		return false;
	}
	q->vc = (uint8_t)vc;
	if (rt->adapt_mask) {
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
		va_drop(r, port, iv, out_drop_reason(r, o));
		return false;
	}
	if (r->p.org == ROUTER_ORG_TILED) {
		/* tiles own output VCs at the output mux: choose a free one if any */
		q->o = (uint8_t)o;
		q->ovc = rt->vc;
		q->adaptive = false;
		for (unsigned int c = rt->vc; c < r->p.vcs; c += r->vc_step) {
			ov = &r->out[o].vc[c];
			if (ov->owner < 0 && out_vct_fits(r, ov, c, rt->flits)) {
				q->ovc = (uint8_t)c;
				break;
			}
		}
		return true;
	}
	/* the deterministic VC, or with generic VCs any free VC of its class */
	for (unsigned int c = rt->vc; c < r->p.vcs; c += r->vc_step) {
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

	if (r->p.org == ROUTER_ORG_XBAR) {
		ov->owner = (int16_t)(port * r->p.vcs + q->vc);
		ov->pkts = 1;
		ov->wanted = false;
		if (!vc_wormhole(r, q->ovc))
			credit_take(&ov->cred, iv->rt.flits);
	}
	iv->state = IVC_ACTIVE;
	iv->out_port = q->o;
	iv->out_vc = q->ovc;
	iv->sa_at = r->now + r->p.lat_va;
	if (iv->rt.counted) {
		if (q->adaptive)
			r->pcnt[q->o].adaptive++;
		else
			r->pcnt[q->o].deterministic++;
	}
	if (q->adaptive)
		r->va_rr++;
	router_wake(r, iv->sa_at);
	r->changed = true;
}

void vc_alloc(struct router *r)
{
	struct va_req win[ROUTER_PORTS_MAX];
	uint8_t win_port[ROUTER_PORTS_MAX];
	uint64_t win_req[ROUTER_PORTS_MAX];
	unsigned int n_win = 0, vcs = r->p.vcs;

	/* stage 1: one request per input port */
	for (uint64_t pm = r->in_active; pm; pm &= pm - 1) {
		unsigned int p = (unsigned int)__builtin_ctzll(pm);
		struct in_port *ip = &r->in[p];
		struct va_req reqs[CHAN_VCS_MAX];
		uint64_t req = 0;
		int w;

		for (uint32_t vm = ip->busy; vm; vm &= vm - 1) {
			unsigned int v = (unsigned int)__builtin_ctz(vm);
			struct in_vc *iv = &ip->vc[v];

			if (iv->state != IVC_ROUTING)
				continue;
			if (iv->va_at > r->now) {
				router_wake(r, iv->va_at);
				continue;
			}
			if (va_request(r, p, v, &reqs[v]))
				req |= 1ull << v;
		}
		w = arb_pick(&ip->va_arb, req);
		if (w < 0)
			continue;
		win[n_win] = reqs[w];
		win_port[n_win] = (uint8_t)p;
		win_req[n_win] = req;
		n_win++;
	}
	/* stage 2: one grant per output VC */
	for (unsigned int i = 0; i < n_win; i++) {
		struct va_req *q = &win[i];
		struct arbiter *oa;
		uint64_t req = 0;
		int g;

		if (q->vc == 0xff)
			continue;	/* already decided with an earlier group */
		for (unsigned int j = i; j < n_win; j++)
			if (win[j].vc != 0xff && win[j].o == q->o && win[j].ovc == q->ovc)
				req |= 1ull << win_port[j];
		oa = &r->out[q->o].va_arb[q->ovc];
		g = arb_pick(oa, req);
		for (unsigned int j = n_win; j-- > i;) {
			struct va_req *qj = &win[j];

			if (qj->vc == 0xff || qj->o != q->o || qj->ovc != q->ovc)
				continue;
			if (win_port[j] == g) {
				struct in_port *ip = &r->in[win_port[j]];

				va_grant(r, win_port[j], qj);
				arb_update(&ip->va_arb, qj->vc, win_req[j], 0, false);
			} else {
				r->cnt.va_conflicts++;
			}
			qj->vc = 0xff;
		}
		arb_update(oa, g, req, 0, false);
	}
	(void)vcs;
}
