// SPDX-License-Identifier: GPL-2.0
/* loom-lab: the loom VM lab (see Documentation/tools/loom-lab.rst). */
#include <stdio.h>
#include <string.h>

#include "lab.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "start", cmd_start },
	{ "exec", cmd_exec },
	{ "stop", cmd_stop },
	{ "status", cmd_status },
	{ "check-log", cmd_check_log },
	{ "topology", cmd_topology },
	{ "cut", cmd_cable },
	{ "restore", cmd_cable },
	{ "ber", cmd_cable },
	{ "drop", cmd_cable },
	{ "stats", cmd_cable },
};

int main(int argc, char **argv)
{
	if (argc < 2) {
		lab_help(NULL, 1);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		lab_help(argc > 2 ? argv[2] : NULL, 0);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	lab_err("unknown command '%s' (commands: start, exec, stop, status, "
		"check-log, topology, cut, restore, ber, drop, stats; see "
		"loom-lab --help)", argv[1]);
	return 2;
}
