// SPDX-License-Identifier: GPL-2.0
/*
 * loom-sim's partitions over MPI ranks (tools/loom-sim/partition.c): a
 * topology partition gives every router exactly one rank and every rank a
 * router, cuts no more channels than blocks of ids and, where the shape
 * allows, fewer, with the boxes, pods and groups worked out by hand below;
 * the check the ranks run names a router stepped by two ranks, by none, a
 * rank out of range and ranks whose maps disagree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "partition.h"

TAP_DEFINE;

struct pcase {
	const char *shape;
	int ranks;
	const char *how;		/* the topology partition's, NULL: not pinned */
	long cut;			/* directed channels cut, -1: not pinned */
	long work_min, work_max;	/* ports per rank, 0: not pinned */
};

static const struct pcase cases[] = {
	/* 4 cuts of 4 lines along x, both ways; blocks of ids cut along y: 8 lines */
	{ "torus:8x4", 4, "torus boxes 4x1", 32, 40, 40 },
	{ "torus:8x4", 2, "torus boxes 2x1", 16, 80, 80 },
	/* one cut in each dimension: 2 x 4 lines x 2 ways */
	{ "mesh:4x4", 4, "mesh boxes 2x2", 16, 0, 0 },
	/*
	 * 2 + 4 cuts of 64 lines, both ways: as few as 2x2x2 cubes, and longer
	 * runs of ids (slabs of 8 cut 1024)
	 */
	{ "torus:8x8x8", 8, "torus boxes 1x2x4", 768, 0, 0 },
	{ "torus:16x8x8", 4, "torus boxes 4x1x1", 512, 0, 0 },
	/*
	 * 2 pods (a leaf and its 4 terminals: 16 ports each) and 2 spines (4
	 * ports) per rank; each leaf's 2 up cables to the other rank's spines
	 */
	{ "fattree:4:2", 2, "fat tree pods of 1 leaves", 16, 40, 40 },
	{ "fattree:4:2", 4, "fat tree pods of 1 leaves", 24, 20, 20 },
	{ "fattree:4:3", 4, "fat tree pods of 4 leaves", -1, 0, 0 },
	{ "fattree:2:3", 2, "fat tree pods of 2 leaves", -1, 0, 0 },
	/*
	 * 4 pods (8 leaves, their 64 terminals, 8 level-1 switches: 1024 ports)
	 * and 32 of the 64 top switches (8 ports) per rank: a pod's 64 up
	 * cables from level 1, half of them to the other rank's spines
	 */
	{ "fattree:8:3", 2, "fat tree pods of 8 leaves", 512, 1792, 1792 },
	/* a group each: the 3 global cables cut */
	{ "dragonfly:2:1:1", 3, "dragonfly groups", 6, 0, 0 },
	/* 9 groups of 4 routers over 4 ranks: 9 routers (and 18 terminals) each */
	{ "dragonfly:4:2:2", 4, "dragonfly groups, split at the ranks' edges", -1, 99, 99 },
	{ "dragonfly:2:1:1", 4, "dragonfly groups, split at the ranks' edges", -1, 0, 0 },
	{ "dragonfly:4:2:2", 3, "dragonfly groups", -1, 0, 0 },
	{ "hyperx:4x4x2", 2, NULL, -1, 0, 0 },
	{ "ring:9", 3, NULL, -1, 0, 0 },
	/* 3 parts of 4 are far less even than blocks of ids: blocks of ids */
	{ "torus:4x4", 3, "blocks of ids", -1, 0, 0 },
};

/* Every router one rank in range, every rank a router; "" or what is wrong. */
static void valid(const int *owner, int nodes, int ranks, char *why, size_t len)
{
	int *routers = calloc((size_t)ranks, sizeof(*routers));

	why[0] = '\0';
	for (int n = 0; n < nodes && !why[0]; n++) {
		if (owner[n] < 0 || owner[n] >= ranks)
			snprintf(why, len, "router %d on rank %d", n, owner[n]);
		else
			routers[owner[n]]++;
	}
	for (int r = 0; r < ranks && !why[0]; r++)
		if (!routers[r])
			snprintf(why, len, "rank %d steps no router", r);
	free(routers);
}

