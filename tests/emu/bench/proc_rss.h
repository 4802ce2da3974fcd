/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Resident set of a process, for the benchmarks' memory figures.
 */
#ifndef LOOM_TESTS_PROC_RSS_H
#define LOOM_TESTS_PROC_RSS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* VmRSS of process @pid in KiB, -1 if it cannot be read. */
static inline long proc_rss_kib(pid_t pid)
{
	char path[64], line[256];
	long kib = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmRSS:", 6))
			kib = strtol(line + 6, NULL, 10);
	fclose(f);
	return kib;
}

#endif
