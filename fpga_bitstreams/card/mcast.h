/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The multicast block (LOOM_BLK_MCAST): the group table, CARD_MCAST_GROUPS
 * entries of two words in the register window.  The router reads it live
 * through its table view (route_view.mc) as it reads the routing table;
 * the host interface reads an entry to start a multicast put (at the
 * group's root) and to deliver a multicast copy (at a member).  Documented
 * in Documentation/hw/registers.rst and Documentation/hw/routing.rst.
 */
#ifndef LOOM_CARD_MCAST_H
#define LOOM_CARD_MCAST_H

#include <stdbool.h>
#include <stdint.h>

struct card;

/* A group table entry as the register window holds it. */
struct mcast_entry {
	uint32_t ports;		/* bit n: a copy on network port n */
	bool valid;
	bool host;		/* a copy to this card's host */
	uint16_t host_ctx;	/* the context that receives it */
	uint16_t members;	/* at the root: acknowledgements per packet */
};

/* Write the block header at @off (chained to @next), N_GROUPS and an empty table. */
void mcast_init(struct card *c, uint32_t off, uint32_t next);
/* Admin RESET: every entry invalid (zero). */
void mcast_reset(struct card *c);
/* The table's first word, for the router's view. */
const uint32_t *mcast_table(const struct card *c);
/* Entry @group, read once; false if @group is beyond the table. */
bool mcast_entry(const struct card *c, uint32_t group, struct mcast_entry *e);
/* Write entry @group (tests and harnesses; software writes the registers). */
void mcast_set(struct card *c, uint32_t group, const struct mcast_entry *e);

#endif
