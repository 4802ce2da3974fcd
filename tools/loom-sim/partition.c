// SPDX-License-Identifier: GPL-2.0
/*
 * loom-sim: the partition of the routers over MPI ranks (partition.h).
 */
#include "partition.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sim_partition_parse(const char *v, enum sim_partition_kind *k)
{
	if (!strcmp(v, "topology"))
		*k = SIM_PARTITION_TOPOLOGY;
	else if (!strcmp(v, "ids"))
		*k = SIM_PARTITION_IDS;
	else
		return -1;
	return 0;
}

int sim_partition_work(const struct fm_graph *g, int node)
{
	int work = node < graph_terminals(g) ? 1 : 0;

	for (int p = 0; p < g->ports; p++)
		work += graph_peer(g, node, p)->node != FM_NO_PEER;
	return work;
}

/* Blocks of ids: rank r steps nodes [N * r / P, N * (r + 1) / P). */
static void by_ids(int nodes, int ranks, int *owner)
{
	for (int r = 0; r < ranks; r++)
		for (int i = sim_rank_lo(nodes, ranks, r); i < sim_rank_lo(nodes, ranks, r + 1); i++)
			owner[i] = r;
}

/* ---- boxes of a mesh, torus or HyperX ---- */

struct boxes {
	int p[FM_MAX_DIMS];		/* parts per dimension */
	long max, cut;			/* routers of the largest box, channels cut */
};

/* Part sizes of a dimension of @len cut in @p: coordinate c is in part c * p / len. */
static int part_size(int len, int p, int part)
{
	int n = 0;

	for (int c = 0; c < len; c++)
		n += c * p / len == part;
	return n;
}

static void boxes_measure(const struct fm_graph *g, struct boxes *b)
{
	const struct fm_shape *s = &g->shape;

	b->max = 1;
	b->cut = 0;
	for (int d = 0; d < s->dims; d++) {
		int len = s->size[d], p = b->p[d];
		long lines = g->nodes / len, per_line = 0;

		/* part 0 holds c < len / p: the larger size */
		b->max *= part_size(len, p, 0);
		if (p == 1)
			continue;
		if (s->kind == FM_SHAPE_MESH) {
			per_line = 2L * (p - 1);
		} else if (s->kind == FM_SHAPE_TORUS) {
			per_line = 2L * p;
		} else {
			/* HyperX: every two routers of a line are cabled */
			per_line = (long)len * len;
			for (int k = 0; k < p; k++)
				per_line -= (long)part_size(len, p, k) * part_size(len, p, k);
		}
		b->cut += per_line * lines;
	}
}

/*
 * Every way of cutting the dimensions dims-1 .. 0 into parts whose
 * product is @left, the most even boxes first, then the fewest channels
 * cut; among equals the first found, which cuts the higher dimensions
 * (keeping runs of consecutive ids together).
 */
static void boxes_search(const struct fm_graph *g, int d, int left, struct boxes *try,
			 struct boxes *best)
{
	if (d < 0) {
		if (left != 1)
			return;
		boxes_measure(g, try);
		if (!best->max || try->max < best->max ||
		    (try->max == best->max && try->cut < best->cut))
			*best = *try;
		return;
	}
	for (int p = left < g->shape.size[d] ? left : g->shape.size[d]; p >= 1; p--) {
		if (left % p)
			continue;
		try->p[d] = p;
		boxes_search(g, d - 1, left / p, try, best);
	}
}

static int by_boxes(const struct fm_graph *g, int ranks, int *owner, char *how, size_t howlen)
{
	const struct fm_shape *s = &g->shape;
	struct boxes try = { 0 }, best = { 0 };
	int c[FM_MAX_DIMS];
	long ids_max = (g->nodes + ranks - 1) / ranks;
	size_t k;

	boxes_search(g, s->dims - 1, ranks, &try, &best);
	/* no whole cut, or boxes much less even than blocks of ids */
	if (!best.max || best.max * 8 > ids_max * 9)
		return -1;
	for (int n = 0; n < g->nodes; n++) {
		int r = 0;

		graph_coords(s, n, c);
		for (int d = s->dims - 1; d >= 0; d--)
			r = r * best.p[d] + c[d] * best.p[d] / s->size[d];
		owner[n] = r;
	}
	k = (size_t)snprintf(how, howlen, "%s boxes ", s->kind == FM_SHAPE_MESH ? "mesh" :
			     s->kind == FM_SHAPE_TORUS ? "torus" : "hyperx");
	for (int d = 0; d < s->dims && k < howlen; d++)
		k += (size_t)snprintf(how + k, howlen - k, "%s%d", d ? "x" : "", best.p[d]);
	return 0;
}

/* ---- units in order (pods, groups), then the nodes no unit holds ---- */

