// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm engine "updown": the up/down routing of Autonet (OpenSM updn).  A
 * breadth-first spanning tree from the root gives every node a level; the
 * channel u -> v goes up when v is nearer the root (lower level), or on the
 * same level when v has the lower id.  A legal route takes zero or more up
 * channels, then zero or more down channels, never down then up: that
 * breaks every cycle of the channel dependency graph, on any topology.
 *
 * The tables are per destination, so a node must route the same way
 * whether a packet reached it going up or going down.  Per destination,
 * every node that can reach it by down channels alone does so (shortest
 * such path); the others go up, to the neighbour with the shortest legal
 * remaining route.  A packet that arrived going down came from a node
 * with a down-only route through this one, so it continues down.  Nodes
 * the root cannot reach get their own tree, rooted at their lowest id.
 *
 * On a fat tree (fattree:K:N) the levels are the tree's own: every top
 * switch is a root (--root is not used), so the up channels are the
 * switches' up ports and the routes minimal.  A packet going up may take
 * any up port toward a common ancestor (BlackWidow's adaptive
 * up-routes): where every cabled port from the first such port on is one,
 * the entry is programmed LOOM_RT_W0_UPROUTE with that first port, and
 * the deterministic port among them is chosen by destination (d mod k) so
 * that deterministic routes spread over the up ports too (--no-adaptive:
 * those alone).
 */
#include "engine.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

struct updown {
	const struct fm_graph *g;
	int *level, *order, *queue, *down, *best;
	bool fattree, adaptive;
};

/* The channel u -> v goes up (toward the root). */
static bool is_up(const struct updown *u, int from, int to)
{
	if (u->level[to] != u->level[from])
		return u->level[to] < u->level[from];
	return to < from;
}

/* Levels of the forest; order[] = nodes sorted by (level, id). */
static void updown_levels(struct updown *u, int root)
{
	const struct fm_graph *g = u->g;
	int head = 0, tail = 0;

	for (int n = 0; n < g->nodes; n++)
		u->level[n] = -1;
	for (int n = 0; n < g->nodes; n++) {
		/* on a fat tree every top switch is a root */
		if (u->fattree ? graph_fattree_level(&g->shape, n) == g->shape.levels - 1 :
				 n == root) {
			u->level[n] = 0;
			u->queue[tail++] = n;
		}
	}
	for (int r, next = 0;;) {
		while (head < tail) {
			int n = u->queue[head++];

			for (int p = 0; p < g->ports; p++) {
				int m = graph_peer(g, n, p)->node;

				if (m != FM_NO_PEER && u->level[m] < 0) {
					u->level[m] = u->level[n] + 1;
					u->queue[tail++] = m;
				}
			}
		}
		for (r = -1; next < g->nodes && r < 0; next++)
			if (u->level[next] < 0)
				r = next;
		if (r < 0)
			break;
		u->level[r] = 0;
		u->queue[tail++] = r;
	}
	/* counting sort by level, stable in id */
	for (int lvl = 0, k = 0; k < g->nodes; lvl++)
		for (int n = 0; n < g->nodes; n++)
			if (u->level[n] == lvl)
				u->order[k++] = n;
}

/*
 * Fat tree, @n going up toward @dest: the deterministic port by the
 * destination's digit at @n's level (d mod k) among the up ports of
 * equal legal route length, and the adaptive up-route when those are
 * every cabled port from the first of them on.
 */
static void updown_spread(const struct updown *u, struct fm_routes *r, int n, int dest)
{
	const struct fm_graph *g = u->g;
	int cand[FM_MAX_PORTS], nc = 0, cabled = 0, digit = dest;
	int level = graph_fattree_level(&g->shape, n);

	for (int p = 0; p < g->ports; p++) {
		int m = graph_peer(g, n, p)->node;

		if (m != FM_NO_PEER && is_up(u, n, m) && u->best[m] >= 0 &&
		    u->best[m] + 1 == u->best[n])
			cand[nc++] = p;
	}
	if (nc < 2)
		return;
	for (int l = 0; l < level; l++)
		digit /= g->shape.k;
	r->port[routes_at(r, n, dest)] = cand[digit % nc];
	for (int p = cand[0]; p < g->ports; p++)
		cabled += graph_peer(g, n, p)->node != FM_NO_PEER;
	if (cabled == nc && u->adaptive)
		r->up_first[routes_at(r, n, dest)] = (unsigned char)cand[0];
}

