/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the round-trip latency benchmarks (loom_put_lat, loom_get_lat,
 * loom_atomic_lat) share: the transport floors (a NOP's round trip through
 * the local card, reaped by polling and in the benchmark's own completion
 * mode), the placement line and the perftest-style table or JSON rows.
 */
#ifndef LOOM_BENCH_LAT_REPORT_H
#define LOOM_BENCH_LAT_REPORT_H

#include <stdint.h>

#include "bench_conn.h"
#include "lat_stats.h"

/* where the lab says how it placed its card processes and vCPUs */
#define LAT_PLACEMENT_FILE	"/run/loom-lab/placement"

struct lat_floors {
	struct lat_stats poll;	/* NOP round trip, completion polled */
	struct lat_stats mode;	/* the same in the benchmark's mode (= poll in poll mode) */
};

/*
 * The NOP round trips of @iters NOPs, polled and in the benchmark's mode
 * (that one with busy polling off: the sleeping path); 0, or 1 after a
 * message.
 */
int lat_floors(struct bench_conn *b, uint32_t iters, struct lat_floors *f);
/*
 * The table's title block (floors, busy polling, placement) and column
 * header; nothing with --json.
 */
void lat_print_header(const struct bench_conn *b, const char *title,
		      const struct lat_floors *f);
/* One row; @op names the operation ("put", "get", "fetch_add", ...). */
void lat_print_row(const struct bench_opts *o, uint64_t size, const struct lat_stats *st,
		   const struct lat_floors *f, const char *op);

#endif
