// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm on fat trees and dragonflies: the shapes are cabled as
 * documented (graph_shape.c); engine updown routes a fat tree minimally,
 * deadlock free, with adaptive up-routes of which every choice reaches
 * the destination minimally and never goes down then up (also with
 * switches of 64 ports, fattree:32:2), and spreads its
 * deterministic up-routes evenly; engine dragonfly routes every pair with
 * at most one global and two local hops, VC0 before the global hop and
 * VC1 from it on, deadlock free; bad shapes are refused with the reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "graph.h"
#include "verdict.h"

TAP_DEFINE;

static int cables_of(const struct fm_graph *g, int n)
{
	int c = 0;

	for (int p = 0; p < g->ports; p++)
		c += graph_peer(g, n, p)->node != FM_NO_PEER;
	return c;
}

static void fattree_shape(void)
{
	char err[512];
	struct fm_graph *g = graph_from_shape("fattree:4:3", err, sizeof(err));
	int bad = -1, T = 64, W = 16;

	if (g) {
		bad = 0;
		for (int n = 0; n < g->nodes; n++) {
			int lvl = graph_fattree_level(&g->shape, n);
			int want = n < T ? 1 : lvl == 2 ? 4 : 8;

			if (cables_of(g, n) != want && !bad++)
				tap_diag("node %d (level %d): %d cables, want %d", n, lvl,
					 cables_of(g, n), want);
		}
		/* terminal 37 = digits 1,1,2: leaf 9 port 1; leaf 9 up port 4+j to level-1 switch */
		if (graph_peer(g, 37, 0)->node != T + 9 || graph_peer(g, 37, 0)->port != 1) {
			bad++;
			tap_diag("terminal 37 on %d:%d, want %d:1", graph_peer(g, 37, 0)->node,
				 graph_peer(g, 37, 0)->port, T + 9);
		}
		if (graph_peer(g, T + 9, 4 + 3)->node != T + W + 9 - 1 + 3) {
			bad++;
			tap_diag("leaf 9 up port 7 to %d, want %d", graph_peer(g, T + 9, 7)->node,
				 T + W + 11);
		}
	}
	tap_ok(g && g->nodes == 112 && g->terminals == T && g->ports == 8 &&
	       graph_cable_count(g) == 64 + 2 * 64 && !bad,
	       "fattree:4:3: %d nodes (want 112), %d terminals (64), %d ports (8), %d cables (192), %d nodes cabled wrongly%s%s",
	       g ? g->nodes : 0, g ? g->terminals : 0, g ? g->ports : 0,
	       g ? graph_cable_count(g) : 0, bad, g ? "" : ": ", g ? "" : err);
	graph_free(g);
}

struct walk {
	const struct fm_graph *g;
	const struct fm_routes *r;
	const int *level;	/* fat tree level, terminals -1 */
	long paths, bad;
	char what[256];
	/*
	 * When set, explore() counts each (node, hops left, went down) toward
	 * one destination once: [(n * (max_hops + 1) + hops_left) * 2 +
	 * went_down], paths and bad found from there, paths -1 until counted.
	 */
	struct explored { long paths, bad; } *memo;
	int max_hops;
};

/* explore() without the memo: each path walked, the first bad one described. */
static void explore_all(struct walk *w, int n, int dest, int hops_left, bool went_down);

/*
 * Every path the tables and their up-routes allow from @n to @dest: it
 * arrives in @hops_left hops exactly (minimal), never down then up.
 * The paths from a node depend on the node, the hops left and whether
 * the path went down, not on how it got there: with w->memo each is
 * counted once per destination.
 */
static void explore(struct walk *w, int n, int dest, int hops_left, bool went_down)
{
	struct explored *e;
	long paths = w->paths, bad = w->bad;

	if (!w->memo || hops_left < 0 || hops_left > w->max_hops) {
		explore_all(w, n, dest, hops_left, went_down);
		return;
	}
	e = &w->memo[((size_t)n * (size_t)(w->max_hops + 1) + (size_t)hops_left) * 2 + went_down];
	if (e->paths < 0) {
		explore_all(w, n, dest, hops_left, went_down);
		e->paths = w->paths - paths;
		e->bad = w->bad - bad;
		return;
	}
	w->paths += e->paths;
	w->bad += e->bad;
}

