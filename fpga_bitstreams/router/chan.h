/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wires between a router port and what is attached to it (a link, the
 * host interface, a test source or sink), as they are during one clock
 * cycle.  This is the contract between the cycle-level router model and
 * every unit that connects to it; the RTL has the same signals on its
 * port interface.
 *
 * Forward (sender -> receiver), per cycle: at most one flit, with its VC
 * and head/tail marks.  Backward (receiver -> sender), per cycle: how many
 * flit buffers of each VC the receiver freed (credits, counted in flits),
 * and whether the receiver's serialiser can take a flit (ready: a link's
 * transmitter or the host interface's DMA engine may be busy; input
 * buffers are governed by credits, never by ready).
 *
 * Timing.  Values driven during cycle t are sampled at the clock edge that
 * ends cycle t: a unit reads its inputs of cycle t and produces its
 * outputs of cycle t + 1, never a combinational path through a unit.  So
 * whoever steps several units clocks every unit first (each reads the
 * wires of cycle t and drives its outputs of t + 1) and then moves the
 * wires from each driver to its receiver (a channel of latency 0 is a
 * plain copy; struct chan_line delays them).
 *
 * Ready is registered: a sender drives a flit in cycle t + 1 only if ready
 * was high in cycle t, and a receiver that raises ready in cycle t takes
 * whatever flit it sees in cycle t + 1.  A receiver without a serialiser
 * (a router input, a test sink) keeps ready high.
 *
 * Credits: a sender starts with as many credits per VC as the receiver's
 * buffer of that VC holds flits (both sides are configured with the same
 * depth) and sends a flit of a VC only while it holds a credit of that VC.
 */
#ifndef LOOM_ROUTER_CHAN_H
#define LOOM_ROUTER_CHAN_H

#include <stdbool.h>
#include <stdint.h>

#define FLIT_BYTES_MAX	64	/* widest flit a configuration may choose */
#define CHAN_VCS_MAX	8	/* VCs a channel can name (LOOM_NUM_VCS) */

struct flit {
	bool valid;		/* a flit is on the wires this cycle */
	bool head;		/* first flit of a packet */
	bool tail;		/* last flit of a packet (a one-flit packet is both) */
	uint8_t vc;		/* virtual channel, < CHAN_VCS_MAX */
	uint8_t data[FLIT_BYTES_MAX];	/* FLIT_BYTES of them meaningful */
};

/* Receiver -> sender wires of one channel for one cycle. */
struct chan_back {
	uint8_t credits[CHAN_VCS_MAX];	/* flit buffers freed this cycle, per VC */
	bool ready;			/* the receiver takes a flit next cycle */
};

/* Both directions of one channel during one cycle. */
struct chan {
	struct flit fwd;	/* driven by the sender */
	struct chan_back back;	/* driven by the receiver */
};

#endif