/* Units 0 .. m-1 of work @w to ranks, in order, each rank a run of similar work. */
static void split_units(const long *w, int m, int ranks, int *rank_of_unit)
{
	long total = 0, before = 0;

	for (int u = 0; u < m; u++)
		total += w[u];
	for (int u = 0; u < m; u++) {
		long r = total ? (2 * before + w[u]) * ranks / (2 * total) : 0;

		rank_of_unit[u] = (int)(r < ranks ? r : ranks - 1);
		before += w[u];
	}
}

/*
 * Nodes of @owner still -1 (a fat tree's switches above the pods), in
 * order: each to the rank with the most of its neighbours among those it
 * keeps within the even share of work, else to the least loaded.
 */
static int spread(const struct fm_graph *g, int ranks, int *owner, long *load)
{
	long total = 0, cap;
	int *near = calloc((size_t)ranks, sizeof(*near));

	if (!near)
		return -1;
	for (int n = 0; n < g->nodes; n++)
		total += sim_partition_work(g, n);
	cap = (total + ranks - 1) / ranks;
	for (int n = 0; n < g->nodes; n++) {
		int w = sim_partition_work(g, n), best = -1, least = 0;

		if (owner[n] >= 0)
			continue;
		memset(near, 0, (size_t)ranks * sizeof(*near));
		for (int p = 0; p < g->ports; p++) {
			int m = graph_peer(g, n, p)->node;

			if (m != FM_NO_PEER && owner[m] >= 0)
				near[owner[m]]++;
		}
		for (int r = 0; r < ranks; r++) {
			if (load[r] < load[least])
				least = r;
			if (load[r] + w > cap)
				continue;
			if (best < 0 || near[r] > near[best] ||
			    (near[r] == near[best] && load[r] < load[best]))
				best = r;
		}
		owner[n] = best >= 0 ? best : least;
		load[owner[n]] += w;
	}
	free(near);
	return 0;
}

/*
 * Nodes by unit (@unit[node], -1: none) to ranks: the units in runs of
 * similar work, then the others spread.
 */
static int by_units(const struct fm_graph *g, int ranks, const int *unit, int units,
		    int *owner)
{
	long *w = calloc((size_t)units, sizeof(*w)), *load = calloc((size_t)ranks, sizeof(*load));
	int *rank_of = calloc((size_t)units, sizeof(*rank_of)), rc = -1;

	if (!w || !load || !rank_of)
		goto out;
	for (int n = 0; n < g->nodes; n++)
		if (unit[n] >= 0)
			w[unit[n]] += sim_partition_work(g, n);
	split_units(w, units, ranks, rank_of);
	for (int n = 0; n < g->nodes; n++) {
		owner[n] = unit[n] >= 0 ? rank_of[unit[n]] : -1;
		if (owner[n] >= 0)
			load[owner[n]] += sim_partition_work(g, n);
	}
	rc = spread(g, ranks, owner, load);
out:
	free(w);
	free(load);
	free(rank_of);
	return rc;
}

/*
 * A k-ary n-tree by pods: the leaves whose top g digits agree, their
 * terminals and the switches below level n - g that serve them (a closed
 * subtree), g the fewest digits that give a pod per rank (at most n - 1);
 * the switches of levels n - g and up are spread over the ranks.
 */
static void fattree_units(const struct fm_graph *g, int ranks, int *unit, int *units)
{
	const struct fm_shape *s = &g->shape;
	int T = graph_terminals(g), width = (g->nodes - T) / s->levels, digits = 0, below = width;

	*units = 1;
	while (digits < s->levels - 1 && *units < ranks) {
		digits++;
		*units *= s->k;
		below /= s->k;
	}
	for (int n = 0; n < g->nodes; n++) {
		int level = graph_fattree_level(s, n);

		if (level < 0)
			unit[n] = n / s->k / below;
		else if (level < s->levels - digits)
			unit[n] = (n - T) % width / below;
		else
			unit[n] = -1;
	}
}

/*
 * A dragonfly: each router with its terminals, in group order, so that a
 * rank's run of them is whole groups where its share is.
 */
static void dragonfly_units(const struct fm_graph *g, int *unit, int *units)
{
	const struct fm_shape *s = &g->shape;
	int T = graph_terminals(g);

	*units = s->groups * s->a;
	for (int n = 0; n < g->nodes; n++)
		unit[n] = n < T ? n / s->p : n - T;
}

/* Is every dragonfly group on one rank? */
static bool groups_whole(const struct fm_graph *g, const int *owner)
{
	int T = graph_terminals(g), a = g->shape.a;

	for (int n = T; n < g->nodes; n++)
		if (owner[n] != owner[T + (n - T) / a * a])
			return false;
	return true;
}

