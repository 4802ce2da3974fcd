// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm engine dor: complete, minimal and deadlock-free with datelines on
 * tori and meshes; the same engine without datelines on a ring is cyclic.
 */
#include <string.h>

#include "tap.h"
#include "graph.h"
#include "verdict.h"

TAP_DEFINE;

static struct fm_engine_opts opts(bool datelines)
{
	struct fm_engine_opts o;

	engine_default_opts(&o);
	o.datelines = datelines;
	/* the dateline rule on its own: time of crossing (test_fm_vc_balance
	 * tests the balanced start VCs)
	 */
	o.vc_balance = false;
	return o;
}

static void good_shape(const char *shape)
{
	char err[256];
	struct fm_graph *g = graph_from_shape(shape, err, sizeof(err));
	struct fm_engine_opts o = opts(true);
	struct fm_verdict v;

	if (!g || verdict_run(&fm_engine_dor, g, &o, &v, err, sizeof(err))) {
		tap_ok(0, "dor %s: routed (%s)", shape, err);
		tap_ok(0, "dor %s: minimal", shape);
		tap_ok(0, "dor %s: deadlock-free", shape);
		graph_free(g);
		return;
	}
	tap_ok(verdict_complete(&v), "dor %s: complete (%ld of %ld routes broken)", shape,
	       v.routes_check.bad, v.routes_check.routes);
	tap_ok(verdict_minimal(&v), "dor %s: minimal (%ld longer than shortest)", shape,
	       v.routes_check.non_minimal);
	tap_ok(verdict_acyclic(&v), "dor %s: deadlock-free (CDG %ld vertices, cycle of %d)",
	       shape, v.cdg.vertices, v.cdg.cycle_len);
	verdict_free(&v);
	graph_free(g);
}

/* The route from src to dest on a shape, as "node:port/vc ..." */
static void route_string(const char *shape, bool datelines, int src, int dest, char *out,
			 size_t len)
{
	char err[256];
	struct fm_graph *g = graph_from_shape(shape, err, sizeof(err));
	struct fm_engine_opts o = opts(datelines);
	struct fm_verdict v;
	struct fm_hop hops[FM_MAX_NODES];
	int n, stuck;
	size_t used = 0;

	out[0] = '\0';
	if (!g || verdict_run(&fm_engine_dor, g, &o, &v, err, sizeof(err))) {
		graph_free(g);
		return;
	}
	n = routes_walk(g, v.routes, src, dest, hops, &stuck);
	for (int i = 0; i < n && used + 1 < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%d:%d/%d", i ? " " : "",
					 hops[i].node, hops[i].port, hops[i].vc);
	verdict_free(&v);
	graph_free(g);
}

