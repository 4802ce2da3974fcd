// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm engines valiant and ugal: on meshes and HyperX shapes complete
 * and minimal tables (each phase follows them), deadlock-free with every
 * phase-0 route on VC0, every phase-1 route on VC1 and every turn at an
 * intermediate in the channel dependency graph; the programmed entries
 * carry W0_VALIANT (and W0_UGAL), the minimal hops and VAL_LAST; more
 * than 256 nodes and logical ids beyond 255 are refused with the reason.
 * On tori and rings with four generic VCs each phase has its dateline
 * pair (VCs 0/1, 2/3: more than two VCs of a channel in the graph, still
 * acyclic; the entries carry W0_VAL_DATELINES); without datelines the
 * graph has a cycle; the card's VC model and VCS=2 are refused with the
 * limit.
 */
#include <string.h>

#include <loom_hw/regs.h>

#include "tap.h"
#include "fabric.h"
#include "graph.h"
#include "program.h"
#include "test_fm_plan.h"
#include "verdict.h"

TAP_DEFINE;

static void routed(const struct fm_engine *e, const char *shape, int generic_vcs)
{
	char err[256] = "";
	struct fm_graph *g = graph_from_shape(shape, err, sizeof(err));
	struct fm_engine_opts o;
	struct fm_verdict v;
	int bad_hops = 0;
	long vc1 = 0, vc0 = 0;

	engine_default_opts(&o);
	o.generic_vcs = generic_vcs;
	if (!g || verdict_run(e, g, &o, &v, err, sizeof(err))) {
		tap_ok(0, "%s %s: routed (%s)", e->name, shape, err);
		tap_ok(0, "%s %s: deadlock-free", e->name, shape);
		tap_ok(0, "%s %s: hops", e->name, shape);
		graph_free(g);
		return;
	}
	tap_ok(verdict_complete(&v) && verdict_minimal(&v),
	       "%s %s: complete and minimal tables (%ld broken, %ld non-minimal)", e->name, shape,
	       v.routes_check.bad, v.routes_check.non_minimal);
	for (int ch = 0; ch < g->nodes * g->ports; ch++)
		if (graph_peer(g, ch / g->ports, ch % g->ports)->node != FM_NO_PEER) {
			vc0++;
			vc1++;
		}
	/*
	 * every cabled channel carries phase 0 (VC0) and phase 1 (VC1); on a
	 * torus some channels each phase's dateline VC as well
	 */
	if (g->shape.kind == FM_SHAPE_TORUS)
		tap_ok(verdict_acyclic(&v) && v.routes->val_datelines &&
		       v.cdg.vertices > vc0 + vc1 && v.cdg.vertices <= 2 * (vc0 + vc1),
		       "%s %s: deadlock-free with a dateline pair per phase (val_datelines %d, "
		       "CDG %ld vertices, want more than %ld = cabled channels x 2 VCs and at most "
		       "x 4; cycle of %d)", e->name, shape, v.routes->val_datelines,
		       v.cdg.vertices, vc0 + vc1, v.cdg.cycle_len);
	else
		tap_ok(verdict_acyclic(&v) && v.cdg.vertices == vc0 + vc1,
		       "%s %s: deadlock-free with both phases (CDG %ld vertices, want %ld = "
		       "cabled channels x 2 VCs; cycle of %d)", e->name, shape, v.cdg.vertices,
		       vc0 + vc1, v.cdg.cycle_len);
	for (int n = 0; n < g->nodes; n++)
		for (int d = 0; d < g->nodes; d++) {
			struct fm_hop hops[256];
			int stuck, k = routes_walk(g, v.routes, n, d, hops, &stuck);

			bad_hops += v.routes->hops_left[n * g->nodes + d] != k;
		}
	tap_ok(v.routes->valiant && v.routes->ugal == !strcmp(e->name, "ugal") && !bad_hops,
	       "%s %s: Valiant tables (ugal %d), %d wrong hop counts", e->name, shape,
	       v.routes->ugal, bad_hops);
	verdict_free(&v);
	graph_free(g);
}

static void refused(const struct fm_engine *e, const char *shape, int generic_vcs,
		    const char *want)
{
	char err[256] = "";
	struct fm_graph *g = graph_from_shape(shape, err, sizeof(err));
	struct fm_routes *r = NULL;
	struct fm_engine_opts o;

	engine_default_opts(&o);
	o.generic_vcs = generic_vcs;
	if (g)
		r = engine_run(e, g, &o, err, sizeof(err));
	tap_ok(g && !r && strstr(err, want), "%s %s refused: \"%s\" (want \"%s\")", e->name,
	       shape, err, want);
	routes_free(r);
	graph_free(g);
}

