/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP producer for loom's C tests: plan, ok/not ok, diagnostics,
 * skip.  Exit status: 0 all passed, 1 a failure, 4 skipped.
 */
#ifndef LOOM_TESTS_TAP_H
#define LOOM_TESTS_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct tap_state {
	int planned;
	int run;
	int failed;
};

extern struct tap_state tap;

#define TAP_DEFINE struct tap_state tap

static inline void tap_plan(int n)
{
	tap.planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

static inline void __attribute__((format(printf, 1, 2))) tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* Report one test point; returns cond so callers can stop early. */
static inline int __attribute__((format(printf, 2, 3))) tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap.run++;
	if (!cond)
		tap.failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap.run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

static inline void __attribute__((noreturn)) tap_skip_all(const char *reason)
{
	printf("1..0 # SKIP %s\n", reason);
	fflush(stdout);
	exit(4);
}

/* Exit status for main(): failures, or a plan that was not followed. */
static inline int tap_exit_status(void)
{
	if (tap.run != tap.planned) {
		tap_diag("planned %d tests but ran %d", tap.planned, tap.run);
		return 1;
	}
	return tap.failed ? 1 : 0;
}

#endif
