// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm engine "dragonfly": minimal routing on a dragonfly shape
 * (dragonfly:A:P:H, graph_shape.c).  A packet for another group goes to
 * the router of its group that holds the global link to the destination's
 * group (a local hop unless it is there), crosses that link, then takes a
 * local hop to the destination's router if the link does not land there,
 * and goes down to the terminal: at most local, global, local.
 *
 * Deadlock freedom with two VCs, in the card's VC model (no port
 * dimensions, so every hop enters a new dimension and takes the VC its
 * table's START_VC1 names; datelines never apply): a router routes on VC1
 * toward the destinations of its own group and over its global links, on
 * VC0 toward the other groups' destinations through a local hop.
 * Channels are then used in the order terminal -> router, local VC0,
 * global VC1, local VC1, router -> terminal: the dependency graph has no
 * cycle.
 */
#include "engine.h"

#include <stdio.h>

/* The router a node is or hangs off. */
static int router_of(const struct fm_shape *s, int terminals, int n)
{
	return n < terminals ? terminals + n / s->p : n;
}

/* Router @n's local port toward router @to of its group. */
static int local_port(const struct fm_shape *s, int terminals, int n, int to)
{
	int r = (n - terminals) % s->a, r2 = (to - terminals) % s->a;

	return s->p + (r2 < r ? r2 : r2 - 1);
}

static int df_port(const struct fm_graph *g, int n, int dest)
{
	const struct fm_shape *s = &g->shape;
	int T = g->terminals, rd = router_of(s, T, dest);
	int G = graph_dragonfly_group(s, n), Gd = graph_dragonfly_group(s, rd), i;

	if (n < T)
		return 0;
	if (rd == n)
		return dest % s->p;
	if (G == Gd)
		return local_port(s, T, n, rd);
	/* the global link of group G toward group Gd, and the router holding it */
	i = (Gd - G - 1 + s->groups) % s->groups;
	if (i / s->h == (n - T) % s->a)
		return s->p + s->a - 1 + i % s->h;
	return local_port(s, T, n, T + G * s->a + i / s->h);
}

static int df_compute(const struct fm_graph *g, const struct fm_engine_opts *o,
		      struct fm_routes *r, char *err, size_t errlen)
{
	const struct fm_shape *s = &g->shape;
	int T = g->terminals;

	(void)o;
	if (s->kind != FM_SHAPE_DRAGONFLY) {
		snprintf(err, errlen, "engine dragonfly routes dragonfly shapes only "
			 "(dragonfly:A:P:H); %s is not one", g->name);
		return -1;
	}
	r->uses_vcs = true;
	for (int n = 0; n < g->nodes; n++) {
		for (int dest = 0; dest < g->nodes; dest++) {
			int port;

			if (dest == n)
				continue;
			port = df_port(g, n, dest);
			if (graph_peer(g, n, port)->node == FM_NO_PEER)
				port = FM_PORT_NONE;
			r->port[n * g->nodes + dest] = port;
			r->start_vc[n * g->nodes + dest] =
				n >= T && (port >= s->p + s->a - 1 ||
					   graph_dragonfly_group(s, n) ==
					   graph_dragonfly_group(s, router_of(s, T, dest)));
		}
	}
	return 0;
}

const struct fm_engine fm_engine_dragonfly = {
	.name = "dragonfly",
	.summary = "minimal on dragonfly shapes: local, global, local hop; VC0\n"
		   "           before the global hop, VC1 from it on",
	.compute = df_compute,
};
