/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A 2x2x2 torus of card emulators for the remote-memory-operation tests:
 * node = x | y << 1 | z << 2; in dimension d, port 2d of each card is
 * cabled to port 2d + 1 of its neighbour (two cables per pair, as a
 * 2-ary torus has), dimension-order routes over the 2d ports.
 */
#ifndef LOOM_TESTS_RMA_TORUS_H
#define LOOM_TESTS_RMA_TORUS_H

#include "fabric.h"

#define RMA_TORUS_DIMS	3
#define RMA_TORUS_CARDS	(1u << RMA_TORUS_DIMS)

/* Start the 8 cards, attach their fake hosts, wait for every link. */
int rma_torus_start(struct fabric *f);

/*
 * Create context @idx on card @i of @f as fh_ctx_create() does, with a
 * counters page (LOOM_CTXR_CNT_*) allocated in its guest RAM, returned in
 * *@counters (the host's view).  Admin result, or -1.
 */
int rma_ctx_create(struct fabric *f, unsigned int i, struct fh_ctx *ctx, unsigned int idx,
		   uint32_t key, uint64_t seg_size, volatile uint64_t **counters);

#endif
