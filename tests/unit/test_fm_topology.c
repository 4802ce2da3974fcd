// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm fabric graphs: shapes follow the lab's numbering, HyperX cables
 * every pair differing in one coordinate, topology files are parsed with
 * errors at the right line numbers, failed cables disappear both ways.
 */
#include <string.h>

#include "tap.h"
#include "graph.h"
#include "topo_file.h"

TAP_DEFINE;

static bool has_cable(const struct fm_graph *g, int a, int pa, int b, int pb)
{
	const struct fm_port_end *e = graph_peer(g, a, pa), *f = graph_peer(g, b, pb);

	return e->node == b && e->port == pb && f->node == a && f->port == pa;
}

/* Every node pair that differs in exactly one coordinate is cabled, and only those. */
static bool hyperx_complete(const struct fm_graph *g)
{
	int c[FM_MAX_DIMS], t[FM_MAX_DIMS];

	for (int a = 0; a < g->nodes; a++) {
		int links = 0;

		graph_coords(&g->shape, a, c);
		for (int b = 0; b < g->nodes; b++) {
			int differ = 0, dim = -1;

			graph_coords(&g->shape, b, t);
			for (int d = 0; d < FM_MAX_DIMS; d++)
				if (c[d] != t[d]) {
					differ++;
					dim = d;
				}
			if (differ != 1)
				continue;
			if (!has_cable(g, a, graph_hyperx_port(&g->shape, dim, c[dim], t[dim]), b,
				       graph_hyperx_port(&g->shape, dim, t[dim], c[dim])))
				return false;
			links++;
		}
		if (links != g->ports)
			return false;
	}
	return true;
}

