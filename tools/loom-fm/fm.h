/* SPDX-License-Identifier: GPL-2.0 */
/* loom-fm: the command line (main.c, help.c). */
#ifndef LOOM_FM_FM_H
#define LOOM_FM_FM_H

#include <stdio.h>

#define FM_EXIT_OK	0
#define FM_EXIT_CHECK	1	/* tables incomplete or cyclic */
#define FM_EXIT_USAGE	2	/* bad options or topology */

void fm_usage(FILE *f);
/* "loom-fm: " fmt (with arg) and a pointer to --help on stderr; FM_EXIT_USAGE */
int fm_usage_error(const char *fmt, const char *arg);
/* fm_usage_error() for the option getopt_long() just rejected (optopt, optind) */
int fm_bad_option(char **argv);

#endif
