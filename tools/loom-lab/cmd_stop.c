// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab stop: tears a lab down from what DIR records; idempotent.
 * --save-logs DEST first copies the lab's logs (they go with DIR).
 */
#include <getopt.h>
#include <stdio.h>

#include "lab.h"

int cmd_stop(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "save-logs", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir_arg = NULL, *save = NULL;
	char dir[LAB_PATH_MAX];
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir_arg = optarg; break;
		case 's': save = optarg; break;
		case 'h': lab_help("stop", 0); return 0;
		default: return lab_bad_option("stop", argv, opts);
		}
	}
	if (!dir_arg || optind != argc) {
		lab_err("stop: usage: loom-lab stop --dir DIR [--save-logs DEST]");
		return 2;
	}
	if (lab_abs_dir(dir_arg, dir) < 0) {
		lab_err("stop: cannot make %s absolute", dir_arg);
		return 2;
	}
	return lab_teardown(dir, save) < 0 ? 1 : 0;
}
