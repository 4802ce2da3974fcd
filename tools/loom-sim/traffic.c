// SPDX-License-Identifier: GPL-2.0
/* loom-sim: traffic patterns (traffic.h). */
#include "traffic.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/cli.h"

const char *const sim_pattern_names[] = {
	"uniform", "permutation", "transpose", "bitcomp", "tornado", "neighbour", "hotspot",
	"bitrev", "shuffle", "alltoall", "worstcase", NULL,
};

static int node_of(const struct fm_shape *s, const int *c)
{
	int id = 0;

	for (int d = s->dims - 1; d >= 0; d--)
		id = id * s->size[d] + c[d];
	return id;
}

static int need_grid(const struct fm_graph *g, const char *name, char *err, size_t errlen)
{
	if (g->shape.kind == FM_SHAPE_MESH || g->shape.kind == FM_SHAPE_TORUS)
		return 0;
	snprintf(err, errlen, "pattern %s needs coordinates: use a ring, mesh or torus shape, "
		 "not %s", name, g->name);
	return -1;
}

static int fixed_dest(struct sim_traffic *t, const struct fm_graph *g, const char *name,
		      uint64_t seed, char *err, size_t errlen)
{
	const struct fm_shape *s = &g->shape;
	int n = t->nodes, c[FM_MAX_DIMS], o[FM_MAX_DIMS];

	t->dest = malloc((size_t)n * sizeof(*t->dest));
	if (!t->dest) {
		snprintf(err, errlen, "out of memory for the pattern of %d nodes", n);
		return -1;
	}
	if (t->kind == PAT_PERMUTATION) {
		struct sim_rng r;

		sim_rng_seed(&r, seed, 0x7065726dull);
		for (int i = 0; i < n; i++)
			t->dest[i] = i;
		for (int i = n - 1; i > 0; i--) {
			int j = (int)sim_rng_below(&r, (uint32_t)i + 1), x = t->dest[i];

			t->dest[i] = t->dest[j];
			t->dest[j] = x;
		}
		/* no node sends to itself: swap a fixed point with its neighbour */
		for (int i = 0; i < n && n > 1; i++) {
			if (t->dest[i] == i) {
				int j = (i + 1) % n, x = t->dest[i];

				t->dest[i] = t->dest[j];
				t->dest[j] = x;
			}
		}
		return 0;
	}
	if (t->kind == PAT_BITCOMP || t->kind == PAT_BITREV || t->kind == PAT_SHUFFLE) {
		int bits = __builtin_ctz((unsigned int)n);

		if (n & (n - 1)) {
			const char *what = g->terminals ? "terminal" : "node";

			snprintf(err, errlen, "pattern %s needs a power-of-two %s count; %s "
				 "has %d %ss", name, what, g->name, n, what);
			return -1;
		}
		for (int i = 0; i < n; i++) {
			int d = 0;

			if (t->kind == PAT_BITCOMP)
				d = ~i & (n - 1);
			else if (t->kind == PAT_SHUFFLE)
				d = (i << 1 | i >> (bits - 1)) & (n - 1);
			else
				for (int b = 0; b < bits; b++)
					d |= (i >> b & 1) << (bits - 1 - b);
			t->dest[i] = d;
		}
		return 0;
	}
	if (t->kind == PAT_TRANSPOSE && g->terminals) {
		/* no coordinates: swap the halves of the terminal id's bits */
		int bits = __builtin_ctz((unsigned int)n), half = bits / 2;

		if (n & (n - 1) || bits % 2) {
			snprintf(err, errlen, "pattern transpose on %s swaps the halves of the "
				 "terminal id's bits: it needs 4^k terminals, not %d", g->name, n);
			return -1;
		}
		for (int i = 0; i < n; i++)
			t->dest[i] = (i >> half | i << half) & (n - 1);
		return 0;
	}
	if (need_grid(g, name, err, errlen))
		return -1;
	if (t->kind == PAT_TRANSPOSE) {
		for (int d = 0; d < s->dims; d++) {
			if (s->dims < 2 || s->size[d] != s->size[s->dims - 1 - d]) {
				snprintf(err, errlen, "pattern transpose needs at least two dimensions "
					 "whose sizes read the same both ways; %s has not", g->name);
				return -1;
			}
		}
	}
	for (int i = 0; i < n; i++) {
		graph_coords(s, i, c);
		for (int d = 0; d < s->dims; d++) {
			int k = s->size[d];

			if (t->kind == PAT_TRANSPOSE)
				o[d] = c[s->dims - 1 - d];
			else if (t->kind == PAT_TORNADO)
				o[d] = (c[d] + (k + 1) / 2 - 1) % k;
			else
				o[d] = (c[d] + 1) % k;
		}
		t->dest[i] = node_of(s, o);
	}
	return 0;
}

