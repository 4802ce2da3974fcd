// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm engine "omniwar": OmniWAR, omni-dimensional weighted adaptive
 * routing on HyperX shapes.
 *
 * The tables are dimension order's, every forwarding entry marked
 * LOOM_RT_W0_OMNIWAR with the minimal hops left, the distance classes
 * N + M (N dimensions, M = --deroutes) and, in W1 ADAPT_PORTS, the
 * minimal port of every unaligned dimension.  At each router the card
 * weighs those ports, (congestion + 1) x hops, and, while the packet's
 * distance classes left exceed its minimal hops, every other port of the
 * unaligned dimensions, (congestion + 1) x (hops + 1), and takes the
 * lightest.  Hop k travels on distance class k (a VC), so the channel
 * dependencies only ever climb the classes: acyclic (cdg.c checks every
 * path the choices allow), and no packet takes more than N + M hops.
 *
 * The classes must fit the routers' VCs: three on the card's VC model
 * (VC0, VC1 and the adaptive VC of each traffic class), one per VC with
 * generic VCs (the simulator's crossbars).
 */
#include "engine.h"

#include <stdio.h>

#include <loom_hw/regs.h>

static int omniwar_compute(const struct fm_graph *g, const struct fm_engine_opts *o,
			   struct fm_routes *r, char *err, size_t errlen)
{
	const struct fm_shape *s = &g->shape;
	int c[FM_MAX_DIMS], t[FM_MAX_DIMS], classes;

	if (engine_hyperx_only("omniwar", g, err, errlen))
		return -1;
	classes = s->dims + o->deroutes;
	if (!o->generic_vcs && classes > LOOM_RT_OMNI_CARD_CLASSES) {
		char fix[64];

		if (s->dims > LOOM_RT_OMNI_CARD_CLASSES)
			snprintf(fix, sizeof(fix), "a HyperX of at most %d dimensions",
				 LOOM_RT_OMNI_CARD_CLASSES);
		else
			snprintf(fix, sizeof(fix), "--deroutes %d or fewer",
				 LOOM_RT_OMNI_CARD_CLASSES - s->dims);
		snprintf(err, errlen,
			 "engine omniwar: %s needs %d distance classes (%d dimensions + %d "
			 "deroutes), but the card's VCs carry %d per traffic class (VC0, VC1 "
			 "and the adaptive VC): use %s", g->name, classes, s->dims, o->deroutes,
			 LOOM_RT_OMNI_CARD_CLASSES, fix);
		return -1;
	}
	if (o->generic_vcs && classes > o->generic_vcs) {
		snprintf(err, errlen,
			 "engine omniwar: %s needs %d distance classes (%d dimensions + %d "
			 "deroutes), but the routers have VCS=%d, one per distance class: use "
			 "--param VCS=%d or more (at most 8), or fewer --deroutes", g->name,
			 classes, s->dims, o->deroutes, o->generic_vcs, classes);
		return -1;
	}
	if (fm_engine_dor.compute(g, o, r, err, errlen))
		return -1;
	r->omniwar = true;
	r->classes = classes;
	engine_hyperx_hops(g, r);
	for (int n = 0; n < g->nodes; n++) {
		graph_coords(s, n, c);
		for (int dest = 0; dest < g->nodes; dest++) {
			unsigned int m = 0;

			graph_coords(s, dest, t);
			for (int d = 0; d < s->dims; d++)
				if (c[d] != t[d])
					m |= 1u << graph_hyperx_port(s, d, c[d], t[d]);
			r->adapt_ports[n * g->nodes + dest] = (unsigned char)m;
		}
	}
	return 0;
}

const struct fm_engine fm_engine_omniwar = {
	.name = "omniwar",
	.summary = "HyperX: minimal ports of any unaligned dimension and up to\n"
		   "           --deroutes M deroutes (OmniWAR; hop k on VC k, N+M VCs)",
	.compute = omniwar_compute,
};