int main(void)
{
	char err[2048];
	struct fm_graph *g;

	tap_plan(22);

	g = graph_from_shape("torus:4x4", err, sizeof(err));
	tap_ok(g && g->nodes == 16 && g->ports == 4 && graph_cable_count(g) == 32,
	       "torus:4x4: 16 nodes, 4 ports, 32 cables");
	/* lab numbering: node x + 4y; port 0 +X, 1 +Y, 2 -X, 3 -Y; +d cabled to -d */
	tap_ok(g && has_cable(g, 0, 0, 1, 2) && has_cable(g, 3, 0, 0, 2) &&
	       has_cable(g, 12, 1, 0, 3) && has_cable(g, 5, 1, 9, 3),
	       "torus:4x4: +d port cabled to the -d port of the + neighbour, wrapping");
	graph_free(g);

	g = graph_from_shape("torus:2x2x2", err, sizeof(err));
	tap_ok(g && g->ports == 6 && graph_cable_count(g) == 24 && has_cable(g, 0, 0, 1, 3) &&
	       has_cable(g, 1, 0, 0, 3), "torus:2x2x2: size-2 rings cable the pair twice");
	graph_free(g);

	g = graph_from_shape("mesh:3x3", err, sizeof(err));
	tap_ok(g && graph_cable_count(g) == 12 && graph_peer(g, 2, 0)->node == FM_NO_PEER &&
	       graph_peer(g, 0, 2)->node == FM_NO_PEER, "mesh:3x3: 12 cables, edges uncabled");
	graph_free(g);

	g = graph_from_shape("ring:5", err, sizeof(err));
	tap_ok(g && g->nodes == 5 && g->ports == 2 && has_cable(g, 4, 0, 0, 1),
	       "ring:5: the 1-D torus, port 0 = +X");
	graph_free(g);

	g = graph_from_shape("hyperx:3x4x2", err, sizeof(err));
	tap_ok(g && g->ports == 2 + 3 + 1 && hyperx_complete(g),
	       "hyperx:3x4x2: every pair differing in one coordinate is cabled, S_d - 1 ports per dimension");
	graph_free(g);

	g = graph_from_shape("torus:9x", err, sizeof(err));
	tap_ok(!g && strstr(err, "torus:9x") && strstr(err, "mesh:XxY"),
	       "bad shape names the accepted forms: %s", err);
	graph_free(g);
	g = graph_from_shape("mesh:64x64x64", err, sizeof(err));
	tap_ok(!g && strstr(err, "more than 46340 nodes is too many"), "too many nodes: %s", err);

	/* failed cables */
	g = graph_from_shape("ring:4", err, sizeof(err));
	tap_ok(g && !graph_fail_port(g, 1, 1, err, sizeof(err)) &&
	       graph_peer(g, 0, 0)->node == FM_NO_PEER && graph_peer(g, 1, 1)->node == FM_NO_PEER &&
	       graph_cable_count(g) == 3, "--fail 1:1 removes the cable 0:0 - 1:1 both ways");
	tap_ok(g && graph_fail_port(g, 0, 0, err, sizeof(err)) && strstr(err, "no cable"),
	       "failing it again says so: %s", err);
	tap_ok(g && graph_fail_port(g, 0, 7, err, sizeof(err)) && strstr(err, "no port 7"),
	       "failing a port that does not exist says so: %s", err);
	graph_free(g);

	/* topology files */
	g = topo_parse("# two nodes and a triangle\n\n0:0 1:0   # first\n 1:1\t2:0\n2:1 0:1\n",
		       "tri", err, sizeof(err));
	tap_ok(g && g->nodes == 3 && g->ports == 2 && graph_cable_count(g) == 3 &&
	       has_cable(g, 1, 1, 2, 0), "a good file: comments, blanks, tabs");
	graph_free(g);

	g = topo_parse("0:0 1:0\n"		/* 1 */
		       "garbage\n"		/* 2: one field */
		       "1:1 2:x\n"		/* 3: bad number */
		       "3:0 3:1\n"		/* 4: self-cable */
		       "# fine\n"		/* 5 */
		       "2:0 1:0\n"		/* 6: 1:0 taken at line 1 */
		       "4:0 5:0 6:0\n",		/* 7: three fields */
		       "bad.topo", err, sizeof(err));
	for (char *line = err, *nl; line && *line; line = nl) {
		nl = strchr(line, '\n');
		tap_diag("%.*s", nl ? (int)(nl - line) : (int)strlen(line), line);
		if (nl)
			nl++;
	}
	tap_ok(!g, "a file with errors is refused");
	tap_ok(strstr(err, "bad.topo:2:") && strstr(err, "bad.topo:3:") &&
	       strstr(err, "bad.topo:7:") && !strstr(err, "bad.topo:1:") &&
	       !strstr(err, "bad.topo:5:"), "bad lines are named by their numbers (2, 3, 7)");
	tap_ok(strstr(err, "bad.topo:4: self-cable") != NULL, "self-cable at line 4");
	tap_ok(strstr(err, "bad.topo:6: duplicate port: 1:0 is already cabled at line 1") != NULL,
	       "duplicate port at line 6 names line 1");
	graph_free(g);

	/* a real fabric: the file must fit the cards' routing tables */
	g = topo_parse("# ring of 5\n0:0 1:1\n1:0 2:1\n2:0 3:1\n3:0 4:1\n4:0 0:1\n", "ring5.topo",
		       err, sizeof(err));
	tap_ok(g && !topo_fits_tables(g, 5, true, err, sizeof(err)),
	       "5 nodes fit cards of 5 routing entries (%s)", g ? "parsed" : err);
	tap_ok(g && topo_fits_tables(g, 4, false, err, sizeof(err)) &&
	       strstr(err, "ring5.topo:5: node number 5 of the file: the cards' routing tables "
		      "have 4 entries, so a fabric of these cards has at most 4 nodes (the file "
		      "names 5)"), "5 nodes on cards of 4 entries: refused at the line of the "
	       "fifth node: %s", err);
	graph_free(g);
	g = topo_parse("0:0 1:1\n1:0 9:1\nnode 1 logical 2\n", "big.topo", err, sizeof(err));
	tap_ok(g && topo_fits_tables(g, 8, true, err, sizeof(err)) &&
	       strstr(err, "big.topo:2: node 9: --logical identity gives it logical id 9, beyond "
		      "the cards' routing tables (8 entries: logical ids 0..7)"),
	       "identity: node 9 on cards of 8 entries refused at its first line: %s", err);
	tap_ok(g && !topo_fits_tables(g, 8, false, err, sizeof(err)),
	       "compact: the same 3 nodes fit 8 entries");
	graph_free(g);
	g = topo_parse("0:0 1:1\nnode 1 logical 12\n", "stated.topo", err, sizeof(err));
	tap_ok(g && topo_fits_tables(g, 8, false, err, sizeof(err)) &&
	       strstr(err, "stated.topo:2: node 1: logical id 12 is beyond the cards' routing "
		      "tables (8 entries: logical ids 0..7)"),
	       "a stated logical id beyond the tables refused at its line: %s", err);
	graph_free(g);

	g = topo_load("/nonexistent/loom-fm.topo", err, sizeof(err));
	tap_ok(!g && strstr(err, "/nonexistent/loom-fm.topo") && strstr(err, "cannot open"),
	       "a missing file: %s", err);
	return tap_exit_status();
}
