// SPDX-License-Identifier: GPL-2.0
/* loom-fm: completeness and minimality of the tables (check.h). */
#include "check.h"

#include <stdlib.h>
#include <string.h>

const char *check_walk_reason(int why)
{
	switch (why) {
	case FM_WALK_NO_ENTRY:
		return "no table entry";
	case FM_WALK_UNCABLED:
		return "entry names a port without a cable";
	case FM_WALK_LOOP:
		return "the tables loop";
	default:
		return "ok";
	}
}

/* Sources walked together, destination by destination (check_routes()). */
#define CHECK_BLOCK	64

int check_routes(const struct fm_graph *g, const struct fm_routes *r, struct fm_route_check *c)
{
	int terms = graph_terminals(g);
	struct fm_hop *hops = malloc((size_t)g->nodes * sizeof(*hops));
	int *dist = malloc((size_t)g->nodes * sizeof(*dist));
	int *queue = malloc((size_t)g->nodes * sizeof(*queue));
	/* [s - s0][d]: the walk's length or fm_walk_result, and where it stuck */
	int *len = malloc((size_t)CHECK_BLOCK * (size_t)terms * sizeof(*len));
	int *stuck = malloc((size_t)CHECK_BLOCK * (size_t)terms * sizeof(*stuck));

	memset(c, 0, sizeof(*c));
	c->worst_src = c->worst_dest = -1;
	if (!hops || !dist || !queue || !len || !stuck) {
		free(hops);
		free(dist);
		free(queue);
		free(len);
		free(stuck);
		return -1;
	}
	for (int s0 = 0; s0 < g->nodes; s0 += CHECK_BLOCK) {
		int s1 = s0 + CHECK_BLOCK < g->nodes ? s0 + CHECK_BLOCK : g->nodes;

		/*
		 * Walk a block of sources destination by destination: the walks
		 * toward one destination read one column of the tables, which
		 * stays in the cache; the results are then taken in (source,
		 * destination) order as one walk at a time would give them.
		 */
		for (int d = 0; d < terms; d++)
			for (int s = s0; s < s1; s++) {
				size_t k = (size_t)(s - s0) * (size_t)terms + (size_t)d;

				if (s != d)
					len[k] = routes_walk(g, r, s, d, hops, &stuck[k]);
			}
		for (int s = s0; s < s1; s++) {
			graph_bfs(g, s, dist, queue);
			for (int d = 0; d < terms; d++) {
				size_t k = (size_t)(s - s0) * (size_t)terms + (size_t)d;
				int n = len[k];

				if (s == d)
					continue;
				c->routes++;
				if (n < 0) {
					if (c->nreported < FM_CHECK_MAX_REPORTED)
						c->reported[c->nreported++] =
							(struct fm_bad_pair){ s, d, n, stuck[k] };
					c->bad++;
					continue;
				}
				if (n > c->max_hops)
					c->max_hops = n;
				if (n > dist[d])
					c->non_minimal++;
				/* n / dist > worst_hops / worst_dist */
				if (c->worst_src < 0 ||
				    (long)n * c->worst_dist > (long)c->worst_hops * dist[d]) {
					c->worst_src = s;
					c->worst_dest = d;
					c->worst_hops = n;
					c->worst_dist = dist[d];
				}
			}
		}
	}
	free(hops);
	free(dist);
	free(queue);
	free(len);
	free(stuck);
	return 0;
}

void check_reach_init(struct fm_reach_check *c)
{
	*c = (struct fm_reach_check){ .first = { .src = -1, .dest = -1 } };
}

/* What the walk from a node toward one destination ends in (reach_toward()). */
enum reach_state {
	REACH_UNKNOWN,
	REACH_ON_STACK,		/* on the walk being followed now */
	REACH_OK,
	REACH_BAD,		/* why[] and at[] say how and where it stopped */
	REACH_LOOP,		/* enters a cycle of the tables */
};

struct reach_memo {
	unsigned char *state;
	signed char *why;
	int *at;
	int *stack;
};

/*
 * The walks from every node toward @d, each node's outcome found once:
 * the tables send a node's packets for @d to one peer, so a walk from a
 * node ends as the walk from that peer does -- delivered, stopped at the
 * same node for the same reason (routes_walk()'s why and stuck), or in
 * the same cycle.  Each node is followed once, so the nodes cost O(nodes)
 * instead of one walk (up to the fabric's diameter) each.
 */
static void reach_toward(const struct fm_graph *g, const struct fm_routes *r, int d,
			 struct reach_memo *m)
{
	memset(m->state, REACH_UNKNOWN, (size_t)g->nodes);
	for (int s = 0; s < g->nodes; s++) {
		int x = s, top = 0;
		unsigned char end;

		while (m->state[x] == REACH_UNKNOWN) {
			int port, why = routes_step(g, r, x, d, &port);

			if (why == FM_WALK_OK && port >= 0) {
				m->state[x] = REACH_ON_STACK;
				m->stack[top++] = x;
				x = graph_peer(g, x, port)->node;
				continue;
			}
			m->state[x] = why ? REACH_BAD : REACH_OK;
			m->why[x] = (signed char)why;
			m->at[x] = x;
		}
		end = m->state[x] == REACH_ON_STACK ? REACH_LOOP : m->state[x];
		while (top--) {
			int y = m->stack[top];

			m->state[y] = end;
			if (end == REACH_BAD) {
				m->why[y] = m->why[x];
				m->at[y] = m->at[x];
			}
		}
	}
}

int check_reach(const struct fm_graph *g, const struct fm_routes *r, int d0, int d1,
		struct fm_reach_check *c)
{
	int terms = graph_terminals(g);
	struct fm_hop *hops;
	struct reach_memo m;
	int rv = -1;

	if (d1 > terms)
		d1 = terms;
	if (d0 >= d1)
		return 0;
	if (d0 < r->dest_lo || d1 > r->dest_hi || r->row_lo || r->row_hi != g->nodes)
		return -1;
	hops = malloc((size_t)g->nodes * sizeof(*hops));
	m.state = malloc((size_t)g->nodes);
	m.why = malloc((size_t)g->nodes);
	m.at = malloc((size_t)g->nodes * sizeof(*m.at));
	m.stack = malloc((size_t)g->nodes * sizeof(*m.stack));
	if (!hops || !m.state || !m.why || !m.at || !m.stack)
		goto out;
	for (int d = d0; d < d1; d++) {
		reach_toward(g, r, d, &m);
		for (int s = 0; s < g->nodes; s++) {
			struct fm_bad_pair b = { s, d, 0, 0 };

			if (s == d)
				continue;
			c->routes++;
			if (m.state[s] == REACH_OK)
				continue;
			c->bad++;
			if (c->first.src >= 0 && (s > c->first.src ||
						  (s == c->first.src && d >= c->first.dest)))
				continue;
			if (m.state[s] == REACH_BAD) {
				b.why = m.why[s];
				b.at = m.at[s];
			} else {
				/* where a looping walk gives up: walk it */
				b.why = routes_walk(g, r, s, d, hops, &b.at);
			}
			c->first = b;
		}
	}
	rv = 0;
out:
	free(hops);
	free(m.state);
	free(m.why);
	free(m.at);
	free(m.stack);
	return rv;
}
