/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-sim over MPI ranks: which rank steps which router (partition.c;
 * Documentation/sim/loom-sim.rst, "Partitions").  Every rank computes the
 * same map from the graph alone.  Topology partitions follow the shape:
 * a mesh, torus or HyperX in boxes (each dimension cut in near-equal
 * parts, the cuts chosen for the fewest cut channels among the most even
 * boxes), a fat tree by pods (a subtree's terminals and switches, the
 * switches above the pods spread for even work), a dragonfly by groups;
 * a topology file, and --partition ids, in blocks of node ids.  Work is
 * balanced by expected work: a router's ports in use (its cabled network
 * ports, and the host port of a terminal).
 */
#ifndef LOOM_SIM_PARTITION_H
#define LOOM_SIM_PARTITION_H

#include <stdint.h>
#include <stddef.h>

#include "graph.h"

/*
 * The first node of rank @rank's block of ids: the partition by ids, and
 * the checks' share of destinations whatever the partition.
 */
static inline int sim_rank_lo(int nodes, int ranks, int rank)
{
	return (int)((int64_t)nodes * rank / ranks);
}

enum sim_partition_kind { SIM_PARTITION_TOPOLOGY, SIM_PARTITION_IDS };

/* "topology" or "ids" into @k; 0, or -1 for another value. */
int sim_partition_parse(const char *v, enum sim_partition_kind *k);

/*
 * The rank of every node of @g over @ranks ranks (1 .. nodes) into
 * @owner[nodes], and how it was cut into @how ("torus boxes 1x2x2", "fat
 * tree pods", "blocks of ids").  A topology partition that would leave a
 * rank without a router falls back to blocks of ids.
 */
void sim_partition_build(const struct fm_graph *g, int ranks, enum sim_partition_kind k,
			 int *owner, char *how, size_t howlen);

/* The expected work of stepping @node: its ports in use. */
int sim_partition_work(const struct fm_graph *g, int node);

struct sim_partition_quality {
	int routers_min, routers_max;		/* per rank */
	long work_min, work_max;		/* sim_partition_work() per rank */
	long cut, channels;			/* directed channels joining two ranks, all */
};

/* The figures of the partition @owner of @g over @ranks; 0, or -1 on ENOMEM. */
int sim_partition_quality(const struct fm_graph *g, const int *owner, int ranks,
			  struct sim_partition_quality *q);

/*
 * Check a partition as the ranks applied it: @owner[nodes] this rank's
 * map, @stepped[nodes] the number of ranks that step each node, and
 * @owner_sum[nodes] the sum of every rank's owner entries (@ranks times
 * this rank's map when all agree).  0, or -1 with the first bad node
 * named in @err (a router stepped by no rank or by several, a rank out of
 * range, ranks that disagree).
 */
int sim_partition_check(const int *owner, int nodes, int ranks, const int64_t *stepped,
			const int64_t *owner_sum, char *err, size_t errlen);

#endif