static void explore_all(struct walk *w, int n, int dest, int hops_left, bool went_down)
{
	const struct fm_graph *g = w->g;
	int port = routes_port(w->r, n, dest), first = w->r->up_first[n * g->nodes + dest];

	if (n == dest) {
		w->paths++;
		if (hops_left && !w->bad++)
			snprintf(w->what, sizeof(w->what), "arrived at %d with %d hops to spare",
				 dest, hops_left);
		return;
	}
	if (port < 0 || hops_left <= 0) {
		if (!w->bad++)
			snprintf(w->what, sizeof(w->what), "at node %d toward %d: port %d, %d hops left",
				 n, dest, port, hops_left);
		return;
	}
	for (int p = 0; p < g->ports; p++) {
		int m = graph_peer(g, n, p)->node;
		bool up;

		if (p != port && (first == FM_NO_UPROUTE || p < first || m == FM_NO_PEER))
			continue;
		up = w->level[m] > w->level[n];
		if (up && went_down) {
			if (!w->bad++)
				snprintf(w->what, sizeof(w->what), "%d -> %d goes up after going down",
					 n, m);
			continue;
		}
		explore(w, m, dest, hops_left - 1, went_down || !up);
	}
}

static void fattree_routes(const char *shape, long want_uproutes_min)
{
	char err[512];
	struct fm_graph *g = graph_from_shape(shape, err, sizeof(err));
	struct fm_engine_opts o;
	struct fm_verdict v;
	struct walk w = { 0 };
	int *level, *dist, *queue;
	long uproutes = 0, uproutes_off = 0;
	size_t memo_len;

	engine_default_opts(&o);
	if (!g || verdict_run(&fm_engine_updown, g, &o, &v, err, sizeof(err))) {
		tap_ok(0, "updown %s: routed (%s)", shape, err);
		tap_ok(0, "updown %s: every up-route choice minimal, up then down", shape);
		graph_free(g);
		return;
	}
	level = malloc((size_t)g->nodes * sizeof(int));
	dist = malloc((size_t)g->nodes * sizeof(int));
	queue = malloc((size_t)g->nodes * sizeof(int));
	for (int n = 0; n < g->nodes; n++)
		level[n] = graph_fattree_level(&g->shape, n);
	/*
	 * Destination by destination with the memo (the counts of every path);
	 * when some are bad, again path by path for the first one's description.
	 */
	w = (struct walk){ .g = g, .r = v.routes, .level = level, .max_hops = 0 };
	for (int s = 0; s < g->terminals; s++) {
		graph_bfs(g, s, dist, queue);
		for (int d = 0; d < g->terminals; d++)
			if (dist[d] > w.max_hops)
				w.max_hops = dist[d];
	}
	memo_len = (size_t)g->nodes * (size_t)(w.max_hops + 1) * 2;
	w.memo = malloc(memo_len * sizeof(*w.memo));
	for (int d = 0; d < g->terminals; d++) {
		graph_bfs(g, d, dist, queue);	/* cables go both ways: dist from d is dist to d */
		for (size_t i = 0; i < memo_len; i++)
			w.memo[i] = (struct explored){ -1, 0 };
		for (int s = 0; s < g->terminals; s++)
			if (s != d)
				explore(&w, s, d, dist[s], false);
	}
	free(w.memo);
	if (w.bad) {
		w = (struct walk){ .g = g, .r = v.routes, .level = level };
		for (int s = 0; s < g->terminals; s++) {
			graph_bfs(g, s, dist, queue);
			for (int d = 0; d < g->terminals; d++)
				if (d != s)
					explore(&w, s, d, dist[d], false);
		}
	}
	for (int i = 0; i < g->nodes * g->nodes; i++)
		uproutes += v.routes->up_first[i] != FM_NO_UPROUTE;
	tap_ok(verdict_complete(&v) && verdict_acyclic(&v) && verdict_minimal(&v) &&
	       uproutes >= want_uproutes_min,
	       "updown %s: complete (%ld broken), deadlock free (cycle of %d), minimal (%ld longer), %ld up-route entries (want >= %ld)",
	       shape, v.routes_check.bad, v.cdg.cycle_len, v.routes_check.non_minimal, uproutes,
	       want_uproutes_min);
	tap_ok(!w.bad && w.paths > (long)g->terminals * (g->terminals - 1),
	       "updown %s: %ld paths the up-routes allow between terminals, %ld not minimal or down then up (want 0)%s%s",
	       shape, w.paths, w.bad, w.bad ? ": " : "", w.what);
	verdict_free(&v);
	o.adaptive = false;
	if (!verdict_run(&fm_engine_updown, g, &o, &v, err, sizeof(err))) {
		for (int i = 0; i < g->nodes * g->nodes; i++)
			uproutes_off += v.routes->up_first[i] != FM_NO_UPROUTE;
		verdict_free(&v);
	}
	tap_ok(uproutes_off == 0, "updown %s --no-adaptive: %ld up-route entries (want 0)", shape,
	       uproutes_off);
	free(level);
	free(dist);
	free(queue);
	graph_free(g);
}

