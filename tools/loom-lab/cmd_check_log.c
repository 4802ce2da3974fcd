// SPDX-License-Identifier: GPL-2.0
/* loom-lab check-log: scans the guests' kernel console logs for trouble. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "sys.h"

static const char *const patterns[] = {
	"Oops", "BUG:", "WARNING:", "Call Trace", "kmemleak", "KASAN",
	"general protection", "unreferenced object",
};

static int scan(const char *dir, int host)
{
	char path[LAB_PATH_MAX];
	char *text;
	int found = 0, lineno = 0;

	if (lab_path(path, dir, "h%d.console.log", host) < 0)
		return -1;
	text = read_text_file(path, NULL);
	if (!text) {
		lab_err("check-log: host %d has no console log %s", host, path);
		return -1;
	}
	for (char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		lineno++;
		p[strcspn(p, "\r")] = 0;
		for (size_t i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++)
			if (strstr(p, patterns[i])) {
				printf("host %d: %s:%d: %s\n", host, path, lineno, p);
				found++;
				break;
			}
	}
	free(text);
	return found;
}

int cmd_check_log(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir_arg = NULL;
	char dir[LAB_PATH_MAX];
	struct lab_config cfg;
	int c, total = 0, missing = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir_arg = optarg; break;
		case 'h': lab_help("check-log", 0); return 0;
		default: return lab_bad_option("check-log", argv, opts);
		}
	}
	if (!dir_arg || optind != argc) {
		lab_err("check-log: usage: loom-lab check-log --dir DIR");
		return 2;
	}
	if (lab_abs_dir(dir_arg, dir) < 0 || lab_config_load(dir, &cfg) < 0) {
		lab_err("check-log: no lab in %s", dir_arg);
		return 1;
	}
	for (int h = 0; h < cfg.hosts; h++) {
		int n = scan(dir, h);

		if (n < 0)
			missing++;
		else
			total += n;
	}
	if (total)
		fprintf(stderr, "loom-lab: check-log: %d finding%s in the guest console "
			"logs\n", total, total == 1 ? "" : "s");
	return total || missing ? 1 : 0;
}
