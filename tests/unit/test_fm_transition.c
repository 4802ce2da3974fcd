// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm's reprogramming order against a fake fabric: from unprogrammed
 * cards to dor, old and new tables together are acyclic (any order);
 * a crafted ring transition whose union has a cycle, where programming
 * nodes 0 and 2 first would make a cyclic intermediate state, gets an
 * order (greedy) every state of which is acyclic; swapping two cards'
 * logical ids needs draining first; a search beyond the limit is refused
 * (nothing to write) or, forced, programmed in node order; after each
 * transition the cards route every pair.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "engine.h"
#include "fabric.h"
#include "logical.h"
#include "program.h"
#include "transition.h"
#include "verdict.h"
#include "test_fm_fakefab.h"

TAP_DEFINE;

static struct fm_fabric fab;
static char err[512];

/* Every ordered pair reaches the card with the destination's logical id. */
static int all_pairs(struct fake_fabric *ff)
{
	for (int s = 0; s < ff->ncards; s++)
		for (int d = 0; d < fab.ncards; d++)
			if (fake_walk(ff, s, fab.card[d].logical) < 0) {
				tap_diag("no route from card %d to logical %u", s, fab.card[d].logical);
				return 0;
			}
	return 1;
}

static struct fm_routes *compute(const char *engine, const struct fm_graph *g)
{
	struct fm_engine_opts o;
	struct fm_verdict v;

	engine_default_opts(&o);
	if (verdict_run(engine_find(engine), g, &o, &v, err, sizeof(err)))
		return NULL;
	cdg_check_free(&v.cdg);
	return v.routes;
}

/* Plan r on the discovered fabric, snapshot, choose the order; the printed line in line. */
static int choose(struct fake_fabric *ff, const struct fm_graph *g, const struct fm_routes *r,
		  struct fm_plan *plan, struct fm_transition *t, bool force, long limit,
		  char *line, size_t len)
{
	FILE *f;

	if (plan_build(&fab, r, plan, err, sizeof(err)) ||
	    plan_snapshot(&ff->m, &fab, plan, err, sizeof(err)) ||
	    transition_plan(&fab, g, plan, force, limit, t, err, sizeof(err))) {
		tap_diag("%s", err);
		return -1;
	}
	f = fmemopen(line, len, "w");
	transition_print(f, &fab, t);
	fclose(f);
	diag_lines(line);
	return 0;
}

/* Every state of the chosen order acyclic (checked independently of the search). */
static int order_ok(const struct fm_graph *g, const struct fm_plan *plan,
		    const struct fm_transition *t)
{
	struct fm_cdg_check c;
	int at, rc = transition_check_order(&fab, g, plan, t->step, t->nsteps, &at, &c);

	if (rc)
		tap_diag("state after %d steps: cycle of %d channels", at, c.cycle_len);
	cdg_check_free(&c);
	return rc == 0;
}

/* Write card c's routing entry for logical d on the fake card. */
static void set_entry(struct fake_fabric *ff, int c, int d, uint32_t w0)
{
	*fake_reg(&ff->card[c], ff->card[c].router + LOOM_ROUTER_RT + (uint32_t)d * 8) = w0;
}

