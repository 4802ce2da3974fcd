// SPDX-License-Identifier: GPL-2.0
/* loom-fm: completeness and minimality of the tables (check.h). */
#include "check.h"

#include <stdlib.h>
#include <string.h>

const char *check_walk_reason(int why)
{
	switch (why) {
	case FM_WALK_NO_ENTRY:
		return "no table entry";
	case FM_WALK_UNCABLED:
		return "entry names a port without a cable";
	case FM_WALK_LOOP:
		return "the tables loop";
	default:
		return "ok";
	}
}

/* Sources walked together, destination by destination (check_routes()). */
#define CHECK_BLOCK	64

int check_routes(const struct fm_graph *g, const struct fm_routes *r, struct fm_route_check *c)
{
	int terms = graph_terminals(g);
	struct fm_hop *hops = malloc((size_t)g->nodes * sizeof(*hops));
	int *dist = malloc((size_t)g->nodes * sizeof(*dist));
	int *queue = malloc((size_t)g->nodes * sizeof(*queue));
	/* [s - s0][d]: the walk's length or fm_walk_result, and where it stuck */
	int *len = malloc((size_t)CHECK_BLOCK * (size_t)terms * sizeof(*len));
	int *stuck = malloc((size_t)CHECK_BLOCK * (size_t)terms * sizeof(*stuck));

	memset(c, 0, sizeof(*c));
	c->worst_src = c->worst_dest = -1;
	if (!hops || !dist || !queue || !len || !stuck) {
		free(hops);
		free(dist);
		free(queue);
		free(len);
		free(stuck);
		return -1;
	}
	for (int s0 = 0; s0 < g->nodes; s0 += CHECK_BLOCK) {
		int s1 = s0 + CHECK_BLOCK < g->nodes ? s0 + CHECK_BLOCK : g->nodes;

		/*
		 * Walk a block of sources destination by destination: the walks
		 * toward one destination read one column of the tables, which
		 * stays in the cache; the results are then taken in (source,
		 * destination) order as one walk at a time would give them.
		 */
		for (int d = 0; d < terms; d++)
			for (int s = s0; s < s1; s++) {
				size_t k = (size_t)(s - s0) * (size_t)terms + (size_t)d;

				if (s != d)
					len[k] = routes_walk(g, r, s, d, hops, &stuck[k]);
			}
		for (int s = s0; s < s1; s++) {
			graph_bfs(g, s, dist, queue);
			for (int d = 0; d < terms; d++) {
				size_t k = (size_t)(s - s0) * (size_t)terms + (size_t)d;
				int n = len[k];

				if (s == d)
					continue;
				c->routes++;
				if (n < 0) {
					if (c->nreported < FM_CHECK_MAX_REPORTED)
						c->reported[c->nreported++] =
							(struct fm_bad_pair){ s, d, n, stuck[k] };
					c->bad++;
					continue;
				}
				if (n > c->max_hops)
					c->max_hops = n;
				if (n > dist[d])
					c->non_minimal++;
				/* n / dist > worst_hops / worst_dist */
				if (c->worst_src < 0 ||
				    (long)n * c->worst_dist > (long)c->worst_hops * dist[d]) {
					c->worst_src = s;
					c->worst_dest = d;
					c->worst_hops = n;
					c->worst_dist = dist[d];
				}
			}
		}
	}
	free(hops);
	free(dist);
	free(queue);
	free(len);
	free(stuck);
	return 0;
}

void check_reach_init(struct fm_reach_check *c)
{
	*c = (struct fm_reach_check){ .first = { .src = -1, .dest = -1 } };
}

int check_reach(const struct fm_graph *g, const struct fm_routes *r, int d0, int d1,
		struct fm_reach_check *c)
{
	int terms = graph_terminals(g);
	struct fm_hop *hops;

	if (d1 > terms)
		d1 = terms;
	if (d0 >= d1)
		return 0;
	if (d0 < r->dest_lo || d1 > r->dest_hi || r->row_lo || r->row_hi != g->nodes)
		return -1;
	hops = malloc((size_t)g->nodes * sizeof(*hops));
	if (!hops)
		return -1;
	for (int d = d0; d < d1; d++)
		for (int s = 0; s < g->nodes; s++) {
			int stuck, n;

			if (s == d)
				continue;
			c->routes++;
			n = routes_walk(g, r, s, d, hops, &stuck);
			if (n >= 0)
				continue;
			c->bad++;
			if (c->first.src < 0 || s < c->first.src ||
			    (s == c->first.src && d < c->first.dest))
				c->first = (struct fm_bad_pair){ s, d, n, stuck };
		}
	free(hops);
	return 0;
}