static void updown_dest(struct updown *u, struct fm_routes *r, int dest)
{
	const struct fm_graph *g = u->g;
	int head = 0, tail = 0;

	/* down[n]: hops from n to dest over down channels only */
	for (int n = 0; n < g->nodes; n++)
		u->down[n] = -1;
	u->down[dest] = 0;
	u->queue[tail++] = dest;
	while (head < tail) {
		int m = u->queue[head++];

		for (int p = 0; p < g->ports; p++) {
			const struct fm_port_end *e = graph_peer(g, m, p);

			/* the channel e->node -> m, taken if it goes down */
			if (e->node != FM_NO_PEER && u->down[e->node] < 0 && !is_up(u, e->node, m)) {
				u->down[e->node] = u->down[m] + 1;
				u->queue[tail++] = e->node;
			}
		}
	}
	/* best[n]: hops of the legal route from n; up channels lead earlier in order[] */
	for (int k = 0; k < g->nodes; k++) {
		int n = u->order[k], choice = FM_PORT_NONE, best = INT_MAX;

		u->best[n] = -1;
		if (n == dest) {
			u->best[n] = 0;
			continue;
		}
		for (int p = 0; p < g->ports; p++) {
			int m = graph_peer(g, n, p)->node;

			if (m == FM_NO_PEER)
				continue;
			if (u->down[n] >= 0) {
				if (!is_up(u, n, m) && u->down[m] == u->down[n] - 1) {
					choice = p;
					best = u->down[n];
					break;
				}
			} else if (is_up(u, n, m) && u->best[m] >= 0 && u->best[m] + 1 < best) {
				choice = p;
				best = u->best[m] + 1;
			}
		}
		if (choice != FM_PORT_NONE)
			u->best[n] = best;
		if (!routes_holds(r, n, dest))
			continue;
		r->port[routes_at(r, n, dest)] = choice;
		if (u->fattree && u->down[n] < 0 && choice != FM_PORT_NONE)
			updown_spread(u, r, n, dest);
	}
}

static int updown_compute(const struct fm_graph *g, const struct fm_engine_opts *o,
			  struct fm_routes *r, char *err, size_t errlen)
{
	struct updown u = {
		.g = g, .fattree = g->shape.kind == FM_SHAPE_FATTREE, .adaptive = o->adaptive,
	};
	size_t sz = (size_t)g->nodes * sizeof(int);
	int rc = -1;

	if (o->root < 0 || o->root >= g->nodes) {
		snprintf(err, errlen, "updown: --root %d is not a node (0..%d)", o->root,
			 g->nodes - 1);
		return -1;
	}
	u.level = malloc(sz);
	u.order = malloc(sz);
	u.queue = malloc(sz);
	u.down = malloc(sz);
	u.best = malloc(sz);
	if (!u.level || !u.order || !u.queue || !u.down || !u.best) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	updown_levels(&u, o->root);
	r->uproutes = u.fattree && u.adaptive;
	for (int dest = r->dest_lo; dest < r->dest_hi; dest++)
		updown_dest(&u, r, dest);
	rc = 0;
out:
	free(u.level);
	free(u.order);
	free(u.queue);
	free(u.down);
	free(u.best);
	return rc;
}

/* Any block: each destination's entries are computed on their own. */
static bool updown_blocks(const struct fm_graph *g, const struct fm_engine_opts *o)
{
	(void)g;
	(void)o;
	return true;
}

const struct fm_engine fm_engine_updown = {
	.name = "updown",
	.summary = "up*/down* from a BFS spanning tree (--root); any connected\n"
		   "           graph, damaged ones too; one VC; on a fat tree the tree's\n"
		   "           levels, with adaptive up-routes",
	.compute = updown_compute,
	.blocks = updown_blocks,
};
