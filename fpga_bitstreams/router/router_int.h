/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The router's units and their registers, shared by the files that
 * implement them (input_unit.c, vc_alloc.c, sw_alloc.c, tile.c,
 * output_unit.c) and the top (router.c).  Not a public interface: the
 * public one is router.h.
 */
#ifndef LOOM_ROUTER_INT_H
#define LOOM_ROUTER_INT_H

#include <stddef.h>
#include <string.h>

#include "arbiter.h"
#include "credit.h"
#include "fifo.h"
#include "router.h"
#include "visits.h"

/* No pool slot: the flit was drained, not passed on. */
#define ROUTER_NO_SLOT	UINT32_MAX

/* ---- input unit: one per port ------------------------------------------- */

/* Registers of one input VC. */
struct in_vc {
	struct flit_fifo buf;	/* BUF_DEPTH flits */
	uint8_t state;		/* enum router_vc_state (ROUTING covers VC_WAIT) */
	uint8_t out_port;	/* ACTIVE: the output VC it owns */
	uint8_t out_vc;
	uint16_t sent;		/* flits of the front packet switched so far (of this copy) */
	uint8_t row_tile;	/* TILED, ACTIVE: tile of the row buffer it sends to */
	uint8_t row_k;		/* TILED, ACTIVE: its credit in the port's rowcred */
	uint64_t fwd;		/* ACTIVE: where its flits go past the input buffer (fifo_meta word) */
	struct route_result rt;	/* route of the front packet */
	uint64_t va_at;		/* ROUTING: first cycle VA may act (head visible + LAT_RC) */
	uint64_t sa_at;		/* ACTIVE/DROPPING: first cycle SA may act */
	/*
	 * Multicast: the copies still to send after the current one (bit n:
	 * network port n, IN_MC_HOST: the host).  While not zero the current
	 * copy reads its flits at position sent in the buffer and leaves
	 * them there (no credit upstream); the last copy pops them as a
	 * unicast packet does.
	 */
	uint32_t mc_left;
	/* write side */
	uint8_t rx_open;	/* a packet's head arrived, its tail not yet */
	uint8_t rx_left;	/* flits the open packet may still have */
	/* drop collector: bytes of the header collected (in router.in_drop_hdr) */
	uint8_t drop_bytes;
};

/* Two cache lines each (the array starts on one): a port's registers never share a line. */
struct in_port {
	uint32_t busy;		/* bit v: vc[v].state != IDLE */
	uint32_t moved;		/* during a cycle, bit v: a flit of vc[v] left the buffer */
	uint32_t stalled;	/* bit v: vc[v] stalled at the last edge (router_vc_counters) */
	uint32_t routing;	/* bit v: vc[v].state == ROUTING */
	unsigned int row_slot;	/* TILED: its row buffers at a subswitch: row_slot + VC */
	struct in_vc *vc;	/* [VCS] */
	struct credit *rowcred;	/* TILED: [COLS][VCS] row buffer credits, by input VC */
	struct arbiter sa_arb;	/* SA input stage: VCS requesters */
	struct arbiter va_arb;	/* VA input stage: VCS requesters */
} __attribute__((aligned(64)));

/* ---- output unit: one per port ----------------------------------------- */

/*
 * One cache line each (the array starts on one): what VC allocation reads
 * and writes of an output VC, its arbiter included; the discard collector
 * is apart (router.out_drop).
 */
struct out_vc {
	struct credit cred;	/* downstream buffer of this VC */
	int16_t owner;		/* crossbar: input port * VCS + input VC owning it;
				 * tiles: the column buffer whose packet passes the
				 * output mux; -1 free */
	uint8_t pkts;		/* crossbar: packets of the owner not yet switched */
	uint8_t sent;		/* tiles: flits of the owning packet past the mux */
	bool wanted;		/* a VA request found it owned: no chaining */
	uint64_t stall_since;	/* forward progress: waiting for credit since, 0 none */
	struct arbiter va_arb;	/* VA output stage: PORTS requesters */
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct out_vc) == 64, "an output VC is one cache line");

/* The output side's discard collector of one output VC. */
struct out_drop {
	uint8_t bytes;
	uint8_t hdr[LOOM_PKT_HDR_SIZE];
};

