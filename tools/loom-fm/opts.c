// SPDX-License-Identifier: GPL-2.0
/* loom-fm: option values both command lines take (fm.h). */
#include "fm.h"

#include <errno.h>
#include <stdlib.h>

#include "graph.h"

#include <loom_hw/regs.h>

int fm_parse_uint(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || !*s || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int fm_parse_root(const char *s, struct fm_engine_opts *o)
{
	char what[96];
	long v;

	if (fm_parse_uint(s, 0, FM_MAX_NODES - 1, &v)) {
		snprintf(what, sizeof(what), "--root '%%s': not a node id (0..%d)", FM_MAX_NODES - 1);
		return fm_usage_error(what, s);
	}
	o->root = (int)v;
	return -1;
}

int fm_parse_deroutes(const char *s, struct fm_engine_opts *o)
{
	long v;

	if (fm_parse_uint(s, 0, LOOM_MAX_PORTS - 1, &v))
		return fm_usage_error("--deroutes '%s': not a number of deroutes (0..7)", s);
	o->deroutes = (int)v;
	return -1;
}
