/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-fm: a safe order to reprogram the cards.  configure and watch
 * rewrite the cards one after the other, so while they do, some cards
 * route with the old tables and some with the new; packets in flight
 * follow that mix.  Every such intermediate state must be free of
 * routing deadlock, i.e. its channel dependency graph acyclic, even when
 * the old and the new tables each are.  transition_plan() models the
 * tables as the registers hold them (plan_snapshot(): old, the plan:
 * new; routing entries by logical destination, VC tables) and picks the
 * programming order:
 *
 *  1. union: the dependencies of old and new tables taken together (at
 *     every card either table, independently per packet) have no cycle:
 *     every order is safe; cards in index order.
 *  2. greedy: otherwise build the order one card at a time, each time
 *     taking the first card whose programming leaves the state acyclic.
 *  3. drain: when no card-by-card order exists, first invalidate the
 *     routing entries that change, card by card (packets for those
 *     destinations are discarded meanwhile: the states are the old
 *     tables minus some entries), then program the cards in a greedy
 *     order from the drained state.
 *  4. refused: not even that is acyclic; nothing is written (unless
 *     force: then programmed in index order, with a warning).
 *
 * Every state of the chosen order is checked (the first and last too).
 * The granularity is the card: the registers of one card count as
 * changing together.  Documentation/tools/loom-fm.rst, "Reprogramming".
 */
#ifndef LOOM_FM_TRANSITION_H
#define LOOM_FM_TRANSITION_H

#include <stdbool.h>
#include <stdio.h>

#include "check.h"
#include "fabric.h"
#include "graph.h"
#include "program.h"

enum fm_transition_how {
	FM_TR_NOTHING,		/* no card changes */
	FM_TR_UNION,		/* any order: the union has no cycle */
	FM_TR_GREEDY,		/* a card order found step by step */
	FM_TR_DRAIN,		/* changing entries invalidated first */
	FM_TR_OLD_CYCLIC,	/* the cards' tables have a cycle now: index order */
	FM_TR_FORCED,		/* no safe order; programmed anyway (force) */
	FM_TR_REFUSED,		/* no safe order; nothing to be written */
};

struct fm_transition {
	enum fm_transition_how how;
	int nsteps;
	struct fm_step *step;		/* the order, for plan_apply() */
	int cards_changing, entries_changing;
	long states_checked;
	bool too_large;			/* beyond limit_walks: no search done */
	/* the first cyclic state met (greedy or drain failing): after the
	 * steps bad_step[0..bad_nsteps-1]; its cycle (node = card index) */
	int bad_nsteps;
	struct fm_step *bad_step;
	struct fm_cdg_check bad;
};

/*
 * Choose the order for plan (after plan_snapshot()) on the fabric f whose
 * usable cables are g (node i = card i).  limit_walks bounds the greedy
 * search (route walks; 0 = the default, 20 million): beyond it, when the
 * union has a cycle, no search is done (refused, or forced).  0, or -1
 * with a message in err (ENOMEM).
 */
int transition_plan(const struct fm_fabric *f, const struct fm_graph *g,
		    const struct fm_plan *plan, bool force, long limit_walks,
		    struct fm_transition *t, char *err, size_t errlen);
void transition_free(struct fm_transition *t);

/*
 * Check every state of programming plan in the order steps[0..n-1]: the
 * state before, after each step.  The first cyclic state's cycle goes to
 * c and its step count (0: before any) to *at.  0 all acyclic, 1 a cycle,
 * -1 ENOMEM.
 */
int transition_check_order(const struct fm_fabric *f, const struct fm_graph *g,
			   const struct fm_plan *plan, const struct fm_step *steps, int n,
			   int *at, struct fm_cdg_check *c);

/* "nothing", "union", "greedy", "drain", "old-cyclic", "forced", "refused" */
const char *transition_how_name(enum fm_transition_how how);

/* What was chosen, in one line (a cycle channel by channel). */
void transition_print(FILE *out, const struct fm_fabric *f, const struct fm_transition *t);

#endif