/*
 * A discard collector takes the bytes of a dropped packet's header from its
 * flits as they drain: @data, a flit of @flit_bytes, appended to @hdr after
 * the *@bytes collected so far, up to LOOM_PKT_HDR_SIZE.
 */
static inline void drop_collect(uint8_t *hdr, uint8_t *bytes, const uint8_t *data,
				unsigned int flit_bytes)
{
	unsigned int n = LOOM_PKT_HDR_SIZE - *bytes;

	if (n > flit_bytes)
		n = flit_bytes;
	memcpy(hdr + *bytes, data, n);
	*bytes = (uint8_t)(*bytes + n);
}

/*
 * Two cache lines each (the array starts on one); the first holds what
 * every cycle reads (the output stage, the VCs, the timers' masks and the
 * crossbar arbiter's pointer).
 */
struct out_port {
	struct flit_fifo pipe;	/* output register stage(s) to the wire */
	struct out_vc *vc;	/* [VCS] */
	uint32_t waiting;	/* bit v: a packet waits for credit this cycle */
	uint32_t stalled;	/* bit v: stall_since running */
	bool up, dead, disabled;
	struct arbiter sa_arb;	/* XBAR: SA output stage over PORTS inputs */
	struct arbiter mux_arb;	/* TILED: output mux over ROWS x VCS column buffers */
} __attribute__((aligned(64)));

/* ---- tile (TILED): subswitch and column buffers ------------------------- */


/* A column buffer VC as its subswitch sees it. */
struct col_vc {
	struct credit cred;	/* the column buffer's free slots */
	int16_t own;		/* row buffer whose packet owns it, -1 */
	uint16_t pad;
};

struct tile {
	uint64_t row_nonempty;		/* bit ci * VCS + v */
	uint64_t col_nonempty;		/* bit ri * VCS + v */
	struct arbiter *sub_arb;	/* [ROWS]: one per subswitch output */
	uint8_t row, col;
	/* subswitch (row, col): row buffers of the COLS inputs of this row, by input VC */
	struct flit_fifo *rowbuf;	/* [COLS][VCS] */
	/* the column buffers the subswitch feeds, at tile (ro, col), slot row */
	struct col_vc *colvc;		/* [ROWS][VCS] */
	/* column buffers of this tile's output (if it has a port), by output VC */
	struct flit_fifo *colbuf;	/* [ROWS][VCS]; none in a tile without a port */
	/* wiring: the credit each buffer returns when a flit leaves it */
	struct credit **row_src;	/* [COLS][VCS]: the input's row buffer credit */
	struct credit **col_src;	/* [ROWS][VCS]: the subswitch's column buffer credit */
};

/*
 * The wires of one port, output channel first, the ports' pairs packed
 * (the array starts on a cache line): the edge samples every port's
 * out.back.credits and in.fwd.valid, which lie side by side, and a flit
 * or credits moving touch in.back of one port beside out.fwd of the next.
 */
struct port_wires {
	struct chan out;
	struct chan in;
};

/* A credit on its way back inside the router (fixed latency: in order). */
struct credit_ret {
	uint64_t at;		/* usable from this cycle */
	struct credit *c;
};

struct credit_line {
	struct credit_ret *v;
	unsigned int mask;	/* entries - 1 (a power of two) */
	unsigned int head, count;
	unsigned int latency;	/* cycles from a flit leaving to its credit being usable */
};

/*
 * The registers in the order an edge reads them: the clock, the masks, the
 * pointers and counters nearly every edge uses first (a few cache lines,
 * router_prefetch), then the parameters and the tables' view, then what
 * few edges touch.  It starts on a cache line.
 */
struct router {
	uint64_t now;
	uint64_t next_event;	/* see router_next_event */
	uint64_t wake;		/* during a cycle: earliest future timestamp seen */
	bool changed;		/* during a cycle: some state changed */

	struct port_wires *wires;	/* [PORTS] */
	uint64_t out_driven;	/* ports whose out.fwd is valid */
	uint64_t *credits_in;	/* [PORTS]: out.back's credits, per VC a byte: sampled,
				 * applied at the edge (one array: every port is written
				 * every cycle) */
	uint64_t credits_ports;	/* ports whose out.back brought credits this edge */
	uint64_t in_valid;	/* ports whose in.fwd carries a flit this edge */
	uint64_t vc_bytes;	/* the bytes of a credits word that name VCs < VCS */
	uint64_t in_credited;	/* ports whose in.back carries credits */

