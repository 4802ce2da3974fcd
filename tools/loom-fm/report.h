/* SPDX-License-Identifier: GPL-2.0 */
/* loom-fm: printing tables and verdicts, as text or JSON. */
#ifndef LOOM_FM_REPORT_H
#define LOOM_FM_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "check.h"
#include "engine.h"
#include "mcast.h"

struct fm_report {
	const struct fm_graph *g;
	const struct fm_engine *engine;
	const struct fm_engine_opts *opts;
	const struct fm_routes *r;
	const struct fm_route_check *rc;
	const struct fm_cdg_check *cdg;
	bool tables;			/* false: --check-only */
	const struct fm_mcast_trees *mcast;	/* --groups: the trees, or NULL */
};

/* Whether the verdict is a pass: complete and acyclic. */
bool report_ok(const struct fm_report *rep);
void report_text(FILE *f, const struct fm_report *rep);
void report_json(FILE *f, const struct fm_report *rep);

#endif
