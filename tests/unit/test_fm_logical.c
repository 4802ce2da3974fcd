// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm's logical ids: topology files state them ('node N logical L')
 * and refuse duplicates, bad lines and uncabled nodes; identity keeps the
 * physical ids; compact numbers the cards found 0..N-1 keeping the ids
 * they have where it can, so a spare takes a dead card's number; stated
 * ids win; two cards with one id and ids beyond a table are refused
 * naming both cards; the programmed routing tables (fake fabric) are
 * indexed by the new logical ids and deliver to the right physical card.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "engine.h"
#include "fabric.h"
#include "logical.h"
#include "program.h"
#include "topo_file.h"
#include "verdict.h"
#include "test_fm_fakefab.h"

TAP_DEFINE;

static struct fm_fabric fab;
static char err[4096];

/* Follow the fake registers from card s toward logical dl: the card it ends on, or -1. */
static int walk_to(struct fake_fabric *ff, int s, uint32_t dl)
{
	int cur = s;

	for (int hops = 0; hops <= ff->ncards; hops++) {
		struct fake_card *c = &ff->card[cur];
		uint32_t w0 = *fake_reg(c, c->router + LOOM_ROUTER_RT + dl * 8);
		uint32_t port = w0 & LOOM_RT_W0_PORT_MASK;

		if (!(w0 & LOOM_RT_W0_VALID))
			return -1;
		if (port == LOOM_RT_PORT_HOST)
			return cur;
		if ((int)port >= c->n_ports ||
		    !fabric_port_usable(*fake_port_reg(c, (int)port, LOOM_PORT_STATUS)))
			return -1;
		cur = fake_index(ff, *fake_port_reg(c, (int)port, LOOM_PORT_PEER_NODE));
		if (cur < 0)
			return -1;
	}
	return -1;
}

/*
 * Route the discovered fabric with updown and program it; then every
 * card reaches every logical id at the card that has it, whose word 1
 * names its physical id.
 */
static int program_and_walk(struct fake_fabric *ff)
{
	struct fm_engine_opts o;
	struct fm_graph *g = fabric_graph(&fab);
	struct fm_apply_stats st;
	struct fm_verdict v;
	struct fm_plan plan;
	int ok = 1;

	engine_default_opts(&o);
	if (!g || verdict_run(&fm_engine_updown, g, &o, &v, err, sizeof(err)) ||
	    plan_build(&fab, v.routes, &plan, err, sizeof(err)) ||
	    plan_apply(&ff->m, &fab, &plan, NULL, 0, &st, NULL, err, sizeof(err))) {
		tap_diag("programming: %s", err);
		graph_free(g);
		return 0;
	}
	for (int s = 0; s < ff->ncards; s++) {
		if (ff->card[s].silent)
			continue;
		for (int d = 0; d < fab.ncards; d++) {
			uint32_t l = fab.card[d].logical;
			int end = walk_to(ff, s, l);
			struct fake_card *e = end >= 0 ? &ff->card[end] : NULL;

			if (!e || ff->id[end] != fab.card[d].node ||
			    *fake_reg(e, e->router + LOOM_ROUTER_LOGICAL_ID) != l ||
			    *fake_reg(&ff->card[s], ff->card[s].router + LOOM_ROUTER_RT + l * 8 + 4) !=
			    fab.card[d].node) {
				tap_diag("card %u -> logical %u: ends at %d, want node %u", ff->id[s], l,
					 end, fab.card[d].node);
				ok = 0;
			}
		}
	}
	plan_free(&plan);
	verdict_free(&v);
	graph_free(g);
	return ok;
}

static char *mapping(void)
{
	static char text[1024];
	FILE *f = fmemopen(text, sizeof(text), "w");

	logical_print(f, &fab);
	fclose(f);
	text[strcspn(text, "\n")] = '\0';
	tap_diag("%s", text);
	return text;
}