int main(void)
{
	char err[256], route[256];
	struct fm_engine_opts o;
	struct fm_verdict v;
	struct fm_graph *g;

	tap_plan(21);
	good_shape("torus:4x4");
	good_shape("torus:2x2x2");
	good_shape("mesh:3x3");

	/* the dateline of ring:8 is between nodes 7 and 0: 7 -> 1 starts there, so it does
	 * not cross it and keeps its start VC; ring:4's 2 -> 0 crosses it
	 */
	route_string("ring:8", true, 7, 1, route, sizeof(route));
	tap_ok(!strcmp(route, "7:0/0 0:0/0"),
	       "ring:8 7->1 enters the ring on the dateline channel: VC0 throughout (%s)", route);
	route_string("ring:8", true, 5, 0, route, sizeof(route));
	tap_ok(!strcmp(route, "5:0/0 6:0/0 7:0/1"), "ring:8 5->0 starts on VC0, VC1 from 7 (%s)",
	       route);
	/* torus:4x4: X first, then Y starts again on VC0; 0 -> 15 is -X then -Y */
	route_string("torus:4x4", true, 0, 15, route, sizeof(route));
	tap_ok(!strcmp(route, "0:2/0 3:3/0"),
	       "torus:4x4 0->15: -X -Y, each entered on its dateline channel: VC0 (%s)", route);
	/* 10 = (2,2) -> 0: half way in both dimensions, from even coordinates: - */
	route_string("torus:4x4", true, 10, 0, route, sizeof(route));
	tap_ok(!strcmp(route, "10:2/0 9:2/0 8:3/0 4:3/0"),
	       "torus:4x4 10->0: -X -X then -Y -Y, no dateline on the way: VC0 (%s)", route);
	/* 5 = (1,1) -> 15: half way from odd coordinates: + */
	route_string("torus:4x4", true, 5, 15, route, sizeof(route));
	tap_ok(!strcmp(route, "5:0/0 6:0/0 7:1/0 11:1/0"),
	       "torus:4x4 5->15: +X +X then +Y +Y on VC0 (%s)", route);
	route_string("torus:4x4", true, 1, 6, route, sizeof(route));
	tap_ok(!strcmp(route, "1:0/0 2:1/0"), "torus:4x4 1->6: +X then +Y on VC0 (%s)", route);

	/* the deliberately cyclic configuration: the same engine without datelines, and
	 * every half-way tie the same way (split ties alone make ring:4 acyclic)
	 */
	g = graph_from_shape("ring:4", err, sizeof(err));
	o = opts(false);
	o.tie_split = false;
	if (g && !verdict_run(&fm_engine_dor, g, &o, &v, err, sizeof(err))) {
		tap_ok(verdict_complete(&v), "ring:4 without datelines: still complete");
		tap_ok(!verdict_acyclic(&v) && v.cdg.cycle_len == 4,
		       "ring:4 without datelines: cyclic, the cycle has the 4 + channels (%d)",
		       v.cdg.cycle_len);
		verdict_free(&v);
	} else {
		tap_ok(0, "ring:4 without datelines: routed (%s)", err);
		tap_ok(0, "ring:4 without datelines: cyclic");
	}
	graph_free(g);
	g = graph_from_shape("torus:4x4", err, sizeof(err));
	if (g && !verdict_run(&fm_engine_dor, g, &o, &v, err, sizeof(err))) {
		tap_ok(!verdict_acyclic(&v), "torus:4x4 without datelines: cyclic (%d channels)",
		       v.cdg.cycle_len);
		verdict_free(&v);
	} else {
		tap_ok(0, "torus:4x4 without datelines: routed (%s)", err);
	}
	graph_free(g);

	/* a failed cable: dor does not route round it, the check says which pairs */
	g = graph_from_shape("torus:4x4", err, sizeof(err));
	o = opts(true);
	if (g && !graph_fail_port(g, 0, 0, err, sizeof(err)) &&
	    !verdict_run(&fm_engine_dor, g, &o, &v, err, sizeof(err))) {
		tap_ok(!verdict_complete(&v) && v.routes_check.reported[0].src == 0 &&
		       v.routes_check.reported[0].dest == 1,
		       "torus:4x4 minus 0:0: dor incomplete, 0->1 first (%ld pairs)",
		       v.routes_check.bad);
		verdict_free(&v);
	} else {
		tap_ok(0, "torus:4x4 minus 0:0 routed (%s)", err);
	}
	graph_free(g);

	/* hyperx: one hop per dimension, acyclic without VCs */
	g = graph_from_shape("hyperx:3x3", err, sizeof(err));
	if (g && !verdict_run(&fm_engine_dor, g, &o, &v, err, sizeof(err))) {
		tap_ok(verdict_complete(&v) && verdict_minimal(&v) && verdict_acyclic(&v) &&
		       v.routes_check.max_hops == 2,
		       "hyperx:3x3: dor complete, minimal (2 hops max), acyclic");
		verdict_free(&v);
	} else {
		tap_ok(0, "hyperx:3x3 routed (%s)", err);
	}
	graph_free(g);

	/* dor needs coordinates */
	g = graph_new(2, 1);
	graph_cable(g, 0, 0, 1, 0);
	tap_ok(g && verdict_run(&fm_engine_dor, g, &o, &v, err, sizeof(err)) &&
	       strstr(err, "--shape"), "dor refuses a graph without a shape: %s", err);
	graph_free(g);
	return tap_exit_status();
}
