/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the guest programs of the RMA tests report: one "ok: ..." or
 * "FAILED: ..." line per check, which the shell test relays as TAP, and
 * @failed set once anything failed (the program's exit status).
 */
#ifndef LOOM_TESTS_VM_RMA_RESULT_H
#define LOOM_TESTS_VM_RMA_RESULT_H

#include <stdarg.h>
#include <stdio.h>

static int failed;

static void result(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void result(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", ok ? "ok" : "FAILED");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	failed |= !ok;
}

#endif /* LOOM_TESTS_VM_RMA_RESULT_H */
