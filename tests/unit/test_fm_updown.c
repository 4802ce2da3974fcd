// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm engine updown: complete and deadlock-free on a damaged torus, a
 * HyperX and a random connected graph read from a topology file; no route
 * goes down and then up (checked against levels computed here).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "graph.h"
#include "topo_file.h"
#include "verdict.h"

TAP_DEFINE;

static char tmp_path[64];

static void remove_tmp(void)
{
	if (tmp_path[0])
		unlink(tmp_path);
}

/* Routes that go down then up, by BFS levels from root (ties: lower id is up). */
static long down_then_up(const struct fm_graph *g, const struct fm_routes *r, int root)
{
	int *lvl = malloc((size_t)g->nodes * sizeof(int));
	int *q = malloc((size_t)g->nodes * sizeof(int));
	struct fm_hop *hops = malloc((size_t)g->nodes * sizeof(*hops));
	long bad = 0;

	graph_bfs(g, root, lvl, q);
	for (int s = 0; s < g->nodes; s++) {
		for (int d = 0; d < g->nodes; d++) {
			int stuck, n = routes_walk(g, r, s, d, hops, &stuck);
			bool went_down = false;

			for (int i = 0; i < n; i++) {
				int a = hops[i].node, b = graph_peer(g, a, hops[i].port)->node;
				bool up = lvl[b] < lvl[a] || (lvl[b] == lvl[a] && b < a);

				if (up && went_down) {
					bad++;
					break;
				}
				went_down |= !up;
			}
		}
	}
	free(lvl);
	free(q);
	free(hops);
	return bad;
}

static void check(const char *what, struct fm_graph *g, int root)
{
	struct fm_engine_opts o;
	struct fm_verdict v;
	char err[256];

	engine_default_opts(&o);
	o.root = root;
	if (!g || verdict_run(&fm_engine_updown, g, &o, &v, err, sizeof(err))) {
		tap_ok(0, "updown %s: routed (%s)", what, g ? err : "no graph");
		tap_ok(0, "updown %s: deadlock-free", what);
		tap_ok(0, "updown %s: never down then up", what);
		graph_free(g);
		return;
	}
	tap_ok(verdict_complete(&v), "updown %s: complete (%ld of %ld broken)", what,
	       v.routes_check.bad, v.routes_check.routes);
	tap_ok(verdict_acyclic(&v), "updown %s: deadlock-free (CDG %ld vertices, %ld edges)",
	       what, v.cdg.vertices, v.cdg.edges);
	tap_ok(down_then_up(g, v.routes, root) == 0, "updown %s: never down then up", what);
	tap_diag("%s: %ld non-minimal routes, max %d hops", what, v.routes_check.non_minimal,
		 v.routes_check.max_hops);
	verdict_free(&v);
	graph_free(g);
}

static uint32_t rnd_state = 12345;

static uint32_t rnd(uint32_t n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state % n;
}

/* A random connected graph: a random tree plus extra cables, 6 ports per node. */
static int write_random_topology(FILE *f, int nodes, int extra)
{
	int used[64] = { 0 };

	fprintf(f, "# random connected graph, %d nodes\n", nodes);
	for (int n = 1; n < nodes; n++) {
		int m;

		do
			m = (int)rnd((uint32_t)n);
		while (used[m] == 6);
		fprintf(f, "%d:%d %d:%d\n", n, used[n]++, m, used[m]++);
	}
	for (int i = 0, tries = 0; i < extra && tries < 1000; tries++) {
		int a = (int)rnd((uint32_t)nodes), b = (int)rnd((uint32_t)nodes);

		if (a == b || used[a] == 6 || used[b] == 6)
			continue;
		fprintf(f, "%d:%d %d:%d   # extra\n", a, used[a]++, b, used[b]++);
		i++;
	}
	return 0;
}

int main(void)
{
	char err[1024];
	struct fm_graph *g;
	FILE *f;
	int fd;

	tap_plan(17);
	atexit(remove_tmp);

	g = graph_from_shape("torus:4x4", err, sizeof(err));
	if (g && (graph_fail_port(g, 0, 0, err, sizeof(err)) ||
		  graph_fail_port(g, 5, 1, err, sizeof(err))))
		tap_diag("%s", err);
	check("torus:4x4 minus cables 0:0 and 5:1", g, 0);

	g = graph_from_shape("hyperx:3x3", err, sizeof(err));
	check("hyperx:3x3", g, 0);

	g = graph_from_shape("torus:4x4x2", err, sizeof(err));
	check("torus:4x4x2 rooted at 7", g, 7);

	snprintf(tmp_path, sizeof(tmp_path), "/tmp/test_fm_updown.XXXXXX");
	fd = mkstemp(tmp_path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (f) {
		write_random_topology(f, 40, 30);
		fclose(f);
	}
	g = f ? topo_load(tmp_path, err, sizeof(err)) : NULL;
	if (!g)
		tap_diag("random topology: %s", f ? err : "cannot create a temp file");
	check("random connected graph of 40 nodes (topology file)", g, 0);

	/* a disconnected graph: each half is routed, the pairs across are reported */
	g = topo_parse("0:0 1:0\n1:1 2:0\n3:0 4:0\n", "two-parts", err, sizeof(err));
	if (g) {
		struct fm_engine_opts o;
		struct fm_verdict v;

		engine_default_opts(&o);
		if (!verdict_run(&fm_engine_updown, g, &o, &v, err, sizeof(err))) {
			tap_ok(!verdict_complete(&v) && v.routes_check.bad == 12,
			       "disconnected graph: incomplete, 12 pairs cut off (%ld)",
			       v.routes_check.bad);
			tap_ok(routes_port(v.routes, 3, 4) == 0 && routes_port(v.routes, 0, 2) == 0,
			       "disconnected graph: each part is still routed");
			tap_ok(verdict_acyclic(&v), "disconnected graph: acyclic");
			verdict_free(&v);
		} else {
			for (int i = 0; i < 3; i++)
				tap_ok(0, "disconnected graph routed: %s", err);
		}
		graph_free(g);
	} else {
		for (int i = 0; i < 3; i++)
			tap_ok(0, "disconnected graph parsed: %s", err);
	}
	/* node 0 has no cable: the first routes walked add no dependency */
	g = topo_parse("1:0 2:0\n", "isolated-0", err, sizeof(err));
	{
		struct fm_engine_opts o;
		struct fm_verdict v;

		engine_default_opts(&o);
		if (g && !verdict_run(&fm_engine_updown, g, &o, &v, err, sizeof(err))) {
			tap_ok(v.routes_check.bad == 4 && verdict_acyclic(&v) && v.cdg.edges == 0,
			       "isolated node 0: 4 pairs cut off, no dependencies");
			verdict_free(&v);
		} else {
			tap_ok(0, "isolated node 0 routed: %s", err);
		}
		graph_free(g);
	}
	{
		struct fm_engine_opts o;
		struct fm_verdict v;

		engine_default_opts(&o);
		o.root = 99;
		g = graph_from_shape("ring:4", err, sizeof(err));
		tap_ok(g && verdict_run(&fm_engine_updown, g, &o, &v, err, sizeof(err)) &&
		       strstr(err, "--root 99"), "updown refuses a root that is not a node: %s", err);
		graph_free(g);
	}
	return tap_exit_status();
}
