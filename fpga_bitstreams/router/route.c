// SPDX-License-Identifier: GPL-2.0
/*
 * Route computation.  Table routing (T3E style): the entry indexed by the
 * logical destination names an output port or the host; loops are cut by
 * the hop limit.  The VC model and the adaptive choice as documented in
 * Documentation/hw/routing.rst.
 */
#include "route.h"

#include <string.h>

/* The table decision for a packet of @hops hops toward @dst (router_decide). */
static inline struct router_decision decide(const struct route_view *v, unsigned int n_ports,
					    unsigned int hops, unsigned int dst)
{
	struct router_decision d = { .verdict = ROUTE_NO_ROUTE, .port = 0 };
	unsigned int port, host;
	uint32_t w0, w1;

	if (hops >= LOOM_PKT_MAX_HOPS) {
		d.verdict = ROUTE_HOP_LIMIT;
		return d;
	}
	if (dst >= v->rt_entries)
		return d;
	w0 = v->rt[2 * dst];
	if (!(w0 & LOOM_RT_W0_VALID))
		return d;
	if (v->wide_ports) {
		port = (w0 & LOOM_RT_W0_WIDE_PORT_MASK) >> LOOM_RT_W0_WIDE_PORT_SHIFT;
		host = LOOM_RT_WIDE_PORT_HOST;
	} else {
		port = w0 & LOOM_RT_W0_PORT_MASK;
		host = LOOM_RT_PORT_HOST;
	}
	/* Valiant: host entries too (the intermediate's) */
	d.valiant = (w0 & LOOM_RT_W0_VALIANT) != 0;
	d.ugal = d.valiant && (w0 & LOOM_RT_W0_UGAL);
	d.val_dl = d.valiant && (w0 & LOOM_RT_W0_VAL_DATELINES);
	w1 = v->rt[2 * dst + 1];
	d.val_last = (w1 & LOOM_RT_W1_VAL_LAST_MASK) >> LOOM_RT_W1_VAL_LAST_SHIFT;
	if (port == host) {
		d.verdict = ROUTE_HOST;
	} else if (port < n_ports) {
		d.verdict = ROUTE_PORT;
		d.port = port;
		d.adaptive = (w0 & LOOM_RT_W0_ADAPTIVE) != 0;
		d.adapt_ports = (w1 & LOOM_RT_W1_ADAPT_PORTS_MASK) >> LOOM_RT_W1_ADAPT_PORTS_SHIFT;
		if (!d.adapt_ports && port < 32)
			d.adapt_ports = 1u << port;
		if (n_ports < 32)
			d.adapt_ports &= (1u << n_ports) - 1;
		d.dimwar = (w0 & LOOM_RT_W0_DIMWAR) != 0;
		d.hops_left = (w0 & LOOM_RT_W0_HOPS_MASK) >> LOOM_RT_W0_HOPS_SHIFT;
		d.omniwar = (w0 & LOOM_RT_W0_OMNIWAR) != 0;
		d.classes = (w0 & LOOM_RT_W0_CLASSES_MASK) >> LOOM_RT_W0_CLASSES_SHIFT;
		d.up_first = (w1 & LOOM_RT_W1_UP_FIRST_MASK) >> LOOM_RT_W1_UP_FIRST_SHIFT;
		/* no up port beyond the radix: the W0 port alone */
		d.uproute = (w0 & LOOM_RT_W0_UPROUTE) && d.up_first < n_ports;
	}
	return d;
}

struct router_decision router_decide(const struct route_view *v, unsigned int n_ports,
				     const struct loom_pkt_hdr *h)
{
	return decide(v, n_ports, h->hops, h->dst_node);
}

const char *router_verdict_name(enum router_verdict v)
{
	switch (v) {
	case ROUTE_HOST: return "host";
	case ROUTE_PORT: return "port";
	case ROUTE_NO_ROUTE: return "no route";
	case ROUTE_HOP_LIMIT: return "hop limit";
	}
	return "?";
}

/* ---- VC model ----------------------------------------------------------- */

