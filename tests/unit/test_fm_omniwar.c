// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm engine omniwar: on HyperX shapes complete, minimal on its table
 * paths, and deadlock-free with every path its choices allow in the
 * channel dependency graph (every channel on every distance class); the
 * entries carry the minimal port of every unaligned dimension, the minimal
 * hops left and the N + M classes, as programmed into the card's words;
 * configurations the routers cannot carry are refused with the limit.
 */
#include <string.h>

#include <loom_hw/regs.h>

#include "tap.h"
#include "graph.h"
#include "program.h"
#include "test_fm_plan.h"
#include "verdict.h"

TAP_DEFINE;

/* Wrong entries of @r on a HyperX: minimal ports and hop counts. */
static int bad_entries(const struct fm_graph *g, const struct fm_routes *r)
{
	const struct fm_shape *s = &g->shape;
	int bad = 0, c[FM_MAX_DIMS], t[FM_MAX_DIMS];

	for (int n = 0; n < g->nodes; n++) {
		graph_coords(s, n, c);
		for (int d = 0; d < g->nodes; d++) {
			unsigned int want = 0;
			int hops = 0;

			graph_coords(s, d, t);
			for (int k = 0; k < s->dims; k++)
				if (c[k] != t[k]) {
					want |= 1u << graph_hyperx_port(s, k, c[k], t[k]);
					hops++;
				}
			bad += r->adapt_ports[n * g->nodes + d] != want ||
			       r->hops_left[n * g->nodes + d] != hops;
		}
	}
	return bad;
}

static void hyperx(const char *shape, int deroutes, int generic_vcs)
{
	char err[256] = "";
	struct fm_graph *g = graph_from_shape(shape, err, sizeof(err));
	struct fm_engine_opts o;
	struct fm_verdict v;
	long want;
	int classes;

	engine_default_opts(&o);
	o.deroutes = deroutes;
	o.generic_vcs = generic_vcs;
	if (!g || verdict_run(&fm_engine_omniwar, g, &o, &v, err, sizeof(err))) {
		tap_ok(0, "omniwar %s: routed (%s)", shape, err);
		tap_ok(0, "omniwar %s: deadlock-free", shape);
		tap_ok(0, "omniwar %s: entries", shape);
		graph_free(g);
		return;
	}
	classes = g->shape.dims + deroutes;
	want = (long)g->nodes * g->ports * classes;
	tap_ok(verdict_complete(&v) && verdict_minimal(&v),
	       "omniwar %s M=%d: complete and minimal tables (%ld broken, %ld non-minimal)", shape,
	       deroutes, v.routes_check.bad, v.routes_check.non_minimal);
	tap_ok(verdict_acyclic(&v) && v.cdg.vertices == want,
	       "omniwar %s M=%d: deadlock-free with every path (CDG %ld vertices, want %ld = "
	       "channels x %d classes; cycle of %d)", shape, deroutes, v.cdg.vertices, want,
	       classes, v.cdg.cycle_len);
	tap_ok(v.routes->omniwar && v.routes->classes == classes && !bad_entries(g, v.routes),
	       "omniwar %s M=%d: %d classes (want %d), %d wrong entries (minimal ports, hops)",
	       shape, deroutes, v.routes->classes, classes, bad_entries(g, v.routes));
	verdict_free(&v);
	graph_free(g);
}

/* The words of node 0's entry for node 5 (1,1) on hyperx:4x4, programmed. */
static void programmed(void)
{
	char err[256] = "";
	struct fm_graph *g = graph_from_shape("hyperx:4x4", err, sizeof(err));
	struct fm_engine_opts o;
	struct fm_routes *r;
	struct fm_card card[16];
	uint32_t w0, w1;
	int rc;

	engine_default_opts(&o);
	r = g ? engine_run(&fm_engine_omniwar, g, &o, err, sizeof(err)) : NULL;
	if (!r) {
		tap_ok(0, "omniwar hyperx:4x4 programmed (%s)", err);
		graph_free(g);
		return;
	}
	fm_test_cards(card, 16, 6, 32);
	rc = fm_test_entry(card, 16, r, 0, 5, &w0, &w1, err, sizeof(err));
	/* (0,0) -> (1,1): X port 0 (toward x=1), Y port 3 (toward y=1), 2 hops, 3 classes */
	tap_ok(!rc && (w0 & LOOM_RT_W0_OMNIWAR) && !(w0 & LOOM_RT_W0_ADAPTIVE) &&
	       (w0 & LOOM_RT_W0_PORT_MASK) == 0 &&
	       (w0 & LOOM_RT_W0_HOPS_MASK) >> LOOM_RT_W0_HOPS_SHIFT == 2 &&
	       (w0 & LOOM_RT_W0_CLASSES_MASK) >> LOOM_RT_W0_CLASSES_SHIFT == 3 &&
	       (w1 & LOOM_RT_W1_ADAPT_PORTS_MASK) >> LOOM_RT_W1_ADAPT_PORTS_SHIFT == 0x09,
	       "omniwar entry 0 -> 5: W0 0x%08x (OMNIWAR, port 0, 2 hops, 3 classes), W1 0x%08x "
	       "(ADAPT_PORTS 0x09)%s%s", w0, w1, rc ? ": " : "", rc ? err : "");
	routes_free(r);
	graph_free(g);
}

static void refused(const char *shape, int deroutes, int generic_vcs, const char *want)
{
	char err[256] = "";
	struct fm_graph *g = graph_from_shape(shape, err, sizeof(err));
	struct fm_routes *r = NULL;
	struct fm_engine_opts o;

	engine_default_opts(&o);
	o.deroutes = deroutes;
	o.generic_vcs = generic_vcs;
	if (g)
		r = engine_run(&fm_engine_omniwar, g, &o, err, sizeof(err));
	tap_ok(g && !r && strstr(err, want), "omniwar %s M=%d VCS=%d refused: \"%s\" (want \"%s\")",
	       shape, deroutes, generic_vcs, err, want);
	routes_free(r);
	graph_free(g);
}

int main(void)
{
	tap_plan(15);
	hyperx("hyperx:4x4", 1, 0);		/* the card: 3 classes */
	hyperx("hyperx:3x3x3", 3, 6);		/* 2N classes on generic VCs */
	hyperx("hyperx:2x3x4", 0, 0);		/* minimal adaptive, any order */
	programmed();
	refused("torus:4x4", 1, 0, "HyperX shapes only");
	refused("hyperx:5x6", 1, 0, "9 network ports");
	refused("hyperx:3x3x3", 1, 0, "4 distance classes (3 dimensions + 1 deroutes), but the "
		"card's VCs carry 3 per traffic class (VC0, VC1 and the adaptive VC): use "
		"--deroutes 0 or fewer");
	refused("hyperx:2x2x2x2", 0, 0, "use a HyperX of at most 3 dimensions");
	refused("hyperx:4x4", 2, 3, "routers have VCS=3, one per distance class: use --param "
		"VCS=4 or more");
	return tap_exit_status();
}
