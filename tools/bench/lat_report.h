/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the round-trip latency benchmarks (loom_get_lat, loom_atomic_lat,
 * and for the floor loom_put_lat) share: the transport floor (a NOP's round trip through the local card)
 * and the perftest-style table or JSON rows.
 */
#ifndef LOOM_BENCH_LAT_REPORT_H
#define LOOM_BENCH_LAT_REPORT_H

#include <stdint.h>

#include "bench_conn.h"
#include "lat_stats.h"

/* Round trip of @iters NOPs through the local card; 0 or 1 after a message. */
int lat_floor(struct bench_conn *b, uint32_t iters, struct lat_stats *st);
/* The table's title block and column header (nothing with --json). */
void lat_print_header(const struct bench_opts *o, const char *title,
		      const struct lat_stats *floor_st);
/* One row; @op names the operation ("get", "fetch_add", ...). */
void lat_print_row(const struct bench_opts *o, uint64_t size, const struct lat_stats *st,
		   double floor_us, const char *op);

#endif
