// SPDX-License-Identifier: GPL-2.0
/*
 * Input unit: per port and VC a flit buffer and the VC's state machine
 * (idle -> routing -> waiting for an output VC -> active, or dropping).
 *
 * Buffer write (stage BW): a flit on the input wires in cycle t is written
 * at the edge ending t and visible from t + LAT_BW.  The write side checks
 * every flit: a VC beyond VCS, a flit with no free buffer (the sender had
 * no credit), a body or tail flit with no open packet, or a head flit while
 * a packet is open are counted as malformed and dropped, never written.  A
 * packet's head declares its length (len); the flit that reaches it is
 * written as the tail, so no packet is longer than it said.
 *
 * Route computation (stage RC) runs on the head flit as it is written;
 * its result is usable LAT_RC cycles after the head is visible.
 *
 * Multicast: a packet whose route is a set of copies is sent once per
 * copy, network ports in ascending order and then the host, each copy
 * through VA and SA as a packet of its own.  Every copy but the last
 * reads the flits in place (a copy of each flit goes on into the switch)
 * and returns no credit; the last pops them, so the buffer's credits go
 * upstream as the last copy's flits leave.  A copy whose output is down,
 * dead or disabled is skipped with a drop event.
 */
#include "router_int.h"

void input_collect_drop(struct router *r, unsigned int port, unsigned int vc, const uint8_t *data)
{
	drop_collect(input_drop_hdr(r, port, vc), &r->in[port].vc[vc].drop_bytes, data,
		     r->p.flit_bytes);
}

/* The route of the next multicast copy of (@port, @vc), from its mc_left. */
static void input_mc_route(struct router *r, unsigned int port, struct in_vc *iv)
{
	unsigned int bit = (unsigned int)__builtin_ctz(iv->mc_left);
	unsigned int out = bit == 16 ? (unsigned int)r->host_port : bit;
	struct route_hdr h;

	iv->mc_left &= ~(1u << bit);
	route_hdr_read(pool_data(&r->pool, fifo_front(&iv->buf)), &h);
	route_mcast_copy(&r->rcfg, &r->view, port, &h, out, &iv->rt);
}

/* The tail of a multicast copy left (or the copy was skipped): route the next one. */
void input_mc_next(struct router *r, unsigned int port, unsigned int vc)
{
	struct in_port *ip = &r->in[port];
	struct in_vc *iv = &ip->vc[vc];

	input_mc_route(r, port, iv);
	iv->state = IVC_ROUTING;
	iv->sent = 0;
	iv->drop_bytes = 0;
	iv->va_at = r->now + 1;
	ip->routing |= 1u << vc;
	in_port_routing(r, port);
	r->changed = true;
}

/* Skip the current copy of (@port, @vc): its output cannot carry it (@why). */
void input_mc_skip(struct router *r, unsigned int port, unsigned int vc, enum route_drop why)
{
	struct in_vc *iv = &r->in[port].vc[vc];
	uint8_t hdr[LOOM_PKT_HDR_SIZE];
	unsigned int n = 0, fb = r->p.flit_bytes;

	for (unsigned int i = 0; i < iv->buf.count && n < LOOM_PKT_HDR_SIZE; i++) {
		unsigned int k = LOOM_PKT_HDR_SIZE - n < fb ? LOOM_PKT_HDR_SIZE - n : fb;

		memcpy(hdr + n, pool_data(&r->pool, iv->buf.slot[(iv->buf.head + i) & iv->buf.mask]),
		       k);
		n += k;
	}
	router_emit_drop(r, why, port, iv->rt.port, vc, hdr, n);
	input_mc_next(r, port, vc);
}

/* A copy of the next flit of a multicast copy that is not the last (in_next_slot). */
uint32_t input_mc_copy_flit(struct router *r, struct in_vc *iv)
{
	uint32_t src = in_next_slot(iv), s = pool_get(&r->pool);

	r->pool.meta[s] = r->pool.meta[src];
	flit_copy(pool_data(&r->pool, s), pool_data(&r->pool, src), r->p.flit_bytes);
	return s;
}

/* The front flit of (@port, @vc) is a head: start its packet. */
static void input_front_head(struct router *r, unsigned int port, unsigned int vc)
{
	struct in_port *ip = &r->in[port];
	struct in_vc *iv = &ip->vc[vc];
	const struct fifo_meta *m = &r->pool.meta[fifo_front(&iv->buf)];
	uint64_t at = m->ready_at + r->p.lat_rc;

	route_unpack(m->route, &iv->rt);
	route_unpack_ext(m->route_ext, &iv->rt);
	route_unpack_up(m->route_up, &iv->rt);
	iv->rt.forward = (m->flags & FM_FWD) != 0;
	iv->mc_left = 0;
	if (iv->rt.mcast && !iv->rt.drop) {
		iv->mc_left = iv->rt.mc_ports | (iv->rt.mc_host ? IN_MC_HOST : 0);
		input_mc_route(r, port, iv);
	}
	iv->state = IVC_ROUTING;
	iv->sent = 0;
	iv->drop_bytes = 0;
	/* the state register changes at this edge: VA acts next cycle at the earliest */
	iv->va_at = at > r->now + 1 ? at : r->now + 1;
	ip->busy |= 1u << vc;
	ip->routing |= 1u << vc;
	in_port_routing(r, port);
}