bool route_vc1(const struct route_vc_in *in)
{
	/* entering a dimension here: the VC table decides, even on a dateline
	 * port (a packet that starts at the dateline does not cross it); a
	 * packet that continues in its dimension through a dateline moves to VC1
	 */
	if (in->injected || in->in_dim == LOOM_VCT_PORT_DIM_NONE ||
	    in->out_dim == LOOM_VCT_PORT_DIM_NONE || in->in_dim != in->out_dim)
		return in->start_vc1;
	return in->vc1_now || in->dateline;
}

int route_vc_of(uint8_t class, bool vc1, bool adaptive)
{
	switch (class) {
	case LOOM_CLASS_REQ:
		return adaptive ? LOOM_VC_REQ_ADAPT : vc1 ? LOOM_VC_REQ1 : LOOM_VC_REQ0;
	case LOOM_CLASS_RESP:
		return adaptive ? LOOM_VC_RESP_ADAPT : vc1 ? LOOM_VC_RESP1 : LOOM_VC_RESP0;
	case LOOM_CLASS_BARRIER:
		return LOOM_VC_BARRIER;
	}
	return -1;
}

int route_class_of_vc(unsigned int vc)
{
	switch (vc) {
	case LOOM_VC_REQ0:
	case LOOM_VC_REQ1:
	case LOOM_VC_REQ_ADAPT:
		return LOOM_CLASS_REQ;
	case LOOM_VC_RESP0:
	case LOOM_VC_RESP1:
	case LOOM_VC_RESP_ADAPT:
		return LOOM_CLASS_RESP;
	case LOOM_VC_BARRIER:
		return LOOM_CLASS_BARRIER;
	}
	return -1;
}

unsigned int route_vc_level(unsigned int vc)
{
	int cls = route_class_of_vc(vc);

	return cls == LOOM_CLASS_BARRIER ? 0 : cls == LOOM_CLASS_RESP ? 1 : 2;
}

uint32_t route_port_cfg(const struct route_view *v, unsigned int port)
{
	if (!v->port_cfg || port >= LOOM_MAX_PORTS)
		return LOOM_VCT_PORT_DIM_NONE;
	return v->port_cfg[port];
}

bool route_start_vc1(const struct route_view *v, unsigned int dst)
{
	if (!v->start_vc1 || dst >= v->start_vc1_bits)
		return false;
	return (v->start_vc1[dst / 32] >> (dst % 32)) & 1;
}

int route_adaptive_pick(uint32_t mask, uint32_t usable, const uint32_t *credits,
			unsigned int n_ports, int pref, unsigned int rr)
{
	int best = -1;
	uint32_t best_cr = 0;

	mask &= usable;
	if (pref >= 0 && pref < 32 && (mask & (1u << pref)) && credits[pref]) {
		best = pref;
		best_cr = credits[pref];
	}
	for (unsigned int i = 0; i < n_ports && i < 32; i++) {
		unsigned int p = (rr + i) % n_ports;

		if (p >= 32 || !(mask & (1u << p)) || credits[p] <= best_cr)
			continue;
		best = (int)p;
		best_cr = credits[p];
	}
	return best;
}

/*
 * The weighted choice of DimWAR and OmniWAR: the W0 port @min first, then
 * from @rr on the usable ports of @min_mask at @hops and of @der_mask at
 * @hops + 1, a strictly lighter one replacing the best so far.
 */
static unsigned int war_pick(unsigned int min, uint32_t min_mask, uint32_t der_mask,
			     uint32_t usable, const uint32_t *occupancy, unsigned int flits,
			     unsigned int hops, unsigned int n_ports, unsigned int rr)
{
	uint64_t best_w = UINT64_MAX;
	unsigned int best = min;

	if (min < 32 && (usable & (1u << min)))
		best_w = (uint64_t)(occupancy[min] + flits) * hops;
	min_mask &= usable;
	der_mask &= usable;
	for (unsigned int i = 0; i < n_ports && i < 32; i++) {
		unsigned int p = (rr + i) % n_ports;
		uint64_t w;

		if (p >= 32 || p == min || !((min_mask | der_mask) & (1u << p)))
			continue;
		w = (uint64_t)(occupancy[p] + flits) * (min_mask & (1u << p) ? hops : hops + 1);
		if (w < best_w) {
			best = p;
			best_w = w;
		}
	}
	return best;
}

