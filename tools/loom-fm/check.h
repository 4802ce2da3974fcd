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

/*
 * Completeness alone, a few destinations at a time: the walks from every
 * node toward the terminals among [@d0, @d1), added to @c (zeroed by
 * check_reach_init()); @r holds the whole rows of those columns.  Checks
 * of other destinations (by other processes) combine by adding routes
 * and bad and keeping the lowest first.  0, or -1 (ENOMEM, or @r does not
 * hold them).
 */
struct fm_reach_check {
	long routes;			/* ordered pairs of distinct nodes walked */
	long bad;			/* pairs without a working route */
	/* the bad pair of the lowest (src, dest) (check_routes()' first), when bad */
	struct fm_bad_pair first;
};

void check_reach_init(struct fm_reach_check *c);
int check_reach(const struct fm_graph *g, const struct fm_routes *r, int d0, int d1,
		struct fm_reach_check *c);

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

/*
 * The CDG gathered a few destinations at a time (cdg_check() is one
 * gathering of them all): edges[] holds one bit per possible dependency,
 * (from vertex * ports + to port) * vcs + to VC (the to vertex is on the
 * node the from channel leads to), used[] a byte per vertex that some
 * route takes.  Gatherings of other destinations (by other processes)
 * combine by OR of both arrays; the graph they give is the one of all
 * their destinations together, whatever the order.
 */
struct fm_cdg_acc {
	int vcs;
	uint64_t *edges;
	size_t nwords;			/* of edges[] */
	unsigned char *used;
	size_t nused;			/* vertices */
};

/* Empty, for the VCs of @r's routing class; 0 or -1 (ENOMEM). */
int cdg_acc_init(struct fm_cdg_acc *a, const struct fm_graph *g, const struct fm_routes *r);
/*
 * Add the dependencies of the routes toward destinations [@d0, @d1)
 * (Valiant: through intermediates [@d0, @d1)): @r holds the whole rows
 * of those columns (Valiant: the whole tables).  0, or -1 (ENOMEM, or
 * @r does not hold them).
 */
int cdg_acc_add(struct fm_cdg_acc *a, const struct fm_graph *g, const struct fm_routes *r,
		int d0, int d1);
/* Look for a cycle in what @a holds, as cdg_check() does; 0 or -1 (ENOMEM). */
int cdg_acc_check(const struct fm_cdg_acc *a, const struct fm_graph *g,
		  struct fm_cdg_check *c);
void cdg_acc_free(struct fm_cdg_acc *a);
void cdg_check_free(struct fm_cdg_check *c);

#endif
