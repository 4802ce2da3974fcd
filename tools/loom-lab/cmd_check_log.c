// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab check-log: scans the guests' kernel console logs (or the console
 * logs named on the command line) for kernel reports (log_scan.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "log_scan.h"
#include "sys.h"

#define MAX_CLASSES 32

/* How many findings of each class, in the order they were first seen. */
struct tally {
	const char *class[MAX_CLASSES];
	int count[MAX_CLASSES];
	int n, total;
};

static void tally_add(struct tally *t, const char *class)
{
	int i;

	t->total++;
	for (i = 0; i < t->n; i++)
		if (!strcmp(t->class[i], class))
			break;
	if (i == t->n) {
		if (t->n == MAX_CLASSES)
			return;
		t->class[t->n++] = class;
	}
	t->count[i]++;
}

/* Prints each finding of one log, prefixed by @who; -1 if it is unreadable. */
static int scan(const char *path, const char *who, struct tally *t)
{
	char *text;
	int lineno = 0;

	text = read_text_file(path, NULL);
	if (!text) {
		lab_err("check-log: %scannot read the console log %s", who, path);
		return -1;
	}
	for (char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		const char *class;

		nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		lineno++;
		p[strcspn(p, "\r")] = 0;
		class = log_scan_line(p);
		if (class) {
			printf("%s%s:%d: [%s] %s\n", who, path, lineno, class, p);
			tally_add(t, class);
		}
	}
	free(text);
	return 0;
}

static void summary(const struct tally *t, int logs)
{
	if (!t->total)
		return;
	fprintf(stderr, "loom-lab: check-log: %d finding%s in %d console log%s:",
		t->total, t->total == 1 ? "" : "s", logs, logs == 1 ? "" : "s");
	for (int i = 0; i < t->n; i++)
		fprintf(stderr, "%s %s %d", i ? "," : "", t->class[i], t->count[i]);
	fprintf(stderr, "\n");
}

int cmd_check_log(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir_arg = NULL;
	char dir[LAB_PATH_MAX], path[LAB_PATH_MAX], who[32];
	struct lab_config cfg;
	struct tally t = { .n = 0 };
	int c, missing = 0, logs = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir_arg = optarg; break;
		case 'h': lab_help("check-log", 0); return 0;
		default: return lab_bad_option("check-log", argv, opts);
		}
	}
	if (!dir_arg == (optind == argc)) {
		lab_err("check-log: usage: loom-lab check-log --dir DIR | FILE...");
		return 2;
	}
	if (!dir_arg) {
		for (int i = optind; i < argc; i++) {
			if (scan(argv[i], "", &t) < 0)
				missing++;
			else
				logs++;
		}
		summary(&t, logs);
		return t.total || missing ? 1 : 0;
	}
	if (lab_abs_dir(dir_arg, dir) < 0 || lab_config_load(dir, &cfg) < 0) {
		lab_err("check-log: no lab in %s", dir_arg);
		return 1;
	}
	for (int h = 0; h < cfg.hosts; h++) {
		snprintf(who, sizeof(who), "host %d: ", h);
		if (lab_path(path, dir, "h%d.console.log", h) < 0 ||
		    scan(path, who, &t) < 0)
			missing++;
		else
			logs++;
	}
	summary(&t, logs);
	return t.total || missing ? 1 : 0;
}
