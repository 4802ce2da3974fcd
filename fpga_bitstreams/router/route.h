/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Route computation: the routing decision (T3E-style table lookup by
 * logical destination), the VC model (datelines, START_VC1, classes) and
 * the adaptive choice with whole-packet admission.  Pure functions of the
 * tables, the packet's routed header fields and the state handed in; the
 * cycle-level router calls them in its RC and VA stages.
 *
 * Tables are read through struct route_view: pointers to the table words,
 * so that the card's register window backs them and the simulator can
 * supply loom-fm's tables.
 */
#ifndef LOOM_ROUTER_ROUTE_H
#define LOOM_ROUTER_ROUTE_H

#include <stdbool.h>
#include <stdint.h>

#include <loom_hw/packet.h>
#include <loom_hw/regs.h>

/*
 * The tables a router reads.  @rt: the routing table as in the ROUTER
 * block, two 32-bit words per entry, @rt_entries entries.  @port_cfg: the
 * VCT block's PORT_CFG words, one per network port (NULL: no dimensions,
 * no datelines).  @start_vc1: the VCT START_VC1 bitmap of @start_vc1_bits
 * destinations (NULL: all zero).  @wide_ports: entries name the port in
 * W0 bits 23:16 (LOOM_RT_W0_WIDE_PORT_*), for routers with more than 15
 * network ports; otherwise in W0 bits 3:0 as on the card.  @mc: the
 * multicast group table as in the MCAST block, two 32-bit words per entry
 * (LOOM_MCAST_W0_*, LOOM_MCAST_W1_*), @mc_entries groups; NULL: the
 * router has no multicast and LOOM_PKT_F_MCAST means nothing to it.
 */
struct route_view {
	const uint32_t *rt;
	unsigned int rt_entries;
	const uint32_t *port_cfg;
	const uint32_t *start_vc1;
	unsigned int start_vc1_bits;
	bool wide_ports;
	const uint32_t *mc;
	unsigned int mc_entries;
};

enum router_verdict {
	ROUTE_HOST,		/* deliver to the local host interface */
	ROUTE_PORT,		/* forward on network port .port */
	ROUTE_NO_ROUTE,		/* invalid entry, destination or port: drop */
	ROUTE_HOP_LIMIT,	/* travelled LOOM_PKT_MAX_HOPS routers: drop */
};

struct router_decision {
	enum router_verdict verdict;
	unsigned int port;	/* ROUTE_PORT only */
	bool adaptive;		/* entry allows the adaptive VC (W0_ADAPTIVE) */
	uint32_t adapt_ports;	/* minimal ports the adaptive VC may take (W1) */
	bool dimwar;		/* entry allows DimWAR deroutes (W0_DIMWAR) */
	unsigned int hops_left;	/* W0 minimal hops left (DimWAR's weight) */
	bool omniwar;		/* entry routes OmniWAR (W0_OMNIWAR): adapt_ports are
				 * the minimal ports of the unaligned dimensions
				 */
	unsigned int classes;	/* W0 CLASSES: OmniWAR's distance classes N + M */
	bool uproute;		/* entry allows adaptive up-routes (W0_UPROUTE) */
	unsigned int up_first;	/* W1 UP_FIRST: the up ports are up_first .. n_ports - 1 */
	bool valiant;		/* injected packets route Valiant (W0_VALIANT) */
	bool ugal;		/* ... or minimal, chosen by UGAL (W0_UGAL) */
	bool val_dl;		/* ... each phase on its own dateline pair of
				 * VCs (W0_VAL_DATELINES)
				 */
	unsigned int val_last;	/* W1 VAL_LAST: intermediates 0 .. val_last */
};

/*
 * The table decision for @h at a router with @n_ports network ports
 * (@h->hops as the packet arrives, not yet incremented here).
 */
struct router_decision router_decide(const struct route_view *v, unsigned int n_ports,
				     const struct loom_pkt_hdr *h);

/* Build a routing table word 0 for @port (a port number or LOOM_RT_PORT_HOST). */
static inline uint32_t router_entry_w0(unsigned int port)
{
	return LOOM_RT_W0_VALID | (port & 0xfu);
}

/* A wide routing table word 0 for @port (< 255) or the host (LOOM_RT_WIDE_PORT_HOST). */
static inline uint32_t router_entry_w0_wide(unsigned int port)
{
	return LOOM_RT_W0_VALID | (port << LOOM_RT_W0_WIDE_PORT_SHIFT & LOOM_RT_W0_WIDE_PORT_MASK);
}

const char *router_verdict_name(enum router_verdict v);

