// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm engine "dor": dimension-order routing on shapes.  A packet
 * corrects X, then Y, then Z.  Torus dimensions: the shorter way round; a
 * tie (half way round a ring of 4 or more) goes + from an odd coordinate
 * and - from an even one, so that both directions carry the same load and
 * no tie continues through a dateline (the Cray T3E's time-of-crossing
 * balance, Table 1 of its paper, is reproduced only with this split)
 * (--ties plus: always +; on a ring of 2 both ways are one hop to the same
 * neighbour, and the tie goes +); mesh: the direct way; hyperx: one direct
 * hop.  Each torus ring has one dateline, between the nodes of coordinates
 * k-1 and 0 for both directions: the wrap-around channels.  A route moves
 * to VC1 on crossing the dateline; the VC it starts a dimension on is
 * chosen for VC balance (vc_balance.h), or VC0 with --vc-assign crossing.
 * dor does not route around failed cables: an entry whose port lost its
 * cable is left empty, and the check reports the pairs cut off.
 */
#include "engine.h"
#include "vc_balance.h"

#include <stdio.h>

static int dor_port(const struct fm_shape *s, const struct fm_engine_opts *o, const int *c,
		    const int *t)
{
	for (int d = 0; d < s->dims; d++) {
		int k = s->size[d], fwd;

		if (c[d] == t[d])
			continue;
		if (s->kind == FM_SHAPE_HYPERX)
			return graph_hyperx_port(s, d, c[d], t[d]);
		if (s->kind == FM_SHAPE_MESH)
			return t[d] > c[d] ? d : s->dims + d;
		fwd = (t[d] - c[d] + k) % k;
		if (2 * fwd == k && k >= 4 && o->tie_split)
			return c[d] % 2 ? d : s->dims + d;
		return fwd <= k - fwd ? d : s->dims + d;
	}
	return FM_PORT_HOST;
}

void engine_dor_model(const struct fm_graph *g, const struct fm_engine_opts *o,
		      struct fm_routes *r)
{
	const struct fm_shape *s = &g->shape;
	int c[FM_MAX_DIMS];

	for (int p = 0; p < g->ports; p++) {
		if (s->kind != FM_SHAPE_HYPERX) {
			r->port_dim[p] = p % s->dims;
			continue;
		}
		for (int d = 0, base = 0; d < s->dims; base += s->size[d] - 1, d++)
			if (p >= base && p < base + s->size[d] - 1)
				r->port_dim[p] = d;
	}
	if (s->kind != FM_SHAPE_TORUS || !o->datelines)
		return;
	r->uses_vcs = true;
	for (int n = 0; n < g->nodes; n++) {
		graph_coords(s, n, c);
		for (int d = 0; d < s->dims; d++) {
			if (c[d] == s->size[d] - 1)
				r->dateline[n * g->ports + d] = 1;
			if (c[d] == 0)
				r->dateline[n * g->ports + s->dims + d] = 1;
		}
	}
}

static int dor_compute(const struct fm_graph *g, const struct fm_engine_opts *o,
		       struct fm_routes *r, char *err, size_t errlen)
{
	const struct fm_shape *s = &g->shape;
	int c[FM_MAX_DIMS], t[FM_MAX_DIMS];

	if (!graph_has_coords(g)) {
		snprintf(err, errlen,
			 "engine dor needs coordinates: use --shape (mesh, torus, ring, hyperx), "
			 "or the minhop or updown engine for a topology file or a fat tree, "
			 "dragonfly for a dragonfly");
		return -1;
	}
	engine_dor_model(g, o, r);
	for (int n = r->row_lo; n < r->row_hi; n++) {
		graph_coords(s, n, c);
		for (int dest = r->dest_lo; dest < r->dest_hi; dest++) {
			int port;

			if (dest == n)
				continue;
			graph_coords(s, dest, t);
			port = dor_port(s, o, c, t);
			if (graph_peer(g, n, port)->node == FM_NO_PEER)
				port = FM_PORT_NONE;
			r->port[routes_at(r, n, dest)] = port;
		}
	}
	if (r->uses_vcs && o->vc_balance && vc_balance_optimise(g, r)) {
		snprintf(err, errlen, "out of memory balancing the VCs of %d nodes", g->nodes);
		return -1;
	}
	return 0;
}

/*
 * Any block: an entry is the dimension order from its node to its
 * destination; but the VC balance chooses start VCs over every route of
 * the fabric, so a torus with datelines and balanced VCs is computed whole.
 */
static bool dor_blocks(const struct fm_graph *g, const struct fm_engine_opts *o)
{
	return graph_has_coords(g) && !(g->shape.kind == FM_SHAPE_TORUS && o->datelines &&
					 o->vc_balance);
}

const struct fm_engine fm_engine_dor = {
	.name = "dor",
	.summary = "dimension order X, Y, Z on shapes; a dateline per torus ring\n"
		   "           (VC1 after the wrap-around channels), start VCs balanced",
	.compute = dor_compute,
	.blocks = dor_blocks,
};
