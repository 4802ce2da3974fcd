// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm dor: half-ring ties split between the two directions, and VC
 * balance (vc_balance.h): time of crossing reproduces the Cray T3E's
 * Table 1, and the balanced start VCs stay deadlock-free, leave every
 * dateline-crossing route on VC0 and beat time of crossing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "graph.h"
#include "vc_balance.h"
#include "verdict.h"

TAP_DEFINE;

static int run(const char *shape, bool split, bool balanced, struct fm_graph **g,
	       struct fm_verdict *v)
{
	char err[256];
	struct fm_engine_opts o;

	engine_default_opts(&o);
	o.tie_split = split;
	o.vc_balance = balanced;
	*g = graph_from_shape(shape, err, sizeof(err));
	if (!*g || verdict_run(&fm_engine_dor, *g, &o, v, err, sizeof(err))) {
		tap_diag("%s: %s", shape, err);
		graph_free(*g);
		*g = NULL;
		return -1;
	}
	return 0;
}

/* the fewest and most routes on the + channels and the - channels of a ring */
static void ring_loads(const char *shape, bool split, long plus[2], long minus[2])
{
	struct fm_graph *g;
	struct fm_verdict v;
	struct fm_hop hops[FM_MAX_NODES];
	long *load;

	plus[0] = minus[0] = -1;
	plus[1] = minus[1] = -1;
	if (run(shape, split, false, &g, &v))
		return;
	load = calloc((size_t)g->nodes * g->ports, sizeof(*load));
	for (int s = 0; load && s < g->nodes; s++)
		for (int d = 0; d < g->nodes; d++) {
			int stuck, n = s == d ? 0 : routes_walk(g, v.routes, s, d, hops, &stuck);

			for (int i = 0; i < n; i++)
				load[hops[i].node * g->ports + hops[i].port]++;
		}
	plus[0] = minus[0] = 1L << 30;
	plus[1] = minus[1] = 0;
	for (int n = 0; load && n < g->nodes; n++)
		for (int p = 0; p < 2; p++) {
			long *m = p == 0 ? plus : minus, l = load[n * g->ports + p];

			m[0] = l < m[0] ? l : m[0];
			m[1] = l > m[1] ? l : m[1];
		}
	free(load);
	verdict_free(&v);
	graph_free(g);
}

static int measure(const char *shape, bool balanced, struct fm_vc_balance *b, bool *sound)
{
	struct fm_graph *g;
	struct fm_verdict v;
	struct fm_hop hops[FM_MAX_NODES];
	int rc;

	*sound = false;
	if (run(shape, true, balanced, &g, &v))
		return -1;
	rc = vc_balance_measure(g, v.routes, b);
	*sound = verdict_complete(&v) && verdict_minimal(&v) && verdict_acyclic(&v);
	/* a route that continues through a dateline started its dimension on VC0 */
	for (int s = 0; s < g->nodes; s++)
		for (int d = 0; d < g->nodes; d++) {
			int stuck, n = s == d ? 0 : routes_walk(g, v.routes, s, d, hops, &stuck);

			for (int i = 1; i < n; i++) {
				int dim = v.routes->port_dim[hops[i].port];

				if (dim < 0 || dim != v.routes->port_dim[hops[i - 1].port] ||
				    !v.routes->dateline[hops[i].node * g->ports + hops[i].port])
					continue;
				if (hops[i - 1].vc) {
					tap_diag("%s: %d->%d reaches the dateline at node %d on VC1",
						 shape, s, d, hops[i].node);
					*sound = false;
				}
			}
		}
	verdict_free(&v);
	graph_free(g);
	return rc;
}

