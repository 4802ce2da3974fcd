/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The performance counters block (LOOM_BLK_PERF): the router's counters
 * (router.h: router_counters, router_port_counters, router_vc_counters),
 * its input buffers' fill and the card's clock, copied into the register
 * window as one snapshot when software asks for one (SNAP_SEQ).  The card
 * counts nothing here itself.  Documented in Documentation/hw/registers.rst.
 */
#ifndef LOOM_CARD_PERF_H
#define LOOM_CARD_PERF_H

#include <stdint.h>

struct card;

/* Write the block header at @off (chained to @next) and its geometry. */
void perf_init(struct card *c, uint32_t off, uint32_t next);
/* After a kick: take the snapshot software asked for, if any. */
void perf_poll(struct card *c);

#endif
