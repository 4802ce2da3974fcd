/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cycle-level router: the top of the router's units (input units,
 * VC and switch allocators, tiles with row buses, subswitches and column
 * channels, output units), one clock for all of them.
 *
 * Using it:
 *
 *   r = router_new(&params, &view, err, sizeof(err));
 *   each cycle:
 *     drive router_in(r, p)->fwd      (a flit arriving on port p, or not)
 *     drive router_out(r, p)->back    (credits and ready from downstream)
 *     router_cycle(r);                (the clock edge)
 *     read  router_out(r, p)->fwd     (the flit leaving on port p)
 *     read  router_in(r, p)->back     (credits the router returns upstream)
 *
 * Wires follow router/chan.h: router_cycle() samples the wires of cycle t
 * and drives the router's outputs of cycle t + 1.  It consumes its inputs:
 * after the edge in->fwd.valid is false and out->back.credits are zero, so
 * a caller only writes what happens; out->back.ready is a level and stays
 * as the caller set it (initially true).  Input ready (in->back.ready) is
 * always true: router inputs are governed by credits.
 *
 * Ports 0 .. n_net - 1 are network ports (the routing table's port
 * numbers); with HOST_PORTS = 1 the last port is the host port: ROUTE_HOST
 * delivers there, packets from the host enter there, and barrier packets
 * go hop by hop between it and the network ports (see route.h).
 *
 * Nothing here allocates after router_new(), does I/O or keeps a clock of
 * its own.  Documented in Documentation/hw/router-model.rst.
 */
#ifndef LOOM_ROUTER_ROUTER_H
#define LOOM_ROUTER_ROUTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <loom_hw/packet.h>

#include "chan.h"
#include "params.h"
#include "route.h"

#define ROUTER_NEVER	UINT64_MAX

struct router;

/*
 * A router with parameters @p (checked with router_params_check) reading
 * its tables through @view (the pointers are kept: tables are read live,
 * as hardware reads its table RAM).  NULL with a message in @err if the
 * parameters are refused or memory is short.
 */
struct router *router_new(const struct router_params *p, const struct route_view *view,
			  char *err, size_t errlen);
void router_free(struct router *r);

const struct router_params *router_params(const struct router *r);
/* Replace the table view (same rules as router_new); -1 with @err if refused. */
int router_set_view(struct router *r, const struct route_view *view, char *err, size_t errlen);

/* The wires of port @port: the router receives on in, sends on out. */
struct chan *router_in(struct router *r, unsigned int port);
struct chan *router_out(struct router *r, unsigned int port);

/* One clock edge: the end of cycle router_now(), which then advances by one. */
void router_cycle(struct router *r);
/*
 * A hint that changes nothing: start loading into the cache the state the
 * next router_cycle() reads first (the router's registers and the wires
 * it samples).  Whoever clocks many routers calls it for the next one
 * while clocking this one.
 */
void router_prefetch(const struct router *r);
/*
 * After an edge, the ports whose output wires carry a flit (bit p:
 * router_out(r, p)->fwd.valid) and the ports whose input back wires carry
 * credits (router_in(r, p)->back.credits): whoever moves the wires need
 * not look at the others.
 */
uint64_t router_out_driven(const struct router *r);
uint64_t router_in_credited(const struct router *r);
/* The cycle whose wires router_cycle() samples next. */
uint64_t router_now(const struct router *r);

/*
 * Idle skipping.  router_quiescent(): the router holds no flit and no
 * internal credit is on its way (it may still wait for credits from its
 * neighbours).  router_next_event(): the earliest cycle in which the
 * router can change state with no new input (a flit or credit arriving, a
 * ready or register changing): router_now() if the last edge changed
 * something, a later cycle when only a pipeline stage or a timer is
 * pending, ROUTER_NEVER when it is quiescent or blocked (nothing can move
 * until an input changes).  router_skip_to(): jump the clock to @cycle
 * without stepping, allowed while @cycle <= router_next_event() and no
 * input arrives before it; returns false (and does nothing) otherwise.
 */
bool router_quiescent(const struct router *r);
uint64_t router_next_event(const struct router *r);
bool router_skip_to(struct router *r, uint64_t cycle);

/* ---- control registers ---- */

/*
 * Link state of network port @port: up (trained) or not.  Coming up resets
 * the port's output credits to the downstream depth (the peer's buffers
 * are empty after training).  Packets routed to a port that is down are
 * dropped (ROUTE_DROP_DOWN); flits already inside toward it are discarded.
 * Every port starts up; the host port is always up.
 */
void router_set_port_up(struct router *r, unsigned int port, bool up);
/* Fault mask (the card's CTRL.DISABLE): drops as for a down port, ROUTE_DROP_DISABLED. */
void router_set_port_disabled(struct router *r, unsigned int port, bool disabled);
/* Declared dead by the forward-progress timer (until router_clear_dead). */
bool router_port_dead(const struct router *r, unsigned int port);
/* Clear every dead flag and restart the timers (the card's admin RESET). */
void router_clear_dead(struct router *r);
/* The same for port @port alone (its link trained again). */
void router_clear_port_dead(struct router *r, unsigned int port);
/* Forward-progress timeout in cycles (0: off), held at 2^FP_TIMER_BITS - 1
 * at most; FP_TIMEOUT at creation. */
void router_set_fp_timeout(struct router *r, uint32_t cycles);