int main(void)
{
	struct fm_graph *shape, *t;
	struct fake_fabric *ff;

	tap_plan(16);

	/* 1-4: topology files */
	t = topo_parse("0:0 1:1\n1:0 2:1\nnode 1 logical 5\nnode 2 logical 0 # a comment\n",
		       "a.topo", err, sizeof(err));
	tap_ok(t && t->logical && t->logical[1] == 5 && t->logical[2] == 0 && t->logical[0] == -1,
	       "'node N logical L' lines state logical ids");
	graph_free(t);
	t = topo_parse("0:0 1:1\n1:0 2:1\nnode 1 logical 5\nnode 2 logical 5\n", "dup.topo", err,
		       sizeof(err));
	tap_ok(!t && strstr(err, "dup.topo:4: nodes 1 and 2 both have logical id 5 (lines 3 and 4)"),
	       "a duplicate logical id names both nodes: %s", err);
	t = topo_parse("0:0 1:1\nnode 1 logical 65536\nnode 0 logical\nnode 9 logical 3\n"
		       "node 0 logical 2\nnode 0 logical 7\n", "bad.topo", err, sizeof(err));
	tap_ok(!t && strstr(err, "bad.topo:2: expected 'node NODE logical ID'") &&
	       strstr(err, "bad.topo:3: expected 'node NODE logical ID', found 3 fields") &&
	       strstr(err, "bad.topo:6: node 0 already has logical id 2 at line 5") &&
	       strstr(err, "bad.topo:4: node 9 has no cable in this file"),
	       "out of range, short, repeated and uncabled node lines: each named with its line");
	diag_lines(err);
	tap_ok(logical_parse_policy("c", &(enum fm_logical_policy){ 0 }) == 0 &&
	       logical_parse_policy("sideways", &(enum fm_logical_policy){ 0 }) < 0,
	       "policies: identity, compact (prefixes), nothing else");

	/* 5-7: identity and compact on physical ids 10..13 */
	shape = graph_from_shape("torus:2x2", err, sizeof(err));
	ff = fake_new(shape, 10);
	fabric_discover(&ff->m, &fab, NULL, err, sizeof(err));
	tap_ok(!logical_assign(&fab, FM_LOGICAL_IDENTITY, NULL, NULL, NULL, err, sizeof(err)) &&
	       logical_is_identity(&fab) && strstr(mapping(), "logical ids: the physical ids (4 cards)"),
	       "identity: logical = physical (10..13)");
	tap_ok(!logical_assign(&fab, FM_LOGICAL_COMPACT, NULL, NULL, NULL, err, sizeof(err)) &&
	       fab.card[0].logical == 0 && fab.card[3].logical == 3 &&
	       strstr(mapping(), "10=0 (was 10) 11=1 (was 11) 12=2 (was 12) 13=3 (was 13)"),
	       "compact: 10..13 become 0..3, printed with what they were");
	tap_ok(program_and_walk(ff), "programmed: tables indexed by 0..3 deliver to nodes 10..13");

	/* 8-9: a stated id wins, and the rest fill around it */
	t = topo_parse("10:0 11:2\n12:0 13:2\nnode 12 logical 0\n", "pin.topo", err, sizeof(err));
	fabric_discover(&ff->m, &fab, NULL, err, sizeof(err));
	tap_ok(t && !logical_assign(&fab, FM_LOGICAL_COMPACT, t, "pin.topo", NULL, err,
				    sizeof(err)) &&
	       fab.card[2].logical == 0 && fab.card[0].logical == 2 && fab.card[1].logical == 1 &&
	       fab.card[3].logical == 3, "compact (cards now 0..3) with node 12 stated as 0: "
	       "11 and 13 keep 1 and 3, node 10 takes the 2 node 12 gave up");
	mapping();
	tap_ok(program_and_walk(ff), "programmed: logical 0 is delivered at node 12");
	graph_free(t);

	/* 10-12: refusals naming both cards */
	t = topo_parse("10:0 11:2\nnode 11 logical 12\n", "clash.topo", err, sizeof(err));
	fabric_discover(&ff->m, &fab, NULL, err, sizeof(err));
	tap_ok(logical_assign(&fab, FM_LOGICAL_IDENTITY, t, "clash.topo", NULL, err,
			      sizeof(err)) < 0 &&
	       strstr(err, "nodes 11 and 12 both have logical id 12 (node 11: stated in clash.topo; "
		      "node 12: its physical id)"), "identity and a stated id that is another card's "
	       "physical id: %s", err);
	graph_free(t);
	t = topo_parse("10:0 11:2\nnode 11 logical 9\n", "big.topo", err, sizeof(err));
	tap_ok(logical_assign(&fab, FM_LOGICAL_COMPACT, t, "big.topo", NULL, err, sizeof(err)) < 0 &&
	       strstr(err, "node 11: logical id 9 stated in big.topo is not one of the 0..3"),
	       "compact and a stated id beyond 0..N-1: %s", err);
	graph_free(t);
	t = topo_parse("10:0 11:2\n12:0 13:2\nnode 13 logical 64\n", "wide.topo", err, sizeof(err));
	tap_ok(logical_assign(&fab, FM_LOGICAL_IDENTITY, t, "wide.topo", NULL, err, sizeof(err)) < 0 &&
	       strstr(err, "node 13: logical id 64 (stated in wide.topo) is beyond the routing "
		      "table of node 10 (64 entries"), "an id beyond a card's table names both "
	       "cards: %s", err);
	graph_free(t);
	fake_free(ff);
	graph_free(shape);

	/* 13-16: ring:5, node 2 dies: compact gives the spare node 4 its number */
	shape = graph_from_shape("ring:5", err, sizeof(err));
	ff = fake_new(shape, 0);
	fabric_discover(&ff->m, &fab, NULL, err, sizeof(err));
	logical_assign(&fab, FM_LOGICAL_IDENTITY, NULL, NULL, NULL, err, sizeof(err));
	tap_ok(program_and_walk(ff), "ring:5 programmed with identity ids");
	ff->card[2].silent = true;
	fabric_discover(&ff->m, &fab, NULL, err, sizeof(err));
	tap_ok(fab.ncards == 4 && !logical_assign(&fab, FM_LOGICAL_COMPACT, NULL, NULL, NULL, err,
						  sizeof(err)) &&
	       fab.card[0].logical == 0 && fab.card[1].logical == 1 && fab.card[2].logical == 3 &&
	       fab.card[3].logical == 2 && strstr(mapping(), "0=0 1=1 3=3 4=2 (was 4)"),
	       "node 2 dead: compact keeps 0, 1, 3 and gives node 4 the number 2");
	tap_ok(program_and_walk(ff), "programmed: logical 2 is now delivered at node 4");
	fabric_discover(&ff->m, &fab, NULL, err, sizeof(err));
	tap_ok(!logical_assign(&fab, FM_LOGICAL_IDENTITY, NULL, NULL, NULL, err, sizeof(err)) &&
	       logical_is_identity(&fab) && strstr(mapping(), "logical ids: the physical ids (4 "
						   "cards); changed: 4=4 (was 2)"),
	       "identity again: node 4 goes back to 4, and the line says so");
	fake_free(ff);
	graph_free(shape);
	return tap_exit_status();
}