unsigned int route_dimwar_pick(unsigned int min, uint32_t mask, uint32_t usable,
			       const uint32_t *occupancy, unsigned int flits, unsigned int hops,
			       unsigned int n_ports, unsigned int rr)
{
	return war_pick(min, 0, mask, usable, occupancy, flits, hops, n_ports, rr);
}

unsigned int route_omniwar_pick(unsigned int min, uint32_t min_mask, uint32_t der_mask,
				uint32_t usable, const uint32_t *occupancy, unsigned int flits,
				unsigned int hops, unsigned int n_ports, unsigned int rr)
{
	return war_pick(min, min_mask, der_mask & ~min_mask, usable, occupancy, flits, hops,
			n_ports, rr);
}

int route_omni_vc(bool card_vcs, unsigned int vcs, uint8_t cls, unsigned int k)
{
	if (!card_vcs)
		return k < vcs ? (int)k : -1;
	if (k >= LOOM_RT_OMNI_CARD_CLASSES)
		return -1;
	return route_vc_of(cls, k == 1, k == 2);
}

unsigned int route_omni_class(bool card_vcs, unsigned int vc)
{
	if (!card_vcs)
		return vc;
	return route_vc_adaptive(vc) ? 2 : vc == LOOM_VC_REQ1 || vc == LOOM_VC_RESP1;
}

unsigned int route_uproute_pick(unsigned int port, unsigned int first, uint64_t usable,
				const uint32_t *occupancy, unsigned int n_ports, unsigned int rr)
{
	uint64_t best_occ = UINT64_MAX;
	unsigned int best = port, span;

	if (n_ports > 64)
		n_ports = 64;
	if (first >= n_ports)
		return port;
	span = n_ports - first;
	if (port < 64 && (usable >> port & 1))
		best_occ = occupancy[port];
	for (unsigned int i = 0; i < span; i++) {
		unsigned int p = first + (rr + i) % span;

		if (p == port || !(usable >> p & 1) || occupancy[p] >= best_occ)
			continue;
		best = p;
		best_occ = occupancy[p];
	}
	return best;
}

/* The deroute ports of a DimWAR entry: the other ports of @port's dimension. */
static uint32_t dimwar_deroutes(const struct route_view *v, unsigned int n_net, unsigned int port)
{
	unsigned int dim = route_port_cfg(v, port) & LOOM_VCT_PORT_DIM_MASK;
	uint32_t mask = 0;

	if (dim == LOOM_VCT_PORT_DIM_NONE)
		return 0;
	for (unsigned int p = 0; p < n_net && p < LOOM_MAX_PORTS; p++)
		if (p != port && (route_port_cfg(v, p) & LOOM_VCT_PORT_DIM_MASK) == dim)
			mask |= 1u << p;
	return mask;
}

/*
 * DimWAR (Documentation/hw/routing.rst): minimal hops on the class's VC0,
 * deroutes within the dimension on its VC1, none after one (the packet
 * arrived on VC1) nor for ordered packets.
 */
static void route_dimwar(const struct route_cfg *cfg, const struct route_view *v,
			 bool from_host, unsigned int in_vc, const struct route_hdr *h,
			 const struct router_decision *d, struct route_result *r)
{
	bool derouted;

	r->dimwar = true;
	r->hops_left = (uint8_t)d->hops_left;
	r->vc1 = false;
	if (cfg->card_vcs) {
		r->vc = (uint8_t)route_vc_of(h->class, false, false);
		r->adapt_vc = (uint8_t)route_vc_of(h->class, true, false);
		derouted = in_vc == r->adapt_vc;
	} else {
		r->vc = 0;
		r->adapt_vc = 1;
		derouted = in_vc & 1;
		if (cfg->vcs < 2)
			return;
	}
	if ((!from_host && derouted) || (h->flags & LOOM_PKT_F_ORDERED))
		return;
	r->adapt_mask = (uint8_t)dimwar_deroutes(v, cfg->n_net, d->port);
	r->counted = r->adapt_mask != 0;
}

/*
 * The deroute ports of an OmniWAR entry whose minimal ports are @min: the
 * other ports of their dimensions.
 */