/* The words of card 1's entry for logical 3 on mesh:2x2, and a logical id too large. */
static void programmed(void)
{
	char err[256] = "";
	struct fm_graph *g = graph_from_shape("mesh:2x2", err, sizeof(err));
	struct fm_engine_opts o;
	struct fm_routes *r;
	struct fm_card card[4];
	struct fm_plan plan;
	uint32_t w0, w1;
	int rc;

	engine_default_opts(&o);
	r = g ? engine_run(&fm_engine_ugal, g, &o, err, sizeof(err)) : NULL;
	if (!r) {
		tap_ok(0, "ugal mesh:2x2 programmed (%s)", err);
		tap_ok(0, "logical id 256 refused");
		graph_free(g);
		return;
	}
	fm_test_cards(card, 4, 4, 512);
	rc = fm_test_entry(card, 4, r, 1, 2, &w0, &w1, err, sizeof(err));
	/* node 1 (1,0) to 2 (0,1): two hops */
	tap_ok(!rc && (w0 & LOOM_RT_W0_VALIANT) && (w0 & LOOM_RT_W0_UGAL) &&
	       (w0 & LOOM_RT_W0_HOPS_MASK) >> LOOM_RT_W0_HOPS_SHIFT == 2 &&
	       (w1 & LOOM_RT_W1_VAL_LAST_MASK) >> LOOM_RT_W1_VAL_LAST_SHIFT == 3,
	       "ugal entry 1 -> 2: W0 0x%08x (VALIANT, UGAL, 2 hops), W1 0x%08x (VAL_LAST 3)%s%s",
	       w0, w1, rc ? ": " : "", rc ? err : "");
	card[3].logical = 256;
	rc = plan_build_cards(card, 4, r, 0, 4, &plan, err, sizeof(err));
	if (!rc)
		plan_free(&plan);
	tap_ok(rc && strstr(err, "logical ids 0..255"), "logical id 256 refused: \"%s\"", err);
	routes_free(r);
	graph_free(g);
}

/*
 * A torus without datelines: each phase's rings close a cycle, which the
 * check finds; the torus entries carry VAL_DATELINES.
 */
static void torus_cycle_and_bits(void)
{
	char err[256] = "";
	struct fm_graph *g = graph_from_shape("ring:6", err, sizeof(err));
	struct fm_engine_opts o;
	struct fm_verdict v;
	struct fm_routes *r;
	struct fm_card card[6];
	uint32_t w0 = 0, w1 = 0;
	int rc = -1;

	engine_default_opts(&o);
	o.generic_vcs = 4;
	o.datelines = false;
	if (g && !verdict_run(&fm_engine_valiant, g, &o, &v, err, sizeof(err))) {
		tap_ok(!verdict_acyclic(&v) && v.cdg.cycle_len > 0 && !v.routes->val_datelines,
		       "valiant ring:6 without datelines: a cycle of %d channels (want one)",
		       v.cdg.cycle_len);
		verdict_free(&v);
	} else {
		tap_ok(0, "valiant ring:6 without datelines routed (%s)", err);
	}
	o.datelines = true;
	r = g ? engine_run(&fm_engine_ugal, g, &o, err, sizeof(err)) : NULL;
	if (r) {
		fm_test_cards(card, 6, 2, 64);
		rc = fm_test_entry(card, 6, r, 1, 4, &w0, &w1, err, sizeof(err));
	}
	tap_ok(r && !rc && (w0 & LOOM_RT_W0_VALIANT) && (w0 & LOOM_RT_W0_UGAL) &&
	       (w0 & LOOM_RT_W0_VAL_DATELINES) &&
	       (w0 & LOOM_RT_W0_HOPS_MASK) >> LOOM_RT_W0_HOPS_SHIFT == 3,
	       "ugal ring:6 entry 1 -> 4: W0 0x%08x (VALIANT, UGAL, VAL_DATELINES, 3 hops)%s%s",
	       w0, r && !rc ? "" : ": ", r && !rc ? "" : err);
	routes_free(r);
	graph_free(g);
}

int main(void)
{
	tap_plan(26);
	routed(&fm_engine_valiant, "mesh:4x4", 0);
	routed(&fm_engine_valiant, "hyperx:4x4", 0);
	routed(&fm_engine_ugal, "mesh:3x5", 0);
	routed(&fm_engine_valiant, "torus:4x4", 4);
	routed(&fm_engine_ugal, "ring:8", 4);
	routed(&fm_engine_valiant, "torus:3x3x2", 8);
	refused(&fm_engine_valiant, "torus:4x4", 0,
		"needs 4 deterministic VCs per traffic class");
	refused(&fm_engine_ugal, "ring:8", 2, "the routers have VCS=2: use --param VCS=4");
	refused(&fm_engine_valiant, "fattree:4:2", 4, "meshes, HyperX shapes, tori and rings");
	refused(&fm_engine_ugal, "mesh:16x17", 0, "256 nodes at most");
	programmed();
	torus_cycle_and_bits();
	return tap_exit_status();
}
