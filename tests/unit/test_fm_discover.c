// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm discovery against a fake fabric of register spaces (every card
 * laid out differently): a 2x2 torus and a 2x2x2 torus are found exactly,
 * with the shortest directed routes; cut, dead and disabled ports are
 * failed cables, not followed; a silent card is left out and the rest
 * found; a ring longer than the 16-hop maintenance routes is cut off at
 * 16 hops; sparse physical ids; the printed topology file parses back to
 * the same graph and the comparison with an expected topology names
 * every missing and extra cable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "fabric.h"
#include "graph.h"
#include "topo_file.h"
#include "test_fm_fakefab.h"

TAP_DEFINE;

static struct fm_fabric fab;

static int discover(struct fake_fabric *ff, char *log, size_t loglen)
{
	char err[512];
	FILE *f = fmemopen(log, loglen, "w");
	int rc = fabric_discover(&ff->m, &fab, f, err, sizeof(err));

	fclose(f);
	if (rc)
		tap_diag("discover: %s", err);
	return rc;
}

static int compare_text(const struct fm_graph *g, const struct fm_graph *expected, char *out,
			size_t len)
{
	FILE *f = fmemopen(out, len, "w");
	int d = fabric_compare(f, &fab, g, expected);

	fclose(f);
	return d;
}

/* Every card's route has the BFS distance as its length. */
static bool shortest_routes(const struct fm_graph *shape)
{
	int dist[FM_MAX_NODES], q[FM_MAX_NODES];

	graph_bfs(shape, 0, dist, q);
	for (int i = 0; i < fab.ncards; i++)
		if (fab.card[i].path.hops != dist[fab.card[i].node]) {
			tap_diag("node %u: route of %d hops, distance %d", fab.card[i].node,
				 fab.card[i].path.hops, dist[fab.card[i].node]);
			return false;
		}
	return true;
}

