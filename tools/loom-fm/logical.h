/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-fm: logical node ids.  The routing table of every card is indexed
 * by logical destination (T3E style) and every host addresses its peers
 * by logical id, so the logical ids are the fabric's addresses; the
 * physical ids (ROUTER NODE_ID) are the cards' serial numbers.
 * logical_assign() picks the logical id of every discovered card by a
 * policy (Documentation/tools/loom-fm.rst, "Logical ids"):
 *
 *  1. a card a topology file names in a 'node N logical L' line gets L;
 *  2. identity (the default): every other card its physical id, so an
 *     unchanged fabric keeps its addresses;
 *     compact: the N cards found get the ids 0..N-1 -- every other card
 *     keeps the id it has now (ROUTER LOGICAL_ID) when it is below N and
 *     free, the rest take the lowest free ids in physical order; so when a
 *     card dies, a spare takes over its number.
 *
 * Two cards with one id, or an id that some card's routing table cannot
 * index, are refused with a message naming both cards.
 */
#ifndef LOOM_FM_LOGICAL_H
#define LOOM_FM_LOGICAL_H

#include <stdio.h>

#include "fabric.h"
#include "graph.h"

enum fm_logical_policy { FM_LOGICAL_IDENTITY, FM_LOGICAL_COMPACT };

/* "identity" or "compact" (any prefix); 0, or -1 for anything else. */
int logical_parse_policy(const char *s, enum fm_logical_policy *policy);
const char *logical_policy_name(enum fm_logical_policy policy);

/*
 * Set card[i].logical of every card of f.  stated: a topology file's
 * graph (node numbers = physical ids) whose 'logical' array states ids,
 * or NULL; stated_name names it in messages.  A stated id for a node that
 * was not found is reported to log (when not NULL) and left free.  0, or
 * -1 with a message in err (nothing assigned that can be used).
 */
int logical_assign(struct fm_fabric *f, enum fm_logical_policy policy,
		   const struct fm_graph *stated, const char *stated_name, FILE *log,
		   char *err, size_t errlen);

/* Whether every card's logical id is its physical id. */
int logical_is_identity(const struct fm_fabric *f);

/*
 * One line: "logical ids: the physical ids (N cards)" or "logical ids
 * (physical=logical): 10=0 11=1 ..."; a card whose id changes from the
 * one it has now is followed by "(was C)".
 */
void logical_print(FILE *out, const struct fm_fabric *f);

/* [{"node":P,"logical":L,"was":C}, ...] */
void logical_print_json(FILE *out, const struct fm_fabric *f);

#endif
