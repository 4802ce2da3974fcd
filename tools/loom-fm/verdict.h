/* SPDX-License-Identifier: GPL-2.0 */
/* loom-fm: run an engine on a graph and check the result, in one call. */
#ifndef LOOM_FM_VERDICT_H
#define LOOM_FM_VERDICT_H

#include "check.h"
#include "engine.h"

struct fm_verdict {
	struct fm_routes *routes;
	struct fm_route_check routes_check;
	struct fm_cdg_check cdg;
};

/* 0, or -1 with a message in err (the engine refused, or ENOMEM). */
int verdict_run(const struct fm_engine *e, const struct fm_graph *g,
		const struct fm_engine_opts *o, struct fm_verdict *v, char *err, size_t errlen);
void verdict_free(struct fm_verdict *v);

static inline bool verdict_complete(const struct fm_verdict *v)
{
	return v->routes_check.bad == 0;
}

static inline bool verdict_acyclic(const struct fm_verdict *v)
{
	return v->cdg.cycle_len == 0;
}

static inline bool verdict_minimal(const struct fm_verdict *v)
{
	return v->routes_check.bad == 0 && v->routes_check.non_minimal == 0;
}

#endif
