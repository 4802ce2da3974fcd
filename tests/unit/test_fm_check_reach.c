// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm's completeness check (check_reach()) against one routes_walk()
 * per pair: on good tables and on tables damaged at random -- entries
 * without a route, a host entry at the wrong node, ports without a cable
 * or beyond the router, entries that send packets round a cycle -- the
 * same count of routes and of bad ones and the same first bad pair (its
 * source, destination, reason and the node where the walk stopped), over
 * all destinations at once and over two halves combined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "check.h"
#include "engine.h"

TAP_DEFINE;

/* One walk per pair, as the check was first written. */
static void walk_each(const struct fm_graph *g, const struct fm_routes *r,
		      struct fm_reach_check *c)
{
	struct fm_hop *hops = malloc((size_t)g->nodes * sizeof(*hops));

	for (int d = 0; d < graph_terminals(g); d++)
		for (int s = 0; s < g->nodes; s++) {
			int stuck, n;

			if (s == d)
				continue;
			c->routes++;
			n = routes_walk(g, r, s, d, hops, &stuck);
			if (n >= 0)
				continue;
			if (!c->bad++)
				c->first = (struct fm_bad_pair){ s, d, n, stuck };
			else if (s < c->first.src || (s == c->first.src && d < c->first.dest))
				c->first = (struct fm_bad_pair){ s, d, n, stuck };
		}
	free(hops);
}

static void describe(const struct fm_reach_check *c, char *out, size_t len)
{
	snprintf(out, len, "%ld of %ld bad, first %d->%d (%s at node %d)", c->bad, c->routes,
		 c->bad ? c->first.src : -1, c->bad ? c->first.dest : -1,
		 c->bad ? check_walk_reason(c->first.why) : "-", c->bad ? c->first.at : -1);
}

/* Damage @count entries of @r at random (seed @seed); what kinds, in @kinds. */
static void damage(const struct fm_graph *g, struct fm_routes *r, unsigned int seed, int count,
		   char *kinds, size_t len)
{
	int made[5] = { 0 };

	srand(seed);
	for (int i = 0; i < count; i++) {
		int node = rand() % g->nodes, dest = rand() % g->nodes, kind = rand() % 5;
		signed char *e = &r->port[routes_at(r, node, dest)];

		switch (kind) {
		case 0: *e = FM_PORT_NONE; break;
		case 1: *e = FM_PORT_HOST; break;
		case 2: *e = (signed char)g->ports; break;	/* beyond the router */
		default: *e = (signed char)(rand() % g->ports); break;	/* any port: uncabled or astray */
		}
		made[kind]++;
	}
	snprintf(kinds, len, "%d none, %d host, %d beyond, %d other ports", made[0], made[1],
		 made[2], made[3] + made[4]);
}

static void compare(const char *shape, const char *engine, unsigned int seed, int count)
{
	char err[512], want[256], got[256], halves[256], kinds[128] = "undamaged";
	struct fm_graph *g = graph_from_shape(shape, err, sizeof(err));
	const struct fm_engine *e = engine_find(engine);
	struct fm_reach_check one, all, a, b;
	struct fm_engine_opts o;
	struct fm_routes *r;
	int mid;

	engine_default_opts(&o);
	r = g && e ? engine_run(e, g, &o, err, sizeof(err)) : NULL;
	if (!r) {
		tap_ok(0, "%s %s: %s", shape, engine, err);
		graph_free(g);
		return;
	}
	if (count)
		damage(g, r, seed, count, kinds, sizeof(kinds));
	check_reach_init(&one);
	walk_each(g, r, &one);
	check_reach_init(&all);
	check_reach(g, r, 0, g->nodes, &all);
	mid = graph_terminals(g) / 2;
	check_reach_init(&a);
	check_reach_init(&b);
	check_reach(g, r, 0, mid, &a);
	check_reach(g, r, mid, g->nodes, &b);
	a.routes += b.routes;
	if (b.bad && (!a.bad || b.first.src < a.first.src ||
		      (b.first.src == a.first.src && b.first.dest < a.first.dest)))
		a.first = b.first;
	a.bad += b.bad;
	describe(&one, want, sizeof(want));
	describe(&all, got, sizeof(got));
	describe(&a, halves, sizeof(halves));
	tap_ok(!strcmp(got, want) && !strcmp(halves, want),
	       "%s %s, %s (seed %u): check_reach %s, in two halves %s (a walk per pair: %s)",
	       shape, engine, kinds, seed, got, halves, want);
	routes_free(r);
	graph_free(g);
}

int main(void)
{
	tap_plan(12);
	compare("torus:4x4", "dor", 0, 0);
	compare("fattree:4:2", "updown", 0, 0);
	for (unsigned int seed = 1; seed <= 4; seed++)
		compare("torus:4x4", "dor", seed, 6);
	for (unsigned int seed = 5; seed <= 7; seed++)
		compare("mesh:5x3", "dor", seed, 40);
	compare("fattree:4:2", "updown", 8, 10);
	compare("hyperx:3x3", "minhop", 9, 20);
	compare("torus:3x3x3", "dor", 10, 200);
	return tap_exit_status();
}
