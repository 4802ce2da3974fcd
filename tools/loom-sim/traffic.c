// SPDX-License-Identifier: GPL-2.0
/* loom-sim: traffic patterns (traffic.h). */
#include "traffic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/cli.h"

const char *const sim_pattern_names[] = {
	"uniform", "permutation", "transpose", "bitcomp", "tornado", "neighbour", "hotspot",
	NULL,
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
	if (t->kind == PAT_BITCOMP) {
		if (n & (n - 1)) {
			const char *what = g->terminals ? "terminal" : "node";

			snprintf(err, errlen, "pattern bitcomp needs a power-of-two %s count; %s "
				 "has %d %ss", what, g->name, n, what);
			return -1;
		}
		for (int i = 0; i < n; i++)
			t->dest[i] = ~i & (n - 1);
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

int traffic_init(struct sim_traffic *t, const char *spec, const struct fm_graph *g,
		 uint64_t seed, char *err, size_t errlen)
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
				 "transpose, bitcomp, tornado, neighbour or hotspot[:NODE[:FRACTION]]",
				 name);
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
	t->dest = NULL;
}

static int uniform(const struct sim_traffic *t, int src, struct sim_rng *r)
{
	int d = (int)sim_rng_below(r, (uint32_t)t->nodes - 1);

	return d >= src ? d + 1 : d;
}

int traffic_dest(const struct sim_traffic *t, int src, struct sim_rng *r)
{
	switch (t->kind) {
	case PAT_UNIFORM:
		return uniform(t, src, r);
	case PAT_HOTSPOT:
		if (sim_rng_unit(r) < t->hot_fraction)
			return t->hot_node;
		return uniform(t, src, r);
	default:
		return t->dest[src];
	}
}
