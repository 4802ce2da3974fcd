/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kx x ky torus of card emulators cabled, routed and VC-tabled as
 * loom-fm's dor engine does: node = x + kx * y, port d goes +d and port
 * 2 + d goes -d (d = 0 X, 1 Y), dimension order X then Y, the shorter way
 * round (a tie goes +), PORT_CFG dimension = port % 2, a dateline on the
 * wrap-around channels of every ring (x = kx - 1 going +X, x = 0 going -X,
 * and likewise in Y).  Packets change dimension, so the "new dimension
 * starts from START_VC1" rule is exercised, not only datelines.
 */
#ifndef LOOM_TESTS_TORUS2D_H
#define LOOM_TESTS_TORUS2D_H

#include <stdint.h>

#include "alltoall.h"
#include "fabric.h"

#define TORUS2D_PORTS	4

/*
 * Start the kx * ky cards (at most FABRIC_MAX_CARDS; guest RAM
 * FABRIC_RAM_SIZE_BIG each beyond 8 cards) with 2 whole-packet buffers
 * per VC (--vc-buffers), or for a @cyclic test 1 and an operation timeout
 * of 1 s (--op-timeout: what a dead port drops ends in 1 s, not 10),
 * attach their fake hosts, wait for every link.  0, or -1 with a
 * diagnostic.
 */
int torus2d_start(struct fabric *f, unsigned int kx, unsigned int ky, bool cyclic);
/* DOR output port at (x, y) toward @dest, -1 for the node itself. */
int torus2d_dor_port(unsigned int kx, unsigned int ky, unsigned int x, unsigned int y,
		     unsigned int dest);
/*
 * Make the VC configuration cyclic at run time: every port of the @n cards
 * in no dimension and no dateline (everything on VC0), forward-progress
 * timer @fp_timeout_ms.
 */
void torus2d_make_cyclic(struct fabric *f, unsigned int n, uint32_t fp_timeout_ms);
/* Ports of the @n cards with STATUS.DEAD; *events = sum of PORTS_EVENTS. */
unsigned int torus2d_dead_ports(struct fabric *f, unsigned int n, uint32_t *events);

/*
 * The VC model under load, 2 + @n_cfgs TAP results: start a kx x ky torus,
 * with datelines and 2 buffers per VC or (@cyclic) made cyclic with 1
 * buffer per VC and a 300 ms forward-progress timer, and run the
 * all-to-all workloads @cfgs one after the other.  Datelines: each
 * completes perfectly, no port is declared dead.  Cyclic: the deadlock is
 * detected (ports DEAD, PORTS_EVENTS counted) and every operation of each
 * workload completes, the stuck ones with an error.
 */
void torus2d_vc_test(unsigned int kx, unsigned int ky, bool cyclic,
		     const struct alltoall_cfg *cfgs, unsigned int n_cfgs);

#endif
