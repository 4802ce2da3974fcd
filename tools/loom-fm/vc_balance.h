/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-fm: virtual-channel balance, as the Cray T3E measured and optimised
 * it.  Under uniform all-to-all traffic (every node sends one packet to
 * every other node) the balance of a channel is
 *   |routes on VC0 - routes on VC1| / (most routes on any channel of its dimension)
 * 0: both VCs carry the same number of routes; 1: one VC carries them all.
 * A route that crosses a dateline (continues through the dateline channel)
 * must start its dimension on VC0; every other start VC (the VC table's START_VC1 bit of the node where the route
 * enters the dimension) is free, and choosing those bits is how balance is
 * reached.
 */
#ifndef LOOM_FM_VC_BALANCE_H
#define LOOM_FM_VC_BALANCE_H

#include "graph.h"
#include "routes.h"

struct fm_vc_balance {
	long channels;		/* the cabled channels out of the nodes measured */
	double avg, max;	/* the balance averaged over those channels, and its maximum */
	long entries;		/* table entries where a route enters a dimension */
	long free_entries;	/* of those, entries whose segment crosses no dateline */
	long vc1_entries;	/* entries that start on VC1 */
};

/* Measure the tables' balance; -1 when out of memory. */
int vc_balance_measure(const struct fm_graph *g, const struct fm_routes *r,
		       struct fm_vc_balance *b);

/*
 * The same for all-to-all traffic among the nodes first .. first + count - 1
 * only (the T3E's subrings: the jobs of a partition), averaged over every
 * cabled channel out of those nodes, including those no route of the set
 * uses (a channel without routes has balance 0).  -1 when out of memory or
 * the range is not within the graph.
 */
int vc_balance_measure_among(const struct fm_graph *g, const struct fm_routes *r, int first,
			     int count, struct fm_vc_balance *b);

/*
 * Choose the free start VCs (r->start_vc) to balance the VCs: local search
 * from all-VC0 (time of crossing), flipping one entry at a time while that
 * lowers the sum over channels of (VC0 routes - VC1 routes)^2, in a fixed
 * order, so the result is deterministic.  Entries whose dimension segment
 * crosses a dateline stay on VC0.  Needs r->uses_vcs.  -1 when out of memory.
 */
int vc_balance_optimise(const struct fm_graph *g, struct fm_routes *r);

#endif