/* ---- the VC model (T3E, Documentation/hw/routing.rst) ---- */
struct route_vc_in {
	uint8_t class;		/* LOOM_CLASS_* */
	bool injected;		/* from this card's host (or off the adaptive VC) */
	bool vc1_now;		/* the packet travels on VC1 */
	unsigned int in_dim;	/* dimension of the input port, LOOM_VCT_PORT_DIM_NONE */
	unsigned int out_dim;	/* dimension of the output port */
	bool start_vc1;		/* VCT START_VC1 bit of the destination */
	bool dateline;		/* the output port is a dateline */
};

/* Does the packet leave on VC1? */
bool route_vc1(const struct route_vc_in *in);
/* The cable VC of class @class on VC1 (@vc1) or the adaptive VC; -1 for MAINT. */
int route_vc_of(uint8_t class, bool vc1, bool adaptive);
/* The class a cable VC carries, -1 for LOOM_VC_MAINT or out of range. */
int route_class_of_vc(unsigned int vc);
/* Arbitration level of a VC: 0 barrier, 1 responses, 2 requests. */
unsigned int route_vc_level(unsigned int vc);
/* Is @vc one of the adaptive VCs? */
static inline bool route_vc_adaptive(unsigned int vc)
{
	return vc == LOOM_VC_REQ_ADAPT || vc == LOOM_VC_RESP_ADAPT;
}

/* PORT_CFG of network port @port in @v (dimension none if absent). */
uint32_t route_port_cfg(const struct route_view *v, unsigned int port);
/* START_VC1 bit of destination @dst in @v. */
bool route_start_vc1(const struct route_view *v, unsigned int dst);

/*
 * Adaptive choice among the ports of @mask (bit n = port n): the usable
 * port (@usable bit set) with the most adaptive-VC credits (@credits[n],
 * at least one: callers pass 0 where the whole packet does not fit); ties
 * go to @pref, else to the lowest port after @rr.  Returns the port or -1
 * when none has credit.
 */
int route_adaptive_pick(uint32_t mask, uint32_t usable, const uint32_t *credits,
			unsigned int n_ports, int pref, unsigned int rr);

/*
 * DimWAR's choice (weighted adaptive routing in dimension order), by an
 * estimate of the latency: the minimal port @min weighs
 * (@occupancy[@min] + @flits) x @hops, a deroute port of @mask (if
 * usable: @usable bit set) (@occupancy[n] + @flits) x (@hops + 1), where
 * @occupancy[n] is the flits output n has sent and not yet had credited
 * back (the downstream buffers it fills) and @flits the packet's own
 * length.  The lowest weight wins, the minimal port on a tie, else the
 * first deroute port from @rr on.  A minimal port that is not usable
 * weighs more than any deroute.  Returns the port.
 */
unsigned int route_dimwar_pick(unsigned int min, uint32_t mask, uint32_t usable,
			       const uint32_t *occupancy, unsigned int flits, unsigned int hops,
			       unsigned int n_ports, unsigned int rr);

/*
 * OmniWAR's choice, by the same weights: the W0 port @min and the other
 * minimal ports of @min_mask weigh (@occupancy[n] + @flits) x @hops, the
 * deroute ports of @der_mask (@occupancy[n] + @flits) x (@hops + 1); only
 * usable ports (@usable bit set) count, and a W0 port that is not usable
 * weighs more than any other.  The lowest weight wins, @min on a tie,
 * else the first port from @rr on.  Returns the port.
 */
unsigned int route_omniwar_pick(unsigned int min, uint32_t min_mask, uint32_t der_mask,
				uint32_t usable, const uint32_t *occupancy, unsigned int flits,
				unsigned int hops, unsigned int n_ports, unsigned int rr);

/*
 * OmniWAR's distance classes as VCs: the VC of class @k for a packet of
 * class @cls (-1: the router has no VC for it), and the distance class of
 * a packet that arrived on @vc.  The card's VCs (@card_vcs) carry three
 * classes, LOOM_RT_OMNI_CARD_CLASSES: the class's VC0, VC1 and adaptive
 * VC; generic VCs carry class k on VC k, @vcs of them.
 */
int route_omni_vc(bool card_vcs, unsigned int vcs, uint8_t cls, unsigned int k);
unsigned int route_omni_class(bool card_vcs, unsigned int vc);

/*
 * The adaptive up-route choice (LOOM_RT_W0_UPROUTE): among the W0 port
 * @port and the ports @first .. @n_ports - 1 that are usable (@usable bit
 * set: up, with a free VC that has room for the packet), the one with the
 * fewest flits sent and not yet credited (@occupancy[n]); a tie goes to
 * @port, else to the first port from @rr on.  Returns @port when no other
 * port is better (the caller then waits for it as for any deterministic
 * route).  Ports 0..63.
 */
