/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-fm: the fabric graph.  Nodes (cards) with numbered network ports; a
 * cable joins two (node, port) ends and gives two directed channels, one
 * each way.  A channel is named by its sending end: (node, out port).
 * Built from a shape (graph_shape.c) or a topology file (topo_file.c),
 * minus failed cables (graph_fail_port()).
 */
#ifndef LOOM_FM_GRAPH_H
#define LOOM_FM_GRAPH_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A graph is allocated by its size; these bound what a shape or topology
 * file may ask for.  Nodes: the routes index [node * nodes + dest] in an
 * int (46340 = floor(sqrt(INT_MAX))).  Logical ids: the packet header's
 * 16-bit destination.  A real fabric is further bounded by its cards'
 * routing tables (ROUTER RT_ENTRIES) and FM_MAX_CARDS (fabric.h).
 */
#define FM_MAX_NODES	46340
#define FM_MAX_PORTS	64
#define FM_MAX_DIMS	7	/* 14 ports: the routing entry's 4-bit port */
#define FM_MAX_DIM_SIZE	64
#define FM_NO_PEER	(-1)
#define FM_MAX_LOGICAL	65536	/* logical ids 0..65535 (LOOM_PKT dst_node) */

enum fm_shape_kind {
	FM_SHAPE_NONE, FM_SHAPE_MESH, FM_SHAPE_TORUS, FM_SHAPE_HYPERX,
	FM_SHAPE_FATTREE,		/* k-ary n-tree: terminals, then switches by level */
	FM_SHAPE_DRAGONFLY,		/* terminals, then routers by group */
};

/*
 * What the graph was built from, for engines that need coordinates (dor)
 * or the structure (updown's levels on a fat tree, dragonfly's groups).
 */
struct fm_shape {
	enum fm_shape_kind kind;	/* NONE: a topology file */
	int dims;
	int size[FM_MAX_DIMS];		/* 1 beyond dims */
	/* FATTREE: k (down ports = up ports per switch), levels n */
	/* DRAGONFLY: a routers per group, p terminals per router, h global ports */
	int k, levels, a, p, h, groups;
};

struct fm_port_end {
	int node;			/* FM_NO_PEER: uncabled (or failed) */
	int port;
};

struct fm_graph {
	int nodes;
	int ports;			/* ports per node (the same for all) */
	struct fm_shape shape;
	char name[64];			/* "torus:4x4", "FILE" */
	struct fm_port_end *peer;	/* [node * ports + port] */
	int *logical;			/* [node]: logical id a topology file states
					 * ('node N logical L'), -1 none; NULL: none */
	int *line;			/* [node]: a topology file's line that names it
					 * (its 'node' line, else its first cable), 0
					 * none; NULL: not from a file */
	/*
	 * Nodes 0 .. terminals - 1 carry traffic (a fat tree's or a
	 * dragonfly's terminal cards); the others are switches whose host
	 * ports stay idle.  0: every node is a terminal.
	 */
	int terminals;
};

/* A mesh, torus, ring or HyperX: nodes have coordinates (graph_coords()). */
static inline bool graph_has_coords(const struct fm_graph *g)
{
	return g->shape.kind == FM_SHAPE_MESH || g->shape.kind == FM_SHAPE_TORUS ||
	       g->shape.kind == FM_SHAPE_HYPERX;
}

/* The nodes that send and receive traffic: 0 .. graph_terminals() - 1. */
static inline int graph_terminals(const struct fm_graph *g)
{
	return g->terminals ? g->terminals : g->nodes;
}

/* Allocate a graph of nodes x ports with every port uncabled; NULL on ENOMEM. */
struct fm_graph *graph_new(int nodes, int ports);
void graph_free(struct fm_graph *g);

static inline const struct fm_port_end *graph_peer(const struct fm_graph *g, int node, int port)
{
	return &g->peer[(size_t)node * (size_t)g->ports + (size_t)port];
}

/* Cable (a, pa) to (b, pb); both ends must be free and distinct nodes. */
int graph_cable(struct fm_graph *g, int a, int pa, int b, int pb);
int graph_cable_count(const struct fm_graph *g);

/*
 * Remove the cable on (node, port), both directions.  0, or -1 with a
 * message in err (port out of range, nothing cabled there).
 */
int graph_fail_port(struct fm_graph *g, int node, int port, char *err, size_t errlen);

/* Parse "NODE:PORT" (decimal, no sign); 0 or -1. */
int graph_parse_end(const char *s, int *node, int *port);

/*
 * Build a graph from a shape: ring:N, mesh:XxY[xZ], torus:XxY[xZ],
 * hyperx:S1xS2[xS3], fattree:K:N, dragonfly:A:P:H.  NULL with a message
 * in err on a bad shape.
 */
struct fm_graph *graph_from_shape(const char *spec, char *err, size_t errlen);

/* Coordinates of a node of a shaped graph; node = x + X * (y + Y * z). */
void graph_coords(const struct fm_shape *s, int node, int coord[FM_MAX_DIMS]);

/* hyperx: the port of a node whose coordinate in dim is c toward coordinate to. */
int graph_hyperx_port(const struct fm_shape *s, int dim, int c, int to);

/*
 * Fat tree: the level of node @n (0 leaf switches .. levels - 1 top, a
 * terminal -1); dragonfly: the group of router or terminal @n.
 */
int graph_fattree_level(const struct fm_shape *s, int n);
int graph_dragonfly_group(const struct fm_shape *s, int n);

/* Hop distances from src over directed channels; -1 unreachable.  dist[nodes]. */
void graph_bfs(const struct fm_graph *g, int src, int *dist, int *queue);

#endif
