/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the VM guest programs that kill processes report about one that
 * does not go away: the State line of /proc/PID/status.
 */
#ifndef LOOM_TESTS_VM_PROC_STATE_H
#define LOOM_TESTS_VM_PROC_STATE_H

#include <stdio.h>
#include <string.h>
#include <sys/types.h>

/* "R (running)", "Z (zombie)"... of @pid into @out, "gone" without one */
static inline void proc_state(pid_t pid, char *out, size_t len)
{
	char path[64], line[128];
	FILE *f;

	snprintf(out, len, "gone");
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "State:", 6)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(out, len, "%.60s", line + 7);
		}
	fclose(f);
}

#endif