unsigned int route_uproute_pick(unsigned int port, unsigned int first, uint64_t usable,
				const uint32_t *occupancy, unsigned int n_ports, unsigned int rr);

/* ---- Valiant and UGAL (LOOM_RT_W0_VALIANT, Documentation/hw/routing.rst) ---- */

/* The router's LFSR (16-bit Galois, x^16 + x^14 + x^13 + x^11 + 1): its taps, next state. */
#define ROUTE_LFSR_TAPS	0xb400u

static inline uint16_t route_lfsr_next(uint16_t s)
{
	return (uint16_t)(s >> 1 ^ (-(s & 1u) & ROUTE_LFSR_TAPS));
}

/* The intermediate drawn from LFSR state @s among 0 .. @last: (s x (last + 1)) >> 16. */
static inline unsigned int route_val_draw(uint16_t s, unsigned int last)
{
	return (unsigned int)(((uint32_t)s * (last + 1)) >> 16);
}

/*
 * UGAL's choice at the source router: true (Valiant) when the Valiant
 * port's (@occ_val + @flits) x @hops_val is below the minimal port's
 * (@occ_min + @flits) x @hops_min; a tie stays minimal.  A port that is
 * not usable (@min_ok, @val_ok false) loses to one that is.
 */
static inline bool route_ugal_pick(uint32_t occ_min, unsigned int hops_min, bool min_ok,
				   uint32_t occ_val, unsigned int hops_val, bool val_ok,
				   unsigned int flits)
{
	if (min_ok != val_ok)
		return val_ok;
	return (uint64_t)(occ_val + flits) * hops_val < (uint64_t)(occ_min + flits) * hops_min;
}

/* ---- the route computation of the cycle-level router ---- */

/* Why a packet leaves through the drop interface (0: it does not). */
enum route_drop {
	ROUTE_DROP_NONE,
	ROUTE_DROP_NO_ROUTE,	/* no valid table entry, port or destination */
	ROUTE_DROP_HOP_LIMIT,	/* LOOM_PKT_MAX_HOPS reached */
	ROUTE_DROP_MALFORMED,	/* class/length the router cannot carry */
	ROUTE_DROP_DOWN,	/* output link not trained */
	ROUTE_DROP_DEAD,	/* output declared dead by the forward-progress timer */
	ROUTE_DROP_DISABLED,	/* output fenced by its fault mask */
	ROUTE_DROP_REASONS
};

const char *route_drop_name(enum route_drop d);

/* What a router's RC stage needs to know about itself. */
struct route_cfg {
	unsigned int n_net;	/* network ports 0 .. n_net - 1 */
	int host_port;		/* router port of the host, -1 none */
	unsigned int vcs;
	bool card_vcs;		/* VC_MODEL 1: LOOM_VC_* */
	unsigned int flit_bytes;
	unsigned int max_flits;	/* largest packet the router carries */
	unsigned int mc_max_flits;	/* largest multicast packet: the input buffer depth */
	uint16_t *lfsr;		/* Valiant draws advance it (NULL: no Valiant) */
};

/* The routed header fields, all in the head flit's first 8 bytes. */
struct route_hdr {
	uint8_t type;
	uint8_t class;
	uint16_t len;
	uint16_t dst_node;
	uint8_t flags;
	uint8_t hops;
};

static inline void route_hdr_read(const uint8_t *flit, struct route_hdr *h)
{
	h->type = flit[0];
	h->class = flit[1];
	h->len = (uint16_t)(flit[2] | flit[3] << 8);
	h->dst_node = (uint16_t)(flit[4] | flit[5] << 8);
	h->flags = flit[6];
	h->hops = flit[7];
}

/* Write back the fields a router changes (flags, hops). */
static inline void route_hdr_write(uint8_t *flit, const struct route_hdr *h)
{
	flit[6] = h->flags;
	flit[7] = h->hops;
}

