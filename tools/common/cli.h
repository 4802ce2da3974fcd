/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command-line conventions every loom tool shares: exit status 2 for a
 * usage error, -V/--version printing "TOOL VERSION", and for a misspelt
 * command, option or keyword the closest right spelling.
 */
#ifndef LOOM_TOOLS_CLI_H
#define LOOM_TOOLS_CLI_H

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#ifndef LOOM_VERSION
#define LOOM_VERSION "unknown"
#endif

#define CLI_EXIT_USAGE	2

/* edit distance counting a swap of two neighbours as one edit (optimal
 * string alignment); 99 for words longer than 32
 */
static inline unsigned int cli_distance(const char *a, const char *b)
{
	unsigned int d[33][33], la = (unsigned int)strlen(a), lb = (unsigned int)strlen(b);

	if (la > 32 || lb > 32)
		return 99;
	for (unsigned int i = 0; i <= la; i++)
		d[i][0] = i;
	for (unsigned int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (unsigned int i = 1; i <= la; i++) {
		for (unsigned int j = 1; j <= lb; j++) {
			unsigned int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

/* the word @arg is most likely a misspelling of: within two edits (one for
 * words of up to four letters, none for two), or a word @arg abbreviates;
 * NULL when none is that close
 */
static inline const char *cli_suggest(const char *arg, const char *const *words)
{
	const char *best = NULL;
	unsigned int best_d = 99;
	size_t n = strlen(arg);

	for (int i = 0; words[i]; i++) {
		size_t len = strlen(words[i]);
		unsigned int limit = len <= 2 ? 0 : len <= 4 ? 1 : 2;
		unsigned int d = cli_distance(arg, words[i]);

		if (n >= 3 && n < len && !strncmp(words[i], arg, n))
			d = 1;
		if (d <= limit && d < best_d) {
			best = words[i];
			best_d = d;
		}
	}
	return best;
}

/* the long option ("--name") @arg (as typed, "--nmae=3" too) most likely
 * misspells, among @opts; NULL when none is close
 */
static inline const char *cli_suggest_option(const char *arg, const struct option *opts)
{
	static char names[64][40];
	const char *words[65];
	char typed[40];
	int n = 0;

	snprintf(typed, sizeof(typed), "%s", arg);
	typed[strcspn(typed, "=")] = '\0';
	for (; opts[n].name && n < 64; n++) {
		snprintf(names[n], sizeof(names[n]), "--%s", opts[n].name);
		words[n] = names[n];
	}
	words[n] = NULL;
	return cli_suggest(typed, words);
}

/* what is wrong with the option getopt_long() just rejected, into @buf: @c
 * is what it returned (':' a missing value when the option string starts
 * with ':', '?' an unknown option); the closest of @opts is named
 */
static inline void cli_option_problem(char *buf, size_t len, int c, char **argv,
				      const struct option *opts)
{
	const char *typed = argv[optind - 1], *near;

	if (c == ':') {
		snprintf(buf, len, "option '%s' needs a value", typed);
		return;
	}
	if (optopt > 0 && optopt < 256 && strncmp(typed, "--", 2)) {
		snprintf(buf, len, "unknown option '-%c'", optopt);
		return;
	}
	near = cli_suggest_option(typed, opts);
	if (near)
		snprintf(buf, len, "unknown option '%s': did you mean '%s'?", typed, near);
	else
		snprintf(buf, len, "unknown option '%s'", typed);
}

/* cli_option_problem() as "TOOL: PROBLEM" and "Try 'TOOL --help'." on
 * stderr; returns CLI_EXIT_USAGE
 */
static inline int cli_bad_option(const char *tool, int c, char **argv,
				 const struct option *opts)
{
	char msg[256];

	cli_option_problem(msg, sizeof(msg), c, argv, opts);
	fprintf(stderr, "%s: %s\nTry '%s --help'.\n", tool, msg, tool);
	return CLI_EXIT_USAGE;
}

/* a card named as on every loom command line, loomN (or its device node
 * /dev/loomN, or any other path for a renamed node), as the path to open;
 * NULL when @arg is none of these
 */
static inline const char *cli_dev_path(const char *arg, char *buf, size_t len)
{
	const char *p = arg + 4;

	if (strchr(arg, '/'))
		return arg;
	if (strncmp(arg, "loom", 4) || !*p || strspn(p, "0123456789") != strlen(p) ||
	    strlen(p) > 3)
		return NULL;
	snprintf(buf, len, "/dev/%s", arg);
	return buf;
}

/* -V / --version: "TOOL VERSION" on standard output */
static inline int cli_version(const char *tool)
{
	printf("%s %s\n", tool, LOOM_VERSION);
	return 0;
}

static inline int cli_is_version(const char *arg)
{
	return !strcmp(arg, "-V") || !strcmp(arg, "--version");
}

#endif /* LOOM_TOOLS_CLI_H */
