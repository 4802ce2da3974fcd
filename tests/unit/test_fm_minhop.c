// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm engine minhop: shortest paths; on a ring of 5 with one VC the
 * channel dependency graph is cyclic and the check names the cycle.
 */
#include "tap.h"
#include "graph.h"
#include "verdict.h"

TAP_DEFINE;

static int run(const char *shape, struct fm_graph **g, struct fm_verdict *v)
{
	struct fm_engine_opts o;
	char err[256];

	engine_default_opts(&o);
	*g = graph_from_shape(shape, err, sizeof(err));
	if (!*g || verdict_run(&fm_engine_minhop, *g, &o, v, err, sizeof(err))) {
		tap_diag("%s: %s", shape, err);
		graph_free(*g);
		*g = NULL;
		return -1;
	}
	return 0;
}

int main(void)
{
	struct fm_verdict v;
	struct fm_graph *g;

	tap_plan(7);
	if (!run("ring:5", &g, &v)) {
		bool same_direction = true;

		tap_ok(verdict_complete(&v) && verdict_minimal(&v),
		       "minhop ring:5: complete and minimal (max %d hops)", v.routes_check.max_hops);
		tap_ok(!verdict_acyclic(&v), "minhop ring:5 without VCs: cyclic");
		for (int i = 1; i < v.cdg.cycle_len; i++)
			if (v.cdg.cycle[i].port != v.cdg.cycle[0].port ||
			    v.cdg.cycle[i].node != (v.cdg.cycle[i - 1].node + (v.cdg.cycle[0].port ? 4 : 1)) % 5)
				same_direction = false;
		tap_ok(v.cdg.cycle_len == 5 && same_direction,
		       "the cycle is the 5 channels of one direction round the ring (%d)",
		       v.cdg.cycle_len);
		tap_ok(v.routes_check.max_hops == 2, "ring:5 routes take at most 2 hops");
		verdict_free(&v);
		graph_free(g);
	} else {
		for (int i = 0; i < 4; i++)
			tap_ok(0, "minhop ring:5 routed");
	}
	if (!run("mesh:3x3", &g, &v)) {
		tap_ok(verdict_complete(&v) && verdict_minimal(&v) && verdict_acyclic(&v),
		       "minhop mesh:3x3: complete, minimal, acyclic");
		/* lowest port on ties: 0 -> 4 goes +X (port 0) first */
		tap_ok(routes_port(v.routes, 0, 4) == 0, "mesh:3x3 0->4 leaves on port 0 (+X)");
		verdict_free(&v);
		graph_free(g);
	} else {
		tap_ok(0, "minhop mesh:3x3 routed");
		tap_ok(0, "minhop mesh:3x3 tie-break");
	}
	if (!run("hyperx:4x3", &g, &v)) {
		tap_ok(verdict_complete(&v) && verdict_minimal(&v) && v.routes_check.max_hops == 2,
		       "minhop hyperx:4x3: complete, minimal, diameter 2");
		verdict_free(&v);
		graph_free(g);
	} else {
		tap_ok(0, "minhop hyperx:4x3 routed");
	}
	return tap_exit_status();
}
