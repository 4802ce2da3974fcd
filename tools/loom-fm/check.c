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

int check_routes(const struct fm_graph *g, const struct fm_routes *r, struct fm_route_check *c)
{
	struct fm_hop *hops = malloc((size_t)g->nodes * sizeof(*hops));
	int *dist = malloc((size_t)g->nodes * sizeof(*dist));
	int *queue = malloc((size_t)g->nodes * sizeof(*queue));

	memset(c, 0, sizeof(*c));
	c->worst_src = c->worst_dest = -1;
	if (!hops || !dist || !queue) {
		free(hops);
		free(dist);
		free(queue);
		return -1;
	}
	for (int s = 0; s < g->nodes; s++) {
		graph_bfs(g, s, dist, queue);
		for (int d = 0; d < graph_terminals(g); d++) {
			int stuck, n;

			if (s == d)
				continue;
			c->routes++;
			n = routes_walk(g, r, s, d, hops, &stuck);
			if (n < 0) {
				if (c->nreported < FM_CHECK_MAX_REPORTED)
					c->reported[c->nreported++] =
						(struct fm_bad_pair){ s, d, n, stuck };
				c->bad++;
				continue;
			}
			if (n > c->max_hops)
				c->max_hops = n;
			if (n > dist[d])
				c->non_minimal++;
			/* n / dist > worst_hops / worst_dist */
			if (c->worst_src < 0 || (long)n * c->worst_dist > (long)c->worst_hops * dist[d]) {
				c->worst_src = s;
				c->worst_dest = d;
				c->worst_hops = n;
				c->worst_dist = dist[d];
			}
		}
	}
	free(hops);
	free(dist);
	free(queue);
	return 0;
}
