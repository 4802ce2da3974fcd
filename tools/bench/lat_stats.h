/* SPDX-License-Identifier: GPL-2.0 */
/* Latency statistics in the perftest shape: min, max, typical (median),
 * average, standard deviation, 99% and 99.9% percentiles.
 */
#ifndef LOOM_LAT_STATS_H
#define LOOM_LAT_STATS_H

#include <stddef.h>

struct lat_stats {
	double min, max, typical, avg, stdev, p99, p999;
};

/* Sorts @v (n > 0 samples, any unit) and summarises it. */
void lat_stats_compute(double *v, size_t n, struct lat_stats *st);

#endif
