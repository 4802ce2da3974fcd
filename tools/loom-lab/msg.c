// SPDX-License-Identifier: GPL-2.0
/* loom-lab: progress and error messages. */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "lab.h"
#include "sys.h"

const char *lab_prog = "loom-lab";
int lab_msg_fd = 2;

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	char buf[2048];
	int n = snprintf(buf, sizeof(buf), "%s: %s", lab_prog, prefix);

	if (n < 0 || (size_t)n >= sizeof(buf))
		return;
	int m = vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);

	if (m < 0)
		return;
	n += m;
	if ((size_t)n > sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	write_all(lab_msg_fd, buf, (size_t)n);
}

void lab_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", fmt, ap);
	va_end(ap);
}

void lab_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}
