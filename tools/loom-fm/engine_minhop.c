// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm engine "minhop": shortest paths by breadth-first search from
 * every destination; among the ports that lead one hop closer, the lowest
 * numbered one.  One VC: on graphs with cycles (rings, tori) the channel
 * dependency graph is usually cyclic, and the check says so.
 */
#include "engine.h"

#include <stdlib.h>
#include <stdio.h>

static int minhop_compute(const struct fm_graph *g, const struct fm_engine_opts *o,
			  struct fm_routes *r, char *err, size_t errlen)
{
	int *dist = malloc((size_t)g->nodes * sizeof(*dist));
	int *queue = malloc((size_t)g->nodes * sizeof(*queue));

	(void)o;
	if (!dist || !queue) {
		free(dist);
		free(queue);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int dest = 0; dest < g->nodes; dest++) {
		/* cables are bidirectional: distances to dest = distances from it */
		graph_bfs(g, dest, dist, queue);
		for (int n = 0; n < g->nodes; n++) {
			if (n == dest || dist[n] < 0)
				continue;
			for (int p = 0; p < g->ports; p++) {
				int m = graph_peer(g, n, p)->node;

				if (m != FM_NO_PEER && dist[m] == dist[n] - 1) {
					r->port[n * g->nodes + dest] = p;
					break;
				}
			}
		}
	}
	free(dist);
	free(queue);
	return 0;
}

const struct fm_engine fm_engine_minhop = {
	.name = "minhop",
	.summary = "shortest paths (BFS), lowest port on ties; one VC",
	.compute = minhop_compute,
};
