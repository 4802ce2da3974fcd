/* SPDX-License-Identifier: GPL-2.0 */
/* loom-fm: the command line (main.c, help.c). */
#ifndef LOOM_FM_FM_H
#define LOOM_FM_FM_H

#include <stdio.h>

#define FM_EXIT_OK	0
#define FM_EXIT_CHECK	1	/* tables incomplete or cyclic */
#define FM_EXIT_USAGE	2	/* bad options or topology */

void fm_usage(FILE *f);

#endif
