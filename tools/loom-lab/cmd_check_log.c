// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab check-log: scans the guests' kernel console logs for kernel
 * reports (log_scan.c) and the card emulators' logs for strict-register
 * violations, those of a lab or the logs named on the command line (a
 * card's by its name, cardN.log), and prints each
 * finding with the lines around it, so that a failed check can be
 * understood from its output alone.
 */
#include <errno.h>
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

/* How many lines around each finding are printed with it. */
struct excerpt {
	long before, after;
};

/*
 * Prints the findings of one log, prefixed by @who, each with the lines
 * around it: @ex->before lines ahead (the report's header: "cut here", the
 * message a dump_stack() follows, the task and the CPU) and @ex->after
 * behind (the rest of the report, its call trace).  Findings as
 * "FILE:LINE: [CLASS] text", the lines around them as "FILE-LINE- text",
 * runs of lines that do not touch apart by "--", as grep -B/-A prints
 * them.  Returns -1 if the log is unreadable.
 */
static int scan(const char *path, const char *who, const struct excerpt *ex,
		const char *(*classify)(const char *line), struct tally *t)
{
	const char **class = NULL;
	char **line = NULL, *text;
	long n = 0, shown_until = -1, last_printed = -1;

	text = read_text_file(path, NULL);
	if (!text) {
		lab_err("check-log: %scannot read the log %s", who, path);
		return -1;
	}
	for (char *p = text; *p; p++)
		n += *p == '\n';
	n++;
	line = calloc(n, sizeof(*line));
	class = calloc(n, sizeof(*class));
	if (!line || !class) {
		lab_err("check-log: %sout of memory for the %ld lines of %s", who, n, path);
		free(line);
		free(class);
		free(text);
		return -1;
	}
	n = 0;
	for (char *p = text, *nl; p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		if (!nl && !*p)
			break;
		p[strcspn(p, "\r")] = 0;
		line[n] = p;
		class[n] = classify(p);
		if (class[n])
			tally_add(t, class[n]);
		n++;
	}
	for (long i = 0, next = 0; i < n; i++) {
		/* the next finding at or after i, and whether i is near one */
		if (next < i)
			next = i;
		while (next < n && !class[next])
			next++;
		if (class[i])
			shown_until = i + ex->after;
		if (i > shown_until && (next == n || next - i > ex->before))
			continue;
		if (last_printed >= 0 && last_printed != i - 1)
			printf("--\n");
		if (class[i])
			printf("%s%s:%ld: [%s] %s\n", who, path, i + 1, class[i], line[i]);
		else
			printf("%s%s-%ld- %s\n", who, path, i + 1, line[i]);
		last_printed = i;
	}
	free(class);
	free(line);
	free(text);
	return 0;
}

/*
 * What a card run with --strict-registers logs when the driver breaks the
 * register rules (a read of a write-only register, a write of a read-only
 * one): one line per violation.
 */
static const char *card_log_line(const char *line)
{
	return strstr(line, "strict-registers: violation") ? "strict registers" : NULL;
}

/* The logs of host N in a lab and what makes a finding in each. */
static const struct {
	const char *name;
	const char *(*classify)(const char *line);
} lab_logs[] = {
	{ "h%d.console.log", log_scan_line },
	{ "card%d.log", card_log_line },
};

/*
 * The rules for a log named on the command line, by its file name as the lab
 * (and a copy of its logs) names it: a card's log ("cardN.log") is scanned
 * for strict-register violations, any other file as a kernel console log.
 */
static const char *(*file_classifier(const char *path))(const char *line)
{
	const char *base = strrchr(path, '/');
	int h, end = 0;

	base = base ? base + 1 : path;
	if (sscanf(base, "card%d.log%n", &h, &end) == 1 && end && !base[end])
		return card_log_line;
	return log_scan_line;
}

/* A count of lines for --before/--after: 0..10000. */
static int parse_lines(const char *opt, const char *arg, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(arg, &end, 10);
	if (errno || end == arg || *end || *out < 0 || *out > 10000) {
		lab_err("check-log: %s wants a number of lines 0..10000, not '%s'", opt, arg);
		return -1;
	}
	return 0;
}

static void summary(const struct tally *t, int logs)
{
	if (!t->total)
		return;
	fprintf(stderr, "loom-lab: check-log: %d finding%s in %d log%s:",
		t->total, t->total == 1 ? "" : "s", logs, logs == 1 ? "" : "s");
	for (int i = 0; i < t->n; i++)
		fprintf(stderr, "%s %s %d", i ? "," : "", t->class[i], t->count[i]);
	fprintf(stderr, "\n");
}

int cmd_check_log(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "before", required_argument, NULL, 'B' },
		{ "after", required_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir_arg = NULL;
	char dir[LAB_PATH_MAX], path[LAB_PATH_MAX], who[32];
	struct lab_config cfg;
	struct tally t = { .n = 0 };
	struct excerpt ex = { .before = 10, .after = 30 };
	int c, missing = 0, logs = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "hA:B:", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir_arg = optarg; break;
		case 'B':
			if (parse_lines("--before", optarg, &ex.before) < 0)
				return 2;
			break;
		case 'A':
			if (parse_lines("--after", optarg, &ex.after) < 0)
				return 2;
			break;
		case 'h': lab_help("check-log", 0); return 0;
		default: return lab_bad_option("check-log", argv, opts);
		}
	}
	if (!dir_arg == (optind == argc)) {
		lab_err("check-log: usage: loom-lab check-log [--before N] [--after N] --dir DIR | FILE...");
		return 2;
	}
	if (!dir_arg) {
		for (int i = optind; i < argc; i++) {
			if (scan(argv[i], "", &ex, file_classifier(argv[i]), &t) < 0)
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
		/* the guest's console log, then its card's log (if it has a card) */
		for (size_t k = 0; k < (cfg.no_card ? 1 : sizeof(lab_logs) / sizeof(lab_logs[0])); k++) {
			if (lab_path(path, dir, lab_logs[k].name, h) < 0 ||
			    scan(path, who, &ex, lab_logs[k].classify, &t) < 0)
				missing++;
			else
				logs++;
		}
	}
	summary(&t, logs);
	return t.total || missing ? 1 : 0;
}