/* The result of route computation for one packet (packed in 32 bits). */
struct route_result {
	uint8_t drop;		/* enum route_drop */
	uint8_t port;		/* deterministic output (router port number) */
	uint8_t vc;		/* its VC */
	uint8_t adapt_vc;	/* the adaptive VC of the class */
	uint8_t adapt_mask;	/* network ports the adaptive VC may take, 0 = none */
	uint8_t flits;		/* declared length in flits */
	bool vc1;		/* leaves marked LOOM_PKT_F_VC1 */
	bool counted;		/* adaptive-eligible (ADAPTIVE/DETERMINISTIC counters) */
	bool forward;		/* leaves on a network port (hops and flags change) */
	/*
	 * DimWAR entry: adapt_mask holds the deroute ports of the dimension
	 * (empty once the packet derouted in it: it arrived on VC1) and
	 * adapt_vc their VC (the class's VC1); vc is the class's VC0.
	 */
	bool dimwar;
	uint8_t hops_left;	/* DimWAR, OmniWAR: minimal hops left, 0..15 */
	/*
	 * OmniWAR entry: vc is the packet's next distance class for every
	 * candidate, min_mask the minimal ports (the W0 port among them),
	 * adapt_mask the deroute ports (empty when the classes left allow no
	 * deroute); counted when there is more than the W0 port.
	 */
	bool omniwar;
	uint8_t min_mask;
	/*
	 * Adaptive up-route entry: at VC allocation the packet may take,
	 * instead of port, any of the network ports up_first .. n_net - 1
	 * (route_uproute_pick) on a VC of vc's class.
	 */
	bool uproute;
	uint8_t up_first;
	/*
	 * Multicast (LOOM_PKT_F_MCAST with a group table): the group entry's
	 * copies, network ports mc_ports (bit n: port n) and the host with
	 * mc_host, sent one after the other from the input buffer
	 * (Documentation/hw/router-model.rst); port, vc, vc1 and forward
	 * then describe the copy being sent (route_mcast_copy).
	 */
	bool mcast;
	bool mc_host;
	uint16_t mc_ports;
	/*
	 * Valiant: RC rewrote the head flit's header (@dst_node, @flags) as
	 * it entered the buffer (@rewrite): the intermediate drawn at the
	 * source, or the final destination at the intermediate.  UGAL
	 * (@ugal): port/vc are the minimal route (VC1); the head flit carries
	 * the intermediate in dst_node bits 15:8 without the phase flag, and
	 * VA chooses once: ROUTE_UGAL_MIN or ROUTE_UGAL_VAL, which SA writes
	 * into the header.  The Valiant route VA weighs is read at RC from
	 * the intermediate's entry (@ugal_port, its W0 minimal hops
	 * @ugal_hops, the intermediate's START_VC1 bit @ugal_vc1), so that VA
	 * reads no table.
	 */
	bool rewrite;
	uint16_t dst_node;
	uint8_t flags;
	uint8_t ugal;
	uint8_t ugal_port;
	uint8_t ugal_hops;
	bool ugal_vc1;
	/*
	 * Valiant on a torus (LOOM_RT_W0_VAL_DATELINES, generic VCs): vc is
	 * 2 x phase + vc1, and the packet may take any free VC of its class
	 * vc, vc + 4, ... (route_vc_step).
	 */
	bool val_dl;
};

enum { ROUTE_UGAL_NONE, ROUTE_UGAL_PENDING, ROUTE_UGAL_MIN, ROUTE_UGAL_VAL };

/*
 * Route computation for a head flit arriving on router port @in_port
 * (network port, or cfg->host_port) on VC @in_vc.
 */
void route_compute(const struct route_cfg *cfg, const struct route_view *v,
		   unsigned int in_port, unsigned int in_vc, const struct route_hdr *h,
		   struct route_result *r);

/*
 * Packing: drop 3 bits [2:0], port 8 [10:3], vc 3 [13:11], adapt_vc 3
 * [16:14], adapt_mask 8 [24:17], flits 6 [30:25] (<= 38 with 8-byte
 * flits), vc1 [31]; counted is adapt_mask != 0; forward is kept in the
 * buffer's flags by the caller.
 */
static inline uint32_t route_pack(const struct route_result *r)
{
	return (uint32_t)r->drop | (uint32_t)r->port << 3 | (uint32_t)r->vc << 11 |
	       (uint32_t)r->adapt_vc << 14 | (uint32_t)r->adapt_mask << 17 |
	       (uint32_t)(r->flits & 0x3f) << 25 | (uint32_t)r->vc1 << 31;
}

static inline void route_unpack(uint32_t w, struct route_result *r)
{
	r->drop = w & 7;
	r->port = (uint8_t)(w >> 3);
	r->vc = (w >> 11) & 7;
	r->adapt_vc = (w >> 14) & 7;
	r->adapt_mask = (uint8_t)(w >> 17);
	r->flits = (w >> 25) & 0x3f;
	r->vc1 = (w >> 31) & 1;
	r->counted = r->adapt_mask != 0;
	r->forward = false;	/* the caller keeps it in the buffer's flags */
}

/*
 * What does not fit the 32-bit word, kept in a byte of its own beside it:
 * dimwar [0], hops_left [4:1], mcast [5], mc_host [6], UGAL choice
 * pending [7].
 */