int main(void)
{
	/*
	 * Scott and Thorson, The Cray T3E Network, Table 1 (whole rings):
	 * time of crossing, and the optimised assignment with full tables.
	 * The maxima of the optimised column are reached exactly (ring:16 and
	 * ring:32: at most the paper's); averages are printed next to the
	 * paper's.
	 */
	static const struct {
		const char *shape;
		double tc_avg, opt_avg, opt_max;
		bool opt_max_exact;
	} t3e[] = {
		{ "ring:4", 1.000, 0.000, 0.000, true },
		{ "ring:8", 0.813, 0.031, 0.250, true },
		{ "ring:16", 0.813, 0.133, 0.563, false },
		{ "ring:32", 0.807, 0.173, 0.797, false },
	};
	static const char *const balanced[] = {
		"ring:4", "ring:8", "ring:16", "ring:32", "torus:4x4", "torus:8x8", "torus:8x4x2",
	};
	long plus[2], minus[2];
	struct fm_vc_balance tc, bal;
	bool sound;
	int rc;

	tap_plan(4 + 1 + 4 + 2 * 7);

	ring_loads("ring:8", false, plus, minus);
	tap_ok(plus[0] == 10 && plus[1] == 10 && minus[0] == 6 && minus[1] == 6,
	       "ring:8, every tie +: + channels carry %ld..%ld routes, - channels %ld..%ld "
	       "(want 10 and 6)", plus[0], plus[1], minus[0], minus[1]);
	ring_loads("ring:8", true, plus, minus);
	tap_ok(plus[0] == 8 && plus[1] == 8 && minus[0] == 8 && minus[1] == 8,
	       "ring:8, ties split: + channels carry %ld..%ld routes, - channels %ld..%ld "
	       "(want 8 everywhere)", plus[0], plus[1], minus[0], minus[1]);
	/* 6 nodes: a tie covers 3 channels, so the best split is 2 or 3 per channel */
	ring_loads("ring:6", true, plus, minus);
	tap_ok(plus[1] - plus[0] <= 1 && minus[1] - minus[0] <= 1 &&
	       labs(plus[1] - minus[1]) <= 1,
	       "ring:6, ties split: + channels %ld..%ld routes, - channels %ld..%ld "
	       "(within one of each other)", plus[0], plus[1], minus[0], minus[1]);
	/* 2 nodes: both ways are one hop to the one neighbour; ties stay + */
	ring_loads("ring:2", true, plus, minus);
	tap_ok(plus[0] == 1 && minus[1] == 0,
	       "ring:2: the tie goes + (+ channels %ld..%ld, - channels %ld..%ld)", plus[0],
	       plus[1], minus[0], minus[1]);

	rc = measure("ring:8", false, &tc, &sound);
	tap_ok(!rc && fabs(tc.avg - t3e[1].tc_avg) <= 0.0005,
	       "ring:8 time of crossing: balance average %.4f max %.3f, T3E Table 1: %.3f 1",
	       tc.avg, tc.max, t3e[1].tc_avg);
	for (size_t i = 0; i < sizeof(t3e) / sizeof(t3e[0]); i++) {
		bool max_ok;

		rc = measure(t3e[i].shape, false, &tc, &sound) |
		     measure(t3e[i].shape, true, &bal, &sound);
		max_ok = t3e[i].opt_max_exact ? fabs(bal.max - t3e[i].opt_max) <= 0.0005 :
			      bal.max <= t3e[i].opt_max;

		tap_ok(!rc && max_ok && fabs(tc.avg - t3e[i].tc_avg) <= 0.0005,
		       "%s balanced: max %.4f (T3E optimised %s %.3f); average %.4f (T3E %.3f); "
		       "time of crossing average %.4f (T3E %.3f)", t3e[i].shape, bal.max,
		       t3e[i].opt_max_exact ? "=" : ">=", t3e[i].opt_max, bal.avg, t3e[i].opt_avg,
		       tc.avg, t3e[i].tc_avg);
	}
	for (size_t i = 0; i < sizeof(balanced) / sizeof(balanced[0]); i++) {
		bool sound_tc;

		rc = measure(balanced[i], false, &tc, &sound_tc) |
		     measure(balanced[i], true, &bal, &sound);

		tap_ok(!rc && sound && sound_tc,
		       "%s balanced: complete, minimal, deadlock-free, every dateline crossed "
		       "on VC0", balanced[i]);
		tap_ok(!rc && bal.avg < tc.avg && bal.max <= tc.max && bal.vc1_entries > 0,
		       "%s balanced: average %.3f max %.3f (%ld entries on VC1), time of "
		       "crossing %.3f %.3f", balanced[i], bal.avg, bal.max, bal.vc1_entries,
		       tc.avg, tc.max);
	}
	return tap_exit_status();
}
