// SPDX-License-Identifier: GPL-2.0
/* loom-lab status: one line per supervisor, VM and emulator: pid, alive. */
#include <getopt.h>
#include <stdio.h>

#include "lab.h"

int cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct lab_proc procs[4 * LAB_MAX_HOSTS + 8];
	const char *dir_arg = NULL;
	char dir[LAB_PATH_MAX];
	struct lab_config cfg;
	int c, n, dead = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir_arg = optarg; break;
		case 'h': lab_help("status", 0); return 0;
		default: return lab_bad_option("status", argv, opts);
		}
	}
	if (!dir_arg || optind != argc) {
		lab_err("status: usage: loom-lab status --dir DIR");
		return 2;
	}
	if (lab_abs_dir(dir_arg, dir) < 0 || lab_config_load(dir, &cfg) < 0 ||
	    (n = lab_pids_load(dir, procs, (int)(sizeof(procs) / sizeof(procs[0])))) < 0) {
		lab_err("status: no lab in %s", dir_arg);
		return 1;
	}
	char shape[TOPO_NAME_MAX];

	topo_name(&cfg.shape, shape, sizeof(shape));
	printf("shape: %s, %d host%s%s%s%s%s\n", shape, cfg.hosts, cfg.hosts > 1 ? "s" : "",
	       cfg.no_card ? ", no cards" : "", cfg.tcp_cables ? ", cables over TCP" : "",
	       cfg.rtl_router ? ", RTL routers" : "", cfg.no_net ? ", no management network" : "");
	static const enum lab_role order[] = { LAB_ROLE_SUPERVISOR, LAB_ROLE_SWITCH,
					       LAB_ROLE_QEMU, LAB_ROLE_CARD };
	for (size_t r = 0; r < sizeof(order) / sizeof(order[0]); r++) {
		for (int i = 0; i < n; i++) {
			const struct lab_proc *p = &procs[i];
			bool dup = false, alive;

			if (p->role != order[r])
				continue;
			for (int j = 0; j < i; j++)
				dup |= procs[j].pid == p->pid && procs[j].role == p->role;
			if (dup)
				continue;
			alive = lab_proc_alive(p);
			dead += !alive;
			if (p->role == LAB_ROLE_SUPERVISOR)
				printf("supervisor: pid %d %s\n", (int)p->pid,
				       alive ? "alive" : "dead");
			else if (p->role == LAB_ROLE_SWITCH)
				printf("network: vde_switch pid %d %s\n", (int)p->pid,
				       alive ? "alive" : "dead");
			else if (p->role == LAB_ROLE_QEMU)
				printf("host %d: qemu pid %d %s\n", p->index, (int)p->pid,
				       alive ? "alive" : "dead");
			else
				printf("card %d: loom-card pid %d %s\n", p->index,
				       (int)p->pid, alive ? "alive" : "dead");
		}
	}
	return dead ? 1 : 0;
}
