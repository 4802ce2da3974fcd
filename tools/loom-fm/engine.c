// SPDX-License-Identifier: GPL-2.0
/* loom-fm: the engine registry (engine.h). */
#include "engine.h"

#include <stdio.h>
#include <string.h>

#include <loom_hw/regs.h>

const struct fm_engine *const fm_engines[] = {
	&fm_engine_dor,
	&fm_engine_minhop,
	&fm_engine_updown,
	&fm_engine_dimwar,
	&fm_engine_omniwar,
	&fm_engine_dragonfly,
	&fm_engine_valiant,
	&fm_engine_ugal,
	NULL,
};

const struct fm_engine *engine_find(const char *name)
{
	for (int i = 0; fm_engines[i]; i++)
		if (!strcmp(fm_engines[i]->name, name))
			return fm_engines[i];
	return NULL;
}

const char *engine_names(void)
{
	static char names[256];

	if (!names[0])
		for (int i = 0; fm_engines[i]; i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? ", " : "", fm_engines[i]->name);
	return names;
}

const char *engine_default_name(const struct fm_graph *g)
{
	switch (g->shape.kind) {
	case FM_SHAPE_MESH:
	case FM_SHAPE_TORUS:
	case FM_SHAPE_HYPERX:
		return "dor";
	case FM_SHAPE_DRAGONFLY:
		return "dragonfly";
	case FM_SHAPE_FATTREE:
	case FM_SHAPE_NONE:
		break;
	}
	return "updown";
}

void engine_default_opts(struct fm_engine_opts *o)
{
	o->datelines = true;
	o->root = 0;
	o->adaptive = true;
	o->tie_split = true;
	o->vc_balance = true;
	o->deroutes = 1;
	o->generic_vcs = 0;
}

int engine_hyperx_only(const char *engine, const struct fm_graph *g, char *err, size_t errlen)
{
	const struct fm_shape *s = &g->shape;

	if (s->kind != FM_SHAPE_HYPERX) {
		snprintf(err, errlen,
			 "engine %s routes HyperX shapes only (hyperx:S1xS2[x...]): its "
			 "deroutes are lateral hops within a fully connected dimension, which "
			 "%s has not", engine, s->kind == FM_SHAPE_NONE ? "a topology file" :
				       s->kind == FM_SHAPE_TORUS ? "a torus" :
				       s->kind == FM_SHAPE_MESH ? "a mesh" :
				       s->kind == FM_SHAPE_FATTREE ? "a fat tree" : "a dragonfly");
		return -1;
	}
	if (g->ports > LOOM_MAX_PORTS) {
		snprintf(err, errlen,
			 "engine %s: %s has %d network ports, but the deroute ports come "
			 "from the VC table's %d port entries", engine, g->name, g->ports,
			 LOOM_MAX_PORTS);
		return -1;
	}
	return 0;
}

void engine_hyperx_hops(const struct fm_graph *g, struct fm_routes *r)
{
	const struct fm_shape *s = &g->shape;
	int c[FM_MAX_DIMS], t[FM_MAX_DIMS];

	for (int n = 0; n < g->nodes; n++) {
		graph_coords(s, n, c);
		for (int dest = 0; dest < g->nodes; dest++) {
			int h = 0;

			graph_coords(s, dest, t);
			for (int d = 0; d < s->dims; d++)
				h += c[d] != t[d];
			r->hops_left[n * g->nodes + dest] = (unsigned char)h;
		}
	}
}

int engine_parse_ties(const char *v, struct fm_engine_opts *o)
{
	if (strcmp(v, "split") && strcmp(v, "plus"))
		return -1;
	o->tie_split = !strcmp(v, "split");
	return 0;
}

int engine_parse_vc_assign(const char *v, struct fm_engine_opts *o)
{
	if (strcmp(v, "balanced") && strcmp(v, "crossing"))
		return -1;
	o->vc_balance = !strcmp(v, "balanced");
	return 0;
}

struct fm_routes *engine_run(const struct fm_engine *e, const struct fm_graph *g,
			     const struct fm_engine_opts *o, char *err, size_t errlen)
{
	struct fm_routes *r = routes_new(g);

	if (!r) {
		snprintf(err, errlen, "out of memory for the tables of %d nodes", g->nodes);
		return NULL;
	}
	if (e->compute(g, o, r, err, errlen)) {
		routes_free(r);
		return NULL;
	}
	return r;
}

bool engine_can_block(const struct fm_engine *e, const struct fm_graph *g,
		      const struct fm_engine_opts *o)
{
	return e->blocks && e->blocks(g, o);
}

struct fm_routes *engine_run_block(const struct fm_engine *e, const struct fm_graph *g,
				   const struct fm_engine_opts *o, int row_lo, int row_hi,
				   int dest_lo, int dest_hi, char *err, size_t errlen)
{
	struct fm_routes *r;

	if (!engine_can_block(e, g, o)) {
		snprintf(err, errlen, "engine %s computes the whole tables of %s only", e->name,
			 g->name);
		return NULL;
	}
	r = routes_new_block(g, row_lo, row_hi, dest_lo, dest_hi);
	if (!r) {
		snprintf(err, errlen, "out of memory for the tables of nodes %d..%d toward %d..%d",
			 row_lo, row_hi - 1, dest_lo, dest_hi - 1);
		return NULL;
	}
	if (e->compute(g, o, r, err, errlen)) {
		routes_free(r);
		return NULL;
	}
	return r;
}