static inline uint8_t route_pack_ext(const struct route_result *r)
{
	return (uint8_t)(r->dimwar | (r->hops_left & 0xf) << 1 | r->mcast << 5 | r->mc_host << 6 |
			 (r->ugal == ROUTE_UGAL_PENDING) << 7);
}

static inline void route_unpack_ext(uint8_t b, struct route_result *r)
{
	r->dimwar = b & 1;
	r->hops_left = (b >> 1) & 0xf;
	r->mcast = (b >> 5) & 1;
	r->mc_host = (b >> 6) & 1;
	r->ugal = b >> 7 & 1 ? ROUTE_UGAL_PENDING : ROUTE_UGAL_NONE;
}

/*
 * And the adaptive up-route in 16 bits of their own: uproute [0],
 * up_first [8:1], a Valiant route on a torus (val_dl, never an up-route)
 * [14]; a UGAL route whose choice is pending (no up-route) keeps
 * ugal_port in [7:1], ugal_hops in [11:8] and ugal_vc1 in [12]; an
 * OmniWAR route (none of these) keeps [15] set and its min_mask in [7:0],
 * a multicast route (neither) its mc_ports.  Unpack after route_unpack
 * and route_unpack_ext.
 */
#define ROUTE_UP_OMNIWAR	0x8000u
#define ROUTE_UP_VAL_DL		0x4000u

static inline uint16_t route_pack_up(const struct route_result *r)
{
	if (r->mcast)
		return r->mc_ports;
	if (r->omniwar)
		return (uint16_t)(ROUTE_UP_OMNIWAR | r->min_mask);
	if (r->ugal == ROUTE_UGAL_PENDING)
		return (uint16_t)((r->ugal_port & 0x7f) << 1 | (r->ugal_hops & 0xf) << 8 |
				  r->ugal_vc1 << 12 | (r->val_dl ? ROUTE_UP_VAL_DL : 0));
	return (uint16_t)(r->uproute | r->up_first << 1 | (r->val_dl ? ROUTE_UP_VAL_DL : 0));
}

static inline void route_unpack_up(uint16_t b, struct route_result *r)
{
	r->omniwar = false;
	r->min_mask = 0;
	r->val_dl = false;
	if (r->mcast) {
		r->mc_ports = b;
		r->uproute = false;
		r->up_first = 0;
		return;
	}
	r->mc_ports = 0;
	if (b & ROUTE_UP_OMNIWAR) {
		r->omniwar = true;
		r->min_mask = (uint8_t)b;
		r->uproute = false;
		r->up_first = 0;
		r->counted = ((r->min_mask | r->adapt_mask) &
			      ~(r->port < 8 ? 1u << r->port : 0u)) != 0;
		return;
	}
	r->val_dl = (b & ROUTE_UP_VAL_DL) != 0;
	if (r->ugal == ROUTE_UGAL_PENDING) {
		r->ugal_port = (uint8_t)(b >> 1 & 0x7f);
		r->ugal_hops = (uint8_t)(b >> 8 & 0xf);
		r->ugal_vc1 = (b >> 12) & 1;
		r->uproute = false;
		r->up_first = 0;
		return;
	}
	r->uproute = b & 1;
	r->up_first = (uint8_t)(b >> 1);
}

/*
 * The VCs a packet of route @r may take with generic VCs: r->vc, + step,
 * ...; @vc_step is the router's (2: the dateline classes, 1 with one VC),
 * @vcs its VCs.  An OmniWAR distance class is one VC, a Valiant route on
 * a torus has four classes.
 */
static inline unsigned int route_vc_step(const struct route_result *r, unsigned int vc_step,
					 unsigned int vcs)
{
	return r->omniwar ? vcs : r->val_dl ? 4 : vc_step;
}

/* The VC of Valiant phase @phase (0, 1) on a torus: its dateline pair. */
static inline uint8_t route_val_dl_vc(unsigned int phase, bool vc1)
{
	return (uint8_t)(2 * phase + vc1);
}

/*
 * The route of one copy of multicast packet @h (route_result.mcast) to
 * router port @out (a network port of the entry, or the host port):
 * port, vc, vc1 and forward in @r; the rest of @r is kept.  Deterministic:
 * VC0 of the request class from the host or when entering a dimension,
 * VC1 past a dateline (START_VC1 does not apply).
 */
void route_mcast_copy(const struct route_cfg *cfg, const struct route_view *v,
		      unsigned int in_port, const struct route_hdr *h, unsigned int out,
		      struct route_result *r);

#endif