int main(void)
{
	static char log[8192], out[8192], err[512];
	struct fm_graph *shape, *g, *back;
	struct fake_fabric *ff;
	char *text;
	size_t len;
	FILE *f;

	tap_plan(18);

	/* 1-3: a 2x2 torus */
	shape = graph_from_shape("torus:2x2", err, sizeof(err));
	ff = fake_new(shape, 0);
	tap_ok(discover(ff, log, sizeof(log)) == 0 && fab.ncards == 4,
	       "2x2 torus: 4 cards discovered");
	g = fabric_graph(&fab);
	tap_ok(g && graph_cable_count(g) == 8 && compare_text(g, shape, out, sizeof(out)) == 0,
	       "2x2 torus: the 8 cables equal the shape's");
	tap_ok(shortest_routes(shape) && fab.card[3].router == 0x200 + 0x40 * 3 &&
	       fab.card[3].vct && fab.card[3].rt_entries == FAKE_RT_ENTRIES,
	       "routes are shortest; blocks found by walking each card's chain");

	/* 4: the printed topology file parses back to the same graph */
	f = open_memstream(&text, &len);
	fabric_print(f, &fab, g);
	fclose(f);
	back = topo_parse(text, "discovered", err, sizeof(err));
	tap_ok(back && compare_text(g, back, out, sizeof(out)) == 0, "the printed topology parses "
	       "back to the discovered graph");
	if (!back)
		{ tap_diag("%s", err); diag_lines(text); }
	free(text);
	graph_free(back);
	graph_free(g);

	/* 5-6: the cheap check: nothing changed, then a cut */
	tap_ok(fabric_changed(&ff->m, &fab) == 0, "fabric_changed: 0 while nothing changed");
	fake_cut(ff, 0, 0);
	tap_ok(fabric_changed(&ff->m, &fab) == 1, "fabric_changed: 1 after a cut");

	/* 7-9: a cut cable and a disabled port are failed cables */
	*fake_port_reg(&ff->card[2], 1, LOOM_PORT_STATUS) |= LOOM_PORT_ST_DISABLED;
	discover(ff, log, sizeof(log));
	g = fabric_graph(&fab);
	tap_ok(fab.ncards == 4 && graph_cable_count(g) == 6, "cut 0:0 and disabled 2:1: "
	       "4 cards, 6 cables");
	compare_text(g, shape, out, sizeof(out));
	tap_ok(strstr(out, "missing cable 0:0 1:2") && strstr(out, "missing cable 0:3 2:1") &&
	       !strstr(out, "extra"), "the comparison names both missing cables");
	diag_lines(out);
	f = open_memstream(&text, &len);
	fabric_print(f, &fab, g);
	fclose(f);
	tap_ok(strstr(text, "# failed: 0:0 down") && strstr(text, "# failed: 2:1 disabled") &&
	       !strstr(text, "\n0:0 "), "the topology names the failed ports in comments");
	free(text);
	graph_free(g);

	/* 8: a dead port is not followed either: node 1 then only via 3 */
	*fake_port_reg(&ff->card[0], 2, LOOM_PORT_STATUS) |= LOOM_PORT_ST_DEAD;
	discover(ff, log, sizeof(log));
	tap_ok(fab.ncards == 4 && fab.card[1].path.hops == 3, "a dead port is not followed: node 1 "
	       "reached over 3 hops");
	fake_free(ff);
	graph_free(shape);

	/* 9-10: a silent card is left out, the rest found */
	shape = graph_from_shape("torus:2x2x2", err, sizeof(err));
	ff = fake_new(shape, 0);
	ff->card[7].silent = true;
	tap_ok(discover(ff, log, sizeof(log)) == 0 && fab.ncards == 7 &&
	       fabric_find(&fab, 7) < 0 && strstr(log, "node 7") && strstr(log, "left out"),
	       "2x2x2 torus, node 7 silent: 7 cards, node 7 left out with a message");
	g = fabric_graph(&fab);
	compare_text(g, shape, out, sizeof(out));
	tap_ok(graph_cable_count(g) == 18 && strstr(out, "missing node 7") &&
	       strstr(out, "missing cable 6:0 7:3"),
	       "its 6 cables are missing and so is the node");
	graph_free(g);

	/* 11: the local card silent: discovery fails with a message */
	ff->card[0].silent = true;
	tap_ok(fabric_discover(&ff->m, &fab, NULL, err, sizeof(err)) < 0 &&
	       strstr(err, "local card"), "a silent local card: error '%s'", err);
	fake_free(ff);
	graph_free(shape);

	/* 12: a ring of 36: nodes 17..19 hops away are beyond the routes */
	shape = graph_from_shape("ring:40", err, sizeof(err));
	ff = fake_new(shape, 0);
	discover(ff, log, sizeof(log));
	tap_ok(fab.ncards == 33 && fabric_find(&fab, 20) < 0 && fabric_find(&fab, 16) >= 0 &&
	       fabric_find(&fab, 24) >= 0, "ring of 40: the 33 cards within 16 hops (got %d)",
	       fab.ncards);
	fake_free(ff);
	graph_free(shape);

	/* 13-14: sparse physical ids: cards sorted by id, printed with them */
	shape = graph_from_shape("mesh:2x2", err, sizeof(err));
	ff = fake_new(shape, 100);
	discover(ff, log, sizeof(log));
	g = fabric_graph(&fab);
	tap_ok(fab.ncards == 4 && fab.card[0].node == 100 && fab.card[3].node == 103 &&
	       graph_cable_count(g) == 4, "ids 100..103: 4 cards in id order, 4 cables");
	f = open_memstream(&text, &len);
	fabric_print(f, &fab, g);
	fclose(f);
	tap_ok(strstr(text, "\n100:0 101:2\n") != NULL, "cables printed with physical ids");
	free(text);

	/* 15: an expected topology with other cables: extra and missing named */
	back = topo_parse("100:0 101:2\n100:1 102:3\n101:1 103:3\n102:0 103:1\n",
			  "t", err, sizeof(err));
	tap_ok(back && compare_text(g, back, out, sizeof(out)) == 2 &&
	       strstr(out, "missing cable 102:0 103:1") && strstr(out, "extra cable 102:0 103:2"),
	       "expected 102:0-103:1, found 102:0-103:2: one missing, one extra");
	diag_lines(out);
	graph_free(back);

	/* 16: JSON names cards, routes and cables */
	f = open_memstream(&text, &len);
	fabric_print_json(f, &fab, g);
	fclose(f);
	tap_ok(strstr(text, "{\"node\":103,\"logical\":103,\"ports\":4,\"rt_entries\":64,"
			     "\"route\":[") &&
	       strstr(text, "{\"a\":{\"node\":100,\"port\":0},\"b\":{\"node\":101,\"port\":2}}"),
	       "JSON output (node, logical id, ports, route, cables)");
	free(text);
	graph_free(g);
	fake_free(ff);
	graph_free(shape);
	return tap_exit_status();
}
