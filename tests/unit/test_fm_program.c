// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm programming against a fake fabric: the plan for a 2x2 torus
 * (dor, datelines) written by maintenance makes every card's registers
 * route every pair over the cables, with the VC table the routes name;
 * applying it again writes nothing; stale entries are invalidated; after
 * a cut the updown reroute changes only some entries and every pair works
 * again over usable cables; read-back catches a card that ignored its
 * writes; a card that stops answering fails the apply with its name; a
 * table too small for the logical ids refuses the plan.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "engine.h"
#include "fabric.h"
#include "program.h"
#include "verdict.h"
#include "test_fm_fakefab.h"

TAP_DEFINE;

static struct fm_fabric fab;

/* Every ordered pair of fake cards reaches its destination; -1 or the max hops. */
static int all_pairs(struct fake_fabric *ff)
{
	int max = 0;

	for (int s = 0; s < ff->ncards; s++)
		for (int d = 0; d < ff->ncards; d++) {
			int h = fake_walk(ff, s, ff->id[d]);

			if (h < 0) {
				tap_diag("no route from node %u to node %u", ff->id[s], ff->id[d]);
				return -1;
			}
			if (h > max)
				max = h;
		}
	return max;
}

static struct fm_routes *compute(const char *engine, const struct fm_graph *g)
{
	struct fm_engine_opts o;
	struct fm_verdict v;
	char err[256];

	engine_default_opts(&o);
	if (verdict_run(engine_find(engine), g, &o, &v, err, sizeof(err))) {
		tap_diag("%s: %s", engine, err);
		return NULL;
	}
	if (!verdict_complete(&v) || !verdict_acyclic(&v))
		tap_diag("%s: incomplete or cyclic", engine);
	cdg_check_free(&v.cdg);
	return v.routes;
}