/* d mod k: a leaf of fattree:4:2 sends the 12 terminals of other leaves 3 per up port. */
static void fattree_spread(void)
{
	char err[512];
	struct fm_graph *g = graph_from_shape("fattree:4:2", err, sizeof(err));
	struct fm_engine_opts o;
	struct fm_verdict v;
	int per_port[8] = { 0 }, leaf = 16 + 1;

	engine_default_opts(&o);
	if (!g || verdict_run(&fm_engine_updown, g, &o, &v, err, sizeof(err))) {
		tap_ok(0, "updown fattree:4:2: spread (%s)", err);
		graph_free(g);
		return;
	}
	for (int d = 0; d < 16; d++)
		if (d / 4 != 1 && routes_port(v.routes, leaf, d) >= 0)
			per_port[routes_port(v.routes, leaf, d)]++;
	tap_ok(per_port[4] == 3 && per_port[5] == 3 && per_port[6] == 3 && per_port[7] == 3,
	       "updown fattree:4:2: leaf 1's deterministic routes to other leaves' terminals per up port %d %d %d %d (want 3 each)",
	       per_port[4], per_port[5], per_port[6], per_port[7]);
	verdict_free(&v);
	graph_free(g);
}

static void dragonfly_shape(void)
{
	char err[512];
	struct fm_graph *g = graph_from_shape("dragonfly:4:2:2", err, sizeof(err));
	int links[9][9] = { { 0 } }, bad = -1, T = 72;

	if (g) {
		bad = 0;
		for (int n = T; n < g->nodes; n++) {
			if (cables_of(g, n) != 7 && !bad++)
				tap_diag("router %d: %d cables, want 7", n, cables_of(g, n));
			for (int j = 0; j < 2; j++) {
				int m = graph_peer(g, n, 5 + j)->node;

				if (m >= T)
					links[graph_dragonfly_group(&g->shape, n)]
					     [graph_dragonfly_group(&g->shape, m)]++;
			}
		}
		for (int a = 0; a < 9; a++)
			for (int b = 0; b < 9; b++)
				if (links[a][b] != (a != b) && !bad++)
					tap_diag("groups %d and %d: %d global links, want %d", a, b,
						 links[a][b], a != b);
	}
	tap_ok(g && g->nodes == 108 && g->terminals == T && g->ports == 7 && !bad,
	       "dragonfly:4:2:2: %d nodes (want 108), %d terminals (72), %d ports (7), %d wrong (every router fully cabled, one global link per pair of groups)%s%s",
	       g ? g->nodes : 0, g ? g->terminals : 0, g ? g->ports : 0, bad, g ? "" : ": ",
	       g ? "" : err);
	graph_free(g);
}

