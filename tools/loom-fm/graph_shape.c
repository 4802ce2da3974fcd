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
 *
 * Fat tree (fattree:K:N, a k-ary n-tree folded Clos): K^N terminal nodes
 * (cards with one cable, port 0), then N levels of K^(N-1) switches of 2K
 * ports, leaves (level 0) first.  Ports 0..K-1 of a switch go down, ports
 * K..2K-1 up.  Terminal t is on port t mod K of leaf t / K.  Switch w of
 * level l (digits w_i in base K) has up port K + j cabled to down port
 * w_l of the level l + 1 switch whose digit l is j.
 *
 * Dragonfly (dragonfly:A:P:H): A*H + 1 groups of A routers, each router
 * with P terminals (ports 0..P-1), A - 1 local ports to the other routers
 * of its group (port P + r' or P + r' - 1 toward router r') and H global
 * ports (P + A - 1 + j).  Terminals first (terminal t on port t mod P of
 * router t / P), then the routers group by group.  Global port j of router
 * r in group G is the group's global link i = r*H + j, to group
 * (G + i + 1) mod groups: one link between every two groups.
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
	"dimensions, each size 2..64; fattree:K:N (K-ary N-tree); dragonfly:A:P:H (A routers "
	"of P terminals and H global links per group); at most 46340 nodes and 64 ports (e.g. "
	"torus:4x4, ring:5, hyperx:3x3, fattree:4:2, dragonfly:4:2:2)";

int graph_fattree_level(const struct fm_shape *s, int n)
{
	int terminals = 1, width = 1;

	for (int l = 0; l < s->levels; l++)
		terminals *= s->k;
	width = terminals / s->k;
	return n < terminals ? -1 : (n - terminals) / width;
}

int graph_dragonfly_group(const struct fm_shape *s, int n)
{
	int terminals = s->groups * s->a * s->p;

	return n < terminals ? n / (s->a * s->p) : (n - terminals) / s->a;
}

/* "N:N[:N]" into v[0..want-1]; 0 or -1. */
static int parse_fields(const char *s, int *v, int want)
{
	for (int i = 0; i < want; i++) {
		int digits = 0;

		v[i] = 0;
		while (*s >= '0' && *s <= '9' && digits < 4) {
			v[i] = v[i] * 10 + (*s++ - '0');
			digits++;
		}
		if (!digits || *s != (i + 1 < want ? ':' : '\0'))
			return -1;
		s++;
	}
	return 0;
}

static struct fm_graph *shape_graph(const struct fm_shape *sh, const char *spec, int nodes,
				    int ports, char *err, size_t errlen)
{
	struct fm_graph *g;

	if (nodes > FM_MAX_NODES) {
		snprintf(err, errlen, "shape '%s': %s%d nodes is too many: a fabric has at most %d "
			 "nodes; use %s", spec, nodes == FM_MAX_NODES + 1 ? "more than " : "",
			 nodes == FM_MAX_NODES + 1 ? FM_MAX_NODES : nodes, FM_MAX_NODES, shape_forms);
		return NULL;
	}
	if (ports > FM_MAX_PORTS) {
		snprintf(err, errlen, "shape '%s': %d ports per node is too many: a router has at "
			 "most %d; use %s", spec, ports, FM_MAX_PORTS, shape_forms);
		return NULL;
	}
	g = graph_new(nodes, ports);
	if (!g) {
		snprintf(err, errlen, "shape '%s': out of memory", spec);
		return NULL;
	}
	g->shape = *sh;
	snprintf(g->name, sizeof(g->name), "%s", spec);
	return g;
}

static struct fm_graph *build_fattree(const char *spec, char *err, size_t errlen)
{
	struct fm_shape sh = { .kind = FM_SHAPE_FATTREE };
	int v[2], terminals = 1, width, k;
	struct fm_graph *g;

	if (parse_fields(spec + 8, v, 2) || v[0] < 2 || v[0] > FM_MAX_PORTS / 2 || v[1] < 1 ||
	    v[1] > 8) {
		snprintf(err, errlen, "shape '%s': fattree:K:N needs K 2..%d and N 1..8; use %s",
			 spec, FM_MAX_PORTS / 2, shape_forms);
		return NULL;
	}
	k = sh.k = v[0];
	sh.levels = v[1];
	for (int l = 0; l < sh.levels && terminals <= FM_MAX_NODES; l++)
		terminals *= k;
	width = terminals / k;
	g = shape_graph(&sh, spec, terminals + sh.levels * width, 2 * k, err, errlen);
	if (!g)
		return NULL;
	g->terminals = terminals;
	for (int t = 0; t < terminals; t++)
		graph_cable(g, t, 0, terminals + t / k, t % k);
	for (int l = 0, step = 1; l + 1 < sh.levels; l++, step *= k) {
		for (int w = 0; w < width; w++) {
			int digit = w / step % k;

			for (int j = 0; j < k; j++)
				graph_cable(g, terminals + l * width + w, k + j,
					    terminals + (l + 1) * width + w + (j - digit) * step,
					    digit);
		}
	}
	return g;
}

static struct fm_graph *build_dragonfly(const char *spec, char *err, size_t errlen)
{
	struct fm_shape sh = { .kind = FM_SHAPE_DRAGONFLY };
	int v[3], terminals, routers, ports;
	struct fm_graph *g;

	if (parse_fields(spec + 10, v, 3) || v[0] < 1 || v[1] < 1 || v[2] < 1 ||
	    v[0] * v[2] + 1 > FM_MAX_NODES) {
		snprintf(err, errlen, "shape '%s': dragonfly:A:P:H needs A, P and H of 1 or more; "
			 "use %s", spec, shape_forms);
		return NULL;
	}
	sh.a = v[0];
	sh.p = v[1];
	sh.h = v[2];
	sh.groups = sh.a * sh.h + 1;
	routers = sh.groups * sh.a;
	terminals = routers > FM_MAX_NODES ? 0 : routers * sh.p;
	ports = sh.p + sh.a - 1 + sh.h;
	g = shape_graph(&sh, spec, terminals > FM_MAX_NODES ? terminals : terminals + routers,
			ports, err, errlen);
	if (!g)
		return NULL;
	g->terminals = terminals;
	for (int t = 0; t < terminals; t++)
		graph_cable(g, t, 0, terminals + t / sh.p, t % sh.p);
	for (int G = 0; G < sh.groups; G++) {
		for (int r = 0; r < sh.a; r++) {
			int n = terminals + G * sh.a + r;

			for (int o = r + 1; o < sh.a; o++)
				graph_cable(g, n, sh.p + o - 1, terminals + G * sh.a + o, sh.p + r);
			for (int j = 0; j < sh.h; j++) {
				int i = r * sh.h + j, G2 = (G + i + 1) % sh.groups;
				int i2 = sh.groups - i - 2;

				if (G2 > G)
					graph_cable(g, n, sh.p + sh.a - 1 + j,
						    terminals + G2 * sh.a + i2 / sh.h,
						    sh.p + sh.a - 1 + i2 % sh.h);
			}
		}
	}
	return g;
}

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

	if (!strncmp(spec, "fattree:", 8))
		return build_fattree(spec, err, errlen);
	if (!strncmp(spec, "dragonfly:", 10))
		return build_dragonfly(spec, err, errlen);
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
		/* saturated one past the limit: 64^7 does not fit an int */
		nodes = nodes > FM_MAX_NODES / sh.size[d] ? FM_MAX_NODES + 1 : nodes * sh.size[d];
		ports += sh.kind == FM_SHAPE_HYPERX ? sh.size[d] - 1 : (d < sh.dims ? 2 : 0);
	}
	g = shape_graph(&sh, spec, nodes, ports, err, errlen);
	if (!g)
		return NULL;
	if (sh.kind == FM_SHAPE_HYPERX)
		build_hyperx(g);
	else
		build_grid(g, sh.kind == FM_SHAPE_TORUS);
	return g;
}