static uint32_t omniwar_deroutes(const struct route_view *v, unsigned int n_net, uint32_t min)
{
	uint32_t dims = 0, mask = 0;

	for (unsigned int p = 0; p < n_net && p < LOOM_MAX_PORTS; p++) {
		unsigned int dim = route_port_cfg(v, p) & LOOM_VCT_PORT_DIM_MASK;

		if ((min >> p & 1) && dim != LOOM_VCT_PORT_DIM_NONE)
			dims |= 1u << dim;
	}
	for (unsigned int p = 0; p < n_net && p < LOOM_MAX_PORTS; p++) {
		unsigned int dim = route_port_cfg(v, p) & LOOM_VCT_PORT_DIM_MASK;

		if (!(min >> p & 1) && dim != LOOM_VCT_PORT_DIM_NONE && (dims >> dim & 1))
			mask |= 1u << p;
	}
	return mask;
}

static void route_drop(struct route_result *r, enum route_drop why);

/*
 * OmniWAR (Documentation/hw/routing.rst): the packet's first
 * router-to-router hop takes distance class 0, every later one the class
 * after the one it arrived on; candidates are the minimal ports of every
 * unaligned dimension and, while the classes left after this one still
 * cover the minimal hops left with one to spare, the deroutes in those
 * dimensions.  A packet with no class left for the hop is dropped (hop
 * limit); ordered packets take the W0 port alone.
 */
static void route_omniwar(const struct route_cfg *cfg, const struct route_view *v,
			  bool from_host, unsigned int in_vc, const struct route_hdr *h,
			  const struct router_decision *d, struct route_result *r)
{
	unsigned int k = from_host ? 0 : route_omni_class(cfg->card_vcs, in_vc) + 1;
	int vc = k < d->classes ? route_omni_vc(cfg->card_vcs, cfg->vcs, h->class, k) : -1;
	uint32_t w0_port = d->port < LOOM_MAX_PORTS ? 1u << d->port : 0, min = w0_port;

	if (vc < 0) {
		route_drop(r, ROUTE_DROP_HOP_LIMIT);
		return;
	}
	r->omniwar = true;
	r->hops_left = (uint8_t)d->hops_left;
	r->vc = (uint8_t)vc;
	r->vc1 = false;
	if (h->flags & LOOM_PKT_F_ORDERED) {
		r->min_mask = (uint8_t)min;
		return;
	}
	min |= d->adapt_ports & ((1u << LOOM_MAX_PORTS) - 1);
	r->min_mask = (uint8_t)min;
	if (d->classes - k > d->hops_left)
		r->adapt_mask = (uint8_t)omniwar_deroutes(v, cfg->n_net, min);
	r->counted = ((r->min_mask | r->adapt_mask) & ~w0_port) != 0;
}

/* ---- Valiant and UGAL ------------------------------------------------------ */

enum val_route {
	VAL_NONE,	/* not a Valiant route: the entry's own rules */
	VAL_DROP,	/* the phase flag from a host */
	VAL_PHASE0,	/* toward the intermediate, on the class's VC0 */
	VAL_PHASE1,	/* toward the destination, on the class's VC1 */
};

/*
 * The Valiant part of route computation (Documentation/hw/routing.rst):
 * the decision @d for the packet and which phase it routes in.  A packet
 * in phase 0 routes toward its intermediate (dst_node bits 15:8) until the
 * router whose entry for it is the host, which rewrites the header to the
 * final destination (bits 7:0) and routes phase 1 from there.  A packet
 * injected here toward a VALIANT entry draws its intermediate from the
 * LFSR and is rewritten into phase 0 (or, under UGAL, carries the
 * intermediate for VA's choice and routes minimal meanwhile); one whose
 * intermediate is this router, or an ordered one, goes minimal in phase 1.
 * The phase flag counts only where the intermediate's entry is VALIANT
 * (elsewhere a packet routes by dst_node as any other), and never from a
 * host.
 */
static enum val_route route_valiant(const struct route_cfg *cfg, const struct route_view *v,
				    bool from_host, const struct route_hdr *h,
				    struct router_decision *d, unsigned int *dst,
				    struct route_result *r)
{
	struct router_decision di;
	unsigned int inter;