int main(void)
{
	static char err[512], log[16384];
	struct fm_apply_stats st;
	struct fake_fabric *ff;
	struct fm_graph *shape, *g;
	struct fm_routes *r;
	struct fm_plan plan;
	long checked;
	FILE *f;
	bool ok;

	tap_plan(13);
	shape = graph_from_shape("torus:2x2", err, sizeof(err));
	ff = fake_new(shape, 0);
	/* a stale route from before, beyond the fabric's ids */
	*fake_reg(&ff->card[1], ff->card[1].router + LOOM_ROUTER_RT + 20 * 8) =
		LOOM_RT_W0_VALID | 1;
	fabric_discover(&ff->m, &fab, NULL, err, sizeof(err));
	/* the shape's graph: node i = card i (ids 0..3), with coordinates for dor */
	r = compute("dor", shape);
	tap_ok(r && plan_build(&fab, r, &plan, err, sizeof(err)) == 0, "plan for dor on the 2x2 "
	       "torus");

	ok = plan_apply(&ff->m, &fab, &plan, NULL, 0, &st, NULL, err, sizeof(err)) == 0;
	tap_ok(ok && st.cards_changed == 4 && st.routes_changed == 4 * 3 + 1,
	       "applied: 4 cards changed, 13 entries (12 routes + 1 stale); %ld written",
	       st.written);
	tap_ok(all_pairs(ff) == 2, "every pair routed by the cards' registers, at most 2 hops");
	tap_ok(!(*fake_reg(&ff->card[1], ff->card[1].router + LOOM_ROUTER_RT + 20 * 8) &
		 LOOM_RT_W0_VALID), "the stale entry 20 on node 1 is invalid");
	/* node 1 (1,0) is the last in X: its +X port 0 is a dateline channel */
	tap_ok(*fake_reg(&ff->card[1], ff->card[1].vct + LOOM_VCT_PORT_CFG) ==
	       (0 | LOOM_VCT_PORT_DATELINE) &&
	       *fake_reg(&ff->card[1], ff->card[1].vct + LOOM_VCT_PORT_CFG + 4) == 1 &&
	       *fake_reg(&ff->card[0], ff->card[0].vct + LOOM_VCT_PORT_CFG) == 0 &&
	       *fake_reg(&ff->card[0], ff->card[0].vct + LOOM_VCT_PORT_CFG + 8) ==
	       (0 | LOOM_VCT_PORT_DATELINE) &&
	       *fake_reg(&ff->card[2], ff->card[2].router + LOOM_ROUTER_RT + 1 * 8 + 4) == 1,
	       "VC table: port dimensions and datelines as dor names them; phys ids in word 1");
	ok = plan_verify(&ff->m, &fab, &plan, &checked, err, sizeof(err)) == 0;
	tap_ok(ok && checked == 4 * 5, "read back: the logical id and 4 routes of each card "
	       "agree (%ld reads)", checked);

	ok = plan_apply(&ff->m, &fab, &plan, NULL, 0, &st, NULL, err, sizeof(err)) == 0;
	tap_ok(ok && st.written == 0 && st.cards_changed == 0 && st.checked > 0,
	       "applying the same plan again writes nothing (%ld read)", st.checked);
	plan_free(&plan);
	routes_free(r);

	/* a cut: dor cannot route around it, updown on the discovered graph can */
	fake_cut(ff, 0, 0);
	fabric_discover(&ff->m, &fab, NULL, err, sizeof(err));
	g = fabric_graph(&fab);
	r = compute("updown", g);
	f = fmemopen(log, sizeof(log), "w");
	ok = r && plan_build(&fab, r, &plan, err, sizeof(err)) == 0 &&
	     plan_apply(&ff->m, &fab, &plan, NULL, 0, &st, f, err, sizeof(err)) == 0;
	fclose(f);
	tap_ok(ok && st.routes_changed > 0 && st.routes_changed < 12 && strstr(log, "node 0: "),
	       "after cutting 0:0, updown changes %ld entries on %d cards", st.routes_changed,
	       st.cards_changed);
	diag_lines(log);
	tap_ok(all_pairs(ff) > 0, "every pair works again over usable cables");
	plan_free(&plan);

	/* a card ignoring its routing table writes: read-back says so */
	ff->card[3].rt_read_only = true;
	memset(&ff->card[3].regs[(ff->card[3].router + LOOM_ROUTER_RT) / 4], 0, FAKE_RT_ENTRIES * 8);
	plan_build(&fab, r, &plan, err, sizeof(err));
	plan_apply(&ff->m, &fab, &plan, NULL, 0, &st, NULL, err, sizeof(err));
	tap_ok(plan_verify(&ff->m, &fab, &plan, &checked, err, sizeof(err)) < 0 &&
	       strstr(err, "node 3: register"), "read-back catches it: %s", err);
	ff->card[3].rt_read_only = false;

	/* a card that stops answering in the middle */
	memset(&ff->card[2].regs[(ff->card[2].router + LOOM_ROUTER_RT) / 4], 0, FAKE_RT_ENTRIES * 8);
	ff->fail_writes_after = 2;
	tap_ok(plan_apply(&ff->m, &fab, &plan, NULL, 0, &st, NULL, err, sizeof(err)) < 0 &&
	       strstr(err, "node 2: writing register") && strstr(err, "timed out"),
	       "a write lost: %s", err);
	ff->fail_writes_after = -1;
	plan_free(&plan);

	/* logical ids beyond a table; two cards with one logical id */
	fab.card[1].logical = FAKE_RT_ENTRIES;
	tap_ok(plan_build(&fab, r, &plan, err, sizeof(err)) < 0 && strstr(err, "routing entries"),
	       "a logical id beyond the table: %s", err);
	fab.card[1].logical = 2;
	tap_ok(plan_build(&fab, r, &plan, err, sizeof(err)) < 0 &&
	       strstr(err, "both have logical id 2"), "two cards with one logical id: %s", err);
	routes_free(r);
	graph_free(g);
	fake_free(ff);
	graph_free(shape);
	return tap_exit_status();
}
