// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab record --dir DIR OUTDIR | off: every card of the lab records the
 * requests its host sends into the router ("record FILE" on its control
 * socket, DIR/cardN.ctl) into OUTDIR/cardN.trace, or finishes its file
 * ("record off").  The traces are what loom-sim --replay reads.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lab.h"

/* Ask card @node of the lab in @dir; its answer in @ans; LAB_EXIT_LAB_ERROR when silent. */
static int ask_card(const char *dir, const char *dir_arg, int node, const char *line, char *ans,
		    size_t len)
{
	char path[LAB_PATH_MAX], why[LAB_PATH_MAX + 128];

	if (lab_path(path, dir, "card%d.ctl", node) < 0) {
		lab_err("record: lab directory %s is too long", dir);
		return LAB_EXIT_LAB_ERROR;
	}
	if (lab_ctl_ask(path, line, ans, len, why, sizeof(why)) < 0) {
		lab_err("record: card %d: %s (is the lab running? `loom-lab status --dir %s`; "
			"see %s/card%d.log)", node, why, dir_arg, dir_arg, node);
		return LAB_EXIT_LAB_ERROR;
	}
	return 0;
}

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir_arg = NULL, *what;
	char dir[LAB_PATH_MAX], out[PATH_MAX], line[PATH_MAX + 32], ans[1024];
	char shape[TOPO_NAME_MAX + 8];
	struct lab_config cfg;
	struct stat st;
	bool off;
	int c, rc = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir_arg = optarg; break;
		case 'h': lab_help("record", 0); return 0;
		default: return lab_bad_option("record", argv, opts);
		}
	}
	if (!dir_arg || optind + 1 != argc) {
		lab_err("record: usage: loom-lab record --dir DIR OUTDIR | loom-lab record --dir DIR off");
		return 2;
	}
	what = argv[optind];
	off = !strcmp(what, "off");
	if (!off && (!realpath(what, out) || stat(out, &st) < 0 || !S_ISDIR(st.st_mode))) {
		lab_err("record: OUTDIR '%s': not a directory (create it first)", what);
		return 2;
	}
	if (!off && strlen(out) + sizeof("/card999.trace") > 200) {
		lab_err("record: OUTDIR '%s': longer than the card's control lines allow (180 bytes)",
			out);
		return 2;
	}
	if (lab_abs_dir(dir_arg, dir) < 0 || lab_config_load(dir, &cfg) < 0) {
		lab_err("record: no lab in %s (start one with `loom-lab start`)", dir_arg);
		return LAB_EXIT_LAB_ERROR;
	}
	if (cfg.no_card) {
		lab_err("record: the lab in %s runs without cards (--no-card): nothing to record",
			dir_arg);
		return LAB_EXIT_LAB_ERROR;
	}
	for (int node = 0; node < cfg.hosts; node++) {
		int r;

		if (off)
			snprintf(line, sizeof(line), "record off\n");
		else
			snprintf(line, sizeof(line), "record %s/card%d.trace\n", out, node);
		r = ask_card(dir, dir_arg, node, line, ans, sizeof(ans));
		if (r)
			return r;
		if (strncmp(ans, "ok ", 3)) {
			lab_err("record: card %d refused: %s", node, ans);
			rc = 1;
			continue;
		}
		if (off)
			printf("node %d: %s\n", node, ans + 3);
		else
			printf("node %d: recording into %s/card%d.trace\n", node, out, node);
	}
	topo_name(&cfg.shape, shape, sizeof(shape));
	/* loom-sim names a ring with its size */
	if (!strchr(shape, ':'))
		snprintf(shape + strlen(shape), sizeof(shape) - strlen(shape), ":%d", cfg.hosts);
	if (off && !rc)
		printf("replay: loom-sim --topology %s --replay DIR/card0.trace ... --replay "
		       "DIR/card%d.trace (DIR: the OUTDIR given to record)\n", shape, cfg.hosts - 1);
	return rc;
}
