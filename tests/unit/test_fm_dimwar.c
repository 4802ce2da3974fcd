// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm engine dimwar: on HyperX shapes complete, minimal on its table
 * (escape) paths, and deadlock-free with every deroute path in the channel
 * dependency graph (both VCs of every channel); the entries carry
 * W0_DIMWAR and the minimal hops left; other shapes are refused with the
 * reason.
 */
#include <string.h>

#include <loom_hw/regs.h>

#include "tap.h"
#include "graph.h"
#include "program.h"
#include "verdict.h"

TAP_DEFINE;

static void hyperx(const char *shape, int dims)
{
	char err[256] = "";
	struct fm_graph *g = graph_from_shape(shape, err, sizeof(err));
	struct fm_engine_opts o;
	struct fm_verdict v;
	long channels;
	int bad_hops = 0, c[FM_MAX_DIMS], t[FM_MAX_DIMS];

	engine_default_opts(&o);
	if (!g || verdict_run(&fm_engine_dimwar, g, &o, &v, err, sizeof(err))) {
		tap_ok(0, "dimwar %s: routed (%s)", shape, err);
		tap_ok(0, "dimwar %s: deadlock-free", shape);
		tap_ok(0, "dimwar %s: hops left", shape);
		graph_free(g);
		return;
	}
	channels = (long)g->nodes * g->ports;
	tap_ok(verdict_complete(&v) && verdict_minimal(&v),
	       "dimwar %s: complete and minimal tables (%ld broken, %ld non-minimal)", shape,
	       v.routes_check.bad, v.routes_check.non_minimal);
	/* every channel carries minimal hops (VC0) and deroutes (VC1) */
	tap_ok(verdict_acyclic(&v) && v.cdg.vertices == 2 * channels,
	       "dimwar %s: deadlock-free with every deroute path (CDG %ld vertices, want %ld = "
	       "channels x 2 VCs; cycle of %d)", shape, v.cdg.vertices, 2 * channels,
	       v.cdg.cycle_len);
	for (int n = 0; n < g->nodes; n++) {
		graph_coords(&g->shape, n, c);
		for (int d = 0; d < g->nodes; d++) {
			int want = 0;

			graph_coords(&g->shape, d, t);
			for (int k = 0; k < dims; k++)
				want += c[k] != t[k];
			bad_hops += v.routes->hops_left[n * g->nodes + d] != want;
		}
	}
	tap_ok(v.routes->dimwar && !bad_hops, "dimwar %s: DimWAR tables, %d wrong hop counts",
	       shape, bad_hops);
	verdict_free(&v);
	graph_free(g);
}

static void refused(const char *shape, const char *want)
{
	char err[256] = "";
	struct fm_graph *g = graph_from_shape(shape, err, sizeof(err));
	struct fm_routes *r = NULL;
	struct fm_engine_opts o;

	engine_default_opts(&o);
	if (g)
		r = engine_run(&fm_engine_dimwar, g, &o, err, sizeof(err));
	tap_ok(g && !r && strstr(err, want), "dimwar %s refused: \"%s\" (want \"%s\")", shape,
	       err, want);
	routes_free(r);
	graph_free(g);
}

int main(void)
{
	tap_plan(8);
	hyperx("hyperx:4x4", 2);
	hyperx("hyperx:3x3x3", 3);
	refused("torus:4x4", "HyperX shapes only");
	refused("hyperx:5x6", "9 network ports");
	return tap_exit_status();
}