	struct in_port *in;	/* [PORTS] */
	struct out_port *out;	/* [PORTS] */
	uint64_t in_active;	/* input ports with a VC not IDLE */
	uint64_t va_ports;	/* input ports with a VC routing (VC allocation) */
	uint64_t sa_ports;	/* input ports with a VC active or dropping (switch allocation) */
	uint64_t rows_nonempty;	/* tiles with a row buffer holding flits */
	uint64_t cols_nonempty;	/* tiles with a column buffer holding flits */
	uint64_t pipes_nonempty;/* output ports with a flit in the output stage */
	uint64_t fp_ports;	/* output ports with a VC waiting or stalled */
	uint64_t usable;	/* output ports up, not dead, not disabled (out_usable) */
	struct flit_pool pool;	/* every flit inside, by slot (fifo.h) */
	struct router_port_counters *pcnt;	/* [PORTS] */
	struct router_vc_counters *vcnt;	/* [PORTS * VCS] */
	struct credit_line row_ret, col_ret;
	struct router_counters cnt;

	struct router_params p;
	unsigned int n_net;
	int host_port;
	unsigned int vc_step;	/* VCs a packet may take: route VC, + vc_step, ... */
	unsigned int va_rr;	/* adaptive choice round robin */
	uint16_t lfsr;		/* Valiant's intermediate draws (route_lfsr_next) */
	struct route_view view;
	struct route_cfg rcfg;
	struct tile *tiles;	/* [ROWS * COLS] (TILED) */
	uint8_t port_row[ROUTER_PORTS_MAX];	/* tile row and column of each port */
	uint8_t port_col[ROUTER_PORTS_MAX];

	unsigned int drop_head, drop_count;
	uint64_t port_events;

	/* the drop collectors' headers, rarely touched: [PORTS * VCS] */
	uint8_t *in_drop_hdr;	/* LOOM_PKT_HDR_SIZE bytes per input VC */
	struct out_drop *out_drop;

	void *alloc;		/* this struct's allocation (it starts on the line after) */
	void *arena;		/* arena_alloc's first cache line */
	void *arena_alloc;
	size_t arena_size;
	/* last: rarely touched, away from the registers every cycle reads */
	struct router_drop drops[ROUTER_DROP_QUEUE];
} __attribute__((aligned(64)));

/* Port @p's bits in the router's port masks, after its VC states changed. */
static inline void in_port_update(struct router *r, unsigned int p)
{
	const struct in_port *ip = &r->in[p];
	uint64_t bit = 1ull << p;

	r->in_active = (r->in_active & ~bit) | (ip->busy ? bit : 0);
	r->va_ports = (r->va_ports & ~bit) | (ip->routing ? bit : 0);
	r->sa_ports = (r->sa_ports & ~bit) | (ip->busy & ~ip->routing ? bit : 0);
}

/* Port @p's bits after one of its VCs entered ROUTING (busy and routing bits set). */
static inline void in_port_routing(struct router *r, unsigned int p)
{
	const struct in_port *ip = &r->in[p];
	uint64_t bit = 1ull << p;

	r->in_active |= bit;
	r->va_ports |= bit;
	r->sa_ports = (r->sa_ports & ~bit) | (ip->busy & ~ip->routing ? bit : 0);
}

/* Port @p's bits after one of its VCs left ROUTING for ACTIVE or DROPPING (still busy). */
static inline void in_port_routed(struct router *r, unsigned int p)
{
	const struct in_port *ip = &r->in[p];
	uint64_t bit = 1ull << p;

	r->va_ports = (r->va_ports & ~bit) | (ip->routing ? bit : 0);
	r->sa_ports |= bit;
}

#define IN_MC_HOST	(1u << 16)	/* in_vc.mc_left: the host copy */

/*
 * The pool slot of the next flit input VC @iv sends, ROUTER_NO_SLOT if it
 * has not arrived: the front flit, or for a multicast copy that is not
 * the last one the flit at position sent.
 */
