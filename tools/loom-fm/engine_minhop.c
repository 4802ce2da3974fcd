// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm engine "minhop": minimal-hop routing with adaptivity.
 *
 * Distances come from a breadth-first search from every destination (over
 * the cables that remain, so failed cables are routed around).  At every
 * node, the minimal ports toward a destination are those whose peer is one
 * hop closer:
 *
 *  - the deterministic escape path takes the minimal port of the lowest
 *    dimension, then the lowest number.  On shapes this is dimension order
 *    (X, then Y, then Z; the + way on a torus tie), and tori get one
 *    dateline per ring with the T3E VC model, as the dor engine: the escape
 *    paths are acyclic, which the channel dependency check verifies (it
 *    runs on the escape paths).  On a topology file no port has a
 *    dimension: the lowest numbered minimal port, one VC, and the check
 *    says whether that is deadlock free.
 *  - every minimal port (ports 0..7) goes into the entry's adaptive port
 *    mask; an entry with two or more is programmed adaptive: the card may
 *    send a packet on the adaptive VC through any of them, whole-packet
 *    admission, falling back to the escape path (Documentation/hw/
 *    routing.rst).  One minimal port: deterministic only.
 *
 * --no-adaptive (o->adaptive false) leaves every mask empty, for users who
 * need the packets to one destination delivered in order.
 */
#include "engine.h"

#include <stdlib.h>
#include <stdio.h>

#include <loom_hw/regs.h>

/* does port a come before port b on the escape path? (lower dimension, then number) */
static int minhop_before(const struct fm_routes *r, int a, int b)
{
	int da = r->port_dim[a] < 0 ? FM_MAX_DIMS : r->port_dim[a];
	int db = r->port_dim[b] < 0 ? FM_MAX_DIMS : r->port_dim[b];

	return da != db ? da < db : a < b;
}

static int minhop_compute(const struct fm_graph *g, const struct fm_engine_opts *o,
			  struct fm_routes *r, char *err, size_t errlen)
{
	int *dist = malloc((size_t)g->nodes * sizeof(*dist));
	int *queue = malloc((size_t)g->nodes * sizeof(*queue));

	if (!dist || !queue) {
		free(dist);
		free(queue);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* dimensions of the ports and the datelines of the tori, as dor's */
	if (graph_has_coords(g))
		engine_dor_model(g, o, r);
	for (int dest = 0; dest < g->nodes; dest++) {
		/* cables are bidirectional: distances to dest = distances from it */
		graph_bfs(g, dest, dist, queue);
		for (int n = 0; n < g->nodes; n++) {
			size_t e = (size_t)n * (size_t)g->nodes + (size_t)dest;
			unsigned int mask = 0;
			int escape = FM_PORT_NONE;

			if (n == dest || dist[n] < 0)
				continue;
			for (int p = 0; p < g->ports; p++) {
				int m = graph_peer(g, n, p)->node;

				if (m == FM_NO_PEER || dist[m] != dist[n] - 1)
					continue;
				if (escape == FM_PORT_NONE || minhop_before(r, p, escape))
					escape = p;
				if (p < LOOM_MAX_PORTS)
					mask |= 1u << p;
			}
			r->port[e] = escape;
			/* adaptive only where there is a choice */
			if (o->adaptive && (mask & (mask - 1)))
				r->adapt_ports[e] = (unsigned char)mask;
		}
	}
	free(dist);
	free(queue);
	return 0;
}

const struct fm_engine fm_engine_minhop = {
	.name = "minhop",
	.summary = "shortest paths (BFS), adaptive over all minimal ports; the\n"
		   "           escape path in dimension order with datelines on tori",
	.compute = minhop_compute,
};