static void one_case(const struct pcase *c)
{
	char err[256], how[64], ids_how[64], why[128];
	struct fm_graph *g = graph_from_shape(c->shape, err, sizeof(err));
	struct sim_partition_quality q, iq;
	int *owner, *ids;

	if (!g) {
		tap_ok(0, "%s: %s", c->shape, err);
		tap_ok(0, "%s: no graph", c->shape);
		return;
	}
	owner = calloc((size_t)g->nodes, sizeof(*owner));
	ids = calloc((size_t)g->nodes, sizeof(*ids));
	sim_partition_build(g, c->ranks, SIM_PARTITION_TOPOLOGY, owner, how, sizeof(how));
	sim_partition_build(g, c->ranks, SIM_PARTITION_IDS, ids, ids_how, sizeof(ids_how));
	valid(owner, g->nodes, c->ranks, why, sizeof(why));
	sim_partition_quality(g, owner, c->ranks, &q);
	sim_partition_quality(g, ids, c->ranks, &iq);
	tap_ok(!why[0] && q.cut <= iq.cut && !strcmp(ids_how, "blocks of ids") &&
	       (!c->how || !strcmp(how, c->how)),
	       "%s over %d ranks: %s (want %s), %s, %ld of %ld channels cut (blocks of ids: "
	       "%ld)", c->shape, c->ranks, how, c->how ? c->how : "any", why[0] ? why :
	       "every router on one rank, every rank a router", q.cut, q.channels, iq.cut);
	tap_ok((c->cut < 0 || q.cut == c->cut) &&
	       (!c->work_max || (q.work_min == c->work_min && q.work_max == c->work_max)),
	       "%s over %d ranks: %ld channels cut (want %ld), work %ld..%ld ports per rank "
	       "(want %ld..%ld; blocks of ids %ld..%ld), routers %d..%d", c->shape, c->ranks,
	       q.cut, c->cut, q.work_min, q.work_max, c->work_min, c->work_max, iq.work_min,
	       iq.work_max, q.routers_min, q.routers_max);
	free(owner);
	free(ids);
	graph_free(g);
}

/*
 * Two ranks' maps of 8 routers, as the ranks' sums combine them: what
 * the check says on rank 0 (@a).
 */
static const char *check_two(const int *a, const int *b, char *err, size_t len)
{
	int64_t stepped[8], owner_sum[8];

	for (int n = 0; n < 8; n++) {
		stepped[n] = (a[n] == 0) + (b[n] == 1);
		owner_sum[n] = a[n] + b[n];
	}
	if (!sim_partition_check(a, 8, 2, stepped, owner_sum, err, len))
		snprintf(err, len, "accepted");
	return err;
}

static void checks(void)
{
	static const int good[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	static const int two[8] = { 0, 0, 0, 0, 0, 1, 1, 1 };	/* rank 1: 4 is its own */
	static const int none[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	static const int none_b[8] = { 0, 0, 0, 0, 0, 1, 1, 1 };	/* rank 0 thinks 4 is 1's */
	static const int range[8] = { 0, 0, 0, 0, 1, 1, 1, 2 };
	char err[256];

	check_two(good, good, err, sizeof(err));
	tap_ok(!strcmp(err, "accepted"), "two ranks, the same map: %s", err);
	/* rank 0's map gives it router 4, rank 1's too */
	check_two(two, good, err, sizeof(err));
	tap_ok(strstr(err, "router 4 is stepped by 2 ranks") && strstr(err, "--partition ids"),
	       "router 4 on both ranks: %s", err);
	/* each rank's map gives router 4 to the other */
	check_two(none, none_b, err, sizeof(err));
	tap_ok(strstr(err, "router 4 is stepped by no rank") != NULL,
	       "router 4 on neither rank: %s", err);
	check_two(range, range, err, sizeof(err));
	tap_ok(strstr(err, "router 7 is given to rank 2, but the ranks are 0..1") != NULL,
	       "router 7 on rank 2 of 2: %s", err);
	{
		/* stepped once each, but the ranks' maps differ on router 3 */
		int64_t stepped[8] = { 1, 1, 1, 1, 1, 1, 1, 1 }, sum[8];

		for (int n = 0; n < 8; n++)
			sum[n] = 2 * good[n];
		sum[3] = 1;
		if (!sim_partition_check(good, 8, 2, stepped, sum, err, sizeof(err)))
			snprintf(err, sizeof(err), "accepted");
		tap_ok(strstr(err, "the ranks' maps disagree on router 3") != NULL,
		       "maps that disagree on router 3: %s", err);
	}
}

int main(void)
{
	size_t n = sizeof(cases) / sizeof(cases[0]);

	tap_plan((int)n * 2 + 5);
	for (size_t i = 0; i < n; i++)
		one_case(&cases[i]);
	checks();
	return tap_exit_status();
}
