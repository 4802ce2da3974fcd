/* SPDX-License-Identifier: GPL-2.0 */
/* loom-fm: the command line (main.c, help.c, opts.c). */
#ifndef LOOM_FM_FM_H
#define LOOM_FM_FM_H

#include <getopt.h>
#include <stdio.h>

#include "engine.h"

#define FM_EXIT_OK	0
#define FM_EXIT_CHECK	1	/* tables incomplete or cyclic */
#define FM_EXIT_USAGE	2	/* bad options or topology */

void fm_usage(FILE *f);
/* "loom-fm: " and the printf-style message, a pointer to --help on stderr; FM_EXIT_USAGE */
int fm_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* fm_usage_error() for the option getopt_long() just rejected (@c is what it
 * returned: ':' a missing argument, '?' an unknown option), naming the
 * closest of @longopts when one is close
 */
int fm_bad_option(int c, char **argv, const struct option *longopts);
/* an unknown command: fm_usage_error() naming the closest command */
int fm_bad_command(const char *cmd);

/* A decimal number in lo..hi (opts.c); 0, or -1 for anything else. */
int fm_parse_uint(const char *s, long lo, long hi, long *out);
/* --root NODE into o->root: -1 done, or FM_EXIT_USAGE (said). */
int fm_parse_root(const char *s, struct fm_engine_opts *o);
/* --deroutes M into o->deroutes: -1 done, or FM_EXIT_USAGE (said). */
int fm_parse_deroutes(const char *s, struct fm_engine_opts *o);

#endif
