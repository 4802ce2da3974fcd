/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-sim: traffic patterns, the destination of each new packet.
 *   uniform      a random node other than the source
 *   permutation  a random permutation of the nodes without fixed points,
 *                drawn once from the seed
 *   transpose    coordinates reversed (x, y) -> (y, x); shapes whose sizes
 *                read the same both ways; fat trees and dragonflies: the
 *                halves of the terminal id's bits swapped (4^k terminals)
 *   bitcomp      the complement of the node id's bits; a power-of-two count
 *   bitrev       the node id's bits reversed; a power-of-two count
 *   shuffle      the node id's bits rotated left by one; a power-of-two count
 *   tornado      every coordinate c -> c + ceil(k / 2) - 1 mod k; shapes
 *   neighbour    every coordinate c -> c + 1 mod k; shapes
 *   hotspot[:NODE[:FRACTION]]  FRACTION (default 0.1) of the packets to
 *                NODE (default 0), the others uniform
 *   alltoall     each source sends to every other node in turn, source i's
 *                k-th packet to node (i + 1 + k mod (n - 1)) mod n, so that
 *                the sources start on different destinations
 *   worstcase    the permutation that loads one channel most under the
 *                fabric's deterministic routes (the tables' port, the escape
 *                path of adaptive entries): for each channel, a maximum
 *                matching of the (source, destination) pairs whose route
 *                crosses it; the channel with the largest matching wins
 * A node whose pattern names itself sends to its own host port through its
 * router (transpose: the diagonal).
 */
#ifndef LOOM_SIM_TRAFFIC_H
#define LOOM_SIM_TRAFFIC_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "rng.h"
#include "routes.h"

enum sim_pattern_kind {
	PAT_UNIFORM, PAT_PERMUTATION, PAT_TRANSPOSE, PAT_BITCOMP, PAT_TORNADO,
	PAT_NEIGHBOUR, PAT_HOTSPOT, PAT_BITREV, PAT_SHUFFLE, PAT_ALLTOALL, PAT_WORSTCASE,
};

struct sim_traffic {
	enum sim_pattern_kind kind;
	int nodes;
	int *dest;			/* fixed patterns: [node] */
	uint32_t *sent;			/* alltoall: packets each source has created */
	int hot_node;
	double hot_fraction;
	/* worstcase: the channel the permutation loads and how many of its flows cross it */
	int worst_node, worst_port, worst_flows;
};

/* The largest fabric worstcase searches (terminals): it walks every route. */
#define SIM_WORSTCASE_MAX_NODES	1024

/* The names, for --help and suggestions; NULL-terminated. */
extern const char *const sim_pattern_names[];

/*
 * Set up pattern @spec on graph @g routed by @routes (worstcase reads
 * them); 0, or -1 with a message in @err (unknown pattern, a pattern the
 * topology cannot have, bad arguments).
 */
int traffic_init(struct sim_traffic *t, const char *spec, const struct fm_graph *g,
		 const struct fm_routes *routes, uint64_t seed, char *err, size_t errlen);
void traffic_free(struct sim_traffic *t);
/*
 * What can be refused before the fabric's routes are computed (worstcase
 * beyond SIM_WORSTCASE_MAX_NODES terminals): 0, or -1 with @err.
 */
int traffic_precheck(const char *spec, const struct fm_graph *g, char *err, size_t errlen);

/* The destination of a new packet from @src (alltoall counts it). */
int traffic_dest(struct sim_traffic *t, int src, struct sim_rng *r);

#endif