	if (h->flags & LOOM_PKT_F_VAL_PHASE) {
		*d = decide(v, cfg->n_net, h->hops, h->dst_node >> 8);
		if (!d->valiant)
			goto plain;
		if (from_host)
			return VAL_DROP;
		if (d->verdict != ROUTE_HOST) {
			*dst = h->dst_node >> 8;
			return VAL_PHASE0;
		}
		/* the intermediate: the final destination from here on */
		*dst = h->dst_node & 0xff;
		r->rewrite = true;
		r->dst_node = (uint16_t)*dst;
		r->flags = h->flags & (uint8_t)~LOOM_PKT_F_VAL_PHASE;
		*d = decide(v, cfg->n_net, h->hops, *dst);
		return VAL_PHASE1;
	}
plain:
	*d = decide(v, cfg->n_net, h->hops, h->dst_node);
	if (d->verdict != ROUTE_PORT || !d->valiant)
		return VAL_NONE;
	if (!from_host || !cfg->lfsr || h->dst_node > 0xff || (h->flags & LOOM_PKT_F_ORDERED))
		return VAL_PHASE1;
	*cfg->lfsr = route_lfsr_next(*cfg->lfsr);
	inter = route_val_draw(*cfg->lfsr, d->val_last);
	di = decide(v, cfg->n_net, h->hops, inter);
	if (di.verdict != ROUTE_PORT)
		return VAL_PHASE1;	/* the intermediate is here (or unroutable): minimal */
	r->rewrite = true;
	r->dst_node = (uint16_t)(inter << 8 | h->dst_node);
	r->flags = h->flags;
	if (d->ugal) {
		/* VA's choice weighs the Valiant route read here */
		r->ugal = ROUTE_UGAL_PENDING;
		r->hops_left = (uint8_t)d->hops_left;
		r->ugal_port = (uint8_t)di.port;
		r->ugal_hops = (uint8_t)di.hops_left;
		r->ugal_vc1 = route_start_vc1(v, inter);
		return VAL_PHASE1;
	}
	r->flags |= LOOM_PKT_F_VAL_PHASE;
	*d = di;
	*dst = inter;
	return VAL_PHASE0;
}

/*
 * Valiant on a torus (LOOM_RT_W0_VAL_DATELINES): within each phase the VC
 * model's dateline rule picks VC0 or VC1 of the phase's own pair, VCs 0/1
 * in phase 0 (toward @dst, the intermediate), 2/3 in phase 1.  A packet
 * starts a phase as if injected: at its source, or at the intermediate
 * that switched it here (@r->rewrite).  Generic VCs, 4 or more, only: a
 * router without them drops the packet (no route).
 */
static void route_val_torus(const struct route_cfg *cfg, const struct route_view *v,
			    unsigned int in_port, const struct route_hdr *h, unsigned int dst,
			    const struct router_decision *d, bool phase1, struct route_result *r)
{
	bool from_host = (int)in_port == cfg->host_port;
	uint32_t out_cfg = route_port_cfg(v, d->port);
	struct route_vc_in vin = {
		.class = h->class,
		.injected = from_host || r->rewrite,
		.vc1_now = (h->flags & LOOM_PKT_F_VC1) != 0,
		.in_dim = from_host ? LOOM_VCT_PORT_DIM_NONE :
			  route_port_cfg(v, in_port) & LOOM_VCT_PORT_DIM_MASK,
		.out_dim = out_cfg & LOOM_VCT_PORT_DIM_MASK,
		.start_vc1 = route_start_vc1(v, dst),
		.dateline = (out_cfg & LOOM_VCT_PORT_DATELINE) != 0,
	};

	if (cfg->card_vcs || cfg->vcs < 4) {
		route_drop(r, ROUTE_DROP_NO_ROUTE);
		return;
	}
	r->val_dl = true;
	r->vc1 = route_vc1(&vin);
	r->vc = route_val_dl_vc(phase1, r->vc1);
}

/* ---- route computation of the cycle-level router -------------------------- */

const char *route_drop_name(enum route_drop d)
{
	static const char *const names[ROUTE_DROP_REASONS] = {
		"none", "no route", "hop limit", "malformed", "link down", "dead", "disabled",
	};

	return (unsigned int)d < ROUTE_DROP_REASONS ? names[d] : "?";
}

