// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab: where each host's card emulator and QEMU run.  With at least
 * two CPUs per host (of those loom-lab may use) each gets a CPU of its own,
 * so a spinning vCPU never starves its card and the reverse; with fewer,
 * host i's card and QEMU share CPU i mod N: crossing CPUs costs a wake-up
 * per doorbell and per interrupt on such a machine, and a card and a vCPU
 * that share a CPU hand over to each other in one scheduling step.  The
 * placement is written to DIR/guest/placement (mgmt_net.c),
 * /run/loom-lab/placement in the guests, where the benchmarks read it.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "lab.h"

void lab_place(const int *cpus, int ncpus, int hosts, int host, struct lab_placement *p)
{
	if (ncpus <= 0) {
		*p = (struct lab_placement){ .card_cpu = -1, .qemu_cpu = -1 };
	} else if (ncpus >= 2 * hosts) {
		*p = (struct lab_placement){ .card_cpu = cpus[2 * host],
					     .qemu_cpu = cpus[2 * host + 1], .apart = true };
	} else {
		*p = (struct lab_placement){ .card_cpu = cpus[host % ncpus],
					     .qemu_cpu = cpus[host % ncpus] };
	}
}

int lab_allowed_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 0;
	for (int cpu = 0; cpu < CPU_SETSIZE && n < max; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus[n++] = cpu;
	return n;
}

void lab_host_placement(const struct lab_config *cfg, int host, struct lab_placement *p)
{
	int cpus[CPU_SETSIZE];

	lab_place(cpus, lab_allowed_cpus(cpus, CPU_SETSIZE), cfg->hosts, host, p);
}

void lab_placement_text(const struct lab_placement *p, int host, int ncpus, int hosts,
			char *out, size_t len)
{
	if (p->card_cpu < 0)
		snprintf(out, len, "host %d: card and VM not pinned (CPU affinity unknown)", host);
	else if (p->apart)
		snprintf(out, len, "host %d: card on CPU %d, VM on CPU %d", host, p->card_cpu,
			 p->qemu_cpu);
	else
		snprintf(out, len, "host %d: card and VM share CPU %d (%d CPUs for %d hosts, "
			 "fewer than 2 per host)", host, p->card_cpu, ncpus, hosts);
}
