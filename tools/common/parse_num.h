/* SPDX-License-Identifier: GPL-2.0 */
/* Command-line numbers for loom's tools: decimal, 0x hex or 0 octal, with
 * an optional K (KiB) or M (MiB) suffix.  No sign, no trailing garbage, no
 * overflow.
 */
#ifndef LOOM_TOOLS_PARSE_NUM_H
#define LOOM_TOOLS_PARSE_NUM_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

static inline bool parse_num(const char *s, uint64_t *out, bool size_suffixes)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (!s || !*s || *s == '-' || *s == '+')
		return false;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return false;
	if (size_suffixes && (*end == 'K' || *end == 'k') && v <= UINT64_MAX / 1024) {
		v *= 1024;
		end++;
	} else if (size_suffixes && (*end == 'M' || *end == 'm') &&
		   v <= UINT64_MAX / (1024 * 1024)) {
		v *= 1024 * 1024;
		end++;
	}
	if (*end)
		return false;
	*out = v;
	return true;
}

#endif