static void route_drop(struct route_result *r, enum route_drop why)
{
	r->drop = (uint8_t)why;
	r->forward = false;
}

/*
 * Multicast (LOOM_PKT_F_MCAST, with a group table): PUT requests only, the
 * whole packet must fit the input buffer (it is re-read for every copy),
 * the group's entry must be valid and name ports the router has.
 */
static void route_mcast(const struct route_cfg *cfg, const struct route_view *v,
			const struct route_hdr *h, struct route_result *r)
{
	uint32_t w0, ports;

	if (h->class != LOOM_CLASS_REQ || h->type != LOOM_PKT_PUT ||
	    r->flits > cfg->mc_max_flits) {
		route_drop(r, ROUTE_DROP_MALFORMED);
		return;
	}
	if (h->hops >= LOOM_PKT_MAX_HOPS) {
		route_drop(r, ROUTE_DROP_HOP_LIMIT);
		return;
	}
	w0 = h->dst_node < v->mc_entries ? v->mc[2 * h->dst_node] : 0;
	ports = w0 & LOOM_MCAST_W0_PORTS_MASK;
	if (!(w0 & LOOM_MCAST_W0_VALID) ||
	    (cfg->n_net < 32 && (ports >> cfg->n_net)) ||
	    (!ports && (!(w0 & LOOM_MCAST_W0_HOST) || cfg->host_port < 0)) ||
	    ((w0 & LOOM_MCAST_W0_HOST) && cfg->host_port < 0)) {
		route_drop(r, ROUTE_DROP_NO_ROUTE);
		return;
	}
	r->mcast = true;
	r->mc_ports = (uint16_t)ports;
	r->mc_host = (w0 & LOOM_MCAST_W0_HOST) != 0;
}

void route_mcast_copy(const struct route_cfg *cfg, const struct route_view *v,
		      unsigned int in_port, const struct route_hdr *h, unsigned int out,
		      struct route_result *r)
{
	struct route_vc_in vin;
	uint32_t out_cfg;

	if ((int)out == cfg->host_port) {
		r->port = (uint8_t)out;
		r->vc = cfg->card_vcs ? (uint8_t)route_vc_of(h->class, false, false) : 0;
		r->vc1 = false;
		r->forward = false;
		return;
	}
	out_cfg = route_port_cfg(v, out);
	vin.class = h->class;
	vin.injected = (int)in_port == cfg->host_port;
	vin.vc1_now = (h->flags & LOOM_PKT_F_VC1) != 0;
	vin.in_dim = vin.injected ? LOOM_VCT_PORT_DIM_NONE :
		     route_port_cfg(v, in_port) & LOOM_VCT_PORT_DIM_MASK;
	vin.out_dim = out_cfg & LOOM_VCT_PORT_DIM_MASK;
	vin.start_vc1 = false;
	vin.dateline = (out_cfg & LOOM_VCT_PORT_DATELINE) != 0;
	r->port = (uint8_t)out;
	r->vc1 = route_vc1(&vin);
	r->forward = true;
	if (cfg->card_vcs)
		r->vc = (uint8_t)route_vc_of(h->class, r->vc1, false);
	else
		r->vc = r->vc1 && cfg->vcs > 1 ? 1 : 0;
}

void route_compute(const struct route_cfg *cfg, const struct route_view *v,
		   unsigned int in_port, unsigned int in_vc, const struct route_hdr *h,
		   struct route_result *r)
{
	bool from_host = (int)in_port == cfg->host_port;
	unsigned int dst = h->dst_node;
	struct router_decision d;
	struct route_vc_in vin;
	enum val_route val;
	uint32_t out_cfg;
	int vc;