/*
 * worstcase: the (source, destination) pairs whose deterministic route
 * crosses each channel, as compressed rows: pairs of channel c are
 * pair[first[c] .. first[c + 1] - 1], each src * n + dest.
 */
struct wc_channels {
	int n, channels;
	uint32_t *first, *pair;
};

static int wc_walk_all(struct wc_channels *w, const struct fm_graph *g,
		       const struct fm_routes *routes, char *err, size_t errlen)
{
	struct fm_hop *hops = malloc((size_t)g->nodes * sizeof(*hops));
	int n = w->n, rc = -1;
	uint64_t total = 0;

	w->channels = g->nodes * g->ports;
	w->first = calloc((size_t)w->channels + 1, sizeof(*w->first));
	if (!hops || !w->first)
		goto oom;
	/* two passes: count the pairs per channel, then place them */
	for (int pass = 0; pass < 2; pass++) {
		for (int src = 0; src < n; src++) {
			for (int dst = 0; dst < n; dst++) {
				int stuck, h;

				if (src == dst)
					continue;
				h = routes_walk(g, routes, src, dst, hops, &stuck);
				if (h < 0) {
					snprintf(err, errlen, "pattern worstcase: no route from %d to "
						 "%d (stuck at node %d: %s)", src, dst, stuck,
						 h == FM_WALK_LOOP ? "the tables loop" :
						 h == FM_WALK_UNCABLED ? "an entry names a port "
						 "without a cable" : "no entry");
					goto out;
				}
				for (int k = 0; k < h; k++) {
					int c = hops[k].node * g->ports + hops[k].port;

					if (pass == 0)
						w->first[c + 1]++;
					else
						w->pair[w->first[c]++] = (uint32_t)(src * n + dst);
				}
			}
		}
		if (pass == 0) {
			for (int c = 0; c < w->channels; c++)
				w->first[c + 1] += w->first[c];
			total = w->first[w->channels];
			w->pair = malloc((size_t)(total ? total : 1) * sizeof(*w->pair));
			if (!w->pair)
				goto oom;
		}
	}
	/* the placing pass advanced each first[c] to first[c + 1]: shift back */
	memmove(w->first + 1, w->first, (size_t)w->channels * sizeof(*w->first));
	w->first[0] = 0;
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "pattern worstcase: out of memory for the routes of %d nodes", n);
out:
	free(hops);
	return rc;
}

/* Kuhn's augmenting path search from source @src over the pairs of one channel. */
struct wc_match {
	int n;
	int *adj_first, *adj;		/* the channel's destinations per source */
	int *match_dst;			/* [dst]: its source, or -1 */
	int *match_src;			/* [src]: its destination, or -1 */
	int *seen;			/* [dst]: the search stamp that visited it */
	int stamp;
};

static bool wc_augment(struct wc_match *m, int src)
{
	for (int k = m->adj_first[src]; k < m->adj_first[src + 1]; k++) {
		int d = m->adj[k];

		if (m->seen[d] == m->stamp)
			continue;
		m->seen[d] = m->stamp;
		if (m->match_dst[d] < 0 || wc_augment(m, m->match_dst[d])) {
			m->match_dst[d] = src;
			m->match_src[src] = d;
			return true;
		}
	}
	return false;
}

