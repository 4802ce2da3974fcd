// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm engine "dimwar": DimWAR, dimensionally-ordered weighted adaptive
 * routing on HyperX shapes.
 *
 * The tables are dimension order's (one direct hop per unaligned
 * dimension, X first), every forwarding entry marked LOOM_RT_W0_DIMWAR
 * with the minimal hops left to the destination.  At each router the card
 * weighs the minimal port, (congestion + 1) x hops, against every other
 * port of the same dimension (the VCT's PORT_CFG dimensions),
 * (congestion + 1) x (hops + 1), and takes the lightest: a deroute is a
 * lateral hop within the dimension after which the minimal hop aligns it.
 * Minimal hops travel on VC0, deroutes on VC1, and a packet that arrived
 * on VC1 may not deroute again: at most one deroute per dimension.  The
 * dimensions are ordered, so the two VCs are reused in each: acyclic
 * (cdg.c checks every path a deroute can take).
 *
 * The deroute ports are those of the VC table's port entries, so a
 * router has at most LOOM_MAX_PORTS network ports here.
 */
#include "engine.h"


static int dimwar_compute(const struct fm_graph *g, const struct fm_engine_opts *o,
			  struct fm_routes *r, char *err, size_t errlen)
{
	if (engine_hyperx_only("dimwar", g, err, errlen) ||
	    fm_engine_dor.compute(g, o, r, err, errlen))
		return -1;
	r->dimwar = true;
	engine_hyperx_hops(g, r);
	return 0;
}

const struct fm_engine fm_engine_dimwar = {
	.name = "dimwar",
	.summary = "HyperX: dimension order with weighted deroutes within each\n"
		   "           dimension (DimWAR; minimal hops VC0, deroutes VC1)",
	.compute = dimwar_compute,
};
