// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm: graphs from shapes.  Mesh, torus and ring follow the lab's
 * conventions (Documentation/tools/loom-lab.rst, "Shapes"): node id
 * x + X * (y + Y * z); port d = +dimension d, port dims + d = -dimension d;
 * the +d port is cabled to the -d port of the + neighbour, a torus wraps.
 * HyperX: every two nodes that differ in one coordinate are cabled; the
 * ports of dimension d are a block of S_d - 1 ports after those of the
 * lower dimensions, port j of the block facing coordinate j (j below the
 * node's own coordinate) or j + 1 (j at or above it).
 */
#include "graph.h"

#include <stdio.h>
#include <string.h>

void graph_coords(const struct fm_shape *s, int node, int coord[FM_MAX_DIMS])
{
	for (int d = 0; d < FM_MAX_DIMS; d++) {
		int size = d < s->dims ? s->size[d] : 1;

		coord[d] = node % size;
		node /= size;
	}
}

static int node_of(const struct fm_shape *s, const int coord[FM_MAX_DIMS])
{
	int id = 0;

	for (int d = s->dims - 1; d >= 0; d--)
		id = id * s->size[d] + coord[d];
	return id;
}

static int hyperx_base(const struct fm_shape *s, int dim)
{
	int base = 0;

	for (int d = 0; d < dim; d++)
		base += s->size[d] - 1;
	return base;
}

int graph_hyperx_port(const struct fm_shape *s, int dim, int c, int to)
{
	return hyperx_base(s, dim) + (to < c ? to : to - 1);
}

static const char *const shape_forms =
	"ring:N, mesh:XxY[xZ...], torus:XxY[xZ...] or hyperx:S1xS2[xS3...], up to 7 "
	"dimensions, each size 2..64, at most 512 nodes and 64 ports (e.g. torus:4x4, ring:5, "
	"hyperx:3x3)";

static int parse_sizes(const char *s, struct fm_shape *sh)
{
	sh->dims = 0;
	for (;;) {
		int v = 0, digits = 0;

		while (*s >= '0' && *s <= '9' && digits < 4) {
			v = v * 10 + (*s++ - '0');
			digits++;
		}
		if (!digits || v < 2 || v > FM_MAX_DIM_SIZE || sh->dims == FM_MAX_DIMS)
			return -1;
		sh->size[sh->dims++] = v;
		if (*s == '\0')
			return 0;
		if (*s++ != 'x')
			return -1;
	}
}

static void build_grid(struct fm_graph *g, bool wrap)
{
	const struct fm_shape *s = &g->shape;
	int c[FM_MAX_DIMS];

	for (int n = 0; n < g->nodes; n++) {
		graph_coords(s, n, c);
		for (int d = 0; d < s->dims; d++) {
			int save = c[d];

			if (c[d] + 1 < s->size[d])
				c[d]++;
			else if (wrap)
				c[d] = 0;
			else
				continue;
			graph_cable(g, n, d, node_of(s, c), s->dims + d);
			c[d] = save;
		}
	}
}

static void build_hyperx(struct fm_graph *g)
{
	const struct fm_shape *s = &g->shape;
	int c[FM_MAX_DIMS];

	for (int n = 0; n < g->nodes; n++) {
		graph_coords(s, n, c);
		for (int d = 0; d < s->dims; d++) {
			int own = c[d];

			for (int to = own + 1; to < s->size[d]; to++) {
				c[d] = to;
				graph_cable(g, n, graph_hyperx_port(s, d, own, to), node_of(s, c),
					    graph_hyperx_port(s, d, to, own));
			}
			c[d] = own;
		}
	}
}

struct fm_graph *graph_from_shape(const char *spec, char *err, size_t errlen)
{
	struct fm_shape sh = { 0 };
	struct fm_graph *g;
	const char *sizes;
	int nodes = 1, ports = 0;

	if (!strncmp(spec, "ring:", 5)) {
		sh.kind = FM_SHAPE_TORUS;
		sizes = spec + 5;
	} else if (!strncmp(spec, "mesh:", 5)) {
		sh.kind = FM_SHAPE_MESH;
		sizes = spec + 5;
	} else if (!strncmp(spec, "torus:", 6)) {
		sh.kind = FM_SHAPE_TORUS;
		sizes = spec + 6;
	} else if (!strncmp(spec, "hyperx:", 7)) {
		sh.kind = FM_SHAPE_HYPERX;
		sizes = spec + 7;
	} else {
		snprintf(err, errlen, "shape '%s': unknown kind; use %s", spec, shape_forms);
		return NULL;
	}
	if (parse_sizes(sizes, &sh) || (!strncmp(spec, "ring:", 5) && sh.dims != 1)) {
		snprintf(err, errlen, "shape '%s': bad sizes; use %s", spec, shape_forms);
		return NULL;
	}
	for (int d = 0; d < FM_MAX_DIMS; d++) {
		if (d >= sh.dims)
			sh.size[d] = 1;
		nodes *= sh.size[d];
		ports += sh.kind == FM_SHAPE_HYPERX ? sh.size[d] - 1 : (d < sh.dims ? 2 : 0);
	}
	if (nodes > FM_MAX_NODES || ports > FM_MAX_PORTS) {
		snprintf(err, errlen, "shape '%s': %d nodes with %d ports each is too large; use %s",
			 spec, nodes, ports, shape_forms);
		return NULL;
	}
	g = graph_new(nodes, ports);
	if (!g) {
		snprintf(err, errlen, "shape '%s': out of memory", spec);
		return NULL;
	}
	g->shape = sh;
	snprintf(g->name, sizeof(g->name), "%s", spec);
	if (sh.kind == FM_SHAPE_HYPERX)
		build_hyperx(g);
	else
		build_grid(g, sh.kind == FM_SHAPE_TORUS);
	return g;
}
