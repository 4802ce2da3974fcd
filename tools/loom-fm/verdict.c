// SPDX-License-Identifier: GPL-2.0
/* loom-fm: run an engine and check its tables (verdict.h). */
#include "verdict.h"

#include <stdio.h>
#include <string.h>

int verdict_run(const struct fm_engine *e, const struct fm_graph *g,
		const struct fm_engine_opts *o, struct fm_verdict *v, char *err, size_t errlen)
{
	memset(v, 0, sizeof(*v));
	v->routes = engine_run(e, g, o, err, errlen);
	if (!v->routes)
		return -1;
	if (check_routes(g, v->routes, &v->routes_check) || cdg_check(g, v->routes, &v->cdg)) {
		snprintf(err, errlen, "out of memory checking the tables of %d nodes", g->nodes);
		verdict_free(v);
		return -1;
	}
	return 0;
}

void verdict_free(struct fm_verdict *v)
{
	cdg_check_free(&v->cdg);
	routes_free(v->routes);
	v->routes = NULL;
}