static int by_structure(const struct fm_graph *g, int ranks, int *owner, char *how,
			size_t howlen)
{
	int *unit = malloc((size_t)g->nodes * sizeof(*unit)), units, rc;

	if (!unit)
		return -1;
	if (g->shape.kind == FM_SHAPE_FATTREE) {
		fattree_units(g, ranks, unit, &units);
		snprintf(how, howlen, "fat tree pods of %d leaves",
			 (g->nodes - graph_terminals(g)) / g->shape.levels / units);
		rc = by_units(g, ranks, unit, units, owner);
	} else {
		dragonfly_units(g, unit, &units);
		rc = by_units(g, ranks, unit, units, owner);
		snprintf(how, howlen, "dragonfly %s", !rc && groups_whole(g, owner) ?
			 "groups" : "groups, split at the ranks' edges");
	}
	free(unit);
	return rc;
}

void sim_partition_build(const struct fm_graph *g, int ranks, enum sim_partition_kind k,
			 int *owner, char *how, size_t howlen)
{
	int rc = -1;

	if (k == SIM_PARTITION_TOPOLOGY && ranks > 1) {
		switch (g->shape.kind) {
		case FM_SHAPE_MESH:
		case FM_SHAPE_TORUS:
		case FM_SHAPE_HYPERX:
			rc = by_boxes(g, ranks, owner, how, howlen);
			break;
		case FM_SHAPE_FATTREE:
		case FM_SHAPE_DRAGONFLY:
			rc = by_structure(g, ranks, owner, how, howlen);
			break;
		case FM_SHAPE_NONE:
			break;
		}
	}
	if (!rc) {
		/* every rank steps a router, or blocks of ids */
		char *used = calloc((size_t)ranks, 1);
		int n = 0;

		for (int i = 0; used && i < g->nodes; i++) {
			if (owner[i] < 0 || owner[i] >= ranks || used[owner[i]])
				continue;
			used[owner[i]] = 1;
			n++;
		}
		rc = n == ranks ? 0 : -1;
		free(used);
	}
	if (rc) {
		by_ids(g->nodes, ranks, owner);
		snprintf(how, howlen, "blocks of ids");
	}
}

int sim_partition_quality(const struct fm_graph *g, const int *owner, int ranks,
			  struct sim_partition_quality *q)
{
	int *routers = calloc((size_t)ranks, sizeof(*routers));
	long *work = calloc((size_t)ranks, sizeof(*work));

	memset(q, 0, sizeof(*q));
	if (!routers || !work) {
		free(routers);
		free(work);
		return -1;
	}
	for (int n = 0; n < g->nodes; n++) {
		routers[owner[n]]++;
		work[owner[n]] += sim_partition_work(g, n);
		for (int p = 0; p < g->ports; p++) {
			int m = graph_peer(g, n, p)->node;

			if (m == FM_NO_PEER)
				continue;
			q->channels++;
			q->cut += owner[m] != owner[n];
		}
	}
	q->routers_min = q->routers_max = routers[0];
	q->work_min = q->work_max = work[0];
	for (int r = 1; r < ranks; r++) {
		q->routers_min = routers[r] < q->routers_min ? routers[r] : q->routers_min;
		q->routers_max = routers[r] > q->routers_max ? routers[r] : q->routers_max;
		q->work_min = work[r] < q->work_min ? work[r] : q->work_min;
		q->work_max = work[r] > q->work_max ? work[r] : q->work_max;
	}
	free(routers);
	free(work);
	return 0;
}

int sim_partition_check(const int *owner, int nodes, int ranks, const int64_t *stepped,
			const int64_t *owner_sum, char *err, size_t errlen)
{
	for (int n = 0; n < nodes; n++) {
		if (owner[n] < 0 || owner[n] >= ranks) {
			snprintf(err, errlen, "partition: router %d is given to rank %d, but the "
				 "ranks are 0..%d (run with --partition ids)", n, owner[n],
				 ranks - 1);
			return -1;
		}
		if (stepped[n] != 1) {
			char by[32];

			snprintf(by, sizeof(by), stepped[n] ? "%lld ranks" : "no rank",
				 (long long)stepped[n]);
			snprintf(err, errlen, "partition: router %d is stepped by %s (the map gives "
				 "it to rank %d): each router needs exactly one rank (run with "
				 "--partition ids)", n, by, owner[n]);
			return -1;
		}
		if (owner_sum[n] != (int64_t)ranks * owner[n]) {
			snprintf(err, errlen, "partition: the ranks' maps disagree on router %d (rank "
				 "%d here; the ranks' entries sum to %lld over %d ranks): run with "
				 "--partition ids", n, owner[n], (long long)owner_sum[n], ranks);
			return -1;
		}
	}
	return 0;
}