/* The maximum matching of channel @c's pairs into m; its size. */
static int wc_match_channel(struct wc_match *m, const struct wc_channels *w, int c)
{
	int n = m->n, size = 0;
	uint32_t lo = w->first[c], hi = w->first[c + 1];

	for (int i = 0; i <= n; i++)
		m->adj_first[i] = 0;
	for (uint32_t k = lo; k < hi; k++)
		m->adj_first[w->pair[k] / (uint32_t)n + 1]++;
	for (int i = 0; i < n; i++)
		m->adj_first[i + 1] += m->adj_first[i];
	/* pairs are in source order: the rows fill in place */
	for (uint32_t k = lo; k < hi; k++)
		m->adj[k - lo] = (int)(w->pair[k] % (uint32_t)n);
	for (int i = 0; i < n; i++) {
		m->match_dst[i] = -1;
		m->match_src[i] = -1;
	}
	for (int src = 0; src < n; src++) {
		if (m->adj_first[src] == m->adj_first[src + 1])
			continue;
		m->stamp++;
		size += wc_augment(m, src);
	}
	return size;
}

/*
 * Complete the matching @best (best[src] = dest or -1) to a permutation:
 * the unmatched sources take the unused destinations in order, rotated to
 * the first rotation with the fewest fixed points.
 */
static void wc_complete(int *best, int n, int *tmp_src, int *tmp_dst)
{
	int m = 0, used_n = 0, shift = 0, fewest = n + 1;

	for (int d = 0; d < n; d++)
		tmp_dst[d] = 0;
	for (int s = 0; s < n; s++)
		if (best[s] >= 0)
			tmp_dst[best[s]] = 1;
	for (int d = 0; d < n; d++)
		if (!tmp_dst[d])
			tmp_dst[used_n++] = d;
	for (int s = 0; s < n; s++)
		if (best[s] < 0)
			tmp_src[m++] = s;
	for (int r = 0; r < m && fewest; r++) {
		int fixed = 0;

		for (int i = 0; i < m; i++)
			fixed += tmp_src[i] == tmp_dst[(i + r) % m];
		if (fixed < fewest) {
			fewest = fixed;
			shift = r;
		}
	}
	for (int i = 0; i < m; i++)
		best[tmp_src[i]] = tmp_dst[(i + shift) % m];
}

int traffic_precheck(const char *spec, const struct fm_graph *g, char *err, size_t errlen)
{
	int n = graph_terminals(g);

	if (!strcmp(spec, "worstcase") && n > SIM_WORSTCASE_MAX_NODES) {
		snprintf(err, errlen, "pattern worstcase walks every route: at most %d "
			 "terminals, %s has %d", SIM_WORSTCASE_MAX_NODES, g->name, n);
		return -1;
	}
	return 0;
}

static int worst_case(struct sim_traffic *t, const struct fm_graph *g,
		      const struct fm_routes *routes, char *err, size_t errlen)
{
	struct wc_channels w = { .n = t->nodes };
	struct wc_match m = { .n = t->nodes };
	int n = t->nodes, best_c = -1, best = 0, rc = -1;
	uint32_t widest = 0;

	/* (its size was checked before the routes were built: traffic_precheck()) */
	if (wc_walk_all(&w, g, routes, err, errlen))
		goto out;
	for (int c = 0; c < w.channels; c++)
		if (w.first[c + 1] - w.first[c] > widest)
			widest = w.first[c + 1] - w.first[c];
	m.adj_first = malloc(((size_t)n + 1) * sizeof(int));
	m.adj = malloc(((size_t)widest + 1) * sizeof(int));
	m.match_dst = malloc((size_t)n * sizeof(int));
	m.match_src = malloc((size_t)n * sizeof(int));
	m.seen = calloc((size_t)n, sizeof(int));
	t->dest = malloc((size_t)n * sizeof(*t->dest));
	if (!m.adj_first || !m.adj || !m.match_dst || !m.match_src || !m.seen || !t->dest) {
		snprintf(err, errlen, "pattern worstcase: out of memory for %d nodes", n);
		goto out;
	}
	for (int c = 0; c < w.channels; c++) {
		int size;

		/* a matching is no larger than the channel's pairs */
		if (w.first[c + 1] - w.first[c] <= (uint32_t)best)
			continue;
		size = wc_match_channel(&m, &w, c);
		if (size > best) {
			best = size;
			best_c = c;
			memcpy(t->dest, m.match_src, (size_t)n * sizeof(int));
		}
	}
	if (best_c < 0) {
		snprintf(err, errlen, "pattern worstcase: no route of %s crosses a channel", g->name);
		goto out;
	}
	t->worst_node = best_c / g->ports;
	t->worst_port = best_c % g->ports;
	t->worst_flows = best;
	/* the match arrays are free again: scratch for the completion */
	wc_complete(t->dest, n, m.match_dst, m.match_src);
	rc = 0;
out:
	free(w.first);
	free(w.pair);
	free(m.adj_first);
	free(m.adj);
	free(m.match_dst);
	free(m.match_src);
	free(m.seen);
	return rc;
}