static inline uint32_t in_next_slot(const struct in_vc *iv)
{
	if (iv->mc_left)
		return iv->sent < iv->buf.count ?
		       iv->buf.slot[(iv->buf.head + iv->sent) & iv->buf.mask] : ROUTER_NO_SLOT;
	return fifo_empty(&iv->buf) ? ROUTER_NO_SLOT : fifo_front(&iv->buf);
}

/* Tile of port @p. */
static inline struct tile *router_tile(struct router *r, unsigned int p)
{
	return &r->tiles[p];
}

static inline void router_wake(struct router *r, uint64_t at)
{
	if (at < r->wake)
		r->wake = at;
}

/* Is output @o able to carry packets (up, not dead, not disabled)? */
static inline bool out_usable(const struct router *r, unsigned int o)
{
	return (r->usable >> o) & 1;
}

/* Output @o's bit in r->usable, after its up, dead or disabled register changed. */
static inline void out_usable_update(struct router *r, unsigned int o)
{
	const struct out_port *op = &r->out[o];
	uint64_t bit = 1ull << o;

	r->usable = (r->usable & ~bit) | (op->up && !op->dead && !op->disabled ? bit : 0);
}

static inline enum route_drop out_drop_reason(const struct router *r, unsigned int o)
{
	const struct out_port *op = &r->out[o];

	return op->disabled ? ROUTE_DROP_DISABLED : op->dead ? ROUTE_DROP_DEAD :
	       !op->up ? ROUTE_DROP_DOWN : ROUTE_DROP_NONE;
}

static inline bool vc_wormhole(const struct router *r, unsigned int vc)
{
	return (r->p.wormhole_vcs >> vc) & 1;
}

/* Does a packet of @flits fit the output VC's credits (always, for wormhole)? */
static inline bool out_vct_fits(const struct router *r, const struct out_vc *ov,
				unsigned int ovc, unsigned int flits)
{
	return vc_wormhole(r, ovc) || credit_has(&ov->cred, flits);
}

/* A credit returned through a fixed-latency line, usable from cycle @at. */
static inline void credit_line_push(struct credit_line *l, uint64_t at, struct credit *c)
{
	struct credit_ret *e;

	if (l->latency == 1) {
		/* all usable after this edge: the line empties at every edge, from v[0] */
		l->v[l->count++].c = c;
		return;
	}
	e = &l->v[(l->head + l->count) & l->mask];
	e->at = at;
	e->c = c;
	l->count++;
}

/* ---- unit entry points, in the order router_cycle calls them ---- */
void output_drive(struct router *r);			/* output_unit.c */
void tile_output_mux(struct router *r);			/* tile.c */
void tile_subswitch(struct router *r);			/* tile.c */
void sw_alloc(struct router *r);			/* sw_alloc.c */
void vc_alloc(struct router *r);			/* vc_alloc.c */
void input_write(struct router *r);			/* input_unit.c */
void output_commit(struct router *r);			/* output_unit.c */

/* input_unit.c */
void input_count_stalls(struct router *r);
void input_front_next(struct router *r, unsigned int port, unsigned int vc);
void input_collect_drop(struct router *r, unsigned int port, unsigned int vc, const uint8_t *data);
/* The header collected of dropping input VC (@port, @vc). */
static inline uint8_t *input_drop_hdr(struct router *r, unsigned int port, unsigned int vc)
{
	return r->in_drop_hdr + (size_t)(port * r->p.vcs + vc) * LOOM_PKT_HDR_SIZE;
}
void input_mc_next(struct router *r, unsigned int port, unsigned int vc);
void input_mc_skip(struct router *r, unsigned int port, unsigned int vc, enum route_drop why);
uint32_t input_mc_copy_flit(struct router *r, struct in_vc *iv);
/* output_unit.c */
void output_release(struct router *r, unsigned int o, unsigned int vc);
void output_discard(struct router *r, unsigned int o, uint32_t slot);
void output_wait(struct router *r, unsigned int o, unsigned int vc);
/* router.c */
void router_emit_drop(struct router *r, enum route_drop why, unsigned int in_port,
		      unsigned int out_port, unsigned int vc, const uint8_t *hdr,
		      unsigned int bytes);

#endif
