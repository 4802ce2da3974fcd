// SPDX-License-Identifier: GPL-2.0
/* loom-lab: the loom VM lab (see Documentation/tools/loom-lab.rst). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "lab.h"
#include "../common/cli.h"

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
	{ "record", cmd_record },
};

static int lab_unknown_command(const char *typed)
{
	const char *names[sizeof(commands) / sizeof(commands[0]) + 1];
	const char *near;

	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		names[i] = commands[i].name;
	names[sizeof(commands) / sizeof(commands[0])] = NULL;
	near = cli_suggest(typed, names);
	if (near)
		lab_err("unknown command '%s': did you mean '%s'? (commands: start, exec, stop, "
			"status, check-log, topology, cut, restore, ber, drop, stats, record; see "
			"loom-lab --help)", typed, near);
	else
		lab_err("unknown command '%s' (commands: start, exec, stop, status, "
			"check-log, topology, cut, restore, ber, drop, stats, record; see "
			"loom-lab --help)", typed);
	return 2;
}

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
	if (cli_is_version(argv[1]))
		return cli_version("loom-lab");
	/* the commands say their own option errors (lab_bad_option()) */
	opterr = 0;
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	return lab_unknown_command(argv[1]);
}
