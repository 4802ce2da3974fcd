/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-fm: programming the cards.  A plan is the list of register writes
 * that make every card's logical id, routing table and VC table say what
 * the computed routes say (plan_build(), pure); plan_apply() reads each
 * register first and writes only those that differ, so reprogramming
 * after a failure touches only what changed; plan_verify() reads a sample
 * back.  Routing entries are indexed by logical destination; entries of
 * the table's first FM_RT_SPAN-rounded part that name no card are
 * invalidated (stale routes from before).
 */
#ifndef LOOM_FM_PROGRAM_H
#define LOOM_FM_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fabric.h"
#include "routes.h"

/* Routing entries managed: the logical ids in use rounded up to this. */
#define FM_RT_SPAN	32

enum fm_write_kind { FM_W_LOGICAL, FM_W_RT_PHYS, FM_W_RT_ENTRY, FM_W_VCT_PORT, FM_W_VCT_START,
		     FM_W_MCAST_W1, FM_W_MCAST_W0 };

struct fm_write {
	int card;			/* index in the fabric */
	enum fm_write_kind kind;
	uint32_t addr, value;
	int dest;			/* RT: logical destination; VCT_PORT: port;
					 * VCT_START: the first destination of the word;
					 * MCAST: the group */
	bool have_cur;			/* cur holds the register (plan_snapshot()) */
	uint32_t cur;
};

/*
 * One step of the programming order (transition.h): write all of a card's
 * registers that differ, or only invalidate the card's routing entries
 * that change (drain: packets for those destinations are discarded there
 * until the card is programmed).
 */
struct fm_step {
	int card;
	bool drain;
};

struct fm_plan {
	int n, cap;
	struct fm_write *w;
};

/*
 * Plan the writes for routes r computed on the graph of fabric f (graph
 * node i = card i).  0, or -1 with a message in err (a logical id beyond
 * a card's table, ENOMEM).
 */
int plan_build(const struct fm_fabric *f, const struct fm_routes *r, struct fm_plan *plan,
	       char *err, size_t errlen);
void plan_free(struct fm_plan *plan);

/*
 * plan_build() over an array of cards, planning only cards lo..hi-1 (the
 * logical ids of all ncards index the tables): a large fabric is planned
 * a few cards at a time, so that no plan of every card's table is held.
 */
int plan_build_cards(const struct fm_card *card, int ncards, const struct fm_routes *r,
		     int lo, int hi, struct fm_plan *plan, char *err, size_t errlen);

/*
 * Append the multicast group entries of every card to a plan (the trees'
 * node numbers are card indices): groups 0 .. the highest id rounded up to
 * FM_RT_SPAN (at most the card's N_GROUPS) are managed, each entry word 1
 * before word 0 so that it turns valid last; entries of no group, and of
 * groups whose tree misses the card, are invalidated.  0, or -1 with a
 * message in err: a card of a tree without a multicast block, a group
 * beyond a card's N_GROUPS.  Cards without the block that no tree needs are
 * left alone.
 */
struct fm_mcast_trees;
int plan_add_mcast(const struct fm_fabric *f, const struct fm_mcast_trees *t,
		   struct fm_plan *plan, char *err, size_t errlen);

/* Whether a write changes its register (an invalid entry stays invalid whatever its bits). */
bool plan_write_changes(const struct fm_write *w, uint32_t cur);

/*
 * Read every register the plan writes into w->cur: what the cards hold
 * now (for the transition check, and so plan_apply() need not read
 * again).  0, or -1 with a message in err naming the card and register.
 */
int plan_snapshot(struct fm_maint *m, const struct fm_fabric *f, struct fm_plan *plan,
		  char *err, size_t errlen);

struct fm_apply_stats {
	long checked;			/* registers read */
	long written;			/* registers written */
	long routes_changed;		/* routing entries whose port/validity changed */
	int cards_changed;		/* cards with at least one write */
};

/*
 * Apply the plan in the order of steps[0..nsteps-1] (steps NULL: every
 * card programmed, in index order): compare with the register (w->cur
 * after plan_snapshot(), else read it), write what differs (a routing
 * entry's physical destination before the entry itself).  When log is
 * not NULL, each changed routing entry is printed there.  0, or -1 with a
 * message in err naming the card and register that failed.
 */
int plan_apply(struct fm_maint *m, const struct fm_fabric *f, const struct fm_plan *plan,
	       const struct fm_step *steps, int nsteps, struct fm_apply_stats *st, FILE *log,
	       char *err, size_t errlen);

/*
 * Read back the logical id and up to 16 routing entries per card; 0, or
 * -1 with the first mismatch in err.  *checked counts the reads.
 */
int plan_verify(struct fm_maint *m, const struct fm_fabric *f, const struct fm_plan *plan,
		long *checked, char *err, size_t errlen);

#endif
