// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm engines "valiant" and "ugal": Valiant's randomised two-phase
 * routing, and UGAL (universal globally adaptive load-balanced routing,
 * source-adaptive between the minimal route and Valiant's), on meshes,
 * HyperX shapes, tori and rings.
 *
 * The tables are dimension order's; every forwarding entry is marked
 * LOOM_RT_W0_VALIANT (ugal: and LOOM_RT_W0_UGAL) with the minimal hops
 * left.  The card does the rest (Documentation/hw/routing.rst): the source
 * router draws an intermediate node from its LFSR, the packet follows the
 * tables to it on VC0 (phase 0), then from there to its destination on
 * VC1 (phase 1); under UGAL the source router instead weighs, per packet,
 * the minimal route (on VC1) against the Valiant one by occupancy x hops.
 * Each phase is dimension order, which is acyclic on a mesh and a HyperX,
 * and the phases use different VCs in a fixed order: deadlock free (cdg.c
 * checks every phase-0 route, every phase-1 route and every turn from one
 * to the other).  On a torus each phase's rings need a dateline VC as
 * well: the entries carry LOOM_RT_W0_VAL_DATELINES and each phase has a
 * dateline pair of its own, four VCs per class (phase 0 VC0/VC1, phase 1
 * VC2/VC3), which routers with generic VCs have and the card's VC model
 * (two deterministic VCs per class) has not: refused there.
 */
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>

static int valiant_setup(const struct fm_graph *g, const struct fm_engine_opts *o,
			 struct fm_routes *r, const char *name, char *err, size_t errlen)
{
	const struct fm_shape *s = &g->shape;
	struct fm_hop *hops;

	if (s->kind != FM_SHAPE_MESH && s->kind != FM_SHAPE_HYPERX && s->kind != FM_SHAPE_TORUS) {
		snprintf(err, errlen,
			 "engine %s routes meshes, HyperX shapes, tori and rings only (mesh:AxB, "
			 "hyperx:S1xS2, torus:AxB, ring:N): each of its phases is dimension order, "
			 "which %s has not", name, s->kind == FM_SHAPE_NONE ?
			 "a topology file (no coordinates)" :
			 s->kind == FM_SHAPE_FATTREE ? "a fat tree" : "a dragonfly");
		return -1;
	}
	if (s->kind == FM_SHAPE_TORUS && o->datelines && !o->generic_vcs) {
		snprintf(err, errlen,
			 "engine %s on %s needs %d deterministic VCs per traffic class (a "
			 "dateline pair per phase: phase 0 on VC0/VC1, phase 1 on VC2/VC3), but "
			 "the card's VC model has 2 (VC0, VC1; the adaptive VC is minimal): use "
			 "routers with generic VCs (loom-sim --router xbar --param VCS=%d), or a "
			 "mesh or HyperX", name, g->name, FM_VAL_DL_VCS, FM_VAL_DL_VCS);
		return -1;
	}
	if (s->kind == FM_SHAPE_TORUS && o->datelines && o->generic_vcs < FM_VAL_DL_VCS) {
		snprintf(err, errlen,
			 "engine %s on %s needs %d VCs (a dateline pair per phase: phase 0 on "
			 "VC0/VC1, phase 1 on VC2/VC3), but the routers have VCS=%d: use --param "
			 "VCS=%d or more", name, g->name, FM_VAL_DL_VCS, o->generic_vcs,
			 FM_VAL_DL_VCS);
		return -1;
	}
	if (g->nodes > FM_VAL_MAX_LOGICAL + 1) {
		snprintf(err, errlen,
			 "engine %s: %s has %d nodes, but a packet carries its intermediate and "
			 "destination in one byte each of dst_node: %d nodes at most", name,
			 g->name, g->nodes, FM_VAL_MAX_LOGICAL + 1);
		return -1;
	}
	if (fm_engine_dor.compute(g, o, r, err, errlen))
		return -1;
	hops = malloc((size_t)g->nodes * sizeof(*hops));
	if (!hops) {
		snprintf(err, errlen, "out of memory for the hops of %d nodes", g->nodes);
		return -1;
	}
	r->valiant = true;
	/* a torus with datelines: each phase on a dateline pair of its own */
	r->val_datelines = s->kind == FM_SHAPE_TORUS && r->uses_vcs;
	for (int n = 0; n < g->nodes; n++)
		for (int dest = 0; dest < g->nodes; dest++) {
			int stuck, k = routes_walk(g, r, n, dest, hops, &stuck);

			/* the weight UGAL compares, in W0 HOPS (4 bits) */
			r->hops_left[n * g->nodes + dest] = (unsigned char)(k < 0 ? 0 :
									    k > 15 ? 15 : k);
		}
	free(hops);
	return 0;
}

static int valiant_compute(const struct fm_graph *g, const struct fm_engine_opts *o,
			   struct fm_routes *r, char *err, size_t errlen)
{
	return valiant_setup(g, o, r, "valiant", err, errlen);
}

static int ugal_compute(const struct fm_graph *g, const struct fm_engine_opts *o,
			struct fm_routes *r, char *err, size_t errlen)
{
	if (valiant_setup(g, o, r, "ugal", err, errlen))
		return -1;
	r->ugal = true;
	return 0;
}

const struct fm_engine fm_engine_valiant = {
	.name = "valiant",
	.summary = "mesh, HyperX, torus: Valiant, dimension order to a random\n"
		   "           intermediate on VC0, then to the destination on VC1 (torus:\n"
		   "           VC0/VC1, then VC2/VC3; generic VCs)",
	.compute = valiant_compute,
};

const struct fm_engine fm_engine_ugal = {
	.name = "ugal",
	.summary = "mesh, HyperX, torus: UGAL, per packet at the source minimal\n"
		   "           (VC1) or Valiant by occupancy x hops",
	.compute = ugal_compute,
};
