/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Visit counters of a measurement build: how often each stage of the
 * router looks at a unit (an input port, a tile, an output) or at the head
 * of a buffer, and what it found there.  They show what visiting only the
 * heads that can move would save: heads not visible yet, heads blocked
 * (no room, no credit, the output VC owned by another packet) and units
 * looked at for no grant are visits an event-driven stage would not make.
 *
 * Compiled in only with -DROUTER_VISITS (make -C fpga_bitstreams
 * router-visits: loom-router-visits, the router bench printing them;
 * make -C tools/loom-sim visits: loom-sim-visits); otherwise VISIT() is
 * nothing.  The counters are one global array, for one thread.
 */
#ifndef LOOM_ROUTER_VISITS_H
#define LOOM_ROUTER_VISITS_H

#ifdef ROUTER_VISITS
#include <stdint.h>
#include <stdio.h>

/* name, what it counts */
#define ROUTER_VISIT_LIST(X)							\
	X(sa_ports, "SA input: input ports visited")				\
	X(sa_ports_idle, "SA input: input ports visited with no request")	\
	X(sa_heads, "SA input: switching VCs tested")				\
	X(sa_unseen, "SA input: VC not yet at its SA stage, next flit not arrived or not visible") \
	X(sa_blocked, "SA input: no room or credit after the input buffer")	\
	X(sa_req, "SA input: requests")						\
	X(sa_moved, "SA input: flits taken from the input buffers")		\
	X(sao_outputs, "SA output (crossbar): outputs visited")			\
	X(sao_req, "SA output (crossbar): requests")				\
	X(sub_tiles, "subswitch: tiles visited")				\
	X(sub_tiles_idle, "subswitch: tiles visited with no request")		\
	X(sub_heads, "subswitch: row buffer heads tested")			\
	X(sub_unseen, "subswitch: head not visible yet")			\
	X(sub_blocked, "subswitch: column buffer VC without credit or owned by another packet") \
	X(sub_req, "subswitch: requests")					\
	X(sub_moved, "subswitch: flits granted")				\
	X(mux_outputs, "output mux: outputs visited")				\
	X(mux_outputs_idle, "output mux: outputs visited with no request")	\
	X(mux_heads, "output mux: column buffer heads tested")			\
	X(mux_unseen, "output mux: head not visible yet")			\
	X(mux_blocked, "output mux: output stage full, output VC owned, no credit") \
	X(mux_req, "output mux: requests")					\
	X(mux_moved, "output mux: flits granted")				\
	X(out_heads, "output stage: heads tested")				\
	X(out_unseen, "output stage: head not due yet")				\
	X(out_blocked, "output stage: receiver not ready")			\
	X(out_moved, "output stage: flits driven on the wires")			\
	X(va_ports, "VA: input ports visited")					\
	X(va_ports_idle, "VA: input ports visited with no request")		\
	X(va_vcs, "VA: routing VCs tested")					\
	X(va_unseen, "VA: route not usable yet (VA stage not reached)")		\
	X(va_req, "VA: requests")						\
	X(va_granted, "VA: output VCs granted")					\
	X(st_ports, "stall counters: input ports visited")			\
	X(st_vcs, "stall counters: VCs tested")

#define ROUTER_VISIT_ENUM(name, what) ROUTER_VISIT_##name,
enum { ROUTER_VISIT_LIST(ROUTER_VISIT_ENUM) ROUTER_VISITS_N };
#undef ROUTER_VISIT_ENUM

extern uint64_t router_visits[ROUTER_VISITS_N];

/* Every counter divided by @per (the flits, the node-cycles), a line each, to @out. */
void router_visits_print(FILE *out, double per);

#define VISIT(name)		(router_visits[ROUTER_VISIT_##name]++)
#define VISITS(name, n)		(router_visits[ROUTER_VISIT_##name] += (n))
#else
#define VISIT(name)		((void)0)
#define VISITS(name, n)		((void)0)
#endif

#endif