static void dragonfly_routes(const char *shape)
{
	char err[512];
	struct fm_graph *g = graph_from_shape(shape, err, sizeof(err));
	struct fm_hop *hops;
	struct fm_engine_opts o;
	struct fm_verdict v;
	long bad = 0, pairs = 0;
	char what[256] = "";

	engine_default_opts(&o);
	if (!g || verdict_run(&fm_engine_dragonfly, g, &o, &v, err, sizeof(err))) {
		tap_ok(0, "dragonfly %s: routed (%s)", shape, err);
		tap_ok(0, "dragonfly %s: hops and VCs", shape);
		graph_free(g);
		return;
	}
	tap_ok(verdict_complete(&v) && verdict_acyclic(&v),
	       "dragonfly %s: complete (%ld broken), deadlock free (cycle of %d channels)", shape,
	       v.routes_check.bad, v.cdg.cycle_len);
	hops = malloc((size_t)g->nodes * sizeof(*hops));
	for (int s = 0; s < g->terminals; s++) {
		for (int d = 0; d < g->terminals; d++) {
			int stuck, n = routes_walk(g, v.routes, s, d, hops, &stuck), global = 0;
			int local = 0, vc_bad = 0;

			if (d == s)
				continue;
			pairs++;
			for (int i = 1; i + 1 < n; i++) {
				int a = graph_dragonfly_group(&g->shape, hops[i].node);
				int b = graph_dragonfly_group(&g->shape,
							      graph_peer(g, hops[i].node, hops[i].port)->node);

				global += a != b;
				local += a == b;
				/* VC0 before the global hop, VC1 on and after it */
				vc_bad += hops[i].vc != (global || a == graph_dragonfly_group(
								    &g->shape, d));
			}
			if ((n < 2 || global > 1 || local > 2 || vc_bad) && !bad++)
				snprintf(what, sizeof(what), ": %d -> %d: %d hops, %d global, %d local, %d on the wrong VC",
					 s, d, n, global, local, vc_bad);
		}
	}
	tap_ok(!bad, "dragonfly %s: %ld terminal pairs, %ld with more than one global or two local hops or a VC other than VC0 before the global hop, VC1 from it (want 0)%s",
	       shape, pairs, bad, what);
	free(hops);
	verdict_free(&v);
	graph_free(g);
}

static void bad_shapes(void)
{
	static const char *const shapes[] = {
		"fattree:1:2", "fattree:4:0", "fattree:33:2", "fattree:4:9", "fattree:4",
		"fattree:32:4", "dragonfly:4:2", "dragonfly:0:1:1", "dragonfly:4:2:2x",
		"dragonfly:40:1:20",
	};
	char err[512], what[600] = "";
	int refused = 0;

	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		struct fm_graph *g = graph_from_shape(shapes[i], err, sizeof(err));

		if (!g && strstr(err, shapes[i]))
			refused++;
		else if (!what[0])
			snprintf(what, sizeof(what), ": '%s' %s (%s)", shapes[i],
				 g ? "accepted" : "refused without naming it", g ? "" : err);
		graph_free(g);
	}
	tap_ok(refused == (int)(sizeof(shapes) / sizeof(shapes[0])),
	       "bad fat tree and dragonfly shapes refused, naming the shape: %d of %zu%s", refused,
	       sizeof(shapes) / sizeof(shapes[0]), what);
	{
		struct fm_graph *g = graph_from_shape("torus:4x4", err, sizeof(err));
		struct fm_engine_opts o;
		struct fm_verdict v;
		int rc = -1;

		engine_default_opts(&o);
		err[0] = '\0';
		if (g)
			rc = verdict_run(&fm_engine_dragonfly, g, &o, &v, err, sizeof(err));
		if (!rc)
			verdict_free(&v);
		tap_ok(rc && strstr(err, "dragonfly shapes only"),
		       "engine dragonfly refuses a torus: %s", err);
		graph_free(g);
	}
}

int main(void)
{
	tap_plan(21);
	fattree_shape();
	fattree_routes("fattree:4:2", 4L * 12);
	fattree_routes("fattree:2:3", 1);
	fattree_routes("fattree:4:3", 1);
	/* switches of 64 ports, the most a router has: up ports 32..63 */
	fattree_routes("fattree:32:2", 32L * 992);
	fattree_spread();
	dragonfly_shape();
	dragonfly_routes("dragonfly:4:2:2");
	dragonfly_routes("dragonfly:2:1:1");
	bad_shapes();
	return tap_exit_status();
}
