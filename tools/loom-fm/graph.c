// SPDX-License-Identifier: GPL-2.0
/* loom-fm: the fabric graph (nodes, ports, cables, directed channels). */
#include "graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fm_graph *graph_new(int nodes, int ports)
{
	struct fm_graph *g;
	size_t n = (size_t)nodes * (size_t)ports;

	if (nodes < 1 || nodes > FM_MAX_NODES || ports < 1 || ports > FM_MAX_PORTS)
		return NULL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->peer = malloc(n * sizeof(*g->peer));
	if (!g->peer) {
		free(g);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		g->peer[i].node = FM_NO_PEER;
		g->peer[i].port = FM_NO_PEER;
	}
	g->nodes = nodes;
	g->ports = ports;
	return g;
}

void graph_free(struct fm_graph *g)
{
	if (!g)
		return;
	free(g->peer);
	free(g->logical);
	free(g->line);
	free(g);
}

static struct fm_port_end *end_of(struct fm_graph *g, int node, int port)
{
	return &g->peer[(size_t)node * (size_t)g->ports + (size_t)port];
}

static bool end_valid(const struct fm_graph *g, int node, int port)
{
	return node >= 0 && node < g->nodes && port >= 0 && port < g->ports;
}

int graph_cable(struct fm_graph *g, int a, int pa, int b, int pb)
{
	if (!end_valid(g, a, pa) || !end_valid(g, b, pb) || a == b)
		return -1;
	if (end_of(g, a, pa)->node != FM_NO_PEER || end_of(g, b, pb)->node != FM_NO_PEER)
		return -1;
	*end_of(g, a, pa) = (struct fm_port_end){ b, pb };
	*end_of(g, b, pb) = (struct fm_port_end){ a, pa };
	return 0;
}

int graph_cable_count(const struct fm_graph *g)
{
	int ends = 0;

	for (size_t i = 0; i < (size_t)g->nodes * (size_t)g->ports; i++)
		if (g->peer[i].node != FM_NO_PEER)
			ends++;
	return ends / 2;
}

int graph_fail_port(struct fm_graph *g, int node, int port, char *err, size_t errlen)
{
	struct fm_port_end *e, *far;

	if (node < 0 || node >= g->nodes) {
		snprintf(err, errlen, "--fail %d:%d: no node %d (the fabric has nodes 0..%d)",
			 node, port, node, g->nodes - 1);
		return -1;
	}
	if (port < 0 || port >= g->ports) {
		snprintf(err, errlen, "--fail %d:%d: no port %d (nodes have ports 0..%d)",
			 node, port, port, g->ports - 1);
		return -1;
	}
	e = end_of(g, node, port);
	if (e->node == FM_NO_PEER) {
		snprintf(err, errlen,
			 "--fail %d:%d: no cable on that port (already failed, or never cabled)",
			 node, port);
		return -1;
	}
	far = end_of(g, e->node, e->port);
	far->node = far->port = FM_NO_PEER;
	e->node = e->port = FM_NO_PEER;
	return 0;
}

static int parse_uint(const char *s, const char **end)
{
	long v = 0;

	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (*s - '0');
		if (v > 1000000)
			return -1;
		s++;
	}
	*end = s;
	return (int)v;
}

int graph_parse_end(const char *s, int *node, int *port)
{
	const char *p;
	int n, pt;

	n = parse_uint(s, &p);
	if (n < 0 || *p != ':')
		return -1;
	pt = parse_uint(p + 1, &p);
	if (pt < 0 || *p != '\0')
		return -1;
	*node = n;
	*port = pt;
	return 0;
}

void graph_bfs(const struct fm_graph *g, int src, int *dist, int *queue)
{
	int head = 0, tail = 0;

	for (int i = 0; i < g->nodes; i++)
		dist[i] = -1;
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		int u = queue[head++];

		for (int p = 0; p < g->ports; p++) {
			int v = graph_peer(g, u, p)->node;

			if (v != FM_NO_PEER && dist[v] < 0) {
				dist[v] = dist[u] + 1;
				queue[tail++] = v;
			}
		}
	}
}
