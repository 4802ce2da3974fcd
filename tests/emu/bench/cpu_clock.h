/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU time of the calling process, for the benchmarks' rates: a figure per
 * CPU second does not depend on what else the machine runs.
 */
#ifndef LOOM_TESTS_CPU_CLOCK_H
#define LOOM_TESTS_CPU_CLOCK_H

#include <time.h>

/* CPU seconds this process has used (every thread). */
static inline double process_cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
