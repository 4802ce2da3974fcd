/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-fm: checks of computed tables before anything is programmed.
 *  - completeness: every ordered pair of distinct nodes has a route that
 *    reaches the destination over cabled ports without looping;
 *  - minimality: each route's hop count against the BFS distance
 *    (stretch = hops / distance);
 *  - deadlock freedom (ibdmchk style, cdg.c): the channel dependency
 *    graph, vertices (channel, VC), an edge for every two consecutive hops
 *    of a route, must be acyclic.
 */
#ifndef LOOM_FM_CHECK_H
#define LOOM_FM_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "routes.h"

#define FM_CHECK_MAX_REPORTED 16	/* unreachable pairs kept for the report */

struct fm_bad_pair {
	int src, dest;
	int why;			/* enum fm_walk_result */
	int at;				/* node where the walk stopped */
};

struct fm_route_check {
	long routes;			/* ordered pairs of distinct nodes */
	long bad;			/* pairs without a working route */
	int nreported;
	struct fm_bad_pair reported[FM_CHECK_MAX_REPORTED];
	long non_minimal;		/* routes longer than the BFS distance */
	int max_hops;
	/* the route with the largest stretch: hops / dist */
	int worst_src, worst_dest, worst_hops, worst_dist;
};

/*
 * Walk the route from every node to every terminal (graph_terminals(): a
 * fat tree's or a dragonfly's switches are no destination).  0, or -1 on ENOMEM.
 */
int check_routes(const struct fm_graph *g, const struct fm_routes *r, struct fm_route_check *c);

const char *check_walk_reason(int why);

/* A (channel, VC) vertex of the channel dependency graph. */
struct fm_cdg_vertex {
	int node, port, vc;
};

struct fm_cdg_check {
	long vertices;			/* (channel, VC) pairs some route uses */
	long edges;			/* distinct dependencies */
	int cycle_len;			/* 0: acyclic */
	struct fm_cdg_vertex *cycle;	/* [cycle_len], cycle[i] -> cycle[i + 1] -> cycle[0] */
};

/* Dependencies as from << 32 | to, vertex ids cdg_vertex_id(). */
struct fm_cdg_edges {
	uint64_t *e;
	size_t n, cap;
};

uint32_t cdg_vertex_id(const struct fm_graph *g, int node, int port, int vc);
/* 0, or -1 on ENOMEM. */
int cdg_edges_add(struct fm_cdg_edges *es, uint32_t from, uint32_t to);
/* Sort and remove duplicates. */
void cdg_edges_dedup(struct fm_cdg_edges *es);

/*
 * The CDG given by its edges (deduplicated here): count (vertices from
 * used[vertex id], when not NULL) and look for a cycle; 0 or -1 (ENOMEM).
 */
int cdg_check_edges(const struct fm_graph *g, struct fm_cdg_edges *es,
		    const unsigned char *used, struct fm_cdg_check *c);

/* Build the CDG of the routes that work and look for a cycle; 0 or -1 (ENOMEM). */
int cdg_check(const struct fm_graph *g, const struct fm_routes *r, struct fm_cdg_check *c);
void cdg_check_free(struct fm_cdg_check *c);

#endif
