// SPDX-License-Identifier: GPL-2.0
/* loom-fm: virtual-channel balance and the start-VC optimiser (vc_balance.h). */
#include "vc_balance.h"

#include <stdlib.h>

/*
 * The channels (node * ports + port) a route toward dest uses from node
 * while it stays in the dimension it enters there; *crosses: one of them is
 * a dateline.  Returns how many, at most max.
 */
static int segment(const struct fm_graph *g, const struct fm_routes *r, int node, int dest,
		   int *ch, int max, bool *crosses)
{
	int n = 0, prev = -1;

	*crosses = false;
	while (n < max) {
		int port = routes_port(r, node, dest);

		if (port < 0 || port >= g->ports || graph_peer(g, node, port)->node == FM_NO_PEER ||
		    (prev >= 0 && routes_enters_dim(r, prev, port)))
			break;
		ch[n++] = node * g->ports + port;
		/* a dateline on the first hop is not crossed: the route starts there */
		*crosses |= n > 1 && r->dateline[node * g->ports + port];
		prev = port;
		node = graph_peer(g, node, port)->node;
	}
	return n;
}

/*
 * For every pair of nodes first .. first + count - 1, walk the route: count
 * the routes per channel and VC (v0, v1: [node * ports + port]) and, in
 * weight (may be NULL), the routes that enter a dimension at each table
 * entry [node * nodes + dest].
 */
static int count_routes(const struct fm_graph *g, const struct fm_routes *r, int first,
			int count, long *v0, long *v1, int *weight)
{
	struct fm_hop *hops = malloc((size_t)g->nodes * sizeof(*hops));

	if (!hops)
		return -1;
	/* destination outermost: the walks toward one destination read one
	 * column of the tables, which stays in the cache */
	for (int d = first; d < first + count; d++) {
		for (int s = first; s < first + count; s++) {
			int stuck, n = s == d ? 0 : routes_walk(g, r, s, d, hops, &stuck);

			for (int i = 0; i < n; i++) {
				long ch = (long)hops[i].node * g->ports + hops[i].port;

				(hops[i].vc ? v1 : v0)[ch]++;
				if (weight && routes_enters_dim(r, i ? hops[i - 1].port : -1,
								hops[i].port))
					weight[(long)hops[i].node * g->nodes + d]++;
			}
		}
	}
	free(hops);
	return 0;
}

int vc_balance_measure(const struct fm_graph *g, const struct fm_routes *r,
		       struct fm_vc_balance *b)
{
	return vc_balance_measure_among(g, r, 0, g->nodes, b);
}

int vc_balance_measure_among(const struct fm_graph *g, const struct fm_routes *r, int first,
			     int count, struct fm_vc_balance *b)
{
	size_t chans = (size_t)g->nodes * (size_t)g->ports;
	long *v0 = calloc(chans, sizeof(*v0)), *v1 = calloc(chans, sizeof(*v1));
	int *weight = calloc((size_t)g->nodes * (size_t)g->nodes, sizeof(*weight));
	long dim_max[FM_MAX_DIMS + 1] = { 0 };	/* [dim + 1]: -1 = no dimension */
	int *ch = malloc((size_t)g->nodes * sizeof(*ch));
	int rc = -1;

	*b = (struct fm_vc_balance){ 0 };
	if (first < 0 || count < 1 || first + count > g->nodes)
		goto out;
	if (!v0 || !v1 || !weight || !ch || count_routes(g, r, first, count, v0, v1, weight))
		goto out;
	for (size_t c = 0; c < chans; c++) {
		int dim = r->port_dim[c % (size_t)g->ports];
		long *m = &dim_max[dim >= 0 && dim < FM_MAX_DIMS ? dim + 1 : 0];

		if (v0[c] + v1[c] > *m)
			*m = v0[c] + v1[c];
	}
	for (size_t c = (size_t)first * g->ports; c < (size_t)(first + count) * g->ports; c++) {
		int dim = r->port_dim[c % (size_t)g->ports];
		long m = dim_max[dim >= 0 && dim < FM_MAX_DIMS ? dim + 1 : 0];
		double bal;

		if (graph_peer(g, (int)(c / (size_t)g->ports), (int)(c % (size_t)g->ports))->node ==
		    FM_NO_PEER)
			continue;
		bal = m ? (double)labs(v0[c] - v1[c]) / (double)m : 0;
		b->channels++;
		b->avg += bal;
		if (bal > b->max)
			b->max = bal;
	}
	if (b->channels)
		b->avg /= (double)b->channels;
	for (int n = 0; n < g->nodes; n++) {
		for (int d = 0; d < g->nodes; d++) {
			bool crosses;

			if (!weight[(long)n * g->nodes + d])
				continue;
			b->entries++;
			segment(g, r, n, d, ch, g->nodes, &crosses);
			b->free_entries += !crosses;
			b->vc1_entries += r->start_vc[(long)n * g->nodes + d] != 0;
		}
	}
	rc = 0;
out:
	free(v0);
	free(v1);
	free(weight);
	free(ch);
	return rc;
}

int vc_balance_optimise(const struct fm_graph *g, struct fm_routes *r)
{
	size_t chans = (size_t)g->nodes * (size_t)g->ports;
	size_t pairs = (size_t)g->nodes * (size_t)g->nodes;
	long *v0 = calloc(chans, sizeof(*v0)), *v1 = calloc(chans, sizeof(*v1));
	int *weight = calloc(pairs, sizeof(*weight));
	int *ch = malloc((size_t)g->nodes * sizeof(*ch));
	int rc = -1;

	if (!v0 || !v1 || !weight || !ch)
		goto out;
	for (size_t e = 0; e < pairs; e++)
		r->start_vc[e] = 0;
	if (count_routes(g, r, 0, g->nodes, v0, v1, weight))
		goto out;
	/* v0 now holds VC0 - VC1 per channel: the imbalance the flips change */
	for (size_t c = 0; c < chans; c++)
		v0[c] -= v1[c];
	for (int pass = 0; pass < 64; pass++) {
		long flips = 0;

		for (int n = 0; n < g->nodes; n++) {
			for (int d = 0; d < g->nodes; d++) {
				long e = (long)n * g->nodes + d, w = weight[e], delta = 0;
				/* 0 -> 1 moves w routes from VC0 to VC1 on the segment */
				long step = r->start_vc[e] ? 2 * w : -2 * w;
				bool crosses;
				int len;

				if (!w)
					continue;
				len = segment(g, r, n, d, ch, g->nodes, &crosses);
				if (crosses)
					continue;
				for (int i = 0; i < len; i++)
					delta += step * (2 * v0[ch[i]] + step);
				if (delta >= 0)
					continue;
				for (int i = 0; i < len; i++)
					v0[ch[i]] += step;
				r->start_vc[e] ^= 1;
				flips++;
			}
		}
		if (!flips)
			break;
	}
	rc = 0;
out:
	free(v0);
	free(v1);
	free(weight);
	free(ch);
	return rc;
}