void input_front_next(struct router *r, unsigned int port, unsigned int vc)
{
	struct in_port *ip = &r->in[port];
	struct in_vc *iv = &ip->vc[vc];

	if (fifo_empty(&iv->buf)) {
		iv->state = IVC_IDLE;
		ip->busy &= ~(1u << vc);
		ip->routing &= ~(1u << vc);
		in_port_update(r, port);
		return;
	}
	input_front_head(r, port, vc);
}

/* Refuse a flit; a flit on a valid VC that found room gets its credit back. */
static void input_refuse(struct router *r, unsigned int port, const struct flit *f, bool credit)
{
	r->pcnt[port].malformed++;
	if (credit) {
		r->wires[port].in.back.credits[f->vc]++;
		r->in_credited |= 1ull << port;
	}
}

/*
 * The head flit @f on input VC @iv, its data copied to @data: route
 * computation, its result in the flit's sideband @m.
 */
static void input_route_head(struct router *r, unsigned int port, struct in_vc *iv,
			     const struct flit *f, struct fifo_meta *m, uint8_t *data)
{
	struct route_result rt;
	struct route_hdr h;
	uint32_t route;
	uint16_t route_up;
	uint8_t route_ext, flags;

	route_hdr_read(f->data, &h);
	route_compute(&r->rcfg, &r->view, port, f->vc, &h, &rt);
	flags = FM_HEAD | (h.class & 1 ? FM_PAT : 0) | (rt.forward ? FM_FWD : 0);
	route = route_pack(&rt);
	route_ext = route_pack_ext(&rt);
	route_up = route_pack_up(&rt);
	m->word = 0;
	m->route = route;
	m->route_ext = route_ext;
	m->route_up = route_up;
	m->flags = flags;
	if (rt.rewrite) {
		/* Valiant: the header as RC rewrote it (route_valiant) */
		data[4] = (uint8_t)rt.dst_node;
		data[5] = (uint8_t)(rt.dst_node >> 8);
		data[6] = rt.flags;
	}
	iv->rx_left = rt.flits ? rt.flits : 1;
	iv->rx_open = 1;
	r->pcnt[port].pkts_in++;
}

static void input_write_port(struct router *r, unsigned int port)
{
	struct flit *f = &r->wires[port].in.fwd;
	const unsigned int vc = f->vc;
	struct in_vc *iv;
	struct fifo_meta *m;
	uint32_t slot;
	unsigned int fill;
	uint8_t *data;

	f->valid = false;
	if (vc >= r->p.vcs) {
		input_refuse(r, port, f, false);
		return;
	}
	iv = &r->in[port].vc[vc];
	if (fifo_full(&iv->buf)) {
		input_refuse(r, port, f, false);
		return;
	}
	if (iv->rx_open == f->head) {	/* a head inside a packet, a body flit outside one */
		input_refuse(r, port, f, true);
		return;
	}
	slot = pool_get(&r->pool);
	m = &r->pool.meta[slot];
	data = pool_data(&r->pool, slot);
	flit_copy(data, f->data, r->p.flit_bytes);
	m->ready_at = r->now + r->p.lat_bw;
	if (f->head)
		input_route_head(r, port, iv, f, m, data);
	else
		m->word = 0;
	if (f->tail || iv->rx_left <= 1) {
		m->flags |= FM_TAIL;
		iv->rx_open = 0;
	} else {
		iv->rx_left--;
	}
	fifo_push(&iv->buf, slot);
	r->pcnt[port].flits_in++;
	fill = iv->buf.count;
	if (fill > r->vcnt[port * r->p.vcs + vc].fill_max)
		r->vcnt[port * r->p.vcs + vc].fill_max = fill;
	r->changed = true;
	if (fill == 1 && iv->state == IVC_IDLE)
		input_front_head(r, port, vc);
}

/*
 * Stall counters at the end of the edge: an input VC is stalled when its
 * head has passed route computation and is still waiting for an output VC
 * (VA had its chance at this edge), or when it is active with a flit ready
 * for the switch and none of its flits left the buffer at this edge.
 */
void input_count_stalls(struct router *r)
{
	const uint64_t now = r->now;
	const unsigned int V = r->p.vcs;

	for (uint64_t pm = r->in_active; pm; pm &= pm - 1) {
		unsigned int p = (unsigned int)__builtin_ctzll(pm);
		struct in_port *ip = &r->in[p];
		uint32_t stalled = 0;

		VISIT(st_ports);
		for (uint32_t b = ip->busy & ~ip->moved; b; b &= b - 1) {
			unsigned int v = (unsigned int)__builtin_ctz(b);
			const struct in_vc *iv = &ip->vc[v];
			bool stall;

			VISIT(st_vcs);
			if (iv->state == IVC_ROUTING)
				stall = iv->va_at <= now;
			else if (iv->state == IVC_ACTIVE)
				stall = iv->sa_at <= now && in_next_slot(iv) != ROUTER_NO_SLOT &&
					r->pool.meta[in_next_slot(iv)].ready_at <= now;
			else
				stall = false;
			if (stall) {
				stalled |= 1u << v;
				r->vcnt[p * V + v].stall_cycles++;
			}
		}
		ip->stalled = stalled;
		ip->moved = 0;
	}
}

void input_write(struct router *r)
{
	for (uint64_t m = r->in_valid; m; m &= m - 1)
		input_write_port(r, (unsigned int)__builtin_ctzll(m));
}
