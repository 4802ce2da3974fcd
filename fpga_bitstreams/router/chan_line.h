/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Channel line: an in-process channel between a sender's output wires and
 * a receiver's input wires (router/chan.h), a delay line of flits forward
 * and credits backward with a latency in cycles (0: a plain wire).  Tests
 * and the simulator connect routers with it; a full link layer (framing,
 * CRC, replay) plugs into the same wires instead.
 *
 * After every unit on both sides was clocked for cycle t (their outputs
 * are those of cycle t + 1), chan_line_step() moves the wires: the
 * receiver sees in cycle t + 1 what the sender drove in cycle
 * t + 1 - latency, and likewise for credits.  The line itself always takes
 * a flit, so the sender sees ready high; the receiver's ready is not
 * carried (a router input is governed by credits).
 *
 * Registers: two rings of @latency slots, allocated by chan_line_init()
 * for that latency and released by chan_line_free(); a line of latency 1
 * holds its one flit and one credit word in struct chan_line itself.  chan_line_busy() tells whether
 * anything is in flight (for idle skipping).
 */
#ifndef LOOM_ROUTER_CHAN_LINE_H
#define LOOM_ROUTER_CHAN_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chan.h"

#define CHAN_LINE_MAX_LATENCY	256

struct chan_line {
	unsigned int latency;
	unsigned int pos;
	unsigned int in_flight;		/* slots holding a flit or credits */
	struct flit *fwd;		/* @latency slots */
	uint8_t (*back)[CHAN_VCS_MAX];	/* @latency slots */
	/* latency 1: the one slot of each ring, beside the line's registers */
	uint8_t back1[1][CHAN_VCS_MAX];
	struct flit fwd1;
};

/*
 * 0, or -1 if @latency exceeds CHAN_LINE_MAX_LATENCY or its rings cannot be
 * allocated (@l is then empty: chan_line_free() may still be called).
 */
int chan_line_init(struct chan_line *l, unsigned int latency);
/* Release the rings; @l may be re-initialised afterwards. */
void chan_line_free(struct chan_line *l);
/* Bytes the line holds, itself and its rings. */
size_t chan_line_memory(const struct chan_line *l);
/*
 * Move the wires from @tx (the sender's output channel: its fwd is read,
 * its back written) to @rx (the receiver's input channel: its fwd written,
 * its back read).  The line consumes what it reads: @tx->fwd.valid and
 * @rx->back.credits are cleared.
 */
void chan_line_step(struct chan_line *l, struct chan *tx, struct chan *rx);
bool chan_line_busy(const struct chan_line *l);

#endif
