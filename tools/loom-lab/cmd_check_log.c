// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab check-log: scans the guests' kernel console logs, and the card
 * emulators' logs, for trouble.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "sys.h"

static const char *const patterns[] = {
	"Oops", "BUG:", "WARNING:", "Call Trace", "kmemleak", "KASAN",
	"general protection", "unreferenced object",
};

/* what a card run with --strict-registers logs for a driver's mistake */
static const char *const card_patterns[] = { "strict-registers: violation" };

/* Print and count the lines of @path holding one of @pat; -1 if unreadable. */
static int scan_file(const char *path, int host, const char *const *pat, size_t n_pat)
{
	char *text = read_text_file(path, NULL);
	int found = 0, lineno = 0;

	if (!text)
		return -1;
	for (char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		lineno++;
		p[strcspn(p, "\r")] = 0;
		for (size_t i = 0; i < n_pat; i++)
			if (strstr(p, pat[i])) {
				printf("host %d: %s:%d: %s\n", host, path, lineno, p);
				found++;
				break;
			}
	}
	free(text);
	return found;
}

static int scan(const char *dir, int host, bool cards)
{
	char path[LAB_PATH_MAX];
	int found, card;

	if (lab_path(path, dir, "h%d.console.log", host) < 0)
		return -1;
	found = scan_file(path, host, patterns, sizeof(patterns) / sizeof(patterns[0]));
	if (found < 0) {
		lab_err("check-log: host %d has no console log %s", host, path);
		return -1;
	}
	if (!cards)
		return found;
	if (lab_path(path, dir, "card%d.log", host) < 0)
		return -1;
	card = scan_file(path, host, card_patterns,
			 sizeof(card_patterns) / sizeof(card_patterns[0]));
	if (card < 0) {
		lab_err("check-log: host %d has no card log %s", host, path);
		return -1;
	}
	return found + card;
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
		int n = scan(dir, h, !cfg.no_card);

		if (n < 0)
			missing++;
		else
			total += n;
	}
	if (total)
		fprintf(stderr, "loom-lab: check-log: %d finding%s in the guest console "
			"and card logs\n", total, total == 1 ? "" : "s");
	return total || missing ? 1 : 0;
}
