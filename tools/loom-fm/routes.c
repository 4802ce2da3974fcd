// SPDX-License-Identifier: GPL-2.0
/* loom-fm: routing and VC tables, and walking them (routes.h). */
#include "routes.h"

#include <stdlib.h>

struct fm_routes *routes_new(const struct fm_graph *g)
{
	return routes_new_block(g, 0, g->nodes, 0, g->nodes);
}

struct fm_routes *routes_new_block(const struct fm_graph *g, int row_lo, int row_hi,
				   int dest_lo, int dest_hi)
{
	struct fm_routes *r;
	size_t pairs;

	if (row_lo < 0 || row_lo >= row_hi || row_hi > g->nodes || dest_lo < 0 ||
	    dest_lo >= dest_hi || dest_hi > g->nodes)
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	pairs = (size_t)(row_hi - row_lo) * (size_t)(dest_hi - dest_lo);
	r->nodes = g->nodes;
	r->ports = g->ports;
	r->row_lo = row_lo;
	r->row_hi = row_hi;
	r->dest_lo = dest_lo;
	r->dest_hi = dest_hi;
	r->port = malloc(pairs * sizeof(*r->port));
	r->start_vc = calloc(pairs, 1);
	r->dateline = calloc((size_t)g->nodes * (size_t)g->ports, 1);
	r->port_dim = malloc((size_t)g->ports * sizeof(*r->port_dim));
	r->adapt_ports = calloc(pairs, 1);
	r->hops_left = calloc(pairs, 1);
	r->up_first = malloc(pairs);
	if (!r->port || !r->start_vc || !r->dateline || !r->port_dim || !r->adapt_ports ||
	    !r->hops_left || !r->up_first) {
		routes_free(r);
		return NULL;
	}
	for (size_t i = 0; i < pairs; i++) {
		r->port[i] = FM_PORT_NONE;
		r->up_first[i] = FM_NO_UPROUTE;
	}
	for (int n = row_lo; n < row_hi; n++)
		if (routes_holds(r, n, n))
			r->port[routes_at(r, n, n)] = FM_PORT_HOST;
	for (int p = 0; p < g->ports; p++)
		r->port_dim[p] = -1;
	return r;
}

void routes_free(struct fm_routes *r)
{
	if (!r)
		return;
	free(r->port);
	free(r->start_vc);
	free(r->dateline);
	free(r->port_dim);
	free(r->adapt_ports);
	free(r->hops_left);
	free(r->up_first);
	free(r);
}

int routes_step(const struct fm_graph *g, const struct fm_routes *r, int node, int dest,
		int *port)
{
	int p = routes_port(r, node, dest);

	*port = -1;
	if (p == FM_PORT_HOST)
		return node == dest ? FM_WALK_OK : FM_WALK_NO_ENTRY;
	if (p == FM_PORT_NONE)
		return FM_WALK_NO_ENTRY;
	if (p < 0 || p >= g->ports || graph_peer(g, node, p)->node == FM_NO_PEER)
		return FM_WALK_UNCABLED;
	*port = p;
	return FM_WALK_OK;
}

int routes_walk(const struct fm_graph *g, const struct fm_routes *r, int src, int dest,
		struct fm_hop *hops, int *stuck)
{
	int node = src, n = 0, vc = 0, prev_port = -1;

	for (;;) {
		int port, why = routes_step(g, r, node, dest, &port);

		*stuck = node;
		if (why != FM_WALK_OK)
			return why;
		if (port < 0)
			return n;
		if (n == g->nodes)
			return FM_WALK_LOOP;
		if (routes_enters_dim(r, prev_port, port))
			vc = r->start_vc[routes_at(r, node, dest)];
		else if (r->dateline[node * g->ports + port])
			vc = 1;
		if (!r->uses_vcs)
			vc = 0;
		hops[n++] = (struct fm_hop){ node, port, vc };
		prev_port = port;
		node = graph_peer(g, node, port)->node;
	}
}