/* The LFSR's value at reset; it never holds 0. */
#define ROUTER_LFSR_RESET	0xace1u
/*
 * Seed the LFSR that draws Valiant intermediates (0: the reset value), so
 * that a fabric's routers draw different, reproducible sequences.
 */
void router_seed_lfsr(struct router *r, uint16_t seed);
/*
 * Ports whose status changed (dead) since the last call, one bit per
 * port; the card raises its port events from it.
 */
uint64_t router_take_port_events(struct router *r);

/*
 * The depth of the downstream buffer of (output @port, @vc) in flits: the
 * credits the router starts with.  Default BUF_DEPTH for network ports
 * (the next router's input buffers) and for the host port.  The low 16
 * bits of @depth count; with CREDIT_BITS below 16 a depth of
 * 2^CREDIT_BITS or more is held at 2^CREDIT_BITS - 1.
 */
void router_set_out_depth(struct router *r, unsigned int port, unsigned int vc,
			  unsigned int depth);

/* Arbiters with registers (IWA weights): which unit. */
enum router_arb_unit {
	ROUTER_ARB_SA_IN,	/* index: input port */
	ROUTER_ARB_SA_OUT,	/* XBAR: output port; TILED: tile * ROWS + subswitch output */
	ROUTER_ARB_OUT,		/* TILED: output port (its output mux) */
	ROUTER_ARB_VA_IN,	/* index: input port */
	ROUTER_ARB_VA_OUT,	/* index: output port * VCS + VC */
};
/* Set an IWA weight register; -1 if the unit/index/requester does not exist. */
int router_set_arb_weight(struct router *r, enum router_arb_unit unit, unsigned int index,
			  unsigned int requester, unsigned int pattern, unsigned int weight);

/* ---- the drop interface ---- */

/*
 * A packet the router could not deliver.  Its flits were drained from the
 * input buffer (credits returned) or discarded at the output; @hdr holds
 * the first @hdr_bytes bytes of the packet (its header, up to
 * LOOM_PKT_HDR_SIZE), so that whoever runs the router can answer a
 * request (the card sends the source an error acknowledgement).
 */
struct router_drop {
	uint8_t reason;		/* enum route_drop */
	uint8_t in_port;	/* arrival port (output-side discards: 0xff) */
	uint8_t out_port;	/* the port it was routed to, 0xff if none */
	uint8_t vc;		/* arrival VC, or output VC for output-side discards */
	uint8_t hdr_bytes;
	uint8_t hdr[LOOM_PKT_HDR_SIZE];
	uint64_t cycle;		/* the edge at which its tail was drained */
};

#define ROUTER_DROP_QUEUE	64	/* events held until taken */

/* Take the oldest drop event; false if none. */
bool router_drop_pop(struct router *r, struct router_drop *d);

/* ---- counters ---- */
struct router_port_counters {
	uint64_t flits_in, flits_out;
	uint64_t pkts_in, pkts_out;
	uint64_t malformed;	/* flits refused at the input (bad VC, no packet, no room) */
	uint64_t credit_errors;	/* credits returned beyond the depth */
	uint64_t adaptive, deterministic;	/* VA grants of adaptive-eligible packets */
	uint64_t credit_stall_cycles;	/* cycles a packet waited for credits of this output
					 * (per VC of it: router_vc_counters) */
};

struct router_counters {
	uint64_t cycles;	/* edges clocked (skipped cycles are not counted) */
	uint64_t drops[ROUTE_DROP_REASONS];
	uint64_t drop_events_lost;	/* drop queue full */
	uint64_t va_conflicts;	/* VC requests that lost arbitration */
	uint64_t sa_conflicts;	/* switch arbitrations (input, subswitch, output) with losers */
};

/*
 * Per (port, VC).  A cycle the card's clock skipped (router_skip_to) counts
 * as the edge it stands for: nothing changes over a skip, so a VC stalled
 * or starved at the last edge is stalled or starved over the whole skip.
 */
struct router_vc_counters {
	uint64_t stall_cycles;		/* input VC: a head past its pipeline stages
					 * waiting for an output VC, or active flits
					 * ready for the switch, and none moved */
	uint64_t credit_starved_cycles;	/* output VC: a packet waited only for its credits */
	uint32_t fill_max;		/* input VC: most flits held at once */
};

const struct router_counters *router_counters(const struct router *r);
const struct router_port_counters *router_port_counters(const struct router *r,
							unsigned int port);
/* NULL for a port or VC beyond the router's. */
const struct router_vc_counters *router_vc_counters(const struct router *r, unsigned int port,
						    unsigned int vc);

/* ---- introspection (tests, documentation) ---- */
enum router_vc_state {
	IVC_IDLE,		/* no packet at the head of the buffer */
	IVC_ROUTING,		/* head visible, route computation running */
	IVC_VC_WAIT,		/* routed, waiting for an output VC */
	IVC_ACTIVE,		/* owns an output VC: its flits compete for the switch */
	IVC_DROPPING,		/* draining to the drop interface */
};
enum router_vc_state router_in_vc_state(const struct router *r, unsigned int port,
					unsigned int vc);
/* Flits held in the input buffer of (@port, @vc). */
unsigned int router_in_vc_fill(const struct router *r, unsigned int port, unsigned int vc);
/* Bytes of model state (all of it allocated in router_new). */
size_t router_memory(const struct router *r);

/* Zero-load latency of one router for head flits, by the parameters. */
unsigned int router_zero_load_latency(const struct router_params *p);

#endif