int main(void)
{
	static char line[2048];
	struct fm_apply_stats st;
	struct fake_fabric *ff;
	struct fm_graph *shape, *g;
	struct fm_routes *r;
	struct fm_transition t;
	struct fm_plan plan;
	struct fm_cdg_check c;
	struct fm_step bad[4];
	int at;

	tap_plan(14);

	/* 1-2: unprogrammed cards (own route only) to dor on a 2x2 torus */
	shape = graph_from_shape("torus:2x2", err, sizeof(err));
	ff = fake_new(shape, 0);
	fabric_discover(&ff->m, &fab, NULL, err, sizeof(err));
	logical_assign(&fab, FM_LOGICAL_IDENTITY, NULL, NULL, NULL, err, sizeof(err));
	g = fabric_graph(&fab);
	r = compute("dor", shape);
	tap_ok(r && !choose(ff, g, r, &plan, &t, false, 0, line, sizeof(line)) &&
	       t.how == FM_TR_UNION && t.nsteps == 4 && strstr(line, "every order is deadlock-free"),
	       "no routes -> dor: old and new together acyclic, any order");
	tap_ok(!plan_apply(&ff->m, &fab, &plan, t.step, t.nsteps, &st, NULL, err, sizeof(err)) &&
	       all_pairs(ff), "programmed in that order: every pair routed");
	transition_free(&t);
	plan_free(&plan);
	routes_free(r);
	graph_free(g);
	fake_free(ff);
	graph_free(shape);

	/*
	 * 3-7: ring:4, one VC.  Old: the 2-hop routes of nodes 0 and 2 go +,
	 * of 1 and 3 go -; new: the other way round.  Each is acyclic; nodes 0
	 * and 2 new with 1 and 3 old close the four - channels into a cycle.
	 */
	shape = graph_from_shape("ring:4", err, sizeof(err));
	ff = fake_new(shape, 0);
	for (int n = 0; n < 4; n++) {
		set_entry(ff, n, (n + 1) % 4, LOOM_RT_W0_VALID | 0);
		set_entry(ff, n, (n + 3) % 4, LOOM_RT_W0_VALID | 1);
		set_entry(ff, n, (n + 2) % 4, LOOM_RT_W0_VALID | (uint32_t)(n % 2));
	}
	fabric_discover(&ff->m, &fab, NULL, err, sizeof(err));
	logical_assign(&fab, FM_LOGICAL_IDENTITY, NULL, NULL, NULL, err, sizeof(err));
	g = fabric_graph(&fab);
	r = routes_new(g);
	for (int n = 0; n < 4; n++) {
		r->port[n * 4 + (n + 1) % 4] = 0;
		r->port[n * 4 + (n + 3) % 4] = 1;
		r->port[n * 4 + (n + 2) % 4] = n % 2 ? 0 : 1;
	}
	tap_ok(!choose(ff, g, r, &plan, &t, false, 0, line, sizeof(line)) &&
	       t.cards_changing == 4 && t.entries_changing == 4,
	       "crafted ring transition: 4 cards, 4 entries change");
	bad[0] = (struct fm_step){ 0, false };
	bad[1] = (struct fm_step){ 2, false };
	bad[2] = (struct fm_step){ 1, false };
	bad[3] = (struct fm_step){ 3, false };
	tap_ok(transition_check_order(&fab, g, &plan, bad, 4, &at, &c) == 1 && at == 2 &&
	       c.cycle_len == 4, "programming nodes 0 then 2 first: the state after 2 steps has a "
	       "cycle of 4 channels (detected)");
	cdg_check_free(&c);
	tap_ok(t.how == FM_TR_GREEDY && strstr(line, "together have a dependency cycle") &&
	       !(t.nsteps >= 2 && t.step[0].card == 0 && t.step[1].card == 2) &&
	       !(t.nsteps >= 2 && t.step[0].card == 2 && t.step[1].card == 0),
	       "the union is cyclic: a greedy order is chosen, not 0 and 2 first");
	tap_ok(t.nsteps == 4 && order_ok(g, &plan, &t), "every state of that order is acyclic");
	tap_ok(!plan_apply(&ff->m, &fab, &plan, t.step, t.nsteps, &st, NULL, err, sizeof(err)) &&
	       st.routes_changed == 4 && all_pairs(ff), "programmed: 4 entries changed, every "
	       "pair routed");
	transition_free(&t);
	plan_free(&plan);
	routes_free(r);

	/*
	 * 8-11: the same ring, dor tables with datelines, then cards 0 and 2
	 * swap logical ids: mixing the two meanings of ids 0 and 2 makes
	 * packets turn back and forth: no card can go first; draining first
	 * works.
	 */
	r = compute("dor", shape);
	plan_build(&fab, r, &plan, err, sizeof(err));
	plan_apply(&ff->m, &fab, &plan, NULL, 0, &st, NULL, err, sizeof(err));
	plan_free(&plan);
	fabric_discover(&ff->m, &fab, NULL, err, sizeof(err));
	fab.card[0].logical = 2;
	fab.card[1].logical = 1;
	fab.card[2].logical = 0;
	fab.card[3].logical = 3;
	tap_ok(!choose(ff, g, r, &plan, &t, false, 0, line, sizeof(line)) &&
	       t.how == FM_TR_DRAIN && strstr(line, "no card-by-card order is deadlock-free") &&
	       strstr(line, "draining"), "swapping logical ids 0 and 2: no card-by-card order, "
	       "drained first");
	tap_ok(order_ok(g, &plan, &t), "every state of the drain order is acyclic");
	tap_ok(!plan_apply(&ff->m, &fab, &plan, t.step, t.nsteps, &st, NULL, err, sizeof(err)) &&
	       all_pairs(ff), "programmed: every pair reaches its new logical id");
	tap_ok(*fake_reg(&ff->card[2], ff->card[2].router + LOOM_ROUTER_LOGICAL_ID) == 0 &&
	       *fake_reg(&ff->card[0], ff->card[0].router + LOOM_ROUTER_RT + 0 * 8 + 4) == 2,
	       "node 2 now has logical id 0, and entry 0 names physical node 2");
	transition_free(&t);
	plan_free(&plan);

	/* 12-14: a search too large for the limit: refused, or forced in node order */
	fabric_discover(&ff->m, &fab, NULL, err, sizeof(err));
	for (int i = 0; i < 4; i++)
		fab.card[i].logical = (uint32_t)(3 - i);
	tap_ok(!choose(ff, g, r, &plan, &t, false, 1, line, sizeof(line)) &&
	       t.how == FM_TR_REFUSED && t.nsteps == 0 && strstr(line, "nothing written"),
	       "beyond the search limit: refused, no step to apply");
	transition_free(&t);
	plan_free(&plan);
	tap_ok(!choose(ff, g, r, &plan, &t, true, 1, line, sizeof(line)) &&
	       t.how == FM_TR_FORCED && t.nsteps == 4 && t.step[0].card == 0 &&
	       t.step[3].card == 3 && strstr(line, "--force"), "forced: programmed in node order");
	tap_ok(!plan_apply(&ff->m, &fab, &plan, t.step, t.nsteps, &st, NULL, err, sizeof(err)) &&
	       all_pairs(ff), "and every pair routed afterwards");
	transition_free(&t);
	plan_free(&plan);
	routes_free(r);
	graph_free(g);
	fake_free(ff);
	graph_free(shape);
	return tap_exit_status();
}