int traffic_init(struct sim_traffic *t, const char *spec, const struct fm_graph *g,
		 const struct fm_routes *routes, uint64_t seed, char *err, size_t errlen)
{
	char name[32];
	const char *args = strchr(spec, ':');
	size_t len = args ? (size_t)(args - spec) : strlen(spec);
	int k;

	memset(t, 0, sizeof(*t));
	t->nodes = graph_terminals(g);
	snprintf(name, sizeof(name), "%.*s", (int)(len < 31 ? len : 31), spec);
	for (k = 0; sim_pattern_names[k]; k++)
		if (!strcmp(name, sim_pattern_names[k]))
			break;
	if (!sim_pattern_names[k]) {
		const char *near = cli_suggest(name, sim_pattern_names);

		if (near)
			snprintf(err, errlen, "unknown pattern '%s': did you mean '%s'?", name, near);
		else
			snprintf(err, errlen, "unknown pattern '%s': use uniform, permutation, "
				 "transpose, bitcomp, bitrev, shuffle, tornado, neighbour, "
				 "hotspot[:NODE[:FRACTION]], alltoall or worstcase", name);
		return -1;
	}
	t->kind = (enum sim_pattern_kind)k;
	if (t->kind != PAT_HOTSPOT && args) {
		snprintf(err, errlen, "pattern %s takes no arguments ('%s')", name, spec);
		return -1;
	}
	if (t->nodes < 2) {
		snprintf(err, errlen, "pattern %s needs at least two nodes", name);
		return -1;
	}
	if (t->kind == PAT_UNIFORM)
		return 0;
	if (t->kind == PAT_ALLTOALL) {
		t->sent = calloc((size_t)t->nodes, sizeof(*t->sent));
		if (!t->sent) {
			snprintf(err, errlen, "out of memory for the pattern of %d nodes", t->nodes);
			return -1;
		}
		return 0;
	}
	if (t->kind == PAT_WORSTCASE)
		return worst_case(t, g, routes, err, errlen);
	if (t->kind == PAT_HOTSPOT) {
		char *end;

		t->hot_fraction = 0.1;
		if (args) {
			long node = strtol(args + 1, &end, 10);

			if (end == args + 1 || node < 0 || node >= t->nodes ||
			    (*end && *end != ':')) {
				snprintf(err, errlen, "pattern '%s': the hot spot must be a node "
					 "0..%d", spec, t->nodes - 1);
				return -1;
			}
			t->hot_node = (int)node;
			if (*end == ':') {
				const char *f = end + 1;

				t->hot_fraction = strtod(f, &end);
				if (end == f || *end || !(t->hot_fraction >= 0 &&
							   t->hot_fraction <= 1)) {
					snprintf(err, errlen, "pattern '%s': the fraction must be a "
						 "number 0..1", spec);
					return -1;
				}
			}
		}
		return 0;
	}
	return fixed_dest(t, g, name, seed, err, errlen);
}

void traffic_free(struct sim_traffic *t)
{
	free(t->dest);
	free(t->sent);
	t->dest = NULL;
	t->sent = NULL;
}

static int uniform(const struct sim_traffic *t, int src, struct sim_rng *r)
{
	int d = (int)sim_rng_below(r, (uint32_t)t->nodes - 1);

	return d >= src ? d + 1 : d;
}

int traffic_dest(struct sim_traffic *t, int src, struct sim_rng *r)
{
	switch (t->kind) {
	case PAT_UNIFORM:
		return uniform(t, src, r);
	case PAT_ALLTOALL:
		return (int)((src + 1 + t->sent[src]++ % (uint32_t)(t->nodes - 1)) %
			     (uint32_t)t->nodes);
	case PAT_HOTSPOT:
		if (sim_rng_unit(r) < t->hot_fraction)
			return t->hot_node;
		return uniform(t, src, r);
	default:
		return t->dest[src];
	}
}