	memset(r, 0, sizeof(*r));
	r->flits = (uint8_t)((LOOM_PKT_HDR_SIZE + h->len + cfg->flit_bytes - 1) / cfg->flit_bytes);
	if (h->len > LOOM_PKT_MAX_PAYLOAD || r->flits > cfg->max_flits) {
		route_drop(r, ROUTE_DROP_MALFORMED);
		return;
	}
	if (cfg->card_vcs && route_class_of_vc(in_vc) != h->class) {
		/* a cable VC carries one class only */
		route_drop(r, ROUTE_DROP_MALFORMED);
		return;
	}
	if (cfg->card_vcs && h->class == LOOM_CLASS_BARRIER) {
		/* hop by hop, never table routed: network -> BSUs -> named port */
		r->vc = LOOM_VC_BARRIER;
		if (!from_host) {
			if (cfg->host_port < 0)
				route_drop(r, ROUTE_DROP_NO_ROUTE);
			r->port = (uint8_t)cfg->host_port;
		} else if (h->dst_node >= cfg->n_net) {
			route_drop(r, ROUTE_DROP_NO_ROUTE);
		} else {
			r->port = (uint8_t)h->dst_node;
		}
		return;
	}
	if (v->mc && (h->flags & LOOM_PKT_F_MCAST)) {
		route_mcast(cfg, v, h, r);
		return;
	}
	val = route_valiant(cfg, v, from_host, h, &d, &dst, r);
	if (val == VAL_DROP) {
		/* the phase flag is the routers' own: never from a host */
		route_drop(r, ROUTE_DROP_MALFORMED);
		return;
	}
	switch (d.verdict) {
	case ROUTE_HOST:
		if (cfg->host_port < 0) {
			route_drop(r, ROUTE_DROP_NO_ROUTE);
			return;
		}
		r->port = (uint8_t)cfg->host_port;
		r->vc = cfg->card_vcs ? (uint8_t)route_vc_of(h->class, false, false) : 0;
		return;
	case ROUTE_NO_ROUTE:
		route_drop(r, ROUTE_DROP_NO_ROUTE);
		return;
	case ROUTE_HOP_LIMIT:
		route_drop(r, ROUTE_DROP_HOP_LIMIT);
		return;
	case ROUTE_PORT:
		break;
	}
	r->forward = true;
	r->port = (uint8_t)d.port;
	if (val != VAL_NONE && d.val_dl) {
		route_val_torus(cfg, v, in_port, h, dst, &d, val == VAL_PHASE1, r);
		return;
	}
	if (val != VAL_NONE) {
		/* one VC set per phase: VC0 toward the intermediate, VC1 after */
		r->vc1 = val == VAL_PHASE1;
		if (cfg->card_vcs)
			r->vc = (uint8_t)route_vc_of(h->class, r->vc1, false);
		else
			r->vc = r->vc1 && cfg->vcs > 1 ? 1 : 0;
		return;
	}
	if (d.omniwar) {
		route_omniwar(cfg, v, from_host, in_vc, h, &d, r);
		return;
	}
	if (d.dimwar) {
		route_dimwar(cfg, v, from_host, in_vc, h, &d, r);
		return;
	}
	if (d.uproute && !(h->flags & LOOM_PKT_F_ORDERED)) {
		r->uproute = true;
		r->up_first = (uint8_t)d.up_first;
	}
	vin.class = h->class;
	vin.injected = from_host || (cfg->card_vcs && route_vc_adaptive(in_vc));
	vin.vc1_now = (h->flags & LOOM_PKT_F_VC1) != 0;
	out_cfg = route_port_cfg(v, d.port);
	vin.in_dim = from_host ? LOOM_VCT_PORT_DIM_NONE :
		     route_port_cfg(v, in_port) & LOOM_VCT_PORT_DIM_MASK;
	vin.out_dim = out_cfg & LOOM_VCT_PORT_DIM_MASK;
	vin.start_vc1 = route_start_vc1(v, dst);
	vin.dateline = (out_cfg & LOOM_VCT_PORT_DATELINE) != 0;
	r->vc1 = route_vc1(&vin);
	if (!cfg->card_vcs) {
		/* generic VCs: VC0, or VC1 past a dateline (one VC: always 0) */
		r->vc = r->vc1 && cfg->vcs > 1 ? 1 : 0;
		return;
	}
	vc = route_vc_of(h->class, r->vc1, false);
	r->vc = (uint8_t)vc;
	if (d.adaptive && !(h->flags & LOOM_PKT_F_ORDERED)) {
		r->counted = true;
		r->adapt_vc = (uint8_t)route_vc_of(h->class, false, true);
		r->adapt_mask = (uint8_t)d.adapt_ports;
	}
}
