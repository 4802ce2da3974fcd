// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab's placement: a CPU each for a host's card and QEMU when there
 * are two CPUs per host, else card and QEMU of host i together on CPU
 * i mod N; and the line that tells the benchmarks what it did.
 */
#include <string.h>

#include "lab.h"
#include "tap.h"

TAP_DEFINE;

static void place_all(const int *cpus, int ncpus, int hosts, struct lab_placement *p)
{
	for (int i = 0; i < hosts; i++)
		lab_place(cpus, ncpus, hosts, i, &p[i]);
}

int main(void)
{
	static const int cpus[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	static const int sparse[] = { 1, 3, 5, 7 };
	struct lab_placement p[8];
	char line[160];

	tap_plan(7);

	place_all(cpus, 2, 2, p);
	tap_ok(!p[0].apart && !p[1].apart && p[0].card_cpu == 0 && p[0].qemu_cpu == 0 &&
	       p[1].card_cpu == 1 && p[1].qemu_cpu == 1,
	       "2 CPUs, 2 hosts: each host's card and VM share its CPU (h0 %d/%d, h1 %d/%d)",
	       p[0].card_cpu, p[0].qemu_cpu, p[1].card_cpu, p[1].qemu_cpu);

	place_all(cpus, 4, 2, p);
	tap_ok(p[0].apart && p[1].apart && p[0].card_cpu == 0 && p[0].qemu_cpu == 1 &&
	       p[1].card_cpu == 2 && p[1].qemu_cpu == 3,
	       "4 CPUs, 2 hosts: card and VM apart, no CPU used twice (h0 %d/%d, h1 %d/%d)",
	       p[0].card_cpu, p[0].qemu_cpu, p[1].card_cpu, p[1].qemu_cpu);

	place_all(sparse, 4, 2, p);
	tap_ok(p[0].card_cpu == 1 && p[0].qemu_cpu == 3 && p[1].card_cpu == 5 &&
	       p[1].qemu_cpu == 7,
	       "only the CPUs the lab may use are handed out (h0 %d/%d, h1 %d/%d)",
	       p[0].card_cpu, p[0].qemu_cpu, p[1].card_cpu, p[1].qemu_cpu);

	place_all(cpus, 3, 4, p);
	tap_ok(!p[3].apart && p[3].card_cpu == 0 && p[3].qemu_cpu == 0 && p[2].card_cpu == 2,
	       "3 CPUs, 4 hosts: host i on CPU i mod 3 (h2 %d, h3 %d)", p[2].card_cpu,
	       p[3].card_cpu);

	lab_place(cpus, 0, 2, 0, &p[0]);
	tap_ok(p[0].card_cpu == -1 && p[0].qemu_cpu == -1,
	       "no CPU known: nothing pinned (%d/%d)", p[0].card_cpu, p[0].qemu_cpu);

	lab_place(cpus, 4, 2, 1, &p[0]);
	lab_placement_text(&p[0], 1, 4, 2, line, sizeof(line));
	tap_ok(!strcmp(line, "host 1: card on CPU 2, VM on CPU 3"), "apart: '%s'", line);
	lab_place(cpus, 2, 2, 1, &p[0]);
	lab_placement_text(&p[0], 1, 2, 2, line, sizeof(line));
	tap_ok(!strcmp(line, "host 1: card and VM share CPU 1 (2 CPUs for 2 hosts, fewer than 2 per host)"),
	       "shared: '%s'", line);
	return tap_exit_status();
}
